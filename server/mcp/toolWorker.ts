// The worker thread of `docket mcp`. Tools that read and validate a lot (the Notebook's: a whole
// notebook, a batch of up to 200 records) run there, so the thread that answers requests stays free:
// a `status` asked while a large proposal is being validated is answered at once instead of after
// it. One worker, started on first use and kept while the server runs; it takes calls in order.
// If it dies (a crash, or its memory limit), the calls it held are refused with a coded error and
// the next call starts a new one, so the server itself survives whatever a tool's input does.
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { DocketError } from "../errors";
import { ErrorCodes, type ErrorCode } from "../protocol/messages";
import type { ToolOutcome, ToolSession } from "./toolDefinition";

/** One call, as posted to the worker (structured clone: plain data only). */
export interface WorkerCall {
  readonly id: number;
  readonly tool: string;
  readonly session: ToolSession;
  readonly args: unknown;
}

/** The worker's answer to one call. */
export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly outcome: ToolOutcome }
  | { readonly id: number; readonly ok: false; readonly error: { readonly code: ErrorCode; readonly message: string; readonly details?: Readonly<Record<string, unknown>> } };

/** Far above what validating the largest proposal needs; past it the worker dies, not the server. */
const WORKER_HEAP_MB = 1024;

/** The worker's script: its own bundle beside dist/docket.js, or the compiled module beside this one. */
export function toolWorkerScript(directory: string = __dirname): string {
  const bundled = path.join(directory, "docket-mcp-worker.js");
  return fs.existsSync(bundled) ? bundled : path.join(directory, "toolWorkerMain.js");
}

interface Waiting {
  readonly resolve: (outcome: ToolOutcome) => void;
  readonly reject: (error: DocketError) => void;
}

export class ToolWorker {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;

  constructor(
    private readonly script: string = toolWorkerScript(),
    private readonly heapMb: number = WORKER_HEAP_MB,
  ) {}

  /** Runs `tool` in the worker; a refusal comes back as the DocketError the tool threw. */
  run(tool: string, session: ToolSession, args: unknown): Promise<ToolOutcome> {
    const worker = this.started();
    const id = this.nextId;
    this.nextId += 1;
    const call: WorkerCall = { id, tool, session: { workspaceFolder: session.workspaceFolder, notebookPath: session.notebookPath, client: session.client }, args };
    return new Promise<ToolOutcome>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      // Only a worker with calls in flight keeps the process alive.
      worker.ref();
      try {
        worker.postMessage(call);
      } catch (error) {
        this.settle(id);
        reject(new DocketError(ErrorCodes.invalidParams, `Invalid arguments for ${tool}: they cannot be passed on (${error instanceof Error ? error.message : String(error)})`));
      }
    });
  }

  /** Stops the worker; calls in flight are refused. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failAll("the server is shutting down");
    if (worker !== null) await worker.terminate();
  }

  private started(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = new Worker(this.script, { resourceLimits: { maxOldGenerationSizeMb: this.heapMb } });
    worker.unref();
    worker.on("message", (reply: WorkerReply) => this.answer(reply));
    worker.on("error", (error: Error) => this.lost(worker, error.message));
    worker.on("exit", (code: number) => this.lost(worker, `it exited with code ${code}`));
    this.worker = worker;
    return worker;
  }

  private answer(reply: WorkerReply): void {
    const waiting = this.settle(reply.id);
    if (waiting === undefined) return;
    if (reply.ok) waiting.resolve(reply.outcome);
    else waiting.reject(new DocketError(reply.error.code, reply.error.message, reply.error.details));
  }

  private settle(id: number): Waiting | undefined {
    const waiting = this.waiting.get(id);
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker?.unref();
    return waiting;
  }

  private lost(worker: Worker, why: string): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.failAll(`the worker thread that runs it stopped (${why})`);
  }

  private failAll(why: string): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const entry of waiting) {
      entry.reject(new DocketError(ErrorCodes.internal, `The call did not finish: ${why}. Nothing is known about its outcome; ask again (docket notebook proposals lists what was stored).`));
    }
  }
}
