// The completion guard's inputs as an agent and its host produce them, for the backend and
// workbench tests: evidence captured by the real hook bundle (PostToolUse), reviews recorded
// through the real CLI (`docket review open|submit`, the contracts of the MCP tools), and a Stop
// decision from the real hook bundle.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ReviewOpenResult, ReviewSubmitResult, type ReviewOpenRequest, type ReviewSubmitRequest } from "../../server/guard/guardSchema";
import { sessionsFolder } from "../../server/guard/guardSession";
import { repoRoot } from "./repoRoot";

const CLI = path.join(repoRoot(), "dist", "docket.js");
const HOOK = path.join(repoRoot(), "dist", "docket-hook.js");

function docket(args: readonly string[], request: unknown, cwd: string): unknown {
  const output = execFileSync(process.execPath, [CLI, ...args], { cwd, input: JSON.stringify(request), encoding: "utf8", timeout: 30_000 });
  return JSON.parse(output) as unknown;
}

function hook(workspace: string, event: string, fields: Record<string, unknown>, host: "claude" | "vscode" = "claude"): string {
  // VS Code agent hooks send camelCase common fields (vscode-and-agents.md §2.5).
  const common = host === "vscode" ? { timestamp: new Date().toISOString(), cwd: workspace, hookEventName: event } : { cwd: workspace, hook_event_name: event };
  const input = JSON.stringify({ ...common, ...fields });
  const result = spawnSync(process.execPath, [HOOK, "hook", "--host", host, event], { input, cwd: workspace, encoding: "utf8", timeout: 30_000 });
  assert.equal(result.status, 0, `hook ${event} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

/** A tool result the PostToolUse hook captured; returns its evidence handle. */
export function captureEvidence(workspace: string, sessionId: string, command: string, stdout: string): string {
  const output = hook(workspace, "PostToolUse", {
    session_id: sessionId,
    tool_name: "Bash",
    tool_input: { command },
    tool_response: { stdout, stderr: "", interrupted: false },
    tool_use_id: `toolu_${Date.now()}`,
  });
  const handle = /evidence (branch-result-[0-9a-f]{16})/u.exec(output)?.[1];
  assert.ok(handle !== undefined, `the hook captured the tool result: ${output}`);
  return handle;
}

/** `docket review open`, then `docket review submit` with the judgments `judge` makes of the sealed sources. */
export function recordReview(
  workspace: string,
  open: ReviewOpenRequest,
  judge: (opened: ReviewOpenResult) => Omit<ReviewSubmitRequest, "reviewId">,
): ReviewSubmitResult {
  const opened = ReviewOpenResult.parse(docket(["review", "open", "--workspace", workspace, "--json"], open, workspace));
  return ReviewSubmitResult.parse(docket(["review", "submit", "--workspace", workspace, "--json"], { reviewId: opened.reviewId, ...judge(opened) }, workspace));
}

/** Session files the Stop check wrote. */
export function sessionFiles(workspace: string): string[] {
  try {
    return fs.readdirSync(sessionsFolder(workspace)).filter((name) => name.endsWith(".json"));
  } catch {
    return [];
  }
}

/** The Stop hook of a Claude Code (or VS Code agent) session with `answer` as its final message; returns the hook's stdout. */
export function stopAgent(workspace: string, sessionId: string, answer: string, host: "claude" | "vscode" = "claude"): string {
  const before = sessionFiles(workspace).length;
  const session = host === "vscode" ? { sessionId } : { session_id: sessionId };
  const output = hook(workspace, "Stop", { ...session, transcript_path: null, stop_hook_active: false, last_assistant_message: answer }, host);
  assert.ok(sessionFiles(workspace).length > before, `the Stop hook recorded the session's decision: ${output}`);
  return output;
}
