// A name looked up in a snapshot list split from the Router index's ASCII block is searched in the
// block (server/router/pathBlock.ts) instead of path by path (matching.ts). Both must give the same
// paths in the same order, for every list and every name; a list whose block is not ASCII, or a
// name the search cannot answer, takes the scan.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { pathIndex } from "../../server/router/matching";
import { asciiBlockOf, pathsNamedInBlock, rememberAsciiBlock } from "../../server/router/pathBlock";
import type { WorkspaceSnapshot } from "../../server/router/planSchema";
import { decodeIndex, encodeIndex, type IndexDetails, type RouterIndex } from "../../server/router/snapshot/indexFormat";

const ASCII_UNITS = ["a", "b", "m", "A", "B", "M", "7", ".", "-", "_", " ", "+", "(", ")", "[", "]", "$", "^", "*", "?", "|", "{", "}", "\\", "#", "'"];
const OTHER_UNITS = ["é", "É", "İ", "\u212a", "ß", "Σ", "ς", "가"];

function segmentOf(units: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: fc.constantFrom(...units), minLength: 1, maxLength: 6 }),
    fc.constantFrom("module7.ts", "Module7.TS", "README.md", "a.b", "x+y.ts", "[id].tsx", "$.js", "a\\b"),
  );
}

function listOf(units: readonly string[]): fc.Arbitrary<string[]> {
  const path = fc.array(segmentOf(units), { minLength: 1, maxLength: 4 }).map((segments) => segments.join("/"));
  return fc.array(path, { minLength: 1, maxLength: 25 });
}

function isAsciiText(text: string): boolean {
  return !/[^\x00-\x7f]/u.test(text);
}

function snapshotOf(files: string[]): WorkspaceSnapshot {
  return { files, directories: [] } as unknown as WorkspaceSnapshot;
}

/** The paths named `lowerName` by the scan (a list with no block) and by the block search. */
function bothWays(files: readonly string[], lowerName: string): { scanned: readonly string[]; searched: readonly string[] } {
  const plain = [...files];
  const withBlock = [...files];
  const block = files.join("\u0000");
  if (isAsciiText(block)) rememberAsciiBlock(withBlock, block);
  return { scanned: pathIndex(snapshotOf(plain)).filesNamed(lowerName), searched: pathIndex(snapshotOf(withBlock)).filesNamed(lowerName) };
}

/** Names to look up: listed basenames in another case, parts of them, and arbitrary text. */
function namesFor(files: readonly string[], units: readonly string[]): fc.Arbitrary<string> {
  const basenames = files.map((file) => file.slice(file.lastIndexOf("/") + 1));
  return fc.oneof(
    fc.tuple(fc.constantFrom(...basenames), fc.constantFrom("lower", "upper", "as is", "first upper")).map(([name, how]) =>
      how === "lower" ? name.toLowerCase() : how === "upper" ? name.toUpperCase() : how === "as is" ? name : name.charAt(0).toUpperCase() + name.slice(1),
    ),
    fc.constantFrom(...basenames).map((name) => name.slice(1)),
    fc.string({ unit: fc.constantFrom(...units, "/", "\u0000"), maxLength: 8 }),
  );
}

for (const [label, units] of [
  ["ASCII lists", ASCII_UNITS],
  ["lists with non-ASCII names", [...ASCII_UNITS, ...OTHER_UNITS]],
] as const) {
  test(`a name is found in the block exactly as the scan finds it: ${label} (property)`, () => {
    fc.assert(
      fc.property(
        listOf(units).chain((files) => fc.tuple(fc.constant(files), namesFor(files, units))),
        ([files, name]) => {
          // The callers pass lower-cased names (withBasename); an upper-case one must still agree.
          for (const lowerName of [name.toLowerCase(), name]) {
            const { scanned, searched } = bothWays(files, lowerName);
            assert.deepEqual(searched, scanned, JSON.stringify({ files, lowerName }));
          }
        },
      ),
      { numRuns: 4000, seed: 16 },
    );
  });
}

test("the block search answers ASCII names, and leaves the others to the scan", () => {
  const files = ["Module7.ts", "a/module7.TS", "a/b/module7.ts", "a/xmodule7.ts", "module7.ts/c", "b/module7.tsx", "c/x+y.ts", "d/X+Y.TS", "e/a.b", "e/aXb"];
  const block = files.join("\u0000");
  assert.deepEqual(pathsNamedInBlock(block, "module7.ts"), ["Module7.ts", "a/module7.TS", "a/b/module7.ts"]);
  assert.deepEqual(pathsNamedInBlock(block, "x+y.ts"), ["c/x+y.ts", "d/X+Y.TS"]);
  assert.deepEqual(pathsNamedInBlock(block, "a.b"), ["e/a.b"]);
  assert.deepEqual(pathsNamedInBlock(block, "nothing"), []);
  for (const name of ["", "a/b", "Module7.ts", "é.ts", "\u212a.ts", "a\u0000b"]) assert.equal(pathsNamedInBlock(block, name), undefined, name);
});

test("decoding an index keeps the ASCII path blocks with their lists, and only those", () => {
  for (const [files, ascii] of [
    [["a.ts", "src/module7.ts", "src/x/y.ts"], true],
    [["a.ts", "src/é.ts"], false],
  ] as const) {
    const snapshot = {
      format: "docket/router-snapshot/v1",
      source: "walk",
      files: [...files],
      directories: ["src"],
      modules: [],
      technologies: [],
      ruleFiles: [],
      hotPaths: [],
      imports: [],
      limits: [],
      skipped: [],
      snapshotSha256: "0".repeat(64),
    } as unknown as WorkspaceSnapshot;
    const index: RouterIndex = { root: "/w", settings: "0".repeat(64), environment: "0".repeat(64), watch: { sound: true, inside: [], outside: [] }, reads: [], snapshot, details: null };
    const details: IndexDetails = { listing: { source: "walk", skipped: [], limits: [] }, facts: [] };
    const decoded = decodeIndex(encodeIndex(index, details).index);
    assert.ok(decoded !== null);
    assert.deepEqual(decoded.index.snapshot.files, [...files]);
    assert.equal(asciiBlockOf(decoded.index.snapshot.files), ascii ? files.join("\u0000") : undefined);
    assert.equal(asciiBlockOf(decoded.index.snapshot.directories), "src");
  }
});
