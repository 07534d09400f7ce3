import { test } from "node:test";
import assert from "node:assert/strict";
import { replayEntries } from "../../server/ledger/replay";
import { ReceiptCursorError, ReceiptProjection } from "../../server/developer/receipts";
import { hashValue } from "../../server/ledger/canonicalJson";
import { closeScope, openScope } from "../support/envelopes";
import type { Envelope } from "../../server/ledger/envelope";

function cycles(count: number): Envelope[] {
  const envelopes: Envelope[] = [];
  for (let index = 0; index < count; index += 1) {
    const opened = openScope(`scope:s${String(index).padStart(4, "0")}`);
    envelopes.push(opened);
    if (envelopes.length < count) envelopes.push(closeScope(opened));
  }
  return envelopes.slice(0, count);
}

function projectionOf(envelopes: Envelope[]): ReceiptProjection {
  const projection = new ReceiptProjection();
  projection.follow(replayEntries(envelopes).accepted);
  return projection;
}

test("receipts carry ids and hashes only, with the reference receipt hash", () => {
  const opened = openScope("scope:a");
  const closed = closeScope(opened, "A reason that must not leak.");
  const projection = projectionOf([opened, closed]);
  const page = projection.page(null, 100);
  assert.deepEqual(page.entries[0]?.receipt.body, { kind: "work-scope-opened", workScopeId: "scope:a" });
  assert.equal(JSON.stringify(page.entries[1]?.receipt.body).includes("must not leak"), false);
  const first = page.entries[0]?.receipt;
  assert.ok(first !== undefined);
  const fields = { kind: "work-scope-opened", workScopeId: "scope:a", eventRef: first.eventRef, storedIndex: 0, scopeSequence: 0 };
  assert.equal(first.receiptSha256, hashValue({ domain: "developer/v8/receipt", fields }));
});

test("251 receipts page as 100/100/51 with cursors, forwards and back", () => {
  const projection = projectionOf(cycles(251));
  assert.equal(projection.count, 251);
  const first = projection.page(null, 100);
  assert.equal(first.entries.length, 100);
  assert.equal(first.previousCursor, null);
  const second = projection.page(first.nextCursor, 100);
  assert.equal(second.startOrdinal, 100);
  const third = projection.page(second.nextCursor, 100);
  assert.equal(third.entries.length, 51);
  assert.equal(third.nextCursor, null);
  const back = projection.page(third.previousCursor, 100);
  assert.equal(back.startOrdinal, 100);
  assert.throws(() => projection.page(null, 0), RangeError);
  assert.throws(() => projection.page(null, 101), RangeError);
});

test("the same events give the same projection; a cursor from another projection is stale", () => {
  const envelopes = cycles(150);
  const a = projectionOf(envelopes);
  const b = projectionOf(envelopes);
  assert.equal(a.projectionSha256, b.projectionSha256);
  assert.equal(a.page(null, 100).pageSha256, b.page(null, 100).pageSha256);
  const cursor = a.page(null, 100).nextCursor;
  const grown = projectionOf(cycles(151));
  assert.throws(() => grown.page(cursor, 100), (error: unknown) => error instanceof ReceiptCursorError && error.code === "stale-cursor");
  const forged = cursor?.replace(/\.100\./u, ".99.");
  assert.throws(() => a.page(forged ?? null, 100), (error: unknown) => error instanceof ReceiptCursorError && error.code === "invalid-cursor");
  assert.throws(() => a.page("garbage", 100), (error: unknown) => error instanceof ReceiptCursorError && error.code === "invalid-cursor");
});

test("a page can be taken from the newest end; its previous cursor walks back to the start", () => {
  const projection = projectionOf(cycles(251));
  const newest = projection.page(null, 100, "end");
  assert.equal(newest.startOrdinal, 151);
  assert.equal(newest.entries.length, 100);
  assert.equal(newest.nextCursor, null);
  const before = projection.page(newest.previousCursor, 100);
  assert.equal(before.startOrdinal, 51);
  const oldest = projection.page(before.previousCursor, 100);
  assert.equal(oldest.startOrdinal, 0);
  assert.equal(oldest.entries.length, 100);
  assert.equal(projectionOf([]).page(null, 100, "end").entries.length, 0);
});
