// One hook call: host input → Docket decision → the host's output dialect. Decision table
// (docs/hooks.md): the call is governed by every workspace with Docket on that encloses the
// configured workspace, the cwd or a location the tool names (hookWorkspace.ts); PreToolUse lets a
// tool run only if it is known read-only, Docket's own, or allowed by every governing policy, and
// denies whatever it cannot decide while a governing workspace withholds tools (fail closed).
// Other events never block, except a Stop block the completion guard asks for (stopHook.ts).
// Nothing here writes the ledger.
import fs from "node:fs";
import path from "node:path";
import { blockedContext, capturedContext, stateContext } from "./context";
import { foreignDocketServer } from "./docketServer";
import { RECENT_HANDLES, evidenceCapture, type RecentEvidence } from "./evidenceAdapter";
import { readRecentCache } from "../evidence/recentCache";
import { captureDetached } from "./promptCapture";
import { captureThroughHelper, startCaptureHelper } from "./captureHelperClient";
import { decideToolCall, undecided, type UndecidedProblem } from "./gateDecision";
import { recordHookIntake, recordHookToolActivity } from "./guardHook";
import { recordHeartbeat } from "./heartbeat";
import { readHookState, type HookState } from "./hookState";
import { resolveHookWorkspaces, type DocketWorkspace, type HookWorkspaces } from "./hookWorkspace";
import { HookInputError, isHookEvent, parseHookInput, type HookEvent, type HookHost, type HookInput } from "./hostInput";
import { renderDecision, type HookDecision } from "./hostOutput";
import { stopDecision } from "./stopHook";
import { classifyTool, type HookDialect } from "./toolClassification";
import { scanToolPaths } from "./toolPaths";
import { endRun, observerFolderMayExist, stageToolResult, stageUserPrompt, startRun } from "../observer/captureWindow";
import { readCaptureMode } from "../observer/observerFiles";
import { readProcessingPolicy } from "../observer/processingPolicy";

/** `docket.history-blocked` (ErrorCodes in server/protocol/messages.ts), a literal for the same reason. */
const HISTORY_BLOCKED = "docket.history-blocked";
/** `docket.hook-input-invalid` (server/protocol/messages.ts ErrorCodes); a literal, so the lean bundle does not load the protocol schemas. */
export const HOOK_INPUT_INVALID = "docket.hook-input-invalid";

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
  /** The workspace Connect wrote into the command (`--workspace`); absent in older commands. */
  readonly configuredWorkspace?: string | null;
  /** Tool names the user declared read-only when connecting (`--read-only-tool`). */
  readonly readOnlyTools?: readonly string[];
  /** Epoch ms after which state that is not yet known counts as unreadable (blocked, so denied). */
  readonly deadline?: number;
  /** Folder of the running hook bundle (where Docket's `docket.js` is); null in-process. */
  readonly runtimeDir?: string | null;
  /** Capture prompts in this process, awaited, instead of a detached one (promptCapture.ts). */
  readonly captureInProcess?: boolean;
  /** Set when the command line could not be parsed: PreToolUse then fails closed. */
  readonly usageProblem?: string;
}

export interface HookOutcome {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}


/**
 * Exit 1 is "non-blocking error, the action proceeds" for all three hosts (exit 2 would block on
 * Claude and VS Code). Only events that never block use it; PreToolUse fails closed instead.
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
  // The cache first: reading the store loads the slow bundle, which a host would wait for on every prompt.
  const cached = readRecentCache(workspaceFolder);
  if (cached !== null) return cached;
  if (!fs.existsSync(path.join(workspaceFolder, ".docket", "evidence"))) return [];
  try {
    return evidenceCapture().recentEvidence(workspaceFolder, RECENT_HANDLES);
  } catch {
    return [];
  }
}

/**
 * readHookState with the deadline the state reader honours (it stops a slow full replay and
 * reports the state as blocked); a deadline already past blocks without reading.
 */
function stateOf(workspace: DocketWorkspace, deadline: number | undefined): HookState {
  if (deadline !== undefined && Date.now() >= deadline) {
    return { kind: "blocked", workspaceFolder: workspace.folder, ledgerPath: workspace.ledgerPath, reason: "Docket could not read its state in time" };
  }
  return readHookState(workspace.folder, workspace.ledgerPath, deadline === undefined ? {} : { deadline });
}

function hostCwd(candidate: unknown, fallback: string): string {
  return typeof candidate === "string" && path.isAbsolute(candidate) && !candidate.includes("\0") ? candidate : fallback;
}

/** Whatever a call's input that could not be parsed still says about where it acts. */
function lenientAnchors(run: HookRun): { cwd: string; paths: readonly string[] } {
  if (typeof run.stdin !== "string") return { cwd: run.cwd, paths: [] };
  try {
    const raw: unknown = JSON.parse(run.stdin);
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { cwd: run.cwd, paths: [] };
    const record = raw as Record<string, unknown>;
    return { cwd: hostCwd(record.cwd, run.cwd), paths: scanToolPaths(record.tool_input).paths };
  } catch {
    return { cwd: run.cwd, paths: [] };
  }
}

function heartbeat(run: HookRun, workspaces: HookWorkspaces, states: readonly HookState[], dialect: HookDialect, event: HookEvent, sessionId: string | null): void {
  // The connected workspace, a Git root or a workspace Docket already uses is a resolved
  // workspace; a bare folder such as the home directory gets no `.docket/` folder just because an agent ran there.
  const primary = workspaces.primary;
  const used = states.some((state) => state.kind !== "off" && state.workspaceFolder === primary);
  if ((run.configuredWorkspace ?? null) !== null || used || fs.existsSync(path.join(primary, ".git"))) {
    recordHeartbeat(primary, { host: dialect, event, sessionId, at: run.now() });
  }
}

/** The fail-closed PreToolUse answer for a call Docket could not decide. */
function undecidedOutcome(run: HookRun, problem: UndecidedProblem, why: string): HookOutcome {
  const code = problem === "internal" ? "docket.internal" : problem === "usage" ? "docket.usage" : HOOK_INPUT_INVALID;
  let note = `docket hook: ${code}: ${problem}: ${why}`;
  let decision: HookDecision;
  try {
    const anchors = lenientAnchors(run);
    const workspaces = resolveHookWorkspaces({ configured: run.configuredWorkspace ?? null, cwd: anchors.cwd, paths: anchors.paths });
    const states = workspaces.docketOn.map((workspace) => stateOf(workspace, run.deadline));
    decision = undecided(problem, code, why, states);
  } catch (error) {
    // Not even the workspaces could be read: nothing proves Docket is off, so deny.
    note += `; the workspace check failed too: ${error instanceof Error ? error.message : String(error)}`;
    decision = {
      kind: "deny",
      reason: `Docket denied this tool call: it could not decide on it (${code}: ${why}) nor tell whether Docket governs this workspace. Ask the user to run \`docket status\`.`,
    };
  }
  // The deny object is the same in all three dialects (hostOutput.ts).
  const rendered = renderDecision("claude", "PreToolUse", decision);
  const outcome = decision.kind === "deny" ? "denied (fail closed)" : "no workspace here withholds tools, so the tool may run";
  return { stdout: rendered.stdout, stderr: `${note}; ${outcome}.\n`, exitCode: rendered.exitCode };
}

function preToolUse(run: HookRun, input: HookInput): HookOutcome {
  const toolName = input.toolName ?? "";
  const cwd = hostCwd(input.cwd, run.cwd);
  const scan = scanToolPaths(input.toolInput);
  const workspaces = resolveHookWorkspaces({ configured: run.configuredWorkspace ?? null, cwd, paths: scan.paths });
  if (scan.overflow) return undecidedOutcome(run, "too-many-paths", "the tool input names more locations than Docket checks");
  const states = workspaces.docketOn.map((workspace) => stateOf(workspace, run.deadline));
  const toolClass = classifyTool(input.dialect, toolName, new Set(run.readOnlyTools ?? []));
  // The host reads project MCP config from the workspace it runs in and Docket's folders.
  const folders = [workspaces.primary, ...workspaces.docketOn.map((workspace) => workspace.folder)];
  const foreignDocket = toolClass === "docket" ? foreignDocketServer(input.dialect, folders, run.runtimeDir ?? null) : null;
  const decision = decideToolCall({ toolName, toolClass, foreignDocket }, states);
  heartbeat(run, workspaces, states, input.dialect, "PreToolUse", input.sessionId);
  const rendered = renderDecision(input.dialect, "PreToolUse", decision);
  return { stdout: rendered.stdout, stderr: "", exitCode: rendered.exitCode };
}

async function postToolUse(input: HookInput, state: HookState, run: HookRun, notes: string[]): Promise<HookDecision> {
  if (state.kind === "blocked") {
    // Not silent: the agent and the person reading the host's log learn the result went unrecorded.
    notes.push(`the tool result was not captured: ${HISTORY_BLOCKED}: ${state.reason}`);
    return { kind: "none" };
  }
  if (state.kind !== "ready") return { kind: "none" };
  const scopeActive = state.state.facts.scopeActive;
  // Observer's capture window is open while its mode is on, with or without a Developer scope.
  const observing = input.sessionId !== null && captureOn(state.workspaceFolder);
  if (!scopeActive && !observing) return { kind: "none" };
  // Tool activity after the latest human input binds to that intake (the completion guard).
  if (scopeActive && !recordHookToolActivity(state, input.dialect, input.sessionId)) notes.push("the tool call could not be bound to the session's intake");
  const toolName = input.toolName ?? "";
  // Docket's and Observer's own tools are never evidence.
  if (classifyTool(input.dialect, toolName) === "docket") return { kind: "none" };
  const occurredAt = run.now();
  // Only Observer captures (no Developer scope): the workspace's capture helper redacts, stores
  // and stages the result (a socket round trip); without one, the hook captures in-process and
  // starts one for the next call.
  let startHelper = false;
  if (!scopeActive && observing && input.sessionId !== null && input.toolUseId !== null && input.toolUseId !== "" && run.captureInProcess !== true) {
    const capture = { workspaceFolder: state.workspaceFolder, host: input.dialect, sessionId: input.sessionId, toolCallId: input.toolUseId, toolName, toolInput: input.toolInput ?? null, toolResponse: input.toolResponse ?? null, occurredAt };
    const outcome = await captureThroughHelper(run.runtimeDir, state.workspaceFolder, { kind: "tool-result", capture }, run.captureTimeoutMs ?? 5_000);
    if (outcome.kind === "unconfirmed") {
      // Sent, but not known to be stored: capturing again could record the result twice.
      notes.push(`the tool result may not have been captured: ${outcome.reason}`);
      return { kind: "none" };
    }
    if (outcome.kind === "answered") {
      const answer = outcome.answer;
      if (answer.ok && answer.kind === "tool-result") return { kind: "context", text: capturedContext(answer.branchResultId, answer.truncated, answer.redactions, { judgment: false, observer: answer.staged }) };
      if (!answer.ok && answer.code !== "capture-off") notes.push(`the tool result was not captured: ${answer.message}`);
      return { kind: "none" };
    }
    startHelper = outcome.startHelper;
  }
  try {
    const captured = await withTimeout(
      evidenceCapture().captureToolResult(state.workspaceFolder, {
        host: input.dialect,
        sessionId: input.sessionId ?? "unknown-session",
        toolCallId: input.toolUseId ?? "",
        toolName,
        toolInput: input.toolInput ?? null,
        toolResponse: input.toolResponse ?? null,
        occurredAt,
      }),
      run.captureTimeoutMs ?? 5_000,
    );
    let staged = false;
    if (observing && input.sessionId !== null && input.toolUseId !== null && input.toolUseId !== undefined && input.toolUseId !== "") {
      try {
        stageToolResult(state.workspaceFolder, input.sessionId, { kind: "tool-result", toolCallId: input.toolUseId, toolName, host: input.dialect, branchResultId: captured.branchResultId, isError: captured.isError, occurredAt });
        staged = true;
      } catch (error) {
        notes.push(`the tool result was not staged for Observer: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return { kind: "context", text: capturedContext(captured.branchResultId, captured.truncated, captured.redactions, { judgment: scopeActive, observer: staged }) };
  } catch (error) {
    notes.push(`the tool result was not captured: ${error instanceof Error ? error.message : String(error)}`);
    return { kind: "none" };
  } finally {
    if (startHelper) startCaptureHelper(run.runtimeDir, state.workspaceFolder);
  }
}

async function promptContext(input: HookInput, state: HookState, run: HookRun, notes: string[], event: "UserPromptSubmit" | "SessionStart"): Promise<HookDecision> {
  if (state.kind === "off") return { kind: "none" };
  if (state.kind === "blocked") return { kind: "context", text: blockedContext(state.ledgerPath, state.reason) };
  const scopeActive = state.state.facts.scopeActive;
  // Observer captures the prompt too while its capture window is open, with or without a Developer scope.
  const observing = input.sessionId !== null && captureOn(state.workspaceFolder);
  if (!scopeActive && !observing) return { kind: "none" };
  // Every prompt (a new question inside a running turn too) and every session start is a new intake.
  if (scopeActive && !recordHookIntake(state, input.dialect, input.sessionId, event, input.prompt, run.now())) notes.push("the session's intake could not be recorded");
  if (event === "UserPromptSubmit" && input.prompt !== null) {
    const capture = { workspaceFolder: state.workspaceFolder, host: input.dialect, sessionId: input.sessionId ?? "unknown-session", prompt: input.prompt, occurredAt: run.now() };
    // A running capture helper stores and stages the prompt before the host goes on (so it is
    // staged before the run's tool results); otherwise a detached process captures it.
    const helper = run.captureInProcess === true ? null : await captureThroughHelper(run.runtimeDir, state.workspaceFolder, { kind: "user-prompt", capture }, run.captureTimeoutMs ?? 5_000);
    if (helper !== null && helper.kind === "answered") {
      if (!helper.answer.ok) notes.push(`the prompt was not captured: ${helper.answer.message}`);
    } else if (helper !== null && helper.kind === "unconfirmed") {
      notes.push(`the prompt may not have been captured: ${helper.reason}`);
    } else if (run.captureInProcess === true || !captureDetached(run.runtimeDir, capture)) {
      try {
        const { workspaceFolder, ...decision } = capture;
        const captured = await withTimeout(evidenceCapture().captureUserDecision(workspaceFolder, decision), run.captureTimeoutMs ?? 5_000);
        if (observing) stageUserPrompt(capture.workspaceFolder, capture, captured.userEventId);
      } catch (error) {
        notes.push(`the prompt was not captured: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  return scopeActive ? { kind: "context", text: stateContext(state.state, recentEvidence(state.workspaceFolder)) } : { kind: "none" };
}

/**
 * Observer's agent runs: a user prompt starts one (what the previous run staged expires), the
 * agent's Stop ends it (an unnominated tool result is never evidence later).
 */
function observerRunBoundary(state: HookState, event: Exclude<HookEvent, "PreToolUse">, input: HookInput, run: HookRun, notes: string[]): void {
  if (state.kind !== "ready" || input.sessionId === null) return;
  // A workspace where Observer was never set up has no run, policy or capture mode to read.
  if (!observerFolderMayExist(state.workspaceFolder)) return;
  try {
    // In local processing the run's results wait for the local model until the next prompt (the
    // reference enqueues the run's routine job at its end); otherwise they expire at Stop.
    if (event === "Stop") {
      if (readProcessingPolicy(state.workspaceFolder).policy.mode !== "local") endRun(state.workspaceFolder, input.dialect, input.sessionId);
    } else if (event === "UserPromptSubmit" && captureOn(state.workspaceFolder)) startRun(state.workspaceFolder, input.dialect, input.sessionId, run.now());
  } catch (error) {
    notes.push(`Observer's capture window could not be ${event === "Stop" ? "closed" : "opened"}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Observer's capture mode, without reading its file where Observer was never set up. */
function captureOn(workspaceFolder: string): boolean {
  return observerFolderMayExist(workspaceFolder) && readCaptureMode(workspaceFolder).on;
}

/** Events other than PreToolUse: context and capture from the first governing workspace; Stop asks stopHook.ts. */
async function observingEvent(run: HookRun, event: Exclude<HookEvent, "PreToolUse">, input: HookInput): Promise<HookOutcome> {
  const cwd = hostCwd(input.cwd, run.cwd);
  const workspaces = resolveHookWorkspaces({ configured: run.configuredWorkspace ?? null, cwd, paths: [] });
  const governing = workspaces.docketOn[0];
  const state: HookState =
    governing === undefined
      ? { kind: "off", workspaceFolder: workspaces.primary, ledgerPath: path.join(workspaces.primary, ".docket", "ledger.jsonl") }
      : stateOf(governing, run.deadline);
  const notes: string[] = [];
  observerRunBoundary(state, event, input, run, notes);
  let decision: HookDecision;
  if (event === "PostToolUse") decision = await postToolUse(input, state, run, notes);
  else if (event === "UserPromptSubmit" || event === "SessionStart") decision = await promptContext(input, state, run, notes, event);
  else {
    try {
      const stop = await stopDecision(run, input, state);
      decision = stop.decision;
      notes.push(...stop.notes);
    } catch (error) {
      // A guard failure lets the host stop (never a block it cannot explain), and says so.
      decision = { kind: "none" };
      notes.push(`docket.internal: the completion guard failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  heartbeat(run, workspaces, [state], input.dialect, event, input.sessionId);
  const rendered = renderDecision(input.dialect, event, decision);
  return { stdout: rendered.stdout, stderr: notes.map((note) => `docket hook: ${note}\n`).join(""), exitCode: rendered.exitCode };
}

export async function runHook(run: HookRun): Promise<HookOutcome> {
  if (!isHookEvent(run.event)) {
    return { stdout: "{}\n", stderr: `docket hook: ${run.event} is not an event Docket handles; nothing to do.\n`, exitCode: 0 };
  }
  const event = run.event;
  if (event === "PreToolUse") {
    if (run.usageProblem !== undefined) return undecidedOutcome(run, "usage", run.usageProblem);
    if (run.stdin instanceof HookInputError) return undecidedOutcome(run, run.stdin.problem, run.stdin.message);
    try {
      return preToolUse(run, parseHookInput(run.host, event, run.stdin));
    } catch (error) {
      if (error instanceof HookInputError) return undecidedOutcome(run, error.problem, error.message);
      return undecidedOutcome(run, "internal", error instanceof Error ? error.message : String(error));
    }
  }
  if (run.usageProblem !== undefined) return { stdout: "", stderr: `docket hook: docket.usage: ${run.usageProblem}\n`, exitCode: 1 };
  if (run.stdin instanceof HookInputError) return inputFailure(`${HOOK_INPUT_INVALID}: ${run.stdin.problem}: ${run.stdin.message}`);
  let input: HookInput;
  try {
    input = parseHookInput(run.host, event, run.stdin);
  } catch (error) {
    if (error instanceof HookInputError) return inputFailure(`${HOOK_INPUT_INVALID}: ${error.problem}: ${error.message}`);
    throw error;
  }
  return observingEvent(run, event, input);
}
