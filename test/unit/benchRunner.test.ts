// The bench's arithmetic (bench/runner.ts, bench/figure.ts): interleaved rounds rotate the order of
// their arms and keep each arm's samples apart, a time budget cuts rounds but never below the
// minimum, medians and spreads come from the same samples, and a figure below its floor is
// flagged as a bench bug only when every round of it beat the floor's median round.
import assert from "node:assert/strict";
import test from "node:test";
import { figure, measuredOf, type Sample } from "../../bench/figure";
import { MIN_ROUNDS, belowFloor, interleavedRounds, verdictOf, type Arm } from "../../bench/runner";

function costs(cpu: readonly number[]): Sample[] {
  return cpu.map((cpuMs) => ({ cpuMs, wallMs: cpuMs * 2 }));
}

test("interleaved rounds rotate the arms' order and keep each arm's samples in round order", () => {
  const order: string[] = [];
  let tick = 0;
  const arm = (name: string): Arm => ({
    name,
    before: () => order.push(`before ${name}`),
    measure: () => {
      order.push(name);
      tick += 1;
      return { cpuMs: tick, wallMs: tick };
    },
  });
  const { samples, rounds } = interleavedRounds([arm("floor"), arm("a"), { ...arm("b"), warmUp: false }], { rounds: 3, warmUps: 1 });
  assert.equal(rounds, 3);
  assert.deepEqual(
    order.filter((entry) => !entry.startsWith("before")),
    ["floor", "a", /* round 0 */ "floor", "a", "b", /* round 1 */ "a", "b", "floor", /* round 2 */ "b", "floor", "a"],
  );
  assert.equal(order.filter((entry) => entry.startsWith("before")).length, order.length / 2, "every run is prepared");
  assert.deepEqual(samples.get("floor")?.map((sample) => sample.cpuMs), [3, 8, 10]);
  assert.deepEqual(samples.get("a")?.map((sample) => sample.cpuMs), [4, 6, 11]);
  assert.deepEqual(samples.get("b")?.map((sample) => sample.cpuMs), [5, 7, 9]);
});

test("a time budget cuts the rounds after the first, never below the minimum", () => {
  const slow: Arm = {
    name: "slow",
    measure: () => {
      const until = Date.now() + 30;
      while (Date.now() < until);
      return { cpuMs: 30, wallMs: 30 };
    },
  };
  const cut = interleavedRounds([slow], { rounds: 20, warmUps: 0, budgetMs: 1 });
  assert.equal(cut.rounds, MIN_ROUNDS);
  assert.equal(cut.samples.get("slow")?.length, MIN_ROUNDS);
  const kept = interleavedRounds([slow], { rounds: 2, warmUps: 0, budgetMs: 1 });
  assert.equal(kept.rounds, 2, "never more rounds than asked");
  assert.equal(interleavedRounds([slow], { rounds: 5, warmUps: 0, budgetMs: null }).rounds, 5);
});

test("a figure's ratio is the median over the floor's median on its basis, with the spread of each", () => {
  const measured = figure({
    id: "test.ratio",
    label: "ratio",
    workload: "samples",
    rounds: 5,
    measured: measuredOf(costs([30, 10, 20, 50, 40])),
    floor: { label: "floor", measured: measuredOf(costs([10, 12, 8, 9, 11])) },
    basis: "cpu",
    target: { max: 2, kind: "ratio", text: "≤ 2×" },
  });
  assert.deepEqual(measured.measured.cpuMs, { median: 30, min: 10, max: 50 });
  assert.deepEqual(measured.measured.wallMs, { median: 60, min: 20, max: 100 });
  assert.equal(measured.value, 3);
  assert.equal(measured.pass, false);
  assert.equal(verdictOf(measured, true), "FAIL");
  const absolute = figure({ id: "test.absolute", label: "absolute", workload: "samples", rounds: 3, measured: measuredOf(costs([4_000, 6_000, 4_500])), basis: "wall", target: { max: 5_000, kind: "absolute", text: "5 s" } });
  assert.equal(absolute.value, 9_000, "wall is twice the cpu in these samples");
  assert.equal(verdictOf(absolute, true), "FAIL");
  const informational = figure({ id: "test.info", label: "info", workload: "samples", rounds: 3, measured: measuredOf(costs([1, 2, 3])), basis: "cpu" });
  assert.equal(informational.pass, undefined);
  assert.equal(verdictOf(informational, true), "info");
});

test("below the floor is a bench bug only when every round beat the floor's median round", () => {
  const floor = { label: "floor", measured: measuredOf(costs([100, 101, 102, 103, 104])) };
  const base = { id: "test.floor", label: "floor", workload: "samples", rounds: 5, floor, basis: "cpu" as const, target: { max: 1.5, kind: "ratio" as const, text: "≤ 1.5×" } };
  const allBelow = figure({ ...base, measured: measuredOf(costs([90, 91, 92, 93, 101])) });
  assert.ok(allBelow.value < 1);
  assert.equal(belowFloor(allBelow), true);
  assert.equal(verdictOf(allBelow, true), "BUG", "a bug even though the target passes");
  assert.equal(verdictOf(allBelow, false), "PASS", "a reference floor is not a lower bound");
  const noise = figure({ ...base, measured: measuredOf(costs([95, 96, 99, 103, 104])) });
  assert.ok(noise.value < 1);
  assert.equal(belowFloor(noise), false);
  assert.equal(verdictOf(noise, true), "PASS");
});
