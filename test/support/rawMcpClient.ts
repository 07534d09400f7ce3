// A raw JSON-RPC client for `docket mcp` over stdio: one JSON message per line, any params at all
// (the SDK's own client would not send a malformed request), answers matched to requests by id.
// Spawns the bundled CLI, so `node scripts/build.mjs` must have run.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { performance } from "node:perf_hooks";
import readline from "node:readline";
import { DOCKET_CLI } from "./mcpClient";

export interface JsonRpcResponse {
  readonly jsonrpc: "2.0";
  readonly id: number;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** A response and how long it took from the request being written to the answer being read. */
export interface TimedResponse {
  readonly response: JsonRpcResponse;
  readonly ms: number;
}

export class RawMcpClient {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (response: JsonRpcResponse) => void; reject: (error: Error) => void }>();
  private stderrText = "";

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    readline.createInterface({ input: child.stdout }).on("line", (line) => {
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        return;
      }
      const id = (message as { id?: unknown }).id;
      if (typeof id !== "number") return;
      const waiting = this.waiting.get(id);
      this.waiting.delete(id);
      waiting?.resolve(message as JsonRpcResponse);
    });
    child.once("exit", (code) => {
      const pending = [...this.waiting.values()];
      this.waiting.clear();
      for (const entry of pending) entry.reject(new Error(`docket mcp exited (${String(code)}) before answering: ${this.stderrText}`));
    });
    child.stderr.on("data", (chunk: Buffer) => {
      this.stderrText += chunk.toString("utf8");
    });
  }

  /** Starts `docket mcp --workspace DIR [extraArgs]` and completes the MCP handshake. */
  static async start(workspace: string, extraArgs: readonly string[] = []): Promise<RawMcpClient> {
    const child = spawn(process.execPath, [DOCKET_CLI, "mcp", "--workspace", workspace, ...extraArgs], { cwd: workspace, stdio: "pipe" });
    const client = new RawMcpClient(child);
    const init = await client.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "docket-raw-test", version: "0.0.0" } });
    if (init.response.error !== undefined) throw new Error(`initialize failed: ${init.response.error.message}`);
    client.notify("notifications/initialized");
    return client;
  }

  /** Sends one request with `params` exactly as given (undefined: no params key). */
  request(method: string, params?: unknown): Promise<TimedResponse> {
    const paramsText = params === undefined ? undefined : JSON.stringify(params);
    return this.requestText(method, paramsText);
  }

  /** Sends one request whose params are this JSON text, written as is (undefined: no params key). */
  requestText(method: string, paramsText: string | undefined): Promise<TimedResponse> {
    const id = this.nextId;
    this.nextId += 1;
    const started = performance.now();
    const answered = new Promise<TimedResponse>((resolve, reject) => {
      this.waiting.set(id, { resolve: (response) => resolve({ response, ms: performance.now() - started }), reject });
    });
    this.child.stdin.write(`{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)}${paramsText === undefined ? "" : `,"params":${paramsText}`}}\n`);
    return answered;
  }

  /** tools/call with `args` as the raw `arguments` value (undefined: no arguments key). */
  callTool(name: unknown, args?: unknown): Promise<TimedResponse> {
    return this.request("tools/call", { name, ...(args === undefined ? {} : { arguments: args }) });
  }

  /** tools/call with the `arguments` value given as JSON text (for values JSON.stringify cannot write). */
  callToolText(name: string, argumentsText: string | undefined): Promise<TimedResponse> {
    return this.requestText("tools/call", `{"name":${JSON.stringify(name)}${argumentsText === undefined ? "" : `,"arguments":${argumentsText}`}}`);
  }

  notify(method: string, params?: unknown): void {
    this.write({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
  }

  get stderr(): string {
    return this.stderrText;
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }

  private write(message: object): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }
}

/** The coded error a tool result carries, or null for a success. */
export function toolErrorCode(response: JsonRpcResponse): string | null {
  const result = response.result;
  if (result === undefined || result["isError"] !== true) return null;
  const error = (result["structuredContent"] as { error?: { code?: unknown } } | undefined)?.error;
  return typeof error?.code === "string" ? error.code : "(no code)";
}
