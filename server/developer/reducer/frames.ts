// Frame transitions (§3.2 events 5, 6, 14–18, §5.1–§5.3): opening root and child frames,
// replacing a frame revision, observing support, admitting contributions, resolving blockers,
// discharging obligations and concluding. Required causes are matched against CauseFacts
// (reducer/causes.ts); the records kept here remember their events so later events can cite them.
import type { EventRef } from "../../ledger/envelope";
import { stop } from "../../ledger/faults";
import { blockerSetSha256, createBlocker } from "../values/blockers";
import { compareCodeUnits } from "../../ledger/canonicalJson";
import type { ConclusionProposal } from "../values/conclusions";
import { conclusionSha256 } from "../values/conclusions";
import {
  SUPPORTING_USES,
  admissionSha256,
  parseProposalBody,
  proposalSha256,
  type ContributionTargetUse,
  type ObservedSupport,
  type ProposalBody,
} from "../values/contributions";
import { dischargeSha256 } from "../values/discharges";
import type { Obligation } from "../values/obligations";
import { verifyFrameObligations, type RouteFrame } from "../values/routeFrame";
import { skillReturnSupportSha256 } from "../values/skills";
import type { CauseFact } from "./causes";
import type { LiveFrame } from "./liveFrame";
import type { LiveScope } from "./liveScope";
import type { LooseDependency, LooseDischarge, LooseProposal } from "./payloadShapes";
import { actionableObligationIds, asInput, canonicalIds, openFrame, reject, sameIds, subsetOf } from "./transition";

/** Event 5. The root-debt part (reroute clearing) is applied afterwards by root.ts. */
export function openRouteFrame(scope: LiveScope, frame: RouteFrame, obligations: readonly Obligation[], dependency: LooseDependency | null): void {
  asInput(() => verifyFrameObligations(frame, obligations));
  if (frame.workScopeId !== scope.workScopeId) reject("stale-frame", "frame belongs to another work scope");
  if (scope.frames.has(frame.frameId)) {
    reject("duplicate-identity", `Duplicate frame: ${frame.frameId}`);
  }
  if (frame.parentFrameId === null) {
    if (dependency !== null) reject("parent-dependency-invalid", "root frame cannot have parent dependency");
  } else {
    if (dependency === null) return reject("parent-dependency-invalid", "child frame requires parent dependency");
    const parent = openFrame(scope, frame.parentFrameId);
    const targets = canonicalIds(dependency.targetObligationIds, "parentDependency.targetObligationIds", true);
    if (!subsetOf(targets, actionableObligationIds(parent))) {
      reject("parent-dependency-invalid", "child dependency must target actionable parent obligations");
    }
    const existing = parent.blockers.get(dependency.blockerId);
    if (existing === undefined) {
      // A child never concludes or unblocks its parent; the parent carries this blocker until an
      // explicit frame-blocker-resolved removes it (§5.3).
      const blocker = createBlocker({
        blockerId: dependency.blockerId,
        frameId: parent.frame.frameId,
        kind: "child-frame",
        sourceId: frame.frameId,
        targetObligationIds: targets,
        details: { reason: dependency.reason },
      });
      parent.addBlocker(blocker);
    } else if (!sameIds(existing.targetObligationIds, targets)) {
      reject("parent-dependency-invalid", "existing parent blocker targets differ");
    }
  }
  scope.addFrame(scope.newFrame(frame, obligations));
}

/** Event 14: scope-wide support; a repeated supportId is a causality fault, not a reducer one. */
export function observeSupport(scope: LiveScope, support: ObservedSupport, eventRef: EventRef): void {
  if (scope.supports.has(support.supportId)) {
    return stop("source-causality-missing", "support identity already exists");
  }
  scope.addSupport({ ...support, eventRef });
}

/** A skill-return proposal must restate exactly the Contribution its settled invocation returned. */
function assertSkillProposalCurrent(scope: LiveScope, frame: LiveFrame, proposal: ProposalBody): void {
  const source = scope.startedAssignment(proposal.source.sourceId);
  if (source === undefined || source.status !== "settled") {
    return reject("contribution-not-admissible", "Skill proposal has no settled invocation source");
  }
  if (
    source.assignment.parentFrameId !== frame.frame.frameId ||
    source.assignment.parentFrameRevision !== frame.frame.frameRevision ||
    frame.routing === null ||
    source.assignment.contextBasisSha256 !== frame.routing.coverageSha256
  ) {
    reject("contribution-not-admissible", "Skill proposal source is stale");
  }
  const returned = source.settlement.kind === "returned" && source.settlement.value.kind === "contribution" ? source.settlement.value : null;
  const sameUses = (left: readonly ContributionTargetUse[], right: readonly ContributionTargetUse[]): boolean =>
    left.length === right.length && left.every((use, index) => use.obligationId === right[index]?.obligationId && use.useAs === right[index]?.useAs);
  if (
    proposal.source.sourceRevisionSha256 !== skillReturnSupportSha256(source.settlement) ||
    proposal.supportSha256 !== proposal.source.sourceRevisionSha256 ||
    returned === null ||
    proposal.claim !== returned.claim ||
    proposal.applicability !== returned.applicability ||
    !sameUses(proposal.targetUses, returned.targetUses) ||
    !sameIds(proposal.limitations, returned.limitations)
  ) {
    reject("contribution-not-admissible", "Skill proposal does not match its settled Contribution");
  }
}

function requireContributionCause(proposal: LooseProposal, facts: readonly CauseFact[]): void {
  const source = proposal.source;
  if (source.kind === "skill-return") {
    const matched = facts.some(
      (fact) =>
        fact.kind === "settlement" &&
        fact.settlement.invocationId === source.sourceId &&
        skillReturnSupportSha256(fact.settlement) === source.sourceRevisionSha256 &&
        proposal.supportSha256 === source.sourceRevisionSha256,
    );
    if (!matched) stop("source-causality-missing", "Skill contribution lacks its settlement causal ref");
    return;
  }
  if (source.kind === "child-frame") {
    const matched = facts.some(
      (fact) =>
        fact.kind === "conclusion" &&
        fact.frameId === source.sourceId &&
        fact.conclusionSha256 === source.sourceRevisionSha256 &&
        proposal.supportSha256 === fact.conclusionSha256,
    );
    if (!matched) stop("source-causality-missing", "Child contribution lacks its conclusion causal ref");
    return;
  }
  const matched = facts.some(
    (fact) =>
      fact.kind === "support" &&
      fact.support.sourceKind === source.kind &&
      fact.support.sourceId === source.sourceId &&
      fact.support.sourceRevisionSha256 === source.sourceRevisionSha256 &&
      fact.support.supportSha256 === proposal.supportSha256,
  );
  if (!matched) stop("source-causality-missing", "External contribution lacks its support causal ref");
}

/** Event 15. Cause first, then the exact proposal hash, then frame admissibility. */
export function admitContribution(
  scope: LiveScope,
  event: { proposal: LooseProposal; expectedProposalSha256: string; contributionId: string; admissionBasisSha256: string },
  facts: readonly CauseFact[],
): void {
  const loose = event.proposal;
  if (loose.source.kind === "child-frame") {
    const child = scope.frame(loose.source.sourceId);
    if (child === undefined || child.frame.parentFrameId !== loose.frameId || child.conclusion === null) {
      stop("source-causality-missing", "child support source is not a concluded child of the target frame");
    }
  }
  requireContributionCause(loose, facts);
  // Full value rules (canonical targets, limitation bounds) apply here; a violation is a payload fault.
  const body = parseProposalBody(loose);
  const computed = proposalSha256(body);
  if (computed !== event.expectedProposalSha256) stop("source-causality-missing", "proposed contribution hash mismatch");
  const frame = openFrame(scope, body.frameId);
  if (body.frameRevision !== frame.frame.frameRevision) reject("contribution-not-admissible", "contribution targets a stale frame");
  if (frame.contributions.has(event.contributionId)) {
    reject("duplicate-identity", `Duplicate contribution: ${event.contributionId}`);
  }
  const targets = body.targetUses.map((use) => use.obligationId);
  if (!subsetOf(targets, actionableObligationIds(frame))) reject("contribution-not-admissible", "contribution targets are not actionable");
  if (body.source.kind === "skill-return") assertSkillProposalCurrent(scope, frame, body);
  const proposal = { ...body, proposalSha256: computed };
  const contribution = {
    contributionId: event.contributionId,
    proposal,
    admissionBasisSha256: event.admissionBasisSha256,
    admissionSha256: admissionSha256(event.contributionId, proposal, event.admissionBasisSha256),
  };
  frame.addContribution(contribution);
}

/** Does a cited event support this hash (its own hash, an observed support, a settlement or a conclusion)? */
function causeSupports(facts: readonly CauseFact[], sha256: string): boolean {
  return facts.some(
    (fact) =>
      fact.ref.eventSha256 === sha256 ||
      (fact.kind === "support" && fact.support.supportSha256 === sha256) ||
      (fact.kind === "settlement" && skillReturnSupportSha256(fact.settlement) === sha256) ||
      (fact.kind === "conclusion" && fact.conclusionSha256 === sha256),
  );
}

/** Event 16: the only way a blocker goes away (a child conclusion alone never does it). */
export function resolveBlocker(
  scope: LiveScope,
  event: { frameId: string; blockerId: string; resolutionBasisSha256: string },
  facts: readonly CauseFact[],
): void {
  if (!causeSupports(facts, event.resolutionBasisSha256)) {
    stop("source-causality-missing", "blocker resolution lacks an exact prior support causal ref");
  }
  const frame = openFrame(scope, event.frameId);
  if (!frame.blockers.has(event.blockerId)) {
    reject("blocker-not-found", `Unknown blocker: ${event.blockerId}`);
  }
  frame.removeBlocker(event.blockerId);
}

/** Whether the scope's active invocation works on this obligation of this frame. */
function activeInvocationTargets(scope: LiveScope, frame: LiveFrame, obligationId: string): boolean {
  const active = scope.activeInvocation;
  if (active === null || active.frameId !== frame.frame.frameId) return false;
  const assignment = scope.assignments.get(active.assignmentId);
  if (assignment === undefined) return reject("assignment-not-ready", `Unknown assignment: ${active.assignmentId}`);
  return assignment.assignment.targetObligationIds.includes(obligationId);
}

/** Event 17: only admitted contributions with a supporting use for this obligation can discharge it. */
export function dischargeObligation(scope: LiveScope, loose: LooseDischarge): void {
  if (loose.stopEvidence.length === 0) reject("invalid-input", "stopEvidence has an invalid length");
  const contributionIds = canonicalIds(loose.contributionIds, "contributionIds", true);
  const frame = openFrame(scope, loose.frameId);
  if (loose.expectedFrameRevision !== frame.frame.frameRevision) reject("stale-frame", "discharge targets a stale frame revision");
  if (!frame.frame.obligationIds.includes(loose.obligationId)) reject("obligation-not-actionable", "unknown frame obligation");
  if (
    frame.isBlocked(loose.obligationId) ||
    frame.isDischarged(loose.obligationId) ||
    activeInvocationTargets(scope, frame, loose.obligationId)
  ) {
    reject("obligation-not-actionable", "obligation is blocked, active, or discharged");
  }
  for (const contributionId of contributionIds) {
    const contribution = frame.contributions.get(contributionId);
    const supports = contribution?.proposal.targetUses.some(
      (use) => use.obligationId === loose.obligationId && SUPPORTING_USES.includes(use.useAs),
    );
    if (supports !== true) reject("discharge-not-supported", "discharge lacks current admitted targeting support");
  }
  if (frame.discharges.has(loose.dischargeId)) {
    reject("duplicate-identity", `Duplicate discharge: ${loose.dischargeId}`);
  }
  // Written out, not spread: the frame keeps this record (see createBasis in routing.ts).
  const body = {
    dischargeId: loose.dischargeId,
    frameId: loose.frameId,
    expectedFrameRevision: loose.expectedFrameRevision,
    obligationId: loose.obligationId,
    contributionIds,
    stopEvidence: loose.stopEvidence,
    conclusion: loose.conclusion,
  };
  frame.addDischarge({
    dischargeId: body.dischargeId,
    frameId: body.frameId,
    expectedFrameRevision: body.expectedFrameRevision,
    obligationId: body.obligationId,
    contributionIds: body.contributionIds,
    stopEvidence: body.stopEvidence,
    conclusion: body.conclusion,
    dischargeSha256: dischargeSha256(body),
  });
}

/** Event 18, the §5.1 guard. Debt clearing is applied afterwards by root.ts. */
export function concludeFrame(scope: LiveScope, proposal: ConclusionProposal, eventRef: EventRef): void {
  const frame = openFrame(scope, proposal.frameId);
  if (proposal.expectedFrameRevision !== frame.frame.frameRevision) reject("stale-frame", "conclusion targets a stale frame revision");
  if (proposal.expectedBlockerSetSha256 !== blockerSetSha256(frame.blockers.values()) || frame.blockers.size !== 0) {
    reject("conclusion-not-ready", "conclusion blocker basis is not empty and current");
  }
  if (scope.activeInvocation?.frameId === frame.frame.frameId) reject("conclusion-not-ready", "frame has an active invocation");
  const current = frame.discharges
    .values()
    .map((entry) => entry.dischargeId)
    .sort(compareCodeUnits);
  if (frame.discharges.size !== frame.obligations.length || !sameIds(proposal.dischargeIds, current)) {
    reject("conclusion-not-ready", "conclusion requires every current discharge");
  }
  scope.concludeFrame(frame, { proposal, conclusionSha256: conclusionSha256(proposal), eventRef });
}

/**
 * Event 6 (§5.2): a fresh revision of an open frame. Everything frame-local from the old
 * revision goes (routing, contributions, discharges, blockers, its assignments, snapshots and
 * bases); scope-wide supports, settlements and blockers this frame put on its parent remain.
 */
export function replaceRouteFrame(scope: LiveScope, frame: RouteFrame, obligations: readonly Obligation[]): void {
  asInput(() => verifyFrameObligations(frame, obligations));
  const current = openFrame(scope, frame.frameId);
  if (
    frame.workScopeId !== scope.workScopeId ||
    frame.parentFrameId !== current.frame.parentFrameId ||
    frame.frameRevision <= current.frame.frameRevision
  ) {
    reject("replacement-not-ready", "replacement identity is not a fresh frame revision");
  }
  if (scope.activeInvocation?.frameId === frame.frameId) reject("replacement-not-ready", "active invocation must settle before replacement");
  if (scope.hasOpenChild(frame.frameId)) {
    reject("replacement-not-ready", "open child frame must conclude before replacement");
  }
  scope.replaceFrame(scope.newFrame(frame, obligations));
  scope.dropFrameRecords(frame.frameId);
}
