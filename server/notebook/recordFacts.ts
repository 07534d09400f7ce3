// Phase A's answer for a record written the plain way, read straight from its frontmatter lines
// into the facts Phase B needs (id, type, status, sources, lineage, relations), for `docket
// notebook validate` (notebookValidation.ts; docs/performance.md, "Notebook validation cache").
// The general path builds the whole frontmatter mapping (simpleFrontmatter.ts or yaml), checks it
// against the schema (recordSchemaCheck.ts or ajv), builds the body text and freezes the record;
// on a cold 10,000-record Notebook that was about half of validate's time, most of it spent on
// values Phase B never reads.
//
// One-sided, like the schema pre-check: the facts come back only when the record certainly passes
// Phase A, and then they are the ones the general path gives; anything else — a key this reader
// does not know (custom keys included), a block list of tags, a nested value it does not expect,
// any value the schema or a record rule might refuse, a decoding or layout problem — answers
// `undefined`, and the general path runs and words the answer as before. So a narrower reader
// only costs time, never changes an answer.
//
// It reads a subset of simpleFrontmatter's subset, with that reader's own pieces (subsetLines,
// inlineValue: the same values for the same text; KEY_LINE is its keyEnd and valueAfter in one
// expression, as the test checks) and the schema pre-check's
// own leaf checks, the body check and the record rules of markdownProfile.ts and recordRules.ts.
// test/unit/notebookRecordFacts.test.ts holds it to yaml, ajv and the general path on fixtures,
// generated records, line edits and hostile texts.
import type { GraphRecord } from "./graphValidation";
import { bodyLines, checkBody, decodeUtf8, MAX_FRONTMATTER_BYTES, MAX_FRONTMATTER_KEYS, MAX_RECORD_BYTES, sectionBounds, usualBodyPasses } from "./markdownProfile";
import { recordRuleDiagnostics } from "./recordRules";
import { isBcp47, OBSERVER_RECORD_SCHEMA, RECORD_TYPES, STATUSES_BY_TYPE, type LineageRef, type ObserverRecord, type RecordType, type SemanticRelation, type SourceRef } from "./recordSchema";
import { CONTENT_HASH, dateTime, isUri, LINEAGE_TYPES, nonEmpty, RECORD_ID, RELATION_TYPES, SOURCE_ID, SOURCE_ROLES } from "./recordSchemaCheck";
import { emptyValues, EXTERNAL, isStringList, INQUIRY, OBSERVATION, orderedFrontmatterValues, RECORD_KEYS, REQUIRED_BITS, SOURCE_KIND, type Fields, type FrontmatterValues } from "./orderedFrontmatter";
import { DECLINE, decline, inlineString, inlineValue, subsetLines, type Line } from "./simpleFrontmatter";

/** What Phase B needs of a record that passed Phase A (the validation cache keeps the same). */
export type RecordFacts = Omit<GraphRecord, "path" | "sha256">;

/** The index of each top-level key this reader knows (RECORD_KEYS), for the switch of FactsReader.read. */
const KEY_INDEX: ReadonlyMap<string, number> = new Map(RECORD_KEYS.map((key, index) => [key, index]));

const SOURCE_FIELDS = ["record", "locator", "role"];
const EDGE_FIELDS = ["type", "target"];
const EXTERNAL_FIELDS = ["uri", "revision", "content_hash", "retrieval_context"];
const OBSERVATION_FIELDS = ["observed_at", "observed_by", "fact", "conditions", "interpretation_boundary"];
const INQUIRY_FIELDS = ["origin", "original", "current", "revision_reason"];

/**
 * A mapping key line as simpleFrontmatter's keyEnd and valueAfter read it: the key, then the value
 * after the colon and its spaces (none for `key:` alone). One native match instead of a scan by
 * character: most of this reader's time in a short process is spent before the engine optimises it.
 */
export const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]{0,255}):(?: +(.*))?$/;

/** The key and the value after it (undefined: the key alone), or DECLINE when `content` is no key line. */
function keyLine(content: string): RegExpExecArray {
  return KEY_LINE.exec(content) ?? decline();
}

function certainly(condition: boolean): void {
  if (!condition) decline();
}

/**
 * `value` in a string of its own. What this reader reads are slices of the record's text, and V8
 * keeps a slice's whole parent alive: the facts of 10,000 records, kept until Phase B, would keep
 * every record's text too, which a cold validate paid for in garbage collection (about 70 ms; the
 * texts are copied out of the young generation instead of dying in it). Concatenating flattens
 * into a new string; the slice of it keeps only that one.
 */
function detached(value: string): string {
  return ` ${value}`.slice(1);
}

class FactsReader {
  private position = 0;
  private keys = 0;

  constructor(private readonly lines: readonly Line[]) {}

  private countKey(): void {
    this.keys += 1;
    if (this.keys > MAX_FRONTMATTER_KEYS) decline();
  }

  /**
   * A mapping of one-line strings whose keys line up at `indent`: from the current line on, or, for
   * a sequence item (`- key: value`), from `first` (the item's text) and then the lines below it.
   * Only `allowed` keys, each once (the schema's objects are closed; a repeat is yaml's to refuse).
   */
  private fields(indent: number, allowed: readonly string[], first?: string): Fields {
    const fields: Fields = {};
    let content: string = first ?? this.lines[this.position]?.content ?? decline();
    for (;;) {
      const match = keyLine(content);
      const key = match[1] as string;
      const rest = match[2];
      if (!allowed.includes(key) || Object.hasOwn(fields, key)) decline();
      this.countKey();
      fields[key] = inlineString(rest);
      this.position += 1;
      const next: Line | undefined = this.lines[this.position];
      if (next === undefined || next.indent < indent) return fields;
      if (next.indent > indent) decline();
      content = next.content;
    }
  }

  /** A mapping below a top-level key written alone on its line. */
  private nested(rest: string | undefined, allowed: readonly string[]): Fields {
    if (rest !== undefined) decline();
    const next = this.lines[this.position];
    if (next === undefined || next.indent === 0 || next.content.startsWith("- ")) decline();
    return this.fields(next.indent, allowed);
  }

  /** `[]`, or a block sequence of mappings (`- key: value` items) below a top-level key written alone. */
  private items(rest: string | undefined, allowed: readonly string[]): Fields[] {
    if (rest !== undefined) return rest === "[]" ? [] : decline();
    const first = this.lines[this.position];
    if (first === undefined || !first.content.startsWith("- ")) decline();
    const indent = first.indent;
    const items: Fields[] = [];
    for (let line = this.lines[this.position]; line !== undefined && line.indent >= indent; line = this.lines[this.position]) {
      if (line.indent > indent || !line.content.startsWith("- ")) {
        // A sequence at indent 0 ends at the next top-level key, as in simpleFrontmatter.
        if (line.indent === indent && indent === 0 && KEY_LINE.test(line.content)) break;
        decline();
      }
      items.push(this.fields(indent + 2, allowed, line.content.slice(2)));
    }
    return items;
  }

  read(): FrontmatterValues {
    const values = emptyValues();
    while (this.position < this.lines.length) {
      const { indent, content } = this.lines[this.position] as Line;
      if (indent !== 0) decline();
      const match = keyLine(content);
      const key = match[1] as string;
      const rest = match[2];
      const keyIndex = KEY_INDEX.get(key);
      if (keyIndex === undefined || (values.seen & (1 << keyIndex)) !== 0) decline();
      values.seen |= 1 << keyIndex;
      this.countKey();
      this.position += 1;
      switch (keyIndex) {
        case 0: // observer_schema
          values.schema = inlineString(rest);
          break;
        case 1: // observer_type
          values.type = inlineString(rest);
          break;
        case 2: // observer_status
          values.status = inlineString(rest);
          break;
        case 3: // id
          values.id = inlineString(rest);
          break;
        case 4: // title
          values.title = inlineString(rest);
          break;
        case 5: // lang
          values.lang = inlineString(rest);
          break;
        case 6: // created
          values.created = inlineString(rest);
          break;
        case 7: // modified
          values.modified = inlineString(rest);
          break;
        case 8: // tags
          values.tagsListed = isStringList(rest === undefined ? decline() : inlineValue(rest));
          break;
        case 9: // aliases
          values.aliasesListed = isStringList(rest === undefined ? decline() : inlineValue(rest));
          break;
        case 10: // sources
          values.sources = this.items(rest, SOURCE_FIELDS);
          break;
        case 11: // lineage
          values.lineage = this.items(rest, EDGE_FIELDS);
          break;
        case 12: // relations
          values.relations = this.items(rest, EDGE_FIELDS);
          break;
        case 13: // source_kind
          values.sourceKind = inlineString(rest);
          break;
        case 14: // external
          values.external = this.nested(rest, EXTERNAL_FIELDS);
          break;
        case 15: // observation
          values.observation = this.nested(rest, OBSERVATION_FIELDS);
          break;
        default: // inquiry
          values.inquiry = this.nested(rest, INQUIRY_FIELDS);
      }
    }
    return values;
  }
}

/**
 * The record's facts and what the record rules read, when its frontmatter's values (as either
 * reader gives them) certainly pass the schema; DECLINE thrown otherwise.
 */
function certainFacts(values: FrontmatterValues): { facts: RecordFacts; rules: ObserverRecord } {
  const { seen, type, status, id, created, modified, sourceKind, external, observation, inquiry } = values;
  certainly((seen & REQUIRED_BITS) === REQUIRED_BITS && values.schema === OBSERVER_RECORD_SCHEMA && (RECORD_TYPES as readonly string[]).includes(type));
  const recordType = type as RecordType;
  certainly(STATUSES_BY_TYPE[recordType].includes(status) && RECORD_ID.test(id) && dateTime(created) && dateTime(modified));
  certainly(nonEmpty(values.title) && isBcp47(values.lang) && values.tagsListed && values.aliasesListed);
  const sources = values.sources.map(sourceRef);
  const lineage = values.lineage.map(lineageRef);
  const relations = values.relations.map(semanticRelation);
  const hasExternal = (seen & EXTERNAL) !== 0;
  const hasObservation = (seen & OBSERVATION) !== 0;
  const hasInquiry = (seen & INQUIRY) !== 0;
  const hasSourceKind = (seen & SOURCE_KIND) !== 0;
  if (hasExternal) certainly(externalMaterial(external));
  if (hasObservation) certainly(directObservation(observation));
  if (hasInquiry) certainly(inquiryFacts(inquiry));
  if (hasSourceKind) certainly(sourceKind === "external-material" || sourceKind === "direct-observation");
  if (recordType === "source") {
    certainly(!hasInquiry);
    certainly(sourceKind === "external-material" ? hasExternal && !hasObservation : sourceKind === "direct-observation" && hasObservation && !hasExternal);
  } else {
    certainly(!hasSourceKind && !hasExternal && !hasObservation && hasInquiry === (recordType === "inquiry"));
  }
  // What the record rules read; they run on it exactly as on the general path's frontmatter.
  // (`inquiry` is read only for an inquiry, which has the block.)
  const rules = { id, observer_type: recordType, created, modified, inquiry } as unknown as ObserverRecord;
  return { facts: { recordId: detached(id), type: detached(recordType) as RecordType, status: detached(status), record: { sources, lineage, relations } }, rules };
}

function sourceRef(fields: Fields): SourceRef {
  const { record, role, locator } = fields;
  certainly(record !== undefined && SOURCE_ID.test(record) && SOURCE_ROLES.has(role) && (locator === undefined || nonEmpty(locator)));
  const kept = { record: detached(record as string), role: detached(role as string) } as SourceRef;
  return locator === undefined ? kept : { record: kept.record, role: kept.role, locator: detached(locator) };
}

function edge(fields: Fields, types: ReadonlySet<unknown>): { type: string; target: string } {
  const { type, target } = fields;
  certainly(types.has(type) && target !== undefined && RECORD_ID.test(target));
  return { type: detached(type as string), target: detached(target as string) };
}

function lineageRef(fields: Fields): LineageRef {
  return edge(fields, LINEAGE_TYPES) as LineageRef;
}

function semanticRelation(fields: Fields): SemanticRelation {
  return edge(fields, RELATION_TYPES) as SemanticRelation;
}

function externalMaterial(fields: Fields): boolean {
  const { uri, revision, content_hash: contentHash, retrieval_context: context } = fields;
  return (
    Object.keys(fields).length >= 1 &&
    (uri === undefined || isUri(uri)) &&
    (contentHash === undefined || CONTENT_HASH.test(contentHash)) &&
    (revision === undefined || nonEmpty(revision)) &&
    (context === undefined || nonEmpty(context))
  );
}

function directObservation(fields: Fields): boolean {
  return (
    Object.keys(fields).length === OBSERVATION_FIELDS.length &&
    dateTime(fields.observed_at) &&
    nonEmpty(fields.observed_by) &&
    nonEmpty(fields.fact) &&
    nonEmpty(fields.conditions) &&
    nonEmpty(fields.interpretation_boundary)
  );
}

function inquiryFacts(fields: Fields): boolean {
  const { origin, original, current, revision_reason: reason } = fields;
  return (origin === "user" || origin === "observer") && nonEmpty(original) && nonEmpty(current) && (reason === undefined || nonEmpty(reason));
}

/**
 * The values the line reader gives for a frontmatter, or `undefined` when it declines; for the test
 * that holds orderedFrontmatterValues to it.
 */
export function frontmatterValuesByLine(frontmatterText: string): FrontmatterValues | undefined {
  const lines = subsetLines(frontmatterText);
  if (lines === undefined) return undefined;
  try {
    return new FactsReader(lines).read();
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  }
}

/**
 * The facts of the record in `bytes` when it certainly passes Phase A, else `undefined` (then the
 * general path, parseRecordMarkdown, must answer). Never throws.
 */
export function plainRecordFacts(bytes: Uint8Array): RecordFacts | undefined {
  if (bytes.byteLength > MAX_RECORD_BYTES) return undefined;
  try {
    const text = decodeUtf8("", bytes);
    if (!text.ok) return undefined;
    const sections = sectionBounds("", text.value);
    if (!sections.ok) return undefined;
    const { frontmatterText } = sections.value;
    // UTF-8 takes at most three bytes per UTF-16 unit: count them only when that could exceed the bound.
    if (frontmatterText.length * 3 > MAX_FRONTMATTER_BYTES && Buffer.byteLength(frontmatterText, "utf8") > MAX_FRONTMATTER_BYTES) return undefined;
    // The schema's order, as Docket's writers and the propose tool's description lay a record out,
    // in one match (orderedFrontmatter.ts); any other layout line by line, as simpleFrontmatter reads it.
    let values = orderedFrontmatterValues(frontmatterText);
    if (values === undefined) {
      const lines = subsetLines(frontmatterText);
      if (lines === undefined) return undefined;
      values = new FactsReader(lines).read();
    }
    const { facts, rules } = certainFacts(values);
    if (!(usualBodyPasses(sections.value) ?? checkBody("", bodyLines(sections.value)).ok)) return undefined;
    if (recordRuleDiagnostics("", rules).length > 0) return undefined;
    return facts;
  } catch {
    // A decline, or anything unforeseen: the general path answers, whatever it is.
    return undefined;
  }
}
