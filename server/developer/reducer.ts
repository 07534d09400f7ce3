// The pure developer/v8 scope reducer. Each transition returns a new state or throws a
// ReplayFault; it never mutates its input, so a rejection keeps the exact prior state.
// The per-kind rules live in reducer/ (frames, root, routing, invocations); this file checks the scope head and
// dispatches by kind.
import { eventRefOf, type Envelope } from "../ledger/envelope";
import { stop } from "../ledger/faults";
import type { SemanticEvent } from "./eventKinds";
import {
  admitContribution,
  concludeFrame,
  dischargeObligation,
  observeSupport,
  openRouteFrame,
  replaceRouteFrame,
  resolveBlocker,
} from "./reducer/frames";
import { causeFacts, factOfEvent, type CauseEvent, type CauseFact } from "./reducer/causes";
import { recordAssignment, settleInvocation, startInvocation } from "./reducer/invocations";
import { accountPage, completeCoverage, createBasis, openSnapshot } from "./reducer/routing";
import { authorizeChange, closeScope, observeFrameConcluded, observeFrameOpened, recordLanding } from "./reducer/root";
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
    root: { status: "open", closure: null, activeAuthorization: null, authorizations: [], landings: [], debts: [] },
    frames: [],
    supports: [],
    snapshots: [],
    bases: [],
    assignments: [],
    settlements: [],
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

function applyKind(scope: ScopeState, envelope: Envelope, event: SemanticEvent, given: readonly CauseFact[] | undefined): ScopeState {
  const causes = envelope.causalRefs;
  const facts = causeFacts(scope, causes, given);
  const self = eventRefOf(envelope);
  switch (event.kind) {
    case "work-scope-opened":
      return stop("scope-already-open", "work scope is already open");
    case "work-scope-closed":
      return closeScope(scope, event.closure, envelope.occurredAt);
    case "change-authorized":
      return authorizeChange(scope, event.authorization, facts, self);
    case "implementation-landing-recorded":
      return recordLanding(scope, event.landing, facts, self);
    case "route-frame-opened":
      return observeFrameOpened(
        openRouteFrame(scope, event.frame, event.obligations, event.parentDependency),
        event.frame.frameId,
        causes,
      );
    case "route-frame-replaced":
      return replaceRouteFrame(scope, event.frame, event.obligations);
    case "routing-snapshot-opened":
      return openSnapshot(scope, event.basis, event.manifest, event.replacesSnapshotId);
    case "routing-page-accounted":
      return accountPage(scope, event.page, event.dispositions);
    case "routing-coverage-completed":
      return completeCoverage(scope, event.snapshotId, event.expectedCoverageSha256);
    case "can-serve-basis-created":
      return createBasis(scope, event.snapshotId, event.body, event.expectedBasisSha256);
    case "ready-assignment-recorded":
      return recordAssignment(scope, event.assignment, event.basisId);
    case "skill-invocation-started":
      return startInvocation(scope, event.invocationId, event.assignmentId);
    case "invocation-settled":
      return settleInvocation(scope, event.settlement, self);
    case "support-observed":
      return observeSupport(scope, event.support, self);
    case "frame-contribution-admitted":
      return admitContribution(scope, event, facts);
    case "frame-blocker-resolved":
      return resolveBlocker(scope, event, facts);
    case "obligation-discharged":
      return dischargeObligation(scope, event.discharge);
    case "route-frame-concluded":
      return observeFrameConcluded(concludeFrame(scope, event.proposal, self), event.proposal.frameId, causes);
  }
}

/**
 * Applies an event to a known scope and advances its head. `causes` are the accepted events the
 * envelope's causal refs resolved to; when the driver omits them, causes are looked up in this
 * scope only (a cause accepted in another scope then proves nothing).
 */
export function advanceScope(scope: ScopeState, envelope: Envelope, event: SemanticEvent, causes?: readonly CauseEvent[]): ScopeState {
  return advanceScopeWithFacts(scope, envelope, event, causes?.map(factOfEvent));
}

/**
 * The same transition with the causes already reduced to what they prove: a reader that resumes
 * from a checkpoint keeps these facts instead of whole cause events.
 */
export function advanceScopeWithFacts(scope: ScopeState, envelope: Envelope, event: SemanticEvent, causes?: readonly CauseFact[]): ScopeState {
  requireHead(scope, envelope);
  if (scope.root.status === "closed") {
    return stop("semantic-transition-rejected", "Runtime work scope is closed");
  }
  const next = applyKind(scope, envelope, event, causes);
  return { ...next, head: { scopeSequence: envelope.scopeSequence, eventRef: eventRefOf(envelope) } };
}
