// `docket mcp`: the Docket tools over MCP (stdio). One WorkspaceLedger per process, constructed
// trusted (the user started this process), appending under the same cross-process lock as the
// extension's backend, the CLI and the hooks. Uses the SDK's low-level Server so the tool list
// carries our derived JSON schemas and every refusal (bad arguments included) is a coded tool
// result instead of a JSON-RPC error.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { DocketError, toDocketError } from "../errors";
import { ErrorCodes } from "../protocol/messages";
import { WorkspaceLedger } from "../workspace/workspaceLedger";
import type { AgentState } from "./guidance";
import { DOCKET_MCP_INSTRUCTIONS } from "./instructions";
import { errorResult, successResult } from "./toolResults";
import { DOCKET_TOOL_NAMES, DOCKET_TOOLS, findTool, type ToolContext } from "./tools";

export interface McpServerOptions {
  readonly workspaceFolder: string;
  readonly ledgerPath: string;
  /** The notebook folder as the user configured it (`--notebook`), resolved per call; null when none. */
  readonly notebookPath: string | null;
  readonly version: string;
}

/** The replay-current state after catching up with the file (other processes append too). */
export function agentState(ledger: WorkspaceLedger): AgentState {
  try {
    ledger.refresh();
    const policy = ledger.policy();
    const purpose = ledger.workState().purpose;
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

/** Runs one tool call; never throws. */
export async function callTool(
  ledger: WorkspaceLedger,
  workspaceFolder: string,
  name: string,
  args: unknown,
  session: { readonly notebookPath?: string | null; readonly client?: string | null } = {},
): Promise<CallToolResult> {
  const context: ToolContext = { ledger, workspaceFolder, notebookPath: session.notebookPath ?? null, client: session.client ?? null, state: () => agentState(ledger) };
  const tool = findTool(name);
  if (tool === undefined) {
    const error = new DocketError(ErrorCodes.invalidParams, `Unknown tool ${name}; Docket's tools are ${DOCKET_TOOL_NAMES.join(", ")}.`);
    return errorResult(error, context.state(), name);
  }
  try {
    const outcome = await tool.invoke(context, args);
    return successResult(outcome, context.state());
  } catch (error) {
    return errorResult(toDocketError(error), context.state(), name);
  }
}

/** "name version" as the client introduced itself (recorded as who acted), or null before it has. */
function clientLabel(server: Server): string | null {
  const client = server.getClientVersion();
  return client === undefined ? null : `${client.name} ${client.version}`.slice(0, 200);
}

export function createDocketMcpServer(options: McpServerOptions): { server: Server; ledger: WorkspaceLedger } {
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
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools() }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(ledger, options.workspaceFolder, request.params.name, request.params.arguments, { notebookPath: options.notebookPath, client: clientLabel(server) }),
  );
  return { server, ledger };
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
  const { server } = createDocketMcpServer(options);
  const transport = new StdioServerTransport();
  process.stdin.on("end", () => {
    void server.close();
  });
  server.connect(transport).catch((error: unknown) => {
    process.stderr.write(`docket: docket.internal: the MCP server could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
