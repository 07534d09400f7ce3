// JSON value admission, Judgment's canonical JSON and hashing.
//
// Judgment's canonical form differs from developer/v8's (server/ledger/canonicalJson.ts) in one
// respect: object keys (and every sorted text set) are ordered with localeCompare (ICU
// collation), not by UTF-16 code units. The reference package does this and every Judgment hash
// (authoring, policy, question, descriptor, selection, seal, coverage, outcome) depends on it, so
// staying hash-compatible with policies and logs the reference produced requires the same order.
// The two orders disagree on case and punctuation ("a" < "B" here, "B" < "a" in v8).
//
// The reference calls localeCompare with the *process default* locale, so its own hashes change
// with the host's locale (Danish sorts "B" before "b" and "aa" after "z"; Turkish lower-cases
// "I" to a dotless "ı"). Docket's architecture forbids hashing anything that reads the locale,
// so the collation locale is pinned to en-US (ICU root order): identical to the reference on
// en-US/C/POSIX hosts, and the same on every host for Docket. All locale-sensitive operations go
// through compareText and lowerCaseText so the dependency lives in one place.
import { sha256Hex } from "../ledger/canonicalJson";

export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

export class JsonValueError extends Error {
  readonly path: string;

  constructor(message: string, path: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "JsonValueError";
    this.path = path;
  }
}

/** The collation locale of every Judgment ordering (see the header). */
export const JUDGMENT_COLLATION_LOCALE = "en-US";
/** Built on the first comparison: creating it loads ICU's collation data (tens of ms), which a process that never compares Judgment text need not pay. */
let collator: Intl.Collator | null = null;

/** The one ordering used for keys, text sets and identifiers: localeCompare pinned to en-US. */
export function compareText(left: string, right: string): number {
  collator ??= new Intl.Collator(JUDGMENT_COLLATION_LOCALE);
  return collator.compare(left, right);
}

/** toLocaleLowerCase pinned to the same locale (used for "same statement" checks). */
export function lowerCaseText(value: string): string {
  return value.toLocaleLowerCase(JUDGMENT_COLLATION_LOCALE);
}

/** Returns a sorted copy (never mutates the input). */
export function sortedText(values: readonly string[]): string[] {
  return [...values].sort(compareText);
}

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Admits null, booleans, strings, finite numbers, arrays and plain objects recursively; anything
 * else throws. (The reference also turns class instances such as Date or Map into `{}`; the spec
 * says plain objects only, and Docket follows the spec.)
 */
export function jsonValueFromUnknown(value: unknown, path = "/"): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (Array.isArray(value)) return value.map((entry: unknown, index) => jsonValueFromUnknown(entry, `${path}${index}/`));
  if (typeof value === "object" && isPlainObject(value)) {
    const result: Record<string, JsonValue> = {};
    for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
      result[key] = jsonValueFromUnknown(entry, `${path}${key}/`);
    }
    return result;
  }
  throw new JsonValueError(`Unsupported JSON value at ${path}.`, path);
}

/** Parses JSON text into an admitted value. */
export function decodeJsonValue(source: string): JsonValue {
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (error) {
    throw new JsonValueError("Source is not valid JSON.", "/", { cause: error });
  }
  return jsonValueFromUnknown(parsed);
}

/** Canonical JSON: no whitespace, arrays in order, object keys in compareText order. */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${(value as readonly JsonValue[]).map(canonicalJson).join(",")}]`;
  const record = value as { readonly [key: string]: JsonValue };
  return `{${Object.keys(record)
    .sort(compareText)
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key] as JsonValue)}`)
    .join(",")}}`;
}

/** Lowercase hex SHA-256 of a string (UTF-8) or bytes. */
export function sha256(value: string | Uint8Array): string {
  return sha256Hex(value);
}

/** sha256 of the canonical JSON of a value. */
export function hashJson(value: JsonValue): string {
  return sha256(canonicalJson(value));
}

const encoder = new TextEncoder();
export function utf8ByteLength(text: string): number {
  return encoder.encode(text).byteLength;
}
