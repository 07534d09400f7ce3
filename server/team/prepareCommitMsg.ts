// Docket's prepare-commit-msg hook (issue 17): names, in the message of the commit being made, the
// open scope's accepted landings whose recorded paths the commit contains. Git writes the
// trailers (`git interpret-trailers`, so comments, a scissors line and existing trailers are
// handled as Git handles them); Docket only ever passes ids and hashes it validated.
//
// It never breaks a commit: every failure leaves the message file byte for byte as it was and is
// reported as one line (the CLI exits 0). Nothing is added for a merge (its paths arrived with
// commits that carry their own links), when Docket is off, when no landing matches, or to a
// message still to be written in the editor (Git must still abort a commit left unedited).
import fs from "node:fs";
import path from "node:path";
import { git } from "./gitCommand";
import { carriedPaths } from "./carriedPaths";
import { openScopeLandings, type OpenScopeLandings } from "./landingCatalog";
import { LANDING_KEY, linkLines, matchingLandings, parseLinkLines, SCOPE_KEY } from "./linkLines";
import { DocketError } from "../errors";
import { ErrorCodes } from "../protocol/errorCodes";
import { repoLayout, workspacePathsOf, type RepoLayout } from "./repoLayout";

export interface PrepareRequest {
  /** The folder Git started the hook in (the repository's top level). */
  readonly cwd: string;
  readonly workspaceFolder: string;
  readonly ledgerPath: string;
  /** Git's arguments: the message file, the message's source and (for `commit`) its object id. */
  readonly messageFile: string;
  readonly source: string | undefined;
}

export interface PrepareOutcome {
  /** The trailer lines this run added (empty when it added none). */
  readonly added: readonly string[];
  /** Why nothing was added, or "linked". */
  readonly reason: "linked" | "merge" | "elsewhere" | "off" | "no-landing" | "no-match" | "editor" | "already-carried" | "already-linked" | "blocked";
  readonly landingSource: OpenScopeLandings["source"] | null;
  readonly blockedReason?: string;
}

async function mergeInProgress(cwd: string, source: string | undefined): Promise<boolean> {
  if (source === "merge") return true;
  const probe = await git(cwd, ["rev-parse", "-q", "--verify", "MERGE_HEAD"], { hookEnvironment: true, acceptedExitCodes: [1] });
  return probe.exitCode === 0;
}

async function stagedPaths(cwd: string): Promise<string> {
  // --no-renames: a rename is its two paths (a landing records both); --no-relative: top-level paths whatever diff.relative says.
  return (await git(cwd, ["diff", "--cached", "--name-only", "-z", "--no-renames", "--no-relative", "--no-ext-diff"], { hookEnvironment: true })).stdout;
}

/** Trailers exactly as Git reads them from the message (comments and scissors left out). */
async function messageTrailers(cwd: string, messageFile: string): Promise<string> {
  return (await git(cwd, ["-c", "trailer.separators=:", "interpret-trailers", "--parse", "--no-divider", messageFile], { hookEnvironment: true })).stdout;
}

const SCISSORS = "------------------------ >8 ------------------------";

/** Whether the message has no text but comments (and a `-v` diff below the scissors line), as Git's cleanup reads it. */
async function messageIsEmpty(cwd: string, messageFile: string): Promise<boolean> {
  const text = fs.readFileSync(messageFile, "utf8");
  const lines = text.split("\n");
  const cut = lines.findIndex((line) => line.slice(1).trim() === SCISSORS || line.trim() === SCISSORS);
  const kept = (cut < 0 ? lines : lines.slice(0, cut)).join("\n");
  const stripped = await git(cwd, ["stripspace", "--strip-comments"], { hookEnvironment: true, input: kept });
  return stripped.stdout.trim() === "";
}

export async function prepareCommitMessage(request: PrepareRequest): Promise<PrepareOutcome> {
  const messageFile = path.resolve(request.cwd, request.messageFile);
  // Three independent questions to Git at once: a commit waits on this hook.
  const [merging, located, stagedOutput] = await Promise.allSettled([
    mergeInProgress(request.cwd, request.source),
    repoLayout(request.cwd, request.workspaceFolder, true),
    stagedPaths(request.cwd),
  ]);
  if (merging.status === "rejected") throw merging.reason;
  if (merging.value) return { added: [], reason: "merge", landingSource: null };
  // Linked worktrees share one hooks folder: a commit in a work tree that does not hold the
  // connected workspace is none of this workspace's business (and no warning).
  if (located.status === "rejected") {
    const error: unknown = located.reason;
    if (error instanceof DocketError && error.code === ErrorCodes.gitUnavailable && fs.existsSync(request.workspaceFolder)) return { added: [], reason: "elsewhere", landingSource: null };
    throw error;
  }
  if (stagedOutput.status === "rejected") throw stagedOutput.reason;
  const layout: RepoLayout = located.value;
  const open = openScopeLandings(request.workspaceFolder, request.ledgerPath);
  if (open.blockedReason !== null) return { added: [], reason: "blocked", landingSource: open.source, blockedReason: open.blockedReason };
  if (open.workScopeId === null) return { added: [], reason: "off", landingSource: open.source };
  if (open.landings.length === 0) return { added: [], reason: "no-landing", landingSource: open.source };
  const staged = workspacePathsOf(layout, stagedOutput.value);
  const candidates = matchingLandings(open.landings, staged);
  if (candidates.length === 0) return { added: [], reason: "no-match", landingSource: open.source };
  // A landed path an earlier commit already carried for its landing (a later edit of the same file) claims nothing.
  const matched = matchingLandings(candidates, staged, await carriedPaths(request.cwd, layout, candidates));
  if (matched.length === 0) return { added: [], reason: "already-carried", landingSource: open.source };

  // A message still to be written in the editor (empty, or a commit.template) must stay one Git
  // aborts when left unedited: trailers would turn an abandoned commit into a real one.
  if (request.source === "template" || (await messageIsEmpty(request.cwd, messageFile))) return { added: [], reason: "editor", landingSource: open.source };

  const wanted = linkLines(matched);
  const present = parseLinkLines(await messageTrailers(request.cwd, messageFile));
  const presentLines = new Set([
    ...present.landings.map((claim) => `${LANDING_KEY}: ${claim.landingId} ${claim.eventSha256}`),
    ...present.scopes.map((scope) => `${SCOPE_KEY}: ${scope}`),
  ]);
  const missing = wanted.filter((line) => !presentLines.has(line));
  if (missing.length === 0) return { added: [], reason: "already-linked", landingSource: open.source };

  const original = fs.readFileSync(messageFile);
  try {
    const args = ["-c", "trailer.separators=:", "interpret-trailers", "--in-place", "--no-divider", "--where", "end", "--if-exists", "addIfDifferent", "--if-missing", "add"];
    for (const line of missing) args.push("--trailer", line);
    args.push(messageFile);
    await git(request.cwd, args, { hookEnvironment: true });
    // Git's reading of the result must hold every line asked for; anything else is put back.
    const after = parseLinkLines(await messageTrailers(request.cwd, messageFile));
    const afterLines = new Set([
      ...after.landings.map((claim) => `${LANDING_KEY}: ${claim.landingId} ${claim.eventSha256}`),
      ...after.scopes.map((scope) => `${SCOPE_KEY}: ${scope}`),
    ]);
    if (!wanted.every((line) => afterLines.has(line))) throw new Error("Git did not read the added trailers back");
  } catch (error) {
    fs.writeFileSync(messageFile, original);
    throw error;
  }
  return { added: missing, reason: "linked", landingSource: open.source };
}
