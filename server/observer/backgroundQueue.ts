// The local-mode Observer queue (docs: design/observer.md §1.5). Background interpretation on a
// local model must never compete with the developer's own turn, so the queue runs one job at a
// time, starts paused, and yields at once when the foreground needs the machine: `pause()` aborts
// the running job and puts it back at the front, unsettled. Work that cannot run is never dropped
// silently: an evicted or failing job is settled as `deferred`, so the caller can say so.
// `reset()` starts a new epoch (a session switch or compaction): whatever an older epoch's job
// finishes with is discarded, because the history it was computed from is gone.

export interface BackgroundJob {
  readonly id: string;
}

export type BackgroundJobResult = { readonly status: "completed" | "skipped" } | { readonly status: "aborted" } | { readonly status: "deferred"; readonly message: string };

export interface BackgroundQueueSnapshot {
  readonly state: "paused" | "idle" | "running" | "disposed";
  readonly queued: number;
  readonly activeJobId: string | null;
}

export interface BackgroundQueue<Job extends BackgroundJob> {
  /** False when disposed or when a job with this id is already running or queued. */
  enqueue(job: Job): boolean;
  /** Foreground preemption: stop starting jobs; abort the running one and requeue it at the front. */
  pause(): void;
  resume(): void;
  /** New epoch: paused, queue cleared, the running job aborted and its outcome discarded. */
  reset(): void;
  /** Like reset, for good: later enqueues are refused. */
  dispose(): void;
  snapshot(): BackgroundQueueSnapshot;
}

export interface BackgroundQueueOptions<Job extends BackgroundJob> {
  readonly run: (job: Job, signal: AbortSignal) => Promise<BackgroundJobResult>;
  /** Told once per job of the current epoch; its failures are swallowed (presentation must not stop the queue). */
  readonly settled?: (job: Job, result: BackgroundJobResult) => void | Promise<void>;
  readonly changed?: (snapshot: BackgroundQueueSnapshot) => void;
  /** Default 8, at least 1. */
  readonly maximumQueued?: number;
}

export const DEFAULT_MAXIMUM_QUEUED = 8;
export const EVICTED_MESSAGE = "Observer background queue reached its bounded capacity.";

interface QueuedJob<Job> {
  readonly job: Job;
  readonly epoch: number;
}

interface ActiveJob<Job> {
  readonly queued: QueuedJob<Job>;
  readonly abort: AbortController;
  requeue: boolean;
}

function capacity(requested: number | undefined): number {
  // A NaN or infinite bound would make the queue unbounded; such a value falls back to the default.
  if (requested === undefined || !Number.isFinite(requested)) return DEFAULT_MAXIMUM_QUEUED;
  return Math.max(1, Math.floor(requested));
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createBackgroundQueue<Job extends BackgroundJob>(options: BackgroundQueueOptions<Job>): BackgroundQueue<Job> {
  const maximumQueued = capacity(options.maximumQueued);
  const queue: QueuedJob<Job>[] = [];
  let epoch = 0;
  let paused = true;
  let disposed = false;
  let draining = false;
  let active: ActiveJob<Job> | null = null;

  function snapshot(): BackgroundQueueSnapshot {
    const state = disposed ? "disposed" : active !== null ? "running" : paused ? "paused" : "idle";
    return { state, queued: queue.length, activeJobId: active === null ? null : active.queued.job.id };
  }

  function notify(): void {
    options.changed?.(snapshot());
  }

  async function settle(job: Job, result: BackgroundJobResult): Promise<void> {
    try {
      await options.settled?.(job, result);
    } catch {
      // Reporting a result must never stop later Observer work.
    }
  }

  async function runOne(queued: QueuedJob<Job>): Promise<void> {
    const current: ActiveJob<Job> = { queued, abort: new AbortController(), requeue: false };
    active = current;
    notify();
    let result: BackgroundJobResult;
    try {
      result = await options.run(queued.job, current.abort.signal);
    } catch (error) {
      // No retry inside a run: a failure is deferred to a later turn, an abort is just an abort.
      result = current.abort.signal.aborted ? { status: "aborted" } : { status: "deferred", message: errorText(error) };
    }
    active = null;
    const sameEpoch = queued.epoch === epoch;
    if (current.requeue && !disposed && sameEpoch) queue.unshift(queued);
    else if (sameEpoch) await settle(queued.job, result);
    notify();
  }

  async function drain(): Promise<void> {
    try {
      while (!disposed && !paused && queue.length > 0) {
        const queued = queue.shift();
        if (queued === undefined || queued.epoch !== epoch) continue;
        await runOne(queued);
      }
    } finally {
      draining = false;
      notify();
      schedule();
    }
  }

  function schedule(): void {
    if (disposed || paused || draining || queue.length === 0) return;
    draining = true;
    queueMicrotask(() => void drain());
  }

  function abortActive(requeue: boolean): void {
    if (active === null) return;
    active.requeue = requeue;
    active.abort.abort();
  }

  return {
    enqueue(job) {
      if (disposed) return false;
      if (active?.queued.job.id === job.id || queue.some((queued) => queued.job.id === job.id)) return false;
      if (queue.length >= maximumQueued) {
        const evicted = queue.shift();
        if (evicted !== undefined) void settle(evicted.job, { status: "deferred", message: EVICTED_MESSAGE });
      }
      queue.push({ job, epoch });
      notify();
      schedule();
      return true;
    },
    pause() {
      if (disposed) return;
      paused = true;
      abortActive(true);
      notify();
    },
    resume() {
      if (disposed) return;
      paused = false;
      notify();
      schedule();
    },
    reset() {
      if (disposed) return;
      epoch += 1;
      paused = true;
      queue.length = 0;
      abortActive(false);
      notify();
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      epoch += 1;
      queue.length = 0;
      abortActive(false);
      notify();
    },
    snapshot,
  };
}
