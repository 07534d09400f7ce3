// Real temporary Git repositories for tests: the observation adapter is only trustworthy if it is
// exercised against Git itself, not a mock of it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export function tempFolder(prefix: string): string {
  // realpath: on macOS the temp folder is a symlink, and snapshots record real paths.
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function runGit(cwd: string, args: readonly string[]): string {
  return execFileSync("git", ["-C", cwd, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

export interface TempRepo {
  readonly root: string;
  write(relative: string, content: string): void;
  remove(relative: string): void;
  commitAll(message: string): string;
  head(): string;
  dispose(): void;
}

/** A repository with local identity settings (never the developer's global config). */
export function tempRepo(options: { readonly files?: Readonly<Record<string, string>> } = {}): TempRepo {
  const root = tempFolder("docket-git-");
  runGit(root, ["init", "--quiet"]);
  runGit(root, ["config", "user.name", "Docket Test"]);
  runGit(root, ["config", "user.email", "docket-test@example.invalid"]);
  runGit(root, ["config", "commit.gpgsign", "false"]);
  const repo: TempRepo = {
    root,
    write(relative, content) {
      const file = path.join(root, relative);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    },
    remove(relative) {
      fs.rmSync(path.join(root, relative), { force: true, recursive: true });
    },
    commitAll(message) {
      runGit(root, ["add", "--all"]);
      runGit(root, ["commit", "--quiet", "--no-verify", "-m", message]);
      return repo.head();
    },
    head() {
      return runGit(root, ["rev-parse", "HEAD"]).trim();
    },
    dispose() {
      // Retries (Node backs off linearly: up to ~45 s in all): a prompt hook's detached capture may still be
      // writing its evidence file, which on a loaded machine took longer than the 1 s ten retries gave.
      fs.rmSync(root, { force: true, recursive: true, maxRetries: 30, retryDelay: 100 });
    },
  };
  const files = options.files ?? {};
  if (Object.keys(files).length > 0) {
    for (const [relative, content] of Object.entries(files)) repo.write(relative, content);
    repo.commitAll("fixture");
  }
  return repo;
}
