// The one-match reader of frontmatters in the schema's order (server/notebook/orderedFrontmatter.ts)
// and the body check without a line split (usualBodyPasses) stand in for the line reader and
// checkBody in `docket notebook validate`'s Phase A. Each must give what it stands in for: the
// ordered reader the line reader's values (or decline where the line reader declines), the body
// check checkBody's verdict. Held on generated records, line edits of them and fast-check texts
// (quoting, escapes, multi-line and block scalars, unicode and odd spaces, comments, anchors,
// aliases, tags, duplicate, missing and reordered keys, odd indents); the whole record through
// plainRecordFacts is held to the general path (parseRecordMarkdown) too.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import fc from "fast-check";
import { bodyLines, checkBody, parseRecordMarkdownUnremembered, sectionBounds, usualBodyPasses } from "../../server/notebook/markdownProfile";
import { orderedFrontmatterValues, type FrontmatterValues } from "../../server/notebook/orderedFrontmatter";
import { frontmatterValuesByLine, plainRecordFacts } from "../../server/notebook/recordFacts";
import { DECLINE } from "../../server/notebook/simpleFrontmatter";
import { generatedId, generateNotebookRecords, RECORD_FAULTS } from "../support/notebookGenerator";
import { yamlLineEdits } from "../support/yamlLineEdits";

const DECLINED = "declined";

function ordered(frontmatter: string): FrontmatterValues | undefined | typeof DECLINED {
  try {
    return orderedFrontmatterValues(frontmatter);
  } catch (error) {
    assert.equal(error, DECLINE, `the ordered reader threw something else than DECLINE:\n${frontmatter}`);
    return DECLINED;
  }
}

/** Holds the ordered reader to the line reader on one frontmatter; returns whether it read it. */
function checkFrontmatter(frontmatter: string): boolean {
  const fast = ordered(frontmatter);
  if (fast === undefined) return false;
  const byLine = frontmatterValuesByLine(frontmatter);
  if (fast === DECLINED) {
    assert.equal(byLine, undefined, `the ordered reader declined a value the line reader read:\n${frontmatter}`);
    return false;
  }
  assert.deepStrictEqual({ ...fast, external: { ...fast.external }, observation: { ...fast.observation }, inquiry: { ...fast.inquiry } }, byLine, frontmatter);
  return true;
}

/** Holds plainRecordFacts to the general path on one record text. */
function checkRecord(text: string): void {
  const bytes = Buffer.from(text, "utf8");
  const facts = plainRecordFacts(bytes);
  if (facts === undefined) return;
  const general = parseRecordMarkdownUnremembered("records/x.md", bytes, createHash("sha256").update(bytes).digest("hex"));
  assert.ok(general.ok, `the general path refuses a record the facts reader passed:\n${text}`);
  const { frontmatter } = general.record;
  assert.deepStrictEqual(facts, { recordId: frontmatter.id, type: frontmatter.observer_type, status: frontmatter.observer_status, record: { sources: frontmatter.sources, lineage: frontmatter.lineage, relations: frontmatter.relations } }, text);
}

/** Holds usualBodyPasses to checkBody on one record text; returns whether it answered. */
function checkBodyOf(text: string): boolean {
  const bounds = sectionBounds("", text);
  if (!bounds.ok) return false;
  const usual = usualBodyPasses(bounds.value);
  if (usual === undefined) return false;
  assert.equal(usual, checkBody("", bodyLines(bounds.value)).ok, JSON.stringify(text));
  return true;
}

function frontmatterOf(text: string): string {
  const bounds = sectionBounds("", text);
  assert.ok(bounds.ok);
  return bounds.value.frontmatterText;
}

const YAML_INSERTS = ["#", " #x", ": ", "'", '"', "\\", "- ", "[", "]", "{", "&a ", "*a", "!t ", "!!str ", "|", ">", "~", "0x1", ".5", "null", "true", " ", "\t", "\u3000", "\u00a0", "\u2028", "한", ",", "?", "%", "---", "...", "<<: "];

test("the ordered reader gives the line reader's values on generated records and line edits of them", () => {
  let read = 0;
  let edits = 0;
  const records = generateNotebookRecords({ records: 60, seed: 7, faults: RECORD_FAULTS });
  for (const generated of records) {
    const text = Buffer.from(generated.bytes).toString("utf8");
    if (!Buffer.from(text, "utf8").equals(Buffer.from(generated.bytes))) continue;
    const bounds = sectionBounds("", text);
    if (!bounds.ok) continue;
    if (checkFrontmatter(bounds.value.frontmatterText)) read += 1;
    checkRecord(text);
    for (const edited of yamlLineEdits(bounds.value.frontmatterText, YAML_INSERTS, 9)) {
      edits += 1;
      checkFrontmatter(edited);
      checkRecord(`---\n${edited}\n---\n# Title\n\nText.\n`);
    }
  }
  assert.ok(read > 30 && edits > 5_000, `read ${read}, edits ${edits}`);
});

test("the ordered reader reads every record of a generated valid Notebook", () => {
  for (const generated of generateNotebookRecords({ records: 300, seed: 16 })) {
    const text = Buffer.from(generated.bytes).toString("utf8");
    assert.ok(checkFrontmatter(frontmatterOf(text)), text);
    assert.ok(plainRecordFacts(generated.bytes) !== undefined, text);
    checkRecord(text);
  }
});

const source = generatedId("source", 1);
const memo = generatedId("memo", 2);
const inquiry = generatedId("inquiry", 3);

/** The layout's lines for one record of each shape, as [key, value] (value "" for a key alone). */
function baseLines(shape: number): [string, string][] {
  const head: [string, string][] = [
    ["observer_schema", "observer-record/v1"],
    ["observer_type", ["source", "source", "inquiry", "memo"][shape] as string],
    ["observer_status", ["available", "available", "open", "incubating"][shape] as string],
    ["id", [source, source, inquiry, memo][shape] as string],
    ["title", "Reading two"],
    ["lang", "en"],
    ["created", '"2026-03-02T09:00:00Z"'],
    ["modified", '"2026-03-02T09:30:00Z"'],
    ["tags", "[notebook, generated]"],
    ["aliases", "[]"],
  ];
  const edges: [string, string][] =
    shape === 3
      ? [
          ["sources", ""],
          ["  - record", source],
          ["    role", "supports"],
          ["    locator", "p. 4"],
          ["lineage", ""],
          ["  - type", "derived_from"],
          ["    target", inquiry],
          ["relations", ""],
          ["  - type", "related"],
          ["    target", inquiry],
        ]
      : [
          ["sources", "[]"],
          ["lineage", "[]"],
          ["relations", "[]"],
        ];
  const tails: [string, string][][] = [
    [
      ["source_kind", "external-material"],
      ["external", ""],
      ["  uri", "https://example.test/handbook"],
      ["  revision", "v2"],
      ["  content_hash", `sha256:${"a".repeat(64)}`],
      ["  retrieval_context", "fetched by hand"],
    ],
    [
      ["source_kind", "direct-observation"],
      ["observation", ""],
      ["  observed_at", '"2026-03-02T08:45:00Z"'],
      ["  observed_by", "the person running the build"],
      ["  fact", "Every task missed the cache."],
      ["  conditions", "Fresh clone."],
      ["  interpretation_boundary", "One machine only."],
    ],
    [
      ["inquiry", ""],
      ["  origin", "user"],
      ["  original", "Why does it matter?"],
      ["  current", "Why does it matter now?"],
      ["  revision_reason", "Sharper."],
    ],
    [],
  ];
  return [...head, ...edges, ...(tails[shape] as [string, string][])];
}

/** Values a line may get instead of its own: YAML's corners, for the ordered reader to decline or read as the line reader does. */
const VALUE_VARIANTS = [
  "'single quoted'",
  "'it''s'",
  '"double quoted"',
  '"escaped \\" quote"',
  '"tab\\tescape"',
  "한국어 제목",
  "emoji 🙂 title",
  "nbsp\u00a0inside",
  "line\u2028separator",
  "tab\tinside",
  "text # comment",
  "text #not-a-comment",
  "key: value",
  "ends with colon:",
  "&anchor value",
  "*alias",
  "!!str tagged",
  "!custom tagged",
  "|",
  "|\n  block line one\n  block line two",
  ">\n  folded one\n  folded two",
  "plain start\n  continued on the next line",
  "null",
  "Null",
  "true",
  "FALSE",
  "~",
  "12",
  "0x1F",
  "1.5e3",
  ".inf",
  "[]",
  "{}",
  "[a, b]",
  "[null]",
  "[true, x]",
  "[Notebook, 한]",
  "[a,b]",
  "[ a ]",
  "{a: b}",
  "- item",
  " leading space",
  "trailing space ",
  "",
  '"2026-03-02T09:00:00Z"',
  '"2026-02-30T09:00:00Z"',
  "2026-03-02T09:00:00Z",
  "'2026-03-02T09:00:00Z'",
  "en",
  "ko",
  "not a tag",
  "supports",
  "cites",
  "derived_from",
  source,
  memo,
  inquiry,
  "https://example.test/x",
  "not a uri",
];

type Edit =
  | { kind: "value"; line: number; variant: number }
  | { kind: "spaces"; line: number }
  | { kind: "indent"; line: number; by: number }
  | { kind: "duplicate"; line: number }
  | { kind: "remove"; line: number }
  | { kind: "swap"; line: number; other: number }
  | { kind: "comment"; line: number }
  | { kind: "anchorAlias"; line: number; other: number }
  | { kind: "quoteKey"; line: number };

const editArbitrary: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("value" as const), line: fc.nat(40), variant: fc.nat(VALUE_VARIANTS.length - 1) }) },
  fc.record({ kind: fc.constant("spaces" as const), line: fc.nat(40) }),
  fc.record({ kind: fc.constant("indent" as const), line: fc.nat(40), by: fc.integer({ min: -2, max: 3 }) }),
  fc.record({ kind: fc.constant("duplicate" as const), line: fc.nat(40) }),
  fc.record({ kind: fc.constant("remove" as const), line: fc.nat(40) }),
  fc.record({ kind: fc.constant("swap" as const), line: fc.nat(40), other: fc.nat(40) }),
  fc.record({ kind: fc.constant("comment" as const), line: fc.nat(40) }),
  fc.record({ kind: fc.constant("anchorAlias" as const), line: fc.nat(40), other: fc.nat(40) }),
  fc.record({ kind: fc.constant("quoteKey" as const), line: fc.nat(40) }),
);

function applyEdits(lines: [string, string][], edits: readonly Edit[]): string {
  const out = lines.map(([key, value]) => ({ key, value }));
  for (const edit of edits) {
    if (out.length === 0) break;
    const at = edit.line % out.length;
    const line = out[at] as { key: string; value: string };
    switch (edit.kind) {
      case "value":
        line.value = VALUE_VARIANTS[edit.variant] as string;
        break;
      case "spaces":
        line.key = `${line.key} `;
        break;
      case "indent":
        line.key = edit.by >= 0 ? `${" ".repeat(edit.by)}${line.key}` : line.key.slice(-edit.by);
        break;
      case "duplicate":
        out.splice(at, 0, { ...line });
        break;
      case "remove":
        out.splice(at, 1);
        break;
      case "swap": {
        const other = edit.other % out.length;
        out[at] = out[other] as { key: string; value: string };
        out[other] = line;
        break;
      }
      case "comment":
        out.splice(at, 0, { key: "# a comment", value: "" });
        break;
      case "anchorAlias": {
        line.value = `&shared ${line.value}`;
        const other = out[edit.other % out.length] as { key: string; value: string };
        if (other !== line) other.value = "*shared";
        break;
      }
      case "quoteKey":
        line.key = line.key.replace(/^( *(?:- )?)([a-z_]+)$/, '$1"$2"');
        break;
    }
  }
  return out.map(({ key, value }) => (key.startsWith("#") ? key : value === "" ? `${key}:` : `${key}: ${value}`)).join("\n");
}

test("every single edit of every line of each shape: the ordered reader reads as the line reader or not at all", () => {
  let read = 0;
  let cases = 0;
  for (let shape = 0; shape < 4; shape += 1) {
    const lines = baseLines(shape);
    for (let line = 0; line < lines.length; line += 1) {
      const single: Edit[] = [
        ...VALUE_VARIANTS.map((_, variant): Edit => ({ kind: "value", line, variant })),
        { kind: "spaces", line },
        { kind: "indent", line, by: -2 },
        { kind: "indent", line, by: 1 },
        { kind: "indent", line, by: 2 },
        { kind: "duplicate", line },
        { kind: "remove", line },
        { kind: "swap", line, other: line + 1 },
        { kind: "comment", line },
        { kind: "anchorAlias", line, other: line + 3 },
        { kind: "quoteKey", line },
      ];
      for (const edit of single) {
        cases += 1;
        const frontmatter = applyEdits(lines, [edit]);
        if (checkFrontmatter(frontmatter)) read += 1;
        checkRecord(`---\n${frontmatter}\n---\n# Title\n\nText.\n`);
      }
    }
  }
  assert.ok(read > 300 && cases > 5_000, `read ${read} of ${cases}`);
});

test("fast-check: over generated frontmatters the ordered reader reads as the line reader or not at all, and whole records as the general path", () => {
  let read = 0;
  fc.assert(
    fc.property(fc.nat(3), fc.array(editArbitrary, { maxLength: 4 }), (shape, edits) => {
      const frontmatter = applyEdits(baseLines(shape), edits);
      if (checkFrontmatter(frontmatter)) read += 1;
      checkRecord(`---\n${frontmatter}\n---\n# Title\n\nText.\n`);
    }),
    { numRuns: 4_000, seed: 16 },
  );
  assert.ok(read > 200, `read ${read}`);
});

const BODY_LINES = ["# Title", "#  Spaced title  ", "#", "# ", "#\tTab title", "#Title", "## Second level", "# Second", "text", "", "   ", "\t", "\u3000", "\u00a0x", "```", "```sh", "~~~", "````", "   ```", "    ```", " ~~~ ", "# not a heading", "- item", "\u2028", "x\u2028# y"];

test("fast-check: the body check without a line split gives checkBody's verdict", () => {
  let answered = 0;
  fc.assert(
    fc.property(fc.array(fc.nat(BODY_LINES.length - 1), { maxLength: 12 }), fc.boolean(), (picked, trailingBreak) => {
      const body = picked.map((index) => BODY_LINES[index] as string).join("\n") + (trailingBreak ? "\n" : "");
      if (checkBodyOf(`---\na: b\n---\n${body}`)) answered += 1;
      checkBodyOf(`---\na: b\n---`);
    }),
    { numRuns: 6_000, seed: 16 },
  );
  for (const generated of generateNotebookRecords({ records: 200, seed: 3 })) assert.ok(checkBodyOf(Buffer.from(generated.bytes).toString("utf8")));
  assert.ok(answered > 1_000, `answered ${answered}`);
});
