// A ledger store's health as the protocol reports it (lines, accepted and rejected entries, the
// first problem), and where a replay index lies in the file. Shared by the workspace ledger and
// `docket ledger verify`, which reads a store without the rest of the workspace.
import type { LedgerStore } from "../ledger/store";
import type { LedgerHealth } from "../protocol/messages";

export function lineOfReplayIndex(store: LedgerStore, index: number): number | null {
  return store.lineOfReplayIndex(index) ?? null;
}

export function ledgerHealth(store: LedgerStore): LedgerHealth {
  const replayer = store.replayer;
  const rejected = replayer.firstRejected;
  const fault = store.fault;
  let problem: LedgerHealth["problem"] = null;
  if (fault !== null) problem = { code: fault.code, message: fault.message, line: fault.line };
  else if (rejected !== null) problem = { code: rejected.code, message: rejected.message, line: lineOfReplayIndex(store, rejected.index) };
  return {
    path: store.ledgerPath,
    exists: store.exists,
    bytes: store.offset + store.tornTail,
    lines: store.lineCount,
    accepted: replayer.acceptedCount,
    rejected: replayer.entryCount - replayer.acceptedCount,
    tornTailBytes: store.tornTail,
    problem,
  };
}
