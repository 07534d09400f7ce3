// One hook call: host input → Docket decision → the host's output dialect. Decision table
// (docs/hooks.md): Docket off → nothing; ledger unusable → shell/edit denied (fail closed) with
// how to fix it; otherwise the replay-current tool policy. Nothing here writes the ledger.
import fs from "node:fs";
import path from "node:path";
import { computeToolPolicy } from "../developer/toolPolicy";
import { blockedContext, blockedDenial, capturedContext, policyDenial, stateContext } from "./context";
import { evidenceCapture, type RecentEvidence } from "./evidenceAdapter";
import { recordHeartbeat } from "./heartbeat";
import { readHookState, locateWorkspace, type HookState } from "./hookState";
import { HookInputError, isHookEvent, parseHookInput, type HookEvent, type HookHost, type HookInput } from "./hostInput";
import { renderDecision, type HookDecision } from "./hostOutput";
import { classifyTool } from "./toolClassification";

export interface HookRun {
  readonly host: HookHost;
  readonly event: string;
  /** The stdin text, or the reason it could not be read in full. */
  readonly stdin: string | HookInputError;
  /** Fallback when the input has no usable `cwd`. */
  readonly cwd: string;
  readonly now: () => string;
  /** Upper bound for evidence capture, so a slow store never stalls the host. */
  readonly captureTimeoutMs?: number;
}

export interface HookOutcome {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

const RECENT_EVIDENCE = 12;

/**
 * Exit 1 is "non-blocking error, the action proceeds" for all three hosts (exit 2 would block on
 * Claude and VS Code), so input Docket cannot read fails open and visibly, never silently.
 */
function inputFailure(message: string): HookOutcome {
  return { stdout: "", stderr: `docket hook: ${message}; Docket made no decision for this call.\n`, exitCode: 1 };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function recentEvidence(workspaceFolder: string): readonly RecentEvidence[] {
  try {
    return evidenceCapture().recentEvidence(workspaceFolder, RECENT_EVIDENCE);
  } catch {
    return [];
  }
}

function preToolUse(input: HookInput, state: HookState): HookDecision {
  const toolName = input.toolName ?? "";
  const kind = classifyTool(input.dialect, toolName);
  if (kind !== "shell" && kind !== "edit") return { kind: "none" };
  if (state.kind === "off") return { kind: "none" };
  if (state.kind === "blocked") return { kind: "deny", reason: blockedDenial(toolName, state.ledgerPath, state.reason) };
  const policy = computeToolPolicy(state.state.facts);
  const decision = kind === "shell" ? policy.shell : policy.edit;
  if (decision === "allow") return { kind: "none" };
  return { kind: "deny", reason: policyDenial(toolName, policy.reason ?? "Docket withholds this tool now.") };
}

async function postToolUse(input: HookInput, state: HookState, run: HookRun, notes: string[]): Promise<HookDecision> {
  if (state.kind !== "ready" || !state.state.facts.scopeActive) return { kind: "none" };
  const toolName = input.toolName ?? "";
  if (classifyTool(input.dialect, toolName) === "docket") return { kind: "none" };
  try {
    const captured = await withTimeout(
      evidenceCapture().captureToolResult(state.workspaceFolder, {
        host: input.dialect,
        sessionId: input.sessionId ?? "unknown-session",
        toolCallId: input.toolUseId ?? "",
        toolName,
        toolInput: input.toolInput ?? null,
        toolResponse: input.toolResponse ?? null,
        occurredAt: run.now(),
      }),
      run.captureTimeoutMs ?? 5_000,
    );
    return { kind: "context", text: capturedContext(captured.branchResultId, captured.truncated, captured.redactions) };
  } catch (error) {
    notes.push(`the tool result was not captured: ${error instanceof Error ? error.message : String(error)}`);
    return { kind: "none" };
  }
}

async function promptContext(input: HookInput, state: HookState, run: HookRun, notes: string[], event: HookEvent): Promise<HookDecision> {
  if (state.kind === "off") return { kind: "none" };
  if (state.kind === "blocked") return { kind: "context", text: blockedContext(state.ledgerPath, state.reason) };
  if (!state.state.facts.scopeActive) return { kind: "none" };
  if (event === "UserPromptSubmit" && input.prompt !== null) {
    try {
      await withTimeout(
        evidenceCapture().captureUserDecision(state.workspaceFolder, { host: input.dialect, sessionId: input.sessionId ?? "unknown-session", prompt: input.prompt, occurredAt: run.now() }),
        run.captureTimeoutMs ?? 5_000,
      );
    } catch (error) {
      notes.push(`the prompt was not captured: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { kind: "context", text: stateContext(state.state, recentEvidence(state.workspaceFolder)) };
}

export async function runHook(run: HookRun): Promise<HookOutcome> {
  if (!isHookEvent(run.event)) {
    return { stdout: "{}\n", stderr: `docket hook: ${run.event} is not an event Docket handles; nothing to do.\n`, exitCode: 0 };
  }
  const event = run.event;
  if (run.stdin instanceof HookInputError) return inputFailure(`${run.stdin.problem}: ${run.stdin.message}`);
  let input: HookInput;
  try {
    input = parseHookInput(run.host, event, run.stdin);
  } catch (error) {
    if (error instanceof HookInputError) return inputFailure(`${error.problem}: ${error.message}`);
    throw error;
  }
  const cwd = input.cwd !== null && path.isAbsolute(input.cwd) ? input.cwd : run.cwd;
  const { workspaceFolder, ledgerPath } = locateWorkspace(cwd);
  const state = readHookState(workspaceFolder, ledgerPath);
  const notes: string[] = [];
  let decision: HookDecision;
  if (event === "PreToolUse") decision = preToolUse(input, state);
  else if (event === "PostToolUse") decision = await postToolUse(input, state, run, notes);
  else if (event === "UserPromptSubmit" || event === "SessionStart") decision = await promptContext(input, state, run, notes, event);
  else decision = { kind: "none" }; // Stop: the completion guard is a later issue.
  // A Git root (or a workspace Docket already uses) is a resolved workspace; a bare folder such
  // as the home directory gets no `.docket/` folder just because an agent ran there.
  if (state.kind !== "off" || fs.existsSync(path.join(workspaceFolder, ".git"))) recordHeartbeat(workspaceFolder, { host: input.dialect, event, sessionId: input.sessionId, at: run.now() });
  const rendered = renderDecision(input.dialect, event, decision);
  return { stdout: rendered.stdout, stderr: notes.map((note) => `docket hook: ${note}\n`).join(""), exitCode: rendered.exitCode };
}
