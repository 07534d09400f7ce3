// Router figures for `npm run bench` (issue 16, target 4), on a generated Git repository of
// 100,000 files (20,000 in quick mode; DOCKET_BENCH_ROUTER_FILES overrides):
//
// - router.plan.warm — a whole `node dist/docket.js plan "<task>"` process when nothing changed
//   since the Router index was written, next to a `git ls-files --cached --others
//   --exclude-standard -z` process (the listing the snapshot itself needs) in the same
//   interleaved rounds; target ≤ 2×;
// - router.plan.edited — the same after one source file was edited (the index re-reads only it);
// - router.plan.cold — the same with no index (deleted before each round, outside the timing);
//   target ≤ 10×;
// - router.plan.perTask — planning one task in-process once the index is loaded, median over
//   several tasks; target ≤ 20 ms.
//
// Each process is timed by bash's `time` (getrusage of the children: user + system CPU of the
// process and every process it waited for, such as git, in microseconds, printed to the ms), under
// `nice -n 10`. CPU is the basis: the machine is shared and wall time is noisy; wall is reported.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { findPackageRoot } from "../server/developer/operations/skillCatalog";
import { loadCatalogue } from "../server/router/catalogueFiles";
import { plan } from "../server/router/plan";
import type { PlanOptions } from "../server/router/planSchema";
import { SnapshotCache } from "../server/router/snapshot";
import { generateWorkspace } from "../test/support/routerWorkspace";
import { figure, measuredOf, type BenchFigure, type Sample } from "./figure";

const TASKS = [
  "fix the retry bug in module7.ts without touching billing",
  "add a cache for the parser in pkg-0003",
  "refactor packages/pkg-0010/src/module1.ts, don't touch the tests",
  "investigate why the render step is slow in React",
  "review the Go service in services/api/main.go for security issues",
];
const TASK = TASKS[0] as string;
const FLOOR_ARGS = ["ls-files", "--cached", "--others", "--exclude-standard", "-z"];
const FLOOR_LABEL = "git ls-files --cached --others --exclude-standard -z";

function quoted(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/** One process, timed by bash's `time`: CPU (user + system, children included) and wall, in ms. */
function timedProcess(cwd: string, command: readonly string[]): Sample {
  const script = `TIMEFORMAT='%3R %3U %3S'; time ${command.map(quoted).join(" ")} >/dev/null 2>/dev/null`;
  const result = spawnSync("nice", ["-n", "10", "bash", "-c", script], { cwd, encoding: "utf8" });
  const line = result.stderr.trim().split("\n").pop() ?? "";
  const [wall, user, system] = line.split(" ").map(Number);
  if (result.status !== 0 || wall === undefined || user === undefined || system === undefined || [wall, user, system].some(Number.isNaN)) {
    throw new Error(`${command.join(" ")} could not be timed: ${result.stderr}`);
  }
  return { cpuMs: (user + system) * 1000, wallMs: wall * 1000 };
}

function git(cwd: string, args: readonly string[]): void {
  const result = spawnSync("git", ["-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr}`);
}

function cpuNow(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

interface Rounds {
  readonly workload: Sample[];
  readonly floor: Sample[];
}

/** Interleaved rounds: `prepare` (untimed), the workload, then the floor, `rounds` times. */
function interleaved(rounds: number, prepare: () => void, workload: () => Sample, floor: () => Sample): Rounds {
  const result: Rounds = { workload: [], floor: [] };
  for (let round = 0; round < rounds; round += 1) {
    prepare();
    result.workload.push(workload());
    result.floor.push(floor());
  }
  return result;
}

export async function routerFigures(options: { quick: boolean }): Promise<BenchFigure[]> {
  const files = Number(process.env.DOCKET_BENCH_ROUTER_FILES ?? (options.quick ? 20_000 : 100_000));
  const rounds = Number(process.env.DOCKET_BENCH_ROUTER_RUNS ?? (options.quick ? 5 : 7));
  const coldRounds = Math.max(3, Math.floor(rounds / 2));
  const packageRoot = findPackageRoot(__dirname);
  const docket = path.join(packageRoot, "dist", "docket.js");
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "docket-bench-router-"));
  const workload = `${files.toLocaleString("en-US")} files (generated Git repository)`;
  try {
    const root = path.join(directory, "ws");
    fs.mkdirSync(root);
    generateWorkspace(root, files);
    git(root, ["init", "--quiet"]);
    git(root, ["add", "--all"]);
    git(root, ["commit", "--quiet", "-m", "bench"]);
    const indexFolder = path.join(root, ".docket", "router-index");
    const planProcess = (): Sample => timedProcess(root, [process.execPath, docket, "plan", TASK, "--workspace", root]);
    const floorProcess = (): Sample => timedProcess(root, ["git", ...FLOOR_ARGS]);
    const figures: BenchFigure[] = [];

    // Cold: no index at all (what every call cost before the index).
    const cold = interleaved(coldRounds, () => fs.rmSync(indexFolder, { recursive: true, force: true }), planProcess, floorProcess);
    figures.push(
      figure({
        id: "router.plan.cold",
        label: "docket plan, no Router index (cold)",
        workload,
        rounds: coldRounds,
        measured: measuredOf(cold.workload),
        floor: { label: FLOOR_LABEL, measured: measuredOf(cold.floor) },
        basis: "cpu",
        target: { max: 10, kind: "ratio", text: "≤ 10× git ls-files with no index (issue 16)" },
      }),
    );

    // Warm: let the index settle (the first build after a change may record racy stamps).
    planProcess();
    planProcess();
    const warm = interleaved(rounds, () => undefined, planProcess, floorProcess);
    figures.push(
      figure({
        id: "router.plan.warm",
        label: "docket plan, nothing changed since the index was written (warm)",
        workload,
        rounds,
        measured: measuredOf(warm.workload),
        floor: { label: FLOOR_LABEL, measured: measuredOf(warm.floor) },
        basis: "cpu",
        target: { max: 2, kind: "ratio", text: "≤ 2× git ls-files when nothing changed (issue 16)" },
      }),
    );

    // One source file edited before each round: the index re-reads that file only.
    const edited = path.join(root, "packages", "pkg-0000", "src", "module1.ts");
    let edit = 0;
    const afterEdit = interleaved(rounds, () => fs.appendFileSync(edited, `// edit ${(edit += 1)}\n`), planProcess, floorProcess);
    figures.push(
      figure({
        id: "router.plan.edited",
        label: "docket plan after one source file was edited",
        workload,
        rounds,
        measured: measuredOf(afterEdit.workload),
        floor: { label: FLOOR_LABEL, measured: measuredOf(afterEdit.floor) },
        basis: "cpu",
        note: "no target of its own; between warm and cold",
      }),
    );

    // Per task, in-process, once the index is loaded: what the backend pays per plan.
    const cache = new SnapshotCache(root);
    const snapshot = await cache.get();
    const catalogue = loadCatalogue(root, packageRoot);
    const planOptions: PlanOptions = { mode: null, reports: [], ranChecks: [] };
    for (const task of TASKS) plan(task, snapshot, catalogue, planOptions); // JIT warm-up, as a long-lived backend is
    const perTask: Sample[] = [];
    for (let round = 0; round < rounds; round += 1) {
      for (const task of TASKS) {
        const cpuStart = cpuNow();
        const wallStart = performance.now();
        plan(task, snapshot, catalogue, planOptions);
        perTask.push({ cpuMs: cpuNow() - cpuStart, wallMs: performance.now() - wallStart });
      }
    }
    figures.push(
      figure({
        id: "router.plan.perTask",
        label: `plan per task in-process, index loaded (${TASKS.length} tasks × ${rounds} rounds)`,
        workload,
        rounds: perTask.length,
        measured: measuredOf(perTask),
        basis: "cpu",
        target: { max: 20, kind: "absolute", text: "≤ 20 ms per task on a warm index (issue 16)" },
      }),
    );
    return figures;
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

function printFigure(entry: BenchFigure): void {
  const cpu = entry.measured.cpuMs;
  const wall = entry.measured.wallMs;
  const floor = entry.floor === undefined ? "" : `   floor ${entry.floor.measured.cpuMs.median.toFixed(0)} ms CPU / ${entry.floor.measured.wallMs.median.toFixed(0)} ms wall`;
  const value = entry.floor === undefined ? `${entry.value.toFixed(1)} ms` : `${entry.value.toFixed(2)}×`;
  const verdict = entry.pass === undefined ? "" : entry.pass ? `  PASS (${entry.target?.text ?? ""})` : `  FAIL (${entry.target?.text ?? ""})`;
  console.log(
    `${entry.id.padEnd(22)} ${value.padStart(8)}   CPU ${cpu.median.toFixed(1)} ms [${cpu.min.toFixed(0)}–${cpu.max.toFixed(0)}], wall ${wall.median.toFixed(0)} ms${floor}${verdict}`,
  );
}

/** `npm run bench`'s Router section: the figures above, printed. */
export async function runRouterBench(options: { quick: boolean } = { quick: false }): Promise<void> {
  const figures = await routerFigures(options);
  console.log(`\nrouter — ${figures[0]?.workload ?? ""}, CPU medians of interleaved rounds (nice -n 10)`);
  for (const entry of figures) printFigure(entry);
}
