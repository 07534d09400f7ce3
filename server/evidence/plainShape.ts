// What the evidence store's direct checks (toolResultInput.ts, evidenceRecord.ts) share: the
// tests a zod strict object applies to an object and its keys, answered only where they are
// certain; anything else is left to the schema.

/** An object zod's object and record parsers take as is: not an array, Object's or no prototype. */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * Exactly these keys, each the object's own, and no other enumerable key (inherited ones
 * included: a strict object's unknown-key test sees those too). `optional` keys may be absent.
 */
export function hasExactKeys(value: Record<string, unknown>, required: readonly string[], optional: readonly string[] = []): boolean {
  let enumerable = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) return false;
    enumerable += 1;
  }
  let present = 0;
  for (const key of required) {
    if (!Object.hasOwn(value, key) || !Object.prototype.propertyIsEnumerable.call(value, key)) return false;
    present += 1;
  }
  for (const key of optional) {
    if (!Object.hasOwn(value, key)) continue;
    if (!Object.prototype.propertyIsEnumerable.call(value, key)) return false;
    present += 1;
  }
  return enumerable === present;
}

/** A string of `min`–`max` UTF-16 code units (zod's minLength/maxLength). */
export function isStringOf(value: unknown, min: number, max: number): value is string {
  return typeof value === "string" && value.length >= min && value.length <= max;
}

/** zod's `z.int()`: a safe integer. */
export function isSafeInt(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value);
}
