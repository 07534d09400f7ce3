// judgment.md §7–§9: coverage (useAs, assurance bounded by provenance), outcome, identity chain.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  concludeJudgment,
  coverageProposalFromJson,
  decodeContextCoverageProposalData,
  jsonValueFromUnknown,
  JudgmentParseError,
  judgmentProposalFromJson,
  sha256,
  canonicalJson,
  type ContextCoverage,
} from "../../server/judgment";
import { coverageFor, question, sealedChain } from "../fixtures/judgment/builders";

type Chain = Awaited<ReturnType<typeof sealedChain>>;

const REF = "inventory-source:reference-boundary";
const RESULT = "observed-context:result-1";
const USER = "observed-context:user-1";
const DOMAIN = "observed-context:domain-1";

function rejects(fn: () => unknown, message: string | RegExp): void {
  assert.throws(fn, (error: unknown) => error instanceof JudgmentParseError && (typeof message === "string" ? error.message === message : message.test(error.message)));
}

const agent = (materialId: string, useAs = "evidence", contribution = `What ${materialId} supports, and what it does not check.`) => ({
  materialId,
  useAs,
  contribution,
  assurance: "agent-asserted",
});

function allContributions() {
  return [
    agent(REF, "method", "Adds the caller/owner/direction distinctions; does not decide the name."),
    agent(RESULT, "evidence", "Supports that the verifier ran; does not check coverage."),
    { ...agent(USER, "decision", "The user chose to keep the public name."), assurance: "user-accepted", userEventId: "event-7" },
    { ...agent(DOMAIN, "constraint", "The change must keep typecheck at zero errors."), assurance: "domain-verified", evaluator: { id: "tsc", version: "5.9" }, evidenceMaterialIds: [DOMAIN] },
  ];
}

function sufficient(chain: Chain): ContextCoverage {
  return coverageFor(chain.sealed, { status: "sufficient", contributions: allContributions(), conflicts: [], limitations: [] });
}

test("useAs kinds and assurance levels are closed sets", () => {
  for (const useAs of ["constraint", "evidence", "decision", "method", "guidance"])
    assert.equal(coverageProposalFromJson(jsonValueFromUnknown({ status: "sufficient", contributions: [agent(REF, useAs)], conflicts: [], limitations: [] })).contributions.length, 1);
  for (const bad of [agent(REF, "useful"), { ...agent(REF), assurance: "model-verified" }, { ...agent(REF), assurance: "user-accepted" }, { ...agent(REF), extra: 1 }])
    rejects(() => decodeContextCoverageProposalData(jsonValueFromUnknown({ status: "sufficient", contributions: [bad], conflicts: [], limitations: [] })), "Context coverage proposal has an invalid representation.");
  rejects(() => decodeContextCoverageProposalData(jsonValueFromUnknown({ status: "done", contributions: [], conflicts: [], limitations: [] })), /invalid representation/u);
  rejects(
    () => decodeContextCoverageProposalData(jsonValueFromUnknown({ status: "needs-evidence", contributions: [], conflicts: [{ materialIds: [REF], description: "x" }], limitations: [] })),
    /invalid representation/u,
  );
});

test("derived ids: prefix + 32 hex of the canonical body; sorted; identical bodies rejected", () => {
  const proposal = coverageProposalFromJson(
    jsonValueFromUnknown({
      status: "needs-evidence",
      contributions: [agent(RESULT), agent(REF)],
      conflicts: [{ materialIds: [RESULT, REF], description: "They disagree on the owner." }],
      limitations: [{ basisMaterialIds: [], description: "No runtime trace was available." }],
    }),
  );
  const body = agent(REF);
  const expected = `contribution:${sha256(canonicalJson(body)).slice(0, 32)}`;
  assert.ok(proposal.contributions.some((c) => c.contributionId === expected));
  assert.deepEqual(
    proposal.contributions.map((c) => c.contributionId),
    [...proposal.contributions.map((c) => c.contributionId)].sort((a, b) => a.localeCompare(b)),
  );
  assert.equal(proposal.conflicts[0]?.conflictId, `conflict:${sha256(canonicalJson({ materialIds: [REF, RESULT], description: "They disagree on the owner." })).slice(0, 32)}`);
  assert.equal(proposal.limitations[0]?.limitationId, `limitation:${sha256(canonicalJson({ basisMaterialIds: [], description: "No runtime trace was available." })).slice(0, 32)}`);
  rejects(() => coverageProposalFromJson(jsonValueFromUnknown({ status: "sufficient", contributions: [agent(REF), agent(REF)], conflicts: [], limitations: [] })), /^Duplicate context contribution: contribution:[0-9a-f]{32}\.$/u);
  rejects(
    () => coverageProposalFromJson(jsonValueFromUnknown({ status: "sufficient", contributions: [agent(REF), { ...agent(REF), contribution: `What ${REF} supports,  and what it does not check.` }], conflicts: [], limitations: [] })),
    /Duplicate context contribution/u,
  );
});

test("coverage: every sealed member needs a contribution; contributions must name sealed members", async () => {
  const chain = await sealedChain();
  const coverage = sufficient(chain);
  assert.equal(coverage.status, "sufficient");
  assert.equal(coverage.sealedContextSha256, chain.sealed.sealedContextSha256);
  rejects(() => coverageFor(chain.sealed, { status: "sufficient", contributions: allContributions().slice(1), conflicts: [], limitations: [] }), `Selected material has no contribution: ${REF}.`);
  rejects(() => coverageFor(chain.sealed, { status: "sufficient", contributions: [], conflicts: [], limitations: [] }), /no contribution/u);
  rejects(() => coverageFor(chain.sealed, { status: "sufficient", contributions: [...allContributions(), agent("observed-context:ghost")], conflicts: [], limitations: [] }), "Unknown contribution material: observed-context:ghost.");
  rejects(
    () => coverageFor(chain.sealed, { status: "needs-evidence", contributions: allContributions(), conflicts: [], limitations: [{ basisMaterialIds: ["ghost"], description: "x" }] }),
    "Unknown contribution material: ghost.",
  );
});

test("assurance cannot exceed provenance", async () => {
  const chain = await sealedChain();
  const withOut = (replacement: unknown) => [allContributions()[0], allContributions()[1], replacement, allContributions()[3]];
  rejects(
    () => coverageFor(chain.sealed, { status: "sufficient", contributions: withOut({ ...agent(USER), assurance: "user-accepted", userEventId: "event-8" }), conflicts: [], limitations: [] }),
    "User-accepted contribution has no matching selected user event.",
  );
  const noUser = await sealedChain(["result-1", "domain-1"]);
  rejects(
    () =>
      coverageFor(noUser.sealed, {
        status: "sufficient",
        contributions: [agent(REF), agent(DOMAIN), { ...agent(RESULT), assurance: "user-accepted", userEventId: "event-7" }],
        conflicts: [],
        limitations: [],
      }),
    "User-accepted contribution has no matching selected user event.",
  );
  const domain = (evaluator: { id: string; version: string }, evidenceMaterialIds: string[]) => ({
    ...agent(DOMAIN, "constraint"),
    assurance: "domain-verified",
    evaluator,
    evidenceMaterialIds,
  });
  const coverWith = (contribution: unknown) => () =>
    coverageFor(chain.sealed, { status: "sufficient", contributions: [allContributions()[0], allContributions()[1], allContributions()[2], contribution], conflicts: [], limitations: [] });
  rejects(coverWith(domain({ id: "tsc", version: "5.8" }, [DOMAIN])), "Domain-verified contribution has no matching selected evaluator evidence.");
  rejects(coverWith(domain({ id: "eslint", version: "5.9" }, [DOMAIN])), /no matching selected evaluator evidence/u);
  rejects(coverWith(domain({ id: "tsc", version: "5.9" }, [RESULT])), /no matching selected evaluator evidence/u);
  rejects(coverWith(domain({ id: "tsc", version: "5.9" }, ["ghost"])), "Unknown contribution material: ghost.");
  assert.equal(coverWith(domain({ id: "tsc", version: "5.9" }, [RESULT, DOMAIN]))().status, "sufficient");
});

test("status rules: sufficient keeps no conflicts; needs-evidence needs a conflict or limitation", async () => {
  const chain = await sealedChain();
  const conflict = { materialIds: [REF, RESULT], description: "They disagree." };
  rejects(() => coverageFor(chain.sealed, { status: "sufficient", contributions: allContributions(), conflicts: [conflict], limitations: [] }), "Sufficient coverage cannot retain conflicts.");
  rejects(() => coverageFor(chain.sealed, { status: "needs-evidence", contributions: allContributions(), conflicts: [], limitations: [] }), "Needs-evidence coverage requires a conflict or limitation.");
  const limited = coverageFor(chain.sealed, { status: "sufficient", contributions: allContributions(), conflicts: [], limitations: [{ basisMaterialIds: [RESULT], description: "Only one run." }] });
  assert.equal(limited.limitations.length, 1);
  assert.notEqual(limited.coverageSha256, sufficient(chain).coverageSha256);
});

function proposalFor(chain: Chain, coverage: ContextCoverage, fields: Record<string, unknown>) {
  return judgmentProposalFromJson(
    jsonValueFromUnknown({ selectionSha256: chain.selection.selectionSha256, sealedContextSha256: chain.sealed.sealedContextSha256, coverageSha256: coverage.coverageSha256, ...fields }),
  );
}
const judgmentFields = (coverage: ContextCoverage) => ({
  kind: "contextual-judgment",
  citedUses: coverage.contributions.slice(0, 2).map((c, i) => ({ contributionId: c.contributionId, ...(i === 0 ? { locator: "line 3" } : {}), artifactEffect: "Shaped the name." })).reverse(),
  rationale: "The boundary and the user's decision agree.",
  artifact: "Keep `openFrame` as the public name.",
  stopEvidence: ["typecheck clean", "user accepted"],
});

test("contextual judgment: needs sufficient coverage, cites only current contributions, carries coverage", async () => {
  const chain = await sealedChain();
  const coverage = sufficient(chain);
  const outcome = concludeJudgment({ question: chain.question, selectedContext: chain.sealed, coverage, proposal: proposalFor(chain, coverage, judgmentFields(coverage)) });
  assert.equal(outcome.kind, "contextual-judgment");
  if (outcome.kind !== "contextual-judgment") return;
  assert.deepEqual(
    outcome.citedUses.map((c) => c.contributionId),
    coverage.contributions.slice(0, 2).map((c) => c.contributionId),
  );
  assert.equal(outcome.contributions, coverage.contributions);
  assert.deepEqual(outcome.stopEvidence, ["typecheck clean", "user accepted"]);
  assert.match(outcome.outcomeSha256, /^[0-9a-f]{64}$/u);
  const ghost = { ...judgmentFields(coverage), citedUses: [{ contributionId: "contribution:0000", artifactEffect: "x" }] };
  rejects(() => concludeJudgment({ question: chain.question, selectedContext: chain.sealed, coverage, proposal: proposalFor(chain, coverage, ghost) }), "Citation names an unknown contribution: contribution:0000.");
  const twice = { ...judgmentFields(coverage), citedUses: [{ contributionId: "c", artifactEffect: "x" }, { contributionId: "c", artifactEffect: "y" }] };
  rejects(() => proposalFor(chain, coverage, twice), "Duplicate contribution citation: c.");
  const limited = coverageFor(chain.sealed, { status: "needs-evidence", contributions: allContributions(), conflicts: [], limitations: [{ basisMaterialIds: [], description: "No trace." }] });
  rejects(() => concludeJudgment({ question: chain.question, selectedContext: chain.sealed, coverage: limited, proposal: proposalFor(chain, limited, judgmentFields(limited)) }), "Contextual judgment requires sufficient coverage.");
});

test("needs-evidence: exactly the coverage's conflict and limitation ids", async () => {
  const chain = await sealedChain();
  const coverage = coverageFor(chain.sealed, {
    status: "needs-evidence",
    contributions: allContributions(),
    conflicts: [{ materialIds: [REF, RESULT], description: "They disagree." }],
    limitations: [{ basisMaterialIds: [], description: "No trace." }],
  });
  const ids = [...coverage.conflicts.map((c) => c.conflictId), ...coverage.limitations.map((l) => l.limitationId)];
  const fields = (unresolvedIds: string[]) => ({ kind: "needs-evidence", unresolvedIds, evidenceNeeded: ["A runtime trace."], resolutionOwner: "agent" });
  const outcome = concludeJudgment({ question: chain.question, selectedContext: chain.sealed, coverage, proposal: proposalFor(chain, coverage, fields([...ids].reverse())) });
  assert.equal(outcome.kind, "needs-evidence");
  assert.ok(!("artifact" in outcome));
  rejects(() => concludeJudgment({ question: chain.question, selectedContext: chain.sealed, coverage, proposal: proposalFor(chain, coverage, fields(ids.slice(0, 1))) }), "NeedsEvidence must exactly account for coverage conflicts and limitations.");
  const good = sufficient(chain);
  rejects(() => concludeJudgment({ question: chain.question, selectedContext: chain.sealed, coverage: good, proposal: proposalFor(chain, good, fields(ids)) }), "NeedsEvidence requires needs-evidence coverage.");
});

test("emergent question must differ from the current one beyond case and whitespace", async () => {
  const chain = await sealedChain();
  const coverage = sufficient(chain);
  const fields = (q: string) => ({ kind: "emergent-question", question: q, reason: "The owner is unclear.", artifact: "Open a new frame.", stopEvidence: ["owner unknown"] });
  const same = "WHAT claim does this EXACT verifier result support?";
  rejects(() => concludeJudgment({ question: chain.question, selectedContext: chain.sealed, coverage, proposal: proposalFor(chain, coverage, fields(same)) }), "Emergent question must be distinct from the current question.");
  assert.equal(concludeJudgment({ question: chain.question, selectedContext: chain.sealed, coverage, proposal: proposalFor(chain, coverage, fields("Who owns the verifier?")) }).kind, "emergent-question");
});

test("stale selection, seal or coverage and a foreign question are rejected", async () => {
  const chain = await sealedChain();
  const coverage = sufficient(chain);
  const zero = "0".repeat(64);
  const conclude = (override: Record<string, unknown>, q = chain.question) =>
    concludeJudgment({ question: q, selectedContext: chain.sealed, coverage, proposal: proposalFor(chain, coverage, { ...judgmentFields(coverage), ...override }) });
  rejects(() => conclude({ selectionSha256: zero }), "Judgment proposal names a stale selection.");
  rejects(() => conclude({ sealedContextSha256: zero }), "Judgment proposal names stale sealed context.");
  rejects(() => conclude({ coverageSha256: zero }), "Judgment proposal names stale coverage.");
  rejects(() => conclude({}, question({ question: "Another?" })), "Question and sealed context do not describe one judgment.");
  const other = await sealedChain(["result-1", "user-1"]);
  const otherCoverage = coverageFor(other.sealed, { status: "sufficient", contributions: allContributions().slice(0, 3), conflicts: [], limitations: [] });
  rejects(
    () => concludeJudgment({ question: chain.question, selectedContext: chain.sealed, coverage: otherCoverage, proposal: proposalFor(chain, otherCoverage, judgmentFields(otherCoverage)) }),
    "Coverage and sealed context do not describe one judgment.",
  );
});

test("identity chain: pinned hashes, and every upstream change propagates downstream", async () => {
  const chain = await sealedChain();
  const coverage = sufficient(chain);
  const outcome = concludeJudgment({ question: chain.question, selectedContext: chain.sealed, coverage, proposal: proposalFor(chain, coverage, judgmentFields(coverage)) });
  assert.deepEqual(
    {
      policy: chain.policy.policySha256,
      question: chain.question.questionSha256,
      selection: chain.selection.selectionSha256,
      sealed: chain.sealed.sealedContextSha256,
      coverage: coverage.coverageSha256,
      outcome: outcome.outcomeSha256,
    },
    PINNED_CHAIN,
  );
  const twin = await sealedChain();
  assert.equal(sufficient(twin).coverageSha256, coverage.coverageSha256);
  const fewer = await sealedChain(["result-1", "user-1"]);
  assert.notEqual(fewer.selection.selectionSha256, chain.selection.selectionSha256);
  assert.notEqual(fewer.sealed.sealedContextSha256, chain.sealed.sealedContextSha256);
});

const PINNED_CHAIN = {
  policy: "7538fc6ce6f016ba28b21edab4f3a715368b5b3493468774971ed9fabf77eb04",
  question: "c1f2f6c79f2280412a40e5e66bfd1e0c5a95363559c0aba77e349c1ff6b653cd",
  selection: "aa3c0027f8f21c3bb209eb9560ee300f3b984ca2fa54902a23a9225621cac96f",
  sealed: "5eb8d041e15c8a53971674b1c9bf9331c6a002218d5806c8a4f41acbc9c2728d",
  coverage: "d8954bc50eed4754c8cd90fd371bab2d7caf533253a0f6739a2fc719af6b69ae",
  outcome: "f47e6deaff9464c40cedd1cd997da5bd37869176253f7133195f6870f18acc96",
};
