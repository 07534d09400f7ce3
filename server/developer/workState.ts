// The Work view's projection of the active scope (issue 3 deliverable 8): frames with their
// obligations, blockers, contributions, owner and conclusion; the active authorization; landings
// with their debts; the decision purpose and the legal operations. Pure and derived from replay
// only, so the view shows exactly what the ledger says and nothing a client remembered.
import type { Actor, WorkFrame, WorkLanding, WorkState } from "../protocol/messages";
import { derivedPurpose } from "./operations/common";
import { unresolvedAttemptSourceId } from "./operations/judgmentOperations";
import { phaseOf, runtimeFacts, type HistoryView } from "./history";
import { findRouteDefinition } from "./routes";
import type { FrameState, ScopeState } from "./scopeState";
import { computeToolPolicy } from "./toolPolicy";

const SKILL_CAPABILITY_PREFIX = "skill:";

function frameRole(scope: ScopeState, frameId: string): WorkFrame["role"] {
  for (const debt of scope.root.debts) {
    if (debt.rerouteFrameId === frameId) return "reroute";
    if (debt.verificationFrameId === frameId) return "verification";
  }
  return "work";
}

function ownerOf(scope: ScopeState, frameId: string): WorkFrame["owner"] {
  // The latest assignment for the frame names its owner; a replaced frame drops older ones.
  const assignment = [...scope.assignments].reverse().find((entry) => entry.assignment.parentFrameId === frameId);
  if (assignment === undefined) return null;
  const capability = assignment.assignment.skillCapabilityId;
  const skillName = capability.startsWith(SKILL_CAPABILITY_PREFIX) ? capability.slice(SKILL_CAPABILITY_PREFIX.length) : capability;
  return {
    skillName,
    status: assignment.status,
    subquestion: assignment.assignment.subquestion,
    expectedContribution: assignment.assignment.expectedContribution,
  };
}

/** Who opened a frame (from Docket's provenance records), or null when unknown. */
export type FrameActor = (frameId: string) => Actor | null;

function describeFrame(scope: ScopeState, state: FrameState, drivenBy: FrameActor): WorkFrame {
  const discharges = new Map(state.discharges.map((entry) => [entry.obligationId, entry]));
  const blocked = new Set(state.blockers.flatMap((entry) => entry.targetObligationIds));
  const frame = state.frame;
  return {
    frameId: frame.frameId,
    frameRevision: frame.frameRevision,
    role: frameRole(scope, frame.frameId),
    routeDefinitionId: frame.routeDefinitionId,
    routeSign: findRouteDefinition(frame.routeDefinitionId)?.sign ?? null,
    question: frame.exactQuestion,
    status: state.conclusion === null ? "open" : "concluded",
    obligations: state.obligations.map((obligation) => {
      const discharge = discharges.get(obligation.obligationId);
      return {
        obligationId: obligation.obligationId,
        statement: obligation.statement,
        state: discharge !== undefined ? "discharged" : blocked.has(obligation.obligationId) ? "blocked" : "open",
        // A conclusion requires every obligation discharged (§5.1), so on a concluded frame each
        // discharge is part of what the conclusion settled; the view says so instead of a bare "discharged".
        settledBy:
          discharge === undefined
            ? null
            : { contributionIds: [...discharge.contributionIds], stopEvidence: [...discharge.stopEvidence], withConclusion: state.conclusion !== null },
      };
    }),
    blockers: state.blockers.map((blocker) => ({
      blockerId: blocker.blockerId,
      kind: blocker.kind,
      targetObligationIds: [...blocker.targetObligationIds],
    })),
    contributions: state.contributions.map((contribution) => ({
      contributionId: contribution.contributionId,
      sourceKind: contribution.proposal.source.kind,
      sourceId: contribution.proposal.source.sourceId,
      claim: contribution.proposal.claim,
    })),
    owner: ownerOf(scope, frame.frameId),
    conclusion:
      state.conclusion === null ? null : { text: state.conclusion.proposal.conclusion, eventSha256: state.conclusion.eventRef.eventSha256 },
    unresolvedAttempts: scope.supports.filter((support) => support.sourceId === unresolvedAttemptSourceId(frame.frameId)).length,
    drivenBy: drivenBy(frame.frameId),
  };
}

function describeLandings(scope: ScopeState): WorkLanding[] {
  return scope.root.landings.flatMap((landing) => {
    const debt = scope.root.debts.find((entry) => entry.landingId === landing.landingId);
    // Every accepted landing opens exactly one debt record (§6.4); without it there is no event to cite.
    if (debt === undefined) return [];
    return [
      {
        landingId: landing.landingId,
        authorizationId: landing.authorizationId,
        changedPaths: [...landing.changedPaths],
        result: landing.result,
        verification: [...landing.verification],
        eventSha256: debt.landingEventRef.eventSha256,
        reroutePending: debt.reroutePending,
        verificationPending: debt.verificationPending,
        rerouteFrameId: debt.rerouteFrameId,
        verificationFrameId: debt.verificationFrameId,
      },
    ];
  });
}

type ClosedScopeHistory = WorkState["history"][number];

/**
 * The History entry of each closed scope met so far, keyed by its scope id and head hash (which
 * commits to every event of the scope, so the entry can never go stale), with the frames' actors
 * left null. Replay rebuilds a closed scope's records from its lines on every read; without this,
 * each Work view would replay the whole history again.
 */
const closedScopeHistories = new Map<string, ClosedScopeHistory>();
/** Past this many entries the memo starts over (several large ledgers in one process). */
const MAX_CLOSED_SCOPE_HISTORIES = 200_000;

function closedScopeHistory(scope: ScopeState): ClosedScopeHistory {
  const key = `${scope.workScopeId}\u0000${scope.head.eventRef.eventSha256}`;
  let entry = closedScopeHistories.get(key);
  if (entry === undefined) {
    entry = {
      workScopeId: scope.workScopeId,
      frames: scope.frames.map((state) => describeFrame(scope, state, () => null)),
      landings: describeLandings(scope),
    };
    if (closedScopeHistories.size >= MAX_CLOSED_SCOPE_HISTORIES) closedScopeHistories.clear();
    closedScopeHistories.set(key, entry);
  }
  return entry;
}

/**
 * Takes a closing scope's History entry while replay still holds its full state
 * (LedgerStore's onScopeClosed), so the first Work view after a start rebuilds no closed scope.
 */
export function rememberClosedScopeHistory(scope: ScopeState): void {
  closedScopeHistory(scope);
}

/** One closed scope's History entry: what it decided and landed. */
export function describeClosedScope(scope: ScopeState, drivenBy: FrameActor): ClosedScopeHistory {
  const entry = closedScopeHistory(scope);
  // The memo's nested values are shared: a Work state is only ever serialized, never changed.
  // `drivenBy` keeps its place as a frame's last member.
  return {
    workScopeId: entry.workScopeId,
    frames: entry.frames.map((frame) => ({ ...frame, drivenBy: drivenBy(frame.frameId) })),
    landings: [...entry.landings],
  };
}

/** Closed scopes (by scope id, as replay lists them), so the History shows what each scope decided and landed even while off. */
function describeClosedScopes(history: HistoryView, drivenBy: FrameActor): WorkState["history"] {
  return history.scopes.filter((scope) => scope.root.status === "closed").map((scope) => describeClosedScope(scope, drivenBy));
}

export function describeWorkState(history: HistoryView, drivenBy: FrameActor = () => null): WorkState {
  const policy = computeToolPolicy(runtimeFacts(history));
  const scope = history.activeScope;
  const base = {
    phase: phaseOf(history),
    legalOperations: [...policy.legalOperations],
    nextAction: policy.nextAction,
    history: describeClosedScopes(history, drivenBy),
  };
  if (scope === null) {
    return { ...base, workScopeId: null, purpose: null, frames: [], authorization: null, landings: [] };
  }
  const authorization = scope.root.activeAuthorization;
  return {
    ...base,
    workScopeId: scope.workScopeId,
    purpose: derivedPurpose(scope),
    frames: scope.frames.map((state) => describeFrame(scope, state, drivenBy)),
    authorization:
      authorization === null
        ? null
        : {
            authorizationId: authorization.authorizationId,
            frameId: authorization.frameId,
            movement: authorization.movement,
            stableLanding: authorization.stableLanding,
            verificationTarget: authorization.verificationTarget,
          },
    landings: describeLandings(scope),
  };
}
