import assert from "node:assert/strict";
import { test } from "node:test";
import type { ReceiptsPage, ReceiptRow } from "../../server/protocol/messages";
import type { HostToReceipts } from "../../server/protocol/webviewMessages";
import {
  format,
  initialModel,
  type Model,
  type ModelEvent,
  navigation,
  shortHash,
  type UiAction,
  update,
} from "../../webview/receipts/model";

const sha = (c: string): string => c.repeat(64);

function row(ordinal: number): ReceiptRow {
  return {
    ordinal,
    kind: "work-scope-opened",
    workScopeId: "scope:1",
    eventId: `event:${ordinal}`,
    scopeSequence: ordinal,
    storedIndex: ordinal,
    eventSha256: sha("b"),
    receiptSha256: sha("c"),
    occurredAt: "2026-01-01T00:00:00.000Z",
    summary: {},
  };
}

function makePage(projection: string, rows: number, cursors: { next?: string; previous?: string } = {}): ReceiptsPage {
  return {
    projectionSha256: projection,
    receiptCount: rows,
    startOrdinal: cursors.previous === undefined ? 0 : 100,
    receipts: Array.from({ length: rows }, (_, index) => row(index)),
    nextCursor: cursors.next ?? null,
    previousCursor: cursors.previous ?? null,
    pageSha256: sha("d"),
  };
}

function state(projection: string | null, backend: "ready" | "starting" = "ready"): HostToReceipts {
  return { type: "state", backend, workspace: "trusted", on: true, blocked: false, projectionSha256: projection, receiptCount: 0 };
}

function host(model: Model, message: HostToReceipts) {
  return update(model, { source: "host", message } satisfies ModelEvent);
}

function ui(model: Model, action: UiAction) {
  return update(model, { source: "ui", action });
}

/** A model showing `page`, requested with `cursor` (or the oldest page). */
function showing(page: ReceiptsPage, cursor: string | null = null): Model {
  let step = host(initialModel({ cursor, from: "start" }), state(page.projectionSha256));
  assert.deepEqual(step.post, [{ type: "loadPage", requestId: 1, cursor, from: "start" }]);
  step = host(step.model, { type: "page", requestId: 1, page });
  return step.model;
}

test("first state loads the saved cursor; without saved state, the newest page", () => {
  const step = host(initialModel({ cursor: "c1", from: "start" }), state(sha("a")));
  assert.deepEqual(step.post, [{ type: "loadPage", requestId: 1, cursor: "c1", from: "start" }]);
  const fresh = host(initialModel(null), state(sha("a")));
  assert.deepEqual(fresh.post, [{ type: "loadPage", requestId: 1, cursor: null, from: "end" }]);
});

test("nothing is loaded while the backend is not ready or there is no folder", () => {
  assert.deepEqual(host(initialModel(null), state(null, "starting")).post, []);
  const noFolder: HostToReceipts = { type: "state", backend: "ready", workspace: "none", on: false, blocked: false, projectionSha256: null, receiptCount: null };
  assert.deepEqual(host(initialModel(null), noFolder).post, []);
});

test("a changed projection shows the banner and keeps the data", () => {
  const model = showing(makePage(sha("a"), 3));
  const step = host(model, state(sha("e")));
  assert.deepEqual(step.post, []);
  assert.equal(step.model.stale, true);
  assert.equal(step.model.page?.receipts.length, 3);
  const latest = ui(step.model, { type: "showLatest" });
  assert.deepEqual(latest.post, [{ type: "loadPage", requestId: 2, cursor: null, from: "end" }]);
  assert.equal(latest.model.stale, false);
});

test("the same projection does not show the banner", () => {
  const step = host(showing(makePage(sha("a"), 3)), state(sha("a")));
  assert.equal(step.model.stale, false);
  assert.deepEqual(step.post, []);
});

test("an empty page is replaced right away (nothing to swap out)", () => {
  const step = host(showing(makePage(sha("a"), 0)), state(sha("e")));
  assert.equal(step.model.stale, false);
  assert.deepEqual(step.post, [{ type: "loadPage", requestId: 2, cursor: null, from: "end" }]);
});

test("stale-cursor keeps the data and shows the banner; without data it loads the newest page", () => {
  const model = showing(makePage(sha("a"), 3, { next: "n1" }));
  const next = ui(model, { type: "next" });
  assert.deepEqual(next.post, [{ type: "loadPage", requestId: 2, cursor: "n1", from: "start" }]);
  const stale = host(next.model, { type: "pageError", requestId: 2, code: "docket.stale-cursor", message: "stale" });
  assert.equal(stale.model.stale, true);
  assert.equal(stale.model.cursor, null);
  assert.equal(stale.model.page?.receipts.length, 3);
  assert.deepEqual(stale.post, []);

  const fresh = host(initialModel({ cursor: "old", from: "start" }), state(sha("a")));
  const reset = host(fresh.model, { type: "pageError", requestId: 1, code: "docket.stale-cursor", message: "stale" });
  assert.deepEqual(reset.post, [{ type: "loadPage", requestId: 2, cursor: null, from: "end" }]);
});

test("invalid-cursor falls back to the newest page; other errors are shown", () => {
  const fresh = host(initialModel({ cursor: "junk", from: "start" }), state(sha("a")));
  const reset = host(fresh.model, { type: "pageError", requestId: 1, code: "docket.invalid-cursor", message: "bad" });
  assert.deepEqual(reset.post, [{ type: "loadPage", requestId: 2, cursor: null, from: "end" }]);
  const failed = host(fresh.model, { type: "pageError", requestId: 1, code: "docket.internal", message: "boom" });
  assert.deepEqual(failed.model.error, { code: "docket.internal", message: "boom" });
  assert.equal(failed.model.pending, null);
});

test("answers to superseded requests are ignored", () => {
  const model = showing(makePage(sha("a"), 3, { next: "n1" }));
  const next = ui(model, { type: "next" }).model;
  const ignored = host(next, { type: "page", requestId: 1, page: makePage(sha("f"), 1) });
  assert.equal(ignored.model, next);
});

test("navigation follows the page's cursors and records the cursor", () => {
  const model = showing(makePage(sha("a"), 3, { next: "n1" }));
  assert.deepEqual(navigation(model), { first: false, previous: false, next: true });
  const next = ui(model, { type: "next" });
  const second = host(next.model, { type: "page", requestId: 2, page: makePage(sha("a"), 2, { previous: "p1" }) });
  assert.equal(second.model.cursor, "n1");
  assert.deepEqual(navigation(second.model), { first: true, previous: true, next: false });
  assert.deepEqual(ui(second.model, { type: "previous" }).post, [{ type: "loadPage", requestId: 3, cursor: "p1", from: "start" }]);
  assert.deepEqual(ui(second.model, { type: "first" }).post, [{ type: "loadPage", requestId: 3, cursor: null, from: "start" }]);
  assert.deepEqual(ui(second.model, { type: "next" }).post, []);
});

test("rows toggle open and closed; a new page closes them", () => {
  const model = showing(makePage(sha("a"), 3, { next: "n1" }));
  const open = ui(model, { type: "toggle", ordinal: 1 }).model;
  assert.deepEqual(open.expanded, [1]);
  assert.deepEqual(ui(open, { type: "toggle", ordinal: 1 }).model.expanded, []);
  const next = ui(open, { type: "next" }).model;
  const moved = host(next, { type: "page", requestId: 2, page: makePage(sha("a"), 1) }).model;
  assert.deepEqual(moved.expanded, []);
});

test("verify posts once until the result arrives", () => {
  const model = showing(makePage(sha("a"), 1));
  const first = ui(model, { type: "verify" });
  assert.deepEqual(first.post, [{ type: "verify" }]);
  assert.deepEqual(ui(first.model, { type: "verify" }).post, []);
  const done = host(first.model, { type: "verifyResult", ok: true, message: "ok" });
  assert.equal(done.model.verifying, false);
  assert.deepEqual(done.model.verifyResult, { ok: true, message: "ok" });
});

test("helpers", () => {
  assert.equal(shortHash("0123456789abcdef".repeat(4)), "0123456789ab");
  assert.equal(format("Showing {0} of {1}", 3, 10), "Showing 3 of 10");
  assert.equal(format("{1} {0} {2}", "a", "b"), "b a {2}");
});
