// The owner-skill path of the developer/v8 operations (§3.3 a–c, §4.5): the open batch routes,
// assigns and invokes a bundled skill; context sources open as material; conclusions settle the
// invocation (every settlement variant) and, with nominations, run the Judgment engine. Every
// built batch must be accepted by the same replayer the store preflights with, and the §4.5
// hashes are recomputed here from the spec's formulas rather than read back from the builder.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { EnvelopeDraft } from "../../server/ledger/envelope";
import { hashValue } from "../../server/ledger/canonicalJson";
import { phaseOf, runtimeFacts } from "../../server/developer/history";
import { computeToolPolicy } from "../../server/developer/toolPolicy";
import { turnOffBatch } from "../../server/developer/scopeOperations";
import { concludeJudgmentBatch, openJudgmentBatch, type ConcludeJudgmentInput } from "../../server/developer/operations/judgmentOperations";
import { catalogInventory, openContextSourcesBatch, skillInventoryId } from "../../server/developer/operations/contextSources";
import { prepareJudgment } from "../../server/developer/operations/judgmentContext";
import { NO_EVIDENCE, type EvidenceLookup } from "../../server/developer/operations/evidence";
import { loadSkillCatalog, methodContentSha256, type SkillCatalog } from "../../server/developer/operations/skillCatalog";
import { ADAPTER_REVISION_SHA256 } from "../../server/developer/adapterRevision";
import { descriptorSha256 } from "../../server/developer/values/routing";
import { parseSkillFrontmatter } from "../../server/developer/bundledSkills";
import { ErrorCodes } from "../../server/protocol/messages";
import { repoRoot } from "../support/repoRoot";
import { AT, OperationHarness, refusal, refusalAsync } from "../support/operationHarness";

const obligations = [
  { obligationId: "obligation:b", statement: "B is settled." },
  { obligationId: "obligation:a", statement: "A is settled." },
];
const OWNER_KINDS = [
  "route-frame-opened",
  "routing-snapshot-opened",
  "routing-page-accounted",
  "routing-coverage-completed",
  "can-serve-basis-created",
  "ready-assignment-recorded",
  "skill-invocation-started",
];

let cached: SkillCatalog | undefined;
async function catalog(): Promise<SkillCatalog> {
  cached ??= await loadSkillCatalog(repoRoot());
  return cached;
}

const owner = (skillName: string, targetObligationIds?: string[]) => ({
  skillName,
  ...(targetObligationIds === undefined ? {} : { targetObligationIds }),
  subquestion: "Which rule holds?",
  expectedContribution: "The rule and its evidence.",
});

async function openedWithOwner(skillName = "sketch", targets?: string[]): Promise<{ harness: OperationHarness; skills: SkillCatalog; batch: ReturnType<typeof openJudgmentBatch> }> {
  const skills = await catalog();
  const harness = new OperationHarness();
  harness.turnOn();
  const batch = openJudgmentBatch(harness.history(), { routeDefinitionId: "route:meaning-settlement", question: "What changes?", obligations, ownerSkill: owner(skillName, targets) }, AT, skills);
  harness.apply(batch.drafts);
  return { harness, skills, batch };
}

function payloadOf<T>(drafts: readonly EnvelopeDraft[], kind: string, index = 0): T {
  const found = drafts.filter((draft) => draft.kind === kind)[index];
  assert.ok(found !== undefined, `no ${kind} #${index}`);
  return found.payload as T;
}

test("the catalogue holds every bundled skill with its method body and the declared policies", async () => {
  const skills = await catalog();
  assert.equal(skills.skills.length, 10);
  for (const skill of skills.skills) {
    const parsed = parseSkillFrontmatter(fs.readFileSync(path.join(repoRoot(), skill.filePath), "utf8"));
    assert.equal(skill.method, parsed.body.trim());
    assert.equal(skill.methodContentSha256, methodContentSha256(skill.method));
  }
  assert.deepEqual(
    skills.skills.filter((skill) => skill.policy !== null).map((skill) => skill.name),
    ["abstraction-review", "model", "naming-judgment", "schedule", "signal", "sketch", "verify"],
  );
});

test("open with an owner: seven event kinds in order, §4.5 candidates and hashes, replay accepted", async () => {
  const skills = await catalog();
  const { harness, batch } = await openedWithOwner("sketch", ["obligation:b"]);
  assert.deepEqual(batch.drafts.map((draft) => draft.kind), OWNER_KINDS);
  assert.equal(batch.owner?.skillName, "sketch");
  assert.equal(batch.owner?.method, skills.skills.find((skill) => skill.name === "sketch")?.method);
  assert.equal(batch.routeSign, "meaning settlement");

  // §4.5 descriptors, recomputed from the formulas.
  const expected = skills.skills.map((skill) => {
    const revision =
      skill.name === "sketch"
        ? skill.methodContentSha256
        : hashValue({ name: skill.name, description: skill.description, filePath: skill.filePath, sourceInfo: { ...skill.sourceInfo } });
    const body = {
      candidateId: `candidate:skill:${skill.name}`,
      kind: "capability" as const,
      source: { sourceId: `source:skill:${skill.name}`, revision },
      subjectId: `skill:${skill.name}`,
      subjectRevisionSha256: revision,
      registryRevisionSha256: ADAPTER_REVISION_SHA256,
    };
    return { ...body, descriptorSha256: descriptorSha256(body) };
  });
  const opened = payloadOf<{ basis: { admittedUniverseSha256: string; priorityStrategySha256: string; providerSourceRevisions: unknown[] } }>(batch.drafts, "routing-snapshot-opened");
  assert.equal(opened.basis.admittedUniverseSha256, hashValue({ domain: "developer/v8/adapter-admitted-universe", descriptors: expected }));
  assert.equal(opened.basis.priorityStrategySha256, ADAPTER_REVISION_SHA256);
  assert.deepEqual(opened.basis.providerSourceRevisions, expected.map((entry) => entry.source));
  const page = payloadOf<{ page: { candidates: { candidateId: string; descriptorSha256: string }[] }; dispositions: { kind: string; targetEffects: { obligationId: string; effect: string }[] }[] }>(
    batch.drafts,
    "routing-page-accounted",
  );
  assert.deepEqual(page.page.candidates.map((entry) => entry.descriptorSha256), expected.map((entry) => entry.descriptorSha256));
  for (const [index, disposition] of page.dispositions.entries()) {
    const isOwner = expected[index]?.candidateId === "candidate:skill:sketch";
    assert.equal(disposition.kind, isOwner ? "selected-for-material" : "considered-not-selected");
    assert.deepEqual(disposition.targetEffects, [
      { obligationId: "obligation:a", effect: "cleared" },
      { obligationId: "obligation:b", effect: isOwner ? "selected" : "cleared" },
    ]);
  }
  const basis = payloadOf<{ body: { policy: { kind: string; revisionSha256?: string }; targetObligationIds: string[] } }>(batch.drafts, "can-serve-basis-created");
  assert.deepEqual(basis.body.policy, { kind: "complete", revisionSha256: skills.skills.find((skill) => skill.name === "sketch")?.policy?.policySha256 });
  assert.deepEqual(basis.body.targetObligationIds, ["obligation:b"]);

  const scope = harness.history().activeScope;
  assert.equal(scope?.activeInvocation?.invocationId, batch.owner?.invocationId);
  assert.equal(scope?.frames[0]?.routing?.coverageSha256, payloadOf<{ expectedCoverageSha256: string }>(batch.drafts, "routing-coverage-completed").expectedCoverageSha256);
  assert.equal(phaseOf(harness.history()), "deciding");
  assert.deepEqual(computeToolPolicy(runtimeFacts(harness.history())).legalOperations, ["open_context_sources", "conclude_judgment"]);
  // Owner references are listed for nomination; the owner itself is not a context source.
  assert.ok(batch.contextSources.some((entry) => entry.kind === "prepared-reference" && entry.path.startsWith("skills/sketch/references/")));
  assert.ok(!batch.contextSources.some((entry) => entry.kind === "skill" && entry.title === "sketch"));
});

test("open with an owner is deterministic and a skill without a policy records an absent policy", async () => {
  const skills = await catalog();
  const harness = new OperationHarness();
  harness.turnOn();
  const input = { routeDefinitionId: "route:meaning-settlement", question: "What changes?", obligations, ownerSkill: owner("doctor") };
  const first = openJudgmentBatch(harness.history(), input, AT, skills);
  assert.deepEqual(openJudgmentBatch(harness.history(), input, AT, skills).drafts, first.drafts);
  assert.deepEqual(payloadOf<{ body: { policy: unknown; targetObligationIds: string[] } }>(first.drafts, "can-serve-basis-created").body.policy, { kind: "absent" });
  assert.deepEqual(payloadOf<{ assignment: { targetObligationIds: string[] } }>(first.drafts, "ready-assignment-recorded").assignment.targetObligationIds, ["obligation:a", "obligation:b"]);
  assert.ok(!first.contextSources.some((entry) => entry.kind === "prepared-reference"));
  harness.apply(first.drafts);
});

test("open with an owner: coded refusals write nothing", async () => {
  const skills = await catalog();
  const harness = new OperationHarness();
  harness.turnOn();
  const base = { routeDefinitionId: "route:meaning-settlement", question: "Q?", obligations };
  refusal(() => openJudgmentBatch(harness.history(), { ...base, ownerSkill: owner("not-a-skill") }, AT, skills), ErrorCodes.unknownSkill);
  refusal(() => openJudgmentBatch(harness.history(), { ...base, ownerSkill: owner("sketch", ["obligation:zzz"]) }, AT, skills), ErrorCodes.invalidParams);
  refusal(() => openJudgmentBatch(harness.history(), { ...base, ownerSkill: owner("sketch", ["obligation:a", "obligation:a"]) }, AT, skills), ErrorCodes.invalidParams);
  refusal(() => openJudgmentBatch(harness.history(), { ...base, ownerSkill: { ...owner("sketch"), subquestion: " padded" } }, AT, skills), ErrorCodes.invalidParams);
  refusal(() => openJudgmentBatch(harness.history(), { ...base, ownerSkill: owner("sketch") }, AT), ErrorCodes.internal);
  assert.equal(harness.history().activeScope?.head.scopeSequence, 0);
});

test("open_context_sources: material support per new source, duplicates and the owner skipped", async () => {
  const { harness, skills } = await openedWithOwner("sketch");
  const doctor = skillInventoryId(skills, skills.skills.find((skill) => skill.name === "doctor") ?? assert.fail());
  const sketch = skillInventoryId(skills, skills.skills.find((skill) => skill.name === "sketch") ?? assert.fail());
  const batch = openContextSourcesBatch(harness.history(), { inventorySourceIds: [doctor, sketch] }, skills, AT);
  assert.deepEqual(batch.drafts.map((draft) => draft.kind), ["support-observed"]);
  const support = payloadOf<{ support: { sourceKind: string; sourceId: string; sourceRevisionSha256: string; supportSha256: string } }>(batch.drafts, "support-observed").support;
  const doctorSkill = skills.skills.find((skill) => skill.name === "doctor");
  assert.equal(support.sourceKind, "material");
  assert.equal(support.sourceId, doctor);
  assert.equal(support.sourceRevisionSha256, doctorSkill?.methodContentSha256);
  const descriptor = catalogInventory(skills, { opened: doctorSkill === undefined ? [] : [doctorSkill] }).sources.find((entry) => entry.id === doctor);
  assert.equal(support.supportSha256, hashValue({ descriptorSha256: descriptor?.descriptorSha256, methodContentSha256: doctorSkill?.methodContentSha256, policySha256: null }));
  assert.deepEqual(batch.skipped, [{ inventorySourceId: sketch, reason: "owner" }]);
  assert.equal(batch.opened[0]?.method, doctorSkill?.method);
  harness.apply(batch.drafts);
  const again = openContextSourcesBatch(harness.history(), { inventorySourceIds: [doctor] }, skills, AT);
  assert.deepEqual(again.drafts, []);
  assert.deepEqual(again.skipped, [{ inventorySourceId: doctor, reason: "already-open" }]);
  refusal(() => openContextSourcesBatch(harness.history(), { inventorySourceIds: ["skill-000000000000000000000000"] }, skills, AT), ErrorCodes.unknownContextSource);
  refusal(() => openContextSourcesBatch(harness.history(), { inventorySourceIds: [doctor, doctor] }, skills, AT), ErrorCodes.invalidParams);
  refusal(() => openContextSourcesBatch(harness.history(), { inventorySourceIds: ["a", "b", "c", "d", "e"] }, skills, AT), ErrorCodes.invalidParams);
  const idle = new OperationHarness();
  idle.turnOn();
  refusal(() => openContextSourcesBatch(idle.history(), { inventorySourceIds: [doctor] }, skills, AT), ErrorCodes.operationNotLegal);
});

const contextual: ConcludeJudgmentInput = {
  disposition: "judgment",
  outcome: { kind: "contextual-judgment", rationale: "The rule holds for both.", artifact: "Keep the rule.", stopEvidence: ["Both cases checked."] },
};

test("conclude with an owner: a contextual judgment settles a contribution, admits it and concludes", async () => {
  const { harness, skills, batch: opened } = await openedWithOwner("sketch", ["obligation:b"]);
  const batch = concludeJudgmentBatch(harness.history(), contextual, AT, { catalog: skills });
  assert.deepEqual(batch.drafts.map((draft) => draft.kind), [
    "invocation-settled",
    "support-observed",
    "frame-contribution-admitted",
    "frame-contribution-admitted",
    "obligation-discharged",
    "obligation-discharged",
    "route-frame-concluded",
  ]);
  assert.equal(batch.settlement?.kind, "returned");
  assert.deepEqual(concludeJudgmentBatch(harness.history(), contextual, AT, { catalog: skills }).drafts, batch.drafts, "same ledger, same batch");
  const settled = payloadOf<{ settlement: { invocationId: string; value: { kind: string; claim: string; targetUses: unknown[] } } }>(batch.drafts, "invocation-settled").settlement;
  assert.equal(settled.invocationId, opened.owner?.invocationId);
  assert.deepEqual(settled.value.targetUses, [{ obligationId: "obligation:b", useAs: "evidence" }]);
  const skillAdmission = batch.drafts[2];
  assert.equal(skillAdmission?.causalRefs[0]?.eventId, batch.drafts[0]?.eventId, "the skill contribution cites its settlement");
  // obligation:b is discharged by both contributions, obligation:a by the judgment alone.
  const discharges = batch.drafts.filter((draft) => draft.kind === "obligation-discharged").map((draft) => (draft.payload as { discharge: { obligationId: string; contributionIds: string[] } }).discharge);
  assert.equal(discharges.find((entry) => entry.obligationId === "obligation:a")?.contributionIds.length, 1);
  assert.equal(discharges.find((entry) => entry.obligationId === "obligation:b")?.contributionIds.length, 2);
  harness.apply(batch.drafts);
  assert.equal(harness.history().activeScope?.activeInvocation, null);
  assert.equal(phaseOf(harness.history()), "ready-to-edit");
});

test("conclude with an owner: not-applicable settles not-applicable and concludes", async () => {
  const { harness, skills } = await openedWithOwner("doctor");
  const batch = concludeJudgmentBatch(harness.history(), { disposition: "not-applicable", reason: "Nothing to decide.", basis: ["Seen."] }, AT, { catalog: skills });
  assert.equal(batch.drafts[0]?.kind, "invocation-settled");
  assert.equal(payloadOf<{ settlement: { value: { kind: string } } }>(batch.drafts, "invocation-settled").settlement.value.kind, "not-applicable");
  assert.equal(batch.drafts.filter((draft) => draft.kind === "frame-contribution-admitted").length, 1);
  harness.apply(batch.drafts);
  assert.equal(phaseOf(harness.history()), "ready-to-edit");
});

test("conclude with an owner: needs-evidence is recordable as a needs-context settlement; a later judgment resolves the blocker", async () => {
  const { harness, skills } = await openedWithOwner("sketch");
  const needs = concludeJudgmentBatch(
    harness.history(),
    { disposition: "judgment", outcome: { kind: "needs-evidence", evidenceNeeded: ["The failing log."], resolutionOwner: "user" } },
    AT,
    { catalog: skills },
  );
  assert.deepEqual(needs.drafts.map((draft) => draft.kind), ["invocation-settled"]);
  assert.equal(needs.concluded, false);
  const value = payloadOf<{ settlement: { value: { kind: string; missingContext: string[] } } }>(needs.drafts, "invocation-settled").settlement.value;
  assert.deepEqual(value, { kind: "needs-context", targetObligationIds: ["obligation:a", "obligation:b"], missingContext: ["The failing log."] });
  harness.apply(needs.drafts);
  const frame = harness.history().activeScope?.frames[0];
  assert.equal(frame?.conclusion, null);
  assert.equal(frame?.blockers[0]?.kind, "needs-context");
  assert.equal(harness.history().activeScope?.activeInvocation, null);
  // The invocation is settled, so a second needs-evidence is recorded as an unresolved attempt.
  const second = concludeJudgmentBatch(harness.history(), { disposition: "judgment", outcome: { kind: "needs-evidence", evidenceNeeded: ["More."], resolutionOwner: "user" } }, AT, { catalog: skills });
  assert.deepEqual(second.drafts.map((draft) => draft.kind), ["support-observed"]);
  const resolved = concludeJudgmentBatch(harness.history(), contextual, AT, { catalog: skills });
  assert.deepEqual(resolved.drafts.map((draft) => draft.kind).slice(0, 2), ["support-observed", "frame-blocker-resolved"]);
  harness.apply(resolved.drafts);
  assert.equal(phaseOf(harness.history()), "ready-to-edit");
});

test("conclude with an owner: an emergent question settles a dependency; zero-owner records it unresolved", async () => {
  const { harness, skills } = await openedWithOwner("sketch");
  const emergent: ConcludeJudgmentInput = {
    disposition: "judgment",
    outcome: { kind: "emergent-question", question: "Which clock is authoritative?", reason: "Two clocks disagree.", artifact: "Clock question.", stopEvidence: ["Seen twice."] },
  };
  const batch = concludeJudgmentBatch(harness.history(), emergent, AT, { catalog: skills });
  assert.deepEqual(batch.drafts.map((draft) => draft.kind), ["invocation-settled"]);
  const value = payloadOf<{ settlement: { value: { kind: string; dependencyId: string; question: string } } }>(batch.drafts, "invocation-settled").settlement.value;
  assert.equal(value.kind, "dependency");
  assert.equal(value.question, "Which clock is authoritative?");
  assert.match(value.dependencyId, /^dependency:[0-9a-f]{24}$/u);
  harness.apply(batch.drafts);
  assert.equal(harness.history().activeScope?.frames[0]?.blockers[0]?.kind, "dependency");
  harness.apply(concludeJudgmentBatch(harness.history(), { disposition: "not-applicable", reason: "Answered elsewhere.", basis: ["Dependency closed."] }, AT, { catalog: skills }).drafts);

  const zero = new OperationHarness();
  zero.turnOn();
  zero.apply(openJudgmentBatch(zero.history(), { routeDefinitionId: "route:meaning-settlement", question: "Q?", obligations }, AT).drafts);
  const unresolved = concludeJudgmentBatch(zero.history(), emergent, AT);
  assert.equal(unresolved.concluded, false);
  assert.deepEqual(unresolved.drafts.map((draft) => draft.kind), ["support-observed"]);
  zero.apply(unresolved.drafts);
  assert.equal(zero.history().activeScope?.frames[0]?.conclusion, null);
});

function edited(skills: SkillCatalog, name: string, method: string): SkillCatalog {
  return { skills: skills.skills.map((skill) => (skill.name === name ? { ...skill, method, methodContentSha256: methodContentSha256(method) } : skill)) };
}

test("a changed owner method or a changed opened source fails the conclusion with a code", async () => {
  const { harness, skills } = await openedWithOwner("sketch");
  refusal(() => concludeJudgmentBatch(harness.history(), contextual, AT, { catalog: edited(skills, "sketch", "A different method.") }), ErrorCodes.contextSourceChanged);
  refusal(() => concludeJudgmentBatch(harness.history(), contextual, AT), ErrorCodes.internal);
  const doctor = skillInventoryId(skills, skills.skills.find((skill) => skill.name === "doctor") ?? assert.fail());
  harness.apply(openContextSourcesBatch(harness.history(), { inventorySourceIds: [doctor] }, skills, AT).drafts);
  refusal(() => concludeJudgmentBatch(harness.history(), contextual, AT, { catalog: edited(skills, "doctor", "Changed.") }), ErrorCodes.contextSourceChanged);
  harness.apply(concludeJudgmentBatch(harness.history(), contextual, AT, { catalog: skills }).drafts);
});

test("the Judgment engine decides when nominations are given: its basis is the conclusion's basis", async () => {
  const { harness, skills, batch: opened } = await openedWithOwner("model");
  const doctor = skillInventoryId(skills, skills.skills.find((skill) => skill.name === "doctor") ?? assert.fail());
  harness.apply(openContextSourcesBatch(harness.history(), { inventorySourceIds: [doctor] }, skills, AT).drafts);
  const reference = opened.contextSources.find((entry) => entry.kind === "prepared-reference");
  assert.ok(reference !== undefined);
  const input: ConcludeJudgmentInput = {
    disposition: "judgment",
    applicability: { kind: "applicable", basis: ["Conditions interact."] },
    selectionBasis: ["The case table method and the doctor checklist."],
    nominations: [
      { nominationId: "n:reference", kind: "inventory-source", inventorySourceId: reference.inventorySourceId },
      { nominationId: "n:doctor", kind: "inventory-source", inventorySourceId: doctor },
    ],
    coverage: {
      status: "sufficient",
      contributions: [
        { nominationId: "n:reference", useAs: "method", contribution: "Enumerates the combinations; does not test them.", assurance: "agent-asserted" },
        { nominationId: "n:doctor", useAs: "guidance", contribution: "Adds the missing default case; says nothing about ordering.", assurance: "agent-asserted" },
      ],
      conflicts: [],
      limitations: [{ nominationIds: [], description: "Ordering was not examined." }],
    },
    outcome: {
      kind: "contextual-judgment",
      citedUses: [{ contributionIndex: 0, artifactEffect: "Shapes the table." }],
      rationale: "The table covers every combination.",
      artifact: "Use the four-row table.",
      stopEvidence: ["Every row has an outcome."],
    },
  };
  refusal(() => concludeJudgmentBatch(harness.history(), input, AT, { catalog: skills }), ErrorCodes.internal);
  const prepared = await prepareJudgment(harness.history(), input as Parameters<typeof prepareJudgment>[1], skills, NO_EVIDENCE);
  assert.equal(prepared.outcome.kind, "contextual-judgment");
  assert.deepEqual(prepared.limitations, ["Ordering was not examined."]);
  // Deterministic: the same ledger and files give the same basis.
  assert.equal((await prepareJudgment(harness.history(), input as Parameters<typeof prepareJudgment>[1], skills, NO_EVIDENCE)).contextBasisSha256, prepared.contextBasisSha256);
  // A result prepared against an older head is refused: the ledger moved meanwhile.
  refusal(() => concludeJudgmentBatch(harness.history(), input, AT, { catalog: skills, prepared: { ...prepared, atSequence: prepared.atSequence - 1 } }), ErrorCodes.operationNotLegal);
  const batch = concludeJudgmentBatch(harness.history(), input, AT, { catalog: skills, prepared });
  const support = payloadOf<{ support: { sourceRevisionSha256: string } }>(batch.drafts, "support-observed").support;
  assert.equal(support.sourceRevisionSha256, prepared.contextBasisSha256);
  const contribution = payloadOf<{ settlement: { value: { limitations: string[] } } }>(batch.drafts, "invocation-settled").settlement.value;
  assert.deepEqual(contribution.limitations, ["Ordering was not examined."]);
  harness.apply(batch.drafts);
  assert.equal(phaseOf(harness.history()), "ready-to-edit");
});

test("the Judgment engine refuses unknown evidence handles, unopened skills and uncovered material", async () => {
  const { harness, skills } = await openedWithOwner("model");
  const base = {
    disposition: "judgment" as const,
    applicability: { kind: "applicable" as const, basis: ["Applies."] },
    selectionBasis: ["Basis."],
    outcome: { kind: "contextual-judgment" as const, rationale: "R.", artifact: "A.", stopEvidence: ["S."] },
  };
  const toolNomination = [{ nominationId: "n:tool", kind: "tool-result" as const, branchResultId: "branch-result-0123456789abcdef" }];
  const toolCoverage = { status: "sufficient" as const, contributions: [{ nominationId: "n:tool", useAs: "evidence" as const, contribution: "The test passed; it does not cover timeouts.", assurance: "agent-asserted" as const }] };
  await refusalAsync(() => prepareJudgment(harness.history(), { ...base, nominations: toolNomination, coverage: toolCoverage }, skills, NO_EVIDENCE), ErrorCodes.unknownEvidenceHandle);
  await refusalAsync(
    () => prepareJudgment(harness.history(), { ...base, nominations: [{ nominationId: "n:user", kind: "user-decision" }], coverage: { status: "needs-evidence", contributions: [], limitations: [{ nominationIds: [], description: "L." }] } }, skills, NO_EVIDENCE),
    ErrorCodes.unknownEvidenceHandle,
  );
  // A captured handle (the hooks' store, stubbed) is sealed as observed tool-result material.
  const evidence: EvidenceLookup = {
    toolResult: (id) =>
      id === "branch-result-0123456789abcdef"
        ? { branchResultId: id, toolCallId: "call-1", toolName: "bash", argumentsSha256: "0".repeat(64), parts: [{ kind: "text", text: "ok" }], isError: false, truncated: false, sequence: 3 }
        : undefined,
    latestUserDecision: () => undefined,
  };
  const prepared = await prepareJudgment(harness.history(), { ...base, nominations: toolNomination, coverage: toolCoverage }, skills, evidence);
  harness.apply(concludeJudgmentBatch(harness.history(), { ...base, nominations: toolNomination, coverage: toolCoverage }, AT, { catalog: skills, prepared }).drafts);

  const fresh = await openedWithOwner("model");
  const doctor = skillInventoryId(skills, skills.skills.find((skill) => skill.name === "doctor") ?? assert.fail());
  const doctorCoverage = { status: "sufficient" as const, contributions: [{ nominationId: "n:doctor", useAs: "guidance" as const, contribution: "Adds a check.", assurance: "agent-asserted" as const }] };
  await refusalAsync(
    () => prepareJudgment(fresh.harness.history(), { ...base, nominations: [{ nominationId: "n:doctor", kind: "inventory-source", inventorySourceId: doctor }], coverage: doctorCoverage }, skills, NO_EVIDENCE),
    ErrorCodes.operationNotLegal,
  );
  fresh.harness.apply(openContextSourcesBatch(fresh.harness.history(), { inventorySourceIds: [doctor] }, skills, AT).drafts);
  // Nominated but never contributed: the engine refuses uncovered selected material.
  await refusalAsync(
    () =>
      prepareJudgment(
        fresh.harness.history(),
        { ...base, nominations: [{ nominationId: "n:doctor", kind: "inventory-source", inventorySourceId: doctor }], coverage: { status: "needs-evidence", contributions: [], limitations: [{ nominationIds: [], description: "L." }] } },
        skills,
        NO_EVIDENCE,
      ),
    ErrorCodes.judgmentRejected,
  );
  await refusalAsync(
    () => prepareJudgment(fresh.harness.history(), { ...base, applicability: { kind: "needs-context", missingContext: ["X."] }, nominations: [], coverage: doctorCoverage }, skills, NO_EVIDENCE),
    ErrorCodes.invalidParams,
  );
});

test("turning off during an active invocation cancels it (execution uncertain) before closing", async () => {
  const { harness } = await openedWithOwner("sketch");
  const batch = turnOffBatch(harness.history(), undefined, AT);
  assert.deepEqual(batch.drafts.map((draft) => draft.kind), ["invocation-settled", "work-scope-closed"]);
  const settlement = payloadOf<{ settlement: { kind: string; lifecycle: { kind: string; executionUncertain: boolean } } }>(batch.drafts, "invocation-settled").settlement;
  assert.equal(settlement.kind, "lifecycle");
  assert.deepEqual({ kind: settlement.lifecycle.kind, executionUncertain: settlement.lifecycle.executionUncertain }, { kind: "cancelled", executionUncertain: true });
  harness.apply(batch.drafts);
  assert.equal(harness.history().activeScope, null);
  // Without an active invocation only the closure is written.
  const plain = new OperationHarness();
  plain.turnOn();
  assert.deepEqual(turnOffBatch(plain.history(), undefined, AT).drafts.map((draft) => draft.kind), ["work-scope-closed"]);
});
