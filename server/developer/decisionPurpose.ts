// §3.3 decision purpose, alone: the hook's checkpoint derives it without loading the operations'
// protocol messages (their zod schemas), which the tail reduction never needs.
import type { ScopeState } from "./scopeState";

export type DecisionPurpose = "work-decision" | "reroute-decision" | "verification-decision";

/** §3.3 decision purpose: reroute before verification before ordinary work. */
export function derivedPurpose(scope: ScopeState): DecisionPurpose {
  if (scope.root.debts.some((debt) => debt.reroutePending)) return "reroute-decision";
  if (scope.root.debts.some((debt) => debt.verificationPending)) return "verification-decision";
  return "work-decision";
}
