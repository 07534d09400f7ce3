// The small value checks every Observer decoder shares (docs/observer-replay.md "Decoding").
// Observer entries are decoded strictly: exact key sets, trimmed bounded text, typed identifiers
// (a fixed prefix followed by a lowercase version-4 UUID), bare lowercase SHA-256 hex and
// millisecond ISO timestamps. Every function is pure and never reads the clock or the locale.
import { compareCodeUnits, sha256Hex } from "../ledger/canonicalJson";
import { isRecord } from "../ledger/values";

export { isRecord };

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u;
const SHA256_HEX = /^[0-9a-f]{64}$/u;

/** Lowercase hex SHA-256 of the UTF-8 bytes of a text. */
export function sha256OfText(text: string): string {
  return sha256Hex(text);
}

export function isSha256Hex(value: unknown): value is string {
  return typeof value === "string" && SHA256_HEX.test(value);
}

/** True when the object has exactly these own keys (in any order). */
export function hasKeysExactly(value: Readonly<Record<string, unknown>>, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  if (own.length !== keys.length) return false;
  for (const key of own) if (!keys.includes(key)) return false;
  return true;
}

/** A string that equals its trim, is not empty and has at most `limit` UTF-16 units; else null. */
export function trimmedText(value: unknown, limit: number): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > limit || value.trim() !== value) return null;
  return value;
}

/** null stays null; a valid text is returned; anything else is undefined (invalid). */
export function optionalTrimmedText(value: unknown, limit: number): string | null | undefined {
  if (value === null) return null;
  const text = trimmedText(value, limit);
  return text === null ? undefined : text;
}

/** `prefix` + lowercase UUID v4, or null. */
export function prefixedUuid(value: unknown, prefix: string): string | null {
  if (typeof value !== "string" || !value.startsWith(prefix)) return null;
  return UUID_V4.test(value.slice(prefix.length)) ? value : null;
}

/**
 * A timestamp that is exactly what `Date#toISOString()` prints for the instant it names. Parsing
 * an ISO string and printing it back is deterministic (no clock, no time zone, no locale).
 */
export function isIsoInstant(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0) return false;
  const time = Date.parse(value);
  return Number.isFinite(time) && new Date(time).toISOString() === value;
}

/**
 * A list of distinct identifiers accepted by `decode` (at most `limit`); optionally non-empty and
 * returned sorted. Null when anything is off. Typed identifiers share their prefix and continue in
 * `[0-9a-f-]`, so code-unit order is the same order the reference's collation gives them.
 */
export function distinctIds(
  value: unknown,
  decode: (candidate: unknown) => string | null,
  options: { readonly limit: number; readonly nonEmpty: boolean; readonly sorted: boolean },
): string[] | null {
  if (!Array.isArray(value) || value.length > options.limit || (options.nonEmpty && value.length === 0)) return null;
  const result: string[] = [];
  for (const item of value as readonly unknown[]) {
    const id = decode(item);
    if (id === null || result.includes(id)) return null;
    result.push(id);
  }
  return options.sorted ? result.sort(compareCodeUnits) : result;
}

export function sortedCopy(values: Iterable<string>): string[] {
  return [...values].sort(compareCodeUnits);
}

export function byKey<Value>(key: (value: Value) => string): (left: Value, right: Value) => number {
  return (left, right) => compareCodeUnits(key(left), key(right));
}

export function sameList(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((value, index) => value === right[index]);
}

/** Every item of a bounded array decoded, or null when it is not an array, too long, or any item fails. */
export function decodedList<Value>(value: unknown, decode: (item: unknown) => Value | null, limit: number): Value[] | null {
  if (!Array.isArray(value) || value.length > limit) return null;
  const result: Value[] = [];
  for (const item of value as readonly unknown[]) {
    const decoded = decode(item);
    if (decoded === null) return null;
    result.push(decoded);
  }
  return result;
}
