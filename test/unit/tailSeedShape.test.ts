// The tail seed's shape check (server/hooks/tailSeed.ts hasTailSeedShape) replaced a zod schema so
// the tail bundle builds none at load. It must accept exactly what that schema accepted: the schema
// is kept here as the reference, and random seeds — valid ones, ones with any field replaced by any
// JSON-ish value, and arbitrary values — get the same verdict from both.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import * as z from "zod/mini";
import { TAIL_SEED_FORMAT, hasTailSeedShape } from "../../server/hooks/tailSeed";

const ReferenceSeedShape = z.object({
  format: z.literal(TAIL_SEED_FORMAT),
  lines: z.int(),
  headLineSha256: z.nullable(z.string()),
  entryCount: z.int(),
  scopeCount: z.int(),
  openScopes: z.array(z.object({ workScopeId: z.string() })),
  causes: z.array(z.tuple([z.string(), z.object({ kind: z.string() })])),
  ids: z.object({ count: z.int(), sha256: z.string() }),
});

const anyValue = fc.oneof(
  fc.anything(),
  fc.constantFrom(null, undefined, 0, -1, 1.5, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, Number.NaN, Infinity, "", "x", [], {}, [[]], [{}], true),
);

const scope = fc.oneof(
  { weight: 4, arbitrary: fc.record({ workScopeId: fc.string(), root: fc.anything() }, { requiredKeys: ["workScopeId"] }) },
  { weight: 1, arbitrary: anyValue },
);
const cause = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.string(), fc.record({ kind: fc.string(), event: fc.anything() }, { requiredKeys: ["kind"] })) },
  { weight: 1, arbitrary: fc.array(anyValue, { maxLength: 3 }) },
  { weight: 1, arbitrary: anyValue },
);
const validSeed = fc.record({
  format: fc.constant(TAIL_SEED_FORMAT),
  lines: fc.integer({ min: 0 }),
  headLineSha256: fc.option(fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 64, maxLength: 64 }), { nil: null }),
  entryCount: fc.integer({ min: 0 }),
  scopeCount: fc.integer({ min: 0 }),
  openScopes: fc.array(scope, { maxLength: 3 }),
  causes: fc.array(cause, { maxLength: 4 }),
  ids: fc.oneof({ weight: 4, arbitrary: fc.record({ count: fc.integer({ min: 0 }), sha256: fc.string() }) }, { weight: 1, arbitrary: anyValue }),
});
/** A seed with some of its fields replaced by anything, some removed, and one added. */
const alteredSeed = fc
  .tuple(validSeed, fc.dictionary(fc.constantFrom("format", "lines", "headLineSha256", "entryCount", "scopeCount", "openScopes", "causes", "ids", "extra"), fc.option(anyValue, { nil: undefined })))
  .map(([seed, changes]) => {
    const altered: Record<string, unknown> = { ...seed };
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) delete altered[key];
      else altered[key] = value;
    }
    return altered;
  });

test("the tail seed's shape check accepts exactly what the reference zod schema accepts", () => {
  fc.assert(
    fc.property(fc.oneof(validSeed, alteredSeed, anyValue), (value) => {
      assert.equal(hasTailSeedShape(value), ReferenceSeedShape.safeParse(value).success);
    }),
    { seed: 16, numRuns: 3_000 },
  );
});

test("the tail seed's shape check on the edges: sparse arrays, long pairs, unsafe integers, null ids", () => {
  const base = { format: TAIL_SEED_FORMAT, lines: 1, headLineSha256: null, entryCount: 1, scopeCount: 1, openScopes: [], causes: [], ids: { count: 0, sha256: "" } };
  const sparse: unknown[] = [];
  sparse.length = 2;
  const cases: unknown[] = [
    base,
    { ...base, openScopes: sparse },
    { ...base, causes: sparse },
    { ...base, causes: [["k", { kind: "x" }, 3]] },
    { ...base, causes: [["k"]] },
    { ...base, causes: [[undefined, { kind: "x" }]] },
    { ...base, lines: Number.MAX_SAFE_INTEGER + 1 },
    { ...base, lines: -Number.MAX_SAFE_INTEGER },
    { ...base, lines: 1.5 },
    { ...base, headLineSha256: undefined },
    { ...base, ids: null },
    { ...base, ids: [0, ""] },
    { ...base, openScopes: [[]] },
    [base],
  ];
  for (const value of cases) assert.equal(hasTailSeedShape(value), ReferenceSeedShape.safeParse(value).success, JSON.stringify(value));
});
