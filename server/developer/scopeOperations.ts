// Turning Docket on and off for a workspace: the exact developer/v8 batches (§3.3 `/developer
// on|off`). Pure: identifiers derive from the ledger's line chain, time comes from the caller.
import { h24 } from "../ledger/canonicalJson";
import type { EnvelopeDraft } from "../ledger/envelope";
import { DocketError } from "../errors";
import { ErrorCodes } from "../protocol/messages";
import { createScopeClosure } from "./eventKinds";
import type { HistoryView } from "./history";
import type { ScopeState } from "./scopeState";

export const DEFAULT_CLOSURE_REASON = "User disabled Developer.";

export interface LedgerPosition {
  readonly lineCount: number;
  readonly headLineSha256: string | null;
}

export function eventIdFor(workScopeId: string, scopeSequence: number, kind: string): string {
  return `event:${h24({ domain: "docket/event-id/v1", workScopeId, scopeSequence, kind })}`;
}

/** A scope id unique within the ledger: it is bound to the line chain head it opens after. */
export function newScopeId(position: LedgerPosition): string {
  return `scope:${h24({ domain: "docket/work-scope-id/v1", line: position.lineCount, previousLineSha256: position.headLineSha256 })}`;
}

function requireWritableHistory(history: HistoryView): void {
  if (history.mode === "blocked") {
    throw new DocketError(ErrorCodes.historyBlocked, `The ledger history is blocked (${history.blockedReason ?? "unknown reason"}); nothing was written.`);
  }
}

export function turnOnBatch(history: HistoryView, position: LedgerPosition, occurredAt: string): { drafts: EnvelopeDraft[]; workScopeId: string } {
  requireWritableHistory(history);
  if (history.activeScope !== null) {
    throw new DocketError(ErrorCodes.alreadyOn, `Docket is already on (work scope ${history.activeScope.workScopeId}).`);
  }
  const workScopeId = newScopeId(position);
  return {
    workScopeId,
    drafts: [
      {
        protocolVersion: "developer/v8",
        eventId: eventIdFor(workScopeId, 0, "work-scope-opened"),
        workScopeId,
        scopeSequence: 0,
        previousScopeEventSha256: null,
        causalRefs: [],
        occurredAt,
        kind: "work-scope-opened",
        payload: {},
      },
    ],
  };
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
  const closure = createScopeClosure(reason ?? DEFAULT_CLOSURE_REASON);
  const scopeSequence = scope.head.scopeSequence + 1;
  return {
    workScopeId: scope.workScopeId,
    drafts: [
      {
        protocolVersion: "developer/v8",
        eventId: eventIdFor(scope.workScopeId, scopeSequence, "work-scope-closed"),
        workScopeId: scope.workScopeId,
        scopeSequence,
        previousScopeEventSha256: scope.head.eventRef.eventSha256,
        causalRefs: [],
        occurredAt,
        kind: "work-scope-closed",
        payload: { closure: { reason: closure.reason, reasonSha256: closure.reasonSha256 } },
      },
    ],
  };
}
