// Docket's ledger line wrapper (docs/ledger-format.md). Every line of `.docket/ledger.jsonl` is
// one canonical JSON object that wraps one entry of a typed stream and links to the previous
// line by hash, so deleting, reordering or editing any committed line is detectable.
import { isCanonicalTextOf } from "./canonicalText";
import { canonicalJson, hashValue, sha256Hex, toJsonValue, type JsonValue } from "./canonicalJson";
import { ValueError, exactKeys, fail, integerAt, isRecord, objectAt, shaAt } from "./values";
import { GUARD_STREAM, guardEntryProblem } from "../guard/guardEntry";
import { OBSERVER_STREAM, observerEntryProblem } from "../observer/observerEntry";

export const LEDGER_LINE_FORMAT = "docket/ledger-line/v1";
export const LINE_DOMAIN = "docket/ledger-line/v1";
export const DEVELOPER_STREAM = "developer/v8";
export { GUARD_STREAM, OBSERVER_STREAM };
export const STREAMS = [DEVELOPER_STREAM, GUARD_STREAM, OBSERVER_STREAM] as const;
export type Stream = (typeof STREAMS)[number];

export interface LedgerLine {
  readonly line: number;
  readonly previousLineSha256: string | null;
  readonly stream: Stream;
  readonly entry: JsonValue;
  readonly lineSha256: string;
}

/** A decoded line with its entry's canonical text (which replay reuses instead of recomputing it). */
export interface DecodedLedgerLine extends LedgerLine {
  readonly entryText: string;
}

const LINE_KEYS = ["ledger", "line", "previousLineSha256", "stream", "entry", "lineSha256"] as const;

export function lineSha256(line: number, previousLineSha256: string | null, stream: string, entry: JsonValue): string {
  return hashValue({ domain: LINE_DOMAIN, value: { line, previousLineSha256, stream, entry } });
}

// The two serializations below are canonical JSON written out by hand around the entry's own
// canonical text, so a line costs one canonicalization of its entry (this is the hot path of
// replay). A unit test pins them to the generic canonicalJson/hashValue results.
function hashFromEntryText(line: number, previous: string | null, stream: string, entryText: string): string {
  const previousText = previous === null ? "null" : JSON.stringify(previous);
  return sha256Hex(
    `{"domain":${JSON.stringify(LINE_DOMAIN)},"value":{"entry":${entryText},"line":${line},"previousLineSha256":${previousText},"stream":${JSON.stringify(stream)}}}`,
  );
}

function wrapperText(line: number, previous: string | null, stream: string, entryText: string, sha: string): string {
  const previousText = previous === null ? "null" : JSON.stringify(previous);
  return `{"entry":${entryText},"ledger":${JSON.stringify(LEDGER_LINE_FORMAT)},"line":${line},"lineSha256":"${sha}","previousLineSha256":${previousText},"stream":${JSON.stringify(stream)}}`;
}

/** Encodes one line, including the terminating newline. */
export function encodeLedgerLine(line: number, previousLineSha256: string | null, stream: Stream, entry: unknown): {
  text: string;
  lineSha256: string;
} {
  const entryText = canonicalJson(toJsonValue(entry));
  const sha = hashFromEntryText(line, previousLineSha256, stream, entryText);
  return { text: `${wrapperText(line, previousLineSha256, stream, entryText, sha)}\n`, lineSha256: sha };
}

/**
 * Re-wraps an entry at another position from its canonical text, which is kept byte for byte (the
 * merge driver renumbers a side's lines this way; it never re-encodes an entry).
 */
export function rewrapLedgerLine(line: number, previousLineSha256: string | null, stream: Stream, entryText: string): { text: string; lineSha256: string } {
  const sha = hashFromEntryText(line, previousLineSha256, stream, entryText);
  return { text: `${wrapperText(line, previousLineSha256, stream, entryText, sha)}\n`, lineSha256: sha };
}

/** True when a parsed JSON value looks like a Docket ledger line (used to detect input forms). */
export function isLedgerLineShape(value: unknown): boolean {
  return isRecord(value) && value.ledger === LEDGER_LINE_FORMAT;
}

export type LineFaultCode = "ledger-line-invalid" | "ledger-line-chain-mismatch" | "ledger-line-hash-mismatch";

export class LineFault extends Error {
  constructor(
    readonly code: LineFaultCode,
    message: string,
  ) {
    super(message);
    this.name = "LineFault";
  }
}

const AFTER_ENTRY = `,"ledger":${JSON.stringify(LEDGER_LINE_FORMAT)},"line":`;

/**
 * The entry's canonical text cut out of the line, when the line is proven to be the canonical JSON
 * of `parsed` (its JSON.parse result, which has passed the wrapper's checks); undefined when that
 * cannot be proven (the caller then takes the general path, which finds the exact fault). The
 * wrapper's keys ascend with `entry` first, so the entry's text starts at 9 and ends where the
 * wrapper's own `ledger` member starts (no member after it can contain that text).
 */
function provenEntryText(text: string, parsed: unknown): string | undefined {
  if (!isCanonicalTextOf(text, parsed)) return undefined;
  const end = text.lastIndexOf(AFTER_ENTRY);
  return end > 9 ? text.slice(9, end) : undefined;
}

/**
 * Decodes one line's text (without newline) and checks its link to the previous line.
 * Throws LineFault. The wrapper must be byte-identical to its canonical form.
 */
export function decodeLedgerLine(text: string, expectedLine: number, expectedPrevious: string | null): DecodedLedgerLine {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LineFault("ledger-line-invalid", `line ${expectedLine + 1} is not JSON`);
  }
  let line: LedgerLine;
  try {
    const data = objectAt(parsed, "line");
    exactKeys(data, "line", LINE_KEYS);
    if (data.ledger !== LEDGER_LINE_FORMAT) fail("line.ledger", `expected ${LEDGER_LINE_FORMAT}`);
    if (!(STREAMS as readonly unknown[]).includes(data.stream)) fail("line.stream", "is not a known stream");
    line = {
      line: integerAt(data.line, "line.line"),
      previousLineSha256: data.previousLineSha256 === null ? null : shaAt(data.previousLineSha256, "line.previousLineSha256"),
      stream: data.stream as Stream,
      // JSON.parse only yields JSON values; a non-finite number cannot survive the canonical
      // byte comparison below.
      entry: data.entry as JsonValue,
      lineSha256: shaAt(data.lineSha256, "line.lineSha256"),
    };
  } catch (error) {
    const message = error instanceof ValueError || error instanceof Error ? error.message : "invalid line";
    throw new LineFault("ledger-line-invalid", `line ${expectedLine + 1}: ${message}`);
  }
  if (line.line !== expectedLine || line.previousLineSha256 !== expectedPrevious) {
    throw new LineFault(
      "ledger-line-chain-mismatch",
      `line ${expectedLine + 1} does not follow the previous line (a line was removed, reordered or edited)`,
    );
  }
  let entryText = provenEntryText(text, parsed);
  if (entryText === undefined) {
    try {
      entryText = canonicalJson(line.entry);
    } catch {
      // Only nesting can fail here (a JSON.parse result is always JSON): deeper than Docket writes,
      // which canonicalJson refuses without recursing. Such a line was never written by Docket.
      throw new LineFault("ledger-line-invalid", `line ${expectedLine + 1} is nested too deeply to be a ledger line`);
    }
    const expectedSha = hashFromEntryText(line.line, line.previousLineSha256, line.stream, entryText);
    if (expectedSha !== line.lineSha256) {
      throw new LineFault("ledger-line-hash-mismatch", `line ${expectedLine + 1} does not match its hash`);
    }
    if (wrapperText(line.line, line.previousLineSha256, line.stream, entryText, expectedSha) !== text) {
      throw new LineFault("ledger-line-invalid", `line ${expectedLine + 1} is not in canonical form`);
    }
  } else if (hashFromEntryText(line.line, line.previousLineSha256, line.stream, entryText) !== line.lineSha256) {
    throw new LineFault("ledger-line-hash-mismatch", `line ${expectedLine + 1} does not match its hash`);
  }
  // Guard entries have no replay of their own to reject them: their shape is part of the line.
  if (line.stream === GUARD_STREAM) {
    const problem = guardEntryProblem(line.entry);
    if (problem !== null) throw new LineFault("ledger-line-invalid", `line ${expectedLine + 1}: ${problem}`);
  }
  // Observer entries likewise: the wrapper is checked here, the meaning of `data` by Observer replay.
  if (line.stream === OBSERVER_STREAM) {
    const problem = observerEntryProblem(line.entry);
    if (problem !== null) throw new LineFault("ledger-line-invalid", `line ${expectedLine + 1}: ${problem}`);
  }
  return { ...line, entryText };
}
