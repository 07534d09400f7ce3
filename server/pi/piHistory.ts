// The read-only history of a Pi session: its active branch's developer.runtime envelopes replayed
// with the ledger's replay (§7.2), described like the workspace ledger's history (§7.3), and the
// receipt projection over the accepted events (§8.1). Pure.
import { describeHistory, phaseOf, type HistoryView, type Phase } from "../developer/history";
import { ReceiptProjection } from "../developer/receipts";
import { replayEntries, type Replayer } from "../ledger/replay";
import type { LedgerHealth, VerifyResult } from "../protocol/messages";
import type { PiDeveloperEntry, PiSessionRead } from "./piSession";

export type PiDisposition =
  | { readonly index: number; readonly line: number; readonly entryId: string | null; readonly status: "accepted"; readonly eventId: string }
  | {
      readonly index: number;
      readonly line: number;
      readonly entryId: string | null;
      readonly status: "rejected";
      readonly code: string;
      readonly message: string;
    };

export interface PiHistory {
  readonly read: PiSessionRead;
  readonly replayer: Replayer;
  readonly history: HistoryView;
  readonly phase: Phase;
  readonly dispositions: readonly PiDisposition[];
  readonly projection: ReceiptProjection;
}

export function replayPiSession(read: PiSessionRead): PiHistory {
  const replayer = replayEntries(read.developerEntries.map((entry) => entry.envelope));
  const described = describeHistory(replayer);
  const dispositions = replayer.dispositions.map((disposition): PiDisposition => {
    const entry = read.developerEntries[disposition.index] as PiDeveloperEntry;
    const where = { index: disposition.index, line: entry.line, entryId: entry.entryId };
    return disposition.status === "accepted"
      ? { ...where, status: "accepted", eventId: disposition.eventId }
      : { ...where, status: "rejected", code: disposition.code, message: disposition.message };
  });
  const firstRejected = dispositions.find((disposition) => disposition.status === "rejected");
  // The replay names the entry index; people look for the session line.
  const history =
    firstRejected !== undefined && replayer.firstRejected !== null && described.blockedReason !== null
      ? { ...described, blockedReason: `Pi session line ${firstRejected.line}: ${described.blockedReason}` }
      : described;
  const projection = new ReceiptProjection();
  projection.follow(replayer.accepted);
  return { read, replayer, history, phase: phaseOf(history), dispositions, projection };
}

function firstRejection(history: PiHistory): (PiDisposition & { status: "rejected" }) | null {
  for (const disposition of history.dispositions) if (disposition.status === "rejected") return disposition;
  return null;
}

/** Ledger-health figures for a Pi session, so the views show its counts like a ledger's. */
export function piSessionHealth(path: string, history: PiHistory): LedgerHealth {
  const rejected = firstRejection(history);
  const lineProblem = history.read.problems[0];
  let problem: LedgerHealth["problem"] = null;
  if (rejected !== null) problem = { code: rejected.code, message: rejected.message, line: rejected.line - 1 };
  else if (lineProblem !== undefined) problem = { code: `pi-line-${lineProblem.code}`, message: lineProblem.message, line: lineProblem.line - 1 };
  return {
    path,
    exists: true,
    bytes: history.read.bytes,
    lines: history.read.lines,
    accepted: history.replayer.accepted.length,
    rejected: history.replayer.entryCount - history.replayer.accepted.length,
    tornTailBytes: 0,
    problem,
  };
}

/** "Verify" for a Pi session: every developer entry of the branch replays and every line reads. */
export function verifyPiHistory(path: string, history: PiHistory): VerifyResult {
  const rejected = firstRejection(history);
  const lineProblem = history.read.problems[0];
  let firstFault: VerifyResult["firstFault"] = null;
  if (rejected !== null) firstFault = { line: rejected.line, index: rejected.index, code: rejected.code, message: rejected.message };
  else if (lineProblem !== undefined) firstFault = { line: lineProblem.line, index: null, code: `pi-line-${lineProblem.code}`, message: lineProblem.message };
  return {
    ok: firstFault === null,
    path,
    lines: history.read.lines,
    accepted: history.replayer.accepted.length,
    rejected: history.replayer.entryCount - history.replayer.accepted.length,
    firstFault,
    tornTailBytes: 0,
    headLineSha256: null,
    missingLines: null,
    // A Pi session is Pi's file: Docket neither anchors it nor compares it with Git.
    anchor: "none",
    git: { state: "unavailable", commit: null, note: "a Pi session, not a Docket ledger" },
  };
}
