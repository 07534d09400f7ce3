// The impure half of Git reconciliation (developer/v8 §6.1): asks Git which paths differ from
// HEAD and fingerprints each of them, so a later snapshot can tell which ones changed. Every
// failure becomes an `unavailable` snapshot with a reason a person can act on; nothing throws.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { gitEnvironment } from "./gitEnvironment";
import { compareCodeUnits, sha256Hex } from "../ledger/canonicalJson";
import {
  type DirtyPath,
  type PathIdentity,
  type WorkspaceSnapshot,
} from "../developer/workspaceDelta";

const GIT_TIMEOUT_MS = 5_000;
// A workspace with hundreds of thousands of untracked files overflows this; that is reported as
// unavailable rather than truncated, because a truncated list would silently hide changes.
const GIT_MAX_BUFFER = 64 * 1024 * 1024;

export interface SnapshotOptions {
  /**
   * Absolute paths (files or folders) left out of the snapshot. Docket's own state (the ledger,
   * its lock, `.docket/baselines/`) changes on every append; without this it would show up as a
   * workspace change in every delta.
   */
  readonly excludedPaths?: readonly string[];
}

class GitFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

interface ExecError extends Error {
  readonly code?: string | number | null;
  readonly killed?: boolean;
  readonly signal?: NodeJS.Signals | null;
}


function firstLine(text: string): string {
  return text.split("\n").find((line) => line.trim().length > 0)?.trim() ?? "";
}

function describeFailure(cwd: string, args: readonly string[], error: ExecError, stderr: string): string {
  if (error.code === "ENOENT") return "Git is not installed or not on PATH, so Docket cannot observe the workspace.";
  // Checked before `killed`: Node also kills (and marks killed) a child that overflows maxBuffer.
  if (error.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER") {
    return "Git listed more changed or untracked paths than Docket can observe; add build output to .gitignore.";
  }
  if (error.killed === true || error.signal === "SIGTERM") {
    return `Git did not answer within ${GIT_TIMEOUT_MS / 1000} s (git ${args.join(" ")}); the repository may be very large or locked.`;
  }
  const message = firstLine(stderr);
  if (/not a git repository/iu.test(message)) return `${cwd} is not inside a Git repository.`;
  if (/must be run in a work tree/iu.test(message)) return `${cwd} is not inside a Git work tree (it is a bare repository or a .git folder).`;
  if (/dubious ownership/iu.test(message)) {
    return `Git refuses to read ${cwd} because the repository is owned by another user (see \`git config safe.directory\`).`;
  }
  if (/cannot change to/iu.test(message)) return `${cwd} does not exist or cannot be opened.`;
  return `Git failed (git ${args.join(" ")}): ${message || error.message}`;
}

interface GitResult {
  readonly status: number;
  readonly stdout: Buffer;
}

/**
 * Runs `git -C cwd ...` without a shell. `acceptedStatuses` lists non-zero exit codes that are
 * answers rather than failures (e.g. 1 from `rev-parse --verify` in a repository without commits).
 */
export function git(cwd: string, args: readonly string[], acceptedStatuses: readonly number[] = []): Promise<GitResult> {
  // Repository config could otherwise run programs (an fsmonitor hook, external diff drivers).
  const fullArgs = ["-c", "core.fsmonitor=false", "-C", cwd, ...args];
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      fullArgs,
      { encoding: "buffer", timeout: GIT_TIMEOUT_MS, maxBuffer: GIT_MAX_BUFFER, env: gitEnvironment(), windowsHide: true },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve({ status: 0, stdout });
          return;
        }
        const failure = error as ExecError;
        if (typeof failure.code === "number" && acceptedStatuses.includes(failure.code) && failure.killed !== true) {
          resolve({ status: failure.code, stdout });
          return;
        }
        reject(new GitFailure(describeFailure(cwd, args, failure, stderr.toString("utf8"))));
      },
    );
  });
}

/** Output of a `-z` command: NUL-terminated names, which is why spaces and newlines survive. */
function nulSeparated(output: Buffer): string[] {
  return output
    .toString("utf8")
    .split("\0")
    .filter((name) => name.length > 0);
}

/** Git ends single-value answers with one newline; a folder name may itself end in whitespace. */
export function singleValue(output: Buffer): string {
  const text = output.toString("utf8");
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}

function sha256OfFile(file: string): Promise<string> {
  // Streamed so a large binary in the workspace does not have to fit in memory.
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(file)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")));
  });
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** The identity of one path; a path deleted between listing and reading is simply `absent`. */
export async function pathIdentity(file: string): Promise<PathIdentity> {
  try {
    const stat = await fs.lstat(file);
    if (stat.isSymbolicLink()) {
      const target = await fs.readlink(file, { encoding: "buffer" });
      return `symlink:${sha256Hex(target)}`;
    }
    if (stat.isFile()) return `file:${await sha256OfFile(file)}`;
    // Nested repositories and submodules: their content is another repository's business.
    if (stat.isDirectory()) return "directory";
    return `other:${stat.mode}:${stat.size}`;
  } catch (error) {
    if (isMissing(error)) return "absent";
    throw new GitFailure(`Docket could not read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** `relative` with `/` separators, so snapshots compare equal across platforms. */
export function posixRelative(from: string, to: string): string {
  return path.relative(from, to).split(path.sep).join("/");
}

async function realPathOrSelf(target: string): Promise<string> {
  const absolute = path.resolve(target);
  try {
    return await fs.realpath(absolute);
  } catch {
    // A path that does not exist yet (a ledger not yet written): resolve its folder instead.
    try {
      return path.join(await fs.realpath(path.dirname(absolute)), path.basename(absolute));
    } catch {
      return absolute;
    }
  }
}

/** Excluded paths as repository-relative `/` paths; ones outside the repository cannot match anyway. */
async function excludedRepoPaths(root: string, excluded: readonly string[]): Promise<string[]> {
  const realRoot = await realPathOrSelf(root);
  const result: string[] = [];
  for (const entry of excluded) {
    const relative = posixRelative(realRoot, await realPathOrSelf(entry));
    if (relative === "" || relative === ".." || relative.startsWith("../") || path.isAbsolute(relative)) continue;
    result.push(relative);
  }
  return result;
}

function isExcluded(repoPath: string, excluded: readonly string[]): boolean {
  return excluded.some((prefix) => repoPath === prefix || repoPath.startsWith(`${prefix}/`));
}

async function observe(cwdInput: string, options: SnapshotOptions): Promise<WorkspaceSnapshot> {
  let cwd: string;
  try {
    cwd = await fs.realpath(path.resolve(cwdInput));
  } catch {
    return { kind: "unavailable", reason: `${cwdInput} does not exist or cannot be opened.` };
  }
  const root = singleValue((await git(cwd, ["rev-parse", "--show-toplevel"])).stdout);
  if (root === "") return { kind: "unavailable", reason: `${cwd} is not inside a Git work tree.` };
  // Where cwd sits inside the work tree, as Git sees it (handles a symlinked cwd on any platform).
  const prefix = singleValue((await git(cwd, ["rev-parse", "--show-prefix"])).stdout).replace(/\/$/u, "");
  const headAnswer = await git(cwd, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], [1]);
  const head = headAnswer.status === 0 ? singleValue(headAnswer.stdout) : null;

  // Both listings run from the root so they cover the whole repository and name paths alike
  // (ls-files would otherwise only list untracked files below cwd).
  const tracked =
    head === null
      ? // No commit to compare with: everything in the index is new.
        await git(root, ["ls-files", "--cached", "-z"])
      : await git(root, ["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", "HEAD", "--"]);
  const untracked = await git(root, ["ls-files", "--others", "--exclude-standard", "-z"]);

  const excluded = await excludedRepoPaths(root, options.excludedPaths ?? []);
  const repoPaths = [...new Set([...nulSeparated(tracked.stdout), ...nulSeparated(untracked.stdout)])]
    // A nested repository is listed as `name/`; one spelling per path keeps the union unique.
    .map((repoPath) => repoPath.replace(/\/+$/u, ""))
    .filter((repoPath) => repoPath.length > 0 && !isExcluded(repoPath, excluded));

  const byPath = new Map<string, string>();
  for (const repoPath of repoPaths) {
    const relative = path.posix.relative(`/${prefix}`, `/${repoPath}`) || ".";
    byPath.set(relative, repoPath);
  }
  const dirty: DirtyPath[] = [];
  for (const relative of [...byPath.keys()].sort(compareCodeUnits)) {
    const repoPath = byPath.get(relative) as string;
    dirty.push({ path: relative, identity: await pathIdentity(path.join(root, ...repoPath.split("/"))) });
  }
  return { kind: "git", root, cwd, head, dirty };
}

/** Snapshot of the Git workspace containing `cwd` (developer/v8 §6.1); never rejects. */
export async function takeWorkspaceSnapshot(cwd: string, options: SnapshotOptions = {}): Promise<WorkspaceSnapshot> {
  try {
    return await observe(cwd, options);
  } catch (error) {
    const reason = error instanceof GitFailure ? error.reason : `Workspace observation failed: ${error instanceof Error ? error.message : String(error)}`;
    return { kind: "unavailable", reason };
  }
}

/** Upper bound for a baseline file shown in a diff; larger files are reported instead of loaded. */
export const MAX_BASELINE_FILE_BYTES = 8 * 1024 * 1024;

export type FileAtCommit = { readonly kind: "file"; readonly bytes: Buffer } | { readonly kind: "absent" } | { readonly kind: "too-large"; readonly size: number };

/**
 * The bytes of `relativePath` (posix, relative to `cwd` inside the work tree at `root`) as
 * committed in `commit`, for a landing's "before" side. Absent when the commit has no such file.
 */
export async function readFileAtCommit(root: string, cwd: string, commit: string, relativePath: string): Promise<FileAtCommit> {
  const repoPath = posixRelative(root, path.join(cwd, ...relativePath.split("/")));
  const listing = nulSeparated((await git(root, ["ls-tree", "-z", "-l", "--full-tree", commit, "--", repoPath])).stdout);
  const entry = listing[0];
  // `<mode> SP <type> SP <object> SP+ <size> TAB <path>`: only blobs have bytes to show.
  const match = entry === undefined ? null : /^\d+ blob [0-9a-f]+ +(\d+)\t/u.exec(entry);
  if (match === null) return { kind: "absent" };
  const size = Number(match[1]);
  if (size > MAX_BASELINE_FILE_BYTES) return { kind: "too-large", size };
  const blob = await git(root, ["cat-file", "blob", `${commit}:${repoPath}`]);
  return { kind: "file", bytes: blob.stdout };
}

/** Largest committed ledger Docket compares in memory (the git helper's output buffer). */
export const MAX_COMMITTED_LEDGER_BYTES = GIT_MAX_BUFFER - 1;

export type CommittedFile =
  | { readonly kind: "unavailable"; readonly reason: string }
  | { readonly kind: "untracked" }
  | { readonly kind: "too-large"; readonly size: number }
  | { readonly kind: "committed"; readonly commit: string; readonly bytes: Buffer };

/** The bytes of `file` as committed at HEAD of the work tree holding it; never rejects. */
export async function readCommittedAtHead(file: string): Promise<CommittedFile> {
  try {
    const directory = await fs.realpath(path.dirname(path.resolve(file)));
    const root = singleValue((await git(directory, ["rev-parse", "--show-toplevel"])).stdout);
    if (root === "") return { kind: "unavailable", reason: `${directory} is not inside a Git work tree.` };
    const headAnswer = await git(root, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], [1]);
    if (headAnswer.status !== 0) return { kind: "untracked" };
    const head = singleValue(headAnswer.stdout);
    const repoPath = posixRelative(root, path.join(directory, path.basename(file)));
    const listing = nulSeparated((await git(root, ["ls-tree", "-z", "-l", "--full-tree", head, "--", repoPath])).stdout)[0];
    const match = listing === undefined ? null : /^\d+ blob [0-9a-f]+ +(\d+)\t/u.exec(listing);
    if (match === null) return { kind: "untracked" };
    const size = Number(match[1]);
    if (size > MAX_COMMITTED_LEDGER_BYTES) return { kind: "too-large", size };
    const blob = await git(root, ["cat-file", "blob", `${head}:${repoPath}`]);
    return { kind: "committed", commit: head, bytes: blob.stdout };
  } catch (error) {
    return { kind: "unavailable", reason: error instanceof GitFailure ? error.reason : error instanceof Error ? error.message : String(error) };
  }
}
