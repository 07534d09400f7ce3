// Observer's capture window from every host dialect, through the real hook bundle in a child
// process: the recorded PostToolUse inputs of Claude Code, Codex and VS Code (the golden
// fixtures) stage their tool result while Observer is on — without a Developer scope — and
// nothing while it is off; Docket's own tools are never staged; Stop ends the run.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { listStagedRuns } from "../../server/observer/captureWindow";
import { tempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const CLI = path.join(repoRoot(), "dist", "docket.js");
const HOOK = path.join(repoRoot(), "dist", "docket-hook.js");
const HOSTS = ["claude", "codex", "vscode"] as const;

function fixtureInput(host: (typeof HOSTS)[number], workspace: string): Record<string, unknown> {
  const fixture = JSON.parse(fs.readFileSync(path.join(repoRoot(), "test", "fixtures", "hooks", host, "PostToolUse-capture.json"), "utf8")) as { input?: Record<string, unknown> };
  const input = fixture.input ?? (fixture as Record<string, unknown>);
  return JSON.parse(JSON.stringify(input).replaceAll("$WORKSPACE", workspace)) as Record<string, unknown>;
}

function hook(host: string, event: string, workspace: string, input: Record<string, unknown>): string {
  const result = spawnSync(process.execPath, [HOOK, "hook", "--host", host, event], { input: JSON.stringify(input), cwd: workspace, encoding: "utf8", timeout: 30_000 });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

function staged(workspace: string): string[] {
  return listStagedRuns(workspace)
    .flatMap((run) => run.staged.map((item) => item.toolCallId))
    .sort();
}

for (const host of HOSTS) {
  test(`${host}: PostToolUse stages the tool result while Observer is on, never Docket's own tool, nothing while off`, { timeout: 120_000 }, () => {
    const repo = tempRepo({ files: { "README.md": "hello\n" } });
    const workspace = repo.root;
    const notebook = path.join(workspace, "notes");
    assert.equal(spawnSync(process.execPath, [CLI, "notebook", "setup", notebook, "--language", "en", "--yes"], { cwd: workspace }).status, 0);
    const input = fixtureInput(host, workspace);
    const callId = input.tool_use_id as string;

    // Off (no Observer yet, no Developer scope): nothing is captured or staged.
    hook(host, "PostToolUse", workspace, input);
    assert.deepEqual(staged(workspace), []);

    assert.equal(spawnSync(process.execPath, [CLI, "observer", "on", "--notebook", notebook], { cwd: workspace }).status, 0);
    const output = hook(host, "PostToolUse", workspace, input);
    assert.match(output, /observer_commit/u, "the agent is told it can nominate the result");
    hook(host, "PostToolUse", workspace, { ...input, tool_name: host === "vscode" ? "mcp_docket_status" : "mcp__docket__status", tool_use_id: "own-tool-call" });
    // Staged before the hook answered (in-process, or by the capture helper the first capture starts).
    assert.deepEqual(staged(workspace), [callId], "the host's result is staged, Docket's own tool is not");

    // The agent's Stop ends the run: the unnominated result expires.
    const sessionKey = host === "vscode" ? { sessionId: input.sessionId } : { session_id: input.session_id };
    const stopCommon = host === "vscode" ? { cwd: workspace, hookEventName: "Stop", timestamp: "2026-12-01T10:00:00.000Z", stopHookActive: false } : { cwd: workspace, hook_event_name: "Stop", stop_hook_active: false };
    hook(host, "Stop", workspace, { ...stopCommon, ...sessionKey });
    assert.deepEqual(staged(workspace), []);

    assert.equal(spawnSync(process.execPath, [CLI, "observer", "off"], { cwd: workspace }).status, 0);
    hook(host, "PostToolUse", workspace, { ...input, tool_use_id: "after-off" });
    assert.deepEqual(staged(workspace), [], "Observer off stages nothing");
  });
}
