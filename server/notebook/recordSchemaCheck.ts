// "Does this frontmatter certainly pass observer-record/v1?", answered without ajv. Compiling the
// schema costs about 120 ms per process and checking each record about 35 µs; a notebook of valid
// records needs neither, because a record that passes produces no schema diagnostic at all.
//
// The check is one-sided: `true` only when every keyword of the schema (recordSchema.ts) holds,
// using the very same format functions (ajv-formats' date-time and uri, isBcp47) and the same
// patterns with the same `u` flag; `false` whenever anything is off or unusual, and then ajv runs
// and words the diagnostics exactly as before. A `false` for a valid record only costs time; a
// `true` for an invalid one would hide its diagnostics, so test/unit/notebookValidationCache.test.ts
// holds this check to ajv's verdict on every record fixture and on mutations of them. The record
// facts reader (recordFacts.ts) applies the same leaf checks, exported here, as it reads.
import { fullFormats } from "ajv-formats/dist/formats";
import { isBcp47, OBSERVER_RECORD_SCHEMA, RECORD_TYPES, STATUSES_BY_TYPE, type RecordType } from "./recordSchema";

const UUID_V4 = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";
export const RECORD_ID = new RegExp(`^(source|inquiry|memo|zettel)-${UUID_V4}$`, "u");
export const SOURCE_ID = new RegExp(`^source-${UUID_V4}$`, "u");
const NON_EMPTY = /\S/u;
export const CONTENT_HASH = /^sha256:[0-9a-f]{64}$/u;
export const SOURCE_ROLES: ReadonlySet<unknown> = new Set(["supports", "challenges", "context", "example"]);
export const LINEAGE_TYPES: ReadonlySet<unknown> = new Set(["derived_from", "promoted_from", "merged_from", "split_from", "supersedes"]);
export const RELATION_TYPES: ReadonlySet<unknown> = new Set(["supports", "contradicts", "refines", "extends", "applies_to", "distinguishes", "alternative_to", "related"]);
const DEFINED_OBSERVER_KEYS: ReadonlySet<string> = new Set(["observer_schema", "observer_type", "observer_status"]);
/** The keys every record's frontmatter has, in the order the schema lists them. */
export const REQUIRED_TOP_LEVEL_KEYS = [
  "observer_schema",
  "observer_type",
  "observer_status",
  "id",
  "title",
  "lang",
  "created",
  "modified",
  "tags",
  "aliases",
  "sources",
  "lineage",
  "relations",
] as const;
const TOP_LEVEL_KEYS: ReadonlySet<string> = new Set(REQUIRED_TOP_LEVEL_KEYS);

type StringCheck = (value: string) => boolean;

function formatCheck(name: "date-time" | "date" | "time" | "uri"): StringCheck {
  const format: unknown = fullFormats[name];
  if (typeof format === "function") return format as StringCheck;
  if (typeof format === "object" && format !== null && "validate" in format && typeof format.validate === "function") return format.validate as StringCheck;
  // Unreachable with the ajv-formats Docket ships; a check that never passes keeps ajv the judge.
  return () => false;
}

const isDateTimeBySplit = formatCheck("date-time");
const isFullDate = formatCheck("date");
const isFullTime = formatCheck("time");

/**
 * A date-time written the usual way: its only `t`, `T` or white space is the `T` after the date
 * (the rest is digits, `-`, `:`, `.`, `Z`, `+`), so ajv-formats' date-time function, which splits
 * at every /t|\s/i and checks the two parts with its date and time functions, would check exactly
 * the text before and after that `T`: the same two functions do, without the split (a regular
 * expression split costs more than both checks, and validate makes two or three a record).
 */
const USUAL_DATE_TIME = /^[-0-9]{10}T[-+.:0-9Z]+$/;

function isDateTime(value: string): boolean {
  if (USUAL_DATE_TIME.test(value)) return isFullDate(value.slice(0, 10)) && isFullTime(value.slice(11));
  return isDateTimeBySplit(value);
}
export const isUri = formatCheck("uri");

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function nonEmpty(value: unknown): boolean {
  return typeof value === "string" && NON_EMPTY.test(value);
}

export function dateTime(value: unknown): boolean {
  return typeof value === "string" && isDateTime(value);
}

/** Only `allowed` keys, every `required` one present. */
function closedKeys(value: Record<string, unknown>, allowed: readonly string[], required: readonly string[]): boolean {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) return false;
  return required.every((key) => Object.hasOwn(value, key));
}

function everyItem(value: unknown, check: (item: unknown) => boolean): boolean {
  return Array.isArray(value) && value.every(check);
}

function sourceRef(item: unknown): boolean {
  return (
    isObject(item) &&
    closedKeys(item, ["record", "locator", "role"], ["record", "role"]) &&
    typeof item.record === "string" &&
    SOURCE_ID.test(item.record) &&
    SOURCE_ROLES.has(item.role) &&
    (!Object.hasOwn(item, "locator") || nonEmpty(item.locator))
  );
}

function edge(types: ReadonlySet<unknown>): (item: unknown) => boolean {
  return (item) => isObject(item) && closedKeys(item, ["type", "target"], ["type", "target"]) && types.has(item.type) && typeof item.target === "string" && RECORD_ID.test(item.target);
}

const lineageEdge = edge(LINEAGE_TYPES);
const relationEdge = edge(RELATION_TYPES);

function externalMaterial(value: unknown): boolean {
  if (!isObject(value) || !closedKeys(value, ["uri", "revision", "content_hash", "retrieval_context"], []) || Object.keys(value).length < 1) return false;
  if (Object.hasOwn(value, "uri") && !(typeof value.uri === "string" && isUri(value.uri))) return false;
  if (Object.hasOwn(value, "content_hash") && !(typeof value.content_hash === "string" && CONTENT_HASH.test(value.content_hash))) return false;
  return (!Object.hasOwn(value, "revision") || nonEmpty(value.revision)) && (!Object.hasOwn(value, "retrieval_context") || nonEmpty(value.retrieval_context));
}

function directObservation(value: unknown): boolean {
  const keys = ["observed_at", "observed_by", "fact", "conditions", "interpretation_boundary"];
  return (
    isObject(value) &&
    closedKeys(value, keys, keys) &&
    dateTime(value.observed_at) &&
    nonEmpty(value.observed_by) &&
    nonEmpty(value.fact) &&
    nonEmpty(value.conditions) &&
    nonEmpty(value.interpretation_boundary)
  );
}

function inquiryFacts(value: unknown): boolean {
  return (
    isObject(value) &&
    closedKeys(value, ["origin", "original", "current", "revision_reason"], ["origin", "original", "current"]) &&
    (value.origin === "user" || value.origin === "observer") &&
    nonEmpty(value.original) &&
    nonEmpty(value.current) &&
    (!Object.hasOwn(value, "revision_reason") || nonEmpty(value.revision_reason))
  );
}

/** The type-specific blocks: each allowed only on its type, required where the schema requires it. */
function typeBlocks(frontmatter: Record<string, unknown>, type: RecordType): boolean {
  const has = (key: string): boolean => Object.hasOwn(frontmatter, key);
  if (has("external") && !externalMaterial(frontmatter.external)) return false;
  if (has("observation") && !directObservation(frontmatter.observation)) return false;
  if (has("inquiry") && !inquiryFacts(frontmatter.inquiry)) return false;
  if (has("source_kind") && frontmatter.source_kind !== "external-material" && frontmatter.source_kind !== "direct-observation") return false;
  // The schema's `if inquiry … else not inquiry` holds for a source too.
  if (type === "source") {
    if (has("inquiry")) return false;
    if (frontmatter.source_kind === "external-material") return has("external") && !has("observation");
    if (frontmatter.source_kind === "direct-observation") return has("observation") && !has("external");
    return false;
  }
  if (has("source_kind") || has("external") || has("observation")) return false;
  return type === "inquiry" ? has("inquiry") : !has("inquiry");
}

export function certainlyMatchesRecordSchema(frontmatter: Record<string, unknown>): boolean {
  for (const key of TOP_LEVEL_KEYS) if (!Object.hasOwn(frontmatter, key)) return false;
  for (const key of Object.keys(frontmatter)) if (key.startsWith("observer_") && !DEFINED_OBSERVER_KEYS.has(key)) return false;
  const type = frontmatter.observer_type;
  if (frontmatter.observer_schema !== OBSERVER_RECORD_SCHEMA || typeof type !== "string" || !(RECORD_TYPES as readonly string[]).includes(type)) return false;
  const recordType = type as RecordType;
  const status = frontmatter.observer_status;
  if (typeof status !== "string" || !STATUSES_BY_TYPE[recordType].includes(status)) return false;
  if (typeof frontmatter.id !== "string" || !RECORD_ID.test(frontmatter.id)) return false;
  if (!nonEmpty(frontmatter.title) || typeof frontmatter.lang !== "string" || !isBcp47(frontmatter.lang)) return false;
  if (!dateTime(frontmatter.created) || !dateTime(frontmatter.modified)) return false;
  if (!everyItem(frontmatter.tags, nonEmpty) || !everyItem(frontmatter.aliases, nonEmpty)) return false;
  if (!everyItem(frontmatter.sources, sourceRef) || !everyItem(frontmatter.lineage, lineageEdge) || !everyItem(frontmatter.relations, relationEdge)) return false;
  return typeBlocks(frontmatter, recordType);
}
