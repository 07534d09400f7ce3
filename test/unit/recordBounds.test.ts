// Frontmatter in linear time, and Docket's bounds on a record (issue 12, finding 6): the duplicate
// check gives exactly yaml's own verdict and first error, a frontmatter 8 times larger takes about 8
// times longer (not 64), and a record past a bound is refused with its own code before it is parsed.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseDocument } from "yaml";
import {
  MAX_FRONTMATTER_BYTES,
  MAX_FRONTMATTER_DEPTH,
  MAX_FRONTMATTER_KEYS,
  MAX_RECORD_BYTES,
  parseRecordMarkdown,
  type ParseRecordResult,
} from "../../server/notebook/markdownProfile";
import { MAX_YAML_DEPTH, MAX_YAML_KEYS, parseYaml } from "../../server/router/frontmatter";
import { lineOfOffset, parseStrictYaml, type StrictYamlOptions } from "../../server/yaml/strictDocument";

const RECORD_OPTIONS: StrictYamlOptions = { schema: "core", merge: false, prettyErrors: false, logLevel: "error" };
const SKILL_OPTIONS: StrictYamlOptions = { version: "1.2", schema: "core", strict: true, merge: false, prettyErrors: false, logLevel: "silent" };
const UNBOUNDED = { maxKeys: Number.MAX_SAFE_INTEGER, maxDepth: 10_000 };
const U = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

function firstError(text: string, options: StrictYamlOptions): string {
  const error = parseDocument(text, { ...options, uniqueKeys: true }).errors[0];
  return error === undefined ? "none" : `${error.code} ${error.message} ${error.pos.join(",")}`;
}

function strictFirstError(text: string, options: StrictYamlOptions): string {
  const parsed = parseStrictYaml(text, options, UNBOUNDED);
  assert.ok(parsed.ok);
  const error = parsed.document.errors[0];
  return error === undefined ? "none" : `${error.code} ${error.message} ${error.pos.join(",")}`;
}

const TRICKY = [
  "a: 1\na: 2",
  "a: 1\nb:\n  c: 1\n  c: 2\na: 3",
  "{a: 1, b: 2, a: 3}",
  "[a: 1, a: 2]",
  "1: x\n0x1: y",
  "1: x\n1.0: y",
  "true: x\nTrue: y",
  "~: x\nnull: y",
  ": x\n: y",
  ".nan: x\n.nan: y",
  "'a': x\n\"a\": y",
  "!!str 1: x\n'1': y",
  "? [a]\n: 1\n? [a]\n: 2",
  "  : \n  null: a",
  "a: 1\na: 2\nb: [",
  "b: [\na: 1\na: 2",
  "a: 1\n  bad indent: 2\na: 3",
  "&x a: 1\n*x : 2",
  "a: 1\n---\na: 2\na: 3",
];

test("duplicate keys: the same first error (code, message, position) as yaml's own check, for records and skills", () => {
  for (const text of TRICKY) {
    assert.equal(strictFirstError(text, RECORD_OPTIONS), firstError(text, RECORD_OPTIONS), text);
    assert.equal(strictFirstError(text, SKILL_OPTIONS), firstError(text, SKILL_OPTIONS), text);
  }
});

/** The decoded value, or the sentence toJS throws (an alias to an unknown anchor, for one). */
function valueOf(document: ReturnType<typeof parseDocument>): unknown {
  try {
    return document.toJS({ maxAliasCount: -1 });
  } catch (error) {
    return `throws ${error instanceof Error ? error.message : String(error)}`;
  }
}

test("duplicate keys: generated documents agree with yaml's own check on the first error and the value", () => {
  const piece = fc.constantFrom("a", "b", "1", "0x1", "~", "", ".nan", "'a'", "[a]", "{a: 1}", "&x a", "*x", "? a", ": ", "- ", "[", "]", "{", "}", ",", "\n", "\n  ", "#c", "'", '"');
  const line = fc.tuple(fc.constantFrom("", "  ", "- "), fc.constantFrom("a", "b", "a", "1", "0x1", "true", "True", "null", "~", "'a'"), fc.constantFrom(": ", ":", ": {"), piece);
  const text = fc.oneof(
    fc.array(piece, { maxLength: 30 }).map((parts) => parts.join("")),
    fc.array(line, { maxLength: 10 }).map((lines) => lines.map((parts) => parts.join("")).join("\n")),
  );
  fc.assert(
    fc.property(text, (source) => {
      assert.equal(strictFirstError(source, RECORD_OPTIONS), firstError(source, RECORD_OPTIONS));
      const reference = parseDocument(source, { ...RECORD_OPTIONS, uniqueKeys: true });
      const strict = parseStrictYaml(source, RECORD_OPTIONS, UNBOUNDED);
      assert.ok(strict.ok);
      if (reference.errors.length === 0) assert.deepEqual(valueOf(strict.document), valueOf(reference));
    }),
    { seed: 12, numRuns: 2_000 },
  );
});

function manyKeys(count: number): string {
  return Array.from({ length: count }, (_, index) => `custom_key_${index}: value ${index}`).join("\n");
}

/** CPU time (user + system) of one call, in ms: wall time on a shared machine counts other processes' turns. */
function cpuMs(run: () => void): number {
  const started = process.cpuUsage();
  run();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1_000;
}

/** The median ratio of `large` to `small` over interleaved rounds, after one warm-up of each. */
function medianRatio(large: () => void, small: () => void): number {
  large();
  small();
  const ratios: number[] = [];
  for (let round = 0; round < 5; round += 1) ratios.push(cpuMs(large) / Math.max(cpuMs(small), 0.001));
  return ratios.sort((left, right) => left - right)[2] as number;
}

test("duplicate keys are found in linear time: 8 times the keys take well under 24 times as long (yaml's own check: about 50)", () => {
  const small = manyKeys(2_000);
  const large = manyKeys(16_000);
  const ratio = medianRatio(
    () => parseStrictYaml(large, RECORD_OPTIONS, UNBOUNDED),
    () => parseStrictYaml(small, RECORD_OPTIONS, UNBOUNDED),
  );
  assert.ok(ratio < 24, `16,000 keys took ${ratio.toFixed(1)} times as long as 2,000`);
  // A repeated key at the very end is still found (and then yaml's own check reports it, so this
  // one stays small).
  const repeated = parseStrictYaml(`${small}\ncustom_key_0: again`, RECORD_OPTIONS, UNBOUNDED);
  assert.ok(repeated.ok);
  assert.equal(repeated.document.errors[0]?.code, "DUPLICATE_KEY");
});

test("keys and nesting are bounded before yaml composes anything, at any depth", () => {
  assert.deepEqual(parseStrictYaml(manyKeys(11), RECORD_OPTIONS, { maxKeys: 10, maxDepth: 64 }), { ok: false, limit: "keys", keys: 11 });
  // Five collections: the top mapping, a's, b's, the list and the mapping in it.
  assert.equal(parseStrictYaml("a:\n  b:\n    c: [{d: 1}]", RECORD_OPTIONS, { maxKeys: 10, maxDepth: 5 }).ok, true);
  assert.deepEqual(parseStrictYaml("a:\n  b:\n    c: [{d: [1]}]", RECORD_OPTIONS, { maxKeys: 10, maxDepth: 5 }), { ok: false, limit: "depth", depth: 6 });
  // yaml's composer recurses per level; 100,000 levels are refused from the token stream alone.
  const deep = `a: ${"[".repeat(100_000)}${"]".repeat(100_000)}`;
  assert.deepEqual(parseStrictYaml(deep, RECORD_OPTIONS, { maxKeys: 10, maxDepth: 64 }), { ok: false, limit: "depth", depth: 65 });
  const blockDeep = Array.from({ length: 200 }, (_, level) => `${"  ".repeat(level)}k${level}:`).join("\n");
  assert.equal(parseStrictYaml(blockDeep, RECORD_OPTIONS, { maxKeys: 1_000, maxDepth: 64 }).ok, false);
});

test("lineOfOffset counts lines as yaml's LineCounter does", () => {
  const text = "a: 1\r\nb: 2\n\nc: [";
  for (const offset of [0, 3, 4, 5, 6, 10, 11, 12, text.length]) {
    const line = 1 + [...text.slice(0, offset)].filter((character) => character === "\n").length;
    assert.equal(lineOfOffset(text, offset), line, String(offset));
  }
});

function record(extraFrontmatter: readonly string[], body = "Body text."): string {
  return [
    "---",
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
    "sources: []",
    "lineage: []",
    "relations: []",
    ...extraFrontmatter,
    "---",
    "# A note",
    "",
    body,
    "",
  ].join("\n");
}

function parse(text: string, at = "records/x.md"): ParseRecordResult {
  return parseRecordMarkdown(at, new TextEncoder().encode(text));
}

function onlyCode(result: ParseRecordResult): string {
  assert.ok(!result.ok, "expected a refusal");
  assert.equal(result.diagnostics.length, 1);
  return result.diagnostics[0]?.code ?? "";
}

test("a record at the bounds validates; one past a bound is refused with its own code", () => {
  const base = 13;
  const atKeys = parse(record(Array.from({ length: MAX_FRONTMATTER_KEYS - base }, (_, index) => `k${index}: v`)));
  assert.ok(atKeys.ok, JSON.stringify(atKeys).slice(0, 300));
  assert.equal(onlyCode(parse(record(Array.from({ length: MAX_FRONTMATTER_KEYS - base + 1 }, (_, index) => `k${index}: v`)))), "markdown.frontmatter.too-many-keys");
  // Keys inside lists count as well.
  const nested = [`sources_copy: [${Array.from({ length: MAX_FRONTMATTER_KEYS }, () => "{a: 1}").join(", ")}]`];
  assert.equal(onlyCode(parse(record(nested))), "markdown.frontmatter.too-many-keys");

  const longValue = (bytes: number): string[] => [`note: "${"x".repeat(bytes)}"`];
  const frontmatterBytes = Buffer.byteLength(record([]).split("\n---\n")[0] as string, "utf8") - 4 + 1;
  assert.ok(parse(record(longValue(MAX_FRONTMATTER_BYTES - frontmatterBytes - 9))).ok);
  assert.equal(onlyCode(parse(record(longValue(MAX_FRONTMATTER_BYTES)))), "markdown.frontmatter.too-large");

  const nest = (depth: number): string[] => [`deep: ${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}`];
  assert.ok(parse(record(nest(MAX_FRONTMATTER_DEPTH))).ok);
  assert.equal(onlyCode(parse(record(nest(MAX_FRONTMATTER_DEPTH + 1)))), "markdown.frontmatter.too-deep");
  assert.equal(onlyCode(parse(record(nest(20_000)))), "markdown.frontmatter.too-deep");

  // The body is not YAML: a long one is fine up to the record bound.
  const room = MAX_RECORD_BYTES - Buffer.byteLength(record([], ""), "utf8");
  assert.ok(parse(record([], "y".repeat(room))).ok);
  const tooLarge = parse(record([], "y".repeat(room + 1)));
  assert.equal(onlyCode(tooLarge), "markdown.record.too-large");
  assert.ok(!tooLarge.ok && tooLarge.diagnostics[0]?.phase === "markdown" && tooLarge.diagnostics[0]?.path === "records/x.md");
});

test("the same bytes at two paths are parsed once and each answer names its own path", () => {
  const text = record(["custom: kept"]);
  const first = parse(text, "<prepared-record-0>");
  const second = parse(text, "records/memo.md");
  assert.ok(first.ok && second.ok);
  assert.equal(first.record.path, "<prepared-record-0>");
  assert.equal(second.record.path, "records/memo.md");
  assert.equal(second.record.frontmatter, first.record.frontmatter);
  const bad = record(["title: Again"]);
  const one = parse(bad, "a.md");
  const two = parse(bad, "b.md");
  assert.ok(!one.ok && !two.ok);
  assert.deepEqual(one.diagnostics.map((diagnostic) => diagnostic.path), ["a.md"]);
  assert.deepEqual(two.diagnostics.map((diagnostic) => diagnostic.path), ["b.md"]);
  assert.deepEqual({ ...two.diagnostics[0], path: "a.md" }, one.diagnostics[0]);
});

test("skills: keys and nesting past the Router's bounds are skill-limit-exceeded, a duplicate cites yaml's line", () => {
  const tooMany = parseYaml(manyKeys(MAX_YAML_KEYS + 1), "frontmatter", "skill-frontmatter-invalid", 2);
  assert.ok(!tooMany.ok && tooMany.problem.code === "skill-limit-exceeded", JSON.stringify(tooMany));
  const tooDeep = parseYaml(`a: ${"[".repeat(MAX_YAML_DEPTH + 5)}${"]".repeat(MAX_YAML_DEPTH + 5)}`, "routing.yaml", "skill-routing-invalid");
  assert.ok(!tooDeep.ok && tooDeep.problem.code === "skill-limit-exceeded", JSON.stringify(tooDeep));
  const duplicate = parseYaml("name: a\ndescription: b\nname: c", "frontmatter", "skill-frontmatter-invalid", 2);
  assert.deepEqual(duplicate, { ok: false, problem: { code: "skill-frontmatter-invalid", message: "frontmatter: Map keys must be unique (line 4)" } });
});
