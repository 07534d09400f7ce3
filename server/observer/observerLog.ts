// Reads an Observer log for replay from JSON Lines: a Pi session file (its `session` header
// first; from format version 2 on the active branch, exactly as server/pi/piSession.ts reads the
// Developer history) or Docket ledger lines (the `observer/v1` stream). Every entry keeps the
// zero-based line of the file it came from, which is what `docket observer replay` reports.
// Pure: text in, entries out.
import { LEDGER_LINE_FORMAT } from "../ledger/ledgerLine";
import { isRecord } from "../ledger/values";
import { OBSERVER_CUSTOM_TYPES, OBSERVER_STREAM, observerEntryProblem } from "./observerEntry";
import type { ObserverLogEntry } from "./observationSession";

export interface LogProblem {
  readonly line: number;
  readonly code: "observer-log.line";
  readonly message: string;
}

export interface ObserverLog {
  readonly form: "pi-session" | "ledger" | "empty";
  readonly entries: readonly ObserverLogEntry[];
  /** Zero-based file line of each entry. */
  readonly lines: readonly number[];
  /** Lines of a ledger that are not usable ledger lines (a Pi session skips such lines, as Pi does). */
  readonly problems: readonly LogProblem[];
  readonly lineCount: number;
}

export class ObserverLogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ObserverLogError";
  }
}

interface Parsed {
  readonly line: number;
  readonly value: unknown;
  readonly json: boolean;
}

function splitLines(text: string): Parsed[] {
  const raw = text.split("\n");
  if (raw.at(-1) === "") raw.pop();
  return raw.map((segment, line) => {
    const body = segment.endsWith("\r") ? segment.slice(0, -1) : segment;
    if (body.trim() === "") return { line, value: undefined, json: false };
    try {
      return { line, value: JSON.parse(body) as unknown, json: true };
    } catch {
      return { line, value: body, json: false };
    }
  });
}

function hostEntry(value: Record<string, unknown>): ObserverLogEntry {
  return value.type === "custom" && typeof value.customType === "string" ? { custom: true, customType: value.customType, data: value.data } : { custom: false };
}

function piSession(parsed: readonly Parsed[], header: Parsed, lineCount: number): ObserverLog {
  const version = isRecord(header.value) ? header.value.version : undefined;
  const tree = typeof version === "number" && Number.isSafeInteger(version) && version >= 2;
  const readable: { line: number; value: Record<string, unknown>; id: string; parentId: string | null }[] = [];
  const ids = new Set<string>();
  for (const item of parsed) {
    if (item.line <= header.line || !item.json || !isRecord(item.value) || typeof item.value.type !== "string" || item.value.type === "session") continue;
    const value = item.value;
    if (!tree) {
      readable.push({ line: item.line, value, id: "", parentId: null });
      continue;
    }
    const id = value.id;
    const parentId = value.parentId;
    // Entries Pi cannot place in its tree are skipped, the first entry with an id wins.
    if (typeof id !== "string" || id === "" || !(parentId === null || typeof parentId === "string") || ids.has(id)) continue;
    ids.add(id);
    readable.push({ line: item.line, value, id, parentId });
  }
  let branch = readable;
  if (tree) {
    // From the leaf (the last entry in file order) back to the root; a missing parent or a cycle ends the walk.
    const byId = new Map(readable.map((entry) => [entry.id, entry]));
    const walk: typeof readable = [];
    const seen = new Set<string>();
    let current = readable.at(-1);
    while (current !== undefined) {
      seen.add(current.id);
      walk.push(current);
      if (current.parentId === null || seen.has(current.parentId)) break;
      current = byId.get(current.parentId);
    }
    branch = walk.reverse();
  }
  return { form: "pi-session", entries: branch.map((entry) => hostEntry(entry.value)), lines: branch.map((entry) => entry.line), problems: [], lineCount };
}

const observerCustomTypes: ReadonlySet<unknown> = new Set(OBSERVER_CUSTOM_TYPES);

/**
 * An entry the `observer/v1` schema certainly accepts (exactly `customType`, one of Observer's,
 * and `data`), told without running the schema: nearly every line is one. Anything else goes to
 * the schema, which accepts it or words the problem.
 */
function plainlyValidEntry(entry: unknown): boolean {
  if (!isRecord(entry) || !Object.hasOwn(entry, "customType") || !Object.hasOwn(entry, "data")) return false;
  return Object.keys(entry).length === 2 && observerCustomTypes.has(entry.customType) && entry.data !== undefined;
}

function ledger(parsed: readonly Parsed[], lineCount: number): ObserverLog {
  const entries: ObserverLogEntry[] = [];
  const lines: number[] = [];
  const problems: LogProblem[] = [];
  for (const item of parsed) {
    if (item.value === undefined && !item.json) continue;
    if (!item.json || !isRecord(item.value) || item.value.ledger !== LEDGER_LINE_FORMAT) {
      problems.push({ line: item.line, code: "observer-log.line", message: "the line is not a Docket ledger line" });
      continue;
    }
    // Lines of other streams are entries of the log too (they count for positions) but not Observer's.
    lines.push(item.line);
    if (item.value.stream !== OBSERVER_STREAM) {
      entries.push({ custom: false });
      continue;
    }
    const problem = plainlyValidEntry(item.value.entry) ? null : observerEntryProblem(item.value.entry);
    if (problem !== null) {
      problems.push({ line: item.line, code: "observer-log.line", message: problem });
      entries.push({ custom: false });
      continue;
    }
    const entry = item.value.entry as { customType: string; data: unknown };
    entries.push({ custom: true, customType: entry.customType, data: entry.data });
  }
  return { form: "ledger", entries, lines, problems, lineCount };
}

/** Throws ObserverLogError when the text is neither a Pi session nor Docket ledger lines. */
export function readObserverLog(text: string): ObserverLog {
  const parsed = splitLines(text);
  const first = parsed.find((item) => item.json || item.value !== undefined);
  if (first === undefined) return { form: "empty", entries: [], lines: [], problems: [], lineCount: parsed.length };
  if (first.json && isRecord(first.value) && first.value.type === "session") return piSession(parsed, first, parsed.length);
  if (first.json && isRecord(first.value) && first.value.ledger === LEDGER_LINE_FORMAT) return ledger(parsed, parsed.length);
  throw new ObserverLogError(`line ${first.line + 1} is neither a Pi session header nor a Docket ledger line`);
}
