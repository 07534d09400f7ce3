// One agent session through the hooks, as a host would run them (real child processes, one real
// Git workspace): context at session start, a denied shell call, a captured tool result whose
// handle then shows up in the prompt context, and the same shell call allowed once a concluded
// frame authorized a change. The ledger is only ever written by Docket's operations.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { tempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const HOOK_BUNDLE = path.join(repoRoot(), "dist", "docket-hook.js");

interface Output {
  readonly hookSpecificOutput?: { readonly permissionDecision?: string; readonly permissionDecisionReason?: string; readonly additionalContext?: string };
}

function hook(cwd: string, event: string, fields: Record<string, unknown>): Output {
  const input = JSON.stringify({ session_id: "flow-1", cwd, hook_event_name: event, ...fields });
  const result = spawnSync(process.execPath, [HOOK_BUNDLE, "hook", "--host", "claude", event], { input, cwd, encoding: "utf8" });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stderr, "");
  return JSON.parse(result.stdout) as Output;
}

test("session flow: deny before authorization, capture, evidence handles in context, allow after", async () => {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  try {
    const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
    const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true });
    ledger.refresh();
    await ledger.turnOn();

    const start = hook(repo.root, "SessionStart", { source: "startup" });
    assert.match(start.hookSpecificOutput?.additionalContext ?? "", /Phase: deciding .*Required decision purpose: work-decision\.\nLegal operations now: open_judgment\./su);

    const bash = { tool_name: "Bash", tool_input: { command: "npm test" }, tool_use_id: "toolu_flow_1" };
    const denied = hook(repo.root, "PreToolUse", bash);
    assert.equal(denied.hookSpecificOutput?.permissionDecision, "deny");
    assert.match(denied.hookSpecificOutput?.permissionDecisionReason ?? "", /Next legal operation: open_judgment\./u);

    const secret = "AKIA" + "IOSFODNN7EXAMPLE";
    const captured = hook(repo.root, "PostToolUse", {
      tool_name: "Read",
      tool_input: { file_path: path.join(repo.root, "src/a.ts") },
      tool_response: { file: { content: `export const a = 1;\n// aws_access_key_id = ${secret}\n` } },
      tool_use_id: "toolu_flow_read",
    });
    const handle = /evidence (branch-result-[0-9a-f]{16})/u.exec(captured.hookSpecificOutput?.additionalContext ?? "")?.[1];
    assert.ok(handle !== undefined, JSON.stringify(captured));
    assert.match(captured.hookSpecificOutput?.additionalContext ?? "", /\d+ secrets? redacted/u, "the model is told a secret was kept out of the evidence");

    const prompt = hook(repo.root, "UserPromptSubmit", { prompt: "Go ahead and rename a." });
    assert.match(prompt.hookSpecificOutput?.additionalContext ?? "", new RegExp(`${handle} · Read`, "u"));

    // Docket's own tools are never gated, and their results are not evidence.
    assert.deepEqual(hook(repo.root, "PreToolUse", { tool_name: "mcp__docket__open_judgment", tool_input: {}, tool_use_id: "toolu_flow_2" }), {});
    assert.deepEqual(hook(repo.root, "PostToolUse", { tool_name: "mcp__docket__open_judgment", tool_input: {}, tool_response: {}, tool_use_id: "toolu_flow_2" }), {});

    await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "Rename a?", obligations: [{ obligationId: "obligation:a", statement: "Settled." }] });
    const frame = hook(repo.root, "PreToolUse", { tool_name: "Write", tool_input: { file_path: "x", content: "" }, tool_use_id: "toolu_flow_3" });
    assert.match(frame.hookSpecificOutput?.permissionDecisionReason ?? "", /Next legal operation: open_context_sources\./u);
    await ledger.concludeJudgment({ disposition: "not-applicable", reason: "A plain rename.", basis: ["The user asked for it."] });
    await ledger.authorizeChange({ movement: "Rename a.", stableLanding: "a is renamed.", verificationTarget: "Types check." });
    assert.deepEqual(hook(repo.root, "PreToolUse", bash), {});
    assert.deepEqual(hook(repo.root, "PreToolUse", { tool_name: "Edit", tool_input: {}, tool_use_id: "toolu_flow_4" }), {});
    const editing = hook(repo.root, "UserPromptSubmit", { prompt: "Continue." });
    assert.match(editing.hookSpecificOutput?.additionalContext ?? "", /Legal operations now: record_landing\./u);
  } finally {
    repo.dispose();
  }
});
