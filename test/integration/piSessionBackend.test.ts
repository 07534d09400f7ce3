// A Pi session opened read-only in the backend, over stdio JSON-RPC as the extension uses it.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Requests } from "../../server/protocol/messages";
import { startBackend } from "../support/backendProcess";
import { frameSpec, ScopeLog } from "../support/developerLog";
import { PiSessionBuilder } from "../support/piSessionFile";

type ErrorWithData = { data?: { code?: string; message?: string } };

test("open a Pi session: status and receipts from it, writes refused, appends followed, close returns to the ledger", async () => {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "docket-pi-backend-"));
  const log = new ScopeLog("scope:pi-backend");
  log.openFrame(frameSpec("scope:pi-backend", "frame:pi-backend", ["a"]));
  const session = new PiSessionBuilder();
  session.message("user", "Refactor it.");
  session.developer(log.entries[0]);
  const sessionPath = path.join(workspace, "session.jsonl");
  fs.writeFileSync(sessionPath, session.text());

  const backend = await startBackend({ workspaceFolder: workspace });
  try {
    const workspaceStatus = await backend.request(Requests.status, {});
    assert.deepEqual(workspaceStatus.source, { kind: "workspace" });

    await assert.rejects(backend.connection.sendRequest(Requests.piSessionOpen.method, { path: "relative.jsonl" }), (error: ErrorWithData) => error.data?.code === "docket.invalid-params");
    await assert.rejects(
      backend.connection.sendRequest(Requests.piSessionOpen.method, { path: path.join(workspace, "missing.jsonl") }),
      (error: ErrorWithData) => error.data?.code === "docket.pi-session-unreadable",
    );

    const opened = await backend.request(Requests.piSessionOpen, { path: sessionPath });
    assert.deepEqual(opened.source, { kind: "pi-session", path: sessionPath, entries: 2 });
    assert.equal(opened.phase, "deciding");
    assert.equal(opened.receiptCount, 1);
    assert.equal((await backend.request(Requests.status, {})).revision, opened.revision);
    const page = await backend.request(Requests.receiptsPage, { cursor: null, pageSize: 100 });
    assert.deepEqual(page.receipts.map((row) => row.kind), ["work-scope-opened"]);
    const detail = await backend.request(Requests.receiptDetail, { eventSha256: page.receipts[0]?.eventSha256 });
    assert.equal(detail.receipt.eventId, page.receipts[0]?.eventId);
    // A Pi session has no completion guard stream: the Reviews tab shows an empty page, not an error.
    const reviews = await backend.request(Requests.guardReceiptsPage, {});
    assert.equal(reviews.entryCount, 0);
    assert.equal(reviews.revision, opened.revision);
    const verified = await backend.request(Requests.verifyLedger, {});
    assert.equal(verified.ok, true);
    assert.equal(verified.path, sessionPath);

    await assert.rejects(backend.connection.sendRequest(Requests.turnOn.method, {}), (error: ErrorWithData) => {
      return error.data?.code === "docket.read-only-source" && (error.data.message ?? "").includes(sessionPath);
    });
    assert.equal(fs.existsSync(path.join(workspace, ".docket", "ledger.jsonl")), false);

    // Pi keeps appending while it runs: the backend notices without a request.
    session.developer(log.entries[1]);
    fs.writeFileSync(sessionPath, session.text());
    await backend.nextState((status) => status.source.kind === "pi-session" && status.receiptCount === 2);
    const work = await backend.request(Requests.workState, {});
    assert.equal(work.frames.length, 1);

    const closed = await backend.request(Requests.piSessionClose, {});
    assert.deepEqual(closed.source, { kind: "workspace" });
    assert.equal(closed.receiptCount, 0);
    const on = await backend.request(Requests.turnOn, {});
    assert.equal(on.eventIds.length, 1);
    assert.equal((await backend.request(Requests.status, {})).phase, "deciding");
  } finally {
    await backend.stop();
  }
});
