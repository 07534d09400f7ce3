// `docket ledger import-pi`: reads a Pi session, replays its active branch and reports what it
// holds; with an output path it writes the accepted envelopes as a new Docket ledger, but only
// from a clean import — a rejected envelope or an unreadable line would otherwise be silently
// dropped, and the new ledger would show a history the session never had.
import type { HistoryMode, Phase } from "../protocol/messages";
import { replayPiSession, type PiDisposition, type PiHistory } from "./piHistory";
import { writeLedgerFile, type LedgerExportResult } from "./piLedgerExport";
import type { PiLineProblem } from "./piSession";
import { loadPiSession } from "./piSessionFile";

export interface PiImportReport {
  readonly path: string;
  readonly session: { readonly id: string | null; readonly version: number | null; readonly cwd: string | null; readonly layout: "tree" | "linear" };
  readonly lines: number;
  readonly entries: number;
  readonly branchEntries: number;
  readonly offBranchEntries: number;
  readonly skippedEntries: number;
  readonly developerEvents: number;
  readonly offBranchDeveloperEvents: number;
  readonly accepted: number;
  readonly rejected: number;
  readonly problemCount: number;
  readonly problems: readonly PiLineProblem[];
  readonly dispositions: readonly PiDisposition[];
  readonly scopes: readonly { readonly workScopeId: string; readonly status: "open" | "closed"; readonly head: number }[];
  readonly historyMode: HistoryMode;
  readonly phase: Phase;
  readonly blockedReason: string | null;
  /** The ledger written with --out, or null (not asked, or refused because the import is not clean). */
  readonly out: LedgerExportResult | null;
}

export interface PiImportOutcome {
  readonly report: PiImportReport;
  /** 0 clean; 1 a rejected envelope or an unreadable line (nothing written with --out). */
  readonly exitCode: 0 | 1;
}

function reportOf(sessionPath: string, history: PiHistory, out: LedgerExportResult | null): PiImportReport {
  const read = history.read;
  const accepted = history.replayer.accepted.length;
  return {
    path: sessionPath,
    session: { id: read.header.sessionId, version: read.header.version, cwd: read.header.cwd, layout: read.layout },
    lines: read.lines,
    entries: read.entries,
    branchEntries: read.branchEntries,
    offBranchEntries: read.offBranchEntries,
    skippedEntries: read.skippedEntries,
    developerEvents: read.developerEntries.length,
    offBranchDeveloperEvents: read.offBranchDeveloperEntries,
    accepted,
    rejected: history.replayer.entryCount - accepted,
    problemCount: read.problemCount,
    problems: read.problems,
    dispositions: history.dispositions,
    scopes: history.history.scopes.map((scope) => ({ workScopeId: scope.workScopeId, status: scope.root.status, head: scope.head.scopeSequence })),
    historyMode: history.history.mode,
    phase: history.phase,
    blockedReason: history.history.blockedReason,
    out,
  };
}

/**
 * Throws DocketError for an unusable session and LedgerExportError when the output cannot be
 * written; both mean nothing was written.
 */
export function importPiSession(sessionPath: string, outPath: string | null): PiImportOutcome {
  const loaded = loadPiSession(sessionPath);
  const history = replayPiSession(loaded.read);
  const clean = history.replayer.firstRejected === null && loaded.read.problemCount === 0;
  const out =
    clean && outPath !== null
      ? writeLedgerFile(outPath, history.replayer.accepted.map((event) => event.envelope))
      : null;
  return { report: reportOf(sessionPath, history, out), exitCode: clean ? 0 : 1 };
}

/** The human summary printed without --json. */
export function formatImportReport(report: PiImportReport, outRequested: boolean): string {
  const lines: string[] = [];
  const session = report.session;
  const identity = session.id === null ? "" : ` (session ${session.id}, format ${session.version ?? 1})`;
  lines.push(`Pi session ${report.path}${identity}`);
  lines.push(
    `entries: ${report.entries} read from ${report.lines} lines; ${report.branchEntries} on the active branch` +
      (report.offBranchEntries > 0 ? `, ${report.offBranchEntries} on other branches (not replayed)` : ""),
  );
  lines.push(
    `developer events: ${report.developerEvents} (accepted ${report.accepted}, rejected ${report.rejected}); other entries skipped: ${report.skippedEntries}` +
      (report.offBranchDeveloperEvents > 0 ? `; developer events on other branches: ${report.offBranchDeveloperEvents}` : ""),
  );
  for (const problem of report.problems) lines.push(`line ${problem.line}: unreadable: ${problem.code}: ${problem.message}`);
  if (report.problemCount > report.problems.length) lines.push(`… and ${report.problemCount - report.problems.length} more unreadable lines`);
  for (const disposition of report.dispositions) {
    if (disposition.status === "rejected") lines.push(`line ${disposition.line} (event ${disposition.index}): rejected: ${disposition.code}: ${disposition.message}`);
  }
  for (const scope of report.scopes) lines.push(`scope ${scope.workScopeId}\t${scope.status}\thead ${scope.head}`);
  lines.push(`phase: ${report.phase} (${report.historyMode})${report.blockedReason === null ? "" : ` — ${report.blockedReason}`}`);
  if (report.out !== null) lines.push(`wrote ${report.out.lines} ledger lines to ${report.out.path}`);
  else if (outRequested) lines.push("nothing written: the import is not clean (see the rejected events and unreadable lines above)");
  return `${lines.join("\n")}\n`;
}
