// Router figures for `npm run bench`: on a generated workspace of DOCKET_BENCH_ROUTER_FILES files
// (100,000 by default), the snapshot build (Git listing, and the .gitignore-honouring walk
// outside Git) and the per-task plan latency, reported separately, each next to a floor
// measured in the same run: for the snapshot, the bare cost of listing those files (a recursive
// readdir; `git ls-files`); for a plan, one pass over the snapshot's file list looking up the
// task's words by basename (the least any grounding of named files must do).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { findPackageRoot } from "../server/developer/operations/skillCatalog";
import { loadCatalogue } from "../server/router/catalogueFiles";
import { plan } from "../server/router/plan";
import type { PlanOptions, WorkspaceSnapshot } from "../server/router/planSchema";
import { buildSnapshot, SnapshotCache } from "../server/router/snapshot";
import { generateWorkspace } from "../test/support/routerWorkspace";

const FILES = Number(process.env.DOCKET_BENCH_ROUTER_FILES ?? 100_000);
const SNAPSHOT_RUNS = Number(process.env.DOCKET_BENCH_ROUTER_SNAPSHOT_RUNS ?? 1);
const PLAN_RUNS = Number(process.env.DOCKET_BENCH_ROUTER_PLAN_RUNS ?? 5);

const TASKS = [
  "fix the retry bug in module7.ts without touching billing",
  "add a cache for the parser in pkg-0003",
  "refactor packages/pkg-0010/src/module1.ts, don't touch the tests",
  "investigate why the render step is slow in React",
  "review the Go service in services/api/main.go for security issues",
];

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function timed<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

async function medianMs(runs: number, work: () => Promise<unknown> | unknown, warmUp = true): Promise<number> {
  if (warmUp) await work(); // let the JIT settle before timing
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) times.push((await timed(work)).ms);
  return median(times);
}

function line(label: string, ms: number, floorLabel: string, floorMs: number): void {
  console.log(`${label.padEnd(52)} ${ms.toFixed(1).padStart(9)} ms   ${floorLabel} ${floorMs.toFixed(1).padStart(8)} ms   ratio ${(ms / floorMs).toFixed(2)}x floor`);
}

function git(cwd: string, args: readonly string[]): string {
  const result = spawnSync("git", args, { cwd, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout;
}

export async function runRouterBench(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "docket-bench-router-"));
  try {
    // One tree, measured first as a plain folder (walk), then as a Git work tree.
    const walkRoot = path.join(root, "ws");
    const gitRoot = walkRoot;
    fs.mkdirSync(walkRoot);
    const generated = await timed(() => generateWorkspace(walkRoot, FILES));
    console.log(
      `\nrouter — generated workspace of ${generated.value.files.length} files (${generated.ms.toFixed(0)} ms to write), snapshot median of ${SNAPSHOT_RUNS}, plan median of ${PLAN_RUNS} per task`,
    );

    // Snapshot build, outside Git: the walk honours .gitignore files; floor = listing the tree.
    const walkFloor = await medianMs(SNAPSHOT_RUNS, () => fs.readdirSync(walkRoot, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length);
    // No warm-up for whole snapshot builds: at this size one build is seconds, and the files
    // are already in the page cache from being written.
    const walkMs = await medianMs(SNAPSHOT_RUNS, () => buildSnapshot(walkRoot), false);
    line("snapshot build, walk (no Git)", walkMs, "recursive readdir", walkFloor);

    // Snapshot build in a Git work tree; floor = the listing alone.
    git(gitRoot, ["init", "--quiet"]);
    git(gitRoot, ["add", "--all"]);
    const gitFloor = await medianMs(SNAPSHOT_RUNS, () => git(gitRoot, ["ls-files", "--cached", "--others", "--exclude-standard", "-z"]));
    const gitMs = await medianMs(SNAPSHOT_RUNS, () => buildSnapshot(gitRoot), false);
    line("snapshot build, Git", gitMs, "git ls-files", gitFloor);

    // Incremental rebuild after one file changed (what the backend does on a file-change notice).
    const cache = new SnapshotCache(gitRoot);
    await cache.get();
    const changed = "packages/pkg-0000/src/module1.ts";
    const incrementalTimes: number[] = [];
    for (let index = 0; index < Math.max(3, SNAPSHOT_RUNS); index += 1) {
      fs.appendFileSync(path.join(gitRoot, changed), `// edit ${index}\n`);
      cache.invalidate([changed]);
      incrementalTimes.push((await timed(() => cache.get())).ms);
    }
    line("snapshot rebuild after 1 changed file, Git", median(incrementalTimes), "git ls-files", gitFloor);

    // Per-task plan latency against the built snapshot and the real catalogue.
    const snapshot: WorkspaceSnapshot = await cache.get();
    const catalogue = loadCatalogue(gitRoot, findPackageRoot(__dirname));
    const options: PlanOptions = { mode: null, reports: [], ranChecks: [] };
    const groundingPass = (task: string): number => {
      const words = new Set(task.split(/[\s,]+/u));
      let hits = 0;
      for (const file of snapshot.files) if (words.has(file.slice(file.lastIndexOf("/") + 1))) hits += 1;
      return hits;
    };
    const planFloor = median(await Promise.all(TASKS.map((task) => medianMs(PLAN_RUNS, () => groundingPass(task)))));
    const perTask: number[] = [];
    const failed: string[] = [];
    for (const task of TASKS) {
      try {
        perTask.push(await medianMs(PLAN_RUNS, () => plan(task, snapshot, catalogue, options)));
      } catch (error) {
        // A plan that cannot be made is a finding of the bench, not a reason to stop it.
        failed.push(`${JSON.stringify(task)}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
      }
    }
    if (perTask.length > 0) {
      line(`plan per task (median of ${perTask.length} tasks)`, median(perTask), "grounding pass", planFloor);
      console.log(`${`plan per task, slowest of ${perTask.length} tasks`.padEnd(52)} ${Math.max(...perTask).toFixed(1).padStart(9)} ms`);
    }
    for (const failure of failed) console.log(`plan FAILED for ${failure}`);
    if (failed.length > 0) process.exitCode = 1;
    console.log(`snapshot: ${snapshot.files.length} files, ${snapshot.modules.length} modules, ${snapshot.imports.length} import edges; limits: ${snapshot.limits.join("; ") || "none"}`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
