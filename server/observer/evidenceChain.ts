// The evidence chain as pure operations (design/observer.md §2.3, §2.8, §2.9): a SourceRead
// consumes captured candidates, a hydration loads the standing Inquiries a reading may relate
// to, a semantic observation interprets one reading against exactly that context, and user
// hypotheses are recorded and reviewed against the current context. Each operation reads the
// Observer stream it is given, refuses with a code when the reference's controller would refuse,
// and otherwise returns the entries to append — already proven to replay without a new issue.
import { countOf } from "../plural";
import { compareText } from "../judgment/json";
import { assessObservationContext, type ContextAssessment } from "./contextBasisBuilder";
import type { ContextBasis, InterpretationInput } from "./contextBasis";
import { MATERIAL_REVIEW_ENTRY, ReviewHistoryReplay, decodeReviewEvent } from "./materialReview";
import { MemoHistoryReplay } from "./memoHistory";
import {
  decodeObservationEvent,
  type CandidateCaptured,
  type InquiryHydrated,
  type MOVEMENTS,
  type ObservationEvent,
  type SourceClaim,
  type SourceReadRecorded,
  type STANCES,
  type ASSESSMENTS,
  type WorkingSource,
} from "./observationEvents";
import { candidateSetDigest, type ObservationSnapshot, type ObserverLogEntry } from "./observationSession";
import { cleanSnapshot, observationEntry, refuse, stageEntries, type DraftContext, type DraftOutcome, type DraftRefusal, type ObservationDraft } from "./observerDrafts";
import type { ObserverLedgerEntry } from "./observerEntry";
import { sha256OfText } from "./observerValues";
import { hydrateStandingContext, standingIndexOf, type NotebookRecordView, type StandingContext, type StandingIndex, type StandingSources } from "./standingIndex";

export type Stance = (typeof STANCES)[number];
export type Movement = (typeof MOVEMENTS)[number];
export type Assessment = (typeof ASSESSMENTS)[number];

/** Movements that change the picture enough to tell the user at once; the rest accumulate silently. */
const ALERT_MOVEMENTS: readonly Movement[] = ["core-counterexample", "independent-new-hypothesis", "major-direction-change", "missed-important-mismatch"];
/** What the reference records as a hypothesis's context when the user gave none. */
export const NO_USER_CONTEXT = "No user-provided context was supplied.";

// ---- shared by every chain operation ---------------------------------------------------------

/** The Material review request pending on the stream, with the material it asked for. */
export interface PendingMaterialReview {
  readonly requestId: string;
  readonly episodeId: string;
  readonly material: "inline-user-message" | "retrieved-tool-results";
}

/** The replayed stream an operation starts from; only a stream without any issue gets here. */
export interface WorkingState {
  readonly snapshot: ObservationSnapshot;
  /** The open Episode (null when none is open: empty, reviewing a save or settled). */
  readonly episode: { readonly episodeId: string; readonly lang: "ko" | "en" } | null;
  readonly modeOn: boolean;
  readonly pendingReview: PendingMaterialReview | null;
}

/**
 * Replays the stream and its Material review and Memo histories; any issue or problem in any of
 * them refuses (`observer.replay-issues`), as the reference blocks every change on a dirty branch.
 */
export function workingState(entries: readonly ObserverLogEntry[]): { readonly ok: true; readonly state: WorkingState } | DraftRefusal {
  const clean = cleanSnapshot(entries);
  if (!clean.ok) return clean;
  const reviews = new ReviewHistoryReplay();
  const memo = new MemoHistoryReplay();
  const materials = new Map<string, PendingMaterialReview["material"]>();
  for (const entry of entries) {
    if (!entry.custom) continue;
    memo.apply(entry);
    if (entry.customType !== MATERIAL_REVIEW_ENTRY) continue;
    reviews.apply(entry.data);
    const event = decodeReviewEvent(entry.data);
    if (event?.kind === "material-review-requested" && !materials.has(event.requestId)) materials.set(event.requestId, event.material);
  }
  const history = reviews.history;
  if (history.problems > 0 || memo.problems > 0) {
    return refuse("observer.replay-issues", `the Observer history has ${countOf(history.problems, "Material review problem")} and ${countOf(memo.problems, "Memo problem")}; Observer changes nothing until it is repaired`);
  }
  const lifecycle = clean.snapshot.lifecycle;
  const episode = lifecycle.episode.status === "open" ? { episodeId: lifecycle.episode.core.episodeId, lang: lifecycle.episode.core.lang } : null;
  const pending = history.pending;
  const material = pending === null ? undefined : materials.get(pending.requestId);
  return {
    ok: true,
    state: { snapshot: clean.snapshot, episode, modeOn: lifecycle.mode === "on", pendingReview: pending === null || material === undefined ? null : { ...pending, material } },
  };
}

/** The entry for a draft, refused with the decoder's code when the draft is not a valid event. */
export function acceptedDraft(draft: ObservationDraft): { readonly ok: true; readonly entry: ObserverLedgerEntry; readonly event: ObservationEvent } | DraftRefusal {
  const entry = observationEntry(draft);
  const decoded = decodeObservationEvent(entry.data);
  if (!decoded.ok) return refuse(decoded.code, `the ${draft.kind} event would not decode: ${decoded.message}`);
  return { ok: true, entry, event: decoded.event };
}

/** Succeeds with `entries` only when replay accepts all of them after the stream. */
export function staged<Value>(context: DraftContext, entries: readonly ObserverLedgerEntry[], value: Value): DraftOutcome<Value> {
  const refusal = stageEntries(context.entries, entries);
  return refusal ?? { ok: true, entries, value };
}

/** A SourceRead may be used while Observer is on, or while its own Material review request is pending. */
function readAuthorised(state: WorkingState, read: SourceReadRecorded): boolean {
  if (read.reviewRequestId === null) return state.modeOn && state.episode !== null;
  const pending = state.pendingReview;
  return state.episode?.episodeId === read.episodeId && pending?.requestId === read.reviewRequestId && pending.episodeId === read.episodeId;
}

/** The SourceRead a later step builds on: known, of the open Episode, still authorised. */
function usableRead(state: WorkingState, readId: string): SourceReadRecorded | DraftRefusal {
  const read = state.snapshot.sourceReads.find((item) => item.readId === readId);
  if (read === undefined) return refuse("observer.read-unknown", `no SourceRead ${readId} on this stream`);
  if (read.episodeId !== state.episode?.episodeId) return refuse("observer.read-foreign-episode", `SourceRead ${readId} belongs to another Episode`);
  if (!readAuthorised(state, read)) return refuse("observer.read-unauthorised", `SourceRead ${readId} can be used only with Observer on or while its Material review is pending`);
  return read;
}

function openEpisode(state: WorkingState, what: string): { readonly episodeId: string; readonly lang: "ko" | "en" } | DraftRefusal {
  return state.episode ?? refuse("observer.episode-not-open", `${what} needs an open Episode`);
}

const isRefusal = (value: unknown): value is DraftRefusal => typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === false;

// ---- SourceRead ------------------------------------------------------------------------------

/** A source as the agent describes it; its `source-…` id is allocated when the read is recorded. */
export type WorkingSourceDraft = WorkingSource extends infer Source ? (Source extends WorkingSource ? Omit<Source, "sourceId"> : never) : never;

export interface SourceReadInput {
  /** The candidates read together, in reading order. */
  readonly candidateIds: readonly string[];
  readonly source: WorkingSourceDraft;
  readonly faithfulSummary: string;
  readonly claims: readonly SourceClaim[];
  readonly standing: StandingSources;
}

export interface SourceReadValue {
  readonly readId: string;
  readonly sourceId: string;
  readonly reviewRequestId: string | null;
  /** The standing index the read was recorded against (hydration must still find it). */
  readonly index: StandingIndex;
}

type Ancestry = { readonly kind: "unlinked" } | { readonly kind: "material-review"; readonly requestId: string } | { readonly kind: "invalid" };

/** Ordinary candidates, or all linked to the one pending Material review of this Episode. */
function ancestryOf(candidates: readonly CandidateCaptured[], pending: PendingMaterialReview | null, episodeId: string): Ancestry {
  const links = candidates.flatMap((candidate) => (candidate.reviewRequestId === null ? [] : [candidate.reviewRequestId]));
  if (links.length === 0) return { kind: "unlinked" };
  const requestId = links[0] as string;
  if (links.length !== candidates.length || links.some((link) => link !== requestId) || pending?.requestId !== requestId || pending.episodeId !== episodeId) return { kind: "invalid" };
  return { kind: "material-review", requestId };
}

/** Records a source-first reading of unused candidates against the current standing index. */
export function recordSourceRead(context: DraftContext, input: SourceReadInput): DraftOutcome<SourceReadValue> {
  const working = workingState(context.entries);
  if (!working.ok) return working;
  const state = working.state;
  const episode = openEpisode(state, "a SourceRead");
  if (isRefusal(episode)) return episode;
  if (input.candidateIds.length === 0 || new Set(input.candidateIds).size !== input.candidateIds.length) return refuse("observer.invalid-input", "a SourceRead names one or more distinct candidates");
  const candidates: CandidateCaptured[] = [];
  for (const id of input.candidateIds) {
    const candidate = state.snapshot.candidates.find((item) => item.candidateId === id);
    if (candidate === undefined) return refuse("observer.candidate-unknown", `no candidate ${id} on this stream`);
    candidates.push(candidate);
  }
  if (candidates.some((candidate) => candidate.origin.kind === "explicit-user-hypothesis")) return refuse("observer.candidate-not-source", "a user hypothesis is not Source evidence");
  if (candidates.some((candidate) => candidate.episodeId !== episode.episodeId)) return refuse("observer.candidate-foreign-episode", "a candidate belongs to another Episode");
  const ancestry = ancestryOf(candidates, state.pendingReview, episode.episodeId);
  if (ancestry.kind === "invalid") return refuse("observer.candidate-ancestry", "the candidates mix Material review links, or their review is no longer pending");
  if (!state.modeOn && ancestry.kind !== "material-review") return refuse("observer.mode-off", "a SourceRead needs Observer on, or candidates of the pending Material review");
  const used = new Set(state.snapshot.sourceReads.flatMap((read) => read.candidateIds));
  const consumed = candidates.find((candidate) => used.has(candidate.candidateId));
  if (consumed !== undefined) return refuse("observer.candidate-consumed", `candidate ${consumed.candidateId} was already read by another SourceRead`);
  const index = standingIndexOf(state.snapshot, input.standing);
  const readId = context.ids.next("source-read-");
  const sourceId = context.ids.next("source-");
  const reviewRequestId = ancestry.kind === "material-review" ? ancestry.requestId : null;
  const drafted = acceptedDraft({
    kind: "source-read-recorded",
    episodeId: episode.episodeId,
    readId,
    candidateIds: [...input.candidateIds],
    source: { ...input.source, sourceId } as WorkingSource,
    faithfulSummary: input.faithfulSummary,
    claims: input.claims.map((claim) => ({ text: claim.text, locator: claim.locator })),
    candidateDigest: candidateSetDigest(candidates),
    indexDigest: index.digest,
    indexInquiryIds: index.inquiries.map((inquiry) => inquiry.inquiryId),
    reviewRequestId,
  });
  if (!drafted.ok) return drafted;
  return staged(context, [drafted.entry], { readId, sourceId, reviewRequestId, index });
}

// ---- hydration -------------------------------------------------------------------------------

export interface HydrationInput {
  readonly readId: string;
  readonly inquiryIds: readonly string[];
  readonly standing: StandingSources;
}

export interface HydrationValue {
  readonly hydrationId: string;
  /** True when an identical hydration of this read already existed (nothing is appended). */
  readonly reused: boolean;
  readonly context: StandingContext;
}

/** Loads the context of standing Inquiries for one reading; the index must not have moved since the read. */
export function hydrateInquiries(context: DraftContext, input: HydrationInput): DraftOutcome<HydrationValue> {
  const working = workingState(context.entries);
  if (!working.ok) return working;
  const state = working.state;
  const episode = openEpisode(state, "an Inquiry hydration");
  if (isRefusal(episode)) return episode;
  const read = usableRead(state, input.readId);
  if (isRefusal(read)) return read;
  const index = standingIndexOf(state.snapshot, input.standing);
  if (index.digest !== read.indexDigest) return refuse("observer.standing-index-changed", "the standing index changed after the reading; record a new reading to relate it");
  const standing = hydrateStandingContext(index, input.inquiryIds, episode.lang);
  if (!standing.ok) return refuse(standing.code, standing.message);
  const inquiryIds = [...input.inquiryIds].sort(compareText);
  const existing = state.snapshot.hydrations.find(
    (item) => item.readId === read.readId && item.indexDigest === read.indexDigest && item.inquiryIds.length === inquiryIds.length && item.inquiryIds.every((id, position) => id === inquiryIds[position]),
  );
  if (existing !== undefined) return { ok: true, entries: [], value: { hydrationId: existing.hydrationId, reused: true, context: standing.value } };
  const hydrationId = context.ids.next("hydration-");
  const drafted = acceptedDraft({ kind: "inquiry-hydrated", episodeId: episode.episodeId, hydrationId, readId: read.readId, indexDigest: read.indexDigest, inquiryIds, contextDigest: standing.value.digest });
  if (!drafted.ok) return drafted;
  return staged(context, [drafted.entry], { hydrationId, reused: false, context: standing.value });
}

// ---- semantic observations -------------------------------------------------------------------

export interface ObservationInput {
  readonly readId: string;
  /** Empty when the reading relates to no standing Inquiry. */
  readonly relatedInquiryIds: readonly string[];
  /** The hydration to interpret against; by default the one of this read with exactly the related ids. */
  readonly hydrationId?: string | null;
  readonly stance: Stance;
  readonly movement: Movement;
  readonly rationale: string;
}

export interface NewHypothesisInput {
  readonly readId: string;
  readonly relatedInquiryIds: readonly string[];
  readonly hydrationId?: string | null;
  readonly stance: Stance;
  readonly rationale: string;
  /** The Observer's own hypothesis, recorded under a new Inquiry id. */
  readonly hypothesis: string;
}

export interface ObservationValue {
  readonly observationId: string;
  /** Alert movements are told to the user at once; silent ones accumulate. */
  readonly visibility: "alert" | "silent";
  readonly contextBasis: ContextBasis;
  /** The new Inquiry of an Observer hypothesis (null for a plain observation). */
  readonly inquiryId: string | null;
}

function chosenHydration(state: WorkingState, read: SourceReadRecorded, related: readonly string[], requested: string | null | undefined): InquiryHydrated | string | null {
  if (requested !== undefined && requested !== null) return state.snapshot.hydrations.find((item) => item.hydrationId === requested) ?? requested;
  if (related.length === 0) return null;
  return state.snapshot.hydrations.find((item) => item.readId === read.readId && item.inquiryIds.length === related.length && item.inquiryIds.every((id, index) => id === related[index])) ?? null;
}

function recordInterpretation(context: DraftContext, input: ObservationInput, hypothesis: string | null): DraftOutcome<ObservationValue> {
  const working = workingState(context.entries);
  if (!working.ok) return working;
  const state = working.state;
  const episode = openEpisode(state, "an observation");
  if (isRefusal(episode)) return episode;
  const read = usableRead(state, input.readId);
  if (isRefusal(read)) return read;
  if (state.snapshot.observations.some((item) => item.readId === read.readId)) return refuse("observer.read-already-observed", `SourceRead ${read.readId} already has its observation`);
  const related = [...input.relatedInquiryIds].sort(compareText);
  if (new Set(related).size !== related.length) return refuse("observer.invalid-input", "related Inquiry ids repeat");
  const explicitHydration = input.hydrationId !== undefined && input.hydrationId !== null;
  if (explicitHydration && related.length === 0) return refuse("observer.invalid-input", "a hydration goes with related Inquiry ids and only with them");
  const hydration = chosenHydration(state, read, related, input.hydrationId);
  const hydrationId = hydration === null ? null : typeof hydration === "string" ? hydration : hydration.hydrationId;
  const observationId = context.ids.next("observation-");
  const inquiryId = hypothesis === null ? null : context.ids.next("inquiry-");
  const interpretation: InterpretationInput = {
    sourceReading: { readingId: read.readId, episodeId: episode.episodeId, sourceId: read.source.sourceId, faithfulSummary: read.faithfulSummary, claims: read.claims },
    inquiryContext:
      hydration === null || typeof hydration === "string"
        ? null
        : { inquiryContextId: hydration.hydrationId, readingId: hydration.readId, inquiryIds: hydration.inquiryIds, contextDigest: hydration.contextDigest },
    relatedInquiryIds: related,
  };
  const assessment: ContextAssessment = assessObservationContext(interpretation);
  if (!assessment.ok) return refuse("observer.context-incomplete", `${assessment.message} (missing: ${assessment.missing.join(", ") || "none"}; conflicts: ${assessment.conflicts.join(", ") || "none"})`);
  const drafted = acceptedDraft({
    kind: "semantic-observation-recorded",
    episodeId: episode.episodeId,
    observationId,
    readId: read.readId,
    hydrationId,
    relatedInquiryIds: related,
    stance: input.stance,
    movement: input.movement,
    rationale: input.rationale,
    observerHypothesis: inquiryId === null || hypothesis === null ? null : { inquiryId, original: hypothesis },
    contextBasis: assessment.basis,
  });
  if (!drafted.ok) return drafted;
  return staged(context, [drafted.entry], { observationId, visibility: ALERT_MOVEMENTS.includes(input.movement) ? "alert" : "silent", contextBasis: assessment.basis, inquiryId });
}

/** Interprets one reading (stance + movement) against exactly the context it was hydrated with. */
export function recordObservation(context: DraftContext, input: ObservationInput): DraftOutcome<ObservationValue> {
  if (input.movement === "independent-new-hypothesis") return refuse("observer.movement-needs-new-hypothesis", "an independent new hypothesis is recorded with recordNewHypothesis, which gives it its Inquiry");
  return recordInterpretation(context, input, null);
}

/** Records an observation whose movement is a new Observer hypothesis, under a new `inquiry-…` id. */
export function recordNewHypothesis(context: DraftContext, input: NewHypothesisInput): DraftOutcome<ObservationValue> {
  return recordInterpretation(context, { ...input, movement: "independent-new-hypothesis" }, input.hypothesis);
}

// ---- user hypotheses -------------------------------------------------------------------------

export interface UserHypothesisInput {
  /** The user's wording, recorded verbatim as both the candidate text and the hypothesis. */
  readonly text: string;
  /** What the user said about it; the reference's fixed sentence when absent. */
  readonly context?: string;
  readonly inputSource?: "interactive" | "rpc";
}

export interface UserHypothesisValue {
  readonly candidateId: string;
  readonly observationId: string;
  readonly inquiryId: string;
  /** `resumed` when the same hypothesis with the same context was already tracked (nothing appended). */
  readonly status: "recorded" | "resumed";
  /** True while no context review of it exists. */
  readonly reviewPending: boolean;
}

/**
 * Tracks a hypothesis the user stated explicitly: an `explicit-user-hypothesis` candidate and the
 * hypothesis recorded from it. Observer may be off; an Episode must be open. The same wording
 * with the same context resumes the tracked one; the same wording reuses its candidate.
 */
export function recordUserHypothesis(context: DraftContext, input: UserHypothesisInput): DraftOutcome<UserHypothesisValue> {
  const working = workingState(context.entries);
  if (!working.ok) return working;
  const state = working.state;
  const episode = openEpisode(state, "tracking a hypothesis");
  if (isRefusal(episode)) return episode;
  const userContext = input.context ?? NO_USER_CONTEXT;
  const snapshot = state.snapshot;
  const explicitCandidate = (candidate: CandidateCaptured | undefined): candidate is CandidateCaptured =>
    candidate !== undefined && candidate.episodeId === episode.episodeId && candidate.origin.kind === "explicit-user-hypothesis" && candidate.text === input.text && candidate.reviewRequestId === null;
  const candidateOf = (id: string): CandidateCaptured | undefined => snapshot.candidates.find((candidate) => candidate.candidateId === id);
  const reviewPending = (observationId: string): boolean => !snapshot.hypothesisReviews.some((review) => review.hypothesisObservationId === observationId);
  // The reference draws the candidate id before it knows whether the candidate is reused.
  const freshCandidateId = context.ids.next("candidate-");
  const candidateDraft = acceptedDraft({
    kind: "candidate-captured",
    episodeId: episode.episodeId,
    candidateId: freshCandidateId,
    origin: { kind: "explicit-user-hypothesis", inputSource: input.inputSource ?? "interactive" },
    text: input.text,
    contentHash: sha256OfText(input.text),
    capturedAt: context.now,
    reviewRequestId: null,
  });
  if (!candidateDraft.ok) return candidateDraft;
  const tracked = snapshot.userHypotheses.find((hypothesis) => hypothesis.original === input.text && hypothesis.context === userContext && explicitCandidate(candidateOf(hypothesis.candidateId)));
  if (tracked !== undefined) {
    return { ok: true, entries: [], value: { candidateId: tracked.candidateId, observationId: tracked.observationId, inquiryId: tracked.inquiryId, status: "resumed", reviewPending: reviewPending(tracked.observationId) } };
  }
  const earlier = [...snapshot.candidates].reverse().find(explicitCandidate);
  const candidateId = earlier?.candidateId ?? freshCandidateId;
  const entries: ObserverLedgerEntry[] = earlier === undefined ? [candidateDraft.entry] : [];
  // The same candidate, wording and context already recorded: resume it.
  const duplicate = snapshot.userHypotheses.find((hypothesis) => hypothesis.candidateId === candidateId && hypothesis.original === input.text && hypothesis.context === userContext);
  if (duplicate !== undefined) {
    return staged(context, entries, { candidateId, observationId: duplicate.observationId, inquiryId: duplicate.inquiryId, status: "resumed", reviewPending: reviewPending(duplicate.observationId) });
  }
  const observationId = context.ids.next("observation-");
  const inquiryId = context.ids.next("inquiry-");
  const hypothesis = acceptedDraft({ kind: "user-hypothesis-recorded", episodeId: episode.episodeId, observationId, candidateId, inquiryId, original: input.text, context: userContext });
  if (!hypothesis.ok) return hypothesis;
  return staged(context, [...entries, hypothesis.entry], { candidateId, observationId, inquiryId, status: "recorded", reviewPending: true });
}

export interface RegisterHypothesisInput {
  /** A `user-input` candidate (a prompt) of the open Episode. */
  readonly candidateId: string;
  readonly original: string;
  readonly context: string;
  /** Track it under a standing Inquiry instead of a new one. */
  readonly existingInquiryId?: string | null;
  /** Needed only with `existingInquiryId` (it must be in the standing index). */
  readonly standing?: StandingSources;
}

/** Records a hypothesis the agent found in a captured user prompt (Observer on). */
export function registerUserHypothesis(context: DraftContext, input: RegisterHypothesisInput): DraftOutcome<UserHypothesisValue> {
  const working = workingState(context.entries);
  if (!working.ok) return working;
  const state = working.state;
  if (!state.modeOn || state.episode === null) return refuse("observer.mode-off", "registering a hypothesis from a prompt needs Observer on and an open Episode");
  const episode = state.episode;
  const snapshot = state.snapshot;
  const candidate = snapshot.candidates.find((item) => item.candidateId === input.candidateId);
  if (candidate === undefined || candidate.origin.kind !== "user-input") return refuse("observer.candidate-unknown", `no user-input candidate ${input.candidateId} on this stream`);
  if (candidate.episodeId !== episode.episodeId) return refuse("observer.candidate-foreign-episode", `candidate ${input.candidateId} belongs to another Episode`);
  const existingInquiryId = input.existingInquiryId ?? null;
  const duplicate = snapshot.userHypotheses.find(
    (item) => item.candidateId === candidate.candidateId && item.original === input.original && item.context === input.context && (existingInquiryId === null || item.inquiryId === existingInquiryId),
  );
  if (duplicate !== undefined) {
    const reviewPending = !snapshot.hypothesisReviews.some((review) => review.hypothesisObservationId === duplicate.observationId);
    return { ok: true, entries: [], value: { candidateId: candidate.candidateId, observationId: duplicate.observationId, inquiryId: duplicate.inquiryId, status: "resumed", reviewPending } };
  }
  if (existingInquiryId !== null) {
    const index = input.standing === undefined ? null : standingIndexOf(snapshot, input.standing);
    if (index === null || !index.inquiries.some((item) => item.inquiryId === existingInquiryId)) return refuse("standing-index.missing", `${existingInquiryId} is not in the current standing index`);
  }
  const observationId = context.ids.next("observation-");
  const inquiryId = existingInquiryId ?? context.ids.next("inquiry-");
  const drafted = acceptedDraft({ kind: "user-hypothesis-recorded", episodeId: episode.episodeId, observationId, candidateId: candidate.candidateId, inquiryId, original: input.original, context: input.context });
  if (!drafted.ok) return drafted;
  return staged(context, [drafted.entry], { candidateId: candidate.candidateId, observationId, inquiryId, status: "recorded", reviewPending: true });
}

// ---- hypothesis context review ---------------------------------------------------------------

export interface HypothesisReviewInput {
  readonly hypothesisObservationId: string;
  readonly assessment: Assessment;
  readonly supportingClues: readonly string[];
  readonly challengingClues: readonly string[];
  readonly missingInformation: readonly string[];
  /** Sources the review leans on: Notebook Sources or Sources read in this stream. */
  readonly sourceIds: readonly string[];
  readonly interpretationBoundary: string;
  /** The Notebook's records (its Sources are citable). */
  readonly notebook: readonly NotebookRecordView[];
}

export interface HypothesisReviewValue {
  readonly hypothesisObservationId: string;
  /** True when the hypothesis was already reviewed (nothing appended; a hypothesis has one review). */
  readonly reused: boolean;
}

/** Each assessment needs the clues that justify it: supporting, challenging, both, or what is missing. */
export function reviewHasRequiredClues(input: Pick<HypothesisReviewInput, "assessment" | "supportingClues" | "challengingClues" | "missingInformation">): boolean {
  switch (input.assessment) {
    case "supports":
      return input.supportingClues.length > 0;
    case "challenges":
      return input.challengingClues.length > 0;
    case "mixed":
      return input.supportingClues.length > 0 && input.challengingClues.length > 0;
    case "insufficient-context":
      return input.missingInformation.length > 0;
  }
}

/** Reviews the current context through a user hypothesis of the open Episode (Observer may be off). */
export function reviewHypothesis(context: DraftContext, input: HypothesisReviewInput): DraftOutcome<HypothesisReviewValue> {
  const working = workingState(context.entries);
  if (!working.ok) return working;
  const state = working.state;
  const episode = openEpisode(state, "a hypothesis context review");
  if (isRefusal(episode)) return episode;
  const hypothesis = state.snapshot.userHypotheses.find((item) => item.observationId === input.hypothesisObservationId);
  if (hypothesis === undefined || hypothesis.episodeId !== episode.episodeId) return refuse("observer.hypothesis-unknown", `${input.hypothesisObservationId} is not a user hypothesis of the open Episode`);
  if (state.snapshot.hypothesisReviews.some((review) => review.hypothesisObservationId === hypothesis.observationId)) {
    return { ok: true, entries: [], value: { hypothesisObservationId: hypothesis.observationId, reused: true } };
  }
  if (!reviewHasRequiredClues(input)) return refuse("observer.review-clues", `a ${input.assessment} review needs its matching clues (or the missing information when the context is insufficient)`);
  if (input.sourceIds.length > 0) {
    const known = new Set([
      ...input.notebook.flatMap((entry) => (entry.record.observer_type === "source" ? [entry.record.id] : [])),
      ...state.snapshot.sourceReads.map((read) => read.source.sourceId),
    ]);
    const unknown = input.sourceIds.find((id) => !known.has(id));
    if (unknown !== undefined) return refuse("observer.review-source-unknown", `${unknown} is neither a Notebook Source nor a Source read in this Episode`);
  }
  const drafted = acceptedDraft({
    kind: "hypothesis-context-reviewed",
    episodeId: episode.episodeId,
    hypothesisObservationId: hypothesis.observationId,
    assessment: input.assessment,
    supportingClues: [...input.supportingClues],
    challengingClues: [...input.challengingClues],
    missingInformation: [...input.missingInformation],
    sourceIds: [...input.sourceIds].sort(compareText),
    interpretationBoundary: input.interpretationBoundary,
  });
  if (!drafted.ok) return drafted;
  return staged(context, [drafted.entry], { hypothesisObservationId: hypothesis.observationId, reused: false });
}
