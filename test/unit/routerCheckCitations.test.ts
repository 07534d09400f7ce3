// A seat check's citations are checked by a plain predicate first (server/router/planSchema.ts,
// CheckCitations) and by zod's Citation otherwise. The two together must accept exactly what
// z.array(Citation) accepts, with the same value; and the predicate alone must never accept what
// Citation refuses. Compared on generated lists of valid and nearly valid citations.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import * as z from "zod";
import { Citation, CheckCitations, isPlainFileCitationList } from "../../server/router/planSchema";

const Reference = z.array(Citation);

class Holder {
  constructor(
    readonly kind: string,
    readonly path: string,
    readonly line: number | null,
  ) {}
}

const path = fc.oneof(fc.constantFrom("", "a", "src/a.ts", "x".repeat(4096), "x".repeat(4097)), fc.string({ maxLength: 8 }));
const line = fc.oneof(fc.constantFrom(null, 0, -1, 1, 7, 1.5, 2 ** 53, 2 ** 53 - 1, Number.NaN, Number.POSITIVE_INFINITY, "3", undefined), fc.integer());
const citation = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant("file"), path, line }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("file"), path, line, extra: fc.constant(1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("file"), path }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom("ledger-event", "evidence", "File", ""), path, line }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("ledger-event"), workScopeId: fc.string(), eventId: fc.string() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("evidence"), handle: fc.string() }) },
  { weight: 1, arbitrary: fc.tuple(path, line).map(([p, l]) => Object.assign(Object.create(null) as object, { kind: "file", path: p, line: l })) },
  { weight: 1, arbitrary: fc.tuple(path, fc.constantFrom(null, 1)).map(([p, l]) => new Holder("file", p, l)) },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, "file", 3, [], ["file"]) },
);
const list = fc.oneof(
  { weight: 10, arbitrary: fc.array(citation, { maxLength: 6 }) },
  { weight: 1, arbitrary: fc.array(citation, { maxLength: 3 }).map((values) => Object.assign(new Array<unknown>(values.length + 2), values)) },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, {}, "x", { length: 0 }) },
);

test("plain check citations are accepted exactly as z.array(Citation) accepts them (property)", () => {
  fc.assert(
    fc.property(list, (value) => {
      const reference = Reference.safeParse(value);
      const checked = CheckCitations.safeParse(value);
      assert.equal(checked.success, reference.success);
      if (reference.success && checked.success) assert.deepEqual(checked.data, reference.data);
      if (isPlainFileCitationList(value)) assert.ok(reference.success, "the predicate accepted what Citation refuses");
    }),
    { numRuns: 5000, seed: 16 },
  );
});

test("the predicate recognises the lists Docket's checks write", () => {
  const written = [
    { kind: "file", path: "packages/pkg-0000/src/module7.ts", line: null },
    { kind: "file", path: "src/a.ts", line: 12 },
  ];
  assert.equal(isPlainFileCitationList(written), true);
  assert.equal(isPlainFileCitationList([]), true);
  assert.equal(isPlainFileCitationList([...written, { kind: "evidence", handle: "h" }]), false);
  assert.equal(CheckCitations.safeParse([...written, { kind: "evidence", handle: "h" }]).success, true);
  assert.equal(CheckCitations.safeParse([{ kind: "file", path: "", line: null }]).success, false);
});
