// Docket's hook decision, written in each host's documented output dialect
// (vscode-and-agents.md §2.5, §3.1–§3.3; guard.md "Host dialects"). Hosts silently ignore output
// they cannot parse, so only documented fields are ever emitted, and only the forms every host
// accepts: Docket never answers `allow` (Codex accepts it only with `updatedInput`) or `ask`
// (Codex rejects it); "let the tool run" is the empty object `{}` for every host.
import type { HookEvent } from "./hostInput";
import type { HookDialect } from "./toolClassification";

export type HookDecision =
  | { readonly kind: "none" }
  | { readonly kind: "deny"; readonly reason: string }
  | { readonly kind: "context"; readonly text: string }
  /** Stop only: a message for the user; the host stops. */
  | { readonly kind: "notice"; readonly text: string }
  /** Stop only: ask the host to continue once, telling the agent why; `notice` also goes to the user. */
  | { readonly kind: "block"; readonly reason: string; readonly notice: string | null };

/** Claude Code caps hook output strings at 10,000 characters; stay well inside it. */
export const MAX_HOOK_TEXT = 8_000;

function bounded(text: string): string {
  return text.length <= MAX_HOOK_TEXT ? text : `${text.slice(0, MAX_HOOK_TEXT - 1)}…`;
}

export interface RenderedOutput {
  readonly stdout: string;
  readonly exitCode: number;
}

function json(output: unknown): RenderedOutput {
  return { stdout: `${JSON.stringify(output)}\n`, exitCode: 0 };
}

const NOTHING: RenderedOutput = { stdout: "{}\n", exitCode: 0 };

/**
 * The Stop answer, the one place the three dialects differ (vscode-and-agents.md §2.5, §3.1, §3.2).
 * A notice is the universal `systemMessage` everywhere. A block is top-level
 * `{"decision":"block","reason"}` for Claude Code and Codex, and
 * `hookSpecificOutput.{hookEventName:"Stop",decision:"block",reason}` for VS Code. Every host needs
 * a non-empty reason to honour a block (Codex rejects an empty one), so a block without one is
 * rendered as its notice: never a block the host would drop, never an unexplained continuation.
 */
function renderStop(dialect: HookDialect, decision: Extract<HookDecision, { kind: "notice" | "block" }>): RenderedOutput {
  const notice = decision.kind === "notice" ? decision.text : decision.notice;
  const systemMessage = notice !== null && notice.trim() !== "" ? { systemMessage: bounded(notice) } : {};
  if (decision.kind === "notice" || decision.reason.trim() === "") {
    return "systemMessage" in systemMessage ? json(systemMessage) : NOTHING;
  }
  const reason = bounded(decision.reason);
  if (dialect === "vscode") return json({ ...systemMessage, hookSpecificOutput: { hookEventName: "Stop", decision: "block", reason } });
  return json({ ...systemMessage, decision: "block", reason });
}

/**
 * The same JSON serves the three hosts for the events Docket answers besides Stop: all three
 * document `hookSpecificOutput.{hookEventName, permissionDecision:"deny", permissionDecisionReason}`
 * for PreToolUse and `hookSpecificOutput.{hookEventName, additionalContext}` for PostToolUse,
 * UserPromptSubmit and SessionStart. Stop takes only notices and blocks (renderStop); a notice or
 * block on another event, a deny outside PreToolUse and context at Stop all render as `{}`.
 */
export function renderDecision(dialect: HookDialect, event: HookEvent, decision: HookDecision): RenderedOutput {
  if (decision.kind === "none") return NOTHING;
  if (decision.kind === "notice" || decision.kind === "block") return event === "Stop" ? renderStop(dialect, decision) : NOTHING;
  if (decision.kind === "deny") {
    if (event !== "PreToolUse") return NOTHING;
    const reason = bounded(decision.reason.trim() === "" ? "Docket denied this tool." : decision.reason);
    return json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } });
  }
  if (event === "Stop" || decision.text.trim() === "") return NOTHING;
  return json({ hookSpecificOutput: { hookEventName: event, additionalContext: bounded(decision.text) } });
}
