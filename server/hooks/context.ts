// The short state notes hooks add to the model's context (developer/v8 §9.3): phase, the decision
// purpose the next open_judgment must echo, the legal operations, and recent evidence handles.
// Kept to a few lines: it is injected on every prompt.
import { countOf } from "../plural";
import { computeToolPolicy } from "../developer/toolPolicy";
import type { CheckpointState } from "./checkpoint";
import type { RecentEvidence } from "./evidenceAdapter";

export function stateContext(state: CheckpointState, evidence: readonly RecentEvidence[]): string {
  const policy = computeToolPolicy(state.facts);
  const lines = [
    `Docket governs this workspace (developer/v8): decide before changing code, through Docket's MCP tools.`,
    `Phase: ${state.phase}${state.workScopeId === null ? "" : ` (${state.workScopeId})`}. Required decision purpose: ${state.purpose ?? "none"}.`,
    `Legal operations now: ${policy.legalOperations.length === 0 ? "none" : policy.legalOperations.join(", ")}.`,
    policy.shell === "allow" && policy.edit === "allow"
      ? "Shell and file-editing tools: allowed under the active change authorization; finish with record_landing."
      : `Shell and file-editing tools: denied. ${policy.reason ?? ""}`.trimEnd(),
  ];
  if (evidence.length > 0) {
    lines.push(`Recent evidence handles (nominate them in conclude_judgment): ${evidence.map((entry) => `${entry.branchResultId} · ${entry.toolName}`).join("; ")}.`);
  }
  return lines.join("\n");
}

export function blockedContext(ledgerPath: string, reason: string): string {
  return [
    `Docket cannot use its ledger (${ledgerPath}): ${reason}.`,
    "Shell and file-editing tools are denied until a person fixes it: run `docket ledger verify` to find the first bad line, then restore the ledger or move it aside.",
  ].join("\n");
}

export function blockedDenial(toolName: string, ledgerPath: string, reason: string): string {
  return `Docket denied ${toolName}: its ledger (${ledgerPath}) cannot be trusted: ${reason}. Ask the user to run \`docket ledger verify\` and restore or move the ledger aside; Docket governs again once the ledger verifies.`;
}

export function policyDenial(toolName: string, reason: string): string {
  return `Docket denied ${toolName}. ${reason}`;
}

export function capturedContext(branchResultId: string, truncated: boolean, redactions: number, uses: { readonly judgment: boolean; readonly observer: boolean } = { judgment: true, observer: false }): string {
  const notes = [truncated ? "stored truncated" : null, redactions > 0 ? `${countOf(redactions, "secret")} redacted` : null].filter((note) => note !== null);
  const where = [uses.judgment ? "nominate it in conclude_judgment to cite it" : null, uses.observer ? "Observer staged it: nominate its tool call id in observer_commit if you rely on it" : null].filter((use) => use !== null);
  return `Docket captured this tool result as evidence ${branchResultId}${notes.length === 0 ? "" : ` (${notes.join(", ")})`}${where.length === 0 ? "" : `; ${where.join("; ")}`}.`;
}

/** How a person extends the read-only allowlist: named in every denial of an unknown tool. */
function allowlistAdvice(toolName: string): string {
  return `If ${toolName} only reads, the user can add it to Docket's read-only tools (the user setting docket.agents.readOnlyTools, or \`docket connect claude|codex --read-only-tool ${toolName}\`) and connect again.`;
}

export function unknownToolDenial(toolName: string, reason: string): string {
  return `Docket denied ${toolName}: Docket does not know this tool to be read-only, so it is withheld like shell and edit tools. ${reason} ${allowlistAdvice(toolName)}`;
}

export function foreignDocketDenial(toolName: string, problem: string, reason: string): string {
  return `Docket denied ${toolName}: ${problem}, so this is not known to be one of Docket's own tools and it is withheld like any unknown tool. ${reason} Ask the user to remove or rename that server and run \`docket connect\` again.`;
}

/** Why a hook could not decide, what it means for the call, and what to do about it. */
export function undecidedDenial(code: string, why: string, governed: string, advice: string): string {
  return `Docket denied this tool call: it could not decide on it (${code}: ${why}), and ${governed} is governed by Docket, so nothing runs that Docket has not checked. ${advice}`;
}
