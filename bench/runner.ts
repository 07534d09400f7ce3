// How `npm run bench` measures (docs/performance.md, "How the bench measures"): interleaved rounds
// in which every arm of a group — the workloads and their floor — runs once per round, the order
// rotating from round to round so no arm always follows the same neighbour; whole processes are
// measured from inside (a preloaded exit hook reports the child's own CPU time and peak RSS), wall
// time from outside; and the table every figure is printed in.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { BenchFigure, Sample, Samples } from "./figure";

/**
 * Loaded with `node -r` into every measured process, floors included: on exit it writes the
 * process's CPU time (user + system, µs, from process.resourceUsage), the CPU of the children it
 * waited for (/proc/self/stat cutime + cstime, clock ticks of 10 ms; `ledger verify` runs git)
 * and its peak RSS (KB) to fd 3.
 */
const EXIT_REPORTER = `"use strict";
const fs = require("node:fs");
process.on("exit", () => {
  const usage = process.resourceUsage();
  let childrenUs = 0;
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[13]) + Number(fields[14]);
    if (Number.isFinite(ticks)) childrenUs = ticks * 10000;
  } catch {}
  try {
    fs.writeSync(3, JSON.stringify({ cpuUs: usage.userCPUTime + usage.systemCPUTime, childrenUs, maxRssKb: usage.maxRSS }));
  } catch {}
});
`;

export interface ChildCommand {
  /** Arguments after `node -r <reporter>`. */
  readonly args: readonly string[];
  readonly cwd: string;
  readonly input?: string;
  /** The child is killed past this (its round then fails the producer); 120 s by default. */
  readonly timeoutMs?: number;
}

export interface ChildRun {
  readonly sample: Sample;
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number | null;
}

/** Runs whole Node processes with the exit reporter preloaded; one per bench run. */
export class ChildMeter {
  private readonly reporter: string;

  constructor(directory: string) {
    this.reporter = path.join(directory, "exit-reporter.js");
    fs.writeFileSync(this.reporter, EXIT_REPORTER);
  }

  run(command: ChildCommand): ChildRun {
    const start = performance.now();
    const result = spawnSync(process.execPath, ["-r", this.reporter, ...command.args], {
      cwd: command.cwd,
      input: command.input ?? "",
      encoding: "utf8",
      stdio: ["pipe", "pipe", "pipe", "pipe"],
      timeout: command.timeoutMs ?? 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const wallMs = performance.now() - start;
    const describe = `node ${command.args.join(" ")}`;
    if (result.error !== undefined) throw new Error(`${describe}: ${result.error.message}`);
    const report = ChildMeter.parseReport(String(result.output[3] ?? ""));
    if (report === null) throw new Error(`${describe} reported no CPU time (exit ${result.status ?? result.signal}): ${result.stderr}`);
    return {
      sample: { cpuMs: (report.cpuUs + report.childrenUs) / 1_000, wallMs, peakRssMb: report.maxRssKb / 1_024 },
      stdout: result.stdout,
      stderr: result.stderr,
      status: result.status,
    };
  }

  private static parseReport(text: string): { cpuUs: number; childrenUs: number; maxRssKb: number } | null {
    try {
      const value = JSON.parse(text) as Record<string, unknown>;
      const numbers = [value.cpuUs, value.childrenUs, value.maxRssKb];
      if (!numbers.every((entry) => typeof entry === "number" && Number.isFinite(entry) && entry >= 0) || (value.cpuUs as number) <= 0) return null;
      return { cpuUs: value.cpuUs as number, childrenUs: value.childrenUs as number, maxRssKb: value.maxRssKb as number };
    } catch {
      return null;
    }
  }
}

/** CPU (this process's user + system) and wall time of one in-process call; no peak RSS. */
export function inProcessSample(work: () => void): Sample {
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  work();
  const cpu = process.cpuUsage(cpuStart);
  return { cpuMs: (cpu.user + cpu.system) / 1_000, wallMs: performance.now() - wallStart };
}

/** What main.ts hands every producer of figures it owns. */
export interface ProducerOptions {
  readonly quick: boolean;
  /** A scratch folder for this run, removed at its end. */
  readonly directory: string;
  readonly meter: ChildMeter;
  /** `--rounds=N`; null: the producer's own default for the mode. */
  readonly rounds: number | null;
  /** The time one group of interleaved rounds may take (`--quick`); null: no limit. */
  readonly budgetMs: number | null;
  /** Progress and findings outside the table (generation times, skipped figures). */
  readonly log: (line: string) => void;
  /** Whether `--only` asks for this figure id (a producer skips the work of figures nobody asked for). */
  readonly wants: (id: string) => boolean;
}

export interface Arm {
  readonly name: string;
  /** Untimed preparation before each run of this arm (restoring the state it starts from). */
  readonly before?: () => void;
  readonly measure: () => Sample;
  /** False: no warm-up run (another arm already warms the same files and code). */
  readonly warmUp?: boolean;
}

export interface RoundsOptions {
  readonly rounds: number;
  readonly warmUps: number;
  /**
   * `--quick`: fewer rounds (never under MIN_ROUNDS) when the first round shows that `rounds` of
   * them would take longer than this; null: always `rounds`.
   */
  readonly budgetMs?: number | null;
}

export const MIN_ROUNDS = 3;

/** Each arm's samples, in the arms' order and in round order; warm-ups (untimed runs of every arm) first. */
export function interleavedRounds(arms: readonly Arm[], options: RoundsOptions): { samples: Map<string, Sample[]>; rounds: number } {
  const samples = new Map<string, Sample[]>(arms.map((arm) => [arm.name, []]));
  const runArm = (arm: Arm): Sample => {
    arm.before?.();
    return arm.measure();
  };
  for (let warmUp = 0; warmUp < options.warmUps; warmUp += 1) for (const arm of arms) if (arm.warmUp !== false) runArm(arm);
  let rounds = options.rounds;
  for (let round = 0; round < rounds; round += 1) {
    const began = performance.now();
    for (let step = 0; step < arms.length; step += 1) {
      const arm = arms[(round + step) % arms.length] as Arm;
      samples.get(arm.name)?.push(runArm(arm));
    }
    const budget = options.budgetMs ?? null;
    if (round === 0 && budget !== null) rounds = Math.max(Math.min(rounds, MIN_ROUNDS), Math.min(rounds, Math.floor(budget / (performance.now() - began))));
  }
  return { samples, rounds };
}

/** The samples of one arm (throws for an arm that was not run: a programming error). */
export function samplesOf(samples: Map<string, Sample[]>, name: string): Sample[] {
  const found = samples.get(name);
  if (found === undefined || found.length === 0) throw new Error(`no samples for ${name}`);
  return found;
}

/**
 * A figure below its true floor is a bench bug, not a fast workload: the workload does all the
 * floor does and more. Noise alone can put a median a little under the floor's (an empty script
 * file against `node -e 0` does exactly the floor's work), so the bug is flagged only when the
 * ratio is under 1 and every round of the figure cost less than the floor's median round — for
 * two equal costs a chance of 1 in 2^rounds (1 in 128 at 7 rounds).
 */
export function belowFloor(figure: BenchFigure): boolean {
  if (figure.floor === undefined || figure.basis === "rss" || figure.value >= 1) return false;
  const measured = figure.basis === "cpu" ? figure.measured.cpuMs : figure.measured.wallMs;
  const floor = figure.basis === "cpu" ? figure.floor.measured.cpuMs : figure.floor.measured.wallMs;
  return measured.max < floor.median;
}

// --- the table -------------------------------------------------------------------------------

function ms(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

function spread(samples: Samples): string {
  return `${ms(samples.min)}–${ms(samples.max)}`;
}

function basisSamples(figure: BenchFigure, measured: BenchFigure["measured"]): Samples | undefined {
  return figure.basis === "cpu" ? measured.cpuMs : figure.basis === "wall" ? measured.wallMs : measured.peakRssMb;
}

export type Verdict = "PASS" | "FAIL" | "BUG" | "info";

export function verdictOf(figure: BenchFigure, trueFloor: boolean): Verdict {
  if (trueFloor && belowFloor(figure)) return "BUG";
  if (figure.pass === undefined) return "info";
  return figure.pass ? "PASS" : "FAIL";
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}

/** Prints the figures as a table (CPU and wall medians with their spread, floor, ratio, target, verdict). */
export function printTable(rows: readonly { figure: BenchFigure; verdict: Verdict }[], write: (line: string) => void): void {
  const header = ["figure", "workload", "cpu ms (min–max)", "wall ms (min–max)", "floor on basis (min–max)", "value", "target", "verdict"];
  const lines = rows.map(({ figure, verdict }) => {
    const floorSamples = figure.floor === undefined ? undefined : basisSamples(figure, figure.floor.measured);
    const unit = figure.basis === "rss" ? "MB" : "ms";
    const floor = figure.floor === undefined || floorSamples === undefined ? "—" : `${figure.floor.label} ${ms(floorSamples.median)} ${unit} ${figure.basis} (${spread(floorSamples)})`;
    const value = figure.floor === undefined ? `${ms(figure.value)} ${unit} ${figure.basis}` : `${figure.value.toFixed(2)}× ${figure.basis}`;
    const target = figure.target === undefined ? "—" : figure.target.kind === "ratio" ? `≤ ${figure.target.max}×` : `≤ ${figure.target.max} ${unit}`;
    return [
      figure.id,
      `${figure.workload}, ${figure.rounds} rounds`,
      `${ms(figure.measured.cpuMs.median)} (${spread(figure.measured.cpuMs)})`,
      `${ms(figure.measured.wallMs.median)} (${spread(figure.measured.wallMs)})`,
      floor,
      value,
      target,
      verdict,
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => (line[column] as string).length)));
  const format = (cells: readonly string[]): string => cells.map((cell, column) => pad(cell, widths[column] as number)).join("  ").trimEnd();
  write(format(header));
  for (const line of lines) write(format(line));
  for (const { figure, verdict } of rows) {
    if (verdict === "BUG") write(`BENCH BUG: ${figure.id} measured ${figure.value.toFixed(2)}× its floor (${figure.floor?.label}); a workload cannot cost less than its floor`);
    if (figure.note !== undefined) write(`  ${figure.id}: ${figure.note}`);
  }
}
