// The pure developer/v8 scope reducer. Each transition returns a new state or throws a
// ReplayFault; it never mutates its input, so a rejection keeps the exact prior state.
import { eventRefOf, type Envelope } from "../ledger/envelope";
import { stop } from "../ledger/faults";
import type { SemanticEvent } from "./eventKinds";
import type { ScopeState } from "./scopeState";

/** Creates the state for the first event of an unknown scope (§7.2 step 6). */
export function openScope(envelope: Envelope, event: SemanticEvent): ScopeState {
  if (event.kind !== "work-scope-opened") {
    return stop("scope-not-open", "first accepted scope event must open the scope");
  }
  if (envelope.scopeSequence !== 0 || envelope.previousScopeEventSha256 !== null) {
    stop("scope-sequence-mismatch", "work-scope-opened must be scope sequence zero");
  }
  if (envelope.causalRefs.length !== 0) {
    stop("unresolved-causal-ref", "work-scope-opened cannot have causal refs");
  }
  return {
    workScopeId: envelope.workScopeId,
    head: { scopeSequence: 0, eventRef: eventRefOf(envelope) },
    root: { status: "open", closure: null, activeAuthorization: null },
    activeInvocation: null,
    openedAt: envelope.occurredAt,
    openedEventSha256: envelope.eventSha256,
    closedAt: null,
  };
}

function requireHead(scope: ScopeState, envelope: Envelope): void {
  if (envelope.scopeSequence !== scope.head.scopeSequence + 1) {
    stop("scope-sequence-mismatch", "scope sequence does not follow the accepted head");
  }
  if (envelope.previousScopeEventSha256 !== scope.head.eventRef.eventSha256) {
    stop("scope-chain-mismatch", "previous scope hash does not match the accepted head");
  }
}

function rejectTransition(code: string, message: string): never {
  return stop("semantic-transition-rejected", `${code}: ${message}`);
}

/** Applies an event to a known scope and advances its head. */
export function advanceScope(scope: ScopeState, envelope: Envelope, event: SemanticEvent): ScopeState {
  requireHead(scope, envelope);
  if (scope.root.status === "closed") {
    return stop("semantic-transition-rejected", "Runtime work scope is closed");
  }
  const head = { scopeSequence: envelope.scopeSequence, eventRef: eventRefOf(envelope) };
  switch (event.kind) {
    case "work-scope-opened":
      return stop("scope-already-open", "work scope is already open");
    case "work-scope-closed":
      if (scope.root.activeAuthorization !== null || scope.activeInvocation !== null) {
        rejectTransition("scope-close-blocked", "Runtime scope cannot close with active authorization or invocation");
      }
      return {
        ...scope,
        head,
        root: { ...scope.root, status: "closed", closure: event.closure, activeAuthorization: null },
        closedAt: envelope.occurredAt,
      };
    case "not-yet-supported":
      return rejectTransition(
        "kind-not-supported",
        `${event.eventKind} is a developer/v8 event this version of Docket cannot apply yet`,
      );
  }
}
