// Read-only receipts (developer/v8 §8.1–§8.2): one receipt per accepted event, an order-sensitive
// root over them, a projection hash, and pages of at most 100 behind cursors bound to the
// projection they were issued for. Receipt bodies carry ids and hashes only, never free text.
import { hashValue } from "../ledger/canonicalJson";
import { eventRefOf, type EventRef } from "../ledger/envelope";
import type { AcceptedEvent } from "../ledger/replay";

export const MAX_RECEIPT_PAGE_SIZE = 100;

export interface Receipt {
  readonly kind: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly eventRef: EventRef;
  readonly storedIndex: number;
  readonly scopeSequence: number;
  readonly occurredAt: string;
  readonly receiptSha256: string;
}

function receiptBody(accepted: AcceptedEvent): Record<string, unknown> {
  const event = accepted.event;
  switch (event.kind) {
    case "work-scope-opened":
      return { kind: "work-scope-opened", workScopeId: accepted.envelope.workScopeId };
    case "work-scope-closed":
      return { kind: "work-scope-closed", workScopeId: accepted.envelope.workScopeId, reasonSha256: event.closure.reasonSha256 };
    case "not-yet-supported":
      // Replay never accepts these; a receipt for one would be a programming error.
      throw new Error(`receipt mapping is missing for event kind: ${event.eventKind}`);
  }
}

export function createReceipt(accepted: AcceptedEvent): Receipt {
  const body = receiptBody(accepted);
  const fields = {
    ...body,
    eventRef: eventRefOf(accepted.envelope),
    storedIndex: accepted.storedIndex,
    scopeSequence: accepted.envelope.scopeSequence,
  };
  return {
    kind: accepted.envelope.kind,
    body,
    eventRef: fields.eventRef,
    storedIndex: accepted.storedIndex,
    scopeSequence: accepted.envelope.scopeSequence,
    occurredAt: accepted.envelope.occurredAt,
    receiptSha256: hashValue({ domain: "developer/v8/receipt", fields }),
  };
}

export const EMPTY_RECEIPT_ROOT = hashValue({ domain: "developer/v8/receipt-root-empty" });

export class ReceiptCursorError extends Error {
  constructor(
    readonly code: "stale-cursor" | "invalid-cursor",
    message: string,
  ) {
    super(message);
    this.name = "ReceiptCursorError";
  }
}

export interface ReceiptPageEntry {
  readonly ordinal: number;
  readonly receipt: Receipt;
  readonly refSha256: string;
}

export interface ReceiptPage {
  readonly projectionSha256: string;
  readonly receiptCount: number;
  readonly startOrdinal: number;
  readonly entries: readonly ReceiptPageEntry[];
  readonly nextCursor: string | null;
  readonly previousCursor: string | null;
  readonly pageSha256: string;
}

/** An append-only receipt projection that follows the accepted events of a replay. */
export class ReceiptProjection {
  private readonly receipts: Receipt[] = [];
  private root = EMPTY_RECEIPT_ROOT;
  private cachedProjectionSha256: string | null = null;

  get count(): number {
    return this.receipts.length;
  }

  get orderedReceiptRootSha256(): string {
    return this.root;
  }

  /** Adds receipts for accepted events not yet projected (in accepted order). */
  follow(accepted: readonly AcceptedEvent[]): void {
    for (let ordinal = this.receipts.length; ordinal < accepted.length; ordinal += 1) {
      const receipt = createReceipt(accepted[ordinal] as AcceptedEvent);
      this.root = hashValue({
        domain: "developer/v8/receipt-root-link",
        previous: this.root,
        ordinal,
        eventRef: receipt.eventRef,
        receiptSha256: receipt.receiptSha256,
      });
      this.receipts.push(receipt);
      this.cachedProjectionSha256 = null;
    }
  }

  get projectionSha256(): string {
    if (this.cachedProjectionSha256 === null) {
      const fields = {
        orderedReceiptRootSha256: this.root,
        receiptCount: this.receipts.length,
        firstEventRef: this.receipts[0]?.eventRef ?? null,
        lastEventRef: this.receipts.at(-1)?.eventRef ?? null,
      };
      this.cachedProjectionSha256 = hashValue({ domain: "developer/v8/receipt-projection", fields });
    }
    return this.cachedProjectionSha256;
  }

  receipt(ordinal: number): Receipt | undefined {
    return this.receipts[ordinal];
  }

  private cursorFor(ordinal: number): string {
    const projectionSha256 = this.projectionSha256;
    const cursorSha256 = hashValue({ domain: "developer/v8/receipt-page-cursor", fields: { projectionSha256, nextOrdinal: ordinal } });
    return `${projectionSha256}.${ordinal}.${cursorSha256.slice(0, 16)}`;
  }

  private startFromCursor(cursor: string | null): number {
    if (cursor === null) return 0;
    const match = /^([a-f0-9]{64})\.(0|[1-9][0-9]{0,8})\.([a-f0-9]{16})$/u.exec(cursor);
    if (match === null) throw new ReceiptCursorError("invalid-cursor", "receipt cursor is malformed");
    const [, projectionSha256, ordinalText, check] = match as unknown as [string, string, string, string];
    const ordinal = Number(ordinalText);
    const expected = hashValue({ domain: "developer/v8/receipt-page-cursor", fields: { projectionSha256, nextOrdinal: ordinal } });
    if (expected.slice(0, 16) !== check) throw new ReceiptCursorError("invalid-cursor", "receipt cursor was not issued by Docket");
    if (projectionSha256 !== this.projectionSha256) {
      throw new ReceiptCursorError("stale-cursor", "receipt cursor belongs to another projection");
    }
    if (ordinal >= this.receipts.length && !(ordinal === 0 && this.receipts.length === 0)) {
      throw new ReceiptCursorError("invalid-cursor", "receipt cursor ordinal is not pageable");
    }
    return ordinal;
  }

  /** Reads one page. Cursors from another projection are refused, never silently re-based. */
  page(cursor: string | null, pageSize: number, from: "start" | "end" = "start"): ReceiptPage {
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_RECEIPT_PAGE_SIZE) {
      throw new RangeError(`receipt page size must be an integer from 1 to ${MAX_RECEIPT_PAGE_SIZE}`);
    }
    const start = cursor === null && from === "end" ? Math.max(0, this.receipts.length - pageSize) : this.startFromCursor(cursor);
    const end = Math.min(start + pageSize, this.receipts.length);
    const projectionSha256 = this.projectionSha256;
    const entries: ReceiptPageEntry[] = [];
    for (let ordinal = start; ordinal < end; ordinal += 1) {
      const receipt = this.receipts[ordinal] as Receipt;
      const fields = { projectionSha256, ordinal, eventRef: receipt.eventRef, receiptSha256: receipt.receiptSha256 };
      entries.push({ ordinal, receipt, refSha256: hashValue({ domain: "developer/v8/receipt-projection-ref", fields }) });
    }
    const nextCursor = end < this.receipts.length ? this.cursorFor(end) : null;
    const previousCursor = start > 0 ? this.cursorFor(Math.max(0, start - pageSize)) : null;
    const nextCursorSha256 =
      nextCursor === null
        ? null
        : hashValue({ domain: "developer/v8/receipt-page-cursor", fields: { projectionSha256, nextOrdinal: end } });
    return {
      projectionSha256,
      receiptCount: this.receipts.length,
      startOrdinal: start,
      entries,
      nextCursor,
      previousCursor,
      pageSha256: hashValue({
        domain: "developer/v8/receipt-page",
        fields: { projectionSha256, startOrdinal: start, entryRefSha256s: entries.map((entry) => entry.refSha256), nextCursorSha256 },
      }),
    };
  }
}
