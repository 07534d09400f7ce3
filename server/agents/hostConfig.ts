// What Docket installs into each agent host's configuration: which events its hook runs on, the
// exact hook and MCP command lines, and how to recognise an entry Docket wrote (by its runtime
// signature, never by position) so `disconnect` removes exactly what `connect` added.
import path from "node:path";
import { DocketError } from "../errors";
import { hookCommand as buildHookCommand } from "../hooks/hookCommand";
import type { HookEvent } from "../hooks/hostInput";
import { isExtensibleToolName } from "../hooks/toolClassification";
import { ErrorCodes } from "../protocol/errorCodes";

export const AGENT_HOSTS = ["claude", "codex"] as const;
export type AgentHost = (typeof AGENT_HOSTS)[number];

/** The name of the MCP server entry in `.mcp.json` and `[mcp_servers.docket]`. */
export const MCP_SERVER_NAME = "docket";

export interface HookEventSpec {
  readonly event: HookEvent;
  /** Omitted: the hook runs for every tool (or the event has no matcher). */
  readonly matcher?: string;
}

// Every event without a matcher: PreToolUse must see every tool, since the hook (not the host's
// matcher) decides what is read-only and an unknown tool is gated (server/hooks/toolClassification.ts);
// every tool result is evidence. Claude Code and Codex both read an omitted matcher as "all tools"
// (Claude: "*", "" or omitted; Codex: codex-rs/hooks/src/events/common.rs `matches_matcher`);
// VS Code ignores matchers. Older versions installed PreToolUse with `Bash|Edit|Write|MultiEdit|NotebookEdit`
// (Codex: `Bash|apply_patch`); connecting again replaces those groups.
// Stop is where the completion guard compares the final answer with its review (guard.md); Stop
// takes no matcher on either host. VS Code has no file of its own here: it runs the hooks in
// `.claude/settings.json`, Stop included, so `connect claude` installs them for it too.
const HOOK_EVENTS: Record<AgentHost, readonly HookEventSpec[]> = {
  claude: [{ event: "PreToolUse" }, { event: "PostToolUse" }, { event: "UserPromptSubmit" }, { event: "SessionStart" }, { event: "Stop" }],
  codex: [{ event: "PreToolUse" }, { event: "PostToolUse" }, { event: "UserPromptSubmit" }, { event: "SessionStart" }, { event: "Stop" }],
};

/**
 * The `timeout` (seconds) Docket writes into each hook entry. All three hosts read it (Claude Code
 * and Codex default to 600 s, VS Code to 30 s); a hook that times out decides nothing and the tool
 * runs, so it must stay well above the hook's own decision budget (HOOK_DECISION_BUDGET_MS, 3 s).
 */
export const HOOK_TIMEOUT_SECONDS = 60;

export function hookEvents(host: AgentHost): readonly HookEventSpec[] {
  return HOOK_EVENTS[host];
}

/** What the installed hook commands carry besides the runtime: the workspace and the user's read-only tools. */
export interface HookCommandContext {
  /** Absolute real path of the workspace. */
  readonly workspace: string;
  readonly readOnlyTools: readonly string[];
}

/**
 * The user's additions to the read-only allowlist, checked: a name the host tables call shell or
 * edit, or one in Docket's own namespace, would lift the gate and is refused; the rest are sorted
 * and deduplicated so the installed command (and the plan digest) does not depend on their order.
 */
export function checkedReadOnlyTools(names: readonly string[]): string[] {
  for (const name of names) {
    if (!isExtensibleToolName(name)) {
      throw new DocketError(
        ErrorCodes.invalidParams,
        `"${name}" cannot be added to Docket's read-only tools: use a tool name of letters, digits, "_", ".", ":" or "-" that is not a shell, edit or Docket tool.`,
      );
    }
  }
  return [...new Set(names)].sort();
}

/**
 * The one place a hook command line is built: the hook runtime's own builder (interface 3), so
 * installers and hooks agree on the bundle and quoting. A path it cannot quote is a coded refusal.
 */
export function hookCommand(host: AgentHost, event: HookEvent, runtimePath: string, context?: HookCommandContext): string {
  try {
    return buildHookCommand(host, event, runtimePath, context === undefined ? {} : { workspace: context.workspace, readOnlyTools: context.readOnlyTools });
  } catch (error) {
    throw new DocketError(ErrorCodes.agentRuntimeMissing, `Cannot build a hook command for ${runtimePath}: ${(error as Error).message}`);
  }
}

// A Docket hook: some docket*.js runtime (any install location or version) invoked as
// `hook --host <host>` — with or without the `--workspace`/`--read-only-tool` options that follow.
// Matching the signature rather than the exact path lets a reconnect from a newer extension
// replace entries written by an older one.
const HOOK_SIGNATURE = /docket[^\s"'/\\]*\.js['"]?\s+hook\s+--host\s+(claude|codex|vscode)\b/u;

/** A Docket hook command, for `host` when given (each host's file holds only its own). */
export function isDocketHookCommand(command: unknown, host?: AgentHost): boolean {
  if (typeof command !== "string") return false;
  const match = HOOK_SIGNATURE.exec(command);
  return match !== null && (host === undefined || match[1] === host);
}

/** A Docket hook command of the current form: it names its workspace (older ones guessed it from the cwd). */
export function isCurrentDocketHookCommand(command: unknown): boolean {
  return isDocketHookCommand(command) && / --workspace /u.test(command as string);
}

export interface McpServerEntry {
  readonly command: string;
  readonly args: readonly string[];
}

/** Interface 4: `node <abs dist/docket.js> mcp --workspace <abs folder>`. */
export function mcpServerEntry(runtimePath: string, workspaceFolder: string): McpServerEntry {
  return { command: "node", args: [runtimePath, "mcp", "--workspace", workspaceFolder] };
}

/** An MCP entry Docket wrote: `node <…docket*.js> mcp …`. */
export function isDocketMcpEntry(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const entry = value as { command?: unknown; args?: unknown };
  if (entry.command !== "node" || !Array.isArray(entry.args)) return false;
  const [runtime, sub] = entry.args as unknown[];
  return typeof runtime === "string" && /^docket[^/\\]*\.js$/u.test(path.basename(runtime)) && sub === "mcp";
}

/** Files each host's installation touches, relative to the workspace folder. */
export const HOST_FILES = {
  claude: { settings: path.join(".claude", "settings.json"), mcp: ".mcp.json" },
  codex: { hooks: path.join(".codex", "hooks.json"), config: path.join(".codex", "config.toml") },
} as const;

/** What the user must still do after connecting; shown by the CLI and the extension. */
export function connectNotes(host: AgentHost): string[] {
  if (host === "claude") {
    return [
      "Restart Claude Code (or start a new session) in this folder so it loads the hooks in .claude/settings.json. Always start it here: Claude Code reads .claude/settings.json only from the folder a session starts in, so a session started in a subfolder runs without Docket's hooks.",
      "Approve the project MCP server \"docket\" from .mcp.json when Claude Code asks (or with /mcp).",
    ];
  }
  return [
    "Codex runs project hooks only after you review and trust them: open /hooks in Codex (or accept its trust prompt) and trust the Docket hooks.",
    "Codex loads .codex/ only for a trusted project; trust this folder in Codex if you have not.",
    "On Codex versions before 0.124.0, enable hooks in ~/.codex/config.toml: [features] hooks = true (older builds: codex_hooks = true).",
    "Restart Codex so it loads .codex/hooks.json and the docket MCP server from .codex/config.toml. Start it in this repository: Codex loads .codex/ from the nearest .git above where it starts, so a session started inside a nested repository runs without Docket's hooks.",
  ];
}

export function disconnectNotes(host: AgentHost): string[] {
  return [host === "claude" ? "Restart Claude Code so it stops running Docket's hooks." : "Restart Codex so it stops running Docket's hooks."];
}
