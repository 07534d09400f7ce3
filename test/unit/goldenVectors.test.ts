import { test } from "node:test";
import assert from "node:assert/strict";
import { canonicalize, hashValue } from "../../server/ledger/canonicalJson";
import { createEnvelope, type EnvelopeDraft } from "../../server/ledger/envelope";
import { EMPTY_RECEIPT_ROOT, ReceiptProjection } from "../../server/developer/receipts";

test("canonical JSON sorts keys by UTF-16 code units, independent of locale", () => {
  assert.equal(canonicalize({ z: 1, ä: 2, a: 3 }), '{"a":3,"z":1,"ä":2}');
  assert.equal(hashValue({ z: 1, ä: 2, a: 3 }), "db9f98f8f834a409b5fc0798ba4c3ff4baf60b13f314723742ca596753248d28");
});

test("canonical JSON number and value rules", () => {
  assert.equal(canonicalize(-0), "0");
  assert.equal(canonicalize([1e21, 0.1, 5e-7]), "[1e+21,0.1,5e-7]");
  assert.equal(canonicalize({ b: [true, null, "x"], a: {} }), '{"a":{},"b":[true,null,"x"]}');
  assert.throws(() => canonicalize({ a: undefined }));
  assert.throws(() => canonicalize(Number.NaN));
  assert.throws(() => canonicalize(Number.POSITIVE_INFINITY));
  assert.throws(() => canonicalize(() => 1));
});

test("envelope golden vector 78d67507…", () => {
  const draft: EnvelopeDraft = {
    protocolVersion: "developer/v8",
    eventId: "event:one",
    workScopeId: "scope:one",
    scopeSequence: 0,
    previousScopeEventSha256: null,
    causalRefs: [],
    occurredAt: "2026-07-31T10:00:00.000Z",
    kind: "route-frame-opened",
    payload: { frameId: "frame:one", frameRevision: 0 },
  };
  assert.equal(createEnvelope(draft).eventSha256, "78d67507f008f910b63c3a668190c9d57c33500ec77c73bd3a01ca64f6703eb6");
});

test("mini log work-scope-opened golden vector 68fed704…", () => {
  const envelope = createEnvelope({
    protocolVersion: "developer/v8",
    eventId: "event:e0",
    workScopeId: "scope:s",
    scopeSequence: 0,
    previousScopeEventSha256: null,
    causalRefs: [],
    occurredAt: "2030-01-01T00:00:00.000Z",
    kind: "work-scope-opened",
    payload: {},
  });
  assert.equal(envelope.eventSha256, "68fed704cb4b776e00c157424bee57cb76959789304eb0ffb14206db3df46475");
});

test("empty blocker set and empty receipt projection golden vectors", () => {
  assert.equal(
    hashValue({ domain: "developer/v8/runtime-blocker-set", blockers: [] }),
    "e636b878a29075de80ac22fca0f4330d0d4de1d3718cb7ab593389e653150ba6",
  );
  const projection = new ReceiptProjection();
  assert.equal(projection.projectionSha256, "9c336f04305dfbbc460eef0adc28f05bda06d3c9b86ecaf0c295f70d433d7475");
  assert.equal(EMPTY_RECEIPT_ROOT, hashValue({ domain: "developer/v8/receipt-root-empty" }));
});

test("an own __proto__ key (as JSON.parse makes it) is an ordinary key of the canonical form", () => {
  const parsed = JSON.parse('{"b":1,"__proto__":{"x":2},"a":null}') as unknown;
  assert.equal(canonicalize(parsed), '{"__proto__":{"x":2},"a":null,"b":1}');
  assert.notEqual(hashValue(JSON.parse('{"__proto__":false}')), hashValue({}));
});
