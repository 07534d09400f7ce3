// Observer capture in a PostToolUse hook: the same hook call on two workspaces set up alike, one
// with Observer's capture on (as Observer On leaves it) and one with it off (written through
// observerFiles.ts `writeCaptureMode`), in interleaved rounds that alternate which goes first. The
// figure is the capture-on call next to the capture-off call as its floor, in CPU time; what capture
// adds (the median of each round's difference) and what the capture helper spends are in its note.
// Informational: no target is documented for it.
//
// What is measured is the hook call itself (`runHook`, runHook.ts) in this process, warm, not a
// whole `node dist/docket-hook.js` process: capture adds a few milliseconds of CPU to a process of
// about 100, while whole hook processes spread by ±20 ms from one to the next, so whole-process
// rounds do not resolve the difference (a quick run's 3 rounds read "-14 ms" as often as "+4 ms",
// and the bench's floor check rightly called that a bug). In-process the spread is a fraction of a
// millisecond, so the difference is resolved in a quick run's rounds. The full run also reports
// the whole-process difference (its quartiles show the noise) in the note. What the in-process
// figure leaves out is what the capture loads the first time in a fresh process (`node:net` for the
// helper's socket; the evidence bundle is loaded by the capture-off call too with a Developer scope).
//
// Two pairs of workspaces, each set up as a user would (`docket notebook setup`, then `docket observer on`):
// - Observer only (no Developer scope): the hook hands the result to the workspace's capture
//   helper (captureHelperServer.ts: redaction, evidence store and staging in a long-lived process)
//   and waits for its answer; the first call captures in-process and starts the helper (warm-up).
// - a Developer scope open: the hook captures the result for Judgment either way; capture on
//   adds what Observer itself does (reading the mode, staging the result in the run's window).
// Every measured call checks that the result is staged when the hook returns.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { readCaptureMode, writeCaptureMode } from "../server/observer/observerFiles";
import { findStaged } from "../server/observer/captureWindow";
import { runHook } from "../server/hooks/runHook";
import { figure, measuredOf, type BenchFigure, type Sample } from "./figure";
import { interleavedRounds, samplesOf, type ProducerOptions } from "./runner";
import { openScopeLines, realisticLedger } from "./workloads";

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Linux's clock ticks per second for /proc times (USER_HZ, 100 on every mainstream kernel). */
const TICKS_PER_SECOND = 100;

/** CPU (user + system, ms) a process has used so far, from /proc/<pid>/stat; null where unknown. */
function processCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat(5) (utime, stime) are the 12th and 13th after the name.
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return Number.isFinite(utime) && Number.isFinite(stime) ? ((utime + stime) * 1_000) / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/** The capture helper serving `workspace` (not a child of this process: its CPU is read from /proc). */
function helperPid(workspace: string): number | null {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/u.test(entry)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (argv.includes("--capture-helper") && argv.includes(workspace)) return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return null;
}

function docket(args: readonly string[], cwd: string): string {
  const result = spawnSync(process.execPath, [path.join(__dirname, "docket.js"), ...args], { cwd, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`docket ${args.join(" ")} failed (${result.status}): ${result.stderr}${result.stdout}`);
  return result.stdout;
}

/** A git workspace (optionally with a ledger already) where Observer was turned on on a fresh Notebook. */
function observerWorkspace(directory: string, name: string, ledgerText: string | null): { workspace: string; episodeId: string } {
  const workspace = path.join(directory, name);
  const notebook = path.join(directory, `${name}-notebook`);
  fs.mkdirSync(path.join(workspace, ".git"), { recursive: true });
  if (ledgerText !== null) {
    fs.mkdirSync(path.join(workspace, ".docket"));
    fs.writeFileSync(path.join(workspace, ".docket", "ledger.jsonl"), ledgerText);
  }
  docket(["notebook", "setup", notebook, "--language", "en", "--yes"], workspace);
  docket(["observer", "on", "--notebook", notebook], workspace);
  const mode = readCaptureMode(workspace);
  if (!mode.on || mode.episodeId === null) throw new Error(`Observer On left capture off in ${workspace}`);
  return { workspace, episodeId: mode.episodeId };
}

interface Capture {
  readonly rounds: number;
  /** The hook call in this process, capture on and off, one of each per round. */
  readonly on: Sample[];
  readonly off: Sample[];
  /** CPU the capture helper spent per measured capture (Observer only), null when it was not found. */
  readonly helperCpuMs: number | null;
  /** Full run only: each round's on − off CPU of whole hook processes (what a host pays, with its noise). */
  readonly processDifferences: number[] | null;
}

/** The hook's decision budget (hookCli.ts HOOK_DECISION_BUDGET_MS; hookCli itself is not imported: it configures zod for the whole process). */
const HOOK_BUDGET_MS = 3_000;

/** `on` and `off`: two workspaces set up alike; capture is switched off in `off` once, before any call. */
async function measureCapture(options: ProducerOptions, on: string, off: string, plannedRounds: number): Promise<Capture> {
  writeCaptureMode(off, { on: false, episodeId: null });
  const hookBundle = path.join(__dirname, "docket-hook.js");
  let call = 0;
  const nextCall = (capturing: boolean): { workspace: string; toolCallId: string; input: string } => {
    const workspace = capturing ? on : off;
    call += 1;
    const toolCallId = `toolu_bench_observer_${call}`;
    // A new tool call every time, as a host makes them: each one is staged in its own file.
    const input = JSON.stringify({
      session_id: "bench-observer",
      cwd: workspace,
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_response: { stdout: `README.md\nsrc\ntest\n(call ${call})\n`, stderr: "", interrupted: false },
      tool_use_id: toolCallId,
    });
    return { workspace, toolCallId, input };
  };
  const check = (capturing: boolean, workspace: string, toolCallId: string, exitCode: number | null, stdout: string, stderr: string): void => {
    if (exitCode !== 0) throw new Error(`PostToolUse hook failed: ${stderr}`);
    const staging = stdout.includes("Observer staged it");
    if (capturing !== staging) throw new Error(`the hook ${capturing ? "did not stage" : "staged"} the result with capture ${capturing ? "on" : "off"}: ${stdout}${stderr}`);
    if (capturing && findStaged(workspace, toolCallId) === null) throw new Error(`the hook answered before ${toolCallId} was staged`);
  };
  const runProcess = (capturing: boolean): Sample => {
    const { workspace, toolCallId, input } = nextCall(capturing);
    const run = options.meter.run({ args: [hookBundle, "hook", "--host", "claude", "PostToolUse"], cwd: workspace, input });
    check(capturing, workspace, toolCallId, run.status, run.stdout, run.stderr);
    return run.sample;
  };
  const runInProcess = async (capturing: boolean): Promise<Sample> => {
    const { workspace, toolCallId, input } = nextCall(capturing);
    const wallStart = performance.now();
    const cpuStart = process.cpuUsage();
    // What `docket-hook.js` runs after reading stdin (hookCli.ts hookOutcome); the helper it talks
    // to is the one the bundle started, since runtimeDir is the bundle's folder.
    const outcome = await runHook({ host: "claude", event: "PostToolUse", stdin: input, cwd: workspace, now: () => new Date().toISOString(), deadline: Date.now() + HOOK_BUDGET_MS, runtimeDir: __dirname, configuredWorkspace: null, readOnlyTools: [] });
    const cpu = process.cpuUsage(cpuStart);
    const sample = { cpuMs: (cpu.user + cpu.system) / 1_000, wallMs: performance.now() - wallStart };
    check(capturing, workspace, toolCallId, outcome.exitCode, outcome.stdout, outcome.stderr);
    return sample;
  };
  // Warm-up: the first call writes the checkpoint; the first capture starts the capture helper.
  for (let index = 0; index < (options.quick ? 2 : 3); index += 1) {
    runProcess(true);
    runProcess(false);
    if (index === 0) waitForHelper(on);
  }
  // In-process warm-up: the modules' first use and the JIT, untimed.
  for (let index = 0; index < IN_PROCESS_WARM_UPS; index += 1) {
    await runInProcess(true);
    await runInProcess(false);
  }
  const helper = helperPid(on);
  const helperBefore = helper === null ? null : processCpuMs(helper);
  const onSamples: Sample[] = [];
  const offSamples: Sample[] = [];
  // Two arms: every other round the other goes first, so neither always runs right after the other.
  for (let round = 0; round < plannedRounds; round += 1) {
    for (const capturing of round % 2 === 0 ? [false, true] : [true, false]) (capturing ? onSamples : offSamples).push(await runInProcess(capturing));
  }
  const helperAfter = helper === null ? null : processCpuMs(helper);
  let processDifferences: number[] | null = null;
  if (!options.quick) {
    const { samples } = interleavedRounds(
      [
        { name: "off", measure: () => runProcess(false) },
        { name: "on", measure: () => runProcess(true) },
      ],
      { rounds: options.rounds ?? PROCESS_ROUNDS, warmUps: 0, budgetMs: options.budgetMs },
    );
    const processOff = samplesOf(samples, "off");
    processDifferences = samplesOf(samples, "on").map((sample, index) => sample.cpuMs - (processOff[index] as Sample).cpuMs);
  }
  // The helper leaves with its workspace: switching capture off ends it at its next check.
  writeCaptureMode(on, { on: false, episodeId: null });
  return {
    rounds: plannedRounds,
    on: onSamples,
    off: offSamples,
    helperCpuMs: helperBefore === null || helperAfter === null ? null : (helperAfter - helperBefore) / plannedRounds,
    processDifferences,
  };
}

/** Untimed in-process calls of each kind before the rounds. */
const IN_PROCESS_WARM_UPS = 5;
/** Whole-process rounds of the full run's note. */
const PROCESS_ROUNDS = 21;

/** The helper started by the first capture listens a moment later (untimed). */
function waitForHelper(workspace: string): void {
  const socket = path.join(workspace, ".docket", "observer", "capture.sock");
  const deadline = Date.now() + 10_000;
  while (!fs.existsSync(socket)) {
    if (Date.now() > deadline) return;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
}

function quartiles(values: readonly number[]): [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  return [sorted[Math.floor((sorted.length - 1) / 4)] as number, sorted[Math.ceil(((sorted.length - 1) * 3) / 4)] as number];
}

function captureFigure(id: string, label: string, capture: Capture): BenchFigure {
  // Each round's on − off: drift between rounds cancels out.
  const added = (pick: (sample: Sample) => number): number => median(capture.on.map((sample, index) => pick(sample) - pick(capture.off[index] as Sample)));
  const helper = capture.helperCpuMs === null ? "" : `; the capture helper spent ${capture.helperCpuMs.toFixed(1)} ms CPU per capture (mean, 10 ms ticks), outside the hook`;
  const differences = capture.processDifferences;
  const processes =
    differences === null
      ? ""
      : `; whole hook processes, ${differences.length} rounds: ${median(differences).toFixed(1)} ms CPU (quartiles ${quartiles(differences)
          .map((value) => value.toFixed(1))
          .join(" to ")})`;
  return figure({
    id,
    label,
    workload: "one PostToolUse call per round in the bench process, warm, a new tool call each",
    rounds: capture.rounds,
    measured: measuredOf(capture.on),
    floor: { label: "the same hook call, capture off", measured: measuredOf(capture.off) },
    basis: "cpu",
    note: `capture adds ${added((sample) => sample.cpuMs).toFixed(2)} ms CPU, ${added((sample) => sample.wallMs).toFixed(2)} ms wall (median of per-round differences)${helper}${processes}`,
  });
}

export async function observerCaptureFigures(options: ProducerOptions): Promise<BenchFigure[]> {
  const rounds = options.rounds ?? (options.quick ? 21 : 41);
  const figures: BenchFigure[] = [];
  if (options.wants("observer.capture.alone")) {
    const alone = observerWorkspace(options.directory, "observer-workspace", null);
    const aloneOff = observerWorkspace(options.directory, "observer-off-workspace", null);
    figures.push(captureFigure("observer.capture.alone", "PostToolUse, Observer capture on vs off, Observer only", await measureCapture(options, alone.workspace, aloneOff.workspace, rounds)));
  }
  if (options.wants("observer.capture.scope")) {
    // A small Developer ledger ending with an open scope.
    const cached = realisticLedger(50);
    const developerLedger = fs.readFileSync(cached.file, "utf8") + openScopeLines(cached.file, "landed");
    const scoped = observerWorkspace(options.directory, "observer-scope-workspace", developerLedger);
    const scopedOff = observerWorkspace(options.directory, "observer-scope-off-workspace", developerLedger);
    figures.push(captureFigure("observer.capture.scope", "PostToolUse, Observer capture on vs off, Developer scope open", await measureCapture(options, scoped.workspace, scopedOff.workspace, rounds)));
  }
  return figures;
}
