// What a full replay of the whole ledger says, in the hook's terms: the oracle the hooks' faster
// paths (checkpoint, tail seed, id log) are compared with.
import { describeHistory } from "../../server/developer/history";
import { checkpointStateOf } from "../../server/hooks/checkpointState";
import type { HookState } from "../../server/hooks/hookState";
import fs from "node:fs";
import { DEVELOPER_STREAM, encodeLedgerLine } from "../../server/ledger/ledgerLine";
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

/** Appends raw entries as ledger lines continuing the file's chain, the way a foreign writer would (no lock, no checkpoint). */
export function appendRaw(ledgerPath: string, entries: readonly unknown[]): void {
  const store = new LedgerStore(ledgerPath);
  store.refresh();
  let line = store.lineCount;
  let previous = store.headLineSha256;
  for (const entry of entries) {
    const encoded = encodeLedgerLine(line, previous, DEVELOPER_STREAM, entry);
    fs.appendFileSync(ledgerPath, encoded.text);
    previous = encoded.lineSha256;
    line += 1;
  }
}
