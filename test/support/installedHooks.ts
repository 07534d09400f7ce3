// Runs a tool call through the hook configuration `docket connect` wrote, the way each host does:
// read the host's own config file, select the hook groups whose matcher matches the tool by that
// host's documented rule, run every selected command string exactly as written with `sh -c` (the
// hosts run command hooks through a shell), feed the host's stdin JSON, and combine the answers
// by the host's rule (any deny blocks; exit 2 blocks; any other failure or a timeout lets the tool
// run). A gate test that called the hook function directly would miss a matcher that never asks
// Docket, or a command line that cannot run.
//
// Matcher rules:
// - Claude Code (code.claude.com/docs/en/hooks): "*", "" or no matcher match every tool; a matcher
//   of only letters, digits, `_`, `-`, spaces, `,` and `|` is an exact name or a list of names;
//   anything else is an unanchored JavaScript regular expression.
// - Codex (openai/codex codex-rs/hooks/src/events/common.rs `matches_matcher`): none, "" or "*"
//   match every tool; only ASCII letters, digits, `_` and `|` is an exact name list; anything else
//   is an unanchored regular expression. `apply_patch` also matches `Write` and `Edit`, and
//   `spawn_agent` matches `Agent` (codex-rs/core/src/tools/hook_names.rs).
// - VS Code (code.visualstudio.com/docs/agents/reference/hooks-reference): matchers are ignored;
//   it reads `.claude/settings.json` and `.github/hooks/*.json`. Default timeout 30 s.
import { spawn } from "node:child_process";
import { hookOutcome } from "../../server/hooks/hookCli";
import fs from "node:fs";
import path from "node:path";

export type HostKind = "claude" | "codex" | "vscode";

interface HookHandler {
  readonly command: string;
  readonly timeoutSeconds: number;
}

const DEFAULT_TIMEOUT_SECONDS: Readonly<Record<HostKind, number>> = { claude: 600, codex: 600, vscode: 30 };

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
  } catch {
    return null;
  }
}

export function claudeMatcherMatches(matcher: unknown, toolName: string): boolean {
  if (matcher === undefined || matcher === null || matcher === "" || matcher === "*") return true;
  if (typeof matcher !== "string") return false;
  if (/^[A-Za-z0-9_\- ,|]+$/u.test(matcher)) {
    return matcher
      .split(/[|,]/u)
      .map((name) => name.trim())
      .includes(toolName);
  }
  try {
    return new RegExp(matcher, "u").test(toolName);
  } catch {
    return false;
  }
}

export function codexMatcherMatches(matcher: unknown, toolName: string): boolean {
  const inputs = [toolName, ...(toolName === "apply_patch" ? ["Write", "Edit"] : toolName === "spawn_agent" ? ["Agent"] : [])];
  if (matcher === undefined || matcher === null || matcher === "" || matcher === "*") return true;
  if (typeof matcher !== "string") return false;
  if (/^[A-Za-z0-9_|]+$/u.test(matcher)) return inputs.some((input) => matcher.split("|").includes(input));
  try {
    const regex = new RegExp(matcher, "u");
    return inputs.some((input) => regex.test(input));
  } catch {
    return false;
  }
}

function groupsOf(file: string, event: string): { matcher: unknown; handlers: HookHandler[] }[] {
  const root = readJson(file) as { hooks?: Record<string, unknown> } | null;
  const groups = root?.hooks?.[event];
  if (!Array.isArray(groups)) return [];
  return groups.flatMap((group: unknown) => {
    if (typeof group !== "object" || group === null) return [];
    const { matcher, hooks } = group as { matcher?: unknown; hooks?: unknown };
    if (!Array.isArray(hooks)) return [];
    const handlers = hooks.flatMap((handler: unknown) => {
      const entry = handler as { type?: unknown; command?: unknown; timeout?: unknown } | null;
      if (entry === null || entry.type !== "command" || typeof entry.command !== "string") return [];
      return [{ command: entry.command, timeoutSeconds: typeof entry.timeout === "number" ? entry.timeout : Number.NaN }];
    });
    return [{ matcher, handlers }];
  });
}

/** The commands a host runs for one tool event in `workspace`, selected by its matcher rule. */
export function selectHookCommands(host: HostKind, workspace: string, event: string, toolName: string): HookHandler[] {
  const withDefault = (handler: HookHandler): HookHandler => ({
    command: handler.command,
    timeoutSeconds: Number.isFinite(handler.timeoutSeconds) ? handler.timeoutSeconds : DEFAULT_TIMEOUT_SECONDS[host],
  });
  if (host === "codex") {
    return groupsOf(path.join(workspace, ".codex", "hooks.json"), event)
      .filter((group) => codexMatcherMatches(group.matcher, toolName))
      .flatMap((group) => group.handlers.map(withDefault));
  }
  if (host === "claude") {
    return [".claude/settings.json", ".claude/settings.local.json"]
      .flatMap((file) => groupsOf(path.join(workspace, file), event))
      .filter((group) => claudeMatcherMatches(group.matcher, toolName))
      .flatMap((group) => group.handlers.map(withDefault));
  }
  const githubHooks = path.join(workspace, ".github", "hooks");
  const files = [
    path.join(workspace, ".claude", "settings.json"),
    path.join(workspace, ".claude", "settings.local.json"),
    ...(fs.existsSync(githubHooks) ? fs.readdirSync(githubHooks).filter((name) => name.endsWith(".json")).map((name) => path.join(githubHooks, name)) : []),
  ];
  return files.flatMap((file) => groupsOf(file, event)).flatMap((group) => group.handlers.map(withDefault));
}

export interface ToolCallSpec {
  readonly toolName: string;
  readonly toolInput: unknown;
  /** The cwd the host reports and runs the hook in. */
  readonly cwd: string;
  /** Raw stdin instead of the host's JSON (malformed and oversized inputs). */
  readonly rawStdin?: string | Buffer;
}

/** The host's PreToolUse stdin, in its documented dialect. */
export function hostPreToolUseInput(host: HostKind, call: ToolCallSpec): Record<string, unknown> {
  if (host === "vscode") {
    return {
      timestamp: "2031-01-01T00:00:00.000Z",
      cwd: call.cwd,
      sessionId: "gate-vscode",
      hookEventName: "PreToolUse",
      transcript_path: "/tmp/gate-vscode.json",
      tool_name: call.toolName,
      tool_input: call.toolInput,
      tool_use_id: "call_gate",
    };
  }
  if (host === "codex") {
    return {
      session_id: "019a0000-0000-7000-8000-00000000gate",
      turn_id: "turn-gate",
      transcript_path: null,
      cwd: call.cwd,
      hook_event_name: "PreToolUse",
      model: "gpt-5-codex",
      permission_mode: "default",
      tool_name: call.toolName,
      tool_input: call.toolInput,
      tool_use_id: "call_gate",
    };
  }
  return {
    session_id: "gate-claude",
    transcript_path: "/tmp/gate-claude.jsonl",
    cwd: call.cwd,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: call.toolName,
    tool_input: call.toolInput,
    tool_use_id: "toolu_gate",
  };
}

export interface HookProcessResult {
  readonly command: string;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

export interface HostVerdict {
  /** The tool would run: no selected hook blocked it. */
  readonly runs: boolean;
  /** The deny reasons (or stderr of an exit 2). */
  readonly reasons: readonly string[];
  readonly results: readonly HookProcessResult[];
}

function runCommand(command: string, cwd: string, stdin: string | Buffer, timeoutMs: number): Promise<HookProcessResult> {
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", command], { cwd, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    // The hook may stop reading an oversized input; a host ignores the broken pipe.
    child.stdin.on("error", () => undefined);
    child.stdin.end(stdin);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ command, status, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), timedOut });
    });
  });
}

/** How the host reads one hook's answer: a block reason, or null when it does not block. */
export function blockReason(host: HostKind, result: HookProcessResult): string | null {
  if (result.timedOut) return null;
  if (result.status === 2) return result.stderr.trim() === "" ? "(exit 2)" : result.stderr.trim();
  if (result.status !== 0) return null;
  const text = result.stdout.trim();
  if (!text.startsWith("{")) return null;
  let output: { decision?: unknown; reason?: unknown; hookSpecificOutput?: { permissionDecision?: unknown; permissionDecisionReason?: unknown } };
  try {
    output = JSON.parse(text) as typeof output;
  } catch {
    return null;
  }
  const specific = output.hookSpecificOutput;
  if (specific?.permissionDecision === "deny") {
    const reason = typeof specific.permissionDecisionReason === "string" ? specific.permissionDecisionReason : "";
    // Codex ignores a deny without a non-empty reason.
    if (host === "codex" && reason.trim() === "") return null;
    return reason === "" ? "(deny)" : reason;
  }
  if (output.decision === "block" && typeof output.reason === "string" && output.reason.trim() !== "") return output.reason;
  return null;
}

/** One PreToolUse as the host would run it through the installed configuration. */
export async function runInstalledPreToolUse(host: HostKind, workspace: string, call: ToolCallSpec, maxTimeoutMs = 30_000): Promise<HostVerdict> {
  const handlers = selectHookCommands(host, workspace, "PreToolUse", call.toolName);
  const stdin = call.rawStdin ?? JSON.stringify(hostPreToolUseInput(host, call));
  // All matching hooks run concurrently on every host.
  const results = await Promise.all(handlers.map((handler) => runCommand(handler.command, call.cwd, stdin, Math.min(handler.timeoutSeconds * 1000, maxTimeoutMs))));
  const reasons = results.map((result) => blockReason(host, result)).filter((reason): reason is string => reason !== null);
  return { runs: reasons.length === 0, reasons, results };
}

/**
 * The argv a POSIX shell gives the program of a command line Connect wrote (bare words, '…' with
 * `'\''`, "…" with backslash escapes). Enough for Docket's own commands; anything else throws.
 */
export function commandArgv(command: string): string[] {
  const words: string[] = [];
  let current: string | null = null;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index] as string;
    if (char === " " || char === "\t") {
      if (current !== null) words.push(current);
      current = null;
    } else if (char === "'") {
      const end = command.indexOf("'", index + 1);
      if (end < 0) throw new Error(`unterminated ' in ${command}`);
      current = (current ?? "") + command.slice(index + 1, end);
      index = end;
    } else if (char === '"') {
      let text = "";
      index += 1;
      while (index < command.length && command[index] !== '"') {
        if (command[index] === "\\" && /["\\$`]/u.test(command[index + 1] ?? "")) index += 1;
        text += command[index] as string;
        index += 1;
      }
      if (index >= command.length) throw new Error(`unterminated " in ${command}`);
      current = (current ?? "") + text;
    } else if (char === "\\") {
      current = (current ?? "") + (command[index + 1] ?? "");
      index += 1;
    } else if (/[;&|<>$`()]/u.test(char)) {
      throw new Error(`not a plain command: ${command}`);
    } else {
      current = (current ?? "") + char;
    }
  }
  if (current !== null) words.push(current);
  return words;
}

/**
 * The same selection and the same arguments, answered in this process by the entry the hook
 * bundle runs (hookOutcome): for sweeping many tool names quickly. The spawned form above stays
 * the proof that the command line itself runs.
 */
export async function runInstalledPreToolUseInProcess(host: HostKind, workspace: string, call: ToolCallSpec): Promise<HostVerdict> {
  const handlers = selectHookCommands(host, workspace, "PreToolUse", call.toolName);
  const stdin = call.rawStdin ?? JSON.stringify(hostPreToolUseInput(host, call));
  const results: HookProcessResult[] = [];
  for (const handler of handlers) {
    const argv = commandArgv(handler.command);
    if (argv[0] !== "node" || argv[1] === undefined) throw new Error(`not a node command: ${handler.command}`);
    // Raw bytes (not UTF-8, oversized) only make sense through a real stdin: use the spawned form.
    if (typeof stdin !== "string") throw new Error("in-process calls take text stdin only");
    const outcome = await hookOutcome(argv.slice(2), stdin, call.cwd, { runtimeDir: path.dirname(argv[1]) });
    results.push({ command: handler.command, status: outcome.exitCode, stdout: outcome.stdout, stderr: outcome.stderr, timedOut: false });
  }
  const reasons = results.map((result) => blockReason(host, result)).filter((reason): reason is string => reason !== null);
  return { runs: reasons.length === 0, reasons, results };
}
