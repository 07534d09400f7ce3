import { test } from "node:test";
import assert from "node:assert/strict";
import { replayEntries } from "../../server/ledger/replay";
import { compareCausalRefs } from "../../server/ledger/envelope";
import { ReceiptProjection } from "../../server/developer/receipts";
import { receiptDetail } from "../../server/developer/receiptDetail";
import { EVENT_KINDS } from "../../server/developer/eventKinds";
import { canonicalize, sha256Hex } from "../../server/ledger/canonicalJson";
import { ErrorCodes, ReceiptKind, ReceiptsPageParams, Requests } from "../../server/protocol/messages";
import { readReceiptDetail, readReceiptsPage } from "../../server/workspace/receiptQueries";
import { DocketError } from "../../server/errors";
import { closeScope, openScope, refOf } from "../support/envelopes";

function fixture() {
  const a = openScope("scope:a");
  const closedA = closeScope(a);
  const b = openScope("scope:b");
  // Extra resolvable causal refs are allowed on any kind but work-scope-opened.
  const closedB = closeScope(b, "Done.", { causalRefs: [refOf(a), refOf(closedA)].sort(compareCausalRefs) });
  const projection = new ReceiptProjection();
  projection.follow(replayEntries([a, closedA, b, closedB]).accepted);
  assert.equal(projection.count, 4);
  return { a, closedA, b, closedB, projection };
}

test("the protocol's receipt kinds are exactly the 18 event kinds", () => {
  assert.deepEqual([...ReceiptKind.options], [...EVENT_KINDS]);
  assert.equal(ReceiptsPageParams.safeParse({ cursor: null, kinds: ["no-such-kind"] }).success, false);
  assert.equal(ReceiptsPageParams.safeParse({ cursor: null, kinds: [] }).success, false);
  assert.equal(ReceiptsPageParams.safeParse({ cursor: null, kinds: ["route-frame-opened"], containing: "a".repeat(64) }).success, true);
  assert.equal(Requests.receiptDetail.params.safeParse({ eventSha256: "nope" }).success, false);
  assert.equal(Requests.receiptDetail.params.safeParse({ eventSha256: "a".repeat(64), extra: 1 }).success, false);
});

test("detail: the canonical JSON is exactly what eventSha256 hashes", () => {
  const { closedB, projection } = fixture();
  const detail = receiptDetail(projection, closedB.eventSha256);
  assert.ok(detail !== undefined);
  assert.equal(detail.ordinal, 3);
  assert.equal(sha256Hex(detail.canonicalJson), closedB.eventSha256);
  assert.ok(detail.canonicalJson.startsWith('{"domain":"developer.event-envelope/v8","value":{"causalRefs":['));
  assert.equal(canonicalize(JSON.parse(detail.canonicalJson)), detail.canonicalJson);
  assert.equal(detail.projectionSha256, projection.projectionSha256);
});

test("detail: causal refs and the previous-scope link resolve to ordinals", () => {
  const { a, closedA, b, closedB, projection } = fixture();
  const detail = readReceiptDetail(projection, closedB.eventSha256);
  const expected = [
    { workScopeId: "scope:a", eventId: a.eventId, eventSha256: a.eventSha256, ordinal: 0, kind: "work-scope-opened" },
    { workScopeId: "scope:a", eventId: closedA.eventId, eventSha256: closedA.eventSha256, ordinal: 1, kind: "work-scope-closed" },
  ].sort(compareCausalRefs);
  assert.deepEqual(detail.causalRefs, expected);
  assert.deepEqual(detail.previousScopeEvent, {
    workScopeId: "scope:b",
    eventId: b.eventId,
    eventSha256: b.eventSha256,
    ordinal: 2,
    kind: "work-scope-opened",
  });
  assert.equal(detail.receipt.ordinal, 3);
  assert.equal(detail.receipt.eventSha256, closedB.eventSha256);
  assert.equal(detail.receipt.kind, "work-scope-closed");
  assert.equal(Requests.receiptDetail.result.safeParse(detail).success, true);
  const first = readReceiptDetail(projection, a.eventSha256);
  assert.deepEqual(first.causalRefs, []);
  assert.equal(first.previousScopeEvent, null);
});

test("detail: an event outside the projection has none; an unknown hash is a coded error", () => {
  const { a, closedA, b, closedB } = fixture();
  // Replay only accepts resolvable refs, so a null link can only come from a replaced ledger;
  // here the event itself is missing from the projection.
  const partial = new ReceiptProjection();
  partial.follow(replayEntries([b]).accepted);
  assert.equal(receiptDetail(partial, closedB.eventSha256), undefined);
  const full = new ReceiptProjection();
  full.follow(replayEntries([a, closedA, b, closedB]).accepted);
  assert.throws(
    () => readReceiptDetail(full, "e".repeat(64)),
    (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.receiptNotFound,
  );
});

test("pages map cursor faults and filters to coded errors and protocol shapes", () => {
  const { a, projection } = fixture();
  const page = readReceiptsPage(projection, { cursor: null, pageSize: 2, kinds: ["work-scope-opened"] });
  assert.equal(Requests.receiptsPage.result.safeParse(page).success, true);
  assert.deepEqual(page.kinds, ["work-scope-opened"]);
  assert.deepEqual(page.receipts.map((row) => row.ordinal), [0, 2]);
  const all = readReceiptsPage(projection, { cursor: null, pageSize: 1 });
  const code = (expected: string) => (error: unknown) => error instanceof DocketError && error.code === expected;
  assert.throws(() => readReceiptsPage(projection, { cursor: all.nextCursor, pageSize: 1, kinds: ["work-scope-closed"] }), code(ErrorCodes.invalidCursor));
  assert.throws(() => readReceiptsPage(projection, { cursor: null, pageSize: 1, containing: "e".repeat(64) }), code(ErrorCodes.receiptNotFound));
  assert.throws(() => readReceiptsPage(projection, { cursor: all.nextCursor, pageSize: 1, containing: a.eventSha256 }), code(ErrorCodes.invalidParams));
  const jumped = readReceiptsPage(projection, { cursor: null, pageSize: 1, containing: a.eventSha256 });
  assert.equal(jumped.receipts[0]?.eventSha256, a.eventSha256);
});
