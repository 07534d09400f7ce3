// The observer-record/v1 frontmatter contract as a JSON Schema 2020-12 value, validated with ajv.
// The keyword layout (which conditionals nest where, in which order) decides which errors ajv
// reports and in what order, so it follows the published v1 layout: Notebooks and their
// diagnostics must match the reference Observer's for the same file.
import type { FrontmatterValidator } from "./recordSchemaValidator";
import { notebookDiagnostic, type NotebookDiagnostic } from "./diagnostics";

export const OBSERVER_RECORD_SCHEMA = "observer-record/v1";
export const OBSERVER_RECORD_SCHEMA_ID = "urn:hobin:observer:record:v1";

export type RecordType = "source" | "inquiry" | "memo" | "zettel";
export type SourceRole = "supports" | "challenges" | "context" | "example";
export type LineageType = "derived_from" | "promoted_from" | "merged_from" | "split_from" | "supersedes";
export type RelationType = "supports" | "contradicts" | "refines" | "extends" | "applies_to" | "distinguishes" | "alternative_to" | "related";

export const RECORD_TYPES: readonly RecordType[] = ["source", "inquiry", "memo", "zettel"];
export const STATUSES_BY_TYPE: Readonly<Record<RecordType, readonly string[]>> = {
  source: ["available", "unavailable", "superseded"],
  inquiry: ["open", "dormant", "resolved", "retired"],
  memo: ["incubating", "promoted", "superseded", "retired"],
  zettel: ["mature", "superseded", "retired"],
};
const SOURCE_ROLES: readonly SourceRole[] = ["supports", "challenges", "context", "example"];
const LINEAGE_TYPES: readonly LineageType[] = ["derived_from", "promoted_from", "merged_from", "split_from", "supersedes"];
const RELATION_TYPES: readonly RelationType[] = ["supports", "contradicts", "refines", "extends", "applies_to", "distinguishes", "alternative_to", "related"];
const DEFINED_OBSERVER_KEYS = ["observer_schema", "observer_type", "observer_status"];

export interface SourceRef {
  readonly record: string;
  readonly role: SourceRole;
  readonly locator?: string;
}
export interface LineageRef {
  readonly type: LineageType;
  readonly target: string;
}
export interface SemanticRelation {
  readonly type: RelationType;
  readonly target: string;
}
export interface InquiryFacts {
  readonly origin: "user" | "observer";
  readonly original: string;
  readonly current: string;
  readonly revision_reason?: string;
}

/** A frontmatter value that passed the schema; custom keys ride along untouched. */
export interface ObserverRecord {
  readonly observer_schema: typeof OBSERVER_RECORD_SCHEMA;
  readonly observer_type: RecordType;
  readonly observer_status: string;
  readonly id: string;
  readonly title: string;
  readonly lang: string;
  readonly created: string;
  readonly modified: string;
  readonly tags: readonly string[];
  readonly aliases: readonly string[];
  readonly sources: readonly SourceRef[];
  readonly lineage: readonly LineageRef[];
  readonly relations: readonly SemanticRelation[];
  readonly source_kind?: "external-material" | "direct-observation";
  readonly inquiry?: InquiryFacts;
  readonly [custom: string]: unknown;
}

const UUID_V4 = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";
const ref = (name: string): { $ref: string } => ({ $ref: `#/$defs/${name}` });
const arrayOf = (name: string): object => ({ type: "array", items: ref(name) });
const dateTime = { type: "string", format: "date-time" };
/** "Key present" as a schema, for the mutual exclusions between type-specific blocks. */
const present = (key: string): object => ({ properties: { [key]: true }, required: [key] });
const typeIs = (type: RecordType): object => ({ properties: { observer_type: { const: type } }, required: ["observer_type"] });
const statusIn = (type: RecordType): object => ({ properties: { observer_status: { enum: STATUSES_BY_TYPE[type] } } });
const closedObject = (required: readonly string[], properties: Record<string, object>, extra: object = {}): object => ({
  type: "object",
  ...(required.length > 0 ? { required } : {}),
  ...extra,
  properties,
  additionalProperties: false,
});

export const observerRecordSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: OBSERVER_RECORD_SCHEMA_ID,
  title: "observer-record/v1 frontmatter",
  type: "object",
  required: ["observer_schema", "observer_type", "observer_status", "id", "title", "lang", "created", "modified", "tags", "aliases", "sources", "lineage", "relations"],
  properties: {
    observer_schema: { const: OBSERVER_RECORD_SCHEMA },
    observer_type: { enum: RECORD_TYPES },
    observer_status: { type: "string" },
    id: ref("recordId"),
    title: ref("nonEmptyString"),
    lang: { type: "string", format: "bcp47" },
    created: dateTime,
    modified: dateTime,
    tags: arrayOf("nonEmptyString"),
    aliases: arrayOf("nonEmptyString"),
    sources: arrayOf("sourceRef"),
    lineage: arrayOf("lineageRef"),
    relations: arrayOf("semanticRelation"),
    source_kind: { enum: ["external-material", "direct-observation"] },
    external: ref("externalMaterial"),
    observation: ref("directObservation"),
    inquiry: ref("inquiryFacts"),
  },
  // Custom keys are the user's; only the observer_ namespace is reserved.
  propertyNames: { anyOf: [{ enum: DEFINED_OBSERVER_KEYS }, { not: { pattern: "^observer_" } }] },
  additionalProperties: true,
  allOf: [
    {
      if: typeIs("source"),
      then: {
        required: ["source_kind"],
        ...statusIn("source"),
        allOf: [
          {
            if: { properties: { source_kind: { const: "external-material" } }, required: ["source_kind"] },
            then: { required: ["external"], not: present("observation") },
          },
          {
            if: { properties: { source_kind: { const: "direct-observation" } }, required: ["source_kind"] },
            then: { required: ["observation"], not: present("external") },
          },
        ],
      },
      else: { not: { anyOf: [present("source_kind"), present("external"), present("observation")] } },
    },
    { if: typeIs("inquiry"), then: { required: ["inquiry"], ...statusIn("inquiry") }, else: { not: present("inquiry") } },
    { if: typeIs("memo"), then: statusIn("memo") },
    { if: typeIs("zettel"), then: statusIn("zettel") },
  ],
  $defs: {
    nonEmptyString: { type: "string", pattern: "\\S" },
    recordId: { type: "string", pattern: `^(source|inquiry|memo|zettel)-${UUID_V4}$` },
    sourceId: { type: "string", pattern: `^source-${UUID_V4}$` },
    sourceRef: closedObject(["record", "role"], { record: ref("sourceId"), locator: ref("nonEmptyString"), role: { enum: SOURCE_ROLES } }),
    lineageRef: closedObject(["type", "target"], { type: { enum: LINEAGE_TYPES }, target: ref("recordId") }),
    semanticRelation: closedObject(["type", "target"], { type: { enum: RELATION_TYPES }, target: ref("recordId") }),
    externalMaterial: closedObject(
      [],
      {
        uri: { type: "string", format: "uri" },
        revision: ref("nonEmptyString"),
        content_hash: { type: "string", pattern: "^sha256:[0-9a-f]{64}$" },
        retrieval_context: ref("nonEmptyString"),
      },
      { minProperties: 1 },
    ),
    directObservation: closedObject(["observed_at", "observed_by", "fact", "conditions", "interpretation_boundary"], {
      observed_at: dateTime,
      observed_by: ref("nonEmptyString"),
      fact: ref("nonEmptyString"),
      conditions: ref("nonEmptyString"),
      interpretation_boundary: ref("nonEmptyString"),
    }),
    inquiryFacts: closedObject(["origin", "original", "current"], {
      origin: { enum: ["user", "observer"] },
      original: ref("nonEmptyString"),
      current: ref("nonEmptyString"),
      revision_reason: ref("nonEmptyString"),
    }),
  },
} as const;

/** Tags already judged: a notebook uses a handful of languages, and asking ICU costs about 10 µs a record. */
const bcp47Answers = new Map<string, boolean>();
const BCP47_ANSWERS_LIMIT = 1_024;

/** bcp47 as the reference defines it: ICU accepts the tag and canonicalises it to exactly one locale. */
export function isBcp47(value: string): boolean {
  const known = bcp47Answers.get(value);
  if (known !== undefined) return known;
  let answer: boolean;
  try {
    answer = Intl.getCanonicalLocales(value).length === 1;
  } catch {
    answer = false;
  }
  if (bcp47Answers.size < BCP47_ANSWERS_LIMIT) bcp47Answers.set(value, answer);
  return answer;
}

let compiled: FrontmatterValidator | undefined;

// Loaded and compiled on first use: ajv code generation is the costly part, and a notebook whose
// records all pass recordSchemaCheck.ts never needs it. Its own module, so the validate bundle can
// leave ajv out until then (scripts/build.mjs).
function validator(): FrontmatterValidator {
  if (compiled === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    compiled = (require("./recordSchemaValidator") as typeof import("./recordSchemaValidator")).compileRecordSchemaValidator(observerRecordSchema, isBcp47);
  }
  return compiled;
}

/**
 * One `schema.invalid` per ajv error. The pointer is the instance path; a propertyNames failure
 * names the offending key, as the reference does (its other errors, additionalProperties
 * included, point at the object that holds the key), and the document root has no pointer.
 */
export function schemaDiagnostics(path: string, frontmatter: Record<string, unknown>): NotebookDiagnostic[] {
  const validate = validator();
  if (validate(frontmatter)) return [];
  const recordId = typeof frontmatter.id === "string" ? frontmatter.id : undefined;
  return (validate.errors ?? []).map((error) => {
    const propertyName = typeof error.params.propertyName === "string" ? error.params.propertyName : undefined;
    const pointer = propertyName !== undefined ? `${error.instancePath}/${propertyName}` : error.instancePath === "" ? undefined : error.instancePath;
    return notebookDiagnostic({
      phase: "schema",
      code: "schema.invalid",
      path,
      pointer,
      recordId,
      message: `Frontmatter ${pointer ?? "(root)"} ${error.message ?? "does not match observer-record/v1"}.`,
    });
  });
}
