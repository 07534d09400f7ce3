// Where the Router index lives: `<workspace>/.docket/router-index/`, read and written only inside
// the workspace's real folder and never through a link (server/workspace/containedFs.ts): a
// `.docket` or index file that is a symbolic link, a file that is not a regular file or larger
// than MAX_INDEX_BYTES, is not read — the snapshot is built afresh — and not written through.
// Writing is best effort: a read-only workspace still plans, only without the index.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DOCKET_FOLDER, ensureDocketFolder } from "../../workspace/docketFolder";
import { ensureContainedDirectory, readContained, writeFileAtomicContained } from "../../workspace/containedFs";
import { MAX_INDEX_BYTES, decodeDetails, decodeIndex, encodeIndex, type IndexDetails, type RouterIndex } from "./indexFormat";

export const INDEX_FOLDER = "router-index";
export const INDEX_FILE = "snapshot-index.bin";
export const DETAILS_FILE = "facts.json";
/** Where `docket/router-index/v1` kept the index: removed when a new index is written beside it. */
const LEGACY_INDEX_FILE = "snapshot-index.json";
/** Touched before a build so the file system's own time marks which stamps may still change. */
const CLOCK_FILE = "build-clock";

/**
 * The margin applied when the marker cannot live in the workspace (a read-only folder): a
 * marker on another file system may count time more finely than the workspace's (FAT's 2 s).
 */
const FOREIGN_MARKER_MARGIN_NS = 2_000_000_000n;

/** Waits for the file-system clock (1 ms each): past this, a coarse clock is not waited for. */
const MAX_TICK_WAITS = 50;

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export interface IndexStore {
  /** The index without its details (all a warm plan needs), or null. */
  read(): RouterIndex | null;
  /** The index's details (the facts of the files read), or null when they are missing or not its own. */
  readDetails(index: RouterIndex): IndexDetails | null;
  /**
   * A file-system time not later than any stat taken after this call: stamps at or after it are
   * racy (server/router/snapshot/stamp.ts).
   */
  racyFrom(): bigint;
  /**
   * A file-system time later than any change already made (the clock's next tick), or null when
   * it does not come within a short wait (a file system with a coarse clock).
   */
  nextTick(): Promise<bigint | null>;
  write(index: RouterIndex, details: IndexDetails): void;
}

export class WorkspaceIndexStore implements IndexStore {
  private readonly folder: string;

  /** `root` must be the workspace's real path. */
  constructor(private readonly root: string) {
    this.folder = path.join(root, DOCKET_FOLDER, INDEX_FOLDER);
  }

  /** The seal each index read from disk names for its details file. */
  private readonly detailsSeals = new WeakMap<RouterIndex, string>();

  get file(): string {
    return path.join(this.folder, INDEX_FILE);
  }

  private bytesOf(file: string): Buffer | null {
    try {
      return readContained(this.root, file, MAX_INDEX_BYTES);
    } catch {
      return null; // a link, a folder, a device or an oversized file: not an index
    }
  }

  /** Another file of the index folder (the catalogue's), or null when missing, a link or oversized. */
  readNamed(name: string): Buffer | null {
    return this.bytesOf(path.join(this.folder, name));
  }

  /** Replaces another file of the index folder; best effort, as `write`. */
  writeNamed(name: string, bytes: Buffer): void {
    try {
      ensureDocketFolder(this.root);
      writeFileAtomicContained(this.root, path.join(this.folder, name), bytes);
    } catch {
      // Best effort: without it the next plan reads the skills again.
    }
  }

  read(): RouterIndex | null {
    const bytes = this.bytesOf(this.file);
    const decoded = bytes === null ? null : decodeIndex(bytes);
    if (decoded === null || decoded.index.root !== this.root) return null;
    this.detailsSeals.set(decoded.index, decoded.detailsSeal);
    return decoded.index;
  }

  readDetails(index: RouterIndex): IndexDetails | null {
    const seal = this.detailsSeals.get(index);
    const bytes = seal === undefined ? null : this.bytesOf(path.join(this.folder, DETAILS_FILE));
    return bytes === null || seal === undefined ? null : decodeDetails(bytes, seal, index.reads.length);
  }

  racyFrom(): bigint {
    try {
      const created = !fs.existsSync(path.join(this.root, DOCKET_FOLDER));
      ensureDocketFolder(this.root);
      ensureContainedDirectory(this.root, this.folder);
      let time = this.tick();
      // Creating `.docket/` just changed the root folder: let that tick pass, or the root's stamp
      // would be racy and the next plan would list the files again for nothing.
      if (created) {
        const rootTime = fs.lstatSync(this.root, { bigint: true }).mtimeNs;
        for (let tries = 0; time <= rootTime && tries < MAX_TICK_WAITS; tries += 1) {
          sleepMs(1);
          time = this.tick();
        }
      }
      return time;
    } catch {
      return foreignRacyFrom();
    }
  }

  async nextTick(): Promise<bigint | null> {
    try {
      const now = this.tick();
      for (let tries = 0; tries < MAX_TICK_WAITS; tries += 1) {
        const time = this.tick();
        if (time > now) return time;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    } catch {
      // no clock file: nothing settles
    }
    return null;
  }

  private tick(): bigint {
    const clock = path.join(this.folder, CLOCK_FILE);
    writeFileAtomicContained(this.root, clock, "");
    return fs.lstatSync(clock, { bigint: true }).mtimeNs;
  }

  write(index: RouterIndex, details: IndexDetails): void {
    try {
      ensureDocketFolder(this.root);
      const encoded = encodeIndex(index, details);
      // Details first: an index is only ever beside the details it names (or is refused with them).
      writeFileAtomicContained(this.root, path.join(this.folder, DETAILS_FILE), encoded.details);
      writeFileAtomicContained(this.root, this.file, encoded.index);
      // The first format's file (JSON, about 9 MB on a large workspace) is never read again.
      const legacy = path.join(this.folder, LEGACY_INDEX_FILE);
      if (fs.lstatSync(legacy, { throwIfNoEntry: false })?.isFile() === true) fs.unlinkSync(legacy);
    } catch {
      // Best effort: without the index the next plan builds the snapshot again, as before.
    }
  }
}

/** A racy boundary from a marker outside the workspace (with a margin), for stores that cannot write. */
export function foreignRacyFrom(): bigint {
  try {
    // A fresh private folder: a predictable name in a shared temp folder could be a planted link.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "docket-router-clock-"));
    try {
      return fs.lstatSync(folder, { bigint: true }).mtimeNs - FOREIGN_MARKER_MARGIN_NS;
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  } catch {
    // No file system time at all: everything recorded now counts as racy.
    return 0n;
  }
}
