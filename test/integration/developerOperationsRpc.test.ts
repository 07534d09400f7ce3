// The four operation requests over the real stdio backend, in a folder without Git: params are
// validated strictly, refusals carry their code in the error data, and a non-Git landing records
// the declared paths.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createMessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import { DocketErrorData, ErrorCodes, Requests } from "../../server/protocol/messages";
import { verifyLedgerFile } from "../../server/workspace/workspaceLedger";
import { repoRoot } from "../support/repoRoot";

const cli = path.join(repoRoot(), "dist", "docket.js");

test("open, conclude, authorize and land over JSON-RPC without Git", async () => {
  // realpath: the backend records real paths; a symlinked temp folder must not matter.
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "docket-ops-")));
  const child = spawn(process.execPath, [cli, "serve", `--clientProcessId=${process.pid}`, "--stdio"], { stdio: "pipe" });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.listen();
  const errorCode = async (method: string, params: unknown): Promise<string> => {
    try {
      await connection.sendRequest(method, params);
    } catch (error) {
      assert.ok(error instanceof ResponseError);
      return DocketErrorData.parse(error.data).code;
    }
    assert.fail(`${method} unexpectedly succeeded`);
  };
  try {
    await connection.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: { workspaceFolder: workspace, ledgerPath: null, trusted: true } });
    await connection.sendNotification("initialized", {});
    await connection.sendRequest(Requests.turnOn.method, {});
    const obligations = [{ obligationId: "obligation:a", statement: "A is settled." }];
    assert.equal(await errorCode(Requests.openJudgment.method, { routeDefinitionId: "route:meaning-settlement", question: "Q?", obligations, extra: 1 }), ErrorCodes.invalidParams);
    const opened = Requests.openJudgment.result.parse(
      await connection.sendRequest(Requests.openJudgment.method, { routeDefinitionId: "route:meaning-settlement", question: "  What changes?  ", obligations }),
    );
    assert.equal(opened.runtime.state, "frame");
    assert.equal(
      await errorCode(Requests.concludeJudgment.method, { disposition: "judgment", outcome: { kind: "needs-evidence", evidenceNeeded: ["Logs."], resolutionOwner: "user" } }),
      ErrorCodes.needsEvidence,
    );
    await connection.sendRequest(Requests.concludeJudgment.method, { disposition: "not-applicable", reason: "Nothing.", basis: ["Seen."] });
    const authorized = Requests.authorizeChange.result.parse(
      await connection.sendRequest(Requests.authorizeChange.method, { movement: "M.", stableLanding: "S.", verificationTarget: "V." }),
    );
    assert.equal(authorized.nextAction, "record_landing");
    assert.equal(await errorCode(Requests.recordLanding.method, { result: "Done." }), ErrorCodes.landingPathsRequired);
    const landed = Requests.recordLanding.result.parse(await connection.sendRequest(Requests.recordLanding.method, { changedPaths: ["src/a.ts"], result: "Done." }));
    assert.deepEqual(landed.runtime, { state: "idle", reroutePending: true, verificationPending: true });
    assert.equal(verifyLedgerFile(path.join(workspace, ".docket", "ledger.jsonl")).ok, true);
  } finally {
    await connection.sendRequest("shutdown");
    await connection.sendNotification("exit");
    connection.dispose();
    await new Promise((resolve) => child.once("exit", resolve));
    fs.rmSync(workspace, { recursive: true, force: true });
  }
});
