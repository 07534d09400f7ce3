// Git adapter: tracked plus untracked-not-ignored files, exactly as Git sees them (its own
// .gitignore, info/exclude and core.excludesFile rules), relative to the root.
import type { execFile as ExecFile } from "node:child_process";
import type { Listing, SkippedEntry } from "./listing";
import { readListedFolders, type FolderEntries } from "./presentNames";
import { decodeUtf8, describeBytes } from "./utf8";

const GIT_TIMEOUT_MS = 60_000;
// 200k paths average well under 100 bytes; a listing this large is abandoned for the capped walk.
const GIT_MAX_BUFFER = 256 * 1024 * 1024;

/** Why Git could not list: "absent" means use the walk quietly (no Git, or not a work tree). */
export class GitListingFailure extends Error {
  constructor(
    readonly absent: boolean,
    message: string,
  ) {
    super(message);
    this.name = "GitListingFailure";
  }
}

function environment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The root decides the repository, never an inherited GIT_DIR.
  for (const name of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR", "GIT_PREFIX"]) delete env[name];
  env.LC_ALL = "C";
  env.LANGUAGE = "C";
  env.GIT_TERMINAL_PROMPT = "0";
  // Listing must not take index.lock under an agent's own git commands.
  env.GIT_OPTIONAL_LOCKS = "0";
  return env;
}

/**
 * Runs one git command in `root` as the listing does (no inherited GIT_DIR, no fsmonitor hook, no
 * optional locks). `okExitCodes` are exit codes that are answers, not failures (check-ignore's 1).
 */
export function runGit(root: string, args: readonly string[], input?: Buffer, okExitCodes: readonly number[] = []): Promise<Buffer> {
  // Loaded on first use: a warm plan runs no Git, and child_process brings net and dgram with it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { execFile } = require("node:child_process") as { execFile: typeof ExecFile };
  // Repository config could otherwise run programs (an fsmonitor hook).
  const fullArgs = ["-c", "core.fsmonitor=false", ...args];
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      fullArgs,
      { cwd: root, encoding: "buffer", timeout: GIT_TIMEOUT_MS, maxBuffer: GIT_MAX_BUFFER, env: environment(), windowsHide: true },
      (error, stdout, stderr) => {
        if (error === null || (typeof error.code === "number" && okExitCodes.includes(error.code))) {
          resolve(stdout);
          return;
        }
        const failure = error as NodeJS.ErrnoException & { killed?: boolean };
        const message = stderr.toString("utf8").split("\n")[0] ?? "";
        if (failure.code === "ENOENT") reject(new GitListingFailure(true, "git is not installed"));
        else if (/not a git repository|must be run in a work tree/iu.test(message)) reject(new GitListingFailure(true, message));
        else if (failure.killed === true) reject(new GitListingFailure(false, `git ls-files did not finish within ${GIT_TIMEOUT_MS / 1000} s`));
        else reject(new GitListingFailure(false, `git ${args[0] ?? ""} failed: ${message || failure.message}`));
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** NUL-separated byte strings; names are bytes to Git, so they are decoded strictly one by one. */
export function splitNames(output: Buffer): Buffer[] {
  const names: Buffer[] = [];
  let start = 0;
  for (let index = output.indexOf(0, start); index !== -1; index = output.indexOf(0, start)) {
    if (index > start) names.push(output.subarray(start, index));
    start = index + 1;
  }
  if (start < output.length) names.push(output.subarray(start));
  return names;
}

/** A Git listing plus what the Router index needs to watch it (server/router/snapshot/listingWatch.ts). */
export interface GitListing extends Listing {
  readonly source: "git";
  /** Untracked nested repositories Git reported as "dir/" (without the slash): Git does not look inside. */
  readonly nestedRepositories: readonly string[];
  /** A listed name was not UTF-8: the folders it lies in cannot be named, so the index cannot watch them. */
  readonly undecodable: boolean;
  /** The folders read to prove no listed file was deleted, read after the listing (presentNames.ts). */
  readonly folders: FolderEntries;
  /** `files` as a set (built anyway to drop duplicates): the watch asks it instead of building another. */
  readonly fileSet: ReadonlySet<string>;
}

/**
 * The listed names as text, or null when one is not UTF-8. Decoded whole: NUL is a byte of no
 * multi-byte sequence, so the whole output is valid UTF-8 exactly when every name is.
 */
function decodedNames(output: Buffer): string[] | null {
  const text = decodeUtf8(output);
  if (text === null) return null;
  const names = text.split("\u0000");
  return names.filter((name) => name !== "");
}

/** `maxListed` bounds the work after Git answers; Git's own order (index, then untracked) is stable. */
export async function listGitFiles(root: string, maxListed: number): Promise<GitListing> {
  const listed = await runGit(root, ["ls-files", "--cached", "--others", "--exclude-standard", "-z"]);
  const decoded = decodedNames(listed);
  // A tracked file deleted from the work tree is still in the index; it is not in the workspace.
  // Git's own check (an `lstat` per tracked file) runs only when the folders' listings cannot
  // show that every listed file is there (presentNames.ts).
  const present = decoded === null ? null : readListedFolders(root, decoded.filter((name) => !name.endsWith("/")));
  const gone =
    present !== null && present.allPresent
      ? null
      : new Set(splitNames(await runGit(root, ["ls-files", "--deleted", "-z"])).map((name) => name.toString("latin1")));
  const files = new Set<string>();
  const skipped: SkippedEntry[] = [];
  const limits: string[] = [];
  const nestedRepositories: string[] = [];
  let undecodable = false;
  const names: ReadonlyArray<Buffer | string> = decoded ?? splitNames(listed);
  for (const name of names) {
    if (files.size >= maxListed) {
      limits.push(`git: stopped after listing ${maxListed} files`);
      break;
    }
    if (typeof name === "string") {
      if (gone !== null && gone.has(Buffer.from(name, "utf8").toString("latin1"))) continue;
      if (name.endsWith("/")) nestedRepositories.push(name.slice(0, -1));
      else files.add(name);
      continue;
    }
    if (gone !== null && gone.has(name.toString("latin1"))) continue;
    const text = decodeUtf8(name);
    if (text === null) {
      skipped.push({ path: describeBytes(name), why: "file name is not valid UTF-8" });
      undecodable = true;
    }
    // An untracked nested repository comes back as "dir/": Git does not look inside, nor do we.
    else if (text.endsWith("/")) nestedRepositories.push(text.slice(0, -1));
    else files.add(text); // unmerged paths appear once per stage; the Set keeps one
  }
  return { source: "git", files: [...files], skipped, limits, nestedRepositories, undecodable, folders: present?.folders ?? new Map(), fileSet: files };
}
