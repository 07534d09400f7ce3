// The Receipts view's two requests over the backend's stdio JSON-RPC: a kind-filtered page, its
// filter-bound cursors, a jump by `containing`, and `docket/receipts/detail`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Requests } from "../../server/protocol/messages";
import { startBackend } from "../support/backendProcess";

test("receipts: kind filter, filter-bound cursors, containing and detail over JSON-RPC", async () => {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "docket-receipts-"));
  const backend = await startBackend({ workspaceFolder: workspace });
  try {
    for (let cycle = 0; cycle < 3; cycle += 1) {
      await backend.connection.sendRequest(Requests.turnOn.method, {});
      await backend.connection.sendRequest(Requests.turnOff.method, {});
    }
    const page = async (params: unknown) => backend.request(Requests.receiptsPage, params);
    const code = (expected: string) => (error: { data?: { code?: string } }) => error.data?.code === expected;

    const all = await page({ cursor: null, pageSize: 100 });
    assert.equal(all.receiptCount, 6);
    assert.deepEqual(all.kindCounts, [
      { kind: "work-scope-closed", count: 3 },
      { kind: "work-scope-opened", count: 3 },
    ]);
    const closed = await page({ cursor: null, pageSize: 2, kinds: ["work-scope-closed"] });
    assert.deepEqual(closed.receipts.map((row) => row.ordinal), [1, 3]);
    assert.equal(closed.matchingCount, 3);
    assert.ok(closed.nextCursor !== null);
    const rest = await page({ cursor: closed.nextCursor, pageSize: 2, kinds: ["work-scope-closed"] });
    assert.deepEqual(rest.receipts.map((row) => row.ordinal), [5]);
    await assert.rejects(backend.connection.sendRequest(Requests.receiptsPage.method, { cursor: closed.nextCursor, pageSize: 2 }), code("docket.invalid-cursor"));
    await assert.rejects(backend.connection.sendRequest(Requests.receiptsPage.method, { cursor: null, kinds: ["bogus"] }), code("docket.invalid-params"));

    const target = all.receipts[4];
    assert.ok(target !== undefined);
    const jumped = await page({ cursor: null, pageSize: 2, containing: target.eventSha256 });
    assert.deepEqual(jumped.receipts.map((row) => row.ordinal), [4, 5]);

    const last = all.receipts[5];
    assert.ok(last !== undefined);
    const detail = await backend.request(Requests.receiptDetail, { eventSha256: last.eventSha256 });
    assert.equal(createHash("sha256").update(detail.canonicalJson, "utf8").digest("hex"), last.eventSha256);
    assert.equal(detail.receipt.ordinal, 5);
    assert.deepEqual(detail.previousScopeEvent?.ordinal, 4);
    assert.equal(detail.previousScopeEvent?.kind, "work-scope-opened");
    await assert.rejects(backend.connection.sendRequest(Requests.receiptDetail.method, { eventSha256: "0".repeat(64) }), code("docket.receipt-not-found"));
    await assert.rejects(backend.connection.sendRequest(Requests.receiptDetail.method, { eventSha256: "zz" }), code("docket.invalid-params"));
  } finally {
    await backend.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
});
