// The fuzz harness's JSON mutations (test/reliability/fuzz/mutate.ts) must never alias the values
// fast-check hands out: its `{}` and `[]` constants are shared by every case, and a mutated tree
// that kept one could be inserted into itself and grow across cases (a --long run ran out of memory).
import { test } from "node:test";
import assert from "node:assert/strict";
import { jsonText, mutateJson, type Json, type JsonMutation } from "../reliability/fuzz/mutate";

test("a mutation's value is copied: inserting one shared object twice makes no cycle and leaves it untouched", () => {
  const shared: { [key: string]: Json } = {};
  // Slot 1 is the root's "a"; after the first insert, slot 2 is the inserted object.
  const mutations: JsonMutation[] = [
    { op: "insert", at: 0, key: "x", value: shared },
    { op: "insert", at: 2, key: "y", value: shared },
    { op: "replace", at: 1, value: shared },
  ];
  const result = mutateJson({ a: 1 }, mutations);
  assert.deepEqual(shared, {}, "the arbitrary's constant is never changed");
  assert.equal(jsonText(result), JSON.stringify(result), "finite and acyclic");
});
