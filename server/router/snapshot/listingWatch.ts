// What the Router index watches to know, without running Git or walking the tree again, that a
// file listing is still the one it recorded. A listing changes only when one of its inputs does:
//
// - Git's index (which files are tracked) — its own stamp; `git add`, a commit or a checkout
//   rewrites it;
// - every folder Git looks into for untracked files — a folder's mtime changes whenever an entry
//   is created, removed or renamed in it, which covers new, deleted and renamed files, new
//   folders and new `.gitignore` files;
// - the ignore rules — each `.gitignore` in those folders and their ancestors up to the work
//   tree's top, `info/exclude`, the `core.excludesFile` (or its default), and the Git config
//   files that could set it (with an environment fingerprint for the variables that move them);
// - the repository layout — the `.git` entry at the top, and the absence of one below it.
//
// Which folders Git looks into is found by walking from the root: every folder that holds a
// listed file (or lies above one) is entered; any other folder is asked about with
// `git check-ignore` and entered unless it is ignored (Git never looks inside an ignored folder,
// and no rule can re-include a file below one). Untracked nested repositories are watched but
// not entered. Whatever this cannot name soundly (non-UTF-8 names, config `include`s, a
// listing that hit its cap or fell back from Git) makes the watch unsound: such an index is
// re-listed on every use, never trusted.
import fs from "node:fs";
import path from "node:path";
import { sha256Hex } from "../../ledger/canonicalJson";
import { runGit, splitNames, type GitListing } from "./gitFiles";
import { ABSENT, stampOf, type Stamp } from "./stamp";
import { decodeUtf8 } from "./utf8";

/** `inside`: root-relative POSIX paths ("" is the root); `outside`: absolute paths (Git's files, config). */
export interface ListingWatch {
  readonly sound: boolean;
  readonly inside: ReadonlyArray<readonly [string, Stamp]>;
  readonly outside: ReadonlyArray<readonly [string, Stamp]>;
}

export const UNSOUND_WATCH: ListingWatch = { sound: false, inside: [], outside: [] };

/** check-ignore rounds (one per depth of folders holding no listed file) before giving up. */
const MAX_IGNORE_ROUNDS = 16;
/** Folders watched before the watch is given up (its stat pass would cost more than a listing). */
const MAX_WATCHED_FOLDERS = 200_000;

/** Environment variables that change which config and ignore files Git reads. */
const GIT_ENVIRONMENT = /^(?:HOME|XDG_CONFIG_HOME|GIT_CONFIG.*|GIT_CEILING_DIRECTORIES|GIT_DISCOVERY_ACROSS_FILESYSTEM)$/u;

/** A fingerprint of the environment Git's listing depends on (the variables above, sorted). */
export function gitEnvironmentFingerprint(env: NodeJS.ProcessEnv = process.env): string {
  const pairs = Object.keys(env)
    .filter((name) => GIT_ENVIRONMENT.test(name))
    .sort()
    .map((name) => `${name}=${env[name] ?? ""}`);
  return sha256Hex(Buffer.from(pairs.join("\u0000"), "utf8"));
}

function join(base: string, name: string): string {
  return base === "" ? name : `${base}/${name}`;
}

function absoluteOf(root: string, relative: string): string {
  if (relative === "") return root;
  // Concatenated, not path.join: this runs for every watched folder and read file of a warm plan.
  return path.sep === "/" ? `${root}/${relative}` : path.join(root, ...relative.split("/"));
}

function ancestorsOf(file: string, into: Set<string>): void {
  for (let slash = file.lastIndexOf("/"); slash > 0; slash = file.lastIndexOf("/", slash - 1)) {
    const folder = file.slice(0, slash);
    if (into.has(folder)) return;
    into.add(folder);
  }
}

interface GitLayout {
  readonly sound: boolean;
  readonly outside: Array<readonly [string, Stamp]>;
  readonly inside: Array<readonly [string, Stamp]>;
}

function homeConfigPaths(env: NodeJS.ProcessEnv): string[] {
  const paths: string[] = [];
  const home = env.HOME;
  const xdg = env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== "" ? env.XDG_CONFIG_HOME : home !== undefined ? path.join(home, ".config") : undefined;
  if (home !== undefined) paths.push(path.join(home, ".gitconfig"));
  if (xdg !== undefined) paths.push(path.join(xdg, "git", "config"));
  paths.push("/etc/gitconfig");
  return paths;
}

function defaultExcludesFile(env: NodeJS.ProcessEnv): string | null {
  if (env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== "") return path.join(env.XDG_CONFIG_HOME, "git", "ignore");
  return env.HOME !== undefined ? path.join(env.HOME, ".config", "git", "ignore") : null;
}

/** The Git files outside the listing's folders that decide it: index, excludes, config, layout. */
async function gitLayout(root: string, racyFrom: bigint | null): Promise<GitLayout> {
  const outside: Array<readonly [string, Stamp]> = [];
  const inside: Array<readonly [string, Stamp]> = [];
  const revParse = (await runGit(root, ["rev-parse", "--show-toplevel", "--git-path", "index", "--git-path", "info/exclude", "--git-path", "config.worktree"]))
    .toString("utf8")
    .split("\n");
  const [toplevelRaw, indexFile, excludeFile, worktreeConfig] = revParse;
  if (toplevelRaw === undefined || indexFile === undefined || excludeFile === undefined || worktreeConfig === undefined || toplevelRaw === "") {
    return { sound: false, outside, inside };
  }
  const toplevel = fs.realpathSync(toplevelRaw);
  const relativeRoot = path.relative(toplevel, root);
  if (relativeRoot.startsWith("..") || path.isAbsolute(relativeRoot)) return { sound: false, outside, inside };

  let sound = true;
  const files = new Set<string>([path.resolve(root, indexFile), path.resolve(root, excludeFile), path.resolve(root, worktreeConfig)]);
  const config = splitNames(await runGit(root, ["config", "--list", "--show-origin", "-z"]));
  let excludesFile: string | null = defaultExcludesFile(process.env);
  for (let index = 0; index + 1 < config.length; index += 2) {
    const origin = (config[index] as Buffer).toString("utf8");
    const entry = (config[index + 1] as Buffer).toString("utf8");
    const newline = entry.indexOf("\n");
    const key = (newline === -1 ? entry : entry.slice(0, newline)).toLowerCase();
    const value = newline === -1 ? "" : entry.slice(newline + 1);
    if (origin.startsWith("file:")) files.add(path.resolve(root, origin.slice("file:".length)));
    else if (!origin.startsWith("command line:")) sound = false; // a blob or stdin config cannot be stamped
    // An include can name a file that does not exist yet; its creation would not be seen.
    if (key.startsWith("include.") || key.startsWith("includeif.")) sound = false;
    if (key === "core.excludesfile") {
      if (value.startsWith("~/")) excludesFile = process.env.HOME === undefined ? null : path.join(process.env.HOME, value.slice(2));
      else excludesFile = value === "" ? null : path.resolve(root, value);
      if (value.startsWith("~") && !value.startsWith("~/")) sound = false; // ~user: not resolved here
    }
  }
  for (const file of homeConfigPaths(process.env)) files.add(file);
  if (excludesFile !== null) files.add(excludesFile);
  // The `.git` entry at the top; none in between (a new one would make the root another repository).
  files.add(path.join(toplevel, ".git"));
  for (const file of [...files].sort()) {
    const relative = path.relative(root, file);
    if (!relative.startsWith("..") && !path.isAbsolute(relative) && relative !== "") inside.push([relative.split(path.sep).join("/"), stampOf(file, racyFrom)]);
    else outside.push([file, stampOf(file, racyFrom)]);
  }
  // Ignore files of the folders above the root, up to the top (their rules apply to the root).
  for (let folder = toplevel; ; ) {
    const between = path.relative(folder, root);
    if (between === "") break;
    outside.push([path.join(folder, ".gitignore"), stampOf(path.join(folder, ".gitignore"), racyFrom)]);
    const next = path.join(folder, between.split(path.sep)[0] as string);
    outside.push([path.join(next, ".git"), stampOf(path.join(next, ".git"), racyFrom)]);
    folder = next;
  }
  return { sound, outside, inside };
}

/** Of `candidates` (root-relative folders), those Git ignores. */
async function ignoredFolders(root: string, candidates: readonly string[]): Promise<Set<string>> {
  if (candidates.length === 0) return new Set();
  const input = Buffer.from(`${candidates.join("\u0000")}\u0000`, "utf8");
  const output = await runGit(root, ["check-ignore", "-z", "--stdin"], input, [1]);
  return new Set(splitNames(output).map((name) => decodeUtf8(name) ?? ""));
}

/**
 * The watch of a Git listing. `racyFrom` is the file-system time Docket saw before listing
 * (server/router/snapshot/stamp.ts); the walk stamps each folder before reading it.
 */
export async function watchGitListing(root: string, listing: GitListing, racyFrom: bigint | null): Promise<ListingWatch> {
  if (listing.undecodable || listing.limits.length > 0) return UNSOUND_WATCH;
  const layout = await gitLayout(root, racyFrom);
  if (!layout.sound) return UNSOUND_WATCH;
  const holding = new Set<string>();
  for (const file of listing.files) ancestorsOf(file, holding);
  // Untracked nested repositories: Git does not look inside, so they are watched (a removed
  // `.git` changes them) but not entered. A listed file that is a folder is a submodule when it
  // holds a `.git` (treated alike); otherwise (a file replaced by a folder) it is walked.
  const nested = new Set(listing.nestedRepositories);
  for (const repository of nested) ancestorsOf(repository, holding);
  const listed = listing.fileSet;
  const inside: Array<readonly [string, Stamp]> = [...layout.inside];

  let frontier: string[] = [""];
  for (let round = 0; frontier.length > 0; round += 1) {
    if (round > MAX_IGNORE_ROUNDS) return UNSOUND_WATCH;
    const candidates: string[] = [];
    const stack = [...frontier];
    while (stack.length > 0) {
      const folder = stack.pop() as string;
      const absolute = absoluteOf(root, folder);
      inside.push([folder, stampOf(absolute, racyFrom)]);
      if (inside.length > MAX_WATCHED_FOLDERS) return UNSOUND_WATCH;
      // A folder the listing already read is not read again. Read before its stamp is taken, it
      // is still read after the build's racy boundary (taken before Git listed): a change between
      // the read and the stamp leaves the folder's mtime at or past it, so the stamp is racy.
      let entries = listing.folders.get(folder);
      if (entries === undefined) {
        try {
          entries = fs.readdirSync(absolute, { withFileTypes: true });
        } catch {
          // Gone or unreadable since Git listed it: the stamp says so; the next use re-lists.
          continue;
        }
      }
      for (const entry of entries) {
        const name = entry.name;
        if (name === ".gitignore") {
          inside.push([join(folder, name), stampOf(path.join(absolute, name), racyFrom)]);
          continue;
        }
        if (!entry.isDirectory() || name === ".git" || (folder === "" && name === ".docket")) continue;
        const relative = join(folder, name);
        if (name.includes("\uFFFD")) return UNSOUND_WATCH; // a name Node could not decode
        const submodule = listed.has(relative) && fs.existsSync(path.join(absolute, name, ".git"));
        if (nested.has(relative) || submodule) inside.push([relative, stampOf(path.join(absolute, name), racyFrom)]);
        else if (holding.has(relative)) stack.push(relative);
        else candidates.push(relative);
      }
    }
    const ignored = await ignoredFolders(root, candidates);
    frontier = candidates.filter((candidate) => !ignored.has(candidate));
  }
  return { sound: true, inside: inside.sort((left, right) => (left[0] < right[0] ? -1 : left[0] > right[0] ? 1 : 0)), outside: layout.outside };
}

/**
 * The watch of a walked listing (no Git): the folders the walk entered and their `.gitignore`
 * files, plus the absence of `.git` at the root and above it (a new repository would make Git
 * the lister). `entered` comes from walkFiles.
 */
export function watchWalkListing(root: string, entered: readonly string[], ignoreFiles: readonly string[], racyFrom: bigint | null, lookedForGit: boolean): ListingWatch {
  const inside: Array<readonly [string, Stamp]> = [];
  for (const folder of entered) inside.push([folder, stampOf(absoluteOf(root, folder), racyFrom)]);
  for (const file of ignoreFiles) inside.push([file, stampOf(absoluteOf(root, file), racyFrom)]);
  const outside: Array<readonly [string, Stamp]> = [];
  if (lookedForGit) {
    inside.push([".git", stampOf(path.join(root, ".git"), racyFrom)]);
    for (let folder = path.dirname(root); ; folder = path.dirname(folder)) {
      outside.push([path.join(folder, ".git"), stampOf(path.join(folder, ".git"), racyFrom)]);
      if (path.dirname(folder) === folder) break;
    }
  }
  return { sound: true, inside: inside.sort((left, right) => (left[0] < right[0] ? -1 : left[0] > right[0] ? 1 : 0)), outside };
}

/** True when every stamp of the watch still holds (an unsound watch never does). */
export function watchHolds(root: string, watch: ListingWatch): boolean {
  if (!watch.sound) return false;
  for (const [relative, stamp] of watch.inside) if (stampOf(absoluteOf(root, relative)) !== stamp || stamp === "racy") return false;
  for (const [absolute, stamp] of watch.outside) if (stampOf(absolute) !== stamp || stamp === "racy") return false;
  return true;
}

export { ABSENT };
