// Reads a Pi session file (JSON Lines) into the developer/v8 replay input of its active branch.
// Pure: bytes in, a description out. Pi writes a `session` header line, then one entry per line;
// from format version 2 on, entries form a tree through `id`/`parentId` and the active branch is
// the path from the last entry in file order (Pi's leaf) back to the root — the same entries
// the reference runtime replays (`getBranch()`). Older linear sessions are read in file order.
// Only `custom` entries of type `developer.runtime` carry envelopes (in `data`); everything else
// is skipped and counted. Unreadable lines are reported with their line numbers and skipped,
// as Pi itself does when it loads a session.
import { DocketError } from "../errors";
import { isRecord } from "../ledger/values";
import { ErrorCodes } from "../protocol/messages";

/** A session above this size is refused rather than read into memory. */
export const MAX_PI_SESSION_BYTES = 256 * 1024 * 1024;
export const DEVELOPER_RUNTIME_ENTRY = "developer.runtime";
/** At most this many line problems are kept with their text; all of them are counted. */
export const MAX_REPORTED_PROBLEMS = 100;

export type PiLineProblemCode = "not-utf8" | "not-json" | "not-an-entry" | "duplicate-entry-id" | "missing-parent" | "parent-cycle";

export interface PiLineProblem {
  /** One-based line number in the session file. */
  readonly line: number;
  readonly code: PiLineProblemCode;
  readonly message: string;
}

export interface PiSessionHeader {
  readonly line: number;
  readonly sessionId: string | null;
  readonly version: number | null;
  readonly cwd: string | null;
}

export interface PiDeveloperEntry {
  /** One-based line number in the session file. */
  readonly line: number;
  readonly entryId: string | null;
  /** The entry's `data`, exactly as stored (undefined when the entry has none). */
  readonly envelope: unknown;
}

export interface PiSessionRead {
  readonly bytes: number;
  readonly lines: number;
  readonly header: PiSessionHeader;
  readonly layout: "tree" | "linear";
  /** Readable entries after the header. */
  readonly entries: number;
  readonly leafEntryId: string | null;
  readonly branchEntries: number;
  readonly offBranchEntries: number;
  /** Entries on the active branch that are not developer.runtime entries. */
  readonly skippedEntries: number;
  /** developer.runtime entries on the active branch, root to leaf. */
  readonly developerEntries: readonly PiDeveloperEntry[];
  readonly offBranchDeveloperEntries: number;
  readonly problems: readonly PiLineProblem[];
  readonly problemCount: number;
}

interface Entry {
  readonly line: number;
  readonly value: Record<string, unknown>;
  readonly id: string | null;
  readonly parentId: string | null;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function invalid(message: string): never {
  throw new DocketError(ErrorCodes.piSessionInvalid, message);
}

/** Splits on LF (dropping a CR before it); a final segment without LF is still a line. */
function splitLines(bytes: Uint8Array): { line: number; raw: Uint8Array }[] {
  const lines: { line: number; raw: Uint8Array }[] = [];
  let start = 0;
  while (start < bytes.length) {
    const found = bytes.indexOf(0x0a, start);
    const end = found === -1 ? bytes.length : found;
    const contentEnd = end > start && bytes[end - 1] === 0x0d ? end - 1 : end;
    lines.push({ line: lines.length + 1, raw: bytes.subarray(start, contentEnd) });
    start = end + 1;
  }
  return lines;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" ? value.slice(0, 4096) : null;
}

function isDeveloperEntry(value: Record<string, unknown>): boolean {
  return value.type === "custom" && value.customType === DEVELOPER_RUNTIME_ENTRY;
}

class ProblemLog {
  readonly kept: PiLineProblem[] = [];
  count = 0;
  add(line: number, code: PiLineProblemCode, message: string): void {
    this.count += 1;
    if (this.kept.length < MAX_REPORTED_PROBLEMS) this.kept.push({ line, code, message });
  }
}

function parseHeader(text: string, line: number): PiSessionHeader {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return invalid(`line ${line} is not JSON, so this is not a Pi session (its first line must be the session header)`);
  }
  if (!isRecord(value) || value.type !== "session") {
    return invalid(`line ${line} is not a Pi session header (expected an object with "type": "session")`);
  }
  const version = typeof value.version === "number" && Number.isSafeInteger(value.version) ? value.version : null;
  return { line, sessionId: stringOrNull(value.id), version, cwd: stringOrNull(value.cwd) };
}

/** The active branch: from the leaf back along parentId, returned root first. */
function activeBranch(entries: readonly Entry[], problems: ProblemLog): Entry[] {
  const byId = new Map<string, Entry>();
  for (const entry of entries) byId.set(entry.id as string, entry);
  const branch: Entry[] = [];
  const visited = new Set<string>();
  let current = entries.at(-1);
  while (current !== undefined) {
    visited.add(current.id as string);
    branch.push(current);
    if (current.parentId === null) break;
    const parent = byId.get(current.parentId);
    if (parent === undefined) {
      problems.add(current.line, "missing-parent", `entry ${current.id ?? ""} names parent ${current.parentId}, which is not in the session; the branch is read from here`);
      break;
    }
    if (visited.has(current.parentId)) {
      problems.add(current.line, "parent-cycle", `entry ${current.id ?? ""} closes a parentId cycle; the branch is read from here`);
      break;
    }
    current = parent;
  }
  return branch.reverse();
}

/** Reads a Pi session; throws DocketError when the bytes are not a usable Pi session at all. */
export function readPiSession(bytes: Uint8Array): PiSessionRead {
  if (bytes.length > MAX_PI_SESSION_BYTES) {
    throw new DocketError(ErrorCodes.piSessionTooLarge, `The Pi session has ${bytes.length} bytes; Docket reads at most ${MAX_PI_SESSION_BYTES}.`);
  }
  const problems = new ProblemLog();
  const lines = splitLines(bytes);
  let header: PiSessionHeader | null = null;
  const entries: Entry[] = [];
  const seenIds = new Set<string>();
  let layout: "tree" | "linear" = "linear";
  for (const { line, raw } of lines) {
    let text: string;
    try {
      text = decoder.decode(raw);
    } catch {
      if (header === null) invalid(`line ${line} is not UTF-8 text, so this is not a Pi session`);
      problems.add(line, "not-utf8", "the line is not UTF-8 text");
      continue;
    }
    if (text.trim() === "") continue;
    if (header === null) {
      header = parseHeader(text, line);
      layout = header.version !== null && header.version >= 2 ? "tree" : "linear";
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      const unterminated = line === lines.length && bytes[bytes.length - 1] !== 0x0a;
      problems.add(line, "not-json", unterminated ? "the last line is incomplete (the session may still be being written)" : "the line is not JSON");
      continue;
    }
    if (!isRecord(value) || typeof value.type !== "string" || value.type === "session") {
      problems.add(line, "not-an-entry", isRecord(value) && value.type === "session" ? "a second session header" : "the line is not an object with a string \"type\"");
      continue;
    }
    if (layout === "linear") {
      entries.push({ line, value, id: stringOrNull(value.id), parentId: null });
      continue;
    }
    const id = value.id;
    const parentId = value.parentId;
    if (typeof id !== "string" || id === "" || !(parentId === null || typeof parentId === "string")) {
      problems.add(line, "not-an-entry", "the entry has no string \"id\" or no \"parentId\" (string or null)");
      continue;
    }
    if (seenIds.has(id)) {
      problems.add(line, "duplicate-entry-id", `entry id ${id.slice(0, 160)} was already used by an earlier line; this line is ignored`);
      continue;
    }
    seenIds.add(id);
    entries.push({ line, value, id, parentId });
  }
  if (header === null) invalid("the file is empty, so this is not a Pi session (its first line must be the session header)");
  const branch = layout === "tree" ? activeBranch(entries, problems) : entries;
  const onBranch = new Set(branch);
  const developerEntries: PiDeveloperEntry[] = [];
  for (const entry of branch) {
    if (!isDeveloperEntry(entry.value)) continue;
    developerEntries.push({ line: entry.line, entryId: entry.id, envelope: Object.hasOwn(entry.value, "data") ? entry.value.data : undefined });
  }
  const offBranchDeveloperEntries = entries.filter((entry) => !onBranch.has(entry) && isDeveloperEntry(entry.value)).length;
  return {
    bytes: bytes.length,
    lines: lines.length,
    header,
    layout,
    entries: entries.length,
    leafEntryId: branch.at(-1)?.id ?? null,
    branchEntries: branch.length,
    offBranchEntries: entries.length - branch.length,
    skippedEntries: branch.length - developerEntries.length,
    developerEntries,
    offBranchDeveloperEntries,
    problems: problems.kept.sort((left, right) => left.line - right.line),
    problemCount: problems.count,
  };
}
