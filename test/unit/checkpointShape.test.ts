// The checkpoint's direct check (server/hooks/checkpoint.ts checkpointOf) spares a hook running the
// checkpoint's zod schema cold on every call. It must answer only where `Checkpoint` accepts, with
// exactly what its parse returns (same values, keys in the same order), and it declines exactly
// what the schema refuses: random checkpoints, each with one field replaced by an odd value, a key
// removed or one added, get the same verdict from both.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { mutatedAt, valuePaths, type JsonPath } from "../support/jsonMutations";
import { CHECKPOINT_FORMAT, checkpointOf, checkpointSchemas } from "../../server/hooks/checkpoint";

const sha = fc.stringMatching(/^[0-9a-f]{64}$/);
const count = fc.oneof(fc.nat({ max: 1_000_000 }), fc.constantFrom(0, Number.MAX_SAFE_INTEGER));
const facts = fc.record({
  blocked: fc.boolean(),
  scopeActive: fc.boolean(),
  authorizationActive: fc.boolean(),
  openFrame: fc.boolean(),
  concludedFrameExists: fc.boolean(),
  reroutePending: fc.boolean(),
  verificationPending: fc.boolean(),
});
const validCheckpoint = fc.record({
  format: fc.constant(CHECKPOINT_FORMAT),
  ledger: fc.record({
    ino: fc.stringMatching(/^[0-9]{1,24}$/),
    bytes: count,
    lines: count,
    headLine: fc.option(fc.record({ offset: count, length: fc.integer({ min: 1, max: 100_000 }), text: fc.string(), lineSha256: sha }), { nil: null }),
  }),
  state: fc.record({
    blockedReason: fc.option(fc.string(), { nil: null }),
    phase: fc.constantFrom("off", "deciding", "ready-to-edit", "editing", "rerouting", "verifying", "done", "blocked"),
    workScopeId: fc.option(fc.string(), { nil: null }),
    purpose: fc.option(fc.constantFrom("work-decision", "reroute-decision", "verification-decision"), { nil: null }),
    facts,
  }),
  seal: sha,
});

const ODD_VALUES: readonly unknown[] = [null, undefined, 0, -1, -0, 1.5, Number.MAX_SAFE_INTEGER + 2, 1e21, "", "0", "x", "deciding ", "Deciding", "a".repeat(64), "A".repeat(64), "1".repeat(25), true, false, [], {}, [1]];
const odd = fc.oneof(fc.constantFrom(...ODD_VALUES), fc.jsonValue({ maxDepth: 1 }));

function sameAnswer(value: unknown): void {
  const direct = checkpointOf(value);
  const schema = checkpointSchemas().Checkpoint.safeParse(value);
  if (direct === null) {
    assert.equal(schema.success, false, `declined a checkpoint the schema accepts: ${JSON.stringify(value)}`);
    return;
  }
  assert.ok(schema.success, `accepted a checkpoint the schema refuses: ${JSON.stringify(value)}`);
  assert.deepEqual(direct, schema.data);
  assert.equal(JSON.stringify(direct), JSON.stringify(schema.data));
}

test("valid checkpoints: the direct check answers, with the schema's parse", () => {
  fc.assert(
    fc.property(validCheckpoint, (value) => {
      assert.notEqual(checkpointOf(value), null);
      sameAnswer(value);
    }),
    { numRuns: 2_000 },
  );
});

test("checkpoints with one field replaced, removed or joined by another: the same verdict as the schema", () => {
  fc.assert(
    fc.property(validCheckpoint, fc.nat(), fc.constantFrom("replace", "remove", "extra" as const), odd, (value, pick, how, replacement) => {
      const paths = valuePaths(value);
      sameAnswer(mutatedAt(value, paths[pick % paths.length] as JsonPath, how, replacement));
    }),
    { numRuns: 6_000 },
  );
});

test("arbitrary values and odd top-level shapes: the same verdict as the schema", () => {
  fc.assert(fc.property(fc.oneof(fc.jsonValue(), odd), (value) => sameAnswer(value)), { numRuns: 2_000 });
  for (const text of ['{"__proto__":{}}', "[]", "null", "1", '"checkpoint"']) sameAnswer(JSON.parse(text));
  const base = { format: CHECKPOINT_FORMAT, ledger: { ino: "1", bytes: 0, lines: 0, headLine: null }, state: { blockedReason: null, phase: "off", workScopeId: null, purpose: null, facts: { blocked: false, scopeActive: false, authorizationActive: false, openFrame: false, concludedFrameExists: false, reroutePending: false, verificationPending: false } }, seal: "0".repeat(64) };
  sameAnswer(base);
  // Every field of a checkpoint with a head line, replaced by every odd value, removed, or joined by an extra key.
  const withHead = { ...base, ledger: { ino: "12", bytes: 10, lines: 1, headLine: { offset: 0, length: 10, text: "0123456789", lineSha256: "a".repeat(64) } }, state: { ...base.state, purpose: "work-decision" } };
  for (const at of valuePaths(withHead)) {
    for (const replacement of ODD_VALUES) sameAnswer(mutatedAt(withHead, at, "replace", replacement));
    sameAnswer(mutatedAt(withHead, at, "remove", null));
    sameAnswer(mutatedAt(withHead, at, "extra", 1));
  }
  sameAnswer(JSON.parse(JSON.stringify(base).replace('"bytes":0', '"bytes":-0')));
  sameAnswer(JSON.parse(JSON.stringify(base).replace('"state":{', '"state":{"__proto__":null,')));
});
