// Where a Docket workspace sits in its Git repository. Landings record workspace-relative POSIX
// paths; Git names paths relative to the repository's top level. A workspace that is a subfolder
// of the repository sees only the paths under it, with that prefix taken off.
import fs from "node:fs";
import path from "node:path";
import { DocketError } from "../errors";
import { ErrorCodes } from "../protocol/errorCodes";
import { git, GitCommandError } from "./gitCommand";

export interface RepoLayout {
  /** Real path of the repository's top level. */
  readonly toplevel: string;
  /** The workspace's real path, relative to the top level, POSIX ("" when they are the same). */
  readonly workspacePrefix: string;
}

function realPath(folder: string): string {
  try {
    return fs.realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}

/** Throws docket.git-unavailable when `cwd` is not in a Git work tree, or the workspace is not inside it. */
export async function repoLayout(cwd: string, workspaceFolder: string, hookEnvironment = false): Promise<RepoLayout> {
  let toplevel: string;
  try {
    toplevel = (await git(cwd, ["rev-parse", "--show-toplevel"], { hookEnvironment })).stdout.replace(/\n$/u, "");
  } catch (error) {
    throw new DocketError(ErrorCodes.gitUnavailable, error instanceof GitCommandError ? error.message : String(error));
  }
  if (toplevel === "") throw new DocketError(ErrorCodes.gitUnavailable, `${cwd} is not inside a Git work tree.`);
  const top = realPath(toplevel);
  const relative = path.relative(top, realPath(workspaceFolder));
  if (relative.startsWith("..") || path.isAbsolute(relative)) {
    throw new DocketError(ErrorCodes.gitUnavailable, `The workspace ${workspaceFolder} is not inside the Git repository ${top}.`);
  }
  return { toplevel: top, workspacePrefix: relative.split(path.sep).join("/") };
}

/**
 * A repository path as the workspace names it, or null when it lies outside the workspace (or is
 * not a plain relative path: Git never prints `..` or absolute paths, and none is ever matched).
 */
export function toWorkspacePath(layout: RepoLayout, repoPath: string): string | null {
  if (repoPath === "" || repoPath.startsWith("/") || repoPath.split("/").some((segment) => segment === ".." || segment === "." || segment === "")) return null;
  if (layout.workspacePrefix === "") return repoPath;
  const prefix = `${layout.workspacePrefix}/`;
  return repoPath.startsWith(prefix) ? repoPath.slice(prefix.length) : null;
}

/** The workspace paths among NUL-separated repository paths (`-z` output), sorted and unique. */
export function workspacePathsOf(layout: RepoLayout, nulSeparated: string): string[] {
  const paths = new Set<string>();
  for (const entry of nulSeparated.split("\0")) {
    const mapped = toWorkspacePath(layout, entry);
    if (mapped !== null) paths.add(mapped);
  }
  return [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
