// judgment.json (authoring spec 0.1): strict decode, normalisation and authoringSha256.
import { posix } from "node:path";
import { JudgmentParseError } from "./errors";
import { compareText, decodeJsonValue, hashJson, sortedText, type JsonValue } from "./json";
import { S, decodeWith, type Schema } from "./schema";
import { collapseWhitespace, semanticKey } from "./text";

export interface PreparedReferencePolicyData {
  readonly path: string;
  readonly when: readonly string[];
}

export interface JudgmentAuthoringPolicyData {
  readonly $schema?: string;
  readonly specVersion: "0.1";
  readonly when: readonly string[];
  readonly unless: readonly string[];
  readonly references: readonly PreparedReferencePolicyData[];
}

const Statements = S.array(S.text(1, 2_000), { minItems: 1, maxItems: 64, uniqueItems: true });
export const PreparedReferencePolicySchema: Schema = S.object({ path: S.text(1, 1_024), when: Statements });
export const JudgmentAuthoringPolicySchema: Schema = S.object(
  {
    $schema: S.text(1, 2_000, false),
    specVersion: S.literal("0.1"),
    when: Statements,
    unless: Statements,
    references: S.array(PreparedReferencePolicySchema, { minItems: 1, maxItems: 128 }),
  },
  ["$schema"],
);
export const StatementsSchema = Statements;

declare const authoringBrand: unique symbol;

export interface PreparedReferencePolicy {
  readonly path: string;
  readonly when: readonly string[];
}

export interface JudgmentAuthoringPolicy {
  readonly [authoringBrand]: true;
  readonly specVersion: "0.1";
  readonly when: readonly string[];
  readonly unless: readonly string[];
  readonly references: readonly PreparedReferencePolicy[];
  readonly authoringSha256: string;
}

export function decodeJudgmentAuthoringPolicyData(value: JsonValue): JudgmentAuthoringPolicyData {
  return decodeWith<JudgmentAuthoringPolicyData>(JudgmentAuthoringPolicySchema, value, "Judgment authoring policy does not match specVersion 0.1.");
}

/** Normalises one statement list: trim-exact, collapsed, no semantic duplicates, sorted. */
export function parseStatements(values: readonly string[], path: string): readonly string[] {
  const normalized = values.map((value, index) => {
    if (value !== value.trim())
      throw new JudgmentParseError(`Statement contains surrounding whitespace at ${path}/${index}.`, { path: `${path}/${index}` });
    const result = collapseWhitespace(value);
    if (!result) throw new JudgmentParseError(`Expected non-blank text at ${path}/${index}.`);
    return result;
  });
  const seen = new Set<string>();
  for (const value of normalized) {
    const key = semanticKey(value);
    if (seen.has(key)) throw new JudgmentParseError(`Semantic duplicate statement at ${path}: ${value}.`);
    seen.add(key);
  }
  return Object.freeze(sortedText(normalized));
}

/** A reference path must be a relative, already-normalised POSIX path without dot segments. */
export function parsePreparedReferencePath(value: string, path: string): string {
  if (value !== value.trim() || value.includes("\\") || value.includes("\0") || posix.isAbsolute(value))
    throw new JudgmentParseError(`Reference path must be a relative POSIX path at ${path}.`, { path, value });
  const segments = value.split("/");
  if (segments.some((segment) => segment.length === 0 || segment === "." || segment === "..") || posix.normalize(value) !== value)
    throw new JudgmentParseError(`Reference path is not directly normalized at ${path}.`, { path, value });
  return value;
}

export function authoringIdentity(input: {
  readonly when: readonly string[];
  readonly unless: readonly string[];
  readonly references: readonly PreparedReferencePolicy[];
}): JsonValue {
  return {
    specVersion: "0.1",
    when: input.when,
    unless: input.unless,
    references: input.references.map((item) => ({ path: item.path, when: item.when })),
  };
}

export function parseJudgmentAuthoringPolicy(data: JudgmentAuthoringPolicyData): JudgmentAuthoringPolicy {
  const when = parseStatements(data.when, "/when");
  const unless = parseStatements(data.unless, "/unless");
  const references = data.references
    .map((item, index) =>
      Object.freeze({
        path: parsePreparedReferencePath(item.path, `/references/${index}/path`),
        when: parseStatements(item.when, `/references/${index}/when`),
      }),
    )
    .sort((left, right) => compareText(left.path, right.path));
  const paths = new Set<string>();
  for (const item of references) {
    if (paths.has(item.path)) throw new JudgmentParseError(`Duplicate prepared reference path: ${item.path}.`, { path: item.path });
    paths.add(item.path);
  }
  const frozenReferences = Object.freeze(references);
  const authoringSha256 = hashJson(authoringIdentity({ when, unless, references: frozenReferences }));
  return Object.freeze({ specVersion: "0.1", when, unless, references: frozenReferences, authoringSha256 }) as JudgmentAuthoringPolicy;
}

/** Text → policy. Invalid JSON is a parse error too ("not valid JSON"). */
export function parseJudgmentAuthoringPolicyJson(source: string): JudgmentAuthoringPolicy {
  try {
    return parseJudgmentAuthoringPolicy(decodeJudgmentAuthoringPolicyData(decodeJsonValue(source)));
  } catch (error) {
    if (error instanceof JudgmentParseError) throw error;
    throw new JudgmentParseError("Judgment authoring policy is not valid JSON.", {}, { cause: error });
  }
}
