// The four kinds of Docket writers as real child processes, each reduced to one question: what
// did the client get back? An acknowledgement (event ids the ledger must now hold, evidence
// handles the store must now hold), a coded refusal, no answer at all (the process died), or a
// raw error — an answer without a `docket.*` code, which is never acceptable.
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createMessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node";
import { Requests } from "../../../server/protocol/messages";
import type { LedgerOperationName, Operation } from "./cycle";
import type { LaunchCommand, WriterWorkspace } from "./writerWorkspace";

export type Outcome =
  | { readonly kind: "ack"; readonly eventIds: readonly string[]; readonly evidence: readonly string[] }
  | { readonly kind: "refused"; readonly code: string; readonly message: string }
  | { readonly kind: "no-answer"; readonly detail: string }
  | { readonly kind: "raw"; readonly detail: string };

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** One write in flight in its own process. */
export interface RunningWrite {
  readonly pid: number;
  readonly outcome: Promise<Outcome>;
  readonly exited: Promise<Exit>;
}

/** A long-lived writer process (the backend, an MCP server) that takes one write at a time. */
export interface WriterSession {
  readonly pid: number;
  readonly exited: Promise<Exit>;
  write(operation: Operation): Promise<Outcome>;
  stop(): Promise<void>;
}

const CODED = /^docket: (docket\.[a-z0-9-]+): (.*)$/mu;
const EVIDENCE = /evidence (branch-result-[0-9a-f]{16})/gu;

export function killProcess(pid: number): boolean {
  try {
    process.kill(pid, "SIGKILL");
    return true;
  } catch {
    return false;
  }
}

function eventIdsOf(value: unknown): string[] | null {
  const ids = (value as { eventIds?: unknown } | null)?.eventIds;
  return Array.isArray(ids) && ids.every((id) => typeof id === "string") ? (ids as string[]) : null;
}

/** A coded refusal, or a raw error when the code is missing or is the catch-all `docket.internal`. */
function codedOrRaw(code: unknown, message: string, where: string): Outcome {
  if (typeof code === "string" && code.startsWith("docket.") && code !== "docket.internal") return { kind: "refused", code, message };
  return { kind: "raw", detail: `${where}: ${typeof code === "string" ? `${code}: ` : ""}${message.slice(0, 400)}` };
}

function spawnCollecting(launch: LaunchCommand, extraArgs: readonly string[], cwd: string, stdin: string | null) {
  const child = spawn(launch.command, [...launch.args, ...extraArgs], { cwd, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.on("error", () => undefined); // a child killed before reading its input
  child.stdin.end(stdin ?? undefined);
  const exited = new Promise<Exit & { stdout: string; stderr: string }>((resolve) => {
    child.once("error", (error) => resolve({ code: null, signal: null, stdout, stderr: `${stderr}${String(error)}` }));
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { pid: child.pid ?? -1, exited };
}

/** `docket on|off --json` from a terminal. */
export function runCliWrite(workspace: WriterWorkspace, operation: Operation): RunningWrite {
  if (operation.name !== "turnOn" && operation.name !== "turnOff") throw new Error(`the CLI cannot ${operation.name}`);
  const launch = { command: process.execPath, args: [workspace.docketCli] };
  const run = spawnCollecting(launch, [operation.name === "turnOn" ? "on" : "off", "--json", "--workspace", workspace.root], workspace.root, null);
  const outcome = run.exited.then((exit): Outcome => {
    // Whatever reached stdout reached the user, even if the process died right after.
    try {
      const ids = eventIdsOf((JSON.parse(exit.stdout) as { result?: unknown }).result);
      if (ids !== null) return { kind: "ack", eventIds: ids, evidence: [] };
    } catch {
      // not a complete answer
    }
    if (exit.signal !== null) return { kind: "no-answer", detail: `killed by ${exit.signal}` };
    const coded = CODED.exec(exit.stderr);
    if (exit.code === 3 && coded !== null) return codedOrRaw(coded[1], coded[2] ?? "", "cli");
    return { kind: "raw", detail: `cli exit ${String(exit.code)}: ${(exit.stderr || exit.stdout).slice(0, 400)}` };
  });
  return { pid: run.pid, outcome, exited: run.exited };
}

/** The installed PostToolUse hook of the operation's host, fed the host's input on stdin. */
export function runHookWrite(workspace: WriterWorkspace, operation: Operation): RunningWrite {
  if (operation.name !== "capture") throw new Error(`a hook cannot ${operation.name}`);
  const run = spawnCollecting(workspace.hooks[operation.host], [], workspace.root, JSON.stringify(operation.input));
  const outcome = run.exited.then((exit): Outcome => {
    const evidence = [...exit.stdout.matchAll(EVIDENCE)].map((match) => match[1] as string);
    if (evidence.length > 0) return { kind: "ack", eventIds: [], evidence };
    if (exit.signal !== null) return { kind: "no-answer", detail: `killed by ${exit.signal}` };
    if (exit.code !== 0) return { kind: "raw", detail: `hook exit ${String(exit.code)}: ${exit.stderr.slice(0, 400)}` };
    const note = /docket hook: (.*not captured.*)$/mu.exec(exit.stderr);
    if (note !== null) {
      const code = /docket\.[a-z0-9-]+/u.exec(note[1] ?? "")?.[0];
      return code === undefined ? { kind: "raw", detail: `hook note without a code: ${note[1] ?? ""}` } : { kind: "refused", code, message: note[1] ?? "" };
    }
    // Nothing to capture (Docket off): the hook answered and wrote only its heartbeat.
    return { kind: "ack", eventIds: [], evidence: [] };
  });
  return { pid: run.pid, outcome, exited: run.exited };
}

const BACKEND_METHODS: Record<LedgerOperationName, string> = {
  turnOn: Requests.turnOn.method,
  turnOff: Requests.turnOff.method,
  openJudgment: Requests.openJudgment.method,
  concludeJudgment: Requests.concludeJudgment.method,
  authorizeChange: Requests.authorizeChange.method,
  recordLanding: Requests.recordLanding.method,
};

const MCP_TOOLS: Partial<Record<LedgerOperationName, string>> = {
  openJudgment: "open_judgment",
  concludeJudgment: "conclude_judgment",
  authorizeChange: "authorize_change",
  recordLanding: "record_landing",
};

function exitOf(child: { once(event: "exit", listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown }): Promise<Exit> {
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

/** `docket serve --stdio` as the extension runs it, speaking JSON-RPC. */
export async function startBackendSession(workspace: WriterWorkspace): Promise<WriterSession> {
  const child = spawn(process.execPath, [workspace.docketCli, "serve", `--clientProcessId=${process.pid}`, "--stdio"], { cwd: workspace.root, stdio: ["pipe", "pipe", "ignore"] });
  const exited = exitOf(child);
  child.stdin.on("error", () => undefined);
  const reader = new StreamMessageReader(child.stdout);
  // A backend killed mid-message leaves a partial message in the reader, whose "partial message"
  // timer then re-arms every 10 s for ever (disposing the connection does not stop it), keeping
  // the suite's process alive after its summary. The notification is not needed: no timer at all.
  reader.partialMessageTimeout = 0;
  const connection: MessageConnection = createMessageConnection(reader, new StreamMessageWriter(child.stdin));
  connection.onError(() => undefined);
  connection.listen();
  void exited.then(() => connection.dispose());
  const gone = exited.then((exit) => ({ gone: exit }));
  const request = async (method: string, params: unknown): Promise<{ value: unknown } | { error: unknown } | { gone: Exit }> => {
    let sent: Promise<unknown>;
    try {
      sent = connection.sendRequest(method, params);
    } catch (error) {
      return { error };
    }
    return Promise.race([sent.then((value) => ({ value }), (error: unknown) => ({ error })), gone]);
  };
  const initialized = await request("initialize", {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    initializationOptions: { workspaceFolder: workspace.root, ledgerPath: null, trusted: true },
  });
  if (!("value" in initialized)) {
    child.kill("SIGKILL");
    throw new Error(`the backend did not initialize: ${JSON.stringify(initialized)}`);
  }
  await connection.sendNotification("initialized", {});
  return {
    pid: child.pid ?? -1,
    exited,
    async write(operation) {
      if (operation.name === "capture") throw new Error("the backend does not capture hooks");
      const answer = await request(BACKEND_METHODS[operation.name], operation.params);
      if ("gone" in answer) return { kind: "no-answer", detail: `backend exited (${answer.gone.signal ?? String(answer.gone.code)})` };
      if ("value" in answer) {
        const ids = eventIdsOf(answer.value);
        return ids === null ? { kind: "raw", detail: `backend answered without eventIds: ${JSON.stringify(answer.value).slice(0, 300)}` } : { kind: "ack", eventIds: ids, evidence: [] };
      }
      const error = answer.error;
      if (error instanceof ResponseError) {
        const data = error.data as { code?: unknown } | undefined;
        return codedOrRaw(data?.code, error.message, `backend JSON-RPC ${error.code}`);
      }
      return { kind: "no-answer", detail: `backend connection: ${String(error)}` };
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        // A connection closed meanwhile throws synchronously, not through the promise.
        try {
          await Promise.race([connection.sendRequest("shutdown").catch(() => undefined), exited]);
          await connection.sendNotification("exit").catch(() => undefined);
        } catch {
          child.kill("SIGKILL");
        }
      }
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
      connection.dispose();
    },
  };
}

/** The installed MCP server, driven by the MCP SDK's own client over stdio. */
export async function startMcpSession(workspace: WriterWorkspace, clientName: string): Promise<WriterSession> {
  const transport = new StdioClientTransport({ command: workspace.mcp.command, args: [...workspace.mcp.args], cwd: workspace.root, stderr: "ignore" });
  const client = new Client({ name: clientName, version: "0.0.0" });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error("the MCP server has no process");
  // The client's own close handler rejects pending calls; ours only notes the exit.
  const exited = new Promise<Exit>((resolve) => {
    const clientOnClose = transport.onclose;
    transport.onclose = () => {
      clientOnClose?.();
      resolve({ code: null, signal: null });
    };
  });
  return {
    pid,
    exited,
    async write(operation) {
      const tool = operation.name === "capture" ? undefined : MCP_TOOLS[operation.name];
      if (tool === undefined || operation.name === "capture") throw new Error(`the MCP server has no tool for ${operation.name}`);
      let result: Awaited<ReturnType<Client["callTool"]>>;
      try {
        result = await client.callTool({ name: tool, arguments: { ...operation.params } });
      } catch (error) {
        return { kind: "no-answer", detail: `MCP call failed: ${error instanceof Error ? error.message : String(error)}` };
      }
      const structured = (result.structuredContent ?? {}) as { result?: unknown; error?: { code?: unknown; message?: unknown } };
      if (result.isError === true) {
        const text = Array.isArray(result.content) ? (result.content as { text?: string }[]).map((part) => part.text ?? "").join(" ") : "";
        return codedOrRaw(structured.error?.code, typeof structured.error?.message === "string" ? structured.error.message : text, `MCP ${tool}`);
      }
      const ids = eventIdsOf(structured.result);
      return ids === null ? { kind: "raw", detail: `MCP ${tool} answered without eventIds` } : { kind: "ack", eventIds: ids, evidence: [] };
    },
    async stop() {
      await client.close().catch(() => undefined);
    },
  };
}
