// Generated Notebooks of any size for the validation cache's tests and the notebook bench: a
// realistic mix of the four record types wired into a valid graph (memos cite sources, zettels
// cite sources and derive from memos, relations between zettels, promoted memos with their
// zettel), with seeded faults to mix in: records that fail their own checks, dangling references
// and duplicate ids. Deterministic: the same options always give the same bytes.
import fs from "node:fs";
import path from "node:path";
import { seededRandom as random } from "./seededRandom";

export type RecordFault =
  | "yaml" // frontmatter that is not YAML
  | "no-h1" // no heading after the frontmatter
  | "two-h1" // a second level-1 heading
  | "schema" // a status the type does not have, and an unknown observer_ key
  | "id-prefix" // a memo whose id says source
  | "timestamps" // modified before created
  | "not-utf8" // bytes that are not UTF-8
  | "dangling" // a source reference to a record that does not exist
  | "duplicate-id" // a second file claiming an existing record's id
  | "self-edge" // a relation to itself
  | "duplicate-edge" // the same source cited twice
  | "orphan-memo"; // a memo with no source and no inquiry

export const RECORD_FAULTS: readonly RecordFault[] = [
  "yaml",
  "no-h1",
  "two-h1",
  "schema",
  "id-prefix",
  "timestamps",
  "not-utf8",
  "dangling",
  "duplicate-id",
  "self-edge",
  "duplicate-edge",
  "orphan-memo",
];

export interface GeneratedRecord {
  /** File name under records/. */
  readonly name: string;
  readonly bytes: Uint8Array;
}

type Kind = "source" | "inquiry" | "memo" | "zettel";

/** Record `index` of a kind: a v4-shaped uuid whose last group is the index, so ids are unique and sortable. */
export function generatedId(kind: Kind, index: number, series = 0): string {
  return `${kind}-00000000-0000-4000-8${series.toString(16).padStart(3, "0")}-${index.toString(16).padStart(12, "0")}`;
}


const WORDS = ["parser", "latency", "cache", "reviewer", "ledger", "boundary", "evidence", "schema", "record", "graph", "claim", "budget", "trace", "memo"];

function paragraph(next: () => number, words: number): string {
  const out: string[] = [];
  for (let index = 0; index < words; index += 1) out.push(WORDS[Math.floor(next() * WORDS.length)] as string);
  const text = out.join(" ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function body(next: () => number, title: string): string[] {
  const lines = [`# ${title}`, "", paragraph(next, 30 + Math.floor(next() * 60)), ""];
  if (next() < 0.3) lines.push("- " + paragraph(next, 8), "- " + paragraph(next, 10), "");
  // A fenced block with a `#` line inside: content, not a second heading.
  if (next() < 0.2) lines.push("```sh", "# not a heading", "docket notebook validate ~/notes", "```", "");
  lines.push(paragraph(next, 20 + Math.floor(next() * 40)), "");
  return lines;
}

interface Frontmatter {
  readonly kind: Kind;
  readonly id: string;
  readonly status: string;
  readonly title: string;
  readonly sources?: readonly string[];
  readonly lineage?: readonly (readonly [string, string])[];
  readonly relations?: readonly (readonly [string, string])[];
  readonly extra?: readonly string[];
  readonly created?: string;
  readonly modified?: string;
}

function frontmatterLines(fields: Frontmatter): string[] {
  const list = (key: string, items: readonly string[][]): string[] =>
    items.length === 0 ? [`${key}: []`] : [`${key}:`, ...items.flatMap((entry) => entry.map((line, position) => `${position === 0 ? "  - " : "    "}${line}`))];
  const lines = [
    "---",
    "observer_schema: observer-record/v1",
    `observer_type: ${fields.kind}`,
    `observer_status: ${fields.status}`,
    `id: ${fields.id}`,
    `title: ${fields.title}`,
    "lang: en",
    `created: "${fields.created ?? "2026-03-02T09:00:00Z"}"`,
    `modified: "${fields.modified ?? "2026-03-02T09:30:00Z"}"`,
    "tags: [notebook, generated]",
    "aliases: []",
    ...list("sources", (fields.sources ?? []).map((record) => [`record: ${record}`, "role: supports"])),
    ...list("lineage", (fields.lineage ?? []).map(([type, target]) => [`type: ${type}`, `target: ${target}`])),
    ...list("relations", (fields.relations ?? []).map(([type, target]) => [`type: ${type}`, `target: ${target}`])),
  ];
  if (fields.kind === "source") lines.push("source_kind: external-material", "external:", "  uri: https://example.test/handbook", "  revision: v2");
  if (fields.kind === "inquiry") lines.push("inquiry:", "  origin: user", `  original: Why does ${fields.title} matter?`, `  current: Why does ${fields.title} matter?`);
  lines.push(...(fields.extra ?? []), "---");
  return lines;
}

function recordText(fields: Frontmatter, next: () => number): string {
  return [...frontmatterLines(fields), ...body(next, fields.title)].join("\n");
}

export interface GeneratorOptions {
  readonly records: number;
  readonly seed?: number;
  /** Faults mixed in, each replacing or adding one record; spread over the notebook. */
  readonly faults?: readonly RecordFault[];
}

/**
 * A notebook of `records` files (plus one per duplicate-id fault). Types repeat in blocks of ten:
 * four sources, one inquiry, three memos (one promoted), two zettels, so every reference points
 * backwards at a record that exists.
 */
export function generateNotebookRecords(options: GeneratorOptions): GeneratedRecord[] {
  const next = random(options.seed ?? 1);
  const files: GeneratedRecord[] = [];
  const sources: string[] = [];
  const inquiries: string[] = [];
  const memos: string[] = [];
  const zettels: string[] = [];
  let pendingPromotion: string | undefined;
  for (let index = 0; index < options.records; index += 1) {
    const slot = index % 10;
    let fields: Frontmatter;
    const pick = (list: readonly string[]): string => list[Math.floor(next() * list.length)] as string;
    if (slot < 4 || sources.length === 0) {
      fields = { kind: "source", id: generatedId("source", index), status: "available", title: `Reading ${index}` };
      sources.push(fields.id);
    } else if (slot === 4) {
      fields = { kind: "inquiry", id: generatedId("inquiry", index), status: "open", title: `Question ${index}` };
      inquiries.push(fields.id);
    } else if (slot < 8 || memos.length === 0) {
      // The first memo of a block is promoted (its zettel follows in the same block); the others cite sources.
      const promoted = slot === 5 && index + 3 < options.records;
      const lineage: [string, string][] = inquiries.length > 0 && next() < 0.5 ? [["derived_from", pick(inquiries)]] : [];
      fields = { kind: "memo", id: generatedId("memo", index), status: promoted ? "promoted" : "incubating", title: `Working note ${index}`, sources: [pick(sources)], lineage };
      if (promoted) pendingPromotion = fields.id;
      memos.push(fields.id);
    } else {
      const lineage: [string, string][] = pendingPromotion !== undefined ? [["promoted_from", pendingPromotion]] : [["derived_from", pick(memos)]];
      pendingPromotion = undefined;
      const relations: [string, string][] = zettels.length > 0 ? [["related", pick(zettels)]] : [];
      fields = { kind: "zettel", id: generatedId("zettel", index), status: "mature", title: `Finished note ${index}`, sources: [pick(sources), pick(sources)].filter((value, position, all) => all.indexOf(value) === position), lineage, relations };
      zettels.push(fields.id);
    }
    files.push({ name: `${fields.id}.md`, bytes: Buffer.from(recordText(fields, next), "utf8") });
  }
  applyFaults(files, options.faults ?? [], next);
  return files;
}

function faultyRecord(fault: RecordFault, at: number, existingId: string, next: () => number): GeneratedRecord {
  const source = generatedId("source", at, 0xfff);
  const memo = generatedId("memo", at, 0xfff);
  const text = (fields: Frontmatter, edit: (lines: string[]) => string[] = (lines) => lines): Uint8Array =>
    Buffer.from(edit([...frontmatterLines(fields), ...body(next, fields.title)]).join("\n"), "utf8");
  const plainSource: Frontmatter = { kind: "source", id: source, status: "available", title: `Faulty ${at}` };
  switch (fault) {
    case "yaml":
      return { name: `${source}.md`, bytes: text(plainSource, (lines) => lines.map((line) => (line.startsWith("title:") ? "title: [unclosed" : line))) };
    case "no-h1":
      return { name: `${source}.md`, bytes: text(plainSource, (lines) => lines.filter((line) => !line.startsWith("# "))) };
    case "two-h1":
      return { name: `${source}.md`, bytes: text(plainSource, (lines) => [...lines, "# A second title", "", "More."]) };
    case "schema":
      return { name: `${source}.md`, bytes: text({ ...plainSource, status: "finished", extra: ["observer_color: red"] }) };
    case "id-prefix":
      return { name: `${source}.md`, bytes: text({ kind: "memo", id: source, status: "incubating", title: `Faulty ${at}`, sources: [existingId] }) };
    case "timestamps":
      return { name: `${source}.md`, bytes: text({ ...plainSource, created: "2026-05-01T00:00:00Z", modified: "2026-04-01T00:00:00Z" }) };
    case "not-utf8":
      return { name: `${source}.md`, bytes: Buffer.concat([Buffer.from(text(plainSource)), Buffer.from([0xc3, 0x28, 0x0a])]) };
    case "dangling":
      return { name: `${memo}.md`, bytes: text({ kind: "memo", id: memo, status: "incubating", title: `Faulty ${at}`, sources: [generatedId("source", at, 0xffe)] }) };
    case "duplicate-id":
      return { name: `zz-copy-${at}.md`, bytes: text({ kind: "source", id: existingId, status: "available", title: `Copy ${at}` }) };
    case "self-edge":
      return { name: `${memo}.md`, bytes: text({ kind: "memo", id: memo, status: "incubating", title: `Faulty ${at}`, sources: [existingId], relations: [["related", memo]] }) };
    case "duplicate-edge":
      return { name: `${memo}.md`, bytes: text({ kind: "memo", id: memo, status: "incubating", title: `Faulty ${at}`, sources: [existingId, existingId] }) };
    case "orphan-memo":
      return { name: `${memo}.md`, bytes: text({ kind: "memo", id: memo, status: "incubating", title: `Faulty ${at}` }) };
  }
}

function applyFaults(files: GeneratedRecord[], faults: readonly RecordFault[], next: () => number): void {
  faults.forEach((fault, position) => {
    const at = Math.floor(((position + 1) * files.length) / (faults.length + 1));
    const existing = /^(source-[0-9a-f-]+)\.md$/.exec(files.find((file, index) => index >= at && file.name.startsWith("source-"))?.name ?? files[0]?.name ?? "");
    files.push(faultyRecord(fault, at, existing?.[1] ?? generatedId("source", 0), next));
  });
}

/** Writes the records into `<root>/records/` (which must exist); returns their names. */
export function writeNotebookRecords(root: string, records: readonly GeneratedRecord[]): string[] {
  const folder = path.join(root, "records");
  for (const record of records) fs.writeFileSync(path.join(folder, record.name), record.bytes);
  return records.map((record) => record.name);
}
