// Each build names its caches by its bundles' hashes, so an update leaves the previous build's files
// behind for good. Pruning by age instead of by "not this build" keeps two installed versions (the
// extension's and a global CLI) from deleting each other's caches: a cache still in use is at worst
// rewritten once a month. Pruning runs only after this process wrote a cache (a miss: once per
// bundle, Node and build), after the hook's answer, and never fails the call.
import fs from "node:fs";
import path from "node:path";

/** Entries written longer ago than this are removed (a used one is rewritten on its next miss). */
export const CACHE_ENTRY_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** A writer publishes its temporary file within milliseconds; one this old was left by a crash. */
export const TEMPORARY_MAX_AGE_MS = 60 * 60 * 1000;
/** Beyond this many entries the oldest go first, whatever their age. */
export const MAX_CACHE_ENTRIES = 64;

const ENTRY_NAME = /^[0-9a-f]{64}-v\d+\.\d+\.\d+-[a-z0-9]+-f\d+\.cache$/;
const TEMPORARY_NAME = /^\.[0-9a-f]{64}-v\d+\.\d+\.\d+-[a-z0-9]+-f\d+\.cache\.\d+\.[0-9a-f]+\.tmp$/;

export interface FolderEntry {
  readonly name: string;
  /** From lstat: only regular files are ever removed (a link or folder is not the cache's). */
  readonly regularFile: boolean;
  readonly modifiedMs: number;
}

/**
 * The names to remove from the cache folder, given its entries and the current time. The entry
 * just written (`keep`) always stays; names the cache never writes are left alone.
 */
export function entriesToPrune(entries: readonly FolderEntry[], nowMs: number, keep: string): string[] {
  const remove: string[] = [];
  const kept: FolderEntry[] = [];
  for (const entry of entries) {
    if (!entry.regularFile || entry.name === keep) continue;
    if (TEMPORARY_NAME.test(entry.name)) {
      if (nowMs - entry.modifiedMs > TEMPORARY_MAX_AGE_MS) remove.push(entry.name);
    } else if (ENTRY_NAME.test(entry.name)) {
      if (nowMs - entry.modifiedMs > CACHE_ENTRY_MAX_AGE_MS) remove.push(entry.name);
      else kept.push(entry);
    }
  }
  // The count includes the entry just written; the oldest go first, ties in code-unit order of names.
  const room = MAX_CACHE_ENTRIES - 1;
  if (kept.length > room) {
    kept.sort((a, b) => a.modifiedMs - b.modifiedMs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of kept.slice(0, kept.length - room)) remove.push(entry.name);
  }
  return remove;
}

/** Prunes `folder` (already checked as this user's private folder) around the entry `keep`. */
export function pruneCacheFolder(folder: string, keep: string, nowMs: number): number {
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return 0;
  }
  const entries: FolderEntry[] = [];
  for (const name of names) {
    if (!ENTRY_NAME.test(name) && !TEMPORARY_NAME.test(name)) continue;
    try {
      const stat = fs.lstatSync(path.join(folder, name));
      entries.push({ name, regularFile: stat.isFile(), modifiedMs: stat.mtimeMs });
    } catch {
      // Removed meanwhile by another process: nothing to decide.
    }
  }
  let removed = 0;
  for (const name of entriesToPrune(entries, nowMs, keep)) {
    try {
      fs.unlinkSync(path.join(folder, name));
      removed += 1;
    } catch {
      // Another process pruned it first, or it is not ours to remove: either way it is not read.
    }
  }
  return removed;
}
