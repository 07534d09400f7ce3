// The standing index (design/observer.md §2.9): the Inquiries an Episode's readings can be
// related to, in compact form — the Notebook's open and dormant Inquiries, the Memo working
// hypotheses, and the hypotheses still pending in observations, later sources overriding earlier
// ones by id. A SourceRead records the index's digest and ids; hydration recomputes the index
// (it must not have moved), loads the full context of the requested Inquiries and the Memos
// derived from them, and records the SHA-256 of that context. Digests are SHA-256 of the JSON text
// in the reference's fixed key order, sorted with localeCompare as the reference sorts.
import { compareText } from "../judgment/json";
import type { ObservationSnapshot, PendingHypothesis } from "./observationSession";
import { inquiryId as decodeInquiryId } from "./observationEvents";
import { sha256OfText } from "./observerValues";

/**
 * A Notebook record as the index reads it. server/notebook's `ParsedRecord` (an inventory entry's
 * `record`) has this shape, so inventory records can be passed as they are.
 */
export interface NotebookRecordView {
  readonly record: {
    readonly observer_type: string;
    readonly observer_status: string;
    readonly id: string;
    readonly title: string;
    readonly lang: string;
    readonly lineage: readonly { readonly type: string; readonly target: string }[];
    readonly inquiry?: { readonly origin: "user" | "observer"; readonly original: string; readonly current: string; readonly revision_reason?: string };
  };
  readonly body: string;
}

/** The parts of the Memo working state the index reads (memoReconcile.ts `MemoWorkingState` fits). */
export interface MemoWorkingView {
  readonly hypotheses: readonly {
    readonly inquiryId: string;
    readonly origin: "user" | "observer";
    readonly original: string;
    readonly current: string;
    readonly revisionReason: string | null;
  }[];
  readonly memos: readonly {
    readonly memoId: string;
    readonly title: string;
    readonly lang: string;
    readonly content: string;
    readonly inquiryIds: readonly string[];
    readonly disposition: "incubating" | "promotion-candidate" | "superseded";
  }[];
}

/** What the index is built from besides the Observer stream itself. */
export interface StandingSources {
  /** Notebook records in inventory order (every type: Memos and Sources are read too). */
  readonly notebook: readonly NotebookRecordView[];
  readonly memo: MemoWorkingView;
}

/** A hypothesis no acknowledged Memo pass has consumed yet: replay computes them (observationSession.ts). */
export type { PendingHypothesis };

export type StandingStatus = "open" | "dormant" | "working";
export type StandingSource = "durable" | "memo" | "pending";

export interface CompactStandingInquiry {
  readonly inquiryId: string;
  readonly title: string;
  readonly origin: "user" | "observer";
  readonly current: string;
  readonly status: StandingStatus;
  readonly source: StandingSource;
  readonly relatedMemoIds: readonly string[];
}

export interface StandingIndex {
  /** SHA-256 of the JSON of `inquiries`. */
  readonly digest: string;
  /** Sorted by Inquiry id. */
  readonly inquiries: readonly CompactStandingInquiry[];
  /** What it was built from, so hydration reads the very same state. */
  readonly sources: StandingSources;
  readonly pending: readonly PendingHypothesis[];
}

export interface StandingInquiryContext {
  readonly inquiryId: string;
  readonly title: string;
  readonly lang: string;
  readonly status: StandingStatus;
  readonly source: StandingSource;
  readonly origin: "user" | "observer";
  readonly original: string;
  readonly current: string;
  readonly revisionReason: string | null;
  readonly body: string;
}

export interface StandingMemoContext {
  readonly memoId: string;
  readonly title: string;
  readonly lang: string;
  readonly content: string;
  readonly status: "incubating" | "promotion-candidate";
  readonly source: "durable" | "working";
  readonly inquiryIds: readonly string[];
}

export interface StandingContext {
  readonly indexDigest: string;
  readonly inquiries: readonly StandingInquiryContext[];
  readonly memos: readonly StandingMemoContext[];
  /** SHA-256 of the JSON of `{indexDigest, inquiries, memos}`: a hydration's `context_digest`. */
  readonly digest: string;
}

export type StandingContextResult =
  | { readonly ok: true; readonly value: StandingContext }
  | { readonly ok: false; readonly code: "standing-index.empty" | "standing-index.missing"; readonly message: string };

function uniqueSorted(values: readonly string[]): string[] {
  return [...new Set(values)].sort(compareText);
}

const liveDurableInquiry = (record: NotebookRecordView["record"]): boolean => record.observer_type === "inquiry" && (record.observer_status === "open" || record.observer_status === "dormant");

/** The Inquiries a durable Memo derives from (its `derived_from` lineage targets that are Inquiry ids). */
function derivedInquiryIds(entry: NotebookRecordView): string[] {
  if (entry.record.observer_type !== "memo") return [];
  return uniqueSorted(entry.record.lineage.flatMap((link) => (link.type === "derived_from" && decodeInquiryId(link.target) !== null ? [link.target] : [])));
}

function relatedMemoIds(sources: StandingSources, inquiryId: string): string[] {
  const durable = sources.notebook
    .flatMap((entry) => (entry.record.observer_type === "memo" && entry.record.observer_status === "incubating" && derivedInquiryIds(entry).includes(inquiryId) ? [entry.record.id] : []))
    .sort(compareText);
  const working = sources.memo.memos.flatMap((memo) => (memo.disposition !== "superseded" && memo.inquiryIds.includes(inquiryId) ? [memo.memoId] : [])).sort(compareText);
  return uniqueSorted([...durable, ...working]);
}

/** Builds the index from the Notebook, the Memo working state and the pending hypotheses. */
export function buildStandingIndex(sources: StandingSources, pending: readonly PendingHypothesis[]): StandingIndex {
  const byId = new Map<string, CompactStandingInquiry>();
  for (const entry of sources.notebook) {
    const record = entry.record;
    if (!liveDurableInquiry(record) || record.inquiry === undefined) continue;
    byId.set(record.id, {
      inquiryId: record.id,
      title: record.title,
      origin: record.inquiry.origin,
      current: record.inquiry.current,
      status: record.observer_status as "open" | "dormant",
      source: "durable",
      relatedMemoIds: relatedMemoIds(sources, record.id),
    });
  }
  const working = (hypothesis: { readonly inquiryId: string; readonly original: string; readonly origin: "user" | "observer"; readonly current: string }, source: StandingSource): CompactStandingInquiry => ({
    inquiryId: hypothesis.inquiryId,
    title: hypothesis.original,
    origin: hypothesis.origin,
    current: hypothesis.current,
    status: "working",
    source,
    relatedMemoIds: relatedMemoIds(sources, hypothesis.inquiryId),
  });
  for (const hypothesis of sources.memo.hypotheses) byId.set(hypothesis.inquiryId, working(hypothesis, "memo"));
  for (const hypothesis of pending) byId.set(hypothesis.inquiryId, working(hypothesis, "pending"));
  const inquiries = [...byId.values()].sort((left, right) => compareText(left.inquiryId, right.inquiryId));
  const payload = inquiries.map((item) => ({
    inquiryId: item.inquiryId,
    title: item.title,
    origin: item.origin,
    current: item.current,
    status: item.status,
    source: item.source,
    relatedMemoIds: item.relatedMemoIds,
  }));
  return { digest: sha256OfText(JSON.stringify(payload)), inquiries, sources, pending: [...pending] };
}

/** The index as it stands after a replayed stream. */
export function standingIndexOf(snapshot: ObservationSnapshot, sources: StandingSources): StandingIndex {
  return buildStandingIndex(sources, snapshot.pendingHypotheses);
}

function inquiryContext(index: StandingIndex, compact: CompactStandingInquiry, lang: "ko" | "en"): StandingInquiryContext | null {
  const pending = index.pending.find((hypothesis) => hypothesis.inquiryId === compact.inquiryId);
  if (pending !== undefined) {
    return {
      inquiryId: pending.inquiryId,
      title: compact.title,
      lang,
      status: "working",
      source: "pending",
      origin: pending.origin,
      original: pending.original,
      current: pending.current,
      revisionReason: null,
      body: pending.context,
    };
  }
  const working = index.sources.memo.hypotheses.find((hypothesis) => hypothesis.inquiryId === compact.inquiryId);
  if (working !== undefined) {
    return {
      inquiryId: working.inquiryId,
      title: compact.title,
      lang,
      status: "working",
      source: compact.source,
      origin: working.origin,
      original: working.original,
      current: working.current,
      revisionReason: working.revisionReason,
      body: working.current,
    };
  }
  // The first record with the id decides, whatever its type (the reference reads it so).
  const entry = index.sources.notebook.find((item) => item.record.id === compact.inquiryId);
  if (entry === undefined || !liveDurableInquiry(entry.record)) return null;
  const record = entry.record;
  const facts = record.inquiry;
  if (facts === undefined) return null;
  return {
    inquiryId: record.id,
    title: record.title,
    lang: record.lang,
    status: record.observer_status as "open" | "dormant",
    source: "durable",
    origin: facts.origin,
    original: facts.original,
    current: facts.current,
    revisionReason: facts.revision_reason ?? null,
    body: entry.body,
  };
}

function memoContexts(index: StandingIndex, requested: ReadonlySet<string>): StandingMemoContext[] {
  const byId = new Map<string, StandingMemoContext>();
  for (const entry of index.sources.notebook) {
    const record = entry.record;
    const inquiryIds = derivedInquiryIds(entry);
    if (record.observer_type !== "memo" || record.observer_status !== "incubating" || !inquiryIds.some((id) => requested.has(id))) continue;
    byId.set(record.id, { memoId: record.id, title: record.title, lang: record.lang, content: entry.body, status: "incubating", source: "durable", inquiryIds });
  }
  for (const memo of index.sources.memo.memos) {
    if (memo.disposition === "superseded" || !memo.inquiryIds.some((id) => requested.has(id))) continue;
    byId.set(memo.memoId, { memoId: memo.memoId, title: memo.title, lang: memo.lang, content: memo.content, status: memo.disposition, source: "working", inquiryIds: [...memo.inquiryIds] });
  }
  return [...byId.values()].sort((left, right) => compareText(left.memoId, right.memoId));
}

/**
 * The full context of the requested Inquiries (unique, all in the index) and of the Memos derived
 * from them, with its digest. The Episode's language labels working hypotheses.
 */
export function hydrateStandingContext(index: StandingIndex, requestedInquiryIds: readonly string[], episodeLanguage: "ko" | "en"): StandingContextResult {
  const requested = uniqueSorted(requestedInquiryIds);
  if (requested.length === 0 || requested.length !== requestedInquiryIds.length) return { ok: false, code: "standing-index.empty", message: "hydration needs at least one Inquiry id and no repeats" };
  const compactById = new Map(index.inquiries.map((item) => [item.inquiryId, item]));
  const inquiries: StandingInquiryContext[] = [];
  for (const id of requested) {
    const compact = compactById.get(id);
    if (compact === undefined) return { ok: false, code: "standing-index.missing", message: `${id} is not in the standing index` };
    const context = inquiryContext(index, compact, episodeLanguage);
    if (context === null) return { ok: false, code: "standing-index.missing", message: `the context of ${id} is not available` };
    inquiries.push(context);
  }
  // Key order is the reference's: the digest is over this JSON text.
  const payload = {
    indexDigest: index.digest,
    inquiries: inquiries.map((item) => ({
      inquiryId: item.inquiryId,
      title: item.title,
      lang: item.lang,
      status: item.status,
      source: item.source,
      origin: item.origin,
      original: item.original,
      current: item.current,
      revisionReason: item.revisionReason,
      body: item.body,
    })),
    memos: memoContexts(index, new Set(requested)).map((memo) => ({
      memoId: memo.memoId,
      title: memo.title,
      lang: memo.lang,
      content: memo.content,
      status: memo.status,
      source: memo.source,
      inquiryIds: memo.inquiryIds,
    })),
  };
  return { ok: true, value: { ...payload, digest: sha256OfText(JSON.stringify(payload)) } };
}
