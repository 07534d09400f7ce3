// The snapshot through the Router index: the same `WorkspaceSnapshot` bytes `buildSnapshot` gives,
// without rebuilding what has not changed since the index was written.
//
// - warm: the listing's watch holds (listingWatch.ts) and every read file's stamp is unchanged →
//   the recorded snapshot, with no Git process, no walk and no read (only stats);
// - contents: the listing holds but some read files changed (or were invalidated) → only those are
//   read again, and the snapshot is finished from the recorded listing;
// - listing: something the listing depends on changed → the files are listed again (Git or the
//   walk) and the watch rebuilt; files whose stamps are unchanged keep their recorded facts;
// - cold: no usable index → everything is listed and read.
//
// Every build but warm writes the index again. When in doubt (an unsound watch, a racy stamp, an
// index from other settings, another root or another Git environment) the tier below is taken.
import path from "node:path";
import { compareCodeUnits, hashValue } from "../../ledger/canonicalJson";
import type { WorkspaceSnapshot } from "../planSchema";
import { usableRoot } from "./collect";
import { roleOf, type FileFacts } from "./fileFacts";
import { listTraced } from "./fileList";
import { nodeFs } from "./fsAdapter";
import { INDEX_FORMAT, type IndexDetails, type IndexedRead, type RouterIndex } from "./indexFormat";
import { foreignRacyFrom, type IndexStore } from "./indexStore";
import { UNSOUND_WATCH, gitEnvironmentFingerprint, watchGitListing, watchHolds, watchWalkListing, type ListingWatch } from "./listingWatch";
import { resolveLimits, type ResolvedLimits, type SnapshotOptions } from "./options";
import { readFactsSync } from "./readFacts";
import { SNAPSHOT_FORMAT, finishSnapshot, prepareSnapshot, type FileToRead, type PreparedSnapshot } from "./snapshot";
import { RACY, contentStamp } from "./stamp";

/** Racy files read again after their tick; beyond this many (a checkout in progress) they stay racy. */
const MAX_SETTLED_READS = 1000;

export type IndexTier = "warm" | "contents" | "listing" | "cold";

export interface IndexedBuild {
  readonly index: RouterIndex;
  readonly snapshot: WorkspaceSnapshot;
  readonly tier: IndexTier;
  /** Files whose bytes were read this time (the rest came from the index). */
  readonly filesRead: number;
}

export interface IndexedSnapshotInput {
  readonly options?: SnapshotOptions;
  /** The index to start from (a caller that keeps it in memory); else the store's. */
  readonly previous?: RouterIndex | null;
  /** Paths a watcher reported changed: their facts are read again whatever their stamps say. */
  readonly invalidated?: (relative: string) => boolean;
  /** A changed folder (or "" for everything) makes the listing be made again. */
  readonly relist?: boolean;
}

function settingsOf(limits: ResolvedLimits, lister: "auto" | "walk"): string {
  return hashValue({ snapshot: SNAPSHOT_FORMAT, index: INDEX_FORMAT, limits: { ...limits }, lister });
}

function absoluteOf(root: string, relative: string): string {
  if (relative === "") return root;
  // Concatenated, not path.join: this runs for every watched folder and read file of a warm plan.
  return path.sep === "/" ? `${root}/${relative}` : path.join(root, ...relative.split("/"));
}

/** Leaves Docket's own folder out of a walk's watch: what changes there never reaches the listing. */
function outsideDocketState(relative: string): boolean {
  return relative !== ".docket" && !relative.startsWith(".docket/");
}

/** The store for a workspace's real path (null: keep no index on disk). */
export type IndexStoreFor = (realRoot: string) => IndexStore | null;

export async function indexedSnapshot(root: string, storeFor: IndexStoreFor, input: IndexedSnapshotInput = {}): Promise<IndexedBuild> {
  const options = input.options ?? {};
  const lister = options.lister ?? "auto";
  const limits = resolveLimits(options);
  const real = await usableRoot(root, nodeFs);
  const store = storeFor(real);
  const settings = settingsOf(limits, lister);
  const environment = gitEnvironmentFingerprint();
  const invalidated = input.invalidated ?? (() => false);

  const stored = input.previous !== undefined ? input.previous : (store?.read() ?? null);
  const previous = stored !== null && stored.root === real && stored.settings === settings && stored.environment === environment ? stored : null;
  const listingHolds = previous !== null && input.relist !== true && watchHolds(real, previous.watch);
  if (previous !== null && listingHolds) {
    const changed = previous.reads.some((read) => invalidated(read.path) || contentStamp(absoluteOf(real, read.path)) !== read.stamp || read.stamp === "racy");
    if (!changed) return { index: previous, snapshot: previous.snapshot, tier: "warm", filesRead: 0 };
  }

  // A rebuild needs the recorded facts; an index whose details cannot be had is no index at all.
  const details = previous === null ? null : (previous.details ?? store?.readDetails(previous) ?? null);
  if (previous !== null && details === null) return indexedSnapshot(root, storeFor, { ...input, previous: null });

  // From here on every stat is taken after this file-system time (see stamp.ts).
  // Without a store (a read-only workspace) the clock comes from a temporary folder elsewhere.
  const racyFrom: bigint | null = store !== null ? store.racyFrom() : foreignRacyFrom();
  let prepared: PreparedSnapshot;
  let watch: ListingWatch;
  if (previous !== null && listingHolds && details !== null) {
    prepared = {
      source: details.listing.source,
      files: previous.snapshot.files,
      skipped: details.listing.skipped,
      limits: details.listing.limits,
      reads: previous.reads.map((read) => ({ path: read.path, role: roleOf(read.path) as NonNullable<ReturnType<typeof roleOf>> })),
    };
    watch = previous.watch;
  } else {
    const traced = await listTraced(real, nodeFs, lister, limits.maxListed);
    prepared = prepareSnapshot(traced.listing, limits);
    if (racyFrom === null) watch = UNSOUND_WATCH;
    else if (traced.how === "git") watch = await watchGitListing(real, traced.git, racyFrom);
    else if (traced.gitFailed || traced.listing.limits.length > 0) watch = UNSOUND_WATCH;
    else {
      watch = watchWalkListing(
        real,
        traced.trace.entered.filter(outsideDocketState),
        traced.trace.ignoreFiles.filter(outsideDocketState),
        racyFrom,
        traced.gitAbsent,
      );
    }
  }

  const recorded = new Map<string, IndexedRead>();
  previous?.reads.forEach((read, position) => {
    const facts = details?.facts[position];
    if (facts !== undefined) recorded.set(read.path, { ...read, facts });
  });
  const reads: IndexedRead[] = [];
  const factsByPath = new Map<string, FileFacts>();
  let filesRead = 0;
  for (const entry of prepared.reads) {
    const before = recorded.get(entry.path);
    let read: IndexedRead;
    const stamp = before === undefined || invalidated(entry.path) ? null : contentStamp(absoluteOf(real, entry.path), racyFrom);
    if (before !== undefined && stamp !== null && stamp === before.stamp && stamp !== "racy" && sameRole(entry, before.facts)) {
      read = before;
    } else {
      const fresh = readFactsSync(real, entry, limits, racyFrom);
      read = { path: entry.path, stamp: racyFrom === null ? "racy" : fresh.stamp, facts: fresh.facts };
      filesRead += 1;
    }
    reads.push(read);
    factsByPath.set(entry.path, read.facts);
  }
  // Files read in the tick they last changed in are read once more after it has passed, so their
  // recorded stamps are settled and the next plan does not read them again (stamp.ts).
  const racy = reads.flatMap((read, position) => (read.stamp === RACY && read.facts.role !== "unusable" ? [position] : []));
  const settledFrom = store !== null && racy.length > 0 && racy.length <= MAX_SETTLED_READS ? await store.nextTick() : null;
  if (settledFrom !== null) {
    for (const position of racy) {
      const entry = prepared.reads[position] as FileToRead;
      const fresh = readFactsSync(real, entry, limits, settledFrom);
      reads[position] = { path: entry.path, stamp: fresh.stamp, facts: fresh.facts };
      factsByPath.set(entry.path, fresh.facts);
    }
  }
  const snapshot = finishSnapshot(prepared, (entry) => factsByPath.get(entry.path) ?? { role: "unusable", why: "could not be read" }, limits);
  const built: IndexDetails = {
    listing: {
      source: prepared.source,
      skipped: [...prepared.skipped].sort((left, right) => compareCodeUnits(left.path, right.path) || compareCodeUnits(left.why, right.why)),
      limits: prepared.limits,
    },
    facts: reads.map((read) => read.facts),
  };
  const index: RouterIndex = { root: real, settings, environment, watch, reads: reads.map((read) => ({ path: read.path, stamp: read.stamp })), snapshot, details: built };
  store?.write(index, built);
  return { index, snapshot, tier: previous === null ? "cold" : listingHolds ? "contents" : "listing", filesRead };
}

/** Recorded facts fit a read only for the role it has now (a renamed manifest kind, say). */
function sameRole(entry: FileToRead, facts: FileFacts): boolean {
  return facts.role === "unusable" || facts.role === entry.role.role;
}
