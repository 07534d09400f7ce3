// Replay's per-event shortcuts give exactly the answers of the straightforward forms they replace:
// canonical JSON through a key-sorted copy (objects built in any key order, "__proto__" and
// array-index keys, nesting, unicode) against a reference serializer, and the arithmetic
// timestamp check against a Date round trip.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { canonicalize } from "../../server/ledger/canonicalJson";
import { isCanonicalTimestamp } from "../../server/ledger/values";

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
