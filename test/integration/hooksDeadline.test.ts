// A hook with no usable checkpoint on a ledger too long to replay in time: it must answer within
// its decision budget (PreToolUse denies with the coded reason; PostToolUse and Stop answer without
// a decision), never outlast the host's timeout. Each call runs in a child process of its own
// through the real hook code, with the budget shortened so a 20,000-line ledger (21 MB, over a
// second of replay) is past it: at 200 ms it is too large to even start (replayState.ts), at
// 600 ms the replay starts and is stopped at the deadline.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { cycleScopesEntries, ledgerLines } from "../support/generatedCycles";
import { checkpointPathFor } from "../../server/hooks/checkpoint";
import { tempRepo } from "../support/gitRepo";

const SHORT_BUDGET_MS = 200;
/** The 21 MB ledger can be read in this budget at the bound replayState.ts assumes, so the replay starts. */
const STARTED_BUDGET_MS = 600;
/** Node's start, the hook's modules and the first deadline check after a whole read, on a shared machine. */
const SLACK_MS = 2_500;
const HOOK_CLI = path.join(__dirname, "..", "..", "server", "hooks", "hookCli.js");

interface Answer {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  readonly elapsedMs: number;
}

/** One hook call in a child process, its budget shortened; elapsed is the child's whole life. */
function hookCall(workspace: string, event: string, input: object, budgetMs: number): Answer {
  const script = `
    const { hookOutcome } = require(${JSON.stringify(HOOK_CLI)});
    hookOutcome(["hook", "--host", "claude", "--workspace", process.argv[1], process.argv[2]], process.argv[3], process.argv[1], { budgetMs: ${budgetMs}, captureInProcess: true })
      .then((outcome) => process.stdout.write(JSON.stringify(outcome)));`;
  const started = Date.now();
  const result = spawnSync(process.execPath, ["-e", script, workspace, event, JSON.stringify(input)], { encoding: "utf8", timeout: 60_000 });
  const elapsedMs = Date.now() - started;
  assert.equal(result.status, 0, result.stderr);
  const outcome = JSON.parse(result.stdout) as { stdout: string; stderr: string; exitCode: number };
  return { ...outcome, elapsedMs };
}

function largeWorkspace(): { root: string; ledgerPath: string; dispose: () => void } {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
  fs.mkdirSync(path.dirname(ledgerPath), { recursive: true });
  fs.writeFileSync(ledgerPath, ledgerLines(cycleScopesEntries(1_000)).join(""));
  return { root: repo.root, ledgerPath, dispose: () => repo.dispose() };
}

const preToolUse = (root: string): object => ({ session_id: "s", cwd: root, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } });

function assertDeniedInTime(answer: Answer, budgetMs: number, detail: RegExp): void {
  assert.ok(answer.elapsedMs < budgetMs + SLACK_MS, `PreToolUse took ${answer.elapsedMs} ms`);
  const decision = JSON.parse(answer.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
  assert.equal(decision.hookSpecificOutput.permissionDecision, "deny");
  assert.match(decision.hookSpecificOutput.permissionDecisionReason, /could not replay the ledger before the hook's deadline/u);
  assert.match(decision.hookSpecificOutput.permissionDecisionReason, detail);
}

test("with no checkpoint, a ledger too long to replay before the deadline gets a timely answer from every hook", () => {
  const { root, ledgerPath, dispose } = largeWorkspace();
  try {
    assert.equal(fs.existsSync(checkpointPathFor(ledgerPath)), false);
    // Too large to read in 200 ms at any rate a replay reaches: denied without reading.
    assertDeniedInTime(hookCall(root, "PreToolUse", preToolUse(root), SHORT_BUDGET_MS), SHORT_BUDGET_MS, /cannot be read in the time left/u);

    const post = hookCall(root, "PostToolUse", { session_id: "s", cwd: root, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: "t1", tool_input: { command: "ls" }, tool_response: { stdout: "" } }, SHORT_BUDGET_MS);
    assert.ok(post.elapsedMs < SHORT_BUDGET_MS + SLACK_MS, `PostToolUse took ${post.elapsedMs} ms`);
    assert.equal(post.exitCode, 0, post.stderr);

    const stop = hookCall(root, "Stop", { session_id: "s", cwd: root, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "Done." }, SHORT_BUDGET_MS);
    assert.ok(stop.elapsedMs < SHORT_BUDGET_MS + SLACK_MS, `Stop took ${stop.elapsedMs} ms`);
    assert.notEqual(stop.stdout, "", "Stop answered in the host's dialect");

    // A replay that starts is stopped at the deadline (20,000 events would need under 30 µs each).
    assertDeniedInTime(hookCall(root, "PreToolUse", preToolUse(root), STARTED_BUDGET_MS), STARTED_BUDGET_MS, /lines read/u);

    // Nothing was written by a call that ran out of time: the next call has no checkpoint either.
    assert.equal(fs.existsSync(checkpointPathFor(ledgerPath)), false);
  } finally {
    dispose();
  }
});
