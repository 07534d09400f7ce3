// Whether `git ls-files --deleted` can be skipped: it lists the index entries whose `lstat` fails
// (a tracked file deleted from the work tree), and it costs a whole second Git process that
// `lstat`s every tracked file — more than the listing itself on a large repository. When every
// listed name is an entry of its folder's own listing, no `lstat` of them fails, so Git would
// list nothing: one `readdir` per folder answers for all of its files.
//
// Why an entry found by `readdir` can be `lstat`ed: Git resolves the same path (leading symbolic
// links followed by both); the folder's search permission, the only per-folder condition `readdir`
// does not prove, is proven by one real `lstat` per folder; no path this long can fail on length
// (every name is checked under PATH_MAX, and Git's path, relative to the work tree's top, is
// never longer than the absolute one). Names are compared exactly: a name not found as it is —
// another Unicode normalization, another case, a name holding U+FFFD (a `readdir` name that is
// not UTF-8 decodes to it) — makes the caller ask Git, as it does for any name not found.
import fs from "node:fs";
import path from "node:path";

/** Linux's PATH_MAX; a path at or over it is left to Git (ENAMETOOLONG is a failed `lstat`). */
const PATH_MAX_BYTES = 4096;

function absoluteOf(root: string, relative: string): string {
  return path.sep === "/" ? `${root}/${relative}` : path.join(root, ...relative.split("/"));
}

/** What `readdir` said of each folder read (root-relative, "" the root), for the Router index's watch. */
export type FolderEntries = ReadonlyMap<string, readonly fs.Dirent[]>;

export interface PresentNames {
  /** Every name is an entry of its folder: `git ls-files --deleted` would list none of them. */
  readonly allPresent: boolean;
  readonly folders: FolderEntries;
}

/**
 * Whether every name (root-relative, POSIX separators, decoded from Git's bytes) is an entry of
 * its folder; false whenever that is not proven, and the caller then runs Git's own check. The
 * folders' entries are kept: the index's watch reads the same folders (listingWatch.ts).
 */
export function readListedFolders(root: string, names: readonly string[]): PresentNames {
  const folders = new Map<string, readonly fs.Dirent[]>();
  const present = new Map<string, Set<string>>();
  // A UTF-8 character is at most 3 UTF-16 units' worth of bytes per unit; only long paths are measured.
  const measureFrom = Math.floor(PATH_MAX_BYTES / 3) - root.length - 1;
  for (const name of names) {
    if (name.includes("\uFFFD")) return { allPresent: false, folders };
    const slash = name.lastIndexOf("/");
    const folder = slash === -1 ? "" : name.slice(0, slash);
    let entries = present.get(folder);
    if (entries === undefined) {
      try {
        const read = fs.readdirSync(folder === "" ? root : absoluteOf(root, folder), { withFileTypes: true });
        folders.set(folder, read);
        entries = new Set(read.map((entry) => entry.name));
        // Search permission on the folder: the one condition of an `lstat` inside it that `readdir` does not prove.
        fs.lstatSync(absoluteOf(root, name));
      } catch {
        return { allPresent: false, folders };
      }
      present.set(folder, entries);
    }
    if (!entries.has(slash === -1 ? name : name.slice(slash + 1))) return { allPresent: false, folders };
    if (name.length >= measureFrom && Buffer.byteLength(absoluteOf(root, name), "utf8") >= PATH_MAX_BYTES) return { allPresent: false, folders };
  }
  return { allPresent: true, folders };
}
