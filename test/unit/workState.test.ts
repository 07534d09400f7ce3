// The Work view's projection (docket/workState) and the skills listing (docket/skills), from real
// operation batches replayed through the reducer: what a person sees at each step of a cycle.
import { test } from "node:test";
import assert from "node:assert/strict";
import { describeWorkState } from "../../server/developer/workState";
import { describeSkills } from "../../server/developer/operations/skillListing";
import { concludeJudgmentBatch, openJudgmentBatch } from "../../server/developer/operations/judgmentOperations";
import { authorizeChangeBatch, recordLandingBatch } from "../../server/developer/operations/changeOperations";
import { openContextSourcesBatch, skillInventoryId } from "../../server/developer/operations/contextSources";
import { loadSkillCatalog } from "../../server/developer/operations/skillCatalog";
import { WorkState } from "../../server/protocol/messages";
import { turnOffBatch } from "../../server/developer/scopeOperations";
import { AT, OperationHarness } from "../support/operationHarness";
import { repoRoot } from "../support/repoRoot";

const obligations = [
  { obligationId: "obligation:b", statement: "B is settled." },
  { obligationId: "obligation:a", statement: "A is settled." },
];

function state(harness: OperationHarness): WorkState {
  // Every projection must satisfy the protocol schema the extension validates with.
  return WorkState.parse(describeWorkState(harness.history()));
}

test("off: no scope, no frames, nothing legal", () => {
  const work = state(new OperationHarness());
  assert.equal(work.phase, "off");
  assert.equal(work.workScopeId, null);
  assert.equal(work.purpose, null);
  assert.deepEqual(work.legalOperations, []);
  assert.deepEqual(work.frames, []);
  assert.deepEqual(work.history, []);
});

test("a zero-owner cycle as the Work view sees it: frame, conclusion, authorization, landing, debts by role", () => {
  const harness = new OperationHarness();
  harness.turnOn();
  assert.equal(state(harness).purpose, "work-decision");
  assert.equal(state(harness).nextAction, "open_judgment");

  harness.apply(openJudgmentBatch(harness.history(), { routeDefinitionId: "route:meaning-settlement", question: "What changes?", obligations }, AT).drafts);
  let work = state(harness);
  assert.equal(work.phase, "deciding");
  const frame = work.frames[0];
  assert.equal(frame?.status, "open");
  assert.equal(frame?.role, "work");
  assert.equal(frame?.routeSign, "meaning settlement");
  assert.equal(frame?.question, "What changes?");
  assert.deepEqual(
    frame?.obligations.map((entry) => [entry.obligationId, entry.state]),
    [
      ["obligation:a", "open"],
      ["obligation:b", "open"],
    ],
  );
  assert.equal(frame?.owner, null);
  assert.ok(frame?.obligations.every((entry) => entry.settledBy === null));

  // An unresolved zero-owner outcome is counted under the frame and leaves it open.
  harness.apply(concludeJudgmentBatch(harness.history(), { disposition: "judgment", outcome: { kind: "needs-evidence", evidenceNeeded: ["A log."], resolutionOwner: "user" } }, AT).drafts);
  assert.equal(state(harness).frames[0]?.unresolvedAttempts, 1);
  assert.equal(state(harness).frames[0]?.status, "open");

  harness.apply(concludeJudgmentBatch(harness.history(), { disposition: "not-applicable", reason: "Nothing to decide.", basis: ["Seen."] }, AT).drafts);
  work = state(harness);
  assert.equal(work.phase, "ready-to-edit");
  assert.equal(work.frames[0]?.status, "concluded");
  assert.equal(work.frames[0]?.conclusion?.text, "Nothing to decide.");
  assert.ok(work.frames[0]?.obligations.every((entry) => entry.state === "discharged"));
  assert.equal(work.frames[0]?.contributions.length, 1);
  // Each discharge says what settled it: the conclusion's batch and the contribution it cites.
  const contributionId = work.frames[0]?.contributions[0]?.contributionId ?? "";
  assert.deepEqual(
    work.frames[0]?.obligations.map((entry) => entry.settledBy),
    [
      { contributionIds: [contributionId], stopEvidence: ["Seen."], withConclusion: true },
      { contributionIds: [contributionId], stopEvidence: ["Seen."], withConclusion: true },
    ],
  );
  assert.deepEqual(work.legalOperations, ["authorize_change", "open_judgment"]);

  harness.apply(authorizeChangeBatch(harness.history(), { movement: "Rename a.", stableLanding: "a is renamed.", verificationTarget: "Types check." }, AT).drafts);
  work = state(harness);
  assert.equal(work.phase, "editing");
  assert.equal(work.authorization?.movement, "Rename a.");
  assert.equal(work.authorization?.frameId, work.frames[0]?.frameId);

  harness.apply(recordLandingBatch(harness.history(), { changedPaths: ["src/a.ts"], result: "Renamed.", verification: ["tsc"] }, AT).drafts);
  work = state(harness);
  assert.equal(work.phase, "rerouting");
  assert.equal(work.authorization, null);
  assert.equal(work.purpose, "reroute-decision");
  const landing = work.landings[0];
  assert.deepEqual(landing?.changedPaths, ["src/a.ts"]);
  assert.equal(landing?.reroutePending, true);
  assert.equal(landing?.verificationPending, true);

  harness.apply(openJudgmentBatch(harness.history(), { routeDefinitionId: "route:change-timing", question: "Reroute?", obligations }, AT).drafts);
  assert.equal(state(harness).frames[1]?.role, "reroute");
  assert.equal(state(harness).frames[1]?.frameId, landing?.rerouteFrameId);
  harness.apply(concludeJudgmentBatch(harness.history(), { disposition: "not-applicable", reason: "No.", basis: ["Seen."] }, AT).drafts);
  assert.equal(state(harness).purpose, "verification-decision");

  harness.apply(openJudgmentBatch(harness.history(), { routeDefinitionId: "route:claim-evidence-assessment", question: "Verified?", obligations }, AT).drafts);
  assert.equal(state(harness).frames[2]?.role, "verification");
  harness.apply(concludeJudgmentBatch(harness.history(), { disposition: "not-applicable", reason: "Checked.", basis: ["tsc passed."] }, AT).drafts);
  work = state(harness);
  assert.equal(work.phase, "done");
  assert.equal(work.landings[0]?.reroutePending, false);
  assert.equal(work.landings[0]?.verificationPending, false);
  assert.ok(work.frames.every((entry) => entry.status === "concluded"));
});

test("an owned frame shows its owner; the skills listing marks owner, opened and available", async () => {
  const catalog = await loadSkillCatalog(repoRoot());
  const harness = new OperationHarness();
  harness.turnOn();
  assert.ok(describeSkills(harness.history(), catalog).skills.every((skill) => skill.role === "available"));
  const ownerSkill = { skillName: "sketch", subquestion: "What shape?", expectedContribution: "A sketch." };
  harness.apply(openJudgmentBatch(harness.history(), { routeDefinitionId: "route:implementation-shaping", question: "Shape?", obligations, ownerSkill }, AT, catalog).drafts);
  // The subquestion and expected contribution the user typed are shown with the owner.
  assert.deepEqual(state(harness).frames[0]?.owner, { skillName: "sketch", status: "active", subquestion: "What shape?", expectedContribution: "A sketch." });

  const doctor = catalog.skills.find((skill) => skill.name === "doctor");
  assert.ok(doctor !== undefined);
  harness.apply(openContextSourcesBatch(harness.history(), { inventorySourceIds: [skillInventoryId(catalog, doctor)] }, catalog, AT).drafts);
  const roles = Object.fromEntries(describeSkills(harness.history(), catalog).skills.map((skill) => [skill.skillName, skill.role]));
  assert.equal(roles.sketch, "owner");
  assert.equal(roles.doctor, "opened");
  assert.equal(roles.verify, "available");
  assert.equal(Object.keys(roles).length, 10);

  harness.apply(concludeJudgmentBatch(harness.history(), { disposition: "not-applicable", reason: "No.", basis: ["Seen."] }, AT, { catalog }).drafts);
  assert.deepEqual(state(harness).frames[0]?.owner, { skillName: "sketch", status: "settled", subquestion: "What shape?", expectedContribution: "A sketch." });
});

test("closed scopes keep their frames and landings in the history while Docket is off", () => {
  const harness = new OperationHarness();
  harness.turnOn();
  harness.apply(openJudgmentBatch(harness.history(), { routeDefinitionId: "route:meaning-settlement", question: "First?", obligations }, AT).drafts);
  harness.apply(concludeJudgmentBatch(harness.history(), { disposition: "not-applicable", reason: "No.", basis: ["Seen."] }, AT).drafts);
  harness.apply(authorizeChangeBatch(harness.history(), { movement: "Rename a.", stableLanding: "a is renamed.", verificationTarget: "Types check." }, AT).drafts);
  harness.apply(recordLandingBatch(harness.history(), { changedPaths: ["src/a.ts"], result: "Renamed.", verification: ["tsc"] }, AT).drafts);
  const first = state(harness).workScopeId;
  harness.apply(turnOffBatch(harness.history(), undefined, AT).drafts);

  let work = state(harness);
  assert.equal(work.phase, "off");
  assert.equal(work.workScopeId, null);
  assert.deepEqual(work.frames, []);
  assert.deepEqual(
    work.history.map((scope) => [scope.workScopeId, scope.frames.map((frame) => [frame.question, frame.status]), scope.landings.map((landing) => landing.changedPaths)]),
    [[first, [["First?", "concluded"]], [["src/a.ts"]]]],
  );

  // A second scope: while it is active the first stays in the history; once closed both are there.
  harness.turnOn();
  harness.apply(openJudgmentBatch(harness.history(), { routeDefinitionId: "route:meaning-settlement", question: "Second?", obligations }, AT).drafts);
  work = state(harness);
  const second = work.workScopeId;
  assert.deepEqual(work.history.map((scope) => scope.workScopeId), [first]);
  assert.equal(work.frames[0]?.question, "Second?");
  harness.apply(turnOffBatch(harness.history(), undefined, AT).drafts);
  work = state(harness);
  // Listed by scope id, as replay lists scopes.
  assert.deepEqual(work.history.map((scope) => scope.workScopeId), [first, second].sort());
  assert.deepEqual(work.history.find((scope) => scope.workScopeId === second)?.frames.map((frame) => frame.status), ["open"]);
});
