// Which commits carry which landings (issue 17). A commit names a landing in a trailer its
// message got from Docket's prepare-commit-msg hook, or in a note under refs/notes/docket that
// `docket link` added to an existing commit; both use the same line:
//   Docket-Landing: <landingId> <eventSha256>
// INTERFACE STUB: the commit-links work replaces the body; the signatures are what the audit and
// the VS Code Work tree build on.

export const LANDING_TRAILER = "Docket-Landing";
export const SCOPE_TRAILER = "Docket-Scope";
export const NOTES_REF = "refs/notes/docket";

export interface LinkedCommit {
  /** Full 40-hex commit id. */
  readonly sha: string;
  /** The commit's subject line. */
  readonly subject: string;
  /** Where the link was found: the commit message's trailer or a refs/notes/docket note. */
  readonly source: "trailer" | "note";
}

export interface CommitsByLandingRequest {
  readonly workspaceFolder: string;
  readonly landingIds: readonly string[];
}

/** For each asked landing id, the commits reachable from HEAD that name it, newest first. */
export async function commitsByLanding(request: CommitsByLandingRequest): Promise<ReadonlyMap<string, readonly LinkedCommit[]>> {
  return new Map(request.landingIds.map((landingId) => [landingId, [] as readonly LinkedCommit[]]));
}
