// Generates valid developer/v8 logs of full work cycles, for scale tests and the replay bench.
// One cycle routes a frame to a Skill (snapshot, page, coverage, can-serve basis, assignment,
// invocation, settlement), admits the Skill's contribution and an observed material support,
// discharges both obligations, concludes, authorizes a change and records its landing. From the
// second cycle on, the frame is the previous landing's reroute frame, and a verification frame
// pays the previous verification debt, so every kind of scope-wide record keeps growing with the
// scope: frames, supports, snapshots, bases, assignments, settlements, authorizations, landings, debts.
import type { Envelope, EventRef } from "../../server/ledger/envelope";
import { DEVELOPER_STREAM, encodeLedgerLine } from "../../server/ledger/ledgerLine";
import { createAuthorization } from "../../server/developer/values/authorization";
import { conclusionSha256, type ConclusionProposal } from "../../server/developer/values/conclusions";
import { proposalSha256, type ProposalBody } from "../../server/developer/values/contributions";
import { createLanding } from "../../server/developer/values/landing";
import type { CandidatePage } from "../../server/developer/values/routing";
import { createReadySkillAssignment, skillReturnSupportSha256, type InvocationSettlement } from "../../server/developer/values/skills";
import { EMPTY_BLOCKER_SET_SHA256 } from "../../server/developer/values/blockers";
import { frameSpec, refOf, ScopeLog, sha, toJson, type FrameSpec } from "./developerLog";
import { canServeBody, capability, disposition, expectedBasis, expectedCoverage, pagePayload, snapshot, snapshotPayload } from "./routingLog";

const VERIFICATION_ROUTE = "route:claim-evidence-assessment";

function conclusion(spec: FrameSpec, dischargeIds: readonly string[]): ConclusionProposal {
  return {
    frameId: spec.frame.frameId,
    expectedFrameRevision: spec.frame.frameRevision,
    dischargeIds,
    stopEvidence: ["Every obligation is settled."],
    expectedBlockerSetSha256: EMPTY_BLOCKER_SET_SHA256,
    conclusion: "The question is settled.",
  };
}

/** Observes a material support and admits it for the given obligations; returns the contribution id. */
function admitMaterial(log: ScopeLog, spec: FrameSpec, tag: string, obligationIds: readonly string[]): string {
  const supportId = `support:${tag}`;
  const revision = sha("a");
  const support = log.support(supportId, "material", revision);
  const contributionId = `contribution:${tag}-material`;
  log.admit(
    spec,
    contributionId,
    { kind: "material", sourceId: `source:${tag}`, sourceRevisionSha256: revision },
    obligationIds.map((obligationId) => ({ obligationId, useAs: "evidence" as const })),
    { causes: [refOf(support)] },
  );
  return contributionId;
}

/** Routes the frame to one capability and returns the contribution its invocation returned for `target`. */
function skillContribution(log: ScopeLog, spec: FrameSpec, tag: string, target: string): string {
  const cap = capability("candidate:cap");
  const value = snapshot(spec, `snapshot:${tag}`, [cap]);
  log.add("routing-snapshot-opened", snapshotPayload(value));
  const effects = spec.frame.obligationIds.map((id) => (id === target ? "selected" : "cleared") as "selected" | "cleared");
  log.add("routing-page-accounted", pagePayload(value.pages[0] as CandidatePage, [disposition(spec, cap, "selected-for-material", effects)]));
  const coverage = expectedCoverage(value, spec, [{ candidate: cap, effects }]);
  log.add("routing-coverage-completed", { snapshotId: value.snapshotId, expectedCoverageSha256: coverage });
  const basisId = `basis:${tag}`;
  const basisSha256 = expectedBasis(value, spec, cap, basisId, [target], coverage);
  log.add("can-serve-basis-created", { snapshotId: value.snapshotId, body: canServeBody(basisId, cap.candidateId, [target]), expectedBasisSha256: basisSha256 });
  const assignmentId = `assignment:${tag}`;
  const assignment = createReadySkillAssignment({
    assignmentId,
    skillCapabilityId: cap.subjectId,
    skillRevisionSha256: cap.subjectRevisionSha256,
    parentFrameId: spec.frame.frameId,
    parentFrameRevision: spec.frame.frameRevision,
    targetObligationIds: [target],
    subquestion: "What settles the target?",
    applicabilityBasisSha256: basisSha256,
    expectedContribution: "A claim about the target.",
    limitations: ["Only this frame."],
    returnContract: "developer-skill-return/v1",
    contextBasisSha256: coverage,
    authority: "contribution-only",
  });
  log.add("ready-assignment-recorded", toJson({ assignment, basisId }));
  const invocationId = `invocation:${tag}`;
  log.add("skill-invocation-started", { invocationId, assignmentId });
  const settlement: InvocationSettlement = {
    kind: "returned",
    invocationId,
    assignmentId,
    value: { kind: "contribution", claim: "The target holds.", applicability: "Applies here.", targetUses: [{ obligationId: target, useAs: "evidence" }], limitations: ["Only here."] },
  };
  const settled = log.add("invocation-settled", toJson({ settlement }));
  const support = skillReturnSupportSha256(settlement);
  const proposal: ProposalBody = {
    proposalId: `proposal:${tag}-skill`,
    frameId: spec.frame.frameId,
    frameRevision: spec.frame.frameRevision,
    source: { kind: "skill-return", sourceId: invocationId, sourceRevisionSha256: support },
    claim: "The target holds.",
    applicability: "Applies here.",
    targetUses: [{ obligationId: target, useAs: "evidence" }],
    limitations: ["Only here."],
    supportSha256: support,
  };
  const contributionId = `contribution:${tag}-skill`;
  log.add(
    "frame-contribution-admitted",
    toJson({ proposal, expectedProposalSha256: proposalSha256(proposal), contributionId, admissionBasisSha256: sha("b") }),
    { causes: [refOf(settled)] },
  );
  return contributionId;
}

/** Opens a frame (citing `causes`), settles each obligation and concludes; returns the conclusion event. */
function settledFrame(
  log: ScopeLog,
  spec: FrameSpec,
  tag: string,
  options: { skill: boolean; openedSources: number; causes: EventRef[]; concludeCauses: EventRef[] },
): Envelope {
  log.openFrame(spec, { causes: options.causes });
  // Context sources opened while judging: scope-wide supports nothing cites yet.
  for (let source = 0; source < options.openedSources; source += 1) log.support(`support:${tag}-opened-${source}`, "material", sha("c"));
  const [first, ...rest] = spec.frame.obligationIds as [string, ...string[]];
  const dischargeIds: string[] = [];
  if (options.skill) {
    const contributionId = skillContribution(log, spec, tag, first);
    log.discharge(spec, `discharge:${tag}-0`, first, [contributionId]);
    dischargeIds.push(`discharge:${tag}-0`);
  }
  const materialTargets = options.skill ? rest : [first, ...rest];
  const contributionId = admitMaterial(log, spec, tag, materialTargets);
  materialTargets.forEach((obligationId) => {
    const dischargeId = `discharge:${tag}-${spec.frame.obligationIds.indexOf(obligationId)}`;
    log.discharge(spec, dischargeId, obligationId, [contributionId]);
    dischargeIds.push(dischargeId);
  });
  dischargeIds.sort();
  return log.add("route-frame-concluded", toJson({ proposal: conclusion(spec, dischargeIds) }), { causes: options.concludeCauses });
}

/**
 * Appends full cycles to one scope. The first cycle's frame needs no landing; each later one is
 * the reroute frame of the previous landing, and the previous verification frame is settled too.
 */
export class CycleWriter {
  private landing: Envelope | null = null;
  private cycle = 0;

  /** `openedSources`: material sources each frame opens as context (one support-observed each). */
  constructor(
    readonly log: ScopeLog,
    private readonly openedSources = 4,
  ) {}

  appendCycle(): void {
    const log = this.log;
    const cycle = this.cycle;
    this.cycle += 1;
    const tag = `${cycle}`;
    const spec = frameSpec(log.workScopeId, `frame:${tag}`, ["a", "b"]);
    const landed: EventRef[] = this.landing === null ? [] : [refOf(this.landing)];
    const concluded = settledFrame(log, spec, tag, { skill: true, openedSources: this.openedSources, causes: landed, concludeCauses: [] });
    if (this.landing !== null) {
      const verification = frameSpec(log.workScopeId, `frame:v${cycle - 1}`, ["v"], { routeDefinitionId: VERIFICATION_ROUTE });
      settledFrame(log, verification, `v${cycle - 1}`, { skill: false, openedSources: this.openedSources, causes: [], concludeCauses: landed });
    }
    const authorization = createAuthorization({
      authorizationId: `change:${tag}`,
      frameId: spec.frame.frameId,
      frameRevision: spec.frame.frameRevision,
      conclusionSha256: conclusionSha256(conclusion(spec, [`discharge:${tag}-0`, `discharge:${tag}-1`])),
      movement: "Move the code.",
      stableLanding: "The code lands.",
      verificationTarget: "Tests pass.",
      boundary: null,
    });
    const authorized = log.add("change-authorized", toJson({ authorization }), { causes: [refOf(concluded)] });
    const recorded = createLanding({
      landingId: `landing:${tag}`,
      authorizationId: authorization.authorizationId,
      changedPaths: [`src/file-${tag}.ts`],
      result: "Landed.",
      verification: ["npm test"],
      rerouteFrameId: `frame:${cycle + 1}`,
      verificationFrameId: `frame:v${cycle}`,
    });
    this.landing = log.add("implementation-landing-recorded", toJson({ landing: recorded }), { causes: [refOf(authorized)] });
  }
}

/** One scope of at least `events` accepted events: opened, then full cycles. */
export function longScopeEntries(workScopeId: string, events: number, openedSources?: number): Envelope[] {
  const writer = new CycleWriter(new ScopeLog(workScopeId), openedSources);
  while (writer.log.entries.length < events) writer.appendCycle();
  return writer.log.entries as Envelope[];
}

/** A ledger of realistic short scopes of 20 events: each opened, one full cycle, and closed. */
export function cycleScopesEntries(scopes: number): Envelope[] {
  const entries: Envelope[] = [];
  for (let index = 0; index < scopes; index += 1) {
    const log = new ScopeLog(`scope:cycle-${index.toString(36).padStart(5, "0")}`);
    new CycleWriter(log, 2).appendCycle();
    log.close();
    entries.push(...(log.entries as Envelope[]));
  }
  return entries;
}

/** Ledger lines (with newlines) wrapping the entries, as `.docket/ledger.jsonl` holds them. */
export function ledgerLines(entries: readonly unknown[]): string[] {
  const lines: string[] = [];
  let previous: string | null = null;
  entries.forEach((entry, index) => {
    const encoded = encodeLedgerLine(index, previous, DEVELOPER_STREAM, entry);
    lines.push(encoded.text);
    previous = encoded.lineSha256;
  });
  return lines;
}
