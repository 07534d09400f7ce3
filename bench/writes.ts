// Writes on a large ledger (issue 16, target 2):
//
// - "write.on.large": `docket on` then `docket off`, each a whole `node dist/docket.js` process, on
//   a ledger of 1,000,000 generated events (quick: 100,000) whose snapshot (checkpoint + tail seed)
//   is current, against the same two commands on a ledger of 100 events, in interleaved rounds.
//   CPU time of the children (user + system, their git children included). Target ≤ 1.5×.
// (A hook with no usable snapshot on a large ledger is bench/hooks.ts's hook.preToolUse.noSnapshot.)
//
// Ledgers are the bench's cached realistic workloads (bench/workloads.ts: full work cycles, 20
// events per scope), copied once into a Git workspace kept with its snapshot under os.tmpdir(),
// keyed by the cached ledger's name; each round's on/off pair adds three lines to it.
//   node out/bench/writes.js [--quick]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { lookupCheckpointFile } from "../server/hooks/checkpoint";
import { figure, measuredOf, type BenchFigure, type Sample } from "./figure";
import { ChildMeter } from "./runner";
import { EVENTS_PER_SCOPE, realisticLedger, ensureSnapshot } from "./workloads";
import { repoRoot } from "../test/support/repoRoot";

const WRITE_TARGET = 1.5;

function git(cwd: string, args: readonly string[]): void {
  const result = spawnSync("git", ["-C", cwd, "-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false", ...args], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
}

/**
 * A Git workspace whose ledger holds `events` generated events and a current snapshot, built once
 * and kept under os.tmpdir(). The snapshot comes from one full replay, as the first write after an
 * upgrade would leave it.
 */
function cachedWorkspace(events: number): { workspace: string; ledgerPath: string } {
  const source = realisticLedger(Math.max(1, Math.round(events / EVENTS_PER_SCOPE)));
  const workspace = path.join(os.tmpdir(), "docket-bench-writes", path.basename(source.file, ".jsonl"));
  const ledgerPath = path.join(workspace, ".docket", "ledger.jsonl");
  const ready = path.join(workspace, ".bench-ready");
  if (!fs.existsSync(ready)) {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.mkdirSync(path.join(workspace, "src"), { recursive: true });
    fs.writeFileSync(path.join(workspace, "src", "a.ts"), "export const a = 1;\n");
    fs.writeFileSync(path.join(workspace, ".gitignore"), ".bench-ready\n");
    git(workspace, ["init", "--quiet"]);
    git(workspace, ["add", "--all"]);
    git(workspace, ["commit", "--quiet", "-m", "bench"]);
    fs.mkdirSync(path.dirname(ledgerPath), { recursive: true });
    fs.copyFileSync(source.file, ledgerPath);
    fs.writeFileSync(ready, `${path.basename(source.file)}\n`);
  }
  ensureSnapshot(ledgerPath);
  return { workspace, ledgerPath };
}

interface MeasuredRun extends Sample {
  readonly stdout: string;
}

function runMeasured(meter: ChildMeter, args: readonly string[], input?: string): MeasuredRun {
  const run = meter.run({ args, cwd: os.tmpdir(), ...(input === undefined ? {} : { input }) });
  if (run.status !== 0 && !(args.includes("hook") && run.status === 2)) throw new Error(`${args.join(" ")} exited ${run.status}: ${run.stderr}`);
  // Peak RSS is left out: Linux carries a parent's high-water mark into its children, and this
  // bench's parent may hold the large ledger it replayed to build the snapshot.
  return { cpuMs: run.sample.cpuMs, wallMs: run.sample.wallMs, stdout: run.stdout };
}

function sum(a: Sample, b: Sample): Sample {
  return { cpuMs: a.cpuMs + b.cpuMs, wallMs: a.wallMs + b.wallMs };
}

/** `docket on` then `docket off` in a workspace whose snapshot must stay current (else this measures a replay). */
function onOff(cli: string, workspace: string, ledgerPath: string, meter: ChildMeter): Sample {
  const on = runMeasured(meter, [cli, "on", "--workspace", workspace]);
  const off = runMeasured(meter, [cli, "off", "--workspace", workspace]);
  if (!on.stdout.startsWith("Docket is on") || !off.stdout.startsWith("Docket is off")) throw new Error(`unexpected output: ${on.stdout} ${off.stdout}`);
  if (lookupCheckpointFile(ledgerPath).kind !== "current") throw new Error("the snapshot is not current after a write");
  return sum(on, off);
}

function label(events: number): string {
  return `${events.toLocaleString("en-US")} events`;
}

export async function writeFigures(options: { quick: boolean; meter?: ChildMeter }): Promise<BenchFigure[]> {
  const root = repoRoot();
  const cli = path.join(root, "dist", "docket.js");
  const largeEvents = options.quick ? 100_000 : 1_000_000;
  const rounds = options.quick ? 3 : 5;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "docket-bench-writes-"));
  try {
    const meter = options.meter ?? new ChildMeter(scratch);
    const large = cachedWorkspace(largeEvents);
    const small = cachedWorkspace(100);
    // One unmeasured pair each: the first write after a build anchors the ledger and captures baselines.
    onOff(cli, large.workspace, large.ledgerPath, meter);
    onOff(cli, small.workspace, small.ledgerPath, meter);
    const largeSamples: Sample[] = [];
    const smallSamples: Sample[] = [];
    for (let round = 0; round < rounds; round += 1) {
      largeSamples.push(onOff(cli, large.workspace, large.ledgerPath, meter));
      smallSamples.push(onOff(cli, small.workspace, small.ledgerPath, meter));
    }
    const writes = figure({
      id: "write.on.large",
      label: "`docket on` + `docket off` (two processes), snapshot current",
      workload: label(largeEvents),
      rounds,
      measured: measuredOf(largeSamples),
      floor: { label: `the same on ${label(100)}`, measured: measuredOf(smallSamples) },
      basis: "cpu",
      target: { max: WRITE_TARGET, kind: "ratio", text: "≤ 1.5× the same write on a 100-event ledger" },
    });

    return [writes];
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

// In a bundle every module shares the entry's `module`, so the file name tells the standalone run apart.
if (require.main === module && path.basename(process.argv[1] ?? "") === "writes.js") {
  void writeFigures({ quick: process.argv.includes("--quick") }).then(
    (figures) => {
      for (const entry of figures) process.stdout.write(`${JSON.stringify(entry)}\n`);
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
