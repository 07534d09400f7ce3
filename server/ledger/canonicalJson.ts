// Canonical JSON and value hashing exactly as developer/v8 defines them: keys sorted by UTF-16
// code units (never locale), no whitespace, numbers in JavaScript's shortest round-trip form.
import crypto from "node:crypto";

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

/** The general canonical serialization of an already-validated JSON value (the reference form). */
function canonicalJsonOf(value: JsonValue): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${(value as readonly JsonValue[]).map(canonicalJsonOf).join(",")}]`;
  const record = value as { readonly [key: string]: JsonValue };
  return `{${Object.keys(record)
    .sort(compareCodeUnits)
    .map((key) => `${JSON.stringify(key)}:${canonicalJsonOf(record[key] as JsonValue)}`)
    .join(",")}}`;
}

// Canonicalization is most of what replay costs per line (every line, every payload and every
// hashed value), so the common case takes a fast path with the very same output: a tree of plain
// objects, dense arrays, strings, booleans, null and finite numbers. When every object's keys are
// already in code-unit order (true of every line Docket wrote), the engine's own JSON.stringify
// writes the canonical text; otherwise the objects out of order are copied with sorted keys and
// the engine writes the copy (array-index keys, which the engine enumerates first, are written by
// hand in one sorting pass). Anything else — other objects,
// holes, non-finite numbers, extreme nesting — takes the general path, which gives the same text
// (and the same errors) as before.

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** The canonical text of a plain JSON tree in any key order, or undefined for anything else. */
function plainCanonicalJson(value: unknown, depth: number): string | undefined {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : undefined;
    case "object": {
      if (depth >= MAX_JSON_DEPTH) return undefined;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return undefined;
        let text = "[";
        for (let index = 0; index < value.length; index += 1) {
          if (!(index in value)) return undefined;
          const entry = plainCanonicalJson(value[index], depth + 1);
          if (entry === undefined) return undefined;
          text += index === 0 ? entry : `,${entry}`;
        }
        return `${text}]`;
      }
      if (!isPlainObject(value)) return undefined;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      for (let index = 1; index < keys.length; index += 1) {
        if (!((keys[index - 1] as string) < (keys[index] as string))) {
          keys.sort(compareCodeUnits);
          break;
        }
      }
      let text = "{";
      for (let index = 0; index < keys.length; index += 1) {
        const key = keys[index] as string;
        const entry = plainCanonicalJson(record[key], depth + 1);
        if (entry === undefined) return undefined;
        text += `${index === 0 ? "" : ","}${JSON.stringify(key)}:${entry}`;
      }
      return `${text}}`;
    }
    default:
      return undefined;
  }
}

/** Keys the engine enumerates before all others (array indexes), whatever their insertion order. */
const ARRAY_INDEX_KEY = /^(?:0|[1-9][0-9]*)$/u;

/**
 * `value` itself when it is a plain JSON tree with sorted keys; otherwise a copy whose objects have
 * their keys inserted in code-unit order (sharing every subtree that needs no change), so the
 * engine's JSON.stringify writes the canonical text in one native pass. Undefined for anything
 * else, and for keys the engine would not enumerate in insertion order (array indexes).
 */
function sortedPlainTree(value: unknown, depth: number): unknown {
  if (value === null) return value;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : undefined;
    case "object": {
      if (depth >= MAX_JSON_DEPTH) return undefined;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return undefined;
        let copy: unknown[] | null = null;
        for (let index = 0; index < value.length; index += 1) {
          if (!(index in value)) return undefined;
          const entry: unknown = value[index];
          const sorted = sortedPlainTree(entry, depth + 1);
          if (sorted === undefined) return undefined;
          if (sorted !== entry && copy === null) copy = value.slice(0, index);
          if (copy !== null) copy.push(sorted);
        }
        return copy ?? value;
      }
      if (!isPlainObject(value)) return undefined;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      let inOrder = true;
      for (let index = 1; index < keys.length; index += 1) {
        if (!((keys[index - 1] as string) < (keys[index] as string))) {
          inOrder = false;
          break;
        }
      }
      if (!inOrder) {
        keys.sort(compareCodeUnits);
        if (keys.some((key) => ARRAY_INDEX_KEY.test(key))) return undefined;
      }
      let copy: Record<string, unknown> | null = null;
      for (let index = 0; index < keys.length; index += 1) {
        const key = keys[index] as string;
        const entry = record[key];
        const sorted = sortedPlainTree(entry, depth + 1);
        if (sorted === undefined) return undefined;
        if (copy === null && (!inOrder || sorted !== entry)) {
          // A null prototype: an own "__proto__" key stays a key instead of setting the prototype.
          copy = Object.create(null) as Record<string, unknown>;
          for (let before = 0; before < index; before += 1) copy[keys[before] as string] = record[keys[before] as string];
        }
        if (copy !== null) copy[key] = sorted;
      }
      return copy ?? value;
    }
    default:
      return undefined;
  }
}

/** The canonical text when `value` is a plain JSON tree (what toJsonValue would accept unchanged). */
function fastCanonicalJson(value: unknown): string | undefined {
  const sorted = sortedPlainTree(value, 0);
  return sorted === undefined ? plainCanonicalJson(value, 0) : JSON.stringify(sorted);
}

/**
 * Serializes an already-validated JSON value canonically. A value nested deeper than
 * MAX_JSON_DEPTH (which toJsonValue never returns, but JSON.parse does) is refused, found without
 * recursion, so the answer never depends on the stack the recursive walk would have left.
 */
export function canonicalJson(value: JsonValue): string {
  const fast = fastCanonicalJson(value);
  if (fast !== undefined) return fast;
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    throw new CanonicalJsonError(`The value is nested more than ${MAX_JSON_DEPTH} levels deep.`, "/");
  }
  return canonicalJsonOf(value);
}

/** Validates and serializes any value; throws CanonicalJsonError for non-JSON input. */
export function canonicalize(value: unknown): string {
  return fastCanonicalJson(value) ?? canonicalJsonOf(toJsonValue(value));
}

// A replayed event takes several hashes; the one-shot crypto.hash (Node 20.12+) costs about half
// of a Hash object's setup for inputs this small. Same digest either way.
const oneShotHash = typeof crypto.hash === "function" ? crypto.hash : null;

export function sha256Hex(text: string | Uint8Array): string {
  if (oneShotHash !== null) return oneShotHash("sha256", text, "hex");
  return crypto.createHash("sha256").update(text).digest("hex");
}

/** H(v): SHA-256 (lowercase hex) of the UTF-8 canonical JSON of v. */
export function hashValue(value: unknown): string {
  return sha256Hex(canonicalize(value));
}

/** First 24 hex characters of H(v); used for derived identifiers. */
export function h24(value: unknown): string {
  return hashValue(value).slice(0, 24);
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
