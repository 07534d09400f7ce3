// Runs one fuzz sub-target in a worker thread for the `fuzz` target (targets/fuzz.ts), so the
// parent can time every case from outside: before each case the worker posts its index, and a case
// that never finishes is caught by the parent's watchdog even if it blocks this thread for good.
import { performance } from "node:perf_hooks";
import { parentPort, workerData } from "node:worker_threads";
import fc from "fast-check";
import { FuzzViolation, notes, preview } from "./subTarget";
import { SUB_TARGETS } from "./subTargets";

export interface WorkerJob {
  readonly subTarget: string;
  readonly seed: number;
  readonly runs: number;
  readonly tmp: string;
  readonly repoRoot: string;
  readonly long: boolean;
  /** A case slower than this (ms, measured here) is a failure. */
  readonly slowMs: number;
}

export type WorkerMessage =
  | { readonly kind: "case"; readonly index: number }
  | {
      readonly kind: "done";
      readonly inputs: number;
      readonly failures: readonly string[];
      readonly slowest: { readonly index: number; readonly ms: number };
      /** Noticed without failing the run (see subTarget.ts `notes`), with counts. */
      readonly notes: readonly string[];
    };

function post(message: WorkerMessage): void {
  parentPort?.postMessage(message);
}

function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** Failure lines kept per sub-target; a systematic fault in a long run is counted past these. */
const MAX_FAILURE_LINES = 100;

async function run(job: WorkerJob): Promise<void> {
  const target = SUB_TARGETS.find((candidate) => candidate.name === job.subTarget);
  if (target === undefined) throw new Error(`no fuzz sub-target ${job.subTarget}`);
  const fuzz = await target.prepare({ tmp: job.tmp, repoRoot: job.repoRoot, long: job.long, seed: job.seed });
  const kept: string[] = [];
  let failed = 0;
  const failures = {
    push(line: string): void {
      failed += 1;
      if (kept.length < MAX_FAILURE_LINES) kept.push(line);
    },
  };
  const slowest = { index: -1, ms: 0 };
  let index = -1;
  const reproduce = (caseIndex: number): string => `fast-check seed ${job.seed}, path "${caseIndex}"`;
  const property = fc.asyncProperty(fuzz.arbitrary, async (value) => {
    index += 1;
    const current = index;
    post({ kind: "case", index: current });
    const started = performance.now();
    try {
      await fuzz.check(value);
    } catch (error) {
      const crash = !(error instanceof FuzzViolation);
      // A crash names where it was thrown (the first frames of its stack).
      const where = crash && error instanceof Error ? ` at ${(error.stack ?? "").split("\n").slice(1, 4).map((line) => line.trim()).join(" < ")}` : "";
      failures.push(`${crash ? "crash (uncaught exception)" : "rule broken"} at case ${current} (${reproduce(current)}): ${errorText(error).slice(0, 600)}${where}; input ${fuzz.describe(value)}`);
    } finally {
      const ms = performance.now() - started;
      if (ms > slowest.ms) Object.assign(slowest, { index: current, ms });
      if (ms > job.slowMs) failures.push(`hang: case ${current} took ${ms.toFixed(0)} ms, over ${job.slowMs} ms (${reproduce(current)}); input ${fuzz.describe(value)}`);
    }
  });
  // Failures are collected rather than thrown, so one bad input does not hide the others; no shrinking.
  await fc.check(property, { seed: job.seed, numRuns: job.runs });
  let inputs = index + 1;
  if (fuzz.finish !== undefined) {
    const finished = await fuzz.finish();
    inputs += finished.inputs;
    for (const line of finished.failures) failures.push(line);
  }
  const lines = failed > kept.length ? [...kept, `… and ${failed - kept.length} more failures`] : kept;
  post({ kind: "done", inputs, failures: lines, slowest, notes: [...notes].map(([note, count]) => `${note} × ${count}`) });
}

const job = workerData as WorkerJob | undefined;
if (parentPort !== null && job !== undefined) {
  run(job).catch((error: unknown) => {
    post({ kind: "done", inputs: 0, failures: [`the sub-target could not run: ${errorText(error)} ${preview(error instanceof Error ? error.stack : "", 600)}`], slowest: { index: -1, ms: 0 }, notes: [] });
  });
}
