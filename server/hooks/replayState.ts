// The hooks' slow path, loaded only when the checkpoint is missing or behind. Behind: the lines
// after it are reduced from the checkpoint's tail seed (tailReduction.ts). Missing, or a tail the
// seed cannot answer: one full replay. Either way a fresh checkpoint is written (without the ledger
// lock: the checkpoint is a verified cache, and a stale one is only slower, never wrong), so the
// next hook call is fast again.
import { describeHistory } from "../developer/history";
import { LedgerStore } from "../ledger/store";
import type { Checkpoint, CheckpointState } from "./checkpoint";
import { checkpointStateOf, writeCheckpoint } from "./checkpointState";
import { reduceTail } from "./tailReduction";

export type ReplayedState =
  | { readonly kind: "state"; readonly state: CheckpointState; readonly source: "tail" | "replay" }
  | { readonly kind: "fault"; readonly reason: string };

export function replayHookState(ledgerPath: string): ReplayedState {
  const store = new LedgerStore(ledgerPath);
  store.refresh();
  const fault = store.fault;
  if (fault !== null) return { kind: "fault", reason: `ledger line ${fault.line + 1}: ${fault.code}: ${fault.message}` };
  writeCheckpoint(store);
  return { kind: "state", state: checkpointStateOf(describeHistory(store.replayer)), source: "replay" };
}

/** The state after the lines a checkpoint is behind by; a full replay only when the seed cannot answer. */
export function catchUpHookState(ledgerPath: string, checkpoint: Checkpoint): ReplayedState {
  const reduced = reduceTail(ledgerPath, checkpoint);
  if (reduced === null) return replayHookState(ledgerPath);
  return reduced.kind === "fault" ? reduced : { kind: "state", state: reduced.state, source: "tail" };
}
