// The backend as the extension uses it: a child process speaking JSON-RPC over stdio.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Requests } from "../../server/protocol/messages";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { startBackend } from "../support/backendProcess";

function tempWorkspace(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "docket-backend-"));
}

test("turn on, page receipts, verify and turn off over stdio JSON-RPC", async () => {
  const workspace = tempWorkspace();
  const backend = await startBackend({ workspaceFolder: workspace });
  try {
    const initial = await backend.request(Requests.status, {});
    assert.equal(initial.phase, "off");
    assert.equal(initial.workspaceFolder, workspace);
    const on = await backend.request(Requests.turnOn, {});
    assert.equal(on.eventIds.length, 1);
    assert.equal(on.nextAction, "open_judgment");
    const deciding = await backend.nextState((status) => status.phase === "deciding");
    assert.equal(deciding.activeScope?.workScopeId, on.workScopeId);
    const page = await backend.request(Requests.receiptsPage, { cursor: null, pageSize: 100 });
    assert.equal(page.receiptCount, 1);
    assert.equal(page.receipts[0]?.kind, "work-scope-opened");
    assert.equal(page.receipts[0]?.scopeSequence, 0);
    assert.deepEqual(page.receipts[0]?.summary, { kind: "work-scope-opened", workScopeId: on.workScopeId });
    const policy = await backend.request(Requests.policy, {});
    assert.deepEqual([policy.shell, policy.edit, policy.nextAction], ["deny", "deny", "open_judgment"]);
    const verified = await backend.request(Requests.verifyLedger, {});
    assert.equal(verified.ok, true);
    assert.equal(verified.accepted, 1);
    await backend.connection.sendRequest(Requests.turnOff.method, {});
    const off = await backend.nextState((status) => status.phase === "off" && status.receiptCount === 2);
    assert.equal(off.scopes[0]?.status, "closed");
  } finally {
    await backend.stop();
  }
});

test("appends by another process reach the backend without any request", async () => {
  const workspace = tempWorkspace();
  const backend = await startBackend({ workspaceFolder: workspace });
  try {
    await backend.connection.sendRequest(Requests.status.method, {});
    const other = new WorkspaceLedger({ workspaceFolder: workspace, ledgerPath: path.join(workspace, ".docket", "ledger.jsonl"), trusted: true });
    other.refresh();
    await other.turnOn();
    const seen = await backend.nextState((status) => status.phase === "deciding");
    assert.equal(seen.receiptCount, 1);
  } finally {
    await backend.stop();
  }
});

test("bad params and refused writes return coded errors", async () => {
  const workspace = tempWorkspace();
  const backend = await startBackend({ workspaceFolder: workspace, trusted: false });
  try {
    await assert.rejects(backend.connection.sendRequest(Requests.receiptsPage.method, { cursor: null, pageSize: 101 }), (error: { data?: { code?: string } }) => error.data?.code === "docket.invalid-params");
    await assert.rejects(backend.connection.sendRequest(Requests.status.method, { extra: true }), (error: { data?: { code?: string } }) => error.data?.code === "docket.invalid-params");
    await assert.rejects(backend.connection.sendRequest(Requests.turnOn.method, {}), (error: { data?: { code?: string } }) => error.data?.code === "docket.untrusted-workspace");
    await assert.rejects(
      backend.connection.sendRequest(Requests.receiptsPage.method, { cursor: `${"a".repeat(64)}.0.0000000000000000`, pageSize: 10 }),
      (error: { data?: { code?: string } }) => error.data?.code === "docket.invalid-cursor",
    );
    assert.equal(fs.existsSync(path.join(workspace, ".docket")), false);
  } finally {
    await backend.stop();
  }
});

test("a window with no folder gets a clear error instead of a crash", async () => {
  const backend = await startBackend({ workspaceFolder: null });
  try {
    const status = await backend.request(Requests.status, {});
    assert.equal(status.workspaceFolder, null);
    await assert.rejects(backend.connection.sendRequest(Requests.turnOn.method, {}), (error: { data?: { code?: string } }) => error.data?.code === "docket.no-workspace");
  } finally {
    await backend.stop();
  }
});
