// Stage 1, TASK: bounded, NFC, no control characters; the tokenizer's three kinds of token.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { DocketError } from "../../server/errors";
import { ErrorCodes } from "../../server/protocol/messages";
import { MAX_TASK_LENGTH, TaskStage } from "../../server/router/planSchema";
import { parseTask } from "../../server/router/task";
import { atomsOf, compoundsOf } from "../../server/router/tokens";

function rejects(raw: unknown, pattern: RegExp): void {
  assert.throws(
    () => parseTask(raw as string),
    (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.taskInvalid && pattern.test(error.message),
  );
}

function texts(raw: string): string[] {
  return parseTask(raw).tokens.map((token) => token.text);
}

test("empty, whitespace-only and invisible tasks are refused", () => {
  rejects("", /empty/u);
  rejects("   \n\t  ", /only whitespace/u);
  rejects("\u200B\u3000", /only whitespace/u);
  rejects(null, /must be a string/u);
  rejects(42, /must be a string/u);
});

test("control characters are refused with what and where; newline and tab are fine", () => {
  rejects("fix\u0007 it", /U\+0007 \(bell\) at offset 3 \(line 1, column 4\)/u);
  rejects("line one\nline\u0000two", /U\+0000 \(NUL\) at offset 13 \(line 2, column 5\)/u);
  rejects("fix it\r\n", /U\+000D \(carriage return\).*\\n line endings/u);
  rejects("fix \u001B[31m", /U\+001B \(escape\)/u);
  rejects("fix \u007F", /U\+007F \(delete\)/u);
  rejects("fix \u0085 next line", /U\+0085/u);
  rejects("fix \u009B", /U\+009B/u);
  assert.equal(parseTask("fix\tthe\nwebhook").text, "fix\tthe\nwebhook");
});

test("lone surrogates are refused; paired ones are text", () => {
  rejects("fix \uD800 it", /lone high surrogate U\+D800 at offset 4/u);
  rejects("fix \uDC00", /lone low surrogate U\+DC00 at offset 4/u);
  rejects("\uDC00\uD800", /lone low surrogate/u);
  assert.equal(parseTask("fix 😀 it").text, "fix 😀 it");
});

test("the length limit counts UTF-16 units after NFC", () => {
  assert.equal(parseTask("a".repeat(MAX_TASK_LENGTH)).text.length, MAX_TASK_LENGTH);
  rejects("a".repeat(MAX_TASK_LENGTH + 1), /4001 UTF-16 code units long after NFC normalization; the limit is 4000 \(over by 1\)/u);
  // 4001 units as typed, 3999 after composing "e" + U+0301 twice into "é".
  const composable = `${"a".repeat(MAX_TASK_LENGTH - 3)}e\u0301e\u0301`;
  assert.equal(composable.length, MAX_TASK_LENGTH + 1);
  assert.equal(parseTask(composable).text.length, MAX_TASK_LENGTH - 1);
  rejects("a".repeat(MAX_TASK_LENGTH * 16 + 1), /64001 UTF-16 code units long; the limit is 4000/u);
});

test("the text is NFC: decomposed and composed input give the same task", () => {
  const decomposed = parseTask("re\u0301sume\u0301 handler");
  const composed = parseTask("r\u00E9sum\u00E9 handler");
  assert.deepEqual(decomposed, composed);
  assert.equal(decomposed.tokens[0]?.text, "r\u00E9sum\u00E9");
});

test("words keep inner apostrophes; punctuation separates", () => {
  assert.deepEqual(texts("Don't touch 'billing', ok?"), ["Don't", "touch", "billing", "ok"]);
  assert.deepEqual(texts("don\u2019t"), ["don\u2019t"]);
  assert.deepEqual(texts("snake_case and CamelCase2"), ["snake_case", "and", "CamelCase2"]);
});

test("compounds keep their parts reachable and flag path-like names", () => {
  const task = parseTask("fix src/payments/webhook.ts and web-hook, see foo.bar.");
  assert.deepEqual(
    compoundsOf(task).map((token) => [token.text, token.pathLike]),
    [
      ["src/payments/webhook.ts", true],
      ["web-hook", false],
      ["foo.bar", true],
    ],
  );
  assert.deepEqual(
    atomsOf(task).map((token) => token.text),
    ["fix", "src", "payments", "webhook", "ts", "and", "web", "hook", "see", "foo", "bar"],
  );
  // A compound sorts before its first part (same start, longer first).
  assert.deepEqual(
    task.tokens.slice(0, 3).map((token) => token.text),
    ["fix", "src/payments/webhook.ts", "src"],
  );
});

test("dotfiles, relative prefixes, trailing slashes and Windows separators stay in the name", () => {
  const names = (raw: string): string[] => compoundsOf(parseTask(raw)).map((token) => token.text);
  assert.deepEqual(names("edit .env and .github/workflows/ci.yml"), [".env", ".github/workflows/ci.yml"]);
  assert.deepEqual(names("open ./src/a.ts or ../lib/b.ts or ~/x/y"), ["./src/a.ts", "../lib/b.ts", "~/x/y"]);
  assert.deepEqual(names("look in payments/ today"), ["payments/"]);
  assert.deepEqual(names("open src\\win\\file.cs"), ["src\\win\\file.cs"]);
  assert.deepEqual(names("the end. Next"), []);
  assert.deepEqual(names("a--b a..b"), []);
});

test("URLs are one opaque token without trailing punctuation", () => {
  const task = parseTask("see https://example.com/a/b.ts?x=1, then fix it.");
  assert.deepEqual(
    task.tokens.map((token) => token.text),
    ["see", "https://example.com/a/b.ts?x=1", "then", "fix", "it"],
  );
  assert.equal(task.tokens[1]?.pathLike, false);
});

test("Korean: Hangul runs are words, and particles split off Latin names", () => {
  assert.deepEqual(texts("결제 모듈은 건드리지 마"), ["결제", "모듈은", "건드리지", "마"]);
  assert.deepEqual(texts("webhook.ts를 수정해줘"), ["webhook.ts", "webhook", "ts", "를", "수정해줘"]);
  assert.deepEqual(texts("README를 API가"), ["README", "를", "API", "가"]);
  assert.deepEqual(texts("修复webhook处理"), ["修复", "webhook", "处理"]);
});

test("every token's span indexes the text it claims (examples)", () => {
  const task = parseTask("🙂 fix `src/ä.ts` — 결제 모듈 don’t e\u0301");
  for (const token of task.tokens) assert.equal(task.text.slice(token.start, token.end), token.text);
  TaskStage.parse(task);
});

test("property: parseTask throws only DocketError(taskInvalid), and spans index the text they claim", () => {
  const alphabet = fc.constantFrom(
    ..."abcXYZ019 _-./\\'\u2019:@#+&\n\t\r\u0000\u0007\u007F\u0085é\u0301결제모듈를漢字😀\uD800\uDC00\u200B".split(""),
    "don't",
    "src/a.ts",
    "https://x.io/p",
    "..",
    "./",
    "~/",
  );
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 80 }), fc.array(alphabet, { maxLength: 60 }).map((parts) => parts.join(""))), (raw) => {
      let task: TaskStage;
      try {
        task = parseTask(raw);
      } catch (error) {
        assert.ok(error instanceof DocketError, `threw ${String(error)}`);
        assert.equal(error.code, ErrorCodes.taskInvalid);
        return;
      }
      TaskStage.parse(task);
      assert.equal(task.text, task.text.normalize("NFC"));
      let previous = -1;
      for (const token of task.tokens) {
        assert.ok(token.start < token.end && token.end <= task.text.length);
        assert.equal(task.text.slice(token.start, token.end), token.text);
        assert.ok(token.start >= previous);
        previous = token.start;
      }
    }),
    { numRuns: 500 },
  );
});

test("property: the tokens are a pure function of the text", () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 60, unit: "grapheme" }), (raw) => {
      let first: TaskStage;
      try {
        first = parseTask(raw);
      } catch {
        return;
      }
      assert.deepEqual(parseTask(raw), first);
    }),
    { numRuns: 200 },
  );
});
