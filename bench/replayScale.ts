// Replay scaling figures (not part of `npm run bench`): cold replay of generated ledgers of full
// work cycles — many realistic short scopes, and single long scopes — each next to its floor
// (JSON.parse + canonical JSON + SHA-256 of the same lines) measured in the same round. Every
// measurement runs in a fresh child process, so CPU time and peak RSS belong to it alone.
//   node out/bench/replayScale.js [--long=2000,20000,100000] [--scopes=5000] [--rounds=3]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { canonicalJson, sha256Hex, toJsonValue } from "../server/ledger/canonicalJson";
import { LedgerStore } from "../server/ledger/store";
import { cycleScopesEntries, ledgerLines, longScopeEntries } from "../test/support/generatedCycles";

type Mode = "floor" | "replay";

interface Sample {
  readonly cpuMs: number;
  readonly maxRssMb: number;
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1_000;
}

/** Child side: one measured pass over the ledger file, reported as JSON on stdout. */
function runChild(mode: Mode, file: string, expected: number): void {
  const start = process.cpuUsage();
  if (mode === "floor") {
    const text = fs.readFileSync(file, "utf8");
    let lines = 0;
    let from = 0;
    for (let newline = text.indexOf("\n"); newline >= 0; newline = text.indexOf("\n", from)) {
      sha256Hex(canonicalJson(toJsonValue(JSON.parse(text.slice(from, newline)))));
      from = newline + 1;
      lines += 1;
    }
    if (lines !== expected) throw new Error(`floor read ${lines} of ${expected} lines`);
  } else {
    const store = new LedgerStore(file, { root: path.dirname(file) });
    store.refresh();
    const accepted = store.replayer.accepted.length;
    if (store.fault !== null || accepted !== expected) throw new Error(`replay accepted ${accepted} of ${expected} (${store.fault?.message ?? "no fault"})`);
  }
  const sample: Sample = { cpuMs: cpuMs(process.cpuUsage(start)), maxRssMb: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`${JSON.stringify(sample)}\n`);
}

function measure(mode: Mode, file: string, expected: number): Sample {
  const result = spawnSync(process.execPath, [__filename, "--child", mode, file, String(expected)], { encoding: "utf8", maxBuffer: 1 << 20 });
  if (result.status !== 0) throw new Error(`${mode} child failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim()) as Sample;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function option(name: string, fallback: string): string {
  const given = process.argv.find((entry) => entry.startsWith(`--${name}=`));
  return given === undefined ? fallback : given.slice(name.length + 3);
}

function report(label: string, directory: string, lines: readonly string[], rounds: number): void {
  const file = path.join(directory, `${label.replace(/[^a-z0-9]+/giu, "-")}.jsonl`);
  fs.writeFileSync(file, lines.join(""));
  const floors: Sample[] = [];
  const replays: Sample[] = [];
  for (let round = 0; round < rounds; round += 1) {
    floors.push(measure("floor", file, lines.length));
    replays.push(measure("replay", file, lines.length));
  }
  const floor = median(floors.map((sample) => sample.cpuMs));
  const replay = median(replays.map((sample) => sample.cpuMs));
  const spread = `${Math.min(...replays.map((sample) => sample.cpuMs)).toFixed(0)}–${Math.max(...replays.map((sample) => sample.cpuMs)).toFixed(0)}`;
  const rss = Math.max(...replays.map((sample) => sample.maxRssMb));
  console.log(
    `${label.padEnd(34)} ${String(lines.length).padStart(8)} events  replay ${replay.toFixed(0).padStart(7)} ms CPU (${spread})  ` +
      `${((replay * 1_000) / lines.length).toFixed(1).padStart(6)} µs/event  floor ${floor.toFixed(0).padStart(6)} ms  ratio ${(replay / floor).toFixed(2)}x  peak RSS ${rss.toFixed(0)} MB`,
  );
  fs.rmSync(file, { force: true });
}

function main(): void {
  if (process.argv[2] === "--child") {
    runChild(process.argv[3] as Mode, process.argv[4] as string, Number(process.argv[5]));
    return;
  }
  const rounds = Number(option("rounds", "3"));
  const longSizes = option("long", "2000,20000,100000").split(",").filter(Boolean).map(Number);
  const scopes = Number(option("scopes", "5000"));
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "docket-replay-scale-"));
  console.log(`replay scale — CPU medians of ${rounds} interleaved rounds, node ${process.version}, ${os.cpus().length} cpus`);
  try {
    if (scopes > 0) report(`${scopes} realistic scopes`, directory, ledgerLines(cycleScopesEntries(scopes)), rounds);
    for (const size of longSizes) report(`one scope of ${size}`, directory, ledgerLines(longScopeEntries("scope:long", size)), rounds);
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

main();
