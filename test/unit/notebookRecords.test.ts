// Phase A of observer-record/v1 (observer.md §5.4–§5.5, fixtures of §7.1): every valid record
// decodes, every invalid one yields exactly its expected diagnostics, and no byte string throws.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { repoRoot } from "../support/repoRoot";
import { frontmatterSource, parseRecordMarkdown, type ParseRecordResult } from "../../server/notebook/markdownProfile";
import { MAX_NOTEBOOK_DIAGNOSTICS, notebookDiagnostic, sortDiagnostics, type NotebookDiagnostic } from "../../server/notebook/diagnostics";
import { isBcp47 } from "../../server/notebook/recordSchema";

const recordsDir = path.join(repoRoot(), "test", "fixtures", "notebook", "records");
const U = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

function parseFixture(kind: "valid" | "invalid", name: string): ParseRecordResult {
  return parseRecordMarkdown(`records/${name}`, fs.readFileSync(path.join(recordsDir, kind, name)));
}

function parseText(text: string): ParseRecordResult {
  return parseRecordMarkdown("records/x.md", new TextEncoder().encode(text));
}

function diagnosticsOf(result: ParseRecordResult): NotebookDiagnostic[] {
  if (result.ok) assert.fail(`expected diagnostics, got a record ${result.record.recordId}`);
  return result.diagnostics;
}

/** [phase, code, pointer, recordId] per diagnostic, in reported order. */
function shapes(result: ParseRecordResult): (string | null)[][] {
  return diagnosticsOf(result).map((d) => [d.phase, d.code, d.pointer ?? null, d.recordId ?? null]);
}

function codes(result: ParseRecordResult): string[] {
  return [...new Set(diagnosticsOf(result).map((d) => d.code))].sort();
}

const memoFields = [
  "observer_schema: observer-record/v1",
  "observer_type: memo",
  "observer_status: incubating",
  `id: memo-${U(1)}`,
  "title: A note",
  "lang: en",
  "created: 2026-01-01T00:00:00Z",
  "modified: 2026-01-01T00:00:00Z",
  "tags: []",
  "aliases: []",
  `sources: [{record: source-${U(2)}, role: supports}]`,
  "lineage: []",
  "relations: []",
];

function memo(extra: readonly string[] = [], body = "# A note\n\nBody text.\n", eol = "\n"): string {
  return ["---", ...memoFields, ...extra, "---", ...body.split("\n")].join(eol);
}

const validCases: { name: string; type: string }[] = [
  { name: "external-source.md", type: "source" },
  { name: "direct-observation-source.md", type: "source" },
  { name: "inquiry.md", type: "inquiry" },
  { name: "memo.md", type: "memo" },
  { name: "zettel.md", type: "zettel" },
];

for (const { name, type } of validCases) {
  test(`valid record fixture ${name} decodes as a ${type}`, () => {
    const result = parseFixture("valid", name);
    if (!result.ok) assert.fail(JSON.stringify(result.diagnostics));
    assert.equal(result.record.type, type);
    assert.equal(result.record.path, `records/${name}`);
    assert.ok(result.record.h1.length > 0 && result.record.body.length > 0);
    assert.equal(result.record.recordId, result.record.frontmatter.id);
    assert.equal(result.record.sha256, createHash("sha256").update(fs.readFileSync(path.join(recordsDir, "valid", name))).digest("hex"));
  });
}

test("the memo fixture keeps custom frontmatter and ignores a heading inside a code fence", () => {
  const result = parseFixture("valid", "memo.md");
  if (!result.ok) assert.fail(JSON.stringify(result.diagnostics));
  assert.equal(result.record.frontmatter.editor_note, "Keep this: written by hand, not by Docket");
  assert.match(result.record.body, /# this line is inside a code fence/);
  assert.equal(result.record.h1, "Cache keys may include the checkout path");
  assert.ok(Object.isFrozen(result.record.frontmatter) && Object.isFrozen(result.record.record.sources[0]));
});

// Exact diagnostics per invalid fixture, as the reference reports them for the same files.
const memoId = `memo-${U(201)}`;
const invalidCases: { name: string; code: string; shapes: (string | null)[][] }[] = [
  { name: "missing-frontmatter.md", code: "markdown.frontmatter.missing", shapes: [["markdown", "markdown.frontmatter.missing", null, null]] },
  { name: "invalid-yaml.md", code: "markdown.frontmatter.invalid", shapes: [["markdown", "markdown.frontmatter.invalid", null, null]] },
  { name: "missing-h1.md", code: "markdown.h1.missing", shapes: [["markdown", "markdown.h1.missing", null, null]] },
  { name: "multiple-h1.md", code: "markdown.h1.multiple", shapes: [["markdown", "markdown.h1.multiple", null, null]] },
  { name: "empty-body.md", code: "markdown.body.empty", shapes: [["markdown", "markdown.body.empty", null, null]] },
  { name: "unsupported-version.md", code: "schema.unsupported-version", shapes: [["schema", "schema.unsupported-version", "/observer_schema", memoId]] },
  {
    name: "status-mismatch.md",
    code: "schema.invalid",
    shapes: [
      ["schema", "schema.invalid", null, memoId],
      ["schema", "schema.invalid", "/observer_status", memoId],
    ],
  },
  { name: "direct-observation-missing-condition.md", code: "schema.invalid", shapes: [["schema", "schema.invalid", "/observation", `source-${U(202)}`]] },
  { name: "invalid-lang.md", code: "schema.invalid", shapes: [["schema", "schema.invalid", "/lang", memoId]] },
  {
    name: "unknown-observer-field.md",
    code: "schema.invalid",
    shapes: [
      ["schema", "schema.invalid", null, memoId],
      ["schema", "schema.invalid", null, memoId],
      ["schema", "schema.invalid", null, memoId],
      ["schema", "schema.invalid", "/observer_typo", memoId],
    ],
  },
  { name: "id-prefix-mismatch.md", code: "record.id-prefix", shapes: [["record", "record.id-prefix", "/id", `memo-${U(203)}`]] },
  { name: "timestamp-order.md", code: "record.timestamp-order", shapes: [["record", "record.timestamp-order", "/modified", memoId]] },
  {
    name: "inquiry-missing-revision-reason.md",
    code: "record.inquiry-revision-reason",
    shapes: [["record", "record.inquiry-revision-reason", "/inquiry/revision_reason", `inquiry-${U(204)}`]],
  },
];

for (const expected of invalidCases) {
  test(`invalid record fixture ${expected.name} reports exactly ${expected.code}`, () => {
    const result = parseFixture("invalid", expected.name);
    assert.deepEqual(codes(result), [expected.code]);
    assert.deepEqual(shapes(result), expected.shapes);
    for (const d of diagnosticsOf(result)) assert.equal(d.path, `records/${expected.name}`);
  });
}

test("every fixture file of §7.1 is covered by a case", () => {
  assert.deepEqual(fs.readdirSync(path.join(recordsDir, "valid")).sort(), validCases.map((c) => c.name).sort());
  assert.deepEqual(fs.readdirSync(path.join(recordsDir, "invalid")).sort(), invalidCases.map((c) => c.name).sort());
});

test("CRLF and lone CR line endings decode like LF", () => {
  const lf = parseText(memo());
  if (!lf.ok) assert.fail(JSON.stringify(lf.diagnostics));
  for (const eol of ["\r\n", "\r"]) {
    const other = parseText(memo([], "# A note\n\nBody text.\n", eol));
    if (!other.ok) assert.fail(JSON.stringify(other.diagnostics));
    assert.deepEqual([other.record.h1, other.record.body, other.record.frontmatter], [lf.record.h1, lf.record.body, lf.record.frontmatter]);
    assert.notEqual(other.record.sha256, lf.record.sha256);
  }
});

test("bytes that are not UTF-8 get markdown.encoding.invalid; a BOM is text, so the delimiter is missing", () => {
  const text = new TextEncoder().encode(memo());
  const broken = new Uint8Array([...text.slice(0, 20), 0xff, 0xfe, ...text.slice(20)]);
  assert.deepEqual(shapes(parseRecordMarkdown("records/x.md", broken)), [["markdown", "markdown.encoding.invalid", null, null]]);
  const overlong = new Uint8Array([...text, 0xc0, 0xaf]);
  assert.deepEqual(codes(parseRecordMarkdown("records/x.md", overlong)), ["markdown.encoding.invalid"]);
  assert.deepEqual(codes(parseText(`\uFEFF${memo()}`)), ["markdown.frontmatter.missing"]);
});

test("frontmatter delimiters must be exact lines", () => {
  assert.deepEqual(codes(parseText(memo().replace(/^---/, "--- "))), ["markdown.frontmatter.missing"]);
  assert.deepEqual(codes(parseText(memo().replace(/\n---\n/, "\n--- \n"))), ["markdown.frontmatter.missing"]);
  assert.deepEqual(codes(parseText("")), ["markdown.frontmatter.missing"]);
});

test("YAML: duplicate keys, aliases, non-mappings are invalid; << is an ordinary key; timestamps stay strings", () => {
  assert.deepEqual(codes(parseText(memo(["title: Again"]))), ["markdown.frontmatter.invalid"]);
  assert.deepEqual(codes(parseText(memo(["anchor: &a {x: 1}", "copy: *a"]))), ["markdown.frontmatter.invalid"]);
  for (const frontmatter of ["- a\n- b", "just a string", "", "~"]) {
    assert.deepEqual(codes(parseText(`---\n${frontmatter}\n---\n# T\n\nBody\n`)), ["markdown.frontmatter.invalid"], frontmatter);
  }
  const merged = parseText(memo(["<<: {custom: 1}"]));
  if (!merged.ok) assert.fail(JSON.stringify(merged.diagnostics));
  assert.deepEqual(merged.record.frontmatter["<<"], { custom: 1 });
  assert.equal(merged.record.frontmatter.custom, undefined);
  assert.equal(typeof merged.record.frontmatter.created, "string");
});

test("the H1 must come first, unindented and non-empty; a second H1 counts only outside fences", () => {
  assert.deepEqual(codes(parseText(memo([], " # A note\n\nBody"))), ["markdown.h1.missing"]);
  assert.deepEqual(codes(parseText(memo([], "#   \n\nBody"))), ["markdown.h1.missing"]);
  assert.deepEqual(codes(parseText(memo([], "## A note\n\nBody"))), ["markdown.h1.missing"]);
  assert.deepEqual(codes(parseText(memo([], "\n\n"))), ["markdown.h1.missing"]);
  const ok = (body: string): void => {
    const result = parseText(memo([], body));
    if (!result.ok) assert.fail(`${body}: ${JSON.stringify(result.diagnostics)}`);
  };
  ok("\n\n#\tTabbed title  \n\nBody\n#hashtag line\n ## sub\n # indented");
  ok("# T\n\n~~~~\n# inside\n~~~\n# still inside\n~~~~~\nafter");
  ok("# T\n\n   ```js\n# inside\n```");
  assert.deepEqual(codes(parseText(memo([], "# T\n\n```\n# inside\n```\n# outside"))), ["markdown.h1.multiple"]);
  assert.deepEqual(codes(parseText(memo([], "# T\n\n~~~\n# inside\n```\n~~~\n# outside"))), ["markdown.h1.multiple"]);
  assert.deepEqual(codes(parseText(memo([], "# T\n\n    ```\n# not fenced: four spaces"))), ["markdown.h1.multiple"]);
  assert.deepEqual(codes(parseText(memo([], "# T\n   \n\t\n"))), ["markdown.body.empty"]);
  const titled = parseText(memo([], "#   Spaced title \t\n\n  Body  \n"));
  if (!titled.ok) assert.fail(JSON.stringify(titled.diagnostics));
  assert.deepEqual([titled.record.h1, titled.record.body], ["Spaced title", "Body"]);
});

test("Phase A stops at the first failing step", () => {
  // Bad YAML and no H1: only the YAML is reported.
  assert.deepEqual(codes(parseText("---\nkey: [\n---\nno heading\n")), ["markdown.frontmatter.invalid"]);
  // Unsupported version and schema errors: only the version.
  assert.deepEqual(shapes(parseText("---\nobserver_schema: null\nid: 3\n---\n# T\n\nBody")), [["schema", "schema.unsupported-version", "/observer_schema", null]]);
  // Schema errors and record-rule errors: only the schema.
  assert.deepEqual(codes(parseText(memo(["observer_extra: 1"]).replace("modified: 2026-01-01", "modified: 2025-01-01"))), ["schema.invalid"]);
});

test("schema pointers: instance path, propertyNames names the key, additionalProperties points at its object", () => {
  const result = parseText(
    memo([
      "external: {uri: 'https://x.test'}",
      "inquiry: {origin: user, original: a, current: a, note: x}",
    ]).replace(`role: supports}`, "role: supports, extra: 1}"),
  );
  const pointers = diagnosticsOf(result).map((d) => d.pointer ?? null);
  assert.ok(pointers.includes("/sources/0"), JSON.stringify(pointers));
  assert.ok(pointers.includes("/inquiry"));
  assert.ok(!pointers.some((p) => p !== null && p.endsWith("/extra")));
  assert.deepEqual(pointers, [...pointers].sort((a, b) => ((a ?? "") < (b ?? "") ? -1 : (a ?? "") > (b ?? "") ? 1 : 0)));
  for (const d of diagnosticsOf(result)) assert.equal(d.recordId, `memo-${U(1)}`);
});

test("bcp47 accepts canonicalisable tags only", () => {
  for (const tag of ["en", "ko", "ko-KR", "zh-Hant-TW", "EN-us"]) assert.equal(isBcp47(tag), true, tag);
  for (const tag of ["not_a_tag", "", "en_US", "toolongsubtag"]) assert.equal(isBcp47(tag), false, tag);
});

test("record rules: every failing rule is reported at once", () => {
  const inquiry = [
    "---",
    "observer_schema: observer-record/v1",
    "observer_type: inquiry",
    "observer_status: open",
    `id: memo-${U(7)}`,
    "title: Q",
    "lang: en",
    "created: 2026-01-02T00:00:00+09:00",
    "modified: 2026-01-01T14:59:59Z",
    "tags: []",
    "aliases: []",
    "sources: []",
    "lineage: []",
    "relations: []",
    "inquiry: {origin: user, original: a, current: b}",
    "---",
    "# Q",
    "",
    "Body",
  ].join("\n");
  assert.deepEqual(shapes(parseText(inquiry)), [
    ["record", "record.id-prefix", "/id", `memo-${U(7)}`],
    ["record", "record.inquiry-revision-reason", "/inquiry/revision_reason", `memo-${U(7)}`],
    ["record", "record.timestamp-order", "/modified", `memo-${U(7)}`],
  ]);
  // Same instant with different offsets is in order.
  assert.equal(parseText(inquiry.replace("14:59:59Z", "15:00:00Z").replace(`memo-${U(7)}`, `inquiry-${U(7)}`).replace("current: b", "current: a")).ok, true);
});

test("Phase A answers are remembered per path and content: the same bytes give the same frozen answer, other bytes or paths their own", () => {
  const bytes = fs.readFileSync(path.join(recordsDir, "valid", "memo.md"));
  const first = parseRecordMarkdown("records/memo.md", bytes);
  assert.ok(first.ok);
  assert.equal(parseRecordMarkdown("records/memo.md", Buffer.from(bytes)), first, "equal bytes, equal path: the remembered answer");
  const elsewhere = parseRecordMarkdown("records/other.md", bytes);
  assert.ok(elsewhere.ok);
  assert.equal(elsewhere.record.path, "records/other.md");
  assert.ok(Object.isFrozen(first.record) && Object.isFrozen(first.record.frontmatter));
  const broken = parseRecordMarkdown("records/memo.md", Buffer.from(bytes.toString("utf8").replace(/^---\n/u, "")));
  assert.equal(broken.ok, false, "changed bytes are parsed again");
});

test("frontmatterSource returns the exact frontmatter characters", () => {
  const crlf = "---\r\nb: 1 # keep\r\n\r\na:   'x'\r\n---\r\n# T\r\n";
  assert.equal(frontmatterSource(crlf), "b: 1 # keep\r\n\r\na:   'x'\r\n");
  assert.equal(frontmatterSource("---\n---\n# T"), "");
  assert.equal(frontmatterSource("---\rk: v\r---"), "k: v\r");
  assert.equal(frontmatterSource("# no frontmatter"), undefined);
  assert.equal(frontmatterSource("---\nk: v\n"), undefined);
  const fixture = fs.readFileSync(path.join(recordsDir, "valid", "memo.md"), "utf8");
  const source = frontmatterSource(fixture);
  assert.ok(source !== undefined && fixture.startsWith(`---\n${source}---\n`));
});

test("diagnostics sort by path, phase, pointer, code, related id, and stop at 100", () => {
  const make = (path: string, phase: NotebookDiagnostic["phase"], pointer?: string, code = "c", relatedId?: string): NotebookDiagnostic =>
    notebookDiagnostic({ phase, code, path, pointer, relatedId, message: "m" });
  const ordered = [
    make("a.md", "markdown"),
    make("a.md", "schema"),
    make("a.md", "schema", "/a"),
    make("a.md", "schema", "/a", "d"),
    make("a.md", "graph", "/a", "d", "x"),
    make("a.md", "graph", "/a", "d", "y"),
    make("b.md", "markdown"),
  ];
  assert.deepEqual(sortDiagnostics([...ordered].reverse()), ordered);
  const many = Array.from({ length: 150 }, (_, index) => make(`f${String(index).padStart(3, "0")}.md`, "graph"));
  const sorted = sortDiagnostics([...many].reverse());
  assert.equal(sorted.length, MAX_NOTEBOOK_DIAGNOSTICS);
  assert.deepEqual(sorted, many.slice(0, 100));
  assert.deepEqual(Object.keys(notebookDiagnostic({ phase: "graph", code: "c", path: "p", message: "m", relatedId: "r", pointer: "/x", recordId: "i" })), [
    "phase",
    "code",
    "path",
    "pointer",
    "recordId",
    "relatedId",
    "message",
  ]);
});

test("arbitrary bytes never throw and always give a record or coded diagnostics", () => {
  const check = (bytes: Uint8Array): void => {
    const result = parseRecordMarkdown("records/fuzz.md", bytes);
    if (result.ok) return;
    assert.ok(result.diagnostics.length > 0 && result.diagnostics.length <= MAX_NOTEBOOK_DIAGNOSTICS);
    for (const d of result.diagnostics) assert.match(d.code, /^(markdown|schema|record)\./);
  };
  fc.assert(fc.property(fc.uint8Array({ maxLength: 2048 }), check), { numRuns: 500 });
  // Byte noise rarely gets past the delimiter; also fuzz inside a real record.
  const base = new TextEncoder().encode(memo(["editor_note: x"]));
  fc.assert(
    fc.property(fc.nat({ max: base.length }), fc.uint8Array({ maxLength: 64 }), (at, noise) => check(new Uint8Array([...base.slice(0, at), ...noise, ...base.slice(at)]))),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 400 }), (text) => check(new TextEncoder().encode(`---\n${text}\n---\n# T\n\nBody`))),
    { numRuns: 300 },
  );
});
