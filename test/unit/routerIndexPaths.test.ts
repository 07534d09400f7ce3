// The Router index's path blocks are checked as one text (server/router/snapshot/indexFormat.ts:
// one regular-expression search and a length check) instead of path by path. The block must be
// accepted exactly when every one of its paths passes isInsidePath.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { insidePaths, isInsidePath } from "../../server/router/snapshot/indexFormat";

const segment = fc.oneof(
  fc.constantFrom("", ".", "..", "...", ".a", "a.", "..a", "a..", "src", "é", "\u{1F600}", " ", "\\", ". ."),
  fc.string({ unit: fc.constantFrom("a", ".", "/", "é", "\u{1F600}", " "), maxLength: 6 }),
);
const pathOf = fc.array(segment, { minLength: 1, maxLength: 5 }).map((segments) => segments.join("/"));
const longPath = fc.integer({ min: 4090, max: 4100 }).map((length) => "a".repeat(length));

function expected(paths: readonly string[]): string[] | null {
  return paths.every(isInsidePath) ? [...paths] : null;
}

test("a path block is accepted exactly when every path is inside (property)", () => {
  fc.assert(
    fc.property(fc.array(fc.oneof({ weight: 10, arbitrary: pathOf }, { weight: 1, arbitrary: longPath }), { minLength: 1, maxLength: 12 }), (paths) => {
      assert.deepEqual(insidePaths(paths.join("\u0000")), expected(paths));
    }),
    { numRuns: 3000, seed: 16 },
  );
});

test("each way out of the workspace is refused wherever it stands in the block", () => {
  for (const bad of ["", ".", "..", "/a", "a/", "a//b", "a/./b", "a/../b", "./a", "../a", "a/.", "a/..", "a".repeat(4097)]) {
    for (const block of [[bad], ["x", bad], [bad, "y"], ["x", bad, "y"]]) {
      assert.equal(insidePaths(block.join("\u0000")), null, JSON.stringify(block));
    }
  }
  assert.deepEqual(insidePaths(["...", ".a/a.", "a".repeat(4096)].join("\u0000")), ["...", ".a/a.", "a".repeat(4096)]);
});
