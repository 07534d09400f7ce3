// The only file-system surface the snapshot uses. Injectable so tests can shuffle directory
// listing order (the snapshot must not depend on it) and fail reads on purpose.
import { promises as fs } from "node:fs";
import * as path from "node:path";

export type EntryKind = "file" | "directory" | "symlink" | "other";

export interface WalkEntry {
  /** The raw name bytes: a name that is not UTF-8 is reported, not mangled. */
  readonly name: Buffer;
  readonly kind: EntryKind;
}

export interface FileStat {
  readonly size: number;
  readonly mtimeMs: number;
  readonly kind: EntryKind;
}

export interface SnapshotFs {
  readdir(absoluteDir: string): Promise<readonly WalkEntry[]>;
  /** Metadata of the entry itself (symbolic links are not followed). */
  lstat(absolutePath: string): Promise<FileStat>;
  realpath(absolutePath: string): Promise<string>;
  /** At most `maxBytes` bytes from the start of the file (following a link already checked). */
  readPrefix(absolutePath: string, maxBytes: number): Promise<Buffer>;
}

function kindOf(entry: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryKind {
  if (entry.isSymbolicLink()) return "symlink";
  if (entry.isFile()) return "file";
  if (entry.isDirectory()) return "directory";
  return "other";
}

export const nodeFs: SnapshotFs = {
  async readdir(absoluteDir) {
    const entries = await fs.readdir(absoluteDir, { withFileTypes: true, encoding: "buffer" });
    return entries.map((entry) => ({ name: Buffer.from(entry.name), kind: kindOf(entry) }));
  },
  async lstat(absolutePath) {
    const stat = await fs.lstat(absolutePath);
    return { size: stat.size, mtimeMs: stat.mtimeMs, kind: kindOf(stat) };
  },
  realpath(absolutePath) {
    return fs.realpath(absolutePath);
  },
  async readPrefix(absolutePath, maxBytes) {
    const handle = await fs.open(absolutePath, "r");
    try {
      // Sized by the file, not the cap, so small manifests do not each allocate the full cap.
      const want = Math.min(maxBytes, (await handle.stat()).size + 1);
      const buffer = Buffer.alloc(want);
      let filled = 0;
      while (filled < want) {
        const { bytesRead } = await handle.read(buffer, filled, want - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return buffer.subarray(0, filled);
    } finally {
      await handle.close();
    }
  },
};

/** True when `candidate` (absolute, real) is `root` or inside it. */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}
