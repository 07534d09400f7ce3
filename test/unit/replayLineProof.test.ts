// Replay's seventh part: a verified line proves its own canonical form, the entry's text is cut out
// of it, and the envelope hash is computed from text cut out of the entry. Each shortcut is tested
// against the implementation it replaced (test/support/referenceLedgerDecode.ts, kept verbatim):
// generated texts and ledgers, canonical and not (reordered, duplicated, integer-like and
// "__proto__" keys, escapes, lone surrogates, -0, 1.0, long integers, whitespace, deep nesting,
// tampered bytes and hashes), must give the same values, the same entry texts, and the same fault
// codes and messages.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { canonicalize } from "../../server/ledger/canonicalJson";
import { isCanonicalJsonText, isCanonicalTextOf } from "../../server/ledger/canonicalText";
import { parseEnvelope } from "../../server/ledger/envelope";
import { DEVELOPER_STREAM, GUARD_STREAM, OBSERVER_STREAM, decodeLedgerLine, encodeLedgerLine, lineSha256, type Stream } from "../../server/ledger/ledgerLine";
import { referenceDecodeLedgerLine, referenceParseEnvelope } from "../support/referenceLedgerDecode";
import { cycleScopesEntries, longScopeEntries } from "../support/generatedCycles";

/** The outcome of a call: its value, or its error's class, code and message. */
function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (error) {
    if (!(error instanceof Error)) return { thrown: String(error) };
    return { error: `${error.name}: ${(error as Error & { code?: string }).code ?? ""}: ${error.message}` };
  }
}

/** Rebuilds every object with its keys inserted in a seeded order (own "__proto__" kept as a key). */
function reorder(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((entry, index) => reorder(entry, seed * 31 + index));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>);
  entries.sort((a, b) => ((a[0].length * 7 + a[0].charCodeAt(0) + seed) % 5) - ((b[0].length * 7 + b[0].charCodeAt(0) + seed) % 5));
  const result: Record<string, unknown> = {};
  for (const [key, entry] of entries) Object.defineProperty(result, key, { value: reorder(entry, seed + 1), enumerable: true, writable: true, configurable: true });
  return result;
}

const key = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom("__proto__", "0", "1", "10", "9", "01", "-1", "4294967295", "a", "b", "ab", "é", "\ud800", "\udc00", "\ud83d\ude00", "a\"b", "a\\b", "\n"),
);
const number = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 1.5, 1e21, 1e-7, 123456789012345, 1234567890123456, 9007199254740993, -999999999999999, 1e15, 100),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const text = fc.oneof(fc.string({ maxLength: 6 }), fc.string({ unit: "binary", maxLength: 6 }), fc.constantFrom("", "\"", "\\", "/", "\u2028", "\ud800", "a\udfffb", "\ud83d\ude00", "\u0000", "\u001f", "\u007f"));
const tree = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(null, true, false),
    number,
    text,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(key, tie("value"), { maxKeys: 5 }),
  ),
})).value;

/** Texts that parse to `value` (or nearly), canonical or not. */
function textsOf(value: unknown, seed: number): string[] {
  const canonical = canonicalize(value);
  const texts = [canonical, JSON.stringify(value), JSON.stringify(reorder(value, seed)), JSON.stringify(value, null, seed % 3)];
  // Byte-level edits of the canonical text: whitespace, escapes, number spellings, duplicated keys.
  const at = canonical.length === 0 ? 0 : seed % canonical.length;
  texts.push(`${canonical.slice(0, at)} ${canonical.slice(at)}`);
  texts.push(canonical.replace(/"a/u, '"\\u0061'));
  texts.push(canonical.replace(/:(\d+)/u, ":$1.0"), canonical.replace(/:0([,}\]])/u, ":-0$1"), canonical.replace(/:(\d+)/u, ":$1e0"), canonical.replace(/:(\d)/u, ":0$1"));
  texts.push(canonical.replace(/\{"([^"\\]*)":/u, '{"$1":0,"$1":'));
  texts.push(canonical.replace(/\//u, "\\/"), canonical.replace(/é/u, "\\u00e9"), canonical.replace(/\\ud800/u, "\\uD800"));
  return texts;
}

function parses(candidate: string): boolean {
  try {
    JSON.parse(candidate);
    return true;
  } catch {
    return false;
  }
}

test("a text proven canonical is exactly the canonical JSON of its parse", () => {
  fc.assert(
    fc.property(tree, fc.nat(10_000), (value, seed) => {
      for (const candidate of textsOf(value, seed)) {
        if (!parses(candidate)) continue;
        const parsed: unknown = JSON.parse(candidate);
        const canonical = canonicalize(parsed) === candidate;
        if (isCanonicalJsonText(candidate)) assert.ok(canonical, `scan: ${candidate}`);
        // Sound, not complete: "cannot tell" (e.g. an escape beside integer-like keys out of the
        // engine's order) sends the line to the general path.
        if (isCanonicalTextOf(candidate, parsed)) assert.ok(canonical, `stringify: ${candidate}`);
      }
    }),
    { numRuns: 4_000 },
  );
});

test("the scan decides plain texts itself and refuses what it does not decide", () => {
  for (const good of ['{"a":1,"b":[1,2,{"c":null,"d":true,"e":false}],"c":-5,"d":0}', '{"1":2,"a":"x y"}', '{"10":2,"9":1}', '{"__proto__":1}', "[]", "{}", '"s"', "123456789012345", '{"😀":1,"\uffff":2}']) {
    assert.equal(isCanonicalJsonText(good), true, good);
    assert.equal(canonicalize(JSON.parse(good)), good);
  }
  for (const bad of ['{"b":1,"a":2}', '{"a":1,"a":2}', '{"a": 1}', ' {}', '{"a":1.0}', '{"a":-0}', '{"a":[1 ,2]}', '{"a":"\\u0041"}', '{"a":1e3}', "1234567890123456", '"\ud800"', '{"9":1,"10":2}']) {
    assert.equal(isCanonicalJsonText(bad), false, bad);
  }
  // Nesting at the depth limit is left to the general path.
  const deep = `${"[".repeat(1_000)}${"]".repeat(1_000)}`;
  assert.equal(isCanonicalJsonText(deep), false);
  assert.equal(isCanonicalJsonText(`${"[".repeat(999)}${"]".repeat(999)}`), true);
  // Every line of a generated realistic ledger is decided by the scan alone.
  let previous: string | null = null;
  for (const [index, entry] of cycleScopesEntries(20).entries()) {
    const encoded = encodeLedgerLine(index, previous, DEVELOPER_STREAM, entry);
    previous = encoded.lineSha256;
    assert.equal(isCanonicalJsonText(encoded.text.slice(0, -1)), true);
  }
});

interface WrittenLine {
  readonly text: string;
  readonly previous: string | null;
}

/** Writes a line's wrapper around any entry text (canonical or not) with a chosen hash. */
function lineAround(index: number, previous: string | null, stream: string, entryText: string, sha: string): string {
  return `{"entry":${entryText},"ledger":"docket/ledger-line/v1","line":${index},"lineSha256":"${sha}","previousLineSha256":${previous === null ? "null" : `"${previous}"`},"stream":"${stream}"}`;
}

function ledgerOf(entries: readonly unknown[], stream: Stream = DEVELOPER_STREAM): WrittenLine[] {
  let previous: string | null = null;
  return entries.map((entry, index) => {
    const encoded = encodeLedgerLine(index, previous, stream, entry);
    const line = { text: encoded.text.slice(0, -1), previous };
    previous = encoded.lineSha256;
    return line;
  });
}

function assertSameDecode(candidate: string, index: number, previous: string | null): void {
  assert.deepEqual(
    outcome(() => decodeLedgerLine(candidate, index, previous)),
    outcome(() => referenceDecodeLedgerLine(candidate, index, previous)),
    candidate.slice(0, 300),
  );
}

test("a line decodes exactly as the reference decoder: generated ledgers, tampered and not", () => {
  const lines = [...ledgerOf(cycleScopesEntries(3)), ...ledgerOf(longScopeEntries("scope:long", 40))];
  const tamper = fc.record({ line: fc.nat(lines.length - 1), at: fc.nat(100_000), char: fc.constantFrom(" ", "0", "1", "a", "f", '"', ",", "}", "\\", "é", "\ud800", "-", ".", "e") });
  fc.assert(
    fc.property(tamper, ({ line: lineIndex, at, char }) => {
      const { text, previous } = lines[lineIndex] as WrittenLine;
      const position = at % text.length;
      assertSameDecode(text, lineIndex, previous);
      assertSameDecode(`${text.slice(0, position)}${char}${text.slice(position + 1)}`, lineIndex, previous);
      assertSameDecode(`${text.slice(0, position)}${char}${text.slice(position)}`, lineIndex, previous);
      assertSameDecode(text, lineIndex + 1, previous);
      // The entry re-serialized in another key order, with its hash recomputed so only the form is wrong.
      const parsed = JSON.parse(text) as { entry: unknown; previousLineSha256: string | null };
      const reordered = JSON.stringify(reorder(parsed.entry, at));
      const sha = lineSha256(lineIndex, previous, DEVELOPER_STREAM, parsed.entry as never);
      assertSameDecode(lineAround(lineIndex, previous, DEVELOPER_STREAM, reordered, sha), lineIndex, previous);
      const whole = JSON.stringify(reorder(parsed, at));
      assertSameDecode(whole, lineIndex, previous);
    }),
    { numRuns: 3_000 },
  );
});

test("a line with any entry decodes exactly as the reference decoder, in each stream", () => {
  const stream = fc.constantFrom<Stream>(DEVELOPER_STREAM, GUARD_STREAM, OBSERVER_STREAM);
  const entry = fc.oneof(tree, fc.record({ customType: fc.constantFrom("docket.observer.session", "x"), data: tree }));
  fc.assert(
    fc.property(entry, stream, fc.nat(10_000), fc.constantFrom<string | null>(null, "a".repeat(64)), (value, chosen, seed, previous) => {
      const index = seed % 3;
      const sha = lineSha256(index, previous, chosen, value as never);
      for (const entryText of textsOf(value, seed)) {
        assertSameDecode(lineAround(index, previous, chosen, entryText, sha), index, previous);
        assertSameDecode(lineAround(index, previous, chosen, entryText, "b".repeat(64)), index, previous);
      }
      // A line number written -0 or 0.0 (the same number) and a wrapper with an extra space.
      const canonical = canonicalize(value);
      assertSameDecode(lineAround(0, previous, chosen, canonical, lineSha256(0, previous, chosen, value as never)).replace('"line":0', '"line":-0'), 0, previous);
      assertSameDecode(lineAround(0, previous, chosen, canonical, lineSha256(0, previous, chosen, value as never)).replace('"line":0', '"line":0.0'), 0, previous);
      assertSameDecode(lineAround(index, previous, chosen, canonical, sha).replace(',"ledger"', ', "ledger"'), index, previous);
    }),
    { numRuns: 1_500 },
  );
});

test("deeply nested entries decode exactly as the reference decoder", () => {
  for (const depth of [998, 999, 1_000]) {
    const value = JSON.parse(`${"[".repeat(depth)}1${"]".repeat(depth)}`) as unknown;
    const entryText = `${"[".repeat(depth)}1${"]".repeat(depth)}`;
    const objects = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    for (const [candidateText, candidate] of [
      [entryText, value],
      [objects, JSON.parse(objects) as unknown],
    ] as const) {
      let sha: string;
      try {
        sha = lineSha256(0, null, DEVELOPER_STREAM, candidate as never);
      } catch {
        sha = "c".repeat(64);
      }
      assertSameDecode(lineAround(0, null, DEVELOPER_STREAM, candidateText, sha), 0, null);
    }
  }
});

test("entries nested deeper than Docket writes are refused as such, whatever the stack holds", () => {
  // The reference decoder's answer here depended on the stack left for its recursive walk (a
  // stack overflow read as "nested too deeply", otherwise a hash or form fault); the decoder now
  // decides it without recursion, so the same line gets the same fault at any call depth.
  const nestedTooDeeply = /nested too deeply/u;
  for (const depth of [1_001, 1_500, 5_000, 50_000]) {
    for (const text of [`${"[".repeat(depth)}1${"]".repeat(depth)}`, `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`]) {
      const line = lineAround(0, null, DEVELOPER_STREAM, text, "c".repeat(64));
      const atDepth = (frames: number): unknown => (frames === 0 ? outcome(() => decodeLedgerLine(line, 0, null)) : atDepth(frames - 1));
      for (const frames of [0, 2_000, 5_000]) {
        const result = atDepth(frames) as { error?: string };
        assert.match(String(result.error), /^LineFault: ledger-line-invalid: /u, `depth ${depth}, ${frames} frames`);
        assert.match(String(result.error), nestedTooDeeply, `depth ${depth}, ${frames} frames`);
      }
    }
  }
});

test("an envelope parses exactly as the reference parser, with and without its canonical text", () => {
  const entries = [...cycleScopesEntries(2), ...longScopeEntries("scope:long", 30)] as unknown as Record<string, unknown>[];
  const edits: ((envelope: Record<string, unknown>, seed: number) => unknown)[] = [
    (envelope) => envelope,
    (envelope) => ({ ...envelope, eventSha256: "0".repeat(64) }),
    (envelope) => ({ ...envelope, eventSha256: (envelope.eventSha256 as string).toUpperCase() }),
    (envelope) => ({ ...envelope, kind: `${envelope.kind as string}x` }),
    (envelope) => ({ ...envelope, scopeSequence: -0 }),
    (envelope) => ({ ...envelope, scopeSequence: (envelope.scopeSequence as number) + 1 }),
    (envelope) => ({ ...envelope, causalRefs: [...(envelope.causalRefs as unknown[])].reverse() }),
    (envelope) => ({ ...envelope, causalRefs: [...(envelope.causalRefs as unknown[]), { workScopeId: "scope:z", eventId: "event:z", eventSha256: envelope.eventSha256 }] }),
    (envelope) => ({ ...envelope, causalRefs: [{ workScopeId: "a", eventId: "b", eventSha256: envelope.eventSha256 }, ...(envelope.causalRefs as unknown[])] }),
    (envelope) => ({ ...envelope, eventId: `${envelope.eventId as string}","kind":"x` }),
    (envelope) => ({ ...envelope, payload: { ...(envelope.payload as object), extra: -0 } }),
    (envelope) => ({ ...envelope, payload: "x".repeat(21_400) }),
    (envelope) => ({ ...envelope, payload: "é".repeat(32_100) }),
    (envelope) => ({ ...envelope, payload: "\ud800".repeat(21_400) }),
    (envelope) => ({ ...envelope, extra: 1 }),
    (envelope) => {
      const { kind: _kind, ...rest } = envelope;
      return rest;
    },
    (envelope, seed) => reorder(envelope, seed),
    (envelope) => ({ ...envelope, protocolVersion: "developer/v7" }),
  ];
  fc.assert(
    fc.property(fc.nat(entries.length - 1), fc.nat(edits.length - 1), fc.nat(1_000), (which, edit, seed) => {
      const value = (edits[edit] as (envelope: Record<string, unknown>, seed: number) => unknown)(entries[which] as Record<string, unknown>, seed);
      // As replay hands it over: the JSON.parse result of the canonical text, with that text.
      const parsedText = canonicalize(value);
      const parsed: unknown = JSON.parse(parsedText);
      assert.deepEqual(outcome(() => parseEnvelope(parsed, undefined, parsedText)), outcome(() => referenceParseEnvelope(parsed, undefined, parsedText)));
      assert.deepEqual(outcome(() => parseEnvelope(value)), outcome(() => referenceParseEnvelope(value)));
    }),
    { numRuns: 3_000 },
  );
});
