// Tool policy (developer/v8 §9.1–§9.2), computed from replay-current facts only: which protocol
// operations are legal now and whether an agent's shell and file-editing tools may run. This is
// workflow gating, not a sandbox: out-of-process writes are caught by landing reconciliation.

/** What the policy needs to know about the active scope; the reducer supplies it. */
export interface RuntimeFacts {
  /** Replay rejected an entry, the file is corrupt or foreign, or two scopes are open. */
  readonly blocked: boolean;
  readonly scopeActive: boolean;
  readonly authorizationActive: boolean;
  readonly openFrame: boolean;
  readonly concludedFrameExists: boolean;
  readonly reroutePending: boolean;
  readonly verificationPending: boolean;
}

export type ProtocolOperation =
  | "open_judgment"
  | "open_context_sources"
  | "conclude_judgment"
  | "authorize_change"
  | "record_landing";

export type ToolDecision = "allow" | "deny";

export interface ToolPolicy {
  /** False when Docket is off or its history is blocked: it then governs nothing. */
  readonly governing: boolean;
  readonly legalOperations: readonly ProtocolOperation[];
  readonly nextAction: ProtocolOperation | null;
  readonly shell: ToolDecision;
  readonly edit: ToolDecision;
  /** Why shell/edit are denied, naming what to do next; null when both are allowed. */
  readonly reason: string | null;
}

/** §9.1: legal operations in order; the first is `nextAction`. */
export function legalOperations(facts: RuntimeFacts): ProtocolOperation[] {
  if (facts.blocked || !facts.scopeActive) return [];
  if (facts.authorizationActive) return ["record_landing"];
  if (facts.openFrame) return ["open_context_sources", "conclude_judgment"];
  const debtPending = facts.reroutePending || facts.verificationPending;
  return facts.concludedFrameExists && !debtPending ? ["authorize_change", "open_judgment"] : ["open_judgment"];
}

/**
 * §9.2: with Docket governing, shell and edit tools run only under an active authorization;
 * a pending debt withholds both (the reference's "shell only if shell∧¬artifact" never holds).
 */
export function computeToolPolicy(facts: RuntimeFacts): ToolPolicy {
  const operations = legalOperations(facts);
  const nextAction = operations[0] ?? null;
  const governing = facts.scopeActive && !facts.blocked;
  if (!governing) {
    return { governing, legalOperations: operations, nextAction, shell: "allow", edit: "allow", reason: null };
  }
  const debtPending = facts.reroutePending || facts.verificationPending;
  const allowed = facts.authorizationActive && !debtPending;
  if (allowed) return { governing, legalOperations: operations, nextAction, shell: "allow", edit: "allow", reason: null };
  const next = nextAction === null ? "" : ` Next legal operation: ${nextAction}.`;
  const why = debtPending
    ? "A landing left reroute or verification debt open; shell and edit tools stay withheld until it is cleared by its own frame."
    : "Shell and edit tools require a replay-current change authorization from a concluded Docket frame.";
  return { governing, legalOperations: operations, nextAction, shell: "deny", edit: "deny", reason: `${why}${next}` };
}
