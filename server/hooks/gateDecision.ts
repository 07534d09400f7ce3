// The PreToolUse decision over every workspace that governs a call (hookWorkspace.ts): a tool runs
// only if it is known read-only, or is Docket's own, or every governing workspace's replay-current
// policy allows its class. Anything the hook cannot decide is denied whenever a governing workspace
// withholds tools (fail closed); with Docket off everywhere, or every workspace allowing
// everything, the answer stays "let it run".
import { computeToolPolicy } from "../developer/toolPolicy";
import { blockedDenial, foreignDocketDenial, policyDenial, undecidedDenial, unknownToolDenial } from "./context";
import type { HookState } from "./hookState";
import type { HookDecision } from "./hostOutput";
import type { ToolClass } from "./toolClassification";

export interface ToolCall {
  readonly toolName: string;
  readonly toolClass: ToolClass;
  /** For a Docket tool: why the server behind the name may not be Docket's, else null. */
  readonly foreignDocket: string | null;
}

/** Why one workspace withholds a tool of this class, or null when it lets it run. */
function withholding(state: HookState, call: ToolCall): string | null {
  if (state.kind === "off") return null;
  if (state.kind === "blocked") return blockedDenial(call.toolName, state.ledgerPath, state.reason);
  const policy = computeToolPolicy(state.state.facts);
  if (!policy.governing) return null;
  const reason = policy.reason ?? "Docket withholds this tool now.";
  if (call.toolClass === "shell") return policy.shell === "allow" ? null : policyDenial(call.toolName, reason);
  if (call.toolClass === "edit") return policy.edit === "allow" ? null : policyDenial(call.toolName, reason);
  if (policy.shell === "allow" && policy.edit === "allow") return null;
  if (call.toolClass === "docket" && call.foreignDocket !== null) return foreignDocketDenial(call.toolName, call.foreignDocket, reason);
  return unknownToolDenial(call.toolName, reason);
}

/** Deny if any governing workspace denies; the first (configured workspace first) gives the reason. */
export function decideToolCall(call: ToolCall, states: readonly HookState[]): HookDecision {
  if (call.toolClass === "read") return { kind: "none" };
  if (call.toolClass === "docket" && call.foreignDocket === null) return { kind: "none" };
  for (const [index, state] of states.entries()) {
    const reason = withholding(state, call);
    if (reason === null) continue;
    // Name the workspace when it is not the only one: the agent may not know a parent governs it.
    const where = states.length > 1 || index > 0 ? ` (Docket governs ${state.workspaceFolder}.)` : "";
    return { kind: "deny", reason: `${reason}${where}` };
  }
  return { kind: "none" };
}

/** A workspace that would withhold some tool now: a failure to decide must then deny. */
export function withholdsTools(state: HookState): boolean {
  if (state.kind === "off") return false;
  if (state.kind === "blocked") return true;
  const policy = computeToolPolicy(state.state.facts);
  return policy.governing && (policy.shell === "deny" || policy.edit === "deny");
}

export type UndecidedProblem = "too-large" | "malformed-json" | "wrong-shape" | "usage" | "internal" | "too-many-paths";

const ADVICE: Readonly<Record<UndecidedProblem, string>> = {
  "too-large": "A tool input over 4 MiB is never let through while Docket withholds tools: split the work into smaller calls.",
  "malformed-json": "The host sent hook input Docket cannot read (not UTF-8 JSON); update Docket or the agent, and report it if it persists.",
  "wrong-shape": "The host sent hook input of a shape Docket does not know; update Docket or the agent, and report it if it persists.",
  usage: "The installed hook command is not one this Docket understands: ask the user to run `docket connect` again.",
  internal: "This is a fault in Docket: ask the user to run `docket status` and report it.",
  "too-many-paths": "The tool input names more file locations than Docket checks in one call: split the call.",
};

/** The fail-closed answer when a call cannot be decided: deny while any governing workspace withholds tools. */
export function undecided(problem: UndecidedProblem, code: string, why: string, states: readonly HookState[]): HookDecision {
  const governing = states.find(withholdsTools);
  if (governing === undefined) return { kind: "none" };
  const detail = governing.kind === "blocked" ? ` Its ledger cannot be trusted: ${governing.reason}.` : "";
  return { kind: "deny", reason: `${undecidedDenial(code, why, governing.workspaceFolder, ADVICE[problem])}${detail}` };
}
