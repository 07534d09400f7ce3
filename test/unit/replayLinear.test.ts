// Replay stays linear in the length of one scope (issue 16): the CPU cost per event of one
// 20,000-event scope stays within a small multiple of a 2,000-event scope's. The reducer used to
// copy and scan whole scope-wide lists (frames, supports, assignments, debts, …) on every event,
// so a long scope's replay grew quadratically; each event now costs the same at any scope length.
import assert from "node:assert/strict";
import test from "node:test";
import { replayEntries } from "../../server/ledger/replay";
import { longScopeEntries } from "../support/generatedCycles";

const SMALL = 2_000;
const LARGE = 20_000;
const ROUNDS = 5;
/** Context sources each frame opens: supports are the records a long scope accumulates most. */
const OPENED_SOURCES = 12;
/** Linear replay measures 0.9–1.15 here on a busy 2-core machine; the quadratic reducer measured 1.7–2.2. */
const MAX_RATIO = 1.5;

function cpuMicrosPerEvent(entries: readonly unknown[]): number {
  const start = process.cpuUsage();
  const replayer = replayEntries(entries);
  const used = process.cpuUsage(start);
  assert.equal(replayer.firstRejected, null, "every generated event is accepted");
  assert.equal(replayer.accepted.length, entries.length);
  return (used.user + used.system) / entries.length;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

test("one scope of 20,000 events replays at the per-event CPU cost of one of 2,000 events", (t) => {
  const small = longScopeEntries("scope:small", SMALL, OPENED_SOURCES);
  const large = longScopeEntries("scope:large", LARGE, OPENED_SOURCES);
  cpuMicrosPerEvent(small); // warm-up: the JIT settles before anything is timed
  const smallCosts: number[] = [];
  const largeCosts: number[] = [];
  // Interleaved rounds and medians: a busy machine slows both sizes alike.
  for (let round = 0; round < ROUNDS; round += 1) {
    smallCosts.push(cpuMicrosPerEvent(small));
    largeCosts.push(cpuMicrosPerEvent(large));
  }
  const ratio = median(largeCosts) / median(smallCosts);
  t.diagnostic(`per-event CPU ratio ${ratio.toFixed(2)} (${median(largeCosts).toFixed(1)} vs ${median(smallCosts).toFixed(1)} µs)`);
  assert.ok(
    ratio <= MAX_RATIO,
    `per-event CPU ${median(largeCosts).toFixed(1)} µs at ${large.length} events vs ${median(smallCosts).toFixed(1)} µs at ${small.length} (ratio ${ratio.toFixed(2)}, at most ${MAX_RATIO})`,
  );
});
