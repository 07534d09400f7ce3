// The developer/v8 scope reducer. Internally a scope is a LiveScope that each accepted event
// changes in place (O(1) per event however long the scope); a rejected event rolls every change
// back, so the prior state stays exactly as it was. Readers get immutable ScopeState snapshots,
// and the ScopeState → ScopeState functions below keep the pure form for callers that hold one.
// The per-kind rules live in reducer/ (frames, root, routing, invocations); this file checks the
// scope head and dispatches by kind.
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
import { LiveScope } from "./reducer/liveScope";
import { accountPage, completeCoverage, createBasis, openSnapshot } from "./reducer/routing";
import { authorizeChange, closeScope, observeFrameConcluded, observeFrameOpened, recordLanding } from "./reducer/root";
import type { ScopeState } from "./scopeState";

export { LiveScope };

/** The live scope of the first event of an unknown scope (§7.2 step 6). */
export function openLiveScope(envelope: Envelope, event: SemanticEvent): LiveScope {
  if (event.kind !== "work-scope-opened") {
    return stop("scope-not-open", "first accepted scope event must open the scope");
  }
  if (envelope.scopeSequence !== 0 || envelope.previousScopeEventSha256 !== null) {
    stop("scope-sequence-mismatch", "work-scope-opened must be scope sequence zero");
  }
  if (envelope.causalRefs.length !== 0) {
    stop("unresolved-causal-ref", "work-scope-opened cannot have causal refs");
  }
  return LiveScope.opened(envelope);
}

/** Creates the state for the first event of an unknown scope (§7.2 step 6). */
export function openScope(envelope: Envelope, event: SemanticEvent): ScopeState {
  return openLiveScope(envelope, event).snapshot();
}

/** The checks every event of a known scope passes first: it follows the head of an open scope. */
function requireOpenHead(head: ScopeState["head"], status: "open" | "closed", envelope: Envelope): void {
  if (envelope.scopeSequence !== head.scopeSequence + 1) {
    stop("scope-sequence-mismatch", "scope sequence does not follow the accepted head");
  }
  if (envelope.previousScopeEventSha256 !== head.eventRef.eventSha256) {
    stop("scope-chain-mismatch", "previous scope hash does not match the accepted head");
  }
  if (status === "closed") {
    stop("semantic-transition-rejected", "Runtime work scope is closed");
  }
}

function applyKind(scope: LiveScope, envelope: Envelope, event: SemanticEvent, given: readonly CauseFact[] | undefined): void {
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
      openRouteFrame(scope, event.frame, event.obligations, event.parentDependency);
      return observeFrameOpened(scope, event.frame.frameId, causes);
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
      concludeFrame(scope, event.proposal, self);
      return observeFrameConcluded(scope, event.proposal.frameId, causes);
  }
}

/**
 * Applies an event to a live scope in place and advances its head, or throws a ReplayFault with
 * the scope exactly as it was. The change stays undoable (`scope.journal.rollback(mark)`) until
 * the caller calls `scope.journal.forget()`, which a driver does once the event is kept for good.
 */
export function advanceLiveScope(scope: LiveScope, envelope: Envelope, event: SemanticEvent, causes?: readonly CauseFact[]): void {
  const mark = scope.journal.length;
  try {
    requireOpenHead(scope.head, scope.status, envelope);
    applyKind(scope, envelope, event, causes);
    scope.setHead({ scopeSequence: envelope.scopeSequence, eventRef: eventRefOf(envelope) });
  } catch (error) {
    scope.journal.rollback(mark);
    throw error;
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
 * from a checkpoint keeps these facts instead of whole cause events. It never changes `scope`.
 */
export function advanceScopeWithFacts(scope: ScopeState, envelope: Envelope, event: SemanticEvent, causes?: readonly CauseFact[]): ScopeState {
  // Checked before the live copy is built, so an event at a closed scope costs nothing extra.
  requireOpenHead(scope.head, scope.root.status, envelope);
  const live = LiveScope.fromState(scope);
  advanceLiveScope(live, envelope, event, causes);
  return live.snapshot();
}
