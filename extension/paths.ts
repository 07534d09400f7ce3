// Pure path helpers (no `vscode` import, so unit tests can load this module).
import * as os from "node:os";
import * as path from "node:path";

/**
 * Resolves the `docket.ledgerPath` setting to an absolute path.
 * "" (the default) gives null: the backend then uses `.docket/ledger.jsonl` in the workspace
 * folder. `~` expands to the home directory; a relative path resolves against the first
 * workspace folder and gives null when there is none.
 */
export function resolveLedgerPath(
  setting: string,
  workspaceFolder: string | null,
  home: string = os.homedir(),
): string | null {
  const value = setting.trim();
  if (value === "") {
    return null;
  }
  let expanded = value;
  if (value === "~" || value.startsWith("~/") || value.startsWith("~\\")) {
    expanded = path.join(home, value.slice(1));
  }
  if (path.isAbsolute(expanded)) {
    return path.normalize(expanded);
  }
  return workspaceFolder === null ? null : path.resolve(workspaceFolder, expanded);
}
