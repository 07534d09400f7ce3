// The completion guard's ledger lines as the Receipts view pages them (`docket/guard/receipts/*`):
// one row per `docket/guard/v1` line, newest or oldest first, and the detail of one line with the
// exact text its lineSha256 hashes. Read-only, beside the developer/v8 receipt projection: guard
// entries never enter that projection or its hashes.
import { DocketError } from "../errors";
import { canonicalJson, sha256Hex, toJsonValue } from "../ledger/canonicalJson";
import { GUARD_STREAM, LINE_DOMAIN } from "../ledger/ledgerLine";
import type { GuardLine } from "../ledger/store";
import {
  ErrorCodes,
  type GuardReceiptDetail,
  type GuardReceiptOrder,
  type GuardReceiptRow,
  type GuardReceiptsPage,
} from "../protocol/messages";

export interface GuardPageQuery {
  readonly order: GuardReceiptOrder;
  /** The line the page starts at (inclusive, in `order`), or null for the first page. */
  readonly cursor: number | null;
  readonly pageSize: number;
}

export function guardReceiptRow(line: GuardLine): GuardReceiptRow {
  const entry = line.entry;
  return entry.kind === "review-opened"
    ? { line: line.line, lineSha256: line.lineSha256, kind: entry.kind, reviewId: entry.reviewId, status: null, workScopeId: entry.workScopeId, at: entry.openedAt }
    : { line: line.line, lineSha256: line.lineSha256, kind: entry.kind, reviewId: entry.reviewId, status: entry.status, workScopeId: null, at: entry.submittedAt };
}

/** First index whose line is ≥ `line` (lines ascend). */
function lowerBound(lines: readonly GuardLine[], line: number): number {
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((lines[middle] as GuardLine).line < line) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Position (in `order`) of the first entry a cursor selects. */
function startPosition(lines: readonly GuardLine[], order: GuardReceiptOrder, cursor: number | null): number {
  if (cursor === null) return 0;
  if (order === "oldest") return lowerBound(lines, cursor);
  // Newest first: the entries after the cursor's line come before it.
  return lines.length - lowerBound(lines, cursor + 1);
}

/**
 * One page of guard lines. `lines` are the store's guard lines in ledger order; `revision` is the
 * status revision they were read at. A cursor is a ledger line number, so it never goes stale in an
 * append-only ledger: a page read again shows the same entries, with newer ones before it.
 */
export function guardReceiptsPage(lines: readonly GuardLine[], revision: string, query: GuardPageQuery): GuardReceiptsPage {
  const count = lines.length;
  const at = (position: number): GuardLine => (query.order === "oldest" ? lines[position] : lines[count - 1 - position]) as GuardLine;
  const start = startPosition(lines, query.order, query.cursor);
  const end = Math.min(count, start + query.pageSize);
  const entries: GuardReceiptRow[] = [];
  for (let position = start; position < end; position += 1) entries.push(guardReceiptRow(at(position)));
  return {
    revision,
    order: query.order,
    entryCount: count,
    startPosition: start,
    pageCursor: start < count ? at(start).line : null,
    entries,
    nextCursor: end < count ? at(end).line : null,
    previousCursor: start > 0 ? at(Math.max(0, start - query.pageSize)).line : null,
  };
}

/** The guard line with this hash: its row, its chain link, and the exact text its hash covers. */
export function guardReceiptDetail(lines: readonly GuardLine[], lineSha256: string): GuardReceiptDetail {
  const line = lines.find((candidate) => candidate.lineSha256 === lineSha256);
  if (line === undefined) throw new DocketError(ErrorCodes.receiptNotFound, "No guard entry in the ledger has this line hash.");
  const entryJson = canonicalJson(toJsonValue(line.entry));
  const lineHashInput = canonicalJson({
    domain: LINE_DOMAIN,
    value: { entry: toJsonValue(line.entry), line: line.line, previousLineSha256: line.previousLineSha256, stream: GUARD_STREAM },
  });
  if (sha256Hex(lineHashInput) !== line.lineSha256) {
    // The store checked every line's hash when it read it; a mismatch here is a bug, never shown as proof.
    throw new DocketError(ErrorCodes.internal, `The hash of guard line ${line.line + 1} could not be reproduced.`);
  }
  const entry = line.entry;
  const related = lines.find((candidate) =>
    entry.kind === "review-opened"
      ? candidate.entry.kind === "review-submitted" && candidate.entry.openedLineSha256 === line.lineSha256
      : candidate.lineSha256 === entry.openedLineSha256,
  );
  return {
    receipt: guardReceiptRow(line),
    stream: GUARD_STREAM,
    previousLineSha256: line.previousLineSha256,
    canonicalJson: entryJson,
    lineHashInput,
    related: related === undefined ? null : guardReceiptRow(related),
  };
}
