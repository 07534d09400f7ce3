// findPhrase skips tokenizing an ASCII phrase none of whose substrings is a task word
// (server/router/matching.ts, cannotMatch). It must answer exactly what the compiled phrase
// answers, whatever the task and the phrase: compared on generated tasks and phrases that mix
// ASCII words in any case, case folds that change (the Kelvin sign, `İ`, `ß`), Hangul stems with
// particles, possessives, apostrophes and the punctuation the matching rules treat specially.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { findCompiledPhrase, findPhrase, phraseCannotMatch } from "../../server/router/matching";
import { parseTask } from "../../server/router/task";

const word = fc.constantFrom(
  "fix", "Fix", "FIX", "fixing", "bug", "the", "web", "webhook", "Go", "go", "R", "C", "c++", "C#", ".NET", "node.js", "pkg-0003",
  "@generated/pkg-0003", "module7.ts", "src/module7.ts", "k", "K", "\u212Aelvin", "kelvin", "\u0130stanbul", "istanbul", "stra\u00DFe", "strasse",
  "\uC6F9\uD6C5", "\uC6F9\uD6C5\uC744", "\uC218\uC815", "\uC218\uC815\uD574\uC918", "Go's", "Go\u2019s", "don't", "R&D", "a", "ts", "in",
);
const joint = fc.constantFrom(" ", "  ", "-", " - ", ".", "/", ", ", "'", "");
const text = fc.array(fc.tuple(word, joint), { minLength: 1, maxLength: 6 }).map((parts) => parts.map(([w, j]) => `${w}${j}`).join("").trim());

test("the shortcut answers what the compiled phrase answers (property)", () => {
  fc.assert(
    fc.property(text, text, fc.boolean(), (taskText, phrase, anyCase) => {
      if (taskText.length === 0) return;
      const task = parseTask(taskText);
      assert.deepEqual(findPhrase(task, phrase, { anyCase }), findCompiledPhrase(task, phrase, { anyCase }));
    }),
    { numRuns: 4000, seed: 16 },
  );
});

test("a phrase the shortcut rules out never matches when compiled (property)", () => {
  let ruledOut = 0;
  fc.assert(
    fc.property(text, text, fc.boolean(), (taskText, phrase, anyCase) => {
      if (taskText.length === 0) return;
      const task = parseTask(taskText);
      if (!phraseCannotMatch(task, phrase)) return;
      ruledOut += 1;
      assert.deepEqual(findCompiledPhrase(task, phrase, { anyCase }), []);
    }),
    { numRuns: 4000, seed: 17 },
  );
  assert.ok(ruledOut > 500, `the shortcut was exercised (${ruledOut} phrases ruled out)`);
});

test("a task with many distinct words always compiles its phrases", () => {
  const words = Array.from({ length: 70 }, (_, index) => `word${index}`).join(" ");
  assert.equal(phraseCannotMatch(parseTask(words), "billing"), false);
  assert.equal(phraseCannotMatch(parseTask("fix the bug"), "billing"), true);
});

test("a phrase whose words all occur in the task is still compiled and matched", () => {
  const task = parseTask("fix the Go service and the webhook in pkg-0003");
  assert.deepEqual(findPhrase(task, "pkg-0003").map((span) => span.text), ["pkg-0003"]);
  assert.deepEqual(findPhrase(task, "Webhook").map((span) => span.text), ["webhook"]);
  assert.deepEqual(findPhrase(task, "go").map((span) => span.text), []);
  assert.deepEqual(findPhrase(task, "billing"), []);
});
