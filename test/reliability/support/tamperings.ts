// Every way the tamper target damages a ledger, each with where `docket ledger verify` must find
// it. Lines are numbered from 1 as verify reports them; N is the number of lines the ledger (and
// its head anchor) holds. Edits, removals, reorders and insertions break the hash chain at a known
// line; truncations and whole-chain rewrites keep a consistent chain and are caught only by the
// head anchor `<ledger>.anchor` (the contract the lead's writers implement).
import { envelopeSha256, type EnvelopeDraft } from "../../../server/ledger/envelope";
import { encodeLedgerLine } from "../../../server/ledger/ledgerLine";
import { h24 } from "../../../server/ledger/canonicalJson";
import { pick } from "./seeded";

export type Expectation =
  /** Detected by the chain today: exit 1, `firstFault.line === line`. */
  | { readonly kind: "fault"; readonly line: number; readonly codes?: readonly string[] }
  /** Anchor contract: lines from `line` to `to` are gone. */
  | { readonly kind: "truncated"; readonly line: number; readonly to: number }
  /** Anchor contract: the same number of lines, but not the anchored head. */
  | { readonly kind: "rewritten"; readonly line: number }
  /** Anchor contract: without its anchor the ledger still verifies and says so. */
  | { readonly kind: "no-anchor" };

export interface Tampering {
  /** Family, for the per-family sample through a real `docket ledger verify` process. */
  readonly family: string;
  /** What was done, precisely enough to redo it by hand. */
  readonly label: string;
  readonly bytes: Buffer;
  /** Whether the anchor beside the ledger is kept (removing it is itself a tampering). */
  readonly keepAnchor: boolean;
  readonly expect: Expectation;
}

interface Region {
  readonly name: string;
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly valueStart: number;
  readonly valueEnd: number;
}

/** The index just past the string that starts at `start` (a `"`). */
function stringEnd(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length && text[index] !== '"') index += text[index] === "\\" ? 2 : 1;
  return index + 1;
}

/** Records the fields of the object at `start` whose path is `path` ("" the wrapper, "entry" the envelope); returns its end. */
function scanValue(text: string, start: number, path: string | null, regions: Region[]): number {
  const char = text[start];
  if (char === '"') return stringEnd(text, start);
  if (char !== "{" && char !== "[") {
    let index = start;
    while (index < text.length && !",}]".includes(text[index] as string)) index += 1;
    return index;
  }
  const closing = char === "{" ? "}" : "]";
  let index = start + 1;
  if (text[index] === closing) return index + 1;
  for (;;) {
    if (char === "{") {
      const keyStart = index;
      const keyEnd = stringEnd(text, index);
      const name = text.slice(keyStart + 1, keyEnd - 1);
      const valueStart = keyEnd + 1;
      const childPath = path === "" && name === "entry" ? "entry" : null;
      const valueEnd = scanValue(text, valueStart, childPath, regions);
      if (path !== null) regions.push({ name: path === "" ? name : `${path}.${name}`, keyStart, keyEnd, valueStart, valueEnd });
      index = valueEnd;
    } else {
      index = scanValue(text, index, null, regions);
    }
    if (text[index] === ",") index += 1;
    else return index + 1;
  }
}

/**
 * The key and value byte ranges of the wrapper's fields and of the envelope's (inside `entry`),
 * from a scan of the canonical JSON text.
 */
export function fieldRegions(text: string): Region[] {
  const regions: Region[] = [];
  scanValue(text, 0, "", regions);
  return regions;
}

const HEX = "0123456789abcdef";
const DIGITS = "0123456789";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const OTHER = ['x', '0', '"', "{", " ", ":"].map((char) => char.charCodeAt(0));

/** A different byte of the same class (hex stays hex), so the damage keeps the line's shape where it can. */
export function replacementByte(byte: number, fraction: number): number {
  const char = String.fromCharCode(byte);
  for (const alphabet of [HEX, DIGITS, LOWER, UPPER]) {
    if (alphabet.includes(char)) {
      const others = alphabet.replace(char, "");
      return pick([...others], fraction).charCodeAt(0);
    }
  }
  const others = OTHER.filter((candidate) => candidate !== byte);
  return pick(others, fraction);
}

function join(lines: readonly Buffer[]): Buffer {
  return Buffer.concat(lines);
}

interface ParsedLine {
  line: number;
  previousLineSha256: string | null;
  stream: "developer/v8";
  lineSha256: string;
  entry: EnvelopeDraft & { eventSha256: string };
}

function parse(line: Buffer): ParsedLine {
  return JSON.parse(line.toString("utf8")) as ParsedLine;
}

function encode(line: number, previous: string | null, entry: unknown): { text: Buffer; sha: string } {
  const encoded = encodeLedgerLine(line, previous, "developer/v8", entry);
  return { text: Buffer.from(encoded.text, "utf8"), sha: encoded.lineSha256 };
}

function laterBy(occurredAt: string, seconds: number): string {
  return new Date(Date.parse(occurredAt) + seconds * 1_000).toISOString();
}

function draftOf(entry: ParsedLine["entry"]): EnvelopeDraft {
  const { eventSha256: _dropped, ...draft } = entry;
  void _dropped;
  return draft;
}

/** Replaces every string found in `map` anywhere in `value` (ids and hashes a rewrite changed). */
function replaceStrings(value: unknown, map: ReadonlyMap<string, string>): unknown {
  if (typeof value === "string") return map.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => replaceStrings(item, map));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceStrings(item, map)]));
  return value;
}

/**
 * The forger's best effort from line `k` (0-based): line k's time is changed, then every later
 * line is re-derived as Docket would have written it — event hashes, the scope and event ids that
 * derive from ledger positions, every reference to them, and the line chain. The result passes
 * every chain check; only the anchored head line differs.
 */
export function rewriteFrom(lines: readonly Buffer[], k: number): Buffer {
  const out: Buffer[] = lines.slice(0, k).map((line) => Buffer.from(line));
  const map = new Map<string, string>();
  let previous = k === 0 ? null : parse(lines[k - 1] as Buffer).lineSha256;
  for (let index = k; index < lines.length; index += 1) {
    const parsed = parse(lines[index] as Buffer);
    let draft = replaceStrings(draftOf(parsed.entry), map) as EnvelopeDraft;
    if (index === k) draft = { ...draft, occurredAt: laterBy(draft.occurredAt, 1) };
    if (draft.scopeSequence === 0) {
      const scopeId = `scope:${h24({ domain: "docket/work-scope-id/v1", line: index, previousLineSha256: previous })}`;
      if (scopeId !== draft.workScopeId) map.set(draft.workScopeId, scopeId);
      draft = replaceStrings(draft, map) as EnvelopeDraft;
    }
    const eventId = `event:${h24({ domain: "docket/event-id/v1", workScopeId: draft.workScopeId, scopeSequence: draft.scopeSequence, kind: draft.kind })}`;
    if (eventId !== draft.eventId) {
      map.set(draft.eventId, eventId);
      draft = { ...draft, eventId };
    }
    const eventSha256 = envelopeSha256(draft);
    if (eventSha256 !== parsed.entry.eventSha256) map.set(parsed.entry.eventSha256, eventSha256);
    const encoded = encode(index, previous, { ...draft, eventSha256 });
    out.push(encoded.text);
    previous = encoded.sha;
  }
  return join(out);
}

export interface TamperOptions {
  /** Every byte of every line instead of one seeded byte per field key and value. */
  readonly everyByte: boolean;
  /** Every cut inside every line instead of one seeded cut per line. */
  readonly everyCut: boolean;
}

/**
 * All tamperings of `lines` (each with its newline). `other` is a different ledger's lines (for
 * transplanted lines); `fraction(i)` returns seeded values in [0, 1).
 */
export function tamperings(lines: readonly Buffer[], other: readonly Buffer[], fraction: (salt: number) => number, options: TamperOptions): Tampering[] {
  const n = lines.length;
  const result: Tampering[] = [];
  const add = (family: string, label: string, bytes: Buffer, expect: Expectation, keepAnchor = true): void => {
    result.push({ family, label, bytes, keepAnchor, expect });
  };
  let salt = 0;
  const next = (): number => fraction((salt += 1));

  for (let i = 0; i < n; i += 1) {
    const line = lines[i] as Buffer;
    // One character per byte, so the regions are byte offsets even around non-ASCII text.
    const text = line.toString("latin1");
    const editAt = (position: number, what: string): void => {
      const edited: Buffer[] = lines.map((candidate) => Buffer.from(candidate));
      const target = edited[i] as Buffer;
      const before = target[position] as number;
      target[position] = replacementByte(before, next());
      add("edit", `line ${i + 1} byte ${position} (${what}): ${JSON.stringify(String.fromCharCode(before))} → ${JSON.stringify(String.fromCharCode(target[position] as number))}`, join(edited), { kind: "fault", line: i + 1 });
    };
    if (options.everyByte) {
      for (let position = 0; position < line.length; position += 1) editAt(position, "every byte");
    } else {
      for (const region of fieldRegions(text)) {
        editAt(region.keyStart + Math.floor(next() * (region.keyEnd - region.keyStart)), `key of ${region.name}`);
        editAt(region.valueStart + Math.floor(next() * (region.valueEnd - region.valueStart)), `value of ${region.name}`);
      }
      editAt(line.length - 1, "newline");
    }

    // The line's own hash recomputed, its envelope hash left stale: the entry itself is invalid.
    const parsed = parse(line);
    const staleEntry = { ...parsed.entry, occurredAt: laterBy(parsed.entry.occurredAt, 1) };
    const relined: Buffer[] = lines.map((candidate) => Buffer.from(candidate));
    relined[i] = encode(parsed.line, parsed.previousLineSha256, staleEntry).text;
    add("rehash-line", `line ${i + 1}: occurredAt +1 s, lineSha256 recomputed, eventSha256 not`, join(relined), { kind: "fault", line: i + 1 });

    // The entry re-hashed too, so the line is self-consistent; only the chain to the next line breaks.
    const draft = { ...draftOf(parsed.entry), occurredAt: laterBy(parsed.entry.occurredAt, 1) };
    const rehashed: Buffer[] = lines.map((candidate) => Buffer.from(candidate));
    rehashed[i] = encode(parsed.line, parsed.previousLineSha256, { ...draft, eventSha256: envelopeSha256(draft) }).text;
    add(
      "rehash-entry",
      `line ${i + 1}: occurredAt +1 s, eventSha256 and lineSha256 recomputed, the chain not`,
      join(rehashed),
      i < n - 1 ? { kind: "fault", line: i + 2, codes: ["ledger-line-chain-mismatch"] } : { kind: "rewritten", line: n },
    );

    const removed = lines.filter((_, index) => index !== i);
    add("remove", `line ${i + 1} removed`, join(removed), i < n - 1 ? { kind: "fault", line: i + 1 } : { kind: "truncated", line: n, to: n });

    if (i < n - 1) {
      const partners = [i + 1, i + 1 + Math.floor(next() * (n - i - 1))];
      for (const j of new Set(partners)) {
        const swapped: Buffer[] = lines.map((candidate) => Buffer.from(candidate));
        [swapped[i], swapped[j]] = [swapped[j] as Buffer, swapped[i] as Buffer];
        add("reorder", `lines ${i + 1} and ${j + 1} swapped`, join(swapped), { kind: "fault", line: i + 1 });
      }
    }

    const duplicated = [...lines.slice(0, i + 1), line, ...lines.slice(i + 1)];
    add("insert-duplicate", `line ${i + 1} repeated after itself`, join(duplicated), { kind: "fault", line: i + 2 });
  }
  for (let i = 0; i <= n; i += 1) {
    const foreign = [...lines.slice(0, i), Buffer.from('{"note":"inserted by hand"}\n'), ...lines.slice(i)];
    add("insert-foreign", `a foreign line inserted before line ${i + 1}`, join(foreign), { kind: "fault", line: i + 1 });
    const transplant = other[i];
    if (transplant !== undefined) {
      const moved = [...lines.slice(0, i), transplant, ...lines.slice(i)];
      // Another ledger's first line is a valid first line: the break is at the line it displaced.
      add("insert-other-ledger", `line ${i + 1} of another ledger inserted before line ${i + 1}`, join(moved), { kind: "fault", line: i === 0 ? 2 : i + 1 });
    }
  }
  for (let kept = 0; kept < n; kept += 1) {
    const prefix = join(lines.slice(0, kept));
    add("truncate", `the last ${n - kept} line(s) removed, ${kept} kept`, prefix, { kind: "truncated", line: kept + 1, to: n });
    const cutLine = lines[kept] as Buffer;
    const cuts = options.everyCut ? Array.from({ length: cutLine.length - 1 }, (_, index) => index + 1) : [1 + Math.floor(next() * (cutLine.length - 1))];
    for (const cut of cuts) {
      add("cut", `cut inside line ${kept + 1} after ${cut} of its ${cutLine.length} bytes`, Buffer.concat([prefix, cutLine.subarray(0, cut)]), { kind: "truncated", line: kept + 1, to: n });
    }
    add("rewrite", `the whole chain rewritten from line ${kept + 1}`, rewriteFrom(lines, kept), { kind: "rewritten", line: n });
  }
  add("anchor-removed", "the head anchor removed", join(lines), { kind: "no-anchor" }, false);
  return result;
}
