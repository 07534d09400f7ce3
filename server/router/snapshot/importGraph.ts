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

/** The listed file a specifier names, or null (outside the root, or nothing listed there). */
export function resolveSpecifier(from: string, specifier: string, listed: ReadonlySet<string>): string | null {
  const joined = posix.normalize(posix.join(posix.dirname(from), specifier.split(/[?#]/u)[0] as string));
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
