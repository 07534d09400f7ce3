// Replay figures (issue 16): cold replay of generated ledgers of full work cycles — many realistic
// 20-event scopes, and single long scopes — each next to its floor (JSON.parse + canonical JSON +
// SHA-256 of the same lines) measured in the same interleaved rounds, and the peak RSS of the
// largest replay. Every measurement runs in a fresh child process, so CPU time and peak RSS belong
// to it alone. Generated ledgers are cached under the OS temp folder (a million events take
// minutes to generate), keyed by the generator's version and size.
//   node out/bench/replayScale.js [--quick] [--rounds=3]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEVELOPER_STREAM, encodeLedgerLine } from "../server/ledger/ledgerLine";
import type { Envelope } from "../server/ledger/envelope";
import { cycleScopesEntries, longScopeEntries } from "../test/support/generatedCycles";
import { figure, measuredOf, type BenchFigure, type Sample } from "./figure";
import type { ReplayChildMode as Mode } from "./replayChild";

type Workload = "realistic" | "long";

/** Bump when test/support/generatedCycles.ts changes what it generates: cached ledgers are then regenerated. */
const GENERATOR_VERSION = 1;

/**
 * Each pass runs in a process of its own that loads only the replay (or the floor's) code:
 * `dist/bench-replay-child.js` beside `dist/bench.js`, `out/bench/replayChild.js` beside this file
 * when run standalone. Its peak RSS is the replay's, not the bench's (the whole bench bundle
 * added 35–55 MB to every child).
 */
const REPLAY_CHILD_SCRIPT = fs.existsSync(path.join(__dirname, "bench-replay-child.js"))
  ? path.join(__dirname, "bench-replay-child.js")
  : path.join(__dirname, "replayChild.js");

function measure(mode: Mode, file: string, expected: number): Sample {
  const result = spawnSync("nice", ["-n", "10", process.execPath, REPLAY_CHILD_SCRIPT, mode, file, String(expected)], { encoding: "utf8", maxBuffer: 1 << 20 });
  if (result.status !== 0) throw new Error(`${mode} child failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim()) as Sample;
}

/** A generated ledger of `events` events, from the cache when it is there; `generatedMs` when it was generated now. */
function cachedLedger(workload: Workload, events: number): { file: string; lines: number; generatedMs: number | null } {
  const directory = path.join(os.tmpdir(), "docket-bench-replay");
  fs.mkdirSync(directory, { recursive: true });
  const file = path.join(directory, `v${GENERATOR_VERSION}-${workload}-${events}.jsonl`);
  const countFile = `${file}.lines`;
  if (fs.existsSync(file) && fs.existsSync(countFile)) return { file, lines: Number(fs.readFileSync(countFile, "utf8")), generatedMs: null };
  const started = Date.now();
  const entries: Envelope[] = workload === "realistic" ? cycleScopesEntries(Math.ceil(events / 20)) : longScopeEntries("scope:long", events);
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temporary, "w");
  try {
    let previous: string | null = null;
    let pending: string[] = [];
    entries.forEach((entry, index) => {
      const encoded = encodeLedgerLine(index, previous, DEVELOPER_STREAM, entry);
      previous = encoded.lineSha256;
      pending.push(encoded.text);
      if (pending.length === 5_000) {
        fs.writeSync(fd, pending.join(""));
        pending = [];
      }
    });
    fs.writeSync(fd, pending.join(""));
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, file);
  fs.writeFileSync(countFile, String(entries.length));
  return { file, lines: entries.length, generatedMs: Date.now() - started };
}

/** Interleaved rounds: floor, replay, floor, replay… */
function rounds(file: string, lines: number, count: number): { replays: Sample[]; floors: Sample[] } {
  const replays: Sample[] = [];
  const floors: Sample[] = [];
  for (let round = 0; round < count; round += 1) {
    floors.push(measure("floor", file, lines));
    replays.push(measure("replay", file, lines));
  }
  return { replays, floors };
}

function generationNote(generatedMs: number | null): string {
  return generatedMs === null ? "ledger from the cache" : `ledger generated in ${(generatedMs / 1_000).toFixed(0)} s (cached for the next run)`;
}

const FLOOR_LABEL = "JSON.parse + canonical JSON + SHA-256 of the same lines";

export async function replayFigures(options: { quick: boolean; rounds?: number | null }): Promise<BenchFigure[]> {
  const count = options.rounds ?? 3;
  // Quick sizes keep the whole `--quick` bench under two minutes; the targets are for the full sizes.
  const realisticEvents = options.quick ? 20_000 : 1_000_000;
  const longEvents = options.quick ? 5_000 : 100_000;
  const figures: BenchFigure[] = [];

  const realistic = cachedLedger("realistic", realisticEvents);
  const realisticRounds = rounds(realistic.file, realistic.lines, count);
  figures.push(
    figure({
      id: "replay.realistic",
      label: "cold replay of realistic 20-event full-cycle scopes",
      workload: `${realistic.lines.toLocaleString("en-US")} events`,
      rounds: count,
      measured: measuredOf(realisticRounds.replays),
      floor: { label: FLOOR_LABEL, measured: measuredOf(realisticRounds.floors) },
      basis: "cpu",
      target: { max: 1.5, kind: "ratio", text: "≤ 1.5× the floor for 1,000,000 realistic events" },
      note: generationNote(realistic.generatedMs),
    }),
  );
  if (!options.quick) {
    figures.push(
      figure({
        id: "replay.memory",
        label: "peak RSS of the cold replay of 1,000,000 events",
        workload: `${realistic.lines.toLocaleString("en-US")} events`,
        rounds: count,
        measured: measuredOf(realisticRounds.replays),
        basis: "rss",
        target: { max: 256, kind: "absolute", text: "≤ 256 MB peak RSS" },
      }),
    );
  }

  const long = cachedLedger("long", longEvents);
  const longRounds = rounds(long.file, long.lines, count);
  figures.push(
    figure({
      id: "replay.longScope",
      label: "cold replay of one long scope",
      workload: `${long.lines.toLocaleString("en-US")} events in one scope`,
      rounds: count,
      measured: measuredOf(longRounds.replays),
      floor: { label: FLOOR_LABEL, measured: measuredOf(longRounds.floors) },
      basis: "cpu",
      target: { max: 2, kind: "ratio", text: "≤ 2× the floor for one scope of 100,000 events" },
      note: generationNote(long.generatedMs),
    }),
  );

  const short = cachedLedger("long", 1_000);
  const shortRounds = rounds(short.file, short.lines, Math.max(count, 5));
  const perEvent = (samples: readonly Sample[], lines: number): Sample[] =>
    samples.map((sample) => ({ cpuMs: (sample.cpuMs * 1_000) / lines, wallMs: (sample.wallMs * 1_000) / lines }));
  figures.push(
    figure({
      id: "replay.longScope.linearity",
      label: "per-event replay CPU of one long scope vs a short one (µs per event in the ms fields)",
      workload: `${long.lines.toLocaleString("en-US")} vs ${short.lines.toLocaleString("en-US")} events in one scope`,
      rounds: count,
      measured: measuredOf(perEvent(longRounds.replays, long.lines)),
      floor: { label: `per-event replay CPU at ${short.lines.toLocaleString("en-US")} events`, measured: measuredOf(perEvent(shortRounds.replays, short.lines)) },
      basis: "cpu",
      target: { max: 1.2, kind: "ratio", text: "per-event cost at 100,000 within 1.2× that at 1,000" },
      note: "a 1,000-event replay includes the process's JIT warm-up, which favours the long scope",
    }),
  );
  return figures;
}

function option(name: string, fallback: string): string {
  const given = process.argv.find((entry) => entry.startsWith(`--${name}=`));
  return given === undefined ? fallback : given.slice(name.length + 3);
}

async function main(): Promise<void> {
  const quick = process.argv.includes("--quick");
  console.log(`replay figures — CPU medians of interleaved rounds in child processes, node ${process.version}, ${os.cpus().length} cpus`);
  for (const result of await replayFigures({ quick, rounds: Number(option("rounds", "3")) })) {
    const unit = result.basis === "rss" ? "MB" : "×";
    const pass = result.pass === undefined ? "" : result.pass ? " pass" : " FAIL";
    console.log(
      `${result.id.padEnd(28)} ${result.workload.padEnd(34)} ${result.value.toFixed(2)}${unit} (target ${result.target?.max ?? "-"})${pass}  ` +
        `CPU ${result.measured.cpuMs.median.toFixed(0)} [${result.measured.cpuMs.min.toFixed(0)}–${result.measured.cpuMs.max.toFixed(0)}]` +
        (result.floor === undefined ? "" : ` floor ${result.floor.measured.cpuMs.median.toFixed(0)}`) +
        (result.measured.peakRssMb === undefined ? "" : ` peak RSS ${result.measured.peakRssMb.median.toFixed(0)} MB`) +
        (result.note === undefined ? "" : `  (${result.note})`),
    );
  }
}

// In a bundle every module shares the entry's `module`, so the file name tells the standalone run apart.
if (require.main === module && path.basename(process.argv[1] ?? "") === "replayScale.js") {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
