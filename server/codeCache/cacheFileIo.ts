// Reading and writing one code cache file without following links or trusting a file someone else
// could have written: the reader checks the opened descriptor itself (so a file swapped between a
// check and the open is still checked), the writer publishes a whole file by rename.
import fs from "node:fs";
import path from "node:path";
import { MAX_CACHE_FILE_BYTES } from "./cacheFormat";
import { ownedAndPrivate } from "./cacheFolder";

/** O_NOFOLLOW where the platform has it (not on Windows, where the folder's place is the check). */
const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;

export type CacheRead = { readonly kind: "bytes"; readonly bytes: Buffer } | { readonly kind: "missing" } | { readonly kind: "unusable" };

/**
 * The file's bytes when it is a regular file of this user that neither group nor others can
 * write; "missing" when there is none; "unusable" for anything else (a link, another owner, a
 * mode, a read error), which the caller replaces.
 */
export function readCacheFile(file: string): CacheRead {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | NO_FOLLOW);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? { kind: "missing" } : { kind: "unusable" };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!ownedAndPrivate(stat, "file") || stat.size > MAX_CACHE_FILE_BYTES) return { kind: "unusable" };
    const bytes = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const count = fs.readSync(fd, bytes, read, bytes.length - read, read);
      if (count === 0) break;
      read += count;
    }
    return { kind: "bytes", bytes: bytes.subarray(0, read) };
  } catch {
    return { kind: "unusable" };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `bytes` to a fresh file beside `file` (O_EXCL, mode 0600, never through a link) and
 * renames it over `file`: concurrent writers each publish a whole file, the last rename wins.
 * Returns false on any error, leaving no temporary file behind.
 */
export function writeCacheFile(file: string, bytes: Buffer, unique: string): boolean {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${unique}.tmp`);
  let fd: number | undefined;
  try {
    fd = fs.openSync(temporary, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NO_FOLLOW, 0o600);
    let written = 0;
    while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(temporary, file);
    return true;
  } catch {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // Already failing: the file is removed below either way.
      }
    }
    try {
      fs.unlinkSync(temporary);
    } catch {
      // Never created, or already renamed.
    }
    return false;
  }
}
