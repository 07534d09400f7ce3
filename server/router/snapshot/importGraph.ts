// The TypeScript/JavaScript import graph "where cheap": a regular-expression scan (no parser) for
// relative specifiers in `import … from "./x"`, `import "./x"`, `export … from "./x"`,
// `require("./x")` and `import("./x")`, resolved against the listed files. A match inside a
// comment or string may add an edge; that is the price of not parsing, and edges only widen the
// context pack's neighbour list.
import * as posix from "node:path/posix";

export const SOURCE_EXTENSIONS: readonly string[] = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/** Resolution order for an extensionless specifier: the file with each extension, then a folder's index. */
const RESOLVE_EXTENSIONS: readonly string[] = [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];

const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*|\brequire\s*\(\s*|\bimport\s*\(\s*)(["'])(\.{1,2}(?:\/[^"'\n]*)?)\1/gu;

export function isSourceFile(path: string): boolean {
  if (path.startsWith("node_modules/") || path.includes("/node_modules/")) return false;
  return hasSourceExtension(path);
}

const SOURCE_EXTENSION_SET: ReadonlySet<string> = new Set(SOURCE_EXTENSIONS);

/**
 * Whether the name ends with one of SOURCE_EXTENSIONS. Each holds one dot, its first character,
 * so a path ends with one exactly when its text from the last dot is one.
 */
export function hasSourceExtension(path: string): boolean {
  const dot = path.lastIndexOf(".");
  return dot !== -1 && SOURCE_EXTENSION_SET.has(path.slice(dot));
}

/** Relative specifiers in the text, in order of appearance, without duplicates. */
export function relativeSpecifiers(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(SPECIFIER)) found.add(match[2] as string);
  return [...found];
}

/**
 * `specifier` (query and fragment cut) joined to the folder of `from` and normalized, as
 * `posix.normalize(posix.join(posix.dirname(from), …))` gives it, for the common shapes only:
 * `./a/b` or `../../a/b` whose remaining segments are all plain (none empty, `.` or `..`), from a
 * listed path (whose segments are plain too), staying inside the root. Anything else gives null
 * and the caller takes the general expression. A cold build resolves one specifier per import
 * (19,600 on the bench), where Node's join and normalize were most of the import graph's cost.
 * Exported for its tests, which compare it with the general expression.
 */
export function joinedSimply(from: string, specifier: string): string | null {
  let end = specifier.length;
  for (let at = 0; at < end; at += 1) {
    const code = specifier.charCodeAt(at);
    if (code === 0x3f || code === 0x23) end = at; // "?" or "#"
  }
  // A listed path: plain segments, so its folder is what precedes its last slash (no trailing
  // slash for posix.dirname to drop, no dot segment for normalize to fold).
  if (!plainSegments(from, 0, from.length)) return null;
  let folderEnd = from.lastIndexOf("/"); // -1: the root
  let at: number;
  if (specifier.startsWith("./")) at = 2;
  else {
    at = 0;
    while (at + 3 <= end && specifier.startsWith("../", at)) {
      if (folderEnd === -1) return null; // above the root: the general path says so
      folderEnd = from.lastIndexOf("/", folderEnd - 1);
      at += 3;
    }
    if (at === 0) return null;
  }
  if (!plainSegments(specifier, at, end)) return null;
  const rest = specifier.slice(at, end);
  return folderEnd === -1 ? rest : `${from.slice(0, folderEnd)}/${rest}`;
}

/** `text` from `start` to `end` is `/`-separated segments, none empty, `.` or `..`. */
function plainSegments(text: string, start: number, end: number): boolean {
  if (start >= end) return false;
  for (let segment = start; ; ) {
    const slash = text.indexOf("/", segment);
    const segmentEnd = slash === -1 || slash > end ? end : slash;
    const size = segmentEnd - segment;
    if (size === 0) return false;
    if (text.charCodeAt(segment) === 0x2e && (size === 1 || (size === 2 && text.charCodeAt(segment + 1) === 0x2e))) return false;
    if (segmentEnd === end) return true;
    segment = segmentEnd + 1;
  }
}

/** The listed file a specifier names, or null (outside the root, or nothing listed there). */
export function resolveSpecifier(from: string, specifier: string, listed: ReadonlySet<string>): string | null {
  const joined = joinedSimply(from, specifier) ?? posix.normalize(posix.join(posix.dirname(from), specifier.split(/[?#]/u)[0] as string));
  if (joined === ".." || joined.startsWith("../") || posix.isAbsolute(joined)) return null;
  const target = joined.endsWith("/") ? joined.slice(0, -1) : joined;
  if (target !== "." && listed.has(target)) return target;
  // TypeScript under node16 resolution writes `./x.js` for `./x.ts`.
  const scriptExtension = /\.(m|c)?js$/u.exec(target);
  if (scriptExtension !== null) {
    const stem = target.slice(0, -scriptExtension[0].length);
    const flavour = scriptExtension[1] ?? "";
    for (const candidate of [`${stem}.${flavour}ts`, ...(flavour === "" ? [`${stem}.tsx`] : [])]) {
      if (listed.has(candidate)) return candidate;
    }
  }
  for (const extension of RESOLVE_EXTENSIONS) {
    if (target !== "." && listed.has(`${target}${extension}`)) return `${target}${extension}`;
  }
  for (const extension of RESOLVE_EXTENSIONS) {
    const index = target === "." ? `index${extension}` : `${target}/index${extension}`;
    if (listed.has(index)) return index;
  }
  return null;
}
