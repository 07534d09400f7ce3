// The JSON report of `npm run bench -- --json <file>` (`-`: standard output): every figure in the
// BenchFigure shape (bench/figure.ts), each one's verdict, the producers that failed to measure,
// and the facts of the machine that measured them. The schema is checked before anything is
// written, so a caller never reads a report of another shape.
import fs from "node:fs";
import os from "node:os";
import * as z from "zod";
import type { BenchFigure } from "./figure";
import type { Verdict } from "./runner";

export const REPORT_FORMAT = "docket/bench-report/v1";

const SamplesSchema = z.strictObject({ median: z.number(), min: z.number(), max: z.number() });
const MeasuredSchema = z.strictObject({ cpuMs: SamplesSchema, wallMs: SamplesSchema, peakRssMb: z.optional(SamplesSchema) });

export const BenchFigureSchema = z.strictObject({
  id: z.string().regex(/^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9]+)*$/u),
  label: z.string().min(1),
  workload: z.string().min(1),
  rounds: z.number().int().positive(),
  measured: MeasuredSchema,
  floor: z.optional(z.strictObject({ label: z.string().min(1), measured: MeasuredSchema })),
  basis: z.enum(["cpu", "wall", "rss"]),
  value: z.number(),
  target: z.optional(z.strictObject({ max: z.number().positive(), kind: z.enum(["ratio", "absolute"]), text: z.string().min(1) })),
  pass: z.optional(z.boolean()),
  note: z.optional(z.string()),
});

const LoadAverage = z.tuple([z.number(), z.number(), z.number()]);

export const BenchReportSchema = z.strictObject({
  format: z.literal(REPORT_FORMAT),
  machine: z.strictObject({
    node: z.string(),
    platform: z.string(),
    arch: z.string(),
    cpus: z.number().int().positive(),
    cpuModel: z.string(),
    totalMemoryMb: z.number().positive(),
    /** os.loadavg() when the run started and when it ended. */
    loadAverage: z.strictObject({ start: LoadAverage, end: LoadAverage }),
  }),
  startedAt: z.string().datetime(),
  durationSeconds: z.number().nonnegative(),
  options: z.strictObject({ quick: z.boolean(), only: z.nullable(z.array(z.string())), rounds: z.nullable(z.number().int().positive()) }),
  figures: z.array(BenchFigureSchema),
  verdicts: z.array(z.strictObject({ id: z.string(), verdict: z.enum(["PASS", "FAIL", "BUG", "info"]) })),
  /** Producers that threw instead of measuring: each counts as a failure. */
  errors: z.array(z.strictObject({ producer: z.string(), message: z.string() })),
  /** No FAIL, no BUG, no error. */
  passed: z.boolean(),
});
export type BenchReport = z.infer<typeof BenchReportSchema>;

export interface MachineAtStart {
  readonly startedAt: Date;
  readonly loadAverage: [number, number, number];
}

export function machineAtStart(): MachineAtStart {
  return { startedAt: new Date(), loadAverage: os.loadavg() as [number, number, number] };
}

export function buildReport(input: {
  start: MachineAtStart;
  options: BenchReport["options"];
  rows: readonly { figure: BenchFigure; verdict: Verdict }[];
  errors: BenchReport["errors"];
}): BenchReport {
  const cpus = os.cpus();
  const report: BenchReport = {
    format: REPORT_FORMAT,
    machine: {
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      cpus: cpus.length,
      cpuModel: cpus[0]?.model ?? "unknown",
      totalMemoryMb: Math.round(os.totalmem() / 1_048_576),
      loadAverage: { start: input.start.loadAverage, end: os.loadavg() as [number, number, number] },
    },
    startedAt: input.start.startedAt.toISOString(),
    durationSeconds: (Date.now() - input.start.startedAt.getTime()) / 1_000,
    options: input.options,
    figures: input.rows.map((row) => row.figure) as BenchReport["figures"],
    verdicts: input.rows.map((row) => ({ id: row.figure.id, verdict: row.verdict })),
    errors: input.errors,
    passed: input.errors.length === 0 && input.rows.every((row) => row.verdict === "PASS" || row.verdict === "info"),
  };
  return BenchReportSchema.parse(report);
}

/** `destination`: a file path, or `-` for standard output. */
export function writeReport(report: BenchReport, destination: string): void {
  const text = `${JSON.stringify(report, null, 2)}\n`;
  if (destination === "-") process.stdout.write(text);
  else fs.writeFileSync(destination, text);
}
