// How an MCP client starts Docket's server: `<node> <abs dist/docket.js> mcp --workspace DIR
// [--ledger PATH] [--notebook DIR]`. One builder for the VS Code registration and the installers, so every client
// runs the same command line. Pure: the caller supplies paths and the runtime.
import path from "node:path";
import { resolveLedgerPath } from "../workspace/ledgerPaths";

export interface McpLaunchInput {
  /** Absolute path of the bundled CLI (`dist/docket.js` of the installed package). */
  readonly cliPath: string;
  /** The executable that runs it: `node`, or the editor's runtime (`process.execPath`). */
  readonly runtimePath: string;
  readonly workspaceFolder: string | null;
  /** The resolved ledger path; null means the default for the folder. */
  readonly ledgerPath: string | null;
  /** The `docket.notebookPath` setting as the user wrote it; null or empty when none is configured. */
  readonly notebookPath: string | null;
  readonly trusted: boolean;
  /** True when `runtimePath` is an Electron binary that must behave as plain Node. */
  readonly electronRuntime: boolean;
}

export interface McpLaunch {
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
  readonly cwd: string;
}

/**
 * Null when nothing may be registered: no folder (there is no ledger to govern) or an untrusted
 * workspace (the server writes, and Restricted Mode writes nothing).
 */
export function mcpLaunch(input: McpLaunchInput): McpLaunch | null {
  if (input.workspaceFolder === null || !input.trusted) return null;
  const args = [input.cliPath, "mcp", "--workspace", input.workspaceFolder];
  // Only a non-default ledger is passed, so the common command line stays short and stable.
  if (input.ledgerPath !== null && path.resolve(input.ledgerPath) !== resolveLedgerPath(input.workspaceFolder, null)) {
    args.push("--ledger", input.ledgerPath);
  }
  if (input.notebookPath !== null && input.notebookPath.trim() !== "") args.push("--notebook", input.notebookPath);
  return {
    command: input.runtimePath,
    args,
    // VS Code's extension host runs on Electron: without this its binary would start an editor.
    env: input.electronRuntime ? { ELECTRON_RUN_AS_NODE: "1" } : {},
    cwd: input.workspaceFolder,
  };
}
