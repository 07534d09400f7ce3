import { test } from "node:test";
import assert from "node:assert/strict";
import { createEnvelope, envelopeSha256, parseEnvelope, type EnvelopeDraft } from "../../server/ledger/envelope";
import { sha } from "../support/envelopes";

const base: EnvelopeDraft = {
  protocolVersion: "developer/v8",
  eventId: "event:one",
  workScopeId: "scope:one",
  scopeSequence: 0,
  previousScopeEventSha256: null,
  causalRefs: [],
  occurredAt: "2026-07-31T10:00:00.000Z",
  kind: "work-scope-opened",
  payload: {},
};

function hashed(draft: Record<string, unknown>): Record<string, unknown> {
  return { ...draft, eventSha256: envelopeSha256(draft as unknown as EnvelopeDraft) };
}

function rejects(value: unknown, pattern: RegExp): void {
  assert.throws(() => parseEnvelope(value), pattern);
}

test("a valid envelope round-trips", () => {
  const envelope = createEnvelope(base);
  assert.deepEqual(parseEnvelope(JSON.parse(JSON.stringify(envelope))), envelope);
});

test("unknown and missing envelope fields are rejected", () => {
  rejects({ ...hashed({ ...base }), extra: 1 }, /extra: is not allowed/u);
  const { kind: _kind, ...missing } = hashed({ ...base });
  rejects(missing, /kind: is required/u);
  rejects("not an object", /expected an object/u);
  rejects([hashed({ ...base })], /expected an object/u);
});

test("identifiers follow the DeveloperId grammar", () => {
  rejects(hashed({ ...base, eventId: "1event" }), /eventId/u);
  rejects(hashed({ ...base, eventId: "event one" }), /eventId/u);
  rejects(hashed({ ...base, workScopeId: `s${"x".repeat(160)}` }), /workScopeId: text is too long/u);
  rejects(hashed({ ...base, kind: " work-scope-opened" }), /surrounding whitespace/u);
});

test("sequence and previous hash rules", () => {
  rejects(hashed({ ...base, scopeSequence: -1 }), /scopeSequence: integer is too small/u);
  rejects(hashed({ ...base, scopeSequence: 1.5 }), /scopeSequence: expected a safe integer/u);
  rejects(hashed({ ...base, scopeSequence: 1_000_000_001 }), /integer is too large/u);
  rejects(hashed({ ...base, previousScopeEventSha256: sha("a") }), /must be null for the first scope event/u);
  rejects(hashed({ ...base, scopeSequence: 1 }), /is required after the first scope event/u);
  rejects(hashed({ ...base, scopeSequence: 1, previousScopeEventSha256: "ABC" }), /previousScopeEventSha256/u);
});

test("hash drift is rejected", () => {
  const envelope = createEnvelope(base);
  rejects({ ...envelope, occurredAt: "2026-07-31T10:00:01.000Z" }, /does not match the canonical event body/u);
  rejects({ ...envelope, eventSha256: sha("0") }, /does not match/u);
  rejects({ ...envelope, eventSha256: envelope.eventSha256.toUpperCase() }, /eventSha256/u);
});

test("timestamps must be canonical UTC and round-trip", () => {
  rejects(hashed({ ...base, occurredAt: "2026-02-30T10:00:00.000Z" }), /canonical UTC timestamp/u);
  rejects(hashed({ ...base, occurredAt: "2026-07-31T10:00:00Z" }), /occurredAt/u);
  rejects(hashed({ ...base, occurredAt: "2026-07-31 10:00:00.000Z" }), /occurredAt/u);
});

test("causal refs are exact, unique, ascending and bounded", () => {
  const ref = { workScopeId: "scope:a", eventId: "event:a", eventSha256: sha("a") };
  const later = { workScopeId: "scope:b", eventId: "event:b", eventSha256: sha("b") };
  assert.doesNotThrow(() => parseEnvelope(hashed({ ...base, causalRefs: [ref, later] })));
  rejects(hashed({ ...base, causalRefs: [later, ref] }), /canonical order/u);
  rejects(hashed({ ...base, causalRefs: [ref, ref] }), /contains duplicates/u);
  rejects(hashed({ ...base, causalRefs: [{ workScopeId: "scope:a", eventId: "event:a" }] }), /eventSha256: is required/u);
  rejects(hashed({ ...base, causalRefs: [{ ...ref, extra: true }] }), /extra: is not allowed/u);
  const many = Array.from({ length: 101 }, (_, index) => ({ workScopeId: "scope:a", eventId: `event:${String(index).padStart(3, "0")}`, eventSha256: sha("a") }));
  rejects(hashed({ ...base, causalRefs: many }), /too many items/u);
});

test("payload must be JSON and at most 64,000 canonical bytes", () => {
  assert.doesNotThrow(() => createEnvelope({ ...base, payload: { text: "x".repeat(63_989) } }));
  assert.throws(() => createEnvelope({ ...base, payload: { text: "x".repeat(64_000) } }), /exceeds its byte limit/u);
  assert.throws(() => createEnvelope({ ...base, payload: { text: "가".repeat(21_400) } }), /exceeds its byte limit/u);
});

test("protocolVersion must be developer/v8", () => {
  rejects(hashed({ ...base, protocolVersion: "developer/v7" }), /protocolVersion/u);
});
