// `npm run bench [-- --quick] [--only=<prefix>,…] [--json <file>|-] [--rounds=N]`: every figure
// Docket promises (issue 16) measured on realistic generated workloads, each a median of
// interleaved rounds next to its floor from the same rounds, printed as one table with pass/fail
// against its target. Exit 0 when every target passes; 1 when a target fails, a figure is below
// its floor (a bench bug) or a producer could not measure; 2 on a usage error or when nothing was
// measured. docs/performance.md, "How the bench measures", says why each choice.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as z from "zod";
import { auditFigures } from "./audit";
import { calibrationFigures } from "./calibration";
import { cliFigures } from "./cli";
import { extensionStartFigures } from "./extensionStart";
import { figure, type BenchFigure } from "./figure";
import { guardFigures } from "./guard";
import { hookFigures } from "./hooks";
import { notebookFigures } from "./notebook";
import { observerReplayFigures } from "./observer";
import { observerCaptureFigures } from "./observerCapture";
import { buildReport, machineAtStart, writeReport, type BenchReport } from "./report";
import { routerFigures } from "./router";
import { replayFigures } from "./replayScale";
import { receiptsPageFigures } from "./receiptsPage";
import { writeFigures } from "./writes";
import { teamMergeFigures } from "./teamMerge";
import { ChildMeter, printTable, verdictOf, type ProducerOptions, type Verdict } from "./runner";

const QUICK_GROUP_BUDGET_MS = 10_000;

interface Producer {
  /** The id prefix of every figure it produces; `--only` selects producers by it. */
  readonly area: string;
  /** Runs in `--quick` (at its quick sizes). */
  readonly quick: boolean;
  /** Figure ids whose floor is a reference to compare with, not a lower bound (never a bench bug). */
  readonly referenceFloors?: readonly string[];
  readonly run: (options: ProducerOptions) => Promise<BenchFigure[]>;
}

const PRODUCERS: readonly Producer[] = [
  // The empty script does the same work as its floor: a ratio under 1 there is noise, never a bench bug.
  { area: "calibration", quick: true, referenceFloors: ["calibration.emptyScript"], run: calibrationFigures },
  { area: "hook", quick: true, run: hookFigures },
  { area: "guard", quick: true, run: guardFigures },
  { area: "cli", quick: true, run: cliFigures },
  { area: "observer.replay", quick: true, run: observerReplayFigures },
  { area: "observer.capture", quick: true, run: observerCaptureFigures },
  // Linearity compares a long scope's per-event cost with a short one's: a reference, not a lower
  // bound (the short replay carries more of the JIT's warm-up per event, so it can cost more).
  { area: "replay", quick: true, referenceFloors: ["replay.longScope.linearity"], run: replayFigures },
  { area: "write", quick: true, referenceFloors: ["write.on.large"], run: writeFigures },
  { area: "notebook", quick: true, run: notebookFigures },
  { area: "receipts", quick: true, run: receiptsPageFigures },
  { area: "extension.start", quick: true, run: extensionStartFigures },
  { area: "merge", quick: true, run: teamMergeFigures },
  // Not in --quick: at its small sizes Node's own start outweighs the `git ls-files` floor.
  { area: "router", quick: false, run: routerFigures },
  { area: "audit", quick: true, run: auditFigures },
];

const USAGE = `usage: npm run bench -- [--quick] [--only=<prefix>[,<prefix>…]] [--json <file>|-] [--rounds=<n>]
  --quick      small workloads and few rounds (under 2 minutes on 2 cores)
  --only       only figures whose id starts with one of the prefixes (e.g. --only=hook,cli.status)
  --json       write the report as JSON to <file>, or to standard output with "-" (the table then goes to standard error)
  --rounds     rounds of every figure instead of each one's default for the mode
exit: 0 every target passes; 1 a target fails, a figure is below its floor, or a producer failed; 2 usage error or nothing measured`;

interface Options {
  readonly quick: boolean;
  readonly only: string[] | null;
  readonly json: string | null;
  readonly rounds: number | null;
}

class UsageProblem extends Error {}

function parseArguments(argv: readonly string[]): Options {
  let quick = false;
  let only: string[] | null = null;
  let json: string | null = null;
  let rounds: number | null = null;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string;
    const [name, inline] = argument.startsWith("--") && argument.includes("=") ? [argument.slice(0, argument.indexOf("=")), argument.slice(argument.indexOf("=") + 1)] : [argument, undefined];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[index + 1];
      if (next === undefined || (next.startsWith("--") && next !== "-")) throw new UsageProblem(`${name} needs a value`);
      index += 1;
      return next;
    };
    if (name === "--quick" && inline === undefined) quick = true;
    else if (name === "--only") {
      only = value().split(",").map((prefix) => prefix.trim()).filter((prefix) => prefix.length > 0);
      if (only.length === 0) throw new UsageProblem("--only needs at least one figure id prefix");
    } else if (name === "--json") json = value();
    else if (name === "--rounds") {
      const text = value();
      rounds = Number(text);
      if (!Number.isInteger(rounds) || rounds < 1 || rounds > 1_000) throw new UsageProblem(`--rounds must be a whole number from 1 to 1000, not ${text}`);
    } else throw new UsageProblem(`unknown argument ${argument}`);
  }
  return { quick, only, json, rounds };
}

/**
 * For the bench's own tests only: `DOCKET_BENCH_TEST_TARGETS='{"calibration.emptyScript":0.01}'`
 * replaces the targets of the named figures, so a test can force a failing (or passing) target on
 * a cheap figure and check the exit code and the report.
 */
const TestTargets = z.record(z.string().min(1), z.number().positive());

function withTestTargets(figures: readonly BenchFigure[]): BenchFigure[] {
  const text = process.env.DOCKET_BENCH_TEST_TARGETS;
  if (text === undefined || text === "") return [...figures];
  const targets = TestTargets.parse(JSON.parse(text));
  return figures.map((measured) => {
    const max = targets[measured.id];
    if (max === undefined) return measured;
    const { value: _value, pass: _pass, ...input } = measured;
    return figure({ ...input, target: { max, kind: measured.floor === undefined ? "absolute" : "ratio", text: "set by DOCKET_BENCH_TEST_TARGETS (tests only)" } });
  });
}

function matches(id: string, prefixes: readonly string[] | null): boolean {
  return prefixes === null || prefixes.some((prefix) => id.startsWith(prefix));
}

async function main(): Promise<number> {
  let options: Options;
  try {
    options = parseArguments(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageProblem)) throw error;
    console.error(`${error.message}\n${USAGE}`);
    return 2;
  }
  // With the report on standard output, everything else goes to standard error.
  const write = options.json === "-" ? (line: string) => process.stderr.write(`${line}\n`) : (line: string) => process.stdout.write(`${line}\n`);
  const selected = PRODUCERS.filter(
    (producer) => options.only === null || options.only.some((prefix) => producer.area.startsWith(prefix) || prefix.startsWith(producer.area)),
  );
  if (selected.length === 0) {
    console.error(`--only ${options.only?.join(",")} matches no figure (areas: ${PRODUCERS.map((producer) => producer.area).join(", ")})\n${USAGE}`);
    return 2;
  }
  const start = machineAtStart();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "docket-bench-"));
  write(
    `docket bench${options.quick ? " --quick" : ""} — node ${process.version}, ${os.cpus().length} cpus, load ${start.loadAverage.map((load) => load.toFixed(2)).join(" ")}, ${start.startedAt.toISOString()}`,
  );
  const figures: BenchFigure[] = [];
  const errors: BenchReport["errors"] = [];
  const referenceFloors = new Set<string>();
  try {
    const producerOptions: ProducerOptions = {
      quick: options.quick,
      directory,
      meter: new ChildMeter(directory),
      rounds: options.rounds,
      // An explicit --rounds is kept; otherwise a --quick group of rounds takes about this long at most.
      budgetMs: options.quick && options.rounds === null ? QUICK_GROUP_BUDGET_MS : null,
      log: write,
      wants: (id) => matches(id, options.only),
    };
    for (const producer of selected) {
      if (options.quick && !producer.quick) {
        write(`${producer.area}: not measured with --quick`);
        continue;
      }
      for (const id of producer.referenceFloors ?? []) referenceFloors.add(id);
      const began = Date.now();
      try {
        const produced = await producer.run(producerOptions);
        figures.push(...produced.filter((produced) => matches(produced.id, options.only)));
        write(`${producer.area}: ${produced.length} figure${produced.length === 1 ? "" : "s"} in ${((Date.now() - began) / 1_000).toFixed(1)} s`);
      } catch (error) {
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        errors.push({ producer: producer.area, message });
        write(`${producer.area}: FAILED to measure after ${((Date.now() - began) / 1_000).toFixed(1)} s: ${message}`);
      }
    }
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
  const rows: { figure: BenchFigure; verdict: Verdict }[] = withTestTargets(figures).map((measured) => ({
    figure: measured,
    verdict: verdictOf(measured, !referenceFloors.has(measured.id)),
  }));
  write("");
  printTable(rows, write);
  const report = buildReport({ start, options: { quick: options.quick, only: options.only, rounds: options.rounds }, rows, errors });
  const failed = rows.filter((row) => row.verdict === "FAIL" || row.verdict === "BUG").map((row) => `${row.figure.id} (${row.verdict})`);
  write("");
  write(
    `${rows.length} figures in ${report.durationSeconds.toFixed(0)} s: ${failed.length === 0 && errors.length === 0 ? "every target passes" : `failed: ${[...failed, ...errors.map((error) => `${error.producer} (error)`)].join(", ")}`}; load at the end ${report.machine.loadAverage.end.map((load) => load.toFixed(2)).join(" ")}`,
  );
  if (options.json !== null) writeReport(report, options.json);
  if (rows.length === 0 && errors.length === 0) {
    write("nothing was measured");
    return 2;
  }
  return report.passed ? 0 : 1;
}

function runBench(): void {
  main().then(
    (code) => {
      // The legacy Router bench sets exitCode 1 itself when a plan cannot be made.
      process.exitCode = Math.max(code, typeof process.exitCode === "number" ? process.exitCode : 0);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exitCode = 1;
    },
  );
}

runBench();
