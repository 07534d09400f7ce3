// Per-run folders, throwaway git workspaces, quiet VS Code settings and a clean environment for servers.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "./toolchain";

export interface RunDir {
  root: string;
  /** TMPDIR for the server and browser (VS Code leaves vscode-ipc-*.sock files in TMPDIR). */
  tmp: string;
  workspace: string;
  userData: string;
  extensions: string;
  chromeProfile: string;
  out: string;
  logs: string;
  cleanup(): void;
}

/** A fresh folder tree under the OS temp dir (kept short: unix socket paths are limited to 107 bytes). */
export function createRunDir(label: string): RunDir {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `dkt-${label}-`));
  const sub = (name: string): string => {
    const dir = path.join(root, name);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };
  return {
    root,
    tmp: sub("tmp"),
    workspace: sub("ws"),
    userData: sub("user"),
    extensions: sub("ext"),
    chromeProfile: sub("chrome"),
    out: sub("out"),
    logs: sub("logs"),
    cleanup: () => {
      if (process.env.DOCKET_E2E_KEEP === "1") {
        process.stderr.write(`[e2e] DOCKET_E2E_KEEP=1: keeping ${root}\n`);
        return;
      }
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Writes files into `dir` and makes it a git repository with one commit (best effort if git is missing). */
export function initGitWorkspace(dir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  const git = (...args: string[]): boolean =>
    spawnSync("git", args, {
      cwd: dir,
      stdio: "ignore",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "Docket Test",
        GIT_AUTHOR_EMAIL: "docket-test@example.invalid",
        GIT_COMMITTER_NAME: "Docket Test",
        GIT_COMMITTER_EMAIL: "docket-test@example.invalid",
      },
    }).status === 0;
  if (git("init", "-q", "-b", "main")) {
    git("add", "-A");
    git("commit", "-q", "-m", "initial commit");
  }
}

/**
 * User settings that keep an offline workbench quiet (no welcome page, trust prompt, AI chat, updates...);
 * one file shared with `npm start`'s demo profile.
 */
export const QUIET_SETTINGS: Record<string, unknown> = JSON.parse(
  fs.readFileSync(path.join(repoRoot(), "scripts", "e2e", "quiet-settings.json"), "utf8"),
) as Record<string, unknown>;

export function writeUserSettings(userDataDir: string, extra: Record<string, unknown> = {}): void {
  const dir = path.join(userDataDir, "User");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "settings.json"), JSON.stringify({ ...QUIET_SETTINGS, ...extra }, null, 2));
}

/**
 * The environment for a server we start: ours minus variables that would make it talk to another VS Code
 * (VSCODE_*, ELECTRON_RUN_AS_NODE) or behave like a node:test child, plus a private TMPDIR.
 */
export function serverEnv(tmpDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith("VSCODE_") || key === "ELECTRON_RUN_AS_NODE" || key === "NODE_TEST_CONTEXT" || key === "NODE_OPTIONS") {
      continue;
    }
    env[key] = value;
  }
  return { ...env, TMPDIR: tmpDir, ...extra };
}

/** `<repo>/test-artifacts/<name>` (git-ignored), created. */
export function artifactsDir(name: string): string {
  const dir = path.join(repoRoot(), "test-artifacts", name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Log files VS Code wrote for one extension (logs/SESSION/exthostN/EXTENSION-ID/NAME.log) below `dir`. */
export function extensionLogFiles(dir: string, extensionId: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const parts = entry.split(path.sep);
    if (entry.endsWith(".log") && parts[parts.length - 2] === extensionId) found.push(path.join(dir, entry));
  }
  return found.sort();
}
