// The Stop decision's rules (docs/guard.md "At Stop"), pure: supported with nothing remaining is
// silent; one intake warning is the only exception; anything else is a notice; block-once blocks
// only when the host has not already continued and the session's block for this intake is unspent;
// `off` is always silent. Remaining work is listed by stable kind, in a stable order.
import { test } from "node:test";
import assert from "node:assert/strict";
import { decideStop, remainingWork, type ReviewCheck, type StopDecisionInput } from "../../server/guard/guardDecision";
import type { RuntimeFacts } from "../../server/developer/toolPolicy";
import { IDLE_SCOPE_FACTS } from "../support/runtimeFacts";

const supported: ReviewCheck = { status: "supported", reviewId: "review:0123456789abcdef01234567", cause: null, message: "supported" };
const missing: ReviewCheck = { status: "missing", reviewId: null, cause: "docket.marker-missing", message: "no marker" };
const idle: RuntimeFacts = IDLE_SCOPE_FACTS;

function decide(overrides: Partial<StopDecisionInput>): ReturnType<typeof decideStop> {
  return decideStop({ mode: "notice", review: supported, remaining: [], phase: "deciding", intakeWarning: null, alreadyContinued: false, blockSpent: false, ...overrides });
}

test("supported with nothing remaining: silent, in every mode", () => {
  for (const mode of ["notice", "block-once", "off"] as const) assert.deepEqual(decide({ mode }), { decision: "silent", notice: null, blockReason: null });
});

test("the one exception: an owed intake warning turns a clear stop into a notice carrying only that warning", () => {
  const result = decide({ intakeWarning: "Docket saw no prompt." });
  assert.equal(result.decision, "notice");
  assert.equal(result.notice, "Docket: Docket saw no prompt.");
});

test("a supported review does not hide remaining work: notice with the work listed", () => {
  const result = decide({ remaining: [{ kind: "verification-debt", text: "verify it" }], phase: "verifying" });
  assert.equal(result.decision, "notice");
  assert.match(result.notice ?? "", /is supported, but recorded work remains/u);
  assert.match(result.notice ?? "", /- verification-debt: verify it/u);
});

test("block-once blocks once; an already-continued stop or a spent block always yields with a notice", () => {
  const remaining = [{ kind: "unreviewed-claim" as const, text: "review it" }];
  const first = decide({ mode: "block-once", review: missing, remaining });
  assert.equal(first.decision, "block");
  assert.match(first.blockReason ?? "", /review_open and review_submit/u);
  assert.notEqual(first.notice, null);
  assert.equal(decide({ mode: "block-once", review: missing, remaining, alreadyContinued: true }).decision, "notice");
  assert.equal(decide({ mode: "block-once", review: missing, remaining, blockSpent: true }).decision, "notice");
  assert.equal(decide({ mode: "notice", review: missing, remaining }).decision, "notice");
  assert.equal(decide({ mode: "off", review: missing, remaining }).decision, "silent");
});

test("remaining work: every kind from its own fact, in a stable order, and an unsupported review names its claims", () => {
  const remaining = remainingWork({
    work: { phase: "editing", purpose: "work-decision", facts: { ...idle, authorizationActive: true, reroutePending: true, verificationPending: true } },
    boards: [{ task: "fix greet", verdict: "FIX_REQUIRED", reasons: ["architect has not reported"] }],
    proposals: ["proposal-11111111-1111-4111-8111-111111111111"],
    review: { status: "unsupported", reviewId: "review:0123456789abcdef01234567", cause: "docket.review-unsupported", message: "unsupported" },
    flaggedClaims: [{ claimId: "c2", verdict: "partial", text: "all tests pass" }],
  });
  assert.deepEqual(
    remaining.map((item) => item.kind),
    ["authorized-change", "reroute-debt", "verification-debt", "board-finding", "notebook-proposal", "unreviewed-claim"],
  );
  assert.match(remaining[5]?.text ?? "", /Claim c2 is partial: all tests pass/u);
  const deciding = remainingWork({ work: { phase: "deciding", purpose: "work-decision", facts: { ...idle, openFrame: true } }, boards: [], proposals: [], review: supported, flaggedClaims: [] });
  assert.deepEqual(deciding.map((item) => item.kind), ["open-frame"]);
  // A debt's own open frame is the debt, listed once.
  const verifying = remainingWork({ work: { phase: "verifying", purpose: "verification-decision", facts: { ...idle, openFrame: true, verificationPending: true } }, boards: [], proposals: [], review: supported, flaggedClaims: [] });
  assert.deepEqual(verifying.map((item) => item.kind), ["verification-debt"]);
});

test("an explanation is not proof: without a supported review the claims are remaining work whatever the answer says", () => {
  const remaining = remainingWork({ work: { phase: "done", purpose: null, facts: idle }, boards: [], proposals: [], review: missing, flaggedClaims: [] });
  assert.deepEqual(remaining.map((item) => item.kind), ["unreviewed-claim"]);
  assert.equal(decide({ review: missing, remaining }).decision, "notice");
});
