// Phase A of observer-record/v1 (observer.md §5.5): one file's bytes to a typed record, or the
// diagnostics of the first step that failed. Never throws, whatever the bytes.
import { createHash } from "node:crypto";
import { notebookDiagnostic, sortDiagnostics, type NotebookDiagnostic } from "./diagnostics";
import { recordRuleDiagnostics } from "./recordRules";
import { OBSERVER_RECORD_SCHEMA, schemaDiagnostics, type ObserverRecord, type RecordType } from "./recordSchema";
import { certainlyMatchesRecordSchema } from "./recordSchemaCheck";
import { readSimpleFrontmatter } from "./simpleFrontmatter";

export interface ParsedRecord {
  readonly path: string;
  readonly recordId: string;
  readonly type: RecordType;
  readonly status: string;
  readonly title: string;
  /** The whole decoded frontmatter, custom keys included (deep-frozen). */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** The same object, typed by the schema it passed. */
  readonly record: ObserverRecord;
  readonly h1: string;
  readonly body: string;
  /** Lowercase hex SHA-256 of the file's bytes. */
  readonly sha256: string;
}

/**
 * Docket's bounds on one record, far above any real record (a few kilobytes and a few dozen keys),
 * so that no file or proposal can make validation slow or its diagnostics huge. The reference has
 * none; a record past either is refused with its own code instead of being parsed.
 */
export const MAX_RECORD_BYTES = 1024 * 1024;
/** The YAML between the `---` lines, in UTF-8 bytes: it is the costly part to read, the body is not. */
export const MAX_FRONTMATTER_BYTES = 64 * 1024;
/** Mapping keys in the frontmatter, counted at every depth (`sources` entries' keys included). */
export const MAX_FRONTMATTER_KEYS = 1_000;
/** Collections nested in one another; a record's deepest is 3 (a `sources` entry in its list in the frontmatter). */
export const MAX_FRONTMATTER_DEPTH = 64;

export type ParseRecordResult = { ok: true; record: ParsedRecord } | { ok: false; diagnostics: NotebookDiagnostic[] };

export type Step<T> = { ok: true; value: T } | { ok: false; diagnostics: NotebookDiagnostic[] };

function markdownFailure(path: string, code: string, message: string): { ok: false; diagnostics: NotebookDiagnostic[] } {
  return { ok: false, diagnostics: [notebookDiagnostic({ phase: "markdown", code, path, message })] };
}

// fatal: a record must be real UTF-8 (the reference would silently turn bad bytes into U+FFFD and
// then hash different bytes than the file holds). ignoreBOM keeps a BOM as text, as Node's
// readFile does for the reference, so a BOM-prefixed file fails the delimiter check the same way.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function decodeUtf8(path: string, bytes: Uint8Array): Step<string> {
  try {
    return { ok: true, value: utf8.decode(bytes) };
  } catch {
    return markdownFailure(path, "markdown.encoding.invalid", "The record is not valid UTF-8 text.");
  }
}

export interface Sections {
  readonly frontmatterText: string;
  readonly markdownLines: readonly string[];
}

/** Index of the closing delimiter line, or -1; line 0 must be the opening one. */
function closingDelimiter(lines: readonly string[]): number {
  if (lines[0] !== "---") return -1;
  for (let index = 1; index < lines.length; index += 1) if (lines[index] === "---") return index;
  return -1;
}

export interface SectionBounds {
  /** The record's text with line endings `\n`. */
  readonly normalized: string;
  readonly frontmatterText: string;
  /** Where the lines after the closing delimiter start in `normalized`; past its end when there are none. */
  readonly bodyStart: number;
}

/**
 * Where the frontmatter and the lines after it are. The same as splitting the whole text into lines
 * and joining the frontmatter's back, found with indexOf instead: the frontmatter is the part every
 * record has most lines in, and it is read as one text anyway.
 */
export function sectionBounds(path: string, text: string): Step<SectionBounds> {
  const normalized = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
  if (!normalized.startsWith("---") || (normalized.length > 3 && normalized.charCodeAt(3) !== 0x0a)) {
    return markdownFailure(path, "markdown.frontmatter.missing", 'A record must start with a "---" frontmatter line.');
  }
  // The first later line that is exactly `---`: a line break (the opening line's at index 3 is the
  // first), `---`, then a line break or the end of the text.
  for (let found = normalized.indexOf("\n---", 3); found !== -1; found = normalized.indexOf("\n---", found + 1)) {
    const start = found + 1;
    const end = start + 3;
    if (end === normalized.length || normalized.charCodeAt(end) === 0x0a) {
      const frontmatterText = start === 4 ? "" : normalized.slice(4, start - 1);
      return { ok: true, value: { normalized, frontmatterText, bodyStart: end + 1 } };
    }
  }
  return markdownFailure(path, "markdown.frontmatter.missing", 'The frontmatter has no closing "---" line.');
}

/** The lines after the closing delimiter (none when the text ends with it). */
export function bodyLines(bounds: SectionBounds): string[] {
  return bounds.bodyStart > bounds.normalized.length ? [] : bounds.normalized.slice(bounds.bodyStart).split("\n");
}

/** The frontmatter text and the lines after it. */
export function splitSections(path: string, text: string): Step<Sections> {
  const bounds = sectionBounds(path, text);
  if (!bounds.ok) return bounds;
  return { ok: true, value: { frontmatterText: bounds.value.frontmatterText, markdownLines: bodyLines(bounds.value) } };
}

/**
 * The frontmatter exactly as written (original line endings kept): every character after the
 * opening `---` line's line break and before the closing `---` line. A rewrite that puts this text
 * back between the same delimiters preserves custom frontmatter byte for byte. Undefined when the
 * text has no complete frontmatter block.
 */
export function frontmatterSource(markdown: string): string | undefined {
  const lineStarts: number[] = [0];
  const lineTexts: string[] = [];
  const breaks = /\r\n|\r|\n/g;
  let cursor = 0;
  for (let match = breaks.exec(markdown); match !== null; match = breaks.exec(markdown)) {
    lineTexts.push(markdown.slice(cursor, match.index));
    cursor = match.index + match[0].length;
    lineStarts.push(cursor);
  }
  lineTexts.push(markdown.slice(cursor));
  const closing = closingDelimiter(lineTexts);
  if (closing === -1) return undefined;
  return markdown.slice(lineStarts[1], lineStarts[closing]);
}

function isPlainMapping(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function parseFrontmatter(path: string, text: string): Step<Record<string, unknown>> {
  const size = Buffer.byteLength(text, "utf8");
  if (size > MAX_FRONTMATTER_BYTES) {
    return markdownFailure(path, "markdown.frontmatter.too-large", `The frontmatter has ${size} bytes; a record's may have at most ${MAX_FRONTMATTER_BYTES}.`);
  }
  // The plain subset nearly every record is written in, without the yaml package (simpleFrontmatter.ts);
  // it declines anything it is not certain of, and yaml answers that as before.
  const simple = readSimpleFrontmatter(text, MAX_FRONTMATTER_KEYS);
  if (simple !== undefined) return { ok: true, value: simple };
  let value: unknown;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { parseStrictYaml } = require("../yaml/strictDocument") as typeof import("../yaml/strictDocument");
    // Core schema so unquoted timestamps stay strings; `<<` is an ordinary key; duplicate keys are
    // errors (found in linear time, strictDocument.ts); maxAliasCount 0 makes any alias an error,
    // so no value is shared or expanded. logLevel "error" keeps yaml from printing warnings.
    const parsed = parseStrictYaml(
      text,
      { schema: "core", merge: false, prettyErrors: false, logLevel: "error" },
      { maxKeys: MAX_FRONTMATTER_KEYS, maxDepth: MAX_FRONTMATTER_DEPTH },
    );
    if (!parsed.ok && parsed.limit === "keys") {
      return markdownFailure(
        path,
        "markdown.frontmatter.too-many-keys",
        `The frontmatter has ${parsed.keys} keys; a record may have at most ${MAX_FRONTMATTER_KEYS}, counted at every depth.`,
      );
    }
    if (!parsed.ok) {
      return markdownFailure(path, "markdown.frontmatter.too-deep", `The frontmatter nests lists and mappings more than ${MAX_FRONTMATTER_DEPTH} deep.`);
    }
    const first = parsed.document.errors[0];
    if (first !== undefined) return markdownFailure(path, "markdown.frontmatter.invalid", `Invalid YAML frontmatter: ${first.message}`);
    value = parsed.document.toJS({ maxAliasCount: 0 });
  } catch (error) {
    return markdownFailure(path, "markdown.frontmatter.invalid", `Invalid YAML frontmatter: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isPlainMapping(value)) return markdownFailure(path, "markdown.frontmatter.invalid", "The YAML frontmatter must be one mapping.");
  return { ok: true, value };
}

type Fence = { readonly char: string; readonly size: number };

/** Could this line open or close a fence (up to three spaces, then a backtick or tilde)? Most lines cannot. */
function mayBeFence(line: string): boolean {
  const first = line.charCodeAt(0);
  return first === 0x60 || first === 0x7e || first === 0x20;
}

function fenceOpening(line: string): Fence | undefined {
  if (!mayBeFence(line)) return undefined;
  const match = /^ {0,3}(`{3,}|~{3,})/.exec(line);
  const marker = match?.[1];
  return marker === undefined ? undefined : { char: marker.charAt(0), size: marker.length };
}

function closesFence(line: string, open: Fence): boolean {
  if (!mayBeFence(line)) return false;
  const match = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
  const marker = match?.[1];
  return marker !== undefined && marker.charAt(0) === open.char && marker.length >= open.size;
}

/** What afterLine says of a line that is a second level-1 heading outside fenced code. */
const SECOND_H1 = Symbol("second h1");

/**
 * One line of the body after the heading: the fence open after it, or SECOND_H1. Only lines whose
 * first character is a space, a backtick, a tilde or `#` can change anything.
 */
function afterLine(line: string, open: Fence | undefined): Fence | undefined | typeof SECOND_H1 {
  if (open !== undefined) return closesFence(line, open) ? undefined : open;
  const opening = fenceOpening(line);
  if (opening !== undefined) return opening;
  return line.charCodeAt(0) === 0x23 && /^#\s+\S/.test(line) ? SECOND_H1 : undefined;
}

/** A second `# text` heading outside fenced code (from line `from` on); headings inside ``` or ~~~ fences are content. */
function hasSecondH1(lines: readonly string[], from: number): boolean {
  let open: Fence | undefined;
  for (let index = from; index < lines.length; index += 1) {
    const state = afterLine(lines[index] as string, open);
    if (state === SECOND_H1) return true;
    open = state;
  }
  return false;
}

/** The line breaks before lines that can change afterLine's state (every other line leaves it as it is). */
const LINE_THAT_MATTERS = /\n[ `~#]/g;

/** hasSecondH1 over the lines after the line break at `from`, visiting only the lines that can matter. */
function hasSecondH1InText(text: string, from: number): boolean {
  let open: Fence | undefined;
  LINE_THAT_MATTERS.lastIndex = from;
  for (let found = LINE_THAT_MATTERS.exec(text); found !== null; found = LINE_THAT_MATTERS.exec(text)) {
    const start = found.index + 1;
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const state = afterLine(text.slice(start, end), open);
    if (state === SECOND_H1) return true;
    open = state;
    LINE_THAT_MATTERS.lastIndex = end;
  }
  return false;
}

const FIRST_HEADING = /^#\s+(.+?)\s*$/;
const CONTENT = /\S/;

/**
 * The lines after the frontmatter checked: a first non-blank line that is a `# Title` heading, no
 * second one outside fenced code, and content after it. The body's text is not built (the record
 * facts reader, recordFacts.ts, needs only the verdict): the lines joined and trimmed are empty
 * exactly when every line trims to nothing, since the line breaks joining them are white space too.
 */
export function checkBody(path: string, lines: readonly string[]): Step<{ h1: string; bodyStart: number }> {
  const first = lines.findIndex((line) => line.trim() !== "");
  const heading = first === -1 ? null : FIRST_HEADING.exec(lines[first] ?? "");
  const h1 = heading?.[1]?.trim() ?? "";
  if (h1 === "") return markdownFailure(path, "markdown.h1.missing", 'The first non-blank line after the frontmatter must be a "# Title" heading.');
  const bodyStart = first + 1;
  if (hasSecondH1(lines, bodyStart)) return markdownFailure(path, "markdown.h1.multiple", "A record has exactly one level-1 heading outside fenced code.");
  let content = false;
  for (let index = bodyStart; index < lines.length && !content; index += 1) content = (lines[index] as string).trim() !== "";
  if (!content) return markdownFailure(path, "markdown.body.empty", "A record needs content after its heading.");
  return { ok: true, value: { h1, bodyStart } };
}

/**
 * checkBody's verdict on the lines after the frontmatter, for the usual body, without splitting it
 * into lines: when its first line starts with `#`, that line is the first non-blank one, the
 * second-heading check visits only the lines that can matter (hasSecondH1InText), and there is
 * content exactly when some character after the heading line is not white space (String#trim and
 * \s strip the same characters, line breaks included). `undefined` for any other body: then
 * checkBody decides.
 */
export function usualBodyPasses(bounds: SectionBounds): boolean | undefined {
  const { normalized: text, bodyStart: start } = bounds;
  if (text.charCodeAt(start) !== 0x23) return undefined;
  let lineEnd = text.indexOf("\n", start);
  if (lineEnd === -1) lineEnd = text.length;
  const heading = FIRST_HEADING.exec(text.slice(start, lineEnd));
  if ((heading?.[1]?.trim() ?? "") === "") return false;
  return !hasSecondH1InText(text, lineEnd) && CONTENT.test(text.slice(lineEnd));
}

function parseBody(path: string, lines: readonly string[]): Step<{ h1: string; body: string }> {
  const checked = checkBody(path, lines);
  if (!checked.ok) return checked;
  return { ok: true, value: { h1: checked.value.h1, body: lines.slice(checked.value.bodyStart).join("\n").trim() } };
}

/** Freezes a decoded YAML tree without recursion, so deep nesting cannot overflow the stack. */
function deepFreeze(root: object): void {
  const pending: object[] = [root];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (Object.isFrozen(next)) continue;
    Object.freeze(next);
    for (const child of Object.values(next)) if (typeof child === "object" && child !== null) pending.push(child as object);
  }
}

function checkRecord(path: string, text: string): Step<{ frontmatter: Record<string, unknown>; h1: string; body: string }> {
  const sections = splitSections(path, text);
  if (!sections.ok) return sections;
  const frontmatter = parseFrontmatter(path, sections.value.frontmatterText);
  if (!frontmatter.ok) return frontmatter;
  const body = parseBody(path, sections.value.markdownLines);
  if (!body.ok) return body;
  const fields = frontmatter.value;
  const recordId = typeof fields.id === "string" ? fields.id : undefined;
  const version = fields.observer_schema;
  // A future version is reported as such instead of as a pile of v1 schema errors.
  if (version !== undefined && version !== OBSERVER_RECORD_SCHEMA) {
    const shown = typeof version === "string" ? version : JSON.stringify(version) ?? String(version);
    return {
      ok: false,
      diagnostics: [
        notebookDiagnostic({
          phase: "schema",
          code: "schema.unsupported-version",
          path,
          pointer: "/observer_schema",
          recordId,
          message: `Unsupported record schema ${shown}; this Notebook reads ${OBSERVER_RECORD_SCHEMA}.`,
        }),
      ],
    };
  }
  const schemaProblems = certainlyMatchesRecordSchema(fields) ? [] : schemaDiagnostics(path, fields);
  if (schemaProblems.length > 0) return { ok: false, diagnostics: sortDiagnostics(schemaProblems) };
  const ruleProblems = recordRuleDiagnostics(path, fields as unknown as ObserverRecord);
  if (ruleProblems.length > 0) return { ok: false, diagnostics: sortDiagnostics(ruleProblems) };
  return { ok: true, value: { frontmatter: fields, ...body.value } };
}

/**
 * Phase A answers remembered by content hash. Phase A is a pure function of the bytes (the path only
 * names the file in the answer), and the same bytes are validated several times per proposal and
 * publication under different names (`<prepared-record-N>` in preflight, `records/<id>.md` in the
 * final set, then open, drift check, read-back) and on every view refresh, so each record is
 * parsed once. Bounded by count and by the bytes of the records behind the answers (an answer holds
 * its record's text): the oldest answers go first, so a long-running server that reads many large
 * records keeps a fixed amount of memory.
 */
const PARSE_CACHE_LIMIT = 8_192;
const PARSE_CACHE_BYTES = 32 * 1024 * 1024;
const parseCache = new Map<string, { readonly path: string; readonly result: ParseRecordResult; readonly bytes: number }>();
let parseCacheBytes = 0;

/** The same answer for a file of the same bytes at another path. */
function atPath(result: ParseRecordResult, path: string): ParseRecordResult {
  if (!result.ok) return { ok: false, diagnostics: result.diagnostics.map((diagnostic) => ({ ...diagnostic, path })) };
  return { ok: true, record: Object.freeze({ ...result.record, path }) };
}

/**
 * Phase A for one record file: size, decode, split, parse (bounded, duplicate keys in linear time),
 * check headings, schema, then record rules. The result is shared with later calls for the same
 * bytes: never mutate it.
 */
export function parseRecordMarkdown(path: string, bytes: Uint8Array, knownSha256?: string): ParseRecordResult {
  // Checked before anything reads the bytes, hashing for the cache included.
  if (bytes.byteLength > MAX_RECORD_BYTES) {
    return markdownFailure(path, "markdown.record.too-large", `The record has ${bytes.byteLength} bytes; a record may have at most ${MAX_RECORD_BYTES}.`);
  }
  // A caller that just hashed the bytes (the notebook reader) passes the digest instead of paying twice.
  const key = knownSha256 ?? createHash("sha256").update(bytes).digest("hex");
  const remembered = parseCache.get(key);
  if (remembered !== undefined) {
    // Refresh its place so records read on every validation stay.
    parseCache.delete(key);
    parseCache.set(key, remembered);
    return remembered.path === path ? remembered.result : atPath(remembered.result, path);
  }
  const result = parseRecordUncached(path, bytes, key);
  parseCache.set(key, { path, result, bytes: bytes.byteLength });
  parseCacheBytes += bytes.byteLength;
  while (parseCache.size > PARSE_CACHE_LIMIT || parseCacheBytes > PARSE_CACHE_BYTES) {
    const [oldest, entry] = parseCache.entries().next().value ?? [];
    if (oldest === undefined || entry === undefined) break;
    parseCache.delete(oldest);
    parseCacheBytes -= entry.bytes;
  }
  return result;
}

/**
 * Phase A without the in-memory answers: for a caller that keeps its own (the validation cache of
 * `docket notebook validate`, notebookValidation.ts) and would only pay for keeping thousands of
 * parsed records alive in a process that ends right after.
 */
export function parseRecordMarkdownUnremembered(path: string, bytes: Uint8Array, sha256: string): ParseRecordResult {
  if (bytes.byteLength > MAX_RECORD_BYTES) {
    return markdownFailure(path, "markdown.record.too-large", `The record has ${bytes.byteLength} bytes; a record may have at most ${MAX_RECORD_BYTES}.`);
  }
  return parseRecordUncached(path, bytes, sha256);
}

function parseRecordUncached(path: string, bytes: Uint8Array, sha256: string): ParseRecordResult {
  try {
    const text = decodeUtf8(path, bytes);
    if (!text.ok) return text;
    const checked = checkRecord(path, text.value);
    if (!checked.ok) return checked;
    const { frontmatter, h1, body } = checked.value;
    deepFreeze(frontmatter);
    const record = frontmatter as unknown as ObserverRecord;
    return {
      ok: true,
      record: Object.freeze({
        path,
        recordId: record.id,
        type: record.observer_type,
        status: record.observer_status,
        title: record.title,
        frontmatter,
        record,
        h1,
        body,
        sha256,
      }),
    };
  } catch (error) {
    // Defensive: a library fault on hostile input must still come back as a diagnostic.
    return markdownFailure(path, "markdown.frontmatter.invalid", `The record could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}
