// Frame contributions (§1.2, §3.2 event 15): a proposal says which obligations some source
// bears on and how; admission records that the frame accepted it. Neither discharges anything.
import { arrayAt, exactKeys, idAt, integerAt, isRecord, objectAt, shaAt, textAt } from "../../ledger/values";
import { integerJson, objectListJson, textJson, textListJson, unwritable, writtenHash } from "./canonicalText";
import { assertUniqueInCanonicalOrder, domainHash, expectHash, literalAt, textListAt } from "./common";

export const CONTRIBUTION_SOURCE_KINDS = [
  "skill-return",
  "tool-result",
  "material",
  "user-decision",
  "judgment-result",
  "child-frame",
] as const;
export type ContributionSourceKind = (typeof CONTRIBUTION_SOURCE_KINDS)[number];

/** How a contribution may be used; only constraint/evidence/decision can later discharge. */
export const CONTEXT_USES = ["constraint", "evidence", "decision", "method", "guidance"] as const;
export type ContextUse = (typeof CONTEXT_USES)[number];
export const SUPPORTING_USES: readonly ContextUse[] = ["constraint", "evidence", "decision"];

export const MAX_LIMITATIONS = 32;
export const PROPOSAL_DOMAIN = "developer/v8/proposed-frame-contribution";
export const ADMISSION_DOMAIN = "developer/v8/admitted-frame-contribution";

export interface ContributionSource {
  readonly kind: ContributionSourceKind;
  readonly sourceId: string;
  readonly sourceRevisionSha256: string;
}

export interface ContributionTargetUse {
  readonly obligationId: string;
  readonly useAs: ContextUse;
}

export interface ProposalBody {
  readonly proposalId: string;
  readonly frameId: string;
  readonly frameRevision: number;
  readonly source: ContributionSource;
  readonly claim: string;
  readonly applicability: string;
  readonly targetUses: readonly ContributionTargetUse[];
  readonly limitations: readonly string[];
  readonly supportSha256: string;
}

export interface Proposal extends ProposalBody {
  readonly proposalSha256: string;
}

export interface AdmittedContribution {
  readonly contributionId: string;
  readonly proposal: Proposal;
  readonly admissionBasisSha256: string;
  readonly admissionSha256: string;
}

export const PROPOSAL_BODY_KEYS = [
  "proposalId",
  "frameId",
  "frameRevision",
  "source",
  "claim",
  "applicability",
  "targetUses",
  "limitations",
  "supportSha256",
] as const;

export function parseContributionSource(value: unknown, path = "source"): ContributionSource {
  const data = objectAt(value, path);
  exactKeys(data, path, ["kind", "sourceId", "sourceRevisionSha256"]);
  return Object.freeze({
    kind: literalAt(data.kind, `${path}.kind`, CONTRIBUTION_SOURCE_KINDS),
    sourceId: idAt(data.sourceId, `${path}.sourceId`),
    sourceRevisionSha256: shaAt(data.sourceRevisionSha256, `${path}.sourceRevisionSha256`),
  });
}

export function parseTargetUse(value: unknown, path = "targetUse"): ContributionTargetUse {
  const data = objectAt(value, path);
  exactKeys(data, path, ["obligationId", "useAs"]);
  return Object.freeze({
    obligationId: idAt(data.obligationId, `${path}.obligationId`),
    useAs: literalAt(data.useAs, `${path}.useAs`, CONTEXT_USES),
  });
}

function obligationOfUse(use: ContributionTargetUse): string {
  return use.obligationId;
}

/** Proposal target uses: non-empty, one use per obligation, strictly ascending by obligationId. */
export function parseProposalTargetUses(value: unknown, path = "targetUses"): readonly ContributionTargetUse[] {
  const uses = arrayAt(value, path, parseTargetUse, { nonEmpty: true });
  assertUniqueInCanonicalOrder(uses, path, obligationOfUse);
  return Object.freeze(uses);
}

function parseProposalFields(data: Record<string, unknown>, path: string): ProposalBody {
  return Object.freeze({
    proposalId: idAt(data.proposalId, `${path}.proposalId`),
    frameId: idAt(data.frameId, `${path}.frameId`),
    frameRevision: integerAt(data.frameRevision, `${path}.frameRevision`),
    source: parseContributionSource(data.source, `${path}.source`),
    claim: textAt(data.claim, `${path}.claim`),
    applicability: textAt(data.applicability, `${path}.applicability`),
    targetUses: parseProposalTargetUses(data.targetUses, `${path}.targetUses`),
    // Repeats are allowed: the reference does not check them here and builds judgment proposals
    // from coverage limitations that may repeat, so rejecting them would reject its logs.
    limitations: textListAt(data.limitations, `${path}.limitations`, { max: MAX_LIMITATIONS }),
    supportSha256: shaAt(data.supportSha256, `${path}.supportSha256`),
  });
}

/** The proposal as the admission payload carries it (no proposalSha256; the payload has expectedProposalSha256). */
export function parseProposalBody(value: unknown, path = "proposal"): ProposalBody {
  const data = objectAt(value, path);
  exactKeys(data, path, PROPOSAL_BODY_KEYS);
  return parseProposalFields(data, path);
}

function targetUseJson(use: ContributionTargetUse): string {
  return `{"obligationId":${textJson(use.obligationId)},"useAs":${textJson(use.useAs)}}`;
}

/** The proposal's members in code-unit order, with `proposalSha256` among them when given. */
function proposalJson(body: ProposalBody, proposalHash: string | null): string {
  const source = body.source;
  if (typeof source !== "object" || source === null) return unwritable();
  return (
    `{"applicability":${textJson(body.applicability)},"claim":${textJson(body.claim)},"frameId":${textJson(body.frameId)},` +
    `"frameRevision":${integerJson(body.frameRevision)},"limitations":${textListJson(body.limitations)},"proposalId":${textJson(body.proposalId)},` +
    (proposalHash === null ? "" : `"proposalSha256":${textJson(proposalHash)},`) +
    `"source":{"kind":${textJson(source.kind)},"sourceId":${textJson(source.sourceId)},"sourceRevisionSha256":${textJson(source.sourceRevisionSha256)}},` +
    `"supportSha256":${textJson(body.supportSha256)},"targetUses":${objectListJson(body.targetUses, targetUseJson)}}`
  );
}

function proposalHashJson(body: ProposalBody): string {
  return `{"contribution":${proposalJson(body, null)},"domain":${JSON.stringify(PROPOSAL_DOMAIN)}}`;
}

function proposalHashGeneral(body: ProposalBody): string {
  return domainHash(PROPOSAL_DOMAIN, {
    contribution: {
      proposalId: body.proposalId,
      frameId: body.frameId,
      frameRevision: body.frameRevision,
      source: { kind: body.source.kind, sourceId: body.source.sourceId, sourceRevisionSha256: body.source.sourceRevisionSha256 },
      claim: body.claim,
      applicability: body.applicability,
      targetUses: body.targetUses.map((use) => ({ obligationId: use.obligationId, useAs: use.useAs })),
      limitations: [...body.limitations],
      supportSha256: body.supportSha256,
    },
  });
}

/** H({domain, contribution: body}); the body is rebuilt from its nine fields so nothing else is hashed. */
export function proposalSha256(body: ProposalBody): string {
  return writtenHash(body, proposalHashJson, proposalHashGeneral);
}

export function parseProposal(value: unknown, path = "proposal"): Proposal {
  const data = objectAt(value, path);
  exactKeys(data, path, [...PROPOSAL_BODY_KEYS, "proposalSha256"]);
  const body = parseProposalFields(data, path);
  return Object.freeze({ ...body, proposalSha256: expectHash(data.proposalSha256, `${path}.proposalSha256`, proposalSha256(body), "proposal") });
}

export function createProposal(body: ProposalBody): Proposal {
  const parsed = parseProposalBody(stripProposal(body));
  return parseProposal({ ...parsed, proposalSha256: proposalSha256(parsed) });
}

function stripProposal(body: ProposalBody): Record<string, unknown> {
  return {
    proposalId: body.proposalId,
    frameId: body.frameId,
    frameRevision: body.frameRevision,
    source: body.source,
    claim: body.claim,
    applicability: body.applicability,
    targetUses: body.targetUses,
    limitations: body.limitations,
    supportSha256: body.supportSha256,
  };
}

/**
 * H({domain, admission:{contributionId, proposal, admissionBasisSha256}}) where `proposal`
 * includes its proposalSha256 — the admission binds the exact hashed proposal.
 */
export function admissionSha256(contributionId: string, proposal: Proposal, admissionBasisSha256: string): string {
  return writtenHash({ contributionId, proposal, admissionBasisSha256 }, admissionHashJson, admissionHashGeneral);
}

interface AdmissionMembers {
  readonly contributionId: string;
  readonly proposal: Proposal;
  readonly admissionBasisSha256: string;
}

function admissionHashJson({ contributionId, proposal, admissionBasisSha256 }: AdmissionMembers): string {
  if (typeof proposal !== "object" || proposal === null || typeof proposal.proposalSha256 !== "string") return unwritable();
  return (
    `{"admission":{"admissionBasisSha256":${textJson(admissionBasisSha256)},"contributionId":${textJson(contributionId)},` +
    `"proposal":${proposalJson(proposal, proposal.proposalSha256)}},"domain":${JSON.stringify(ADMISSION_DOMAIN)}}`
  );
}

/**
 * The proposal's members as proposalJson writes them: `source` and each target use are rebuilt
 * from their known members, so the general path hashes exactly what the hand-written writer would
 * whenever the writer can write the proposal (a parsed proposal has no other members, so no hash
 * of a valid ledger changes). Values the writer refuses are passed through unchanged.
 */
function hashedProposalMembers(proposal: ProposalBody): Record<string, unknown> {
  const members = stripProposal(proposal);
  const source = members.source;
  const targetUses = members.targetUses;
  return {
    ...members,
    source: isRecord(source) ? { kind: source.kind, sourceId: source.sourceId, sourceRevisionSha256: source.sourceRevisionSha256 } : source,
    targetUses: Array.isArray(targetUses)
      ? targetUses.map((use: unknown) => (isRecord(use) ? { obligationId: use.obligationId, useAs: use.useAs } : use))
      : targetUses,
  };
}

function admissionHashGeneral({ contributionId, proposal, admissionBasisSha256 }: AdmissionMembers): string {
  return domainHash(ADMISSION_DOMAIN, {
    admission: {
      contributionId,
      proposal: { ...hashedProposalMembers(proposal), proposalSha256: proposal.proposalSha256 },
      admissionBasisSha256,
    },
  });
}

export function parseAdmittedContribution(value: unknown, path = "contribution"): AdmittedContribution {
  const data = objectAt(value, path);
  exactKeys(data, path, ["contributionId", "proposal", "admissionBasisSha256", "admissionSha256"]);
  const contributionId = idAt(data.contributionId, `${path}.contributionId`);
  const proposal = parseProposal(data.proposal, `${path}.proposal`);
  const admissionBasisSha256 = shaAt(data.admissionBasisSha256, `${path}.admissionBasisSha256`);
  const computed = admissionSha256(contributionId, proposal, admissionBasisSha256);
  return Object.freeze({
    contributionId,
    proposal,
    admissionBasisSha256,
    admissionSha256: expectHash(data.admissionSha256, `${path}.admissionSha256`, computed, "admission"),
  });
}

export function createAdmittedContribution(contributionId: string, proposal: ProposalBody, admissionBasisSha256: string): AdmittedContribution {
  const hashed = createProposal(proposal);
  return parseAdmittedContribution({
    contributionId,
    proposal: hashed,
    admissionBasisSha256,
    admissionSha256: admissionSha256(contributionId, hashed, admissionBasisSha256),
  });
}

/** Payload of `frame-contribution-admitted`: the proposal body plus the hash it must have. */
export interface ContributionAdmission {
  readonly proposal: Proposal;
  readonly contributionId: string;
  readonly admissionBasisSha256: string;
}

export function parseContributionAdmission(value: unknown, path = "frame-contribution-admitted.payload"): ContributionAdmission {
  const data = objectAt(value, path);
  exactKeys(data, path, ["proposal", "expectedProposalSha256", "contributionId", "admissionBasisSha256"]);
  const body = parseProposalBody(data.proposal, `${path}.proposal`);
  const expected = expectHash(data.expectedProposalSha256, `${path}.expectedProposalSha256`, proposalSha256(body), "proposal");
  return Object.freeze({
    proposal: Object.freeze({ ...body, proposalSha256: expected }),
    contributionId: idAt(data.contributionId, `${path}.contributionId`),
    admissionBasisSha256: shaAt(data.admissionBasisSha256, `${path}.admissionBasisSha256`),
  });
}

/** Source kinds a `support-observed` event may record (skill returns and child frames have their own causes). */
export const EXTERNAL_SUPPORT_KINDS = ["tool-result", "material", "user-decision", "judgment-result"] as const;
export type ExternalSupportKind = (typeof EXTERNAL_SUPPORT_KINDS)[number];

/** Scope-wide evidence that a non-Skill source exists at a revision (§3.2 event 14). */
export interface ObservedSupport {
  readonly supportId: string;
  readonly sourceKind: ExternalSupportKind;
  readonly sourceId: string;
  readonly sourceRevisionSha256: string;
  readonly supportSha256: string;
}

export function parseObservedSupport(value: unknown, path = "support"): ObservedSupport {
  const data = objectAt(value, path);
  exactKeys(data, path, ["supportId", "sourceKind", "sourceId", "sourceRevisionSha256", "supportSha256"]);
  return Object.freeze({
    supportId: idAt(data.supportId, `${path}.supportId`),
    sourceKind: literalAt(data.sourceKind, `${path}.sourceKind`, EXTERNAL_SUPPORT_KINDS),
    sourceId: idAt(data.sourceId, `${path}.sourceId`),
    sourceRevisionSha256: shaAt(data.sourceRevisionSha256, `${path}.sourceRevisionSha256`),
    supportSha256: shaAt(data.supportSha256, `${path}.supportSha256`),
  });
}
