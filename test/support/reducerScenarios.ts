// Replay logs re-expressing the developer/v8 §10 runtime-transition, runtime-root and
// runtime-replay cases for the zero-Skill cycle. Each scenario is a plain envelope list so the
// same logs can be replayed by Docket and, while developing, by the reference as an oracle.
import { conclusionSha256 } from "../../server/developer/values/conclusions";
import type { CandidateDescriptor, CandidatePage } from "../../server/developer/values/routing";
import type { EventRef } from "../../server/ledger/envelope";
import { settlementBlockerId } from "../../server/developer/values/blockers";
import { proposalSha256 } from "../../server/developer/values/contributions";
import { createReadySkillAssignment, skillReturnSupportSha256, type InvocationSettlement } from "../../server/developer/values/skills";
import { frameSpec, refOf, ScopeLog, sha, toJson, type FrameSpec } from "./developerLog";
import { canServeBody, capability, disposition, expectedBasis, expectedCoverage, material, pagePayload, snapshot, snapshotPayload, tool } from "./routingLog";

export interface Scenario {
  readonly name: string;
  readonly entries: readonly unknown[];
}

const SCOPE = "scope:s";

function materialSupport(log: ScopeLog, supportId = "support:m") {
  return log.support(supportId, "material", sha("a"));
}

/** Admits one material contribution for every obligation and discharges them; returns discharge ids. */
function settle(log: ScopeLog, spec: FrameSpec, tag: string): string[] {
  const support = materialSupport(log, `support:${tag}`);
  const contributionId = `contribution:${tag}`;
  log.admit(
    spec,
    contributionId,
    { kind: "material", sourceId: `source:${tag}`, sourceRevisionSha256: sha("a") },
    spec.obligations.map((entry) => ({ obligationId: entry.obligationId, useAs: "evidence" as const })),
    { causes: [refOf(support)] },
  );
  return spec.obligations.map((entry, index) => {
    const dischargeId = `discharge:${tag}-${index}`;
    log.discharge(spec, dischargeId, entry.obligationId, [contributionId]);
    return dischargeId;
  });
}

export function zeroSkillCycle(): Scenario {
  const log = new ScopeLog(SCOPE);
  const spec = frameSpec(SCOPE, "frame:f", ["a", "b"]);
  log.openFrame(spec);
  log.conclude(spec, [], { advance: false });
  const support = materialSupport(log);
  const source = { kind: "material" as const, sourceId: "source:m", sourceRevisionSha256: sha("a") };
  const [a, b] = spec.obligations.map((entry) => entry.obligationId) as [string, string];
  log.admit(spec, "contribution:guide", source, [{ obligationId: a, useAs: "method" }], { causes: [refOf(support)] });
  log.discharge(spec, "discharge:a", a, ["contribution:guide"], { advance: false });
  log.admit(spec, "contribution:1", source, [{ obligationId: a, useAs: "evidence" }, { obligationId: b, useAs: "constraint" }], {
    causes: [refOf(support)],
  });
  log.discharge(spec, "discharge:a", a, ["contribution:1"]);
  log.conclude(spec, ["discharge:a"], { advance: false });
  log.discharge(spec, "discharge:b", b, ["contribution:1"]);
  log.conclude(spec, ["discharge:a", "discharge:b"]);
  log.discharge(spec, "discharge:c", b, ["contribution:1"], { advance: false });
  return { name: "zero-skill", entries: log.entries };
}

export function externalAdmissionNeedsSupport(): Scenario {
  const log = new ScopeLog(SCOPE);
  const spec = frameSpec(SCOPE, "frame:f", ["a"]);
  log.openFrame(spec);
  const support = materialSupport(log);
  log.support("support:m", "tool-result", sha("c"), { advance: false });
  const source = { kind: "material" as const, sourceId: "source:m", sourceRevisionSha256: sha("a") };
  const target = [{ obligationId: spec.frame.obligationIds[0] as string, useAs: "evidence" as const }];
  log.admit(spec, "contribution:1", source, target, { advance: false });
  log.admit(spec, "contribution:1", { ...source, kind: "tool-result" }, target, { causes: [refOf(support)], advance: false });
  log.admit(spec, "contribution:1", source, target, { causes: [refOf(support)], expected: sha("d"), advance: false });
  log.admit(spec, "contribution:1", source, target, { causes: [refOf(support)] });
  log.admit(spec, "contribution:1", source, target, { causes: [refOf(support)], advance: false });
  const ids = ["discharge:1"];
  log.discharge(spec, "discharge:1", spec.frame.obligationIds[0] as string, ["contribution:1"]);
  log.conclude(spec, ids);
  return { name: "external-admission", entries: log.entries };
}

export function authorizeLandAndDebts(): Scenario {
  const log = new ScopeLog(SCOPE);
  const spec = frameSpec(SCOPE, "frame:f", ["a"]);
  log.openFrame(spec);
  const ids = settle(log, spec, "f");
  log.authorize(spec, ids, { advance: false });
  const concluded = log.conclude(spec, ids);
  const authorization = log.authorize(spec, ids, { causes: [refOf(concluded)] });
  log.close({ advance: false });
  log.land(authorization.authorizationId, "frame:r", "frame:v", { advance: false });
  const authorized = log.head;
  log.land(authorization.authorizationId, "frame:r", "frame:v", { causes: [refOf(authorized)] });
  const landed = log.head;
  log.authorize(spec, ids, { causes: [refOf(concluded)], authorizationId: "change:2", advance: false });
  const reroute = frameSpec(SCOPE, "frame:r", ["next"]);
  log.openFrame(reroute, { advance: false });
  log.openFrame(reroute, { causes: [refOf(landed)] });
  const rerouteIds = settle(log, reroute, "r");
  log.conclude(reroute, rerouteIds);
  const wrongRoute = frameSpec(SCOPE, "frame:v", ["checked"]);
  log.openFrame(wrongRoute);
  const wrongIds = settle(log, wrongRoute, "w");
  log.conclude(wrongRoute, wrongIds, { causes: [refOf(landed)], advance: false });
  return { name: "authorize-land-debts", entries: log.entries };
}

export function verificationClearsDebt(): Scenario {
  const log = new ScopeLog(SCOPE);
  const spec = frameSpec(SCOPE, "frame:f", ["a"]);
  log.openFrame(spec);
  const ids = settle(log, spec, "f");
  const concluded = log.conclude(spec, ids);
  const authorization = log.authorize(spec, ids, { causes: [refOf(concluded)] });
  log.land(authorization.authorizationId, "frame:r", "frame:v", { causes: [refOf(log.head)] });
  const landed = log.head;
  const verify = frameSpec(SCOPE, "frame:v", ["checked"], { routeDefinitionId: "route:claim-evidence-assessment" });
  log.openFrame(verify);
  const verifyIds = settle(log, verify, "v");
  log.conclude(verify, verifyIds, { advance: false });
  log.conclude(verify, verifyIds, { causes: [refOf(landed)] });
  log.close();
  log.support("support:late", "material", sha("a"), { advance: false });
  return { name: "verification-debt", entries: log.entries };
}

export function childFrames(): Scenario {
  const log = new ScopeLog(SCOPE);
  const parent = frameSpec(SCOPE, "frame:p", ["a", "b"]);
  log.openFrame(parent, { dependency: { blockerId: "blocker:x", targetObligationIds: ["obligation:p-a"], reason: "No." }, advance: false });
  log.openFrame(parent);
  const child = frameSpec(SCOPE, "frame:c", ["x"], { parentFrameId: "frame:p" });
  const [pa, pb] = parent.frame.obligationIds as [string, string];
  log.openFrame(child, { advance: false });
  log.openFrame(child, { dependency: { blockerId: "blocker:child", targetObligationIds: [pb, pa], reason: "Needs C." }, advance: false });
  log.openFrame(child, { dependency: { blockerId: "blocker:child", targetObligationIds: [pb], reason: "Needs C." } });
  const childIds = settle(log, child, "c");
  const childConclusion = log.conclude(child, childIds);
  const childSha = conclusionSha256(log.conclusionProposal(child, childIds));
  log.conclude(parent, [], { advance: false });
  log.resolve("frame:p", "blocker:child", childSha, { advance: false });
  log.admit(parent, "contribution:child", { kind: "child-frame", sourceId: "frame:c", sourceRevisionSha256: childSha }, [{ obligationId: pb, useAs: "evidence" }], {
    causes: [refOf(childConclusion)],
    advance: false,
  });
  log.resolve("frame:p", "blocker:child", childSha, { causes: [refOf(childConclusion)] });
  log.resolve("frame:p", "blocker:child", childSha, { causes: [refOf(childConclusion)], advance: false });
  log.admit(parent, "contribution:child", { kind: "child-frame", sourceId: "frame:c", sourceRevisionSha256: childSha }, [{ obligationId: pb, useAs: "evidence" }], {
    advance: false,
  });
  log.admit(parent, "contribution:child", { kind: "child-frame", sourceId: "frame:c", sourceRevisionSha256: childSha }, [{ obligationId: pb, useAs: "evidence" }], {
    causes: [refOf(childConclusion)],
  });
  return { name: "child-frames", entries: log.entries };
}

export function frameValueRules(): Scenario {
  const log = new ScopeLog(SCOPE);
  const spec = frameSpec(SCOPE, "frame:f", ["a", "b"]);
  log.openFrame({ frame: spec.frame, obligations: [...spec.obligations].reverse() }, { advance: false });
  log.openFrame({ frame: { ...spec.frame, workScopeId: "scope:other" }, obligations: spec.obligations }, { advance: false });
  log.openFrame({ frame: { ...spec.frame, obligationSetSha256: sha("e") }, obligations: spec.obligations }, { advance: false });
  log.add("route-frame-opened", { frame: {}, obligations: [], parentDependency: null }, { advance: false });
  log.openFrame(spec);
  log.openFrame(spec, { advance: false });
  const support = materialSupport(log);
  log.support("support:m", "material", sha("a"), { advance: false });
  const [a] = spec.frame.obligationIds as [string, string];
  const source = { kind: "material" as const, sourceId: "source:m", sourceRevisionSha256: sha("a") };
  log.admit(spec, "contribution:1", source, [{ obligationId: a, useAs: "evidence" }], { causes: [refOf(support)] });
  log.admit(spec, "contribution:2", source, [{ obligationId: a, useAs: "evidence" }], { causes: [refOf(support)] });
  log.discharge(spec, "discharge:a", a, ["contribution:2", "contribution:1"], { advance: false });
  log.discharge(spec, "discharge:a", a, ["contribution:1"], { stopEvidence: [], advance: false });
  log.discharge({ ...spec, frame: { ...spec.frame, frameRevision: 3 } }, "discharge:a", a, ["contribution:1"], { advance: false });
  log.discharge({ ...spec, frame: { ...spec.frame, frameId: "frame:none" } }, "discharge:a", a, ["contribution:1"], { advance: false });
  log.discharge(spec, "discharge:a", "obligation:elsewhere", ["contribution:1"], { advance: false });
  log.discharge(spec, "discharge:a", a, ["contribution:9"], { advance: false });
  log.discharge(spec, "discharge:a", a, ["contribution:1"]);
  log.discharge(spec, "discharge:a2", a, ["contribution:1"], { advance: false });
  log.resolve("frame:f", "blocker:none", support.eventSha256, { causes: [refOf(support)], advance: false });
  log.conclude({ ...spec, frame: { ...spec.frame, frameRevision: 2 } }, ["discharge:a"], { advance: false });
  log.conclude(spec, ["discharge:a"], { blockerSet: sha("f"), advance: false });
  return { name: "frame-value-rules", entries: log.entries };
}

export function closureRules(): Scenario {
  const log = new ScopeLog(SCOPE);
  const spec = frameSpec(SCOPE, "frame:f", ["a"]);
  log.openFrame(spec);
  const ids = settle(log, spec, "f");
  const concluded = log.conclude(spec, ids);
  const stale = log.authorize({ ...spec, frame: { ...spec.frame, frameRevision: 1 } }, ids, { causes: [refOf(concluded)], advance: false });
  void stale;
  log.authorize(spec, ids, { causes: [refOf(concluded)] });
  const authorized = log.head;
  log.close({ advance: false });
  log.land("change:1", "frame:f", "frame:v", { causes: [refOf(authorized)], advance: false });
  log.land("change:1", "frame:r", "frame:v", { causes: [refOf(authorized)] });
  log.close();
  log.openFrame(frameSpec(SCOPE, "frame:r", ["a"]), { advance: false });
  return { name: "closure", entries: log.entries };
}

export const SCENARIOS: readonly (() => Scenario)[] = [
  zeroSkillCycle,
  externalAdmissionNeedsSupport,
  authorizeLandAndDebts,
  verificationClearsDebt,
  childFrames,
  frameValueRules,
  closureRules,
  routingSnapshots,
  canServeBases,
  skillInvocations,
  frameReplacement,
];

export function routingSnapshots(): Scenario {
  const log = new ScopeLog(SCOPE);
  const spec = frameSpec(SCOPE, "frame:f", ["a", "b"]);
  log.openFrame(spec);
  const cap = capability("candidate:cap");
  const bash = tool("candidate:tool");
  const doc = material("candidate:mat");
  const first = snapshot(spec, "snapshot:1", [cap, bash, doc], 2);
  const [page0, page1] = first.pages as [CandidatePage, CandidatePage];
  log.add("routing-snapshot-opened", snapshotPayload(snapshot({ ...spec, frame: { ...spec.frame, frameRevision: 1 } }, "snapshot:x", [cap])), { advance: false });
  log.add("routing-snapshot-opened", toJson({ basis: first.basis, manifest: { ...first.manifest, snapshotBasisSha256: sha("9") }, replacesSnapshotId: null }), { advance: false });
  log.add("routing-snapshot-opened", snapshotPayload(first));
  log.add("routing-snapshot-opened", snapshotPayload(snapshot(spec, "snapshot:again", [cap])), { advance: false });
  log.add("routing-page-accounted", pagePayload(page1, [disposition(spec, doc, "not-applicable", ["cleared", "cleared"])]), { advance: false });
  log.add("routing-page-accounted", pagePayload(page0, [disposition(spec, cap, "selected-for-material", ["selected", "cleared"])]), { advance: false });
  log.add("routing-page-accounted", pagePayload({ ...page0, pageSha256: sha("9") }, []), { advance: false });
  log.add("routing-page-accounted", pagePayload(page0, [disposition(spec, cap, "selected-for-material", ["selected", "cleared"]), disposition(spec, bash, "considered-not-selected", ["cleared", "optional-limitation"])]));
  log.add("routing-coverage-completed", { snapshotId: "snapshot:1", expectedCoverageSha256: sha("9") }, { advance: false });
  // A replacement drops the collecting snapshot and its accounted page; an empty one completes at once.
  const empty = snapshot(spec, "snapshot:2", []);
  log.add("routing-snapshot-opened", snapshotPayload(empty, "snapshot:1"));
  log.add("routing-page-accounted", pagePayload(page1, [disposition(spec, doc, "not-applicable", ["cleared", "cleared"])]), { advance: false });
  log.add("routing-coverage-completed", { snapshotId: "snapshot:2", expectedCoverageSha256: sha("9") }, { advance: false });
  log.add("routing-coverage-completed", { snapshotId: "snapshot:2", expectedCoverageSha256: expectedCoverage(empty, spec, []) });
  log.add("routing-coverage-completed", { snapshotId: "snapshot:2", expectedCoverageSha256: expectedCoverage(empty, spec, []) }, { advance: false });
  log.add("can-serve-basis-created", { snapshotId: "snapshot:2", body: canServeBody("basis:1", "candidate:cap", ["obligation:f-a"]), expectedBasisSha256: sha("9") }, { advance: false });
  log.add("routing-snapshot-opened", snapshotPayload(snapshot(spec, "snapshot:3", [cap])), { advance: false });
  return { name: "routing-snapshots", entries: log.entries };
}

export function canServeBases(): Scenario {
  const log = new ScopeLog(SCOPE);
  const spec = frameSpec(SCOPE, "frame:g", ["a", "b"]);
  const [a, b] = spec.frame.obligationIds as [string, string];
  log.openFrame(spec);
  const cap = capability("candidate:cap");
  const doc = material("candidate:mat");
  const blocked = snapshot(spec, "snapshot:blocked", [cap]);
  log.add("routing-snapshot-opened", snapshotPayload(blocked));
  log.add("routing-page-accounted", pagePayload(blocked.pages[0] as CandidatePage, [disposition(spec, cap, "needs-context", ["blocked", "optional-limitation"])]));
  log.add("routing-coverage-completed", { snapshotId: "snapshot:blocked", expectedCoverageSha256: sha("9") }, { advance: false });
  const value = snapshot(spec, "snapshot:g", [cap, doc]);
  log.add("routing-snapshot-opened", snapshotPayload(value, "snapshot:blocked"));
  const accounted = [
    { candidate: cap, effects: ["selected", "selected"] as const },
    { candidate: doc, effects: ["selected", "cleared"] as const },
  ];
  log.add(
    "routing-page-accounted",
    pagePayload(value.pages[0] as CandidatePage, accounted.map((entry) => disposition(spec, entry.candidate, "selected-for-material", entry.effects))),
  );
  log.add("can-serve-basis-created", { snapshotId: "snapshot:g", body: canServeBody("basis:1", "candidate:cap", [a]), expectedBasisSha256: sha("9") }, { advance: false });
  const coverage = expectedCoverage(value, spec, accounted);
  log.add("routing-coverage-completed", { snapshotId: "snapshot:g", expectedCoverageSha256: coverage });
  const basis = (id: string, candidate: CandidateDescriptor, targets: string[], expected?: string) =>
    log.add(
      "can-serve-basis-created",
      { snapshotId: "snapshot:g", body: canServeBody(id, candidate.candidateId, targets), expectedBasisSha256: expected ?? expectedBasis(value, spec, candidate, id, targets, coverage) },
      { advance: expected === undefined ? undefined : false },
    );
  basis("basis:mat", doc, [a], sha("9"));
  basis("basis:rev", cap, [b, a], sha("9"));
  basis("basis:none", cap, ["obligation:elsewhere"], sha("9"));
  basis("basis:1", cap, [a], sha("9"));
  basis("basis:1", cap, [a, b]);
  log.add("can-serve-basis-created", { snapshotId: "snapshot:g", body: canServeBody("basis:1", "candidate:cap", [a]), expectedBasisSha256: expectedBasis(value, spec, cap, "basis:1", [a], coverage) }, { advance: false });
  log.add("can-serve-basis-created", { snapshotId: "snapshot:g", body: canServeBody("basis:2", "candidate:x", [a]), expectedBasisSha256: sha("9") }, { advance: false });
  return { name: "can-serve-bases", entries: log.entries };
}

/** A frame with completed routing that selected one capability for both obligations, and two bases. */
function routedFrame(log: ScopeLog) {
  const spec = frameSpec(SCOPE, "frame:f", ["a", "b"]);
  const [a, b] = spec.frame.obligationIds as [string, string];
  log.openFrame(spec);
  const cap = capability("candidate:cap");
  const value = snapshot(spec, "snapshot:f", [cap]);
  log.add("routing-snapshot-opened", snapshotPayload(value));
  const effects = ["selected", "selected"] as const;
  log.add("routing-page-accounted", pagePayload(value.pages[0] as CandidatePage, [disposition(spec, cap, "selected-for-material", effects)]));
  const coverage = expectedCoverage(value, spec, [{ candidate: cap, effects }]);
  log.add("routing-coverage-completed", { snapshotId: "snapshot:f", expectedCoverageSha256: coverage });
  const basisAb = expectedBasis(value, spec, cap, "basis:ab", [a, b], coverage);
  log.add("can-serve-basis-created", { snapshotId: "snapshot:f", body: canServeBody("basis:ab", "candidate:cap", [a, b]), expectedBasisSha256: basisAb });
  const basisA = expectedBasis(value, spec, cap, "basis:a", [a], coverage);
  log.add("can-serve-basis-created", { snapshotId: "snapshot:f", body: canServeBody("basis:a", "candidate:cap", [a]), expectedBasisSha256: basisA });
  const assignment = (assignmentId: string, targets: readonly string[], basisSha256: string, context = coverage) =>
    toJson(
      createReadySkillAssignment({
        assignmentId,
        skillCapabilityId: cap.subjectId,
        skillRevisionSha256: cap.subjectRevisionSha256,
        parentFrameId: spec.frame.frameId,
        parentFrameRevision: 0,
        targetObligationIds: targets,
        subquestion: "What settles the targets?",
        applicabilityBasisSha256: basisSha256,
        expectedContribution: "A claim about the targets.",
        limitations: ["Only this frame."],
        returnContract: "developer-skill-return/v1",
        contextBasisSha256: context,
        authority: "contribution-only",
      }),
    );
  return { spec, a, b, basisAb, basisA, assignment };
}

export function skillInvocations(): Scenario {
  const log = new ScopeLog(SCOPE);
  const { spec, a, b, basisAb, basisA, assignment } = routedFrame(log);
  const record = (id: string, targets: string[], basisId: string, basisSha256: string, options: { advance?: boolean; context?: string } = {}) =>
    log.add("ready-assignment-recorded", toJson({ assignment: assignment(id, targets, basisSha256, options.context), basisId }), { advance: options.advance });
  const start = (invocationId: string, assignmentId: string, advance?: boolean) =>
    log.add("skill-invocation-started", { invocationId, assignmentId }, { advance });
  const settle = (settlement: InvocationSettlement, advance?: boolean) => log.add("invocation-settled", toJson({ settlement }), { advance });
  record("assignment:1", [a, b], "basis:none", basisAb, { advance: false });
  record("assignment:1", [a, b], "basis:ab", basisAb);
  record("assignment:x", [a, b], "basis:ab", basisAb, { context: sha("9"), advance: false });
  record("assignment:1", [a, b], "basis:ab", basisAb, { advance: false });
  record("assignment:y", [a], "basis:ab", basisAb, { advance: false });
  record("assignment:2", [a], "basis:a", basisA);
  start("invocation:1", "assignment:1");
  start("invocation:2", "assignment:2", false);
  log.conclude(spec, [], { advance: false });
  log.close({ advance: false });
  settle({ kind: "returned", invocationId: "invocation:9", assignmentId: "assignment:1", value: { kind: "abort", reason: "No." } }, false);
  const dependency: InvocationSettlement = {
    kind: "returned",
    invocationId: "invocation:1",
    assignmentId: "assignment:1",
    value: { kind: "dependency", dependencyId: "dependency:1", targetObligationIds: [b], question: "What is B?", reason: "B first." },
  };
  const dependencySettled = settle(dependency);
  settle(dependency, false);
  const dependencyBlocker = settlementBlockerId("invocation:1", "dependency");
  log.resolve("frame:f", dependencyBlocker, skillReturnSupportSha256(dependency), { advance: false });
  log.resolve("frame:f", dependencyBlocker, skillReturnSupportSha256(dependency), { causes: [refOf(dependencySettled)] });
  start("invocation:2", "assignment:2");
  log.discharge(spec, "discharge:a", a, ["contribution:skill"], { advance: false });
  const returned: InvocationSettlement = {
    kind: "returned",
    invocationId: "invocation:2",
    assignmentId: "assignment:2",
    value: { kind: "contribution", claim: "A holds.", applicability: "Applies to f.", targetUses: [{ obligationId: a, useAs: "evidence" }], limitations: ["Only A."] },
  };
  const returnedSettled = settle(returned);
  const support = skillReturnSupportSha256(returned);
  const admitSkill = (claim: string, causes: EventRef[], advance?: boolean) =>
    log.add(
      "frame-contribution-admitted",
      (() => {
        const proposal = {
          proposalId: "proposal:skill",
          frameId: "frame:f",
          frameRevision: 0,
          source: { kind: "skill-return", sourceId: "invocation:2", sourceRevisionSha256: support },
          claim,
          applicability: "Applies to f.",
          targetUses: [{ obligationId: a, useAs: "evidence" }],
          limitations: ["Only A."],
          supportSha256: support,
        } as const;
        return toJson({ proposal, expectedProposalSha256: proposalSha256(proposal), contributionId: "contribution:skill", admissionBasisSha256: sha("b") });
      })(),
      { causes, advance },
    );
  admitSkill("A holds.", [], false);
  admitSkill("A holds forever.", [refOf(returnedSettled)], false);
  admitSkill("A holds.", [refOf(returnedSettled)]);
  start("invocation:3", "assignment:1", false);
  record("assignment:3", [a, b], "basis:ab", basisAb);
  start("invocation:1", "assignment:3", false);
  start("invocation:3", "assignment:3");
  const failed: InvocationSettlement = { kind: "capability-failed", invocationId: "invocation:3", assignmentId: "assignment:3", failure: { kind: "timeout", timeoutMs: 5 } };
  const failedSettled = settle(failed);
  log.discharge(spec, "discharge:a", a, ["contribution:skill"], { advance: false });
  log.resolve("frame:f", settlementBlockerId("invocation:3", "capability-failure"), failedSettled.eventSha256, { causes: [refOf(failedSettled)] });
  record("assignment:4", [a, b], "basis:ab", basisAb);
  start("invocation:4", "assignment:4");
  settle({ kind: "lifecycle", invocationId: "invocation:4", assignmentId: "assignment:4", lifecycle: { kind: "cancelled", reason: "Stopped.", executionUncertain: true } });
  log.discharge(spec, "discharge:a", a, ["contribution:skill"]);
  return { name: "skill-invocations", entries: log.entries };
}

export function frameReplacement(): Scenario {
  const log = new ScopeLog(SCOPE);
  const { spec, a, b, basisA, assignment } = routedFrame(log);
  log.add("ready-assignment-recorded", toJson({ assignment: assignment("assignment:1", [a], basisA), basisId: "basis:a" }));
  const support = materialSupport(log);
  const source = { kind: "material" as const, sourceId: "source:m", sourceRevisionSha256: sha("a") };
  log.admit(spec, "contribution:1", source, [{ obligationId: a, useAs: "evidence" }], { causes: [refOf(support)] });
  const child = frameSpec(SCOPE, "frame:c", ["x"], { parentFrameId: "frame:f" });
  log.openFrame(child, { dependency: { blockerId: "blocker:child", targetObligationIds: [b], reason: "Needs C." } });
  const revised = frameSpec(SCOPE, "frame:f", ["a", "b", "c"], { frameRevision: 1 });
  log.add("route-frame-replaced", toJson({ frame: revised.frame, obligations: revised.obligations }), { advance: false });
  const childIds = settle(log, child, "c");
  log.conclude(child, childIds);
  log.add("route-frame-replaced", toJson({ frame: { ...revised.frame, frameRevision: 0 }, obligations: revised.obligations }), { advance: false });
  log.add("route-frame-replaced", toJson({ frame: revised.frame, obligations: [...revised.obligations].reverse() }), { advance: false });
  log.add("route-frame-replaced", toJson({ frame: { ...revised.frame, parentFrameId: "frame:c" }, obligations: revised.obligations }), { advance: false });
  log.add("skill-invocation-started", { invocationId: "invocation:1", assignmentId: "assignment:1" });
  log.add("route-frame-replaced", toJson({ frame: revised.frame, obligations: revised.obligations }), { advance: false });
  const cancelled: InvocationSettlement = {
    kind: "lifecycle",
    invocationId: "invocation:1",
    assignmentId: "assignment:1",
    lifecycle: { kind: "cancelled", reason: "Replanning.", executionUncertain: false },
  };
  const settled = log.add("invocation-settled", toJson({ settlement: cancelled }));
  log.add("route-frame-replaced", toJson({ frame: revised.frame, obligations: revised.obligations }));
  log.add("route-frame-replaced", toJson({ frame: { ...revised.frame, frameId: "frame:none" }, obligations: revised.obligations }), { advance: false });
  log.add("skill-invocation-started", { invocationId: "invocation:2", assignmentId: "assignment:1" }, { advance: false });
  log.add("ready-assignment-recorded", toJson({ assignment: assignment("assignment:2", [a], basisA), basisId: "basis:a" }), { advance: false });
  log.admit(spec, "contribution:2", source, [{ obligationId: a, useAs: "evidence" }], { causes: [refOf(support)], advance: false });
  log.discharge(revised, "discharge:a", a, ["contribution:1"], { advance: false });
  const supportSha = skillReturnSupportSha256(cancelled);
  const proposal = {
    proposalId: "proposal:skill",
    frameId: "frame:f",
    frameRevision: 1,
    source: { kind: "skill-return", sourceId: "invocation:1", sourceRevisionSha256: supportSha },
    claim: "A holds.",
    applicability: "Applies to f.",
    targetUses: [{ obligationId: a, useAs: "evidence" }],
    limitations: [],
    supportSha256: supportSha,
  } as const;
  log.add(
    "frame-contribution-admitted",
    toJson({ proposal, expectedProposalSha256: proposalSha256(proposal), contributionId: "contribution:skill", admissionBasisSha256: sha("b") }),
    { causes: [refOf(settled)], advance: false },
  );
  log.add("routing-snapshot-opened", snapshotPayload(snapshot(revised, "snapshot:f", [capability("candidate:cap")])));
  const ids = settle(log, revised, "r");
  log.conclude(revised, ids);
  return { name: "frame-replacement", entries: log.entries };
}
