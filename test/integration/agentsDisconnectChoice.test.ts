// Which agents "Docket: Disconnect Agent…" offers, from the real backend's `docket/agents/status`
// on a real folder: none before any connect, then exactly the hosts with Docket entries in place
// (a partly connected one too, since Disconnect removes what is left).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { Requests, type AgentHost } from "../../server/protocol/messages";
import { disconnectableHosts } from "../../extension/agentChoices";
import { startBackend } from "../support/backendProcess";
import { tempRepo } from "../support/gitRepo";

test("Disconnect offers only the connected (or partly connected) agents", async () => {
  const repo = tempRepo();
  const backend = await startBackend({ workspaceFolder: repo.root });
  try {
    const offered = async (): Promise<AgentHost[]> => disconnectableHosts(await backend.request(Requests.agentsStatus, {}));
    const connect = async (host: AgentHost): Promise<void> => {
      const plan = await backend.request(Requests.agentsPlan, { host });
      await backend.request(Requests.agentsApply, { host, planSha256: plan.planSha256 });
    };

    assert.deepEqual(await offered(), [], "nothing connected: nothing to offer");

    await connect("claude");
    assert.deepEqual(await offered(), ["claude"]);

    // The MCP entry removed by hand: the hooks are still Docket's, so Claude Code stays on offer.
    fs.rmSync(path.join(repo.root, ".mcp.json"));
    const partial = (await backend.request(Requests.agentsStatus, {})).hosts.find((host) => host.host === "claude");
    assert.equal(partial?.partial, true);
    assert.deepEqual(await offered(), ["claude"]);

    await connect("codex");
    assert.deepEqual(await offered(), ["claude", "codex"]);

    await backend.request(Requests.agentsDisconnect, { host: "claude" });
    assert.deepEqual(await offered(), ["codex"]);
    await backend.request(Requests.agentsDisconnect, { host: "codex" });
    assert.deepEqual(await offered(), []);
  } finally {
    await backend.stop();
    repo.dispose();
  }
});
