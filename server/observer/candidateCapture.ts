// Candidate capture (design/observer.md §1.7): the first link of the evidence chain. What the user
// typed, what the assistant answered in a turn without tools, and tool results the agent
// nominated (or that a retrieved-tool-results Material review collects) become `candidate-captured`
// entries — only inside a capture window: a clean history, an open Episode and Observer on, or the
// pending Material review that asked for them. Observer's and Docket's own tools never are
// evidence. A text too long for one event is split into contiguous segments that say so.
import type { CandidateCaptured, CandidateOrigin } from "./observationEvents";
import { refuse, type DraftContext, type DraftOutcome } from "./observerDrafts";
import type { ObserverLedgerEntry } from "./observerEntry";
import { sha256OfText } from "./observerValues";
import { acceptedDraft, staged, workingState } from "./evidenceChain";

/** The longest text one candidate holds (UTF-16 units). */
export const CANDIDATE_TEXT_LIMIT = 20_000;
/** Room left in each segment for its header line. */
const SEGMENT_HEADER_RESERVE = 160;
export const CANDIDATE_SEGMENT_LENGTH = CANDIDATE_TEXT_LIMIT - SEGMENT_HEADER_RESERVE;
const NOMINATION_REASON_LIMIT = 4_000;
/** Observer's own sidecar tool; every `observer_…` tool is Observer's too. */
export const OBSERVER_SIDECAR_TOOL = "observer_sidecar";

export type CaptureOrigin =
  | { readonly kind: "user-input"; readonly inputSource: "interactive" | "rpc" }
  | { readonly kind: "assistant-result"; readonly turnIndex: number }
  | { readonly kind: "tool-result"; readonly toolCallId: string; readonly toolName: string };

export interface CaptureInput {
  readonly origin: CaptureOrigin;
  /** The captured text as it is (callers trim tool and assistant text, as the reference's host does). */
  readonly text: string;
  /** Why the agent nominated this tool result; required for a tool result outside a Material review, refused inside one. */
  readonly nominationReason?: string;
  /** The pending retrieved-tool-results Material review collecting this result. */
  readonly reviewRequestId?: string;
  /** True for tools that are Docket's own (its MCP tools): they are never evidence. */
  readonly isDocketTool?: (toolName: string) => boolean;
}

export interface CaptureValue {
  /** `resumed` when every segment was already captured (nothing appended). */
  readonly status: "captured" | "resumed";
  /** One per segment, in text order. */
  readonly candidateIds: readonly string[];
}

/** The text as one candidate, or as contiguous segments each headed by its position. */
export function candidateTexts(text: string): string[] {
  if (text.length <= CANDIDATE_TEXT_LIMIT) return [text];
  const total = Math.ceil(text.length / CANDIDATE_SEGMENT_LENGTH);
  return Array.from({ length: total }, (_unused, index) => {
    const start = index * CANDIDATE_SEGMENT_LENGTH;
    return `[Observer candidate segment ${index + 1}/${total}; contiguous text from one captured message]\n${text.slice(start, start + CANDIDATE_SEGMENT_LENGTH)}`;
  });
}

export function isObserverTool(toolName: string): boolean {
  return toolName === OBSERVER_SIDECAR_TOOL || toolName.startsWith("observer_");
}

/** The same tool result captured again (same Episode, text, link, call and tool) keeps its candidate. */
function earlierCapture(candidates: readonly CandidateCaptured[], fresh: CandidateCaptured): CandidateCaptured | undefined {
  const origin = fresh.origin;
  if (origin.kind !== "tool-result") return undefined;
  return candidates.find(
    (candidate) =>
      candidate.episodeId === fresh.episodeId &&
      candidate.contentHash === fresh.contentHash &&
      candidate.reviewRequestId === fresh.reviewRequestId &&
      candidate.origin.kind === "tool-result" &&
      candidate.origin.toolCallId === origin.toolCallId &&
      candidate.origin.toolName === origin.toolName,
  );
}

/**
 * Captures one message as candidate(s). Refusals: `observer.capture-own-tool`,
 * `observer.review-stale` (the named review is not the pending retrieved-tool-results request of
 * the open Episode), `observer.capture-closed` (no capture window: Observer off, no open Episode,
 * or a non-tool-result during a Material review), `observer.capture-unnominated` (a tool result
 * without a reason), `observer.invalid-input` (a reason that is too long or not allowed), the
 * decoder's code for a text no event can hold, and replay's code if the batch would not replay.
 */
export function captureCandidate(context: DraftContext, input: CaptureInput): DraftOutcome<CaptureValue> {
  const origin = input.origin;
  if (origin.kind === "tool-result" && (isObserverTool(origin.toolName) || input.isDocketTool?.(origin.toolName) === true)) {
    return refuse("observer.capture-own-tool", `${origin.toolName} is Observer's or Docket's own tool; its results are never evidence`);
  }
  const working = workingState(context.entries);
  if (!working.ok) return working;
  const state = working.state;
  let reviewRequestId: string | null = null;
  if (input.reviewRequestId !== undefined) {
    const pending = state.pendingReview;
    if (state.episode === null || pending?.requestId !== input.reviewRequestId || pending.episodeId !== state.episode.episodeId || pending.material !== "retrieved-tool-results") {
      return refuse("observer.review-stale", "the Material review named for this capture is not the pending retrieved-tool-results request of the open Episode");
    }
    reviewRequestId = pending.requestId;
  }
  const episode = state.episode;
  if (episode === null || (!state.modeOn && reviewRequestId === null)) return refuse("observer.capture-closed", "nothing is captured without an open Episode and Observer on (or a pending Material review)");
  if (reviewRequestId !== null && origin.kind !== "tool-result") return refuse("observer.capture-closed", "a Material review collects only tool results");
  let captured: CandidateOrigin;
  if (origin.kind === "tool-result" && reviewRequestId === null) {
    const reason = input.nominationReason?.trim() ?? "";
    if (reason.length === 0) return refuse("observer.capture-unnominated", "a tool result becomes a candidate only when the agent nominates it with a reason");
    if (reason.length > NOMINATION_REASON_LIMIT) return refuse("observer.invalid-input", `a nomination reason has at most ${NOMINATION_REASON_LIMIT} characters`);
    captured = { kind: "tool-result", toolCallId: origin.toolCallId, toolName: origin.toolName, nominationReason: reason };
  } else {
    if (input.nominationReason !== undefined) return refuse("observer.invalid-input", "a nomination reason goes only with a tool result outside a Material review");
    captured = origin.kind === "tool-result" ? { ...origin, nominationReason: null } : origin;
  }
  const candidateIds: string[] = [];
  const entries: ObserverLedgerEntry[] = [];
  for (const text of candidateTexts(input.text)) {
    const id = context.ids.next("candidate-");
    const drafted = acceptedDraft({ kind: "candidate-captured", episodeId: episode.episodeId, candidateId: id, origin: captured, text, contentHash: sha256OfText(text), capturedAt: context.now, reviewRequestId });
    if (!drafted.ok) return drafted;
    const fresh = drafted.event as CandidateCaptured;
    const earlier = earlierCapture(state.snapshot.candidates, fresh);
    if (earlier === undefined) entries.push(drafted.entry);
    candidateIds.push(earlier?.candidateId ?? id);
  }
  return staged(context, entries, { status: entries.length > 0 ? "captured" : "resumed", candidateIds });
}
