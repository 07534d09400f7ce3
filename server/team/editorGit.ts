// The Git reads behind the editor's team views (issue 17): one commit's patch, shown when VS Code's
// Git extension cannot show the commit itself, and the base a newcomer's "Audit Branch…" starts
// from. Presentation only: nothing here decides what a landing or an audit is. Git runs with an
// argument array, a validated commit id and options that keep repository config from running
// programs (fsmonitor, external diff drivers, text conversion, signature checks).
import { spawn } from "node:child_process";
import { DocketError } from "../errors";
import { ErrorCodes } from "../protocol/errorCodes";
import { gitEnvironment } from "../workspace/gitEnvironment";

const GIT_TIMEOUT_MS = 10_000;
/** The most of a patch the backend returns: a larger commit is cut, and says so. */
export const PATCH_MAX_BYTES = 2 * 1024 * 1024;

interface GitRun {
  readonly status: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
  /** stdout reached the byte limit and Git was stopped. */
  readonly cut: boolean;
}


/** Runs `git -C folder ...args` and keeps at most `limit` bytes of stdout (the rest stops Git). */
function runGit(folder: string, args: readonly string[], limit = 64 * 1024): Promise<GitRun> {
  return new Promise((resolve) => {
    const child = spawn("git", ["-c", "core.fsmonitor=false", "-C", folder, ...args], {
      env: gitEnvironment(),
      stdio: ["ignore", "pipe", "pipe"],
      windowsHide: true,
      timeout: GIT_TIMEOUT_MS,
    });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let cut = false;
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      if (cut) return;
      const room = limit - bytes;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        bytes = limit;
        cut = true;
        child.kill();
        return;
      }
      chunks.push(chunk);
      bytes += chunk.length;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString("utf8");
    });
    child.on("error", (error) => resolve({ status: null, stdout: Buffer.alloc(0), stderr: error.message, cut: false }));
    child.on("close", (status) => resolve({ status, stdout: Buffer.concat(chunks), stderr, cut }));
  });
}

function firstLine(text: string): string {
  return text.split("\n").find((line) => line.trim() !== "")?.trim() ?? "";
}

function unavailable(folder: string, run: GitRun): DocketError {
  const message = firstLine(run.stderr);
  if (run.status === null && /ENOENT/u.test(message)) return new DocketError(ErrorCodes.workspaceUnavailable, "Git is not installed or not on PATH.");
  if (/not a git repository/iu.test(message)) return new DocketError(ErrorCodes.workspaceUnavailable, `${folder} is not inside a Git repository.`);
  return new DocketError(ErrorCodes.workspaceUnavailable, `Git failed: ${message || `exit ${String(run.status)}`}`);
}

export interface CommitPatchText {
  readonly text: string;
  readonly truncated: boolean;
}

/**
 * `git show --stat --patch` of one commit of the workspace's repository. `sha` is a full commit
 * id (the protocol schema checked it); an id that is not a commit here is `docket.commit-not-found`.
 */
export async function commitPatch(folder: string, sha: string): Promise<CommitPatchText> {
  const verified = await runGit(folder, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${sha}^{commit}`]);
  if (verified.status === 1) throw new DocketError(ErrorCodes.commitNotFound, `No commit ${sha} in the repository of ${folder}.`);
  if (verified.status !== 0) throw unavailable(folder, verified);
  const shown = await runGit(
    folder,
    ["show", "--no-color", "--no-ext-diff", "--no-textconv", "--no-show-signature", "--format=fuller", "--stat", "--patch", "--end-of-options", sha, "--"],
    PATCH_MAX_BYTES,
  );
  if (!shown.cut && shown.status !== 0) throw unavailable(folder, shown);
  // A cut may end inside a multi-byte character: decoding replaces that one character only.
  return { text: shown.stdout.toString("utf8"), truncated: shown.cut };
}

export type RangeBasis = "origin-head" | "remote-main" | "upstream" | "local-main" | "no-base";

async function resolves(folder: string, ref: string): Promise<boolean> {
  return (await runGit(folder, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`])).status === 0;
}

async function singleLine(folder: string, args: readonly string[]): Promise<string | null> {
  const run = await runGit(folder, args);
  const line = run.status === 0 ? run.stdout.toString("utf8").trim() : "";
  return line === "" || line.includes("\n") ? null : line;
}

/**
 * The base a pull request most likely targets, first found of: the remote's default branch
 * (`origin/HEAD`), `origin/main`/`origin/master`, the branch's upstream, a local `main`/`master`
 * that is not the branch itself. `isAcceptable` is the protocol's check of a range: a ref name it
 * refuses is passed over. Without any: `HEAD` (the whole history up to HEAD).
 */
export async function suggestAuditBase(folder: string, isAcceptable: (range: string) => boolean): Promise<{ readonly range: string; readonly basis: RangeBasis }> {
  const top = await runGit(folder, ["rev-parse", "--show-toplevel"]);
  if (top.status !== 0) throw unavailable(folder, top);
  const candidates: Array<{ readonly base: () => Promise<string | null>; readonly basis: RangeBasis }> = [
    { base: () => singleLine(folder, ["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"]), basis: "origin-head" },
    { base: async () => ((await resolves(folder, "refs/remotes/origin/main")) ? "origin/main" : null), basis: "remote-main" },
    { base: async () => ((await resolves(folder, "refs/remotes/origin/master")) ? "origin/master" : null), basis: "remote-main" },
    { base: () => singleLine(folder, ["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"]), basis: "upstream" },
    ...["main", "master"].map((name) => ({
      base: async () => {
        const current = await singleLine(folder, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
        return current !== name && (await resolves(folder, `refs/heads/${name}`)) ? name : null;
      },
      basis: "local-main" as const,
    })),
  ];
  for (const candidate of candidates) {
    const base = await candidate.base();
    if (base !== null && isAcceptable(`${base}..HEAD`)) return { range: `${base}..HEAD`, basis: candidate.basis };
  }
  return { range: "HEAD", basis: "no-base" };
}
