// The four operation requests over the real stdio backend, in a folder without Git: params are
// validated strictly, refusals carry their code in the error data, and a non-Git landing records
// the declared paths.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ErrorCodes, Requests } from "../../server/protocol/messages";
import { verifyLedgerFile } from "../../server/workspace/workspaceLedger";
import { startBackend } from "../support/backendProcess";

test("open, conclude, authorize and land over JSON-RPC without Git", async () => {
  // realpath: the backend records real paths; a symlinked temp folder must not matter.
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "docket-ops-")));
  const backend = await startBackend({ workspaceFolder: workspace });
  try {
    await backend.connection.sendRequest(Requests.turnOn.method, {});
    const obligations = [{ obligationId: "obligation:a", statement: "A is settled." }];
    assert.equal(await backend.errorCode(Requests.openJudgment.method, { routeDefinitionId: "route:meaning-settlement", question: "Q?", obligations, extra: 1 }), ErrorCodes.invalidParams);
    const opened = await backend.request(Requests.openJudgment, { routeDefinitionId: "route:meaning-settlement", question: "  What changes?  ", obligations });
    assert.equal(opened.runtime.state, "frame");
    const needs = await backend.request(Requests.concludeJudgment, { disposition: "judgment", outcome: { kind: "needs-evidence", evidenceNeeded: ["Logs."], resolutionOwner: "user" } });
    assert.equal(needs.eventIds.length, 1);
    assert.equal(needs.runtime.state, "frame");
    await backend.connection.sendRequest(Requests.concludeJudgment.method, { disposition: "not-applicable", reason: "Nothing.", basis: ["Seen."] });
    const authorized = await backend.request(Requests.authorizeChange, { movement: "M.", stableLanding: "S.", verificationTarget: "V." });
    assert.equal(authorized.nextAction, "record_landing");
    assert.equal(await backend.errorCode(Requests.recordLanding.method, { result: "Done." }), ErrorCodes.landingPathsRequired);
    const landed = await backend.request(Requests.recordLanding, { changedPaths: ["src/a.ts"], result: "Done." });
    assert.deepEqual(landed.runtime, { state: "idle", reroutePending: true, verificationPending: true });
    assert.equal((await verifyLedgerFile(path.join(workspace, ".docket", "ledger.jsonl"))).ok, true);
  } finally {
    await backend.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
});
