import assert from "node:assert/strict";
import { test } from "node:test";
import type { GuardReceiptDetail, GuardReceiptRow, GuardReceiptsPage, ReceiptDetail, ReceiptKind, ReceiptsPage, ReceiptRow } from "../../server/protocol/messages";
import type { HostToReceipts } from "../../server/protocol/webviewMessages";
import {
  detailLinks,
  format,
  initialModel,
  type Model,
  type ModelEvent,
  navigation,
  persistedState,
  reviewTime,
  shortHash,
  shortReviewId,
  shownKinds,
  type UiAction,
  update,
  VALUE_TAIL,
  valueParts,
} from "../../webview/receipts/model";
import { DETAIL_SHARE, MAX_COPY_CHARS, ReceiptsViewState } from "../../server/protocol/webviewMessages";

const sha = (c: string): string => c.repeat(64);

/** A distinct 64-hex event hash per ordinal. */
const eventSha = (ordinal: number): string => ordinal.toString(16).padStart(64, "e");

function row(ordinal: number, kind: ReceiptKind = "work-scope-opened"): ReceiptRow {
  return {
    ordinal,
    kind,
    workScopeId: "scope:1",
    eventId: `event:${ordinal}`,
    scopeSequence: ordinal,
    storedIndex: ordinal,
    eventSha256: eventSha(ordinal),
    receiptSha256: sha("c"),
    occurredAt: "2026-01-01T00:00:00.000Z",
    summary: {},
  };
}

function makePage(
  projection: string,
  rows: number,
  cursors: { next?: string; previous?: string } = {},
  options: { start?: number; kinds?: ReceiptKind[] | null; kindOf?: (ordinal: number) => ReceiptKind } = {},
): ReceiptsPage {
  const start = options.start ?? (cursors.previous === undefined ? 0 : 100);
  const kindOf = options.kindOf ?? (() => "work-scope-opened");
  return {
    projectionSha256: projection,
    receiptCount: start + rows,
    kinds: options.kinds ?? null,
    matchingCount: start + rows,
    startPosition: start,
    startOrdinal: start,
    pageCursor: rows > 0 ? `self-${start}` : null,
    receipts: Array.from({ length: rows }, (_, index) => row(start + index, kindOf(start + index))),
    nextCursor: cursors.next ?? null,
    previousCursor: cursors.previous ?? null,
    pageSha256: sha("d"),
    kindCounts: [{ kind: "work-scope-opened", count: start + rows }],
  };
}

const load = (requestId: number, cursor: string | null, from: "start" | "end", kinds: ReceiptKind[] | null = null, containing: string | null = null) =>
  ({ type: "loadPage", requestId, cursor, from, kinds, containing }) as const;

function state(projection: string | null, backend: "ready" | "starting" = "ready"): HostToReceipts {
  return { type: "state", backend, workspace: "trusted", on: true, blocked: false, projectionSha256: projection, receiptCount: 0, revision: projection };
}

function host(model: Model, message: HostToReceipts) {
  return update(model, { source: "host", message } satisfies ModelEvent);
}

function ui(model: Model, action: UiAction) {
  return update(model, { source: "ui", action });
}

/** A model showing `page`, requested with `cursor` (or the oldest page). */
function showing(page: ReceiptsPage, cursor: string | null = null): Model {
  let step = host(initialModel({ cursor, from: "start", kinds: page.kinds }), state(page.projectionSha256));
  assert.deepEqual(step.post, [load(1, cursor, "start", page.kinds)]);
  step = host(step.model, { type: "page", requestId: 1, page });
  return step.model;
}

test("first state loads the saved cursor; without saved state, the newest page", () => {
  const step = host(initialModel({ cursor: "c1", from: "start" }), state(sha("a")));
  assert.deepEqual(step.post, [load(1, "c1", "start")]);
  const fresh = host(initialModel(null), state(sha("a")));
  assert.deepEqual(fresh.post, [load(1, null, "end")]);
});

test("nothing is loaded while the backend is not ready or there is no folder", () => {
  assert.deepEqual(host(initialModel(null), state(null, "starting")).post, []);
  const noFolder: HostToReceipts = { type: "state", backend: "ready", workspace: "none", on: false, blocked: false, projectionSha256: null, receiptCount: null, revision: null };
  assert.deepEqual(host(initialModel(null), noFolder).post, []);
});

test("a changed projection shows the banner and keeps the data", () => {
  const model = showing(makePage(sha("a"), 3));
  const step = host(model, state(sha("e")));
  assert.deepEqual(step.post, []);
  assert.equal(step.model.stale, true);
  assert.equal(step.model.page?.receipts.length, 3);
  const latest = ui(step.model, { type: "showLatest" });
  assert.deepEqual(latest.post, [load(2, null, "end")]);
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
  assert.deepEqual(step.post, [load(2, null, "end")]);
});

test("stale-cursor keeps the data and shows the banner; without data it loads the newest page", () => {
  const model = showing(makePage(sha("a"), 3, { next: "n1" }));
  const next = ui(model, { type: "next" });
  assert.deepEqual(next.post, [load(2, "n1", "start")]);
  const stale = host(next.model, { type: "pageError", requestId: 2, code: "docket.stale-cursor", message: "stale" });
  assert.equal(stale.model.stale, true);
  assert.equal(stale.model.cursor, null);
  assert.equal(stale.model.page?.receipts.length, 3);
  assert.deepEqual(stale.post, []);

  const fresh = host(initialModel({ cursor: "old", from: "start" }), state(sha("a")));
  const reset = host(fresh.model, { type: "pageError", requestId: 1, code: "docket.stale-cursor", message: "stale" });
  assert.deepEqual(reset.post, [load(2, null, "end")]);
});

test("invalid-cursor falls back to the newest page; other errors are shown", () => {
  const fresh = host(initialModel({ cursor: "junk", from: "start" }), state(sha("a")));
  const reset = host(fresh.model, { type: "pageError", requestId: 1, code: "docket.invalid-cursor", message: "bad" });
  assert.deepEqual(reset.post, [load(2, null, "end")]);
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
  assert.deepEqual(ui(second.model, { type: "previous" }).post, [load(3, "p1", "start")]);
  assert.deepEqual(ui(second.model, { type: "first" }).post, [load(3, null, "start")]);
  assert.deepEqual(ui(second.model, { type: "next" }).post, []);
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

function detailOf(ordinal: number, kind: ReceiptKind, links: { ordinal: number | null; kind: ReceiptKind | null }[], projection = sha("a")): ReceiptDetail {
  return {
    projectionSha256: projection,
    receipt: row(ordinal, kind),
    canonicalJson: `{"domain":"developer.event-envelope/v8","value":{"ordinal":${ordinal}}}`,
    causalRefs: links.map((link, index) => ({
      workScopeId: "scope:1",
      eventId: `event:${link.ordinal ?? `gone-${index}`}`,
      eventSha256: link.ordinal === null ? sha("9") : eventSha(link.ordinal),
      ordinal: link.ordinal,
      kind: link.kind,
    })),
    previousScopeEvent: null,
    provenance: null,
  };
}

/** Selects the row at `ordinal` of the shown page and delivers its detail. */
function withDetail(model: Model, detail: ReceiptDetail): Model {
  const step = ui(model, { type: "select", eventSha256: detail.receipt.eventSha256 });
  const requestId = model.nextRequestId;
  assert.deepEqual(step.post, [{ type: "loadDetail", requestId, eventSha256: detail.receipt.eventSha256 }]);
  assert.equal(step.model.selected, detail.receipt.eventSha256);
  return host(step.model, { type: "detail", requestId, detail }).model;
}

test("the kind filter loads the newest matching page and is kept for paging", () => {
  const model = showing(makePage(sha("a"), 3, { next: "n1" }));
  const filtered = ui(model, { type: "filter", kinds: ["route-frame-opened"] });
  assert.deepEqual(filtered.post, [load(2, null, "end", ["route-frame-opened"])]);
  // Until the page arrives the control shows the requested filter, the table the old page.
  assert.deepEqual(shownKinds(filtered.model), ["route-frame-opened"]);
  assert.equal(filtered.model.kinds, null);
  const page = makePage(sha("a"), 2, { previous: "p1" }, { kinds: ["route-frame-opened"], kindOf: () => "route-frame-opened" });
  const arrived = host(filtered.model, { type: "page", requestId: 2, page }).model;
  assert.deepEqual(arrived.kinds, ["route-frame-opened"]);
  assert.deepEqual(persistedState(arrived).kinds, ["route-frame-opened"]);
  assert.deepEqual(ui(arrived, { type: "previous" }).post, [load(3, "p1", "start", ["route-frame-opened"])]);
  assert.deepEqual(ui(arrived, { type: "first" }).post, [load(3, null, "start", ["route-frame-opened"])]);
  assert.deepEqual(ui(arrived, { type: "showLatest" }).post, [load(3, null, "end", ["route-frame-opened"])]);
  const cleared = ui(arrived, { type: "filter", kinds: null });
  assert.deepEqual(cleared.post, [load(3, null, "end", null)]);
  // A saved filter is restored with the saved cursor.
  const restored = host(initialModel({ cursor: "c9", from: "start", kinds: ["work-scope-closed"], selected: null }), state(sha("a")));
  assert.deepEqual(restored.post, [load(1, "c9", "start", ["work-scope-closed"])]);
});

test("selecting a row opens its detail; answers to older detail requests are ignored", () => {
  const model = showing(makePage(sha("a"), 3));
  const first = ui(model, { type: "select", eventSha256: eventSha(0) });
  const second = ui(first.model, { type: "select", eventSha256: eventSha(1) });
  assert.deepEqual(second.post, [{ type: "loadDetail", requestId: 3, eventSha256: eventSha(1) }]);
  const late = host(second.model, { type: "detail", requestId: 2, detail: detailOf(0, "work-scope-opened", []) });
  assert.equal(late.model.detail, null);
  const detail = detailOf(1, "work-scope-opened", []);
  const shown = host(second.model, { type: "detail", requestId: 3, detail }).model;
  assert.equal(shown.detail, detail);
  assert.equal(persistedState(shown).selected, eventSha(1));
  // Selecting the open receipt again does not refetch; closing clears it.
  assert.deepEqual(ui(shown, { type: "select", eventSha256: eventSha(1) }).post, []);
  const closed = ui(shown, { type: "closeDetail" }).model;
  assert.equal(closed.selected, null);
  assert.equal(closed.detail, null);
  const failed = host(first.model, { type: "detailError", requestId: 2, code: "docket.receipt-not-found", message: "gone" });
  assert.deepEqual(failed.model.detailError, { code: "docket.receipt-not-found", message: "gone" });
});

test("a restored view reopens the selected receipt's detail", () => {
  const step = host(initialModel({ cursor: null, from: "end", kinds: null, selected: eventSha(4) }), state(sha("a")));
  assert.deepEqual(step.post, [load(1, null, "end"), { type: "loadDetail", requestId: 2, eventSha256: eventSha(4) }]);
});

test("a causal ref on the shown page is selected without loading a page", () => {
  const model = withDetail(showing(makePage(sha("a"), 5)), detailOf(4, "work-scope-closed", [{ ordinal: 1, kind: "work-scope-opened" }]));
  const step = ui(model, { type: "jump", eventSha256: eventSha(1) });
  assert.deepEqual(step.post, [{ type: "loadDetail", requestId: 3, eventSha256: eventSha(1) }]);
  assert.equal(step.model.selected, eventSha(1));
  assert.equal(step.model.pending, null);
});

test("a causal ref on another page loads the page containing it, keeping a filter it passes", () => {
  const page = makePage(sha("a"), 3, { previous: "p" }, { start: 200, kinds: ["work-scope-opened"] });
  const model = withDetail(showing(page, "c200"), detailOf(201, "work-scope-opened", [{ ordinal: 7, kind: "work-scope-opened" }]));
  const step = ui(model, { type: "jump", eventSha256: eventSha(7) });
  assert.deepEqual(step.post, [
    { type: "loadDetail", requestId: 3, eventSha256: eventSha(7) },
    load(4, null, "start", ["work-scope-opened"], eventSha(7)),
  ]);
  assert.equal(step.model.filterCleared, false);
  const target = makePage(sha("a"), 100, { next: "n" }, { start: 0, kinds: ["work-scope-opened"] });
  const arrived = host(step.model, { type: "page", requestId: 4, page: target }).model;
  assert.equal(arrived.page, target);
  // The jump's page is remembered by its own cursor so hide/show returns to it.
  assert.equal(arrived.cursor, "self-0");
  assert.equal(arrived.from, "start");
  assert.equal(arrived.selected, eventSha(7));
});

test("a causal ref of a kind outside the filter clears the filter to show it", () => {
  const page = makePage(sha("a"), 2, {}, { start: 0, kinds: ["work-scope-closed"], kindOf: () => "work-scope-closed" });
  const model = withDetail(showing(page), detailOf(1, "work-scope-closed", [{ ordinal: 150, kind: "route-frame-opened" }]));
  const step = ui(model, { type: "jump", eventSha256: eventSha(150) });
  assert.deepEqual(step.post.at(-1), load(4, null, "start", null, eventSha(150)));
  assert.equal(step.model.filterCleared, true);
  assert.deepEqual(shownKinds(step.model), null);
  const arrived = host(step.model, { type: "page", requestId: 4, page: makePage(sha("a"), 100, {}, { start: 100 }) }).model;
  assert.equal(arrived.kinds, null);
  assert.equal(arrived.filterCleared, true);
});

test("unresolved causal refs and unknown links do nothing; a vanished jump target is reported", () => {
  const model = withDetail(showing(makePage(sha("a"), 2)), detailOf(1, "work-scope-closed", [{ ordinal: null, kind: null }, { ordinal: 40, kind: "work-scope-opened" }]));
  assert.deepEqual(ui(model, { type: "jump", eventSha256: sha("9") }).post, []);
  assert.deepEqual(ui(model, { type: "jump", eventSha256: sha("7") }).post, []);
  const step = ui(model, { type: "jump", eventSha256: eventSha(40) });
  const failed = host(step.model, { type: "pageError", requestId: 4, code: "docket.receipt-not-found", message: "gone" });
  assert.deepEqual(failed.model.error, { code: "docket.receipt-not-found", message: "gone" });
  assert.equal(failed.model.page?.receipts.length, 2);
  assert.deepEqual(failed.post, []);
});

test("with a detail open, a changed projection still shows the banner and keeps page and detail", () => {
  const detail = detailOf(2, "work-scope-opened", []);
  const model = withDetail(showing(makePage(sha("a"), 3)), detail);
  const step = host(model, state(sha("e")));
  assert.deepEqual(step.post, []);
  assert.equal(step.model.stale, true);
  assert.equal(step.model.detail, detail);
  assert.equal(step.model.page?.projectionSha256, sha("a"));
});

test("copy posts the canonical JSON and records the outcome", () => {
  const detail = detailOf(1, "work-scope-opened", []);
  const model = withDetail(showing(makePage(sha("a"), 2)), detail);
  const step = ui(model, { type: "copy" });
  assert.deepEqual(step.post, [{ type: "copy", text: detail.canonicalJson }]);
  assert.equal(host(step.model, { type: "copyResult", ok: true }).model.copied, true);
  assert.deepEqual(ui(showing(makePage(sha("a"), 2)), { type: "copy" }).post, []);
});

test("detail links list causal refs, then the previous-scope event", () => {
  const detail = detailOf(3, "work-scope-closed", [{ ordinal: 0, kind: "work-scope-opened" }]);
  const previous = { workScopeId: "scope:1", eventId: "event:2", eventSha256: eventSha(2), ordinal: 2, kind: "support-observed" };
  assert.deepEqual(detailLinks({ ...detail, previousScopeEvent: previous }).map((link) => link.ordinal), [0, 2]);
  assert.deepEqual(detailLinks(null), []);
});

// ── Reviews tab (the completion guard's ledger entries) ──────────────────────────────────────────

function reviewRow(line: number, kind: GuardReceiptRow["kind"] = "review-opened"): GuardReceiptRow {
  return {
    line,
    lineSha256: line.toString(16).padStart(64, "a"),
    kind,
    reviewId: `review:${String(line).padStart(24, "0")}`,
    status: kind === "review-submitted" ? "supported" : null,
    workScopeId: kind === "review-opened" ? "scope:1" : null,
    at: "2026-01-01T00:00:00.000Z",
  };
}

function reviewsPage(revision: string, lines: readonly number[], cursors: { next?: number; previous?: number; start?: number } = {}): GuardReceiptsPage {
  return {
    revision,
    order: "newest",
    entryCount: lines.length + (cursors.start ?? 0),
    startPosition: cursors.start ?? 0,
    pageCursor: lines[0] ?? null,
    entries: lines.map((line) => reviewRow(line)),
    nextCursor: cursors.next ?? null,
    previousCursor: cursors.previous ?? null,
  };
}

function reviewDetail(line: number): GuardReceiptDetail {
  return { receipt: reviewRow(line), stream: "docket/guard/v1", previousLineSha256: sha("1"), canonicalJson: `{"line":${line}}`, lineHashInput: `{"domain":"docket/ledger-line/v1","value":${line}}`, related: null };
}

/** The view on the Reviews tab showing `page` (the receipts page loaded too). */
function onReviews(page: GuardReceiptsPage): Model {
  let step = host(initialModel({ cursor: null, from: "end", tab: "reviews" }), state(page.revision));
  assert.deepEqual(step.post, [load(1, null, "end"), { type: "loadReviews", requestId: 2, cursor: null }]);
  step = host(step.model, { type: "reviews", requestId: 2, page });
  step = host(step.model, { type: "page", requestId: 1, page: makePage(page.revision, 3) });
  assert.deepEqual(step.post, []);
  return step.model;
}

test("reviews: the tab loads its newest page once, and keeps the receipts as they were", () => {
  const model = showing(makePage(sha("a"), 3));
  assert.equal(model.tab, "receipts");
  const switched = ui(model, { type: "tab", tab: "reviews" });
  assert.deepEqual(switched.post, [{ type: "loadReviews", requestId: 2, cursor: null }]);
  const loaded = host(switched.model, { type: "reviews", requestId: 2, page: reviewsPage(sha("a"), [5, 3]) });
  assert.deepEqual(loaded.model.reviews.page?.entries.map((row) => row.line), [5, 3]);
  assert.equal(loaded.model.page?.receipts.length, 3);
  // Back and forth: nothing is read again while the ledger stays where it was.
  const back = ui(loaded.model, { type: "tab", tab: "receipts" });
  assert.deepEqual(back.post, []);
  assert.deepEqual(ui(back.model, { type: "tab", tab: "reviews" }).post, []);
  assert.deepEqual(persistedState(loaded.model), { cursor: null, from: "start", kinds: null, selected: null, tab: "reviews", reviewsCursor: null, reviewSelected: null });
});

test("reviews: a new ledger revision re-reads the shown page (live), the receipts page only flags it", () => {
  const model = onReviews(reviewsPage(sha("a"), [5, 3]));
  const moved = host(model, state(sha("b")));
  // The receipts page (projection a) is stale now; the reviews page is read again.
  assert.equal(moved.model.stale, true);
  assert.deepEqual(moved.post, [{ type: "loadReviews", requestId: 3, cursor: null }]);
  // A second state while the page is on its way sends nothing more.
  assert.deepEqual(host(moved.model, state(sha("b"))).post, []);
  const fresh = host(moved.model, { type: "reviews", requestId: 3, page: reviewsPage(sha("b"), [7, 5, 3]) });
  assert.deepEqual(fresh.model.reviews.page?.entries.map((row) => row.line), [7, 5, 3]);
  assert.deepEqual(fresh.post, []);
  // An answer that is already behind the newest revision is followed by another read.
  const behind = host(host(fresh.model, state(sha("c"))).model, { type: "reviews", requestId: 4, page: reviewsPage(sha("b"), [7, 5, 3]) });
  assert.deepEqual(behind.post, [{ type: "loadReviews", requestId: 5, cursor: null }]);
  // On the receipts tab the reviews are left alone until the tab is shown again.
  const hidden = ui(fresh.model, { type: "tab", tab: "receipts" });
  assert.deepEqual(host(hidden.model, state(sha("d"))).post, []);
  assert.deepEqual(ui(host(hidden.model, state(sha("d"))).model, { type: "tab", tab: "reviews" }).post, [{ type: "loadReviews", requestId: 4, cursor: null }]);
});

test("reviews: navigation follows the page's line cursors and applies to the shown tab", () => {
  const model = onReviews(reviewsPage(sha("a"), [9, 8], { next: 5 }));
  assert.deepEqual(navigation(model), { first: false, previous: false, next: true });
  const older = ui(model, { type: "next" });
  assert.deepEqual(older.post, [{ type: "loadReviews", requestId: 3, cursor: 5 }]);
  const second = host(older.model, { type: "reviews", requestId: 3, page: reviewsPage(sha("a"), [5, 4], { previous: 9, start: 2 }) });
  assert.equal(second.model.reviews.cursor, 5);
  assert.deepEqual(navigation(second.model), { first: true, previous: true, next: false });
  assert.deepEqual(ui(second.model, { type: "previous" }).post, [{ type: "loadReviews", requestId: 4, cursor: 9 }]);
  assert.deepEqual(ui(second.model, { type: "first" }).post, [{ type: "loadReviews", requestId: 4, cursor: null }]);
  assert.deepEqual(host(second.model, { type: "showLatest" }).post, [{ type: "loadReviews", requestId: 4, cursor: null }]);
  // A reopened view starts where it was.
  const saved = persistedState(second.model);
  assert.equal(saved.reviewsCursor, 5);
  const restored = host(initialModel(saved), state(sha("a")));
  assert.ok(restored.post.some((message) => message.type === "loadReviews" && message.cursor === 5));
});

test("reviews: selecting a row opens its detail; copy posts the entry or the hashed line; close", () => {
  const model = onReviews(reviewsPage(sha("a"), [9, 8]));
  const target = reviewRow(8).lineSha256;
  const selected = ui(model, { type: "selectReview", lineSha256: target });
  assert.deepEqual(selected.post, [{ type: "loadReviewDetail", requestId: 3, lineSha256: target }]);
  assert.deepEqual(ui(selected.model, { type: "selectReview", lineSha256: target }).post, [], "one request per entry");
  const shown = host(selected.model, { type: "reviewDetail", requestId: 3, detail: reviewDetail(8) });
  assert.equal(shown.model.reviews.detail?.receipt.line, 8);
  assert.equal(persistedState(shown.model).reviewSelected, target);
  assert.deepEqual(ui(shown.model, { type: "copyReview", part: "entry" }).post, [{ type: "copy", text: '{"line":8}' }]);
  assert.deepEqual(ui(shown.model, { type: "copyReview", part: "line" }).post, [{ type: "copy", text: '{"domain":"docket/ledger-line/v1","value":8}' }]);
  // The receipts detail is not touched by any of this.
  assert.equal(shown.model.selected, null);
  const closed = ui(shown.model, { type: "closeDetail" });
  assert.equal(closed.model.reviews.selected, null);
  assert.equal(closed.model.reviews.detail, null);
  // The detail survives a live re-read of the page (entries are immutable).
  const moved = host(shown.model, state(sha("b")));
  assert.equal(moved.model.reviews.detail?.receipt.line, 8);
});

test("reviews: errors are shown per tab; a restored view reopens its detail", () => {
  let step = host(initialModel({ cursor: null, from: "end", tab: "reviews", reviewSelected: reviewRow(4).lineSha256 }), state(sha("a")));
  assert.deepEqual(step.post, [
    load(1, null, "end"),
    { type: "loadReviews", requestId: 2, cursor: null },
    { type: "loadReviewDetail", requestId: 3, lineSha256: reviewRow(4).lineSha256 },
  ]);
  step = host(step.model, { type: "reviewsError", requestId: 2, code: "docket.internal", message: "boom" });
  assert.deepEqual(step.model.reviews.error, { code: "docket.internal", message: "boom" });
  assert.equal(step.model.error, null);
  step = host(step.model, { type: "reviewDetailError", requestId: 3, code: "docket.receipt-not-found", message: "gone" });
  assert.deepEqual(step.model.reviews.detailError, { code: "docket.receipt-not-found", message: "gone" });
  // Answers to requests nobody waits for are ignored.
  assert.equal(host(step.model, { type: "reviews", requestId: 2, page: reviewsPage(sha("a"), [1]) }).model, step.model);
  // The backend went away: nothing shown, the next ready state retries.
  const fresh = host(initialModel({ cursor: null, from: "end", tab: "reviews" }), state(sha("a")));
  const away = host(fresh.model, { type: "reviewsError", requestId: 2, code: "docket.backend-unavailable", message: "down" });
  assert.equal(away.model.reviews.error, null);
  assert.deepEqual(host(away.model, state(sha("a"))).post, [{ type: "loadReviews", requestId: 3, cursor: null }]);
});

test("reviews helpers: time and short review id", () => {
  assert.equal(reviewTime("2026-12-01T10:00:05.123Z"), "2026-12-01 10:00:05");
  assert.equal(reviewTime("not a time"), "not a time");
  assert.equal(shortReviewId("review:0123456789abcdef01234567"), "01234567");
});

// ── Shared by the tabs: the split, copying a value, Open in Editor ─────────────────────────────────

test("the sash's share is kept within bounds, persisted only when moved, and restored", () => {
  const model = showing(makePage(sha("a"), 2));
  assert.equal(model.detailShare, DETAIL_SHARE.initial);
  assert.equal("detailShare" in persistedState(model), false, "the initial share is not written");
  const moved = ui(model, { type: "resizeDetail", share: 0.3 });
  assert.deepEqual(moved.post, []);
  assert.equal(moved.model.detailShare, 0.3);
  const saved = ReceiptsViewState.parse(JSON.parse(JSON.stringify(persistedState(moved.model))));
  assert.equal(saved.detailShare, 0.3);
  assert.equal(initialModel(saved).detailShare, 0.3);
  assert.equal(ui(model, { type: "resizeDetail", share: 5 }).model.detailShare, DETAIL_SHARE.max);
  assert.equal(ui(model, { type: "resizeDetail", share: -1 }).model.detailShare, DETAIL_SHARE.min);
  assert.equal(ui(model, { type: "resizeDetail", share: Number.NaN }).model.detailShare, DETAIL_SHARE.initial);
  // The same share changes nothing (no re-render, no state write).
  assert.equal(ui(moved.model, { type: "resizeDetail", share: 0.3 }).model, moved.model);
  // The share is the view's, whichever tab is shown.
  const reviews = ui(ui(model, { type: "tab", tab: "reviews" }).model, { type: "resizeDetail", share: 0.7 });
  assert.equal(reviews.model.detailShare, 0.7);
});

test("copying a value posts it whole and shows the outcome beside its own button only", () => {
  const detail = detailOf(1, "work-scope-opened", []);
  const model = withDetail(showing(makePage(sha("a"), 2)), detail);
  const step = ui(model, { type: "copyValue", key: "detail-event-sha256", text: detail.receipt.eventSha256 });
  assert.deepEqual(step.post, [{ type: "copy", text: detail.receipt.eventSha256 }]);
  assert.equal(step.model.copyTarget, "detail-event-sha256");
  const answered = host(step.model, { type: "copyResult", ok: true });
  assert.equal(answered.model.copied, true);
  assert.equal(answered.model.copyTarget, "detail-event-sha256");
  // Copying the canonical JSON afterwards reports beside the JSON again, not beside the hash.
  const whole = ui(answered.model, { type: "copy" });
  assert.equal(whole.model.copyTarget, null);
  assert.equal(whole.model.copied, null);
  // A value past the message bound is refused here, beside its button, without posting.
  const huge = ui(model, { type: "copyValue", key: "detail-event-id", text: "x".repeat(MAX_COPY_CHARS + 1) });
  assert.deepEqual(huge.post, []);
  assert.equal(huge.model.copied, false);
  assert.equal(huge.model.copyTarget, "detail-event-id");
  // Another selection clears the outcome.
  assert.equal(ui(answered.model, { type: "select", eventSha256: eventSha(0) }).model.copied, null);
});

test("Open in Editor names the open entry of the shown tab; nothing without one", () => {
  const page = makePage(sha("a"), 2);
  const model = showing(page);
  assert.deepEqual(ui(model, { type: "openInEditor" }).post, []);
  const selected = ui(model, { type: "select", eventSha256: eventSha(1) }).model;
  assert.deepEqual(ui(selected, { type: "openInEditor" }).post, [{ type: "openInEditor", tab: "receipts", sha256: eventSha(1) }]);
  const reviews = onReviews(reviewsPage(sha("a"), [9, 8]));
  assert.deepEqual(ui(reviews, { type: "openInEditor" }).post, [], "no review entry is open");
  const review = ui(reviews, { type: "selectReview", lineSha256: reviewRow(8).lineSha256 }).model;
  assert.deepEqual(ui(review, { type: "openInEditor" }).post, [{ type: "openInEditor", tab: "reviews", sha256: reviewRow(8).lineSha256 }]);
});

test("a long value splits into a head and a readable tail; short values stay whole", () => {
  const hash = "0123456789abcdef".repeat(4);
  assert.deepEqual(valueParts(hash), { head: hash.slice(0, -VALUE_TAIL), tail: hash.slice(-VALUE_TAIL) });
  assert.equal(Object.values(valueParts(hash)).join(""), hash);
  assert.deepEqual(valueParts("scope:1"), { head: "scope:1", tail: "" });
  assert.deepEqual(valueParts("x".repeat(2 * VALUE_TAIL)), { head: "x".repeat(2 * VALUE_TAIL), tail: "" });
  // Never between the halves of a surrogate pair.
  const emoji = `${"a".repeat(VALUE_TAIL * 2)}😀${"b".repeat(VALUE_TAIL - 1)}`;
  assert.deepEqual(valueParts(emoji), { head: "a".repeat(VALUE_TAIL * 2), tail: `😀${"b".repeat(VALUE_TAIL - 1)}` });
});
