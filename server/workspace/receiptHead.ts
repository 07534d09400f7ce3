// The receipt head: what the newest receipts pages need from a full replay, persisted beside the
// ledger (`<ledger>.receipts.json`) so a process that has not replayed yet — the backend starting
// on a long history — can answer them at once. It holds the projection's count, root, first event
// ref and per-kind counts, and where the newest receipts' lines are; the receipts themselves are
// read again from those lines (receiptWindow.ts), never from this file.
//
// It is bound to the ledger bytes exactly as the hook checkpoint is (server/hooks/checkpoint.ts,
// docs/hooks.md "Checkpoint"): the same `ledger` record (inode, length, head line's exact bytes at
// its offset), taken from checkpointOf() when written and compared the same way when read, and a
// seal over the canonical content, so a file edited by hand, copied from another ledger or left
// behind by a rewritten one reads as unusable. Like the checkpoint it is a cache: written best
// effort by a process that replayed the whole ledger, never needed for a correct answer.
import fs from "node:fs";
import * as z from "zod/mini";
import { MAX_RECEIPT_PAGE_SIZE, type ReceiptProjection } from "../developer/receipts";
import { Checkpoint, readAt } from "../hooks/checkpoint";
import { checkpointOf } from "../hooks/checkpointState";
import { hashValue } from "../ledger/canonicalJson";
import type { LedgerStore } from "../ledger/store";
import { readContained, writeFileAtomicContained } from "./containedFs";

export const RECEIPT_HEAD_FORMAT = "docket/receipt-head/v1";
const SEAL_DOMAIN = "docket/receipt-head-seal/v1";
/** The newest receipts whose lines it names: two pages of the largest size (the end and the one before). */
export const RECEIPT_HEAD_WINDOW = 2 * MAX_RECEIPT_PAGE_SIZE;
/** A head is about 40 KB; a larger file is not one. */
const MAX_HEAD_BYTES = 1024 * 1024;

const sha256 = z.string().check(z.regex(/^[0-9a-f]{64}$/u));
const count = z.int().check(z.nonnegative());

const EventRefShape = z.strictObject({ workScopeId: z.string(), eventId: z.string(), eventSha256: sha256 });

const WindowEntry = z.strictObject({
  /** Zero-based ledger line of the receipt's event, its byte offset and length (newline included). */
  line: count,
  offset: count,
  length: z.int().check(z.positive()),
  storedIndex: count,
  kind: z.string(),
  eventSha256: sha256,
});
export type WindowEntry = z.infer<typeof WindowEntry>;

const HeadReceipts = z.strictObject({
  count,
  orderedReceiptRootSha256: sha256,
  firstEventRef: z.nullable(EventRefShape),
  kindCounts: z.array(z.strictObject({ kind: z.string(), count: z.int().check(z.positive()) })),
  /** The newest min(count, RECEIPT_HEAD_WINDOW) receipts, oldest first. */
  window: z.array(WindowEntry).check(z.maxLength(RECEIPT_HEAD_WINDOW)),
});
export type HeadReceipts = z.infer<typeof HeadReceipts>;

const ReceiptHead = z.strictObject({
  format: z.literal(RECEIPT_HEAD_FORMAT),
  ledger: Checkpoint.shape.ledger,
  receipts: HeadReceipts,
  seal: sha256,
});
export type ReceiptHead = z.infer<typeof ReceiptHead>;
export type LedgerBinding = ReceiptHead["ledger"];

export function receiptHeadPathFor(ledgerPath: string): string {
  return `${ledgerPath}.receipts.json`;
}

function sealOf(ledger: LedgerBinding, receipts: HeadReceipts): string {
  return hashValue({ domain: SEAL_DOMAIN, value: { ledger, receipts } });
}

export function sealedReceiptHead(ledger: LedgerBinding, receipts: HeadReceipts): ReceiptHead {
  return { format: RECEIPT_HEAD_FORMAT, ledger, receipts, seal: sealOf(ledger, receipts) };
}

/** The head of a caught-up, fault-free store and its projection; null when they cannot vouch for one. */
export function receiptHeadOf(store: LedgerStore, projection: ReceiptProjection): ReceiptHead | null {
  if (store.fault !== null || projection.count !== store.replayer.acceptedCount) return null;
  const binding = checkpointOf(store)?.ledger;
  if (binding === undefined || !headLineIsTheStores(binding, store)) return null;
  const window: WindowEntry[] = [];
  for (let ordinal = Math.max(0, projection.count - RECEIPT_HEAD_WINDOW); ordinal < projection.count; ordinal += 1) {
    const receipt = projection.receipt(ordinal);
    const line = receipt === undefined ? undefined : store.lineOfReplayIndex(receipt.storedIndex);
    const record = line === undefined ? undefined : store.lineRecord(line);
    if (receipt === undefined || line === undefined || record === undefined || record.replayIndex !== receipt.storedIndex) return null;
    window.push({ line, offset: record.offset, length: record.length, storedIndex: receipt.storedIndex, kind: receipt.kind, eventSha256: receipt.eventRef.eventSha256 });
  }
  const first = projection.receipt(0);
  return sealedReceiptHead(binding, {
    count: projection.count,
    orderedReceiptRootSha256: projection.orderedReceiptRootSha256,
    firstEventRef: first === undefined ? null : { ...first.eventRef },
    kindCounts: projection.kindCounts(),
    window,
  });
}

/**
 * checkpointOf reads the head line from the file as it is now; a store that has not caught up
 * with a ledger rewritten in place would bind its old receipts to new bytes. The line read must
 * be the store's own head line.
 */
function headLineIsTheStores(binding: LedgerBinding, store: LedgerStore): boolean {
  if (binding.headLine === null) return store.lineCount === 0;
  try {
    const line = JSON.parse(binding.headLine.text) as { line?: unknown; lineSha256?: unknown };
    return line.line === store.lineCount - 1 && line.lineSha256 === store.headLineSha256;
  } catch {
    return false;
  }
}

/** The position a head describes, to skip rewriting the same one. */
function positionKey(store: LedgerStore): string {
  return `${store.generation}:${store.lineCount}:${store.headLineSha256 ?? ""}`;
}

const persisted = new WeakMap<LedgerStore, string>();

/** Writes the head of a caught-up store once per ledger position (temp file + rename); never throws. */
export function persistReceiptHead(store: LedgerStore, projection: ReceiptProjection): void {
  const key = positionKey(store);
  if (persisted.get(store) === key) return;
  try {
    const head = receiptHeadOf(store, projection);
    if (head === null) return;
    writeFileAtomicContained(store.root, receiptHeadPathFor(store.ledgerPath), `${JSON.stringify(head)}\n`);
    persisted.set(store, key);
  } catch {
    // A cache: the next page read from a full replay tries again.
  }
}

/** Reads a head and checks its seal and its own consistency; null when it is missing or unusable. */
export function readReceiptHead(root: string, ledgerPath: string): ReceiptHead | null {
  let head: ReceiptHead;
  try {
    const bytes = readContained(root, receiptHeadPathFor(ledgerPath), MAX_HEAD_BYTES);
    if (bytes === null) return null;
    const parsed = ReceiptHead.safeParse(JSON.parse(bytes.toString("utf8")));
    if (!parsed.success) return null;
    head = parsed.data;
  } catch {
    return null;
  }
  if (sealOf(head.ledger, head.receipts) !== head.seal) return null;
  const { receipts, ledger } = head;
  if (receipts.window.length !== Math.min(receipts.count, RECEIPT_HEAD_WINDOW)) return null;
  if ((receipts.count === 0) !== (receipts.firstEventRef === null)) return null;
  if (receipts.kindCounts.reduce((total, entry) => total + entry.count, 0) !== receipts.count) return null;
  let previous: WindowEntry | null = null;
  for (const entry of receipts.window) {
    if (previous !== null && (entry.line <= previous.line || entry.offset < previous.offset + previous.length || entry.storedIndex <= previous.storedIndex)) return null;
    if (entry.line >= ledger.lines || entry.offset + entry.length > ledger.bytes) return null;
    previous = entry;
  }
  return head;
}

/**
 * The checkpoint's binding rule (server/hooks/checkpoint.ts lookupCheckpoint): the same file
 * (inode), at least as long, holding exactly the recorded head line at its offset.
 */
export function bindingHolds(fd: number, ledger: LedgerBinding): boolean {
  const stat = fs.fstatSync(fd, { bigint: true });
  if (stat.ino.toString() !== ledger.ino || Number(stat.size) < ledger.bytes) return false;
  const { headLine } = ledger;
  if (headLine === null) return ledger.bytes === 0 && ledger.lines === 0;
  if (headLine.offset + headLine.length !== ledger.bytes) return false;
  const expected = Buffer.from(headLine.text, "utf8");
  return expected.length === headLine.length && readAt(fd, headLine.offset, headLine.length).equals(expected);
}
