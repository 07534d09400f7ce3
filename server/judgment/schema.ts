// A small strict schema checker for the Judgment wire shapes: exact objects (unknown keys
// rejected), no coercion, uniqueItems as exact-duplicate rejection. String lengths count
// grapheme clusters with the same approximation the reference's validator (TypeBox) uses, so a
// string accepted there is accepted here: a code point, then combining marks (U+0300–036F,
// U+1AB0–1AFF, U+1DC0–1DFF, U+FE20–FE2F) and variation selectors (U+FE00–FE0F), then
// ZWJ-joined continuations, and regional-indicator pairs. It only checks; the parse
// step that follows normalises. Each decoder throws JudgmentParseError with its fixed message
// and details.issues[{path, message, keyword}].
import { JudgmentParseError } from "./errors";
import { canonicalJson, type JsonValue } from "./json";

export type Schema =
  | { readonly type: "string"; readonly minLength?: number; readonly maxLength?: number; readonly pattern?: RegExp }
  | { readonly type: "literal"; readonly value: string }
  | { readonly type: "boolean" }
  | { readonly type: "integer"; readonly minimum: number; readonly maximum: number }
  | { readonly type: "array"; readonly items: Schema; readonly minItems?: number; readonly maxItems?: number; readonly uniqueItems?: boolean }
  | { readonly type: "object"; readonly properties: { readonly [key: string]: Schema }; readonly optional?: readonly string[] }
  | { readonly type: "union"; readonly discriminator: string; readonly variants: readonly Schema[] };

export interface SchemaIssue {
  readonly path: string;
  readonly message: string;
  readonly keyword: string;
}

export const S = {
  text(minLength: number, maxLength: number, nonSpace = true): Schema {
    return nonSpace ? { type: "string", minLength, maxLength, pattern: /\S/u } : { type: "string", minLength, maxLength };
  },
  literal(value: string): Schema {
    return { type: "literal", value };
  },
  enumOf(values: readonly string[]): Schema {
    return { type: "union", discriminator: "", variants: values.map((value) => S.literal(value)) };
  },
  boolean: { type: "boolean" } as Schema,
  integer(minimum: number, maximum: number): Schema {
    return { type: "integer", minimum, maximum };
  },
  array(items: Schema, options: { minItems?: number; maxItems?: number; uniqueItems?: boolean } = {}): Schema {
    return { type: "array", items, ...options };
  },
  object(properties: { readonly [key: string]: Schema }, optional: readonly string[] = []): Schema {
    return { type: "object", properties, optional };
  },
  union(discriminator: string, variants: readonly Schema[]): Schema {
    return { type: "union", discriminator, variants };
  },
};

/** NonEmptyText: 1–4000 chars containing a non-space. */
export const NonEmptyText = S.text(1, 4_000);
/** Identifier: a letter then letters, digits and . _ : / - ; 1–160 chars. */
export const Identifier: Schema = { type: "string", minLength: 1, maxLength: 160, pattern: /^[A-Za-z][A-Za-z0-9._:/-]*$/u };
export const Sha256: Schema = { type: "string", pattern: /^[a-f0-9]{64}$/u };
export const Provenance = S.object(
  {
    source: S.text(1, 1_000),
    scope: S.enumOf(["user", "project", "temporary"]),
    origin: S.enumOf(["package", "top-level", "session"]),
    path: S.text(1, 2_000),
  },
  ["path"],
);

function isCombiningMark(point: number): boolean {
  return (
    (point >= 0x300 && point <= 0x36f) || (point >= 0x1ab0 && point <= 0x1aff) || (point >= 0x1dc0 && point <= 0x1dff) || (point >= 0xfe20 && point <= 0xfe2f)
  );
}
function isVariationSelector(point: number): boolean {
  return point >= 0xfe00 && point <= 0xfe0f;
}
function isRegionalIndicator(point: number): boolean {
  return point >= 0x1f1e6 && point <= 0x1f1ff;
}
function codePointLength(point: number): number {
  return point > 0xffff ? 2 : 1;
}
function consumeModifiers(value: string, start: number): number {
  let index = start;
  while (index < value.length) {
    const point = value.codePointAt(index) as number;
    if (!isCombiningMark(point) && !isVariationSelector(point)) break;
    index += codePointLength(point);
  }
  return index;
}
function nextClusterIndex(value: string, start: number): number {
  const first = value.codePointAt(start) as number;
  let end = consumeModifiers(value, start + codePointLength(first));
  while (end < value.length - 1 && value[end] === "\u200d") {
    end += 1 + codePointLength(value.codePointAt(end + 1) as number);
    end = consumeModifiers(value, end);
  }
  if (isRegionalIndicator(first) && end < value.length && isRegionalIndicator(value.codePointAt(end) as number))
    end += codePointLength(value.codePointAt(end) as number);
  return end;
}

/** Grapheme-cluster count as the reference's validator computes it. */
export function graphemeLength(value: string): number {
  let count = 0;
  for (let index = 0; index < value.length; index = nextClusterIndex(value, index)) count += 1;
  return count;
}

function isRecord(value: JsonValue): value is { readonly [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function child(path: string, key: string | number): string {
  const token = String(key).replace(/~/gu, "~0").replace(/\//gu, "~1");
  return path === "/" ? `/${token}` : `${path}/${token}`;
}

function check(schema: Schema, value: JsonValue, path: string, issues: SchemaIssue[]): void {
  switch (schema.type) {
    case "string": {
      if (typeof value !== "string") {
        issues.push({ path, message: "Expected string", keyword: "type" });
        return;
      }
      const length = schema.minLength !== undefined || schema.maxLength !== undefined ? graphemeLength(value) : 0;
      if (schema.minLength !== undefined && length < schema.minLength)
        issues.push({ path, message: `Expected string length greater or equal to ${schema.minLength}`, keyword: "minLength" });
      if (schema.maxLength !== undefined && length > schema.maxLength)
        issues.push({ path, message: `Expected string length less or equal to ${schema.maxLength}`, keyword: "maxLength" });
      if (schema.pattern !== undefined && !schema.pattern.test(value))
        issues.push({ path, message: `Expected string to match pattern ${schema.pattern.source}`, keyword: "pattern" });
      return;
    }
    case "literal":
      if (value !== schema.value) issues.push({ path, message: `Expected ${JSON.stringify(schema.value)}`, keyword: "const" });
      return;
    case "boolean":
      if (typeof value !== "boolean") issues.push({ path, message: "Expected boolean", keyword: "type" });
      return;
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value)) {
        issues.push({ path, message: "Expected integer", keyword: "type" });
        return;
      }
      if (value < schema.minimum) issues.push({ path, message: `Expected integer to be greater or equal to ${schema.minimum}`, keyword: "minimum" });
      if (value > schema.maximum) issues.push({ path, message: `Expected integer to be less or equal to ${schema.maximum}`, keyword: "maximum" });
      return;
    case "array": {
      if (!Array.isArray(value)) {
        issues.push({ path, message: "Expected array", keyword: "type" });
        return;
      }
      const items = value as readonly JsonValue[];
      if (schema.minItems !== undefined && items.length < schema.minItems)
        issues.push({ path, message: `Expected array length to be greater or equal to ${schema.minItems}`, keyword: "minItems" });
      if (schema.maxItems !== undefined && items.length > schema.maxItems)
        issues.push({ path, message: `Expected array length to be less or equal to ${schema.maxItems}`, keyword: "maxItems" });
      if (schema.uniqueItems) {
        const seen = new Set<string>();
        for (const item of items) {
          const key = canonicalJson(item);
          if (seen.has(key)) {
            issues.push({ path, message: "Expected array elements to be unique", keyword: "uniqueItems" });
            break;
          }
          seen.add(key);
        }
      }
      items.forEach((item, index) => check(schema.items, item, child(path, index), issues));
      return;
    }
    case "object": {
      if (!isRecord(value)) {
        issues.push({ path, message: "Expected object", keyword: "type" });
        return;
      }
      const optional = new Set(schema.optional ?? []);
      for (const key of Object.keys(schema.properties)) {
        if (!(key in value) && !optional.has(key))
          issues.push({ path, message: `Expected required property ${key}`, keyword: "required" });
      }
      for (const key of Object.keys(value)) {
        const property = schema.properties[key];
        if (property === undefined) {
          issues.push({ path: child(path, key), message: "Unexpected property", keyword: "additionalProperties" });
          continue;
        }
        check(property, value[key] as JsonValue, child(path, key), issues);
      }
      return;
    }
    case "union": {
      if (schema.discriminator === "") {
        if (!schema.variants.some((variant) => validate(variant, value).length === 0))
          issues.push({ path, message: "Expected one of the allowed values", keyword: "anyOf" });
        return;
      }
      const tag = isRecord(value) ? value[schema.discriminator] : undefined;
      const variant = schema.variants.find(
        (candidate) =>
          candidate.type === "object" &&
          candidate.properties[schema.discriminator]?.type === "literal" &&
          (candidate.properties[schema.discriminator] as { readonly value: string }).value === tag,
      );
      if (variant === undefined) {
        issues.push({ path, message: `Expected a known ${schema.discriminator}`, keyword: "anyOf" });
        return;
      }
      check(variant, value, path, issues);
      return;
    }
  }
}

/** All issues of a value against a schema (empty when it conforms). */
export function validate(schema: Schema, value: JsonValue): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  check(schema, value, "/", issues);
  return issues;
}

/**
 * Checks a value and returns it as the caller's data type, or throws JudgmentParseError with the
 * decoder's fixed message. The cast is sound because the schema describes T exactly.
 */
export function decodeWith<T>(schema: Schema, value: JsonValue, message: string): T {
  const issues = validate(schema, value);
  if (issues.length > 0) throw new JudgmentParseError(message, { issues });
  return value as unknown as T;
}
