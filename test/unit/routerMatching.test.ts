// Matching rules (router.md): whole tokens, never substrings; short names case-exactly; phrases as
// token sequences; written file names grounded to the project's spelling, ambiguity never guessed.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { findPhrase, groundPath, pathIndex } from "../../server/router/matching";
import type { WorkspaceSnapshot } from "../../server/router/planSchema";
import { parseTask } from "../../server/router/task";

function hits(task: string, phrase: string, anyCase = false): string[] {
  return findPhrase(parseTask(task), phrase, { anyCase }).map((span) => span.text);
}

function snapshot(files: string[], directories: string[]): WorkspaceSnapshot {
  return {
    format: "docket/router-snapshot/v1",
    source: "git",
    files: [...files].sort(),
    directories: [...directories].sort(),
    modules: [],
    technologies: [],
    ruleFiles: [],
    hotPaths: [],
    imports: [],
    limits: [],
    skipped: [],
    snapshotSha256: "0".repeat(64),
  };
}

test("whole tokens, never substrings: web is not webhook", () => {
  assert.deepEqual(hits("fix the webhook handler", "web"), []);
  assert.deepEqual(hits("the web server and web-hook", "web"), ["web", "web"]);
  assert.deepEqual(hits("payments webhook", "hook"), []);
});

test("names of three characters or fewer match case-exactly: Go, R, C", () => {
  assert.deepEqual(hits("Go is going to Django; go now", "Go"), ["Go"]);
  assert.deepEqual(hits("Refactor the reader, are we ready? r u sure", "R"), []);
  assert.deepEqual(hits("Port the model to R today", "R"), ["R"]);
  assert.deepEqual(hits("R&D asked for it", "R"), []);
  assert.deepEqual(hits("C++ and C# are not C, CSS is not C", "C"), ["C", "C"]);
  assert.deepEqual(hits("move from C++ to C#", "C++"), ["C++"]);
  assert.deepEqual(hits("move from C++ to C#", "C#"), ["C#"]);
});

test("longer names ignore case; lexicon phrases ignore case at any length", () => {
  assert.deepEqual(hits("Port it to TYPESCRIPT or typescript", "TypeScript"), ["TYPESCRIPT", "typescript"]);
  assert.deepEqual(hits("Java is not JavaScript", "Java"), ["Java"]);
  assert.deepEqual(hits("Fix the API", "api"), []);
  assert.deepEqual(hits("Fix the API", "api", true), ["API"]);
});

test("multi-word, dotted and slashed phrases match as token sequences", () => {
  assert.deepEqual(hits("review the billing  module\nand the billing-module", "billing module"), ["billing  module", "billing-module"]);
  assert.deepEqual(hits("billing, module", "billing module"), []);
  assert.deepEqual(hits("open webhook.ts and webhook ts", "webhook.ts"), ["webhook.ts"]);
  assert.deepEqual(hits("open src/payments/webhook.ts", "payments/webhook.ts"), ["payments/webhook.ts"]);
  assert.deepEqual(hits("open src/payments/webhook.ts", "payments.webhook"), []);
  assert.deepEqual(hits("upgrade Node.js now", "node.js"), ["Node.js"]);
  assert.deepEqual(hits("use @acme/ui and acme/ui", "@acme/ui"), ["@acme/ui"]);
});

test("apostrophes and possessives", () => {
  assert.deepEqual(hits("Don\u2019t guess", "don't guess", true), ["Don\u2019t guess"]);
  assert.deepEqual(hits("Go's runtime", "Go"), ["Go"]);
  assert.deepEqual(hits("the webhook's handler", "webhook"), ["webhook"]);
});

test("Korean stems match words with particles or endings attached", () => {
  assert.deepEqual(hits("결제 모듈은 건드리지 마세요", "결제 모듈"), ["결제 모듈"]);
  assert.deepEqual(hits("버그를 수정해줘", "수정"), ["수정"]);
  assert.deepEqual(hits("버그를 수정해줘", "버그"), ["버그"]);
  assert.deepEqual(hits("건드리지 마세요", "건드리지 마"), ["건드리지 마"]);
  // A one-syllable word on its own matches only as a whole word.
  assert.deepEqual(hits("왜요 왜", "왜"), ["왜"]);
});

test("every span is returned, sorted by start, and indexes the text", () => {
  const task = parseTask("web, then web again: web");
  const spans = findPhrase(task, "web");
  assert.deepEqual(
    spans.map((span) => span.start),
    [0, 10, 21],
  );
  for (const span of spans) assert.equal(task.text.slice(span.start, span.end), span.text);
  assert.deepEqual(findPhrase(task, ""), []);
  assert.deepEqual(findPhrase(task, " ... "), []);
});

test("property: findPhrase spans are whole tokens that index the text", () => {
  const words = ["web", "webhook", "Go", "go", "R", "r", "a.ts", "src/a.ts", "don't", "결제", "모듈을", "-", " ", ", ", "."];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 30 }), fc.constantFrom(...words), (parts, phrase) => {
      let task;
      try {
        task = parseTask(parts.join(" "));
      } catch {
        return;
      }
      for (const span of findPhrase(task, phrase)) {
        assert.equal(task.text.slice(span.start, span.end), span.text);
        const before = task.text[span.start - 1];
        const after = task.text[span.end];
        assert.ok(before === undefined || !/[\p{L}\p{N}_]/u.test(before) || /\p{Script=Hangul}/u.test(span.text));
        assert.ok(after === undefined || !/[\p{L}\p{N}_]/u.test(after) || /\p{Script=Hangul}/u.test(span.text));
      }
    }),
    { numRuns: 300 },
  );
});

test("grounding: exact path, unique suffix, case fallback, ambiguity, nothing", () => {
  const index = pathIndex(
    snapshot(["README.md", "src/payments/webhook.ts", "src/a/index.ts", "src/b/index.ts", "src/index.ts"], ["src", "src/a", "src/b", "src/payments"]),
  );
  assert.deepEqual(groundPath("webhook.ts", index), { outcome: "found", kind: "file", path: "src/payments/webhook.ts", how: "a file" });
  assert.deepEqual(groundPath("./payments/webhook.ts", index), { outcome: "found", kind: "file", path: "src/payments/webhook.ts", how: "a file" });
  assert.deepEqual(groundPath("src\\payments\\webhook.ts", index), { outcome: "found", kind: "file", path: "src/payments/webhook.ts", how: "a file" });
  assert.deepEqual(groundPath("readme.md", index), { outcome: "found", kind: "file", path: "README.md", how: "a file ignoring case" });
  assert.deepEqual(groundPath("index.ts", index), { outcome: "ambiguous", kind: "file", candidates: ["src/a/index.ts", "src/b/index.ts", "src/index.ts"] });
  // The exact relative path wins over paths that merely end with it.
  assert.deepEqual(groundPath("src/index.ts", index), { outcome: "found", kind: "file", path: "src/index.ts", how: "a file" });
  assert.deepEqual(groundPath("payments/", index), { outcome: "found", kind: "directory", path: "src/payments", how: "a folder" });
  assert.deepEqual(groundPath("payments.ts", index), { outcome: "none", sameName: [] });
  assert.deepEqual(groundPath("lib/webhook.ts", index), { outcome: "none", sameName: ["src/payments/webhook.ts"] });
  // A basename is not a suffix of a longer basename.
  assert.deepEqual(groundPath("hook.ts", index), { outcome: "none", sameName: [] });
});

test("grounding answers alike whether names are scanned for or looked up in tables, whatever the case and script", () => {
  // Letters whose lower case is not one ASCII letter (İ → i + dot, Σ → σ or ς by position, K the
  // Kelvin sign → k, ß) next to plain ones: the scan compares ASCII tails without lower-casing.
  const letter = fc.constantFrom("a", "A", "i", "I", "İ", "k", "K", "K", "s", "S", "Σ", "σ", "ς", "ß", ".", "-", "1");
  const name = fc.array(letter, { minLength: 1, maxLength: 4 }).map((letters) => letters.join(""));
  const relative = fc.array(name, { minLength: 1, maxLength: 3 }).map((segments) => segments.join("/"));
  fc.assert(
    fc.property(fc.uniqueArray(relative, { maxLength: 25 }), fc.array(relative, { minLength: 1, maxLength: 6 }), (files, written) => {
      const folders = new Set<string>();
      for (const file of files) for (let slash = file.indexOf("/"); slash !== -1; slash = file.indexOf("/", slash + 1)) folders.add(file.slice(0, slash));
      const filesOnly = files.filter((file) => !folders.has(file));
      const scanned = pathIndex(snapshot(filesOnly, [...folders]));
      // A second index over equal lists, pushed past its scans so it answers from its tables.
      const tabled = pathIndex(snapshot(filesOnly, [...folders]));
      for (let count = 0; count < 40; count += 1) {
        tabled.filesNamed(`warm-up-${count}`);
        tabled.hasFile(`warm-up-${count}`);
      }
      // Names written as they are, upper-cased and lower-cased, so most of them meet a file.
      const names = [...written, ...files.flatMap((file) => [file, file.toUpperCase(), file.slice(file.lastIndexOf("/") + 1).toLowerCase()])];
      for (const text of names) assert.deepEqual(groundPath(text, scanned), groundPath(text, tabled), text);
    }),
    { numRuns: 300 },
  );
});
