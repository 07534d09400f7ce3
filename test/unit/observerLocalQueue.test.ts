// The local-mode Observer queue (server/observer/backgroundQueue.ts), black-box: one job at a
// time, paused at start, duplicates refused, bounded capacity that defers instead of dropping,
// failures deferred without a retry, foreground preemption that requeues, epochs that discard
// stale completions, and a settled callback whose failures cannot stop the queue.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createBackgroundQueue, EVICTED_MESSAGE, type BackgroundJobResult } from "../../server/observer/backgroundQueue";

interface Job {
  readonly id: string;
}

const nextTask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function tasks(count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) await nextTask();
}

/** A run that only ends when it is aborted. */
function untilAborted(signal: AbortSignal): Promise<BackgroundJobResult> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve({ status: "aborted" });
    signal.addEventListener("abort", () => resolve({ status: "aborted" }), { once: true });
  });
}

function describe(job: Job, result: BackgroundJobResult): string {
  return `${job.id}:${result.status}${result.status === "deferred" ? `:${result.message}` : ""}`;
}

test("starts paused, refuses a duplicate id, then runs one job at a time in order", async () => {
  let running = 0;
  let most = 0;
  const finished: string[] = [];
  const queue = createBackgroundQueue<Job>({
    async run(job) {
      running += 1;
      most = Math.max(most, running);
      await nextTask();
      finished.push(job.id);
      running -= 1;
      return { status: "completed" };
    },
  });
  assert.equal(queue.enqueue({ id: "one" }), true);
  assert.equal(queue.enqueue({ id: "one" }), false);
  assert.equal(queue.enqueue({ id: "two" }), true);
  await tasks(2);
  assert.deepEqual(queue.snapshot(), { state: "paused", queued: 2, activeJobId: null });
  queue.resume();
  await tasks(4);
  assert.equal(most, 1);
  assert.deepEqual(finished, ["one", "two"]);
  assert.deepEqual(queue.snapshot(), { state: "idle", queued: 0, activeJobId: null });
});

test("the id of the running job is a duplicate too", async () => {
  const queue = createBackgroundQueue<Job>({ run: (_job, signal) => untilAborted(signal) });
  queue.enqueue({ id: "routine-1" });
  queue.resume();
  await nextTask();
  assert.equal(queue.snapshot().activeJobId, "routine-1");
  assert.equal(queue.enqueue({ id: "routine-1" }), false);
  assert.equal(queue.enqueue({ id: "routine-2" }), true);
  queue.dispose();
});

test("a full queue evicts its oldest job as deferred (bounded capacity), never silently", async () => {
  const settled: string[] = [];
  const queue = createBackgroundQueue<Job>({ maximumQueued: 2, run: async () => ({ status: "completed" }), settled: (job, result) => void settled.push(describe(job, result)) });
  queue.enqueue({ id: "oldest" });
  queue.enqueue({ id: "middle" });
  queue.enqueue({ id: "newest" });
  await nextTask();
  assert.equal(queue.snapshot().queued, 2);
  assert.deepEqual(settled, [`oldest:deferred:${EVICTED_MESSAGE}`]);
  queue.resume();
  await tasks(4);
  assert.deepEqual(settled, [`oldest:deferred:${EVICTED_MESSAGE}`, "middle:completed", "newest:completed"]);
});

test("capacity is at least one, and a bound that is not a finite number means the default of 8", async () => {
  const evicted: string[] = [];
  const tiny = createBackgroundQueue<Job>({ maximumQueued: 0, run: async () => ({ status: "completed" }), settled: (job) => void evicted.push(job.id) });
  tiny.enqueue({ id: "a" });
  tiny.enqueue({ id: "b" });
  assert.equal(tiny.snapshot().queued, 1);
  const unbounded = createBackgroundQueue<Job>({ maximumQueued: Number.NaN, run: async () => ({ status: "completed" }), settled: (job) => void evicted.push(job.id) });
  for (let index = 0; index < 9; index += 1) unbounded.enqueue({ id: `job-${index}` });
  assert.equal(unbounded.snapshot().queued, 8);
  await nextTask();
  assert.deepEqual(evicted, ["a", "job-0"]);
});

test("a run that throws is deferred once with its message, not retried", async () => {
  const starts: string[] = [];
  const settled: string[] = [];
  const queue = createBackgroundQueue<Job>({
    run(job) {
      starts.push(job.id);
      throw new Error("the model returned no tool call");
    },
    settled: (job, result) => void settled.push(describe(job, result)),
  });
  queue.enqueue({ id: "failing" });
  queue.resume();
  await tasks(2);
  assert.deepEqual(starts, ["failing"]);
  assert.deepEqual(settled, ["failing:deferred:the model returned no tool call"]);
  assert.equal(queue.snapshot().state, "idle");
});

test("foreground pause aborts the running job and requeues it at the front without settling it", async () => {
  const starts: string[] = [];
  const settled: string[] = [];
  let finish = false;
  const queue = createBackgroundQueue<Job>({
    async run(job, signal) {
      starts.push(job.id);
      return finish ? { status: "completed" } : untilAborted(signal);
    },
    settled: (job, result) => void settled.push(describe(job, result)),
  });
  queue.enqueue({ id: "routine" });
  queue.enqueue({ id: "later" });
  queue.resume();
  await nextTask();
  assert.equal(queue.snapshot().activeJobId, "routine");
  queue.pause();
  await nextTask();
  assert.deepEqual(settled, []);
  assert.deepEqual(queue.snapshot(), { state: "paused", queued: 2, activeJobId: null });
  finish = true;
  queue.resume();
  await tasks(4);
  assert.deepEqual(starts, ["routine", "routine", "later"]);
  assert.deepEqual(settled, ["routine:completed", "later:completed"]);
});

test("reset: a run that rejects once aborted settles nothing (its epoch is gone)", async () => {
  const results: string[] = [];
  const queue = createBackgroundQueue<Job>({
    run: (_job, signal) =>
      new Promise((_resolve, reject) => {
        signal.addEventListener("abort", () => reject(new Error("socket closed")), { once: true });
      }),
    settled: (job, result) => void results.push(describe(job, result)),
  });
  queue.enqueue({ id: "stale" });
  queue.resume();
  await nextTask();
  queue.reset();
  await tasks(2);
  // The reset started a new epoch: the aborted job's outcome belongs to the old one and is dropped.
  assert.deepEqual(results, []);
  assert.deepEqual(queue.snapshot(), { state: "paused", queued: 0, activeJobId: null });
});

test("a run that throws after its abort (pause) is requeued, not deferred", async () => {
  const results: string[] = [];
  let attempt = 0;
  const queue = createBackgroundQueue<Job>({
    run: (_job, signal) => {
      attempt += 1;
      if (attempt > 1) return Promise.resolve({ status: "skipped" });
      return new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("aborted by the caller")), { once: true }));
    },
    settled: (job, result) => void results.push(describe(job, result)),
  });
  queue.enqueue({ id: "job" });
  queue.resume();
  await nextTask();
  queue.pause();
  await nextTask();
  assert.deepEqual(results, []);
  queue.resume();
  await tasks(3);
  assert.deepEqual(results, ["job:skipped"]);
});

test("reset discards a stale completion and clears the queue; dispose refuses new work", async () => {
  const settled: string[] = [];
  const queue = createBackgroundQueue<Job>({ run: (_job, signal) => untilAborted(signal), settled: (job) => void settled.push(job.id) });
  queue.enqueue({ id: "stale" });
  queue.enqueue({ id: "queued" });
  queue.resume();
  await nextTask();
  queue.reset();
  await tasks(2);
  assert.deepEqual(settled, []);
  assert.deepEqual(queue.snapshot(), { state: "paused", queued: 0, activeJobId: null });
  queue.dispose();
  assert.equal(queue.enqueue({ id: "late" }), false);
  assert.equal(queue.snapshot().state, "disposed");
  queue.resume();
  queue.pause();
  queue.reset();
  assert.equal(queue.snapshot().state, "disposed");
});

test("dispose aborts the running job and settles nothing of it", async () => {
  const settled: string[] = [];
  let aborted = false;
  const queue = createBackgroundQueue<Job>({
    run: (_job, signal) => {
      signal.addEventListener("abort", () => (aborted = true), { once: true });
      return untilAborted(signal);
    },
    settled: (job) => void settled.push(job.id),
  });
  queue.enqueue({ id: "running" });
  queue.resume();
  await nextTask();
  queue.dispose();
  await tasks(2);
  assert.equal(aborted, true);
  assert.deepEqual(settled, []);
  assert.deepEqual(queue.snapshot(), { state: "disposed", queued: 0, activeJobId: null });
});

test("a settled callback that throws or rejects does not stop later jobs", async () => {
  const seen: string[] = [];
  const queue = createBackgroundQueue<Job>({
    run: async () => ({ status: "completed" }),
    settled: async (job) => {
      seen.push(job.id);
      if (job.id === "first") throw new Error("status bar gone");
      return Promise.reject(new Error("still gone"));
    },
  });
  queue.enqueue({ id: "first" });
  queue.enqueue({ id: "second" });
  queue.resume();
  await tasks(4);
  assert.deepEqual(seen, ["first", "second"]);
  assert.equal(queue.snapshot().state, "idle");
  assert.equal(queue.enqueue({ id: "third" }), true);
  await tasks(3);
  assert.deepEqual(seen, ["first", "second", "third"]);
});

test("changed reports every state the queue passes through", async () => {
  const states: string[] = [];
  const queue = createBackgroundQueue<Job>({ run: async () => ({ status: "completed" }), changed: (snapshot) => void states.push(`${snapshot.state}/${snapshot.queued}/${snapshot.activeJobId ?? "-"}`) });
  queue.enqueue({ id: "one" });
  queue.resume();
  await tasks(3);
  assert.equal(states[0], "paused/1/-");
  assert.ok(states.includes("running/0/one"));
  assert.equal(states.at(-1), "idle/0/-");
});
