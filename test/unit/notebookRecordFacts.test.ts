// The record facts reader (server/notebook/recordFacts.ts) answers `docket notebook validate`'s
// Phase A for plainly written records without the general path. It must never change an answer:
// wherever it gives facts, yaml reads the same frontmatter, ajv finds nothing, the general path
// (parseRecordMarkdown) passes the record, and the facts are the general path's. Checked on the
// record fixtures, generated records (valid and faulty), line edits of each and hostile texts.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { MAX_FRONTMATTER_DEPTH, MAX_FRONTMATTER_KEYS, parseRecordMarkdownUnremembered } from "../../server/notebook/markdownProfile";
import { KEY_LINE, plainRecordFacts, type RecordFacts } from "../../server/notebook/recordFacts";
import { schemaDiagnostics } from "../../server/notebook/recordSchema";
import { certainlyMatchesRecordSchema } from "../../server/notebook/recordSchemaCheck";
import { compareNotebookText, sortByNotebookText } from "../../server/notebook/referenceOrder";
import { keyEnd, readSimpleFrontmatter, valueAfter } from "../../server/notebook/simpleFrontmatter";
import { parseStrictYaml } from "../../server/yaml/strictDocument";
import { generatedId, generateNotebookRecords, RECORD_FAULTS } from "../support/notebookGenerator";
import { repoRoot } from "../support/repoRoot";
import { yamlLineEdits } from "../support/yamlLineEdits";

const FIXTURES = path.join(repoRoot(), "test", "fixtures", "notebook");

function markdownFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(folder, entry.name);
    return entry.isDirectory() ? markdownFiles(at) : entry.name.endsWith(".md") ? [at] : [];
  });
}

function yamlValue(text: string): unknown {
  const parsed = parseStrictYaml(text, { schema: "core", merge: false, prettyErrors: false, logLevel: "error" }, { maxKeys: MAX_FRONTMATTER_KEYS, maxDepth: MAX_FRONTMATTER_DEPTH });
  assert.ok(parsed.ok && parsed.document.errors.length === 0, `yaml refuses a frontmatter the facts reader read:\n${text}`);
  return parsed.document.toJS({ maxAliasCount: 0 });
}

/** The frontmatter between the delimiters, line endings normalised, as markdownProfile cuts it. */
function frontmatterOf(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  return lines.slice(1, lines.indexOf("---", 1)).join("\n");
}

function factsOf(frontmatter: Record<string, unknown>): RecordFacts {
  return {
    recordId: frontmatter.id as string,
    type: frontmatter.observer_type as RecordFacts["type"],
    status: frontmatter.observer_status as string,
    record: { sources: frontmatter.sources, lineage: frontmatter.lineage, relations: frontmatter.relations } as RecordFacts["record"],
  };
}

/** Holds one record's bytes to the rule; returns whether the facts reader answered. */
function check(bytes: Uint8Array): boolean {
  const facts = plainRecordFacts(bytes);
  if (facts === undefined) return false;
  const text = Buffer.from(bytes).toString("utf8");
  const general = parseRecordMarkdownUnremembered("records/x.md", bytes, createHash("sha256").update(bytes).digest("hex"));
  assert.ok(general.ok, `the general path refuses a record the facts reader passed:\n${text}\n${JSON.stringify(general)}`);
  assert.deepStrictEqual(facts, factsOf(general.record.frontmatter), text);
  const frontmatter = frontmatterOf(text);
  const fromYaml = yamlValue(frontmatter) as Record<string, unknown>;
  assert.deepStrictEqual(readSimpleFrontmatter(frontmatter, MAX_FRONTMATTER_KEYS), fromYaml, text);
  assert.deepEqual(schemaDiagnostics("records/x.md", fromYaml), [], text);
  assert.deepStrictEqual(facts, factsOf(fromYaml), text);
  return true;
}

/** What yamlLineEdits puts into each line: YAML's indicators, quotes, comments, numbers, odd spaces. */
const YAML_INSERTS = ["#", " #x", ": ", "'", '"', "\\", "- ", "[", "]", "{", "&a ", "*a", "!t ", "!!str ", "|", ">", "~", "0x1", ".5", "null", "true", " ", "\t", "\u3000", "\u00a0", "한", ",", "?", "%", "---", "...", "<<: "];

function lineEdits(text: string): string[] {
  return yamlLineEdits(text, YAML_INSERTS, 5);
}

const source = generatedId("source", 1);
const memo = generatedId("memo", 2);
const inquiry = generatedId("inquiry", 3);

function record(frontmatter: string, body = "# Title\n\nSome content.\n"): string {
  return `---\n${frontmatter}\n---\n${body}`;
}

const BASE_SOURCE = [
  "observer_schema: observer-record/v1",
  "observer_type: source",
  "observer_status: available",
  `id: ${source}`,
  "title: Reading",
  "lang: en",
  'created: "2026-03-02T09:00:00Z"',
  'modified: "2026-03-02T09:30:00Z"',
  "tags: [notebook, generated]",
  "aliases: []",
  "sources: []",
  "lineage: []",
  "relations: []",
  "source_kind: external-material",
  "external:",
  "  uri: https://example.test/handbook",
  "  revision: v2",
].join("\n");

const BASE_MEMO = [
  "observer_schema: observer-record/v1",
  "observer_type: memo",
  "observer_status: incubating",
  `id: ${memo}`,
  "title: Working note",
  "lang: en",
  'created: "2026-03-02T09:00:00Z"',
  'modified: "2026-03-02T09:30:00Z"',
  "tags: []",
  "aliases: []",
  "sources:",
  `  - record: ${source}`,
  "    role: supports",
  "    locator: p. 4",
  "lineage:",
  `  - type: derived_from`,
  `    target: ${inquiry}`,
  "relations: []",
].join("\n");

/** Texts aimed at YAML's corners and at the reader's own structure. */
function hostileRecords(): string[] {
  const texts: string[] = [];
  for (const base of [BASE_SOURCE, BASE_MEMO]) {
    texts.push(record(base));
    texts.push(`\ufeff${record(base)}`);
    texts.push(record(base).replace(/\n/g, "\r\n"));
    texts.push(record(base).replace(/\n/g, "\r"));
    texts.push(record(base.replace("title: Reading", "title: &anchor Reading").replace("title: Working note", "title: &anchor Working note")));
    texts.push(record(`${base}\nalias_of_title: *anchor`));
    texts.push(record(base.replace("lang: en", "lang: !!str en")));
    texts.push(record(base.replace("lang: en", "lang: !custom en")));
    texts.push(record(`${base}\nlang: ko`));
    texts.push(record(`${base}\ntitle: Second title`));
    texts.push(record(`${base}\n---\nobserver_type: memo`));
    texts.push(record(`${base}\n...\n`));
    texts.push(record(base.replace(/^/gm, "\t").replace(/^\t/, "")));
    texts.push(record(base.replace("  uri:", "\turi:").replace("    role:", "\t  role:")));
    texts.push(record(base.replace("title: Reading", `title: ${"long ".repeat(20_000)}end`).replace("title: Working note", `title: ${"long ".repeat(20_000)}end`)));
    texts.push(record(base.replace("tags: [notebook, generated]", `tags: [${Array.from({ length: 2_000 }, (_, index) => `t${index}`).join(", ")}]`)));
    texts.push(record(`${base}\ncustom_key: anything`));
    texts.push(record(`${base}\nobserver_extra: x`));
    texts.push(record(`${base}\ninquiry:\n  origin: user\n  original: Why?\n  current: Why?`));
    texts.push(record(base.replace("aliases: []", "aliases:\n  - one\n  - two")));
    texts.push(record(base.replace("aliases: []", "aliases: {}")));
    texts.push(record(base.replace("relations: []", "relations: [x]")));
    texts.push(record(base.replace("relations: []", "relations:\n- type: related\n  target: " + memo)));
    texts.push(record(base.replace("relations: []", "relations:\n  - type: related\n    target: " + inquiry + "\n    extra: 1")));
    texts.push(record(base.replace("relations: []", "relations:\n  - type: related\n    target: " + inquiry + "\n    type: supports")));
    texts.push(record(base.replace("relations: []", "relations:\n  - type: related\n     target: " + inquiry)));
    texts.push(record(base.replace("relations: []", "relations:\n  - type: related\n   target: " + inquiry)));
    texts.push(record(base.replace("relations: []", "relations:\n  - {type: related, target: " + inquiry + "}")));
    texts.push(record(base.replace("relations: []", "relations:\n  -\n    type: related\n    target: " + inquiry)));
    texts.push(record(base.replace('created: "2026-03-02T09:00:00Z"', "created: 2026-03-02T09:00:00Z")));
    texts.push(record(base.replace('created: "2026-03-02T09:00:00Z"', "created: '2026-03-02T09:00:00Z'")));
    texts.push(record(base.replace('created: "2026-03-02T09:00:00Z"', 'created: "2026-03-02T09:00:00\\u005a"')));
    texts.push(record(base.replace('modified: "2026-03-02T09:30:00Z"', 'modified: "2026-03-01T09:30:00Z"')));
    texts.push(record(base.replace('created: "2026-03-02T09:00:00Z"', 'created: "2026-02-30T09:00:00Z"')));
    texts.push(record(base.replace("observer_status: available", "observer_status: open").replace("observer_status: incubating", "observer_status: open")));
    texts.push(record(base.replace("id: ", "id: memo").replace(`id: ${memo}`, `id: ${source}`)));
    texts.push(record(base.replace("title: Reading", "title: null").replace("title: Working note", "title: true")));
    texts.push(record(base.replace("title: Reading", "title: ''").replace("title: Working note", 'title: " "')));
    texts.push(record(base.replace("title: Reading", "title: a: b").replace("title: Working note", "title: note # comment")));
    texts.push(record(base.replace("observer_schema: observer-record/v1", "observer_schema: observer-record/v2")));
    texts.push(record(base.replace("observer_schema: observer-record/v1", '"observer_schema": observer-record/v1')));
    texts.push(record(base.replace("lang: en", "lang: not a language tag")));
    texts.push(record(base.replace("  uri: https://example.test/handbook", "  uri: not a uri").replace("    role: supports", "    role: cites")));
    texts.push(record(base.replace("    locator: p. 4", "    locator: ''")));
    texts.push(record(`${base}\n# a comment line`));
    texts.push(record(`${base}\n\n`));
    texts.push(record(`${base}\n   `));
    texts.push(record(base.replace("lang: en", "lang: en ")));
    texts.push(record(base, ""));
    texts.push(record(base, "\n\n   \n"));
    texts.push(record(base, "# Title\n"));
    texts.push(record(base, "# Title\n \t \n"));
    texts.push(record(base, "# Title\n\nText.\n\n# Second\n"));
    texts.push(record(base, "# Title\n\n```\n# not a heading\n```\n"));
    texts.push(record(base, "Not a heading\n\n# Title\n"));
    texts.push(record(base, "#Title\n\nText.\n"));
    texts.push(`---\n${base}\n`);
    texts.push(`---\n${base}\n---`);
    texts.push(`--- \n${base}\n---\n# T\n\nx\n`);
  }
  return texts;
}

test("the record facts reader answers only where yaml, ajv and the general path agree, with the general path's facts", () => {
  let answered = 0;
  let declined = 0;
  const count = (bytes: Uint8Array): void => {
    if (check(bytes)) answered += 1;
    else declined += 1;
  };
  const bases: Uint8Array[] = [
    ...markdownFiles(FIXTURES).map((file) => new Uint8Array(fs.readFileSync(file))),
    ...generateNotebookRecords({ records: 20, faults: RECORD_FAULTS }).map((generated) => generated.bytes),
  ];
  for (const bytes of bases) {
    count(bytes);
    const text = Buffer.from(bytes).toString("utf8");
    // Every edit of the frontmatter's and body's lines (the bytes that are not UTF-8 are left whole).
    if (Buffer.from(text, "utf8").equals(Buffer.from(bytes))) for (const edited of lineEdits(text)) count(Buffer.from(edited, "utf8"));
  }
  for (const text of hostileRecords()) count(Buffer.from(text, "utf8"));
  count(Buffer.from(`---\n${BASE_SOURCE}\n---\n# T\n\nx ${"y".repeat(1024 * 1024)}\n`, "utf8"));
  count(Uint8Array.from([...Buffer.from(record(BASE_SOURCE).slice(0, 40), "utf8"), 0xff, 0xfe, ...Buffer.from(record(BASE_SOURCE).slice(40), "utf8")]));
  assert.ok(answered > 2_000 && declined > 10_000, `answered ${answered}, declined ${declined}`);
});

test("the facts reader answers for every record of a generated valid Notebook, and for plain hand-written ones", () => {
  assert.ok(check(Buffer.from(record(BASE_SOURCE), "utf8")));
  assert.ok(check(Buffer.from(record(BASE_MEMO), "utf8")));
  const records = generateNotebookRecords({ records: 300, seed: 16 });
  for (const generated of records) assert.ok(check(generated.bytes), Buffer.from(generated.bytes).toString("utf8"));
});

test("a source record with an inquiry block is not certainly valid (ajv refuses it)", () => {
  const frontmatter = readSimpleFrontmatter(`${BASE_SOURCE}\ninquiry:\n  origin: user\n  original: Why?\n  current: Why?`, MAX_FRONTMATTER_KEYS);
  assert.ok(frontmatter !== undefined);
  assert.equal(certainlyMatchesRecordSchema(frontmatter), false);
  assert.notDeepEqual(schemaDiagnostics("records/x.md", frontmatter), []);
});

test("KEY_LINE reads a key line exactly as keyEnd and valueAfter do", () => {
  const alphabet = ["a", "Z", "_", "-", "0", ":", " ", "#", "'", "é", "x"];
  let seed = 11;
  const next = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const samples = ["key:", "key: value", "key:  value", "key:value", "key :", ":", "", "a".repeat(256) + ": v", "a".repeat(257) + ": v", "-key: v", "_k-9: v: w"];
  for (let index = 0; index < 20_000; index += 1) {
    const length = Math.floor(next() * 12);
    let text = "";
    for (let position = 0; position < length; position += 1) text += alphabet[Math.floor(next() * alphabet.length)] as string;
    samples.push(text);
  }
  for (const text of samples) {
    const end = keyEnd(text);
    const match = KEY_LINE.exec(text);
    if (end === -1) {
      assert.equal(match, null, JSON.stringify(text));
      continue;
    }
    assert.ok(match !== null, JSON.stringify(text));
    assert.equal(match[1], text.slice(0, end), JSON.stringify(text));
    assert.equal(match[2], valueAfter(text, end), JSON.stringify(text));
  }
});

test("sorting by the Notebook order takes the code-unit shortcuts only where they give the collator's order", () => {
  let seed = 5;
  const next = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  for (const alphabet of ["-./0123456789abcdefz", "-./09azAZ_ é"]) {
    const names = Array.from({ length: 400 }, () => Array.from({ length: 1 + Math.floor(next() * 6) }, () => alphabet.charAt(Math.floor(next() * alphabet.length))).join(""));
    // With repeated names (a stable sort keeps their order) and distinct ones, as in a folder (the engine's own sort).
    for (const list of [names, [...new Set(names)]]) {
      const items = list.map((name, index) => ({ name, index }));
      const expected = [...items].sort((left, right) => compareNotebookText(left.name, right.name));
      assert.deepStrictEqual(sortByNotebookText(items, (item) => item.name), expected);
    }
  }
});
