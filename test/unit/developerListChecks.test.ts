// The list checks' shortcut (strictly ascending identities pass both the duplicate and the order
// check without either's own walk) gives exactly the answers of the two checks run in turn, as
// canonical id lists and proposal target uses ran them before: the same list, or the same first
// error (a duplicate named as a duplicate, then the order), on random lists of ids with repeats.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { arrayAt, idAt } from "../../server/ledger/values";
import { assertCanonicalOrder, assertUnique, assertUniqueInCanonicalOrder, canonicalIdListAt } from "../../server/developer/values/common";
import { parseProposalTargetUses } from "../../server/developer/values/contributions";

type Outcome = { readonly value: unknown } | { readonly error: string };

function outcomeOf(run: () => unknown): Outcome {
  try {
    return { value: run() };
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** canonicalIdListAt as it was: parse, then the duplicate check, then the order check. */
function referenceIdList(value: unknown): readonly string[] {
  const ids = arrayAt(value, "ids", idAt, {});
  assertUnique(ids, "ids", (id) => id);
  assertCanonicalOrder(ids, "ids", (id) => id);
  return Object.freeze(ids);
}

const id = fc.constantFrom("a", "b", "c", "a.b", "a:b", "B", "Z", "frame:1", "frame:10", "frame:2", "x-y", "x/y");
const ids = fc.oneof(fc.array(id, { maxLength: 8 }), fc.uniqueArray(id, { maxLength: 8 }).map((list) => [...list].sort()));

test("canonical id lists: the shortcut answers as the duplicate and order checks did", () => {
  fc.assert(
    fc.property(ids, (list) => {
      assert.deepEqual(outcomeOf(() => canonicalIdListAt(list, "ids")), outcomeOf(() => referenceIdList(list)));
      assert.deepEqual(
        outcomeOf(() => assertUniqueInCanonicalOrder(list, "ids", (entry) => entry)),
        outcomeOf(() => {
          assertUnique(list, "ids", (entry) => entry);
          assertCanonicalOrder(list, "ids", (entry) => entry);
        }),
      );
    }),
    { numRuns: 3_000 },
  );
});

test("proposal target uses: the shortcut answers as the duplicate and order checks did", () => {
  const uses = fc.array(fc.record({ obligationId: id, useAs: fc.constantFrom("evidence", "constraint") }), { minLength: 1, maxLength: 6 });
  fc.assert(
    fc.property(uses, fc.boolean(), (list, sorted) => {
      const given = sorted ? [...list].sort((a, b) => (a.obligationId < b.obligationId ? -1 : a.obligationId > b.obligationId ? 1 : 0)) : list;
      const reference = outcomeOf(() => {
        assertUnique(given, "targetUses", (use) => use.obligationId);
        assertCanonicalOrder(given, "targetUses", (use) => use.obligationId);
        return given;
      });
      const actual = outcomeOf(() => parseProposalTargetUses(given, "targetUses"));
      if ("error" in reference) assert.deepEqual(actual, reference);
      else assert.deepEqual(actual, { value: given.map((use) => ({ obligationId: use.obligationId, useAs: use.useAs })) });
    }),
    { numRuns: 3_000 },
  );
});
