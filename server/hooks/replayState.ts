// The hooks' slow path: a full replay of the ledger when the checkpoint is missing or behind.
// It writes a fresh checkpoint (without the ledger lock: the checkpoint is a verified cache, and
// a stale one is only slower, never wrong), so the next hook call is fast again.
import { describeHistory } from "../developer/history";
import { LedgerStore } from "../ledger/store";
import type { CheckpointState } from "./checkpoint";
import { checkpointStateOf, writeCheckpoint } from "./checkpointState";

export type ReplayedState = { readonly kind: "state"; readonly state: CheckpointState } | { readonly kind: "fault"; readonly reason: string };

export function replayHookState(ledgerPath: string): ReplayedState {
  const store = new LedgerStore(ledgerPath);
  store.refresh();
  const fault = store.fault;
  if (fault !== null) return { kind: "fault", reason: `ledger line ${fault.line + 1}: ${fault.code}: ${fault.message}` };
  writeCheckpoint(store);
  return { kind: "state", state: checkpointStateOf(describeHistory(store.replayer)) };
}
