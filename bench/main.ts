// `npm run bench`: throughput figures, each printed next to a floor measured in the same run on
// the same machine, so the ratio (not the absolute number) is what to compare across machines.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { canonicalJson, sha256Hex, toJsonValue } from "../server/ledger/canonicalJson";
import { createEnvelope, type Envelope } from "../server/ledger/envelope";
import { DEVELOPER_STREAM, encodeLedgerLine } from "../server/ledger/ledgerLine";
import { LedgerStore } from "../server/ledger/store";
import { scopeClosedDraft, scopeOpenedDraft } from "../server/developer/scopeOperations";

const EVENTS = Number(process.env.DOCKET_BENCH_EVENTS ?? 100_000);
const RUNS = 3;

/** Deterministic workload: scopes opened and closed with varied closure reasons. */
function workload(count: number): string[] {
  const lines: string[] = [];
  let previousLine: string | null = null;
  let opened: Envelope | null = null;
  for (let index = 0; index < count; index += 1) {
    const occurredAt = new Date(Date.UTC(2030, 0, 1) + index * 1_000).toISOString();
    let envelope: Envelope;
    if (opened === null) {
      envelope = createEnvelope(scopeOpenedDraft(`scope:bench-${index.toString(36).padStart(6, "0")}`, occurredAt));
      opened = envelope;
    } else {
      const reason = `Closed after reviewing change ${index} of the benchmark workload; verification recorded elsewhere.`;
      const refs = index % 3 === 0 ? [{ workScopeId: opened.workScopeId, eventId: opened.eventId, eventSha256: opened.eventSha256 }] : [];
      envelope = createEnvelope(scopeClosedDraft(opened, reason, occurredAt, refs));
      opened = null;
    }
    const encoded = encodeLedgerLine(index, previousLine, DEVELOPER_STREAM, envelope);
    lines.push(encoded.text);
    previousLine = encoded.lineSha256;
  }
  return lines;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function measure(run: () => void): number {
  run(); // warm-up: let the JIT settle before timing
  const times: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return median(times);
}

function report(name: string, count: number, ms: number, floorMs: number): void {
  const rate = (count / ms) * 1_000;
  const floorRate = (count / floorMs) * 1_000;
  console.log(
    `${name.padEnd(44)} ${rate.toFixed(0).padStart(9)} events/s   floor ${floorRate.toFixed(0).padStart(9)} events/s   ratio ${(ms / floorMs).toFixed(2)}x floor time`,
  );
}

const directory = fs.mkdtempSync(path.join(os.tmpdir(), "docket-bench-"));
try {
  console.log(`docket bench — ${EVENTS} developer/v8 events, median of ${RUNS} runs, node ${process.version}, ${os.cpus().length} cpus`);
  const lines = workload(EVENTS);
  const ledgerPath = path.join(directory, "ledger.jsonl");
  fs.writeFileSync(ledgerPath, lines.join(""));
  const text = lines.map((line) => line.slice(0, -1));

  // Floor: the least any verifying reader must do per line: parse, canonicalize, hash.
  const floorMs = measure(() => {
    for (const line of text) sha256Hex(canonicalJson(toJsonValue(JSON.parse(line))));
  });

  const replayMs = measure(() => {
    const store = new LedgerStore(ledgerPath);
    store.refresh();
    if (store.replayer.accepted.length !== EVENTS) throw new Error(`replay accepted ${store.replayer.accepted.length} of ${EVENTS}`);
  });
  report("cold replay (read, verify lines, replay)", EVENTS, replayMs, floorMs);

  const tailStore = new LedgerStore(ledgerPath);
  tailStore.refresh();
  const extra = workload(EVENTS + 2).slice(EVENTS);
  fs.appendFileSync(ledgerPath, extra.join(""));
  const tailStart = performance.now();
  tailStore.refresh();
  const tailMs = performance.now() - tailStart;
  const tailFloorStart = performance.now();
  for (const line of extra) sha256Hex(canonicalJson(toJsonValue(JSON.parse(line))));
  const tailFloorMs = performance.now() - tailFloorStart;
  console.log(`incremental catch-up of 2 appended lines      ${tailMs.toFixed(2)} ms   floor ${tailFloorMs.toFixed(2)} ms (independent of the ${EVENTS} lines before)`);
} finally {
  fs.rmSync(directory, { recursive: true, force: true });
}
