// Announces Docket's MCP server (`dist/docket.js mcp`) to VS Code, so Copilot agent mode sees the
// Docket tools with no configuration. The definition follows the window: the first folder, its
// resolved ledger, the configured notebook and workspace trust; it is re-announced whenever one of
// those changes, and nothing is announced without a folder or in an untrusted workspace (the
// server writes).
import * as vscode from "vscode";
import { mcpLaunch, type McpLaunch } from "../server/mcp/launch";
import { backendInitOptions, notebookPathSetting, onDidChangeBackendInputs } from "./config";

/** Must equal `contributes.mcpServerDefinitionProviders[].id` in package.json. */
export const MCP_PROVIDER_ID = "docket.mcp";

function currentLaunch(context: vscode.ExtensionContext): McpLaunch | null {
  const options = backendInitOptions();
  return mcpLaunch({
    cliPath: vscode.Uri.joinPath(context.extensionUri, "dist", "docket.js").fsPath,
    // The editor's own runtime: on desktop that is Electron, told to act as Node by the env below.
    runtimePath: process.execPath,
    workspaceFolder: options.workspaceFolder,
    ledgerPath: options.ledgerPath,
    notebookPath: notebookPathSetting(),
    trusted: options.trusted,
    electronRuntime: process.versions.electron !== undefined,
  });
}

function definitionOf(context: vscode.ExtensionContext, launch: McpLaunch): vscode.McpStdioServerDefinition {
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? "0.0.0");
  const definition = new vscode.McpStdioServerDefinition(vscode.l10n.t("Docket"), launch.command, launch.args, launch.env, version);
  definition.cwd = vscode.Uri.file(launch.cwd);
  return definition;
}

export function registerMcpServer(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): vscode.Disposable {
  // Hosts older than the finalized API (or without chat) simply do not get the server.
  if (typeof vscode.lm?.registerMcpServerDefinitionProvider !== "function" || typeof vscode.McpStdioServerDefinition !== "function") {
    log.info("this editor has no MCP server definition API: Docket's MCP server is not registered");
    return new vscode.Disposable(() => undefined);
  }
  const changed = new vscode.EventEmitter<void>();
  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      const launch = currentLaunch(context);
      return launch === null ? [] : [definitionOf(context, launch)];
    },
    // Checked again right before the start: trust or the folder may have changed since.
    resolveMcpServerDefinition: (server) => (currentLaunch(context) === null ? undefined : server),
  };
  return vscode.Disposable.from(
    changed,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
    onDidChangeBackendInputs(() => changed.fire()),
    // The notebook the agent's proposals default to is part of the command line.
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("docket.notebookPath")) changed.fire();
    }),
  );
}
