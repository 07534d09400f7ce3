// The text a snapshot's path list was split from, when it is all ASCII: the Router index keeps the
// file list as one NUL-separated block (snapshot/indexFormat.ts), and a warm plan splits it into
// 100,000 strings. A name looked up in that list (matching.ts: "which files are called
// module7.ts?") is then one regular-expression search over the block instead of a comparison per
// path in JavaScript, which in a fresh process runs mostly before the JIT has optimized it.
//
// Kept by list object: lists are never mutated once built (like the snapshot caches in plan.ts
// and matching.ts), and a copy with the same entries (plan.ts's normalized lists) is registered
// with the same block. Only ASCII blocks are kept: for ASCII text a case-insensitive search
// (without the `u` flag) folds exactly the letters `toLowerCase` does, and nothing else.

const blocks = new WeakMap<readonly string[], string>();

/** Records that `paths` is exactly `block.split("\0")` and the block is ASCII. */
export function rememberAsciiBlock(paths: readonly string[], block: string): void {
  if (paths.length > 0) blocks.set(paths, block);
}

/** The ASCII block `paths` was split from, if one was recorded. */
export function asciiBlockOf(paths: readonly string[]): string | undefined {
  return blocks.get(paths);
}

/** A name the block search can look up: printable ASCII, no `/` (a basename), not empty. */
const SEARCHABLE_NAME = /^[\x20-\x2e\x30-\x7e]+$/u;

/**
 * The paths of `block` (NUL-separated, ASCII) whose last segment, lower-cased, is `lowerName`, in
 * block order; undefined when `lowerName` is not one the search can answer (the caller scans).
 */
export function pathsNamedInBlock(block: string, lowerName: string): string[] | undefined {
  if (!SEARCHABLE_NAME.test(lowerName) || lowerName !== lowerName.toLowerCase()) return undefined;
  const escaped = lowerName.replace(/[\\^$.*+?()[\]{}|-]/gu, "\\$&");
  // The name ending a path; `i` without `u`: ASCII folding. Whether it starts its path's last
  // segment is checked after the match: a lookbehind for the separator made the search 10 to 100
  // times slower on the bench's 4 MB block. A match that does not start a segment cannot hide one
  // that does: both would end at the same path's end with the same length.
  const search = new RegExp(`${escaped}(?=\\0|$)`, "gi");
  const found: string[] = [];
  for (let match = search.exec(block); match !== null; match = search.exec(block)) {
    const start = match.index;
    const before = start === 0 ? 0 : block.charCodeAt(start - 1);
    if (before !== 0 && before !== 0x2f) continue;
    found.push(block.slice(block.lastIndexOf("\0", start) + 1, start + lowerName.length));
  }
  return found;
}
