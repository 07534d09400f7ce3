// A file's or folder's identity as the Router index records it: type, device, inode, size, and
// modification and change times (milliseconds with a fraction: about 0.25 µs of resolution). An
// equal stamp later means "not touched since", as far as the file system tells; `ctime` cannot be
// set back by a program, so a `touch -d` that restores an old mtime still changes the stamp.
//
// Racy stamps (Git's "racily clean" entries): file-system timestamps advance in ticks (a few ms
// on Linux), so a change made in the same tick as our stat, after it, would keep the stamp. A
// stamp whose mtime or ctime is not older than `racyFrom` — a timestamp the file system gave a
// file Docket created before taking any stat — is recorded as RACY, which never matches: the
// next check re-reads that entry and records a settled stamp.
import fs from "node:fs";

export type Stamp = string;

/** Nothing at that path (recorded so that creating it is a change). */
export const ABSENT: Stamp = "-";
/** Recorded when the entry might still change within the tick it was seen in: never matches. */
export const RACY: Stamp = "racy";

function kindLetter(stat: fs.Stats): string {
  if (stat.isFile()) return "f";
  if (stat.isDirectory()) return "d";
  if (stat.isSymbolicLink()) return "l";
  return "o";
}

/**
 * The stamp of `absolute` itself (links are not followed). With `racyFrom`, a stamp that might
 * still change within the current tick comes back RACY.
 */
export function stampOf(absolute: string, racyFrom: bigint | null = null): Stamp {
  let stat: fs.Stats | undefined;
  try {
    // Number stats, not bigint: a warm plan takes tens of thousands, and BigIntStats cost twice as
    // much. Times in ms as doubles keep a quarter of a microsecond; see the racy margin below.
    stat = fs.lstatSync(absolute, { throwIfNoEntry: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A file where a folder was (ENOTDIR) means the path is gone; anything else is not known.
    return code === "ENOTDIR" ? ABSENT : RACY;
  }
  if (stat === undefined) return ABSENT;
  return stampOfStats(stat, racyFrom);
}

/** The stamp of an entry from its `lstat` (a caller that needs the stats too takes them once). */
export function stampOfStats(stat: fs.Stats, racyFrom: bigint | null = null): Stamp {
  if (racyFrom !== null) {
    // One microsecond of margin: a later change then differs by more than the doubles can blur.
    const from = Number(racyFrom) / 1e6 - 0.001;
    if (stat.mtimeMs >= from || stat.ctimeMs >= from) return RACY;
  }
  return `${kindLetter(stat)}${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
}

/** True when the recorded stamp still describes the path (a RACY record never does). */
export function unchanged(absolute: string, recorded: Stamp): boolean {
  return recorded !== RACY && stampOf(absolute) === recorded;
}

/**
 * The stamp of a file whose contents the snapshot reads: its own stamp, and for a symbolic link
 * also the stamp of what it leads to and where that is, so a retargeted or edited target counts.
 */
export function contentStamp(absolute: string, racyFrom: bigint | null = null): Stamp {
  const own = stampOf(absolute, racyFrom);
  if (!own.startsWith("l")) return own;
  let real: string;
  try {
    real = fs.realpathSync(absolute);
  } catch {
    return `${own}|dangling`;
  }
  const target = stampOf(real, racyFrom);
  return target === RACY ? RACY : `${own}|${target}|${real}`;
}
