// The workspace's `.docket/` folder. Docket's local state there (baselines, captured evidence,
// checkpoints, provenance, hook heartbeats, locks) must never end up in a commit by accident —
// captured tool output can be sensitive even after redaction — so the folder carries its own
// .gitignore. The ledger is left trackable: committing it shares the audit trail, by choice.
import fs from "node:fs";
import path from "node:path";
import { ensureContainedDirectory, openContained, removeStaleTemporaries } from "./containedFs";
import { processAlive } from "../ledger/lock";

export const DOCKET_FOLDER = ".docket";

const GITIGNORE = `# Docket's local state (baselines, captured evidence, checkpoints, provenance, locks).
# The ledger is not ignored: commit it if you want to share the audit trail.
*
!.gitignore
!ledger.jsonl
`;

/**
 * Creates `<workspace>/.docket/` with its .gitignore; an existing .gitignore is never replaced.
 * A `.docket` (or `.gitignore`) that is a symbolic link is refused: docket.unsafe-path.
 */
export function ensureDocketFolder(workspaceFolder: string): string {
  const folder = path.join(workspaceFolder, DOCKET_FOLDER);
  ensureContainedDirectory(workspaceFolder, folder);
  let fd: number;
  try {
    fd = openContained(workspaceFolder, path.join(folder, ".gitignore"), "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return folder;
    throw error;
  }
  try {
    fs.writeSync(fd, GITIGNORE);
  } finally {
    fs.closeSync(fd);
  }
  return folder;
}

/**
 * Removes temporary files that killed Docket processes left in `.docket/`, `.docket/hooks/` and
 * each `.docket/baselines/<scope>/` (only those whose process is gone). Best effort, never throws.
 */
export function sweepStateTemporaries(workspaceFolder: string): void {
  const folder = path.join(workspaceFolder, DOCKET_FOLDER);
  // Every folder where Docket replaces files by temp + rename: the hooks' checkpoint, the evidence
  // store's recent-handles cache, and the completion guard's mode, session, locator and board files.
  const guard = path.join(folder, "guard");
  const folders = [folder, path.join(folder, "hooks"), path.join(folder, "evidence"), guard, ...["sessions", "reviews", "answers", "boards"].map((name) => path.join(guard, name))];
  try {
    const baselines = path.join(folder, "baselines");
    for (const entry of fs.readdirSync(baselines, { withFileTypes: true })) if (entry.isDirectory()) folders.push(path.join(baselines, entry.name));
  } catch {
    // no baselines yet
  }
  for (const directory of folders) removeStaleTemporaries(workspaceFolder, directory, processAlive);
}
