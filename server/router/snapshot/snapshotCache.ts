// The backend's snapshot of one workspace root, rebuilt incrementally as files change.
//
// Strategy: `get()` returns the last snapshot untouched until something is invalidated. After an
// invalidation it re-lists the files (one `git ls-files` or walk: cheap next to reading), then
// re-reads only the manifests, rule files and import sources whose content may have changed:
// a file's derived facts (parsed manifest, rule-file hash, import specifiers — never its bytes)
// are reused when it was not invalidated and its size and mtimeMs equal those recorded when it was
// read. Invalidated paths are always re-read, because an edit can keep both size and mtime.
// New and deleted files show up through the re-listing. The result is byte-identical to a fresh
// `buildSnapshot` of the same tree; the cache only saves reads.
import * as path from "node:path";
import type { WorkspaceSnapshot } from "../planSchema";
import { collectSnapshot, type CachedFacts } from "./collect";
import type { SnapshotOptions } from "./options";

export class SnapshotCache {
  private snapshot: WorkspaceSnapshot | null = null;
  private facts: ReadonlyMap<string, CachedFacts> = new Map();
  /** Relative POSIX paths changed since the last build ("" means everything). */
  private dirty = new Set<string>([""]);
  private building: Promise<WorkspaceSnapshot> | null = null;
  private lastFilesRead = 0;

  constructor(
    readonly root: string,
    private readonly options: SnapshotOptions = {},
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
    const build = collectSnapshot(this.root, this.options, changed.has("") ? new Map() : this.facts, isInvalidated).then(
      (result) => {
        this.snapshot = result.snapshot;
        this.facts = result.facts;
        this.lastFilesRead = result.filesRead;
        this.building = null;
        return result.snapshot;
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
}
