// The scope a Memo pass is prepared and applied against (design/observer.md §4.1): the Memo
// working state replayed from the Observer stream, the Notebook's standing records, and the
// SourceReads behind the requested observations. Everything the model may touch is named here,
// and the basis digest binds it, so replay can tell whether the pass still fits the state it
// was written for. Pure: the Notebook arrives as plain facts the caller read.
import { compareCodeUnits } from "../ledger/canonicalJson";
import { MemoHistoryReplay } from "./memoHistory";
import type { PreparedMemoPass } from "./memoPass";
import type { MemoReceipt, MemoScope, MemoWorkingState, WorkingHypothesis, WorkingMemo } from "./memoReconcile";
import type { MemoRequested, SemanticObservationRecorded, UserHypothesisRecorded } from "./observationEvents";
import { memoRequestDigest, type ObservationSnapshot, type ObserverLogEntry, type WorkingSourceBasis } from "./observationSession";
import type { LifecycleState } from "./observerLifecycle";
import { isSha256Hex, prefixedUuid, sha256OfText, sortedCopy } from "./observerValues";

/**
 * One Notebook record as Memo reconciliation needs it. The caller adapts its own records
 * (server/notebook); only what the scope reads is here.
 */
export interface NotebookRecordFact {
  readonly recordId: string;
  readonly type: "source" | "inquiry" | "memo" | "zettel";
  /** `observer_status`. */
  readonly status: string;
  /** The record file's absolute path (the reference's inventory `path`, which digests cover). */
  readonly path: string;
  /** SHA-256 of the file's bytes. */
  readonly sha256: string;
  readonly title: string;
  readonly lang: string;
  /** The Markdown body (a durable Memo's content). */
  readonly body: string;
  /** Targets of the record's `derived_from` lineage, in file order. */
  readonly derivedFrom: readonly string[];
  /** An Inquiry's hypothesis facts; null for other types. */
  readonly inquiry: { readonly origin: "user" | "observer"; readonly original: string; readonly current: string; readonly revisionReason: string | null } | null;
}

export type ScopeRefusalCode = "memo-reconcile.state" | "memo-reconcile.duplicate" | "memo-reconcile.scope";

export type ScopeOutcome = { readonly ok: true; readonly scope: MemoScope } | { readonly ok: false; readonly code: ScopeRefusalCode; readonly message: string };

const STANDING_STATUSES = ["open", "dormant"];

function distinctSorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareCodeUnits);
}

/** The Memo history as operations need it: working state, the pass awaiting application or acknowledgement. */
export interface MemoHistoryView {
  readonly state: MemoWorkingState;
  readonly prepared: PreparedMemoPass | null;
  readonly pendingAcknowledgement: { readonly passId: string; readonly instructionId: string | null; readonly revisionId: string; readonly receiptId: string; readonly summary: string } | null;
  /** The receipt of the last applied pass. */
  readonly lastReceipt: MemoReceipt | null;
  /** Entries the Memo history could not accept (any blocks Memo work, as in the reference). */
  readonly problems: number;
}

/** Replays the Memo history of a stream: working state, prepared pass, pending acknowledgement. */
export function memoHistoryView(entries: readonly ObserverLogEntry[]): MemoHistoryView {
  const replay = new MemoHistoryReplay();
  for (const entry of entries) if (entry.custom) replay.apply(entry);
  return {
    state: replay.state,
    prepared: replay.preparedPass,
    pendingAcknowledgement: replay.pendingAcknowledgement,
    lastReceipt: replay.lastReceipt,
    problems: replay.problems,
  };
}

function memoLineageInquiries(record: NotebookRecordFact): string[] {
  if (record.type !== "memo") return [];
  return distinctSorted(record.derivedFrom.filter((target) => prefixedUuid(target, "inquiry-") !== null));
}

function durableHypothesis(record: NotebookRecordFact, episodeId: string): WorkingHypothesis | null {
  if (record.type !== "inquiry" || record.inquiry === null || !STANDING_STATUSES.includes(record.status)) return null;
  const facts = record.inquiry;
  return { inquiryId: record.recordId, episodeId, origin: facts.origin, original: facts.original, current: facts.current, revisionReason: facts.revisionReason, evidenceIds: [] };
}

/** An incubating Notebook Memo derived from a related Inquiry: it joins this Episode's scope at its file's revision. */
function durableMemo(record: NotebookRecordFact, episodeId: string, related: readonly string[]): WorkingMemo | null {
  if (record.type !== "memo" || record.status !== "incubating") return null;
  const inquiryIds = memoLineageInquiries(record);
  if (!inquiryIds.some((id) => related.includes(id))) return null;
  return {
    memoId: record.recordId,
    episodeId,
    title: record.title,
    lang: record.lang,
    content: record.body,
    inquiryIds,
    hypothesisId: inquiryIds[0] ?? null,
    evidenceIds: [],
    currentRevisionId: `durable-${record.sha256}`,
    disposition: "incubating",
    supersededBy: null,
    durableBase: { path: record.path, sha256: record.sha256 },
  };
}

/**
 * The basis digest (JSON text, the reference's key order): the working revision, this Episode's
 * live working Memos at their revisions, durable Memos at their file hashes, the record and source
 * ids, the basis records and every hypothesis's current wording.
 */
export function memoBasisDigest(state: MemoWorkingState, scope: Omit<MemoScope, "basisDigest" | "episodeLanguage">): string {
  const byFirst = (left: readonly string[], right: readonly string[]): number => compareCodeUnits(left[0] as string, right[0] as string);
  return sha256OfText(
    JSON.stringify({
      revisionId: state.revisionId,
      episodeId: scope.episodeId,
      relatedInquiryIds: scope.relatedInquiryIds,
      workingMemos: state.memos
        .filter((memo) => memo.episodeId === scope.episodeId && memo.disposition !== "superseded")
        .map((memo) => [memo.memoId, memo.currentRevisionId])
        .sort(byFirst),
      durableMemos: scope.durableMemos.map((memo) => [memo.memoId, memo.durableBase?.sha256 ?? ""]),
      existingRecordIds: scope.existingRecordIds,
      sourceIds: scope.sourceIds,
      basisRecords: scope.basisRecords.map((record) => ({ recordId: record.recordId, path: record.path, sha256: record.sha256 })),
      hypotheses: [...state.hypotheses.filter((hypothesis) => hypothesis.episodeId === scope.episodeId), ...scope.durableHypotheses]
        .map((hypothesis) => [hypothesis.inquiryId, hypothesis.current])
        .sort(byFirst),
    }),
  );
}

export interface ScopeInput {
  readonly lifecycle: LifecycleState;
  readonly working: MemoWorkingState;
  readonly notebook: readonly NotebookRecordFact[];
  readonly relatedInquiryIds: readonly string[];
  readonly workingSourceBases: readonly WorkingSourceBasis[];
}

/** §4.1: the scope of a pass for the open Episode, or the reference's refusal. */
export function hydrateMemoScope(input: ScopeInput): ScopeOutcome {
  const episode = input.lifecycle.episode;
  if (episode.status !== "open") return { ok: false, code: "memo-reconcile.state", message: "Memo reconciliation needs an open Episode" };
  const relatedInquiryIds = distinctSorted(input.relatedInquiryIds);
  if (relatedInquiryIds.length !== input.relatedInquiryIds.length) return { ok: false, code: "memo-reconcile.duplicate", message: "the related Inquiry ids repeat an id" };
  const workingSourceIds = input.workingSourceBases.map((basis) => basis.sourceId);
  if (new Set(workingSourceIds).size !== workingSourceIds.length || input.workingSourceBases.some((basis) => basis.path.length === 0 || basis.path !== basis.path.trim() || !isSha256Hex(basis.sha256))) {
    return { ok: false, code: "memo-reconcile.scope", message: "the working source bases repeat a Source or are malformed" };
  }
  const episodeId = episode.core.episodeId;
  const inquiries = new Map(input.notebook.filter((record) => record.type === "inquiry").map((record) => [record.recordId, record]));
  const workingInquiryIds = new Set(input.working.hypotheses.filter((hypothesis) => hypothesis.episodeId === episodeId).map((hypothesis) => hypothesis.inquiryId));
  const durableHypotheses: WorkingHypothesis[] = [];
  for (const id of relatedInquiryIds) {
    const record = inquiries.get(id);
    if (record === undefined) {
      if (!workingInquiryIds.has(id)) return { ok: false, code: "memo-reconcile.scope", message: `the related Inquiry ${id} is neither in the Notebook nor a working hypothesis of this Episode` };
      continue;
    }
    const hypothesis = durableHypothesis(record, episodeId);
    if (hypothesis === null) return { ok: false, code: "memo-reconcile.scope", message: `the related Inquiry ${id} is not standing (open or dormant)` };
    durableHypotheses.push(hypothesis);
  }
  durableHypotheses.sort((left, right) => compareCodeUnits(left.inquiryId, right.inquiryId));
  const durableMemos = input.notebook.flatMap((record) => durableMemo(record, episodeId, relatedInquiryIds) ?? []).sort((left, right) => compareCodeUnits(left.memoId, right.memoId));
  const notebookIds = new Set(input.notebook.map((record) => record.recordId));
  const sourceIds = distinctSorted([...input.notebook.filter((record) => record.type === "source").map((record) => record.recordId), ...workingSourceIds]);
  const existingRecordIds = distinctSorted([...notebookIds, ...workingSourceIds]);
  const basisIds = new Set([...sourceIds, ...relatedInquiryIds, ...durableMemos.map((memo) => memo.memoId)]);
  const basisRecords = [
    ...input.notebook.filter((record) => basisIds.has(record.recordId)).map((record) => ({ recordId: record.recordId, path: record.path, sha256: record.sha256 })),
    // A SourceRead not yet saved as a Source is bound by its session reading.
    ...input.workingSourceBases.filter((basis) => !notebookIds.has(basis.sourceId)).map((basis) => ({ recordId: basis.sourceId, path: basis.path, sha256: basis.sha256 })),
  ].sort((left, right) => compareCodeUnits(left.recordId, right.recordId));
  const unhashed = { episodeId, relatedInquiryIds, durableMemos, durableHypotheses, existingRecordIds, sourceIds, basisRecords };
  return { ok: true, scope: { ...unhashed, episodeLanguage: episode.core.lang, basisDigest: memoBasisDigest(input.working, unhashed) } };
}

/** An observation a Memo request names: a semantic observation or a user hypothesis. */
export type RequestedObservation = SemanticObservationRecorded | UserHypothesisRecorded;

export type RequestContextCode = "memo-trigger.history" | "memo-trigger.scope" | "memo-trigger.stale";

/** What a pass for one pending Memo request is prepared against (the reference's Memo context). */
export interface MemoRequestContext {
  readonly request: MemoRequested;
  /** In the request's (sorted) order. */
  readonly observations: readonly RequestedObservation[];
  readonly scope: MemoScope;
  /** Evidence ids the working state already knows, sorted. */
  readonly priorEvidenceIds: readonly string[];
}

export type RequestContextOutcome = { readonly ok: true; readonly context: MemoRequestContext } | { readonly ok: false; readonly code: RequestContextCode | ScopeRefusalCode; readonly message: string };

function inquiryOfObservation(observation: RequestedObservation): string | null {
  return observation.kind === "user-hypothesis-recorded" ? observation.inquiryId : (observation.observerHypothesis?.inquiryId ?? null);
}

/**
 * The related Inquiries of a request: a semantic observation's related Inquiries, except one that
 * only a requested observation proposes (it is created by this pass, not related); a hypothesis's
 * own Inquiry when it already stands (Notebook or this Episode's working hypotheses).
 */
function requestRelatedInquiryIds(observations: readonly RequestedObservation[], notebook: readonly NotebookRecordFact[], working: MemoWorkingState, episodeId: string): string[] {
  const durable = new Set(notebook.filter((record) => record.type === "inquiry" && STANDING_STATUSES.includes(record.status)).map((record) => record.recordId));
  const workingIds = new Set(working.hypotheses.filter((hypothesis) => hypothesis.episodeId === episodeId).map((hypothesis) => hypothesis.inquiryId));
  const proposed = new Set(observations.flatMap((observation) => inquiryOfObservation(observation) ?? []));
  const standing = (id: string): boolean => durable.has(id) || workingIds.has(id);
  const related = observations.flatMap((observation) =>
    observation.kind === "semantic-observation-recorded" ? observation.relatedInquiryIds.filter((id) => standing(id) || !proposed.has(id)) : standing(observation.inquiryId) ? [observation.inquiryId] : [],
  );
  return distinctSorted(related);
}

/** The SourceReads behind the request's semantic observations, one basis per Source. */
function requestSourceBases(snapshot: ObservationSnapshot, observations: readonly RequestedObservation[]): { readonly ok: true; readonly bases: WorkingSourceBasis[] } | { readonly ok: false; readonly code: RequestContextCode; readonly message: string } {
  const reads = new Map(snapshot.sourceReads.map((read) => [read.readId, read]));
  const bases = new Map<string, WorkingSourceBasis>();
  for (const observation of observations) {
    if (observation.kind !== "semantic-observation-recorded") continue;
    const read = reads.get(observation.readId);
    if (read === undefined) return { ok: false, code: "memo-trigger.history", message: `the requested observation ${observation.observationId} has no SourceRead` };
    const basis = { sourceId: read.source.sourceId, path: `session:observer/${read.readId}`, sha256: read.digest };
    const earlier = bases.get(basis.sourceId);
    if (earlier !== undefined && (earlier.path !== basis.path || earlier.sha256 !== basis.sha256)) {
      return { ok: false, code: "memo-trigger.scope", message: `the Source ${basis.sourceId} was read twice in this request (${earlier.path}, ${basis.path})` };
    }
    bases.set(basis.sourceId, basis);
  }
  return { ok: true, bases: [...bases.values()].sort((left, right) => compareCodeUnits(left.sourceId, right.sourceId)) };
}

/**
 * The context of the pending Memo request `requestId`: its observations, their scope and the
 * evidence already known. Needs a clean history (the caller checked), an open Episode, that exact
 * pending request at the current working revision, and its digest still matching its events.
 */
export function memoRequestContext(snapshot: ObservationSnapshot, memo: MemoHistoryView, notebook: readonly NotebookRecordFact[], requestId: string): RequestContextOutcome {
  if (snapshot.lifecycle.episode.status !== "open") return { ok: false, code: "memo-trigger.scope", message: "Memo reconciliation needs an open Episode" };
  const request = snapshot.pendingMemoRequest;
  if (request === null || request.requestId !== requestId) return { ok: false, code: "memo-trigger.scope", message: `${requestId} is not the pending Memo request` };
  if (request.baseMemoRevisionId !== memo.state.revisionId) return { ok: false, code: "memo-trigger.stale", message: `the Memo request ${requestId} was made at another Memo revision` };
  const available = new Map<string, RequestedObservation>([...snapshot.observations, ...snapshot.userHypotheses].map((item) => [item.observationId, item]));
  const observations = request.observationIds.flatMap((id) => available.get(id) ?? []);
  if (observations.length !== request.observationIds.length) return { ok: false, code: "memo-trigger.history", message: `an observation of ${requestId} is missing from the history` };
  if (memoRequestDigest(request.episodeId, request.baseMemoRevisionId, observations) !== request.requestDigest) return { ok: false, code: "memo-trigger.stale", message: `the digest of ${requestId} no longer matches its observations` };
  const bases = requestSourceBases(snapshot, observations);
  if (!bases.ok) return bases;
  const related = requestRelatedInquiryIds(observations, notebook, memo.state, request.episodeId);
  const scoped = hydrateMemoScope({ lifecycle: snapshot.lifecycle, working: memo.state, notebook, relatedInquiryIds: related, workingSourceBases: bases.bases });
  if (!scoped.ok) return { ok: false, code: "memo-trigger.scope", message: `the Memo scope cannot be built: ${scoped.message}` };
  return { ok: true, context: { request, observations, scope: scoped.scope, priorEvidenceIds: sortedCopy(memo.state.evidence.map((item) => item.evidenceId)) } };
}

/** What a pass must account for: every scoped hypothesis (keep or revise) and every scoped Memo (exactly once). */
export interface MemoCoverage {
  readonly hypotheses: readonly WorkingHypothesis[];
  readonly memos: readonly WorkingMemo[];
}

/** The reference's coverage description: working values over durable ones, limited to this Episode's scope. */
export function describeMemoCoverage(state: MemoWorkingState, scope: MemoScope): MemoCoverage {
  const overlay = <Value>(current: readonly Value[], durable: readonly Value[], id: (value: Value) => string): Value[] => {
    const byId = new Map(current.map((value) => [id(value), value]));
    for (const value of durable) if (!byId.has(id(value))) byId.set(id(value), value);
    return [...byId.values()].sort((left, right) => compareCodeUnits(id(left), id(right)));
  };
  return {
    hypotheses: overlay(state.hypotheses, scope.durableHypotheses, (value) => value.inquiryId).filter(
      (value) => value.episodeId === scope.episodeId && (scope.relatedInquiryIds.includes(value.inquiryId) || !scope.existingRecordIds.includes(value.inquiryId)),
    ),
    memos: overlay(state.memos, scope.durableMemos, (value) => value.memoId).filter((value) => value.episodeId === scope.episodeId && value.disposition !== "superseded"),
  };
}
