// Observer capture in a PostToolUse hook as a host pays for it (a whole `node dist/docket-hook.js`
// process per tool call): the same hook, the same workspace, with Observer's capture on (written
// through observerFiles.ts `writeCaptureMode`, as Observer On leaves it) and off, in interleaved
// rounds. What capture adds is the difference of the medians (wall) and of the mean child CPU.
// Target (the issue): ≤ 10 ms added.
//
// Two workspaces, each set up as a user would (`docket notebook setup`, then `docket observer on`):
// - Observer only (no Developer scope): the hook hands the result to a detached capture process
//   (redaction and the evidence store run there) and answers; "added" is that handover. The
//   detached work is waited for outside the timed region, so it never overlaps the next call.
// - a Developer scope open: the hook captures the result for Judgment either way; capture on
//   adds what Observer itself does (reading the mode, staging the result in the run's window).
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
  readonly onCpuMs: number | null;
  readonly offCpuMs: number | null;
}

function waitForStaged(workspace: string, toolCallId: string): void {
  const deadline = Date.now() + 10_000;
  while (findStaged(workspace, toolCallId) === null) {
    if (Date.now() > deadline) throw new Error(`the detached capture of ${toolCallId} never staged it`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
}

function measureCapture(workspace: string, episodeId: string, runs: number): CaptureFigures {
  const hookBundle = path.join(__dirname, "docket-hook.js");
  let call = 0;
  const runHook = (on: boolean): number => {
    writeCaptureMode(workspace, on ? { on: true, episodeId } : { on: false, episodeId: null });
    call += 1;
    // A new tool call every time, as a host makes them: each one is staged in its own file.
    const input = JSON.stringify({
      session_id: "bench-observer",
      cwd: workspace,
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_response: { stdout: `README.md\nsrc\ntest\n(call ${call})\n`, stderr: "", interrupted: false },
      tool_use_id: `toolu_bench_observer_${call}`,
    });
    const start = performance.now();
    const result = spawnSync(process.execPath, [hookBundle, "hook", "--host", "claude", "PostToolUse"], { input, cwd: workspace, encoding: "utf8" });
    const ms = performance.now() - start;
    if (result.status !== 0) throw new Error(`PostToolUse hook failed: ${result.stderr}`);
    const staging = result.stdout.includes("Observer staged it") || result.stdout.includes("Observer is capturing");
    if (on !== staging) throw new Error(`the hook ${on ? "did not stage" : "staged"} the result with capture ${on ? "on" : "off"}: ${result.stdout}`);
    // Without a Developer scope the capture runs in a detached process after the hook answered:
    // wait for it (untimed) so its work never overlaps the next measured call.
    if (on) waitForStaged(workspace, `toolu_bench_observer_${call}`);
    return ms;
  };
  // Warm-up: the first call writes the checkpoint; the first capture opens the run's window.
  for (let index = 0; index < 2; index += 1) {
    runHook(true);
    runHook(false);
  }
  const onTimes: number[] = [];
  const offTimes: number[] = [];
  let onCpu: number | null = 0;
  let offCpu: number | null = 0;
  for (let index = 0; index < runs; index += 1) {
    // Alternating which goes first, so neither mode always runs right after the other.
    for (const on of index % 2 === 0 ? [false, true] : [true, false]) {
      const cpuBefore = childrenCpuMs();
      const ms = runHook(on);
      const cpuAfter = childrenCpuMs();
      const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
      if (on) {
        onTimes.push(ms);
        onCpu = onCpu === null || cpu === null ? null : onCpu + cpu;
      } else {
        offTimes.push(ms);
        offCpu = offCpu === null || cpu === null ? null : offCpu + cpu;
      }
    }
  }
  return { onMs: median(onTimes), offMs: median(offTimes), onCpuMs: onCpu === null ? null : onCpu / runs, offCpuMs: offCpu === null ? null : offCpu / runs };
}

function report(label: string, figures: CaptureFigures, runs: number): void {
  const added = figures.onMs - figures.offMs;
  const cpu =
    figures.onCpuMs === null || figures.offCpuMs === null
      ? ""
      : `; CPU ${figures.onCpuMs.toFixed(0)} vs ${figures.offCpuMs.toFixed(0)} ms, added ${(figures.onCpuMs - figures.offCpuMs).toFixed(0)} ms (mean, 10 ms ticks)`;
  console.log(`hook PostToolUse, Observer capture on vs off, ${label}  ${figures.onMs.toFixed(1)} vs ${figures.offMs.toFixed(1)} ms, added ${added.toFixed(1)} ms (target ≤ 10 ms; median of ${runs} interleaved)${cpu}`);
}

/** `developerLedger`: ledger lines ending with an open Developer scope, for the second workspace. */
export function benchObserverCapture(directory: string, developerLedger: string, runs: number): void {
  const alone = observerWorkspace(directory, "observer-workspace", null);
  report("Observer only (capture is the only reason to capture)", measureCapture(alone.workspace, alone.episodeId, runs), runs);
  const scoped = observerWorkspace(directory, "observer-scope-workspace", developerLedger);
  report("Developer scope open (captured either way)", measureCapture(scoped.workspace, scoped.episodeId, runs), runs);
}
