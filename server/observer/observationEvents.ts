// Observation events (`observer.observation` entries, `observer_observation: "observer-observation/v1"`):
// candidates, SourceReads, hydrations, semantic observations, user hypotheses and their context
// reviews, Memo requests and Review & Save continuations. A persisted event carries
// `event_digest` = SHA-256 of the JSON of its *normalised* payload (fixed key order, sorted id
// sets re-sorted, `event_digest` itself left out), so reordering a sorted set keeps the digest
// while any change of content breaks it. See docs/observer-replay.md "Observation events".
import type { JsonValue } from "../judgment/json";
import { decodeContextBasis, encodeContextBasis, type ContextBasis } from "./contextBasis";
import { decodeReviewRequestId } from "./materialReview";
import {
  distinctIds,
  hasKeysExactly,
  isIsoInstant,
  isRecord,
  isSha256Hex,
  optionalTrimmedText,
  prefixedUuid,
  sha256OfText,
  trimmedText,
} from "./observerValues";

export const OBSERVATION_PROTOCOL = "observer-observation/v1";

const TEXT_LIMIT = 20_000;
const LIST_LIMIT = 1_000;
const EPISODE_ID_LIMIT = 300;
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/u;
/** Observer's own sidecar tool is never a source of evidence. */
const OBSERVER_TOOL = "observer_sidecar";

export const candidateId = (value: unknown): string | null => prefixedUuid(value, "candidate-");
export const sourceReadId = (value: unknown): string | null => prefixedUuid(value, "source-read-");
export const hydrationId = (value: unknown): string | null => prefixedUuid(value, "hydration-");
export const observationId = (value: unknown): string | null => prefixedUuid(value, "observation-");
export const memoRequestId = (value: unknown): string | null => prefixedUuid(value, "memo-request-");
export const inquiryId = (value: unknown): string | null => prefixedUuid(value, "inquiry-");
export const sourceId = (value: unknown): string | null => prefixedUuid(value, "source-");

export type CandidateOrigin =
  | { readonly kind: "user-input" | "explicit-user-hypothesis"; readonly inputSource: "interactive" | "rpc" }
  | { readonly kind: "tool-result"; readonly toolCallId: string; readonly toolName: string; readonly nominationReason: string | null }
  | { readonly kind: "assistant-result"; readonly turnIndex: number };

export type WorkingSource =
  | {
      readonly kind: "external-material";
      readonly sourceId: string;
      readonly title: string;
      readonly lang: string;
      readonly uri: string | null;
      readonly revision: string | null;
      readonly contentHash: string | null;
      readonly retrievalContext: string | null;
    }
  | {
      readonly kind: "direct-observation";
      readonly sourceId: string;
      readonly title: string;
      readonly lang: string;
      readonly observedAt: string;
      readonly observedBy: string;
      readonly fact: string;
      readonly conditions: string;
      readonly interpretationBoundary: string;
    };

export interface SourceClaim {
  readonly text: string;
  readonly locator: string | null;
}

export const STANCES = ["supports", "challenges", "refines", "boundary", "uncertain"] as const;
export const MOVEMENTS = [
  "repeated-support",
  "minor-refinement",
  "uncertain-association",
  "material-boundary-change",
  "core-counterexample",
  "independent-new-hypothesis",
  "major-direction-change",
  "missed-important-mismatch",
] as const;
export const ASSESSMENTS = ["supports", "challenges", "mixed", "insufficient-context"] as const;

interface Common {
  readonly episodeId: string;
  /** SHA-256 of the normalised payload; equals the entry's `event_digest`. */
  readonly digest: string;
  /** The normalised payload with `event_digest` (what identical repeats are compared by). */
  readonly encoded: string;
}

export interface CandidateCaptured extends Common {
  readonly kind: "candidate-captured";
  readonly candidateId: string;
  readonly origin: CandidateOrigin;
  readonly text: string;
  readonly contentHash: string;
  readonly capturedAt: string;
  readonly reviewRequestId: string | null;
}

export interface SourceReadRecorded extends Common {
  readonly kind: "source-read-recorded";
  readonly readId: string;
  readonly candidateIds: readonly string[];
  readonly source: WorkingSource;
  readonly faithfulSummary: string;
  readonly claims: readonly SourceClaim[];
  readonly candidateDigest: string;
  readonly indexDigest: string;
  readonly indexInquiryIds: readonly string[];
  readonly reviewRequestId: string | null;
}

export interface InquiryHydrated extends Common {
  readonly kind: "inquiry-hydrated";
  readonly hydrationId: string;
  readonly readId: string;
  readonly indexDigest: string;
  readonly inquiryIds: readonly string[];
  readonly contextDigest: string;
}

export interface SemanticObservationRecorded extends Common {
  readonly kind: "semantic-observation-recorded";
  readonly observationId: string;
  readonly readId: string;
  readonly hydrationId: string | null;
  readonly relatedInquiryIds: readonly string[];
  readonly stance: (typeof STANCES)[number];
  readonly movement: (typeof MOVEMENTS)[number];
  readonly rationale: string;
  readonly observerHypothesis: { readonly inquiryId: string; readonly original: string } | null;
  readonly contextBasis: ContextBasis;
}

export interface UserHypothesisRecorded extends Common {
  readonly kind: "user-hypothesis-recorded";
  readonly observationId: string;
  readonly candidateId: string;
  readonly inquiryId: string;
  readonly original: string;
  readonly context: string;
}

export interface HypothesisContextReviewed extends Common {
  readonly kind: "hypothesis-context-reviewed";
  readonly hypothesisObservationId: string;
  readonly assessment: (typeof ASSESSMENTS)[number];
  readonly supportingClues: readonly string[];
  readonly challengingClues: readonly string[];
  readonly missingInformation: readonly string[];
  readonly sourceIds: readonly string[];
  readonly interpretationBoundary: string;
}

export interface MemoRequested extends Common {
  readonly kind: "memo-requested";
  readonly requestId: string;
  readonly baseMemoRevisionId: string | null;
  readonly observationIds: readonly string[];
  readonly requestDigest: string;
}

export interface ReviewSaveContinuationRequested extends Common {
  readonly kind: "review-save-continuation-requested";
  readonly memoRequestId: string;
  readonly baseSaveRequestCount: number;
}

export type ObservationEvent =
  | CandidateCaptured
  | SourceReadRecorded
  | InquiryHydrated
  | SemanticObservationRecorded
  | UserHypothesisRecorded
  | HypothesisContextReviewed
  | MemoRequested
  | ReviewSaveContinuationRequested;

export type ObservationDecodeCode = "observation-profile.object" | "observation-profile.unsupported" | "observation-profile.shape" | "observation-profile.digest";

export type ObservationDecoded = { readonly ok: true; readonly event: ObservationEvent } | { readonly ok: false; readonly code: ObservationDecodeCode; readonly message: string };

/** An event before its digest is known (distributes over the union). */
type Draft<Event extends ObservationEvent> = Event extends ObservationEvent ? Omit<Event, "digest" | "encoded"> : never;
type KindDecoder = (data: Readonly<Record<string, unknown>>) => Draft<ObservationEvent> | string;

const episode = (value: unknown): string | null => trimmedText(value, EPISODE_ID_LIMIT);
const longText = (value: unknown): string | null => trimmedText(value, TEXT_LIMIT);

/** The envelope keys every event has, the kind's own keys, and `event_digest` last. */
function keysOf(kindKeys: readonly string[]): string[] {
  return ["observer_observation", "kind", "episode_id", ...kindKeys, "event_digest"];
}

function decodeOrigin(value: unknown): CandidateOrigin | null {
  if (!isRecord(value)) return null;
  if (value.kind === "user-input" || value.kind === "explicit-user-hypothesis") {
    const inputSource = value.input_source;
    return hasKeysExactly(value, ["kind", "input_source"]) && (inputSource === "interactive" || inputSource === "rpc") ? { kind: value.kind, inputSource } : null;
  }
  if (value.kind === "tool-result") {
    const withReason = value.nomination_reason !== undefined;
    const keys = withReason ? ["kind", "tool_call_id", "tool_name", "nomination_reason"] : ["kind", "tool_call_id", "tool_name"];
    const toolCallId = trimmedText(value.tool_call_id, 300);
    const toolName = trimmedText(value.tool_name, 300);
    const reason = withReason ? trimmedText(value.nomination_reason, 4_000) : null;
    if (!hasKeysExactly(value, keys) || toolCallId === null || toolName === null || toolName === OBSERVER_TOOL || (withReason && reason === null)) return null;
    return { kind: "tool-result", toolCallId, toolName, nominationReason: reason };
  }
  if (value.kind === "assistant-result") {
    const turn = value.turn_index;
    return hasKeysExactly(value, ["kind", "turn_index"]) && typeof turn === "number" && Number.isSafeInteger(turn) && turn >= 0 ? { kind: "assistant-result", turnIndex: turn } : null;
  }
  return null;
}

function decodeSource(value: unknown): WorkingSource | null {
  if (!isRecord(value) || typeof value.kind !== "string") return null;
  const id = sourceId(value.source_id);
  const title = trimmedText(value.title, 4_000);
  const lang = typeof value.lang === "string" && LANGUAGE_TAG.test(value.lang) ? value.lang : null;
  if (id === null || title === null || lang === null) return null;
  if (value.kind === "external-material") {
    if (!hasKeysExactly(value, ["kind", "source_id", "title", "lang", "uri", "revision", "content_hash", "retrieval_context"])) return null;
    const uri = optionalTrimmedText(value.uri, 8_000);
    const revision = optionalTrimmedText(value.revision, 4_000);
    const contentHash = value.content_hash === null ? null : isSha256Hex(value.content_hash) ? value.content_hash : undefined;
    const retrievalContext = optionalTrimmedText(value.retrieval_context, 8_000);
    if (uri === undefined || revision === undefined || contentHash === undefined || retrievalContext === undefined) return null;
    // An external source must be locatable somehow.
    if (uri === null && revision === null && contentHash === null && retrievalContext === null) return null;
    return { kind: "external-material", sourceId: id, title, lang, uri, revision, contentHash, retrievalContext };
  }
  if (value.kind === "direct-observation") {
    if (!hasKeysExactly(value, ["kind", "source_id", "title", "lang", "observed_at", "observed_by", "fact", "conditions", "interpretation_boundary"])) return null;
    const observedBy = trimmedText(value.observed_by, 4_000);
    const fact = longText(value.fact);
    const conditions = longText(value.conditions);
    const interpretationBoundary = longText(value.interpretation_boundary);
    if (!isIsoInstant(value.observed_at) || observedBy === null || fact === null || conditions === null || interpretationBoundary === null) return null;
    return { kind: "direct-observation", sourceId: id, title, lang, observedAt: value.observed_at, observedBy, fact, conditions, interpretationBoundary };
  }
  return null;
}

function decodeClaims(value: unknown): SourceClaim[] | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > LIST_LIMIT) return null;
  const claims: SourceClaim[] = [];
  for (const item of value as readonly unknown[]) {
    if (!isRecord(item) || !hasKeysExactly(item, ["text", "locator"])) return null;
    const claimText = longText(item.text);
    const locator = optionalTrimmedText(item.locator, 4_000);
    if (claimText === null || locator === undefined) return null;
    claims.push({ text: claimText, locator });
  }
  return claims;
}

function decodeTexts(value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length > LIST_LIMIT) return null;
  const items: string[] = [];
  for (const item of value as readonly unknown[]) {
    const entry = longText(item);
    if (entry === null) return null;
    items.push(entry);
  }
  return items;
}

const candidateDecoder: KindDecoder = (data) => {
  const linked = Object.hasOwn(data, "one_shot_request_id");
  const own = ["candidate_id", "origin", "text", "content_hash", "captured_at", ...(linked ? ["one_shot_request_id"] : [])];
  if (!hasKeysExactly(data, keysOf(own))) return "a candidate has other fields than candidate_id, origin, text, content_hash, captured_at (and one_shot_request_id)";
  const id = candidateId(data.candidate_id);
  const episodeId = episode(data.episode_id);
  const origin = decodeOrigin(data.origin);
  const text = longText(data.text);
  const reviewRequestId = linked ? decodeReviewRequestId(data.one_shot_request_id) : null;
  if (id === null || episodeId === null || origin === null || text === null || (linked && reviewRequestId === null)) return "a candidate has an invalid id, episode, origin, text or review link";
  if (data.content_hash !== sha256OfText(text) || !isIsoInstant(data.captured_at)) return "a candidate's content_hash is not the SHA-256 of its text, or captured_at is not an ISO instant";
  return { kind: "candidate-captured", episodeId, candidateId: id, origin, text, contentHash: data.content_hash, capturedAt: data.captured_at, reviewRequestId };
};

const sourceReadDecoder: KindDecoder = (data) => {
  const linked = Object.hasOwn(data, "one_shot_request_id");
  const reviewRequestId = linked ? decodeReviewRequestId(data.one_shot_request_id) : null;
  const own = ["read_id", "candidate_ids", "source", "faithful_summary", "claims", "candidate_digest", "index_digest", "index_inquiry_ids", ...(linked ? ["one_shot_request_id"] : [])];
  if ((linked && reviewRequestId === null) || !hasKeysExactly(data, keysOf(own))) return "a SourceRead has an invalid review link or other fields than its own";
  const readId = sourceReadId(data.read_id);
  const episodeId = episode(data.episode_id);
  const candidateIds = distinctIds(data.candidate_ids, candidateId, { limit: LIST_LIMIT, nonEmpty: true, sorted: false });
  const source = decodeSource(data.source);
  const faithfulSummary = longText(data.faithful_summary);
  const claims = decodeClaims(data.claims);
  const indexInquiryIds = distinctIds(data.index_inquiry_ids, inquiryId, { limit: LIST_LIMIT, nonEmpty: false, sorted: true });
  if (
    readId === null ||
    episodeId === null ||
    candidateIds === null ||
    source === null ||
    faithfulSummary === null ||
    claims === null ||
    !isSha256Hex(data.candidate_digest) ||
    !isSha256Hex(data.index_digest) ||
    indexInquiryIds === null
  ) {
    return "a SourceRead has an invalid id, candidate list, source, summary, claims, digest or standing-index ids";
  }
  return {
    kind: "source-read-recorded",
    episodeId,
    readId,
    candidateIds,
    source,
    faithfulSummary,
    claims,
    candidateDigest: data.candidate_digest,
    indexDigest: data.index_digest,
    indexInquiryIds,
    reviewRequestId,
  };
};

const hydrationDecoder: KindDecoder = (data) => {
  if (!hasKeysExactly(data, keysOf(["hydration_id", "read_id", "index_digest", "inquiry_ids", "context_digest"]))) return "a hydration has other fields than its own";
  const id = hydrationId(data.hydration_id);
  const readId = sourceReadId(data.read_id);
  const episodeId = episode(data.episode_id);
  const inquiryIds = distinctIds(data.inquiry_ids, inquiryId, { limit: LIST_LIMIT, nonEmpty: true, sorted: true });
  if (id === null || readId === null || episodeId === null || inquiryIds === null || !isSha256Hex(data.index_digest) || !isSha256Hex(data.context_digest)) {
    return "a hydration has an invalid id, read, inquiry list or digest";
  }
  return { kind: "inquiry-hydrated", episodeId, hydrationId: id, readId, indexDigest: data.index_digest, inquiryIds, contextDigest: data.context_digest };
};

function decodeObserverHypothesis(value: unknown): { inquiryId: string; original: string } | null | undefined {
  if (value === null) return null;
  if (!isRecord(value) || !hasKeysExactly(value, ["inquiry_id", "original"])) return undefined;
  const id = inquiryId(value.inquiry_id);
  const original = longText(value.original);
  return id !== null && original !== null ? { inquiryId: id, original } : undefined;
}

const semanticDecoder: KindDecoder = (data) => {
  const own = ["observation_id", "read_id", "hydration_id", "related_inquiry_ids", "stance", "movement", "rationale", "observer_hypothesis", "context_basis"];
  if (!hasKeysExactly(data, keysOf(own))) return "a semantic observation has other fields than its own";
  const id = observationId(data.observation_id);
  const readId = sourceReadId(data.read_id);
  const episodeId = episode(data.episode_id);
  const hydration = data.hydration_id === null ? null : hydrationId(data.hydration_id);
  const related = distinctIds(data.related_inquiry_ids, inquiryId, { limit: LIST_LIMIT, nonEmpty: false, sorted: true });
  const rationale = longText(data.rationale);
  const hypothesis = decodeObserverHypothesis(data.observer_hypothesis);
  const basis = decodeContextBasis(data.context_basis);
  const stance = STANCES.find((item) => item === data.stance);
  const movement = MOVEMENTS.find((item) => item === data.movement);
  if (
    id === null ||
    readId === null ||
    episodeId === null ||
    (data.hydration_id !== null && hydration === null) ||
    related === null ||
    stance === undefined ||
    movement === undefined ||
    rationale === null ||
    hypothesis === undefined ||
    basis === null
  ) {
    return "a semantic observation has an invalid id, read, hydration, related inquiries, stance, movement, rationale, hypothesis or context basis";
  }
  // Related inquiries come from a hydration, and only a new hypothesis carries one of its own.
  if (related.length > 0 !== (hydration !== null)) return "a semantic observation names related inquiries without a hydration, or a hydration without related inquiries";
  if ((movement === "independent-new-hypothesis") !== (hypothesis !== null)) return "an observer hypothesis goes with the independent-new-hypothesis movement and only with it";
  return {
    kind: "semantic-observation-recorded",
    episodeId,
    observationId: id,
    readId,
    hydrationId: hydration,
    relatedInquiryIds: related,
    stance,
    movement,
    rationale,
    observerHypothesis: hypothesis,
    contextBasis: basis,
  };
};

const userHypothesisDecoder: KindDecoder = (data) => {
  if (!hasKeysExactly(data, keysOf(["observation_id", "candidate_id", "inquiry_id", "original", "context"]))) return "a user hypothesis has other fields than its own";
  const id = observationId(data.observation_id);
  const candidate = candidateId(data.candidate_id);
  const inquiry = inquiryId(data.inquiry_id);
  const episodeId = episode(data.episode_id);
  const original = longText(data.original);
  const context = longText(data.context);
  if (id === null || candidate === null || inquiry === null || episodeId === null || original === null || context === null) return "a user hypothesis has an invalid id, candidate, inquiry, wording or context";
  return { kind: "user-hypothesis-recorded", episodeId, observationId: id, candidateId: candidate, inquiryId: inquiry, original, context };
};

const reviewDecoder: KindDecoder = (data) => {
  const own = ["hypothesis_observation_id", "assessment", "supporting_clues", "challenging_clues", "missing_information", "source_ids", "interpretation_boundary"];
  if (!hasKeysExactly(data, keysOf(own))) return "a hypothesis context review has other fields than its own";
  const episodeId = episode(data.episode_id);
  const hypothesis = observationId(data.hypothesis_observation_id);
  const assessment = ASSESSMENTS.find((item) => item === data.assessment);
  const supportingClues = decodeTexts(data.supporting_clues);
  const challengingClues = decodeTexts(data.challenging_clues);
  const missingInformation = decodeTexts(data.missing_information);
  const sourceIds = distinctIds(data.source_ids, sourceId, { limit: LIST_LIMIT, nonEmpty: false, sorted: true });
  const interpretationBoundary = longText(data.interpretation_boundary);
  if (
    episodeId === null ||
    hypothesis === null ||
    assessment === undefined ||
    supportingClues === null ||
    challengingClues === null ||
    missingInformation === null ||
    sourceIds === null ||
    interpretationBoundary === null
  ) {
    return "a hypothesis context review has an invalid hypothesis, assessment, clue list, source list or boundary";
  }
  return {
    kind: "hypothesis-context-reviewed",
    episodeId,
    hypothesisObservationId: hypothesis,
    assessment,
    supportingClues,
    challengingClues,
    missingInformation,
    sourceIds,
    interpretationBoundary,
  };
};

const memoRequestDecoder: KindDecoder = (data) => {
  if (!hasKeysExactly(data, keysOf(["request_id", "base_memo_revision_id", "observation_ids", "request_digest"]))) return "a Memo request has other fields than its own";
  const requestId = memoRequestId(data.request_id);
  const episodeId = episode(data.episode_id);
  const base = data.base_memo_revision_id === null ? null : trimmedText(data.base_memo_revision_id, 300);
  // Kept in the order written: replay checks that it is sorted.
  const observationIds = distinctIds(data.observation_ids, observationId, { limit: LIST_LIMIT, nonEmpty: true, sorted: false });
  if (requestId === null || episodeId === null || (data.base_memo_revision_id !== null && base === null) || observationIds === null || !isSha256Hex(data.request_digest)) {
    return "a Memo request has an invalid id, base revision, observation list or digest";
  }
  return { kind: "memo-requested", episodeId, requestId, baseMemoRevisionId: base, observationIds, requestDigest: data.request_digest };
};

const continuationDecoder: KindDecoder = (data) => {
  if (!hasKeysExactly(data, keysOf(["memo_request_id", "base_save_request_count"]))) return "a Review & Save continuation has other fields than its own";
  const episodeId = episode(data.episode_id);
  const request = memoRequestId(data.memo_request_id);
  const count = data.base_save_request_count;
  if (episodeId === null || request === null || typeof count !== "number" || !Number.isSafeInteger(count) || count < 0) {
    return "a Review & Save continuation has an invalid Memo request or count";
  }
  return { kind: "review-save-continuation-requested", episodeId, memoRequestId: request, baseSaveRequestCount: count };
};

const DECODERS: Readonly<Record<ObservationEvent["kind"], KindDecoder>> = {
  "candidate-captured": candidateDecoder,
  "source-read-recorded": sourceReadDecoder,
  "inquiry-hydrated": hydrationDecoder,
  "semantic-observation-recorded": semanticDecoder,
  "user-hypothesis-recorded": userHypothesisDecoder,
  "hypothesis-context-reviewed": reviewDecoder,
  "memo-requested": memoRequestDecoder,
  "review-save-continuation-requested": continuationDecoder,
};

function originWire(origin: CandidateOrigin): Record<string, JsonValue> {
  switch (origin.kind) {
    case "user-input":
    case "explicit-user-hypothesis":
      return { kind: origin.kind, input_source: origin.inputSource };
    case "tool-result":
      return origin.nominationReason === null
        ? { kind: origin.kind, tool_call_id: origin.toolCallId, tool_name: origin.toolName }
        : { kind: origin.kind, tool_call_id: origin.toolCallId, tool_name: origin.toolName, nomination_reason: origin.nominationReason };
    case "assistant-result":
      return { kind: origin.kind, turn_index: origin.turnIndex };
  }
}

function sourceWire(source: WorkingSource): Record<string, JsonValue> {
  if (source.kind === "external-material") {
    return {
      kind: source.kind,
      source_id: source.sourceId,
      title: source.title,
      lang: source.lang,
      uri: source.uri,
      revision: source.revision,
      content_hash: source.contentHash,
      retrieval_context: source.retrievalContext,
    };
  }
  return {
    kind: source.kind,
    source_id: source.sourceId,
    title: source.title,
    lang: source.lang,
    observed_at: source.observedAt,
    observed_by: source.observedBy,
    fact: source.fact,
    conditions: source.conditions,
    interpretation_boundary: source.interpretationBoundary,
  };
}

/**
 * The normalised payload in its fixed key order, without `event_digest`. Written out per kind
 * (no spreads of a shared head): replay builds one for every event it reads.
 */
export function observationPayload(event: Draft<ObservationEvent>): Record<string, JsonValue> {
  switch (event.kind) {
    case "candidate-captured": {
      const payload: Record<string, JsonValue> = {
        observer_observation: OBSERVATION_PROTOCOL,
        kind: event.kind,
        episode_id: event.episodeId,
        candidate_id: event.candidateId,
        origin: originWire(event.origin),
        text: event.text,
        content_hash: event.contentHash,
        captured_at: event.capturedAt,
      };
      if (event.reviewRequestId !== null) payload.one_shot_request_id = event.reviewRequestId;
      return payload;
    }
    case "source-read-recorded": {
      const payload: Record<string, JsonValue> = {
        observer_observation: OBSERVATION_PROTOCOL,
        kind: event.kind,
        episode_id: event.episodeId,
        read_id: event.readId,
        candidate_ids: [...event.candidateIds],
        source: sourceWire(event.source),
        faithful_summary: event.faithfulSummary,
        claims: event.claims.map((claim) => ({ text: claim.text, locator: claim.locator })),
        candidate_digest: event.candidateDigest,
        index_digest: event.indexDigest,
        index_inquiry_ids: [...event.indexInquiryIds],
      };
      if (event.reviewRequestId !== null) payload.one_shot_request_id = event.reviewRequestId;
      return payload;
    }
    case "inquiry-hydrated":
      return {
        observer_observation: OBSERVATION_PROTOCOL,
        kind: event.kind,
        episode_id: event.episodeId,
        hydration_id: event.hydrationId,
        read_id: event.readId,
        index_digest: event.indexDigest,
        inquiry_ids: [...event.inquiryIds],
        context_digest: event.contextDigest,
      };
    case "semantic-observation-recorded":
      return {
        observer_observation: OBSERVATION_PROTOCOL,
        kind: event.kind,
        episode_id: event.episodeId,
        observation_id: event.observationId,
        read_id: event.readId,
        hydration_id: event.hydrationId,
        related_inquiry_ids: [...event.relatedInquiryIds],
        stance: event.stance,
        movement: event.movement,
        rationale: event.rationale,
        observer_hypothesis: event.observerHypothesis === null ? null : { inquiry_id: event.observerHypothesis.inquiryId, original: event.observerHypothesis.original },
        context_basis: encodeContextBasis(event.contextBasis),
      };
    case "user-hypothesis-recorded":
      return {
        observer_observation: OBSERVATION_PROTOCOL,
        kind: event.kind,
        episode_id: event.episodeId,
        observation_id: event.observationId,
        candidate_id: event.candidateId,
        inquiry_id: event.inquiryId,
        original: event.original,
        context: event.context,
      };
    case "hypothesis-context-reviewed":
      return {
        observer_observation: OBSERVATION_PROTOCOL,
        kind: event.kind,
        episode_id: event.episodeId,
        hypothesis_observation_id: event.hypothesisObservationId,
        assessment: event.assessment,
        supporting_clues: [...event.supportingClues],
        challenging_clues: [...event.challengingClues],
        missing_information: [...event.missingInformation],
        source_ids: [...event.sourceIds],
        interpretation_boundary: event.interpretationBoundary,
      };
    case "memo-requested":
      return {
        observer_observation: OBSERVATION_PROTOCOL,
        kind: event.kind,
        episode_id: event.episodeId,
        request_id: event.requestId,
        base_memo_revision_id: event.baseMemoRevisionId,
        observation_ids: [...event.observationIds],
        request_digest: event.requestDigest,
      };
    case "review-save-continuation-requested":
      return {
        observer_observation: OBSERVATION_PROTOCOL,
        kind: event.kind,
        episode_id: event.episodeId,
        memo_request_id: event.memoRequestId,
        base_save_request_count: event.baseSaveRequestCount,
      };
  }
}

/** SHA-256 of the payload's JSON text (insertion order, not canonical JSON: the reference's digest). */
export function observationDigest(event: Draft<ObservationEvent>): string {
  return sha256OfText(JSON.stringify(observationPayload(event)));
}

/** Decodes one persisted observation event, checking `event_digest` against the normalised payload. */
export function decodeObservationEvent(data: unknown): ObservationDecoded {
  if (!isRecord(data)) return { ok: false, code: "observation-profile.object", message: "the observation entry's data is not an object" };
  if (data.observer_observation !== OBSERVATION_PROTOCOL) {
    return typeof data.observer_observation === "string"
      ? { ok: false, code: "observation-profile.unsupported", message: `observer_observation ${data.observer_observation.slice(0, 80)} is not ${OBSERVATION_PROTOCOL}` }
      : { ok: false, code: "observation-profile.shape", message: `observer_observation must be ${OBSERVATION_PROTOCOL}` };
  }
  const decoder = typeof data.kind === "string" && Object.hasOwn(DECODERS, data.kind) ? DECODERS[data.kind as ObservationEvent["kind"]] : undefined;
  if (decoder === undefined) return { ok: false, code: "observation-profile.shape", message: "the observation kind is not one Observer knows" };
  const draft = decoder(data);
  if (typeof draft === "string") return { ok: false, code: "observation-profile.shape", message: draft };
  const payloadText = JSON.stringify(observationPayload(draft));
  const digest = sha256OfText(payloadText);
  if (data.event_digest !== digest) return { ok: false, code: "observation-profile.digest", message: "event_digest is not the SHA-256 of the normalised event" };
  // The payload's text with `event_digest` appended as its last key: what JSON.stringify would print.
  // The draft is this call's own object: completing it in place keeps its key order (digest, encoded last).
  const event = draft as Draft<ObservationEvent> & { digest: string; encoded: string };
  event.digest = digest;
  event.encoded = `${payloadText.slice(0, -1)},"event_digest":"${digest}"}`;
  return { ok: true, event: event as ObservationEvent };
}
