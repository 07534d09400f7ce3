// judgment.md §4: the dynamic question and questionSha256.
import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeDynamicJudgmentQuestionData, jsonValueFromUnknown, JudgmentParseError } from "../../server/judgment";
import { compiledPolicy, ownerJson, question } from "../fixtures/judgment/builders";

const QUESTION_SHA256 = "03dd3e6b65126d4297a965a258bd7c5e5161a139d5beb818439ff435215bd8ab";
const QUESTION_WITH_POLICY_SHA256 = "c1f2f6c79f2280412a40e5e66bfd1e0c5a95363559c0aba77e349c1ff6b653cd";

test("questionSha256 is pinned (cross-checked by a hand-built canonical string); policy is omitted when absent", () => {
  assert.equal(question().questionSha256, QUESTION_SHA256);
  const bound = question({ policySha256: compiledPolicy().policySha256 });
  assert.equal(bound.questionSha256, QUESTION_WITH_POLICY_SHA256);
  assert.equal(bound.policySha256, compiledPolicy().policySha256);
  assert.ok(!("policySha256" in question()));
  assert.ok(Object.isFrozen(bound));
});

test("same prose under another owner, policy or branch is another question", () => {
  const base = question().questionSha256;
  assert.notEqual(question({ branchRef: "branch-2" }).questionSha256, base);
  assert.notEqual(question({ owner: { ...ownerJson, namespace: "other" } }).questionSha256, base);
  assert.notEqual(question({ policySha256: "a".repeat(64) }).questionSha256, base);
  assert.notEqual(question({ judgmentId: "judgment-2" }).questionSha256, base);
});

test("question text and branch are collapsed; basis ids normalised, deduplicated, sorted", () => {
  const q = question({ question: "What  claim does this exact verifier\nresult support?", basisMaterialIds: ["b", "a  x"] });
  assert.equal(q.question, "What claim does this exact verifier result support?");
  assert.deepEqual(q.basisMaterialIds, ["a x", "b"]);
  assert.equal(question({ basisMaterialIds: ["b", "a x"] }).questionSha256, q.questionSha256);
  assert.throws(() => question({ basisMaterialIds: ["a x", "a  x"] }), /Duplicate dynamic-question basis material: a x\./u);
  assert.throws(() => question({ question: " padded" }), /Expected directly normalized non-blank text at \/question\./u);
  assert.throws(() => question({ branchRef: "b " }), /at \/branchRef\./u);
});

test("schema: exact keys, Identifier judgmentId, Sha256 policy, limits", () => {
  const valid = { judgmentId: "j", owner: ownerJson, question: "q?", basisMaterialIds: [], branchRef: "b" };
  const bad: unknown[] = [
    { ...valid, extra: 1 },
    { ...valid, judgmentId: "9j" },
    { ...valid, policySha256: "ABC" },
    { ...valid, question: "" },
    { ...valid, basisMaterialIds: ["a", "a"] },
    { ...valid, basisMaterialIds: Array.from({ length: 129 }, (_, i) => `m${i}`) },
    { ...valid, owner: { ...ownerJson, extra: true } },
  ];
  for (const value of bad)
    assert.throws(
      () => decodeDynamicJudgmentQuestionData(jsonValueFromUnknown(value)),
      (error: unknown) => error instanceof JudgmentParseError && error.message === "Dynamic judgment question has an invalid representation.",
    );
});
