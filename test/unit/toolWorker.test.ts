// The worker thread of `docket mcp` (server/mcp/toolWorker.ts): calls come back as the tool's
// outcome or its coded refusal, and a worker that dies (a crash, its memory limit) costs only the
// calls it held, each refused with docket.internal, while the next call starts a new worker.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DocketError } from "../../server/errors";
import { ToolWorker, toolWorkerScript } from "../../server/mcp/toolWorker";

const session = { workspaceFolder: os.tmpdir(), notebookPath: null, client: null };

async function refusal(promise: Promise<unknown>): Promise<DocketError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof DocketError, String(error));
    return error;
  }
  assert.fail("expected a refusal");
}

test("the real worker runs the Notebook's tools and passes their coded refusals back", async () => {
  const worker = new ToolWorker(toolWorkerScript(path.join(__dirname, "..", "..", "server", "mcp")));
  try {
    const badArguments = await refusal(worker.run("propose_notebook_records", session, [1]));
    assert.equal(badArguments.code, "docket.invalid-params");
    assert.match(badArguments.message, /must be a JSON object, got an array/u);
    const noNotebook = await refusal(worker.run("notebook", session, {}));
    assert.equal(noNotebook.code, "docket.notebook-not-configured");
    const unusable = await refusal(worker.run("notebook", { ...session, notebookPath: path.join(os.tmpdir(), "docket-no-such-notebook") }, {}));
    assert.equal(unusable.code, "docket.notebook-unusable");
    assert.deepEqual(unusable.details, { code: "notebook.path-missing", diagnostics: [] });
    const notThere = await refusal(worker.run("status", session, {}));
    assert.equal(notThere.code, "docket.internal");
  } finally {
    await worker.close();
  }
});

test("a worker that crashes or runs out of memory refuses the calls it held and is replaced", async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "docket-tool-worker-"));
  const script = path.join(folder, "worker.js");
  fs.writeFileSync(
    script,
    [
      'const { parentPort } = require("node:worker_threads");',
      "parentPort.on('message', (call) => {",
      "  if (call.tool === 'crash') process.exit(3);",
      "  if (call.tool === 'throw') setImmediate(() => { throw new Error('boom'); });",
      "  if (call.tool === 'hog') { const kept = []; for (;;) kept.push(new Array(1e6).fill(call.id)); }",
      "  if (call.tool === 'echo') parentPort.postMessage({ id: call.id, ok: true, outcome: { summary: String(call.args.n), fields: {}, result: null } });",
      "});",
    ].join("\n"),
  );
  const worker = new ToolWorker(script, 32);
  try {
    assert.equal((await worker.run("echo", session, { n: 1 })).summary, "1");
    for (const tool of ["crash", "throw", "hog"]) {
      const lost = await refusal(worker.run(tool, session, {}));
      assert.equal(lost.code, "docket.internal", tool);
      assert.match(lost.message, /did not finish/u, tool);
      assert.equal((await worker.run("echo", session, { n: tool })).summary, tool, `a new worker answers after ${tool}`);
    }
  } finally {
    await worker.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
