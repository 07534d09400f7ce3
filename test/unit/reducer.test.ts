// Black-box reducer tests: envelope logs in, dispositions / scope state / receipts out. Every
// expected disposition list below was produced by replaying the same log through the reference
// runtime's replayDeveloperRuntime (developer/v8 §10 runtime-transition, runtime-root and
// runtime-replay cases) and pinned here; receipt projection hashes likewise equal the reference's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { replayEntries } from "../../server/ledger/replay";
import { ReceiptProjection } from "../../server/developer/receipts";
import { describeHistory, phaseOf, runtimeFacts } from "../../server/developer/history";
import { parseSemanticEvent } from "../../server/developer/eventKinds";
import { advanceScope } from "../../server/developer/reducer";
import {
  authorizeLandAndDebts,
  childFrames,
  closureRules,
  externalAdmissionNeedsSupport,
  frameValueRules,
  verificationClearsDebt,
  zeroSkillCycle,
} from "../support/reducerScenarios";
import { frameSpec, refOf, ScopeLog, sha } from "../support/developerLog";
import { outcomes, replayOf, projectionOf } from "../support/scenarioReplay";

test("zero-Skill support discharges and concludes without routing; premature conclusion is rejected", () => {
  const replay = replayOf(zeroSkillCycle());
  assert.deepEqual(outcomes(replay), [
    "ok",
    "ok",
    "conclusion-not-ready",
    "ok",
    "ok",
    "discharge-not-supported", // a method-only use never discharges
    "ok",
    "ok",
    "conclusion-not-ready",
    "ok",
    "ok",
    "frame-concluded",
  ]);
  const scope = replay.scope("scope:s");
  assert.ok(scope !== undefined);
  const frame = scope.frames[0];
  assert.ok(frame !== undefined && frame.conclusion !== null);
  assert.deepEqual(frame.discharges.map((entry) => entry.dischargeId), ["discharge:a", "discharge:b"]);
  assert.equal(projectionOf(replay), "c825999d5c183c472a780fcbe97910999146188779f8905bc54db52c2f1d7709");
  // A history with rejected entries is blocked for writers, whatever its frames say.
  assert.equal(phaseOf(describeHistory(replay)), "blocked");
});

test("external admission needs its support cause; the corrected same-sequence admission is accepted", () => {
  const replay = replayOf(externalAdmissionNeedsSupport());
  assert.deepEqual(outcomes(replay), [
    "ok",
    "ok",
    "ok",
    "source-causality-missing", // repeated supportId
    "source-causality-missing", // no cause
    "source-causality-missing", // cause with another source kind
    "source-causality-missing", // expectedProposalSha256 drift
    "ok",
    "duplicate-identity",
    "ok",
    "ok",
  ]);
  assert.equal(projectionOf(replay), "fd74a4d445b4de0ba447a672f39a3ec1c020ac04934334208fa17a70f668b1d8");
});

test("authorize then land leaves both debts pending; reroute clears only with the exact landing ref", () => {
  const replay = replayOf(authorizeLandAndDebts());
  assert.deepEqual(outcomes(replay), [
    "ok",
    "ok",
    "ok",
    "ok",
    "ok",
    "source-causality-missing", // authorization before any conclusion
    "ok",
    "ok",
    "scope-close-blocked", // active authorization
    "source-causality-missing", // landing without its authorization cause
    "ok",
    "authorization-blocked", // debts pending
    "debt-causality-mismatch", // reroute frame without the landing ref
    "ok",
    "ok",
    "ok",
    "ok",
    "ok",
    "ok",
    "ok",
    "ok",
    "ok",
    "verification-route-mismatch", // verification must be claim-evidence assessment
  ]);
  const scope = replay.scope("scope:s");
  assert.ok(scope !== undefined);
  assert.deepEqual(
    scope.root.debts.map((debt) => [debt.reroutePending, debt.verificationPending]),
    [[false, true]],
  );
  assert.equal(scope.root.activeAuthorization, null);
  assert.equal(projectionOf(replay), "66169f1ccb2bb46cfbdaa744d2c66e14f4668cb42a16007e138adb4e0c9cd231");
});

test("verification debt clears at conclusion on claim-evidence assessment citing the landing; closed scope rejects later events", () => {
  const replay = replayOf(verificationClearsDebt());
  assert.deepEqual(outcomes(replay), ["ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "debt-causality-mismatch", "ok", "ok", "closed"]);
  const scope = replay.scope("scope:s");
  assert.ok(scope !== undefined);
  // The reroute debt is still pending at close: debts never block closure.
  assert.deepEqual(scope.root.debts.map((debt) => [debt.reroutePending, debt.verificationPending]), [[true, false]]);
  assert.equal(scope.root.status, "closed");
  assert.equal(projectionOf(replay), "09118d0a9fafb28701fc01b27fd7cf1bf00e5c83c1da36e302d8ae5490e30c14");
});

test("child conclusion never unblocks or concludes the parent; child contribution needs the conclusion cause", () => {
  const replay = replayOf(childFrames());
  assert.deepEqual(outcomes(replay), [
    "ok",
    "parent-dependency-invalid",
    "ok",
    "parent-dependency-invalid",
    "invalid-input", // non-canonical dependency targets
    "ok",
    "ok",
    "ok",
    "ok",
    "ok",
    "conclusion-not-ready", // parent still carries the child-frame blocker
    "source-causality-missing",
    "contribution-not-admissible", // the blocked obligation is not actionable
    "ok",
    "blocker-not-found",
    "source-causality-missing",
    "ok",
  ]);
  const scope = replay.scope("scope:s");
  assert.ok(scope !== undefined);
  const parent = scope.frames.find((entry) => entry.frame.frameId === "frame:p");
  assert.ok(parent !== undefined);
  assert.equal(parent.conclusion, null);
  assert.equal(parent.blockers.length, 0);
  assert.deepEqual(parent.contributions.map((entry) => entry.contributionId), ["contribution:child"]);
  assert.equal(projectionOf(replay), "9616281d37a3594299405a3ceebe815183420a4ebde2777a932aa114e2e1bdc6");
});

test("value rules the reference checks in its reducer surface as its reducer codes", () => {
  const replay = replayOf(frameValueRules());
  assert.deepEqual(outcomes(replay), [
    "ok",
    "invalid-input", // obligations out of the frame's order
    "stale-frame",
    "invalid-input", // obligation-set hash drift
    "invalid-payload",
    "ok",
    "duplicate-identity",
    "ok",
    "source-causality-missing",
    "ok",
    "ok",
    "invalid-input", // non-canonical contributionIds
    "invalid-input", // empty stop evidence
    "stale-frame",
    "unknown-frame",
    "obligation-not-actionable",
    "discharge-not-supported",
    "ok",
    "obligation-not-actionable",
    "blocker-not-found",
    "stale-frame",
    "conclusion-not-ready",
  ]);
  assert.equal(projectionOf(replay), "b0f4a74db57618a8a914496f8c8ba786a723b1dfcd2b052544f8ac838618f560");
});

test("closure guard, stale landing and a closed scope", () => {
  const replay = replayOf(closureRules());
  assert.deepEqual(outcomes(replay), [
    "ok",
    "ok",
    "ok",
    "ok",
    "ok",
    "ok",
    "source-causality-missing",
    "ok",
    "scope-close-blocked",
    "landing-stale", // a debt frame id that already exists
    "ok",
    "ok",
    "closed",
  ]);
  assert.equal(projectionOf(replay), "551d07f7162a314b4b8a795875a3af6c0098aa2697ce8af141df2fef0f24a18f");
});

test("a rejected event leaves the prior scope state object untouched", () => {
  const log = new ScopeLog("scope:s");
  const spec = frameSpec("scope:s", "frame:f", ["a"]);
  log.openFrame(spec);
  const support = log.support("support:m", "material", sha("a"));
  const replay = replayEntries(log.entries);
  const before = replay.scope("scope:s");
  const admitted = log.admit(
    spec,
    "contribution:1",
    { kind: "material", sourceId: "source:m", sourceRevisionSha256: sha("a") },
    [{ obligationId: spec.frame.obligationIds[0] as string, useAs: "evidence" }],
    { causes: [refOf(support)], expected: sha("0") },
  );
  assert.equal(replay.apply(admitted).status, "rejected");
  assert.equal(replay.scope("scope:s"), before);
});

test("phases follow the frame and debt facts (§9.5)", () => {
  const log = new ScopeLog("scope:s");
  const phase = (): string => phaseOf(describeHistory(replayEntries(log.entries)));
  assert.equal(phase(), "deciding");
  const spec = frameSpec("scope:s", "frame:f", ["a"]);
  log.openFrame(spec);
  assert.equal(phase(), "deciding");
  const support = log.support("support:m", "material", sha("a"));
  log.admit(spec, "contribution:1", { kind: "material", sourceId: "source:m", sourceRevisionSha256: sha("a") }, [
    { obligationId: spec.frame.obligationIds[0] as string, useAs: "evidence" },
  ], { causes: [refOf(support)] });
  log.discharge(spec, "discharge:1", spec.frame.obligationIds[0] as string, ["contribution:1"]);
  const concluded = log.conclude(spec, ["discharge:1"]);
  assert.equal(phase(), "ready-to-edit");
  const authorization = log.authorize(spec, ["discharge:1"], { causes: [refOf(concluded)] });
  assert.equal(phase(), "editing");
  log.land(authorization.authorizationId, "frame:r", "frame:v", { causes: [refOf(log.head)] });
  const landed = log.head;
  assert.equal(phase(), "rerouting");
  const reroute = frameSpec("scope:s", "frame:r", ["next"]);
  log.openFrame(reroute, { causes: [refOf(landed)] });
  assert.equal(phase(), "rerouting");
  assert.deepEqual(
    (({ openFrame, reroutePending, verificationPending }) => ({ openFrame, reroutePending, verificationPending }))(
      runtimeFacts(describeHistory(replayEntries(log.entries))),
    ),
    { openFrame: true, reroutePending: false, verificationPending: true },
  );
});

test("receipts of the reduced kinds carry ids, counts and hashes, never claims, questions or stop evidence", () => {
  for (const scenario of [zeroSkillCycle(), authorizeLandAndDebts(), verificationClearsDebt(), childFrames()]) {
    const projection = new ReceiptProjection();
    projection.follow(replayOf(scenario).accepted);
    for (let ordinal = 0; ordinal < projection.count; ordinal += 1) {
      const text = JSON.stringify(projection.receipt(ordinal)?.body);
      for (const leaked of ["settles", "Seen in", "Settled.", "The question", "Every obligation", "Move the code", "Landed.", "Needs C"]) {
        assert.ok(!text.includes(leaked), `${scenario.name} receipt ${ordinal} leaks ${leaked}`);
      }
    }
  }
});

test("a cause accepted in another scope counts only when the driver hands over the cause events", () => {
  const first = new ScopeLog("scope:a");
  const support = first.support("support:m", "material", sha("a"));
  first.close();
  const second = new ScopeLog("scope:b");
  const spec = frameSpec("scope:b", "frame:f", ["x"]);
  second.openFrame(spec);
  const replay = replayEntries([...first.entries, ...second.entries]);
  const admission = second.admit(
    spec,
    "contribution:1",
    { kind: "material", sourceId: "source:m", sourceRevisionSha256: sha("a") },
    [{ obligationId: spec.frame.obligationIds[0] as string, useAs: "evidence" }],
    { causes: [refOf(support)] },
  );
  const scope = replay.scope("scope:b");
  assert.ok(scope !== undefined);
  const event = parseSemanticEvent(admission);
  const cause = replay.accepted.find((entry) => entry.envelope.eventId === support.eventId);
  assert.ok(cause !== undefined);
  // The reference accepts this admission (its support cause may live in any scope).
  const next = advanceScope(scope, admission, event, [cause]);
  assert.deepEqual(next.frames[0]?.contributions.map((entry) => entry.contributionId), ["contribution:1"]);
  // Without the cause events only this scope's records are searched.
  assert.throws(() => advanceScope(scope, admission, event), /External contribution lacks its support causal ref/u);
});
