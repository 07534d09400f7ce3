// The backend's first answers on a large ledger: status and the Work view from the verified
// snapshot (checkpoint bound to the ledger bytes, tail seed, the tail reduced with a replay's
// rules — exactly what a write starts from, snapshotWrites.ts), while the full replay reads the
// history behind them. Everything the snapshot proves is given as a replay gives it; what only the
// whole history holds (closed scopes, receipts, rejected entries) is marked `stillReading` and
// left out, never guessed.
import { describeWorkState } from "../developer/workState";
import { ReceiptProjection } from "../developer/receipts";
import type { HistoryView } from "../developer/history";
import type { Status, WorkState } from "../protocol/messages";
import { historyStatus, statusRevision } from "./historyStatus";
import type { SnapshotReading } from "./snapshotWrites";

/** The projection of no receipts: what Status carries for them until the history is read. */
const NO_RECEIPTS = new ReceiptProjection();

/** The snapshot's history with only its open scopes, as a getter-free value. */
function openScopesOnly(history: HistoryView): HistoryView {
  return { mode: history.mode, blockedReason: history.blockedReason, activeScope: history.activeScope, scopes: [...history.scopes] };
}

export function snapshotStatus(input: { workspaceFolder: string; trusted: boolean; ledgerPath: string; reading: SnapshotReading }): Status {
  const { view, bytes, tornBytes } = input.reading;
  const status = historyStatus({
    workspaceFolder: input.workspaceFolder,
    trusted: input.trusted,
    history: openScopesOnly(view.history),
    health: { path: input.ledgerPath, exists: true, bytes, lines: view.lineCount, accepted: 0, rejected: 0, tornTailBytes: tornBytes, problem: null },
    // A proven snapshot has no fault: the checkpoint was written over a fault-free read, and the tail reduced without one.
    revision: statusRevision({ headLineSha256: view.headLineSha256, lines: view.lineCount, tornTailBytes: tornBytes, fault: null }),
    projection: NO_RECEIPTS,
    source: { kind: "workspace" },
  });
  return { ...status, stillReading: true };
}

export function snapshotWorkState(reading: SnapshotReading): WorkState {
  return { ...describeWorkState(openScopesOnly(reading.view.history)), historyNextCursor: null, stillReading: true };
}
