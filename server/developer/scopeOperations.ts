// Turning Docket on and off for a workspace: the exact developer/v8 batches (§3.3 `/developer
// on|off`). Pure: identifiers derive from the ledger's line chain and a nonce the caller drew;
// time comes from the caller.
import { h24 } from "../ledger/canonicalJson";
import { createEnvelope, type EnvelopeDraft } from "../ledger/envelope";
import { DocketError } from "../errors";
import { ErrorCodes } from "../protocol/messages";
import { createScopeClosure } from "./eventKinds";
import type { HistoryView } from "./history";
import type { ScopeState } from "./scopeState";
import { createInvocationSettlement } from "./values/skills";

export const DEFAULT_CLOSURE_REASON = "User disabled Developer.";
export const CANCELLED_ON_OFF_REASON = "Docket was turned off while the skill invocation was active.";

export interface LedgerPosition {
  readonly lineCount: number;
  readonly headLineSha256: string | null;
}

export function eventIdFor(workScopeId: string, scopeSequence: number, kind: string): string {
  return `event:${h24({ domain: "docket/event-id/v1", workScopeId, scopeSequence, kind })}`;
}

/** 16 random bytes as 32 lowercase hex digits, drawn once per opening by the caller. */
export const SCOPE_NONCE_PATTERN = /^[0-9a-f]{32}$/;

/**
 * A scope id unique across clones and branches (issue 17): bound to the line chain head it opens
 * after and to a nonce drawn once for this opening. The position alone made the first scope of
 * every workspace the same id, and two branches that opened a scope after the same prefix would
 * join two unrelated histories when their ledgers merged. The id is what the ledger records;
 * replay never derives it, so ids of the older rule (`docket/work-scope-id/v1`, the position alone)
 * replay unchanged.
 */
export function newScopeId(position: LedgerPosition, nonce: string): string {
  if (!SCOPE_NONCE_PATTERN.test(nonce)) throw new DocketError(ErrorCodes.internal, "A scope nonce must be 32 lowercase hex digits.");
  return `scope:${h24({ domain: "docket/work-scope-id/v2", line: position.lineCount, nonce, previousLineSha256: position.headLineSha256 })}`;
}

function requireWritableHistory(history: HistoryView): void {
  if (history.mode === "blocked") {
    throw new DocketError(ErrorCodes.historyBlocked, `The ledger history is blocked (${history.blockedReason ?? "unknown reason"}); nothing was written.`);
  }
}

/** The `work-scope-opened` draft of a new scope. */
export function scopeOpenedDraft(workScopeId: string, occurredAt: string): EnvelopeDraft {
  return {
    protocolVersion: "developer/v8",
    eventId: eventIdFor(workScopeId, 0, "work-scope-opened"),
    workScopeId,
    scopeSequence: 0,
    previousScopeEventSha256: null,
    causalRefs: [],
    occurredAt,
    kind: "work-scope-opened",
    payload: {},
  };
}

/** The `work-scope-closed` draft continuing a scope's head. */
export function scopeClosedDraft(
  head: { readonly workScopeId: string; readonly scopeSequence: number; readonly eventSha256: string },
  reason: string,
  occurredAt: string,
  causalRefs: EnvelopeDraft["causalRefs"] = [],
): EnvelopeDraft {
  const closure = createScopeClosure(reason);
  const scopeSequence = head.scopeSequence + 1;
  return {
    protocolVersion: "developer/v8",
    eventId: eventIdFor(head.workScopeId, scopeSequence, "work-scope-closed"),
    workScopeId: head.workScopeId,
    scopeSequence,
    previousScopeEventSha256: head.eventSha256,
    causalRefs,
    occurredAt,
    kind: "work-scope-closed",
    payload: { closure: { reason: closure.reason, reasonSha256: closure.reasonSha256 } },
  };
}

export function turnOnBatch(
  history: HistoryView,
  position: LedgerPosition,
  occurredAt: string,
  nonce: string,
): { drafts: EnvelopeDraft[]; workScopeId: string } {
  requireWritableHistory(history);
  if (history.activeScope !== null) {
    throw new DocketError(ErrorCodes.alreadyOn, `Docket is already on (work scope ${history.activeScope.workScopeId}).`);
  }
  const workScopeId = newScopeId(position, nonce);
  return { workScopeId, drafts: [scopeOpenedDraft(workScopeId, occurredAt)] };
}

export function turnOffBatch(
  history: HistoryView,
  reason: string | undefined,
  occurredAt: string,
): { drafts: EnvelopeDraft[]; workScopeId: string } {
  requireWritableHistory(history);
  const scope: ScopeState | null = history.activeScope;
  if (scope === null) throw new DocketError(ErrorCodes.alreadyOff, "Docket is already off: there is no open work scope.");
  if (scope.root.activeAuthorization !== null) {
    throw new DocketError(
      ErrorCodes.preflightRejected,
      "Docket cannot turn off while a change authorization is active; record the landing first.",
    );
  }
  let head = { workScopeId: scope.workScopeId, scopeSequence: scope.head.scopeSequence, eventSha256: scope.head.eventRef.eventSha256 };
  const drafts: EnvelopeDraft[] = [];
  const active = scope.activeInvocation;
  if (active !== null) {
    // Closure is refused while an invocation is active (§3.2 event 2), so turning off first
    // settles it as cancelled; whether the skill's work ran to the end is unknown.
    const settlement = createInvocationSettlement({
      kind: "lifecycle",
      invocationId: active.invocationId,
      assignmentId: active.assignmentId,
      lifecycle: { kind: "cancelled", reason: CANCELLED_ON_OFF_REASON, executionUncertain: true },
    });
    const scopeSequence = head.scopeSequence + 1;
    const draft: EnvelopeDraft = {
      protocolVersion: "developer/v8",
      eventId: eventIdFor(scope.workScopeId, scopeSequence, "invocation-settled"),
      workScopeId: scope.workScopeId,
      scopeSequence,
      previousScopeEventSha256: head.eventSha256,
      causalRefs: [],
      occurredAt,
      kind: "invocation-settled",
      payload: {
        settlement: {
          kind: "lifecycle",
          invocationId: settlement.invocationId,
          assignmentId: settlement.assignmentId,
          lifecycle: { kind: "cancelled", reason: CANCELLED_ON_OFF_REASON, executionUncertain: true },
        },
      },
    };
    drafts.push(draft);
    head = { workScopeId: scope.workScopeId, scopeSequence, eventSha256: createEnvelope(draft).eventSha256 };
  }
  drafts.push(scopeClosedDraft(head, reason ?? DEFAULT_CLOSURE_REASON, occurredAt));
  return { workScopeId: scope.workScopeId, drafts };
}
