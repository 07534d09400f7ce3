// The contract every target of the standing reliability suite (`npm run test:reliability`)
// follows: a named run that injects faults or tries inputs and reports what it did and what
// went wrong. The runner (run.ts) sums the tallies into the suite's one summary line.
export interface ReliabilityContext {
  /** `--long`: many more trials (≥ 100,000 fuzz cases per target); CI runs the short mode. */
  readonly long: boolean;
  /** Fixed seed for everything random in a run; `--seed N` replays a failure. */
  readonly seed: number;
  /** A fresh folder of this target's own; removed after the run unless `--keep`. */
  readonly tmp: string;
  /** The repository root (for dist/ bundles, fixtures). */
  readonly repoRoot: string;
  /** A line of progress for people watching the run (stderr). */
  log(message: string): void;
}

/** Counts a target adds to the summary line; any may be omitted (0). */
export interface TargetTally {
  /** Independent trials run (a writer killed, a publication interrupted, a tamper applied…). */
  trials?: number;
  /** Faults injected (kills, cut points, edits, forged files). */
  faults?: number;
  /** Generated or corpus inputs tried (fuzz cases, hook inputs, secrets excluded). */
  inputs?: number;
  /** Tool calls tried while Docket should deny them. */
  gateAttempts?: number;
  /** Realistic secrets pushed through a capture path. */
  secrets?: number;
  /** Acknowledged writes, records or lines that were lost or left half-done. Must be 0. */
  dataLost?: number;
  /** One sentence per failure, with what is needed to reproduce it (seed, step, input). */
  failures: string[];
}

export interface ReliabilityTarget {
  /** Short id, used by `--only NAME`. */
  readonly name: string;
  /** What the target proves, for the runner's listing. */
  readonly description: string;
  run(context: ReliabilityContext): Promise<TargetTally>;
}
