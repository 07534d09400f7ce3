// The one shape every `npm run bench` figure is reported in (issue 16): a measured workload next to
// its floor from the same interleaved rounds, CPU and wall time both kept, the spread shown, and a
// pass/fail against the target when the figure has one. bench/main.ts prints these and, with
// `--json <file>`, writes them; a failed target makes `--json` exit non-zero.

/** Per-round samples of one quantity, in milliseconds (or megabytes for memory). */
export interface Samples {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export interface Measured {
  /** User + system CPU time of the measured work (a child process's own, when it ran in one). */
  readonly cpuMs: Samples;
  readonly wallMs: Samples;
  /** Peak resident set size in MB, when the work ran in a process of its own. */
  readonly peakRssMb?: Samples;
}

export interface Target {
  /** The ratio (or, for `kind: "absolute"`, the value in `unit`) that must not be exceeded. */
  readonly max: number;
  readonly kind: "ratio" | "absolute";
  /** What the target is, as the issue words it, e.g. "≤ 2× git ls-files when nothing changed". */
  readonly text: string;
}

export interface BenchFigure {
  /** Stable id, e.g. "router.plan.warm" — the key of the figure in the JSON report. */
  readonly id: string;
  readonly label: string;
  /** The workload's size, e.g. "100,000 files" or "1,000,000 events". */
  readonly workload: string;
  readonly rounds: number;
  readonly measured: Measured;
  /** The floor measured in the same rounds; absent for absolute targets (memory, a deadline). */
  readonly floor?: { readonly label: string; readonly measured: Measured };
  /** Which time the ratio and the target use: CPU where wall time is noisy. */
  readonly basis: "cpu" | "wall" | "rss";
  /** measured median / floor median on `basis` (or the absolute median without a floor). */
  readonly value: number;
  readonly target?: Target;
  /** value ≤ target.max; absent without a target. */
  readonly pass?: boolean;
  readonly note?: string;
}

function samplesOf(values: readonly number[]): Samples {
  if (values.length === 0) throw new Error("no samples");
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] as number, min: sorted[0] as number, max: sorted[sorted.length - 1] as number };
}

/** One round's sample of a measured process or in-process run. */
export interface Sample {
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly peakRssMb?: number;
}

export function measuredOf(samples: readonly Sample[]): Measured {
  const rss = samples.flatMap((sample) => (sample.peakRssMb === undefined ? [] : [sample.peakRssMb]));
  return {
    cpuMs: samplesOf(samples.map((sample) => sample.cpuMs)),
    wallMs: samplesOf(samples.map((sample) => sample.wallMs)),
    ...(rss.length === samples.length ? { peakRssMb: samplesOf(rss) } : {}),
  };
}

/** A figure with its ratio and pass/fail worked out; a ratio below 1 on a true floor is a bench bug and is flagged. */
export function figure(input: Omit<BenchFigure, "value" | "pass">): BenchFigure {
  const pick = (measured: Measured): number =>
    input.basis === "cpu" ? measured.cpuMs.median : input.basis === "wall" ? measured.wallMs.median : (measured.peakRssMb?.median ?? Number.NaN);
  const value = input.floor === undefined ? pick(input.measured) : pick(input.measured) / pick(input.floor.measured);
  const pass = input.target === undefined ? undefined : value <= input.target.max;
  return { ...input, value, ...(pass === undefined ? {} : { pass }) };
}
