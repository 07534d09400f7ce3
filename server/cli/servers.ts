// `docket serve --stdio` and `docket mcp`: the two long-running servers share one bundle
// (dist/docket-cli-servers.js; most of their code is the same), and each is loaded only when it
// starts: vscode-languageserver starts a parent-process watchdog as soon as it is imported, which
// must not run inside the MCP server.
import type { McpServerOptions } from "../mcp/mcpServer";

export function serveBackend(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require("../backend/server") as typeof import("../backend/server")).serveStdio();
}

export function serveMcp(options: McpServerOptions): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require("../mcp/mcpServer") as typeof import("../mcp/mcpServer")).serveMcpStdio(options);
}
