// Where the commit links find accepted landings (issue 17). The prepare-commit-msg hook needs the
// open scope's landings only (a commit is linked "while Docket is on"), and reads them from the
// verified snapshot (the checkpoint and its tail: no replay, so a commit on a large ledger does
// not wait on it); `docket link` and the audit need every landing, and replay. A blocked history
// (a rejected line, a tampered ledger) yields no landing at all: nothing is claimed from a
// ledger Docket does not understand.
import fs from "node:fs";
import type { WorkLanding } from "../protocol/messages";
import { describeWorkState } from "../developer/workState";
import type { HistoryView } from "../developer/history";
import { containmentRootFor } from "../workspace/ledgerPaths";
import { readSnapshotReading } from "../workspace/snapshotWrites";
import { WorkspaceLedger } from "../workspace/workspaceLedger";
import { DocketError } from "../errors";
import { ErrorCodes } from "../protocol/errorCodes";
import type { LandingRecord } from "./linkLines";

export interface OpenScopeLandings {
  /** The open scope, or null when Docket is off (or the history is blocked). */
  readonly workScopeId: string | null;
  readonly landings: readonly LandingRecord[];
  /** "snapshot" when the verified checkpoint answered, "replay" when the ledger was read whole. */
  readonly source: "snapshot" | "replay" | "none";
  /** Why the history is blocked (then there are no landings), else null. */
  readonly blockedReason: string | null;
}

function records(workScopeId: string, landings: readonly WorkLanding[]): LandingRecord[] {
  return landings.map((landing) => ({ workScopeId, landingId: landing.landingId, eventSha256: landing.eventSha256, changedPaths: [...landing.changedPaths] }));
}

function openScopeOf(history: HistoryView, source: OpenScopeLandings["source"]): OpenScopeLandings {
  if (history.mode === "blocked") return { workScopeId: null, landings: [], source, blockedReason: history.blockedReason ?? "the history is blocked" };
  if (history.activeScope === null) return { workScopeId: null, landings: [], source, blockedReason: null };
  const work = describeWorkState({ mode: history.mode, blockedReason: history.blockedReason, activeScope: history.activeScope, scopes: [history.activeScope] });
  const workScopeId = work.workScopeId;
  if (workScopeId === null) return { workScopeId: null, landings: [], source, blockedReason: null };
  return { workScopeId, landings: records(workScopeId, work.landings), source, blockedReason: null };
}

function readLedger(workspaceFolder: string, ledgerPath: string): WorkspaceLedger {
  // Read only: an untrusted reader, and nothing here appends or refreshes the checkpoint.
  return new WorkspaceLedger({ workspaceFolder, ledgerPath, trusted: false });
}

/** The open scope's accepted landings: from the verified snapshot when it proves them, else one replay. */
export function openScopeLandings(workspaceFolder: string, ledgerPath: string): OpenScopeLandings {
  if (!fs.existsSync(ledgerPath)) return { workScopeId: null, landings: [], source: "none", blockedReason: null };
  const reading = readSnapshotReading(containmentRootFor(workspaceFolder, ledgerPath), ledgerPath);
  if (reading !== null) return openScopeOf(reading.view.history, "snapshot");
  const ledger = readLedger(workspaceFolder, ledgerPath);
  return openScopeOf(ledger.history(), "replay");
}

/** Every accepted landing of the ledger (closed scopes and the open one); a blocked history is a coded refusal. */
export function allLandings(workspaceFolder: string, ledgerPath: string): LandingRecord[] {
  if (!fs.existsSync(ledgerPath)) return [];
  const ledger = readLedger(workspaceFolder, ledgerPath);
  const history = ledger.history();
  if (history.mode === "blocked") {
    throw new DocketError(ErrorCodes.historyBlocked, `The ledger cannot be trusted (${history.blockedReason ?? "its history is blocked"}); no commit is linked. Run \`docket ledger verify\`.`);
  }
  const work = describeWorkState(history);
  const closed = work.history.flatMap((entry) => records(entry.workScopeId, entry.landings));
  return work.workScopeId === null ? closed : [...closed, ...records(work.workScopeId, work.landings)];
}
