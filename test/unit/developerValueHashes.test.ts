// The value hashes written straight as canonical text (server/developer/values/canonicalText.ts and
// the writers beside each family) give exactly the hashes of the general form they replace — the
// built object hashed through domainHash/hashValue, kept below as the reference, as it was before
// the writers. Inputs: every hashed value of generated ledgers (realistic scopes and a long scope),
// the same values with one leaf replaced by anything (strings with escapes and lone surrogates,
// non-integers, -0, NaN, null, objects, arrays, a missing member), and values made up by
// fast-check. A writer that meets a leaf it does not expect must fall back to the general path,
// so the hash — or the error — is the reference's either way.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { compareCodeUnits, hashValue } from "../../server/ledger/canonicalJson";
import type { Envelope } from "../../server/ledger/envelope";
import { fail, textAt } from "../../server/ledger/values";
import { parseSemanticEvent, type SemanticEvent } from "../../server/developer/eventKinds";
import { domainHash } from "../../server/developer/values/common";
import { ADMISSION_DOMAIN, PROPOSAL_DOMAIN, admissionSha256, proposalSha256, type Proposal, type ProposalBody } from "../../server/developer/values/contributions";
import { DISCHARGE_DOMAIN, dischargeSha256, type DischargeBody } from "../../server/developer/values/discharges";
import { CONCLUSION_DOMAIN, conclusionSha256, type ConclusionProposal } from "../../server/developer/values/conclusions";
import { obligationSetSha256, type Obligation } from "../../server/developer/values/obligations";
import {
  CANDIDATE_DOMAIN,
  CAN_SERVE_DOMAIN,
  COVERAGE_DOMAIN,
  PAGE_CHAIN_LINK_DOMAIN,
  PAGE_CHAIN_SEED_DOMAIN,
  PAGE_DOMAIN,
  SNAPSHOT_BASIS_DOMAIN,
  canServeBasisSha256,
  coverageSha256,
  descriptorSha256,
  pageChainLink,
  pageChainSeed,
  pageSha256,
  snapshotBasisSha256,
  type CanServeBasisBody,
  type CanServeDerivation,
  type CandidateDescriptor,
  type CandidateDescriptorBody,
  type SelectedCandidateRef,
  type SnapshotBasis,
  type SnapshotManifest,
  type TargetSummary,
} from "../../server/developer/values/routing";
import {
  ASSIGNMENT_DOMAIN,
  SKILL_RETURN_SUPPORT_DOMAIN,
  assignmentRevisionSha256,
  createInvocationSettlement,
  parseInvocationSettlement,
  skillReturnSupportSha256,
  type InvocationSettlement,
  type ReadySkillAssignment,
} from "../../server/developer/values/skills";
import { BLOCKER_SET_DOMAIN, EMPTY_BLOCKER_SET_SHA256, blockerSetSha256, type Blocker } from "../../server/developer/values/blockers";
import { SCOPE_CLOSURE_DOMAIN, createScopeClosure } from "../../server/developer/eventKinds";
import { assertUnique } from "../../server/developer/values/common";
import { AUTHORIZATION_DOMAIN, authorizationSha256, type AuthorizationFields, type ImplementationBoundary } from "../../server/developer/values/authorization";
import { LANDING_CHANGED_PATHS_DOMAIN, LANDING_DOMAIN, LANDING_VERIFICATION_DOMAIN, landingHashes, type LandingFields } from "../../server/developer/values/landing";
import { cycleScopesEntries, longScopeEntries } from "../support/generatedCycles";

// ---- The reference: each hash as the general path computed it before the writers. ----

function referenceProposal(body: ProposalBody): string {
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

/** The admission's general form before its `source` and target uses were rebuilt member by member. */
function passThroughAdmission(members: { contributionId: string; proposal: Proposal; admissionBasisSha256: string }): string {
  const contributionId = members.contributionId;
  const proposal = members.proposal;
  const admissionBasisSha256 = members.admissionBasisSha256;
  return domainHash(ADMISSION_DOMAIN, { admission: { contributionId, proposal: { ...stripProposal(proposal), proposalSha256: proposal.proposalSha256 }, admissionBasisSha256 } });
}

function rebuiltMembers(proposal: Proposal): Proposal {
  const source: unknown = proposal.source;
  const targetUses: unknown = proposal.targetUses;
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
  return {
    ...proposal,
    source: isObject(source) ? { kind: source.kind, sourceId: source.sourceId, sourceRevisionSha256: source.sourceRevisionSha256 } : source,
    targetUses: Array.isArray(targetUses) ? targetUses.map((use: unknown) => (isObject(use) ? { obligationId: use.obligationId, useAs: use.useAs } : use)) : targetUses,
  } as Proposal;
}

/** The general form: the pass-through form over a proposal whose source and target uses carry only their known members. */
function referenceAdmission(members: { contributionId: string; proposal: Proposal; admissionBasisSha256: string }): string {
  // Read in the order the written path reads them, so a missing `members` fails with the same message.
  const contributionId = members.contributionId;
  const proposal = members.proposal;
  const admissionBasisSha256 = members.admissionBasisSha256;
  return passThroughAdmission({ contributionId, proposal: typeof proposal === "object" && proposal !== null ? rebuiltMembers(proposal) : proposal, admissionBasisSha256 });
}

function referenceDischarge(body: DischargeBody): string {
  return domainHash(DISCHARGE_DOMAIN, {
    discharge: {
      dischargeId: body.dischargeId,
      frameId: body.frameId,
      expectedFrameRevision: body.expectedFrameRevision,
      obligationId: body.obligationId,
      contributionIds: [...body.contributionIds],
      stopEvidence: [...body.stopEvidence],
      conclusion: body.conclusion,
    },
  });
}

function referenceConclusion(proposal: ConclusionProposal): string {
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

function referenceObligationSet(obligations: readonly Obligation[]): string {
  const ordered = obligations
    .map((entry) => ({ obligationId: entry.obligationId, frameId: entry.frameId, statement: entry.statement }))
    .sort((left, right) => compareCodeUnits(left.obligationId, right.obligationId));
  const seen = new Set<string>();
  for (const entry of ordered) {
    if (seen.has(entry.obligationId)) fail("obligations", "contains duplicates");
    seen.add(entry.obligationId);
  }
  return hashValue(ordered);
}

function descriptorBodyValue(body: CandidateDescriptorBody): Record<string, unknown> {
  const common = {
    candidateId: body.candidateId,
    kind: body.kind,
    source: { sourceId: body.source.sourceId, revision: body.source.revision },
    subjectId: body.subjectId,
    subjectRevisionSha256: body.subjectRevisionSha256,
  };
  switch (body.kind) {
    case "capability":
      return { ...common, registryRevisionSha256: body.registryRevisionSha256 };
    case "tool":
      return { ...common, schemaSha256: body.schemaSha256 };
    case "material":
      return { ...common, contentDescriptorSha256: body.contentDescriptorSha256 };
    default:
      return { ...common, refinement: { producerId: body.refinement.producerId, producerRevisionSha256: body.refinement.producerRevisionSha256, basisSha256: body.refinement.basisSha256 } };
  }
}

function referenceDescriptor(body: CandidateDescriptorBody): string {
  return domainHash(CANDIDATE_DOMAIN, { candidate: descriptorBodyValue(body) });
}

function referencePage(members: { snapshotId: string; pageIndex: number; candidates: readonly CandidateDescriptor[] }): string {
  const snapshotId = members.snapshotId;
  const pageIndex = members.pageIndex;
  const candidates = members.candidates;
  return domainHash(PAGE_DOMAIN, { snapshotId, pageIndex, candidates: candidates.map((entry) => ({ ...descriptorBodyValue(entry), descriptorSha256: entry.descriptorSha256 })) });
}

function referenceSnapshotBasis(basis: SnapshotBasis): string {
  return domainHash(SNAPSHOT_BASIS_DOMAIN, {
    value: {
      frameId: basis.frameId,
      frameRevision: basis.frameRevision,
      obligationSetSha256: basis.obligationSetSha256,
      admittedUniverseSha256: basis.admittedUniverseSha256,
      providerSourceRevisions: basis.providerSourceRevisions.map((entry) => ({ sourceId: entry.sourceId, revision: entry.revision })),
      priorityStrategySha256: basis.priorityStrategySha256,
    },
  });
}

function referenceSeed(members: { snapshotId: string; basisSha256: string }): string {
  return domainHash(PAGE_CHAIN_SEED_DOMAIN, { snapshotId: members.snapshotId, basisSha256: members.basisSha256 });
}

function referenceLink(members: { previousSha256: string; pageIndex: number; pageSha256: string }): string {
  return domainHash(PAGE_CHAIN_LINK_DOMAIN, { previousSha256: members.previousSha256, pageIndex: members.pageIndex, pageSha256: members.pageSha256 });
}

function referenceCoverage(members: { manifest: SnapshotManifest; selectedCandidates: readonly SelectedCandidateRef[]; targetSummaries: readonly TargetSummary[] }): string {
  const manifest = members.manifest;
  const selectedCandidates = members.selectedCandidates;
  const targetSummaries = members.targetSummaries;
  return domainHash(COVERAGE_DOMAIN, {
    basisSha256: manifest.snapshotBasisSha256,
    manifest: {
      snapshotId: manifest.snapshotId,
      snapshotBasisSha256: manifest.snapshotBasisSha256,
      pageCount: manifest.pageCount,
      candidateCount: manifest.candidateCount,
      orderedPageRootSha256: manifest.orderedPageRootSha256,
    },
    selectedCandidates: selectedCandidates.map((entry) => ({ candidateId: entry.candidateId, descriptorSha256: entry.descriptorSha256 })),
    targetSummaries: targetSummaries.map((entry) => ({
      obligationId: entry.obligationId,
      selectedCount: entry.selectedCount,
      clearedCount: entry.clearedCount,
      blockedCount: entry.blockedCount,
      optionalLimitationCount: entry.optionalLimitationCount,
    })),
  });
}

type CanServeInput = CanServeBasisBody & CanServeDerivation;

function referenceCanServe(basis: CanServeInput): string {
  return domainHash(CAN_SERVE_DOMAIN, {
    basis: {
      basisId: basis.basisId,
      kind: "can-serve",
      snapshotId: basis.snapshotId,
      frameId: basis.frameId,
      frameRevision: basis.frameRevision,
      candidateId: basis.candidateId,
      capabilityId: basis.capabilityId,
      capabilityRevisionSha256: basis.capabilityRevisionSha256,
      descriptorSha256: basis.descriptorSha256,
      targetObligationIds: [...basis.targetObligationIds],
      methodRevisionSha256: basis.methodRevisionSha256,
      policy: basis.policy.kind === "absent" ? { kind: "absent" } : { kind: "complete", revisionSha256: basis.policy.revisionSha256 },
      rootApplicability: basis.rootApplicability,
      contextBasisSha256: basis.contextBasisSha256,
    },
  });
}

function referenceAssignment(body: ReadySkillAssignment): string {
  return domainHash(ASSIGNMENT_DOMAIN, {
    value: {
      assignmentId: body.assignmentId,
      skillCapabilityId: body.skillCapabilityId,
      skillRevisionSha256: body.skillRevisionSha256,
      parentFrameId: body.parentFrameId,
      parentFrameRevision: body.parentFrameRevision,
      targetObligationIds: [...body.targetObligationIds],
      subquestion: body.subquestion,
      applicabilityBasisSha256: body.applicabilityBasisSha256,
      expectedContribution: body.expectedContribution,
      limitations: [...body.limitations],
      returnContract: body.returnContract,
      contextBasisSha256: body.contextBasisSha256,
      authority: body.authority,
    },
  });
}

function boundaryValue(boundary: ImplementationBoundary | null): Record<string, string> | null {
  if (boundary === null) return null;
  if (boundary.kind === "refinement-boundary") {
    const { kind, rawRepresentation, refinedRepresentation, producer, failure, firstEffect } = boundary;
    return { kind, rawRepresentation, refinedRepresentation, producer, failure, firstEffect };
  }
  const { kind, assertion, establishedBy, limitation, containment, verification } = boundary;
  return { kind, assertion, establishedBy, limitation, containment, verification };
}

function referenceAuthorization(fields: AuthorizationFields): string {
  return domainHash(AUTHORIZATION_DOMAIN, {
    fields: {
      authorizationId: fields.authorizationId,
      frameId: fields.frameId,
      frameRevision: fields.frameRevision,
      conclusionSha256: fields.conclusionSha256,
      movement: fields.movement,
      stableLanding: fields.stableLanding,
      verificationTarget: fields.verificationTarget,
      boundary: boundaryValue(fields.boundary),
    },
  });
}

function referenceLanding(fields: LandingFields): readonly string[] {
  const changedPaths = [...fields.changedPaths];
  const verification = [...fields.verification];
  const changedPathsSha256 = domainHash(LANDING_CHANGED_PATHS_DOMAIN, { changedPaths });
  const verificationSha256 = domainHash(LANDING_VERIFICATION_DOMAIN, { verification });
  const landingSha256 = domainHash(LANDING_DOMAIN, {
    fields: {
      landingId: fields.landingId,
      authorizationId: fields.authorizationId,
      changedPaths,
      result: fields.result,
      verification,
      rerouteFrameId: fields.rerouteFrameId,
      verificationFrameId: fields.verificationFrameId,
    },
    changedPathsSha256,
    verificationSha256,
  });
  return [changedPathsSha256, verificationSha256, landingSha256];
}

/** The support hash of a skill return before its writer: the settlement re-parsed, then the general form. */
function referenceSettlement(settlement: InvocationSettlement): string {
  return domainHash(SKILL_RETURN_SUPPORT_DOMAIN, { settlement: createInvocationSettlement(settlement) });
}

function referenceBlockerSet(blockers: readonly Blocker[], path = "blockers"): string {
  const ordered = blockers
    .map((entry) => ({
      blockerId: entry.blockerId,
      frameId: entry.frameId,
      kind: entry.kind,
      sourceId: entry.sourceId,
      targetObligationIds: [...entry.targetObligationIds],
      detailsSha256: entry.detailsSha256,
    }))
    .sort((left, right) => compareCodeUnits(left.blockerId, right.blockerId));
  assertUnique(ordered, path, (entry) => entry.blockerId);
  return domainHash(BLOCKER_SET_DOMAIN, { blockers: ordered });
}

function referenceClosure(members: { reason: string }): string {
  const exact = textAt(members.reason, "closure.reason");
  return hashValue({ domain: SCOPE_CLOSURE_DOMAIN, reason: exact });
}

// ---- Each hash under test, next to its reference, over one input value (the arguments of a
// hash that takes several are members of the input, read by both sides in the same order). ----

interface HashCase {
  readonly name: string;
  readonly written: (input: never) => unknown;
  readonly reference: (input: never) => unknown;
}

const CASES: Record<string, HashCase> = {
  proposal: { name: "proposalSha256", written: (body: ProposalBody) => proposalSha256(body), reference: referenceProposal },
  admission: {
    name: "admissionSha256",
    written: (m: { contributionId: string; proposal: Proposal; admissionBasisSha256: string }) => admissionSha256(m.contributionId, m.proposal, m.admissionBasisSha256),
    reference: referenceAdmission,
  },
  discharge: { name: "dischargeSha256", written: (body: DischargeBody) => dischargeSha256(body), reference: referenceDischarge },
  conclusion: { name: "conclusionSha256", written: (proposal: ConclusionProposal) => conclusionSha256(proposal), reference: referenceConclusion },
  obligations: { name: "obligationSetSha256", written: (list: readonly Obligation[]) => obligationSetSha256(list), reference: referenceObligationSet },
  descriptor: { name: "descriptorSha256", written: (body: CandidateDescriptorBody) => descriptorSha256(body), reference: referenceDescriptor },
  page: {
    name: "pageSha256",
    written: (m: { snapshotId: string; pageIndex: number; candidates: readonly CandidateDescriptor[] }) => pageSha256(m.snapshotId, m.pageIndex, m.candidates),
    reference: referencePage,
  },
  basis: { name: "snapshotBasisSha256", written: (basis: SnapshotBasis) => snapshotBasisSha256(basis), reference: referenceSnapshotBasis },
  seed: { name: "pageChainSeed", written: (m: { snapshotId: string; basisSha256: string }) => pageChainSeed(m.snapshotId, m.basisSha256), reference: referenceSeed },
  link: {
    name: "pageChainLink",
    written: (m: { previousSha256: string; pageIndex: number; pageSha256: string }) => pageChainLink(m.previousSha256, m.pageIndex, m.pageSha256),
    reference: referenceLink,
  },
  coverage: {
    name: "coverageSha256",
    written: (m: { manifest: SnapshotManifest; selectedCandidates: readonly SelectedCandidateRef[]; targetSummaries: readonly TargetSummary[] }) =>
      coverageSha256(m.manifest, m.selectedCandidates, m.targetSummaries),
    reference: referenceCoverage,
  },
  canServe: { name: "canServeBasisSha256", written: (basis: CanServeInput) => canServeBasisSha256(basis), reference: referenceCanServe },
  assignment: { name: "assignmentRevisionSha256", written: (body: ReadySkillAssignment) => assignmentRevisionSha256(body), reference: referenceAssignment },
  authorization: { name: "authorizationSha256", written: (fields: AuthorizationFields) => authorizationSha256(fields), reference: referenceAuthorization },
  // A parsed settlement (createInvocationSettlement parses) takes the written form; the same errors either way.
  settlement: { name: "skillReturnSupportSha256", written: (value: InvocationSettlement) => skillReturnSupportSha256(createInvocationSettlement(value)), reference: referenceSettlement },
  // Any other value keeps the general form.
  settlementUnparsed: { name: "skillReturnSupportSha256 (unparsed)", written: (value: InvocationSettlement) => skillReturnSupportSha256(value), reference: referenceSettlement },
  blockerSet: { name: "blockerSetSha256", written: (list: readonly Blocker[]) => blockerSetSha256(list), reference: referenceBlockerSet },
  closure: { name: "createScopeClosure", written: (m: { reason: string }) => createScopeClosure(m.reason).reasonSha256, reference: referenceClosure },
  landing: {
    name: "landingHashes",
    written: (fields: LandingFields) => {
      const hashes = landingHashes(fields);
      return [hashes.changedPathsSha256, hashes.verificationSha256, hashes.landingSha256];
    },
    reference: referenceLanding,
  },
};

type Outcome = { readonly value: unknown } | { readonly error: string };

function outcomeOf(run: () => unknown): Outcome {
  try {
    return { value: run() };
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

function assertSameOutcome(kind: string, input: unknown): void {
  const entry = CASES[kind] as HashCase;
  const written = outcomeOf(() => (entry.written as (value: unknown) => unknown)(input));
  const reference = outcomeOf(() => (entry.reference as (value: unknown) => unknown)(input));
  assert.deepEqual(written, reference, `${entry.name} differs from the general form for ${JSON.stringify(input)?.slice(0, 400)}`);
}

// ---- The hashed values of generated ledgers. ----

const HEX = "0123456789abcdef";
const sha = (seed: number): string => Array.from({ length: 64 }, (_, index) => HEX[(seed * 7 + index * 13) % 16]).join("");

/** [case, input] for every value a generated ledger's events hash (plain, unfrozen copies). */
function ledgerInputs(entries: readonly Envelope[]): Array<readonly [string, unknown]> {
  const inputs: Array<readonly [string, unknown]> = [];
  const copy = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;
  entries.forEach((envelope, index) => {
    const event: SemanticEvent = parseSemanticEvent(envelope);
    switch (event.kind) {
      case "route-frame-opened":
        inputs.push(["obligations", copy(event.obligations)]);
        break;
      case "frame-contribution-admitted": {
        inputs.push(["proposal", copy(event.proposal)]);
        const proposal = { ...(copy(event.proposal) as object), proposalSha256: event.expectedProposalSha256 };
        inputs.push(["admission", { contributionId: event.contributionId, proposal, admissionBasisSha256: event.admissionBasisSha256 }]);
        break;
      }
      case "obligation-discharged":
        inputs.push(["discharge", copy(event.discharge)]);
        break;
      case "route-frame-concluded": {
        inputs.push(["conclusion", copy(event.proposal)]);
        inputs.push(["blockerSet", []]);
        const blocker = (id: string, kind: string): Record<string, unknown> => ({
          blockerId: id,
          frameId: event.proposal.frameId,
          kind,
          sourceId: `invocation:${index}`,
          targetObligationIds: [`obligation:${index}-a`, `obligation:${index}-b`],
          detailsSha256: sha(index + id.length),
        });
        inputs.push(["blockerSet", [blocker(`blocker:${index}-z`, "dependency"), blocker(`blocker:${index}-a`, "needs-context")]]);
        break;
      }
      case "routing-snapshot-opened":
        inputs.push(["basis", copy(event.basis)]);
        inputs.push(["seed", { snapshotId: event.manifest.snapshotId, basisSha256: event.manifest.snapshotBasisSha256 }]);
        inputs.push([
          "coverage",
          {
            manifest: copy(event.manifest),
            selectedCandidates: [{ candidateId: `candidate:${index}`, descriptorSha256: sha(index) }],
            targetSummaries: [{ obligationId: `obligation:${index}`, selectedCount: 1, clearedCount: 0, blockedCount: 2, optionalLimitationCount: 3 }],
          },
        ]);
        break;
      case "routing-page-accounted":
        for (const candidate of event.page.candidates) inputs.push(["descriptor", copy(candidate)]);
        inputs.push(["page", { snapshotId: event.page.snapshotId, pageIndex: event.page.pageIndex, candidates: copy(event.page.candidates) }]);
        inputs.push(["link", { previousSha256: sha(index), pageIndex: event.page.pageIndex, pageSha256: event.page.pageSha256 }]);
        break;
      case "can-serve-basis-created":
        inputs.push([
          "canServe",
          {
            ...(copy(event.body) as object),
            snapshotId: event.snapshotId,
            frameId: `frame:${index}`,
            frameRevision: index % 3,
            capabilityId: `capability:${index}`,
            capabilityRevisionSha256: sha(index + 1),
            descriptorSha256: sha(index + 2),
            contextBasisSha256: sha(index + 3),
          },
        ]);
        break;
      case "ready-assignment-recorded":
        inputs.push(["assignment", copy(event.assignment)]);
        break;
      case "change-authorized":
        inputs.push(["authorization", copy(event.authorization)]);
        break;
      case "implementation-landing-recorded":
        inputs.push(["landing", copy(event.landing)]);
        break;
      case "invocation-settled":
        inputs.push(["settlement", copy(event.settlement)]);
        inputs.push(["settlementUnparsed", copy(event.settlement)]);
        break;
      case "work-scope-closed":
        inputs.push(["closure", { reason: event.closure.reason }]);
        break;
      default:
        break;
    }
  });
  return inputs;
}

const GENERATED = [...ledgerInputs(cycleScopesEntries(6)), ...ledgerInputs(longScopeEntries("scope:hashes", 120))];

test("every value hash of generated ledgers equals the general form's", () => {
  const kinds = new Set(GENERATED.map(([kind]) => kind));
  assert.deepEqual([...kinds].sort(), Object.keys(CASES).sort(), "the generated ledgers hash every family under test");
  for (const [kind, input] of GENERATED) assertSameOutcome(kind, input);
});

test("authorization boundaries of both kinds, and none, hash as the general form does", () => {
  const authorization = GENERATED.find(([kind]) => kind === "authorization")?.[1] as Record<string, unknown>;
  const boundaries: unknown[] = [
    null,
    { kind: "refinement-boundary", rawRepresentation: "raw", refinedRepresentation: "refined", producer: "p", failure: "f", firstEffect: "e" },
    { kind: "trusted-compiler-gap", assertion: "a", establishedBy: "b", limitation: "l", containment: "c", verification: "v" },
    { kind: "other", assertion: "a", establishedBy: "b", limitation: "l", containment: "c", verification: "v" },
    "a string",
  ];
  for (const boundary of boundaries) assertSameOutcome("authorization", { ...authorization, boundary });
});

test("descriptors of every candidate kind hash as the general form does", () => {
  const descriptor = GENERATED.find(([kind]) => kind === "descriptor")?.[1] as Record<string, unknown>;
  const refinement = { producerId: "producer:x", producerRevisionSha256: sha(3), basisSha256: sha(4) };
  const variants: Array<Record<string, unknown>> = [
    { kind: "capability", registryRevisionSha256: sha(1) },
    { kind: "tool", schemaSha256: sha(2) },
    { kind: "material", contentDescriptorSha256: sha(5) },
    { kind: "constraint", refinement },
    { kind: "evidence", refinement },
    { kind: "decision", refinement },
    { kind: "unheard-of", refinement },
    { kind: "decision", refinement: null },
  ];
  for (const variant of variants) {
    const { registryRevisionSha256: _r, schemaSha256: _s, contentDescriptorSha256: _c, refinement: _f, ...common } = descriptor;
    const body = { ...common, ...variant };
    assertSameOutcome("descriptor", body);
    assertSameOutcome("page", { snapshotId: "snapshot:x", pageIndex: 0, candidates: [{ ...body, descriptorSha256: sha(9) }] });
  }
  for (const policy of [{ kind: "absent" }, { kind: "complete", revisionSha256: sha(6) }, { kind: "partial", revisionSha256: sha(7) }, null]) {
    const canServe = GENERATED.find(([kind]) => kind === "canServe")?.[1] as Record<string, unknown>;
    assertSameOutcome("canServe", { ...canServe, policy });
  }
});

// ---- Any leaf replaced by anything. ----

/** Paths to every leaf and container of a JSON-like value (object members and array entries). */
function pathsOf(value: unknown, prefix: readonly (string | number)[] = []): Array<readonly (string | number)[]> {
  const paths: Array<readonly (string | number)[]> = [prefix];
  if (Array.isArray(value)) value.forEach((entry, index) => paths.push(...pathsOf(entry, [...prefix, index])));
  else if (typeof value === "object" && value !== null) for (const [key, entry] of Object.entries(value)) paths.push(...pathsOf(entry, [...prefix, key]));
  return paths;
}

const MISSING = Symbol("missing");

/** A copy of `value` with the member at `path` replaced (or removed, for MISSING). */
function replaced(value: unknown, path: readonly (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(value)) {
    const result = [...value];
    if (replacement === MISSING && rest.length === 0) result.splice(head as number, 1);
    else result[head as number] = replaced(value[head as number], rest, replacement);
    return result;
  }
  const result = { ...(value as Record<string, unknown>) };
  if (replacement === MISSING && rest.length === 0) delete result[head as string];
  else result[head as string] = replaced((value as Record<string, unknown>)[head as string], rest, replacement);
  return result;
}

const anyText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.constantFrom("", " padded ", 'quote"back\\slash', "line\nbreak\ttab\u0000", "\ud800", "\udc00x", "é", "𝒳", "\u2028\u2029", "<>&'"),
);
const anyLeaf = fc.oneof(
  anyText,
  fc.constantFrom(0, -0, 1, 2 ** 53 - 1, 2 ** 53, -7, 1.5, 1e21, Number.NaN, Number.POSITIVE_INFINITY, null, true, false, undefined, MISSING, "absent", "complete"),
  fc.integer(),
  fc.double(),
  fc.array(anyText, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom("kind", "sourceId", "revision", "x"), anyText, { maxKeys: 3 }),
);

test("a hashed value with any member replaced by anything hashes (or fails) as the general form does", () => {
  fc.assert(
    fc.property(fc.nat(), fc.nat(), anyLeaf, (which, where, leaf) => {
      const [kind, input] = GENERATED[which % GENERATED.length] as readonly [string, unknown];
      const paths = pathsOf(input);
      assertSameOutcome(kind, replaced(input, paths[where % paths.length] as readonly (string | number)[], leaf));
    }),
    { numRuns: 6_000 },
  );
});

test("values of any text and integers hash as the general form does", () => {
  const id = fc.oneof(anyText, fc.constantFrom("frame:a", "obligation:b", "Z", "a.b-c/d:e"));
  const int = fc.oneof(fc.nat(), fc.constantFrom(0, 2 ** 53 - 1));
  const texts = fc.array(anyText, { maxLength: 4 });
  fc.assert(
    fc.property(id, id, id, int, texts, texts, anyText, (a, b, c, n, list, other, text) => {
      assertSameOutcome("discharge", { dischargeId: a, frameId: b, expectedFrameRevision: n, obligationId: c, contributionIds: list, stopEvidence: other, conclusion: text });
      assertSameOutcome("conclusion", { frameId: a, expectedFrameRevision: n, dischargeIds: list, stopEvidence: other, expectedBlockerSetSha256: b, conclusion: text });
      assertSameOutcome("obligations", [
        { obligationId: a, frameId: b, statement: text },
        { obligationId: c, frameId: b, statement: a },
      ]);
      assertSameOutcome("seed", { snapshotId: a, basisSha256: b });
      assertSameOutcome("link", { previousSha256: a, pageIndex: n, pageSha256: c });
      assertSameOutcome("landing", { landingId: a, authorizationId: b, changedPaths: list, result: text, verification: other, rerouteFrameId: c, verificationFrameId: a });
      assertSameOutcome("proposal", {
        proposalId: a,
        frameId: b,
        frameRevision: n,
        source: { kind: c, sourceId: text, sourceRevisionSha256: a },
        claim: text,
        applicability: c,
        targetUses: list.map((entry) => ({ obligationId: entry, useAs: a })),
        limitations: other,
        supportSha256: b,
      });
    }),
    { numRuns: 1_500 },
  );
});

test("an admission's general form hashes only the known members of its source and target uses, as the writer does", () => {
  const admissions = GENERATED.filter(([kind]) => kind === "admission").map(([, input]) => input as { contributionId: string; proposal: Proposal; admissionBasisSha256: string });
  assert.ok(admissions.length > 0);
  // Rebuilding changes no hash of a generated (valid) ledger.
  for (const members of admissions) assert.equal(referenceAdmission(members), passThroughAdmission(members));
  fc.assert(
    fc.property(fc.nat(), fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(anyText, fc.integer()), { minKeys: 1, maxKeys: 3 }), fc.boolean(), (which, extra, inSource) => {
      const members = admissions[which % admissions.length] as { contributionId: string; proposal: Proposal; admissionBasisSha256: string };
      const proposal = members.proposal;
      const widened = inSource
        ? { ...proposal, source: { ...extra, ...proposal.source } }
        : { ...proposal, targetUses: proposal.targetUses.map((use) => ({ ...extra, ...use })) };
      const input = { ...members, proposal: widened as Proposal };
      assert.equal(admissionSha256(input.contributionId, input.proposal, input.admissionBasisSha256), admissionSha256(members.contributionId, proposal, members.admissionBasisSha256));
      assert.equal(referenceAdmission(input), referenceAdmission(members));
    }),
    { numRuns: 500 },
  );
});

// ---- The skill-return support hash (settlements), the blocker set and the scope closure. ----

const SETTLEMENT_VARIANTS: readonly unknown[] = (() => {
  const ids = { invocationId: "invocation:v", assignmentId: "assignment:v" };
  const targets = ["obligation:a", "obligation:b"];
  return [
    { ...ids, kind: "returned", value: { kind: "contribution", claim: "c", applicability: "a", targetUses: [{ obligationId: "obligation:b", useAs: "method" }, { obligationId: "obligation:a", useAs: "evidence" }], limitations: [] } },
    { ...ids, kind: "returned", value: { kind: "dependency", dependencyId: "dependency:x", targetObligationIds: targets, question: "q?", reason: "r" } },
    { ...ids, kind: "returned", value: { kind: "not-applicable", targetObligationIds: targets, reason: "r \"quoted\"" } },
    { ...ids, kind: "returned", value: { kind: "needs-context", targetObligationIds: targets, missingContext: ["m2", "m1"] } },
    { ...ids, kind: "returned", value: { kind: "abort", reason: "é𝒳" } },
    { ...ids, kind: "returned", value: { kind: "surrender", reason: "r" } },
    { ...ids, kind: "capability-failed", failure: { kind: "resolver-error", message: "m" } },
    { ...ids, kind: "capability-failed", failure: { kind: "invalid-or-silent-return", reason: "r" } },
    { ...ids, kind: "capability-failed", failure: { kind: "timeout", timeoutMs: 30_000 } },
    { ...ids, kind: "capability-failed", failure: { kind: "timeout", timeoutMs: 0 } },
    { ...ids, kind: "lifecycle", lifecycle: { kind: "cancelled", reason: "r", executionUncertain: true } },
    { ...ids, kind: "lifecycle", lifecycle: { kind: "stale", reason: "r", executionUncertain: false } },
    { ...ids, kind: "lifecycle", lifecycle: { kind: "stale", reason: "r", executionUncertain: "no" } },
    { ...ids, kind: "vanished" },
  ];
})();

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

test("settlements of every kind hash as the general form does, parsed or not", () => {
  const generated = GENERATED.filter(([kind]) => kind === "settlement").map(([, input]) => input);
  assert.ok(generated.length > 0);
  for (const settlement of [...generated, ...SETTLEMENT_VARIANTS]) {
    assertSameOutcome("settlement", settlement);
    assertSameOutcome("settlementUnparsed", settlement);
    // The written form is taken only for what the parser built, which is frozen all the way down.
    const parsed = outcomeOf(() => parseInvocationSettlement(settlement));
    if ("value" in parsed) assert.ok(isDeepFrozen(parsed.value), JSON.stringify(settlement));
  }
  // A frozen parsed settlement's hash is remembered; an unfrozen copy of it hashes the same.
  const parsed = parseInvocationSettlement(generated[0]);
  assert.equal(skillReturnSupportSha256(parsed), skillReturnSupportSha256(parsed));
  assert.equal(skillReturnSupportSha256(parsed), skillReturnSupportSha256({ ...parsed } as InvocationSettlement));
});

test("settlement variants with any member replaced by anything hash (or fail) as the general form does", () => {
  fc.assert(
    fc.property(fc.nat(), fc.nat(), anyLeaf, fc.boolean(), (which, where, leaf, unparsed) => {
      const input = SETTLEMENT_VARIANTS[which % SETTLEMENT_VARIANTS.length];
      const paths = pathsOf(input);
      assertSameOutcome(unparsed ? "settlementUnparsed" : "settlement", replaced(input, paths[where % paths.length] as readonly (string | number)[], leaf));
    }),
    { numRuns: 3_000 },
  );
});

test("the empty blocker set is the constant a frame concludes against; closures of any text hash as the general form does", () => {
  assert.equal(blockerSetSha256([]), EMPTY_BLOCKER_SET_SHA256);
  fc.assert(
    fc.property(anyText, (reason) => {
      assertSameOutcome("closure", { reason });
    }),
    { numRuns: 1_000 },
  );
  const duplicate = GENERATED.find(([kind, input]) => kind === "blockerSet" && (input as unknown[]).length === 2)?.[1] as Blocker[];
  assertSameOutcome("blockerSet", [duplicate[0], duplicate[0]]);
});
