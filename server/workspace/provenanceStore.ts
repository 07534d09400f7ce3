// Who wrote each batch, kept beside the ledger (never inside it): the developer/v8 envelopes carry
// no actor, but people want to see which agent session drove a frame and which captured evidence
// a conclusion nominated. One JSON line per written batch under `.docket/provenance.jsonl`;
// informative only — nothing is decided from it, and a missing or damaged file shows as "unknown".
import fs from "node:fs";
import path from "node:path";
import * as z from "zod";
import { O_NOFOLLOW, appendContained, openContained } from "./containedFs";
import { Actor } from "../protocol/messages";
import { ensureDocketFolder } from "./docketFolder";

export type { Actor };

export const PROVENANCE_FORMAT = "docket/provenance/v1";
export const PROVENANCE_RELATIVE_PATH = path.join(".docket", "provenance.jsonl");
/** Longer files are read from their last bytes only: the views need recent batches. */
const MAX_READ_BYTES = 8 * 1024 * 1024;


const ProvenanceRecord = z.strictObject({
  format: z.literal(PROVENANCE_FORMAT),
  eventSha256s: z.array(z.string().regex(/^[a-f0-9]{64}$/u)).min(1),
  actor: Actor,
  /** Evidence handles (branch-result-…, user decisions) the batch's conclusion nominated. */
  nominations: z.array(z.string().max(200)).max(256),
});
export type ProvenanceRecord = z.infer<typeof ProvenanceRecord>;

export function provenanceFile(workspaceFolder: string): string {
  return path.join(workspaceFolder, PROVENANCE_RELATIVE_PATH);
}

function endsWithNewline(file: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | O_NOFOLLOW);
  } catch {
    return true; // no file yet
  }
  try {
    const size = fs.fstatSync(fd).size;
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    fs.readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    fs.closeSync(fd);
  }
}

/** Appends one record; the caller treats a failure as "provenance unknown", never as a failed write. */
export function recordProvenance(workspaceFolder: string, record: Omit<ProvenanceRecord, "format">): void {
  const file = provenanceFile(workspaceFolder);
  ensureDocketFolder(workspaceFolder);
  // A crash can leave a torn last line; start on a fresh one so this record stays readable.
  const separator = endsWithNewline(file) ? "" : "\n";
  // One short line per append (O_APPEND): concurrent writers never interleave within a line.
  appendContained(workspaceFolder, file, `${separator}${JSON.stringify(ProvenanceRecord.parse({ format: PROVENANCE_FORMAT, ...record }))}\n`, { durable: true });
}

/** What has been read of one provenance file: the records so far and where reading stopped. */
interface ReadState {
  readonly byEvent: Map<string, ProvenanceRecord>;
  /** Identity of the file read, so a replaced file is read again from its start. */
  readonly inode: number;
  /** Bytes consumed up to the end of the last complete line. */
  offset: number;
}

// The views ask on every ledger change, so each file is read once and then only its new lines.
const readStates = new Map<string, ReadState>();

function addLines(state: ReadState, text: string): void {
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    const record = ProvenanceRecord.safeParse(parsed);
    if (!record.success) continue;
    for (const eventSha256 of record.data.eventSha256s) state.byEvent.set(eventSha256, record.data);
  }
}

/**
 * Records by event hash; lines that fail to parse (a torn tail, an edit) are skipped. A file that
 * was replaced or shrank is read again from the start (its last MAX_READ_BYTES at most).
 */
export function readProvenance(workspaceFolder: string): ReadonlyMap<string, ProvenanceRecord> {
  const file = provenanceFile(workspaceFolder);
  let fd: number;
  try {
    fd = openContained(workspaceFolder, file, "r");
  } catch {
    readStates.delete(file);
    return new Map();
  }
  try {
    const { size, ino } = fs.fstatSync(fd);
    let state = readStates.get(file);
    if (state === undefined || state.inode !== ino || size < state.offset) {
      state = { byEvent: new Map(), inode: ino, offset: Math.max(0, size - MAX_READ_BYTES) };
      readStates.set(file, state);
    }
    if (size > state.offset) {
      const buffer = Buffer.alloc(size - state.offset);
      fs.readSync(fd, buffer, 0, buffer.length, state.offset);
      // Only complete lines are consumed; a line still being written is read next time.
      const end = buffer.lastIndexOf(0x0a) + 1;
      addLines(state, buffer.subarray(0, end).toString("utf8"));
      state.offset += end;
    }
    return state.byEvent;
  } catch {
    return new Map();
  } finally {
    fs.closeSync(fd);
  }
}
