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
  | { readonly kind: "notice"; readonly text: string }
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

/**
 * The same JSON serves the three hosts for the events Docket answers today: all three document
 * `hookSpecificOutput.{hookEventName, permissionDecision:"deny", permissionDecisionReason}` for
 * PreToolUse and `hookSpecificOutput.{hookEventName, additionalContext}` for PostToolUse,
 * UserPromptSubmit and SessionStart. The dialect parameter keeps the seam where they diverge
 * (the Stop decision's place, for the completion guard).
 */
export function renderDecision(dialect: HookDialect, event: HookEvent, decision: HookDecision): RenderedOutput {
  void dialect;
  if (decision.kind === "none") return { stdout: "{}\n", exitCode: 0 };
  if (decision.kind === "deny") {
    if (event !== "PreToolUse") return { stdout: "{}\n", exitCode: 0 };
    const reason = bounded(decision.reason.trim() === "" ? "Docket denied this tool." : decision.reason);
    const output = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } };
    return { stdout: `${JSON.stringify(output)}\n`, exitCode: 0 };
  }
  if (decision.kind !== "context") return { stdout: "{}\n", exitCode: 0 };
  if (event === "Stop" || decision.text.trim() === "") return { stdout: "{}\n", exitCode: 0 };
  const output = { hookSpecificOutput: { hookEventName: event, additionalContext: bounded(decision.text) } };
  return { stdout: `${JSON.stringify(output)}\n`, exitCode: 0 };
}
