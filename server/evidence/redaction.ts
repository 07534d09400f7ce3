// Secret redaction for captured evidence. Everything a hook captures passes through here, as
// decoded text and field by field, before a byte is encoded or persisted, so a credential a tool
// printed, an agent passed as an argument or a user typed never reaches `.docket/evidence/`. Each
// secret becomes `[REDACTED:<kind>]` and is counted per kind; the secret itself is never returned,
// logged or stored.
//
// Three rule sources find secrets, each reporting spans of the text: the maintained rule set
// (secretlint's recommended preset, secretlintRules.ts), Docket's own rules for what it misses
// (docketRules.ts) and the entropy rule for random values under secret-looking names
// (entropyRule.ts). They run over the text and over its decoded views when it holds escaped text
// (escapedViews.ts). Overlapping spans merge into one marker named by the most specific kind.
// Redaction repeats until nothing changes, so redacting its own output changes nothing.
import { entropySpans, looksRandom } from "./entropyRule";
import { escapedViews, originalRange } from "./escapedViews";
import { docketSecretSpans } from "./docketRules";
import { REDACTION_KINDS, kindPriority, type RedactionKind, type SecretSpan, type SpanSink } from "./redactionKinds";
import { isNonSecretValue, isSecretKeyName, isSecretLookingKeyName } from "./secretKeys";
import { secretlintSpans } from "./secretlintRules";

export { REDACTION_KINDS, type RedactionKind } from "./redactionKinds";

/** Redactions per kind; only kinds that occurred are present. */
export type RedactionCounts = Partial<Record<RedactionKind, number>>;

export interface RedactionResult {
  readonly text: string;
  readonly counts: RedactionCounts;
}

export function redactionMarker(kind: RedactionKind): string {
  return `[REDACTED:${kind}]`;
}

/** Passes until the text is stable; one more than a real text needs. */
const MAX_PASSES = 4;
/** Beyond the kept part of a cut text, this much more is read so a secret across the cut is whole. */
export const REDACTION_MARGIN_CHARS = 16_384;

const MARKER = /\[REDACTED:[a-z0-9-]{1,48}\]/g;

function detect(text: string, sink: SpanSink): void {
  docketSecretSpans(text, sink);
  secretlintSpans(text, sink);
  entropySpans(text, sink);
}

/** Every secret span in `text` and in its decoded views, in original positions, merged. */
function findSpans(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  detect(text, (start, end, kind) => spans.push({ start, end, kind }));
  for (const view of escapedViews(text)) {
    detect(view.text, (start, end, kind) => {
      const [from, to] = originalRange(view, start, end);
      spans.push({ start: from, end: to, kind });
    });
  }
  return mergeSpans(text, spans);
}

/** Ranges of markers already in the text: a span inside one is not a new secret. */
function markerRanges(text: string): Array<readonly [number, number]> {
  if (!text.includes("[REDACTED:")) return [];
  return [...text.matchAll(MARKER)].map((match) => [match.index, match.index + match[0].length] as const);
}

function mergeSpans(text: string, spans: SecretSpan[]): SecretSpan[] {
  if (spans.length === 0) return spans;
  const markers = markerRanges(text);
  const fresh =
    markers.length === 0
      ? spans
      : spans.filter((span) => {
          // Markers are sorted; a binary search keeps this linear-logarithmic on many spans.
          let low = 0;
          let high = markers.length - 1;
          while (low <= high) {
            const middle = (low + high) >> 1;
            const [start, end] = markers[middle] as readonly [number, number];
            if (span.end <= start) high = middle - 1;
            else if (span.start >= end) low = middle + 1;
            else return !(span.start >= start && span.end <= end);
          }
          return true;
        });
  fresh.sort((left, right) => left.start - right.start || right.end - left.end);
  const merged: SecretSpan[] = [];
  for (const span of fresh) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span.start < last.end) {
      const kind = kindPriority(span.kind) < kindPriority(last.kind) ? span.kind : last.kind;
      merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, span.end), kind };
    } else merged.push(span);
  }
  return merged;
}

function count(counts: Map<RedactionKind, number>, kind: RedactionKind): void {
  counts.set(kind, (counts.get(kind) ?? 0) + 1);
}

function applySpans(text: string, spans: readonly SecretSpan[], end: number, counts: Map<RedactionKind, number>): string {
  let output = "";
  let cursor = 0;
  for (const span of spans) {
    if (span.start >= end) break;
    output += text.slice(cursor, span.start) + redactionMarker(span.kind);
    count(counts, span.kind);
    cursor = span.end;
  }
  return output + text.slice(cursor, Math.max(cursor, end));
}

/** Redacts until stable (every pass is linear; a second pass runs only when the first found something). */
function settle(text: string, counts: Map<RedactionKind, number>): string {
  let output = text;
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const spans = findSpans(output);
    if (spans.length === 0) break;
    output = applySpans(output, spans, output.length, counts);
  }
  return output;
}

function countsOf(counts: Map<RedactionKind, number>): RedactionCounts {
  const result: RedactionCounts = {};
  for (const kind of REDACTION_KINDS) {
    const value = counts.get(kind);
    if (value !== undefined) result[kind] = value;
  }
  return result;
}

/** Redacts every recognised secret in `text`. Idempotent: redacting the output changes nothing. */
export function redactSecrets(text: string): RedactionResult {
  const counts = new Map<RedactionKind, number>();
  const output = settle(text, counts);
  return { text: output, counts: countsOf(counts) };
}

export interface BoundedRedaction extends RedactionResult {
  /** How much of the original text the redacted text stands for (`text.length` when whole). */
  readonly consumed: number;
}

function cutOnCodePoint(text: string, position: number): number {
  const previous = text.charCodeAt(position - 1);
  return position > 0 && position < text.length && previous >= 0xd800 && previous <= 0xdbff ? position - 1 : position;
}

/**
 * Redacts the first `keep` characters of `text` (all of it when it is no longer). The rules read
 * REDACTION_MARGIN_CHARS more than is kept, so a secret that crosses the cut is found whole; the
 * cut then moves past it, and its marker is kept complete instead of half a secret.
 */
export function redactBounded(text: string, keep: number): BoundedRedaction {
  if (text.length <= keep) return { ...redactSecrets(text), consumed: text.length };
  const counts = new Map<RedactionKind, number>();
  const window = text.slice(0, keep + REDACTION_MARGIN_CHARS);
  const spans = findSpans(window);
  let cut = cutOnCodePoint(text, Math.max(0, keep));
  for (const span of spans) if (span.start < cut && span.end > cut) cut = span.end;
  const output = settle(applySpans(window, spans, cut, counts), counts);
  return { text: output, counts: countsOf(counts), consumed: cut };
}

/** Property names that identify an env-style entry by name: `{"name": "DB_PASSWORD", "value": "…"}`. */
const ENTRY_NAME_FIELDS = ["name", "Name", "key", "Key"] as const;
const ENTRY_VALUE_FIELDS = new Set(["value", "Value"]);

/** A command-line flag (`--db-password`, `-token`) before an argument-list item names that item. */
const FLAG = /^--?([A-Za-z][A-Za-z0-9_.-]{0,127})$/;

/**
 * The name a structured value is assigned to: its property; the entry's name for `value` fields of
 * `{"name": "DB_PASSWORD", "value": "…"}`; the flag before it in an argument list.
 */
export function fieldName(place: { readonly name: string | undefined; readonly parent: Readonly<Record<string, unknown>> | undefined; readonly previous?: unknown }): string | undefined {
  const flag = typeof place.previous === "string" ? FLAG.exec(place.previous)?.[1] : undefined;
  if (flag !== undefined) return flag;
  const { name, parent } = place;
  if (name !== undefined && parent !== undefined && ENTRY_VALUE_FIELDS.has(name)) {
    for (const field of ENTRY_NAME_FIELDS) {
      const entry = parent[field];
      if (typeof entry === "string" && (isSecretKeyName(entry) || isSecretLookingKeyName(entry))) return entry;
    }
  }
  return name;
}

/**
 * The redaction a structured value gets for its name alone, or undefined when its name does not
 * decide: the whole value under a secret key (`{"password": …}`), a random-looking value under a
 * secret-looking one.
 */
export function redactByName(value: string, name: string | undefined): BoundedRedaction | undefined {
  if (name === undefined || value.startsWith("[REDACTED:")) return undefined;
  if (isSecretKeyName(name) && !isNonSecretValue(value)) return { text: redactionMarker("secret-assignment"), counts: { "secret-assignment": 1 }, consumed: value.length };
  if (isSecretLookingKeyName(name) && looksRandom(value.trim())) return { text: redactionMarker("high-entropy-assignment"), counts: { "high-entropy-assignment": 1 }, consumed: value.length };
  return undefined;
}

/**
 * Which of many short texts (the fields of one structured value) may hold a secret: the rules run
 * once over all of them, one per line, and every text a span touches is a candidate. Joining only
 * adds line breaks between texts, which end every token and start every line as the texts' own
 * ends do, so a text with a secret of its own is always a candidate; the candidates are then
 * redacted one by one. This keeps thousands of small fields from costing one rule pass each.
 */
export function secretCandidates(texts: readonly string[]): ReadonlySet<number> {
  const starts: number[] = [];
  let length = 0;
  for (const text of texts) {
    starts.push(length);
    length += text.length + 1;
  }
  const candidates = new Set<number>();
  if (texts.length === 0) return candidates;
  const spans = findSpans(texts.join("\n"));
  let index = 0;
  for (const span of spans) {
    while (index + 1 < starts.length && (starts[index + 1] as number) <= span.start) index += 1;
    for (let text = index; text < starts.length && (starts[text] as number) < span.end; text += 1) candidates.add(text);
  }
  return candidates;
}

/** Sums per-kind counts (for a record made of several redacted texts). */
export function addRedactionCounts(left: RedactionCounts, right: RedactionCounts): RedactionCounts {
  const result: RedactionCounts = {};
  for (const kind of REDACTION_KINDS) {
    const total = (left[kind] ?? 0) + (right[kind] ?? 0);
    if (total > 0) result[kind] = total;
  }
  return result;
}
