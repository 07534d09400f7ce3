// judgment.md §10: applicability, judgment-event/v1 transitions, replay and ContextAttempt.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  applicabilityRecorded,
  ContextAttempt,
  ContextSealError,
  decodeContextApplicabilityData,
  jsonValueFromUnknown,
  JudgmentTransitionError,
  parseContextApplicability,
  replayJudgmentEvents,
  selectionRecorded,
  startJudgment,
  transitionJudgment,
  type ContextJudgmentEvent,
  type JsonValue,
} from "../../server/judgment";
import { acquisition, compiledPolicy, inventory, observed, ownerJson, question } from "../fixtures/judgment/builders";

const json = (value: unknown): JsonValue => jsonValueFromUnknown(value);
const transitionError = (message: string | RegExp) => (error: unknown) =>
  error instanceof JudgmentTransitionError && error.code === "JUDGMENT_TRANSITION_INVALID" && (typeof message === "string" ? error.message === message : message.test(error.message));

function applicability(value: unknown) {
  return parseContextApplicability(decodeContextApplicabilityData(json(value)));
}

test("applicability kinds lead to selection-open or a terminal status; lists are normalised", () => {
  const q = question();
  const start = startJudgment(q);
  assert.deepEqual(applicability({ kind: "applicable", basis: ["b", "a  c"] }), { kind: "applicable", basis: ["a c", "b"] });
  const cases: [unknown, string][] = [
    [{ kind: "applicable", basis: ["A boundary is undecided."] }, "selection-open"],
    [{ kind: "not-applicable", reason: "Only a review.", evidence: ["A candidate exists."] }, "terminal-not-applicable"],
    [{ kind: "needs-context", missingContext: ["Who owns the API?"] }, "terminal-needs-context"],
  ];
  for (const [value, status] of cases) assert.equal(transitionJudgment(start, applicabilityRecorded({ state: start, applicability: applicability(value) })).status, status);
  assert.throws(() => decodeContextApplicabilityData(json({ kind: "applicable", basis: [] })), /Context applicability has an invalid representation\./u);
  assert.throws(() => decodeContextApplicabilityData(json({ kind: "maybe", basis: ["x"] })), /invalid representation/u);
});

test("applicability is recorded once; an identical event is a no-op; terminal states accept nothing", () => {
  const start = startJudgment(question());
  const first = applicabilityRecorded({ state: start, applicability: applicability({ kind: "applicable", basis: ["x"] }) });
  const open = transitionJudgment(start, first);
  assert.equal(transitionJudgment(open, first), open);
  assert.throws(
    () => transitionJudgment(open, applicabilityRecorded({ state: open, applicability: applicability({ kind: "applicable", basis: ["y"] }) })),
    transitionError("Context applicability can be recorded only once at start."),
  );
  const done = transitionJudgment(start, applicabilityRecorded({ state: start, applicability: applicability({ kind: "needs-context", missingContext: ["m"] }) }));
  assert.throws(
    () => transitionJudgment(done, applicabilityRecorded({ state: done, applicability: applicability({ kind: "applicable", basis: ["x"] }) })),
    transitionError("Terminal Judgment state cannot accept applicability-recorded."),
  );
  assert.throws(() => transitionJudgment(start, { ...first, judgmentId: "other" }), transitionError("Judgment event belongs to another judgment: other."));
  assert.throws(() => transitionJudgment(start, { ...first, protocol: "judgment-event/v0" } as unknown as ContextJudgmentEvent), transitionError(/Unsupported Judgment event protocol/u));
});

function setup() {
  const policy = compiledPolicy();
  const questionJson = { judgmentId: "judgment-1", owner: ownerJson, policySha256: policy.policySha256, question: "What claim does this exact verifier result support?", basisMaterialIds: [], branchRef: "branch-1" };
  const inv = inventory(policy.policySha256);
  const obs = observed();
  const entry = obs.entries[0];
  const proposal = json({
    questionSha256: question({ policySha256: policy.policySha256 }).questionSha256,
    nominations: [{ kind: "observed-context", observedContextId: entry?.id, descriptorSha256: entry?.descriptorSha256 }],
    selectionBasis: ["The verifier result directly constrains the question."],
  });
  return { questionJson, inv, obs, proposal };
}

test("ContextAttempt: the full path ends terminal-outcome with one event per step", async () => {
  const { questionJson, inv, obs, proposal } = setup();
  const opened = ContextAttempt.open({ question: json(questionJson), applicability: json({ kind: "applicable", basis: ["A verifier result needs a claim."] }) });
  assert.deepEqual(
    opened.events.map((e) => e.kind),
    ["applicability-recorded"],
  );
  const attempt = opened.value;
  assert.equal(attempt.state.status, "selection-open");
  const sealed = await attempt.selectAndSeal({ inventory: inv, observedContext: obs, proposal, acquisition: acquisition() });
  assert.deepEqual(
    sealed.events.map((e) => e.kind),
    ["selection-recorded", "sealed-context-recorded"],
  );
  assert.equal(sealed.value.status, "sealed");
  assert.equal(sealed.value.revision, 1);
  const materialId = sealed.value.sealedContext?.members[0]?.materialId;
  const covered = attempt.assessCoverage(
    json({ status: "sufficient", contributions: [{ materialId, useAs: "evidence", contribution: "Supports that the verifier ran; not what it covered.", assurance: "agent-asserted" }], conflicts: [], limitations: [] }),
  );
  assert.equal(covered.value.status, "covered");
  const coverage = covered.value.coverage;
  const concluded = attempt.conclude(
    json({
      kind: "contextual-judgment",
      selectionSha256: sealed.value.selection?.selectionSha256,
      sealedContextSha256: sealed.value.sealedContext?.sealedContextSha256,
      coverageSha256: coverage?.coverageSha256,
      citedUses: [{ contributionId: coverage?.contributions[0]?.contributionId, artifactEffect: "Grounds the claim." }],
      rationale: "The run is the only evidence and it supports the claim.",
      artifact: "The verifier ran against the change.",
      stopEvidence: ["verifier output"],
    }),
  );
  assert.equal(concluded.value.status, "terminal-outcome");
  const events = [...opened.events, ...sealed.events, ...covered.events, ...concluded.events];
  const replayed = replayJudgmentEvents(startJudgment(question({ policySha256: compiledPolicy().policySha256 })), events);
  assert.equal(replayed.status, "terminal-outcome");
  assert.equal(replayed.outcome?.outcomeSha256, concluded.value.outcome?.outcomeSha256);
  assert.throws(() => attempt.assessCoverage(json({ status: "sufficient", contributions: [], conflicts: [], limitations: [] })), /no contribution/u);
});

test("ContextAttempt: a failing acquisition leaves selection-open and emits nothing", async () => {
  const { questionJson, inv, obs, proposal } = setup();
  const attempt = ContextAttempt.open({ question: json(questionJson), applicability: json({ kind: "applicable", basis: ["x"] }) }).value;
  const before = attempt.state;
  await assert.rejects(
    attempt.selectAndSeal({ inventory: inv, observedContext: obs, proposal, acquisition: acquisition({ acquireObservedContext: async () => { throw new Error("read failed"); } }) }),
    (error: unknown) => error instanceof ContextSealError,
  );
  assert.equal(attempt.state, before);
  assert.equal(attempt.state.status, "selection-open");
  assert.throws(() => attempt.assessCoverage(json({})), transitionError("Coverage requires sealed context, not selection-open."));
  assert.throws(() => attempt.conclude(json({})), transitionError("Outcome requires assessed coverage, not selection-open."));
});

test("re-selection bumps the revision and clears seal, coverage and outcome; stale revisions are refused", async () => {
  const { questionJson, inv, obs, proposal } = setup();
  const attempt = ContextAttempt.open({ question: json(questionJson), applicability: json({ kind: "applicable", basis: ["x"] }) }).value;
  const first = await attempt.selectAndSeal({ inventory: inv, observedContext: obs, proposal, acquisition: acquisition() });
  const second = await attempt.selectAndSeal({ inventory: inv, observedContext: obs, proposal, acquisition: acquisition() });
  assert.equal(second.value.revision, 2);
  assert.equal(second.value.status, "sealed");
  const selection = first.value.selection;
  assert.ok(selection);
  const reselected = transitionJudgment(second.value, selectionRecorded({ state: second.value, selection }));
  assert.equal(reselected.status, "selected");
  assert.equal(reselected.sealedContext, undefined);
  assert.throws(() => transitionJudgment(second.value, { ...selectionRecorded({ state: second.value, selection }), revision: 7 } as ContextJudgmentEvent), transitionError("Selection revision 7 does not follow 2."));
  const start = startJudgment(question({ policySha256: compiledPolicy().policySha256 }));
  assert.throws(() => transitionJudgment(start, selectionRecorded({ state: start, selection })), transitionError("Selection cannot be recorded from started."));
});
