// A real Git workspace that Docket is connected to the way a user connects it (`docket connect
// claude|codex`), so the crash and concurrency targets launch the hook and the MCP server with
// exactly the command lines the hosts would run, not a guess of them.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface LaunchCommand {
  readonly command: string;
  readonly args: readonly string[];
}

export interface WriterWorkspace {
  readonly root: string;
  readonly ledgerPath: string;
  readonly docketFolder: string;
  /** `dist/docket.js`, for the CLI writer. */
  readonly docketCli: string;
  /** The installed PostToolUse hook command of each host. */
  readonly hooks: { readonly claude: LaunchCommand; readonly codex: LaunchCommand };
  /** The installed MCP server (Claude Code's `.mcp.json` entry). */
  readonly mcp: LaunchCommand;
}

function git(cwd: string, args: readonly string[]): void {
  execFileSync("git", ["-C", cwd, ...args], { stdio: ["ignore", "ignore", "pipe"] });
}

/** Splits a hook command the way a POSIX shell would for the quoting Docket's installers use. */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let current = "";
  let inWord = false;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index] as string;
    if (char === '"') {
      inWord = true;
      for (index += 1; index < command.length && command[index] !== '"'; index += 1) {
        if (command[index] === "\\" && index + 1 < command.length) index += 1;
        current += command[index] as string;
      }
    } else if (char === "'") {
      inWord = true;
      for (index += 1; index < command.length && command[index] !== "'"; index += 1) current += command[index] as string;
    } else if (/\s/u.test(char)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
    } else {
      inWord = true;
      current += char;
    }
  }
  if (inWord) words.push(current);
  return words;
}

/** `node` in an installed command is this Node.js, so the child runs the same runtime as the suite. */
function launchOf(words: readonly string[], what: string): LaunchCommand {
  const [first, ...rest] = words;
  if (first === undefined) throw new Error(`${what}: empty command`);
  return { command: first === "node" ? process.execPath : first, args: rest };
}

function postToolUseCommand(file: string, what: string): LaunchCommand {
  const config = JSON.parse(fs.readFileSync(file, "utf8")) as { hooks?: Record<string, { hooks?: { command?: string }[] }[]> };
  const command = config.hooks?.PostToolUse?.flatMap((group) => group.hooks ?? []).find((hook) => (hook.command ?? "").includes("docket"))?.command;
  if (command === undefined) throw new Error(`${what}: no Docket PostToolUse hook in ${file}`);
  return launchOf(shellWords(command), what);
}

/** A fresh repository under `parent`, committed, with Docket connected for Claude Code and Codex. */
export function createWriterWorkspace(parent: string, name: string, repoRoot: string): WriterWorkspace {
  const root = path.join(fs.realpathSync(parent), name);
  fs.mkdirSync(path.join(root, "src"), { recursive: true });
  git(root, ["init", "--quiet"]);
  git(root, ["config", "user.name", "Docket Reliability"]);
  git(root, ["config", "user.email", "reliability@example.invalid"]);
  git(root, ["config", "commit.gpgsign", "false"]);
  fs.writeFileSync(path.join(root, "src", "app.txt"), "hello\n");
  const docketCli = path.join(repoRoot, "dist", "docket.js");
  for (const host of ["claude", "codex"]) {
    execFileSync(process.execPath, [docketCli, "connect", host, "--workspace", root], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
  }
  // The connected configuration is part of the committed project, so it never shows as a change.
  git(root, ["add", "--all"]);
  git(root, ["commit", "--quiet", "--no-verify", "-m", "fixture"]);
  const mcpConfig = JSON.parse(fs.readFileSync(path.join(root, ".mcp.json"), "utf8")) as { mcpServers?: Record<string, { command?: string; args?: string[] }> };
  const server = mcpConfig.mcpServers?.docket;
  if (server?.command === undefined) throw new Error(`no docket MCP server in ${path.join(root, ".mcp.json")}`);
  return {
    root,
    ledgerPath: path.join(root, ".docket", "ledger.jsonl"),
    docketFolder: path.join(root, ".docket"),
    docketCli,
    hooks: {
      claude: postToolUseCommand(path.join(root, ".claude", "settings.json"), "claude"),
      codex: postToolUseCommand(path.join(root, ".codex", "hooks.json"), "codex"),
    },
    mcp: launchOf([server.command, ...(server.args ?? [])], "mcp"),
  };
}
