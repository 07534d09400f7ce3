// The backend as the extension runs it — `docket serve --stdio` in a child process speaking
// JSON-RPC — for integration tests. Startup and shutdown live here once so that no test can leak
// the child: a failed initialize, a crashed backend or a backend that ignores `exit` all end in
// an exited process.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { createMessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node";
import { DocketErrorData, Notifications, type BackendInitOptions, type Status } from "../../server/protocol/messages";
import { repoRoot } from "./repoRoot";

const cli = path.join(repoRoot(), "dist", "docket.js");

/** How long `stop` lets the backend exit on its own after `exit` before killing it. */
const exitGraceMs = 5_000;

export interface BackendOptions {
  readonly workspaceFolder: string | null;
  /** Defaults to true: most tests exercise a trusted workspace. */
  readonly trusted?: boolean;
}

export interface Backend {
  /** The raw connection, for requests whose error a test inspects itself. */
  readonly connection: MessageConnection;
  /** Sends a request and parses its result with the definition's result schema. */
  request<T>(definition: { readonly method: string; readonly result: { parse(value: unknown): T } }, params: unknown): Promise<T>;
  /** Sends a request that must fail and returns the `DocketErrorData.code` it failed with. */
  errorCode(method: string, params: unknown): Promise<string>;
  /** The first `docket/stateChanged` status, already seen or still to come, that matches. */
  nextState(predicate: (status: Status) => boolean, timeoutMs?: number): Promise<Status>;
  /** Shuts the backend down and resolves once its process has exited. */
  stop(): Promise<void>;
}

export async function startBackend(options: BackendOptions): Promise<Backend> {
  const child = spawn(process.execPath, [cli, "serve", `--clientProcessId=${process.pid}`, "--stdio"], { stdio: "pipe" });
  // Listened for from the start: an exit before `stop` would otherwise be missed and waited for forever.
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
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

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      // Raced with the exit: a backend that dies mid-shutdown never answers, and the request would hang.
      await Promise.race([connection.sendRequest("shutdown"), exited]).catch(() => undefined);
      await connection.sendNotification("exit").catch(() => undefined);
    }
    connection.dispose();
    const kill = setTimeout(() => child.kill("SIGKILL"), exitGraceMs);
    await exited;
    clearTimeout(kill);
  };

  const initializationOptions: BackendInitOptions = { workspaceFolder: options.workspaceFolder, ledgerPath: null, trusted: options.trusted ?? true };
  try {
    await connection.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions });
    await connection.sendNotification("initialized", {});
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    connection,
    request: async (definition, params) => definition.result.parse(await connection.sendRequest(definition.method, params)),
    errorCode: async (method, params) => {
      try {
        await connection.sendRequest(method, params);
      } catch (error) {
        assert.ok(error instanceof ResponseError);
        return DocketErrorData.parse(error.data).code;
      }
      assert.fail(`${method} unexpectedly succeeded`);
    },
    nextState: (predicate, timeoutMs = 5_000) =>
      new Promise<Status>((resolve, reject) => {
        const found = states.find(predicate);
        if (found !== undefined) return resolve(found);
        const timer = setTimeout(() => reject(new Error("no matching docket/stateChanged notification")), timeoutMs);
        waiters.push({ predicate, resolve: (status) => (clearTimeout(timer), resolve(status)) });
      }),
    stop,
  };
}
