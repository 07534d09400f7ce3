// The evidence store's files: append-only JSON Lines segments under `<workspace>/.docket/evidence/`
// named `segment-<first sequence, 12 digits>.jsonl`. One append takes the store's O_EXCL lock
// (`append.lock`, the ledger's lock implementation), reads the newest segment's last record to
// number the new one, and writes the whole line with one O_APPEND write, so concurrent hook
// processes never interleave and `sequence` is gap-free and monotonic. A segment is closed at
// SEGMENT_BYTES; past STORE_CAP_BYTES the oldest segments are deleted.
import fs from "node:fs";
import { fsyncDirectory } from "../ledger/durableFs";
import path from "node:path";
import { DocketError, toDocketError } from "../errors";
import { O_NOFOLLOW, UnsafePathError, assertContained, ensureContainedDirectory, openContained } from "../workspace/containedFs";
import { LockTimeoutError, withExclusiveLock } from "../ledger/lock";
import { ErrorCodes } from "../protocol/errorCodes";
import { MAX_SEQUENCE, parseRecordLine, type EvidenceRecord } from "./evidenceRecord";
import { ensureDocketFolder } from "../workspace/docketFolder";

export const EVIDENCE_RELATIVE_DIRECTORY = path.join(".docket", "evidence");
/** A segment is closed once the next line would take it past this size. */
export const SEGMENT_BYTES = 4 * 1024 * 1024;
/** Past this total the oldest segments are deleted (the newest is always kept). */
export const STORE_CAP_BYTES = 64 * 1024 * 1024;
/** No line is longer; content and preview bounds keep every record well below it. */
export const MAX_LINE_BYTES = 160 * 1024;
const LOCK_TIMEOUT_MS = 5_000;
const SEGMENT_NAME = /^segment-(\d{12})\.jsonl$/;

let limits = { segmentBytes: SEGMENT_BYTES, storeCapBytes: STORE_CAP_BYTES };
/** Tests shrink rotation and the cap to exercise them without writing 64 MiB; null restores. */
export function setEvidenceStoreLimitsForTests(next: { readonly segmentBytes: number; readonly storeCapBytes: number } | null): void {
  limits = next === null ? { segmentBytes: SEGMENT_BYTES, storeCapBytes: STORE_CAP_BYTES } : { ...next };
}


export function evidenceDirectory(workspaceFolder: string): string {
  return path.join(path.resolve(workspaceFolder), EVIDENCE_RELATIVE_DIRECTORY);
}

function requireWorkspace(workspaceFolder: string): string {
  const folder = path.resolve(workspaceFolder);
  let isDirectory = false;
  try {
    isDirectory = fs.statSync(folder).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) throw new DocketError(ErrorCodes.noWorkspace, `${folder} is not a folder; no evidence was captured.`);
  return folder;
}

export interface Segment {
  readonly file: string;
  readonly name: string;
  readonly firstSequence: number;
}

function isRegularFile(file: string): boolean {
  try {
    return fs.lstatSync(file).isFile();
  } catch {
    return false;
  }
}

export function listSegments(directory: string): Segment[] {
  let names: string[];
  try {
    // `<ws>/.docket/evidence`: a linked `.docket` or `evidence/` holds no evidence of this workspace.
    assertContained(path.dirname(path.dirname(directory)), directory);
    names = fs.readdirSync(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || error instanceof UnsafePathError) return [];
    throw error;
  }
  return names
    .flatMap((name) => {
      const match = SEGMENT_NAME.exec(name);
      if (match === null) return [];
      const file = path.join(directory, name);
      // Only regular files are segments: every reader can then read one whole. A repository can
      // ship a "segment" that links to /dev/zero, which a whole-file read follows without end.
      if (!isRegularFile(file)) return [];
      return [{ file, name, firstSequence: Number(match[1]) }];
    })
    .sort((left, right) => left.firstSequence - right.firstSequence);
}

function segmentName(firstSequence: number): string {
  return `segment-${String(firstSequence).padStart(12, "0")}.jsonl`;
}

export function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

export function readRange(file: string, start: number, length: number): Buffer {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | O_NOFOLLOW);
  try {
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const count = fs.readSync(fd, buffer, read, length - read, start + read);
      if (count === 0) break;
      read += count;
    }
    return buffer.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}

/** Records of `text` from the last line back; torn and invalid lines are skipped. */
export function* recordsBackwards(text: string): Generator<EvidenceRecord> {
  const lines = text.split("\n");
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const record = parseRecordLine(lines[index] as string);
    if (record !== undefined) yield record;
  }
}

/** The sequence of the newest valid record in a segment, or one before its first. */
function lastSequenceOf(segment: Segment): number {
  const size = sizeOf(segment.file);
  const tail = Math.min(size, 2 * MAX_LINE_BYTES);
  // The tail's first line may be cut mid-record; it then fails to parse and is skipped.
  for (const record of recordsBackwards(readRange(segment.file, size - tail, tail).toString("utf8"))) return record.sequence;
  if (tail < size) for (const record of recordsBackwards(fs.readFileSync(segment.file, "utf8"))) return record.sequence;
  return segment.firstSequence - 1;
}

/**
 * One O_APPEND write of the whole line (looped only if the kernel writes part of it; the lock keeps
 * other writers out meanwhile). Not fsynced: hooks sit on the agent's critical path, and a power
 * loss can only cost the newest captures, whose handles then read as unknown.
 */
function appendWhole(root: string, file: string, text: string): void {
  const fd = openContained(root, file, "a");
  try {
    const bytes = Buffer.from(text, "utf8");
    let written = 0;
    while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
  } finally {
    fs.closeSync(fd);
  }
}

function endsWithNewline(file: string, size: number): boolean {
  return size === 0 || readRange(file, size - 1, 1)[0] === 0x0a;
}

/** Deletes the oldest segments while the store is over its cap; the newest always stays. */
function prune(directory: string): void {
  const segments = listSegments(directory);
  let total = segments.reduce((sum, segment) => sum + sizeOf(segment.file), 0);
  for (const segment of segments.slice(0, -1)) {
    if (total <= limits.storeCapBytes) break;
    total -= sizeOf(segment.file);
    fs.rmSync(segment.file, { force: true });
  }
}

/** Appends one record under the store's lock; `build` receives the record's sequence. */
export async function appendRecord<T extends EvidenceRecord>(workspaceFolder: string, build: (sequence: number) => T): Promise<T> {
  const workspace = requireWorkspace(workspaceFolder);
  const directory = evidenceDirectory(workspace);
  try {
    ensureDocketFolder(workspace);
    ensureContainedDirectory(workspace, directory);
    assertContained(workspace, path.join(directory, "append.lock"));
    return await withExclusiveLock(
      path.join(directory, "append.lock"),
      () => {
        const segments = listSegments(directory);
        const newest = segments[segments.length - 1];
        const sequence = newest === undefined ? 1 : lastSequenceOf(newest) + 1;
        if (sequence > MAX_SEQUENCE) throw new DocketError(ErrorCodes.internal, "The evidence store has used every sequence number; remove .docket/evidence to start over.");
        const record = build(sequence);
        const line = `${JSON.stringify(record)}\n`;
        const lineBytes = Buffer.byteLength(line, "utf8");
        if (lineBytes > MAX_LINE_BYTES) throw new DocketError(ErrorCodes.internal, `An evidence record of ${lineBytes} bytes exceeds the line bound.`);
        const newestSize = newest === undefined ? 0 : sizeOf(newest.file);
        const rotate = newest === undefined || (newestSize > 0 && newestSize + lineBytes > limits.segmentBytes);
        const target = rotate ? path.join(directory, segmentName(sequence)) : (newest as Segment).file;
        // A torn line left by a crashed writer is closed off so this record starts on its own line.
        const prefix = !rotate && !endsWithNewline(target, newestSize) ? "\n" : "";
        appendWhole(workspace, target, prefix + line);
        if (rotate) {
          fsyncDirectory(directory);
          prune(directory);
        }
        return record;
      },
      // Like the records themselves (appendWhole), the lock's owner record is not fsynced: every capture takes this lock.
      { timeoutMs: LOCK_TIMEOUT_MS, purpose: "capturing evidence", durableOwner: false },
    );
  } catch (error) {
    if (error instanceof LockTimeoutError) throw new DocketError(ErrorCodes.ledgerLocked, `The evidence store is locked (${error.message}); nothing was captured.`);
    throw toDocketError(error);
  }
}
