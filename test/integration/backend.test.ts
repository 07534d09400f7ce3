// The backend as the extension uses it: a child process speaking JSON-RPC over stdio.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node";
import { Notifications, Requests, type Status } from "../../server/protocol/messages";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { repoRoot } from "../support/repoRoot";

const cli = path.join(repoRoot(), "dist", "docket.js");

interface Backend {
  readonly connection: MessageConnection;
  readonly child: ChildProcessWithoutNullStreams;
  readonly states: Status[];
  nextState(predicate: (status: Status) => boolean, timeoutMs?: number): Promise<Status>;
}

async function startBackend(workspaceFolder: string | null, trusted = true): Promise<Backend> {
  const child = spawn(process.execPath, [cli, "serve", `--clientProcessId=${process.pid}`, "--stdio"], { stdio: "pipe" });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const states: Status[] = [];
  const waiters: Array<{ predicate: (status: Status) => boolean; resolve: (status: Status) => void }> = [];
  connection.onNotification(Notifications.stateChanged.method, (params: unknown) => {
    const status = Notifications.stateChanged.params.parse(params);
    states.push(status);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(status)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(status);
      }
    }
  });
  connection.listen();
  await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    initializationOptions: { workspaceFolder, ledgerPath: null, trusted },
  });
  await connection.sendNotification("initialized", {});
  return {
    connection,
    child,
    states,
    nextState: (predicate, timeoutMs = 5_000) =>
      new Promise<Status>((resolve, reject) => {
        const found = states.find(predicate);
        if (found !== undefined) return resolve(found);
        const timer = setTimeout(() => reject(new Error("no matching docket/stateChanged notification")), timeoutMs);
        waiters.push({ predicate, resolve: (status) => (clearTimeout(timer), resolve(status)) });
      }),
  };
}

async function stopBackend(backend: Backend): Promise<void> {
  await backend.connection.sendRequest("shutdown");
  await backend.connection.sendNotification("exit");
  backend.connection.dispose();
  await new Promise((resolve) => backend.child.once("exit", resolve));
}

function tempWorkspace(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "docket-backend-"));
}

test("turn on, page receipts, verify and turn off over stdio JSON-RPC", async () => {
  const workspace = tempWorkspace();
  const backend = await startBackend(workspace);
  try {
    const initial = Requests.status.result.parse(await backend.connection.sendRequest(Requests.status.method, {}));
    assert.equal(initial.phase, "off");
    assert.equal(initial.workspaceFolder, workspace);
    const on = Requests.turnOn.result.parse(await backend.connection.sendRequest(Requests.turnOn.method, {}));
    assert.equal(on.eventIds.length, 1);
    assert.equal(on.nextAction, "open_judgment");
    const deciding = await backend.nextState((status) => status.phase === "deciding");
    assert.equal(deciding.activeScope?.workScopeId, on.workScopeId);
    const page = Requests.receiptsPage.result.parse(await backend.connection.sendRequest(Requests.receiptsPage.method, { cursor: null, pageSize: 100 }));
    assert.equal(page.receiptCount, 1);
    assert.equal(page.receipts[0]?.kind, "work-scope-opened");
    assert.equal(page.receipts[0]?.scopeSequence, 0);
    assert.deepEqual(page.receipts[0]?.summary, { kind: "work-scope-opened", workScopeId: on.workScopeId });
    const policy = Requests.policy.result.parse(await backend.connection.sendRequest(Requests.policy.method, {}));
    assert.deepEqual([policy.shell, policy.edit, policy.nextAction], ["deny", "deny", "open_judgment"]);
    const verified = Requests.verifyLedger.result.parse(await backend.connection.sendRequest(Requests.verifyLedger.method, {}));
    assert.equal(verified.ok, true);
    assert.equal(verified.accepted, 1);
    await backend.connection.sendRequest(Requests.turnOff.method, {});
    const off = await backend.nextState((status) => status.phase === "off" && status.receiptCount === 2);
    assert.equal(off.scopes[0]?.status, "closed");
  } finally {
    await stopBackend(backend);
  }
});

test("appends by another process reach the backend without any request", async () => {
  const workspace = tempWorkspace();
  const backend = await startBackend(workspace);
  try {
    await backend.connection.sendRequest(Requests.status.method, {});
    const other = new WorkspaceLedger({ workspaceFolder: workspace, ledgerPath: path.join(workspace, ".docket", "ledger.jsonl"), trusted: true });
    other.refresh();
    await other.turnOn();
    const seen = await backend.nextState((status) => status.phase === "deciding");
    assert.equal(seen.receiptCount, 1);
  } finally {
    await stopBackend(backend);
  }
});

test("bad params and refused writes return coded errors", async () => {
  const workspace = tempWorkspace();
  const backend = await startBackend(workspace, false);
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
    await stopBackend(backend);
  }
});

test("a window with no folder gets a clear error instead of a crash", async () => {
  const backend = await startBackend(null);
  try {
    const status = Requests.status.result.parse(await backend.connection.sendRequest(Requests.status.method, {}));
    assert.equal(status.workspaceFolder, null);
    await assert.rejects(backend.connection.sendRequest(Requests.turnOn.method, {}), (error: { data?: { code?: string } }) => error.data?.code === "docket.no-workspace");
  } finally {
    await stopBackend(backend);
  }
});
