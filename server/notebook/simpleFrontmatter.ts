// The frontmatter of nearly every record in a small, plain subset of YAML, read without the `yaml`
// package: that package's lexer, CST, composer and toJS cost about 400 µs a record (twice, with
// the depth pre-pass in server/yaml/strictDocument.ts), 15 times reading and hashing the file.
//
// The subset is what writers of observer-record/v1 produce: block mappings and block sequences,
// keys of letters, digits, `_` and `-`, one-line plain, single- or double-quoted string scalars,
// `[]`, `{}` and one-line flow sequences of plain words. Anything else — comments, anchors, tags,
// block or multi-line scalars, escapes, tabs, scalars that would resolve to a number, a boolean or
// null, repeated keys, unusual characters — answers `undefined`, and the caller parses the text
// with the `yaml` package as before. So this reader never decides anything on its own: it either
// returns exactly the value `yaml` (core schema) would, for a text `yaml` reads without error, or
// it declines. test/unit/notebookValidationCache.test.ts compares it with `yaml` on every record
// fixture, generated notebooks and line-level mutations of them.

/**
 * The characters the subset reads besides the line break and the space, as the ranges of a `u`
 * character class; every other one (control and format characters, exotic spaces, line
 * separators) might read differently in some YAML corner.
 */
export const USUAL_VISIBLE_CHARACTERS = "\\x21-\\x7e\\u00a1-\\u167f\\u1681-\\u1fff\\u2010-\\u2027\\u2030-\\u205e\\u2070-\\u2fff\\u3001-\\ud7ff\\ue000-\\ufefe\\uff00-\\ufffd\\u{10000}-\\u{10ffff}";
const UNUSUAL_CHARACTER = new RegExp(`[^\\n ${USUAL_VISIBLE_CHARACTERS}]`, "u");
/** The longest key the subset reads, far below YAML's 1,024-character bound on implicit keys. */
const MAX_KEY_LENGTH = 256;
/** Keys the core schema would turn into something other than that string. */
const SPECIAL_KEY = /^(?:null|true|false|__proto__)$/i;
/** The first characters that start something other than a plain scalar (YAML indicators), or a number. */
const PLAIN_FIRST = /^[^-?:,[\]{}#&*!|>'"%@`~+.0-9 ]/;
/** yaml's core schema tags (null, bool, int, float) in their own words: a plain scalar matching one is not a string. */
const CORE_NON_STRING = [
  /^(?:~|[Nn]ull|NULL)?$/,
  /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
  /^0o[0-7]+$/,
  /^[-+]?[0-9]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
];
const SINGLE_QUOTED = /^'((?:[^']|'')*)'$/;
const DOUBLE_QUOTED = /^"([^"\\]*)"$/;
const FLOW_WORDS = /^\[([^[\]{}"'#:,]+(?:,[^[\]{}"'#:,]+)*)\]$/;
/** Nesting far beyond any record's (3); deeper text goes to `yaml`, which has the bounded checks. */
const MAX_DEPTH = 8;

export interface Line {
  readonly indent: number;
  readonly content: string;
}

/**
 * Thrown to give up on a text. Not an Error: the subset's reader runs once per record, and
 * capturing a stack trace for each text it declines would cost more than reading it.
 */
export const DECLINE: unique symbol = Symbol("decline");

export function decline(): never {
  throw DECLINE;
}

const SPACE = 0x20;
const COLON = 0x3a;

function isKeyStart(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f;
}

function isKeyPart(code: number): boolean {
  return isKeyStart(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d;
}

/**
 * Where the key of a mapping key line ends (at its colon), or -1: `key:` alone, or `key: value`
 * with one space or more before the value. In the regular expression's words,
 * `^[A-Za-z_][A-Za-z0-9_-]{0,255}:(?: +.*)?$`; a scan, because it runs on every line of every record.
 */
export function keyEnd(content: string): number {
  if (!isKeyStart(content.charCodeAt(0))) return -1;
  let end = 1;
  while (end < content.length && isKeyPart(content.charCodeAt(end))) end += 1;
  if (end > MAX_KEY_LENGTH || content.charCodeAt(end) !== COLON) return -1;
  return end + 1 === content.length || content.charCodeAt(end + 1) === SPACE ? end : -1;
}

/** The value after a key line's colon: undefined for `key:` alone, else the text after the spaces. */
export function valueAfter(content: string, end: number): string | undefined {
  let start = end + 1;
  if (start === content.length) return undefined;
  while (content.charCodeAt(start) === SPACE) start += 1;
  return content.slice(start);
}

/** `text` without spaces at either end (only spaces: the subset has no other white space). */
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === SPACE) start += 1;
  while (end > start && text.charCodeAt(end - 1) === SPACE) end -= 1;
  return text.slice(start, end);
}

/**
 * First characters after which a plain scalar might still be one of the core schema's nulls or
 * booleans. Every other non-string form (numbers, `~`, `.inf`, `.nan`) starts with a character
 * PLAIN_FIRST already refused, so only these need the CORE_NON_STRING tests.
 */
const NULL_OR_BOOLEAN_FIRST: ReadonlySet<string> = new Set(["n", "N", "t", "T", "f", "F"]);

function plainScalar(text: string): string {
  if (!PLAIN_FIRST.test(text) || text.includes(": ") || text.includes(" #") || text.endsWith(":")) decline();
  if (NULL_OR_BOOLEAN_FIRST.has(text.charAt(0))) for (const test of CORE_NON_STRING) if (test.test(text)) decline();
  return text;
}

/** A value written on its key's (or item's) line, as `yaml` reads it, or DECLINE thrown. */
export function inlineValue(text: string): unknown {
  if (text === "[]") return [];
  if (text === "{}") return {};
  const first = text.charAt(0);
  if (first === "'") {
    const match = SINGLE_QUOTED.exec(text);
    return match !== null ? (match[1] as string).replaceAll("''", "'") : decline();
  }
  if (first === '"') {
    const match = DOUBLE_QUOTED.exec(text);
    return match !== null ? (match[1] as string) : decline();
  }
  if (first === "[") {
    const match = FLOW_WORDS.exec(text);
    if (match === null) decline();
    const words: string[] = [];
    for (const item of (match[1] as string).split(",")) {
      const word = trimSpaces(item);
      words.push(word === "" ? decline() : plainScalar(word));
    }
    return words;
  }
  return plainScalar(text);
}

/** A value that must be a string written on its key's line (`rest`: after the colon and its spaces), or DECLINE thrown. */
export function inlineString(rest: string | undefined): string {
  const value = rest === undefined ? decline() : inlineValue(rest);
  return typeof value === "string" ? value : decline();
}

class Reader {
  private position = 0;
  keys = 0;

  constructor(
    private readonly lines: Line[],
    private readonly maxKeys: number,
  ) {}

  done(): boolean {
    return this.position >= this.lines.length;
  }

  private peek(): Line | undefined {
    return this.lines[this.position];
  }

  /** The value of a key whose line ends at the colon: a deeper mapping, or a sequence (at the same indent only at the top level). */
  private nestedValue(indent: number, depth: number): unknown {
    const next = this.peek();
    if (next === undefined) decline();
    const isItem = next.content.startsWith("- ");
    if (next.indent > indent) return isItem ? this.sequence(next.indent, depth + 1) : this.mapping(next.indent, depth + 1);
    if (next.indent === indent && indent === 0 && isItem) return this.sequence(indent, depth + 1);
    return decline();
  }

  mapping(indent: number, depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) decline();
    const result: Record<string, unknown> = {};
    for (let line = this.peek(); line !== undefined && line.indent >= indent; line = this.peek()) {
      if (line.indent > indent) decline();
      if (line.content.startsWith("- ")) {
        // A sequence at the mapping's own indent belongs to the key before it (handled there); here it ends nothing sensibly.
        decline();
      }
      const end = keyEnd(line.content);
      if (end === -1) decline();
      const key = line.content.slice(0, end);
      if (SPECIAL_KEY.test(key) || Object.hasOwn(result, key)) decline();
      this.keys += 1;
      if (this.keys > this.maxKeys) decline();
      this.position += 1;
      const rest = valueAfter(line.content, end);
      result[key] = rest === undefined ? this.nestedValue(indent, depth) : inlineValue(rest);
    }
    return result;
  }

  private sequence(indent: number, depth: number): unknown[] {
    if (depth > MAX_DEPTH) decline();
    const items: unknown[] = [];
    for (let line = this.peek(); line !== undefined && line.indent >= indent; line = this.peek()) {
      if (line.indent > indent || !line.content.startsWith("- ")) {
        // At the top level a key line at the sequence's indent is the next key of the mapping above.
        if (line.indent === indent && indent === 0 && keyEnd(line.content) !== -1) break;
        decline();
      }
      const item = line.content.slice(2);
      if (item.startsWith(" ") || item.startsWith("- ") || item === "-") decline();
      if (keyEnd(item) !== -1) {
        // `- key: value` opens a mapping whose keys line up with `key`.
        this.lines[this.position] = { indent: indent + 2, content: item };
        items.push(this.mapping(indent + 2, depth + 1));
      } else {
        this.position += 1;
        items.push(inlineValue(item));
      }
    }
    return items;
  }
}

/**
 * The frontmatter text (line endings already `\n`) as the plain mapping `yaml` would give, or
 * `undefined` when the text is outside the subset (including any text `yaml` would refuse, and
 * any with more than `maxKeys` keys): then only `yaml` may answer.
 */
export function readSimpleFrontmatter(text: string, maxKeys: number): Record<string, unknown> | undefined {
  const lines = subsetLines(text);
  if (lines === undefined) return undefined;
  try {
    const reader = new Reader(lines, maxKeys);
    const value = reader.mapping(0, 1);
    return reader.done() ? value : undefined;
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  }
}

/**
 * The frontmatter's non-empty lines (indent and content), or `undefined` when some line is outside
 * what the subset reads whatever its structure: unusual characters, whitespace-only lines, trailing
 * spaces, comments, directives and document markers. The first line is at indent 0. Shared with
 * the record facts reader (recordFacts.ts), which reads a narrower structure from the same lines.
 */
export function subsetLines(text: string): Line[] | undefined {
  if (text === "" || UNUSUAL_CHARACTER.test(text)) return undefined;
  const lines: Line[] = [];
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    if (end > start) {
      // Only spaces indent in YAML; the subset has no other white space (UNUSUAL_CHARACTER).
      let contentStart = start;
      while (contentStart < end && text.charCodeAt(contentStart) === SPACE) contentStart += 1;
      const indent = contentStart - start;
      const content = text.slice(contentStart, end);
      // Whitespace-only lines, trailing spaces, comments and directives or document markers are left to yaml.
      if (content === "" || text.charCodeAt(end - 1) === SPACE || content.startsWith("#") || (indent === 0 && (content.startsWith("---") || content.startsWith("...") || content.startsWith("%")))) {
        return undefined;
      }
      lines.push({ indent, content });
    }
    start = end + 1;
  }
  if (lines.length === 0 || (lines[0] as Line).indent !== 0) return undefined;
  return lines;
}
