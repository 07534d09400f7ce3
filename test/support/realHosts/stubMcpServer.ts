// A tiny third-party MCP server for the real-host tests: one tool, `write_marker`, that writes a
// file into the folder given on the command line. It stands for any MCP tool that changes the
// disk (a database migration, a deploy, a file writer): if the host runs it while Docket says the
// work is not authorized, the file appears. Run as `node stubMcpServer.js <folder>`.
import fs from "node:fs";
import path from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

export const STUB_MCP_TOOL = "write_marker";

const Arguments = z.object({ name: z.string().regex(/^[\w.-]{1,64}$/u, "a plain file name") }).strict();

function main(): void {
  const folder = process.argv[2];
  if (folder === undefined || !path.isAbsolute(folder)) {
    process.stderr.write("usage: stubMcpServer.js <absolute folder>\n");
    process.exit(2);
  }
  const server = new Server({ name: "stub-writer", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: STUB_MCP_TOOL,
        description: "Writes a marker file with the given name into the project folder.",
        inputSchema: { type: "object", properties: { name: { type: "string", description: "File name" } }, required: ["name"], additionalProperties: false },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request): CallToolResult => {
    if (request.params.name !== STUB_MCP_TOOL) return { isError: true, content: [{ type: "text", text: `unknown tool ${request.params.name}` }] };
    const parsed = Arguments.safeParse(request.params.arguments ?? {});
    if (!parsed.success) return { isError: true, content: [{ type: "text", text: `invalid arguments: ${parsed.error.message}` }] };
    const target = path.join(folder, parsed.data.name);
    fs.writeFileSync(target, "written by the stub MCP server\n");
    return { content: [{ type: "text", text: `wrote ${target}` }] };
  });
  void server.connect(new StdioServerTransport());
}

if (require.main === module) main();
