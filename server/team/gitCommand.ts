// The thin Git adapter of the commit links (issue 17): every call is an argument array (never a
// shell string), bounded in time and output, and fails with the command it ran and Git's first
// line of complaint. Only the prepare-commit-msg hook keeps Git's own environment: during
// `git commit <paths>` or `git commit -a` Git points GIT_INDEX_FILE at the index being committed.
import { spawn } from "node:child_process";
import { gitEnvironment } from "../workspace/gitEnvironment";

const GIT_TIMEOUT_MS = 20_000;
const GIT_MAX_OUTPUT = 64 * 1024 * 1024;

export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(" ")} failed${exitCode === null ? "" : ` (exit ${exitCode})`}: ${stderr.split("\n").find((line) => line.trim() !== "")?.trim() ?? "no message"}`);
    this.name = "GitCommandError";
  }
}

export interface GitOptions {
  /** Keep GIT_DIR, GIT_INDEX_FILE and the rest as Git set them (the commit hook); else they are removed. */
  readonly hookEnvironment?: boolean;
  readonly input?: string | Buffer;
  /** Exit codes that are answers rather than failures (e.g. 1 for `git config --get` of an absent key). */
  readonly acceptedExitCodes?: readonly number[];
}

export interface GitResult {
  readonly stdout: string;
  /** The same output as bytes (for `cat-file --batch`, whose sizes count bytes). */
  readonly stdoutBytes: Buffer;
  readonly exitCode: number;
}

let hookProcess = false;

/**
 * Called once by the hook's entry: every Git call of this process then keeps the repository Git
 * named for the hook (GIT_DIR, GIT_INDEX_FILE…), also the calls of shared readers such as the
 * carried-path lookup, so a commit made with `--git-dir`/`--work-tree` is read from its repository.
 */
export function keepHookEnvironment(): void {
  hookProcess = true;
}

function environment(hook: boolean): NodeJS.ProcessEnv {
  // The notes Docket reads and writes are always refs/notes/docket, whatever the user's default is;
  // Git would open an editor or a pager for some commands, and neither may ever wait on a person here.
  return gitEnvironment({ keepRepository: hook });
}

/**
 * Runs `git …args` in `cwd` (the process's working folder, not `-C`: inside a hook a relative
 * GIT_DIR is relative to the folder Git started the hook in); rejects with GitCommandError on a
 * failure, a timeout or too much output.
 */
export function git(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...args], { cwd, env: environment(options.hookEnvironment === true || hookProcess), stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let failed: string | null = null;
    const timer = setTimeout(() => {
      failed = `did not answer within ${GIT_TIMEOUT_MS / 1000} s`;
      child.kill("SIGKILL");
    }, GIT_TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > GIT_MAX_OUTPUT) {
        failed = `printed more than ${GIT_MAX_OUTPUT} bytes`;
        child.kill("SIGKILL");
        return;
      }
      out.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (err.length < 64) err.push(chunk);
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new GitCommandError(args, null, (error as NodeJS.ErrnoException).code === "ENOENT" ? "Git is not installed or not on PATH" : error.message));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString("utf8");
      if (failed !== null) return reject(new GitCommandError(args, null, failed));
      const exitCode = code ?? -1;
      if (exitCode !== 0 && !(options.acceptedExitCodes ?? []).includes(exitCode)) return reject(new GitCommandError(args, exitCode, stderr));
      const bytes = Buffer.concat(out);
      resolve({ stdout: bytes.toString("utf8"), stdoutBytes: bytes, exitCode });
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.input ?? "");
  });
}

/** A full object id as Git prints it (SHA-1 or SHA-256 repositories). */
export function isObjectId(text: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/u.test(text);
}
