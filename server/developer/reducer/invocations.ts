// Skill assignment and invocation transitions (§3.2 events 11–13, §4.4 assignment rules):
// a ready assignment needs a can-serve basis of the frame's current routing; one invocation at
// a time per scope; a settlement may block its targets but never admits or discharges anything.
import type { EventRef } from "../../ledger/envelope";
import { stop } from "../../ledger/faults";
import type { AssignmentState } from "../scopeState";
import { createBlocker, settlementBlockerId, type Blocker } from "../values/blockers";
import type { CanServeBasis } from "../values/routing";
import type { InvocationSettlement, ReadySkillAssignment } from "../values/skills";
import type { LiveFrame } from "./liveFrame";
import type { LiveScope } from "./liveScope";
import { actionableObligationIds, openFrame, reject, sameIds, subsetOf } from "./transition";

function assignmentById(scope: LiveScope, assignmentId: string): AssignmentState {
  const found = scope.assignments.get(assignmentId);
  if (found === undefined) return reject("assignment-not-ready", `Unknown assignment: ${assignmentId}`);
  return found;
}

function assertReady(frame: LiveFrame, assignment: ReadySkillAssignment, basis: CanServeBasis): void {
  const routing = frame.routing;
  if (routing === null) return reject("assignment-not-ready", "assignment requires current routing coverage");
  if (
    basis.snapshotId !== routing.manifest.snapshotId ||
    basis.frameId !== routing.basis.frameId ||
    basis.frameRevision !== routing.basis.frameRevision ||
    basis.contextBasisSha256 !== routing.coverageSha256
  ) {
    reject("invalid-input", "can-serve basis was not created for current routing coverage");
  }
  if (
    assignment.parentFrameRevision !== frame.frame.frameRevision ||
    basis.frameId !== frame.frame.frameId ||
    basis.frameRevision !== frame.frame.frameRevision ||
    basis.snapshotId !== routing.manifest.snapshotId
  ) {
    reject("assignment-not-ready", "assignment frame or snapshot basis is stale");
  }
  if (
    basis.contextBasisSha256 !== routing.coverageSha256 ||
    assignment.contextBasisSha256 !== routing.coverageSha256 ||
    assignment.applicabilityBasisSha256 !== basis.basisSha256
  ) {
    reject("assignment-not-ready", "assignment context or applicability basis is stale");
  }
  if (
    assignment.skillCapabilityId !== basis.capabilityId ||
    assignment.skillRevisionSha256 !== basis.capabilityRevisionSha256 ||
    !sameIds(assignment.targetObligationIds, basis.targetObligationIds) ||
    !subsetOf(assignment.targetObligationIds, actionableObligationIds(frame))
  ) {
    reject("assignment-not-ready", "assignment capability or targets are not current");
  }
}

/** Event 11. */
export function recordAssignment(scope: LiveScope, assignment: ReadySkillAssignment, basisId: string): void {
  const basis = scope.bases.get(basisId);
  if (basis === undefined) return stop("basis-missing", "ready assignment basis is absent");
  if (scope.assignments.has(assignment.assignmentId)) {
    reject("duplicate-identity", `Duplicate assignment: ${assignment.assignmentId}`);
  }
  const frame = openFrame(scope, assignment.parentFrameId);
  assertReady(frame, assignment, basis);
  scope.addAssignment({ status: "ready", assignment, basis });
}

/** Event 12: one active invocation per scope, on a ready assignment whose targets are still actionable. */
export function startInvocation(scope: LiveScope, invocationId: string, assignmentId: string): void {
  if (scope.activeInvocation !== null) reject("invocation-already-active", "work scope already has an active invocation");
  if (scope.startedAssignment(invocationId) !== undefined) {
    reject("duplicate-identity", `Duplicate invocation: ${invocationId}`);
  }
  const current = assignmentById(scope, assignmentId);
  if (current.status !== "ready") reject("assignment-not-ready", "assignment is not ready");
  const frame = openFrame(scope, current.assignment.parentFrameId);
  if (!subsetOf(current.assignment.targetObligationIds, actionableObligationIds(frame))) {
    reject("assignment-not-ready", "assignment targets are no longer actionable");
  }
  scope.updateAssignment({ status: "active", assignment: current.assignment, basis: current.basis, invocationId });
  scope.setActiveInvocation({ invocationId, assignmentId, frameId: frame.frame.frameId });
}

/** Which obligations a settlement speaks about; they must stay within the assignment's targets. */
function settlementTargets(settlement: InvocationSettlement, assignment: ReadySkillAssignment): readonly string[] {
  if (settlement.kind === "capability-failed") return assignment.targetObligationIds;
  if (settlement.kind === "lifecycle" || settlement.value.kind === "abort") return [];
  if (settlement.value.kind === "contribution") return settlement.value.targetUses.map((use) => use.obligationId);
  return settlement.value.targetObligationIds;
}

/** Canonical non-empty targets, as a blocker requires (a reducer `invalid-input` otherwise). */
function blockerTargets(values: readonly string[]): readonly string[] {
  if (values.length === 0 || values.length > 100) reject("invalid-input", "blocker.targetObligationIds has an invalid length");
  for (let index = 1; index < values.length; index += 1) {
    if ((values[index - 1] ?? "") >= (values[index] ?? "")) reject("invalid-input", "blocker.targetObligationIds must be unique and in canonical order");
  }
  return values;
}

/** capability failure blocks every assignment target; dependency and needs-context block the listed ones. */
function settlementBlocker(frame: LiveFrame, assignment: ReadySkillAssignment, settlement: InvocationSettlement): Blocker | null {
  const frameId = frame.frame.frameId;
  if (settlement.kind === "capability-failed") {
    return createBlocker({
      blockerId: settlementBlockerId(settlement.invocationId, "capability-failure"),
      frameId,
      kind: "capability-failure",
      sourceId: settlement.invocationId,
      targetObligationIds: blockerTargets(assignment.targetObligationIds),
      details: { ...settlement.failure },
    });
  }
  if (settlement.kind !== "returned") return null;
  const value = settlement.value;
  if (value.kind === "dependency") {
    return createBlocker({
      blockerId: settlementBlockerId(settlement.invocationId, "dependency"),
      frameId,
      kind: "dependency",
      sourceId: value.dependencyId,
      targetObligationIds: blockerTargets(value.targetObligationIds),
      details: { ...value, targetObligationIds: [...value.targetObligationIds] },
    });
  }
  if (value.kind === "needs-context") {
    return createBlocker({
      blockerId: settlementBlockerId(settlement.invocationId, "needs-context"),
      frameId,
      kind: "needs-context",
      sourceId: settlement.invocationId,
      targetObligationIds: blockerTargets(value.targetObligationIds),
      details: { ...value, targetObligationIds: [...value.targetObligationIds], missingContext: [...value.missingContext] },
    });
  }
  return null;
}

/** Event 13: the first terminal settlement of the active invocation wins. */
export function settleInvocation(scope: LiveScope, settlement: InvocationSettlement, eventRef: EventRef): void {
  const active = scope.activeInvocation;
  if (active === null) return reject("invocation-not-active", "work scope has no active invocation");
  if (active.invocationId !== settlement.invocationId || active.assignmentId !== settlement.assignmentId) {
    reject("settlement-mismatch", "settlement does not match the active invocation");
  }
  const current = assignmentById(scope, active.assignmentId);
  if (current.status !== "active" || current.invocationId !== active.invocationId) {
    return reject("settlement-mismatch", "active assignment identity is inconsistent");
  }
  if (!subsetOf(settlementTargets(settlement, current.assignment), current.assignment.targetObligationIds)) {
    reject("settlement-mismatch", "settlement targets exceed assignment authority");
  }
  const frame = openFrame(scope, active.frameId);
  const blocker = settlementBlocker(frame, current.assignment, settlement);
  if (blocker !== null) {
    if (frame.blockers.has(blocker.blockerId)) reject("duplicate-identity", `Duplicate blocker: ${blocker.blockerId}`);
    frame.addBlocker(blocker);
  }
  scope.updateAssignment({
    status: "settled",
    assignment: current.assignment,
    basis: current.basis,
    invocationId: active.invocationId,
    settlement,
  });
  scope.addSettlement({ settlement, eventRef });
  scope.setActiveInvocation(null);
}
