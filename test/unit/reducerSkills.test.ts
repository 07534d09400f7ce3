// Skill assignment, invocation, settlement and frame replacement replay (§3.2 events 11–13, §10 runtime-transition
// "one active invocation per scope", "dependency/needs-context block only targets, capability
// failure blocks all", "2nd settlement → invocation-not-active", "returned Contribution needs
// exact admission and never auto-discharges"). Expected dispositions and the projection hash
// were produced by the reference's replayDeveloperRuntime on the same log.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ReceiptProjection } from "../../server/developer/receipts";
import { frameReplacement, skillInvocations } from "../support/reducerScenarios";
import { outcomes, replayOf } from "../support/scenarioReplay";

test("assignments, one invocation per scope, settlements that block, exact skill admission", () => {
  const scenario = skillInvocations();
  const replay = replayOf(scenario);
  assert.deepEqual(outcomes(replay), [
    "ok", "ok", "ok", "ok", "ok", "ok", "ok",
    "basis-missing", // unknown basis
    "ok",
    "assignment-not-ready", // context basis is not the coverage
    "duplicate-identity",
    "assignment-not-ready", // targets differ from the basis
    "ok",
    "ok",
    "invocation-already-active",
    "conclusion-not-ready", // active invocation on the frame
    "scope-close-blocked",
    "settlement-mismatch",
    "ok", // dependency settlement blocks only its target
    "invocation-not-active", // second settlement
    "source-causality-missing", // resolution without the settlement cause
    "ok",
    "ok",
    "obligation-not-actionable", // the active invocation targets it
    "ok",
    "source-causality-missing", // skill admission without its settlement cause
    "contribution-not-admissible", // forged claim
    "ok",
    "assignment-not-ready", // settled assignment cannot start again
    "ok",
    "duplicate-identity", // invocation id reused
    "ok",
    "ok", // capability failure blocks every target
    "obligation-not-actionable",
    "ok",
    "ok",
    "ok",
    "ok", // lifecycle cancel adds no blocker
    "ok",
  ]);
  const scope = replay.scope("scope:s");
  assert.ok(scope !== undefined);
  assert.equal(scope.activeInvocation, null);
  assert.deepEqual(
    scope.assignments.map((entry) => [entry.assignment.assignmentId, entry.status]),
    [
      ["assignment:1", "settled"],
      ["assignment:2", "settled"],
      ["assignment:3", "settled"],
      ["assignment:4", "settled"],
    ],
  );
  const frame = scope.frames[0];
  assert.ok(frame !== undefined);
  assert.equal(frame.blockers.length, 0);
  // The returned Contribution was admitted explicitly and discharged only by an explicit discharge.
  assert.deepEqual(frame.discharges.map((entry) => entry.obligationId), ["obligation:f-a"]);
  const projection = new ReceiptProjection();
  projection.follow(replay.accepted);
  assert.equal(projection.projectionSha256, "90fce328133213b7c4d8dd9389b6f6e3a6dafb2771779c5973ce98e078b6d9d9");
  const outcomesShown = [...Array(projection.count).keys()]
    .map((ordinal) => projection.receipt(ordinal)?.body)
    .filter((body) => body?.kind === "invocation-settled")
    .map((body) => body?.outcome);
  assert.deepEqual(outcomesShown, ["returned-dependency", "returned-contribution", "capability-timeout", "lifecycle-cancelled"]);
});

test("frame replacement: fresh revision only, no open child or active invocation; frame authority is dropped", () => {
  const replay = replayOf(frameReplacement());
  assert.deepEqual(outcomes(replay), [
    "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok",
    "replacement-not-ready", // open child frame
    "ok", "ok", "ok", "ok",
    "replacement-not-ready", // revision not greater
    "invalid-input", // obligations out of order
    "replacement-not-ready", // another parent
    "ok",
    "replacement-not-ready", // active invocation on the frame
    "ok",
    "ok", // revision 1
    "invalid-input",
    "assignment-not-ready", // the frame's assignments are gone
    "basis-missing", // and so are its bases
    "contribution-not-admissible", // revision 0 contributions are stale
    "discharge-not-supported", // old contributions no longer support anything
    "contribution-not-admissible", // the settlement stays citable, its assignment does not
    "ok", // a new snapshot for the new revision
    "ok", "ok", "ok", "ok", "ok", "ok",
  ]);
  const scope = replay.scope("scope:s");
  assert.ok(scope !== undefined);
  const frame = scope.frames.find((entry) => entry.frame.frameId === "frame:f");
  assert.ok(frame !== undefined && frame.conclusion !== null);
  assert.equal(frame.frame.frameRevision, 1);
  assert.deepEqual(scope.assignments, []);
  assert.deepEqual(scope.bases, []);
  const projection = new ReceiptProjection();
  projection.follow(replay.accepted);
  assert.equal(projection.projectionSha256, "736bec4725ab6ec5fc9ec4800b066409aa3254d80792186f5df59fdfd7a28a6d");
});
