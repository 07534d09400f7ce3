// The Router index records read files and import edges as positions in the snapshot's file list
// (server/router/snapshot/indexFormat.ts). The search that finds them starts from the last one
// found; it must give exactly what a plain search gives, in any order of the paths asked for.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { compareCodeUnits } from "../../server/ledger/canonicalJson";
import { positionsIn } from "../../server/router/snapshot/indexFormat";

const pathSegment = fc.constantFrom("a", "b", "src", "pkg-0001", "pkg-0010", "module1.ts", "module10.ts", "z", "é", "\u{1F600}", "A");
const filePath = fc.array(pathSegment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join("/"));

test("positions found from the last one equal a plain search's (property)", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(filePath, { minLength: 1, maxLength: 200 }),
      fc.array(fc.nat(), { maxLength: 300 }),
      fc.boolean(),
      (unique, picks, sorted) => {
        const files = sorted ? [...unique].sort(compareCodeUnits) : unique;
        const wanted = picks.map((pick) => files[pick % files.length] as string);
        assert.deepEqual(
          positionsIn(files, wanted),
          wanted.map((path) => files.indexOf(path)),
        );
      },
    ),
    { numRuns: 500, seed: 16 },
  );
});

test("a path the snapshot does not list is refused", () => {
  assert.throws(() => positionsIn(["a", "b", "c"], ["b", "bb"]), /does not list/u);
  assert.throws(() => positionsIn([], ["a"]), /does not list/u);
});
