// Receipts pages before the full replay: the newest receipts, read again from their ledger lines
// by the offsets a receipt head (receiptHead.ts) recorded, each line decoded as replay decodes it
// (UTF-8, canonical form, line hash) and chained line by line up to the head line the head is
// bound to. Everything else a page needs (count, root, per-kind counts) comes from the sealed head.
// A page that needs any other receipt, a line that does not decode or chain, an event that is not
// the one recorded, or a ledger that grew by anything that may hold an event makes the caller wait
// for the full replay: the answer is a full replay's page or nothing.
import fs from "node:fs";
import { createReceipt, projectionSha256Of, allReceiptsView, ReceiptsNotAtHand, type FilterView, type PageableReceipts, type Receipt, type ReceiptKindCount } from "../developer/receipts";
import { parseSemanticEvent } from "../developer/eventKinds";
import { readAt } from "../hooks/checkpoint";
import { DEVELOPER_STREAM, GUARD_STREAM, OBSERVER_STREAM, decodeLedgerLine, isLedgerLineShape } from "../ledger/ledgerLine";
import { parseStored } from "../ledger/replay";
import type { ReceiptsPage } from "../protocol/messages";
import { openContained } from "./containedFs";
import { bindingHolds, readReceiptHead, type ReceiptHead } from "./receiptHead";
import { readReceiptsPage, type ReceiptPageQuery } from "./receiptQueries";

/** Lines after the head are read only this far; a longer tail waits for the replay. */
const MAX_TAIL_BYTES = 4 * 1024 * 1024;
/** The newest receipts' lines, with whatever other lines lie between them. */
const MAX_WINDOW_BYTES = 16 * 1024 * 1024;

// Decoded as the store decodes lines (a leading byte-order mark dropped, invalid UTF-8 refused).
const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Whether the complete lines after the head's position can add no receipt: each is a Guard or
 * Observer line (a line the store reads as another stream never becomes a Developer event, and
 * one it refuses stops the replay before anything after it). Bytes after the last newline are a
 * torn write, as for the checkpoint. Anything else — a Developer line, a line that is not JSON
 * — may change the receipts: unproven.
 */
function tailAddsNoReceipt(fd: number, from: number): boolean {
  const size = fs.fstatSync(fd).size;
  if (size - from > MAX_TAIL_BYTES) return false;
  const tail = readAt(fd, from, size - from);
  let start = 0;
  for (let newline = tail.indexOf(0x0a); newline >= 0; newline = tail.indexOf(0x0a, start)) {
    try {
      const parsed: unknown = JSON.parse(decoder.decode(tail.subarray(start, newline)));
      const stream = isLedgerLineShape(parsed) ? (parsed as { stream?: unknown }).stream : undefined;
      if (stream !== GUARD_STREAM && stream !== OBSERVER_STREAM) return false;
    } catch {
      return false;
    }
    start = newline + 1;
  }
  return true;
}

/** The newest receipts of a projection, as a receipt head names them; see the file comment. */
export class ReceiptWindow implements PageableReceipts {
  private readonly first: number;
  private readonly receipts: (Receipt | undefined)[];
  private readonly ordinalBySha256 = new Map<string, number>();
  /** Where each line of `bytes` starts and ends (newline excluded), from the window's first line to the head line. */
  private readonly lineStarts: number[] = [];
  private readonly lineEnds: number[] = [];
  /** Lines from this index on are decoded and chained to the head line. */
  private verifiedFrom: number;
  /** previousLineSha256 of the first verified line. */
  private verifiedPrevious: string | null = null;
  private cachedProjectionSha256: string | null = null;

  constructor(
    private readonly head: ReceiptHead,
    /** The ledger's bytes from the window's first line to the end of the head line. */
    private readonly bytes: Buffer,
  ) {
    const { receipts, ledger } = head;
    this.first = receipts.count - receipts.window.length;
    this.receipts = receipts.window.map(() => undefined);
    receipts.window.forEach((entry, index) => this.ordinalBySha256.set(entry.eventSha256, this.first + index));
    let start = 0;
    for (let newline = bytes.indexOf(0x0a); newline >= 0; newline = bytes.indexOf(0x0a, start)) {
      this.lineStarts.push(start);
      this.lineEnds.push(newline);
      start = newline + 1;
    }
    const firstLine = receipts.window[0]?.line ?? ledger.lines;
    if (start !== bytes.length || this.lineStarts.length !== ledger.lines - firstLine) throw new ReceiptsNotAtHand("the receipt head's lines are not where it says");
    this.verifiedFrom = this.lineStarts.length;
  }

  get count(): number {
    return this.head.receipts.count;
  }

  get projectionSha256(): string {
    if (this.cachedProjectionSha256 === null) {
      const last = this.count === 0 ? undefined : this.receipt(this.count - 1);
      this.cachedProjectionSha256 = projectionSha256Of({
        orderedReceiptRootSha256: this.head.receipts.orderedReceiptRootSha256,
        receiptCount: this.count,
        firstEventRef: this.head.receipts.firstEventRef,
        lastEventRef: last?.eventRef ?? null,
      });
    }
    return this.cachedProjectionSha256;
  }

  receipt(ordinal: number): Receipt | undefined {
    if (!Number.isInteger(ordinal) || ordinal < 0 || ordinal >= this.count) return undefined;
    const index = ordinal - this.first;
    if (index < 0) throw new ReceiptsNotAtHand(`receipt ${ordinal} is older than the receipt head's window`);
    this.verifyFrom(index);
    return this.receipts[index];
  }

  ordinalOf(eventSha256: string): number | undefined {
    const ordinal = this.ordinalBySha256.get(eventSha256);
    if (ordinal === undefined) throw new ReceiptsNotAtHand("the event is not among the receipt head's newest receipts");
    this.receipt(ordinal);
    return ordinal;
  }

  kindCounts(): ReceiptKindCount[] {
    return this.head.receipts.kindCounts.map((entry) => ({ ...entry }));
  }

  filterView(kinds: readonly string[] | null): FilterView {
    if (kinds === null) return allReceiptsView(this.count);
    const wanted = new Set(kinds);
    const length = this.head.receipts.kindCounts.reduce((total, entry) => total + (wanted.has(entry.kind) ? entry.count : 0), 0);
    const inWindow = this.head.receipts.window.flatMap((entry, index) => (wanted.has(entry.kind) ? [this.first + index] : []));
    // Positions count from the oldest matching receipt; the window holds the newest of them.
    const before = length - inWindow.length;
    if (before < 0) throw new ReceiptsNotAtHand("the receipt head's kind counts disagree with its window");
    return {
      length,
      ordinalAt: (position) => {
        const ordinal = inWindow[position - before];
        if (ordinal === undefined) throw new ReceiptsNotAtHand(`matching receipt ${position} is older than the receipt head's window`);
        return ordinal;
      },
      positionOf: (ordinal) => {
        if (!Number.isInteger(ordinal) || ordinal < 0 || ordinal >= this.count) return undefined;
        if (ordinal < this.first) throw new ReceiptsNotAtHand(`receipt ${ordinal} is older than the receipt head's window`);
        const index = inWindow.indexOf(ordinal);
        return index < 0 ? undefined : before + index;
      },
    };
  }

  /** Decodes and chains the lines from window entry `index` up to those already verified. */
  private verifyFrom(index: number): void {
    const window = this.head.receipts.window;
    const lines = this.head.ledger.lines;
    const entry = window[index];
    if (entry === undefined) throw new ReceiptsNotAtHand("no such window entry");
    const firstLine = (window[0] as (typeof window)[number]).line;
    const from = entry.line - firstLine;
    if (from >= this.verifiedFrom) return;
    const entryByLine = new Map(window.map((candidate, position) => [candidate.line, position]));
    // The first line's link is taken from the line itself: every later link, and the last one
    // against what is already verified (or the bound head line), is checked.
    let previous: string | null = null;
    let firstPrevious: string | null = null;
    const decoded: Receipt[] = [];
    const decodedAt: number[] = [];
    for (let position = from; position < this.verifiedFrom; position += 1) {
      const lineNumber = firstLine + position;
      let text: string;
      try {
        text = decoder.decode(this.bytes.subarray(this.lineStarts[position], this.lineEnds[position]));
        if (position === from) {
          previous = (JSON.parse(text) as { previousLineSha256?: string | null }).previousLineSha256 ?? null;
          firstPrevious = previous;
        }
      } catch {
        throw new ReceiptsNotAtHand(`ledger line ${lineNumber + 1} does not decode`);
      }
      let line: ReturnType<typeof decodeLedgerLine>;
      try {
        line = decodeLedgerLine(text, lineNumber, previous);
      } catch {
        throw new ReceiptsNotAtHand(`ledger line ${lineNumber + 1} does not decode or chain`);
      }
      previous = line.lineSha256;
      const at = entryByLine.get(lineNumber);
      if (at !== undefined) {
        decoded.push(this.receiptOf(line, at));
        decodedAt.push(at);
      }
    }
    // The last decoded line must be the one the verified part (or the bound head line) follows.
    const boundary = this.verifiedFrom === this.lineStarts.length ? this.head.ledger.headLine?.lineSha256 ?? null : this.verifiedPrevious;
    if (previous !== boundary || (this.verifiedFrom === this.lineStarts.length && firstLine + this.verifiedFrom !== lines)) {
      throw new ReceiptsNotAtHand("the receipt window's lines do not chain to the ledger's head line");
    }
    decoded.forEach((receipt, position) => {
      this.receipts[decodedAt[position] as number] = receipt;
    });
    this.verifiedFrom = from;
    this.verifiedPrevious = firstPrevious;
  }

  private receiptOf(line: ReturnType<typeof decodeLedgerLine>, at: number): Receipt {
    const entry = this.head.receipts.window[at] as ReceiptHead["receipts"]["window"][number];
    if (line.stream !== DEVELOPER_STREAM) throw new ReceiptsNotAtHand(`ledger line ${entry.line + 1} is not a Developer event`);
    let receipt: Receipt;
    try {
      const envelope = parseStored(line.entry, line.entryText);
      receipt = createReceipt({ storedIndex: entry.storedIndex, envelope, event: parseSemanticEvent(envelope) });
    } catch {
      throw new ReceiptsNotAtHand(`ledger line ${entry.line + 1} does not hold an event replay accepts`);
    }
    if (receipt.eventRef.eventSha256 !== entry.eventSha256 || receipt.kind !== entry.kind) {
      throw new ReceiptsNotAtHand(`ledger line ${entry.line + 1} holds another event than the receipt head recorded`);
    }
    return receipt;
  }
}

/**
 * The page a full replay would give, answered from the receipt head and the newest receipts'
 * lines; null when anything it needs is missing or unproven (the caller then replays). Coded
 * errors (a bad cursor, bad parameters) are the full replay's too and are thrown.
 */
export function receiptsPageFromHead(root: string, ledgerPath: string, query: ReceiptPageQuery): ReceiptsPage | null {
  const head = readReceiptHead(root, ledgerPath);
  if (head === null) return null;
  let window: ReceiptWindow;
  let fd: number;
  try {
    fd = openContained(root, ledgerPath, "r");
  } catch {
    return null;
  }
  try {
    if (!bindingHolds(fd, head.ledger) || !tailAddsNoReceipt(fd, head.ledger.bytes)) return null;
    const from = head.receipts.window[0]?.offset ?? head.ledger.bytes;
    if (head.ledger.bytes - from > MAX_WINDOW_BYTES) return null;
    window = new ReceiptWindow(head, readAt(fd, from, head.ledger.bytes - from));
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
  try {
    return readReceiptsPage(window, query);
  } catch (error) {
    if (error instanceof ReceiptsNotAtHand) return null;
    throw error;
  }
}
