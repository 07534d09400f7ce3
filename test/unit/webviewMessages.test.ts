import assert from "node:assert/strict";
import { test } from "node:test";
import {
  HostToReceipts,
  MAX_COPY_CHARS,
  ReceiptsStrings,
  ReceiptsToHost,
  ReceiptsViewState,
} from "../../server/protocol/webviewMessages";

const sha = (c: string): string => c.repeat(64);

const page = {
  projectionSha256: sha("a"),
  receiptCount: 1,
  kinds: null,
  matchingCount: 1,
  startPosition: 0,
  startOrdinal: 0,
  pageCursor: null,
  receipts: [
    {
      ordinal: 0,
      kind: "work-scope-opened",
      workScopeId: "scope:1",
      eventId: "event:1",
      scopeSequence: 0,
      storedIndex: 0,
      eventSha256: sha("b"),
      receiptSha256: sha("c"),
      occurredAt: "2026-01-01T00:00:00.000Z",
      summary: { kind: "work-scope-opened" },
    },
  ],
  nextCursor: null,
  previousCursor: null,
  pageSha256: sha("d"),
  kindCounts: [{ kind: "work-scope-opened", count: 1 }],
};

const detail = {
  projectionSha256: sha("a"),
  receipt: page.receipts[0],
  canonicalJson: '{"domain":"developer.event-envelope/v8","value":{}}',
  causalRefs: [{ workScopeId: "scope:1", eventId: "event:0", eventSha256: sha("e"), ordinal: 0, kind: "work-scope-opened" }],
  previousScopeEvent: { workScopeId: "scope:1", eventId: null, eventSha256: sha("f"), ordinal: null, kind: null },
  provenance: { actor: { kind: "mcp", client: "claude-code 2.1.0", session: null }, nominations: ["branch-result-0123456789abcdef"] },
};

const reviewRow = {
  line: 3,
  lineSha256: sha("7"),
  kind: "review-submitted",
  reviewId: "review:0123456789abcdef01234567",
  status: "supported",
  workScopeId: null,
  at: "2026-01-01T00:00:00.000Z",
};
const reviewsPage = { revision: "r1", order: "newest", entryCount: 1, startPosition: 0, pageCursor: 3, entries: [reviewRow], nextCursor: null, previousCursor: null };
const reviewDetail = { receipt: reviewRow, stream: "docket/guard/v1", previousLineSha256: sha("6"), canonicalJson: "{}", lineHashInput: "{}", related: null };

test("host messages: every kind parses", () => {
  const messages: unknown[] = [
    { type: "state", backend: "ready", workspace: "trusted", on: true, blocked: false, projectionSha256: sha("a"), receiptCount: 3, revision: null },
    { type: "state", backend: "starting", workspace: "none", on: false, blocked: false, projectionSha256: null, receiptCount: null, revision: null },
    { type: "page", requestId: 1, page },
    { type: "pageError", requestId: 2, code: "docket.stale-cursor", message: "stale" },
    { type: "verifyStarted" },
    { type: "verifyResult", ok: true, message: "Ledger verified" },
    { type: "showLatest" },
    { type: "page", requestId: 3, page: { ...page, kinds: ["work-scope-opened"], pageCursor: "c" } },
    { type: "detail", requestId: 4, detail },
    { type: "detailError", requestId: 5, code: "docket.receipt-not-found", message: "gone" },
    { type: "copyResult", ok: false },
    { type: "reviews", requestId: 6, page: reviewsPage },
    { type: "reviewsError", requestId: 7, code: "docket.internal", message: "boom" },
    { type: "reviewDetail", requestId: 8, detail: reviewDetail },
    { type: "reviewDetailError", requestId: 9, code: "docket.receipt-not-found", message: "gone" },
  ];
  for (const message of messages) {
    assert.deepEqual(HostToReceipts.parse(message), message);
  }
});

test("host messages: unknown fields, unknown types and bad values are rejected", () => {
  const bad: unknown[] = [
    { type: "showLatest", extra: 1 },
    { type: "nope" },
    { type: "state", backend: "ready", workspace: "trusted", on: true, blocked: false, projectionSha256: "ABC", receiptCount: 0, revision: null },
    { type: "state", backend: "crashed", workspace: "trusted", on: true, blocked: false, projectionSha256: null, receiptCount: 0, revision: null },
    { type: "page", requestId: -1, page },
    { type: "page", requestId: 1, page: { ...page, extra: true } },
    { type: "verifyResult", ok: "yes", message: "" },
    { type: "page", requestId: 1, page: { ...page, kinds: ["no-such-kind"] } },
    { type: "detail", requestId: 1, detail: { ...detail, canonicalJson: undefined } },
    { type: "detail", requestId: 1, detail: { ...detail, causalRefs: [{ ...detail.causalRefs[0], ordinal: -1 }] } },
    { type: "detailError", requestId: 1, code: "x" },
    { type: "reviews", requestId: 1, page: { ...reviewsPage, entries: [{ ...reviewRow, kind: "work-scope-opened" }] } },
    { type: "reviews", requestId: 1, page: { ...reviewsPage, nextCursor: "3" } },
    { type: "reviewDetail", requestId: 1, detail: { ...reviewDetail, stream: "developer/v8" } },
    { type: "reviewDetail", requestId: 1, detail: { ...reviewDetail, lineHashInput: undefined } },
    null,
    "state",
  ];
  for (const message of bad) {
    assert.equal(HostToReceipts.safeParse(message).success, false, JSON.stringify(message));
  }
});

test("webview messages: valid and invalid", () => {
  const load = { type: "loadPage", requestId: 3, cursor: null, from: "end", kinds: null, containing: null };
  assert.ok(ReceiptsToHost.safeParse({ type: "ready" }).success);
  assert.ok(ReceiptsToHost.safeParse({ type: "verify" }).success);
  assert.ok(ReceiptsToHost.safeParse(load).success);
  assert.ok(ReceiptsToHost.safeParse({ ...load, cursor: "abc", from: "start" }).success);
  assert.ok(ReceiptsToHost.safeParse({ ...load, kinds: ["route-frame-opened", "work-scope-closed"] }).success);
  assert.ok(ReceiptsToHost.safeParse({ ...load, containing: sha("1") }).success);
  assert.ok(ReceiptsToHost.safeParse({ type: "loadDetail", requestId: 4, eventSha256: sha("2") }).success);
  assert.ok(ReceiptsToHost.safeParse({ type: "copy", text: "{}" }).success);
  assert.ok(ReceiptsToHost.safeParse({ type: "openEvidence", branchResultId: "branch-result-0123456789abcdef" }).success);
  assert.equal(ReceiptsToHost.safeParse({ type: "openEvidence", branchResultId: "../etc/passwd" }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "loadPage", requestId: 3, cursor: null, from: "end" }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ ...load, kinds: [] }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ ...load, kinds: ["no-such-kind"] }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ ...load, containing: "abc" }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ ...load, from: "middle" }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "loadPage", requestId: 3 }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ ...load, requestId: 1.5 }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ ...load, cursor: "x".repeat(201) }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "loadDetail", requestId: 4, eventSha256: "nope" }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "loadDetail", requestId: 4, eventSha256: sha("2"), ordinal: 1 }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "copy", text: "x".repeat(MAX_COPY_CHARS + 1) }).success, false);
  assert.ok(ReceiptsToHost.safeParse({ type: "loadReviews", requestId: 5, cursor: null }).success);
  assert.ok(ReceiptsToHost.safeParse({ type: "loadReviews", requestId: 5, cursor: 12 }).success);
  assert.ok(ReceiptsToHost.safeParse({ type: "loadReviewDetail", requestId: 6, lineSha256: sha("4") }).success);
  assert.equal(ReceiptsToHost.safeParse({ type: "loadReviews", requestId: 5, cursor: -1 }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "loadReviews", requestId: 5, cursor: "12" }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "loadReviews", requestId: 5 }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "loadReviewDetail", requestId: 6, lineSha256: "abc" }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "ready", html: "<b>" }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "turnOn" }).success, false);
  // Open in Editor names an entry of a tab by its hash; the host reads the detail itself.
  for (const tab of ["receipts", "reviews", "observer"]) assert.ok(ReceiptsToHost.safeParse({ type: "openInEditor", tab, sha256: sha("8") }).success, tab);
  assert.equal(ReceiptsToHost.safeParse({ type: "openInEditor", tab: "receipts", sha256: "../x" }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "openInEditor", tab: "ledger", sha256: sha("8") }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "openInEditor", tab: "receipts", sha256: sha("8"), markdown: "# x" }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "copy", text: sha("8"), key: "detail-event-sha256" }).success, false);
});

test("persisted view state is strict; older states gain an empty filter and no selection", () => {
  assert.deepEqual(ReceiptsViewState.parse({ cursor: null, from: "end" }), {
    cursor: null,
    from: "end",
    kinds: null,
    selected: null,
    tab: "receipts",
    reviewsCursor: null,
    reviewSelected: null,
  });
  const full = { cursor: "c", from: "start", kinds: ["work-scope-opened"], selected: sha("3"), tab: "reviews", reviewsCursor: 7, reviewSelected: sha("5") };
  assert.deepEqual(ReceiptsViewState.parse(full), full);
  assert.equal(ReceiptsViewState.safeParse({ ...full, kinds: ["nope"] }).success, false);
  assert.equal(ReceiptsViewState.safeParse({ ...full, selected: "abc" }).success, false);
  assert.equal(ReceiptsViewState.safeParse({ cursor: 5, from: "end" }).success, false);
  assert.equal(ReceiptsViewState.safeParse({ cursor: null }).success, false);
  assert.equal(ReceiptsViewState.safeParse({ cursor: null, from: "end", page: 2 }).success, false);
  assert.equal(ReceiptsViewState.safeParse({ ...full, tab: "events" }).success, false);
  assert.equal(ReceiptsViewState.safeParse({ ...full, reviewsCursor: 1.5 }).success, false);
  assert.equal(ReceiptsViewState.safeParse(undefined).success, false);
  // The split's share: optional (older states have none), within its bounds.
  assert.equal(ReceiptsViewState.parse({ ...full, detailShare: 0.3 }).detailShare, 0.3);
  assert.equal(ReceiptsViewState.safeParse({ ...full, detailShare: 0.05 }).success, false);
  assert.equal(ReceiptsViewState.safeParse({ ...full, detailShare: 1 }).success, false);
  assert.equal(ReceiptsViewState.safeParse({ ...full, detailShare: "0.5" }).success, false);
});

test("strings must be complete", () => {
  assert.equal(ReceiptsStrings.safeParse({ first: "First" }).success, false);
});
