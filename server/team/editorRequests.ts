// The backend's team requests for the editor (issue 17): the commits carrying the landings a Work
// view row was opened on, one commit's patch, the audit range a newcomer starts from and the audit
// itself. Loaded on the first team request (server/backend/requestModules.ts), so an editor that
// never looks at commits pays nothing at start. The domain answers come from commitLinks.ts and
// audit.ts; this module only shapes them for the protocol.
import type { AuditRangeSuggestion, AuditReport, CommitPatch, LandingCommits, LandingCommitsParams } from "../protocol/messages";
import { RevisionRange } from "../protocol/messages";
import { runAudit } from "./audit";
import { commitsByLanding } from "./commitLinks";
import { commitPatch, suggestAuditBase } from "./editorGit";

/** The most commits one landing lists (the protocol's bound); a landing carried by more is cut, newest kept. */
const COMMITS_PER_LANDING = 1000;
const SUBJECT_MAX = 1000;

export async function landingCommits(workspaceFolder: string, params: LandingCommitsParams): Promise<LandingCommits> {
  const landingIds = [...new Set(params.landingIds)];
  const found = await commitsByLanding({ workspaceFolder, landingIds });
  return {
    landings: landingIds.map((landingId) => ({
      landingId,
      commits: (found.get(landingId) ?? []).slice(0, COMMITS_PER_LANDING).map((commit) => ({
        sha: commit.sha,
        subject: commit.subject.slice(0, SUBJECT_MAX),
        source: commit.source,
      })),
    })),
  };
}

export async function showCommit(workspaceFolder: string, sha: string): Promise<CommitPatch> {
  const patch = await commitPatch(workspaceFolder, sha);
  return { sha, text: patch.text, truncated: patch.truncated };
}

export function auditRange(workspaceFolder: string): Promise<AuditRangeSuggestion> {
  return suggestAuditBase(workspaceFolder, (range) => RevisionRange.safeParse(range).success);
}

export async function audit(workspaceFolder: string, ledgerPath: string, range: string): Promise<AuditReport> {
  const run = await runAudit({ workspaceFolder, ledgerPath, range });
  return { range, markdown: run.markdown, commits: run.commits };
}
