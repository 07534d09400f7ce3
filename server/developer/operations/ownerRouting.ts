// The owner path of open_judgment (§3.3 a, §4.5): when the caller names an owning bundled skill,
// every available bundled skill becomes a capability candidate of one routing snapshot, the
// owner is selected for material on its targets and the others are considered and cleared, and
// the owner is assigned and invoked. Six event kinds follow `route-frame-opened`, in this order:
// snapshot, pages, coverage, can-serve basis, ready assignment, invocation start.
import { compareCodeUnits, hashValue } from "../../ledger/canonicalJson";
import { DocketError } from "../../errors";
import { ErrorCodes } from "../../protocol/messages";
import { ADAPTER_REVISION_SHA256 } from "../adapterRevision";
import { skillCapabilityId } from "../bundledSkills";
import type { Obligation } from "../values/obligations";
import type { RouteFrame } from "../values/routeFrame";
import {
  coverageSha256,
  createCandidateDescriptor,
  createCandidatePages,
  createCanServeBasis,
  createSnapshotBasis,
  createSnapshotManifest,
  parseCandidateDisposition,
  type CandidateDescriptor,
  type CandidateDisposition,
  type CanServeBasisBody,
  type SkillPolicyRevision,
  type TargetSummary,
} from "../values/routing";
import { ASSIGNMENT_AUTHORITY, createReadySkillAssignment, SKILL_RETURN_CONTRACT, type ReadySkillAssignment } from "../values/skills";
import type { BatchChain } from "./common";
import { toJsonPayload } from "./json";
import { findSkill, skillMetadataRevision, type BundledSkill, type SkillCatalog } from "./skillCatalog";

export const ADMITTED_UNIVERSE_DOMAIN = "developer/v8/adapter-admitted-universe";
export const MAX_OWNER_LIMITATIONS = 32;

export interface OwnerSkillInput {
  readonly skillName: string;
  /** Default: every frame obligation. Any order; duplicates and unknown ids are refused. */
  readonly targetObligationIds?: readonly string[];
  readonly subquestion: string;
  readonly expectedContribution: string;
  readonly limitations?: readonly string[];
}

export interface OwnerRoutingIds {
  readonly snapshotId: string;
  readonly basisId: string;
  readonly assignmentId: string;
  readonly invocationId: string;
}

export interface OwnerRouting {
  readonly descriptors: readonly CandidateDescriptor[];
  readonly coverageSha256: string;
  readonly assignment: ReadySkillAssignment;
  readonly invocationId: string;
}

/** The owner must be an available bundled skill; anything else is context material at most. */
export function requireOwnerSkill(catalog: SkillCatalog, skillName: string): BundledSkill {
  const skill = findSkill(catalog, skillName);
  if (skill === undefined) {
    throw new DocketError(
      ErrorCodes.unknownSkill,
      `${skillName} is not an available bundled skill; owners are one of: ${catalog.skills.map((entry) => entry.name).join(", ")}.`,
    );
  }
  return skill;
}

function ownerTargets(input: OwnerSkillInput, obligations: readonly Obligation[]): string[] {
  const known = obligations.map((entry) => entry.obligationId);
  const requested = input.targetObligationIds ?? known;
  if (requested.length === 0) throw new DocketError(ErrorCodes.invalidParams, "The owner needs at least one target obligation.");
  if (new Set(requested).size !== requested.length) throw new DocketError(ErrorCodes.invalidParams, "The owner's target obligations repeat an id.");
  const unknown = requested.filter((id) => !known.includes(id));
  if (unknown.length > 0) throw new DocketError(ErrorCodes.invalidParams, `The owner targets obligations the frame does not have: ${unknown.join(", ")}.`);
  return [...requested].sort(compareCodeUnits);
}

/** §4.5 candidate revision: the owner's method content, the others' metadata. */
export function candidateRevision(skill: BundledSkill, owner: BundledSkill): string {
  return skill.name === owner.name ? skill.methodContentSha256 : skillMetadataRevision(skill);
}

export function skillCandidateDescriptors(catalog: SkillCatalog, owner: BundledSkill): CandidateDescriptor[] {
  return [...catalog.skills]
    .sort((left, right) => compareCodeUnits(skillCapabilityId(left.name), skillCapabilityId(right.name)))
    .map((skill) => {
      const capabilityId = skillCapabilityId(skill.name);
      const revision = candidateRevision(skill, owner);
      return createCandidateDescriptor({
        candidateId: `candidate:${capabilityId}`,
        kind: "capability",
        source: { sourceId: `source:${capabilityId}`, revision },
        subjectId: capabilityId,
        subjectRevisionSha256: revision,
        registryRevisionSha256: ADAPTER_REVISION_SHA256,
      });
    });
}

/**
 * Appends the six owner event kinds to `chain`, right after the frame was opened in it. The
 * coverage hash is computed here the way the reducer will recompute it at preflight.
 */
export function appendOwnerRouting(
  chain: BatchChain,
  frame: RouteFrame,
  obligations: readonly Obligation[],
  catalog: SkillCatalog,
  owner: BundledSkill,
  input: OwnerSkillInput,
  ids: OwnerRoutingIds,
): OwnerRouting {
  const limitations = input.limitations ?? [];
  if (limitations.length > MAX_OWNER_LIMITATIONS) throw new DocketError(ErrorCodes.invalidParams, `The owner takes at most ${MAX_OWNER_LIMITATIONS} limitations.`);
  if (new Set(limitations).size !== limitations.length) throw new DocketError(ErrorCodes.invalidParams, "The owner's limitations repeat an entry.");
  const targets = ownerTargets(input, obligations);
  const ownerCapabilityId = skillCapabilityId(owner.name);
  const descriptors = skillCandidateDescriptors(catalog, owner);
  const wire = descriptors.map((descriptor) => toJsonPayload(descriptor));
  const basis = createSnapshotBasis({
    frameId: frame.frameId,
    frameRevision: frame.frameRevision,
    obligationSetSha256: frame.obligationSetSha256,
    admittedUniverseSha256: hashValue({ domain: ADMITTED_UNIVERSE_DOMAIN, descriptors: wire }),
    providerSourceRevisions: descriptors.map((descriptor) => ({ sourceId: descriptor.source.sourceId, revision: descriptor.source.revision })),
    priorityStrategySha256: ADAPTER_REVISION_SHA256,
  });
  const pages = createCandidatePages(ids.snapshotId, descriptors);
  const manifest = createSnapshotManifest(ids.snapshotId, basis, pages);
  chain.add("routing-snapshot-opened", toJsonPayload({ basis, manifest, replacesSnapshotId: null }));

  const summaries: TargetSummary[] = obligations.map((obligation) => ({
    obligationId: obligation.obligationId,
    selectedCount: 0,
    clearedCount: 0,
    blockedCount: 0,
    optionalLimitationCount: 0,
  }));
  let ownerDescriptor: CandidateDescriptor | undefined;
  for (const page of pages) {
    const dispositions: CandidateDisposition[] = page.candidates.map((descriptor) => {
      const isOwner = descriptor.subjectId === ownerCapabilityId;
      if (isOwner) ownerDescriptor = descriptor;
      return parseCandidateDisposition({
        candidateId: descriptor.candidateId,
        descriptorSha256: descriptor.descriptorSha256,
        kind: isOwner ? "selected-for-material" : "considered-not-selected",
        targetEffects: obligations.map((obligation, index) => {
          const selected = isOwner && targets.includes(obligation.obligationId);
          const summary = summaries[index];
          if (summary !== undefined) {
            summaries[index] = selected ? { ...summary, selectedCount: summary.selectedCount + 1 } : { ...summary, clearedCount: summary.clearedCount + 1 };
          }
          return { obligationId: obligation.obligationId, effect: selected ? "selected" : "cleared" };
        }),
        rationale: isOwner ? "Named as this frame's owning skill, so it is selected on its targets." : "Considered for this frame; not the named owner.",
      });
    });
    chain.add("routing-page-accounted", toJsonPayload({ page, dispositions }));
  }
  if (ownerDescriptor === undefined) throw new DocketError(ErrorCodes.internal, `The owner ${owner.name} is missing from its own routing snapshot.`);
  const completedSha256 = coverageSha256(manifest, [{ candidateId: ownerDescriptor.candidateId, descriptorSha256: ownerDescriptor.descriptorSha256 }], summaries);
  chain.add("routing-coverage-completed", { snapshotId: ids.snapshotId, expectedCoverageSha256: completedSha256 });

  const policy: SkillPolicyRevision = owner.policy === null ? { kind: "absent" } : { kind: "complete", revisionSha256: owner.policy.policySha256 };
  const body: CanServeBasisBody = {
    basisId: ids.basisId,
    candidateId: ownerDescriptor.candidateId,
    targetObligationIds: targets,
    methodRevisionSha256: owner.methodContentSha256,
    policy,
    rootApplicability: "applicable",
  };
  const canServe = createCanServeBasis(body, {
    snapshotId: ids.snapshotId,
    frameId: frame.frameId,
    frameRevision: frame.frameRevision,
    capabilityId: ownerCapabilityId,
    capabilityRevisionSha256: ownerDescriptor.subjectRevisionSha256,
    descriptorSha256: ownerDescriptor.descriptorSha256,
    contextBasisSha256: completedSha256,
  });
  chain.add("can-serve-basis-created", toJsonPayload({ snapshotId: ids.snapshotId, body, expectedBasisSha256: canServe.basisSha256 }));

  const assignment = createReadySkillAssignment({
    assignmentId: ids.assignmentId,
    skillCapabilityId: canServe.capabilityId,
    skillRevisionSha256: canServe.capabilityRevisionSha256,
    parentFrameId: frame.frameId,
    parentFrameRevision: frame.frameRevision,
    targetObligationIds: targets,
    subquestion: input.subquestion,
    applicabilityBasisSha256: canServe.basisSha256,
    expectedContribution: input.expectedContribution,
    limitations,
    returnContract: SKILL_RETURN_CONTRACT,
    contextBasisSha256: completedSha256,
    authority: ASSIGNMENT_AUTHORITY,
  });
  chain.add("ready-assignment-recorded", toJsonPayload({ assignment, basisId: ids.basisId }));
  chain.add("skill-invocation-started", { invocationId: ids.invocationId, assignmentId: assignment.assignmentId });
  return { descriptors, coverageSha256: completedSha256, assignment, invocationId: ids.invocationId };
}
