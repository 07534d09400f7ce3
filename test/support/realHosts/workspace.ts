// A workspace set up for a real host exactly as a user would: a real Git repository with a commit,
// the user's own host configuration (another MCP server, the model approval/trust a user gives),
// then `docket connect <host>` and `docket on` through the real CLI — so the host reads the
// configuration exactly as Connect writes it, matchers included. Every Docket and host process
// gets the scratch HOME, never the machine user's.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { repoRoot } from "../repoRoot";
import type { HostName } from "./hostRun";

export const DOCKET_CLI = path.join(repoRoot(), "dist", "docket.js");
const STUB_MCP_SERVER = path.join(__dirname, "stubMcpServer.js");

/** The name of the user's other MCP server in the host's configuration. */
export const OTHER_MCP_SERVER = "stub";

export interface HostWorkspace {
  readonly host: HostName;
  /** This workspace's own folder (repository, home, temp, logs). */
  readonly folder: string;
  /** The Git repository Docket governs. */
  readonly root: string;
  /** Scratch HOME for the host and every Docket process. */
  readonly home: string;
  readonly tmpDir: string;
  readonly ledgerPath: string;
  /** The environment every Docket process gets (scratch HOME, CODEX_HOME, TMPDIR). */
  readonly env: NodeJS.ProcessEnv;
  /** Runs the real `docket` CLI in the workspace; throws with its output when it fails. */
  docket(args: readonly string[], cwd?: string): string;
  /** The ledger's bytes now (null when there is none). */
  ledgerBytes(): Buffer | null;
}

function git(cwd: string, args: readonly string[]): void {
  const result = spawnSync("git", ["-C", cwd, ...args], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed in ${cwd}: ${result.stderr}`);
}

function check(result: SpawnSyncReturns<string>, what: string): string {
  if (result.status !== 0) throw new Error(`${what} exited ${String(result.status ?? result.signal)}: ${result.stderr}${result.stdout}`);
  return result.stdout;
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function tomlString(value: string): string {
  return JSON.stringify(value);
}

/** What the user had before connecting Docket: another MCP server, approvals, trust, no phoning home. */
function writeUserConfiguration(host: HostName, root: string, home: string): void {
  const otherServer = { command: process.execPath, args: [STUB_MCP_SERVER, root] };
  if (host === "claude") {
    // The project's MCP servers as Claude Code reads them; Connect adds `docket` beside it.
    writeJson(path.join(root, ".mcp.json"), { mcpServers: { [OTHER_MCP_SERVER]: otherServer } });
    // Approving the project's servers, as the user does at Claude Code's prompt (or with /mcp).
    writeJson(path.join(home, ".claude", "settings.json"), { enabledMcpjsonServers: ["docket", OTHER_MCP_SERVER] });
    return;
  }
  fs.mkdirSync(path.join(root, ".codex"), { recursive: true });
  fs.writeFileSync(
    path.join(root, ".codex", "config.toml"),
    `[mcp_servers.${OTHER_MCP_SERVER}]\ncommand = ${tomlString(otherServer.command)}\nargs = [${otherServer.args.map(tomlString).join(", ")}]\n`,
  );
  fs.mkdirSync(path.join(home, ".codex"), { recursive: true });
  fs.writeFileSync(
    path.join(home, ".codex", "config.toml"),
    [
      "check_for_update_on_startup = false",
      "",
      // Loopback only: no metrics export, no plugin or app catalogue sync.
      "[analytics]",
      "enabled = false",
      "",
      "[features]",
      "plugins = false",
      "apps = false",
      "remote_plugin = false",
      "plugin_sharing = false",
      "",
      // Codex loads a project's .codex/ (hooks, MCP servers) only when the user trusts the project.
      `[projects.${tomlString(root)}]`,
      'trust_level = "trusted"',
      "",
    ].join("\n"),
  );
}

/**
 * A fresh workspace in `parent/name`: repository with one commit, the user's host configuration,
 * `docket connect <host>` and `docket on` (gated: deciding).
 */
export function createHostWorkspace(host: HostName, parent: string, name: string): HostWorkspace {
  const folder = path.join(fs.realpathSync(parent), name);
  const root = path.join(folder, "repo");
  const home = path.join(folder, "home");
  const tmpDir = path.join(folder, "tmp");
  for (const directory of [root, home, tmpDir]) fs.mkdirSync(directory, { recursive: true });
  git(root, ["init", "--quiet"]);
  git(root, ["config", "user.name", "Docket Test"]);
  git(root, ["config", "user.email", "docket-test@example.invalid"]);
  git(root, ["config", "commit.gpgsign", "false"]);
  fs.writeFileSync(path.join(root, "README.md"), "hello\n");
  fs.writeFileSync(path.join(root, ".gitignore"), ".docket/\n");
  git(root, ["add", "--all"]);
  git(root, ["commit", "--quiet", "--no-verify", "-m", "fixture"]);

  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, CODEX_HOME: path.join(home, ".codex"), TMPDIR: tmpDir, LANG: "C.UTF-8" };
  const ledgerPath = path.join(root, ".docket", "ledger.jsonl");
  const workspace: HostWorkspace = {
    host,
    folder,
    root,
    home,
    tmpDir,
    ledgerPath,
    env,
    docket(args, cwd = root) {
      return check(spawnSync(process.execPath, [DOCKET_CLI, ...args], { cwd, env, encoding: "utf8" }), `docket ${args.join(" ")}`);
    },
    ledgerBytes() {
      return fs.existsSync(ledgerPath) ? fs.readFileSync(ledgerPath) : null;
    },
  };
  writeUserConfiguration(host, root, home);
  // Connect first: turning Docket on takes the workspace as it is as the baseline, so the host
  // configuration Connect writes is not a change made before any authorization.
  workspace.docket(["connect", host]);
  workspace.docket(["on"]);
  return workspace;
}

/**
 * A subfolder of the workspace: `plain`, or one that Git (and a hook walking up to the nearest
 * `.git`) takes for a repository of its own — an empty `.git` file, or a real `git init`.
 */
export type NestedKind = "plain" | "git-file" | "git-init";

export function describeNested(kind: NestedKind): string {
  if (kind === "plain") return "a plain subfolder";
  return kind === "git-file" ? "a subfolder holding an empty .git file" : "a subfolder holding its own `git init` repository";
}

export function makeNestedRepository(root: string, relative: string, kind: NestedKind): string {
  const folder = path.join(root, relative);
  fs.mkdirSync(folder, { recursive: true });
  if (kind === "git-file") fs.writeFileSync(path.join(folder, ".git"), "");
  else if (kind === "git-init") git(folder, ["init", "--quiet"]);
  return folder;
}

/** The shell command an agent runs to make such a subfolder and step into it. */
export function nestedRepositoryCommand(relative: string, kind: NestedKind): string {
  if (kind === "plain") return `mkdir -p ${relative} && cd ${relative}`;
  return kind === "git-file" ? `mkdir -p ${relative} && : > ${relative}/.git && cd ${relative}` : `git init -q ${relative} && cd ${relative}`;
}

/** An MCP client of the real `docket mcp` for this workspace, as an agent's host would start it. */
export async function connectDocketMcp(workspace: HostWorkspace): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [DOCKET_CLI, "mcp", "--workspace", workspace.root],
    cwd: workspace.root,
    env: Object.fromEntries(Object.entries(workspace.env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    stderr: "pipe",
  });
  const client = new Client({ name: "docket-real-hosts", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<void> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError === true) {
    const content = Array.isArray(result.content) ? (result.content as { text?: string }[]) : [];
    throw new Error(`docket mcp ${name} refused: ${content.map((part) => part.text ?? "").join("\n")}`);
  }
}

/** Drives the Developer cycle through Docket's MCP tools to a replay-current change authorization. */
export async function authorizeThroughMcp(workspace: HostWorkspace): Promise<void> {
  const client = await connectDocketMcp(workspace);
  try {
    await call(client, "open_judgment", {
      purpose: "work-decision",
      routeDefinitionId: "route:meaning-settlement",
      question: "May the agent create allowed-touch?",
      obligations: [{ obligationId: "obligation:allowed", statement: "The file is wanted." }],
    });
    await call(client, "conclude_judgment", { disposition: "not-applicable", reason: "A marker file for the test.", basis: ["The test asks for it."] });
    await call(client, "authorize_change", { movement: "Create allowed-touch.", stableLanding: "allowed-touch exists.", verificationTarget: "The file exists." });
  } finally {
    await client.close();
  }
}

/** Records the landing of the authorized work through Docket's MCP tools: the gate closes again. */
export async function landThroughMcp(workspace: HostWorkspace): Promise<void> {
  const client = await connectDocketMcp(workspace);
  try {
    await call(client, "record_landing", { result: "The agent's work landed.", verification: ["git status"] });
  } finally {
    await client.close();
  }
}
