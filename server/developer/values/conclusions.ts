// Route-frame conclusion (§1.2, §5.1): the proposal closes a frame against an exact revision,
// its sorted discharge ids and the (empty) blocker-set hash. Authorization later binds to
// conclusionSha256, which is why this hash carries weight.
import { exactKeys, idAt, integerAt, objectAt, shaAt, textAt } from "../../ledger/values";
import { integerJson, textJson, textListJson, writtenHash } from "./canonicalText";
import { canonicalIdListAt, domainHash, expectHash, rememberedForFrozen, uniqueTextListAt } from "./common";

export const CONCLUSION_DOMAIN = "developer/v8/route-frame-conclusion";
export const MAX_CONCLUSION_STOP_EVIDENCE = 32;

export interface ConclusionProposal {
  readonly frameId: string;
  readonly expectedFrameRevision: number;
  readonly dischargeIds: readonly string[];
  readonly stopEvidence: readonly string[];
  readonly expectedBlockerSetSha256: string;
  readonly conclusion: string;
}

/** A concluded frame's record: the proposal and its hash. */
export interface FrameConclusion {
  readonly proposal: ConclusionProposal;
  readonly conclusionSha256: string;
}

export const CONCLUSION_PROPOSAL_KEYS = [
  "frameId",
  "expectedFrameRevision",
  "dischargeIds",
  "stopEvidence",
  "expectedBlockerSetSha256",
  "conclusion",
] as const;

/** The `route-frame-concluded` payload's `proposal`. dischargeIds may be empty only at value level. */
export function parseConclusionProposal(value: unknown, path = "proposal"): ConclusionProposal {
  const data = objectAt(value, path);
  exactKeys(data, path, CONCLUSION_PROPOSAL_KEYS);
  return Object.freeze({
    frameId: idAt(data.frameId, `${path}.frameId`),
    expectedFrameRevision: integerAt(data.expectedFrameRevision, `${path}.expectedFrameRevision`),
    dischargeIds: canonicalIdListAt(data.dischargeIds, `${path}.dischargeIds`),
    stopEvidence: uniqueTextListAt(data.stopEvidence, `${path}.stopEvidence`, { nonEmpty: true, max: MAX_CONCLUSION_STOP_EVIDENCE }),
    expectedBlockerSetSha256: shaAt(data.expectedBlockerSetSha256, `${path}.expectedBlockerSetSha256`),
    conclusion: textAt(data.conclusion, `${path}.conclusion`),
  });
}

export function createConclusionProposal(proposal: ConclusionProposal): ConclusionProposal {
  return parseConclusionProposal({
    frameId: proposal.frameId,
    expectedFrameRevision: proposal.expectedFrameRevision,
    dischargeIds: proposal.dischargeIds,
    stopEvidence: proposal.stopEvidence,
    expectedBlockerSetSha256: proposal.expectedBlockerSetSha256,
    conclusion: proposal.conclusion,
  });
}

function conclusionHashJson(proposal: ConclusionProposal): string {
  return (
    `{"domain":${JSON.stringify(CONCLUSION_DOMAIN)},"proposal":{"conclusion":${textJson(proposal.conclusion)},"dischargeIds":${textListJson(proposal.dischargeIds)},` +
    `"expectedBlockerSetSha256":${textJson(proposal.expectedBlockerSetSha256)},"expectedFrameRevision":${integerJson(proposal.expectedFrameRevision)},` +
    `"frameId":${textJson(proposal.frameId)},"stopEvidence":${textListJson(proposal.stopEvidence)}}}`
  );
}

function conclusionHashGeneral(proposal: ConclusionProposal): string {
  return domainHash(CONCLUSION_DOMAIN, {
    proposal: {
      frameId: proposal.frameId,
      expectedFrameRevision: proposal.expectedFrameRevision,
      dischargeIds: [...proposal.dischargeIds],
      stopEvidence: [...proposal.stopEvidence],
      expectedBlockerSetSha256: proposal.expectedBlockerSetSha256,
      conclusion: proposal.conclusion,
    },
  });
}

export const conclusionSha256: (proposal: ConclusionProposal) => string = rememberedForFrozen((proposal) =>
  writtenHash(proposal, conclusionHashJson, conclusionHashGeneral),
);

export function parseFrameConclusion(value: unknown, path = "conclusion"): FrameConclusion {
  const data = objectAt(value, path);
  exactKeys(data, path, ["proposal", "conclusionSha256"]);
  const proposal = parseConclusionProposal(data.proposal, `${path}.proposal`);
  return Object.freeze({
    proposal,
    conclusionSha256: expectHash(data.conclusionSha256, `${path}.conclusionSha256`, conclusionSha256(proposal), "conclusion proposal"),
  });
}

export function createFrameConclusion(proposal: ConclusionProposal): FrameConclusion {
  const parsed = createConclusionProposal(proposal);
  return parseFrameConclusion({ proposal: parsed, conclusionSha256: conclusionSha256(parsed) });
}
