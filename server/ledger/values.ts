// Scalar rules of developer/v8 (§1.1). Parsers throw ValueError with a path-qualified message;
// callers translate that into their own fault codes.
export const MAX_TEXT_LENGTH = 4_000;
export const MAX_ARRAY_LENGTH = 100;
export const MAX_PAYLOAD_BYTES = 64_000;

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9._:/-]*$/u;
const SHA256 = /^[a-f0-9]{64}$/u;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/u;

export class ValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ValueError";
  }
}

export function fail(path: string, message: string): never {
  throw new ValueError(`${path}: ${message}`);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function objectAt(value: unknown, path: string): Record<string, unknown> {
  if (!isRecord(value)) return fail(path, "expected an object");
  return value;
}

/** Requires exactly the listed keys (own properties), nothing more. */
export function exactKeys(value: Record<string, unknown>, path: string, required: readonly string[]): void {
  for (const key of required) {
    if (!Object.hasOwn(value, key)) fail(`${path}.${key}`, "is required");
  }
  for (const key of Object.keys(value)) {
    if (!required.includes(key)) fail(`${path}.${key}`, "is not allowed");
  }
}

export function textAt(value: unknown, path: string, options: { max?: number; pattern?: RegExp } = {}): string {
  if (typeof value !== "string" || value.trim().length === 0) return fail(path, "expected non-blank text");
  if (value !== value.trim()) fail(path, "must not contain surrounding whitespace");
  if (value.length > (options.max ?? MAX_TEXT_LENGTH)) fail(path, "text is too long");
  if (options.pattern !== undefined && !options.pattern.test(value)) fail(path, "text has an invalid representation");
  return value;
}

// Every event carries several ids and hashes, so the valid case skips textAt's trims and option
// object: a string the pattern accepts within the length limit has no blank or surrounding
// whitespace to report (an id starts with a letter and holds no space; a hash is 64 hex digits),
// so textAt would return it unchanged. Anything else takes textAt for its exact message.

export function idAt(value: unknown, path: string): string {
  if (typeof value === "string" && value.length <= 160 && IDENTIFIER.test(value)) return value;
  return textAt(value, path, { max: 160, pattern: IDENTIFIER });
}

/** Whether `text` is exactly 64 lowercase hex digits (what SHA256 matches), without a regex. */
export function isSha256Hex(text: string): boolean {
  if (text.length !== 64) return false;
  for (let index = 0; index < 64; index += 1) {
    const code = text.charCodeAt(index);
    // 0-9 or a-f
    if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 102))) return false;
  }
  return true;
}

export function shaAt(value: unknown, path: string): string {
  if (typeof value === "string" && isSha256Hex(value)) return value;
  return textAt(value, path, { max: 64, pattern: SHA256 });
}

export function integerAt(value: unknown, path: string, options: { min?: number; max?: number } = {}): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) return fail(path, "expected a safe integer");
  if (value < (options.min ?? 0)) fail(path, "integer is too small");
  if (value > (options.max ?? Number.MAX_SAFE_INTEGER)) fail(path, "integer is too large");
  return value;
}

function digitsAt(text: string, start: number, count: number): number {
  let value = 0;
  for (let index = start; index < start + count; index += 1) value = value * 10 + (text.charCodeAt(index) - 48);
  return value;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether a text of TIMESTAMP's shape names a real instant written the way Date#toISOString
 * writes it (every event carries one, so this is arithmetic instead of a Date round trip; a unit
 * test pins it to the round trip).
 */
export function isCanonicalTimestamp(timestamp: string): boolean {
  const year = digitsAt(timestamp, 0, 4);
  const month = digitsAt(timestamp, 5, 2);
  const day = digitsAt(timestamp, 8, 2);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number))) return false;
  return digitsAt(timestamp, 11, 2) < 24 && digitsAt(timestamp, 14, 2) < 60 && digitsAt(timestamp, 17, 2) < 60;
}

export function timestampAt(value: unknown, path: string): string {
  const timestamp = textAt(value, path, { max: 24, pattern: TIMESTAMP });
  if (!isCanonicalTimestamp(timestamp)) fail(path, "expected a canonical UTC timestamp");
  return timestamp;
}

export function arrayAt<T>(
  value: unknown,
  path: string,
  parse: (entry: unknown, entryPath: string) => T,
  options: { nonEmpty?: boolean; max?: number } = {},
): T[] {
  if (!Array.isArray(value)) return fail(path, "expected an array");
  if (options.nonEmpty === true && value.length === 0) fail(path, "must not be empty");
  if (value.length > (options.max ?? MAX_ARRAY_LENGTH)) fail(path, "has too many items");
  return value.map((entry, index) => parse(entry, `${path}[${index}]`));
}

export function isDeveloperId(value: unknown): value is string {
  return typeof value === "string" && value.length <= 160 && IDENTIFIER.test(value);
}
