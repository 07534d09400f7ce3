// Finding a review's ledger lines without reading the ledger: `.docket/guard/reviews/<hex>.json`
// records where each of its lines is (offset, length, hashes), written under the ledger lock right
// after the lines are committed. The locator is only an index: the Stop check reads the lines it
// points at and decodes them with the full line checks, so a wrong or forged locator finds nothing
// rather than a different review. Without a usable locator the caller falls back to reading the
// ledger (reviewLookup.ts).
import fs from "node:fs";
import path from "node:path";
import { decodeLedgerLine, GUARD_STREAM } from "../ledger/ledgerLine";
import type { GuardLine } from "../ledger/store";
import { openContained, readContained, writeFileAtomicContained } from "../workspace/containedFs";
import { DOCKET_FOLDER } from "../workspace/docketFolder";
import type { GuardEntry, ReviewOpened, ReviewSubmitted } from "./guardEntry";

const LOCATOR_FORMAT = "docket/guard-review-locator/v1";
const MAX_LOCATOR_BYTES = 16 * 1024;
/** A review line is at most a few hundred KiB (claims ≤ 100 × 4,000 characters, sources ≤ 100). */
const MAX_REVIEW_LINE_BYTES = 4 * 1024 * 1024;

interface LineLocation {
  readonly line: number;
  readonly offset: number;
  readonly length: number;
  readonly previousLineSha256: string | null;
  readonly lineSha256: string;
}

export interface LocatedReview {
  readonly opened: ReviewOpened;
  readonly openedLineSha256: string;
  readonly submitted: ReviewSubmitted | null;
}

export function guardFolder(workspaceFolder: string): string {
  return path.join(workspaceFolder, DOCKET_FOLDER, "guard");
}

function locatorPath(workspaceFolder: string, reviewId: string): string {
  return path.join(guardFolder(workspaceFolder), "reviews", `${reviewId.slice("review:".length)}.json`);
}

/** `.docket/guard/answers/<draftSha256>.json`: the supported whole-answer review of an answer digest. */
export function answerIndexPath(workspaceFolder: string, draftSha256: string): string {
  return path.join(guardFolder(workspaceFolder), "answers", `${draftSha256}.json`);
}

/** The review id indexed for an answer digest (automatic matching), read bounded and never through a link; null if none. */
export function readAnswerIndex(workspaceFolder: string, root: string, draftSha256: string): string | null {
  try {
    const bytes = readContained(root, answerIndexPath(workspaceFolder, draftSha256), 4096);
    if (bytes === null) return null;
    const value = JSON.parse(bytes.toString("utf8")) as { reviewId?: unknown };
    return typeof value.reviewId === "string" ? value.reviewId : null;
  } catch {
    return null;
  }
}

function locationOf(line: GuardLine): LineLocation {
  return { line: line.line, offset: line.offset, length: line.length, previousLineSha256: line.previousLineSha256, lineSha256: line.lineSha256 };
}

/** Writes (replaces) the locator of one review from the store's guard lines; best effort. */
export function writeReviewLocator(workspaceFolder: string, root: string, lines: readonly GuardLine[]): void {
  const first = lines[0];
  if (first === undefined) return;
  const payload = { format: LOCATOR_FORMAT, reviewId: first.entry.reviewId, lines: lines.map(locationOf) };
  try {
    writeFileAtomicContained(root, locatorPath(workspaceFolder, first.entry.reviewId), `${JSON.stringify(payload)}\n`, { mode: 0o600 });
  } catch {
    // An index: the lookup falls back to the ledger.
  }
}

function readLine(fd: number, location: LineLocation, size: number): GuardEntry | null {
  if (!Number.isSafeInteger(location.offset) || !Number.isSafeInteger(location.length) || location.offset < 0 || location.length < 2) return null;
  if (location.length > MAX_REVIEW_LINE_BYTES || location.offset + location.length > size) return null;
  const bytes = Buffer.alloc(location.length + 1);
  // One byte before the line: it must start a line.
  const from = location.offset === 0 ? 0 : location.offset - 1;
  const read = fs.readSync(fd, bytes, 0, location.offset === 0 ? location.length : location.length + 1, from);
  const view = location.offset === 0 ? bytes.subarray(0, read) : bytes.subarray(1, read);
  if (location.offset > 0 && bytes[0] !== 0x0a) return null;
  if (view.length !== location.length || view[view.length - 1] !== 0x0a) return null;
  try {
    const decoded = decodeLedgerLine(view.subarray(0, view.length - 1).toString("utf8"), location.line, location.previousLineSha256);
    if (decoded.stream !== GUARD_STREAM || decoded.lineSha256 !== location.lineSha256) return null;
    return decoded.entry as unknown as GuardEntry;
  } catch {
    return null;
  }
}

/**
 * The review as its locator finds it in the ledger; null when there is no locator or it does not
 * lead to this review's lines (the caller then reads the ledger).
 */
export function locateReview(workspaceFolder: string, root: string, ledgerPath: string, reviewId: string): LocatedReview | null {
  let raw: unknown;
  try {
    const bytes = readContained(root, locatorPath(workspaceFolder, reviewId), MAX_LOCATOR_BYTES);
    if (bytes === null) return null;
    raw = JSON.parse(bytes.toString("utf8"));
  } catch {
    return null;
  }
  if (typeof raw !== "object" || raw === null || (raw as { format?: unknown }).format !== LOCATOR_FORMAT) return null;
  const lines = (raw as { lines?: unknown }).lines;
  if (!Array.isArray(lines) || lines.length < 1 || lines.length > 2) return null;
  let fd: number;
  try {
    fd = openContained(root, ledgerPath, "r");
  } catch {
    return null;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const entries = (lines as LineLocation[]).map((location) => (typeof location === "object" && location !== null ? readLine(fd, location, size) : null));
    const [opened, submitted] = entries;
    if (opened?.kind !== "review-opened" || opened.reviewId !== reviewId) return null;
    if (submitted !== undefined && (submitted?.kind !== "review-submitted" || submitted.reviewId !== reviewId)) return null;
    const openedLineSha256 = (lines[0] as LineLocation).lineSha256;
    if (submitted !== undefined && submitted.openedLineSha256 !== openedLineSha256) return null;
    return { opened, openedLineSha256, submitted: submitted ?? null };
  } finally {
    fs.closeSync(fd);
  }
}

/** The review among a store's guard lines (the full read, used when no locator answers). */
export function reviewFromLines(lines: readonly GuardLine[], reviewId: string): { located: LocatedReview; lines: GuardLine[] } | null {
  const own = lines.filter((line) => line.entry.reviewId === reviewId);
  const opened = own.find((line) => line.entry.kind === "review-opened");
  if (opened === undefined || opened.entry.kind !== "review-opened") return null;
  const submittedLine = own.find((line) => line.entry.kind === "review-submitted" && line.entry.openedLineSha256 === opened.lineSha256);
  const submitted = submittedLine?.entry.kind === "review-submitted" ? submittedLine.entry : null;
  return {
    located: { opened: opened.entry, openedLineSha256: opened.lineSha256, submitted },
    lines: submittedLine === undefined ? [opened] : [opened, submittedLine],
  };
}
