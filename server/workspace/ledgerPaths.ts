// Where a workspace's ledger lives. The extension, the backend, the CLI and (later) hooks and
// the MCP server all use these rules, so every writer appends to the same file.
import fs from "node:fs";
import path from "node:path";

export const DEFAULT_LEDGER_RELATIVE_PATH = path.join(".docket", "ledger.jsonl");

/** Resolves the `docket.ledgerPath` setting: empty → default; relative → under the folder. */
export function resolveLedgerPath(workspaceFolder: string, setting: string | null | undefined): string {
  const value = (setting ?? "").trim();
  if (value === "") return path.join(workspaceFolder, DEFAULT_LEDGER_RELATIVE_PATH);
  return path.isAbsolute(value) ? path.normalize(value) : path.resolve(workspaceFolder, value);
}

/** The Git work-tree root above `start`, or `start` itself when there is none. */
export function findWorkspaceRoot(start: string): string {
  const absolute = path.resolve(start);
  let current = absolute;
  for (;;) {
    if (fs.existsSync(path.join(current, ".git"))) return current;
    const parent = path.dirname(current);
    if (parent === current) return absolute;
    current = parent;
  }
}
