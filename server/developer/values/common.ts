// Shared strict-parse helpers for the developer/v8 value families. They extend
// server/ledger/values.ts with the list rules of §1.1 (canonical id lists, unique text lists,
// literal unions) so every family reports violations in the same `path: message` form.
import { hashValue } from "../../ledger/canonicalJson";
import { MAX_ARRAY_LENGTH, arrayAt, fail, idAt, shaAt, textAt } from "../../ledger/values";


export function literalAt<const T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    return fail(path, `expected one of ${allowed.join(", ")}`);
  }
  return value as T;
}

export function booleanAt(value: unknown, path: string): boolean {
  if (typeof value !== "boolean") return fail(path, "expected a boolean");
  return value;
}

export function nullableIdAt(value: unknown, path: string): string | null {
  return value === null ? null : idAt(value, path);
}

/** Rejects repeated identities; reported before ordering so a duplicate is named as such. */
export function assertUnique<T>(values: readonly T[], path: string, identity: (value: T) => string): void {
  const seen = new Set<string>();
  for (const value of values) {
    const key = identity(value);
    if (seen.has(key)) fail(path, "contains duplicates");
    seen.add(key);
  }
}

/** Strictly ascending by code units, which also implies uniqueness. */
export function assertCanonicalOrder<T>(values: readonly T[], path: string, identity: (value: T) => string): void {
  for (let index = 1; index < values.length; index += 1) {
    if (identity(values[index - 1] as T) >= identity(values[index] as T)) {
      fail(path, "must be unique and in canonical order");
    }
  }
}

export interface ListOptions {
  readonly nonEmpty?: boolean;
  readonly max?: number;
}

/**
 * assertUnique then assertCanonicalOrder, with the common case first: identities that strictly
 * ascend are unique as well, so both checks pass and neither needs its own walk (nor the
 * duplicate check its Set). Anything else runs both, so a duplicate is still named as such.
 */
export function assertUniqueInCanonicalOrder<T>(values: readonly T[], path: string, identity: (value: T) => string): void {
  let index = 1;
  while (index < values.length && identity(values[index - 1] as T) < identity(values[index] as T)) index += 1;
  if (index >= values.length) return;
  assertUnique(values, path, identity);
  assertCanonicalOrder(values, path, identity);
}

function ownText(text: string): string {
  return text;
}

/** A "canonical id list" (§1.1): DeveloperIds, unique, strictly ascending by code units. */
export function canonicalIdListAt(value: unknown, path: string, options: ListOptions = {}): readonly string[] {
  const ids = arrayAt(value, path, idAt, options);
  assertUniqueInCanonicalOrder(ids, path, ownText);
  return Object.freeze(ids);
}

/** A text list whose order is meaningful (limitations, missing context): unique, not sorted. */
export function uniqueTextListAt(value: unknown, path: string, options: ListOptions = {}): readonly string[] {
  const texts = arrayAt(value, path, (entry, entryPath) => textAt(entry, entryPath), options);
  assertUnique(texts, path, (text) => text);
  return Object.freeze(texts);
}

/** A text list that may repeat entries (discharge stop evidence). */
export function textListAt(value: unknown, path: string, options: ListOptions = {}): readonly string[] {
  return Object.freeze(arrayAt(value, path, (entry, entryPath) => textAt(entry, entryPath), options));
}

/**
 * A text list that is strictly ascending (landing changed paths and verification): the order
 * is part of the hash, so only one spelling of the same set is accepted.
 */
export function sortedTextListAt(
  value: unknown,
  path: string,
  options: ListOptions & { readonly maxText?: number } = {},
): readonly string[] {
  const texts = arrayAt(value, path, (entry, entryPath) => textAt(entry, entryPath, { max: options.maxText }), {
    nonEmpty: options.nonEmpty,
    max: options.max ?? MAX_ARRAY_LENGTH,
  });
  assertCanonicalOrder(texts, path, (text) => text);
  return Object.freeze(texts);
}

/** Parses a stored hash and rejects it unless it equals the recomputed one. */
export function expectHash(value: unknown, path: string, computed: string, what: string): string {
  const stored = shaAt(value, path);
  if (stored !== computed) fail(path, `does not match the ${what}`);
  return stored;
}

/**
 * A hash of a value, remembered per value object when that object is frozen (as every parsed
 * value of this layer is). Replay asks for some hashes again each time an event is cited as a
 * cause (a settlement's support hash, a conclusion's hash); a frozen value cannot change, so the
 * first answer stays right. Unfrozen values are hashed every time.
 */
export function rememberedForFrozen<T extends object>(hash: (value: T) => string): (value: T) => string {
  const remembered = new WeakMap<T, string>();
  return (value) => {
    const known = remembered.get(value);
    if (known !== undefined) return known;
    const computed = hash(value);
    if (Object.isFrozen(value)) remembered.set(value, computed);
    return computed;
  };
}

/** H({domain, …fields}): every domain-wrapped hash of this layer goes through here. */
export function domainHash(domain: string, fields: Readonly<Record<string, unknown>>): string {
  return hashValue({ ...fields, domain });
}
