// Builders for routing payloads (§4.3–§4.4): descriptors, paged snapshots with their seal,
// dispositions that name every frame obligation, and the coverage/basis hashes to expect.
import type { JsonValue } from "../../server/ledger/canonicalJson";
import {
  canServeBasisSha256,
  coverageSha256,
  createCandidateDescriptor,
  createCandidatePages,
  createSnapshotBasis,
  createSnapshotManifest,
  type CandidateDescriptor,
  type CandidatePage,
  type DispositionKind,
  type SnapshotBasis,
  type SnapshotManifest,
  type TargetEffectKind,
  type TargetSummary,
} from "../../server/developer/values/routing";
import type { FrameSpec } from "./developerLog";
import { sha, toJson } from "./developerLog";

const SOURCE = { sourceId: "source:registry", revision: "r1" };

export function capability(candidateId: string, subjectId = "skill:model"): CandidateDescriptor {
  return createCandidateDescriptor({ candidateId, kind: "capability", source: SOURCE, subjectId, subjectRevisionSha256: sha("1"), registryRevisionSha256: sha("2") });
}

export function tool(candidateId: string): CandidateDescriptor {
  return createCandidateDescriptor({ candidateId, kind: "tool", source: SOURCE, subjectId: "tool:bash", subjectRevisionSha256: sha("1"), schemaSha256: sha("3") });
}

export function material(candidateId: string): CandidateDescriptor {
  return createCandidateDescriptor({ candidateId, kind: "material", source: SOURCE, subjectId: "material:m", subjectRevisionSha256: sha("1"), contentDescriptorSha256: sha("4") });
}

export interface Snapshot {
  readonly snapshotId: string;
  readonly basis: SnapshotBasis;
  readonly manifest: SnapshotManifest;
  readonly pages: readonly CandidatePage[];
}

export function snapshot(spec: FrameSpec, snapshotId: string, candidates: readonly CandidateDescriptor[], pageSize = 100): Snapshot {
  const basis = createSnapshotBasis({
    frameId: spec.frame.frameId,
    frameRevision: spec.frame.frameRevision,
    obligationSetSha256: spec.frame.obligationSetSha256,
    admittedUniverseSha256: sha("5"),
    providerSourceRevisions: [{ sourceId: "source:registry", revision: "r1" }],
    priorityStrategySha256: sha("6"),
  });
  const pages = createCandidatePages(snapshotId, candidates, pageSize);
  return { snapshotId, basis, manifest: createSnapshotManifest(snapshotId, basis, pages), pages };
}

export function snapshotPayload(value: Snapshot, replacesSnapshotId: string | null = null): JsonValue {
  return toJson({ basis: value.basis, manifest: value.manifest, replacesSnapshotId });
}

/** One disposition per candidate; `effects` gives each obligation's effect in obligation order. */
export function disposition(spec: FrameSpec, candidate: CandidateDescriptor, kind: DispositionKind, effects: readonly TargetEffectKind[]): JsonValue {
  return toJson({
    candidateId: candidate.candidateId,
    descriptorSha256: candidate.descriptorSha256,
    kind,
    targetEffects: spec.frame.obligationIds.map((obligationId, index) => ({ obligationId, effect: effects[index] ?? "cleared" })),
    rationale: "Considered for this frame.",
  });
}

export function pagePayload(page: CandidatePage, dispositions: readonly JsonValue[]): JsonValue {
  return toJson({ page, dispositions });
}

/** The coverage hash of a snapshot whose candidates got the given (selected?, per-obligation) effects. */
export function expectedCoverage(value: Snapshot, spec: FrameSpec, accounted: readonly { candidate: CandidateDescriptor; effects: readonly TargetEffectKind[] }[]): string {
  const summaries: TargetSummary[] = spec.frame.obligationIds.map((obligationId, index) => {
    const count = (effect: TargetEffectKind): number => accounted.filter((entry) => entry.effects[index] === effect).length;
    return { obligationId, selectedCount: count("selected"), clearedCount: count("cleared"), blockedCount: count("blocked"), optionalLimitationCount: count("optional-limitation") };
  });
  const selected = accounted.filter((entry) => entry.effects.includes("selected")).map((entry) => entry.candidate);
  return coverageSha256(value.manifest, selected, summaries);
}

export function canServeBody(basisId: string, candidateId: string, targetObligationIds: readonly string[]): JsonValue {
  return toJson({ basisId, candidateId, targetObligationIds, methodRevisionSha256: sha("7"), policy: { kind: "absent" }, rootApplicability: "applicable" });
}

export function expectedBasis(value: Snapshot, spec: FrameSpec, candidate: CandidateDescriptor, basisId: string, targets: readonly string[], coverage: string): string {
  return canServeBasisSha256({
    basisId,
    candidateId: candidate.candidateId,
    targetObligationIds: targets,
    methodRevisionSha256: sha("7"),
    policy: { kind: "absent" },
    rootApplicability: "applicable",
    snapshotId: value.snapshotId,
    frameId: spec.frame.frameId,
    frameRevision: spec.frame.frameRevision,
    capabilityId: candidate.subjectId,
    capabilityRevisionSha256: candidate.subjectRevisionSha256,
    descriptorSha256: candidate.descriptorSha256,
    contextBasisSha256: coverage,
  });
}
