// The snapshot of one workspace root, kept between plans and rebuilt incrementally as files change.
//
// On the real file system (no injected fsAdapter) it goes through the Router index
// (indexedSnapshot.ts): the first `get()` of a fresh process starts from the index on disk under
// `.docket/router-index/` and checks it with stats only; later rebuilds start from the index kept
// in memory, re-read the paths invalidated since, and write the index again, so the next process
// starts warm. With an injected fsAdapter (tests that shuffle listing order or fail reads) it keeps
// the in-memory strategy: re-list, then re-read only the files that were invalidated or whose size
// and mtimeMs changed. Either way the result is byte-identical to a fresh `buildSnapshot`.
import * as path from "node:path";
import type { WorkspaceSnapshot } from "../planSchema";
import { collectSnapshot, type CachedFacts } from "./collect";
import type { RouterIndex } from "./indexFormat";
import { indexedSnapshot, type IndexStoreFor, type IndexTier } from "./indexedSnapshot";
import { WorkspaceIndexStore } from "./indexStore";
import type { SnapshotOptions } from "./options";

export interface SnapshotCacheOptions extends SnapshotOptions {
  /** Where the index is kept on disk; default `.docket/router-index/` of the workspace, null for nowhere. */
  readonly indexStore?: IndexStoreFor;
}

export const WORKSPACE_INDEX: IndexStoreFor = (realRoot) => new WorkspaceIndexStore(realRoot);

export class SnapshotCache {
  private snapshot: WorkspaceSnapshot | null = null;
  private facts: ReadonlyMap<string, CachedFacts> = new Map();
  private index: RouterIndex | null = null;
  /** Relative POSIX paths changed since the last build ("" means everything). */
  private dirty = new Set<string>([""]);
  private building: Promise<WorkspaceSnapshot> | null = null;
  private lastFilesRead = 0;
  private lastTier: IndexTier | null = null;

  constructor(
    readonly root: string,
    private readonly options: SnapshotCacheOptions = {},
  ) {}

  /** Marks paths (absolute, or relative to the root) as changed; paths outside the root are ignored. */
  invalidate(paths: readonly string[]): void {
    const root = path.resolve(this.root);
    for (const entry of paths) {
      const absolute = path.resolve(root, entry);
      const relative = path.relative(root, absolute);
      if (relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) continue;
      this.dirty.add(relative.split(path.sep).join("/"));
    }
  }

  /** How many files the last rebuild actually read (the others came from the cache). */
  get filesReadLastBuild(): number {
    return this.lastFilesRead;
  }

  /** How the last build went through the index (null without one): for tests and the bench. */
  get tierLastBuild(): IndexTier | null {
    return this.lastTier;
  }

  get(): Promise<WorkspaceSnapshot> {
    // Paths invalidated while a build runs are not in it: rebuild once more after it.
    if (this.building !== null) return this.dirty.size === 0 ? this.building : this.building.then(() => this.get());
    if (this.snapshot !== null && this.dirty.size === 0) return Promise.resolve(this.snapshot);
    const changed = this.dirty;
    this.dirty = new Set();
    // A changed folder invalidates everything under it (a rename or checkout reports folders).
    const isInvalidated = (relative: string): boolean => {
      if (changed.has("") || changed.has(relative)) return true;
      for (let slash = relative.lastIndexOf("/"); slash > 0; slash = relative.lastIndexOf("/", slash - 1)) {
        if (changed.has(relative.slice(0, slash))) return true;
      }
      return false;
    };
    const build = this.rebuild(changed, isInvalidated).then(
      (snapshot) => {
        this.snapshot = snapshot;
        this.building = null;
        return snapshot;
      },
      (error: unknown) => {
        // Nothing was rebuilt: the same paths are still stale for the next attempt.
        for (const entry of changed) this.dirty.add(entry);
        this.building = null;
        throw error;
      },
    );
    this.building = build;
    return build;
  }

  private async rebuild(changed: ReadonlySet<string>, isInvalidated: (relative: string) => boolean): Promise<WorkspaceSnapshot> {
    if (this.options.fsAdapter === undefined) {
      const first = this.snapshot === null;
      const result = await indexedSnapshot(this.root, this.options.indexStore ?? WORKSPACE_INDEX, {
        options: this.options,
        // The first build trusts nothing but the stamps; later ones also re-read what was invalidated.
        ...(first ? {} : { previous: this.index, invalidated: isInvalidated, relist: changed.has("") }),
      });
      this.index = result.index;
      this.lastFilesRead = result.filesRead;
      this.lastTier = result.tier;
      return result.snapshot;
    }
    const result = await collectSnapshot(this.root, this.options, changed.has("") ? new Map() : this.facts, isInvalidated);
    this.facts = result.facts;
    this.lastFilesRead = result.filesRead;
    return result.snapshot;
  }
}
