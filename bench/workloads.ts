// The bench's generated ledgers: realistic histories of many 20-event full-cycle scopes
// (test/support/generatedCycles.ts), written once and cached under the system temp folder, so a
// second `npm run bench` — and every figure of the same run — reuses the same bytes. A cached file
// is named by the generator's fingerprint (the hash of the first scope it produces, so any change
// to the generator or the line format makes a new file) and its size, and written to a temporary
// name first, so an interrupted or concurrent generation never leaves a partial file under its name.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { lookupCheckpointFile } from "../server/hooks/checkpoint";
import { writeCheckpoint } from "../server/hooks/checkpointState";
import { tailSeedPathFor } from "../server/hooks/tailSeed";
import type { Envelope } from "../server/ledger/envelope";
import { DEVELOPER_STREAM, encodeLedgerLine } from "../server/ledger/ledgerLine";
import { LedgerStore } from "../server/ledger/store";
import { ScopeLog } from "../test/support/developerLog";
import { CycleWriter, cycleScopesEntries, ledgerLines } from "../test/support/generatedCycles";

/** Bumped when what a cached file holds changes in a way the fingerprint cannot see. */
const CACHE_LAYOUT = "1";
export const EVENTS_PER_SCOPE = 20;
const FLUSH_BYTES = 4 * 1024 * 1024;

export function workloadCacheFolder(): string {
  return path.join(os.tmpdir(), "docket-bench-workloads");
}

/** One realistic scope, as cycleScopesEntries(scopes)[index…] holds it: opened, one full cycle, closed. */
function realisticScope(index: number): Envelope[] {
  const log = new ScopeLog(`scope:cycle-${index.toString(36).padStart(5, "0")}`);
  new CycleWriter(log, 2).appendCycle();
  log.close();
  return log.entries as Envelope[];
}

function generatorFingerprint(): string {
  const reference = ledgerLines(cycleScopesEntries(1)).join("");
  const streamed = realisticScope(0);
  // The streaming generator below must write exactly what generatedCycles.ts writes.
  if (ledgerLines(streamed).join("") !== reference) throw new Error("bench/workloads.ts no longer generates what cycleScopesEntries generates");
  return createHash("sha256").update(CACHE_LAYOUT).update(reference).digest("hex").slice(0, 12);
}

/** The last line of a ledger file: its number and hash, which the next appended line chains to. */
export function lastLineOf(file: string): { line: number; lineSha256: string } {
  const fd = fs.openSync(file, "r");
  try {
    const size = fs.fstatSync(fd).size;
    const length = Math.min(size, 1024 * 1024);
    const buffer = Buffer.alloc(length);
    fs.readSync(fd, buffer, 0, length, size - length);
    const text = buffer.toString("utf8").replace(/\n$/u, "");
    const parsed = JSON.parse(text.slice(text.lastIndexOf("\n") + 1)) as { line?: unknown; lineSha256?: unknown };
    if (typeof parsed.line !== "number" || typeof parsed.lineSha256 !== "string") throw new Error(`${file} does not end with a ledger line`);
    return { line: parsed.line, lineSha256: parsed.lineSha256 };
  } finally {
    fs.closeSync(fd);
  }
}

function writeRealistic(file: string, scopes: number): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temporary, "w");
  try {
    let previous: string | null = null;
    let line = 0;
    let pending: string[] = [];
    let pendingBytes = 0;
    for (let index = 0; index < scopes; index += 1) {
      for (const entry of realisticScope(index)) {
        const encoded = encodeLedgerLine(line, previous, DEVELOPER_STREAM, entry);
        pending.push(encoded.text);
        pendingBytes += encoded.text.length;
        previous = encoded.lineSha256;
        line += 1;
      }
      if (pendingBytes >= FLUSH_BYTES) {
        fs.writeSync(fd, pending.join(""));
        pending = [];
        pendingBytes = 0;
      }
    }
    fs.writeSync(fd, pending.join(""));
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, file);
}

export interface CachedLedger {
  readonly file: string;
  readonly events: number;
  /** True when this call generated it (the time it took is the first run's only). */
  readonly generated: boolean;
}

/**
 * A ledger of `scopes` realistic 20-event scopes (`scopes × 20` events), every scope closed,
 * generated on first use and cached. Callers copy it; nobody writes to the cached file.
 */
export function realisticLedger(scopes: number): CachedLedger {
  if (!Number.isInteger(scopes) || scopes < 1) throw new Error(`scopes must be a positive integer, not ${scopes}`);
  const folder = workloadCacheFolder();
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `realistic-${generatorFingerprint()}-${scopes}.jsonl`);
  const events = scopes * EVENTS_PER_SCOPE;
  if (fs.existsSync(file)) {
    try {
      if (lastLineOf(file).line === events - 1) return { file, events, generated: false };
    } catch {
      // Damaged: generate it again.
    }
  }
  writeRealistic(file, scopes);
  return { file, events, generated: true };
}

/**
 * Lines continuing `ledgerFile` with a scope still open: just opened, or in the middle of its work
 * (`landed`: one full cycle up to its landing, so a shell tool needs a new authorization and the
 * landing owes its reroute and verification judgments).
 */
export function openScopeLines(ledgerFile: string, progress: "opened" | "landed"): string {
  const last = lastLineOf(ledgerFile);
  const log = new ScopeLog("scope:bench-open");
  if (progress === "landed") new CycleWriter(log, 2).appendCycle();
  let previous = last.lineSha256;
  let line = last.line + 1;
  const lines: string[] = [];
  for (const entry of log.entries) {
    const encoded = encodeLedgerLine(line, previous, DEVELOPER_STREAM, entry);
    lines.push(encoded.text);
    previous = encoded.lineSha256;
    line += 1;
  }
  return lines.join("");
}

/** The byte offset where the last `count` lines of a ledger file start. */
export function offsetOfLastLines(file: string, count: number): number {
  const fd = fs.openSync(file, "r");
  try {
    const size = fs.fstatSync(fd).size;
    let position = size;
    let newlines = 0;
    const chunk = Buffer.alloc(1024 * 1024);
    while (position > 0) {
      const length = Math.min(chunk.length, position);
      position -= length;
      fs.readSync(fd, chunk, 0, length, position);
      // The file ends with a newline: the (count + 1)-th newline from the end precedes the lines.
      for (let index = length - 1; index >= 0; index -= 1) {
        if (chunk[index] !== 0x0a) continue;
        newlines += 1;
        if (newlines === count + 1) return position + index + 1;
      }
    }
    if (newlines === count) return 0;
    throw new Error(`${file} has fewer than ${count} lines`);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Leaves a copied bench ledger with a current checkpoint and tail seed, as the first write after an
 * upgrade does: one full replay when they are missing or stale (minutes at 1,000,000 events, once).
 */
export function ensureSnapshot(ledgerPath: string): void {
  if (lookupCheckpointFile(ledgerPath).kind === "current" && fs.existsSync(tailSeedPathFor(ledgerPath))) return;
  const store = new LedgerStore(ledgerPath);
  store.refresh();
  if (store.fault !== null) throw new Error(`the bench ledger ${ledgerPath} is damaged: ${store.fault.message}`);
  if (!writeCheckpoint(store)) throw new Error("the bench ledger's checkpoint could not be written");
}
