// `docket ledger verify`: a ledger file checked from its first byte with nothing but the store
// (no receipts, no workspace), so the command and the backend's verify request load only that.
import { LedgerStore } from "../ledger/store";
import type { VerifyResult } from "../protocol/messages";
import { compareWithCommittedLedger } from "./gitAnchor";
import { checkMergeInProgress } from "../team/mergeInProgress";
import { ledgerHealth, lineOfReplayIndex } from "./ledgerHealth";
import { containmentRootFor } from "./ledgerPaths";

/**
 * Verifies a ledger file from its first byte, independent of any cached state: every line's
 * wrapper and chain, replay and the head anchor beside it — everything but Git (synchronous, for
 * callers that verify often). The earliest problem wins: a line whose entry replay rejects comes
 * before the chain break its edit causes on the next line.
 */
export function verifyLedgerBytes(ledgerPath: string): VerifyResult {
  const store = new LedgerStore(ledgerPath, { root: containmentRootFor("", ledgerPath) });
  store.refresh();
  const health = ledgerHealth(store);
  const fault = store.fault;
  const rejected = store.replayer.firstRejected;
  const rejectedLine = rejected === null ? null : (lineOfReplayIndex(store, rejected.index) ?? 0) + 1;
  let firstFault: VerifyResult["firstFault"] = null;
  let missingLines: VerifyResult["missingLines"] = null;
  if (rejected !== null && rejectedLine !== null && (fault === null || rejectedLine <= fault.line + 1)) {
    firstFault = { line: rejectedLine, index: rejected.index, code: rejected.code, message: rejected.message };
  } else if (fault !== null) {
    firstFault = { line: fault.line + 1, index: null, code: fault.code, message: fault.message };
    missingLines = fault.missingLines ?? null;
  } else if (store.tailIsCompleteLine()) {
    // A crashed writer leaves a strict prefix of a line; a whole line without (or with an
    // altered) newline means a committed line's terminator was edited.
    firstFault = {
      line: store.lineCount + 1,
      index: null,
      code: "ledger-line-unterminated",
      message: "the last line is complete but its newline is missing or altered",
    };
  }
  return {
    ok: firstFault === null,
    path: ledgerPath,
    lines: health.lines,
    accepted: health.accepted,
    rejected: health.rejected,
    firstFault,
    tornTailBytes: health.tornTailBytes,
    headLineSha256: store.headLineSha256,
    missingLines,
    anchor: store.anchorState.kind,
    git: { state: "unavailable", commit: null, note: "not compared" },
  };
}

/**
 * Everything verifyLedgerBytes checks, plus — when Git tracks the ledger — the version committed at
 * HEAD, a second anchor a local rewrite of the ledger and its anchor cannot reach.
 */
export async function verifyLedgerFile(ledgerPath: string): Promise<VerifyResult> {
  const local = verifyLedgerBytes(ledgerPath);
  const committed = await compareWithCommittedLedger(ledgerPath);
  if (committed.kind === "matched") return { ...local, git: { state: "matched", commit: committed.commit, note: null } };
  if (committed.kind === "untracked") return { ...local, git: { state: "untracked", commit: null, note: null } };
  if (committed.kind === "unavailable") return { ...local, git: { state: "unavailable", commit: null, note: committed.reason } };
  if (committed.kind === "rewritten" && local.firstFault === null) {
    // A merge not yet committed: the ledger is the driver's merge of HEAD's and MERGE_HEAD's.
    const merging = await checkMergeInProgress(ledgerPath);
    if (merging.kind === "matched") {
      const note = `a merge is in progress: the ledger is Docket's merge of the ledgers committed at HEAD (${merging.head.slice(0, 12)}) and MERGE_HEAD (${merging.mergeHead.slice(0, 12)})`;
      return { ...local, git: { state: "matched", commit: committed.commit, note } };
    }
  }
  const git: VerifyResult["git"] = { state: "mismatched", commit: committed.commit, note: committed.message };
  if (local.firstFault !== null) return { ...local, git };
  return committed.kind === "truncated"
    ? { ...local, ok: false, git, firstFault: { line: committed.missing.from, index: null, code: "ledger-truncated", message: committed.message }, missingLines: committed.missing }
    : { ...local, ok: false, git, firstFault: { line: committed.line, index: null, code: "ledger-rewritten", message: committed.message } };
}
