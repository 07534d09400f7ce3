// An import specifier is joined to its file's folder by a scan for the common shapes
// (server/router/snapshot/importGraph.ts, `joinedSimply`) instead of Node's `posix.join` and
// `posix.normalize`. Whenever the scan answers, it must give exactly what the general expression
// gives; and whatever it answers, resolving a specifier must give what resolving it through the
// general expression alone gives, for every listed set. A snapshot's edges are de-duplicated per
// source when its reads come in file order, and across all sources otherwise. A listed path is
// joined to the workspace's real path by concatenation where that is what `path.join` gives.
import assert from "node:assert/strict";
import path from "node:path";
import * as posix from "node:path/posix";
import { test } from "node:test";
import fc from "fast-check";
import { compareCodeUnits } from "../../server/ledger/canonicalJson";
import { deriveFacts, type FileFacts } from "../../server/router/snapshot/fileFacts";
import { joinedSimply, relativeSpecifiers, resolveSpecifier } from "../../server/router/snapshot/importGraph";
import { resolveLimits } from "../../server/router/snapshot/options";
import { absoluteListedPath } from "../../server/router/snapshot/readFacts";
import { finishSnapshot, prepareSnapshot, type FileToRead } from "../../server/router/snapshot/snapshot";

const RESOLVE_EXTENSIONS = [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];

function generalJoin(from: string, specifier: string): string {
  return posix.normalize(posix.join(posix.dirname(from), specifier.split(/[?#]/u)[0] as string));
}

/** resolveSpecifier as it was before the scan: the general expression for every specifier. */
function generalResolve(from: string, specifier: string, listed: ReadonlySet<string>): string | null {
  const joined = generalJoin(from, specifier);
  if (joined === ".." || joined.startsWith("../") || posix.isAbsolute(joined)) return null;
  const target = joined.endsWith("/") ? joined.slice(0, -1) : joined;
  if (target !== "." && listed.has(target)) return target;
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

const SEGMENT = fc.oneof(
  fc.constantFrom("a", "b", "src", "x.js", "m.mjs", "y.ts", "index", ".", "..", "", "...", ".a", "a.", "?q", "#h", "q?r", "a#b", "가", "é", "a\\b", " "),
  fc.string({ unit: fc.constantFrom("a", ".", "/", "?", "#", "-"), maxLength: 5 }),
);
const PREFIX = fc.constantFrom("./", "../", "../../", "../../../", ".", "..", "./../", "././", ".//", "..//", "");
const SPECIFIER = fc.tuple(PREFIX, fc.array(SEGMENT, { maxLength: 4 })).map(([prefix, segments]) => `${prefix}${segments.join("/")}`);
/** Mostly listed-looking paths (plain segments), sometimes not (the scan must then refuse or agree). */
const FROM = fc.oneof(
  fc.array(fc.constantFrom("a", "b", "src", "pkg", "x.ts", "가", "a.b"), { minLength: 1, maxLength: 5 }).map((segments) => segments.join("/")),
  fc.array(SEGMENT, { minLength: 1, maxLength: 4 }).map((segments) => segments.join("/")),
);

test("the scan's join, when it answers, is the general join", () => {
  fc.assert(
    fc.property(FROM, SPECIFIER, (from, specifier) => {
      const simple = joinedSimply(from, specifier);
      if (simple !== null) assert.equal(simple, generalJoin(from, specifier), `${from} + ${specifier}`);
    }),
    { numRuns: 20_000 },
  );
});

test("the scan answers the shapes imports have", () => {
  assert.equal(joinedSimply("packages/pkg-0000/src/module7.ts", "./module6"), "packages/pkg-0000/src/module6");
  assert.equal(joinedSimply("a/b/c.ts", "../d/e.js?raw"), "a/d/e.js");
  assert.equal(joinedSimply("a/b/c.ts", "../../x#frag"), "x");
  assert.equal(joinedSimply("c.ts", "./x"), "x");
  // Above the root, dot segments inside, empty segments, a bare "." or "..": the general path.
  assert.equal(joinedSimply("c.ts", "../x"), null);
  assert.equal(joinedSimply("a/c.ts", "./x/../y"), null);
  assert.equal(joinedSimply("a/c.ts", "./x//y"), null);
  assert.equal(joinedSimply("a/c.ts", ".."), null);
  assert.equal(joinedSimply("a/c.ts", "./"), null);
  assert.equal(joinedSimply("a/./c.ts", "./x"), null);
  assert.equal(joinedSimply("/a/c.ts", "./x"), null);
});

test("resolving through the scan gives what the general join gives, for every listed set", () => {
  const listedPath = fc.array(fc.constantFrom("a", "b", "src", "x", "index", "d"), { minLength: 1, maxLength: 4 }).chain((segments) =>
    fc.constantFrom("", ...RESOLVE_EXTENSIONS, ".json").map((extension) => `${segments.join("/")}${extension}`),
  );
  fc.assert(
    fc.property(fc.array(listedPath, { maxLength: 30 }), FROM, SPECIFIER, (paths, from, specifier) => {
      const listed = new Set(paths);
      assert.equal(resolveSpecifier(from, specifier, listed), generalResolve(from, specifier, listed), `${from} + ${specifier}`);
    }),
    { numRuns: 20_000 },
  );
});

/** The import edges as they were collected before: every edge keyed by both ends, then sorted. */
function referenceEdges(reads: ReadonlyArray<readonly [string, string]>, listed: ReadonlySet<string>): Array<{ from: string; to: string }> {
  const edges = new Map<string, { from: string; to: string }>();
  for (const [from, text] of reads) {
    for (const specifier of relativeSpecifiers(text)) {
      const to = generalResolve(from, specifier, listed);
      if (to !== null && to !== from) edges.set(`${from}\u0000${to}`, { from, to });
    }
  }
  return [...edges.values()].sort((left, right) => compareCodeUnits(left.from, right.from) || compareCodeUnits(left.to, right.to));
}

test("a snapshot's import edges are the ones the general join and one key per edge give, reads in any order", () => {
  const name = fc.constantFrom("a", "b", "index", "x");
  const file = fc
    .tuple(fc.array(fc.constantFrom("src", "lib", "a"), { maxLength: 2 }), name, fc.constantFrom(".ts", ".js", ".tsx", ".mjs"))
    .map(([folders, stem, extension]) => [...folders, `${stem}${extension}`].join("/"));
  const body = fc
    .array(SPECIFIER, { maxLength: 4 })
    .map((specifiers) => specifiers.map((specifier, at) => (at % 2 === 0 ? `import x from "${specifier}";\n` : `require("${specifier}");\n`)).join(""));
  let edgeful = 0;
  fc.assert(
    fc.property(fc.uniqueArray(fc.tuple(file, body), { selector: ([path]) => path, minLength: 1, maxLength: 20 }), fc.boolean(), (entries, shuffled) => {
      const limits = resolveLimits({});
      const contents = new Map(entries);
      const prepared = prepareSnapshot({ source: "git", files: entries.map(([path]) => path), skipped: [], limits: [] }, limits);
      // Reads out of order and repeated (an index forged so), and without the prepared set.
      const reads = shuffled ? [...prepared.reads].reverse().concat(prepared.reads.slice(0, 2)) : prepared.reads;
      const factsOf = (entry: FileToRead): FileFacts => deriveFacts(entry.path, entry.role, Buffer.from(contents.get(entry.path) ?? "", "utf8"), limits);
      const snapshot = finishSnapshot(shuffled ? { source: "git", files: prepared.files, skipped: [], limits: [], reads } : prepared, factsOf, limits);
      const listed = new Set(prepared.files);
      if (snapshot.imports.length > 0) edgeful += 1;
      assert.deepEqual(snapshot.imports, referenceEdges(reads.map((entry) => [entry.path, contents.get(entry.path) ?? ""] as const), listed));
    }),
    { numRuns: 3_000 },
  );
  // Not vacuous: a good share of the generated workspaces have edges.
  assert.ok(edgeful > 600, `${edgeful} of 3,000 generated workspaces had import edges`);
});

test("a listed path joined to a real root by concatenation is path.join's", () => {
  const segment = fc.oneof(fc.constantFrom("a", "src", "x.ts", "...", ".a", "a.", "가", "a\\b", " ", "a b"), fc.string({ unit: fc.constantFrom("a", ".", "-", "\\"), minLength: 1, maxLength: 4 }));
  const plain = segment.filter((value) => value !== "." && value !== "..");
  const root = fc.oneof(fc.constant("/"), fc.array(plain, { minLength: 1, maxLength: 3 }).map((segments) => `/${segments.join("/")}`));
  fc.assert(
    fc.property(root, fc.array(plain, { minLength: 1, maxLength: 4 }), (base, segments) => {
      assert.equal(absoluteListedPath(base, segments.join("/")), path.join(base, ...segments));
    }),
    { numRuns: 5_000 },
  );
});
