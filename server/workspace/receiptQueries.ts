// The two read-only receipt requests (`docket/receipts/page`, `docket/receipts/detail`) answered
// from any receipt projection, mapped to protocol shapes and coded errors. Shared by every
// history source so they page, filter and resolve receipts identically.
import { receiptDetail } from "../developer/receiptDetail";
import { ReceiptCursorError, ReceiptsNotAtHand, readReceiptPage, type PageableReceipts, type Receipt, type ReceiptProjection } from "../developer/receipts";
import { DocketError, toDocketError } from "../errors";
import { ErrorCodes, type ReceiptDetail, type ReceiptKind, type ReceiptRow, type ReceiptsPage } from "../protocol/messages";

export interface ReceiptPageQuery {
  readonly cursor: string | null;
  readonly pageSize: number;
  readonly from?: "start" | "end";
  /** Already validated against the 18 kinds (ReceiptsPageParams). */
  readonly kinds?: readonly ReceiptKind[] | undefined;
  readonly containing?: string | undefined;
}

export function receiptRow(ordinal: number, receipt: Receipt): ReceiptRow {
  return {
    ordinal,
    kind: receipt.kind,
    workScopeId: receipt.eventRef.workScopeId,
    eventId: receipt.eventRef.eventId,
    scopeSequence: receipt.scopeSequence,
    storedIndex: receipt.storedIndex,
    eventSha256: receipt.eventRef.eventSha256,
    receiptSha256: receipt.receiptSha256,
    occurredAt: receipt.occurredAt,
    summary: { ...receipt.body },
  };
}

const CURSOR_ERROR_CODES = {
  "stale-cursor": ErrorCodes.staleCursor,
  "invalid-cursor": ErrorCodes.invalidCursor,
  "receipt-not-found": ErrorCodes.receiptNotFound,
} as const;

function receiptError(error: unknown): DocketError {
  if (error instanceof ReceiptCursorError) return new DocketError(CURSOR_ERROR_CODES[error.code], error.message);
  return toDocketError(error);
}

/** A page of any receipt source; a partial source's ReceiptsNotAtHand passes through uncoded (its caller falls back). */
export function readReceiptsPage(source: PageableReceipts, query: ReceiptPageQuery): ReceiptsPage {
  if (query.cursor !== null && query.containing !== undefined) {
    throw new DocketError(ErrorCodes.invalidParams, "Invalid parameters: pass either a cursor or `containing`, not both.");
  }
  try {
    const page = readReceiptPage(source, query.cursor, query.pageSize, query.from ?? "start", {
      kinds: query.kinds ?? null,
      containing: query.containing ?? null,
    });
    return {
      projectionSha256: page.projectionSha256,
      receiptCount: page.receiptCount,
      // The filter was validated as ReceiptKind[] and normalizing only sorts and de-duplicates it.
      kinds: page.kinds === null ? null : (page.kinds.slice() as ReceiptKind[]),
      matchingCount: page.matchingCount,
      startPosition: page.startPosition,
      startOrdinal: page.startOrdinal,
      pageCursor: page.pageCursor,
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
      pageSha256: page.pageSha256,
      receipts: page.entries.map(({ ordinal, receipt }) => receiptRow(ordinal, receipt)),
      kindCounts: page.kindCounts.map((entry) => ({ ...entry })),
    };
  } catch (error) {
    if (error instanceof ReceiptsNotAtHand) throw error;
    throw receiptError(error);
  }
}

export function readReceiptDetail(projection: ReceiptProjection, eventSha256: string): ReceiptDetail {
  const detail = receiptDetail(projection, eventSha256);
  if (detail === undefined) {
    throw new DocketError(ErrorCodes.receiptNotFound, `No accepted event in the receipts has the hash ${eventSha256}.`);
  }
  return {
    projectionSha256: detail.projectionSha256,
    receipt: receiptRow(detail.ordinal, detail.receipt),
    canonicalJson: detail.canonicalJson,
    causalRefs: detail.causalRefs.map((link) => ({ ...link })),
    previousScopeEvent: detail.previousScopeEvent === null ? null : { ...detail.previousScopeEvent },
    provenance: null,
  };
}
