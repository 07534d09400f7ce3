// Loads a Pi session file from disk for the reader (file-system adapter): bounded in size, with
// the identity needed to notice later changes and a content hash for status revisions.
import fs from "node:fs";
import { DocketError } from "../errors";
import { sha256Hex } from "../ledger/canonicalJson";
import { ErrorCodes } from "../protocol/messages";
import { MAX_PI_SESSION_BYTES, readPiSession, type PiSessionRead } from "./piSession";

/** What identifies one state of the file without reading it. */
export interface PiFileStamp {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
}

export interface LoadedPiSession {
  readonly path: string;
  readonly stamp: PiFileStamp;
  readonly contentSha256: string;
  readonly read: PiSessionRead;
}

function stampOf(stat: fs.Stats): PiFileStamp {
  return { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino };
}

export function sameStamp(left: PiFileStamp, right: PiFileStamp): boolean {
  return left.size === right.size && left.mtimeMs === right.mtimeMs && left.ctimeMs === right.ctimeMs && left.ino === right.ino;
}

function unreadable(sessionPath: string, error: unknown): DocketError {
  return new DocketError(ErrorCodes.piSessionUnreadable, `Cannot read the Pi session ${sessionPath}: ${error instanceof Error ? error.message : String(error)}`);
}

/** The current stamp, or null when the file cannot be stat'ed (gone, no permission). */
export function statPiSession(sessionPath: string): PiFileStamp | null {
  try {
    return stampOf(fs.statSync(sessionPath));
  } catch {
    return null;
  }
}

/** Reads and parses the session; throws DocketError (unreadable, too large, not a Pi session). */
export function loadPiSession(sessionPath: string): LoadedPiSession {
  let fd: number;
  try {
    fd = fs.openSync(sessionPath, "r");
  } catch (error) {
    throw unreadable(sessionPath, error);
  }
  try {
    let stat: fs.Stats;
    try {
      stat = fs.fstatSync(fd);
    } catch (error) {
      throw unreadable(sessionPath, error);
    }
    if (!stat.isFile()) throw new DocketError(ErrorCodes.piSessionUnreadable, `${sessionPath} is not a file.`);
    if (stat.size > MAX_PI_SESSION_BYTES) {
      throw new DocketError(ErrorCodes.piSessionTooLarge, `The Pi session ${sessionPath} has ${stat.size} bytes; Docket reads at most ${MAX_PI_SESSION_BYTES}.`);
    }
    // Read at most one byte past the limit, so a file that grows while being read is still bounded.
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_PI_SESSION_BYTES) + 1);
    let length = 0;
    try {
      while (length < buffer.length) {
        const count = fs.readSync(fd, buffer, length, buffer.length - length, length);
        if (count === 0) break;
        length += count;
      }
    } catch (error) {
      throw unreadable(sessionPath, error);
    }
    const bytes = buffer.subarray(0, length);
    return { path: sessionPath, stamp: stampOf(stat), contentSha256: sha256Hex(bytes), read: readPiSession(bytes) };
  } finally {
    fs.closeSync(fd);
  }
}
