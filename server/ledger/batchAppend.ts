// Writing one batch at a known ledger position, under the lock: the steps every writer shares,
// whether it caught up by a full replay (store.ts) or from the verified snapshot
// (server/workspace/snapshotWrites.ts). Encoding continues the hash chain from the head; a torn
// tail is moved aside only once the batch will be written; the anchor announces the batch before
// any byte of it lands (write-ahead), the lines are appended and fsynced, and a failed append is
// cut back so no prefix of it remains.
import fs from "node:fs";
import path from "node:path";
import type { Envelope } from "./envelope";
import { DEVELOPER_STREAM, GUARD_STREAM, OBSERVER_STREAM, encodeLedgerLine } from "./ledgerLine";
import type { GuardEntry } from "../guard/guardEntry";
import type { ObserverLedgerEntry } from "../observer/observerEntry";
import { fsyncDirectory } from "./durableFs";
import { StoreError } from "./storeError";
import { writeAnchor, type LedgerAnchor } from "./anchor";
import { UnsafePathError, appendContained, openContained, writeFileAtomicContained } from "../workspace/containedFs";

/** Where the ledger's complete lines end: the next line's number and the hash it chains from. */
export interface LedgerPosition {
  readonly lines: number;
  readonly bytes: number;
  readonly headLineSha256: string | null;
}

export interface EncodedBatch {
  readonly text: string;
  readonly byteLength: number;
  /** Line count after the batch. */
  readonly lines: number;
  /** The batch's last line's `lineSha256`. */
  readonly headLineSha256: string;
  /** The last line's text (newline included), to confirm what landed. */
  readonly lastLine: string;
}

/** Encodes developer, then guard, then Observer entries as the lines after `position`. */
export function encodeBatch(
  position: Pick<LedgerPosition, "lines" | "headLineSha256">,
  envelopes: readonly Envelope[],
  guardEntries: readonly GuardEntry[],
  observerEntries: readonly ObserverLedgerEntry[],
): EncodedBatch {
  let previous = position.headLineSha256;
  let lineNumber = position.lines;
  const chunks: string[] = [];
  const add = (stream: Parameters<typeof encodeLedgerLine>[2], entry: Parameters<typeof encodeLedgerLine>[3]): void => {
    const encoded = encodeLedgerLine(lineNumber, previous, stream, entry);
    chunks.push(encoded.text);
    previous = encoded.lineSha256;
    lineNumber += 1;
  };
  for (const envelope of envelopes) add(DEVELOPER_STREAM, envelope);
  for (const entry of guardEntries) add(GUARD_STREAM, entry);
  for (const entry of observerEntries) add(OBSERVER_STREAM, entry);
  const text = chunks.join("");
  return { text, byteLength: Buffer.byteLength(text, "utf8"), lines: lineNumber, headLineSha256: previous as string, lastLine: chunks.at(-1) ?? "" };
}

/** The anchor of a ledger whose complete lines end at `position`, its head line at `head`. */
export function anchorAt(position: LedgerPosition, head: { readonly offset: number; readonly length: number } | null, ino: string): LedgerAnchor {
  if (head === null || position.headLineSha256 === null) return { format: "docket/ledger-anchor/v1", lines: 0, bytes: 0, head: null, ino };
  return { format: "docket/ledger-anchor/v1", lines: position.lines, bytes: position.bytes, head: { offset: head.offset, length: head.length, lineSha256: position.headLineSha256 }, ino };
}

/** Moves bytes of an interrupted write aside (never a committed line) so appends stay aligned. */
export function setAsideTornTail(root: string, ledgerPath: string, offset: number): string {
  const fd = openContained(root, ledgerPath, "r+");
  try {
    const size = fs.fstatSync(fd).size;
    const torn = Buffer.alloc(size - offset);
    fs.readSync(fd, torn, 0, torn.length, offset);
    const asidePath = `${ledgerPath}.torn-${offset}`;
    writeFileAtomicContained(root, asidePath, torn, { durable: true });
    fs.ftruncateSync(fd, offset);
    fs.fsyncSync(fd);
    return asidePath;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Announces the batch in the anchor, appends it durably and, when the append fails, cuts the file
 * back to `start.bytes` and restores `anchorBefore`. `anchorBefore` null: the ledger is about to be
 * created (no inode yet); the anchor written after the batch binds it.
 */
export function appendAnnounced(root: string, ledgerPath: string, anchorBefore: LedgerAnchor | null, start: LedgerPosition, batch: EncodedBatch): void {
  const base = anchorBefore ?? { format: "docket/ledger-anchor/v1" as const, lines: 0, bytes: 0, head: null, ino: "0" };
  try {
    writeAnchor(root, ledgerPath, { ...base, pending: { bytes: start.bytes + batch.byteLength, lines: batch.lines, lineSha256: batch.headLineSha256 } });
  } catch (error) {
    if (error instanceof UnsafePathError) throw new StoreError("ledger-unsafe-path", error.message);
    throw new StoreError("ledger-unwritable", `Cannot write the ledger's head anchor: ${(error as Error).message}; nothing was written.`);
  }
  const created = !fs.existsSync(ledgerPath);
  try {
    appendContained(root, ledgerPath, batch.text, { durable: true });
  } catch (error) {
    undoPartialAppend(root, ledgerPath, start.bytes, anchorBefore);
    throw error;
  }
  if (created) fsyncDirectory(path.dirname(ledgerPath));
}

/** A failed append (ENOSPC, a short write) leaves no prefix behind: cut back and re-anchor. */
function undoPartialAppend(root: string, ledgerPath: string, offset: number, anchorBefore: LedgerAnchor | null): void {
  try {
    const fd = openContained(root, ledgerPath, "r+");
    try {
      if (fs.fstatSync(fd).size > offset) {
        fs.ftruncateSync(fd, offset);
        fs.fsyncSync(fd);
      }
    } finally {
      fs.closeSync(fd);
    }
    if (anchorBefore !== null) writeAnchor(root, ledgerPath, anchorBefore);
  } catch {
    // The intent still marks whatever prefix remains as torn; the next writer sets it aside.
  }
}
