// Review-board reports recorded for a plan basis: `.docket/reviews/<basisSha256>.jsonl`, one
// canonical SeatReport per line, append-only. A report is bound to the basis it reviewed (task,
// snapshot and catalogue), so a report for another basis can never colour the current board:
// recording one is refused, and reading only ever opens the current basis's file.
//
// Recording must not change the basis it records for: the snapshot never lists Docket's state
// folder (snapshot/fileList.ts), and `.docket/.gitignore` keeps the reports out of commits.
import fs from "node:fs";
import path from "node:path";
import { DocketError } from "../errors";
import { ensureDocketFolder } from "../workspace/docketFolder";
import { appendContained, openContained } from "../workspace/containedFs";
import { canonicalize, compareCodeUnits } from "../ledger/canonicalJson";
import { ErrorCodes } from "../protocol/errorCodes";
import { DOCKET_FOLDER } from "../workspace/docketFolder";
import { SeatReport, type ReviewerId } from "./planSchema";

export const REVIEWS_FOLDER = "reviews";
/** One report line at most (a report holds ≤ 200 findings of ≤ 4000 characters, with citations). */
export const MAX_REPORT_LINE_BYTES = 4 * 1024 * 1024;
/** Lines kept per basis: a board has at most six seats, so this leaves room for many re-reports. */
export const MAX_REPORTS_PER_BASIS = 1000;
/** A basis file larger than this is read only up to here (later lines are ignored, never parsed). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
const BASIS = /^[a-f0-9]{64}$/u;

/** What a report must match to be recorded: the plan the reviewer was shown. */
export interface CurrentBoard {
  readonly basisSha256: string;
  /** Reviewers seated on the current plan's board. */
  readonly seats: readonly ReviewerId[];
}

export function reviewsFile(workspaceRoot: string, basisSha256: string): string {
  if (!BASIS.test(basisSha256)) throw new DocketError(ErrorCodes.reviewReportInvalid, "A plan basis is a SHA-256 (64 lower-case hex digits).");
  return path.join(workspaceRoot, DOCKET_FOLDER, REVIEWS_FOLDER, `${basisSha256}.jsonl`);
}

function invalid(message: string): DocketError {
  return new DocketError(ErrorCodes.reviewReportInvalid, message);
}

// Citations name workspace files; a path that leaves the workspace is not a citation of it.
function checkCitationPaths(report: SeatReport): void {
  for (const finding of report.findings) {
    for (const citation of finding.citations) {
      if (citation.kind !== "file") continue;
      const value = citation.path;
      const segments = value.split("/");
      if (value.startsWith("/") || value.includes("\\") || /^[A-Za-z]:/u.test(value) || segments.includes("..") || value.includes("\0")) {
        throw invalid(`Finding ${finding.findingId} cites ${JSON.stringify(value)}: citations are POSIX paths relative to the workspace, without "..".`);
      }
    }
  }
}

/** Validates a report against the schema and the current board. Throws `docket.review-report-invalid`. */
export function validateReport(raw: unknown, board: CurrentBoard): SeatReport {
  const parsed = SeatReport.safeParse(raw);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(report)"}: ${issue.message}`).join("; ");
    throw invalid(`The review report does not match the SeatReport schema: ${detail}`);
  }
  const report = parsed.data;
  if (report.basisSha256 !== board.basisSha256) {
    throw invalid(
      `The report reviews plan basis ${report.basisSha256}, but the current plan's basis is ${board.basisSha256}: the task, the workspace or the skills changed since that plan. Plan again and review the new plan.`,
    );
  }
  if (!board.seats.includes(report.reviewer)) {
    throw invalid(`${report.reviewer} has no seat on the current board (seated: ${board.seats.join(", ")}).`);
  }
  if (report.outcome === "failed" && (report.failure === null || report.failure.trim() === "")) {
    throw invalid("A failed report says why in `failure`.");
  }
  if (report.outcome === "reported" && report.failure !== null) {
    throw invalid("`failure` is only for reports with outcome \"failed\".");
  }
  checkCitationPaths(report);
  return report;
}

interface ReadResult {
  /** Every valid line, in file order. */
  readonly reports: SeatReport[];
  /** Lines in the file (valid or not), to enforce the bound on appends. */
  readonly lines: number;
  readonly endsWithNewline: boolean;
}

function readFile(workspaceRoot: string, file: string, basisSha256: string): ReadResult {
  let bytes: Buffer;
  try {
    const handle = openContained(workspaceRoot, file, "r");
    try {
      const size = Math.min(fs.fstatSync(handle).size, MAX_FILE_BYTES);
      bytes = Buffer.alloc(size);
      let offset = 0;
      while (offset < size) {
        const read = fs.readSync(handle, bytes, offset, size - offset, offset);
        if (read === 0) break;
        offset += read;
      }
      bytes = bytes.subarray(0, offset);
    } finally {
      fs.closeSync(handle);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { reports: [], lines: 0, endsWithNewline: true };
    throw error;
  }
  const text = bytes.toString("utf8");
  const rawLines = text.split("\n");
  // The last element is "" after a final newline, or a torn (interrupted) line: ignored either way.
  const complete = rawLines.slice(0, -1);
  const reports: SeatReport[] = [];
  for (const line of complete) {
    if (line.length === 0 || line.length > MAX_REPORT_LINE_BYTES) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = SeatReport.safeParse(value);
    if (parsed.success && parsed.data.basisSha256 === basisSha256) reports.push(parsed.data);
  }
  return { reports, lines: complete.length + (rawLines[rawLines.length - 1] === "" ? 0 : 1), endsWithNewline: text.length === 0 || text.endsWith("\n") };
}

/**
 * The reports recorded for `basisSha256`: the latest per reviewer (a seat may report again after
 * a fix), sorted by reviewer id so the plan never depends on recording order across seats.
 */
export function readReports(workspaceRoot: string, basisSha256: string): SeatReport[] {
  const { reports } = readFile(workspaceRoot, reviewsFile(workspaceRoot, basisSha256), basisSha256);
  const latest = new Map<string, SeatReport>();
  for (const report of reports) latest.set(report.reviewer, report);
  return [...latest.keys()].sort(compareCodeUnits).map((reviewer) => latest.get(reviewer) as SeatReport);
}

/** Validates and appends one report; nothing is written when it is refused. */
export function appendReport(workspaceRoot: string, raw: unknown, board: CurrentBoard): SeatReport {
  // A finding may quote what the reviewer read; the report file keeps no secret.
  // Loaded only here: redaction (a secret scanner) is needed to record a report, not to plan.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { redactPersistedInput } = require("../evidence/persistedText") as typeof import("../evidence/persistedText");
  const report = validateReport(redactPersistedInput(raw).value, board);
  const line = `${canonicalize(report)}\n`;
  if (Buffer.byteLength(line, "utf8") > MAX_REPORT_LINE_BYTES) throw invalid(`The report is larger than ${MAX_REPORT_LINE_BYTES} bytes.`);
  const file = reviewsFile(workspaceRoot, board.basisSha256);
  const existing = readFile(workspaceRoot, file, board.basisSha256);
  if (existing.lines >= MAX_REPORTS_PER_BASIS) {
    throw invalid(`${MAX_REPORTS_PER_BASIS} reports are already recorded for this plan basis; plan again to review a new basis.`);
  }
  ensureDocketFolder(workspaceRoot);
  // A torn last line (an interrupted writer) stays on its own line, ignored, instead of
  // swallowing this report. Never through a link a repository placed under `.docket/`.
  appendContained(workspaceRoot, file, existing.endsWithNewline ? line : `\n${line}`, { mode: 0o600 });
  return report;
}
