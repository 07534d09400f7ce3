// The context basis an interpretation is bound to (`observer-context-basis/v1`), carried by every
// semantic observation. It names the question, the selected evidence members and their coverage;
// its `basis_sha256` is recomputed on decode over Judgment canonical JSON (server/judgment/json.ts,
// the collation-ordered form the reference hashes), so an edited basis never decodes. Relations
// are read leniently (unknown keys are dropped, as the reference does) but hashed as normalised.
import { compareText, jsonValueFromUnknown, sha256, type JsonValue } from "../judgment/json";
import { hasKeysExactly, isRecord } from "./observerValues";

export const CONTEXT_BASIS_PROTOCOL = "observer-context-basis/v1";

interface Relation {
  readonly needId: string;
  readonly basisIds: readonly string[];
  readonly assurance: "agent-asserted" | "domain-verified" | "user-accepted";
  readonly evaluator?: { readonly id: string; readonly version: string };
  readonly evidenceIds?: readonly string[];
  readonly userEventId?: string;
}

interface Applicability extends Relation {
  readonly status: "required" | "not-required";
  readonly rationale: string;
}

interface Conflict {
  readonly needId: string;
  readonly basisIds: readonly string[];
  readonly description: string;
}

export interface ContextCoverage {
  readonly questionId: string;
  readonly sealedContextSha256: string;
  readonly needApplicability: readonly Applicability[];
  readonly claims: readonly Relation[];
  readonly missing: readonly string[];
  readonly conflicts: readonly Conflict[];
  readonly coverageSha256: string;
}

export interface ContextBasis {
  readonly contractSha256: string;
  readonly questionId: string;
  readonly selectionSha256: string;
  readonly inputSha256: string;
  readonly selectedSourceIds: readonly string[];
  readonly coverage: ContextCoverage;
  readonly basisSha256: string;
}

const SHA = /^[a-f0-9]{64}$/u;

/**
 * Collation order of each key list seen, by the list as it came: Judgment canonical JSON sorts
 * every object's keys with the ICU collator, which is slow, while Observer values repeat a few
 * shapes over and over. Sorting one sequence always gives the same result, so a remembered order
 * is the order sorting would give (ties included). Bounded, in case a log brings many shapes.
 */
const collatedKeyOrders = new Map<string, readonly string[]>();
const COLLATED_KEY_ORDERS_LIMIT = 1_000;

function collatedKeys(record: { readonly [key: string]: JsonValue }): readonly string[] {
  const keys = Object.keys(record);
  const signature = JSON.stringify(keys);
  const known = collatedKeyOrders.get(signature);
  if (known !== undefined) return known;
  const sorted = keys.sort(compareText);
  if (collatedKeyOrders.size < COLLATED_KEY_ORDERS_LIMIT) collatedKeyOrders.set(signature, sorted);
  return sorted;
}

/** Judgment canonical JSON (server/judgment/json.ts `canonicalJson`), the same text, with key orders remembered. */
function collatedJson(value: JsonValue): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${(value as readonly JsonValue[]).map(collatedJson).join(",")}]`;
  const record = value as { readonly [key: string]: JsonValue };
  return `{${collatedKeys(record)
    .map((key) => `${JSON.stringify(key)}:${collatedJson(record[key] as JsonValue)}`)
    .join(",")}}`;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 && value.trim() === value ? value : null;
}

function digest(value: unknown): string | null {
  const candidate = text(value);
  return candidate !== null && SHA.test(candidate) ? candidate : null;
}

function textList(value: unknown, allowEmpty: boolean): string[] | null {
  if (!Array.isArray(value) || (!allowEmpty && value.length === 0)) return null;
  const result: string[] = [];
  for (const item of value as readonly unknown[]) {
    const entry = text(item);
    if (entry === null || result.includes(entry)) return null;
    result.push(entry);
  }
  return result;
}

function readRelation(value: unknown): Relation | null {
  if (!isRecord(value)) return null;
  const needId = text(value.needId);
  const basisIds = textList(value.basisIds, true);
  if (needId === null || basisIds === null) return null;
  switch (value.assurance) {
    case "agent-asserted":
      return { needId, basisIds, assurance: "agent-asserted" };
    case "domain-verified": {
      const evaluator = value.evaluator;
      if (!isRecord(evaluator) || !hasKeysExactly(evaluator, ["id", "version"])) return null;
      const id = text(evaluator.id);
      const version = text(evaluator.version);
      const evidenceIds = textList(value.evidenceIds, false);
      if (id === null || version === null || evidenceIds === null) return null;
      return { needId, basisIds, assurance: "domain-verified", evaluator: { id, version }, evidenceIds };
    }
    case "user-accepted": {
      const userEventId = text(value.userEventId);
      return userEventId === null ? null : { needId, basisIds, assurance: "user-accepted", userEventId };
    }
    default:
      return null;
  }
}

function readApplicability(value: unknown): Applicability | null {
  const relation = readRelation(value);
  if (relation === null || !isRecord(value)) return null;
  const rationale = text(value.rationale);
  if ((value.status !== "required" && value.status !== "not-required") || rationale === null) return null;
  return { ...relation, status: value.status, rationale };
}

function readConflict(value: unknown): Conflict | null {
  if (!isRecord(value) || !hasKeysExactly(value, ["needId", "basisIds", "description"])) return null;
  const needId = text(value.needId);
  const basisIds = textList(value.basisIds, false);
  const description = text(value.description);
  return needId !== null && basisIds !== null && description !== null ? { needId, basisIds, description } : null;
}

function readAll<Value>(values: readonly unknown[], read: (value: unknown) => Value | null): Value[] | null {
  const result: Value[] = [];
  for (const value of values) {
    const item = read(value);
    if (item === null) return null;
    result.push(item);
  }
  return result;
}

const COVERAGE_KEYS = ["question_id", "sealed_context_sha256", "need_applicability", "claims", "missing", "conflicts", "coverage_sha256"];
const BASIS_KEYS = ["observer_context_basis", "contract_sha256", "question_id", "selection_sha256", "input_sha256", "selected_source_ids", "coverage", "basis_sha256"];

function readCoverage(value: unknown): ContextCoverage | null {
  if (!isRecord(value) || !hasKeysExactly(value, COVERAGE_KEYS)) return null;
  if (!Array.isArray(value.need_applicability) || !Array.isArray(value.claims) || !Array.isArray(value.conflicts)) return null;
  const questionId = text(value.question_id);
  const sealedContextSha256 = digest(value.sealed_context_sha256);
  const coverageSha256 = digest(value.coverage_sha256);
  const missing = textList(value.missing, true);
  const needApplicability = readAll(value.need_applicability as readonly unknown[], readApplicability);
  const claims = readAll(value.claims as readonly unknown[], readRelation);
  const conflicts = readAll(value.conflicts as readonly unknown[], readConflict);
  if (questionId === null || sealedContextSha256 === null || coverageSha256 === null || missing === null || needApplicability === null || claims === null || conflicts === null) {
    return null;
  }
  return { questionId, sealedContextSha256, needApplicability, claims, missing, conflicts, coverageSha256 };
}

/** A relation in its wire order: need, basis, assurance, then the assurance's own fields. */
function relationWire(relation: Relation): Record<string, JsonValue> {
  const wire: Record<string, JsonValue> = { needId: relation.needId, basisIds: [...relation.basisIds], assurance: relation.assurance };
  if (relation.assurance === "domain-verified" && relation.evaluator !== undefined && relation.evidenceIds !== undefined) {
    wire.evaluator = { id: relation.evaluator.id, version: relation.evaluator.version };
    wire.evidenceIds = [...relation.evidenceIds];
  } else if (relation.assurance === "user-accepted" && relation.userEventId !== undefined) {
    wire.userEventId = relation.userEventId;
  }
  return wire;
}

/** The basis as written on the wire (fixed key order), without `basis_sha256`. */
function basisWire(basis: Omit<ContextBasis, "basisSha256">): Record<string, JsonValue> {
  const coverage = basis.coverage;
  return {
    observer_context_basis: CONTEXT_BASIS_PROTOCOL,
    contract_sha256: basis.contractSha256,
    question_id: basis.questionId,
    selection_sha256: basis.selectionSha256,
    input_sha256: basis.inputSha256,
    selected_source_ids: [...basis.selectedSourceIds],
    coverage: {
      question_id: coverage.questionId,
      sealed_context_sha256: coverage.sealedContextSha256,
      need_applicability: coverage.needApplicability.map((item) => ({ ...relationWire(item), status: item.status, rationale: item.rationale })),
      claims: coverage.claims.map(relationWire),
      missing: [...coverage.missing],
      conflicts: coverage.conflicts.map((item) => ({ needId: item.needId, basisIds: [...item.basisIds], description: item.description })),
      coverage_sha256: coverage.coverageSha256,
    },
  };
}

/** Each fixed key list's positions in collation order and its keys quoted, worked out once per list. */
const collationOrders = new WeakMap<readonly string[], { readonly order: readonly number[]; readonly quoted: readonly string[] }>();

/**
 * The Judgment canonical JSON of a record whose keys are `keys` (in insertion order) and whose
 * values are already canonical JSON texts: the text `canonicalJson` prints for it, since sorting
 * the positions by their keys orders them exactly as sorting the keys does.
 */
function collatedRecordText(keys: readonly string[], values: readonly string[]): string {
  let known = collationOrders.get(keys);
  if (known === undefined) {
    known = { order: keys.map((_, position) => position).sort((left, right) => compareText(keys[left] as string, keys[right] as string)), quoted: keys.map((key) => `${JSON.stringify(key)}:`) };
    collationOrders.set(keys, known);
  }
  let written = "{";
  for (const [rank, position] of known.order.entries()) written += `${rank === 0 ? "" : ","}${known.quoted[position] as string}${values[position] as string}`;
  return `${written}}`;
}

const textsJson = (values: readonly string[]): string => `[${values.map((value) => JSON.stringify(value)).join(",")}]`;

// The key lists basisWire and relationWire write, in their insertion order.
const RELATION_KEYS = ["needId", "basisIds", "assurance"];
const VERIFIED_RELATION_KEYS = [...RELATION_KEYS, "evaluator", "evidenceIds"];
const USER_RELATION_KEYS = [...RELATION_KEYS, "userEventId"];
const APPLICABILITY_KEYS = new Map<readonly string[], readonly string[]>([RELATION_KEYS, VERIFIED_RELATION_KEYS, USER_RELATION_KEYS].map((keys) => [keys, [...keys, "status", "rationale"]]));
const EVALUATOR_KEYS = ["id", "version"];
const CONFLICT_KEYS = ["needId", "basisIds", "description"];
const BASIS_WIRE_KEYS = BASIS_KEYS.filter((key) => key !== "basis_sha256");

/** relationWire's keys and canonical value texts. */
function relationFields(relation: Relation): { keys: readonly string[]; values: string[] } {
  const values = [JSON.stringify(relation.needId), textsJson(relation.basisIds), JSON.stringify(relation.assurance)];
  if (relation.assurance === "domain-verified" && relation.evaluator !== undefined && relation.evidenceIds !== undefined) {
    values.push(collatedRecordText(EVALUATOR_KEYS, [JSON.stringify(relation.evaluator.id), JSON.stringify(relation.evaluator.version)]), textsJson(relation.evidenceIds));
    return { keys: VERIFIED_RELATION_KEYS, values };
  }
  if (relation.assurance === "user-accepted" && relation.userEventId !== undefined) {
    values.push(JSON.stringify(relation.userEventId));
    return { keys: USER_RELATION_KEYS, values };
  }
  return { keys: RELATION_KEYS, values };
}

/**
 * `canonicalJson(basisWire(basis))`, written straight from the basis: what `basis_sha256` hashes.
 * Keep it in step with basisWire and relationWire: the builders seal a basis over the general
 * canonical JSON of the wire (contextBasisBuilder.ts, memoOperations.ts), and decoding it here
 * must give back the same digest.
 */
function basisCanonicalText(basis: Omit<ContextBasis, "basisSha256">): string {
  const coverage = basis.coverage;
  const applicability = coverage.needApplicability.map((item) => {
    const { keys, values } = relationFields(item);
    values.push(JSON.stringify(item.status), JSON.stringify(item.rationale));
    return collatedRecordText(APPLICABILITY_KEYS.get(keys) as readonly string[], values);
  });
  const claims = coverage.claims.map((item) => {
    const { keys, values } = relationFields(item);
    return collatedRecordText(keys, values);
  });
  const conflicts = coverage.conflicts.map((item) => collatedRecordText(CONFLICT_KEYS, [JSON.stringify(item.needId), textsJson(item.basisIds), JSON.stringify(item.description)]));
  const coverageText = collatedRecordText(COVERAGE_KEYS, [
    JSON.stringify(coverage.questionId),
    JSON.stringify(coverage.sealedContextSha256),
    `[${applicability.join(",")}]`,
    `[${claims.join(",")}]`,
    textsJson(coverage.missing),
    `[${conflicts.join(",")}]`,
    JSON.stringify(coverage.coverageSha256),
  ]);
  return collatedRecordText(BASIS_WIRE_KEYS, [
    JSON.stringify(CONTEXT_BASIS_PROTOCOL),
    JSON.stringify(basis.contractSha256),
    JSON.stringify(basis.questionId),
    JSON.stringify(basis.selectionSha256),
    JSON.stringify(basis.inputSha256),
    textsJson(basis.selectedSourceIds),
    coverageText,
  ]);
}

/** Decodes a persisted basis; null when its shape is wrong or `basis_sha256` does not match its content. */
export function decodeContextBasis(value: unknown): ContextBasis | null {
  if (!isRecord(value) || !hasKeysExactly(value, BASIS_KEYS) || value.observer_context_basis !== CONTEXT_BASIS_PROTOCOL) return null;
  const contractSha256 = digest(value.contract_sha256);
  const questionId = text(value.question_id);
  const selectionSha256 = digest(value.selection_sha256);
  const inputSha256 = digest(value.input_sha256);
  const selectedSourceIds = textList(value.selected_source_ids, false);
  const coverage = readCoverage(value.coverage);
  const basisSha256 = digest(value.basis_sha256);
  if (
    contractSha256 === null ||
    questionId === null ||
    selectionSha256 === null ||
    inputSha256 === null ||
    selectedSourceIds === null ||
    coverage === null ||
    basisSha256 === null ||
    coverage.questionId !== questionId
  ) {
    return null;
  }
  const basis = { contractSha256, questionId, selectionSha256, inputSha256, selectedSourceIds, coverage };
  if (sha256(basisCanonicalText(basis)) !== basisSha256) return null;
  return { ...basis, basisSha256 };
}

/** The normalised wire form, `basis_sha256` last (part of an observation's digested payload). */
export function encodeContextBasis(basis: ContextBasis): Record<string, JsonValue> {
  return { ...basisWire(basis), basis_sha256: basis.basisSha256 };
}

/** What the `interpret-source-reading` question was asked about; its hash is the basis's `input_sha256`. */
export interface InterpretationInput {
  readonly sourceReading: {
    readonly readingId: string;
    readonly episodeId: string;
    readonly sourceId: string;
    readonly faithfulSummary: string;
    readonly claims: readonly { readonly text: string; readonly locator: string | null }[];
  };
  readonly inquiryContext: { readonly inquiryContextId: string; readonly readingId: string; readonly inquiryIds: readonly string[]; readonly contextDigest: string } | null;
  readonly relatedInquiryIds: readonly string[];
}

const INPUT_KEYS = ["sourceReading", "inquiryContext", "relatedInquiryIds"];
const READING_KEYS = ["readingId", "episodeId", "sourceId", "faithfulSummary", "claims"];
const CLAIM_KEYS = ["text", "locator"];
const INQUIRY_CONTEXT_KEYS = ["inquiryContextId", "readingId", "inquiryIds", "contextDigest"];

/** A plain object with exactly these own keys (so its canonical JSON has exactly these fields). */
function exactRecord(value: unknown, keys: readonly string[]): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.keys(value).length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}

const isText = (value: unknown): value is string => typeof value === "string";
const isTextArray = (value: unknown): value is string[] => Array.isArray(value) && (value as unknown[]).every(isText);

/**
 * The input's canonical JSON written field by field, when it has exactly the documented fields
 * (as replay's inputs do); null sends anything else through the general admission and walk.
 */
function plainInputText(input: InterpretationInput): string | null {
  const reading: unknown = input.sourceReading;
  const context: unknown = input.inquiryContext;
  if (!exactRecord(input, INPUT_KEYS) || !exactRecord(reading, READING_KEYS) || !isTextArray(input.relatedInquiryIds)) return null;
  if (!isText(reading.readingId) || !isText(reading.episodeId) || !isText(reading.sourceId) || !isText(reading.faithfulSummary) || !Array.isArray(reading.claims)) return null;
  const claims: string[] = [];
  for (const claim of reading.claims as unknown[]) {
    if (!exactRecord(claim, CLAIM_KEYS) || !isText(claim.text) || !(claim.locator === null || isText(claim.locator))) return null;
    claims.push(collatedRecordText(CLAIM_KEYS, [JSON.stringify(claim.text), JSON.stringify(claim.locator)]));
  }
  let contextText = "null";
  if (context !== null) {
    if (!exactRecord(context, INQUIRY_CONTEXT_KEYS) || !isText(context.inquiryContextId) || !isText(context.readingId) || !isTextArray(context.inquiryIds) || !isText(context.contextDigest)) return null;
    contextText = collatedRecordText(INQUIRY_CONTEXT_KEYS, [JSON.stringify(context.inquiryContextId), JSON.stringify(context.readingId), textsJson(context.inquiryIds), JSON.stringify(context.contextDigest)]);
  }
  const readingText = collatedRecordText(READING_KEYS, [
    JSON.stringify(reading.readingId),
    JSON.stringify(reading.episodeId),
    JSON.stringify(reading.sourceId),
    JSON.stringify(reading.faithfulSummary),
    `[${claims.join(",")}]`,
  ]);
  return collatedRecordText(INPUT_KEYS, [readingText, contextText, textsJson(input.relatedInquiryIds)]);
}

export function interpretationInputSha256(input: InterpretationInput): string {
  return sha256(plainInputText(input) ?? collatedJson(jsonValueFromUnknown(input)));
}
