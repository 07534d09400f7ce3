// The hooks' slow path, loaded only when the checkpoint is missing, or behind and its tail seed
// cannot answer (tailCatchUp.ts reduces the lines after it otherwise): one full replay, within the
// caller's deadline (past it the hook denies).
// Either way a fresh checkpoint is written (without the ledger lock: the checkpoint is a cache
// that never allows anything by itself, and a stale one is only slower), so the next call is fast.
import fs from "node:fs";
import { describeHistory } from "../developer/history";
import { LedgerStore, StoreDeadlineError, type GuardLinesRead } from "../ledger/store";
import type { CheckpointState, OpenLedger } from "./checkpoint";
import { checkpointStateOf, writeCheckpoint } from "./checkpointState";

export type ReplayedState =
  | { readonly kind: "state"; readonly state: CheckpointState; readonly source: "tail" | "replay" }
  | { readonly kind: "fault"; readonly reason: string };

/**
 * Faster than any full replay Docket has measured (about 17 MB/s on the bench machine, issue 16).
 * A ledger that could not even be read at this rate in the time left cannot be replayed before the
 * deadline, so the replay is not started: the call answers at once instead of spending its budget
 * (and reading a huge file, which no deadline check interrupts) to deny anyway.
 */
const REPLAY_BYTES_PER_MS_BOUND = 64 * 1024;

function replayCannotFinish(size: number, deadline: number | undefined): boolean {
  return deadline !== undefined && size > Math.max(0, deadline - Date.now()) * REPLAY_BYTES_PER_MS_BOUND;
}

const REBUILD_HINT = "any `docket` command (e.g. `docket status`) rebuilds the checkpoint";

export function replayHookState(ledger: OpenLedger, options: { deadline?: number } = {}): ReplayedState {
  if (replayCannotFinish(ledger.size, options.deadline)) {
    return { kind: "fault", reason: `Docket could not replay the ledger before the hook's deadline (its ${ledger.size} bytes cannot be read in the time left); ${REBUILD_HINT}` };
  }
  const store = new LedgerStore(ledger.ledgerPath, { root: ledger.root });
  try {
    store.refresh(options.deadline === undefined ? {} : { deadline: options.deadline });
  } catch (error) {
    if (error instanceof StoreDeadlineError) {
      return { kind: "fault", reason: `Docket could not replay the ledger before the hook's deadline (${error.linesRead} lines read); ${REBUILD_HINT}` };
    }
    throw error;
  }
  const fault = store.fault;
  if (fault !== null) return { kind: "fault", reason: `ledger line ${fault.line + 1}: ${fault.code}: ${fault.message}` };
  writeCheckpoint(store);
  return { kind: "state", state: checkpointStateOf(describeHistory(store.replayer)), source: "replay" };
}

/**
 * Every completion-guard line of the ledger (the Stop check's fallback when a review's locator
 * does not answer); null when the ledger cannot be read in full before the deadline or is damaged.
 */
export function readGuardLines(ledgerPath: string, root: string, options: { deadline?: number } = {}): GuardLinesRead {
  let size = 0;
  try {
    size = fs.statSync(ledgerPath).size;
  } catch {
    // The store reports what is wrong with the file.
  }
  if (replayCannotFinish(size, options.deadline)) return { kind: "unreadable", reason: "the ledger could not be read in time" };
  const store = new LedgerStore(ledgerPath, { root });
  try {
    store.refresh(options.deadline === undefined ? {} : { deadline: options.deadline });
  } catch (error) {
    return { kind: "unreadable", reason: error instanceof StoreDeadlineError ? "the ledger could not be read in time" : `the ledger could not be read (${error instanceof Error ? error.message : String(error)})` };
  }
  const fault = store.fault;
  return fault === null ? { kind: "lines", lines: store.guardLines } : { kind: "unreadable", reason: `ledger line ${fault.line + 1}: ${fault.code}: ${fault.message}` };
}
