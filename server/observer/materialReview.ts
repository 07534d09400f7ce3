// Material review history (`observer.material-review` entries, protocol
// `observer.material-review/v1`): a request opens a bounded review of one item, a completion or a
// cancellation closes it, and at most one request is pending at a time. Observation replay asks
// one question of it: was exactly this request pending for this Episode just before entry N? Any
// problem anywhere in that prefix answers "no" (fail closed). See docs/observer-replay.md.
import { hasKeysExactly, isRecord, isSha256Hex, prefixedUuid, sha256OfText } from "./observerValues";

export const MATERIAL_REVIEW_ENTRY = "observer.material-review";
export const MATERIAL_REVIEW_PROTOCOL = "observer.material-review/v1";

const OBSERVATION_ID = /^observation-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u;

export const decodeReviewRequestId = (value: unknown): string | null => prefixedUuid(value, "material-review-");

export type ReviewEvent =
  | { readonly kind: "material-review-requested"; readonly requestId: string; readonly episodeId: string; readonly userMessageDigest: string; readonly material: "inline-user-message" | "retrieved-tool-results" }
  | { readonly kind: "material-review-completed"; readonly requestId: string; readonly episodeId: string; readonly observationIds: readonly string[]; readonly digest: string }
  | { readonly kind: "material-review-cancelled"; readonly requestId: string; readonly episodeId: string };

export interface PendingReview {
  readonly requestId: string;
  readonly episodeId: string;
}

export interface ReviewHistory {
  readonly pending: PendingReview | null;
  readonly problems: number;
}

function nonBlank(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 && value.trim() === value ? value : null;
}

/** The completion digest: SHA-256 of `{request_id, episode_id, observation_ids}` as JSON text. */
export function reviewCompletionDigest(requestId: string, episodeId: string, observationIds: readonly string[]): string {
  return sha256OfText(JSON.stringify({ request_id: requestId, episode_id: episodeId, observation_ids: observationIds }));
}

export function decodeReviewEvent(data: unknown): ReviewEvent | null {
  if (!isRecord(data) || data.protocol !== MATERIAL_REVIEW_PROTOCOL) return null;
  const requestId = decodeReviewRequestId(data.request_id);
  const episodeId = nonBlank(data.episode_id);
  switch (data.kind) {
    case "material-review-requested": {
      if (!hasKeysExactly(data, ["protocol", "kind", "request_id", "episode_id", "user_message_digest", "material"])) return null;
      const material = data.material;
      if (requestId === null || episodeId === null || !isSha256Hex(data.user_message_digest) || (material !== "inline-user-message" && material !== "retrieved-tool-results")) return null;
      return { kind: data.kind, requestId, episodeId, userMessageDigest: data.user_message_digest, material };
    }
    case "material-review-completed": {
      if (!hasKeysExactly(data, ["protocol", "kind", "request_id", "episode_id", "observation_ids", "digest"])) return null;
      const ids = data.observation_ids;
      if (!Array.isArray(ids) || ids.length === 0) return null;
      if (!(ids as readonly unknown[]).every((id) => typeof id === "string" && OBSERVATION_ID.test(id))) return null;
      // Typed ids of one prefix: code-unit order is the reference's collation order.
      const sorted = [...(ids as string[])].sort();
      if (new Set(sorted).size !== sorted.length) return null;
      if (requestId === null || episodeId === null || !isSha256Hex(data.digest)) return null;
      if (reviewCompletionDigest(requestId, episodeId, sorted) !== data.digest) return null;
      return { kind: data.kind, requestId, episodeId, observationIds: sorted, digest: data.digest };
    }
    case "material-review-cancelled":
      if (!hasKeysExactly(data, ["protocol", "kind", "request_id", "episode_id", "reason"])) return null;
      if (requestId === null || episodeId === null || data.reason !== "user-requested") return null;
      return { kind: data.kind, requestId, episodeId };
    default:
      return null;
  }
}

function sameEvent(left: ReviewEvent, right: ReviewEvent): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

/**
 * Incremental replay of the review history, one entry at a time, so a caller walking a log can ask
 * about every prefix without replaying it again. Identical repeats are ignored; a differing repeat,
 * a second pending request or a close without its pending request is a problem.
 */
export class ReviewHistoryReplay {
  private readonly requests = new Map<string, ReviewEvent>();
  private readonly completions = new Map<string, ReviewEvent>();
  private readonly cancellations = new Map<string, ReviewEvent>();
  private pendingValue: PendingReview | null = null;
  private problemCount = 0;

  get history(): ReviewHistory {
    return { pending: this.pendingValue, problems: this.problemCount };
  }

  /** Applies the data of one `observer.material-review` entry. */
  apply(data: unknown): void {
    const event = decodeReviewEvent(data);
    if (event === null) {
      this.problemCount += 1;
      return;
    }
    const seen = event.kind === "material-review-requested" ? this.requests : event.kind === "material-review-completed" ? this.completions : this.cancellations;
    const earlier = seen.get(event.requestId);
    if (earlier !== undefined) {
      if (!sameEvent(earlier, event)) this.problemCount += 1;
      return;
    }
    if (event.kind === "material-review-requested") {
      if (this.pendingValue !== null) {
        this.problemCount += 1;
        return;
      }
      seen.set(event.requestId, event);
      this.pendingValue = { requestId: event.requestId, episodeId: event.episodeId };
      return;
    }
    if (this.pendingValue === null || this.pendingValue.requestId !== event.requestId || this.pendingValue.episodeId !== event.episodeId) {
      this.problemCount += 1;
      return;
    }
    seen.set(event.requestId, event);
    this.pendingValue = null;
  }

  /** The pending request when it is exactly this one, for this Episode, and the history is clean. */
  pendingMatching(requestId: string, episodeId: string): PendingReview | null {
    const pending = this.pendingValue;
    if (this.problemCount > 0 || pending === null) return null;
    return pending.requestId === requestId && pending.episodeId === episodeId ? pending : null;
  }
}
