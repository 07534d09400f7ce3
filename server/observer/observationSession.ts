// Observation replay (docs/observer-replay.md): walks an Observer log once, in order, and
// rebuilds the Episode's candidates, SourceReads, hydrations, observations, user hypotheses and
// their reviews, Memo requests and Review & Save continuations. Nothing is guessed: an entry that
// cannot be decoded, conflicts with an earlier one of the same identity, targets an Episode that
// is not live, or breaks the evidence chain becomes an issue at its position and changes nothing.
// The rules and which of them yields which code follow the reference's replay exactly.
import type { JsonValue } from "../judgment/json";
import { compareCodeUnits } from "../ledger/canonicalJson";
import { interpretationInputSha256 } from "./contextBasis";
import { MATERIAL_REVIEW_ENTRY, ReviewHistoryReplay, type PendingReview } from "./materialReview";
import { MemoHistoryReplay } from "./memoHistory";
import {
  decodeObservationEvent,
  type CandidateCaptured,
  type HypothesisContextReviewed,
  type InquiryHydrated,
  type MemoRequested,
  type ObservationEvent,
  type ReviewSaveContinuationRequested,
  type SemanticObservationRecorded,
  type SourceReadRecorded,
  type UserHypothesisRecorded,
} from "./observationEvents";
import { decodeLifecycleEvent, emptyLifecycle, episodeIsLive, stepLifecycle, type LifecycleState } from "./observerLifecycle";
import { byKey, sameList, sha256OfText, sortedCopy } from "./observerValues";

export const LIFECYCLE_ENTRY = "observer.lifecycle";
export const OBSERVATION_ENTRY = "observer.observation";

export type ObservationIssueCode =
  | "observation-session.conflict"
  | "observation-session.lifecycle"
  | "observation-session.malformed"
  | "observation-session.order"
  | "observation-session.scope";

export interface ObservationIssue {
  /** Position of the entry in the replayed list. */
  readonly index: number;
  readonly code: ObservationIssueCode;
  readonly message: string;
}

/** One entry of a log: a host custom entry (`customType` + `data`) or anything else. */
export type ObserverLogEntry = { readonly custom: true; readonly customType: string; readonly data: unknown } | { readonly custom: false };

export interface ObservationSnapshot {
  readonly lifecycle: LifecycleState;
  /** In acceptance order. */
  readonly candidates: readonly CandidateCaptured[];
  readonly sourceReads: readonly SourceReadRecorded[];
  readonly hydrations: readonly InquiryHydrated[];
  readonly observations: readonly SemanticObservationRecorded[];
  readonly userHypotheses: readonly UserHypothesisRecorded[];
  readonly hypothesisReviews: readonly HypothesisContextReviewed[];
  /** User hypotheses (by id) that have no context review yet, consumed or not. */
  readonly pendingHypothesisReviews: readonly UserHypothesisRecorded[];
  readonly memoRequests: readonly MemoRequested[];
  readonly pendingMemoRequest: MemoRequested | null;
  readonly reviewSaveContinuations: readonly ReviewSaveContinuationRequested[];
  /** The hypotheses the next Memo pass must place: unconsumed user hypotheses and observer ones, by inquiry id. */
  readonly pendingHypotheses: readonly PendingHypothesis[];
  readonly consumedObservationIds: readonly string[];
  readonly unconsumedObservationIds: readonly string[];
  /** The SourceReads behind unconsumed semantic observations, as the next Memo scope's working sources. */
  readonly workingSourceBases: readonly WorkingSourceBasis[];
  readonly issues: readonly ObservationIssue[];
}

export interface PendingHypothesis {
  readonly inquiryId: string;
  readonly observationId: string;
  readonly origin: "user" | "observer";
  readonly original: string;
  /** Not revised yet: the original wording. */
  readonly current: string;
  /** A user hypothesis's context (with its review folded in, when it has one), or the observation's rationale. */
  readonly context: string;
  /** The SourceRead an observer hypothesis came from; null for a user hypothesis. */
  readonly sourceReadId: string | null;
}

export interface WorkingSourceBasis {
  readonly sourceId: string;
  /** `session:observer/<readId>`: the reading lives in the session, not in a file. */
  readonly path: string;
  /** The SourceRead's event digest. */
  readonly sha256: string;
}

const SOURCE_READING_MEMBER = "source-reading-evidence";
const INQUIRY_CONTEXT_MEMBER = "inquiry-context-evidence";
const INTERPRETATION_QUESTION = "interpret-source-reading";

/** The identity an event claims; a second event with it must be an identical repeat. */
function identityOf(event: ObservationEvent): string {
  switch (event.kind) {
    case "candidate-captured":
      return event.candidateId;
    case "source-read-recorded":
      return event.readId;
    case "inquiry-hydrated":
      return event.hydrationId;
    case "semantic-observation-recorded":
    case "user-hypothesis-recorded":
      return event.observationId;
    case "hypothesis-context-reviewed":
      return `hypothesis-review:${event.hypothesisObservationId}`;
    case "memo-requested":
      return event.requestId;
    case "review-save-continuation-requested":
      return `review-save-continuation:${event.memoRequestId}`;
  }
}

/** SHA-256 of `[{candidateId, contentHash}]` in the read's candidate order. */
export function candidateSetDigest(candidates: readonly CandidateCaptured[]): string {
  return sha256OfText(JSON.stringify(candidates.map((candidate) => ({ candidateId: candidate.candidateId, contentHash: candidate.contentHash }))));
}

/** SHA-256 of the Episode, the Memo base and each requested observation's event digest (sorted by id). */
export function memoRequestDigest(episodeId: string, baseMemoRevisionId: string | null, observations: readonly (SemanticObservationRecorded | UserHypothesisRecorded)[]): string {
  const members: { observation_id: string; event_digest: string }[] = observations
    .map((observation) => ({ observation_id: observation.observationId, event_digest: observation.digest }))
    .sort(byKey((member) => member.observation_id));
  const body: JsonValue = { episode_id: episodeId, base_memo_revision_id: baseMemoRevisionId, observations: members };
  return sha256OfText(JSON.stringify(body));
}

/** In code-unit order (equal neighbours allowed): what sorting would leave unchanged. */
function ascending(values: readonly string[]): boolean {
  for (let index = 1; index < values.length; index += 1) if (compareCodeUnits(values[index - 1] as string, values[index] as string) > 0) return false;
  return true;
}

/** Where a SourceRead's candidates come from: ordinary capture, one pending Material review, or neither consistently. */
type Ancestry = { readonly kind: "unlinked" } | { readonly kind: "material-review"; readonly requestId: string } | { readonly kind: "invalid" };

function ancestryOf(candidates: readonly CandidateCaptured[], pending: PendingReview | null, episodeId: string): Ancestry {
  if (candidates.length === 0) return { kind: "invalid" };
  const links = candidates.flatMap((candidate) => (candidate.reviewRequestId === null ? [] : [candidate.reviewRequestId]));
  if (links.length === 0) return { kind: "unlinked" };
  const requestId = links[0] as string;
  if (links.length !== candidates.length || links.some((link) => link !== requestId) || pending?.requestId !== requestId || pending.episodeId !== episodeId) return { kind: "invalid" };
  return { kind: "material-review", requestId };
}

class ObservationReplay {
  private lifecycle = emptyLifecycle();
  readonly issues: ObservationIssue[] = [];
  private readonly signatures = new Map<string, string>();
  readonly candidates = new Map<string, CandidateCaptured>();
  readonly sourceReads = new Map<string, SourceReadRecorded>();
  readonly hydrations = new Map<string, InquiryHydrated>();
  readonly observations = new Map<string, SemanticObservationRecorded>();
  readonly userHypotheses = new Map<string, UserHypothesisRecorded>();
  readonly reviews = new Map<string, HypothesisContextReviewed>();
  readonly memoRequests = new Map<string, MemoRequested>();
  readonly continuations = new Map<string, ReviewSaveContinuationRequested>();
  readonly requestPositions = new Map<string, number>();
  private readonly usedCandidateIds = new Set<string>();
  private readonly observedReadIds = new Set<string>();
  /** Accepted observations and user hypotheses that no accepted Memo request names yet. */
  private readonly unrequestedIds = new Set<string>();
  /** Histories of the prefix before the current entry (fed after each entry). */
  readonly reviewHistory = new ReviewHistoryReplay();
  readonly memoHistory = new MemoHistoryReplay();

  get state(): LifecycleState {
    return this.lifecycle;
  }

  private issue(index: number, code: ObservationIssueCode, message: string): false {
    this.issues.push({ index, code, message });
    return false;
  }

  /** The Material review request `requestId` is pending for `episodeId` just before this entry. */
  private pendingReview(requestId: string, episodeId: string): PendingReview | null {
    return this.reviewHistory.pendingMatching(requestId, episodeId);
  }

  private live(episodeId: string, modeOn: boolean): boolean {
    return episodeIsLive(this.lifecycle, episodeId, modeOn);
  }

  /** An unlinked read needs Observer on; a review-linked one needs its request still pending. */
  private readStillAuthorised(read: SourceReadRecorded): boolean {
    if (read.reviewRequestId === null) return this.live(read.episodeId, true);
    return this.live(read.episodeId, false) && this.pendingReview(read.reviewRequestId, read.episodeId) !== null;
  }

  step(index: number, entry: ObserverLogEntry): void {
    if (entry.custom) {
      if (entry.customType === LIFECYCLE_ENTRY) this.lifecycleEntry(index, entry.data);
      else if (entry.customType === OBSERVATION_ENTRY) this.observationEntry(index, entry.data);
      // The histories see every entry after observation replay has judged it.
      if (entry.customType === MATERIAL_REVIEW_ENTRY) this.reviewHistory.apply(entry.data);
      this.memoHistory.apply(entry);
    }
  }

  private lifecycleEntry(index: number, data: unknown): void {
    const event = decodeLifecycleEvent(data);
    if (event === null) {
      this.issue(index, "observation-session.lifecycle", "the lifecycle entry is not a valid observer/v1 event");
      return;
    }
    const step = stepLifecycle(this.lifecycle, event);
    if (!step.ok) {
      this.issue(index, "observation-session.lifecycle", `the lifecycle event ${event.kind} was refused (${step.refusal})`);
      return;
    }
    this.lifecycle = step.state;
  }

  private observationEntry(index: number, data: unknown): void {
    const decoded = decodeObservationEvent(data);
    if (!decoded.ok) {
      this.issue(index, "observation-session.malformed", `${decoded.code}: ${decoded.message}`);
      return;
    }
    const event = decoded.event;
    const identity = identityOf(event);
    const earlier = this.signatures.get(identity);
    if (earlier !== undefined) {
      // An identical repeat is a stutter and is ignored; anything else under the same identity conflicts.
      if (earlier !== event.encoded) this.issue(index, "observation-session.conflict", `another event already has the identity ${identity}`);
      return;
    }
    // A user hypothesis from a prompt needs Observer on; one the user stated explicitly does not.
    const needsModeOn = event.kind === "user-hypothesis-recorded" && this.candidates.get(event.candidateId)?.origin.kind !== "explicit-user-hypothesis";
    if (!this.live(event.episodeId, needsModeOn)) {
      this.issue(index, "observation-session.scope", `${identity} targets an Episode that is not open${needsModeOn ? " with Observer on" : ""}`);
      return;
    }
    let accepted: boolean;
    switch (event.kind) {
      case "candidate-captured":
        accepted = this.candidate(index, event);
        break;
      case "source-read-recorded":
        accepted = this.sourceRead(index, event);
        break;
      case "inquiry-hydrated":
        accepted = this.hydration(index, event);
        break;
      case "semantic-observation-recorded":
        accepted = this.semanticObservation(index, event);
        break;
      case "user-hypothesis-recorded":
        accepted = this.userHypothesis(index, event);
        break;
      case "hypothesis-context-reviewed":
        accepted = this.hypothesisReview(index, event);
        break;
      case "memo-requested":
        accepted = this.memoRequest(index, event);
        break;
      case "review-save-continuation-requested":
        accepted = this.continuation(index, event);
        break;
    }
    if (accepted) {
      this.signatures.set(identity, event.encoded);
      if (event.kind === "memo-requested") this.requestPositions.set(event.requestId, index);
    }
  }

  private candidate(index: number, event: CandidateCaptured): boolean {
    const linked = event.reviewRequestId !== null;
    const reviewPending = linked && this.pendingReview(event.reviewRequestId, event.episodeId) !== null;
    const explicitHypothesis = event.origin.kind === "explicit-user-hypothesis";
    // Ordinary capture needs Observer on; a Material review item needs its pending request instead.
    if ((linked && !reviewPending) || !this.live(event.episodeId, !linked && !explicitHypothesis)) {
      return this.issue(
        index,
        "observation-session.scope",
        reviewPending ? "a Material review candidate needs its own open Episode" : "a candidate is captured only with Observer on or for the pending Material review",
      );
    }
    this.candidates.set(event.candidateId, event);
    return true;
  }

  private sourceRead(index: number, event: SourceReadRecorded): boolean {
    const candidates = event.candidateIds.flatMap((id) => {
      const candidate = this.candidates.get(id);
      return candidate === undefined ? [] : [candidate];
    });
    const pending = event.reviewRequestId === null ? null : this.pendingReview(event.reviewRequestId, event.episodeId);
    const ancestry = ancestryOf(candidates, pending, event.episodeId);
    const ancestryMatches = (ancestry.kind === "unlinked" && event.reviewRequestId === null) || (ancestry.kind === "material-review" && ancestry.requestId === event.reviewRequestId);
    if (
      !ancestryMatches ||
      !this.live(event.episodeId, ancestry.kind !== "material-review") ||
      candidates.length !== event.candidateIds.length ||
      candidates.some((candidate) => candidate.episodeId !== event.episodeId || candidate.origin.kind === "explicit-user-hypothesis" || this.usedCandidateIds.has(candidate.candidateId)) ||
      candidateSetDigest(candidates) !== event.candidateDigest
    ) {
      return this.issue(index, "observation-session.order", `SourceRead ${event.readId} names unknown, used, foreign or mismatched candidates`);
    }
    for (const candidate of candidates) this.usedCandidateIds.add(candidate.candidateId);
    this.sourceReads.set(event.readId, event);
    return true;
  }

  private hydration(index: number, event: InquiryHydrated): boolean {
    const read = this.sourceReads.get(event.readId);
    if (
      read === undefined ||
      !this.readStillAuthorised(read) ||
      read.episodeId !== event.episodeId ||
      read.indexDigest !== event.indexDigest ||
      event.inquiryIds.some((id) => !read.indexInquiryIds.includes(id))
    ) {
      return this.issue(index, "observation-session.order", `hydration ${event.hydrationId} is not bound to its SourceRead and standing index`);
    }
    this.hydrations.set(event.hydrationId, event);
    return true;
  }

  private semanticObservation(index: number, event: SemanticObservationRecorded): boolean {
    const read = this.sourceReads.get(event.readId);
    const hydration = event.hydrationId === null ? null : (this.hydrations.get(event.hydrationId) ?? null);
    let hydrationMatches: boolean;
    if (event.relatedInquiryIds.length === 0) hydrationMatches = event.hydrationId === null;
    else hydrationMatches = hydration !== null && hydration.readId === event.readId && sameList(hydration.inquiryIds, event.relatedInquiryIds);
    const basis = event.contextBasis;
    const members = event.hydrationId === null ? [SOURCE_READING_MEMBER] : [INQUIRY_CONTEXT_MEMBER, SOURCE_READING_MEMBER];
    const basisMatches =
      read !== undefined &&
      basis.questionId === INTERPRETATION_QUESTION &&
      basis.coverage.missing.length === 0 &&
      basis.coverage.conflicts.length === 0 &&
      sameList(basis.selectedSourceIds, members) &&
      basis.inputSha256 ===
        interpretationInputSha256({
          sourceReading: { readingId: read.readId, episodeId: read.episodeId, sourceId: read.source.sourceId, faithfulSummary: read.faithfulSummary, claims: read.claims },
          inquiryContext: hydration === null ? null : { inquiryContextId: hydration.hydrationId, readingId: hydration.readId, inquiryIds: hydration.inquiryIds, contextDigest: hydration.contextDigest },
          relatedInquiryIds: event.relatedInquiryIds,
        });
    if (read === undefined || !basisMatches || !this.readStillAuthorised(read) || read.episodeId !== event.episodeId || !hydrationMatches || this.observedReadIds.has(event.readId)) {
      return this.issue(index, "observation-session.order", `observation ${event.observationId} does not match its SourceRead, hydration or context basis, or the read was already interpreted`);
    }
    this.observedReadIds.add(event.readId);
    this.observations.set(event.observationId, event);
    this.unrequestedIds.add(event.observationId);
    return true;
  }

  private userHypothesis(index: number, event: UserHypothesisRecorded): boolean {
    const candidate = this.candidates.get(event.candidateId);
    const origin = candidate?.origin.kind;
    if (candidate === undefined || !this.live(event.episodeId, origin !== "explicit-user-hypothesis") || candidate.episodeId !== event.episodeId || (origin !== "user-input" && origin !== "explicit-user-hypothesis")) {
      return this.issue(index, "observation-session.order", `user hypothesis ${event.observationId} needs a user-input candidate of this Episode`);
    }
    this.userHypotheses.set(event.observationId, event);
    this.unrequestedIds.add(event.observationId);
    return true;
  }

  private hypothesisReview(index: number, event: HypothesisContextReviewed): boolean {
    const hypothesis = this.userHypotheses.get(event.hypothesisObservationId);
    if (hypothesis === undefined || hypothesis.episodeId !== event.episodeId || !this.live(event.episodeId, false)) {
      return this.issue(index, "observation-session.order", `the review names ${event.hypothesisObservationId}, which is not a user hypothesis of this open Episode`);
    }
    this.reviews.set(event.hypothesisObservationId, event);
    return true;
  }

  private memoRequest(index: number, event: MemoRequested): boolean {
    const ids = event.observationIds;
    const members = ids.flatMap((id) => {
      const member = this.observations.get(id) ?? this.userHypotheses.get(id);
      return member === undefined ? [] : [member];
    });
    // The request names exactly the observations no earlier request named, in sorted order. The
    // decoder keeps the ids distinct, so "same size, each one unrequested" is set equality.
    if (
      !this.live(event.episodeId, false) ||
      event.baseMemoRevisionId !== this.memoHistory.revisionId ||
      members.length !== ids.length ||
      !ascending(ids) ||
      ids.length !== this.unrequestedIds.size ||
      ids.some((id) => !this.unrequestedIds.has(id)) ||
      event.requestDigest !== memoRequestDigest(event.episodeId, event.baseMemoRevisionId, members)
    ) {
      return this.issue(index, "observation-session.order", `Memo request ${event.requestId} is stale, unsorted, incomplete, reuses observations or has the wrong digest`);
    }
    for (const id of ids) this.unrequestedIds.delete(id);
    this.memoRequests.set(event.requestId, event);
    return true;
  }

  private continuation(index: number, event: ReviewSaveContinuationRequested): boolean {
    const request = this.memoRequests.get(event.memoRequestId);
    if (request === undefined || !this.live(event.episodeId, false) || request.episodeId !== event.episodeId) {
      return this.issue(index, "observation-session.order", `the Review & Save continuation names ${event.memoRequestId}, which is not an earlier Memo request of this Episode`);
    }
    this.continuations.set(event.memoRequestId, event);
    return true;
  }
}

const listed = (items: readonly string[]): string => (items.length === 0 ? "None" : items.join(" | "));

/** A user hypothesis's context as the next Memo pass reads it: the review, when there is one, comes with it. */
function userHypothesisContext(hypothesis: UserHypothesisRecorded, review: HypothesisContextReviewed | undefined): string {
  if (review === undefined) return hypothesis.context;
  return [
    `User context: ${hypothesis.context}`,
    `Context review: ${review.assessment}`,
    `Supporting clues: ${listed(review.supportingClues)}`,
    `Challenging clues: ${listed(review.challengingClues)}`,
    `Missing information: ${listed(review.missingInformation)}`,
    `Interpretation boundary: ${review.interpretationBoundary}`,
  ].join("\n");
}

/** Unconsumed user hypotheses, then unconsumed observations carrying an observer hypothesis, stably sorted by inquiry id. */
function pendingHypothesesOf(
  userHypotheses: readonly UserHypothesisRecorded[],
  observations: readonly SemanticObservationRecorded[],
  reviews: ReadonlyMap<string, HypothesisContextReviewed>,
  consumed: ReadonlySet<string>,
): PendingHypothesis[] {
  const pending: PendingHypothesis[] = [];
  for (const hypothesis of userHypotheses) {
    if (consumed.has(hypothesis.observationId)) continue;
    pending.push({
      inquiryId: hypothesis.inquiryId,
      observationId: hypothesis.observationId,
      origin: "user",
      original: hypothesis.original,
      current: hypothesis.original,
      context: userHypothesisContext(hypothesis, reviews.get(hypothesis.observationId)),
      sourceReadId: null,
    });
  }
  for (const observation of observations) {
    const own = observation.observerHypothesis;
    if (own === null || consumed.has(observation.observationId)) continue;
    pending.push({
      inquiryId: own.inquiryId,
      observationId: observation.observationId,
      origin: "observer",
      original: own.original,
      current: own.original,
      context: observation.rationale,
      sourceReadId: observation.readId,
    });
  }
  // Array#sort is stable: a user and an observer hypothesis of one inquiry keep that order.
  return pending.sort(byKey((item) => item.inquiryId));
}

/** Replays an Observer log; issue indices are positions in `entries`. */
export function replayObservationSession(entries: readonly ObserverLogEntry[]): ObservationSnapshot {
  const replay = new ObservationReplay();
  entries.forEach((entry, index) => replay.step(index, entry));

  // A Memo request is consumed once the pass that names it (instruction_id) was acknowledged.
  const consumedRequestIds = new Set(replay.memoHistory.acknowledgedPasses.flatMap((pass) => (pass.instructionId === null ? [] : [pass.instructionId])));
  const byRequest = byKey((request: MemoRequested) => request.requestId);
  const pending = [...replay.memoRequests.values()].filter((request) => !consumedRequestIds.has(request.requestId)).sort(byRequest);
  const second = pending[1];
  if (second !== undefined) {
    replay.issues.push({ index: replay.requestPositions.get(second.requestId) ?? entries.length, code: "observation-session.conflict", message: "more than one Memo request awaits its Memo pass" });
  }
  const consumed = new Set([...replay.memoRequests.values()].flatMap((request) => (consumedRequestIds.has(request.requestId) ? request.observationIds : [])));
  const allObservationIds = sortedCopy([...replay.observations.keys(), ...replay.userHypotheses.keys()]);
  const observations = [...replay.observations.values()].sort(byKey((observation) => observation.observationId));
  const userHypotheses = [...replay.userHypotheses.values()].sort(byKey((hypothesis) => hypothesis.observationId));
  // Reads in the order of their observations' ids, then (stably) by source id: equal source ids keep that order.
  const unconsumedReadIds = new Set(observations.filter((item) => !consumed.has(item.observationId)).map((item) => item.readId));
  const workingSourceBases = [...unconsumedReadIds]
    .flatMap((readId) => {
      const read = replay.sourceReads.get(readId);
      return read === undefined ? [] : [{ sourceId: read.source.sourceId, path: `session:observer/${read.readId}`, sha256: read.digest }];
    })
    .sort(byKey((basis) => basis.sourceId));
  return {
    lifecycle: replay.state,
    candidates: [...replay.candidates.values()],
    sourceReads: [...replay.sourceReads.values()].sort(byKey((read) => read.readId)),
    hydrations: [...replay.hydrations.values()].sort(byKey((hydration) => hydration.hydrationId)),
    observations,
    userHypotheses,
    hypothesisReviews: [...replay.reviews.values()].sort(byKey((review) => review.hypothesisObservationId)),
    pendingHypothesisReviews: userHypotheses.filter((hypothesis) => !replay.reviews.has(hypothesis.observationId)),
    memoRequests: [...replay.memoRequests.values()].sort(byRequest),
    pendingMemoRequest: pending[0] ?? null,
    reviewSaveContinuations: [...replay.continuations.values()].sort(byKey((continuation) => continuation.memoRequestId)),
    pendingHypotheses: pendingHypothesesOf(userHypotheses, observations, replay.reviews, consumed),
    consumedObservationIds: sortedCopy(consumed),
    unconsumedObservationIds: allObservationIds.filter((id) => !consumed.has(id)),
    workingSourceBases,
    issues: replay.issues,
  };
}
