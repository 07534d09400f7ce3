// Proving that a JSON text is already the canonical JSON of its own JSON.parse result, without
// serializing the parsed value again. Replay reads every ledger line this way: a line Docket wrote
// is canonical, so its entry's canonical text (and every hash over it) can be cut out of the line.
// Both proofs answer "proven" or "cannot tell"; on "cannot tell" the caller takes the general path
// (canonicalJson of the parsed value, compared), which decides and reports exactly as before.
import { MAX_JSON_DEPTH } from "./canonicalJson";

/** A lone surrogate (with the u flag a well-formed pair is one code point, outside this class). */
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const QUOTE = 34;
const COLON = 58;
const COMMA = 44;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const MINUS = 45;
const ZERO = 48;
const NINE = 57;
/** Integers up to 15 digits are exact doubles that JavaScript writes back digit for digit. */
const MAX_PLAIN_DIGITS = 15;

/** Whether text[aStart, aEnd) sorts strictly before text[bStart, bEnd) by code units. */
function rangeBefore(text: string, aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  const shared = Math.min(aEnd - aStart, bEnd - bStart);
  for (let offset = 0; offset < shared; offset += 1) {
    const a = text.charCodeAt(aStart + offset);
    const b = text.charCodeAt(bStart + offset);
    if (a !== b) return a < b;
  }
  return aEnd - aStart < bEnd - bStart;
}

// Per nesting level, the previous key of the object open there (reused: replay is single-threaded
// and the scan never re-enters itself).
const keyStarts = new Int32Array(MAX_JSON_DEPTH + 1);
const keyEnds = new Int32Array(MAX_JSON_DEPTH + 1);

/**
 * Whether `text`, which JSON.parse has accepted, is byte for byte the canonical JSON of the value it
 * parses to, proven from the text alone; false when the text has anything this scan does not
 * decide (a backslash, a lone surrogate, a number that is not a plain integer of at most 15 digits,
 * nesting at MAX_JSON_DEPTH). Why a true answer is exact: without backslashes a string's text is
 * its value and runs to the next quote, and JSON.stringify writes such a string (no quote,
 * backslash, control character or lone surrogate in it) between quotes unchanged; a plain integer is
 * written back as the same digits (-0 is refused: it is written "0"); there is no whitespace
 * outside strings; and each object's keys strictly ascend by code units in the text, so they are
 * unique (no member is lost to a duplicate) and in the order canonical JSON writes them.
 */
export function isCanonicalJsonText(text: string): boolean {
  if (text.indexOf("\\") >= 0 || LONE_SURROGATE.test(text)) return false;
  const length = text.length;
  let depth = 0;
  let at = 0;
  while (at < length) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      const close = text.indexOf('"', at + 1);
      if (text.charCodeAt(close + 1) === COLON) {
        if (keyEnds[depth] !== -1 && !rangeBefore(text, keyStarts[depth] as number, keyEnds[depth] as number, at + 1, close)) return false;
        keyStarts[depth] = at + 1;
        keyEnds[depth] = close;
        at = close + 2;
      } else {
        at = close + 1;
      }
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      depth += 1;
      if (depth >= MAX_JSON_DEPTH) return false;
      keyEnds[depth] = -1;
      at += 1;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      depth -= 1;
      at += 1;
    } else if (code === COMMA) {
      at += 1;
    } else if (code === 110 || code === 116) {
      // null, true (JSON.parse accepted the text, so the literal is whole)
      at += 4;
    } else if (code === 102) {
      // false
      at += 5;
    } else {
      const negative = code === MINUS;
      if (negative) at += 1;
      const first = text.charCodeAt(at);
      if (first === ZERO) {
        if (negative) return false;
        at += 1;
      } else if (first > ZERO && first <= NINE) {
        const start = at;
        at += 1;
        for (let digit = text.charCodeAt(at); digit >= ZERO && digit <= NINE; digit = text.charCodeAt(at)) at += 1;
        if (at - start > MAX_PLAIN_DIGITS) return false;
      } else {
        // whitespace, or anything else this scan does not decide
        return false;
      }
      const after = text.charCodeAt(at);
      // a fraction or an exponent
      if (after === 46 || after === 101 || after === 69) return false;
    }
  }
  return true;
}

/**
 * Whether every object in a JSON.parse result enumerates its keys in strictly ascending code-unit
 * order (the order canonical JSON writes). False at MAX_JSON_DEPTH: such a tree takes the general path.
 */
function keysAscend(value: unknown, depth: number): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (depth >= MAX_JSON_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) if (!keysAscend(value[index], depth + 1)) return false;
    return true;
  }
  let previous: string | null = null;
  for (const key in value) {
    if (previous !== null && !(previous < key)) return false;
    previous = key;
    if (!keysAscend((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/**
 * Whether `text` is exactly the canonical JSON of `parsed`, its JSON.parse result (false: cannot
 * tell). First the scan above; a text it does not decide (escapes, lone surrogates, fractions) is
 * written again by the engine's JSON.stringify and compared, which proves it when every object's
 * keys ascend in the engine's own enumeration order: canonical JSON is JSON.stringify of a tree
 * whose keys enumerate in code-unit order, and anything JSON.stringify writes differently
 * (whitespace, another escape, -0, 1.0, a duplicate key) fails the comparison.
 */
export function isCanonicalTextOf(text: string, parsed: unknown): boolean {
  if (isCanonicalJsonText(text)) return true;
  let written: string;
  try {
    written = JSON.stringify(parsed);
  } catch {
    return false;
  }
  return written === text && keysAscend(parsed, 0);
}
