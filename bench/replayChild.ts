// One measured pass of the replay figures (bench/replayScale.ts), in a process of its own that loads
// only what the pass needs, so its CPU time and peak RSS belong to the pass:
//   node dist/bench-replay-child.js floor|replay LEDGER EXPECTED_LINES
// "floor": JSON.parse + canonical JSON + SHA-256 of every line; "replay": a cold LedgerStore
// refresh of the ledger, which must accept every line. Prints one Sample as JSON.
import fs from "node:fs";
import path from "node:path";
import { canonicalJson, sha256Hex, toJsonValue } from "../server/ledger/canonicalJson";
import { LedgerStore } from "../server/ledger/store";
import type { Sample } from "./figure";

export type ReplayChildMode = "floor" | "replay";

const CHUNK_BYTES = 1 << 20;

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1_000;
}

/** Calls `each` with every line (without its newline) of a file read in chunks. */
function forEachLine(file: string, each: (line: string) => void): void {
  const fd = fs.openSync(file, "r");
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let carry = "";
    for (;;) {
      const read = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      const text = carry + chunk.toString("utf8", 0, read);
      let from = 0;
      for (let newline = text.indexOf("\n"); newline >= 0; newline = text.indexOf("\n", from)) {
        each(text.slice(from, newline));
        from = newline + 1;
      }
      carry = text.slice(from);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Child side: one measured pass over the ledger file, reported as JSON on stdout. */
function runChild(mode: ReplayChildMode, file: string, expected: number): void {
  const started = Date.now();
  const start = process.cpuUsage();
  if (mode === "floor") {
    let lines = 0;
    forEachLine(file, (line) => {
      sha256Hex(canonicalJson(toJsonValue(JSON.parse(line))));
      lines += 1;
    });
    if (lines !== expected) throw new Error(`floor read ${lines} of ${expected} lines`);
  } else {
    const store = new LedgerStore(file, { root: path.dirname(file) });
    store.refresh();
    const accepted = store.replayer.acceptedCount;
    if (store.fault !== null || accepted !== expected) throw new Error(`replay accepted ${accepted} of ${expected} (${store.fault?.message ?? "no fault"})`);
  }
  const sample: Sample = { cpuMs: cpuMs(process.cpuUsage(start)), wallMs: Date.now() - started, peakRssMb: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`${JSON.stringify(sample)}\n`);
}

if (require.main === module) {
  const [mode, file, expected] = process.argv.slice(2);
  if ((mode !== "floor" && mode !== "replay") || file === undefined || expected === undefined) {
    process.stderr.write("usage: bench-replay-child floor|replay LEDGER EXPECTED_LINES\n");
    process.exitCode = 2;
  } else {
    runChild(mode, file, Number(expected));
  }
}
