// The checkpoint state a history view gives: what the tool policy needs from a replay or a reduced
// tail. Its own module (not checkpointState.ts, which reads and writes checkpoint files), so the
// tail bundle takes the derivation without the checkpoint's parser.
import { phaseOf, runtimeFacts, type HistoryView } from "../developer/history";
import { derivedPurpose } from "../developer/decisionPurpose";
import type { CheckpointState } from "./checkpoint";

export function checkpointStateOf(history: HistoryView): CheckpointState {
  return {
    blockedReason: history.mode === "blocked" ? (history.blockedReason ?? "the ledger history is blocked") : null,
    phase: phaseOf(history),
    workScopeId: history.activeScope?.workScopeId ?? null,
    purpose: history.activeScope === null ? null : derivedPurpose(history.activeScope),
    facts: runtimeFacts(history),
  };
}
