// Property tests: canonical JSON is order-independent and stable; replay never throws, gives one
// disposition per entry, and a rejected entry leaves the state exactly as it was.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { canonicalize } from "../../server/ledger/canonicalJson";
import { Replayer } from "../../server/ledger/replay";
import { closeScope, next, openScope } from "../support/envelopes";
import type { Envelope } from "../../server/ledger/envelope";

const json = fc.jsonValue({ maxDepth: 4 });

function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((entry, index) => shuffleKeys(entry, seed + index));
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    entries.sort((a, b) => ((a[0].length * 31 + seed) % 7) - ((b[0].length * 31 + seed) % 7));
    return Object.fromEntries(entries.map(([key, entry]) => [key, shuffleKeys(entry, seed + 1)]));
  }
  return value;
}

test("canonical JSON ignores key order and is a fixed point of parse", () => {
  fc.assert(
    fc.property(json, fc.integer(), (value, seed) => {
      const canonical = canonicalize(value);
      assert.equal(canonicalize(shuffleKeys(value, seed)), canonical);
      assert.equal(canonicalize(JSON.parse(canonical)), canonical);
    }),
    { numRuns: 300 },
  );
});

const scopeNames = ["scope:a", "scope:b", "scope:c"];

/** A pool of plausible entries: valid opens/closes, replays, and corrupted copies. */
function entries(): fc.Arbitrary<unknown[]> {
  return fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 60 })), { maxLength: 30 }).map((steps) => {
    const heads = new Map<string, Envelope>();
    const produced: unknown[] = [];
    for (const [scopeIndex, action, mutation] of steps) {
      const scope = scopeNames[scopeIndex] as string;
      const head = heads.get(scope);
      let entry: Envelope;
      if (head === undefined || action === 0) entry = openScope(scope, `event:${scope.slice(6)}-${produced.length}`);
      else if (action === 1) entry = next(head, "work-scope-opened", {});
      else entry = closeScope(head, `Closed ${produced.length}.`);
      heads.set(scope, entry);
      if (mutation < 40) produced.push(entry);
      else if (mutation < 50) {
        const text = JSON.stringify(entry);
        const position = mutation * 7 % text.length;
        produced.push(text.slice(0, position) + "x" + text.slice(position + 1));
      } else produced.push(produced[mutation % Math.max(1, produced.length)] ?? {});
    }
    return produced.map((value) => (typeof value === "string" ? safeParse(value) : value));
  });
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

test("replay never throws and a rejection keeps the exact prior state", () => {
  fc.assert(
    fc.property(entries(), (raws) => {
      const replayer = new Replayer();
      for (const raw of raws) {
        const before = JSON.stringify(replayer.scopes());
        const acceptedBefore = replayer.accepted.length;
        const disposition = replayer.apply(raw);
        if (disposition.status === "rejected") {
          assert.equal(JSON.stringify(replayer.scopes()), before);
          assert.equal(replayer.accepted.length, acceptedBefore);
        } else {
          assert.equal(replayer.accepted.length, acceptedBefore + 1);
        }
      }
      assert.equal(replayer.dispositions.length, raws.length);
      const ids = replayer.accepted.map((event) => event.envelope.eventId);
      assert.equal(new Set(ids).size, ids.length);
    }),
    { numRuns: 300 },
  );
});
