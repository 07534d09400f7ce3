// Material review operations (design/observer.md §2.4, §1.3): the user explicitly asks Observer to
// review one item — their own message, or material retrieved for it (a tool result, a workspace
// file) — even while Observer is off. Each operation is pure: it returns the
// `observer.material-review` and `observer.observation` entries it would append, proven against
// observation replay and the Material review history, or a coded refusal that stages nothing.
//
// The lifecycle of one request: requested (inline: the user's message is captured at once as the
// request's candidate) → candidates captured inside its capture windows → SourceReads and one
// semantic observation per read (ordinary observation operations, linked to the request) →
// completed, once coverage holds; or cancelled by the user. A retry writes nothing: it asks the
// runtime for one more capture window for the same pending request.
//
// Refusal codes are the reference's (`material-review.*`) where it has one, `observer.*` otherwise.
import fs from "node:fs";
import path from "node:path";
import { readContained } from "../workspace/containedFs";
import { MATERIAL_REVIEW_ENTRY, MATERIAL_REVIEW_PROTOCOL, ReviewHistoryReplay, decodeReviewEvent, decodeReviewRequestId, reviewCompletionDigest, type ReviewEvent } from "./materialReview";
import type { CandidateCaptured } from "./observationEvents";
import type { ObservationSnapshot, ObserverLogEntry } from "./observationSession";
import { asLogEntries, cleanSnapshot, observationEntry, refuse, stageEntries, type DraftContext, type DraftOutcome, type DraftRefusal } from "./observerDrafts";
import type { ObserverLedgerEntry } from "./observerEntry";
import { sha256OfText, sortedCopy } from "./observerValues";

export type MaterialKind = "inline-user-message" | "retrieved-tool-results";

export interface LatestUserMessage {
  /** Exactly what the user sent; its SHA-256 is the request's `user_message_digest`. */
  readonly text: string;
  readonly inputSource: "interactive" | "rpc";
}

/**
 * One item the user asks to review. Text is the user's own message; a file is read by Docket
 * (readMaterialFile) inside the workspace; a URL is fetched only by the user's explicit command,
 * by whoever wires that command — nothing here fetches.
 */
export type MaterialItem = { readonly kind: "text"; readonly text: string } | { readonly kind: "file"; readonly path: string } | { readonly kind: "url"; readonly url: string };

/** The reference's bound on the exact latest user message. */
export const USER_MESSAGE_LIMIT = 120_000;
/** One candidate's text (observation events bound text to 20 000). */
export const CANDIDATE_TEXT_LIMIT = 20_000;
/** Room kept for the segment header in a segmented capture (the reference's reserve). */
const SEGMENT_HEADER_RESERVE = 160;
const SEGMENT_PAYLOAD = CANDIDATE_TEXT_LIMIT - SEGMENT_HEADER_RESERVE;
/** A retrieved item captured in segments: at most about 1 MiB of text (53 segments). */
export const RETRIEVED_TEXT_LIMIT = 1_048_576;
/** A workspace file read for review. */
export const MATERIAL_FILE_BYTES = 1_048_576;
const TOOL_TEXT_LIMIT = 300;
const OBSERVER_TOOL = "observer_sidecar";

// ---------------------------------------------------------------------------------------------
// Material review history, with the request details the replay's pending-check does not keep.

interface ReviewState {
  readonly problems: number;
  readonly pending: Extract<ReviewEvent, { kind: "material-review-requested" }> | null;
  readonly completions: ReadonlyMap<string, Extract<ReviewEvent, { kind: "material-review-completed" }>>;
}

function reviewState(entries: readonly ObserverLogEntry[]): ReviewState {
  const history = new ReviewHistoryReplay();
  const requests = new Map<string, Extract<ReviewEvent, { kind: "material-review-requested" }>>();
  const completions = new Map<string, Extract<ReviewEvent, { kind: "material-review-completed" }>>();
  for (const entry of entries) {
    if (!entry.custom || entry.customType !== MATERIAL_REVIEW_ENTRY) continue;
    const before = history.history.pending;
    history.apply(entry.data);
    const after = history.history.pending;
    const event = decodeReviewEvent(entry.data);
    if (event === null) continue;
    if (event.kind === "material-review-requested" && before === null && after?.requestId === event.requestId) requests.set(event.requestId, event);
    if (event.kind === "material-review-completed" && before?.requestId === event.requestId && after === null) completions.set(event.requestId, event);
  }
  const pending = history.history.pending;
  return { problems: history.history.problems, pending: pending === null ? null : (requests.get(pending.requestId) ?? null), completions };
}

function reviewEntry(event: ReviewEvent): ObserverLedgerEntry {
  const head = { protocol: MATERIAL_REVIEW_PROTOCOL, kind: event.kind, request_id: event.requestId, episode_id: event.episodeId };
  switch (event.kind) {
    case "material-review-requested":
      return { customType: MATERIAL_REVIEW_ENTRY, data: { ...head, user_message_digest: event.userMessageDigest, material: event.material } };
    case "material-review-completed":
      return { customType: MATERIAL_REVIEW_ENTRY, data: { ...head, observation_ids: [...event.observationIds], digest: event.digest } };
    case "material-review-cancelled":
      return { customType: MATERIAL_REVIEW_ENTRY, data: { ...head, reason: "user-requested" } };
  }
}

/** Observation replay adds no issue and the Material review history stays clean. */
function stageReviewBatch(existing: readonly ObserverLogEntry[], staged: readonly ObserverLedgerEntry[]): DraftRefusal | null {
  const replayed = stageEntries(existing, staged);
  if (replayed !== null) return replayed;
  if (reviewState([...existing, ...asLogEntries(staged)]).problems > 0) return refuse("material-review.history", "the batch would leave the Material review history inconsistent");
  return null;
}

function staged<Value>(context: DraftContext, entries: readonly ObserverLedgerEntry[], value: Value): DraftOutcome<Value> {
  const problem = stageReviewBatch(context.entries, entries);
  return problem ?? { ok: true, entries, value };
}

interface Live {
  readonly snapshot: ObservationSnapshot;
  readonly review: ReviewState;
}

/** Clean observation replay and a clean Material review history: every operation starts here. */
function live(entries: readonly ObserverLogEntry[]): Live | DraftRefusal {
  const clean = cleanSnapshot(entries);
  if (!clean.ok) return clean;
  const review = reviewState(entries);
  if (review.problems > 0) return refuse("material-review.history", "the Material review history must be repaired first");
  return { snapshot: clean.snapshot, review };
}

function openEpisodeId(snapshot: ObservationSnapshot): string | null {
  const episode = snapshot.lifecycle.episode;
  return episode.status === "open" ? episode.core.episodeId : null;
}

// ---------------------------------------------------------------------------------------------
// Bounds on the material itself.

/** The segments a text is captured as: itself when short, else contiguous pieces each with a header. */
export function candidateSegments(text: string): string[] {
  if (text.length <= CANDIDATE_TEXT_LIMIT) return [text];
  // Each cut lands after a non-space character, because a candidate's text must equal its trim;
  // the reference cuts blindly and its capture then fails on such a boundary.
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + SEGMENT_PAYLOAD);
    if (end < text.length) {
      let cut = end;
      while (cut > start + 1 && /\s/u.test(text.charAt(cut - 1))) cut -= 1;
      end = cut;
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces.map((piece, index) => `[Observer candidate segment ${index + 1}/${pieces.length}; contiguous text from one captured message]\n${piece}`);
}

export type MaterialFileRead = { readonly ok: true; readonly text: string; readonly file: string } | { readonly ok: false; readonly code: "observer.material-not-found" | "observer.material-too-large" | "observer.material-unreadable"; readonly message: string };

/**
 * Reads a workspace file the user named for review: a regular UTF-8 text file of at most
 * `maxBytes`, inside the workspace's real folder, reached without any symbolic link.
 */
export function readMaterialFile(workspaceRoot: string, file: string, maxBytes = MATERIAL_FILE_BYTES): MaterialFileRead {
  let root: string;
  try {
    root = fs.realpathSync(workspaceRoot);
  } catch (error) {
    return { ok: false, code: "observer.material-unreadable", message: `the workspace folder cannot be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  const target = path.resolve(root, file);
  let bytes: Buffer | null;
  try {
    bytes = readContained(root, target, maxBytes);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // containedFs reports both "not a regular file" and "too large" as EFBIG; only the latter is a size problem.
    if (code === "EFBIG" && !/not a regular file/u.test((error as Error).message)) return { ok: false, code: "observer.material-too-large", message: `${file} is larger than the ${maxBytes} bytes a Material review reads` };
    return { ok: false, code: "observer.material-unreadable", message: `${file} cannot be reviewed: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (bytes === null) return { ok: false, code: "observer.material-not-found", message: `${file} does not exist` };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, code: "observer.material-unreadable", message: `${file} is not UTF-8 text` };
  }
  if (text.includes("\u0000")) return { ok: false, code: "observer.material-unreadable", message: `${file} is binary, not text` };
  if (text.trim() === "") return { ok: false, code: "observer.material-unreadable", message: `${file} is empty` };
  return { ok: true, text: text.trim(), file: path.relative(root, target) };
}

/** An http(s) URL without credentials, or why not (fetching it is the explicit command's business). */
export function materialUrlProblem(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "a Material URL is http or https";
    if (parsed.username !== "" || parsed.password !== "") return "a Material URL carries no credentials";
    return null;
  } catch {
    return `${url} is not a URL`;
  }
}

// ---------------------------------------------------------------------------------------------
// Operations.

export interface RequestReviewInput {
  readonly latestUser: LatestUserMessage;
  readonly material: MaterialKind;
}

export interface RequestReviewValue {
  readonly requestId: string;
  readonly episodeId: string;
  readonly status: "requested" | "resumed";
  /** Inline material: the request's one candidate (the user's message). */
  readonly candidateId: string | null;
}

/**
 * Opens a Material review of the latest user message (inline) or of material to be retrieved for
 * it. Asking again for the same message and kind while it is pending resumes it; any other request
 * while one is pending is refused. Needs an open Episode; Observer may be off.
 */
export function requestMaterialReview(context: DraftContext, input: RequestReviewInput): DraftOutcome<RequestReviewValue> {
  const state = live(context.entries);
  if ("ok" in state) return state;
  const text = input.latestUser.text;
  if (text.length === 0 || text.length > USER_MESSAGE_LIMIT || text.trim() !== text) return refuse("material-review.intent", `the user message must be non-empty trimmed text of at most ${USER_MESSAGE_LIMIT} characters`);
  const digest = sha256OfText(text);
  const pending = state.review.pending;
  if (pending !== null && (pending.userMessageDigest !== digest || pending.material !== input.material)) return refuse("material-review.pending", `Material review ${pending.requestId} is already pending; finish, retry or cancel it first`);
  const episodeId = openEpisodeId(state.snapshot);
  if (episodeId === null) return refuse("observer.material-review-episode-required", "a Material review needs an open Episode (not one under Review & Save)");
  if (pending !== null && pending.episodeId !== episodeId) return refuse("material-review.history", "the pending Material review belongs to another Episode than the open one");
  if (pending === null && state.snapshot.pendingMemoRequest !== null) return refuse("observer.material-review-busy", "finish the pending Memo request before starting a Material review");
  if (input.material === "inline-user-message" && text.length > CANDIDATE_TEXT_LIMIT) return refuse("observer.material-too-large", `an inline Material review covers a message of at most ${CANDIDATE_TEXT_LIMIT} characters; this one has ${text.length}`);

  const requestId = pending?.requestId ?? context.ids.next("material-review-");
  const entries: ObserverLedgerEntry[] = [];
  if (pending === null) entries.push(reviewEntry({ kind: "material-review-requested", requestId, episodeId, userMessageDigest: digest, material: input.material }));
  let candidateId: string | null = null;
  if (input.material === "inline-user-message") {
    const linked = state.snapshot.candidates.filter((candidate) => candidate.reviewRequestId === requestId);
    const existing = linked[0];
    if (existing !== undefined) {
      if (linked.length !== 1 || existing.text !== text || existing.origin.kind !== "user-input" || existing.origin.inputSource !== input.latestUser.inputSource) return refuse("material-review.conflict", `the candidate of Material review ${requestId} is not this message`);
      candidateId = existing.candidateId;
    } else {
      candidateId = context.ids.next("candidate-");
      entries.push(observationEntry({ kind: "candidate-captured", episodeId, candidateId, origin: { kind: "user-input", inputSource: input.latestUser.inputSource }, text, contentHash: digest, capturedAt: context.now, reviewRequestId: requestId }));
    }
  }
  return staged(context, entries, { requestId, episodeId, status: pending === null ? "requested" : "resumed", candidateId });
}

export interface RetrievedMaterial {
  readonly requestId: string;
  /** The tool call (or Docket's own read) that produced the material. */
  readonly toolCallId: string;
  readonly toolName: string;
  readonly text: string;
}

export interface CaptureValue {
  readonly candidateIds: readonly string[];
  readonly status: "captured" | "resumed";
}

function sameCapture(candidate: CandidateCaptured, episodeId: string, requestId: string, toolCallId: string, toolName: string, contentHash: string): boolean {
  return (
    candidate.episodeId === episodeId &&
    candidate.reviewRequestId === requestId &&
    candidate.contentHash === contentHash &&
    candidate.origin.kind === "tool-result" &&
    candidate.origin.toolCallId === toolCallId &&
    candidate.origin.toolName === toolName
  );
}

/**
 * Captures retrieved material for the pending retrieved-tool-results request as linked
 * tool-result candidates (in segments when long). Capturing the same result again reuses its
 * candidates. Only call it inside the request's capture window.
 */
export function captureRetrievedMaterial(context: DraftContext, input: RetrievedMaterial): DraftOutcome<CaptureValue> {
  const state = live(context.entries);
  if ("ok" in state) return state;
  const pending = state.review.pending;
  const episodeId = openEpisodeId(state.snapshot);
  if (pending === null || pending.requestId !== input.requestId || pending.material !== "retrieved-tool-results" || episodeId !== pending.episodeId) {
    return refuse("material-review.pending", `${input.requestId} is not the pending retrieved-material review of the open Episode`);
  }
  const toolCallId = input.toolCallId.trim();
  const toolName = input.toolName.trim();
  if (toolCallId === "" || toolCallId.length > TOOL_TEXT_LIMIT || toolName === "" || toolName.length > TOOL_TEXT_LIMIT || toolName === OBSERVER_TOOL) return refuse("observer.material-invalid", "retrieved material needs the tool call id and tool name (1 to 300 characters, not Observer's own tool)");
  const text = input.text.trim();
  if (text === "") return refuse("observer.material-invalid", "retrieved material has no text");
  if (text.length > RETRIEVED_TEXT_LIMIT) return refuse("observer.material-too-large", `retrieved material is reviewed up to ${RETRIEVED_TEXT_LIMIT} characters; this has ${text.length}`);

  const entries: ObserverLedgerEntry[] = [];
  const candidateIds: string[] = [];
  for (const segment of candidateSegments(text)) {
    const contentHash = sha256OfText(segment);
    const existing = state.snapshot.candidates.find((candidate) => sameCapture(candidate, episodeId, pending.requestId, toolCallId, toolName, contentHash));
    if (existing !== undefined) {
      candidateIds.push(existing.candidateId);
      continue;
    }
    const candidateId = context.ids.next("candidate-");
    candidateIds.push(candidateId);
    entries.push(observationEntry({ kind: "candidate-captured", episodeId, candidateId, origin: { kind: "tool-result", toolCallId, toolName, nominationReason: null }, text: segment, contentHash, capturedAt: context.now, reviewRequestId: pending.requestId }));
  }
  return staged(context, entries, { candidateIds, status: entries.length > 0 ? "captured" : "resumed" });
}

export interface CompletionValue {
  readonly requestId: string;
  readonly observationIds: readonly string[];
  readonly digest: string;
  readonly status: "completed" | "resumed";
}

/**
 * The coverage a completion needs: at least one request-linked candidate; the request's
 * SourceReads that touch them hold only those candidates and together read all of them; each
 * such read has exactly one semantic observation. Returns the sorted observation ids.
 */
function coveredObservationIds(snapshot: ObservationSnapshot, requestId: string): string[] | DraftRefusal {
  const candidateIds = snapshot.candidates.filter((candidate) => candidate.reviewRequestId === requestId).map((candidate) => candidate.candidateId);
  if (candidateIds.length === 0) return refuse("material-review.coverage", "the Material review has no captured candidate yet");
  const candidateSet = new Set(candidateIds);
  const reads = snapshot.sourceReads.filter((read) => read.reviewRequestId === requestId && read.candidateIds.some((id) => candidateSet.has(id)));
  if (reads.length === 0 || reads.some((read) => read.candidateIds.some((id) => !candidateSet.has(id)))) return refuse("material-review.coverage", "the Material review's SourceReads must read only its own candidates");
  const read = new Set(reads.flatMap((item) => item.candidateIds));
  const unread = candidateIds.filter((id) => !read.has(id));
  if (unread.length > 0) return refuse("material-review.coverage", `candidates not yet read by a SourceRead: ${unread.join(", ")}`);
  const readIds = new Set(reads.map((item) => item.readId));
  const covering = snapshot.observations.filter((observation) => readIds.has(observation.readId));
  const observedReads = new Set(covering.map((observation) => observation.readId));
  if (covering.length !== readIds.size || observedReads.size !== readIds.size) {
    const missing = [...readIds].filter((id) => !observedReads.has(id));
    return refuse("material-review.coverage", `each SourceRead of the review needs exactly one semantic observation${missing.length > 0 ? ` (missing: ${missing.join(", ")})` : ""}`);
  }
  return sortedCopy(covering.map((observation) => observation.observationId));
}

/** Completes the pending request once coverage holds; completing it again returns the recorded completion. */
export function completeMaterialReview(context: DraftContext, input: { readonly requestId: string }): DraftOutcome<CompletionValue> {
  const state = live(context.entries);
  if ("ok" in state) return state;
  const requestId = decodeReviewRequestId(input.requestId);
  const episodeId = openEpisodeId(state.snapshot);
  if (episodeId === null) return refuse("observer.material-review-episode-required", "completing a Material review needs an open Episode (not one under Review & Save)");
  const pending = state.review.pending;
  const recorded = requestId === null ? undefined : state.review.completions.get(requestId);
  const isPending = pending !== null && pending.requestId === requestId && pending.episodeId === episodeId;
  const isRecorded = pending === null && recorded !== undefined && recorded.episodeId === episodeId;
  if (requestId === null || (!isPending && !isRecorded)) return refuse("material-review.pending", `${input.requestId} is not the pending Material review of the open Episode`);
  const observationIds = coveredObservationIds(state.snapshot, requestId);
  if (!Array.isArray(observationIds)) return observationIds;
  const digest = reviewCompletionDigest(requestId, episodeId, observationIds);
  if (recorded !== undefined) {
    if (recorded.digest !== digest) return refuse("material-review.conflict", `the recorded completion of ${requestId} does not match the current coverage`);
    return { ok: true, entries: [], value: { requestId, observationIds, digest, status: "resumed" } };
  }
  const entry = reviewEntry({ kind: "material-review-completed", requestId, episodeId, observationIds, digest });
  return staged(context, [entry], { requestId, observationIds, digest, status: "completed" });
}

export interface PendingReviewValue {
  readonly requestId: string;
  readonly episodeId: string;
  readonly material: MaterialKind;
}

function pendingOfOpenEpisode(state: Live, requestId: string | undefined): PendingReviewValue | DraftRefusal {
  const pending = state.review.pending;
  if (pending === null) return refuse("material-review.pending", "no Material review is pending");
  if (requestId !== undefined && requestId !== pending.requestId) return refuse("material-review.pending", `${requestId} is not the pending Material review (${pending.requestId} is)`);
  if (openEpisodeId(state.snapshot) !== pending.episodeId) return refuse("observer.material-review-episode-required", "the pending Material review does not belong to the open Episode");
  return { requestId: pending.requestId, episodeId: pending.episodeId, material: pending.material };
}

/** Cancels the pending request at the user's word; the Episode and Observer's mode stay as they are. */
export function cancelMaterialReview(context: DraftContext, input: { readonly requestId?: string } = {}): DraftOutcome<PendingReviewValue> {
  const state = live(context.entries);
  if ("ok" in state) return state;
  const pending = pendingOfOpenEpisode(state, input.requestId);
  if ("ok" in pending) return pending;
  return staged(context, [reviewEntry({ kind: "material-review-cancelled", requestId: pending.requestId, episodeId: pending.episodeId })], pending);
}

/**
 * A retry records nothing: it names the pending request so the runtime opens one more capture
 * window (the next agent run) for it. Nothing is resumed automatically without this.
 */
export function retryMaterialReview(context: DraftContext, input: { readonly requestId?: string } = {}): DraftOutcome<PendingReviewValue> {
  const state = live(context.entries);
  if ("ok" in state) return state;
  const pending = pendingOfOpenEpisode(state, input.requestId);
  if ("ok" in pending) return pending;
  return { ok: true, entries: [], value: pending };
}
