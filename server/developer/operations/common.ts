// Shared pieces of the five developer/v8 operations (§3.3): the caught-up scope, deterministic
// identifiers and draft chaining. Pure: identifiers derive from the scope's own head, so the same
// request against the same ledger always builds the same batch, and time comes from the caller.
import { h24 } from "../../ledger/canonicalJson";
import type { EnvelopeDraft, EventRef } from "../../ledger/envelope";
import { compareCausalRefs, createEnvelope, eventRefOf } from "../../ledger/envelope";
import { DocketError } from "../../errors";
import { ErrorCodes } from "../../protocol/messages";
import type { HistoryView } from "../history";
import type { ScopeState } from "../scopeState";
import { eventIdFor } from "../scopeOperations";

export type { DecisionPurpose } from "../decisionPurpose";
export { derivedPurpose } from "../decisionPurpose";

/** The active scope of a writable history, or a coded refusal (nothing is written on refusal). */
export function requireActiveScope(history: HistoryView): ScopeState {
  if (history.mode === "blocked") {
    throw new DocketError(ErrorCodes.historyBlocked, `The ledger history is blocked (${history.blockedReason ?? "unknown reason"}); nothing was written.`);
  }
  if (history.activeScope === null) throw new DocketError(ErrorCodes.alreadyOff, "Docket is off: turn it on before recording decisions or changes.");
  return history.activeScope;
}

export function notLegal(message: string): never {
  throw new DocketError(ErrorCodes.operationNotLegal, message);
}

/**
 * Identifiers bound to the scope position the batch starts at: a scope sequence is used once, so
 * an id derived from (scope, first sequence, role) is unique without a clock or randomness.
 */
export function operationId(prefix: string, scope: ScopeState, role: string): string {
  return `${prefix}:${h24({ domain: "docket/operation-id/v1", workScopeId: scope.workScopeId, atSequence: scope.head.scopeSequence + 1, role })}`;
}

/**
 * Chains drafts after the scope head. Each draft's hash is computed here so a later draft in the
 * same batch can cite an earlier one as a cause (the store recomputes and preflights the batch).
 */
export class BatchChain {
  readonly drafts: EnvelopeDraft[] = [];
  private sequence: number;
  private previous: string;

  constructor(
    private readonly scope: ScopeState,
    private readonly occurredAt: string,
  ) {
    this.sequence = scope.head.scopeSequence;
    this.previous = scope.head.eventRef.eventSha256;
  }

  add(kind: string, payload: EnvelopeDraft["payload"], causalRefs: readonly EventRef[] = []): EventRef {
    const scopeSequence = this.sequence + 1;
    const draft: EnvelopeDraft = {
      protocolVersion: "developer/v8",
      eventId: eventIdFor(this.scope.workScopeId, scopeSequence, kind),
      workScopeId: this.scope.workScopeId,
      scopeSequence,
      previousScopeEventSha256: this.previous,
      causalRefs: [...causalRefs].sort(compareCausalRefs),
      occurredAt: this.occurredAt,
      kind,
      payload,
    };
    const envelope = createEnvelope(draft);
    this.drafts.push(draft);
    this.sequence = scopeSequence;
    this.previous = envelope.eventSha256;
    return eventRefOf(envelope);
  }
}

/** Value-layer failures are the caller's input, not a bug: report them as invalid params. */
export function asInvalidParams<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    if (error instanceof DocketError) throw error;
    throw new DocketError(ErrorCodes.invalidParams, error instanceof Error ? error.message : String(error));
  }
}
