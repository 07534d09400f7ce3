// The tool policy as the protocol reports it, from the replay-current facts, phase and scope:
// one shape for a replayed history (historyStatus.ts) and a verified checkpoint (checkpointPolicy.ts).
import type { Phase } from "../developer/history";
import { computeToolPolicy, type RuntimeFacts } from "../developer/toolPolicy";
import type { ToolPolicyResult } from "../protocol/messages";

export function toolPolicyResult(facts: RuntimeFacts, phase: Phase, workScopeId: string | null): ToolPolicyResult {
  const policy = computeToolPolicy(facts);
  return { ...policy, legalOperations: [...policy.legalOperations], phase, workScopeId };
}
