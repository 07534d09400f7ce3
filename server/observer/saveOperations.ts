// Review & Save operations (observer.md §2.6, §6.1): pure functions from the Observer log (plus
// the Notebook and Memo facts the caller read) to the entries they would append. Request → the
// model prepares records against the guide → the handoff is preflighted and proposed → the person
// approves (the attempt is recorded before any write) → after the publication read back exactly,
// the commit settles the Episode; or the proposal is cancelled back to the open Episode. Nothing
// here writes, reads files or the clock; refusals are coded and stage nothing, and every batch is
// proved against both observation replay and save replay before it is returned.
import { compareNotebookText } from "../notebook/referenceOrder";
import { MATERIAL_REVIEW_ENTRY, ReviewHistoryReplay } from "./materialReview";
import type { MemoReceipt, MemoWorkingState } from "./memoReconcile";
import { asLogEntries, lifecycleEntry, refuse, stageEntries, type DraftContext, type DraftOutcome, type DraftRefusal } from "./observerDrafts";
import type { ObserverLedgerEntry } from "./observerEntry";
import type { EpisodeCore, EpisodeLanguage } from "./observerLifecycle";
import { replayObservationSession, type ObservationSnapshot, type ObserverLogEntry } from "./observationSession";
import { prefixedUuid, sameList, sha256OfText, sortedCopy } from "./observerValues";
import {
  OBSERVER_SAVE_SCHEMA,
  PREPARED_SAVE_ENTRY,
  PREPARED_SAVE_PROTOCOL,
  SAVE_ATTEMPT_ENTRY,
  SAVE_ATTEMPT_PROTOCOL,
  SAVE_REQUEST_ENTRY,
  attemptData,
  decodePreparedSaveHandoff,
  handoffData,
  preparedSaveDigest,
  saveRequestData,
  type ApprovedSaveAttempt,
  type PreparedSave,
  type PreparedSaveHandoff,
  type SaveRequest,
} from "./saveProfile";
import { replayObserverSaves, type SaveReplay } from "./saveReplay";

export const SAVE_PREPARATION_PROTOCOL = "observer.save-preparation/v1";

/** One record file of the Notebook as the caller read it. */
export interface NotebookRecordFact {
  readonly recordId: string;
  /** The file's path as the reference's inventory names it (absolute); part of the request digest. */
  readonly path: string;
  readonly sha256: string;
  /** The current bytes as text, shown in the guide as the base of an update (optional). */
  readonly markdown?: string;
}

export interface SaveNotebookFacts {
  readonly notebookId: string;
  /** The canonical absolute root the publication will write under. */
  readonly root: string;
  readonly inventory: readonly NotebookRecordFact[];
}

/** The Memo history's state just after the log (memoHistory.ts), as plain values. */
export interface SaveMemoFacts {
  readonly state: MemoWorkingState;
  /** The receipt of the last applied pass (the reference keeps it inside its working state, so the request digest covers it). */
  readonly lastReceipt: MemoReceipt | null;
  readonly preparedPassPending: boolean;
  readonly acknowledgementPending: boolean;
  /** Problems Memo history found (any blocks a save request). */
  readonly problems: number;
}

export interface RequiredRecord {
  readonly record_id: string;
  readonly observer_type: "source" | "inquiry" | "memo";
  readonly operation: "create" | "update";
  readonly expected_sha256: string | null;
}

export interface LockedTarget {
  readonly proposal_id: string;
  readonly notebook_id: string;
  readonly root: string;
  readonly episode_language: EpisodeLanguage;
}

/** What the model gets to prepare the records; it submits only `{request_id, summary, records}`. */
export interface SaveGuide {
  readonly protocol: typeof SAVE_PREPARATION_PROTOCOL;
  readonly request: { readonly request_id: string; readonly request_digest: string; readonly memo_revision_id: string | null };
  readonly locked_target: LockedTarget;
  readonly required_records: readonly RequiredRecord[];
  readonly submission_contract: {
    readonly action: "prepare-save-proposal";
    readonly submit_only: readonly string[];
    readonly create_record_fields: readonly string[];
    readonly update_record_fields: readonly string[];
    readonly locked_fields: readonly string[];
  };
  readonly record_authoring_rules: readonly string[];
  readonly observed_sources: readonly { readonly read_id: string; readonly digest: string; readonly source: unknown; readonly faithful_summary: string; readonly claims: readonly unknown[] }[];
  readonly working: Record<string, unknown>;
  readonly inventory: readonly { readonly record_id: string; readonly path: string; readonly sha256: string; readonly markdown: string | null }[];
  readonly markdown_profile: "observer-record/v1";
}

export interface SaveRequestValue {
  /** `resume`: the pending request still matches and nothing is appended. */
  readonly kind: "new" | "resume";
  readonly request: SaveRequest;
  readonly guide: SaveGuide;
}

// --- the request digest -------------------------------------------------------------------------

/**
 * The Memo working state as the reference's JSON text has it: its fields in their declared order
 * and the last pass's receipt inside (Docket keeps the receipt apart).
 */
export function referenceMemoState(state: MemoWorkingState, lastReceipt: MemoReceipt | null): Record<string, unknown> {
  return {
    revisionId: state.revisionId,
    passes: state.passes,
    memos: state.memos.map((memo) => ({
      memoId: memo.memoId,
      episodeId: memo.episodeId,
      title: memo.title,
      lang: memo.lang,
      content: memo.content,
      inquiryIds: [...memo.inquiryIds],
      hypothesisId: memo.hypothesisId,
      evidenceIds: [...memo.evidenceIds],
      currentRevisionId: memo.currentRevisionId,
      disposition: memo.disposition,
      supersededBy: memo.supersededBy,
      durableBase: memo.durableBase === null ? null : { path: memo.durableBase.path, sha256: memo.durableBase.sha256 },
    })),
    hypotheses: state.hypotheses.map((hypothesis) => ({
      inquiryId: hypothesis.inquiryId,
      episodeId: hypothesis.episodeId,
      origin: hypothesis.origin,
      original: hypothesis.original,
      current: hypothesis.current,
      revisionReason: hypothesis.revisionReason,
      evidenceIds: [...hypothesis.evidenceIds],
    })),
    evidence: state.evidence.map((item) => ({ evidenceId: item.evidenceId, kind: item.kind, sourceId: item.sourceId, summary: item.summary })),
    lastPassId: state.lastPassId,
    lastPassDigest: state.lastPassDigest,
    lastReceipt:
      lastReceipt === null
        ? null
        : {
            receiptId: lastReceipt.receiptId,
            passId: lastReceipt.passId,
            revisionId: lastReceipt.revisionId,
            scope: { episodeMemos: lastReceipt.scope.episodeMemos, standingInquiries: lastReceipt.scope.standingInquiries, durableMemos: lastReceipt.scope.durableMemos },
            changes: {
              created: lastReceipt.changes.created,
              revised: lastReceipt.changes.revised,
              merged: lastReceipt.changes.merged,
              keptIncubating: lastReceipt.changes.keptIncubating,
              promotionCandidates: lastReceipt.changes.promotionCandidates,
              hypothesisRevisions: lastReceipt.changes.hypothesisRevisions,
            },
            summary: lastReceipt.summary,
          },
  };
}

/** Inventory sorted by record id with the reference's collation (the digest depends on the order). */
function sortedInventory(inventory: readonly NotebookRecordFact[]): NotebookRecordFact[] {
  return [...inventory].sort((left, right) => compareNotebookText(left.recordId, right.recordId));
}

/**
 * `request_digest` (§2.6): SHA-256 of `{episode, root, memo, consumed_observation_ids, sources,
 * inventory}` as JSON text, the Episode language being the one locked by a pending request.
 */
export function saveRequestDigest(input: {
  readonly episode: EpisodeCore;
  readonly language: EpisodeLanguage;
  readonly observation: ObservationSnapshot;
  readonly memo: SaveMemoFacts;
  readonly notebook: SaveNotebookFacts;
}): string {
  return sha256OfText(
    JSON.stringify({
      episode: { episode_id: input.episode.episodeId, notebook_id: input.episode.notebookId, episode_language: input.language },
      root: input.notebook.root,
      memo: referenceMemoState(input.memo.state, input.memo.lastReceipt),
      consumed_observation_ids: [...input.observation.consumedObservationIds],
      sources: input.observation.sourceReads.map((read) => ({ read_id: read.readId, digest: read.digest })),
      inventory: sortedInventory(input.notebook.inventory).map((record) => ({ record_id: record.recordId, path: record.path, sha256: record.sha256 })),
    }),
  );
}

/** Each SourceRead's source, each working hypothesis's Inquiry, each working Memo: update when the Notebook has it. */
export function requiredRecords(observation: ObservationSnapshot, memo: MemoWorkingState, inventory: readonly NotebookRecordFact[]): RequiredRecord[] {
  const existing = new Map(inventory.map((record) => [record.recordId, record]));
  const required = new Map<string, RequiredRecord>();
  const add = (recordId: string, observerType: RequiredRecord["observer_type"]): void => {
    const current = existing.get(recordId);
    required.set(
      recordId,
      current === undefined
        ? { record_id: recordId, observer_type: observerType, operation: "create", expected_sha256: null }
        : { record_id: recordId, observer_type: observerType, operation: "update", expected_sha256: current.sha256 },
    );
  };
  for (const read of observation.sourceReads) add(read.source.sourceId, "source");
  for (const hypothesis of memo.hypotheses) add(hypothesis.inquiryId, "inquiry");
  for (const item of memo.memos) add(item.memoId, "memo");
  return [...required.values()].sort((left, right) => compareNotebookText(left.record_id, right.record_id));
}

const AUTHORING_RULES: readonly string[] = [
  "Write every record as one whole observer-record/v1 Markdown document (frontmatter, one h1, a body), never a patch or an excerpt.",
  "The frontmatter id and observer_type are those of its required record; an update starts from the inventory's Markdown and keeps its created time.",
  "modified is an RFC 3339 time no earlier than created; quote YAML strings whose punctuation YAML could read otherwise.",
  "An Inquiry whose current wording differs from its original carries a non-empty inquiry.revision_reason.",
  "An incubating Memo stays observer_status incubating and keeps its derived_from Inquiry unless the proposal changes its disposition consistently.",
  "Every Zettel names at least one Source record directly in its sources.",
];

function buildGuide(request: SaveRequest, observation: ObservationSnapshot, memo: SaveMemoFacts, notebook: SaveNotebookFacts): SaveGuide {
  return {
    protocol: SAVE_PREPARATION_PROTOCOL,
    request: { request_id: request.requestId, request_digest: request.requestDigest, memo_revision_id: request.memoRevisionId },
    locked_target: lockedTarget(request),
    required_records: requiredRecords(observation, memo.state, notebook.inventory),
    submission_contract: {
      action: "prepare-save-proposal",
      submit_only: ["request_id", "summary", "records"],
      create_record_fields: ["operation", "record_id", "markdown"],
      update_record_fields: ["operation", "record_id", "expected_sha256", "markdown"],
      locked_fields: ["proposal_id", "notebook_id", "root", "episode_language"],
    },
    record_authoring_rules: AUTHORING_RULES,
    observed_sources: observation.sourceReads.map((read) => ({ read_id: read.readId, digest: read.digest, source: read.source, faithful_summary: read.faithfulSummary, claims: read.claims })),
    working: referenceMemoState(memo.state, memo.lastReceipt),
    inventory: sortedInventory(notebook.inventory).map((record) => ({ record_id: record.recordId, path: record.path, sha256: record.sha256, markdown: record.markdown ?? null })),
    markdown_profile: "observer-record/v1",
  };
}

function lockedTarget(request: SaveRequest): LockedTarget {
  return { proposal_id: request.proposalId, notebook_id: request.notebookId, root: request.root, episode_language: request.episodeLanguage };
}

// --- shared gates -------------------------------------------------------------------------------

/**
 * Proves a batch against both replays: observation replay (via stageEntries) and save replay must
 * add no issue. Null when the batch is accepted.
 */
export function stageSaveEntries(existing: readonly ObserverLogEntry[], staged: readonly ObserverLedgerEntry[]): DraftRefusal | null {
  const observed = stageEntries(existing, staged);
  if (observed !== null) return observed;
  if (staged.length === 0) return null;
  const before = replayObserverSaves(existing).issues.length;
  const after = replayObserverSaves([...existing, ...asLogEntries(staged)]).issues;
  // Counted too: a second pending request is reported at whichever request sorts second, possibly an existing one.
  const fresh = after.find((issue) => issue.index >= existing.length) ?? (after.length > before ? after[after.length - 1] : undefined);
  return fresh === undefined ? null : refuse(fresh.code, `the batch would not replay: ${fresh.message}`);
}

interface SaveHistory {
  readonly observation: ObservationSnapshot;
  readonly saves: SaveReplay;
}

/** Both replays over the log; any issue in either blocks every save operation but a request's own gate. */
function replays(entries: readonly ObserverLogEntry[]): SaveHistory {
  return { observation: replayObservationSession(entries), saves: replayObserverSaves(entries) };
}

function cleanHistory(entries: readonly ObserverLogEntry[]): { readonly ok: true; readonly history: SaveHistory } | DraftRefusal {
  const history = replays(entries);
  const first = history.observation.issues[0] ?? history.saves.issues[0];
  if (first !== undefined) return refuse("observer.replay-issues", `the Observer history has an issue (${first.code} at entry ${first.index}: ${first.message}); Observer changes nothing until it is repaired`);
  return { ok: true, history };
}

function materialReviewProblems(entries: readonly ObserverLogEntry[]): { readonly pending: boolean; readonly problems: number } {
  const review = new ReviewHistoryReplay();
  for (const entry of entries) if (entry.custom && entry.customType === MATERIAL_REVIEW_ENTRY) review.apply(entry.data);
  return { pending: review.history.pending !== null, problems: review.history.problems };
}

interface RequestBasis {
  readonly history: SaveHistory;
  readonly episode: EpisodeCore;
}

/**
 * The reference's gate before planning or hydrating a request, in its order: clean Observation,
 * Memo (and here also save and Material review) history; then the save requests' own issues; an
 * open Episode; no Memo work outstanding.
 */
function requestBasis(entries: readonly ObserverLogEntry[], memo: SaveMemoFacts, notebook: SaveNotebookFacts): { readonly ok: true; readonly basis: RequestBasis } | DraftRefusal {
  const history = replays(entries);
  const review = materialReviewProblems(entries);
  const saveIssue = history.saves.issues.find((issue) => issue.code.startsWith("pi-entry."));
  if (history.observation.issues.length > 0 || memo.problems > 0 || saveIssue !== undefined || review.problems > 0) {
    return refuse("save-request.history", "a save request needs a clean Observation, Memo, Material review and save history");
  }
  const requestIssue = history.saves.issues[0];
  if (requestIssue !== undefined) return refuse(requestIssue.code, `the save request history has an issue at entry ${requestIssue.index}: ${requestIssue.message}`);
  if (review.pending) return refuse("observer.material-review-pending", "resolve the pending Material review (retry or cancel) before Review & Save");
  const episode = history.observation.lifecycle.episode;
  if (history.saves.prepared !== null && episode.status === "reviewing-save") return refuse("save-request.state", "a prepared proposal is already under review; approve or cancel it first");
  if (episode.status !== "open") return refuse("save-request.state", "a save request needs an open Episode");
  const observation = history.observation;
  if (observation.pendingMemoRequest !== null || observation.unconsumedObservationIds.length > 0 || memo.preparedPassPending || memo.acknowledgementPending) {
    return refuse("save-request.pending", "a save request needs every observation reconciled into the Memo working state first");
  }
  if (notebook.notebookId !== episode.core.notebookId) return refuse("save.target-mismatch", `the Episode writes to ${episode.core.notebookId}, not ${notebook.notebookId}`);
  return { ok: true, basis: { history, episode: episode.core } };
}

/** The request the current state calls for; a pending one must still match exactly (digest and identities). */
function planRequest(context: DraftContext, basis: RequestBasis, memo: SaveMemoFacts, notebook: SaveNotebookFacts): { readonly ok: true; readonly kind: "new" | "resume"; readonly request: SaveRequest } | DraftRefusal {
  const { observation, saves } = basis.history;
  const pending = saves.pendingSaveRequest;
  const digest = saveRequestDigest({ episode: basis.episode, language: pending?.episodeLanguage ?? basis.episode.lang, observation, memo, notebook });
  const sourceReadIds = sortedCopy(observation.sourceReads.map((read) => read.readId));
  if (pending !== null) {
    const matches =
      pending.requestDigest === digest &&
      pending.episodeId === basis.episode.episodeId &&
      pending.notebookId === basis.episode.notebookId &&
      pending.root === notebook.root &&
      pending.memoRevisionId === memo.state.revisionId &&
      sameList(pending.sourceReadIds, sourceReadIds);
    if (!matches) return refuse("save-request.stale", `the pending save request ${pending.requestId} no longer matches the Episode, Memo working state or Notebook`);
    return { ok: true, kind: "resume", request: pending };
  }
  const request: SaveRequest = {
    requestId: context.ids.next("save-request-"),
    proposalId: context.ids.next("proposal-"),
    requestDigest: digest,
    episodeId: basis.episode.episodeId,
    notebookId: basis.episode.notebookId,
    root: notebook.root,
    episodeLanguage: basis.episode.lang,
    memoRevisionId: memo.state.revisionId,
    sourceReadIds,
  };
  return { ok: true, kind: "new", request };
}

function withEntries<Value>(context: DraftContext, entries: readonly ObserverLedgerEntry[], value: Value): DraftOutcome<Value> {
  const refusal = stageSaveEntries(context.entries, entries);
  return refusal ?? { ok: true, entries, value };
}

// --- operations ---------------------------------------------------------------------------------

/** `/observer review`: records a save request (or resumes the pending one) and returns the preparation guide. */
export function requestSave(context: DraftContext, input: { readonly notebook: SaveNotebookFacts; readonly memo: SaveMemoFacts }): DraftOutcome<SaveRequestValue> {
  const gate = requestBasis(context.entries, input.memo, input.notebook);
  if (!gate.ok) return gate;
  const planned = planRequest(context, gate.basis, input.memo, input.notebook);
  if (!planned.ok) return planned;
  const value: SaveRequestValue = { kind: planned.kind, request: planned.request, guide: buildGuide(planned.request, gate.basis.history.observation, input.memo, input.notebook) };
  if (planned.kind === "resume") return { ok: true, entries: [], value };
  if (prefixedUuid(planned.request.requestId, "save-request-") === null || prefixedUuid(planned.request.proposalId, "proposal-") === null) {
    return refuse("observer.invalid-ids", "the id source did not give a save-request- and a proposal- id (prefix + lowercase UUID v4)");
  }
  return withEntries(context, [{ customType: SAVE_REQUEST_ENTRY, data: saveRequestData(planned.request) }], value);
}

export type PreflightOutcome<Plan> = { readonly ok: true; readonly value: Plan } | { readonly ok: false; readonly code: string; readonly message: string };

export interface PreparedSaveValue<Plan> {
  readonly handoff: PreparedSaveHandoff;
  readonly preparedDigest: string;
  readonly plan: Plan;
}

/** The model's records as a handoff under the request's locked fields, checked against the required records. */
function submittedHandoff(request: SaveRequest, summary: unknown, records: unknown, required: readonly RequiredRecord[]): { readonly ok: true; readonly handoff: PreparedSaveHandoff } | DraftRefusal {
  const decoded = decodePreparedSaveHandoff({
    protocol: PREPARED_SAVE_PROTOCOL,
    summary,
    prepared: { observer_save: OBSERVER_SAVE_SCHEMA, ...lockedTarget(request), records },
  });
  if (!decoded.ok) return refuse("save-request.submission", `the submission is not a valid proposal (${decoded.message})`);
  const byId = new Map<string, PreparedSave["records"][number]>();
  for (const record of decoded.value.prepared.records) {
    if (byId.has(record.record_id)) return refuse("save-request.submission", `the submission repeats record ${record.record_id}`);
    byId.set(record.record_id, record);
  }
  for (const need of required) {
    const record = byId.get(need.record_id);
    if (record === undefined) return refuse("save-request.submission", `the submission is missing the required ${need.observer_type} record ${need.record_id}`);
    if (record.operation !== need.operation) return refuse("save-request.submission", `record ${need.record_id} must be a ${need.operation}`);
    if (record.operation === "update" && record.expected_sha256 !== need.expected_sha256) return refuse("save-request.submission", `record ${need.record_id} must expect the Notebook's current SHA-256 ${need.expected_sha256 ?? ""}`);
  }
  // Records beyond the required ones (a Zettel, say) are the model's to add, as in the reference; preflight judges them.
  return { ok: true, handoff: decoded.value };
}

/**
 * `prepare-save-proposal`: the model's `{request_id, summary, records}` for the pending request,
 * preflighted by the caller's `preflight` (server/notebook/preflight.ts), then the handoff and the
 * lifecycle `save-proposed` with the same summary.
 */
export function prepareSave<Plan>(
  context: DraftContext,
  input: { readonly requestId: string; readonly summary: unknown; readonly records: unknown; readonly notebook: SaveNotebookFacts; readonly memo: SaveMemoFacts },
  preflight: (prepared: PreparedSave) => PreflightOutcome<Plan>,
): DraftOutcome<PreparedSaveValue<Plan>> {
  const gate = requestBasis(context.entries, input.memo, input.notebook);
  if (!gate.ok) return gate;
  const pending = gate.basis.history.saves.pendingSaveRequest;
  if (pending === null || pending.requestId !== input.requestId) return refuse("save-request.state", `${input.requestId} is not the pending save request`);
  const planned = planRequest(context, gate.basis, input.memo, input.notebook);
  if (!planned.ok) return planned;
  const required = requiredRecords(gate.basis.history.observation, input.memo.state, input.notebook.inventory);
  const submitted = submittedHandoff(pending, input.summary, input.records, required);
  if (!submitted.ok) return submitted;
  const handoff = submitted.handoff;
  const digest = preparedSaveDigest(handoff);
  const existing = gate.basis.history.saves.prepared;
  if (existing !== null && existing.digest !== digest) return refuse("pi-entry.handoff.conflict", "another prepared save handoff is already active; cancel it first");
  const checked = preflight(handoff.prepared);
  if (!checked.ok) return refuse(checked.code, checked.message);
  const proposed = lifecycleEntry({ kind: "save-proposed", proposalId: handoff.prepared.proposal_id, summary: handoff.summary });
  // The same handoff already recorded (a crash before its proposal): only the proposal is still missing.
  const entries: ObserverLedgerEntry[] = existing === null ? [{ customType: PREPARED_SAVE_ENTRY, data: handoffData(handoff) }, proposed] : [proposed];
  return withEntries(context, entries, { handoff, preparedDigest: digest, plan: checked.value });
}

interface Review {
  readonly history: SaveHistory;
  readonly handoff: PreparedSaveHandoff;
  readonly digest: string;
  readonly attempt: ApprovedSaveAttempt | null;
}

/** The proposal under review, when it is `proposalId`; `save.lifecycle` otherwise (the reference's save-service code). */
function proposalUnderReview(entries: readonly ObserverLogEntry[], proposalId: string): { readonly ok: true; readonly review: Review } | DraftRefusal {
  const clean = cleanHistory(entries);
  if (!clean.ok) return clean;
  const { saves } = clean.history;
  const episode = saves.lifecycle.episode;
  if (episode.status !== "reviewing-save" || saves.prepared === null) return refuse("save.lifecycle", "no proposal is under review");
  if (episode.proposalId !== proposalId || saves.prepared.handoff.prepared.proposal_id !== proposalId) return refuse("save.lifecycle", `the proposal under review is ${episode.proposalId}, not ${proposalId}`);
  return { ok: true, review: { history: clean.history, handoff: saves.prepared.handoff, digest: saves.prepared.digest, attempt: saves.attempt } };
}

export interface ApprovedSaveValue {
  readonly attempt: ApprovedSaveAttempt;
  readonly handoff: PreparedSaveHandoff;
}

/** The person chose "Save all": the approved attempt, recorded before any Notebook write (once; a retry reuses it). */
export function approveSave(context: DraftContext, input: { readonly proposalId: string }): DraftOutcome<ApprovedSaveValue> {
  const found = proposalUnderReview(context.entries, input.proposalId);
  if (!found.ok) return found;
  const review = found.review;
  if (review.attempt !== null) return { ok: true, entries: [], value: { attempt: review.attempt, handoff: review.handoff } };
  const attemptId = context.ids.next("attempt-");
  const attempt: ApprovedSaveAttempt = { protocol: SAVE_ATTEMPT_PROTOCOL, kind: "approved", attemptId, proposalId: input.proposalId, preparedDigest: review.digest };
  return withEntries(context, [{ customType: SAVE_ATTEMPT_ENTRY, data: attemptData(attempt) }], { attempt, handoff: review.handoff });
}

export interface CommittedSaveValue {
  readonly proposalId: string;
  readonly receiptId: string;
  readonly recordIds: readonly string[];
}

/** After the publication read back exactly: the validated receipt settles the Episode and turns Observer off. */
export function commitSave(context: DraftContext, input: { readonly proposalId: string; readonly receiptId: string; readonly recordIds: readonly string[] }): DraftOutcome<CommittedSaveValue> {
  const found = proposalUnderReview(context.entries, input.proposalId);
  if (!found.ok) return found;
  const review = found.review;
  if (review.attempt === null || review.attempt.preparedDigest !== review.digest) return refuse("save.lifecycle", "the proposal was never approved; nothing may be committed");
  if (prefixedUuid(input.receiptId, "receipt-") === null) return refuse("save-profile.shape", `${input.receiptId} is not a receipt- id`);
  // The receipt names exactly the records of the approved handoff, in the reference's receipt order.
  const recordIds = [...input.recordIds].sort(compareNotebookText);
  const expected = review.handoff.prepared.records.map((record) => record.record_id).sort(compareNotebookText);
  if (!sameList(recordIds, expected)) return refuse("save.lifecycle", "the receipt's records are not exactly the approved proposal's records");
  const entry = lifecycleEntry({ kind: "save-committed", proposalId: input.proposalId, receiptId: input.receiptId, validated: true, recordIds });
  return withEntries(context, [entry], { proposalId: input.proposalId, receiptId: input.receiptId, recordIds });
}

/** "Return to Review": the proposal is dropped and the Episode is open again (Observer mode unchanged). */
export function cancelSave(context: DraftContext, input: { readonly proposalId: string }): DraftOutcome<{ readonly proposalId: string }> {
  const found = proposalUnderReview(context.entries, input.proposalId);
  if (!found.ok) return found;
  return withEntries(context, [lifecycleEntry({ kind: "save-cancelled", proposalId: input.proposalId })], { proposalId: input.proposalId });
}
