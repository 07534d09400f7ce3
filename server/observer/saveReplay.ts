// Review & Save replay (observer.md §2.2, §2.6): walks an Observer log once, in order, and
// rebuilds what the reference rebuilds in two passes — the prepared handoff and approved attempt
// with their own lifecycle (`reconstructObserverPiState`), and the save requests with the one
// still pending (`reconstructSaveRequestSession`). Same codes at the same entries; issues never
// stop the walk and change nothing. Observation replay (observationSession.ts) ignores these
// entries, as the reference's does, so a mutation must satisfy both replays.
import { compareCodeUnits } from "../ledger/canonicalJson";
import { decodeLifecycleEvent, emptyLifecycle, stepLifecycle, type LifecycleEvent, type LifecycleState } from "./observerLifecycle";
import type { ObserverLogEntry } from "./observationSession";
import {
  PREPARED_SAVE_ENTRY,
  SAVE_ATTEMPT_ENTRY,
  SAVE_REQUEST_ENTRY,
  decodeApprovedSaveAttempt,
  decodePreparedSaveHandoff,
  decodeSaveRequest,
  preparedSaveDigest,
  saveRequestData,
  type ApprovedSaveAttempt,
  type PreparedSaveHandoff,
  type SaveRequest,
} from "./saveProfile";

const LIFECYCLE_ENTRY = "observer.lifecycle";

export type SaveIssueCode =
  | "pi-entry.handoff.shape"
  | "pi-entry.handoff.unsupported"
  | "pi-entry.handoff.order"
  | "pi-entry.handoff.conflict"
  | "pi-entry.attempt.shape"
  | "pi-entry.attempt.unsupported"
  | "pi-entry.attempt.order"
  | "pi-entry.attempt.conflict"
  | "pi-entry.lifecycle.decode"
  | "pi-entry.lifecycle.order"
  | "pi-entry.lifecycle.transition"
  | "save-request.shape"
  | "save-request.conflict";

export interface SaveIssue {
  /** Position of the entry in the replayed list. */
  readonly index: number;
  readonly code: SaveIssueCode;
  readonly message: string;
}

export interface PreparedState {
  readonly handoff: PreparedSaveHandoff;
  readonly digest: string;
}

export interface SaveReplay {
  /** The lifecycle as the save replay sees it (its ordering guard can refuse events observation replay accepts). */
  readonly lifecycle: LifecycleState;
  readonly prepared: PreparedState | null;
  readonly attempt: ApprovedSaveAttempt | null;
  /** Every accepted request, sorted by request id. */
  readonly saveRequests: readonly SaveRequest[];
  /** Requests whose proposal a lifecycle save event has named, sorted. */
  readonly consumedSaveRequestIds: readonly string[];
  /** The first unconsumed request in id order, or null. */
  readonly pendingSaveRequest: SaveRequest | null;
  readonly issues: readonly SaveIssue[];
}

/** Why a save lifecycle event may not happen yet (the reference's ordering guard), or null. */
function orderProblem(event: LifecycleEvent, prepared: PreparedState | null, attempt: ApprovedSaveAttempt | null): string | null {
  const proposalId = prepared?.handoff.prepared.proposal_id;
  switch (event.kind) {
    case "save-proposed":
      if (prepared === null) return "the save proposal has no prepared handoff";
      // The summary shown for approval must be the one the handoff (and its digest) carries.
      if (proposalId !== event.proposalId || prepared.handoff.summary !== event.summary) return "the save proposal does not match the prepared handoff";
      return null;
    case "save-cancelled":
      return proposalId === event.proposalId ? null : "the cancellation does not match the prepared handoff";
    case "save-committed":
      if (proposalId !== event.proposalId) return "the commit does not match the prepared handoff";
      if (attempt === null || prepared === null || attempt.proposalId !== event.proposalId || attempt.preparedDigest !== prepared.digest) return "the commit has no matching approved attempt";
      return null;
    default:
      return null;
  }
}

class SaveReplayWalk {
  lifecycle: LifecycleState = emptyLifecycle();
  prepared: PreparedState | null = null;
  attempt: ApprovedSaveAttempt | null = null;
  readonly issues: SaveIssue[] = [];
  readonly requests = new Map<string, SaveRequest>();
  readonly requestSignatures = new Map<string, string>();
  readonly requestPositions = new Map<string, number>();
  readonly namedProposalIds = new Set<string>();

  private issue(index: number, code: SaveIssueCode, message: string): void {
    this.issues.push({ index, code, message });
  }

  step(index: number, entry: ObserverLogEntry): void {
    if (!entry.custom) return;
    if (entry.customType === PREPARED_SAVE_ENTRY) this.preparedEntry(index, entry.data);
    else if (entry.customType === SAVE_ATTEMPT_ENTRY) this.attemptEntry(index, entry.data);
    else if (entry.customType === LIFECYCLE_ENTRY) this.lifecycleEntry(index, entry.data);
    else if (entry.customType === SAVE_REQUEST_ENTRY) this.requestEntry(index, entry.data);
  }

  private preparedEntry(index: number, data: unknown): void {
    const decoded = decodePreparedSaveHandoff(data);
    if (!decoded.ok) {
      this.issue(index, decoded.code, decoded.message);
      return;
    }
    const handoff = decoded.value;
    const episode = this.lifecycle.episode;
    const notebookId = handoff.prepared.notebook_id;
    if (episode.status !== "open" || this.lifecycle.selectedNotebookId !== notebookId || episode.core.notebookId !== notebookId) {
      this.issue(index, "pi-entry.handoff.order", "a prepared save handoff needs its Notebook's open Episode");
      return;
    }
    const digest = preparedSaveDigest(handoff);
    if (this.prepared === null) {
      this.prepared = { handoff, digest };
      this.attempt = null;
      return;
    }
    if (this.prepared.handoff.prepared.proposal_id === handoff.prepared.proposal_id && this.prepared.digest === digest) return;
    // The first handoff stays; a second, different one is a conflict.
    this.issue(index, "pi-entry.handoff.conflict", "another prepared save handoff is already active");
  }

  private attemptEntry(index: number, data: unknown): void {
    const decoded = decodeApprovedSaveAttempt(data);
    if (!decoded.ok) {
      this.issue(index, decoded.code, decoded.message);
      return;
    }
    const attempt = decoded.value;
    const prepared = this.prepared;
    if (this.lifecycle.episode.status !== "reviewing-save" || prepared === null || attempt.proposalId !== prepared.handoff.prepared.proposal_id || attempt.preparedDigest !== prepared.digest) {
      this.issue(index, "pi-entry.attempt.order", "the approved attempt does not match the proposal under review");
      return;
    }
    if (this.attempt === null) {
      this.attempt = attempt;
      return;
    }
    const same = this.attempt.attemptId === attempt.attemptId && this.attempt.proposalId === attempt.proposalId && this.attempt.preparedDigest === attempt.preparedDigest;
    if (!same) this.issue(index, "pi-entry.attempt.conflict", "another approved save attempt is already active");
  }

  private lifecycleEntry(index: number, data: unknown): void {
    const event = decodeLifecycleEvent(data);
    if (event === null) {
      this.issue(index, "pi-entry.lifecycle.decode", "the lifecycle entry is not a valid observer/v1 event");
      return;
    }
    // A save event consumes the request of its proposal once it decodes, whatever replay then makes of it.
    if (event.kind === "save-proposed" || event.kind === "save-cancelled" || event.kind === "save-committed") this.namedProposalIds.add(event.proposalId);
    const problem = orderProblem(event, this.prepared, this.attempt);
    if (problem !== null) {
      this.issue(index, "pi-entry.lifecycle.order", problem);
      return;
    }
    const step = stepLifecycle(this.lifecycle, event);
    if (!step.ok) {
      this.issue(index, "pi-entry.lifecycle.transition", `the lifecycle event ${event.kind} was refused (${step.refusal})`);
      return;
    }
    this.lifecycle = step.state;
    if (event.kind === "save-cancelled" || event.kind === "save-committed") {
      this.prepared = null;
      this.attempt = null;
    }
  }

  private requestEntry(index: number, data: unknown): void {
    const decoded = decodeSaveRequest(data);
    if (!decoded.ok) {
      this.issue(index, decoded.code, decoded.message);
      return;
    }
    const request = decoded.value;
    const signature = JSON.stringify(saveRequestData(request));
    const earlier = this.requestSignatures.get(request.requestId);
    if (earlier === undefined) {
      this.requestSignatures.set(request.requestId, signature);
      this.requests.set(request.requestId, request);
      this.requestPositions.set(request.requestId, index);
    } else if (earlier !== signature) {
      this.issue(index, "save-request.conflict", `another save request already has the id ${request.requestId}`);
    }
  }
}

/** Replays the Review & Save entries of an Observer log; issue indices are positions in `entries`. */
export function replayObserverSaves(entries: readonly ObserverLogEntry[]): SaveReplay {
  const walk = new SaveReplayWalk();
  entries.forEach((entry, index) => walk.step(index, entry));
  const requests = [...walk.requests.values()].sort((left, right) => compareCodeUnits(left.requestId, right.requestId));
  const pending = requests.filter((request) => !walk.namedProposalIds.has(request.proposalId));
  const second = pending[1];
  // Reported after every other issue, at the second pending request in id order (as the reference's relatedId).
  if (second !== undefined) {
    walk.issues.push({ index: walk.requestPositions.get(second.requestId) ?? entries.length, code: "save-request.conflict", message: "more than one save request is pending" });
  }
  return {
    lifecycle: walk.lifecycle,
    prepared: walk.prepared,
    attempt: walk.attempt,
    saveRequests: requests,
    consumedSaveRequestIds: requests.filter((request) => walk.namedProposalIds.has(request.proposalId)).map((request) => request.requestId),
    pendingSaveRequest: pending[0] ?? null,
    issues: walk.issues,
  };
}
