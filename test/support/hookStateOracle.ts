// What a full replay of the whole ledger says, in the hook's terms: the oracle the hooks' faster
// paths (checkpoint, tail seed, id log) are compared with.
import { describeHistory } from "../../server/developer/history";
import { checkpointStateOf } from "../../server/hooks/checkpointState";
import type { HookState } from "../../server/hooks/hookState";
import { LedgerStore } from "../../server/ledger/store";

export type ReplayedHookState = { kind: "blocked"; reason: string } | { kind: "ready"; state: ReturnType<typeof checkpointStateOf> };

export function fullReplay(ledgerPath: string): ReplayedHookState {
  const store = new LedgerStore(ledgerPath);
  store.refresh();
  if (store.fault !== null) return { kind: "blocked", reason: `ledger line ${store.fault.line + 1}: ${store.fault.code}: ${store.fault.message}` };
  const state = checkpointStateOf(describeHistory(store.replayer));
  return state.blockedReason === null ? { kind: "ready", state } : { kind: "blocked", reason: state.blockedReason };
}

/** A hook state in the oracle's shape ("off" has no state to compare). */
export function comparable(state: HookState): unknown {
  if (state.kind === "ready") return { kind: "ready", state: state.state };
  if (state.kind === "blocked") return { kind: "blocked", reason: state.reason };
  return { kind: "off" };
}
