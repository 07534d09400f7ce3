// The Observer stream's ledger lines as the Receipts view pages them (`docket/observer/receipts/*`):
// one row per `observer/v1` line, newest or oldest first, optionally only one customType and one
// `data.kind`, and the detail of one line with the exact text its lineSha256 hashes. Read-only,
// beside the developer/v8 projection. A row only reads `data`: entries that Observer replay turns
// into issues are listed like any other (their fields may then be missing).
import fs from "node:fs";
import { DocketError } from "../errors";
import { canonicalJson, compareCodeUnits, sha256Hex, toJsonValue } from "../ledger/canonicalJson";
import { LINE_DOMAIN, OBSERVER_STREAM } from "../ledger/ledgerLine";
import type { LedgerStore, ObserverLine } from "../ledger/store";
import { isRecord } from "../ledger/values";
import {
  ErrorCodes,
  MAX_OBSERVER_KIND,
  MAX_OBSERVER_KIND_COUNTS,
  MAX_OBSERVER_ROW_TEXT,
  OBSERVER_RECEIPT_CUSTOM_TYPES,
  type GuardReceiptOrder,
  type ObserverReceiptCustomType,
  type ObserverReceiptDetail,
  type ObserverReceiptField,
  type ObserverReceiptRow,
  type ObserverReceiptsPage,
} from "../protocol/messages";
import { openContained } from "../workspace/containedFs";

export interface ObserverPageQuery {
  readonly order: GuardReceiptOrder;
  /** The line the page starts at (inclusive, in `order`, among the matching entries), or null for the first page. */
  readonly cursor: number | null;
  readonly pageSize: number;
  readonly customType: ObserverReceiptCustomType | null;
  readonly kind: string | null;
}

/** An Observer line with its chain link (the store keeps the link of guard lines only). */
export interface LinkedObserverLine extends ObserverLine {
  readonly previousLineSha256: string | null;
}

/** Dotted paths inside `data`. */
type FieldPath = string;

/**
 * Where an entry keeps its own id: one path for the whole customType, or one per `data.kind`
 * (the identity replay gives the event, docs/observer-replay.md). Kinds not listed have no id.
 */
const ID_FIELDS: Readonly<Record<ObserverReceiptCustomType, FieldPath | Readonly<Record<string, FieldPath>>>> = {
  "observer.lifecycle": {
    "episode-opened": "episodeId",
    "notebook-selected": "notebookId",
    "memo-reconciled": "revisionId",
    "save-proposed": "proposalId",
    "save-cancelled": "proposalId",
    "save-committed": "proposalId",
  },
  "observer.observation": {
    "candidate-captured": "candidate_id",
    "source-read-recorded": "read_id",
    "inquiry-hydrated": "hydration_id",
    "semantic-observation-recorded": "observation_id",
    "user-hypothesis-recorded": "observation_id",
    "hypothesis-context-reviewed": "hypothesis_observation_id",
    "memo-requested": "request_id",
    "review-save-continuation-requested": "memo_request_id",
  },
  "observer.material-review": "request_id",
  "observer.prepared-memo-pass": "pass_id",
  "observer.memo-pass": "pass.pass_id",
  "observer.memo-instruction": "request_id",
  "observer.prepared-save": "prepared.proposal_id",
  "observer.save-attempt": "attemptId",
  "observer.save-request": "request_id",
};

/** Where the Episode is named: observation and Material review events, save requests, passes, an opened Episode. */
const EPISODE_FIELDS: readonly FieldPath[] = ["episode_id", "pass.episode_id"];
/** The only recorded times in Observer entries: a candidate's capture, a direct observation's moment. */
const TIME_FIELDS: readonly FieldPath[] = ["captured_at", "source.observed_at"];

/** Text as a row repeats it: at most MAX_OBSERVER_ROW_TEXT units, then "…" (never half a surrogate pair). */
function rowText(text: string): string {
  if (text.length <= MAX_OBSERVER_ROW_TEXT) return text;
  const cut = text.charCodeAt(MAX_OBSERVER_ROW_TEXT - 1);
  const end = cut >= 0xd800 && cut <= 0xdbff ? MAX_OBSERVER_ROW_TEXT - 1 : MAX_OBSERVER_ROW_TEXT;
  return `${text.slice(0, end)}…`;
}

/** The non-empty text at a dotted path of `data`, or null (missing, not text, or data not an object). */
function textAt(data: unknown, field: FieldPath): string | null {
  let value: unknown = data;
  for (const key of field.split(".")) {
    if (!isRecord(value) || !Object.hasOwn(value, key)) return null;
    value = value[key];
  }
  return typeof value === "string" && value.length > 0 ? value : null;
}

function firstField(data: unknown, fields: readonly FieldPath[]): ObserverReceiptField | null {
  for (const field of fields) {
    const value = textAt(data, field);
    if (value !== null) return { field, value: rowText(value) };
  }
  return null;
}

/** `data.kind` when it is text, whole (the filter compares it exactly). */
function dataKind(entry: ObserverLine["entry"]): string | null {
  return textAt(entry.data, "kind");
}

function idField(customType: ObserverReceiptCustomType, kind: string | null): FieldPath | null {
  const fields = ID_FIELDS[customType];
  if (typeof fields === "string") return fields;
  return kind !== null && Object.hasOwn(fields, kind) ? (fields[kind] ?? null) : null;
}

export function observerReceiptRow(line: ObserverLine): ObserverReceiptRow {
  const { customType, data } = line.entry;
  const kind = dataKind(line.entry);
  const ownId = idField(customType, kind);
  // An opened Episode names itself with the lifecycle's camelCase key.
  const episodeFields = customType === "observer.lifecycle" ? ["episodeId"] : EPISODE_FIELDS;
  return {
    line: line.line,
    lineSha256: line.lineSha256,
    customType,
    kind: kind === null ? null : rowText(kind),
    episodeId: firstField(data, episodeFields)?.value ?? null,
    id: ownId === null ? null : firstField(data, [ownId]),
    at: firstField(data, TIME_FIELDS),
  };
}

function matches(line: ObserverLine, query: Pick<ObserverPageQuery, "customType" | "kind">): boolean {
  if (query.customType !== null && line.entry.customType !== query.customType) return false;
  return query.kind === null || dataKind(line.entry) === query.kind;
}

/** First index whose line is ≥ `line` (lines ascend). */
function lowerBound(lines: readonly ObserverLine[], line: number): number {
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((lines[middle] as ObserverLine).line < line) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Position (in `order`) of the first entry a cursor selects. */
function startPosition(lines: readonly ObserverLine[], order: GuardReceiptOrder, cursor: number | null): number {
  if (cursor === null) return 0;
  if (order === "oldest") return lowerBound(lines, cursor);
  // Newest first: the entries after the cursor's line come before it.
  return lines.length - lowerBound(lines, cursor + 1);
}

function counts(lines: readonly ObserverLine[]): Pick<ObserverReceiptsPage, "customTypeCounts" | "kindCounts"> {
  const byType = new Map<ObserverReceiptCustomType, number>();
  const byKind = new Map<ObserverReceiptCustomType, Map<string, number>>();
  for (const line of lines) {
    const customType = line.entry.customType;
    byType.set(customType, (byType.get(customType) ?? 0) + 1);
    const kind = dataKind(line.entry);
    // A kind the filter cannot take is not offered.
    if (kind === null || kind.length > MAX_OBSERVER_KIND) continue;
    const kinds = byKind.get(customType) ?? new Map<string, number>();
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    byKind.set(customType, kinds);
  }
  const customTypeCounts = OBSERVER_RECEIPT_CUSTOM_TYPES.flatMap((customType) => {
    const count = byType.get(customType);
    return count === undefined ? [] : [{ customType, count }];
  });
  const kindCounts = OBSERVER_RECEIPT_CUSTOM_TYPES.flatMap((customType) =>
    [...(byKind.get(customType) ?? new Map<string, number>())]
      .sort(([left], [right]) => compareCodeUnits(left, right))
      .map(([kind, count]) => ({ customType, kind, count })),
  );
  return { customTypeCounts, kindCounts: kindCounts.slice(0, MAX_OBSERVER_KIND_COUNTS) };
}

/**
 * One page of Observer lines. `lines` are the store's Observer lines in ledger order; `revision`
 * is the status revision they were read at. The filter is applied first; a cursor is a ledger
 * line, so it never goes stale in an append-only ledger (under the same filter).
 */
export function observerReceiptsPage(lines: readonly ObserverLine[], revision: string, query: ObserverPageQuery): ObserverReceiptsPage {
  const unfiltered = query.customType === null && query.kind === null;
  const matching = unfiltered ? lines : lines.filter((line) => matches(line, query));
  const count = matching.length;
  const at = (position: number): ObserverLine => (query.order === "oldest" ? matching[position] : matching[count - 1 - position]) as ObserverLine;
  const start = startPosition(matching, query.order, query.cursor);
  const end = Math.min(count, start + query.pageSize);
  const entries: ObserverReceiptRow[] = [];
  for (let position = start; position < end; position += 1) entries.push(observerReceiptRow(at(position)));
  return {
    revision,
    order: query.order,
    customType: query.customType,
    kind: query.kind,
    totalCount: lines.length,
    entryCount: count,
    ...counts(lines),
    startPosition: start,
    pageCursor: start < count ? at(start).line : null,
    entries,
    nextCursor: end < count ? at(end).line : null,
    previousCursor: start > 0 ? at(Math.max(0, start - query.pageSize)).line : null,
  };
}

/** The Observer line with this hash; `docket.receipt-not-found` when there is none. */
export function findObserverLine(lines: readonly ObserverLine[], lineSha256: string): ObserverLine {
  const line = lines.find((candidate) => candidate.lineSha256 === lineSha256);
  if (line === undefined) throw new DocketError(ErrorCodes.receiptNotFound, "No Observer entry in the ledger has this line hash.");
  return line;
}

/** The line's row, its chain link and the exact text its hash covers (checked against lineSha256). */
export function observerReceiptDetail(line: LinkedObserverLine): ObserverReceiptDetail {
  const entry = toJsonValue(line.entry);
  const lineHashInput = canonicalJson({
    domain: LINE_DOMAIN,
    value: { entry, line: line.line, previousLineSha256: line.previousLineSha256, stream: OBSERVER_STREAM },
  });
  if (sha256Hex(lineHashInput) !== line.lineSha256) {
    // The store checked every line's hash when it read it; a mismatch here is a bug or a wrong link, never shown as proof.
    throw new DocketError(ErrorCodes.internal, `The hash of Observer line ${line.line + 1} could not be reproduced.`);
  }
  return {
    receipt: observerReceiptRow(line),
    stream: OBSERVER_STREAM,
    previousLineSha256: line.previousLineSha256,
    canonicalJson: canonicalJson(entry),
    lineHashInput,
  };
}

const SHA256 = /^[0-9a-f]{64}$/u;

/**
 * The chain link of an Observer line, read from the line's own wrapper in the ledger file (where
 * the store last read it). The detail then recomputes the line hash over it, so a link that was
 * read wrong can never be shown.
 */
export function readObserverLineLink(store: LedgerStore, line: ObserverLine): LinkedObserverLine {
  if (line.line === 0) return { ...line, previousLineSha256: null };
  const record = store.lineRecord(line.line);
  const changed = (): DocketError =>
    new DocketError(ErrorCodes.ledgerRewritten, `Observer line ${line.line + 1} is no longer where Docket read it; the ledger changed under the view.`);
  if (record === undefined) throw changed();
  const bytes = Buffer.alloc(record.length);
  const fd = openContained(store.root, store.ledgerPath, "r");
  let read: number;
  try {
    read = fs.readSync(fd, bytes, 0, record.length, record.offset);
  } finally {
    fs.closeSync(fd);
  }
  if (read !== record.length || bytes[record.length - 1] !== 0x0a) throw changed();
  let wrapper: unknown;
  try {
    wrapper = JSON.parse(bytes.subarray(0, record.length - 1).toString("utf8"));
  } catch {
    throw changed();
  }
  if (!isRecord(wrapper) || wrapper.line !== line.line || wrapper.lineSha256 !== line.lineSha256 || wrapper.stream !== OBSERVER_STREAM) throw changed();
  const previous = wrapper.previousLineSha256;
  if (typeof previous !== "string" || !SHA256.test(previous)) throw changed();
  return { ...line, previousLineSha256: previous };
}

/** `docket/observer/receipts/detail` over a store: find the line, read its link, build the detail. */
export function observerReceiptDetailFromStore(store: LedgerStore, lineSha256: string): ObserverReceiptDetail {
  return observerReceiptDetail(readObserverLineLink(store, findObserverLine(store.observerLines, lineSha256)));
}
