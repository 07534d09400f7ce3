// Chooses the lister: Git when the root is inside a work tree (its ignore rules are the truth),
// the .gitignore-honouring walk otherwise. A Git failure other than "no Git here" falls back to
// the walk and says so, because a plan on a walked list beats no plan.
import type { SnapshotFs } from "./fsAdapter";
import { GitListingFailure, listGitFiles } from "./gitFiles";
import type { Listing } from "./listing";
import { walkFiles } from "./walkFiles";

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
  return withoutDocketState(await listAll(root, fs, lister, maxListed));
}

async function listAll(root: string, fs: SnapshotFs, lister: "auto" | "walk", maxListed: number): Promise<Listing> {
  if (lister === "auto") {
    try {
      return await listGitFiles(root, maxListed);
    } catch (error) {
      if (!(error instanceof GitListingFailure)) throw error;
      const walked = await walkFiles(root, fs, maxListed);
      if (error.absent) return walked;
      return { ...walked, limits: [...walked.limits, `git: ${error.message}; the folder was walked instead`] };
    }
  }
  return walkFiles(root, fs, maxListed);
}
