import assert from "node:assert/strict";
import { test } from "node:test";
import {
  HostToReceipts,
  ReceiptsStrings,
  ReceiptsToHost,
  ReceiptsViewState,
} from "../../server/protocol/webviewMessages";

const sha = (c: string): string => c.repeat(64);

const page = {
  projectionSha256: sha("a"),
  receiptCount: 1,
  startOrdinal: 0,
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
};

test("host messages: every kind parses", () => {
  const messages: unknown[] = [
    { type: "state", backend: "ready", workspace: "trusted", on: true, blocked: false, projectionSha256: sha("a"), receiptCount: 3 },
    { type: "state", backend: "starting", workspace: "none", on: false, blocked: false, projectionSha256: null, receiptCount: null },
    { type: "page", requestId: 1, page },
    { type: "pageError", requestId: 2, code: "docket.stale-cursor", message: "stale" },
    { type: "verifyStarted" },
    { type: "verifyResult", ok: true, message: "Ledger verified" },
    { type: "showLatest" },
  ];
  for (const message of messages) {
    assert.deepEqual(HostToReceipts.parse(message), message);
  }
});

test("host messages: unknown fields, unknown types and bad values are rejected", () => {
  const bad: unknown[] = [
    { type: "showLatest", extra: 1 },
    { type: "nope" },
    { type: "state", backend: "ready", workspace: "trusted", on: true, blocked: false, projectionSha256: "ABC", receiptCount: 0 },
    { type: "state", backend: "crashed", workspace: "trusted", on: true, blocked: false, projectionSha256: null, receiptCount: 0 },
    { type: "page", requestId: -1, page },
    { type: "page", requestId: 1, page: { ...page, extra: true } },
    { type: "verifyResult", ok: "yes", message: "" },
    null,
    "state",
  ];
  for (const message of bad) {
    assert.equal(HostToReceipts.safeParse(message).success, false, JSON.stringify(message));
  }
});

test("webview messages: valid and invalid", () => {
  assert.ok(ReceiptsToHost.safeParse({ type: "ready" }).success);
  assert.ok(ReceiptsToHost.safeParse({ type: "verify" }).success);
  assert.ok(ReceiptsToHost.safeParse({ type: "loadPage", requestId: 3, cursor: null, from: "end" }).success);
  assert.ok(ReceiptsToHost.safeParse({ type: "loadPage", requestId: 3, cursor: "abc", from: "start" }).success);
  assert.equal(ReceiptsToHost.safeParse({ type: "loadPage", requestId: 3, cursor: null }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "loadPage", requestId: 3, cursor: null, from: "middle" }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "loadPage", requestId: 3 }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "loadPage", requestId: 1.5, cursor: null, from: "start" }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "loadPage", requestId: 1, cursor: "x".repeat(201), from: "start" }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "ready", html: "<b>" }).success, false);
  assert.equal(ReceiptsToHost.safeParse({ type: "turnOn" }).success, false);
});

test("persisted view state is strict", () => {
  assert.deepEqual(ReceiptsViewState.parse({ cursor: null, from: "end" }), { cursor: null, from: "end" });
  assert.equal(ReceiptsViewState.safeParse({ cursor: 5, from: "end" }).success, false);
  assert.equal(ReceiptsViewState.safeParse({ cursor: null }).success, false);
  assert.equal(ReceiptsViewState.safeParse({ cursor: null, from: "end", page: 2 }).success, false);
  assert.equal(ReceiptsViewState.safeParse(undefined).success, false);
});

test("strings must be complete", () => {
  assert.equal(ReceiptsStrings.safeParse({ first: "First" }).success, false);
});
