// The `docket/agents/*` requests over stdio, as the extension's "Connect …" commands and the
// "Connected Agents" view use them: plan, apply only the plan shown, status, disconnect.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ErrorCodes, Requests } from "../../server/protocol/messages";
import { startBackend } from "../support/backendProcess";
import { tempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const runtime = fs.realpathSync(path.join(repoRoot(), "dist", "docket.js"));

test("plan → apply(planSha256) → status → stale apply refused → disconnect", async () => {
  const repo = tempRepo();
  const backend = await startBackend({ workspaceFolder: repo.root });
  try {
    const plan = await backend.request(Requests.agentsPlan, { host: "claude" });
    assert.deepEqual(plan.files.map((file) => path.relative(repo.root, file.path)), [path.join(".claude", "settings.json"), ".mcp.json"]);
    assert.ok(plan.files.every((file) => file.before === null && file.after?.includes(path.dirname(runtime))), "hooks and MCP point at the installed runtime");
    assert.ok(plan.files[1]?.after?.includes(JSON.stringify(runtime)));
    assert.equal(fs.existsSync(path.join(repo.root, ".mcp.json")), false, "planning writes nothing");

    // Someone edits a file between "shown" and "confirmed": the shown plan is refused.
    fs.writeFileSync(path.join(repo.root, ".mcp.json"), '{"mcpServers": {"other": {"command": "x"}}}\n');
    assert.equal(await backend.errorCode(Requests.agentsApply.method, { host: "claude", planSha256: plan.planSha256 }), ErrorCodes.agentPlanChanged);
    assert.equal(fs.existsSync(path.join(repo.root, ".claude", "settings.json")), false);

    const fresh = await backend.request(Requests.agentsPlan, { host: "claude" });
    const applied = await backend.request(Requests.agentsApply, { host: "claude", planSha256: fresh.planSha256 });
    assert.equal(applied.planSha256, fresh.planSha256);
    assert.ok(applied.notes.length > 0);
    for (const file of fresh.files) assert.equal(fs.readFileSync(file.path, "utf8"), file.after);

    const status = await backend.request(Requests.agentsStatus, {});
    const claude = status.hosts.find((host) => host.host === "claude");
    assert.equal(claude?.installed, true);
    assert.equal(claude?.heartbeat, null);
    assert.equal(status.hosts.find((host) => host.host === "codex")?.installed, false);
    assert.deepEqual((await backend.request(Requests.agentsPlan, { host: "claude" })).files, [], "already connected");

    const removed = await backend.request(Requests.agentsDisconnect, { host: "claude" });
    assert.equal(removed.files.length, 2);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(repo.root, ".mcp.json"), "utf8")), { mcpServers: { other: { command: "x" } } });
    assert.equal(fs.existsSync(path.join(repo.root, ".claude")), false);
    assert.equal((await backend.request(Requests.agentsStatus, {})).hosts.every((host) => !host.installed), true);

    assert.equal(await backend.errorCode(Requests.agentsPlan.method, { host: "cursor" }), ErrorCodes.invalidParams);
    assert.equal(await backend.errorCode(Requests.agentsApply.method, { host: "codex" }), ErrorCodes.invalidParams);
  } finally {
    await backend.stop();
    repo.dispose();
  }
});

test("malformed config: plan and status report the coded problem; untrusted and folderless windows refuse", async () => {
  const repo = tempRepo();
  repo.write(".codex/hooks.json", "{oops");
  const backend = await startBackend({ workspaceFolder: repo.root });
  try {
    assert.equal(await backend.errorCode(Requests.agentsPlan.method, { host: "codex" }), ErrorCodes.agentConfigMalformed);
    const status = await backend.request(Requests.agentsStatus, {});
    assert.equal(status.hosts.find((host) => host.host === "codex")?.problem?.code, ErrorCodes.agentConfigMalformed);
  } finally {
    await backend.stop();
  }
  const untrusted = await startBackend({ workspaceFolder: repo.root, trusted: false });
  try {
    const plan = await untrusted.request(Requests.agentsPlan, { host: "claude" });
    assert.equal(await untrusted.errorCode(Requests.agentsApply.method, { host: "claude", planSha256: plan.planSha256 }), ErrorCodes.untrusted);
    assert.equal(await untrusted.errorCode(Requests.agentsDisconnect.method, { host: "claude" }), ErrorCodes.untrusted);
  } finally {
    await untrusted.stop();
  }
  const none = await startBackend({ workspaceFolder: null });
  try {
    assert.equal(await none.errorCode(Requests.agentsStatus.method, {}), ErrorCodes.noWorkspace);
  } finally {
    await none.stop();
    repo.dispose();
  }
});

test("status reads the hook heartbeat the hook runtime records", async () => {
  const repo = tempRepo();
  repo.write(".docket/hooks/heartbeat.json", JSON.stringify({ format: "docket/hook-heartbeat/v1", hosts: { claude: { host: "claude", event: "PreToolUse", sessionId: "s1", at: "2026-11-29T10:00:00.000Z" } } }));
  const backend = await startBackend({ workspaceFolder: repo.root });
  try {
    const status = await backend.request(Requests.agentsStatus, {});
    assert.deepEqual(status.hosts.find((host) => host.host === "claude")?.heartbeat, { event: "PreToolUse", sessionId: "s1", at: "2026-11-29T10:00:00.000Z" });
    assert.equal(status.hosts.find((host) => host.host === "codex")?.heartbeat, null);
  } finally {
    await backend.stop();
    repo.dispose();
  }
});
