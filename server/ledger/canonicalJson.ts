// Canonical JSON and value hashing exactly as developer/v8 defines them: keys sorted by UTF-16
// code units (never locale), no whitespace, numbers in JavaScript's shortest round-trip form.
import { createHash } from "node:crypto";

export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

export class CanonicalJsonError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = "CanonicalJsonError";
  }
}

/**
 * Nesting deeper than this is refused as unsupported: no value Docket stores comes close, and the
 * recursive walks below (and canonicalJson's) would otherwise end in a raw stack overflow.
 */
export const MAX_JSON_DEPTH = 1_000;

/**
 * Whether arrays and objects in `value` nest more than `limit` levels (the outermost is level 1),
 * found without recursion: a check to run before any walk that recurses.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<{ readonly value: unknown; readonly depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof current !== "object" || current === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current as Record<string, unknown>)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

/** Checks that a value is representable as canonical JSON and returns it typed. */
export function toJsonValue(value: unknown, path = "/", depth = 0): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    throw new CanonicalJsonError(`Unsupported JSON value at ${path}.`, path);
  }
  if (depth >= MAX_JSON_DEPTH && typeof value === "object") {
    throw new CanonicalJsonError(`The value is nested more than ${MAX_JSON_DEPTH} levels deep (at ${path.slice(0, 200)}…).`, path.slice(0, 200));
  }
  if (Array.isArray(value)) return value.map((entry, index) => toJsonValue(entry, `${path}${index}/`, depth + 1));
  if (typeof value === "object") {
    const result: Record<string, JsonValue> = {};
    for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
      // defineProperty, not assignment: an own "__proto__" key (JSON.parse makes one) must stay a
      // key of the value instead of changing the result's prototype and vanishing from the hash.
      Object.defineProperty(result, key, { value: toJsonValue(entry, `${path}${key}/`, depth + 1), enumerable: true, writable: true, configurable: true });
    }
    return result;
  }
  throw new CanonicalJsonError(`Unsupported JSON value at ${path}.`, path);
}

/** Orders strings by UTF-16 code units (JavaScript's `<`), never by locale. */
export function compareCodeUnits(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Serializes an already-validated JSON value canonically. */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${(value as readonly JsonValue[]).map(canonicalJson).join(",")}]`;
  const record = value as { readonly [key: string]: JsonValue };
  return `{${Object.keys(record)
    .sort(compareCodeUnits)
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key] as JsonValue)}`)
    .join(",")}}`;
}

/** Validates and serializes any value; throws CanonicalJsonError for non-JSON input. */
export function canonicalize(value: unknown): string {
  return canonicalJson(toJsonValue(value));
}

export function sha256Hex(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

/** H(v): SHA-256 (lowercase hex) of the UTF-8 canonical JSON of v. */
export function hashValue(value: unknown): string {
  return sha256Hex(canonicalize(value));
}

/** First 24 hex characters of H(v); used for derived identifiers. */
export function h24(value: unknown): string {
  return hashValue(value).slice(0, 24);
}

const encoder = new TextEncoder();
export function utf8Length(text: string): number {
  return encoder.encode(text).byteLength;
}
