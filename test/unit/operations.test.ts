// The pure operation builders (§3.3): exact batches from a caught-up history, coded refusals,
// and every built batch accepted by the reducer (the same replayer the store preflights with).
import { test } from "node:test";
import assert from "node:assert/strict";
import type { EnvelopeDraft } from "../../server/ledger/envelope";
import { hashValue } from "../../server/ledger/canonicalJson";
import { phaseOf } from "../../server/developer/history";
import { concludeJudgmentBatch, openJudgmentBatch } from "../../server/developer/operations/judgmentOperations";
import { authorizeChangeBatch, recordLandingBatch } from "../../server/developer/operations/changeOperations";
import { ErrorCodes, WriteResult } from "../../server/protocol/messages";
import { WorkspaceErrorCodes } from "../../server/developer/workspaceDelta";
import { AT, OperationHarness, refusal } from "../support/operationHarness";

const obligations = [
  { obligationId: "obligation:b", statement: "B is settled." },
  { obligationId: "obligation:a", statement: "A is settled." },
];

function decided(): OperationHarness {
  const harness = new OperationHarness();
  harness.turnOn();
  harness.apply(openJudgmentBatch(harness.history(), { routeDefinitionId: "route:meaning-settlement", question: "What changes?", obligations }, AT).drafts);
  harness.apply(concludeJudgmentBatch(harness.history(), { disposition: "not-applicable", reason: "Nothing.", basis: ["Seen."] }, AT).drafts);
  return harness;
}

test("open judgment: one route-frame-opened with sorted obligations and a derived frame id", () => {
  const harness = new OperationHarness();
  harness.turnOn();
  const batch = openJudgmentBatch(harness.history(), { purpose: "work-decision", routeDefinitionId: "route:meaning-settlement", question: "What changes?", obligations }, AT);
  assert.equal(batch.drafts.length, 1);
  const draft = batch.drafts[0] as EnvelopeDraft;
  assert.equal(draft.kind, "route-frame-opened");
  assert.equal(draft.occurredAt, AT);
  assert.deepEqual(draft.causalRefs, []);
  const payload = draft.payload as { frame: { frameId: string; obligationIds: string[] }; parentDependency: null };
  assert.deepEqual(payload.frame.obligationIds, ["obligation:a", "obligation:b"]);
  assert.equal(payload.frame.frameId, batch.frameId);
  assert.equal(payload.parentDependency, null);
  // Deterministic: the same history builds the same batch.
  assert.deepEqual(openJudgmentBatch(harness.history(), { routeDefinitionId: "route:meaning-settlement", question: "What changes?", obligations }, AT).drafts, batch.drafts);
  harness.apply(batch.drafts);
  assert.equal(phaseOf(harness.history()), "deciding");
});

test("open judgment refusals carry codes", () => {
  const harness = new OperationHarness();
  refusal(() => openJudgmentBatch(harness.history(), { routeDefinitionId: "route:meaning-settlement", question: "Q?", obligations }, AT), ErrorCodes.alreadyOff);
  harness.turnOn();
  const history = harness.history();
  refusal(() => openJudgmentBatch(history, { purpose: "reroute-decision", routeDefinitionId: "route:meaning-settlement", question: "Q?", obligations }, AT), ErrorCodes.purposeMismatch);
  refusal(() => openJudgmentBatch(history, { routeDefinitionId: "route:unknown", question: "Q?", obligations }, AT), ErrorCodes.unknownRoute);
  refusal(() => openJudgmentBatch(history, { routeDefinitionId: "route:meaning-settlement", question: "Q?", obligations: [] }, AT), ErrorCodes.invalidParams);
  refusal(
    () => openJudgmentBatch(history, { routeDefinitionId: "route:meaning-settlement", question: "Q?", obligations: [obligations[0], obligations[0]] as typeof obligations }, AT),
    ErrorCodes.invalidParams,
  );
  refusal(() => openJudgmentBatch(history, { routeDefinitionId: "route:meaning-settlement", question: " padded", obligations }, AT), ErrorCodes.invalidParams);
  harness.apply(openJudgmentBatch(history, { routeDefinitionId: "route:meaning-settlement", question: "Q?", obligations }, AT).drafts);
  refusal(() => openJudgmentBatch(harness.history(), { routeDefinitionId: "route:meaning-settlement", question: "Q?", obligations }, AT), ErrorCodes.operationNotLegal);
});

test("conclude not-applicable: support, contribution, discharges, conclusion with the spec's basis hash", () => {
  const harness = new OperationHarness();
  harness.turnOn();
  harness.apply(openJudgmentBatch(harness.history(), { routeDefinitionId: "route:meaning-settlement", question: "What changes?", obligations }, AT).drafts);
  const frame = harness.history().activeScope?.frames[0]?.frame;
  const batch = concludeJudgmentBatch(harness.history(), { disposition: "not-applicable", reason: "Nothing.", basis: ["Seen."] }, AT);
  assert.deepEqual(
    batch.drafts.map((draft) => draft.kind),
    ["support-observed", "frame-contribution-admitted", "obligation-discharged", "obligation-discharged", "route-frame-concluded"],
  );
  const support = (batch.drafts[0]?.payload as { support: { sourceKind: string; sourceRevisionSha256: string } }).support;
  assert.equal(support.sourceKind, "judgment-result");
  assert.equal(support.sourceRevisionSha256, hashValue({ domain: "developer/v8/not-applicable-judgment-basis", frame, reason: "Nothing.", basis: ["Seen."] }));
  assert.equal(batch.drafts[1]?.causalRefs[0]?.eventId, batch.drafts[0]?.eventId);
  harness.apply(batch.drafts);
  assert.equal(phaseOf(harness.history()), "ready-to-edit");
  refusal(() => concludeJudgmentBatch(harness.history(), { disposition: "not-applicable", reason: "Again.", basis: ["Seen."] }, AT), ErrorCodes.operationNotLegal);
});

test("conclude without an owner: needs-evidence is recorded as an unresolved attempt; bad basis lists write nothing", () => {
  const harness = new OperationHarness();
  harness.turnOn();
  harness.apply(openJudgmentBatch(harness.history(), { routeDefinitionId: "route:meaning-settlement", question: "Q?", obligations }, AT).drafts);
  const history = harness.history();
  refusal(() => concludeJudgmentBatch(history, { disposition: "not-applicable", reason: "R.", basis: [] }, AT), ErrorCodes.invalidParams);
  refusal(() => concludeJudgmentBatch(history, { disposition: "not-applicable", reason: "R.", basis: ["x", "x"] }, AT), ErrorCodes.invalidParams);
  assert.equal(harness.history().activeScope?.head.scopeSequence, 1);

  const needs = concludeJudgmentBatch(history, { disposition: "judgment", outcome: { kind: "needs-evidence", evidenceNeeded: ["A log."], resolutionOwner: "user" } }, AT);
  assert.equal(needs.concluded, false);
  assert.deepEqual(needs.drafts.map((draft) => draft.kind), ["support-observed"]);
  const support = (needs.drafts[0]?.payload as { support: Record<string, unknown> }).support;
  const frameId = history.activeScope?.frames[0]?.frame.frameId ?? "";
  assert.equal(support.sourceKind, "judgment-result");
  assert.equal(support.sourceId, `unresolved-judgment:${frameId}`);
  harness.apply(needs.drafts);
  // Nothing resolved: the frame is still open, unblocked, and concluding is still the next step.
  const after = harness.history();
  assert.equal(after.activeScope?.frames[0]?.conclusion, null);
  assert.deepEqual(after.activeScope?.frames[0]?.blockers, []);
  assert.equal(phaseOf(after), "deciding");
  const again = concludeJudgmentBatch(after, { disposition: "judgment", outcome: { kind: "needs-evidence", evidenceNeeded: ["A log."], resolutionOwner: "user" } }, AT);
  assert.notEqual((again.drafts[0]?.payload as { support: Record<string, unknown> }).support.supportId, support.supportId, "each attempt has its own support id");
  harness.apply(concludeJudgmentBatch(after, { disposition: "not-applicable", reason: "Answered.", basis: ["Seen."] }, AT).drafts);
  assert.equal(phaseOf(harness.history()), "ready-to-edit");
});

test("authorize and land: exact drafts, causes, and the full debt cycle", () => {
  const harness = decided();
  const scope = harness.history().activeScope;
  const conclusionRef = scope?.frames[0]?.conclusion?.eventRef;
  const authorize = authorizeChangeBatch(harness.history(), { movement: "M.", stableLanding: "S.", verificationTarget: "V." }, AT);
  assert.deepEqual(authorize.drafts.map((draft) => draft.kind), ["change-authorized"]);
  assert.deepEqual(authorize.drafts[0]?.causalRefs, [conclusionRef]);
  assert.equal(authorize.authorization.boundary, null);
  harness.apply(authorize.drafts);
  refusal(() => authorizeChangeBatch(harness.history(), { movement: "M.", stableLanding: "S.", verificationTarget: "V." }, AT), ErrorCodes.operationNotLegal);
  refusal(() => openJudgmentBatch(harness.history(), { routeDefinitionId: "route:meaning-settlement", question: "Q?", obligations }, AT), ErrorCodes.operationNotLegal);

  const land = recordLandingBatch(harness.history(), { changedPaths: ["src/b.ts", "src/a.ts"], result: "Done.", verification: ["npm test"] }, AT);
  assert.deepEqual(land.landing.changedPaths, ["src/a.ts", "src/b.ts"]);
  assert.notEqual(land.landing.rerouteFrameId, land.landing.verificationFrameId);
  harness.apply(land.drafts);
  assert.equal(phaseOf(harness.history()), "rerouting");
  refusal(() => recordLandingBatch(harness.history(), { changedPaths: ["a"], result: "Done.", verification: [] }, AT), ErrorCodes.operationNotLegal);
  refusal(() => authorizeChangeBatch(harness.history(), { movement: "M.", stableLanding: "S.", verificationTarget: "V." }, AT), ErrorCodes.operationNotLegal);

  const reroute = openJudgmentBatch(harness.history(), { routeDefinitionId: "route:meaning-settlement", question: "Reroute?", obligations }, AT);
  assert.equal(reroute.purpose, "reroute-decision");
  assert.equal(reroute.frameId, land.landing.rerouteFrameId);
  assert.equal(reroute.drafts[0]?.causalRefs.length, 1);
  harness.apply(reroute.drafts);
  harness.apply(
    concludeJudgmentBatch(
      harness.history(),
      { disposition: "judgment", outcome: { kind: "contextual-judgment", rationale: "Holds.", artifact: "No reroute.", stopEvidence: ["Matches."] } },
      AT,
    ).drafts,
  );
  refusal(() => openJudgmentBatch(harness.history(), { routeDefinitionId: "route:meaning-settlement", question: "Verified?", obligations }, AT), ErrorCodes.verificationRouteRequired);
  const verification = openJudgmentBatch(harness.history(), { routeDefinitionId: "route:claim-evidence-assessment", question: "Verified?", obligations }, AT);
  assert.equal(verification.frameId, land.landing.verificationFrameId);
  harness.apply(verification.drafts);
  const verified = concludeJudgmentBatch(harness.history(), { disposition: "not-applicable", reason: "Verified.", basis: ["Tests pass."] }, AT);
  const concludedDraft = verified.drafts[verified.drafts.length - 1];
  assert.equal(concludedDraft?.kind, "route-frame-concluded");
  assert.equal(concludedDraft?.causalRefs.length, 1, "the verification conclusion cites the landing");
  harness.apply(verified.drafts);
  assert.equal(phaseOf(harness.history()), "done");
  // After a full cycle authorization binds to the latest concluded frame: the verification frame.
  const next = authorizeChangeBatch(harness.history(), { movement: "M2.", stableLanding: "S2.", verificationTarget: "V2." }, AT);
  assert.equal(next.authorization.frameId, land.landing.verificationFrameId);
  harness.apply(next.drafts);
});

test("authorize refusals: nothing concluded, open frame", () => {
  const harness = new OperationHarness();
  harness.turnOn();
  refusal(() => authorizeChangeBatch(harness.history(), { movement: "M.", stableLanding: "S.", verificationTarget: "V." }, AT), ErrorCodes.operationNotLegal);
  harness.apply(openJudgmentBatch(harness.history(), { routeDefinitionId: "route:meaning-settlement", question: "Q?", obligations }, AT).drafts);
  refusal(() => authorizeChangeBatch(harness.history(), { movement: "M.", stableLanding: "S.", verificationTarget: "V." }, AT), ErrorCodes.operationNotLegal);
  refusal(() => recordLandingBatch(harness.history(), { changedPaths: ["a"], result: "R.", verification: [] }, AT), ErrorCodes.operationNotLegal);
});

test("every Git reconciliation code is a protocol error code", () => {
  const codes: readonly string[] = Object.values(ErrorCodes);
  for (const code of Object.values(WorkspaceErrorCodes)) assert.ok(codes.includes(code), code);
  assert.ok(WriteResult.safeParse({ protocol: "developer/v8-result", workScopeId: null, eventIds: [], runtime: { state: "inactive", reroutePending: false, verificationPending: false }, nextAction: null }).success);
});
