// Where a workspace's ledger lives. The extension, the backend, the CLI, hooks and the MCP
// server all use these rules, so every writer appends to the same file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const DEFAULT_LEDGER_RELATIVE_PATH = path.join(".docket", "ledger.jsonl");

/**
 * Resolves the `docket.ledgerPath` setting: empty → `.docket/ledger.jsonl` in the folder;
 * `~` → the home directory; relative → under the folder; absolute → as is.
 */
export function resolveLedgerPath(workspaceFolder: string, setting: string | null | undefined, home: string = os.homedir()): string {
  const value = (setting ?? "").trim();
  if (value === "") return path.join(workspaceFolder, DEFAULT_LEDGER_RELATIVE_PATH);
  const expanded = value === "~" || value.startsWith("~/") || value.startsWith("~\\") ? path.join(home, value.slice(1)) : value;
  return path.isAbsolute(expanded) ? path.normalize(expanded) : path.resolve(workspaceFolder, expanded);
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

/**
 * The folder a ledger's writes must stay inside (server/workspace/containedFs.ts): the workspace
 * when the ledger lies in it, else the folder above the ledger's own folder (a ledger named on the
 * command line), so the ledger's folder itself is never a link Docket writes through.
 */
export function containmentRootFor(workspaceFolder: string, ledgerPath: string): string {
  const ledger = path.resolve(ledgerPath);
  if (workspaceFolder !== "" && isInsideFolder(workspaceFolder, ledger)) return path.resolve(workspaceFolder);
  return path.dirname(path.dirname(ledger));
}

/** True when `target` lies strictly below `folder` (lexically; links are checked at write time). */
export function isInsideFolder(folder: string, target: string): boolean {
  const relative = path.relative(path.resolve(folder), path.resolve(target));
  return relative !== "" && relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
