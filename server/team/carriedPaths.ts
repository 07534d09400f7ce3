// Which of a landing's paths commits reachable from HEAD already carry (issue 17): for each commit
// that claims one of the landings (a trailer or a note), the landing's paths that commit changed.
// The hook and `docket link` use it so a landing split over two commits is claimed by both, while
// a later change of a path a landing recorded (a hand edit after the landing) is not passed off
// as that landing.
import { linkedCommits } from "./commitLinks";
import { git } from "./gitCommand";
import type { CarriedPaths, LandingRecord } from "./linkLines";
import { workspacePathsOf, type RepoLayout } from "./repoLayout";

/** The workspace paths a commit changed against its first parent (none for a merge: its links are its parents'). */
export async function commitPaths(cwd: string, layout: RepoLayout, sha: string): Promise<string[]> {
  const out = await git(cwd, ["diff-tree", "-r", "--root", "--no-commit-id", "--name-only", "-z", "--no-renames", "--no-relative", "--no-ext-diff", sha]);
  return workspacePathsOf(layout, out.stdout);
}

export async function carriedPaths(cwd: string, layout: RepoLayout, landings: readonly LandingRecord[]): Promise<CarriedPaths> {
  const byId = new Map(landings.map((landing) => [landing.landingId, landing]));
  const carried = new Map<string, Map<string, Set<string>>>();
  for (const commit of await linkedCommits(cwd, [...byId.keys()])) {
    const claimed = [...commit.trailers.landings, ...(commit.note?.landings ?? [])].map((claim) => byId.get(claim.landingId)).filter((landing) => landing !== undefined);
    if (claimed.length === 0) continue;
    const changed = new Set(await commitPaths(cwd, layout, commit.sha));
    for (const landing of claimed) {
      for (const entry of landing.changedPaths) {
        if (!changed.has(entry)) continue;
        const paths = carried.get(landing.landingId) ?? new Map<string, Set<string>>();
        const holders = paths.get(entry) ?? new Set<string>();
        holders.add(commit.sha);
        paths.set(entry, holders);
        carried.set(landing.landingId, paths);
      }
    }
  }
  return carried;
}

/** Records that `sha` now carries the matched landings' paths it changed (a run that notes several commits). */
export function addCarried(carried: CarriedPaths, sha: string, landings: readonly LandingRecord[], changed: readonly string[]): void {
  const map = carried as Map<string, Map<string, Set<string>>>;
  const changedSet = new Set(changed);
  for (const landing of landings) {
    for (const entry of landing.changedPaths) {
      if (!changedSet.has(entry)) continue;
      const paths = map.get(landing.landingId) ?? new Map<string, Set<string>>();
      paths.set(entry, new Set([...(paths.get(entry) ?? []), sha]));
      map.set(landing.landingId, paths);
    }
  }
}
