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

test("a page can be taken from the newest end; pages partition the history, so walking back repeats nothing", () => {
  const projection = projectionOf(cycles(251));
  const newest = projection.page(null, 100, "end");
  // The last page of the partition from the first receipt: 200–250, short.
  assert.equal(newest.startOrdinal, 200);
  assert.equal(newest.entries.length, 51);
  assert.equal(newest.nextCursor, null);
  const before = projection.page(newest.previousCursor, 100);
  assert.equal(before.startOrdinal, 100);
  const oldest = projection.page(before.previousCursor, 100);
  assert.equal(oldest.startOrdinal, 0);
  assert.equal(oldest.previousCursor, null);
  const seen = [oldest, before, newest].flatMap((page) => page.entries.map((entry) => entry.ordinal));
  assert.deepEqual(seen, Array.from({ length: 251 }, (_, index) => index), "every receipt exactly once");
  // A history that fills its last page exactly ends on a full page.
  assert.equal(projectionOf(cycles(200)).page(null, 100, "end").startOrdinal, 100);
  assert.equal(projectionOf([]).page(null, 100, "end").entries.length, 0);
});

test("a kind filter pages only matching receipts; its cursors are bound to the filter", () => {
  const projection = projectionOf(cycles(251));
  const counts = projection.page(null, 1).kindCounts;
  assert.deepEqual(counts, [
    { kind: "work-scope-closed", count: 125 },
    { kind: "work-scope-opened", count: 126 },
  ]);
  const opened = projection.page(null, 100, "start", { kinds: ["work-scope-opened"] });
  assert.deepEqual(opened.kinds, ["work-scope-opened"]);
  assert.equal(opened.matchingCount, 126);
  assert.equal(opened.receiptCount, 251);
  assert.equal(opened.entries.length, 100);
  assert.ok(opened.entries.every((entry) => entry.receipt.kind === "work-scope-opened"));
  assert.deepEqual(opened.entries.slice(0, 3).map((entry) => entry.ordinal), [0, 2, 4]);
  const rest = projection.page(opened.nextCursor, 100, "start", { kinds: ["work-scope-opened"] });
  assert.equal(rest.startPosition, 100);
  assert.equal(rest.startOrdinal, 200);
  assert.equal(rest.entries.length, 26);
  assert.equal(rest.nextCursor, null);
  const back = projection.page(rest.previousCursor, 100, "start", { kinds: ["work-scope-opened"] });
  assert.equal(back.startPosition, 0);
  // The same cursor under another filter, or none, is refused rather than re-read.
  const invalid = (error: unknown): boolean => error instanceof ReceiptCursorError && error.code === "invalid-cursor";
  assert.throws(() => projection.page(opened.nextCursor, 100), invalid);
  assert.throws(() => projection.page(opened.nextCursor, 100, "start", { kinds: ["work-scope-closed"] }), invalid);
  const unfiltered = projection.page(null, 100);
  assert.throws(() => projection.page(unfiltered.nextCursor, 100, "start", { kinds: ["work-scope-opened"] }), invalid);
  // Order and duplicates do not make a different filter.
  const both = projection.page(null, 100, "start", { kinds: ["work-scope-opened", "work-scope-closed", "work-scope-opened"] });
  assert.deepEqual(both.kinds, ["work-scope-closed", "work-scope-opened"]);
  assert.equal(both.matchingCount, 251);
  assert.equal(projection.page(both.nextCursor, 100, "start", { kinds: ["work-scope-closed", "work-scope-opened"] }).startPosition, 100);
  // A filtered page hash differs from the unfiltered one over the same entries.
  assert.notEqual(both.pageSha256, unfiltered.pageSha256);
  const newest = projection.page(null, 10, "end", { kinds: ["work-scope-closed"] });
  assert.equal(newest.startPosition, 120);
  assert.equal(newest.entries.at(-1)?.ordinal, 249);
  const none = projection.page(null, 10, "start", { kinds: ["route-frame-opened"] });
  assert.equal(none.entries.length, 0);
  assert.equal(none.matchingCount, 0);
});

test("a filtered cursor from an older projection is stale, not re-based", () => {
  const older = projectionOf(cycles(150));
  const cursor = older.page(null, 10, "start", { kinds: ["work-scope-opened"] }).nextCursor;
  const grown = projectionOf(cycles(151));
  assert.throws(
    () => grown.page(cursor, 10, "start", { kinds: ["work-scope-opened"] }),
    (error: unknown) => error instanceof ReceiptCursorError && error.code === "stale-cursor",
  );
});

test("`containing` reads the aligned page holding an event, within the filter", () => {
  const envelopes = cycles(251);
  const projection = projectionOf(envelopes);
  const target = envelopes[157] as Envelope;
  const page = projection.page(null, 100, "start", { containing: target.eventSha256 });
  assert.equal(page.startOrdinal, 100);
  assert.ok(page.entries.some((entry) => entry.ordinal === 157));
  const filtered = projection.page(null, 20, "start", { kinds: ["work-scope-closed"], containing: target.eventSha256 });
  assert.equal(target.kind, "work-scope-closed");
  assert.equal(filtered.startPosition, 60);
  assert.ok(filtered.entries.some((entry) => entry.ordinal === 157));
  const notFound = (error: unknown): boolean => error instanceof ReceiptCursorError && error.code === "receipt-not-found";
  assert.throws(() => projection.page(null, 20, "start", { kinds: ["work-scope-opened"], containing: target.eventSha256 }), notFound);
  assert.throws(() => projection.page(null, 20, "start", { containing: "f".repeat(64) }), notFound);
});

test("a page's own cursor reads the same page again, under its filter", () => {
  const projection = projectionOf(cycles(60));
  const page = projection.page(null, 7, "end", { kinds: ["work-scope-opened"] });
  const again = projection.page(page.pageCursor, 7, "start", { kinds: ["work-scope-opened"] });
  assert.deepEqual(again.entries.map((entry) => entry.ordinal), page.entries.map((entry) => entry.ordinal));
  assert.equal(again.pageSha256, page.pageSha256);
  assert.equal(projectionOf([]).page(null, 5).pageCursor, null);
});
