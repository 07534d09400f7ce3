// The Receipts view's requests over the backend's stdio JSON-RPC: a kind-filtered page, its
// filter-bound cursors, a jump by `containing`, and `docket/receipts/detail`; and the completion
// guard's entries (`docket/guard/receipts/page|detail`) for reviews recorded with the real CLI.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { Requests } from "../../server/protocol/messages";
import { startBackend } from "../support/backendProcess";
import { recordReview } from "../support/guardFlow";
import { repoRoot } from "../support/repoRoot";

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

test("guard receipts: reviews recorded with the CLI page newest and oldest first, with checkable details, beside unchanged receipts", async () => {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "docket-guard-receipts-"));
  fs.writeFileSync(path.join(workspace, "a.txt"), "alpha\n");
  const cli = (args: readonly string[], input?: string): string =>
    execFileSync(process.execPath, [path.join(repoRoot(), "dist", "docket.js"), ...args, "--workspace", workspace], { cwd: workspace, input, encoding: "utf8", timeout: 30_000 });
  const backend = await startBackend({ workspaceFolder: workspace });
  try {
    const code = (expected: string) => (error: { data?: { code?: string } }) => error.data?.code === expected;
    const empty = await backend.request(Requests.guardReceiptsPage, {});
    assert.equal(empty.entryCount, 0);
    assert.deepEqual(empty.entries, []);

    cli(["on"]);
    const before = await backend.request(Requests.receiptsPage, { cursor: null, pageSize: 100 });
    const statusBefore = await backend.request(Requests.status, {});
    const open = { draft: "a.txt says alpha.", claims: [{ id: "c1", text: "a.txt says alpha" }], sources: [{ kind: "file" as const, path: "a.txt" }] };
    recordReview(workspace, open, () => ({ claims: [{ claimId: "c1", verdict: "supported", citations: ["source:1"] }], response: { verdict: "supported", rationale: "a.txt holds alpha." } }));
    recordReview(workspace, open, () => ({ claims: [{ claimId: "c1", verdict: "unsupported", citations: ["source:1"] }], response: { verdict: "unsupported", rationale: "Not what it says." } }));
    // A review opened and not submitted yet.
    const pending = JSON.parse(cli(["review", "open", "--json"], JSON.stringify(open))) as { reviewId: string };

    // The backend notices the appends from another process (the view refreshes on this).
    const moved = await backend.nextState((status) => status.revision !== statusBefore.revision, 10_000);
    assert.ok(moved.revision !== statusBefore.revision);

    const newest = await backend.request(Requests.guardReceiptsPage, { pageSize: 2 });
    const status = await backend.request(Requests.status, {});
    assert.equal(newest.revision, status.revision, "the page says which ledger revision it shows");
    assert.equal(newest.entryCount, 5);
    assert.deepEqual(newest.entries.map((row) => [row.kind, row.status]), [["review-opened", null], ["review-submitted", "unsupported"]]);
    assert.equal(newest.entries[0]?.reviewId, pending.reviewId);
    assert.ok(newest.entries[0]?.workScopeId?.startsWith("scope:"));
    assert.ok(newest.nextCursor !== null);
    const rest = await backend.request(Requests.guardReceiptsPage, { pageSize: 2, cursor: newest.nextCursor });
    const last = await backend.request(Requests.guardReceiptsPage, { pageSize: 2, cursor: rest.nextCursor });
    const all = [...newest.entries, ...rest.entries, ...last.entries];
    assert.deepEqual(all.map((row) => row.kind), ["review-opened", "review-submitted", "review-opened", "review-submitted", "review-opened"]);
    assert.deepEqual(all.map((row) => row.status), [null, "unsupported", null, "supported", null]);
    assert.equal(last.nextCursor, null);
    const oldest = await backend.request(Requests.guardReceiptsPage, { order: "oldest", pageSize: 100 });
    assert.deepEqual(oldest.entries, [...all].reverse());

    // The ledger file: every row names a guard line with that hash.
    const ledgerLines = fs.readFileSync(path.join(workspace, ".docket", "ledger.jsonl"), "utf8").trimEnd().split("\n").map((line) => JSON.parse(line) as { stream: string; lineSha256: string });
    for (const row of all) {
      assert.equal(ledgerLines[row.line]?.stream, "docket/guard/v1");
      assert.equal(ledgerLines[row.line]?.lineSha256, row.lineSha256);
    }

    // Detail: the entry's canonical JSON as the line holds it, and the text its hash covers.
    const submitted = all[1];
    assert.ok(submitted !== undefined);
    const detail = await backend.request(Requests.guardReceiptDetail, { lineSha256: submitted.lineSha256 });
    assert.equal(createHash("sha256").update(detail.lineHashInput, "utf8").digest("hex"), submitted.lineSha256);
    assert.equal(detail.previousLineSha256, ledgerLines[submitted.line - 1]?.lineSha256);
    const raw = fs.readFileSync(path.join(workspace, ".docket", "ledger.jsonl"), "utf8").split("\n")[submitted.line] ?? "";
    assert.ok(raw.startsWith(`{"entry":${detail.canonicalJson},"ledger":"docket/ledger-line/v1"`));
    assert.equal(detail.related?.kind, "review-opened");
    assert.equal(detail.related?.reviewId, submitted.reviewId);

    // The developer/v8 receipts do not change with guard lines, and verify covers both.
    const after = await backend.request(Requests.receiptsPage, { cursor: null, pageSize: 100 });
    assert.equal(after.projectionSha256, before.projectionSha256);
    assert.equal(after.receiptCount, before.receiptCount);
    assert.equal(after.pageSha256, before.pageSha256);
    const verified = await backend.request(Requests.verifyLedger, {});
    assert.equal(verified.ok, true);
    assert.equal(verified.lines, ledgerLines.length);

    await assert.rejects(backend.connection.sendRequest(Requests.guardReceiptDetail.method, { lineSha256: "0".repeat(64) }), code("docket.receipt-not-found"));
    for (const bad of [{ pageSize: 101 }, { cursor: -1 }, { cursor: "1" }, { order: "sideways" }, { extra: true }]) {
      await assert.rejects(backend.connection.sendRequest(Requests.guardReceiptsPage.method, bad), code("docket.invalid-params"), JSON.stringify(bad));
    }
    await assert.rejects(backend.connection.sendRequest(Requests.guardReceiptDetail.method, { lineSha256: "zz" }), code("docket.invalid-params"));
  } finally {
    await backend.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
});
