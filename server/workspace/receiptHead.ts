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
import { checkpointSchemas, readAt } from "../hooks/checkpoint";
import { checkpointOf } from "../hooks/checkpointState";
import { hashValue } from "../ledger/canonicalJson";
import type { LedgerStore } from "../ledger/store";
import { readContained, writeFileAtomicContained } from "./containedFs";

export const RECEIPT_HEAD_FORMAT = "docket/receipt-head/v1";
const SEAL_DOMAIN = "docket/receipt-head-seal/v1";
/** The newest receipts whose lines it names: two pages of the largest size (the end and the one before). */
export const RECEIPT_HEAD_WINDOW = 2 * MAX_RECEIPT_PAGE_SIZE;
/** A head is about 30 KB; a larger file is not one. */
const MAX_HEAD_BYTES = 1024 * 1024;

const sha256 = z.string().check(z.regex(/^[0-9a-f]{64}$/u));
const count = z.int().check(z.nonnegative());

const EventRefShape = z.strictObject({ workScopeId: z.string(), eventId: z.string(), eventSha256: sha256 });

const upToWindow = <T extends z.ZodMiniType>(element: T) => z.array(element).check(z.maxLength(RECEIPT_HEAD_WINDOW));

// Stored as columns, one array per field: validating 200 small objects cost most of reading a
// head (1.7 ms of 2.3 ms), arrays of numbers and strings far less.
const WindowColumns = z.strictObject({
  /** Zero-based ledger line of each receipt's event, its byte offset and length (newline included). */
  lines: upToWindow(count),
  offsets: upToWindow(count),
  lengths: upToWindow(z.int().check(z.positive())),
  storedIndexes: upToWindow(count),
  kinds: upToWindow(z.string()),
  eventSha256s: upToWindow(sha256),
});

const StoredReceipts = z.strictObject({
  count,
  orderedReceiptRootSha256: sha256,
  firstEventRef: z.nullable(EventRefShape),
  kindCounts: z.array(z.strictObject({ kind: z.string(), count: z.int().check(z.positive()) })),
  /** The newest min(count, RECEIPT_HEAD_WINDOW) receipts, oldest first. */
  window: WindowColumns,
});
export type StoredReceipts = z.infer<typeof StoredReceipts>;

const StoredHead = z.strictObject({
  format: z.literal(RECEIPT_HEAD_FORMAT),
  ledger: checkpointSchemas().Checkpoint.shape.ledger,
  receipts: StoredReceipts,
  seal: sha256,
});
/** The file's content. */
export type StoredHead = z.infer<typeof StoredHead>;
export type LedgerBinding = StoredHead["ledger"];

/** One of the newest receipts, as a verified head names it. */
export interface WindowEntry {
  readonly line: number;
  readonly offset: number;
  readonly length: number;
  readonly storedIndex: number;
  readonly kind: string;
  readonly eventSha256: string;
}

/** A head read, sealed and consistent, with its window as entries. */
export interface ReceiptHead {
  readonly ledger: LedgerBinding;
  readonly receipts: Omit<StoredReceipts, "window"> & { readonly window: readonly WindowEntry[] };
}

export function receiptHeadPathFor(ledgerPath: string): string {
  return `${ledgerPath}.receipts.json`;
}

function sealOf(ledger: LedgerBinding, receipts: StoredReceipts): string {
  return hashValue({ domain: SEAL_DOMAIN, value: { ledger, receipts } });
}

export function sealedReceiptHead(ledger: LedgerBinding, receipts: StoredReceipts): StoredHead {
  return { format: RECEIPT_HEAD_FORMAT, ledger, receipts, seal: sealOf(ledger, receipts) };
}

/** The head of a caught-up, fault-free store and its projection; null when they cannot vouch for one. */
export function receiptHeadOf(store: LedgerStore, projection: ReceiptProjection): StoredHead | null {
  if (store.fault !== null || projection.count !== store.replayer.acceptedCount) return null;
  const binding = checkpointOf(store)?.ledger;
  if (binding === undefined || !headLineIsTheStores(binding, store)) return null;
  const window: StoredReceipts["window"] = { lines: [], offsets: [], lengths: [], storedIndexes: [], kinds: [], eventSha256s: [] };
  for (let ordinal = Math.max(0, projection.count - RECEIPT_HEAD_WINDOW); ordinal < projection.count; ordinal += 1) {
    const receipt = projection.receipt(ordinal);
    const line = receipt === undefined ? undefined : store.lineOfReplayIndex(receipt.storedIndex);
    const record = line === undefined ? undefined : store.lineRecord(line);
    if (receipt === undefined || line === undefined || record === undefined || record.replayIndex !== receipt.storedIndex) return null;
    window.lines.push(line);
    window.offsets.push(record.offset);
    window.lengths.push(record.length);
    window.storedIndexes.push(receipt.storedIndex);
    window.kinds.push(receipt.kind);
    window.eventSha256s.push(receipt.eventRef.eventSha256);
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
  let stored: StoredHead;
  try {
    const bytes = readContained(root, receiptHeadPathFor(ledgerPath), MAX_HEAD_BYTES);
    if (bytes === null) return null;
    const parsed = StoredHead.safeParse(JSON.parse(bytes.toString("utf8")));
    if (!parsed.success) return null;
    stored = parsed.data;
  } catch {
    return null;
  }
  if (sealOf(stored.ledger, stored.receipts) !== stored.seal) return null;
  const { ledger, receipts } = stored;
  const columns = receipts.window;
  const size = Math.min(receipts.count, RECEIPT_HEAD_WINDOW);
  if ([columns.lines, columns.offsets, columns.lengths, columns.storedIndexes, columns.kinds, columns.eventSha256s].some((column) => column.length !== size)) return null;
  if ((receipts.count === 0) !== (receipts.firstEventRef === null)) return null;
  if (receipts.kindCounts.reduce((total, entry) => total + entry.count, 0) !== receipts.count) return null;
  const window: WindowEntry[] = [];
  for (let index = 0; index < size; index += 1) {
    const entry: WindowEntry = {
      line: columns.lines[index] as number,
      offset: columns.offsets[index] as number,
      length: columns.lengths[index] as number,
      storedIndex: columns.storedIndexes[index] as number,
      kind: columns.kinds[index] as string,
      eventSha256: columns.eventSha256s[index] as string,
    };
    const previous = window.at(-1);
    if (previous !== undefined && (entry.line <= previous.line || entry.offset < previous.offset + previous.length || entry.storedIndex <= previous.storedIndex)) return null;
    if (entry.line >= ledger.lines || entry.offset + entry.length > ledger.bytes) return null;
    window.push(entry);
  }
  return { ledger, receipts: { ...receipts, window } };
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
