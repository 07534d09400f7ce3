// The workspace's `.docket/` folder. Docket's local state there (baselines, captured evidence,
// checkpoints, provenance, hook heartbeats, locks) must never end up in a commit by accident —
// captured tool output can be sensitive even after redaction — so the folder carries its own
// .gitignore. The ledger is left trackable: committing it shares the audit trail, by choice.
import fs from "node:fs";
import path from "node:path";

export const DOCKET_FOLDER = ".docket";

const GITIGNORE = `# Docket's local state (baselines, captured evidence, checkpoints, provenance, locks).
# The ledger is not ignored: commit it if you want to share the audit trail.
*
!.gitignore
!ledger.jsonl
`;

/** Creates `<workspace>/.docket/` with its .gitignore; an existing .gitignore is never replaced. */
export function ensureDocketFolder(workspaceFolder: string): string {
  const folder = path.join(workspaceFolder, DOCKET_FOLDER);
  fs.mkdirSync(folder, { recursive: true });
  try {
    fs.writeFileSync(path.join(folder, ".gitignore"), GITIGNORE, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return folder;
}
