// Canonical JSON written straight from the fields of a value whose shape this layer fixes (a value
// hash's members are named by its family's code, not by the data), for the hashes replay takes on
// every event. The general path (`domainHash`, `hashValue`) walks the built object to check its key
// order, copies every object whose keys are out of order (the spread `domain` member always is) and
// then serializes the copy; a writer knows the order already. Strings go through JSON.stringify and
// integers through the same number form, exactly as canonical JSON writes them. A writer checks
// each leaf's kind as it writes it and gives up (UNWRITABLE) on anything it does not expect, and
// the hash then takes the general path, which answers (or refuses) as it always did.
import { sha256Hex } from "../../ledger/canonicalJson";

/** Thrown by the writers below when a leaf is not what the writer expects; not an Error, so no stack is captured. */
const UNWRITABLE: unique symbol = Symbol("unwritable");

/** A string member's canonical text. */
export function textJson(value: unknown): string {
  if (typeof value !== "string") throw UNWRITABLE;
  return JSON.stringify(value);
}

/** A safe integer member's canonical text (what JSON.stringify writes for it). */
export function integerJson(value: unknown): string {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) throw UNWRITABLE;
  return JSON.stringify(value);
}

/** A boolean member's canonical text. */
export function booleanJson(value: unknown): string {
  if (typeof value !== "boolean") throw UNWRITABLE;
  return value ? "true" : "false";
}

/** A list of strings, in its own order. */
export function textListJson(values: unknown): string {
  if (!Array.isArray(values)) throw UNWRITABLE;
  let written = "[";
  for (let index = 0; index < values.length; index += 1) {
    if (index > 0) written += ",";
    written += textJson(values[index]);
  }
  return `${written}]`;
}

/** A list of objects, each written by `write`, in its own order. */
export function objectListJson<T extends object>(values: readonly T[], write: (value: T) => string): string {
  if (!Array.isArray(values)) throw UNWRITABLE;
  let written = "[";
  for (let index = 0; index < values.length; index += 1) {
    const value: unknown = values[index];
    if (typeof value !== "object" || value === null) throw UNWRITABLE;
    if (index > 0) written += ",";
    written += write(value as T);
  }
  return `${written}]`;
}

/** Refuses a value the writer has no form for (a variant it does not know). */
export function unwritable(): never {
  throw UNWRITABLE;
}

/**
 * SHA-256 of `write(value)`, or `general(value)` when `value` is not an object or the writer gave up. Only UNWRITABLE is caught:
 * any other error is the writer's or the data's and surfaces as it is.
 */
export function writtenHash<T>(value: T, write: (value: T) => string, general: (value: T) => string): string {
  // Not even an object: the general path reads its members and fails with its own error.
  if (typeof value !== "object" || value === null) return general(value);
  let written: string;
  try {
    written = write(value);
  } catch (error) {
    if (error === UNWRITABLE) return general(value);
    throw error;
  }
  return sha256Hex(written);
}
