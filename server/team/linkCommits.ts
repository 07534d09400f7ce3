// `docket link` (issue 17): links existing commits to the landings whose recorded paths they
// changed, through a note under refs/notes/docket (the commit itself is never rewritten). Same
// matching rule as the prepare-commit-msg hook, over every accepted landing of the ledger: a
// landing is claimed for a path it recorded that no other commit reachable from HEAD already
// carries for it (carriedPaths.ts), so a later hand edit of a landed file is not passed off as
// the landing, while a landing split over two commits links both. Idempotent: a commit whose
// note is already the text Docket would write is left alone, and a different note is never
// overwritten.
import { DocketError } from "../errors";
import { ErrorCodes } from "../protocol/errorCodes";
import { addCarried, carriedPaths, commitPaths } from "./carriedPaths";
import { NOTES_REF, readCommitLinks } from "./commitLinks";
import { git, GitCommandError, isObjectId } from "./gitCommand";
import { allLandings } from "./landingCatalog";
import { landingValue, matchingLandings, noteText, type LandingRecord } from "./linkLines";
import { repoLayout } from "./repoLayout";

export type LinkAction = "noted" | "would-note" | "already-noted" | "note-differs" | "has-trailers" | "merge" | "no-match";

export interface LinkedCommitResult {
  readonly sha: string;
  readonly subject: string;
  readonly action: LinkAction;
  /** `<landingId> <eventSha256>` of each landing the note names (or would name). */
  readonly landings: readonly string[];
}

export interface LinkRequest {
  readonly workspaceFolder: string;
  readonly ledgerPath: string;
  /** Commits or ranges as the person typed them; none = HEAD. */
  readonly revisions: readonly string[];
  readonly dryRun: boolean;
}

/** A revision argument Docket passes to Git: no option, no control character, no pathspec separator. */
export function checkedRevision(text: string): string {
  if (text === "" || text.startsWith("-") || /[\0-\x1f\x7f]/u.test(text) || text.length > 1024) {
    throw new DocketError(ErrorCodes.gitRevisionInvalid, `${JSON.stringify(text)} is not a revision Docket will pass to Git (it may not be empty, start with "-" or hold control characters).`);
  }
  return text;
}

async function gitOrRefuse(cwd: string, args: readonly string[], input?: string): Promise<string> {
  try {
    return (await git(cwd, args, input === undefined ? {} : { input })).stdout;
  } catch (error) {
    if (error instanceof GitCommandError) throw new DocketError(ErrorCodes.gitRevisionInvalid, error.message);
    throw error;
  }
}

/** The commits the arguments name, oldest first: a range walks, a single commit is itself. */
async function targetCommits(cwd: string, revisions: readonly string[]): Promise<string[]> {
  const asked = revisions.length === 0 ? ["HEAD"] : revisions.map(checkedRevision);
  const shas: string[] = [];
  for (const revision of asked) {
    const range = revision.includes("..") || revision.startsWith("^") || revision.endsWith("^@") || revision.endsWith("^!");
    const listed = range
      ? await gitOrRefuse(cwd, ["rev-list", "--reverse", "--end-of-options", revision, "--"])
      : await gitOrRefuse(cwd, ["rev-parse", "--verify", "--end-of-options", `${revision}^{commit}`]);
    for (const sha of listed.split("\n")) if (isObjectId(sha) && !shas.includes(sha)) shas.push(sha);
  }
  return shas;
}

export async function linkCommits(request: LinkRequest): Promise<LinkedCommitResult[]> {
  const cwd = request.workspaceFolder;
  const layout = await repoLayout(cwd, request.workspaceFolder);
  const targets = await targetCommits(cwd, request.revisions);
  const landings: LandingRecord[] = allLandings(request.workspaceFolder, request.ledgerPath);
  const carried = await carriedPaths(cwd, layout, landings);
  const own = new Map((await readCommitLinks(cwd, targets, "no-walk")).map((commit) => [commit.sha, commit]));
  const results: LinkedCommitResult[] = [];
  for (const sha of targets) {
    const commit = own.get(sha);
    if (commit === undefined) continue;
    const base = { sha, subject: commit.subject };
    if (commit.parents > 1) {
      results.push({ ...base, action: "merge", landings: [] });
      continue;
    }
    if (commit.trailers.landings.length > 0) {
      results.push({ ...base, action: "has-trailers", landings: commit.trailers.landings.map(landingValue) });
      continue;
    }
    const changed = await commitPaths(cwd, layout, sha);
    const matched = matchingLandings(landings, changed, carried, sha);
    const values = matched.map(landingValue);
    if (matched.length === 0) {
      results.push({ ...base, action: "no-match", landings: [] });
      continue;
    }
    const text = noteText(matched);
    if (commit.noteText !== null) {
      results.push({ ...base, action: commit.noteText === text ? "already-noted" : "note-differs", landings: values });
      continue;
    }
    // Without -f: Git refuses if a note appeared meanwhile, so nothing is ever overwritten.
    if (!request.dryRun) await gitOrRefuse(cwd, ["notes", `--ref=${NOTES_REF}`, "add", "-F", "-", sha], text);
    // A dry run claims as the real run would, so it predicts the same notes.
    addCarried(carried, sha, matched, changed);
    results.push({ ...base, action: request.dryRun ? "would-note" : "noted", landings: values });
  }
  return results;
}
