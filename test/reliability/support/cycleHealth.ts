// Whether the cycle can still move on after a crash: the baselines the next authorization and the
// next landing will be measured against must exist and match the workspace. A write that reached
// the ledger while its baseline did not reach the disk leaves a scope whose next step is refused
// for ever (Docket will not turn off while a change is authorized), so it is checked right after
// the fault that caused it. `repair` then writes the baseline Docket should have written, so the
// run can go on from the same ledger.
import path from "node:path";
import { checkAuthorization } from "../../../server/developer/workspaceDelta";
import { inForceBaselineKey, loadBaseline, saveBaseline, type BaselineKey } from "../../../server/workspace/baselineStore";
import { takeWorkspaceSnapshot } from "../../../server/workspace/gitObservation";
import type { WorkspaceLedger } from "../../../server/workspace/workspaceLedger";

export interface BaselineProblem {
  readonly problem: string;
  repair(): Promise<void>;
}

/**
 * Null when the next authorization or landing has the baseline it needs. `compareWorkspace`
 * also checks the scope baseline against the workspace (a Git snapshot: only worth it after a
 * write that should have refreshed it).
 */
export async function cycleBaselineProblem(root: string, ledger: WorkspaceLedger, compareWorkspace = true): Promise<BaselineProblem | null> {
  const scope = ledger.history().activeScope;
  if (scope === null) return null;
  const snapshot = () => takeWorkspaceSnapshot(root, { excludedPaths: [path.dirname(ledger.store.ledgerPath), path.join(root, ".docket")] });
  const repairWith = (baseline: BaselineKey) => async () => {
    await saveBaseline(root, { ...baseline, snapshot: await snapshot() });
  };
  const authorization = scope.root.activeAuthorization;
  if (authorization !== null) {
    const key = { workScopeId: scope.workScopeId, role: "authorization" as const, authorizationId: authorization.authorizationId };
    const loaded = await loadBaseline(root, key);
    if (loaded.ok) return null;
    return {
      problem: `authorization ${authorization.authorizationId} is on the ledger but its baseline is ${loaded.problem}: its landing is refused (docket.baseline-missing) and Docket refuses to turn off while it is active, so the scope is stuck for good`,
      repair: repairWith(key),
    };
  }
  const key = inForceBaselineKey(scope.workScopeId, scope.root.landings.at(-1)?.authorizationId ?? null);
  const loaded = await loadBaseline(root, key);
  // A missing scope baseline is captured on first use, from the workspace as it is then.
  if (!loaded.ok) return loaded.problem === "missing" ? null : { problem: `the scope baseline of ${scope.workScopeId} is ${loaded.problem}`, repair: repairWith(key) };
  if (!compareWorkspace) return null;
  const check = checkAuthorization(loaded.baseline.snapshot, await snapshot());
  if (check.ok) return null;
  return {
    problem: `the scope baseline of ${scope.workScopeId} still predates landing ${scope.root.landings.length}, so the next authorization is refused (${check.code}) until Docket is turned off and on`,
    repair: repairWith(key),
  };
}
