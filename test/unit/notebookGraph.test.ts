// Phase B of observer-record/v1 (observer.md §5.6, fixtures of §7.2): the six-record baseline is
// valid, each invalid notebook reports exactly its one code, and the result never depends on the
// order the files come in.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { repoRoot } from "../support/repoRoot";
import { seededShuffle } from "../support/shuffle";
import { validateRecordSet, type RecordFile } from "../../server/notebook/recordSet";
import { validateGraph } from "../../server/notebook/graphValidation";
import { parseRecordMarkdown, type ParsedRecord } from "../../server/notebook/markdownProfile";

const fixtures = path.join(repoRoot(), "test", "fixtures", "notebook");
const baselineDir = path.join(fixtures, "notebooks", "valid", "baseline");
const U = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

function readDir(dir: string): RecordFile[] {
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => ({ path: `records/${name}`, bytes: fs.readFileSync(path.join(dir, name)) }));
}

/** The baseline with the case's files replacing the same-named baseline files. */
function invalidNotebook(name: string): RecordFile[] {
  const overrides = readDir(path.join(fixtures, "notebooks", "invalid", name));
  const baseline = readDir(baselineDir);
  for (const file of overrides) assert.ok(baseline.some((entry) => entry.path === file.path), `unknown override ${file.path}`);
  return baseline.map((file) => overrides.find((entry) => entry.path === file.path) ?? file);
}

function parseAll(files: readonly RecordFile[]): ParsedRecord[] {
  return files.map((file) => {
    const result = parseRecordMarkdown(file.path, file.bytes);
    if (!result.ok) assert.fail(JSON.stringify(result.diagnostics));
    return result.record;
  });
}

test("the six-record baseline is valid and graph-evaluated", () => {
  const result = validateRecordSet(readDir(baselineDir));
  assert.deepEqual(result.diagnostics, []);
  assert.equal(result.valid, true);
  assert.equal(result.graphEvaluated, true);
  assert.equal(result.records, 6);
  assert.deepEqual(
    result.parsed.map((record) => [record.path, record.type, record.status]),
    [
      ["records/inquiry.md", "inquiry", "open"],
      ["records/memo-incubating.md", "memo", "incubating"],
      ["records/memo-promoted.md", "memo", "promoted"],
      ["records/source-direct.md", "source", "available"],
      ["records/source-external.md", "source", "available"],
      ["records/zettel.md", "zettel", "mature"],
    ],
  );
});

type Shape = [code: string, path: string, pointer: string | null, recordId: string, relatedId: string | null];
const id = { source1: `source-${U(1)}`, inquiry: `inquiry-${U(3)}`, memoInc: `memo-${U(4)}`, zettel: `zettel-${U(5)}`, memoProm: `memo-${U(6)}` };

// The exact diagnostics the reference reports for the same notebooks.
const invalidCases: { name: string; code: string; shapes: Shape[] }[] = [
  { name: "duplicate-id", code: "graph.id.duplicate", shapes: [["graph.id.duplicate", "records/source-external.md", "/id", id.source1, id.source1]] },
  { name: "dangling-source", code: "graph.target.missing", shapes: [["graph.target.missing", "records/inquiry.md", "/sources/1/record", id.inquiry, `source-${U(9)}`]] },
  { name: "dangling-lineage", code: "graph.target.missing", shapes: [["graph.target.missing", "records/memo-promoted.md", "/lineage/0/target", id.memoProm, `inquiry-${U(9)}`]] },
  { name: "dangling-relation", code: "graph.target.missing", shapes: [["graph.target.missing", "records/inquiry.md", "/relations/0/target", id.inquiry, `zettel-${U(9)}`]] },
  { name: "self-edge", code: "graph.edge.self", shapes: [["graph.edge.self", "records/inquiry.md", "/relations/0/target", id.inquiry, id.inquiry]] },
  { name: "duplicate-edge", code: "graph.edge.duplicate", shapes: [["graph.edge.duplicate", "records/zettel.md", "/sources/1", id.zettel, null]] },
  { name: "orphan-memo", code: "graph.memo.orphan", shapes: [["graph.memo.orphan", "records/memo-incubating.md", null, id.memoInc, null]] },
  { name: "source-less-zettel", code: "graph.zettel.source-required", shapes: [["graph.zettel.source-required", "records/zettel.md", null, id.zettel, null]] },
  { name: "promotion-status", code: "graph.promotion.mismatch", shapes: [["graph.promotion.mismatch", "records/zettel.md", "/lineage/0/target", id.zettel, id.memoProm]] },
  { name: "promoted-unlinked", code: "graph.promotion.mismatch", shapes: [["graph.promotion.mismatch", "records/memo-promoted.md", null, id.memoProm, null]] },
  {
    name: "promotion-target-type",
    code: "graph.promotion.mismatch",
    shapes: [
      ["graph.promotion.mismatch", "records/memo-promoted.md", null, id.memoProm, null],
      ["graph.promotion.mismatch", "records/zettel.md", "/lineage/0/target", id.zettel, id.inquiry],
    ],
  },
  { name: "lineage-type-mismatch", code: "graph.lineage.type-mismatch", shapes: [["graph.lineage.type-mismatch", "records/memo-incubating.md", "/lineage/0/target", id.memoInc, id.inquiry]] },
];

for (const expected of invalidCases) {
  test(`invalid notebook ${expected.name} reports exactly ${expected.code}`, () => {
    const files = invalidNotebook(expected.name);
    const result = validateRecordSet(files);
    assert.equal(result.valid, false);
    assert.equal(result.graphEvaluated, true);
    assert.equal(result.records, 6);
    assert.deepEqual([...new Set(result.diagnostics.map((d) => d.code))], [expected.code]);
    assert.deepEqual(
      result.diagnostics.map((d): Shape => [d.code, d.path, d.pointer ?? null, d.recordId ?? "", d.relatedId ?? null]),
      expected.shapes,
    );
    for (const d of result.diagnostics) assert.equal(d.phase, "graph");
    assert.deepEqual(validateRecordSet([...files].reverse()).diagnostics, result.diagnostics);
  });
}

test("every invalid notebook fixture of §7.2 is covered by a case", () => {
  assert.deepEqual(fs.readdirSync(path.join(fixtures, "notebooks", "invalid")).sort(), invalidCases.map((c) => c.name).sort());
});

test("a Phase A failure skips the graph and reports only the file's diagnostic", () => {
  const missing = { path: "records/missing-frontmatter.md", bytes: fs.readFileSync(path.join(fixtures, "records", "invalid", "missing-frontmatter.md")) };
  const files = [...readDir(baselineDir), missing];
  const result = validateRecordSet(files);
  assert.equal(result.valid, false);
  assert.equal(result.graphEvaluated, false);
  assert.equal(result.records, 7);
  assert.equal(result.parsed.length, 6);
  assert.deepEqual(
    result.diagnostics.map((d) => [d.phase, d.code, d.path]),
    [["markdown", "markdown.frontmatter.missing", "records/missing-frontmatter.md"]],
  );
  assert.deepEqual(validateRecordSet([...files].reverse()), result);
});

test("diagnostics follow the reference's collation of paths, not code units", () => {
  const bytes = fs.readFileSync(path.join(fixtures, "records", "invalid", "missing-frontmatter.md"));
  // Code-unit order would put "Memo-c" (M = 0x4d) and "Zeta" before every lowercase name.
  const names = ["records/Zeta.md", "records/memo-b.md", "records/Memo-c.md", "records/a-b.md", "records/a_b.md", "records/ab.md"];
  const result = validateRecordSet(names.map((name) => ({ path: name, bytes })));
  const expected = ["records/a_b.md", "records/a-b.md", "records/ab.md", "records/memo-b.md", "records/Memo-c.md", "records/Zeta.md"];
  assert.deepEqual(
    result.diagnostics.map((d) => d.path),
    expected,
  );
  assert.deepEqual(validateRecordSet(names.reverse().map((name) => ({ path: name, bytes }))).diagnostics.map((d) => d.path), expected);
});

test("duplicate ids are reported alone, on every later duplicate in path order", () => {
  const files = invalidNotebook("duplicate-id");
  const dangling = fs.readFileSync(path.join(fixtures, "notebooks", "invalid", "dangling-source", "inquiry.md"));
  const third = { path: "records/z-copy.md", bytes: fs.readFileSync(path.join(baselineDir, "source-external.md")) };
  const result = validateRecordSet([...files.map((file) => (file.path === "records/inquiry.md" ? { ...file, bytes: dangling } : file)), third]);
  assert.deepEqual(
    result.diagnostics.map((d) => [d.code, d.path]),
    [
      ["graph.id.duplicate", "records/source-external.md"],
      ["graph.id.duplicate", "records/z-copy.md"],
    ],
  );
});

// Small records with edges drawn from a pool of ids, so every rule fires somewhere.
const types = ["source", "inquiry", "memo", "zettel"] as const;
const statuses = { source: ["available", "superseded"], inquiry: ["open"], memo: ["incubating", "promoted"], zettel: ["mature"] } as const;
const anyId = fc.tuple(fc.constantFrom(...types), fc.integer({ min: 0, max: 4 })).map(([type, n]) => `${type}-${U(n)}`);
const recordArb = fc.record({
  type: fc.constantFrom(...types),
  n: fc.integer({ min: 0, max: 4 }),
  status: fc.nat(),
  sources: fc.array(fc.record({ n: fc.integer({ min: 0, max: 4 }), role: fc.constantFrom("supports", "context"), locator: fc.constantFrom(undefined, "p. 1") }), { maxLength: 3 }),
  lineage: fc.array(fc.record({ type: fc.constantFrom("derived_from", "promoted_from", "merged_from", "split_from", "supersedes"), target: anyId }), { maxLength: 3 }),
  relations: fc.array(fc.record({ type: fc.constantFrom("related", "refines"), target: anyId }), { maxLength: 2 }),
});
type RecordSpec = typeof recordArb extends fc.Arbitrary<infer T> ? T : never;

function render(spec: RecordSpec): string {
  const choices = statuses[spec.type];
  const lines = [
    "---",
    "observer_schema: observer-record/v1",
    `observer_type: ${spec.type}`,
    `observer_status: ${choices[spec.status % choices.length] ?? choices[0]}`,
    `id: ${spec.type}-${U(spec.n)}`,
    "title: Generated",
    "lang: en",
    "created: 2026-01-01T00:00:00Z",
    "modified: 2026-01-01T00:00:00Z",
    "tags: []",
    "aliases: []",
    `sources: ${JSON.stringify(spec.sources.map((s) => ({ record: `source-${U(s.n)}`, role: s.role, ...(s.locator === undefined ? {} : { locator: s.locator }) })))}`,
    `lineage: ${JSON.stringify(spec.lineage)}`,
    `relations: ${JSON.stringify(spec.relations)}`,
  ];
  if (spec.type === "source") lines.push("source_kind: external-material", "external: {revision: r1}");
  if (spec.type === "inquiry") lines.push("inquiry: {origin: user, original: q, current: q}");
  return [...lines, "---", "# Generated", "", "Body."].join("\n");
}

test("Phase B diagnostics are identical for every permutation of the records", () => {
  const baseline = parseAll(readDir(baselineDir));
  fc.assert(
    fc.property(fc.array(recordArb, { maxLength: 8 }), fc.integer(), fc.integer(), (specs, seedA, seedB) => {
      const generated = parseAll(specs.map((spec, index) => ({ path: `records/g${index}.md`, bytes: new TextEncoder().encode(render(spec)) })));
      const records = [...baseline, ...generated];
      const expected = validateGraph(records);
      assert.deepEqual(validateGraph(seededShuffle(records, seedA)), expected);
      assert.deepEqual(validateGraph(seededShuffle(records, seedB)), expected);
      assert.deepEqual(validateGraph([...records].reverse()), expected);
    }),
    { numRuns: 200 },
  );
});

test("individual rules: lineage kinds, self sources, connectivity through lineage only to inquiries", () => {
  const base = parseAll(readDir(baselineDir));
  const extra = (spec: RecordSpec, name = "records/extra.md"): ParsedRecord[] => parseAll([{ path: name, bytes: new TextEncoder().encode(render(spec)) }]);
  const codesFor = (spec: RecordSpec): string[] => validateGraph([...base, ...extra(spec)]).map((d) => `${d.code}${d.pointer ?? ""}`);
  const none = { status: 0, sources: [], lineage: [], relations: [] };
  // derived_from is unrestricted; merged_from needs the same type.
  assert.deepEqual(codesFor({ ...none, type: "memo", n: 7, lineage: [{ type: "derived_from", target: `source-${U(1)}` }], sources: [{ n: 1, role: "supports", locator: undefined }] }), []);
  assert.deepEqual(codesFor({ ...none, type: "memo", n: 7, lineage: [{ type: "merged_from", target: `memo-${U(4)}` }], sources: [{ n: 1, role: "supports", locator: undefined }] }), []);
  assert.deepEqual(codesFor({ ...none, type: "memo", n: 7, lineage: [{ type: "split_from", target: `zettel-${U(5)}` }], sources: [{ n: 1, role: "supports", locator: undefined }] }), [
    "graph.lineage.type-mismatch/lineage/0/target",
  ]);
  // A memo whose only lineage leads to another memo is an orphan.
  assert.deepEqual(codesFor({ ...none, type: "memo", n: 7, lineage: [{ type: "derived_from", target: `memo-${U(4)}` }] }), ["graph.memo.orphan"]);
  // A source citing itself: a self edge, and the target exists.
  assert.deepEqual(codesFor({ ...none, type: "source", n: 7, sources: [{ n: 7, role: "context", locator: undefined }] }), ["graph.edge.self/sources/0/record"]);
  // A zettel promoted from itself: self edge and promotion mismatch; its sources reach no source record.
  assert.deepEqual(codesFor({ ...none, type: "zettel", n: 7, lineage: [{ type: "promoted_from", target: `zettel-${U(7)}` }], sources: [{ n: 9, role: "supports", locator: undefined }] }), [
    "graph.zettel.source-required",
    "graph.edge.self/lineage/0/target",
    "graph.promotion.mismatch/lineage/0/target",
    "graph.target.missing/sources/0/record",
  ]);
  // Locators distinguish source edges.
  assert.deepEqual(
    codesFor({
      ...none,
      type: "zettel",
      n: 7,
      sources: [
        { n: 1, role: "supports", locator: undefined },
        { n: 1, role: "supports", locator: "p. 1" },
        { n: 1, role: "supports", locator: undefined },
      ],
    }),
    ["graph.edge.duplicate/sources/2"],
  );
});

test("repeated edges: the pair-by-pair comparison of short families reports what the JSON key of long ones does", () => {
  // Edges from a small pool, so repeats are common; families from 0 to 40 edges cross the pairwise limit.
  const id = fc.constantFrom(`source-${U(1)}`, `source-${U(2)}`, `memo-${U(3)}`);
  const word = fc.constantFrom("supports", "context", "related", "derived_from");
  const locator = fc.constantFrom(undefined, "p. 1", "p. 2", "");
  const source = fc.record({ record: id, role: word, locator }).map(({ locator: at, ...rest }) => (at === undefined ? rest : { ...rest, locator: at }));
  const edge = fc.record({ type: word, target: id });
  fc.assert(
    fc.property(fc.array(source, { maxLength: 40 }), fc.array(edge, { maxLength: 40 }), fc.array(edge, { maxLength: 40 }), (sources, lineage, relations) => {
      const record = { path: "records/r.md", recordId: `memo-${U(9)}`, type: "memo" as const, status: "incubating", sha256: "0".repeat(64), record: { sources, lineage, relations } } as unknown as Parameters<typeof validateGraph>[0][number];
      const expected: string[] = [];
      const repeats = (family: string, keys: readonly string[]): void => {
        const seen = new Set<string>();
        keys.forEach((key, position) => {
          if (seen.has(key)) expected.push(`/${family}/${position}`);
          seen.add(key);
        });
      };
      repeats("sources", sources.map((s) => JSON.stringify([s.record, s.role, (s as { locator?: string }).locator ?? null])));
      repeats("lineage", lineage.map((e) => JSON.stringify([e.type, e.target])));
      repeats("relations", relations.map((e) => JSON.stringify([e.type, e.target])));
      const reported = validateGraph([record])
        .filter((d) => d.code === "graph.edge.duplicate")
        .map((d) => d.pointer ?? "");
      assert.deepEqual([...reported].sort(), [...expected].sort());
    }),
    { numRuns: 300 },
  );
});
