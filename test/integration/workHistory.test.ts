// The Work view's History while Docket is off, as the extension asks for it: the backend child
// process over stdio JSON-RPC answers `docket/workState` with the closed scopes' frames and landings
// (validated by the protocol schema), also after a restart that finds Docket already off.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Requests } from "../../server/protocol/messages";
import { needsWorkState } from "../../extension/workHistory";
import { startBackend } from "../support/backendProcess";

const obligations = [{ obligationId: "obligation:a", statement: "A is settled." }];

test("closed scopes' frames reach the Work view while off, before and after a backend restart", async () => {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "docket-work-history-"));
  try {
    const first = await startBackend({ workspaceFolder: workspace });
    let closedScopeId: string | null = null;
    try {
      // Off with no history: nothing to ask for, the view's welcome content shows.
      assert.equal(needsWorkState(await first.request(Requests.status, {})), false);
      const on = await first.request(Requests.turnOn, {});
      closedScopeId = on.workScopeId;
      await first.request(Requests.openJudgment, { routeDefinitionId: "route:meaning-settlement", question: "What changes?", obligations });
      await first.request(Requests.concludeJudgment, { disposition: "not-applicable", reason: "Nothing to decide.", basis: ["Seen."] });
      await first.request(Requests.turnOff, {});
      const work = await first.request(Requests.workState, {});
      assert.equal(work.phase, "off");
      assert.deepEqual(work.frames, []);
      assert.deepEqual(
        work.history.map((scope) => [scope.workScopeId, scope.frames.map((frame) => [frame.question, frame.status, frame.conclusion?.text])]),
        [[closedScopeId, [["What changes?", "concluded", "Nothing to decide."]]]],
      );
    } finally {
      await first.stop();
    }

    // A window opened later finds Docket off: the status lists the closed scope and the work state carries its history.
    const second = await startBackend({ workspaceFolder: workspace });
    try {
      const status = await second.request(Requests.status, {});
      assert.equal(status.phase, "off");
      assert.equal(status.activeScope, null);
      assert.deepEqual(status.scopes.map((scope) => [scope.workScopeId, scope.status]), [[closedScopeId, "closed"]]);
      // The Work view asks for the work state although no scope is active, so the History shows while off.
      assert.equal(needsWorkState(status), true);
      const work = await second.request(Requests.workState, {});
      assert.deepEqual(work.history.map((scope) => scope.workScopeId), [closedScopeId]);
      const obligation = work.history[0]?.frames[0]?.obligations[0];
      assert.equal(obligation?.state, "discharged");
      assert.equal(obligation?.settledBy?.withConclusion, true);
    } finally {
      await second.stop();
    }
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
});

test("a window with no folder gets an empty history", async () => {
  const backend = await startBackend({ workspaceFolder: null });
  try {
    assert.equal(needsWorkState(await backend.request(Requests.status, {})), false, "nothing to ask for without a folder");
    const work = await backend.request(Requests.workState, {});
    assert.equal(work.phase, "off");
    assert.deepEqual(work.history, []);
  } finally {
    await backend.stop();
  }
});
