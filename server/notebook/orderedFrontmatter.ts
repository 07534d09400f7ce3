// The values of a record's frontmatter laid out the way Docket's writers, its fixtures and the
// propose tool's description lay one out — the schema's keys in the schema's order, one space after
// each colon, lists of edges as `  - key: value` blocks — read with one regular expression match
// instead of line by line (recordFacts.ts, docs/performance.md "Notebook validation cache"). On a
// cold `docket notebook validate` most records are read before V8 optimises the line reader, so
// what counts is how much JavaScript runs per record; here the structure is the engine's native
// match and JavaScript only reads the values it captured.
//
// It decides nothing: it gives the values the line reader (FactsReader in recordFacts.ts, over
// simpleFrontmatter's subsetLines) would give for the same text, and recordFacts.ts checks them
// the same way. A text in any other layout, or where any line might read otherwise (unusual
// characters, two spaces after a colon, a trailing space, quoting it does not expect, more lines
// than the key bound allows) is `undefined`, and the line reader reads it as before.
//
// Why the values are the same: every line of the layout is exactly one key line of the line
// reader's subset, at the indent that reader expects, with the key it expects, so each capture is
// that reader's `rest` of the line (the text after `: `). Captures of free text go through the
// same inlineString and inlineValue; the others are written in forms whose plain reading is the
// text itself (the schema's own words and record ids, which no core-schema tag turns into anything
// else: PLAIN_FIRST and NULL_OR_BOOLEAN_FIRST in simpleFrontmatter.ts) or in double quotes without
// `"` or `\` (the quoted text). test/unit/notebookOrderedFrontmatter.test.ts holds it to the line
// reader, value for value.
import { MAX_FRONTMATTER_KEYS } from "./markdownProfile";
import { STATUSES_BY_TYPE } from "./recordSchema";
import { LINEAGE_TYPES, nonEmpty, RELATION_TYPES, REQUIRED_TOP_LEVEL_KEYS, SOURCE_ROLES } from "./recordSchemaCheck";
import { inlineString, inlineValue, USUAL_VISIBLE_CHARACTERS } from "./simpleFrontmatter";

export type Fields = Record<string, string>;

/** The top-level keys the record facts readers know; a key's bit in FrontmatterValues.seen is 1 << its index. */
export const RECORD_KEYS = [...REQUIRED_TOP_LEVEL_KEYS, "source_kind", "external", "observation", "inquiry"] as const;
/** The schema's required keys: the first ones of RECORD_KEYS. */
export const REQUIRED_BITS = (1 << REQUIRED_TOP_LEVEL_KEYS.length) - 1;
export const SOURCE_KIND = 1 << RECORD_KEYS.indexOf("source_kind");
export const EXTERNAL = 1 << RECORD_KEYS.indexOf("external");
export const OBSERVATION = 1 << RECORD_KEYS.indexOf("observation");
export const INQUIRY = 1 << RECORD_KEYS.indexOf("inquiry");

/**
 * A frontmatter's values as yaml reads them, for the keys the record facts readers know: strings,
 * whether `tags` and `aliases` are what the schema asks, and each item of the edge lists as its
 * fields. The rest is not checked against the schema yet.
 */
export interface FrontmatterValues {
  /** The bits of the keys present (RECORD_KEYS). */
  seen: number;
  schema: string;
  type: string;
  status: string;
  id: string;
  title: string;
  lang: string;
  created: string;
  modified: string;
  /** Whether `tags` is a flow list of non-empty strings (`[]`, `[a, b]`). */
  tagsListed: boolean;
  aliasesListed: boolean;
  sources: Fields[];
  lineage: Fields[];
  relations: Fields[];
  sourceKind: string;
  external: Fields;
  observation: Fields;
  inquiry: Fields;
}

export function emptyValues(): FrontmatterValues {
  return {
    seen: 0,
    schema: "",
    type: "",
    status: "",
    id: "",
    title: "",
    lang: "",
    created: "",
    modified: "",
    tagsListed: false,
    aliasesListed: false,
    sources: [],
    lineage: [],
    relations: [],
    sourceKind: "",
    external: {},
    observation: {},
    inquiry: {},
  };
}

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";
const RECORD_ID = `(?:source|inquiry|memo|zettel)-${UUID}`;
/** A visible character the line reader reads (subsetLines refuses a frontmatter with any other). */
const VISIBLE = `[${USUAL_VISIBLE_CHARACTERS}]`;
/** One on a line: a visible character or a space. */
const ON_LINE = `[ ${USUAL_VISIBLE_CHARACTERS}]`;
/** One of the schema's words (statuses, roles, edge types: lowercase words none of which yaml reads as anything but that string). */
function oneOf(words: Iterable<unknown>): string {
  return [...new Set(words)].map(String).sort().join("|");
}
const STATUS = oneOf(Object.values(STATUSES_BY_TYPE).flat());
const ROLE = oneOf(SOURCE_ROLES);
const EDGE_TYPE = oneOf([...LINEAGE_TYPES, ...RELATION_TYPES]);
/** Free text after exactly one space: no space at either end (the line reader declines a trailing space). */
const TEXT = `(${VISIBLE}(?:${ON_LINE}*${VISIBLE})?)`;
/** A date-time of the usual form in double quotes (nothing to unescape: the quoted scalar is the text). */
const STAMP = '"([-0-9]{10}T[-+.:0-9Z]+)"';
/**
 * A flow list on its key's line: lowercase words (`[notebook, generated]`), which are non-empty
 * strings unless one is `null`, `true` or `false` (the only core-schema tags a lowercase word can
 * match), or else captured for inlineValue.
 */
const WORD = "(?!(?:null|true|false)[,\\]])[a-z][a-z0-9-]*";
const FLOW = `(?:\\[(?:${WORD}(?:, ${WORD})*)?\\]|(\\[${ON_LINE}*\\]))`;

/** A flow list of non-empty strings, as the schema asks of `tags` and `aliases`. */
export function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every(nonEmpty);
}

/** Whether a flow list written on its key's line is a list of non-empty strings: undefined (the words form) is. */
function listed(text: string | undefined): boolean {
  return text === undefined || isStringList(inlineValue(text));
}

function sourceItem(capture: boolean): string {
  const group = (pattern: string): string => (capture ? `(${pattern})` : `(?:${pattern})`);
  return `\\n  - record: ${group(`source-${UUID}`)}\\n    role: ${group(ROLE)}(?:\\n    locator: ${capture ? TEXT : TEXT.replace("(", "(?:")})?`;
}

function edgeItem(capture: boolean): string {
  const group = (pattern: string): string => (capture ? `(${pattern})` : `(?:${pattern})`);
  return `\\n  - type: ${group(EDGE_TYPE)}\\n    target: ${group(RECORD_ID)}`;
}

/** A block list at its key, or `[]` (then its group is undefined). */
function block(key: string, item: string): string {
  return `${key}:(?: \\[\\]|((?:${item})+))`;
}

const FIELD = (key: string): string => `(?:\\n  ${key}: ${TEXT})?`;

/** Groups: 1 type, 2 status, 3 id, 4 title, 5 lang, 6 created, 7 modified, 8 tags, 9 aliases, 10–12 the edge blocks, 13 source_kind, 14–17 external, 18–22 observation, 23–26 inquiry. */
const ORDERED_FRONTMATTER = new RegExp(
  [
    "^observer_schema: observer-record/v1",
    "\\nobserver_type: (source|inquiry|memo|zettel)",
    `\\nobserver_status: (${STATUS})`,
    `\\nid: (${RECORD_ID})`,
    `\\ntitle: ${TEXT}`,
    `\\nlang: ${TEXT}`,
    `\\ncreated: ${STAMP}`,
    `\\nmodified: ${STAMP}`,
    `\\ntags: ${FLOW}`,
    `\\naliases: ${FLOW}`,
    `\\n${block("sources", sourceItem(false))}`,
    `\\n${block("lineage", edgeItem(false))}`,
    `\\n${block("relations", edgeItem(false))}`,
    "(?:",
    "\\nsource_kind: (external-material|direct-observation)\\n(?:",
    `external:(?=\\n  )${FIELD("uri")}${FIELD("revision")}${FIELD("content_hash")}${FIELD("retrieval_context")}`,
    `|observation:\\n  observed_at: ${TEXT}\\n  observed_by: ${TEXT}\\n  fact: ${TEXT}\\n  conditions: ${TEXT}\\n  interpretation_boundary: ${TEXT}`,
    ")",
    `|\\ninquiry:\\n  origin: (user|observer)\\n  original: ${TEXT}\\n  current: ${TEXT}${FIELD("revision_reason")}`,
    ")?$",
  ].join(""),
  // Code points, so the usual characters are those of subsetLines' test, astral ones included.
  "u",
);
const SOURCE_ITEM = new RegExp(sourceItem(true), "uy");
const EDGE_ITEM = new RegExp(edgeItem(true), "uy");

/**
 * Every line of the layout is one key line of at least 8 characters with its line break (`lang: x`),
 * so a shorter text holds at most MAX_FRONTMATTER_KEYS keys; a longer one is left to the line reader, which counts them.
 */
const MAX_TEXT_LENGTH = 8 * MAX_FRONTMATTER_KEYS;

function sourceItems(text: string | undefined): Fields[] {
  if (text === undefined) return [];
  const items: Fields[] = [];
  SOURCE_ITEM.lastIndex = 0;
  while (SOURCE_ITEM.lastIndex < text.length) {
    const match = SOURCE_ITEM.exec(text);
    // Unreachable: the whole match parsed the same block into these items.
    if (match === null) return [{}];
    const locator = match[3];
    items.push(locator === undefined ? { record: match[1] as string, role: match[2] as string } : { record: match[1] as string, role: match[2] as string, locator: inlineString(locator) });
  }
  return items;
}

function edgeItems(text: string | undefined): Fields[] {
  if (text === undefined) return [];
  const items: Fields[] = [];
  EDGE_ITEM.lastIndex = 0;
  while (EDGE_ITEM.lastIndex < text.length) {
    const match = EDGE_ITEM.exec(text);
    if (match === null) return [{}];
    items.push({ type: match[1] as string, target: match[2] as string });
  }
  return items;
}

/** The fields of the optional lines that were there, each read as a string. */
function externalFields(uri: string | undefined, revision: string | undefined, contentHash: string | undefined, context: string | undefined): Fields {
  const fields: Fields = {};
  if (uri !== undefined) fields.uri = inlineString(uri);
  if (revision !== undefined) fields.revision = inlineString(revision);
  if (contentHash !== undefined) fields.content_hash = inlineString(contentHash);
  if (context !== undefined) fields.retrieval_context = inlineString(context);
  return fields;
}

/** What an absent block reads as (never written to). */
const NO_FIELDS: Fields = Object.freeze({}) as Fields;

/**
 * The values of a frontmatter (the text between the delimiters, line endings `\n`) in the ordered
 * layout, or `undefined` when it is laid out otherwise. Throws DECLINE (simpleFrontmatter.ts) when
 * a free-text value is not a one-line string, as the line reader does.
 */
export function orderedFrontmatterValues(text: string): FrontmatterValues | undefined {
  if (text.length >= MAX_TEXT_LENGTH) return undefined;
  // Every character the match accepts is one subsetLines accepts: a line break, the layout's own
  // ASCII or a usual character of a value (VISIBLE, ON_LINE), so its test need not run again.
  const match = ORDERED_FRONTMATTER.exec(text);
  if (match === null) return undefined;
  let seen = REQUIRED_BITS;
  let external = NO_FIELDS;
  let observation = NO_FIELDS;
  let inquiry = NO_FIELDS;
  const sourceKind = match[13];
  if (sourceKind !== undefined) {
    const observedAt = match[18];
    if (observedAt === undefined) {
      seen |= SOURCE_KIND | EXTERNAL;
      external = externalFields(match[14], match[15], match[16], match[17]);
    } else {
      seen |= SOURCE_KIND | OBSERVATION;
      observation = {
        observed_at: inlineString(observedAt),
        observed_by: inlineString(match[19]),
        fact: inlineString(match[20]),
        conditions: inlineString(match[21]),
        interpretation_boundary: inlineString(match[22]),
      };
    }
  } else if (match[23] !== undefined) {
    seen |= INQUIRY;
    inquiry = { origin: match[23], original: inlineString(match[24]), current: inlineString(match[25]) };
    if (match[26] !== undefined) inquiry.revision_reason = inlineString(match[26]);
  }
  return {
    seen,
    schema: "observer-record/v1",
    type: match[1] as string,
    status: match[2] as string,
    id: match[3] as string,
    title: inlineString(match[4]),
    lang: inlineString(match[5]),
    created: match[6] as string,
    modified: match[7] as string,
    tagsListed: listed(match[8]),
    aliasesListed: listed(match[9]),
    sources: sourceItems(match[10]),
    lineage: edgeItems(match[11]),
    relations: edgeItems(match[12]),
    sourceKind: sourceKind ?? "",
    external,
    observation,
    inquiry,
  };
}
