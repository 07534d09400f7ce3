// The fault-injection seam the Notebook crash target drives: every change the publication
// transaction or its recovery makes to disk is one numbered step, and
// `DOCKET_NOTEBOOK_KILL_AT=publish:N` (or `recover:N`) makes that process SIGKILL itself just before
// its N-th step, as a power cut or a killed window would. Numbering the steps (instead of naming
// a few places) lets a test enumerate every crash point of a batch deterministically: N = 1, 2, …
// until the run completes without being killed.
//
// Harmless otherwise: the variable is read only when a publisher or a recovery starts, a malformed
// or absent value counts steps and kills nothing, and no other Docket process looks at it.
import fs from "node:fs";

export const KILL_AT_VARIABLE = "DOCKET_NOTEBOOK_KILL_AT";

export type CrashPhase = "publish" | "recover";

/** Counts the disk changes of one publication or recovery; `step` is called before each. */
export interface StepCounter {
  step(label: string): void;
  readonly count: number;
}

class Steps implements StepCounter {
  count = 0;
  constructor(
    private readonly killAt: number | null,
    private readonly phase: CrashPhase,
    private readonly onStep?: (index: number, label: string) => void,
  ) {}

  step(label: string): void {
    this.count += 1;
    this.onStep?.(this.count, label);
    if (this.count !== this.killAt) return;
    // Say where, so a failing trial names the exact step; then die without unwinding anything.
    try {
      fs.writeSync(2, `docket: ${KILL_AT_VARIABLE}: killed before ${this.phase} step ${this.count} (${label})\n`);
    } catch {
      // stderr may be closed; the kill is what matters.
    }
    process.kill(process.pid, "SIGKILL");
  }
}

/** A counter that never kills; `onStep` sees every step (tests use it to learn the steps of a batch). */
export function countingSteps(phase: CrashPhase, onStep?: (index: number, label: string) => void): StepCounter {
  return new Steps(null, phase, onStep);
}

/** The step after which this process dies, from the environment, or null. */
export function killPointFromEnvironment(phase: CrashPhase, environment: NodeJS.ProcessEnv = process.env): number | null {
  const value = environment[KILL_AT_VARIABLE];
  if (value === undefined) return null;
  const match = /^(publish|recover):([1-9][0-9]{0,8})$/u.exec(value);
  if (match === null || match[1] !== phase) return null;
  return Number(match[2]);
}

/** The counter for a publisher or recovery of this process: honours the kill point of its own phase only. */
export function stepsFromEnvironment(phase: CrashPhase): StepCounter {
  return new Steps(killPointFromEnvironment(phase), phase);
}
