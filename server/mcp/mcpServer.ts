// `docket mcp`: the Docket tools over MCP (stdio). One WorkspaceLedger per process, constructed
// trusted (the user started this process), appending under the same cross-process lock as the
// extension's backend, the CLI and the hooks. Uses the SDK's low-level Server so the tool list
// carries our derived JSON schemas and every refusal (bad arguments included) is a coded tool
// result instead of a JSON-RPC error. The Notebook's tools run in a worker thread (toolWorker.ts),
// so a long validation never delays the answer to another call.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult, type JSONRPCRequest, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { DocketError, toDocketError } from "../errors";
import { ErrorCodes } from "../protocol/messages";
import { nestsDeeperThan } from "../ledger/canonicalJson";
import { WorkspaceLedger } from "../workspace/workspaceLedger";
import type { AgentState } from "./guidance";
import { DOCKET_MCP_INSTRUCTIONS } from "./instructions";
import { errorResult, successResult } from "./toolResults";
import { DOCKET_TOOL_NAMES, DOCKET_TOOLS, findTool, type ToolContext } from "./tools";
import { ToolWorker } from "./toolWorker";

export interface McpServerOptions {
  readonly workspaceFolder: string;
  readonly ledgerPath: string;
  /** The notebook folder as the user configured it (`--notebook`), resolved per call; null when none. */
  readonly notebookPath: string | null;
  readonly version: string;
}

/** The replay-current state of the file (other processes append too); from the verified snapshot when it answers. */
export function agentState(ledger: WorkspaceLedger): AgentState {
  try {
    const { policy, purpose } = ledger.agentPolicy();
    return {
      phase: policy.phase,
      workScopeId: policy.workScopeId,
      legalOperations: policy.legalOperations,
      nextAction: policy.nextAction,
      requiredPurpose: policy.legalOperations.includes("open_judgment") ? purpose : null,
      shell: policy.shell,
      edit: policy.edit,
      reason: policy.reason,
    };
  } catch (error) {
    // An unreadable ledger must still produce an answer the model can act on.
    const reason = `The ledger cannot be read: ${toDocketError(error).message}`;
    return { phase: "blocked", workScopeId: null, legalOperations: [], nextAction: null, requiredPurpose: null, shell: "deny", edit: "deny", reason };
  }
}

export function listTools(): Tool[] {
  return DOCKET_TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: { title: tool.title, readOnlyHint: tool.readOnly, destructiveHint: false, idempotentHint: tool.readOnly, openWorldHint: false },
  }));
}

export interface CallSession {
  readonly notebookPath?: string | null;
  readonly client?: string | null;
  /** Where off-thread tools run; without one (in-process callers, tests) they run inline. */
  readonly worker?: ToolWorker | null;
}

/** Far deeper than any Docket tool's arguments, far shallower than what overflows a recursive walk. */
const MAX_ARGUMENT_DEPTH = 64;

/** Runs one tool call; never throws. `args` is the request's `arguments` exactly as received. */
export async function callTool(ledger: WorkspaceLedger, workspaceFolder: string, name: string, args: unknown, session: CallSession = {}): Promise<CallToolResult> {
  const context: ToolContext = { ledger, workspaceFolder, notebookPath: session.notebookPath ?? null, client: session.client ?? null, state: () => agentState(ledger) };
  const tool = findTool(name);
  if (tool === undefined) {
    const error = new DocketError(ErrorCodes.invalidParams, `Unknown tool ${name}; Docket's tools are ${DOCKET_TOOL_NAMES.join(", ")}.`);
    return errorResult(error, context.state(), name);
  }
  try {
    if (nestsDeeperThan(args, MAX_ARGUMENT_DEPTH)) {
      // Refused before any walk that recurses (schema checks, the copy to the worker) can overflow.
      throw new DocketError(ErrorCodes.invalidParams, `Invalid arguments for ${tool.name}: nested more than ${MAX_ARGUMENT_DEPTH} levels deep; no Docket tool takes arguments nested like that.`);
    }
    const worker = session.worker ?? null;
    const outcome = tool.offThread && worker !== null ? await worker.run(tool.name, context, args) : await tool.invoke(context, args);
    return successResult(outcome, context.state());
  } catch (error) {
    return errorResult(toDocketError(error), context.state(), name);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `tools/call` as it arrived. The SDK's own handler validates the whole request first and answers
 * a non-object `arguments` with a JSON-RPC error carrying a raw zod dump; taking the request here
 * (the SDK's fallback for methods without their own handler) makes that a coded tool result like
 * every other bad argument.
 */
async function answerToolCall(request: JSONRPCRequest, call: (name: string, args: unknown) => Promise<CallToolResult>, state: () => AgentState): Promise<CallToolResult> {
  const params: Record<string, unknown> = isObject(request.params) ? request.params : {};
  const name = params["name"];
  if (typeof name !== "string") {
    const error = new DocketError(ErrorCodes.invalidParams, `tools/call needs the tool's name as a string in params.name; Docket's tools are ${DOCKET_TOOL_NAMES.join(", ")}.`);
    return errorResult(error, state(), "the tool");
  }
  return call(name, params["arguments"]);
}

/** "name version" as the client introduced itself (recorded as who acted), or null before it has. */
function clientLabel(server: Server): string | null {
  const client = server.getClientVersion();
  return client === undefined ? null : `${client.name} ${client.version}`.slice(0, 200);
}

export function createDocketMcpServer(options: McpServerOptions): { server: Server; ledger: WorkspaceLedger; worker: ToolWorker } {
  const server = new Server(
    { name: "docket", title: "Docket", version: options.version },
    { capabilities: { tools: {} }, instructions: DOCKET_MCP_INSTRUCTIONS },
  );
  const ledger = new WorkspaceLedger({
    workspaceFolder: options.workspaceFolder,
    ledgerPath: options.ledgerPath,
    trusted: true,
    // Recorded beside the ledger as who drove each frame: the MCP client (known once it has
    // initialized) and this server process.
    actor: () => ({ kind: "mcp", client: clientLabel(server), session: `pid ${process.pid}` }),
  });
  const worker = new ToolWorker();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools() }));
  const call = (name: string, args: unknown): Promise<CallToolResult> =>
    callTool(ledger, options.workspaceFolder, name, args, { notebookPath: options.notebookPath, client: clientLabel(server), worker });
  server.fallbackRequestHandler = async (request) => {
    // The SDK's own answer to a method nobody handles (its Protocol reads `code` and `message`).
    if (request.method !== CallToolRequestSchema.shape.method.value) throw Object.assign(new Error("Method not found"), { code: ErrorCode.MethodNotFound });
    return answerToolCall(request, call, () => agentState(ledger));
  };
  return { server, ledger, worker };
}

/** Serves MCP on stdin/stdout until the client closes stdin. */
export function serveMcpStdio(options: McpServerOptions): void {
  // stdout carries JSON-RPC only: anything a library logs goes to stderr.
  const toStderr = (...args: unknown[]): void => {
    process.stderr.write(`${args.map(String).join(" ")}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  const { server, worker } = createDocketMcpServer(options);
  const transport = new StdioServerTransport();
  process.stdin.on("end", () => {
    void server.close();
    void worker.close();
  });
  server.connect(transport).catch((error: unknown) => {
    process.stderr.write(`docket: docket.internal: the MCP server could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
