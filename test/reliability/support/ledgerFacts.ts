// What the crash and concurrency targets check after every fault, read straight from the files:
// which event ids the ledger holds (and how often), whether a captured evidence handle exists,
// what a killed writer left behind in `.docket/`, and whether the hooks' checkpoint still says
// what a full replay of the ledger says.
import fs from "node:fs";
import path from "node:path";
import type { EvidenceLookup } from "../../../server/developer/operations/evidence";
import { runtimeFacts } from "../../../server/developer/history";
import { lookupCheckpointFile } from "../../../server/hooks/checkpoint";
import { LedgerReader } from "./cycle";

/** How many times each event id occurs among the ledger's complete lines. */
export function ledgerEventIds(ledgerPath: string): Map<string, number> {
  const counts = new Map<string, number>();
  let text: string;
  try {
    text = fs.readFileSync(ledgerPath, "utf8");
  } catch {
    return counts;
  }
  const complete = text.slice(0, text.lastIndexOf("\n") + 1);
  for (const line of complete.split("\n")) {
    if (line === "") continue;
    try {
      const eventId = (JSON.parse(line) as { entry?: { eventId?: unknown } }).entry?.eventId;
      if (typeof eventId === "string") counts.set(eventId, (counts.get(eventId) ?? 0) + 1);
    } catch {
      // a damaged line holds no id; `ledger verify` reports it
    }
  }
  return counts;
}

/** Acknowledged event ids that are missing or duplicated. */
export function acknowledgedProblems(acknowledged: ReadonlyMap<string, string>, counts: ReadonlyMap<string, number>): { missing: string[]; duplicated: string[] } {
  const missing: string[] = [];
  const duplicated: string[] = [];
  for (const [eventId, by] of acknowledged) {
    const count = counts.get(eventId) ?? 0;
    if (count === 0) missing.push(`${eventId} (acknowledged to ${by})`);
    else if (count > 1) duplicated.push(`${eventId} ×${count} (acknowledged to ${by})`);
  }
  return { missing, duplicated };
}

/** Captured handles the evidence store does not hold (`lookup`: a `workspaceEvidence` index, which catches up incrementally). */
export function missingEvidence(lookup: EvidenceLookup, handles: ReadonlyMap<string, string>): string[] {
  return [...handles].filter(([handle]) => lookup.toolResult(handle) === undefined).map(([handle, by]) => `${handle} (acknowledged to ${by})`);
}

export interface Leftovers {
  /** `*.tmp`: half-written replacement files nobody will ever rename or remove. */
  readonly temporary: string[];
  /** Lock and lock-breaker files. */
  readonly locks: string[];
  /** `<ledger>.torn-<offset>`: bytes of an interrupted write a later writer set aside (documented). */
  readonly setAside: string[];
}

/** Leftover files under `.docket/`, as paths relative to it. */
export function leftovers(docketFolder: string): Leftovers {
  const result: Leftovers = { temporary: [], locks: [], setAside: [] };
  const walk = (directory: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(directory, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        walk(full);
        continue;
      }
      const relative = path.relative(docketFolder, full);
      if (entry.name.endsWith(".tmp")) result.temporary.push(relative);
      else if (/\.lock(\.break)?$/u.test(entry.name)) result.locks.push(relative);
      else if (/\.torn-\d+$/u.test(entry.name)) result.setAside.push(relative);
    }
  };
  walk(docketFolder);
  return result;
}

/**
 * Null when the hook checkpoint either does not claim to be current or agrees with a full replay;
 * otherwise what differs. A current-looking checkpoint that disagrees would make every hook decide
 * from a state the ledger does not hold.
 */
export function checkpointDisagreement(ledgerPath: string, reader?: LedgerReader): string | null {
  if (!fs.existsSync(ledgerPath)) return null;
  const lookup = lookupCheckpointFile(ledgerPath);
  if (lookup.kind !== "current") return null;
  const ledger = (reader ?? new LedgerReader("", ledgerPath)).current();
  const replayed = { phase: ledger.policy().phase, facts: runtimeFacts(ledger.history()) };
  const claimed = { phase: lookup.checkpoint.state.phase, facts: lookup.checkpoint.state.facts };
  const sorted = (value: { phase: string; facts: object }) => JSON.stringify({ phase: value.phase, facts: Object.fromEntries(Object.entries(value.facts).sort()) });
  return sorted(replayed) === sorted(claimed) ? null : `the current checkpoint says ${sorted(claimed)} but a replay says ${sorted(replayed)}`;
}

/** Null when `.docket/.gitignore` is absent or still ignores Docket's local state. */
export function gitignoreProblem(docketFolder: string): string | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(docketFolder, ".gitignore"), "utf8");
  } catch {
    return null;
  }
  return text.split("\n").some((line) => line.trim() === "*") ? null : `.docket/.gitignore no longer ignores Docket's state (${JSON.stringify(text.slice(0, 80))})`;
}
