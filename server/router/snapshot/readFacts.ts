// Reads one file the snapshot needs (manifest, rule file, import source) for the Router index,
// synchronously: the same bytes and the same facts — or the same "why not" — as collect.ts's
// asynchronous reader, at a fraction of its cost on large workspaces (four system calls a file,
// none through the thread pool). The stamp is taken before the bytes are read, so a change made
// after it shows as a different (or racy) stamp next time.
import fs from "node:fs";
import path from "node:path";
import { deriveFacts, readBudget, type FileFacts } from "./fileFacts";
import { isInside } from "./fsAdapter";
import type { ResolvedLimits } from "./options";
import type { FileToRead } from "./snapshot";
import { RACY, contentStamp, stampOfStats, type Stamp } from "./stamp";

export interface ReadFacts {
  readonly stamp: Stamp;
  readonly facts: FileFacts;
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? "error";
}

/** At most `want` bytes from the start of `file` (fewer at its end). */
function readPrefix(file: string, want: number): Buffer {
  const fd = fs.openSync(file, "r");
  try {
    const buffer = Buffer.allocUnsafe(want);
    let filled = 0;
    while (filled < want) {
      const bytesRead = fs.readSync(fd, buffer, filled, want - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * `root` joined with a listed path. The path is relative with plain segments (snapshot.ts checks
 * every listed path), so on POSIX concatenating gives what `path.join` gives, without normalizing
 * 20,000 paths again (30 ms of a cold build on the bench); a root ending in a separator (`/`) and
 * other platforms take `path.join`. Exported for its tests.
 */
export function absoluteListedPath(root: string, relative: string): string {
  return path.sep === "/" && !root.endsWith("/") ? `${root}/${relative}` : path.join(root, ...relative.split("/"));
}

export function readFactsSync(root: string, entry: FileToRead, limits: ResolvedLimits, racyFrom: bigint | null): ReadFacts {
  const absolute = absoluteListedPath(root, entry.path);
  try {
    // One lstat gives the stamp and the file's kind and size (a cold build reads 20,000 files).
    // A missing file throws (ENOENT, ENOTDIR): said below with its code, as any failed read.
    let stat = fs.lstatSync(absolute);
    // A link's stamp also covers what it leads to (stamp.ts), so it takes its own stats.
    const stamp = stat.isSymbolicLink() ? contentStamp(absolute, racyFrom) : stampOfStats(stat, racyFrom);
    const unusable = (why: string): ReadFacts => ({ stamp, facts: { role: "unusable", why } });
    let target = absolute;
    if (stat.isSymbolicLink()) {
      // As collect.ts: a link is read only when it leads to a file inside the workspace.
      target = fs.realpathSync(absolute);
      if (!isInside(root, target)) return unusable("symbolic link leads outside the workspace; not read");
      stat = fs.lstatSync(target);
    }
    if (!stat.isFile()) return unusable("not a regular file; not read");
    // The asynchronous reader reads min(budget, size + 1) bytes up to the end of the file; for a
    // file that does not change meanwhile that is min(budget, size) bytes, read here without the
    // extra read that would only find the end.
    const bytes = readPrefix(target, Math.min(readBudget(entry.role, limits), stat.size));
    return { stamp, facts: deriveFacts(entry.path, entry.role, bytes, limits) };
  } catch (error) {
    // A failed read may be passing (EMFILE, EIO): racy, so the next use tries again.
    return { stamp: RACY, facts: { role: "unusable", why: `could not be read (${errorCode(error)})` } };
  }
}
