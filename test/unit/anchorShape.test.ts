// The head anchor's direct check (server/ledger/anchor.ts anchorOf) spares every hook building and
// running the anchor's zod schema cold. It must answer only where the schema accepts, with exactly
// what its parse returns (same values, keys in the same order, `pending` present only when it was),
// and decline what the schema refuses: random anchors, each with one field replaced by an odd value,
// a key removed or one added, get the same verdict from both; and readAnchor reads the same.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { mutatedAt, valuePaths, type JsonPath } from "../support/jsonMutations";
import { ANCHOR_FORMAT, anchorOf, anchorPathFor, ledgerAnchorSchema, readAnchor } from "../../server/ledger/anchor";

const sha = fc.stringMatching(/^[0-9a-f]{64}$/);
const count = fc.oneof(fc.nat({ max: 1_000_000 }), fc.constantFrom(0, Number.MAX_SAFE_INTEGER));
const head = fc.record({ offset: count, length: fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.constant(Number.MAX_SAFE_INTEGER)), lineSha256: sha });
const pending = fc.record({ bytes: count, lines: count, lineSha256: sha });
const validAnchor = fc
  .tuple(
    fc.record({ format: fc.constant(ANCHOR_FORMAT), lines: count, bytes: count, head: fc.option(head, { nil: null }), ino: fc.stringMatching(/^[0-9]{1,24}$/) }),
    fc.oneof(fc.constant("absent" as const), fc.constant(null), pending),
  )
  .map(([anchor, extra]) => (extra === "absent" ? anchor : { ...anchor, pending: extra }));

const ODD_VALUES: readonly unknown[] = [null, undefined, 0, -1, -0, 1.5, Number.MAX_SAFE_INTEGER + 2, 1e21, "", "0", "x", "a".repeat(64), "A".repeat(64), "a".repeat(63), "1".repeat(25), true, false, [], {}, [1]];
const odd = fc.oneof(fc.constantFrom(...ODD_VALUES), fc.jsonValue({ maxDepth: 1 }));

function sameAnswer(value: unknown): void {
  const direct = anchorOf(value);
  const schema = ledgerAnchorSchema().safeParse(value);
  if (direct === null) {
    assert.equal(schema.success, false, `declined an anchor the schema accepts: ${JSON.stringify(value)}`);
    return;
  }
  assert.ok(schema.success, `accepted an anchor the schema refuses: ${JSON.stringify(value)}`);
  assert.deepEqual(direct, schema.data);
  assert.equal(JSON.stringify(direct), JSON.stringify(schema.data));
  assert.deepEqual(Object.keys(direct), Object.keys(schema.data));
}

test("valid anchors: the direct check answers, with the schema's parse", () => {
  fc.assert(
    fc.property(validAnchor, (value) => {
      assert.notEqual(anchorOf(value), null);
      sameAnswer(value);
    }),
    { numRuns: 2_000 },
  );
});

test("anchors with one field replaced, removed or joined by another: the same verdict as the schema", () => {
  fc.assert(
    fc.property(validAnchor, fc.nat(), fc.constantFrom("replace", "remove", "extra" as const), odd, (value, pick, how, replacement) => {
      const paths = valuePaths(value);
      sameAnswer(mutatedAt(value, paths[pick % paths.length] as JsonPath, how, replacement));
    }),
    { numRuns: 6_000 },
  );
});

test("arbitrary values and odd shapes: the same verdict as the schema", () => {
  fc.assert(fc.property(fc.oneof(fc.jsonValue(), odd), (value) => sameAnswer(value)), { numRuns: 2_000 });
  for (const text of ['{"__proto__":{}}', "[]", "null", "1", '"anchor"']) sameAnswer(JSON.parse(text));
  const withBoth = { format: ANCHOR_FORMAT, lines: 3, bytes: 30, head: { offset: 20, length: 10, lineSha256: "b".repeat(64) }, ino: "42", pending: { bytes: 40, lines: 4, lineSha256: "c".repeat(64) } };
  sameAnswer(withBoth);
  for (const at of valuePaths(withBoth)) {
    for (const replacement of ODD_VALUES) sameAnswer(mutatedAt(withBoth, at, "replace", replacement));
    sameAnswer(mutatedAt(withBoth, at, "remove", null));
    sameAnswer(mutatedAt(withBoth, at, "extra", 1));
  }
  sameAnswer(JSON.parse(JSON.stringify(withBoth).replace('"lines":3', '"lines":-0')));
  sameAnswer(JSON.parse(JSON.stringify(withBoth).replace('"head":{', '"head":{"__proto__":null,')));
  sameAnswer(JSON.parse(JSON.stringify(withBoth).replace('"ino":"42"', '"ino":"42","__proto__":{}')));
});

test("readAnchor reads through the direct check exactly what the schema read before", () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "docket-anchor-shape-"));
  const ledgerPath = path.join(folder, "ledger.jsonl");
  try {
    fc.assert(
      fc.property(fc.oneof(validAnchor.map((anchor) => JSON.stringify(anchor)), fc.jsonValue().map((value) => JSON.stringify(value)), fc.string()), (text) => {
        fs.writeFileSync(anchorPathFor(ledgerPath), text);
        const read = readAnchor(folder, ledgerPath);
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          assert.deepEqual(read, { kind: "invalid", why: "the anchor is not JSON" });
          return;
        }
        const schema = ledgerAnchorSchema().safeParse(parsed);
        if (!schema.success) assert.deepEqual(read, { kind: "invalid", why: "the anchor has an unknown shape" });
        else if (read.kind === "anchor") assert.equal(JSON.stringify(read.anchor), JSON.stringify(schema.data));
        else assert.deepEqual(read, { kind: "invalid", why: "the anchor contradicts itself" });
      }),
      { numRuns: 500 },
    );
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
