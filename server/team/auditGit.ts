// The audit's Git adapter: every question `docket audit` asks Git, and nothing else. Git runs
// without a shell, with an argument array, `--` before paths, repository settings that could run
// programs turned off, and every revision the user gave checked not to begin with `-` first
// (auditRange.ts). The answers are plain data the pure classification (auditClassify.ts) reads.
import { spawn } from "node:child_process";
import { AuditError } from "./auditError";
import { gitEnvironment } from "../workspace/gitEnvironment";

/** Git's answer to one command: its exit status and output bytes. */
interface GitRun {
  readonly status: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

const GIT_TIMEOUT_MS = 120_000;

// Replace refs would let a repository show other commits and trees than the ones it has.
const GIT_ENV = gitEnvironment({ extra: { GIT_NO_REPLACE_OBJECTS: "1" } });

// Settings a hostile repository could use to run a program while Docket reads it.
const SAFE_CONFIG = ["-c", "core.fsmonitor=false", "-c", "core.quotePath=false"];

function runGit(cwd: string, args: readonly string[]): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...SAFE_CONFIG, ...args], {
      cwd,
      env: GIT_ENV,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill("SIGKILL"), GIT_TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new AuditError("docket.audit-git-failed", `Git could not be run: ${error.message}`, 2));
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") });
    });
  });
}

async function gitText(cwd: string, args: readonly string[], what: string): Promise<string> {
  const run = await runGit(cwd, args);
  if (run.status !== 0) throw new AuditError("docket.audit-git-failed", `${what}: ${run.stderr.trim() || `git exited with ${String(run.status)}`}`, 2);
  return run.stdout.toString("utf8");
}

/** The work-tree root of the repository holding `folder`, or a coded refusal. */
export async function repositoryRoot(folder: string): Promise<string> {
  const run = await runGit(folder, ["rev-parse", "--show-toplevel"]).catch((error: unknown) => {
    throw error instanceof AuditError ? error : new AuditError("docket.audit-not-a-repository", `${folder} cannot be read by Git`, 2);
  });
  if (run.status !== 0) throw new AuditError("docket.audit-not-a-repository", `${folder} is not inside a Git work tree: ${run.stderr.trim()}`, 2);
  return run.stdout.toString("utf8").replace(/\n$/u, "");
}

export async function isShallow(root: string): Promise<boolean> {
  return (await gitText(root, ["rev-parse", "--is-shallow-repository"], "cannot ask whether the clone is shallow")).trim() === "true";
}

/** The commit a revision names, or null when it names none. The caller has refused a leading `-`. */
export async function resolveCommit(root: string, revision: string): Promise<string | null> {
  const run = await runGit(root, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${revision}^{commit}`]);
  const sha = run.stdout.toString("utf8").trim();
  return run.status === 0 && /^[0-9a-f]{40}$/u.test(sha) ? sha : null;
}

export async function mergeBase(root: string, left: string, right: string): Promise<string | null> {
  const run = await runGit(root, ["merge-base", left, right]);
  const sha = run.stdout.toString("utf8").trim().split("\n")[0] ?? "";
  return run.status === 0 && /^[0-9a-f]{40}$/u.test(sha) ? sha : null;
}

export interface GitCommit {
  readonly sha: string;
  readonly parents: readonly string[];
  readonly subject: string;
  /** Values of the message's `Docket-Landing` trailers, as Git parsed the trailer block. */
  readonly landingTrailers: readonly string[];
  readonly scopeTrailers: readonly string[];
}

/** The commits of `to` not reachable from `from` (all of `to`'s history when null), parents before children. */
export async function listCommits(root: string, from: string | null, to: string): Promise<GitCommit[]> {
  // Fields end with \x01, values inside a field with \x02; a commit ends with NUL (-z). The sha and
  // the parents are validated, the subject takes whatever lies between them and the trailers.
  const format = "%H%x01%P%x01%s%x01%(trailers:key=Docket-Landing,valueonly,separator=%x02)%x01%(trailers:key=Docket-Scope,valueonly,separator=%x02)";
  const args = ["log", "-z", "--reverse", "--topo-order", "--no-notes", "--no-show-signature", `--format=${format}`, to, ...(from === null ? [] : [`^${from}`]), "--"];
  const text = await gitText(root, args, "cannot list the range's commits");
  const commits: GitCommit[] = [];
  for (const record of text.split("\0")) {
    if (record === "") continue;
    const fields = record.replace(/^\n/u, "").split("\x01");
    if (fields.length < 5) throw new AuditError("docket.audit-git-failed", "Git listed a commit Docket cannot read", 2);
    const sha = fields[0] as string;
    const parents = (fields[1] as string).split(" ").filter((parent) => parent !== "");
    if (!/^[0-9a-f]{40}$/u.test(sha) || parents.some((parent) => !/^[0-9a-f]{40}$/u.test(parent))) {
      throw new AuditError("docket.audit-git-failed", "Git listed a commit id Docket cannot read", 2);
    }
    const values = (field: string): string[] => field.split("\x02").map((value) => value.trim()).filter((value) => value !== "");
    commits.push({
      sha,
      parents,
      subject: fields.slice(2, fields.length - 2).join("\x01"),
      landingTrailers: values(fields[fields.length - 2] as string),
      scopeTrailers: values(fields[fields.length - 1] as string),
    });
  }
  return commits;
}

/** The text of each commit's note under refs/notes/docket, for the commits asked about. */
export async function docketNotes(root: string, commits: ReadonlySet<string>): Promise<Map<string, string>> {
  const notes = new Map<string, string>();
  const ref = await runGit(root, ["rev-parse", "--verify", "--quiet", "refs/notes/docket"]);
  if (ref.status !== 0) return notes;
  const listing = await gitText(root, ["notes", "--ref=docket", "list"], "cannot list refs/notes/docket");
  for (const line of listing.split("\n")) {
    const [blob, commit] = line.split(" ");
    if (blob === undefined || commit === undefined || !commits.has(commit) || !/^[0-9a-f]{40}$/u.test(blob)) continue;
    notes.set(commit, await gitText(root, ["cat-file", "blob", blob], "cannot read a refs/notes/docket note"));
  }
  return notes;
}

export interface GitChange {
  /** Repository-relative path, `/`-separated, as Git stores it. */
  readonly path: string;
  /** A added, M modified, D deleted, T type changed. */
  readonly status: string;
  readonly oldMode: string;
  readonly newMode: string;
  readonly oldBlob: string;
  readonly newBlob: string;
}

/** What `commit` changed against `parent` (against the empty tree when null), renames as delete + add. */
export async function diffTree(root: string, parent: string | null, commit: string): Promise<GitChange[]> {
  const args = ["diff-tree", "-r", "-z", "--raw", "--no-renames", "--no-commit-id", "--no-ext-diff", "--no-textconv", "--ignore-submodules=none"];
  const text = await gitText(root, parent === null ? [...args, "--root", commit] : [...args, parent, commit], `cannot read what ${commit.slice(0, 12)} changed`);
  const parts = text.split("\0");
  const changes: GitChange[] = [];
  for (let index = 0; index + 1 < parts.length; index += 2) {
    const meta = /^:(\d{6}) (\d{6}) ([0-9a-f]{40}) ([0-9a-f]{40}) ([A-Z])\d*$/u.exec(parts[index] as string);
    if (meta === null) throw new AuditError("docket.audit-git-failed", `Git described a change of ${commit.slice(0, 12)} Docket cannot read`, 2);
    changes.push({ oldMode: meta[1] as string, newMode: meta[2] as string, oldBlob: meta[3] as string, newBlob: meta[4] as string, status: meta[5] as string, path: parts[index + 1] as string });
  }
  return changes;
}

/**
 * The blob id of the file a commit carries at `relativePath`: null when the commit has none there,
 * "not-a-file" when the entry is a link, a folder or a submodule.
 */
export async function committedFile(root: string, commit: string, relativePath: string): Promise<string | "not-a-file" | null> {
  const listing = await gitText(root, ["ls-tree", "-z", "--full-tree", commit, "--", relativePath], "cannot list the committed ledger");
  const entry = listing.split("\0").find((item) => item.endsWith(`\t${relativePath}`));
  if (entry === undefined) return null;
  const meta = /^(\d{6}) (\w+) ([0-9a-f]{40})\t/u.exec(entry);
  if (meta === null || meta[2] !== "blob" || (meta[1] !== "100644" && meta[1] !== "100755")) return "not-a-file";
  return meta[3] as string;
}

/** Streams a blob's bytes to `onChunk` (never held whole); resolves once Git has sent them all. */
export function streamBlob(root: string, blob: string, onChunk: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...SAFE_CONFIG, "cat-file", "blob", blob], { cwd: root, env: GIT_ENV, stdio: ["ignore", "pipe", "pipe"] });
    let failure: unknown = null;
    child.stdout.on("data", (chunk: Buffer) => {
      if (failure !== null) return;
      try {
        onChunk(chunk);
      } catch (error) {
        failure = error;
        child.kill("SIGKILL");
      }
    });
    child.on("error", (error) => reject(new AuditError("docket.audit-git-failed", `cannot read the committed ledger: ${error.message}`, 2)));
    child.on("close", (status) => {
      if (failure !== null) reject(failure);
      else if (status !== 0) reject(new AuditError("docket.audit-git-failed", `cannot read the committed ledger blob ${blob}`, 2));
      else resolve();
    });
  });
}
