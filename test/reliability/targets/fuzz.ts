// Fuzz (issue 12): developer/v8 envelopes and replay, ledger lines and the store on a file, every
// MCP tool's arguments, Notebook records and `docket notebook propose` input, and Router task
// sentences — each grown from the real format (valid inputs mutated, not only random JSON). The
// rules: no crash, no case over 2 s, every rejection coded (a docket.* code or the reference's own
// diagnostic or fault code). Each sub-target runs in a worker thread that reports every case
// before it starts, so a case that never ends is caught here and named with its seed and path.
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { ReliabilityContext, ReliabilityTarget, TargetTally } from "../target";
import type { WorkerJob, WorkerMessage } from "../fuzz/worker";
import { SUB_TARGETS } from "../fuzz/subTargets";

/** A case over this is a failure (measured in the worker, around the case alone). */
const SLOW_CASE_MS = 2_000;
/** A case still running after this is a hang: the worker is stopped and the sub-target ends there. */
const HANG_MS = 30_000;

interface SubTargetResult {
  readonly inputs: number;
  readonly failures: readonly string[];
  readonly slowestMs: number;
  readonly notes: readonly string[];
}

function runInWorker(job: WorkerJob): Promise<SubTargetResult> {
  return new Promise((resolve) => {
    const worker = new Worker(path.join(__dirname, "..", "fuzz", "worker.js"), { workerData: job, resourceLimits: { maxOldGenerationSizeMb: 2_048 } });
    let current = -1;
    let startedAt = Date.now();
    let settled = false;
    const finish = (result: SubTargetResult): void => {
      if (settled) return;
      settled = true;
      clearInterval(watchdog);
      void worker.terminate();
      resolve(result);
    };
    const watchdog = setInterval(() => {
      if (Date.now() - startedAt > HANG_MS) {
        finish({
          inputs: current + 1,
          failures: [`hang: case ${current} did not finish in ${HANG_MS / 1000} s (fast-check seed ${job.seed}, path "${current}"); the sub-target was stopped there`],
          slowestMs: Date.now() - startedAt,
          notes: [],
        });
      }
    }, 500);
    worker.on("message", (message: WorkerMessage) => {
      if (message.kind === "case") {
        current = message.index;
        startedAt = Date.now();
      } else finish({ inputs: message.inputs, failures: message.failures, slowestMs: message.slowest.ms, notes: message.notes });
    });
    worker.on("error", (error) => finish({ inputs: current + 1, failures: [`crash: the worker died at case ${current} (fast-check seed ${job.seed}, path "${current}"): ${error.message}`], slowestMs: 0, notes: [] }));
    worker.on("exit", (code) => finish({ inputs: current + 1, failures: [`crash: the worker exited (${code}) at case ${current} (fast-check seed ${job.seed}, path "${current}")`], slowestMs: 0, notes: [] }));
  });
}

export const target: ReliabilityTarget = {
  name: "fuzz",
  description: "fast-check fuzz of envelopes, ledger lines, MCP arguments, Notebook records and Router tasks: no crash, no case over 2 s, every rejection coded",
  async run(context: ReliabilityContext): Promise<TargetTally> {
    let inputs = 0;
    const failures: string[] = [];
    for (const [position, subTarget] of SUB_TARGETS.entries()) {
      const tmp = path.join(context.tmp, subTarget.name);
      fs.mkdirSync(tmp, { recursive: true });
      // Each sub-target draws from its own stream, fixed by the run's seed.
      const seed = (context.seed + position * 7_919) | 0;
      const runs = context.long ? subTarget.runs.long : subTarget.runs.short;
      const started = Date.now();
      const result = await runInWorker({ subTarget: subTarget.name, seed, runs, tmp, repoRoot: context.repoRoot, long: context.long, slowMs: SLOW_CASE_MS });
      inputs += result.inputs;
      const replay = `node out/test/reliability/run.js --only fuzz --seed ${context.seed}${context.long ? " --long" : ""}`;
      failures.push(...result.failures.map((failure) => `${subTarget.name}: ${failure} — reproduce: ${replay}`));
      context.log(`${subTarget.name}: ${result.inputs} inputs, ${result.failures.length} failures, slowest case ${result.slowestMs.toFixed(0)} ms, ${((Date.now() - started) / 1000).toFixed(1)} s`);
      for (const note of result.notes) context.log(`${subTarget.name}: note: ${note}`);
    }
    return { trials: SUB_TARGETS.length, inputs, failures };
  },
};
