// Entry of the worker thread of `docket mcp` (toolWorker.ts; bundled as dist/docket-mcp-worker.js):
// runs the tools that need only their session, one call at a time, and answers each with its
// outcome or its coded refusal. Nothing here throws past a call: any fault is a coded answer.
import { parentPort } from "node:worker_threads";
import { DocketError, toDocketError } from "../errors";
import { ErrorCodes } from "../protocol/messages";
import { NOTEBOOK_TOOLS } from "./notebookTools";
import type { WorkerCall, WorkerReply } from "./toolWorker";

async function reply(call: WorkerCall): Promise<WorkerReply> {
  try {
    const tool = NOTEBOOK_TOOLS.find((candidate) => candidate.name === call.tool);
    if (tool === undefined) throw new DocketError(ErrorCodes.internal, `${call.tool} does not run in the worker thread`);
    return { id: call.id, ok: true, outcome: await tool.invoke(call.session, call.args) };
  } catch (error) {
    const coded = toDocketError(error);
    return { id: call.id, ok: false, error: { code: coded.code, message: coded.message, ...(coded.details === undefined ? {} : { details: coded.details }) } };
  }
}

const port = parentPort;
if (port !== null) {
  // One call at a time, in arrival order: each waits for the one before it.
  let queue: Promise<void> = Promise.resolve();
  port.on("message", (call: WorkerCall) => {
    queue = queue.then(async () => {
      const answer = await reply(call);
      try {
        port.postMessage(answer);
      } catch (error) {
        port.postMessage({ id: call.id, ok: false, error: { code: ErrorCodes.internal, message: `The answer could not be passed back: ${error instanceof Error ? error.message : String(error)}` } } satisfies WorkerReply);
      }
    });
  });
}
