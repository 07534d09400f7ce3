// Chooses the lister: Git when the root is inside a work tree (its ignore rules are the truth),
// the .gitignore-honouring walk otherwise. A Git failure other than "no Git here" falls back to
// the walk and says so, because a plan on a walked list beats no plan.
import type { SnapshotFs } from "./fsAdapter";
import { GitListingFailure, listGitFiles, type GitListing } from "./gitFiles";
import type { Listing } from "./listing";
import { walkFiles, type WalkTrace } from "./walkFiles";

/**
 * Docket's own state folder is not part of the project: turning Docket on, or recording a review
 * report, must not change the snapshot a plan (and its review basis) is computed from.
 */
const DOCKET_STATE = ".docket/";

function withoutDocketState(listing: Listing): Listing {
  return {
    ...listing,
    files: listing.files.filter((file) => !file.startsWith(DOCKET_STATE)),
    skipped: listing.skipped.filter((entry) => !entry.path.startsWith(DOCKET_STATE)),
  };
}

export async function listFiles(root: string, fs: SnapshotFs, lister: "auto" | "walk", maxListed: number): Promise<Listing> {
  return (await listTraced(root, fs, lister, maxListed)).listing;
}

/**
 * The listing with how it was made: the Git listing itself (for the Router index's watch), or
 * the walk's trace and whether Git was asked first and said "no repository here".
 */
export type TracedListing =
  | { readonly listing: Listing; readonly how: "git"; readonly git: GitListing }
  | { readonly listing: Listing; readonly how: "walk"; readonly trace: WalkTrace; readonly gitAbsent: boolean; readonly gitFailed: boolean };

export async function listTraced(root: string, fs: SnapshotFs, lister: "auto" | "walk", maxListed: number): Promise<TracedListing> {
  const trace: WalkTrace = { entered: [], ignoreFiles: [] };
  if (lister === "auto") {
    try {
      const git = await listGitFiles(root, maxListed);
      return { listing: withoutDocketState(git), how: "git", git };
    } catch (error) {
      if (!(error instanceof GitListingFailure)) throw error;
      const walked = await walkFiles(root, fs, maxListed, trace);
      if (error.absent) return { listing: withoutDocketState(walked), how: "walk", trace, gitAbsent: true, gitFailed: false };
      const limits = [...walked.limits, `git: ${error.message}; the folder was walked instead`];
      return { listing: withoutDocketState({ ...walked, limits }), how: "walk", trace, gitAbsent: false, gitFailed: true };
    }
  }
  return { listing: withoutDocketState(await walkFiles(root, fs, maxListed, trace)), how: "walk", trace, gitAbsent: false, gitFailed: false };
}
