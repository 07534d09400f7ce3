// Replay's per-event shortcuts give exactly the answers of the straightforward forms they replace:
// canonical JSON through a key-sorted copy (objects built in any key order, "__proto__" and
// array-index keys, nesting, unicode) against a reference serializer, the arithmetic timestamp
// check against a Date round trip, the id and hash checks against textAt, the wrapper check on
// canonical and non-canonical lines, and the envelope's causal-ref order check against both of
// its checks run in full.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { canonicalize, hashValue } from "../../server/ledger/canonicalJson";
import { ENVELOPE_DOMAIN, causalRefKey, parseEnvelope, type EventRef } from "../../server/ledger/envelope";
import { DEVELOPER_STREAM, LineFault, decodeLedgerLine, encodeLedgerLine } from "../../server/ledger/ledgerLine";
import { idAt, isCanonicalTimestamp, shaAt, textAt } from "../../server/ledger/values";
import { cycleScopesEntries } from "../support/generatedCycles";

/** The definition: keys sorted by code units, no whitespace, JSON.stringify for scalars. */
function referenceCanonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(referenceCanonical).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((key) => `${JSON.stringify(key)}:${referenceCanonical(record[key])}`).join(",")}}`;
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

const key = fc.oneof(fc.string(), fc.constantFrom("__proto__", "0", "1", "10", "9", "01", "-1", "domain", "a", "b", "é", "\ud800"));
const tree = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(null, true, false, 0, -0, 1.5, 1e21, -1e-7),
    fc.string({ unit: "binary" }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(key, tie("value"), { maxKeys: 5 }),
  ),
})).value;

test("canonical JSON of values built in any key order equals the reference serialization", () => {
  fc.assert(
    fc.property(tree, fc.integer({ min: 0, max: 1000 }), (value, seed) => {
      const expected = referenceCanonical(value);
      assert.equal(canonicalize(value), expected);
      assert.equal(canonicalize(reorder(value, seed)), expected);
      assert.equal(canonicalize({ ...(reorder({ value }, seed) as object), domain: "d" }), referenceCanonical({ domain: "d", value }));
    }),
    { numRuns: 2_000 },
  );
});

test("canonical JSON shares untouched subtrees and still sorts the copy's parents", () => {
  const shared = { a: 1, b: [{ c: 2, d: 3 }] };
  const value = { z: shared, a: shared, "10": 1, "9": 2 };
  assert.equal(canonicalize(value), referenceCanonical(value));
  assert.equal(canonicalize({ b: 1, a: { d: 1, c: 2 } }), '{"a":{"c":2,"d":1},"b":1}');
});

function roundTrips(timestamp: string): boolean {
  const date = new Date(timestamp);
  return !Number.isNaN(date.getTime()) && date.toISOString() === timestamp;
}

test("the arithmetic timestamp check agrees with a Date round trip", () => {
  const two = (max: number): fc.Arbitrary<string> => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, "0"));
  const stamp = fc
    .tuple(fc.integer({ min: 0, max: 9999 }), two(15), two(35), two(27), two(65), two(65), fc.integer({ min: 0, max: 999 }))
    .map(([y, mo, d, h, mi, s, ms]) => `${String(y).padStart(4, "0")}-${mo}-${d}T${h}:${mi}:${s}.${String(ms).padStart(3, "0")}Z`);
  fc.assert(
    fc.property(stamp, (timestamp) => assert.equal(isCanonicalTimestamp(timestamp), roundTrips(timestamp), timestamp)),
    { numRuns: 20_000 },
  );
  for (const year of [0, 1, 4, 100, 400, 1900, 2000, 2023, 2024, 2100, 9999]) {
    for (let month = 1; month <= 12; month += 1) {
      for (const day of [28, 29, 30, 31, 32]) {
        const timestamp = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${day}T23:59:59.999Z`;
        assert.equal(isCanonicalTimestamp(timestamp), roundTrips(timestamp), timestamp);
      }
    }
  }
});

/** The outcome of a call: its value, or its error's class and message. */
function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

test("the id and hash checks answer exactly as textAt with their patterns", () => {
  const hex = fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEFg "), minLength: 62, maxLength: 66 });
  const id = fc.oneof(fc.stringMatching(/^[A-Za-z][A-Za-z0-9._:/-]{0,170}$/u), fc.string({ unit: fc.constantFrom(..."aZ0.:/- \t\u00e9"), maxLength: 12 }));
  const anything = fc.oneof(hex, id, fc.string(), fc.constantFrom(null, undefined, 1, true, {}, "", " ", "a".repeat(160), "a".repeat(161), "0".repeat(64), ` ${"0".repeat(63)}`));
  fc.assert(
    fc.property(anything, (value) => {
      assert.deepEqual(outcome(() => shaAt(value, "p")), outcome(() => textAt(value, "p", { max: 64, pattern: /^[a-f0-9]{64}$/u })));
      assert.deepEqual(outcome(() => idAt(value, "p")), outcome(() => textAt(value, "p", { max: 160, pattern: /^[A-Za-z][A-Za-z0-9._:/-]*$/u })));
    }),
    { numRuns: 20_000 },
  );
});

test("a ledger line decodes only in its exact canonical form", () => {
  const entries = cycleScopesEntries(2);
  let previous: string | null = null;
  const lines = entries.map((entry, index) => {
    const encoded = encodeLedgerLine(index, previous, DEVELOPER_STREAM, entry);
    const line = { text: encoded.text.slice(0, -1), previous };
    previous = encoded.lineSha256;
    return line;
  });
  for (const [index, line] of lines.entries()) assert.equal(decodeLedgerLine(line.text, index, line.previous).entryText.length > 0, true);
  // Whitespace between tokens, a trailing space, a key spelled with an escape, or a number written
  // longer: the same JSON value and the same hash, but not the line's canonical bytes.
  const variants = (text: string, at: number): string[] => {
    const cut = text.indexOf(",", at);
    return [
      cut < 0 ? `${text} ` : `${text.slice(0, cut)} ${text.slice(cut)}`,
      `${text} `,
      ` ${text}`,
      text.replace('"entry":', '"\\u0065ntry":'),
      text.replace(/"line":(\d+)/u, '"line":$1.0'),
      text.replace('"ledger":', '"ledger" :'),
    ];
  };
  fc.assert(
    fc.property(fc.integer({ min: 0, max: lines.length - 1 }), fc.nat(2_000), (index, at) => {
      const line = lines[index] as { text: string; previous: string | null };
      for (const variant of variants(line.text, at % line.text.length)) {
        if (variant === line.text) continue;
        assert.throws(
          () => decodeLedgerLine(variant, index, line.previous),
          (error: unknown) => error instanceof LineFault && error.code === "ledger-line-invalid" && /not in canonical form/u.test(error.message),
        );
      }
    }),
    { numRuns: 300 },
  );
});

test("the envelope's causal-ref check reports what the duplicate check and then the order check report", () => {
  const sha = (digit: string): string => digit.repeat(64);
  const ref = fc.record({ workScopeId: fc.constantFrom("scope:a", "scope:b"), eventId: fc.constantFrom("event:a", "event:b", "event:c"), eventSha256: fc.constantFrom(sha("1"), sha("2")) });
  const reference = (refs: readonly EventRef[]): string | null => {
    const keys = refs.map(causalRefKey);
    if (new Set(keys).size !== keys.length) return "contains duplicates";
    for (let index = 1; index < keys.length; index += 1) if ((keys[index - 1] as string) >= (keys[index] as string)) return "must be unique and in canonical order";
    return null;
  };
  fc.assert(
    fc.property(fc.array(ref, { maxLength: 6 }), (refs) => {
      const draft = { protocolVersion: "developer/v8", eventId: "event:z", workScopeId: "scope:z", scopeSequence: 0, previousScopeEventSha256: null, causalRefs: refs, occurredAt: "2026-01-01T00:00:00.000Z", kind: "developer.k", payload: {} };
      const envelope = { ...draft, eventSha256: hashValue({ domain: ENVELOPE_DOMAIN, value: draft }) };
      const expected = reference(refs);
      const got = outcome(() => parseEnvelope(envelope)) as { error?: string };
      if (expected === null) assert.equal(got.error, undefined);
      else assert.equal(got.error, `ValueError: developerEventEnvelope.causalRefs: ${expected}`);
    }),
    { numRuns: 2_000 },
  );
});
