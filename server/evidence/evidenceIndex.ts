// Reading the evidence store without a lock: an incremental index for the lookups conclusions use,
// and the newest handles for status and hook context. A torn, foreign or altered line is skipped.
import fs from "node:fs";
import type { EvidenceLookup, ToolResultEvidence, UserDecisionEvidence } from "../developer/operations/evidence";
import { DocketError } from "../errors";
import { ErrorCodes } from "../protocol/errorCodes";
import { EVIDENCE_FORMAT, parseRecordLine, type EvidenceRecord } from "./evidenceRecord";
import { MAX_LINE_BYTES, evidenceDirectory, listSegments, readRange, recordsBackwards, sizeOf, type Segment } from "./evidenceSegments";

export interface RecentEvidence {
  readonly branchResultId: string;
  readonly toolName: string;
  readonly occurredAt: string;
  readonly truncated: boolean;
}

type IndexEntry = { readonly kind: "tool-result"; readonly branchResultId: string; readonly sequence: number } | { readonly kind: "user-decision"; readonly sequence: number; readonly userEventId?: string };

/**
 * What the index needs from a line, without validating it: indexing a large store stays cheap, and
 * the one line a lookup returns is fully verified (schema and hash) when it is read.
 */
function indexEntry(line: string): IndexEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const fields = value as { format?: unknown; kind?: unknown; sequence?: unknown; branchResultId?: unknown; userEventId?: unknown };
  if (fields.format !== EVIDENCE_FORMAT || typeof fields.sequence !== "number") return undefined;
  if (fields.kind === "tool-result" && typeof fields.branchResultId === "string") return { kind: "tool-result", branchResultId: fields.branchResultId, sequence: fields.sequence };
  if (fields.kind === "user-decision") return { kind: "user-decision", sequence: fields.sequence, ...(typeof fields.userEventId === "string" ? { userEventId: fields.userEventId } : {}) };
  return undefined;
}

interface Location {
  readonly file: string;
  readonly offset: number;
  readonly length: number;
  readonly sequence: number;
}

/**
 * An incremental index over the segments: each refresh reads only bytes appended since the last
 * one; lookups re-read and re-verify the one line they return.
 */
class EvidenceIndex implements EvidenceLookup {
  private readonly consumed = new Map<string, number>();
  private readonly toolResults = new Map<string, Location>();
  private latestDecision: Location | undefined;
  /** Every user decision by id (Observer reads the prompt of a run by its id). */
  private readonly decisions = new Map<string, Location>();

  constructor(private readonly directory: string) {}

  private forget(file: string): void {
    this.consumed.delete(file);
    for (const [id, location] of this.toolResults) if (location.file === file) this.toolResults.delete(id);
    if (this.latestDecision?.file === file) this.latestDecision = undefined;
    for (const [id, location] of this.decisions) if (location.file === file) this.decisions.delete(id);
  }

  private refresh(): void {
    let segments: Segment[];
    try {
      segments = listSegments(this.directory);
    } catch {
      return;
    }
    const present = new Set(segments.map((segment) => segment.file));
    for (const file of [...this.consumed.keys()]) if (!present.has(file)) this.forget(file);
    for (const segment of segments) {
      const size = sizeOf(segment.file);
      let start = this.consumed.get(segment.file) ?? 0;
      if (size < start) {
        this.forget(segment.file);
        start = 0;
      }
      if (size === start) continue;
      const bytes = readRange(segment.file, start, size - start);
      let lineStart = 0;
      for (let newline = bytes.indexOf(0x0a); newline >= 0; newline = bytes.indexOf(0x0a, lineStart)) {
        const record = indexEntry(bytes.subarray(lineStart, newline).toString("utf8"));
        if (record !== undefined) {
          const location = { file: segment.file, offset: start + lineStart, length: newline - lineStart, sequence: record.sequence };
          if (record.kind === "tool-result") {
            const previous = this.toolResults.get(record.branchResultId);
            if (previous === undefined || previous.sequence < record.sequence) this.toolResults.set(record.branchResultId, location);
          } else {
            if (this.latestDecision === undefined || this.latestDecision.sequence < record.sequence) this.latestDecision = location;
            if (record.userEventId !== undefined) this.decisions.set(record.userEventId, location);
          }
        }
        lineStart = newline + 1;
      }
      // A torn last line stays unconsumed until a writer closes it off with a newline.
      this.consumed.set(segment.file, start + lineStart);
    }
  }

  private read(location: Location): EvidenceRecord | undefined {
    try {
      return parseRecordLine(readRange(location.file, location.offset, location.length).toString("utf8"));
    } catch {
      return undefined;
    }
  }

  toolResult(branchResultId: string): ToolResultEvidence | undefined {
    this.refresh();
    const location = this.toolResults.get(branchResultId);
    const record = location === undefined ? undefined : this.read(location);
    if (record?.kind !== "tool-result" || record.branchResultId !== branchResultId) return undefined;
    return Object.freeze({
      branchResultId: record.branchResultId,
      toolCallId: record.toolCallId,
      toolName: record.toolName,
      argumentsSha256: record.argumentsSha256,
      parts: Object.freeze(record.parts.map((part) => Object.freeze({ ...part }))),
      isError: record.isError,
      truncated: record.truncated,
      sequence: record.sequence,
    });
  }

  /** The user decision with this id (a prompt Observer staged), or undefined when unknown or rotated out. */
  userDecision(userEventId: string): (UserDecisionEvidence & { readonly sessionId: string; readonly truncated: boolean }) | undefined {
    this.refresh();
    const location = this.decisions.get(userEventId);
    const record = location === undefined ? undefined : this.read(location);
    if (record?.kind !== "user-decision" || record.userEventId !== userEventId) return undefined;
    return Object.freeze({
      userEventId: record.userEventId,
      sessionId: record.sessionId,
      truncated: record.truncated,
      parts: Object.freeze(record.parts.map((part) => Object.freeze({ ...part }))),
      sequence: record.sequence,
    });
  }

  latestUserDecision(): UserDecisionEvidence | undefined {
    this.refresh();
    const record = this.latestDecision === undefined ? undefined : this.read(this.latestDecision);
    // The interface has no truncation flag for decisions, so a cut prompt is never offered as one.
    if (record?.kind !== "user-decision" || record.truncated) return undefined;
    return Object.freeze({
      userEventId: record.userEventId,
      parts: Object.freeze(record.parts.map((part) => Object.freeze({ ...part }))),
      sequence: record.sequence,
    });
  }
}

/** Synchronous lookups over everything captured in the workspace (WorkspaceLedger's default). */
export function workspaceEvidence(workspaceFolder: string): EvidenceLookup & Pick<EvidenceIndex, "userDecision"> {
  return new EvidenceIndex(evidenceDirectory(workspaceFolder));
}

/**
 * How much of a segment's end the newest handles are first looked for in: enough for a couple of
 * the largest lines, a small part of a full segment (4 MiB), which is read whole only when the
 * tail's complete lines do not settle the answer.
 */
export const RECENT_TAIL_BYTES = 2 * MAX_LINE_BYTES;

interface RecentScan {
  readonly result: RecentEvidence[];
  readonly seen: Set<string>;
}

/** Adds `text`'s records, newest first, to `scan`; true once it holds `limit` handles. */
function scanBackwards(text: string, scan: RecentScan, limit: number): boolean {
  for (const record of recordsBackwards(text)) {
    if (record.kind !== "tool-result" || scan.seen.has(record.branchResultId)) continue;
    scan.seen.add(record.branchResultId);
    if (record.isError) continue;
    scan.result.push({ branchResultId: record.branchResultId, toolName: record.toolName, occurredAt: record.occurredAt, truncated: record.truncated });
    if (scan.result.length >= limit) return true;
  }
  return false;
}

/**
 * The complete lines at the end of a segment larger than the tail, or undefined when it has none
 * (or shrank meanwhile).
 * The bytes up to the tail's first newline are dropped even when they are a whole line: a cut can
 * land inside a foreign line such that its rest parses as a record the whole-file read skips.
 * A newline byte is never part of a UTF-8 sequence, so what follows it decodes exactly as it does
 * in the whole file.
 */
function completeTailLines(file: string, size: number): string | undefined {
  const tail = readRange(file, size - RECENT_TAIL_BYTES, RECENT_TAIL_BYTES);
  // A segment that shrank since its size was read is not the file's end: the whole read decides.
  if (tail.length !== RECENT_TAIL_BYTES) return undefined;
  const firstNewline = tail.indexOf(0x0a);
  return firstNewline < 0 ? undefined : tail.subarray(firstNewline + 1).toString("utf8");
}

/**
 * The newest successful tool results (newest first, one per handle), for status and hook context.
 * A large segment is read from its tail first (every capture refreshes these handles, and a full
 * segment is 4 MiB); the answer is the whole-file scan's, because the tail's lines are the file's
 * last lines in the same order, and a tail that does not reach `limit` is dropped and the segment
 * is scanned whole from the state before it.
 */
export function recentEvidence(workspaceFolder: string, limit: number): RecentEvidence[] {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1_000) throw new DocketError(ErrorCodes.invalidParams, "limit must be an integer from 1 to 1000.");
  const scan: RecentScan = { result: [], seen: new Set<string>() };
  const segments = listSegments(evidenceDirectory(workspaceFolder));
  for (let index = segments.length - 1; index >= 0; index -= 1) {
    const file = (segments[index] as Segment).file;
    try {
      const size = sizeOf(file);
      if (size > RECENT_TAIL_BYTES) {
        const tailText = completeTailLines(file, size);
        const tailScan: RecentScan = { result: [...scan.result], seen: new Set(scan.seen) };
        if (tailText !== undefined && scanBackwards(tailText, tailScan, limit)) return tailScan.result;
      }
    } catch {
      // The whole-file read below decides, as it did before the tail was tried.
    }
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      continue;
    }
    if (scanBackwards(text, scan, limit)) return scan.result;
  }
  return scan.result;
}
