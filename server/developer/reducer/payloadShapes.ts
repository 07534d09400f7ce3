// Payload shapes parsed only as strictly as the reference parses them at payload time. Stricter
// value rules (canonical id order, proposal hashing, non-empty evidence) are applied later by
// the reducer, where the reference applies them, so faults carry the same code.
import { arrayAt, exactKeys, idAt, integerAt, objectAt, shaAt, textAt } from "../../ledger/values";
import { literalAt } from "../values/common";
import { parseCandidateDescriptor, parsePolicy, type CandidateDescriptor, type SkillPolicyRevision } from "../values/routing";
import { CONTEXT_USES, CONTRIBUTION_SOURCE_KINDS, PROPOSAL_BODY_KEYS, type ProposalBody } from "../values/contributions";
import { DISCHARGE_BODY_KEYS, type DischargeBody } from "../values/discharges";
import type { ParentFrameDependency } from "../values/routeFrame";

// The loose parsers return the value layer's own types: only how strictly they are checked
// differs, not their shape.
/** `parentDependency` with its target list unchecked for order (the reducer checks it). */
export type LooseDependency = ParentFrameDependency;
export type LooseProposal = ProposalBody;
export type LooseDischarge = DischargeBody;

export function parseLooseDependency(value: unknown, path: string): LooseDependency {
  const data = objectAt(value, path);
  exactKeys(data, path, ["blockerId", "targetObligationIds", "reason"]);
  return Object.freeze({
    blockerId: idAt(data.blockerId, `${path}.blockerId`),
    targetObligationIds: Object.freeze(arrayAt(data.targetObligationIds, `${path}.targetObligationIds`, idAt)),
    reason: textAt(data.reason, `${path}.reason`),
  });
}

export function parseLooseProposal(value: unknown, path: string): LooseProposal {
  const data = objectAt(value, path);
  exactKeys(data, path, PROPOSAL_BODY_KEYS);
  const source = objectAt(data.source, `${path}.source`);
  exactKeys(source, `${path}.source`, ["kind", "sourceId", "sourceRevisionSha256"]);
  return Object.freeze({
    proposalId: idAt(data.proposalId, `${path}.proposalId`),
    frameId: idAt(data.frameId, `${path}.frameId`),
    frameRevision: integerAt(data.frameRevision, `${path}.frameRevision`),
    source: Object.freeze({
      kind: literalAt(source.kind, `${path}.source.kind`, CONTRIBUTION_SOURCE_KINDS),
      sourceId: idAt(source.sourceId, `${path}.source.sourceId`),
      sourceRevisionSha256: shaAt(source.sourceRevisionSha256, `${path}.source.sourceRevisionSha256`),
    }),
    claim: textAt(data.claim, `${path}.claim`),
    applicability: textAt(data.applicability, `${path}.applicability`),
    targetUses: Object.freeze(
      arrayAt(data.targetUses, `${path}.targetUses`, (entry, entryPath) => {
        const use = objectAt(entry, entryPath);
        exactKeys(use, entryPath, ["obligationId", "useAs"]);
        return Object.freeze({
          obligationId: idAt(use.obligationId, `${entryPath}.obligationId`),
          useAs: literalAt(use.useAs, `${entryPath}.useAs`, CONTEXT_USES),
        });
      }),
    ),
    limitations: Object.freeze(arrayAt(data.limitations, `${path}.limitations`, textAt)),
    supportSha256: shaAt(data.supportSha256, `${path}.supportSha256`),
  });
}

export function parseLooseDischarge(value: unknown, path: string): LooseDischarge {
  const data = objectAt(value, path);
  exactKeys(data, path, DISCHARGE_BODY_KEYS);
  return Object.freeze({
    dischargeId: idAt(data.dischargeId, `${path}.dischargeId`),
    frameId: idAt(data.frameId, `${path}.frameId`),
    expectedFrameRevision: integerAt(data.expectedFrameRevision, `${path}.expectedFrameRevision`),
    obligationId: idAt(data.obligationId, `${path}.obligationId`),
    contributionIds: Object.freeze(arrayAt(data.contributionIds, `${path}.contributionIds`, idAt)),
    stopEvidence: Object.freeze(arrayAt(data.stopEvidence, `${path}.stopEvidence`, textAt)),
    conclusion: textAt(data.conclusion, `${path}.conclusion`),
  });
}

/** `can-serve-basis-created` body with its target list unchecked for order (the reducer checks it). */
export interface LooseCanServeBody {
  readonly basisId: string;
  readonly candidateId: string;
  readonly targetObligationIds: readonly string[];
  readonly methodRevisionSha256: string;
  readonly policy: SkillPolicyRevision;
  readonly rootApplicability: "applicable";
}

export function parseLooseCanServeBody(value: unknown, path: string): LooseCanServeBody {
  const data = objectAt(value, path);
  exactKeys(data, path, ["basisId", "candidateId", "targetObligationIds", "methodRevisionSha256", "policy", "rootApplicability"]);
  const rootApplicability = literalAt(data.rootApplicability, `${path}.rootApplicability`, ["applicable"]);
  return Object.freeze({
    basisId: idAt(data.basisId, `${path}.basisId`),
    candidateId: idAt(data.candidateId, `${path}.candidateId`),
    targetObligationIds: Object.freeze(arrayAt(data.targetObligationIds, `${path}.targetObligationIds`, idAt)),
    methodRevisionSha256: shaAt(data.methodRevisionSha256, `${path}.methodRevisionSha256`),
    policy: parsePolicy(data.policy, `${path}.policy`),
    rootApplicability,
  });
}

/** A page whose hash and size are checked by the reducer (after the snapshot is found). */
export interface LoosePage {
  readonly snapshotId: string;
  readonly pageIndex: number;
  readonly candidates: readonly CandidateDescriptor[];
  readonly pageSha256: string;
}

export function parseLoosePage(value: unknown, path: string): LoosePage {
  const data = objectAt(value, path);
  exactKeys(data, path, ["snapshotId", "pageIndex", "candidates", "pageSha256"]);
  return Object.freeze({
    snapshotId: idAt(data.snapshotId, `${path}.snapshotId`),
    pageIndex: integerAt(data.pageIndex, `${path}.pageIndex`),
    candidates: Object.freeze(arrayAt(data.candidates, `${path}.candidates`, parseCandidateDescriptor)),
    pageSha256: shaAt(data.pageSha256, `${path}.pageSha256`),
  });
}
