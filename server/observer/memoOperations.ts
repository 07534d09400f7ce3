// Memo reconciliation as Observer operations (design/observer.md §2.3 memo requests, §2.5, §4):
// request a Memo pass over every observation not yet requested, continue a Review & Save after
// it, and reconcile a request with the model's submission. Each is a pure function from the
// Observer stream to the entries it would append, in the reference's branch order:
// memo-requested → memo-instruction → prepared-memo-pass → memo-pass → lifecycle memo-reconciled.
// A reconciliation applies all-or-nothing: any refusal leaves nothing staged, and a staged batch
// is proven by replaying it (observation replay and the Memo history) before it is returned.
import { assessMemoContext } from "./contextBasisBuilder";
import { compareCodeUnits } from "../ledger/canonicalJson";
import type { JsonValue } from "../judgment/json";
import { encodeContextBasis, type ContextBasis } from "./contextBasis";
import type { EvidenceItem, HypothesisDraft, HypothesisOutcome, MemoDraft, MemoOutcome, PreparedMemoPass } from "./memoPass";
import { PREPARED_MEMO_PASS_PROTOCOL } from "./memoPass";
import { APPLIED_MEMO_ENTRY, APPLIED_MEMO_PROTOCOL, MEMO_SCOPE_PROTOCOL, PREPARED_MEMO_ENTRY } from "./memoHistory";
import { reconcileMemoPass, type MemoReceipt, type MemoScope, type MemoWorkingState, type ReconcileRefusal, type WorkingHypothesis, type WorkingMemo } from "./memoReconcile";
import { describeMemoCoverage, memoHistoryView, memoRequestContext, type MemoHistoryView, type MemoRequestContext, type NotebookRecordFact } from "./memoScope";
import { decodeMemoSubmission, dispositionWire, passReferences, type ObservationDisposition } from "./memoSubmission";
import type { MemoRequested, ReviewSaveContinuationRequested } from "./observationEvents";
import { memoRequestDigest, type ObservationSnapshot } from "./observationSession";
import { asLogEntries, cleanSnapshot, lifecycleEntry, observationEntry, refuse, stageEntries, type DraftContext, type DraftOutcome, type DraftRefusal } from "./observerDrafts";
import type { ObserverLedgerEntry } from "./observerEntry";
import { sha256OfText, sortedCopy } from "./observerValues";

export const MEMO_INSTRUCTION_ENTRY = "observer.memo-instruction";
export const MEMO_INSTRUCTION_PROTOCOL = "observer.memo-instruction/v1";

// ---------------------------------------------------------------------------------------------
// Wire forms, in the reference's key order (the instruction digest and entry bytes depend on it).

function evidenceWire(item: EvidenceItem): JsonValue {
  return { evidence_id: item.evidenceId, kind: item.kind, source_id: item.sourceId, summary: item.summary };
}

function hypothesisDraftWire(draft: HypothesisDraft | WorkingHypothesis): JsonValue {
  return {
    inquiry_id: draft.inquiryId,
    episode_id: draft.episodeId,
    origin: draft.origin,
    original: draft.original,
    current: draft.current,
    revision_reason: draft.revisionReason,
    evidence_ids: [...draft.evidenceIds],
  };
}

function memoDraftWire(draft: MemoDraft): JsonValue {
  return {
    memo_id: draft.memoId,
    episode_id: draft.episodeId,
    title: draft.title,
    lang: draft.lang,
    content: draft.content,
    inquiry_ids: [...draft.inquiryIds],
    hypothesis_id: draft.hypothesisId,
    evidence_ids: [...draft.evidenceIds],
    reason: draft.reason,
  };
}

function hypothesisOutcomeWire(outcome: HypothesisOutcome): JsonValue {
  switch (outcome.kind) {
    case "keep":
      return { kind: "keep", inquiry_id: outcome.inquiryId };
    case "create":
      return { kind: "create", hypothesis: hypothesisDraftWire(outcome.hypothesis) };
    case "revise":
      return { kind: "revise", inquiry_id: outcome.inquiryId, current: outcome.current, revision_reason: outcome.revisionReason, evidence_ids: [...outcome.evidenceIds] };
  }
}

function memoOutcomeWire(outcome: MemoOutcome): JsonValue {
  switch (outcome.kind) {
    case "keep-incubating":
      return { kind: "keep-incubating", memo_id: outcome.memoId };
    case "revise": {
      const revision = outcome.revision;
      return {
        kind: "revise",
        memo_id: outcome.memoId,
        disposition: outcome.disposition,
        revision: { revision_id: revision.revisionId, title: revision.title, content: revision.content, evidence_ids: [...revision.evidenceIds], reason: revision.reason },
      };
    }
    case "mark-promotion-candidate":
      return { kind: "mark-promotion-candidate", memo_id: outcome.memoId, reason: outcome.reason, evidence_ids: [...outcome.evidenceIds] };
    case "merge":
      return { kind: "merge", source_ids: [...outcome.sourceIds], target: memoDraftWire(outcome.target) };
    case "create":
      return { kind: "create", memo: memoDraftWire(outcome.memo) };
  }
}

/** `observer.prepared-memo-pass/v1` of a decoded (normalised) pass. */
export function preparedPassWire(pass: PreparedMemoPass): JsonValue {
  return {
    observer_memo_pass: PREPARED_MEMO_PASS_PROTOCOL,
    pass_id: pass.passId,
    episode_id: pass.episodeId,
    base_revision_id: pass.baseRevisionId,
    basis_digest: pass.basisDigest,
    related_inquiry_ids: [...pass.relatedInquiryIds],
    instruction_id: pass.instructionId,
    evidence: pass.evidence.map(evidenceWire),
    hypothesis_outcomes: pass.hypothesisOutcomes.map(hypothesisOutcomeWire),
    memo_outcomes: pass.memoOutcomes.map(memoOutcomeWire),
  };
}

function workingMemoWire(memo: WorkingMemo): JsonValue {
  return {
    memo_id: memo.memoId,
    episode_id: memo.episodeId,
    title: memo.title,
    lang: memo.lang,
    content: memo.content,
    inquiry_ids: [...memo.inquiryIds],
    hypothesis_id: memo.hypothesisId,
    evidence_ids: [...memo.evidenceIds],
    current_revision_id: memo.currentRevisionId,
    disposition: memo.disposition,
    superseded_by: memo.supersededBy,
    durable_base: memo.durableBase === null ? null : { path: memo.durableBase.path, sha256: memo.durableBase.sha256 },
  };
}

function scopeWire(scope: MemoScope): JsonValue {
  return {
    observer_memo_scope: MEMO_SCOPE_PROTOCOL,
    episode_id: scope.episodeId,
    episode_language: scope.episodeLanguage,
    related_inquiry_ids: [...scope.relatedInquiryIds],
    durable_memos: scope.durableMemos.map(workingMemoWire),
    durable_hypotheses: scope.durableHypotheses.map(hypothesisDraftWire),
    existing_record_ids: [...scope.existingRecordIds],
    source_ids: [...scope.sourceIds],
    basis_records: scope.basisRecords.map((record) => ({ record_id: record.recordId, path: record.path, sha256: record.sha256 })),
    basis_digest: scope.basisDigest,
  };
}

function receiptWire(receipt: MemoReceipt): JsonValue {
  const changes = receipt.changes;
  return {
    receipt_id: receipt.receiptId,
    pass_id: receipt.passId,
    revision_id: receipt.revisionId,
    scope: { episode_memos: receipt.scope.episodeMemos, standing_inquiries: receipt.scope.standingInquiries, durable_memos: receipt.scope.durableMemos },
    changes: {
      created: changes.created,
      revised: changes.revised,
      merged: changes.merged,
      kept_incubating: changes.keptIncubating,
      promotion_candidates: changes.promotionCandidates,
      hypothesis_revisions: changes.hypothesisRevisions,
    },
    summary: receipt.summary,
  };
}

// ---------------------------------------------------------------------------------------------
// The `reconcile-memo-pass` context basis (§2.8): the scope and the pass the instruction binds,
// sealed by contextBasisBuilder.ts exactly as the reference's assessment produces it.

/** What the `reconcile-memo-pass` question is asked about; its canonical hash is the basis's `input_sha256`. */
export interface MemoContextInput {
  readonly scopeId: string;
  readonly episodeId: string;
  readonly basisDigest: string;
  readonly relatedInquiryIds: readonly string[];
  readonly knownEvidenceIds: readonly string[];
  readonly passDigest: string;
  readonly outcomeCount: number;
  readonly dispositionCount: number;
}

/** The basis the reference's memo assessment yields for this input (it always covers every need). */
export function memoContextBasis(input: MemoContextInput): ContextBasis {
  const assessed = assessMemoContext(input);
  if (!assessed.ok) throw new Error(`the memo context assessment is incomplete (${assessed.message}); a defect, the pass was checked against its scope`);
  return assessed.basis;
}

// ---------------------------------------------------------------------------------------------
// Operations.

/** What a Memo request operation did: appended a request, found the pending one, nothing to do, or a pass to finish first. */
export type MemoRequestPlan =
  | { readonly status: "requested"; readonly request: MemoRequested }
  | { readonly status: "resumed"; readonly request: MemoRequested }
  | { readonly status: "none" }
  | { readonly status: "delegate"; readonly passId: string };

interface CleanHistory {
  readonly snapshot: ObservationSnapshot;
  readonly memo: MemoHistoryView;
}

function cleanHistory(context: DraftContext): { readonly ok: true; readonly value: CleanHistory } | DraftRefusal {
  const clean = cleanSnapshot(context.entries);
  if (!clean.ok) return clean;
  const memo = memoHistoryView(context.entries);
  if (memo.problems > 0) return refuse("memo-trigger.history", `the Memo history has ${memo.problems} entr${memo.problems === 1 ? "y" : "ies"} it could not accept; Memo work waits until it is repaired`);
  return { ok: true, value: { snapshot: clean.snapshot, memo } };
}

/**
 * Requests a Memo pass (the reference's `requestMemo`): every observation not yet requested, from
 * every Episode, at the current working revision. A pending request is resumed; a prepared or
 * applied pass is delegated (it must be applied or acknowledged first).
 */
export function requestMemo(context: DraftContext): DraftOutcome<MemoRequestPlan> {
  const history = cleanHistory(context);
  if (!history.ok) return history;
  const { snapshot, memo } = history.value;
  const episode = snapshot.lifecycle.episode;
  if (episode.status !== "open") return refuse("memo-trigger.scope", "a Memo request needs an open Episode");
  const reviewed = new Set(snapshot.hypothesisReviews.map((review) => review.hypothesisObservationId));
  const unreviewed = snapshot.userHypotheses.find((hypothesis) => !reviewed.has(hypothesis.observationId));
  if (unreviewed !== undefined) return refuse("observer.hypothesis-review-pending", `review the context of the user hypothesis ${unreviewed.observationId} before Memo reconciliation`);
  const pending = snapshot.pendingMemoRequest;
  const unfinished = memo.prepared ?? memo.pendingAcknowledgement;
  if (unfinished !== null) {
    if (pending !== null && unfinished.instructionId !== pending.requestId) {
      return refuse("memo-trigger.history", `the Memo pass ${unfinished.passId} does not answer the pending Memo request ${pending.requestId}`);
    }
    return { ok: true, entries: [], value: { status: "delegate", passId: unfinished.passId } };
  }
  if (pending !== null) {
    if (pending.baseMemoRevisionId !== memo.state.revisionId) return refuse("memo-trigger.stale", `the pending Memo request ${pending.requestId} was made at another Memo revision`);
    return { ok: true, entries: [], value: { status: "resumed", request: pending } };
  }
  const eligible = [...snapshot.unconsumedObservationIds];
  if (eligible.length === 0) return { ok: true, entries: [], value: { status: "none" } };
  const available = new Map([...snapshot.observations, ...snapshot.userHypotheses].map((item) => [item.observationId, item]));
  const members = eligible.flatMap((id) => available.get(id) ?? []);
  if (members.length !== eligible.length) return refuse("memo-trigger.history", "an unconsumed observation is missing from the history");
  const requestId = context.ids.next("memo-request-");
  const base = memo.state.revisionId;
  const entry = observationEntry({
    kind: "memo-requested",
    episodeId: episode.core.episodeId,
    requestId,
    baseMemoRevisionId: base,
    observationIds: eligible,
    requestDigest: memoRequestDigest(episode.core.episodeId, base, members),
  });
  const staged = stageEntries(context.entries, [entry]);
  if (staged !== null) return staged;
  const request = replayedRequest(context, [entry], requestId);
  if (request === null) return refuse("observer.memo-replay", `the Memo request ${requestId} did not replay as pending`);
  return { ok: true, entries: [entry], value: { status: "requested", request } };
}

function replayedRequest(context: DraftContext, staged: readonly ObserverLedgerEntry[], requestId: string): MemoRequested | null {
  const after = cleanSnapshot([...context.entries, ...asLogEntries(staged)]);
  return after.ok && after.snapshot.pendingMemoRequest?.requestId === requestId ? after.snapshot.pendingMemoRequest : null;
}

/**
 * Marks a Memo request as the first half of a Review & Save (the reference's continuation): once
 * the request is reconciled, Review continues. `saveRequestCount` is the number of save requests
 * on the branch now (the save-request history's count); an existing continuation is kept only if
 * no save request was made since.
 */
export function requestReviewSaveContinuation(context: DraftContext, input: { readonly memoRequestId: string; readonly saveRequestCount: number }): DraftOutcome<ReviewSaveContinuationRequested | null> {
  const clean = cleanSnapshot(context.entries);
  if (!clean.ok) return clean;
  const request = clean.snapshot.memoRequests.find((item) => item.requestId === input.memoRequestId);
  if (request === undefined) return refuse("observer.memo-request-unknown", `${input.memoRequestId} is not a Memo request of this history`);
  const existing = clean.snapshot.reviewSaveContinuations.find((item) => item.memoRequestId === input.memoRequestId);
  if (existing !== undefined) {
    if (existing.baseSaveRequestCount === input.saveRequestCount) return { ok: true, entries: [], value: existing };
    return refuse("observer.continuation-used", `the Review continuation of ${input.memoRequestId} was already used by a save request`);
  }
  if (!Number.isSafeInteger(input.saveRequestCount) || input.saveRequestCount < 0) return refuse("observer.continuation-count", "the save request count must be a whole number ≥ 0");
  const entry = observationEntry({ kind: "review-save-continuation-requested", episodeId: request.episodeId, memoRequestId: request.requestId, baseSaveRequestCount: input.saveRequestCount });
  const staged = stageEntries(context.entries, [entry]);
  if (staged !== null) return staged;
  const after = cleanSnapshot([...context.entries, ...asLogEntries([entry])]);
  const recorded = after.ok ? after.snapshot.reviewSaveContinuations.find((item) => item.memoRequestId === input.memoRequestId) : undefined;
  if (recorded === undefined) return refuse("observer.memo-replay", "the Review continuation did not replay");
  return { ok: true, entries: [entry], value: recorded };
}

/** What a reconciliation produced (the receipt the lifecycle acknowledges, with its counts). */
export interface MemoReconciliation {
  readonly requestId: string;
  readonly passId: string;
  readonly revisionId: string;
  readonly receipt: MemoReceipt;
  /** The reference's one-line receipt summary (`신규 N · 수정 N · …`). */
  readonly summary: string;
  readonly consumedObservationIds: readonly string[];
}

export interface ReconcileInput {
  readonly requestId: string;
  /** The model's submission (MemoSubmissionSchema), undecoded. */
  readonly submission: unknown;
  /** The selected Notebook's records, as facts. */
  readonly notebook: readonly NotebookRecordFact[];
}

/** The pass answering a request shares its UUID (the reference derives it the same way). */
export function passIdForRequest(requestId: string): string {
  return `memo-pass-${requestId.slice("memo-request-".length)}`;
}

/** The instruction's dispositions must cover exactly the request and cite what the pass contains. */
function instructionProblem(context: MemoRequestContext, pass: PreparedMemoPass, dispositions: readonly ObservationDisposition[]): DraftRefusal | null {
  const references = passReferences(pass);
  for (const disposition of dispositions) {
    const missing =
      disposition.hypothesisInquiryIds.find((id) => !references.hypotheses.has(id)) ?? disposition.memoIds.find((id) => !references.memos.has(id)) ?? disposition.evidenceIds.find((id) => !references.evidence.has(id));
    if (missing !== undefined) return refuse("memo-instruction.reference", `the disposition of ${disposition.observationId} cites ${missing}, which the pass does not contain`);
  }
  const expected = sortedCopy(context.request.observationIds);
  const given = dispositions.map((disposition) => disposition.observationId);
  const absent = expected.find((id) => !given.includes(id));
  if (absent !== undefined) return refuse("memo-instruction.coverage", `the requested observation ${absent} has no disposition`);
  const extra = given.find((id) => !expected.includes(id));
  if (extra !== undefined) return refuse("memo-instruction.coverage", `${extra} is not an observation of ${context.request.requestId}`);
  const byId = new Map(dispositions.map((disposition) => [disposition.observationId, disposition]));
  for (const observation of context.observations) {
    const own = observation.kind === "user-hypothesis-recorded" ? observation.inquiryId : observation.observerHypothesis?.inquiryId;
    if (own !== undefined && byId.get(observation.observationId)?.hypothesisInquiryIds.includes(own) !== true) {
      return refuse("memo-instruction.coverage", `the hypothesis observation ${observation.observationId} must cite its own Inquiry ${own}`);
    }
  }
  return null;
}

/** The `observer.memo-instruction` data: the request, the pass, the dispositions, the context basis and their digest. */
function instructionData(request: MemoRequested, pass: PreparedMemoPass, dispositions: readonly ObservationDisposition[], basis: ContextBasis): Record<string, JsonValue> {
  const payload: Record<string, JsonValue> = {
    observer_memo_instruction: MEMO_INSTRUCTION_PROTOCOL,
    request_id: request.requestId,
    request_digest: request.requestDigest,
    pass: preparedPassWire(pass),
    dispositions: dispositions.map(dispositionWire),
    context_basis: encodeContextBasis(basis),
  };
  return { ...payload, digest: sha256OfText(JSON.stringify(payload)) };
}

/** Instructions already on the branch for this request (their stored digests). */
function existingInstructionDigests(context: DraftContext, requestId: string): string[] {
  return context.entries.flatMap((entry) => {
    if (!entry.custom || entry.customType !== MEMO_INSTRUCTION_ENTRY || typeof entry.data !== "object" || entry.data === null) return [];
    const data = entry.data as Record<string, unknown>;
    return data.request_id === requestId ? [typeof data.digest === "string" ? data.digest : ""] : [];
  });
}

/**
 * Reconciles the pending Memo request with the model's submission: decodes it into the pass
 * seeded by the request and its scope, checks the dispositions, applies the pass (all-or-nothing)
 * and stages instruction, prepared pass, applied pass and acknowledgement. An identical
 * instruction or prepared pass already on the branch (an interrupted earlier attempt) is not
 * written again.
 */
export function reconcileMemo(context: DraftContext, input: ReconcileInput): DraftOutcome<MemoReconciliation> {
  const history = cleanHistory(context);
  if (!history.ok) return history;
  const { snapshot, memo } = history.value;
  if (memo.pendingAcknowledgement !== null) return refuse("memo-trigger.history", `the Memo pass ${memo.pendingAcknowledgement.passId} is applied but not acknowledged; acknowledge it first`);
  const hydrated = memoRequestContext(snapshot, memo, input.notebook, input.requestId);
  if (!hydrated.ok) return refuse(hydrated.code, hydrated.message);
  const requestContext = hydrated.context;
  const { request, scope } = requestContext;
  const decoded = decodeMemoSubmission(
    { passId: passIdForRequest(request.requestId), episodeId: request.episodeId, baseRevisionId: request.baseMemoRevisionId, basisDigest: scope.basisDigest, relatedInquiryIds: scope.relatedInquiryIds, instructionId: request.requestId },
    input.submission,
  );
  if (!decoded.ok) return refuse(decoded.code, decoded.message);
  const { pass, dispositions } = decoded.value;
  const problem = instructionProblem(requestContext, pass, dispositions);
  if (problem !== null) return problem;
  const basis = memoContextBasis({
    scopeId: request.requestId,
    episodeId: pass.episodeId,
    basisDigest: pass.basisDigest,
    relatedInquiryIds: pass.relatedInquiryIds,
    knownEvidenceIds: sortedCopy([...requestContext.priorEvidenceIds, ...pass.evidence.map((item) => item.evidenceId)]),
    passDigest: pass.digest,
    outcomeCount: pass.hypothesisOutcomes.length + pass.memoOutcomes.length,
    dispositionCount: dispositions.length,
  });
  const instruction = instructionData(request, pass, dispositions, basis);
  const earlierInstructions = existingInstructionDigests(context, request.requestId);
  if (earlierInstructions.some((digest) => digest !== instruction.digest)) return refuse("memo-instruction-session.conflict", `another Memo instruction for ${request.requestId} is already on the branch`);
  if (memo.prepared !== null && (memo.prepared.passId !== pass.passId || memo.prepared.digest !== pass.digest)) {
    return refuse("memo-trigger.history", `another prepared Memo pass (${memo.prepared.passId}) awaits application`);
  }
  const ids = { revisionId: context.ids.next("memo-working-revision-"), receiptId: context.ids.next("memo-receipt-") };
  const applied = reconcileMemoPass(memo.state, scope, pass, ids);
  if (!applied.ok) return refuse(`memo-reconcile.${applied.refusal}`, explainRefusal(applied.refusal, memo.state, scope, pass));
  const receipt = applied.receipt;
  const entries: ObserverLedgerEntry[] = [
    ...(earlierInstructions.length === 0 ? [{ customType: MEMO_INSTRUCTION_ENTRY, data: instruction } as const] : []),
    ...(memo.prepared === null ? [{ customType: PREPARED_MEMO_ENTRY, data: preparedPassWire(pass) } as const] : []),
    {
      customType: APPLIED_MEMO_ENTRY,
      data: { observer_memo_event: APPLIED_MEMO_PROTOCOL, kind: "applied", pass: preparedPassWire(pass), scope: scopeWire(scope), next_revision_id: receipt.revisionId, receipt: receiptWire(receipt) },
    },
    lifecycleEntry({ kind: "memo-reconciled", revisionId: receipt.revisionId, receiptId: receipt.receiptId, summary: receipt.summary }),
  ];
  const proven = proveReconciled(context, entries, request, receipt.revisionId);
  if (proven !== null) return proven;
  return {
    ok: true,
    entries,
    value: { requestId: request.requestId, passId: pass.passId, revisionId: receipt.revisionId, receipt, summary: receipt.summary, consumedObservationIds: sortedCopy(request.observationIds) },
  };
}

/**
 * Observation replay ignores Memo entries it cannot accept (the Memo history only counts them),
 * so the batch is proven on both: no new observation issue, no Memo history problem, the pass
 * applied and acknowledged at this revision, and the request's observations consumed.
 */
function proveReconciled(context: DraftContext, entries: readonly ObserverLedgerEntry[], request: MemoRequested, revisionId: string): DraftRefusal | null {
  const staged = stageEntries(context.entries, entries);
  if (staged !== null) return staged;
  const after = [...context.entries, ...asLogEntries(entries)];
  const memo = memoHistoryView(after);
  const clean = cleanSnapshot(after);
  if (memo.problems > 0 || memo.state.revisionId !== revisionId || memo.prepared !== null || memo.pendingAcknowledgement !== null || !clean.ok) {
    return refuse("observer.memo-replay", `the reconciliation of ${request.requestId} did not replay as applied and acknowledged`);
  }
  const consumed = new Set(clean.snapshot.consumedObservationIds);
  if (request.observationIds.some((id) => !consumed.has(id))) return refuse("observer.memo-replay", `the observations of ${request.requestId} were not consumed by replay`);
  return null;
}

/** What the model is shown to prepare a submission (the reference's `observer.memo-preparation/v1` guide). */
export interface MemoPreparationGuide {
  readonly protocol: "observer.memo-preparation/v1";
  readonly request: { readonly request_id: string; readonly request_digest: string; readonly observation_ids: readonly string[] };
  /** Every hypothesis and Memo the pass must account for, pending hypotheses of the request included. */
  readonly required_coverage: { readonly hypotheses: readonly WorkingHypothesis[]; readonly memos: readonly WorkingMemo[] };
  readonly evidence_sources: readonly { readonly source_id: string; readonly title: string; readonly faithful_summary: string; readonly claims: readonly { readonly text: string; readonly locator: string | null }[] }[];
  /** The pass the submission completes: everything but its evidence and outcomes is fixed. */
  readonly pass_seed: { readonly pass_id: string; readonly episode_id: string; readonly base_revision_id: string | null; readonly basis_digest: string; readonly related_inquiry_ids: readonly string[]; readonly instruction_id: string };
}

/**
 * The context of the pending request for the model (the reference's `load-memo-context`): what
 * must be covered, the sources it may cite, and the pass seed. Reads only; appends nothing.
 */
export function loadMemoContext(context: DraftContext, input: { readonly requestId: string; readonly notebook: readonly NotebookRecordFact[] }): DraftOutcome<MemoPreparationGuide> {
  const history = cleanHistory(context);
  if (!history.ok) return history;
  const { snapshot, memo } = history.value;
  const hydrated = memoRequestContext(snapshot, memo, input.notebook, input.requestId);
  if (!hydrated.ok) return refuse(hydrated.code, hydrated.message);
  const { request, scope, observations } = hydrated.context;
  const coverage = describeMemoCoverage(memo.state, scope);
  // A hypothesis a requested observation proposes is not working state yet; the pass creates it.
  const hypotheses = new Map(coverage.hypotheses.map((item) => [item.inquiryId, item]));
  for (const observation of observations) {
    const proposed =
      observation.kind === "user-hypothesis-recorded"
        ? { inquiryId: observation.inquiryId, origin: "user" as const, original: observation.original }
        : observation.observerHypothesis === null
          ? null
          : { inquiryId: observation.observerHypothesis.inquiryId, origin: "observer" as const, original: observation.observerHypothesis.original };
    if (proposed !== null && !hypotheses.has(proposed.inquiryId)) {
      hypotheses.set(proposed.inquiryId, { ...proposed, episodeId: observation.episodeId, current: proposed.original, revisionReason: null, evidenceIds: [] });
    }
  }
  const reads = new Map(snapshot.sourceReads.map((read) => [read.readId, read]));
  const sources = new Map<string, MemoPreparationGuide["evidence_sources"][number]>();
  for (const observation of observations) {
    if (observation.kind !== "semantic-observation-recorded") continue;
    const read = reads.get(observation.readId);
    if (read === undefined || read.episodeId !== request.episodeId) return refuse("memo-trigger.scope", `the requested observation ${observation.observationId} is missing its SourceRead`);
    sources.set(read.source.sourceId, { source_id: read.source.sourceId, title: read.source.title, faithful_summary: read.faithfulSummary, claims: read.claims });
  }
  return {
    ok: true,
    entries: [],
    value: {
      protocol: "observer.memo-preparation/v1",
      request: { request_id: request.requestId, request_digest: request.requestDigest, observation_ids: request.observationIds },
      required_coverage: { hypotheses: [...hypotheses.values()].sort((left, right) => compareCodeUnits(left.inquiryId, right.inquiryId)), memos: coverage.memos },
      evidence_sources: [...sources.values()].sort((left, right) => compareCodeUnits(left.source_id, right.source_id)),
      pass_seed: {
        pass_id: passIdForRequest(request.requestId),
        episode_id: request.episodeId,
        base_revision_id: request.baseMemoRevisionId,
        basis_digest: scope.basisDigest,
        related_inquiry_ids: scope.relatedInquiryIds,
        instruction_id: request.requestId,
      },
    },
  };
}

/**
 * Appends the lifecycle acknowledgement of an applied pass that has none (the reference re-appends
 * it on the next sync): nothing when no pass awaits one.
 */
export function acknowledgeMemoPass(context: DraftContext): DraftOutcome<{ readonly revisionId: string; readonly summary: string } | null> {
  const history = cleanHistory(context);
  if (!history.ok) return history;
  const pending = history.value.memo.pendingAcknowledgement;
  if (pending === null) return { ok: true, entries: [], value: null };
  const entry = lifecycleEntry({ kind: "memo-reconciled", revisionId: pending.revisionId, receiptId: pending.receiptId, summary: pending.summary });
  const staged = stageEntries(context.entries, [entry]);
  if (staged !== null) return staged;
  if (memoHistoryView([...context.entries, ...asLogEntries([entry])]).pendingAcknowledgement !== null) return refuse("observer.memo-replay", "the Memo acknowledgement did not replay");
  return { ok: true, entries: [entry], value: { revisionId: pending.revisionId, summary: pending.summary } };
}

// ---------------------------------------------------------------------------------------------
// Refusal messages. reconcileMemoPass says only which rule failed; these name the item, by
// re-reading the pass against the same state and scope.

function countBy(ids: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

function coverageMessage(state: MemoWorkingState, scope: MemoScope, pass: PreparedMemoPass): string | null {
  const coverage = describeMemoCoverage(state, scope);
  const hypothesisCounts = countBy(pass.hypothesisOutcomes.flatMap((outcome) => (outcome.kind === "create" ? [] : [outcome.inquiryId])));
  const memoCounts = countBy(pass.memoOutcomes.flatMap((outcome) => (outcome.kind === "merge" ? outcome.sourceIds : outcome.kind === "create" ? [] : [outcome.memoId])));
  for (const hypothesis of coverage.hypotheses) {
    const count = hypothesisCounts.get(hypothesis.inquiryId) ?? 0;
    if (count !== 1) return `the hypothesis ${hypothesis.inquiryId} is ${count === 0 ? "not accounted for (keep or revise it)" : `accounted for ${count} times`}`;
  }
  for (const memo of coverage.memos) {
    const count = memoCounts.get(memo.memoId) ?? 0;
    if (count !== 1) return `the Memo ${memo.memoId} is ${count === 0 ? "not accounted for (keep, revise, mark or merge it)" : `targeted ${count} times`}`;
  }
  return null;
}

function scopeMessage(state: MemoWorkingState, scope: MemoScope, pass: PreparedMemoPass): string | null {
  const coverage = describeMemoCoverage(state, scope);
  const hypotheses = new Set(coverage.hypotheses.map((item) => item.inquiryId));
  const memos = new Set(coverage.memos.map((item) => item.memoId));
  const outsideHypothesis = pass.hypothesisOutcomes.find((outcome) => outcome.kind !== "create" && !hypotheses.has(outcome.inquiryId));
  if (outsideHypothesis !== undefined && outsideHypothesis.kind !== "create") return `the hypothesis ${outsideHypothesis.inquiryId} is outside this Memo scope`;
  for (const outcome of pass.memoOutcomes) {
    const targets = outcome.kind === "merge" ? outcome.sourceIds : outcome.kind === "create" ? [] : [outcome.memoId];
    const outside = targets.find((id) => !memos.has(id));
    if (outside !== undefined) return `the Memo ${outside} is outside this Memo scope`;
    const draft = outcome.kind === "merge" ? outcome.target : outcome.kind === "create" ? outcome.memo : null;
    if (draft !== null && (draft.episodeId !== scope.episodeId || draft.lang !== scope.episodeLanguage)) return `the Memo ${draft.memoId} must belong to ${scope.episodeId} in ${scope.episodeLanguage}`;
    if (draft !== null) return `the Memo ${draft.memoId} may link only hypotheses in scope, with its hypothesis among its inquiries`;
  }
  return null;
}

function evidenceMessage(state: MemoWorkingState, scope: MemoScope, pass: PreparedMemoPass): string | null {
  const earlier = new Map(state.evidence.map((item) => [item.evidenceId, item]));
  for (const item of pass.evidence) {
    const prior = earlier.get(item.evidenceId);
    if (prior !== undefined && JSON.stringify(prior) !== JSON.stringify(item)) return `the evidence ${item.evidenceId} already means something else`;
    if (item.kind === "source-claim" && item.sourceId === null) return `the source claim ${item.evidenceId} names no Source`;
    if (item.sourceId !== null && !scope.sourceIds.includes(item.sourceId)) return `the evidence ${item.evidenceId} cites ${item.sourceId}, which is not a Source in scope`;
  }
  const known = new Set([...earlier.keys(), ...pass.evidence.map((item) => item.evidenceId)]);
  const cited: { readonly id: string; readonly evidence: readonly string[]; readonly required: boolean }[] = [
    ...pass.hypothesisOutcomes.flatMap((outcome) =>
      outcome.kind === "keep" ? [] : outcome.kind === "create" ? [{ id: outcome.hypothesis.inquiryId, evidence: outcome.hypothesis.evidenceIds, required: outcome.hypothesis.origin === "observer" }] : [{ id: outcome.inquiryId, evidence: outcome.evidenceIds, required: true }],
    ),
    ...pass.memoOutcomes.flatMap((outcome) => {
      switch (outcome.kind) {
        case "keep-incubating":
          return [];
        case "revise":
          return [{ id: outcome.memoId, evidence: outcome.revision.evidenceIds, required: true }];
        case "mark-promotion-candidate":
          return [{ id: outcome.memoId, evidence: outcome.evidenceIds, required: true }];
        case "merge":
          return [{ id: outcome.target.memoId, evidence: outcome.target.evidenceIds, required: true }];
        case "create":
          return [{ id: outcome.memo.memoId, evidence: outcome.memo.evidenceIds, required: true }];
      }
    }),
  ];
  for (const item of cited) {
    const unknown = item.evidence.find((id) => !known.has(id));
    if (unknown !== undefined) return `${item.id} cites the evidence ${unknown}, which neither the pass nor earlier passes define`;
    if (item.required && item.evidence.length === 0) return `${item.id} changes working state and must cite at least one evidence item`;
  }
  return null;
}

function identityMessage(state: MemoWorkingState, scope: MemoScope, pass: PreparedMemoPass): string | null {
  const used = new Set([...state.hypotheses.map((item) => item.inquiryId), ...state.memos.map((item) => item.memoId), ...scope.durableHypotheses.map((item) => item.inquiryId), ...scope.durableMemos.map((item) => item.memoId), ...scope.existingRecordIds]);
  const created = [
    ...pass.hypothesisOutcomes.flatMap((outcome) => (outcome.kind === "create" ? [outcome.hypothesis] : [])),
    ...pass.memoOutcomes.flatMap((outcome) => (outcome.kind === "create" ? [outcome.memo] : outcome.kind === "merge" ? [outcome.target] : [])),
  ];
  for (const item of created) {
    const id = "inquiryId" in item ? item.inquiryId : item.memoId;
    if (used.has(id)) return `${id} is already used; a created item needs a new id`;
    if (item.episodeId !== scope.episodeId) return `${id} must belong to ${scope.episodeId}`;
  }
  return null;
}

function duplicateMessage(state: MemoWorkingState, pass: PreparedMemoPass): string | null {
  const memos = new Map(state.memos.map((memo) => [memo.memoId, memo]));
  for (const outcome of pass.memoOutcomes) {
    const current = outcome.kind === "revise" ? memos.get(outcome.memoId) : undefined;
    if (outcome.kind === "revise" && current !== undefined && current.title === outcome.revision.title && current.content === outcome.revision.content) {
      return `the revision of ${outcome.memoId} changes neither its title nor its content`;
    }
  }
  return "two live Memos would be the same (title, content, inquiries and hypothesis after whitespace normalisation)";
}

function explainRefusal(refusal: ReconcileRefusal, state: MemoWorkingState, scope: MemoScope, pass: PreparedMemoPass): string {
  switch (refusal) {
    case "base":
      return "the pass no longer matches the Memo working revision or scope it was prepared for";
    case "coverage":
      return coverageMessage(state, scope, pass) ?? "every scoped hypothesis and Memo must be accounted for exactly once";
    case "scope":
      return scopeMessage(state, scope, pass) ?? "the pass targets something outside this Memo scope";
    case "evidence":
      return evidenceMessage(state, scope, pass) ?? "the pass's evidence is inconsistent";
    case "identity":
      return identityMessage(state, scope, pass) ?? "a created hypothesis or Memo reuses an id";
    case "hypothesis": {
      const unchanged = pass.hypothesisOutcomes.find((outcome) => outcome.kind === "revise" && state.hypotheses.some((item) => item.inquiryId === outcome.inquiryId && item.current === outcome.current));
      return unchanged !== undefined && unchanged.kind === "revise" ? `the revision of ${unchanged.inquiryId} does not change its wording` : "a hypothesis revision must change its current wording";
    }
    case "merge": {
      const merge = pass.memoOutcomes.find((outcome) => outcome.kind === "merge");
      return `the merge${merge !== undefined && merge.kind === "merge" ? ` into ${merge.target.memoId}` : ""} must keep every inquiry and evidence id of the Memos it merges`;
    }
    case "duplicate":
      return duplicateMessage(state, pass) ?? "two live Memos would be the same";
  }
}
