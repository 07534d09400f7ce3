// Hot-path hints: places whose *name* suggests code that runs often or whose cost grows with
// input, which is what seats the performance specialist. A hint is only a hint — it is stated
// with the word that fired so a person can judge it.
//
// Each path segment is split into words (non-alphanumerics, camelCase and letter→digit
// boundaries, lower case) and compared whole against HOT_WORDS; a file's extension is not a word. "index" counts
// only as a folder name (a search or database index), not as the `index.ts` entry-file
// convention. The shallowest match wins: a matching folder is one hint covering everything
// under it, so a path is hot when it equals a hint's path or lies under it.
import { compareCodeUnits } from "../../ledger/canonicalJson";
import type { SnapshotHotPath } from "../planSchema";

export const HOT_WORDS: readonly string[] = [
  "alloc",
  "allocator",
  "bench",
  "benchmark",
  "benchmarks",
  "cache",
  "caches",
  "caching",
  "codec",
  "compiler",
  "decoder",
  "encoder",
  "hot",
  "index",
  "indexer",
  "lexer",
  "loop",
  "parser",
  "perf",
  "performance",
  "pool",
  "queries",
  "query",
  "render",
  "renderer",
  "router",
  "scheduler",
  "serialize",
  "serializer",
  "serialization",
  "tokenizer",
];

const HOT = new Set(HOT_WORDS);

export function nameWords(segment: string): string[] {
  return segment
    .replace(/([a-z0-9])([A-Z])/gu, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/gu, "$1 $2")
    .replace(/(\p{L})(\p{N})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** Any hot word inside a lower-case ASCII name (words are cut from the name, so none is outside it). */
const ANY_HOT_WORD = new RegExp(HOT_WORDS.join("|"), "u");
const NON_ASCII = /[^\u0000-\u007f]/u;

function hotWords(segment: string, isFile: boolean): string[] {
  const dot = segment.indexOf(".", 1);
  const stem = isFile && dot > 0 ? segment.slice(0, dot) : segment;
  // Most names hold no hot word at all: an ASCII name lower-cases letter by letter, so when no hot
  // word appears in it, none of its words is one (splitting never joins letters). Others take the
  // full rule.
  if (!NON_ASCII.test(stem) && !ANY_HOT_WORD.test(stem.toLowerCase())) return [];
  const words = nameWords(stem).filter((word) => HOT.has(word) && !(isFile && word === "index"));
  return [...new Set(words)].sort(compareCodeUnits);
}

export interface HotPathResult {
  readonly hotPaths: readonly SnapshotHotPath[];
  /** How many hints there were before the cap (equal to hotPaths.length when not capped). */
  readonly total: number;
}

/** `files` must be sorted by code units; the result is sorted by path. */
export function findHotPaths(files: readonly string[], max: number): HotPathResult {
  const byPath = new Map<string, string>();
  // Folder verdicts are remembered: a large tree repeats the same folders for every file.
  const folderHint = new Map<string, string | null>();
  const fileHint = new Map<string, string | null>();
  const hintOf = (words: readonly string[]): string | null => (words.length === 0 ? null : `the name has ${words.map((word) => `"${word}"`).join(", ")}`);
  // Files of one folder come together in a sorted list: its folders' verdict is taken once.
  let lastFolder: string | null = null;
  let lastFolderHot = false;
  for (const file of files) {
    const slash = file.lastIndexOf("/");
    const folder = slash === -1 ? "" : file.slice(0, slash);
    let hot = false;
    if (folder === lastFolder) hot = lastFolderHot;
    else {
      const segments = folder === "" ? [] : folder.split("/");
      let prefix = "";
      for (let index = 0; index < segments.length && !hot; index += 1) {
        const segment = segments[index] as string;
        prefix = prefix === "" ? segment : `${prefix}/${segment}`;
        let hint = folderHint.get(prefix);
        if (hint === undefined) {
          hint = hintOf(hotWords(segment, false));
          folderHint.set(prefix, hint);
          if (hint !== null) byPath.set(prefix, hint);
        }
        hot = hint !== null;
      }
      lastFolder = folder;
      lastFolderHot = hot;
    }
    if (hot) continue;
    // A file's verdict depends on its name alone, and names repeat across folders (index.ts).
    const name = file.slice(slash + 1);
    let hint = fileHint.get(name);
    if (hint === undefined) {
      hint = hintOf(hotWords(name, true));
      fileHint.set(name, hint);
    }
    if (hint !== null) byPath.set(file, hint);
  }
  const all = [...byPath.entries()].sort((left, right) => compareCodeUnits(left[0], right[0]));
  return { hotPaths: all.slice(0, max).map(([path, hint]) => ({ path, hint })), total: all.length };
}
