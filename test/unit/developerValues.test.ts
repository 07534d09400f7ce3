// Black-box tests of the developer/v8 value layer (server/developer/values): goldens, round-trips
// and the strict rejection rules of §1.
import { test } from "node:test";
import assert from "node:assert/strict";
import { toJsonValue } from "../../server/ledger/canonicalJson";
import { createEnvelope } from "../../server/ledger/envelope";
import { ValueError } from "../../server/ledger/values";
import { createObligation, obligationSetSha256, parseObligation, type Obligation } from "../../server/developer/values/obligations";
import {
  createRouteFrame,
  createRouteFrameOpening,
  parseParentFrameDependency,
  parseRouteFrame,
  parseRouteFrameOpening,
  parseRouteFrameReplacement,
  verifyFrameObligations,
  type RouteFrame,
} from "../../server/developer/values/routeFrame";
import {
  EMPTY_BLOCKER_SET_SHA256,
  blockerDetailsSha256,
  blockerSetSha256,
  createBlocker,
  parseBlocker,
  settlementBlockerId,
  verifyBlockerDetails,
  type Blocker,
} from "../../server/developer/values/blockers";
import {
  admissionSha256,
  createAdmittedContribution,
  createProposal,
  parseAdmittedContribution,
  parseContributionAdmission,
  parseObservedSupport,
  parseProposal,
  parseProposalBody,
  proposalSha256,
  type ProposalBody,
} from "../../server/developer/values/contributions";
import { createDischarge, dischargeSha256, parseDischarge, parseDischargeBody, type DischargeBody } from "../../server/developer/values/discharges";
import {
  conclusionSha256,
  createConclusionProposal,
  createFrameConclusion,
  parseConclusionProposal,
  parseFrameConclusion,
  type ConclusionProposal,
} from "../../server/developer/values/conclusions";
import {
  authorizationSha256,
  createAuthorization,
  parseAuthorization,
  parseAuthorizationFields,
  parseBoundary,
  type AuthorizationFields,
} from "../../server/developer/values/authorization";
import {
  createLanding,
  createLandingDebt,
  landingHashes,
  parseLanding,
  parseLandingDebt,
  parseLandingFields,
  type LandingFields,
} from "../../server/developer/values/landing";
import {
  assignmentRevisionSha256,
  createInvocationSettlement,
  createReadySkillAssignment,
  parseCapabilityFailure,
  parseInvocationSettlement,
  parseLifecycleSettlement,
  parseReadySkillAssignment,
  parseSkillReturn,
  skillReturnSupportSha256,
  type InvocationSettlement,
  type ReadySkillAssignmentBody,
} from "../../server/developer/values/skills";
import {
  canServeBasisSha256,
  coverageSha256,
  createCanServeBasis,
  createCandidateDescriptor,
  createCandidatePages,
  createSnapshotBasis,
  createSnapshotManifest,
  descriptorSha256,
  orderedPageRootSha256,
  pageChainLink,
  pageChainSeed,
  parseCanServeBasis,
  parseCanServeBasisBody,
  parseCandidateDescriptor,
  parseCandidateDisposition,
  parseCandidatePage,
  parsePolicy,
  parseSnapshotBasis,
  parseSnapshotManifest,
  snapshotBasisSha256,
  type CandidateDescriptor,
  type CandidateDescriptorBody,
  type CanServeBasisBody,
  type CanServeDerivation,
  type SnapshotBasis,
} from "../../server/developer/values/routing";

const SHA_A = "a".repeat(64);
const SHA_B = "b".repeat(64);
const SHA_C = "c".repeat(64);
const SHA_D = "d".repeat(64);
const MEANING_REVISION = "8b03213ec67534c935ce1930271742348ce198880e873a5db21fdb964e525057";

/** Plain mutable copy so a test can add, drop or alter any key. */
function plain(value: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

function rejects(run: () => unknown, message: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ValueError, `expected ValueError, got ${String(error)}`);
    assert.match(error.message, message);
    return true;
  });
}

function withKey(value: unknown, key: string, entry: unknown): Record<string, unknown> {
  return { ...plain(value), [key]: entry };
}

function withoutKey(value: unknown, key: string): Record<string, unknown> {
  const copy = plain(value);
  delete copy[key];
  return copy;
}

/** Every value family must reject an extra key, each missing key, and a non-object. */
function assertExactKeys(parse: (value: unknown) => unknown, valid: unknown, path: string): void {
  rejects(() => parse(withKey(valid, "extra", 1)), new RegExp(`^${escape(path)}\\.extra: is not allowed$`));
  for (const key of Object.keys(plain(valid))) {
    rejects(() => parse(withoutKey(valid, key)), new RegExp(`^${escape(path)}\\.${escape(key)}: is required$`));
  }
  rejects(() => parse([]), /expected an object/);
  rejects(() => parse(null), /expected an object/);
}

/** Discriminated unions read `kind` first, so a missing kind is reported as an unknown kind. */
function assertVariantKeys(parse: (value: unknown) => unknown, valid: unknown, path: string): void {
  rejects(() => parse(withKey(valid, "extra", 1)), new RegExp(`^${escape(path)}\\.extra: is not allowed$`));
  rejects(() => parse(withoutKey(valid, "kind")), new RegExp(`^${escape(path)}\\.kind: expected one of`));
  for (const key of Object.keys(plain(valid)).filter((entry) => entry !== "kind")) {
    rejects(() => parse(withoutKey(valid, key)), new RegExp(`^${escape(path)}\\.${escape(key)}: is required$`));
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/gu, "\\$&");
}

const obligationA: Obligation = { obligationId: "obligation:a", frameId: "frame:f", statement: "A is settled." };
const obligationB: Obligation = { obligationId: "obligation:b", frameId: "frame:f", statement: "B is settled." };

function frameF(obligations: readonly Obligation[] = [obligationA]): RouteFrame {
  return createRouteFrame(
    {
      frameId: "frame:f",
      frameRevision: 0,
      workScopeId: "scope:s",
      parentFrameId: null,
      routeDefinitionId: "route:meaning-settlement",
      routeDefinitionRevisionSha256: MEANING_REVISION,
      exactQuestion: "What is A?",
    },
    obligations,
  );
}

// ---------------------------------------------------------------------------------------------
// 1. Obligations

test("obligation set hash golden (§2.5): no domain wrapper", () => {
  assert.equal(obligationSetSha256([obligationA]), "ed9dff3db8a17a306477c597a3da825da99e56589e07d148a70b349ff099bb4b");
});

test("obligation set hash is order-free, rejects duplicates, ignores stray properties", () => {
  assert.equal(obligationSetSha256([obligationA, obligationB]), obligationSetSha256([obligationB, obligationA]));
  assert.notEqual(obligationSetSha256([obligationA, obligationB]), obligationSetSha256([obligationA]));
  rejects(() => obligationSetSha256([obligationA, { ...obligationA, statement: "Other." }]), /^obligations: contains duplicates$/);
  const stray = { ...obligationA, note: "x" } as Obligation;
  assert.equal(obligationSetSha256([stray]), obligationSetSha256([obligationA]));
});

test("obligation round-trips and rejects malformed input", () => {
  assert.deepEqual(parseObligation(plain(obligationA)), obligationA);
  assert.deepEqual(createObligation(obligationA), obligationA);
  assertExactKeys((value) => parseObligation(value), obligationA, "obligation");
  rejects(() => parseObligation({ ...obligationA, statement: " A is settled." }), /^obligation\.statement: must not contain surrounding whitespace$/);
  rejects(() => parseObligation({ ...obligationA, statement: "   " }), /^obligation\.statement: expected non-blank text$/);
  rejects(() => parseObligation({ ...obligationA, statement: "x".repeat(4001) }), /^obligation\.statement: text is too long$/);
  assert.equal(parseObligation({ ...obligationA, statement: "x".repeat(4000) }).statement.length, 4000);
  rejects(() => parseObligation({ ...obligationA, obligationId: "1bad" }), /^obligation\.obligationId: text has an invalid representation$/);
  rejects(() => parseObligation({ ...obligationA, frameId: `f${"x".repeat(160)}` }), /^obligation\.frameId: text is too long$/);
});

// ---------------------------------------------------------------------------------------------
// 2. Route frames

test("route-frame-opened envelope golden e1 (§2.5 mini log)", () => {
  // e0 is the mini log's work-scope-opened (its own golden vector is in goldenVectors.test.ts).
  const e0Sha256 = "68fed704cb4b776e00c157424bee57cb76959789304eb0ffb14206db3df46475";
  const frame = frameF();
  assert.equal(frame.obligationSetSha256, "ed9dff3db8a17a306477c597a3da825da99e56589e07d148a70b349ff099bb4b");
  const opening = createRouteFrameOpening({ frame, obligations: [obligationA], parentDependency: null });
  const e1 = createEnvelope({
    protocolVersion: "developer/v8",
    eventId: "event:e1",
    workScopeId: "scope:s",
    scopeSequence: 1,
    previousScopeEventSha256: e0Sha256,
    causalRefs: [],
    occurredAt: "2030-01-01T00:00:01.000Z",
    kind: "route-frame-opened",
    payload: toJsonValue(plain(opening)),
  });
  assert.equal(e1.eventSha256, "94ce7ec62b56b4e37d6c6950a2490aac60bced0f3ddbe78cdfaf50923f15eb59");
  assert.deepEqual(parseRouteFrameOpening(e1.payload), opening);
});

test("route frame round-trips; obligations are sorted on creation", () => {
  const frame = frameF([obligationB, obligationA]);
  assert.deepEqual(frame.obligationIds, ["obligation:a", "obligation:b"]);
  assert.deepEqual(parseRouteFrame(plain(frame)), frame);
  verifyFrameObligations(frame, [obligationA, obligationB]);
  assert.equal(Object.keys(frame).length, 9);
});

test("route frame rejections", () => {
  const frame = plain(frameF([obligationA, obligationB]));
  assertExactKeys((value) => parseRouteFrame(value), frame, "routeFrame");
  rejects(() => parseRouteFrame({ ...frame, obligationIds: ["obligation:b", "obligation:a"] }), /^routeFrame\.obligationIds: must be unique and in canonical order$/);
  rejects(() => parseRouteFrame({ ...frame, obligationIds: ["obligation:a", "obligation:a"] }), /^routeFrame\.obligationIds: contains duplicates$/);
  rejects(() => parseRouteFrame({ ...frame, obligationIds: [] }), /^routeFrame\.obligationIds: must not be empty$/);
  const many = Array.from({ length: 101 }, (_, index) => `obligation:${String(index).padStart(3, "0")}`);
  rejects(() => parseRouteFrame({ ...frame, obligationIds: many }), /^routeFrame\.obligationIds: has too many items$/);
  rejects(() => parseRouteFrame({ ...frame, exactQuestion: "What is A? " }), /surrounding whitespace/);
  rejects(() => parseRouteFrame({ ...frame, exactQuestion: "x".repeat(4001) }), /text is too long/);
  rejects(() => parseRouteFrame({ ...frame, frameRevision: -1 }), /^routeFrame\.frameRevision: integer is too small$/);
  rejects(() => parseRouteFrame({ ...frame, frameRevision: 1.5 }), /expected a safe integer/);
  rejects(() => parseRouteFrame({ ...frame, routeDefinitionRevisionSha256: SHA_A.toUpperCase() }), /invalid representation/);
  rejects(() => parseRouteFrame({ ...frame, parentFrameId: "" }), /^routeFrame\.parentFrameId: expected non-blank text$/);
  assert.equal(parseRouteFrame({ ...frame, parentFrameId: "frame:p" }).parentFrameId, "frame:p");
});

test("frame/obligation binding: order, membership, frame id and hash drift", () => {
  const frame = frameF([obligationA, obligationB]);
  rejects(() => verifyFrameObligations(frame, [obligationB, obligationA]), /^obligations: must list exactly/);
  rejects(() => verifyFrameObligations(frame, [obligationA]), /^obligations: must list exactly/);
  rejects(() => verifyFrameObligations(frame, [obligationA, { ...obligationB, frameId: "frame:g" }]), /^obligations\[1\]\.frameId: must equal/);
  rejects(() => verifyFrameObligations(frame, [obligationA, { ...obligationB, statement: "Changed." }]), /do not match the frame's obligationSetSha256/);
  rejects(() => verifyFrameObligations({ ...frame, obligationSetSha256: SHA_A }, [obligationA, obligationB]), /obligationSetSha256/);
});

test("route-frame-replaced payload rules", () => {
  const replacement = plain({ frame: createRouteFrame({ ...frameF(), frameRevision: 1 }, [obligationA, obligationB]), obligations: [obligationA, obligationB] });
  assert.equal(parseRouteFrameReplacement(replacement).frame.frameRevision, 1);
  assertExactKeys((value) => parseRouteFrameReplacement(value), replacement, "route-frame-replaced.payload");
  rejects(() => parseRouteFrameReplacement({ ...replacement, obligations: [obligationA] }), /^route-frame-replaced\.payload\.obligations: must list exactly/);
});

test("route-frame-opened payload rules", () => {
  const payload = plain({ frame: frameF(), obligations: [obligationA], parentDependency: null });
  assertExactKeys((value) => parseRouteFrameOpening(value), payload, "route-frame-opened.payload");
  rejects(
    () => parseRouteFrameOpening({ ...payload, parentDependency: { blockerId: "blocker:x", targetObligationIds: ["obligation:p"], reason: "Needs A." } }),
    /parentDependency: is required exactly when the frame has a parent/,
  );
  const child = plain(createRouteFrame({ ...frameF(), parentFrameId: "frame:p" }, [obligationA]));
  rejects(() => parseRouteFrameOpening({ ...payload, frame: child }), /parentDependency: is required exactly/);
  const dependency = { blockerId: "blocker:x", targetObligationIds: ["obligation:p"], reason: "Needs A." };
  assert.deepEqual(parseRouteFrameOpening({ ...payload, frame: child, parentDependency: dependency }).parentDependency, dependency);
  assertExactKeys((value) => parseParentFrameDependency(value), dependency, "parentDependency");
  rejects(() => parseParentFrameDependency({ ...dependency, targetObligationIds: ["b:x", "a:x"] }), /canonical order/);
  rejects(() => parseParentFrameDependency({ ...dependency, targetObligationIds: [] }), /must not be empty/);
  rejects(() => parseRouteFrameOpening({ ...payload, obligations: [{ ...obligationA, statement: "Other." }] }), /obligationSetSha256/);
});


// Goldens marked "reference" below were computed by running the public reference implementation
// (transpiled, unmodified) on exactly these inputs — through its reducer where the hash is only
// produced there — so they pin wire compatibility, not just self-consistency.

// ---------------------------------------------------------------------------------------------
// 3. Blockers

const childBlocker: Blocker = {
  blockerId: "blocker:child",
  frameId: "frame:f",
  kind: "child-frame",
  sourceId: "frame:g",
  targetObligationIds: ["obligation:b"],
  detailsSha256: "17e19b419359fa33f3d5bc26c44b7c255fa00b16c653fc2d86b350e95ccfae78",
};

test("blocker goldens: empty set, child-frame details and set (reference)", () => {
  assert.equal(blockerSetSha256([]), EMPTY_BLOCKER_SET_SHA256);
  assert.equal(EMPTY_BLOCKER_SET_SHA256, "e636b878a29075de80ac22fca0f4330d0d4de1d3718cb7ab593389e653150ba6");
  const created = createBlocker({
    blockerId: "blocker:child",
    frameId: "frame:f",
    kind: "child-frame",
    sourceId: "frame:g",
    targetObligationIds: ["obligation:b"],
    details: { reason: "Needs C." },
  });
  assert.deepEqual(created, childBlocker);
  assert.equal(blockerDetailsSha256({ reason: "Needs C." }), childBlocker.detailsSha256);
  assert.equal(blockerSetSha256([created]), "4748711b6b64fc74d207885ea3800269d6cbe94fe7fabb368b4c1577f3ff5790");
  verifyBlockerDetails(created, { reason: "Needs C." });
  rejects(() => verifyBlockerDetails(created, { reason: "Other." }), /^blocker\.detailsSha256: does not match the blocker details$/);
});

test("blocker set hash is order-free and rejects repeated ids", () => {
  const other = createBlocker({ ...childBlocker, blockerId: "blocker:a", kind: "dependency", details: null });
  assert.equal(blockerSetSha256([childBlocker, other]), blockerSetSha256([other, childBlocker]));
  assert.notEqual(blockerSetSha256([childBlocker, other]), blockerSetSha256([childBlocker]));
  rejects(() => blockerSetSha256([childBlocker, childBlocker]), /^blockers: contains duplicates$/);
});

test("settlement-derived blocker id", () => {
  const id = settlementBlockerId("invocation:1", "capability-failure");
  assert.match(id, /^blocker:[0-9a-f]{40}$/u);
  assert.notEqual(id, settlementBlockerId("invocation:1", "dependency"));
  assert.notEqual(id, settlementBlockerId("invocation:2", "capability-failure"));
  assert.equal(id, settlementBlockerId("invocation:1", "capability-failure"));
  rejects(() => settlementBlockerId(" invocation:1", "dependency"), /^invocationId: must not contain surrounding whitespace$/);
  rejects(() => settlementBlockerId("invocation:1", "other" as never), /^kind: expected one of/);
});

test("blocker parse round-trips and rejects malformed input", () => {
  assert.deepEqual(parseBlocker(plain(childBlocker)), childBlocker);
  assertExactKeys((value) => parseBlocker(value), childBlocker, "blocker");
  rejects(() => parseBlocker({ ...childBlocker, kind: "needs-evidence" }), /^blocker\.kind: expected one of child-frame, dependency, needs-context, capability-failure$/);
  rejects(() => parseBlocker({ ...childBlocker, targetObligationIds: [] }), /must not be empty/);
  rejects(() => parseBlocker({ ...childBlocker, targetObligationIds: ["obligation:b", "obligation:a"] }), /canonical order/);
  rejects(() => parseBlocker({ ...childBlocker, targetObligationIds: ["obligation:a", "obligation:a"] }), /contains duplicates/);
  rejects(() => parseBlocker({ ...childBlocker, detailsSha256: "abc" }), /^blocker\.detailsSha256: text has an invalid representation$/);
});

// ---------------------------------------------------------------------------------------------
// 4. Contributions

const proposalBody: ProposalBody = {
  proposalId: "proposal:1",
  frameId: "frame:f",
  frameRevision: 0,
  source: { kind: "material", sourceId: "source:m", sourceRevisionSha256: SHA_A },
  claim: "A and B hold.",
  applicability: "Applies to f.",
  targetUses: [
    { obligationId: "obligation:a", useAs: "evidence" },
    { obligationId: "obligation:b", useAs: "constraint" },
  ],
  limitations: ["Only f."],
  supportSha256: SHA_A,
};
const PROPOSAL_GOLDEN = "4a3c86aa83a2eba71692d744f25e1a72194f2ae2ee76f89616b42c9462c39c4d";
const ADMISSION_GOLDEN = "98d3985519145d9b291fa2cd9aeeff78c8cfb2451703df7d9ef8eaa4d3fc2f24";

test("proposal and admission goldens (reference)", () => {
  assert.equal(proposalSha256(proposalBody), PROPOSAL_GOLDEN);
  const proposal = createProposal(proposalBody);
  assert.equal(proposal.proposalSha256, PROPOSAL_GOLDEN);
  const admitted = createAdmittedContribution("contribution:1", proposalBody, SHA_B);
  assert.equal(admitted.admissionSha256, ADMISSION_GOLDEN);
  assert.equal(admissionSha256("contribution:1", proposal, SHA_B), ADMISSION_GOLDEN);
  assert.deepEqual(parseAdmittedContribution(plain(admitted)), admitted);
  assert.deepEqual(parseProposal(plain(proposal)), proposal);
  assert.deepEqual(parseProposalBody(plain(proposalBody)), proposalBody);
});

test("admission payload: body plus expected hash", () => {
  const payload = { proposal: plain(proposalBody), expectedProposalSha256: PROPOSAL_GOLDEN, contributionId: "contribution:1", admissionBasisSha256: SHA_B };
  const parsed = parseContributionAdmission(payload);
  assert.equal(parsed.proposal.proposalSha256, PROPOSAL_GOLDEN);
  assertExactKeys((value) => parseContributionAdmission(value), payload, "frame-contribution-admitted.payload");
  rejects(() => parseContributionAdmission({ ...payload, expectedProposalSha256: SHA_C }), /expectedProposalSha256: does not match the proposal$/);
  rejects(() => parseContributionAdmission({ ...payload, proposal: { ...plain(proposalBody), proposalSha256: PROPOSAL_GOLDEN } }), /proposal\.proposalSha256: is not allowed/);
});

test("observed support shape", () => {
  const support = { supportId: "support:1", sourceKind: "material", sourceId: "source:m", sourceRevisionSha256: SHA_A, supportSha256: SHA_B };
  assert.deepEqual(parseObservedSupport(plain(support)), support);
  assertExactKeys((value) => parseObservedSupport(value), support, "support");
  // Skill returns and child frames are admitted through their own causes, never as observed support.
  rejects(() => parseObservedSupport({ ...support, sourceKind: "skill-return" }), /^support\.sourceKind: expected one of tool-result, material, user-decision, judgment-result$/);
  rejects(() => parseObservedSupport({ ...support, sourceKind: "child-frame" }), /expected one of/);
});

test("proposal rejections", () => {
  const proposal = plain(createProposal(proposalBody));
  assertExactKeys((value) => parseProposal(value), proposal, "proposal");
  assertExactKeys((value) => parseProposalBody(value), proposalBody, "proposal");
  rejects(() => parseProposal({ ...proposal, claim: "Other." }), /^proposal\.proposalSha256: does not match the proposal$/);
  rejects(() => parseProposal({ ...proposal, source: { ...proposalBody.source, kind: "observer" } }), /^proposal\.source\.kind: expected one of skill-return, tool-result, material, user-decision, judgment-result, child-frame$/);
  rejects(() => parseProposal({ ...proposal, source: { ...proposalBody.source, extra: 1 } }), /^proposal\.source\.extra: is not allowed$/);
  rejects(() => parseProposal({ ...proposal, targetUses: [] }), /^proposal\.targetUses: must not be empty$/);
  rejects(() => parseProposal({ ...proposal, targetUses: [...proposalBody.targetUses].reverse() }), /^proposal\.targetUses: must be unique and in canonical order$/);
  rejects(
    () => parseProposal({ ...proposal, targetUses: [{ obligationId: "obligation:a", useAs: "evidence" }, { obligationId: "obligation:a", useAs: "method" }] }),
    /^proposal\.targetUses: contains duplicates$/,
  );
  rejects(() => parseProposal({ ...proposal, targetUses: [{ obligationId: "obligation:a", useAs: "proof" }] }), /^proposal\.targetUses\[0\]\.useAs: expected one of/);
  rejects(() => parseProposal({ ...proposal, targetUses: [{ obligationId: "obligation:a", useAs: "evidence", x: 1 }] }), /targetUses\[0\]\.x: is not allowed/);
  assert.deepEqual(createProposal({ ...proposalBody, limitations: ["Same.", "Same."] }).limitations, ["Same.", "Same."]);
  rejects(() => parseProposal({ ...proposal, limitations: Array.from({ length: 33 }, (_, index) => `L${index}`) }), /^proposal\.limitations: has too many items$/);
  assert.equal(createProposal({ ...proposalBody, limitations: Array.from({ length: 32 }, (_, index) => `L${index}`) }).limitations.length, 32);
  assert.equal(createProposal({ ...proposalBody, limitations: [] }).limitations.length, 0);
  rejects(() => parseProposal({ ...proposal, applicability: "Applies.\n" }), /surrounding whitespace/);
  rejects(() => parseProposal({ ...proposal, frameRevision: -1 }), /integer is too small/);
  rejects(() => createProposal({ ...proposalBody, claim: "x".repeat(4001) }), /^proposal\.claim: text is too long$/);
});

test("admitted contribution rejections", () => {
  const admitted = plain(createAdmittedContribution("contribution:1", proposalBody, SHA_B));
  assertExactKeys((value) => parseAdmittedContribution(value), admitted, "contribution");
  rejects(() => parseAdmittedContribution({ ...admitted, admissionBasisSha256: SHA_C }), /^contribution\.admissionSha256: does not match the admission$/);
  rejects(() => parseAdmittedContribution({ ...admitted, contributionId: "contribution:2" }), /admissionSha256: does not match/);
  const proposal = admitted.proposal as Record<string, unknown>;
  rejects(() => parseAdmittedContribution({ ...admitted, proposal: { ...proposal, claim: "Forged." } }), /^contribution\.proposal\.proposalSha256: does not match the proposal$/);
});

// ---------------------------------------------------------------------------------------------
// 5. Discharges and conclusions

const dischargeBody: DischargeBody = {
  dischargeId: "discharge:a",
  frameId: "frame:f",
  expectedFrameRevision: 0,
  obligationId: "obligation:a",
  contributionIds: ["contribution:1"],
  stopEvidence: ["Seen.", "Seen."],
  conclusion: "Resolved.",
};

const conclusionProposal: ConclusionProposal = {
  frameId: "frame:f",
  expectedFrameRevision: 0,
  dischargeIds: ["discharge:a", "discharge:b"],
  stopEvidence: ["Both settled."],
  expectedBlockerSetSha256: EMPTY_BLOCKER_SET_SHA256,
  conclusion: "A and B are settled.",
};

test("discharge golden (reference) and round-trip; stop evidence may repeat", () => {
  const discharge = createDischarge(dischargeBody);
  assert.equal(discharge.dischargeSha256, "a5d882dcb0b358bf5e90fdbeba8f70fdb24ee8de96549cfcb8f551784043b3a2");
  assert.equal(dischargeSha256(dischargeBody), discharge.dischargeSha256);
  assert.deepEqual(parseDischarge(plain(discharge)), discharge);
  assert.deepEqual(parseDischargeBody(plain(dischargeBody)), dischargeBody);
});

test("discharge rejections", () => {
  const discharge = plain(createDischarge(dischargeBody));
  assertExactKeys((value) => parseDischargeBody(value), dischargeBody, "discharge");
  assertExactKeys((value) => parseDischarge(value), discharge, "discharge");
  rejects(() => parseDischarge({ ...discharge, conclusion: "Changed." }), /^discharge\.dischargeSha256: does not match the discharge$/);
  rejects(() => parseDischargeBody({ ...dischargeBody, contributionIds: [] }), /^discharge\.contributionIds: must not be empty$/);
  rejects(() => parseDischargeBody({ ...dischargeBody, contributionIds: ["c:2", "c:1"] }), /canonical order/);
  rejects(() => parseDischargeBody({ ...dischargeBody, contributionIds: ["c:1", "c:1"] }), /contains duplicates/);
  rejects(() => parseDischargeBody({ ...dischargeBody, stopEvidence: [] }), /^discharge\.stopEvidence: must not be empty$/);
  rejects(() => parseDischargeBody({ ...dischargeBody, stopEvidence: Array.from({ length: 101 }, () => "Seen.") }), /has too many items/);
  assert.equal(createDischarge({ ...dischargeBody, stopEvidence: Array.from({ length: 100 }, () => "Seen.") }).stopEvidence.length, 100);
  rejects(() => parseDischargeBody({ ...dischargeBody, stopEvidence: [" Seen."] }), /^discharge\.stopEvidence\[0\]: must not contain surrounding whitespace$/);
  rejects(() => parseDischargeBody({ ...dischargeBody, conclusion: "x".repeat(4001) }), /too long/);
});

test("conclusion golden (reference) and round-trip", () => {
  const conclusion = createFrameConclusion(conclusionProposal);
  assert.equal(conclusion.conclusionSha256, "93f23d32b08d55673f88d798cb7df639c7640bdfb7303d61b9e6b97e74ebd600");
  assert.equal(conclusionSha256(conclusionProposal), conclusion.conclusionSha256);
  assert.deepEqual(parseFrameConclusion(plain(conclusion)), conclusion);
  assert.deepEqual(createConclusionProposal(conclusionProposal), conclusionProposal);
  assert.deepEqual(parseConclusionProposal({ ...conclusionProposal, dischargeIds: [] }).dischargeIds, []);
});

test("conclusion rejections", () => {
  assertExactKeys((value) => parseConclusionProposal(value), conclusionProposal, "proposal");
  const conclusion = plain(createFrameConclusion(conclusionProposal));
  assertExactKeys((value) => parseFrameConclusion(value), conclusion, "conclusion");
  rejects(() => parseFrameConclusion({ ...conclusion, conclusionSha256: SHA_A }), /^conclusion\.conclusionSha256: does not match the conclusion proposal$/);
  rejects(() => parseConclusionProposal({ ...conclusionProposal, stopEvidence: [] }), /^proposal\.stopEvidence: must not be empty$/);
  rejects(() => parseConclusionProposal({ ...conclusionProposal, stopEvidence: ["Same.", "Same."] }), /^proposal\.stopEvidence: contains duplicates$/);
  rejects(() => parseConclusionProposal({ ...conclusionProposal, stopEvidence: Array.from({ length: 33 }, (_, index) => `E${index}`) }), /has too many items/);
  rejects(() => parseConclusionProposal({ ...conclusionProposal, dischargeIds: ["discharge:b", "discharge:a"] }), /canonical order/);
  rejects(() => parseConclusionProposal({ ...conclusionProposal, expectedBlockerSetSha256: "e636" }), /invalid representation/);
  rejects(() => parseConclusionProposal({ ...conclusionProposal, conclusion: "" }), /expected non-blank text/);
});

// ---------------------------------------------------------------------------------------------
// 6. Authorization and landing

const CONCLUSION_GOLDEN = "93f23d32b08d55673f88d798cb7df639c7640bdfb7303d61b9e6b97e74ebd600";
const authorizationFields: AuthorizationFields = {
  authorizationId: "change:1",
  frameId: "frame:f",
  frameRevision: 0,
  conclusionSha256: CONCLUSION_GOLDEN,
  movement: "Move A.",
  stableLanding: "A lands.",
  verificationTarget: "Tests pass.",
  boundary: null,
};
const refinement = { kind: "refinement-boundary", rawRepresentation: "raw", refinedRepresentation: "refined", producer: "parser", failure: "rejects", firstEffect: "state" } as const;
const compilerGap = { kind: "trusted-compiler-gap", assertion: "x", establishedBy: "y", limitation: "z", containment: "w", verification: "v" } as const;

test("authorization goldens for the three boundary variants (reference)", () => {
  assert.equal(createAuthorization(authorizationFields).authorizationSha256, "c503bd065fdce57c6d2354bb9ad3daa109fcc4dfa8e16ba6eadfcafbcf4435d7");
  assert.equal(createAuthorization({ ...authorizationFields, boundary: refinement }).authorizationSha256, "af4f14897904b39270eba19016e2b928fedbccd4d7c0d2ae9a3d8377ecdc0a40");
  assert.equal(createAuthorization({ ...authorizationFields, boundary: compilerGap }).authorizationSha256, "d3360ac91bb751a10050699a8e30e72eb5a80d1ce2e18700b1042b58ac33bb89");
  for (const boundary of [null, refinement, compilerGap]) {
    const authorization = createAuthorization({ ...authorizationFields, boundary });
    assert.deepEqual(parseAuthorization(plain(authorization)), authorization);
    assert.equal(authorizationSha256(authorization), authorization.authorizationSha256);
  }
});

test("authorization rejections", () => {
  const authorization = plain(createAuthorization({ ...authorizationFields, boundary: refinement }));
  assertExactKeys((value) => parseAuthorization(value), authorization, "authorization");
  assertExactKeys((value) => parseAuthorizationFields(value), authorizationFields, "authorization");
  rejects(() => parseAuthorization({ ...authorization, movement: "Move B." }), /^authorization\.authorizationSha256: does not match the authorization$/);
  rejects(() => parseAuthorization({ ...authorization, boundary: null }), /authorizationSha256: does not match/);
  rejects(() => parseAuthorization({ ...authorization, stableLanding: "A lands. " }), /^authorization\.stableLanding: must not contain surrounding whitespace$/);
  rejects(() => parseAuthorization({ ...authorization, frameRevision: "0" }), /expected a safe integer/);
  rejects(() => parseAuthorization({ ...authorization, conclusionSha256: "x" }), /invalid representation/);
  rejects(() => parseAuthorizationFields({ ...authorizationFields, verificationTarget: "x".repeat(4001) }), /too long/);
});

test("boundary union: null, two exact variants, nothing else", () => {
  assert.equal(parseBoundary(null), null);
  assert.deepEqual(parseBoundary({ ...refinement }), refinement);
  assert.deepEqual(parseBoundary({ ...compilerGap }), compilerGap);
  rejects(() => parseBoundary({ ...refinement, kind: "other" }), /^boundary\.kind: expected one of refinement-boundary, trusted-compiler-gap$/);
  rejects(() => parseBoundary({ ...refinement, assertion: "x" }), /^boundary\.assertion: is not allowed$/);
  rejects(() => parseBoundary({ ...compilerGap, kind: "refinement-boundary" }), /^boundary\.rawRepresentation: is required$/);
  rejects(() => parseBoundary({ ...refinement, producer: "" }), /^boundary\.producer: expected non-blank text$/);
  // The kind discriminates first (as in the reference), so a missing kind is an unknown kind.
  rejects(() => parseBoundary(withoutKey(compilerGap, "kind")), /^boundary\.kind: expected one of/);
  rejects(() => parseBoundary(withKey(compilerGap, "extra", 1)), /^boundary\.extra: is not allowed$/);
  for (const key of Object.keys(compilerGap).filter((entry) => entry !== "kind")) {
    rejects(() => parseBoundary(withoutKey(compilerGap, key)), new RegExp(`^boundary\\.${key}: is required$`));
  }
  rejects(() => parseBoundary(undefined), /expected an object/);
  rejects(() => parseBoundary([]), /expected an object/);
});

const landingFields: LandingFields = {
  landingId: "landing:1",
  authorizationId: "change:1",
  changedPaths: ["a.ts", "src/b.ts"],
  result: "Done.",
  verification: ["npm test"],
  rerouteFrameId: "frame:r",
  verificationFrameId: "frame:v",
};

test("landing goldens (reference) and round-trip", () => {
  const landing = createLanding(landingFields);
  assert.equal(landing.changedPathsSha256, "b6e7d80b7a40816e72ac149d5ce9c5503ae949b7555596b4fe345650e39721a1");
  assert.equal(landing.verificationSha256, "a5a9f4aef2ed096826f488eeee8b33f805a4a681efa95c1b6c9242d85c10703e");
  assert.equal(landing.landingSha256, "2de1be00a78af433fa9e64b24769dd4f29952497bd97df8de802462402d75309");
  assert.equal(
    createLanding({ ...landingFields, changedPaths: ["a.ts"], verification: [] }).verificationSha256,
    "d5b5318423e3071769a25eb072373b8233449b98a284496ade433e76c5cbd5a7",
  );
  assert.deepEqual(parseLanding(plain(landing)), landing);
  assert.deepEqual(landingHashes(landingFields), {
    changedPathsSha256: landing.changedPathsSha256,
    verificationSha256: landing.verificationSha256,
    landingSha256: landing.landingSha256,
  });
});

test("landing rejections", () => {
  const landing = plain(createLanding(landingFields));
  assertExactKeys((value) => parseLanding(value), landing, "landing");
  assertExactKeys((value) => parseLandingFields(value), landingFields, "landing");
  rejects(() => parseLanding({ ...landing, changedPathsSha256: SHA_A }), /^landing\.changedPathsSha256: does not match the changed paths$/);
  rejects(() => parseLanding({ ...landing, verificationSha256: SHA_A }), /^landing\.verificationSha256: does not match the verification$/);
  rejects(() => parseLanding({ ...landing, landingSha256: SHA_A }), /^landing\.landingSha256: does not match the landing$/);
  rejects(() => parseLanding({ ...landing, result: "Other." }), /landingSha256: does not match/);
  rejects(() => parseLandingFields({ ...landingFields, changedPaths: [] }), /^landing\.changedPaths: must not be empty$/);
  rejects(() => parseLandingFields({ ...landingFields, changedPaths: ["src/b.ts", "a.ts"] }), /^landing\.changedPaths: must be unique and in canonical order$/);
  rejects(() => parseLandingFields({ ...landingFields, changedPaths: ["a.ts", "a.ts"] }), /canonical order/);
  const paths = Array.from({ length: 201 }, (_, index) => `p${String(index).padStart(3, "0")}`);
  rejects(() => parseLandingFields({ ...landingFields, changedPaths: paths }), /^landing\.changedPaths: has too many items$/);
  assert.equal(createLanding({ ...landingFields, changedPaths: paths.slice(0, 200) }).changedPaths.length, 200);
  rejects(() => parseLandingFields({ ...landingFields, changedPaths: [`a${"x".repeat(4096)}`] }), /^landing\.changedPaths\[0\]: text is too long$/);
  assert.equal(createLanding({ ...landingFields, changedPaths: ["x".repeat(4096)] }).changedPaths[0]?.length, 4096);
  rejects(() => parseLandingFields({ ...landingFields, changedPaths: [" a.ts"] }), /surrounding whitespace/);
  rejects(() => parseLandingFields({ ...landingFields, verification: ["b", "a"] }), /^landing\.verification: must be unique and in canonical order$/);
  const checks = Array.from({ length: 101 }, (_, index) => `check ${String(index).padStart(3, "0")}`);
  rejects(() => parseLandingFields({ ...landingFields, verification: checks }), /^landing\.verification: has too many items$/);
  rejects(() => parseLandingFields({ ...landingFields, verificationFrameId: "frame:r" }), /^landing\.verificationFrameId: must differ from rerouteFrameId$/);
});

test("landing debt shape", () => {
  const landing = createLanding(landingFields);
  const ref = { workScopeId: "scope:s", eventId: "event:land", eventSha256: SHA_C };
  const debt = createLandingDebt(landing, ref);
  assert.deepEqual(debt, { landingId: "landing:1", landingEventRef: ref, rerouteFrameId: "frame:r", verificationFrameId: "frame:v", reroutePending: true, verificationPending: true });
  assert.deepEqual(parseLandingDebt(plain({ ...debt, reroutePending: false })).reroutePending, false);
  assertExactKeys((value) => parseLandingDebt(value), debt, "debt");
  rejects(() => parseLandingDebt({ ...plain(debt), reroutePending: "true" }), /^debt\.reroutePending: expected a boolean$/);
  rejects(() => parseLandingDebt({ ...plain(debt), landingEventRef: { ...ref, extra: 1 } }), /^debt\.landingEventRef\.extra: is not allowed$/);
  rejects(() => parseLandingDebt({ ...plain(debt), verificationFrameId: "frame:r" }), /must differ/);
});

// ---------------------------------------------------------------------------------------------
// 7. Skills

const assignmentBody: ReadySkillAssignmentBody = {
  assignmentId: "assignment:1",
  skillCapabilityId: "skill:model",
  skillRevisionSha256: SHA_A,
  parentFrameId: "frame:f",
  parentFrameRevision: 0,
  targetObligationIds: ["obligation:a"],
  subquestion: "What is A?",
  applicabilityBasisSha256: SHA_B,
  expectedContribution: "A claim.",
  limitations: ["Only A."],
  returnContract: "developer-skill-return/v1",
  contextBasisSha256: SHA_C,
  authority: "contribution-only",
};

const returnedContribution: InvocationSettlement = {
  kind: "returned",
  invocationId: "invocation:1",
  assignmentId: "assignment:1",
  value: { kind: "contribution", claim: "A.", applicability: "f.", targetUses: [{ obligationId: "obligation:a", useAs: "evidence" }], limitations: [] },
};

test("ready assignment golden (reference), round-trip and rejections", () => {
  const assignment = createReadySkillAssignment(assignmentBody);
  assert.equal(assignment.assignmentRevisionSha256, "ad68d8612f86c95a7d03a5caaf54e3208745e71ec19075c496cd6e2a792fafe4");
  assert.equal(assignmentRevisionSha256(assignmentBody), assignment.assignmentRevisionSha256);
  assert.deepEqual(parseReadySkillAssignment(plain(assignment)), assignment);
  const raw = plain(assignment);
  assertExactKeys((value) => parseReadySkillAssignment(value), raw, "readySkillAssignment");
  rejects(() => parseReadySkillAssignment({ ...raw, subquestion: "What is B?" }), /^readySkillAssignment\.assignmentRevisionSha256: does not match the assignment$/);
  rejects(() => parseReadySkillAssignment({ ...raw, authority: "mutation" }), /^readySkillAssignment\.authority: expected one of contribution-only$/);
  rejects(() => parseReadySkillAssignment({ ...raw, returnContract: "developer-skill-return/v2" }), /returnContract: expected one of developer-skill-return\/v1/);
  rejects(() => parseReadySkillAssignment({ ...raw, targetObligationIds: [] }), /must not be empty/);
  rejects(() => parseReadySkillAssignment({ ...raw, targetObligationIds: ["o:b", "o:a"] }), /canonical order/);
  rejects(() => parseReadySkillAssignment({ ...raw, limitations: ["L", "L"] }), /limitations: contains duplicates/);
  rejects(() => parseReadySkillAssignment({ ...raw, limitations: Array.from({ length: 33 }, (_, index) => `L${index}`) }), /limitations: has too many items/);
  rejects(() => parseReadySkillAssignment({ ...raw, expectedContribution: "A claim. " }), /surrounding whitespace/);
});

test("skill return union: five exact variants", () => {
  const variants = [
    { kind: "contribution", claim: "A.", applicability: "f.", targetUses: [{ obligationId: "obligation:b", useAs: "evidence" }, { obligationId: "obligation:a", useAs: "method" }], limitations: ["L"] },
    { kind: "dependency", dependencyId: "dependency:1", targetObligationIds: ["obligation:a"], question: "Which A?", reason: "Unclear." },
    { kind: "not-applicable", targetObligationIds: ["obligation:a"], reason: "Not this." },
    { kind: "needs-context", targetObligationIds: ["obligation:a"], missingContext: ["The spec."] },
    { kind: "abort", reason: "Stopped." },
  ];
  for (const variant of variants) {
    assert.deepEqual(parseSkillReturn(plain(variant)), variant);
    rejects(() => parseSkillReturn({ ...variant, extra: 1 }), /^skillReturn\.extra: is not allowed$/);
    for (const key of Object.keys(variant).filter((entry) => entry !== "kind")) {
      rejects(() => parseSkillReturn(withoutKey(variant, key)), new RegExp(`^skillReturn\\.${key}: is required$`));
    }
  }
  rejects(() => parseSkillReturn({ kind: "escalate", reason: "x" }), /^skillReturn\.kind: expected one of contribution, dependency, not-applicable, needs-context, abort$/);
  rejects(() => parseSkillReturn({ reason: "x" }), /^skillReturn\.kind: expected one of/);
  const [contribution, dependency, , needsContext] = variants;
  // Returned target uses are unique per (obligation, use), in any order; one obligation may carry two uses.
  const twoUses = parseSkillReturn({ ...contribution, targetUses: [{ obligationId: "obligation:a", useAs: "evidence" }, { obligationId: "obligation:a", useAs: "method" }] });
  assert.equal(twoUses.kind === "contribution" ? twoUses.targetUses.length : 0, 2);
  rejects(() => parseSkillReturn({ ...contribution, targetUses: [{ obligationId: "obligation:a", useAs: "evidence" }, { obligationId: "obligation:a", useAs: "evidence" }] }), /^skillReturn\.targetUses: contains duplicates$/);
  rejects(() => parseSkillReturn({ ...contribution, targetUses: [] }), /^skillReturn\.targetUses: must not be empty$/);
  rejects(() => parseSkillReturn({ ...dependency, targetObligationIds: ["obligation:b", "obligation:a"] }), /canonical order/);
  rejects(() => parseSkillReturn({ ...needsContext, missingContext: [] }), /^skillReturn\.missingContext: must not be empty$/);
  rejects(() => parseSkillReturn({ ...needsContext, missingContext: ["X", "X"] }), /^skillReturn\.missingContext: contains duplicates$/);
  rejects(() => parseSkillReturn({ ...needsContext, missingContext: Array.from({ length: 33 }, (_, index) => `M${index}`) }), /has too many items/);
});

test("invocation settlements: returned, capability-failed, lifecycle are distinct facts", () => {
  const failed: InvocationSettlement = { kind: "capability-failed", invocationId: "invocation:1", assignmentId: "assignment:1", failure: { kind: "timeout", timeoutMs: 5 } };
  const cancelled: InvocationSettlement = {
    kind: "lifecycle",
    invocationId: "invocation:1",
    assignmentId: "assignment:1",
    lifecycle: { kind: "cancelled", reason: "User disabled Developer.", executionUncertain: true },
  };
  for (const settlement of [returnedContribution, failed, cancelled]) {
    assert.deepEqual(parseInvocationSettlement(plain(settlement)), settlement);
    assert.deepEqual(createInvocationSettlement(settlement), settlement);
    rejects(() => parseInvocationSettlement(withKey(settlement, "extra", 1)), /^settlement\.extra: is not allowed$/);
  }
  rejects(() => parseInvocationSettlement(withoutKey(returnedContribution, "value")), /^settlement\.value: is required$/);
  rejects(() => parseInvocationSettlement({ ...plain(failed), lifecycle: plain(cancelled).lifecycle }), /^settlement\.lifecycle: is not allowed$/);
  rejects(() => parseInvocationSettlement({ ...plain(cancelled), kind: "aborted" }), /^settlement\.kind: expected one of returned, capability-failed, lifecycle$/);
  rejects(() => parseInvocationSettlement({ ...plain(cancelled), invocationId: "" }), /^settlement\.invocationId: expected non-blank text$/);
  assert.deepEqual(parseCapabilityFailure({ kind: "resolver-error", message: "No resolver." }), { kind: "resolver-error", message: "No resolver." });
  assert.deepEqual(parseCapabilityFailure({ kind: "invalid-or-silent-return", reason: "Empty." }), { kind: "invalid-or-silent-return", reason: "Empty." });
  rejects(() => parseCapabilityFailure({ kind: "timeout", timeoutMs: 0 }), /^failure\.timeoutMs: integer is too small$/);
  rejects(() => parseCapabilityFailure({ kind: "timeout", timeoutMs: 1.5 }), /expected a safe integer/);
  rejects(() => parseCapabilityFailure({ kind: "resolver-error", reason: "x" }), /^failure\.message: is required$/);
  rejects(() => parseCapabilityFailure({ kind: "crash", message: "x" }), /^failure\.kind: expected one of/);
  for (const kind of ["cancelled", "superseded", "stale"]) {
    assert.equal(parseLifecycleSettlement({ kind, reason: "R.", executionUncertain: false }).kind, kind);
  }
  rejects(() => parseLifecycleSettlement({ kind: "expired", reason: "R.", executionUncertain: false }), /^lifecycle\.kind: expected one of cancelled, superseded, stale$/);
  rejects(() => parseLifecycleSettlement({ kind: "stale", reason: "R.", executionUncertain: "yes" }), /^lifecycle\.executionUncertain: expected a boolean$/);
  assertExactKeys((value) => parseLifecycleSettlement(value), { kind: "stale", reason: "R.", executionUncertain: false }, "lifecycle");
});

test("skill-return support hash goldens (reference)", () => {
  assert.equal(skillReturnSupportSha256(returnedContribution), "75ac528abfc0270a0fdad5f854c562774863a0671653f7f2ed0edb65ca2151b9");
  assert.equal(
    skillReturnSupportSha256({ kind: "capability-failed", invocationId: "invocation:1", assignmentId: "assignment:1", failure: { kind: "timeout", timeoutMs: 5 } }),
    "6556cea2338652384c95c709e63a8a7ab4c02cc987aa021e69c2ddb288f2639a",
  );
  rejects(() => skillReturnSupportSha256({ ...returnedContribution, invocationId: "bad id" }), /settlement\.invocationId/);
});

// ---------------------------------------------------------------------------------------------
// 8. Routing

const candidateSource = { sourceId: "source:x", revision: "r1" };
const refinementProvenance = { producerId: "producer:p", producerRevisionSha256: SHA_B, basisSha256: SHA_C };
const descriptorBodies: readonly CandidateDescriptorBody[] = [
  { candidateId: "candidate:cap", kind: "capability", source: candidateSource, subjectId: "skill:model", subjectRevisionSha256: SHA_A, registryRevisionSha256: SHA_B },
  { candidateId: "candidate:tool", kind: "tool", source: candidateSource, subjectId: "tool:bash", subjectRevisionSha256: SHA_A, schemaSha256: SHA_B },
  { candidateId: "candidate:mat", kind: "material", source: candidateSource, subjectId: "material:m", subjectRevisionSha256: SHA_A, contentDescriptorSha256: SHA_B },
  ...(["constraint", "evidence", "decision"] as const).map((kind) => ({
    candidateId: `candidate:${kind}`,
    kind,
    source: candidateSource,
    subjectId: `subject:${kind}`,
    subjectRevisionSha256: SHA_A,
    refinement: refinementProvenance,
  })),
];
const DESCRIPTOR_GOLDENS = [
  "b5c1959d33cce72fddf13b8074db2b55cea415b0adbf1b24bc90ac89c4c89d69",
  "7762456975a2e1057b19f527956b76b11bfd01cf9d9c29dc6af04cc1325eb9a1",
  "7f8710d82c8d712395c442e6c99dfeef5dd775487a1313026f9ec4b5a7a720b2",
  "753ed72de8a69afb00b272f4e4bc4931e11dbda9c04681729b4487baa75ef34b",
  "65a96d279d6e606b4e9d20f338c9f2fbb4d079311db444f6138ee16a401e258f",
  "e307c5746f65df8758a7a7b9fc737cb5ce370dd1414d3694b58016ac81ff49aa",
];
const snapshotBasis: SnapshotBasis = {
  frameId: "frame:f",
  frameRevision: 0,
  obligationSetSha256: "9a55200193718ba3b60df5ec0b8b6f7e87401d6b72c5dd29130de9af9ff7174a",
  admittedUniverseSha256: SHA_A,
  providerSourceRevisions: [
    { sourceId: "source:a", revision: "1" },
    { sourceId: "source:b", revision: "2" },
  ],
  priorityStrategySha256: SHA_B,
};
const BASIS_GOLDEN = "780a4d020451292f573ed344f6ff3e087fb844c53c73e7cb44344732e2fa4c15";
const COVERAGE_GOLDEN = "6b068fd3a6990d2b6ab8eb9070c51444666d2170e84095784ce9368b3c427efd";

function descriptors(): readonly CandidateDescriptor[] {
  return descriptorBodies.map(createCandidateDescriptor);
}

test("six descriptor kinds: goldens (reference), round-trips, exact keys per kind", () => {
  const created = descriptors();
  assert.deepEqual(created.map((entry) => entry.descriptorSha256), DESCRIPTOR_GOLDENS);
  assert.equal(obligationSetSha256([obligationA, obligationB]), snapshotBasis.obligationSetSha256);
  for (const [index, descriptor] of created.entries()) {
    assert.deepEqual(parseCandidateDescriptor(plain(descriptor)), descriptor);
    assert.equal(descriptorSha256(descriptorBodies[index] as CandidateDescriptorBody), descriptor.descriptorSha256);
    assertVariantKeys((value) => parseCandidateDescriptor(value), descriptor, "candidate");
  }
  const capability = plain(created[0]);
  rejects(() => parseCandidateDescriptor({ ...capability, kind: "skill" }), /^candidate\.kind: expected one of capability, tool, material, constraint, evidence, decision$/);
  rejects(() => parseCandidateDescriptor({ ...capability, schemaSha256: SHA_B }), /^candidate\.schemaSha256: is not allowed$/);
  rejects(() => parseCandidateDescriptor({ ...capability, kind: "tool" }), /^candidate\.schemaSha256: is required$/);
  rejects(() => parseCandidateDescriptor({ ...capability, subjectId: "skill:other" }), /^candidate\.descriptorSha256: does not match the candidate descriptor$/);
  rejects(() => parseCandidateDescriptor({ ...capability, source: { ...candidateSource, extra: 1 } }), /^candidate\.source\.extra: is not allowed$/);
  rejects(() => parseCandidateDescriptor({ ...capability, source: { sourceId: "source:x", revision: " r1" } }), /surrounding whitespace/);
  const refined = plain(created[3]);
  rejects(() => parseCandidateDescriptor({ ...refined, refinement: { ...refinementProvenance, extra: 1 } }), /^candidate\.refinement\.extra: is not allowed$/);
  rejects(() => parseCandidateDescriptor({ ...refined, refinement: { ...refinementProvenance, basisSha256: SHA_D } }), /descriptorSha256: does not match/);
});

test("snapshot basis: golden (reference), value wrapper, provider order", () => {
  assert.equal(snapshotBasisSha256(snapshotBasis), BASIS_GOLDEN);
  assert.deepEqual(parseSnapshotBasis(plain(snapshotBasis)), snapshotBasis);
  assert.deepEqual(createSnapshotBasis(snapshotBasis), snapshotBasis);
  assertExactKeys((value) => parseSnapshotBasis(value), snapshotBasis, "snapshotBasis");
  const reversed = { ...plain(snapshotBasis), providerSourceRevisions: [...snapshotBasis.providerSourceRevisions].reverse() };
  rejects(() => parseSnapshotBasis(reversed), /^snapshotBasis\.providerSourceRevisions: must be unique and in canonical order$/);
  const repeated = { ...plain(snapshotBasis), providerSourceRevisions: [{ sourceId: "source:a", revision: "1" }, { sourceId: "source:a", revision: "2" }] };
  rejects(() => parseSnapshotBasis(repeated), /canonical order/);
  const long = { ...plain(snapshotBasis), providerSourceRevisions: [{ sourceId: "source:a", revision: "x".repeat(1001) }] };
  rejects(() => parseSnapshotBasis(long), /^snapshotBasis\.providerSourceRevisions\[0\]\.revision: text is too long$/);
});

test("pages, page chain and manifest: goldens (reference) and order sensitivity", () => {
  const pages = createCandidatePages("snapshot:1", descriptors(), 4);
  assert.deepEqual(pages.map((page) => page.pageSha256), [
    "71187efd5d50cfee35808fb755ca45c16380745780e5549a595a12710b6cc3e8",
    "edac0639b659d103f1c6905e7288d2196ae8225ee720131c2e8e718c3f7a9326",
  ]);
  assert.deepEqual(pages.map((page) => page.candidates.length), [4, 2]);
  const manifest = createSnapshotManifest("snapshot:1", snapshotBasis, pages);
  assert.deepEqual(manifest, {
    snapshotId: "snapshot:1",
    snapshotBasisSha256: BASIS_GOLDEN,
    pageCount: 2,
    candidateCount: 6,
    orderedPageRootSha256: "c84d84d2be62d94bb9728845e9dd09a51805dcf2bb666e0121db5997f40c757f",
  });
  assert.deepEqual(parseSnapshotManifest(plain(manifest)), manifest);
  assertExactKeys((value) => parseSnapshotManifest(value), manifest, "snapshotSealManifest");
  const seed = pageChainSeed("snapshot:1", BASIS_GOLDEN);
  const first = pages[0] as (typeof pages)[number];
  const second = pages[1] as (typeof pages)[number];
  assert.equal(pageChainLink(pageChainLink(seed, 0, first.pageSha256), 1, second.pageSha256), manifest.orderedPageRootSha256);
  assert.equal(orderedPageRootSha256("snapshot:1", BASIS_GOLDEN, pages), manifest.orderedPageRootSha256);
  assert.notEqual(pageChainLink(pageChainLink(seed, 0, second.pageSha256), 1, first.pageSha256), manifest.orderedPageRootSha256);
  const empty = createSnapshotManifest("snapshot:1", snapshotBasis, []);
  assert.equal(empty.orderedPageRootSha256, "19a808da561a28b75a54c31be0e7e05364de2876d4a0a52d8476a91b240afd4a");
  assert.equal(empty.orderedPageRootSha256, seed);
  assert.deepEqual([empty.pageCount, empty.candidateCount], [0, 0]);
  rejects(() => createSnapshotManifest("snapshot:1", snapshotBasis, [second, first]), /^pages\[0\]: must belong to the snapshot and keep its index order$/);
  rejects(() => createSnapshotManifest("snapshot:2", snapshotBasis, pages), /must belong to the snapshot/);
});

test("page rules: size 1..100, unique ids, hash-bound to snapshot and index", () => {
  const many = Array.from({ length: 101 }, (_, index) =>
    createCandidateDescriptor({ ...(descriptorBodies[1] as CandidateDescriptorBody), candidateId: `candidate:t${String(index).padStart(3, "0")}` }),
  );
  const pages = createCandidatePages("snapshot:1", many);
  assert.deepEqual(pages.map((page) => page.candidates.length), [100, 1]);
  const page = plain(pages[0]);
  assert.deepEqual(parseCandidatePage(page), pages[0]);
  assertExactKeys((value) => parseCandidatePage(value), page, "page");
  rejects(() => parseCandidatePage({ ...page, candidates: [...(page.candidates as unknown[]), plain(pages[1]).candidates] }), /^page\.candidates: has too many items$/);
  rejects(() => parseCandidatePage({ ...page, candidates: [] }), /^page\.candidates: must not be empty$/);
  rejects(() => parseCandidatePage({ ...page, pageIndex: 1 }), /^page\.pageSha256: does not match the page$/);
  rejects(() => parseCandidatePage({ ...page, snapshotId: "snapshot:2" }), /pageSha256: does not match/);
  const duplicate = plain(descriptors()[0]);
  rejects(() => parseCandidatePage({ ...page, candidates: [duplicate, duplicate] }), /^page\.candidates: contains duplicates$/);
  rejects(() => createCandidatePages("snapshot:1", [descriptors()[0] as CandidateDescriptor, descriptors()[0] as CandidateDescriptor]), /^candidates: contains duplicates$/);
  rejects(() => createCandidatePages("snapshot:1", descriptors(), 0), /^pageSize: integer is too small$/);
  rejects(() => createCandidatePages("snapshot:1", descriptors(), 101), /^pageSize: integer is too large$/);
  assert.deepEqual(createCandidatePages("snapshot:1", []), []);
});

test("candidate dispositions: allowed effects per kind, effects in obligation order", () => {
  const disposition = {
    candidateId: "candidate:cap",
    descriptorSha256: DESCRIPTOR_GOLDENS[0],
    kind: "selected-for-material",
    targetEffects: [
      { obligationId: "obligation:a", effect: "selected" },
      { obligationId: "obligation:b", effect: "cleared" },
    ],
    rationale: "Because.",
  };
  assert.deepEqual(parseCandidateDisposition(plain(disposition)), disposition);
  assertExactKeys((value) => parseCandidateDisposition(value), disposition, "disposition");
  rejects(() => parseCandidateDisposition({ ...disposition, kind: "considered-not-selected" }), /^disposition\.targetEffects\[0\]\.effect: considered-not-selected cannot produce selected$/);
  rejects(() => parseCandidateDisposition({ ...disposition, kind: "needs-context" }), /needs-context cannot produce selected/);
  rejects(() => parseCandidateDisposition({ ...disposition, targetEffects: [...disposition.targetEffects].reverse() }), /^disposition\.targetEffects: must be unique and in canonical order$/);
  rejects(() => parseCandidateDisposition({ ...disposition, kind: "ignored" }), /^disposition\.kind: expected one of/);
  rejects(() => parseCandidateDisposition({ ...disposition, targetEffects: [{ obligationId: "obligation:a", effect: "done" }] }), /effect: expected one of selected, cleared, blocked, optional-limitation$/);
  const blocked = { ...disposition, kind: "invalid/unavailable", targetEffects: [{ obligationId: "obligation:a", effect: "blocked" }] };
  assert.equal(parseCandidateDisposition(blocked).kind, "invalid/unavailable");
});

test("coverage and can-serve basis goldens (reference)", () => {
  const created = descriptors();
  const pages = createCandidatePages("snapshot:1", created, 4);
  const manifest = createSnapshotManifest("snapshot:1", snapshotBasis, pages);
  const capability = created[0] as CandidateDescriptor;
  const coverage = coverageSha256(
    manifest,
    [{ candidateId: capability.candidateId, descriptorSha256: capability.descriptorSha256 }],
    [
      { obligationId: "obligation:a", selectedCount: 1, clearedCount: 5, blockedCount: 0, optionalLimitationCount: 0 },
      { obligationId: "obligation:b", selectedCount: 0, clearedCount: 6, blockedCount: 0, optionalLimitationCount: 0 },
    ],
  );
  assert.equal(coverage, COVERAGE_GOLDEN);
  const body: CanServeBasisBody = {
    basisId: "basis:1",
    candidateId: "candidate:cap",
    targetObligationIds: ["obligation:a"],
    methodRevisionSha256: SHA_C,
    policy: { kind: "complete", revisionSha256: SHA_D },
    rootApplicability: "applicable",
  };
  const derivation: CanServeDerivation = {
    snapshotId: "snapshot:1",
    frameId: "frame:f",
    frameRevision: 0,
    capabilityId: capability.subjectId,
    capabilityRevisionSha256: capability.subjectRevisionSha256,
    descriptorSha256: capability.descriptorSha256,
    contextBasisSha256: coverage,
  };
  const basis = createCanServeBasis(body, derivation);
  assert.equal(basis.basisSha256, "a61d0ccb4380e2f72df885613fb3bb77546d7c0f0fdf94cfaf2734fd2a224db8");
  assert.equal(canServeBasisSha256(basis), basis.basisSha256);
  assert.equal(
    createCanServeBasis({ ...body, basisId: "basis:2", policy: { kind: "absent" } }, derivation).basisSha256,
    "eb1c1729b26492bef8fab7883091f87f00fc9c8d70b8feff6479a921bcb8599c",
  );
  assert.deepEqual(parseCanServeBasis(plain(basis)), basis);
  const raw = plain(basis);
  assertExactKeys((value) => parseCanServeBasis(value), raw, "basis");
  rejects(() => parseCanServeBasis({ ...raw, contextBasisSha256: SHA_A }), /^basis\.basisSha256: does not match the can-serve basis$/);
  rejects(() => parseCanServeBasis({ ...raw, kind: "can-route" }), /^basis\.kind: expected one of can-serve$/);
  assert.deepEqual(parseCanServeBasisBody(plain(body)), body);
  assertExactKeys((value) => parseCanServeBasisBody(value), body, "body");
  rejects(() => parseCanServeBasisBody({ ...body, rootApplicability: "not-applicable" }), /^body\.rootApplicability: expected one of applicable$/);
  rejects(() => parseCanServeBasisBody({ ...body, targetObligationIds: [] }), /must not be empty/);
  rejects(() => parseCanServeBasisBody({ ...body, targetObligationIds: ["o:b", "o:a"] }), /canonical order/);
  assert.deepEqual(parsePolicy({ kind: "absent" }), { kind: "absent" });
  rejects(() => parsePolicy({ kind: "absent", revisionSha256: SHA_A }), /^policy\.revisionSha256: is not allowed$/);
  rejects(() => parsePolicy({ kind: "complete" }), /^policy\.revisionSha256: is required$/);
  rejects(() => parsePolicy({ kind: "partial" }), /^policy\.kind: expected one of absent, complete$/);
});
