// The I/O half shared by `buildSnapshot` and `SnapshotCache`: list the files, read what the
// prepared snapshot asks for (reusing cached facts when a file's size and mtime are unchanged and
// nobody invalidated it), then hand everything to the pure `finishSnapshot`.
import * as path from "node:path";
import { DocketError } from "../../errors";
import { ErrorCodes } from "../../protocol/errorCodes";
import type { WorkspaceSnapshot } from "../planSchema";
import { deriveFacts, readBudget, type FileFacts } from "./fileFacts";
import { listFiles } from "./fileList";
import type { Listing } from "./listing";
import { isInside, nodeFs, type SnapshotFs } from "./fsAdapter";
import { resolveLimits, type SnapshotOptions } from "./options";
import { finishSnapshot, prepareSnapshot, type FileToRead } from "./snapshot";

/** Derived facts of one file, valid while its size and mtime are what they were when read. */
export interface CachedFacts {
  readonly role: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly facts: FileFacts;
}

export interface CollectResult {
  readonly snapshot: WorkspaceSnapshot;
  /** Facts of every file read or reused this time (the next rebuild's cache). */
  readonly facts: ReadonlyMap<string, CachedFacts>;
  /** How many files were actually read (the rest came from the cache); for tests and the bench. */
  readonly filesRead: number;
}

const READ_CONCURRENCY = 32;

/** The real folder behind `root`, or a coded error: the only failure a snapshot reports by throwing. */
export async function usableRoot(root: string, fs: SnapshotFs): Promise<string> {
  let real: string;
  try {
    real = await fs.realpath(path.resolve(root));
  } catch (error) {
    throw new DocketError(ErrorCodes.snapshotUnavailable, `${root} does not exist or cannot be opened (${(error as NodeJS.ErrnoException).code ?? "error"}).`);
  }
  const stat = await fs.lstat(real).catch(() => null);
  if (stat === null || stat.kind !== "directory") throw new DocketError(ErrorCodes.snapshotUnavailable, `${root} is not a folder.`);
  return real;
}

type ReadOutcome = { readonly ok: true; readonly cached: CachedFacts; readonly fresh: boolean } | { readonly ok: false; readonly why: string };

async function readOne(
  root: string,
  entry: FileToRead,
  fs: SnapshotFs,
  limits: ReturnType<typeof resolveLimits>,
  previous: ReadonlyMap<string, CachedFacts>,
  invalidated: (relative: string) => boolean,
): Promise<ReadOutcome> {
  const absolute = path.join(root, ...entry.path.split("/"));
  try {
    let target = absolute;
    let stat = await fs.lstat(absolute);
    if (stat.kind === "symlink") {
      // Links are read only when they lead to a file inside the workspace (AGENTS.md → CLAUDE.md is
      // common); anything else would let a snapshot read outside the root.
      target = await fs.realpath(absolute);
      if (!isInside(root, target)) return { ok: false, why: "symbolic link leads outside the workspace; not read" };
      stat = await fs.lstat(target);
    }
    if (stat.kind !== "file") return { ok: false, why: "not a regular file; not read" };
    const before = previous.get(entry.path);
    if (before !== undefined && before.role === entry.role.role && before.size === stat.size && before.mtimeMs === stat.mtimeMs && !invalidated(entry.path)) {
      return { ok: true, cached: before, fresh: false };
    }
    const bytes = await fs.readPrefix(target, readBudget(entry.role, limits));
    return { ok: true, cached: { role: entry.role.role, size: stat.size, mtimeMs: stat.mtimeMs, facts: deriveFacts(entry.path, entry.role, bytes, limits) }, fresh: true };
  } catch (error) {
    return { ok: false, why: `could not be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  }
}

export async function collectSnapshot(
  root: string,
  options: SnapshotOptions,
  previous: ReadonlyMap<string, CachedFacts>,
  invalidated: (relative: string) => boolean,
): Promise<CollectResult> {
  const fs = options.fsAdapter ?? nodeFs;
  const limits = resolveLimits(options);
  const real = await usableRoot(root, fs);
  let listing: Listing;
  try {
    listing = await listFiles(real, fs, options.lister ?? "auto", limits.maxListed);
  } catch (error) {
    throw new DocketError(ErrorCodes.snapshotUnavailable, `${root} could not be listed (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  const prepared = prepareSnapshot(listing, limits);
  const facts = new Map<string, CachedFacts>();
  const failures = new Map<string, string>();
  let filesRead = 0;
  for (let start = 0; start < prepared.reads.length; start += READ_CONCURRENCY) {
    const batch = prepared.reads.slice(start, start + READ_CONCURRENCY);
    const outcomes = await Promise.all(batch.map((entry) => readOne(real, entry, fs, limits, previous, invalidated)));
    outcomes.forEach((outcome, index) => {
      const entry = batch[index] as FileToRead;
      if (!outcome.ok) failures.set(entry.path, outcome.why);
      else {
        facts.set(entry.path, outcome.cached);
        if (outcome.fresh) filesRead += 1;
      }
    });
  }
  const snapshot = finishSnapshot(
    prepared,
    (entry) => facts.get(entry.path)?.facts ?? { role: "unusable", why: failures.get(entry.path) ?? "could not be read" },
    limits,
  );
  return { snapshot, facts, filesRead };
}
