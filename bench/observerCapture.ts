// Observer capture in a PostToolUse hook as a host pays for it (a whole `node dist/docket-hook.js`
// process per tool call): the same hook on two workspaces set up alike, one with Observer's
// capture on (as Observer On leaves it) and one with it off (written through observerFiles.ts
// `writeCaptureMode`), in interleaved rounds. What capture adds is the difference of the medians
// (wall) and of the mean child CPU. Target (the issue): ≤ 10 ms added.
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

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Linux's clock ticks per second for /proc times (USER_HZ, 100 on every mainstream kernel). */
const TICKS_PER_SECOND = 100;

/**
 * CPU (user + system, ms) of this process's waited-for children so far, from /proc/self/stat
 * (cutime, cstime); null where there is no /proc. Node reports no child CPU of its own.
 */
function childrenCpuMs(): number | null {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    // The command name may hold spaces and parentheses: the fields follow its last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 16 and 17 of stat(5) (cutime, cstime) are the 14th and 15th after the name.
    const cutime = Number(fields[13]);
    const cstime = Number(fields[14]);
    return Number.isFinite(cutime) && Number.isFinite(cstime) ? ((cutime + cstime) * 1_000) / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

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

interface CaptureFigures {
  readonly onMs: number;
  readonly offMs: number;
  /** Median of each round's (on − off): drift between rounds cancels out. */
  readonly pairedMs: number;
  readonly onCpuMs: number | null;
  readonly offCpuMs: number | null;
  /** CPU the capture helper spent per measured capture (Observer only), null when it was not found. */
  readonly helperCpuMs: number | null;
}

/** `on` and `off`: two workspaces set up alike; capture is switched off in `off` once, before any call. */
function measureCapture(on: string, off: string, runs: number): CaptureFigures {
  writeCaptureMode(off, { on: false, episodeId: null });
  const hookBundle = path.join(__dirname, "docket-hook.js");
  let call = 0;
  const runHook = (capturing: boolean): number => {
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
    const start = performance.now();
    const result = spawnSync(process.execPath, [hookBundle, "hook", "--host", "claude", "PostToolUse"], { input, cwd: workspace, encoding: "utf8" });
    const ms = performance.now() - start;
    if (result.status !== 0) throw new Error(`PostToolUse hook failed: ${result.stderr}`);
    const staging = result.stdout.includes("Observer staged it");
    if (capturing !== staging) throw new Error(`the hook ${capturing ? "did not stage" : "staged"} the result with capture ${capturing ? "on" : "off"}: ${result.stdout}${result.stderr}`);
    if (capturing && findStaged(workspace, toolCallId) === null) throw new Error(`the hook answered before ${toolCallId} was staged`);
    return ms;
  };
  // Warm-up: the first call writes the checkpoint; the first capture starts the capture helper.
  for (let index = 0; index < 3; index += 1) {
    runHook(true);
    runHook(false);
    if (index === 0) waitForHelper(on);
  }
  const helper = helperPid(on);
  const helperBefore = helper === null ? null : processCpuMs(helper);
  const onTimes: number[] = [];
  const offTimes: number[] = [];
  const paired: number[] = [];
  let onCpu: number | null = 0;
  let offCpu: number | null = 0;
  for (let index = 0; index < runs; index += 1) {
    // Alternating which goes first, so neither mode always runs right after the other.
    const round: { on?: number; off?: number } = {};
    for (const capturing of index % 2 === 0 ? [false, true] : [true, false]) {
      const cpuBefore = childrenCpuMs();
      const ms = runHook(capturing);
      const cpuAfter = childrenCpuMs();
      const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
      round[capturing ? "on" : "off"] = ms;
      if (capturing) {
        onTimes.push(ms);
        onCpu = onCpu === null || cpu === null ? null : onCpu + cpu;
      } else {
        offTimes.push(ms);
        offCpu = offCpu === null || cpu === null ? null : offCpu + cpu;
      }
    }
    paired.push((round.on as number) - (round.off as number));
  }
  const helperAfter = helper === null ? null : processCpuMs(helper);
  // The helper leaves with its workspace: switching capture off ends it at its next check.
  writeCaptureMode(on, { on: false, episodeId: null });
  return {
    onMs: median(onTimes),
    offMs: median(offTimes),
    pairedMs: median(paired),
    onCpuMs: onCpu === null ? null : onCpu / runs,
    offCpuMs: offCpu === null ? null : offCpu / runs,
    helperCpuMs: helperBefore === null || helperAfter === null ? null : (helperAfter - helperBefore) / runs,
  };
}

/** The helper started by the first capture listens a moment later (untimed). */
function waitForHelper(workspace: string): void {
  const socket = path.join(workspace, ".docket", "observer", "capture.sock");
  const deadline = Date.now() + 10_000;
  while (!fs.existsSync(socket)) {
    if (Date.now() > deadline) return;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
}

function report(label: string, figures: CaptureFigures, runs: number): void {
  const cpu =
    figures.onCpuMs === null || figures.offCpuMs === null
      ? ""
      : `; CPU ${figures.onCpuMs.toFixed(0)} vs ${figures.offCpuMs.toFixed(0)} ms, added ${(figures.onCpuMs - figures.offCpuMs).toFixed(0)} ms (mean, 10 ms ticks)`;
  const helper = figures.helperCpuMs === null ? "" : `; capture helper ${figures.helperCpuMs.toFixed(1)} ms CPU per capture (mean)`;
  console.log(`hook PostToolUse, Observer capture on vs off, ${label}  ${figures.onMs.toFixed(1)} vs ${figures.offMs.toFixed(1)} ms, added ${figures.pairedMs.toFixed(1)} ms (target ≤ 10 ms; median of ${runs} interleaved pairs)${cpu}${helper}`);
}

/** `developerLedger`: ledger lines ending with an open Developer scope, for the second workspace. */
export function benchObserverCapture(directory: string, developerLedger: string, runs: number): void {
  const alone = observerWorkspace(directory, "observer-workspace", null);
  const aloneOff = observerWorkspace(directory, "observer-off-workspace", null);
  report("Observer only (capture is the only reason to capture)", measureCapture(alone.workspace, aloneOff.workspace, runs), runs);
  const scoped = observerWorkspace(directory, "observer-scope-workspace", developerLedger);
  const scopedOff = observerWorkspace(directory, "observer-scope-off-workspace", developerLedger);
  report("Developer scope open (captured either way)", measureCapture(scoped.workspace, scopedOff.workspace, runs), runs);
}
