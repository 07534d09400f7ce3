// What the Work view says about a frame, from frames produced by real operation batches replayed
// through the reducer: an owner Skill's return restated by the judgment result is one
// contribution with both sources, and a discharged obligation says the conclusion settled it and
// on which contribution, instead of a bare "discharged".
import { test } from "node:test";
import assert from "node:assert/strict";
import { describeWorkState } from "../../server/developer/workState";
import { concludeJudgmentBatch, openJudgmentBatch } from "../../server/developer/operations/judgmentOperations";
import { loadSkillCatalog } from "../../server/developer/operations/skillCatalog";
import { WorkState, type WorkFrame } from "../../server/protocol/messages";
import { contributionText, mergeContributions, obligationText } from "../../extension/workFrameModel";
import { AT, OperationHarness } from "../support/operationHarness";
import { repoRoot } from "../support/repoRoot";

const l10n = { t: (message: string, ...args: Array<string | number | boolean>) => message.replace(/\{(\d+)\}/gu, (_, index: string) => String(args[Number(index)])) };

const obligations = [
  { obligationId: "obligation:b", statement: "B is settled." },
  { obligationId: "obligation:a", statement: "A is settled." },
];

function onlyFrame(harness: OperationHarness): WorkFrame {
  const frame = WorkState.parse(describeWorkState(harness.history())).frames[0];
  assert.ok(frame !== undefined);
  return frame;
}

async function ownedFrame(): Promise<OperationHarness> {
  const catalog = await loadSkillCatalog(repoRoot());
  const harness = new OperationHarness();
  harness.turnOn();
  const ownerSkill = { skillName: "sketch", subquestion: "What shape?", expectedContribution: "A sketch.", targetObligationIds: ["obligation:b"] };
  harness.apply(openJudgmentBatch(harness.history(), { routeDefinitionId: "route:meaning-settlement", question: "Shape?", obligations, ownerSkill }, AT, catalog).drafts);
  const outcome = { kind: "contextual-judgment" as const, rationale: "The rule holds for both.", artifact: "Keep the rule.", stopEvidence: ["Both cases checked."] };
  harness.apply(concludeJudgmentBatch(harness.history(), { disposition: "judgment", outcome }, AT, { catalog }).drafts);
  return harness;
}

test("an owner's return restated by the judgment result is one contribution naming both sources", async () => {
  const frame = onlyFrame(await ownedFrame());
  // The ledger keeps both admitted contributions; the view shows the claim once.
  assert.deepEqual(
    frame.contributions.map((entry) => [entry.sourceKind, entry.claim]),
    [
      ["skill-return", "Keep the rule."],
      ["judgment-result", "Keep the rule."],
    ],
  );
  const shown = mergeContributions(frame.contributions);
  assert.equal(shown.length, 1);
  assert.deepEqual(
    shown[0]?.sources.map((source) => [source.sourceKind, source.contributionId]),
    frame.contributions.map((entry) => [entry.sourceKind, entry.contributionId]),
  );
  const text = contributionText(shown[0] ?? assert.fail("no entry"), l10n);
  // The row shows the claim; which sources recorded it is the tooltip's (a default-width side bar cuts more).
  assert.equal(text.description, "Keep the rule.");
  assert.match(text.tooltip, /Recorded from the owner Skill's return: /u);
  assert.match(text.tooltip, /Recorded from the judgment result: /u);
});

test("different claims stay separate, in admission order", () => {
  const shown = mergeContributions([
    { contributionId: "c:2", sourceKind: "judgment-result", sourceId: "j", claim: "Second." },
    { contributionId: "c:1", sourceKind: "skill-return", sourceId: "s", claim: "First." },
    { contributionId: "c:3", sourceKind: "external", sourceId: "x", claim: "Second." },
  ]);
  assert.deepEqual(
    shown.map((entry) => [entry.claim, entry.sources.map((source) => source.contributionId)]),
    [
      ["Second.", ["c:2", "c:3"]],
      ["First.", ["c:1"]],
    ],
  );
  const second = contributionText(shown[0] ?? assert.fail("no entry"), l10n);
  assert.equal(second.description, "Second.");
  assert.deepEqual(second.tooltip.split("\n"), ["Second.", "Recorded from the judgment result: c:2", "Recorded from external: c:3"]);
});

test("a discharged obligation says the conclusion settled it, on which contribution and stop evidence", async () => {
  const frame = onlyFrame(await ownedFrame());
  const byId = new Map(frame.obligations.map((entry) => [entry.obligationId, entry]));
  const a = byId.get("obligation:a") ?? assert.fail("no obligation:a");
  const b = byId.get("obligation:b") ?? assert.fail("no obligation:b");
  // obligation:b cites both sources of the claim, obligation:a only the judgment result; both read the same.
  assert.equal(b.settledBy?.contributionIds.length, 2);
  assert.equal(a.settledBy?.contributionIds.length, 1);
  for (const obligation of [a, b]) {
    const text = obligationText(obligation, frame, l10n);
    // The conclusion itself is the frame's Conclusion row and the tooltip's: the row stays short.
    assert.equal(text.description, "settled by the conclusion");
    assert.deepEqual(text.tooltip.split("\n").slice(1), [
      "Settled when the judgment was concluded; the conclusion discharges every obligation of the frame: Keep the rule.",
      "On the strength of: Keep the rule. (from the owner Skill's return, the judgment result)",
      "Stop evidence: Both cases checked.",
    ]);
  }
});

test("an open frame's obligations read open; a discharge outside a conclusion names its contribution", async () => {
  const catalog = await loadSkillCatalog(repoRoot());
  const harness = new OperationHarness();
  harness.turnOn();
  harness.apply(openJudgmentBatch(harness.history(), { routeDefinitionId: "route:meaning-settlement", question: "Q?", obligations }, AT, catalog).drafts);
  const open = onlyFrame(harness);
  assert.deepEqual(
    open.obligations.map((entry) => obligationText(entry, open, l10n).description),
    ["open", "open"],
  );
  // A replayed log may discharge before concluding; the view then names the contribution, not the conclusion.
  const concluded = onlyFrame(await ownedFrame());
  const first = concluded.obligations[0] ?? assert.fail("no obligation");
  const early = { ...first, settledBy: first.settledBy === null ? null : { ...first.settledBy, withConclusion: false } };
  const text = obligationText(early, { ...concluded, conclusion: null, status: "open" }, l10n);
  assert.equal(text.description, "settled by Keep the rule.");
  assert.equal(text.tooltip.split("\n")[1], "Settled by an explicit discharge.");
});
