// The capture window (design/observer.md §1.7, runtime only — never replayed): while Observer
// mode is on, each agent run (a user prompt up to the agent's Stop) stages the tool results the
// hooks captured, so the agent can later nominate exact ones as evidence. Only metadata is staged
// here — the (redacted) content stays in the evidence store under its handle — one small file per
// tool call, so parallel hook processes never overwrite each other. A new prompt or the Stop of
// the run clears its staged results: an unselected candidate expires with its run.
// Layout: `.docket/observer/runs/<h24(host, session)>/run.json` and `…/staged/<h16(call id)>.json`.
// Lean (hooks load it): no zod; reads are bounded and never follow links.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { assertContained, ensureContainedDirectory, readContained, writeFileAtomicContained } from "../workspace/containedFs";
import { ensureDocketFolder } from "../workspace/docketFolder";
import { observerFolder, readCaptureMode } from "./observerFiles";

/** The reference keeps at most 24 staged results per run, the oldest evicted first. */
export const MAX_STAGED_PER_RUN = 24;
const MAX_FILE_BYTES = 8 * 1024;
const RUN_FORMAT = "docket/observer-run/v1";
const STAGED_FORMAT = "docket/observer-staged/v1";

export interface StagedToolResult {
  /** A tool result, or the user's prompt of this run (its evidence `user-event-…` id stands as the call id). */
  readonly kind: "tool-result" | "user-input";
  readonly toolCallId: string;
  readonly toolName: string;
  readonly host: string;
  readonly runId: string;
  /** The evidence store's handle of the captured (redacted) result. */
  readonly branchResultId: string;
  readonly isError: boolean;
  readonly occurredAt: string;
}

export interface AgentRun {
  readonly runId: string;
  readonly host: string;
  readonly startedAt: string;
}

function runsFolder(workspaceFolder: string): string {
  return path.join(observerFolder(workspaceFolder), "runs");
}

function sessionFolder(workspaceFolder: string, host: string, sessionId: string): string {
  const key = createHash("sha256").update(`${host}\0${sessionId}`, "utf8").digest("hex").slice(0, 24);
  return path.join(runsFolder(workspaceFolder), key);
}

function stagedName(toolCallId: string): string {
  return `${createHash("sha256").update(toolCallId, "utf8").digest("hex").slice(0, 16)}.json`;
}

function readJson(root: string, file: string): Record<string, unknown> | null {
  try {
    const bytes = readContained(root, file, MAX_FILE_BYTES);
    if (bytes === null) return null;
    const value = JSON.parse(bytes.toString("utf8")) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function removeQuietly(root: string, target: string): void {
  try {
    // No component may be a link (a planted link is never followed out of the workspace); the
    // target itself, if a link, is removed as a link.
    assertContained(root, path.dirname(target));
    fs.rmSync(target, { recursive: true, force: true });
  } catch {
    // A leftover is ignored: items of another run id are never listed.
  }
}

function ensureSessionFolder(workspaceFolder: string, folder: string): void {
  const root = path.resolve(workspaceFolder);
  ensureDocketFolder(root);
  ensureContainedDirectory(root, observerFolder(root), 0o700);
  ensureContainedDirectory(root, runsFolder(root), 0o700);
  ensureContainedDirectory(root, folder, 0o700);
  ensureContainedDirectory(root, path.join(folder, "staged"), 0o700);
}

export function readRun(workspaceFolder: string, host: string, sessionId: string): AgentRun | null {
  const root = path.resolve(workspaceFolder);
  const value = readJson(root, path.join(sessionFolder(root, host, sessionId), "run.json"));
  if (value === null || value.format !== RUN_FORMAT || typeof value.runId !== "string" || typeof value.startedAt !== "string" || value.host !== host) return null;
  return { runId: value.runId, host, startedAt: value.startedAt };
}

/** A new agent run (a user prompt): whatever the previous run staged expires. */
export function startRun(workspaceFolder: string, host: string, sessionId: string, at: string): AgentRun {
  const root = path.resolve(workspaceFolder);
  const folder = sessionFolder(root, host, sessionId);
  removeQuietly(root, path.join(folder, "staged"));
  ensureSessionFolder(root, folder);
  const run: AgentRun = { runId: `run-${randomBytes(12).toString("hex")}`, host, startedAt: at };
  writeFileAtomicContained(root, path.join(folder, "run.json"), `${JSON.stringify({ format: RUN_FORMAT, ...run })}\n`, { mode: 0o600 });
  return run;
}

/**
 * False only when the workspace has no Observer folder at all (lstat answers ENOENT): then no run
 * is open, capture is off and the processing policy is the default, since each lives in a file
 * under that folder, so a hook has nothing to end, start or read there. Anything else (the folder,
 * a file or link in its place, an error) is true, and the caller reads those files as usual.
 */
export function observerFolderMayExist(workspaceFolder: string): boolean {
  try {
    fs.lstatSync(observerFolder(workspaceFolder));
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

/** The run ended (Stop): nothing it staged can be nominated any more. */
export function endRun(workspaceFolder: string, host: string, sessionId: string): void {
  const root = path.resolve(workspaceFolder);
  removeQuietly(root, sessionFolder(root, host, sessionId));
}

/** Stages one captured tool result in the session's current run (a run starts if none is open). */
export function stageToolResult(workspaceFolder: string, sessionId: string, item: Omit<StagedToolResult, "runId">): StagedToolResult {
  const root = path.resolve(workspaceFolder);
  const run = readRun(root, item.host, sessionId) ?? startRun(root, item.host, sessionId, item.occurredAt);
  const folder = sessionFolder(root, item.host, sessionId);
  ensureSessionFolder(root, folder);
  const staged: StagedToolResult = { ...item, runId: run.runId };
  writeFileAtomicContained(root, path.join(folder, "staged", stagedName(item.toolCallId)), `${JSON.stringify({ format: STAGED_FORMAT, ...staged })}\n`, { mode: 0o600 });
  return staged;
}

function parseStaged(value: Record<string, unknown> | null, runId: string): StagedToolResult | null {
  if (value === null || value.format !== STAGED_FORMAT || value.runId !== runId) return null;
  const { kind, toolCallId, toolName, host, branchResultId, isError, occurredAt } = value;
  if (typeof toolCallId !== "string" || typeof toolName !== "string" || typeof host !== "string" || typeof branchResultId !== "string" || typeof isError !== "boolean" || typeof occurredAt !== "string") return null;
  if (kind !== "tool-result" && kind !== "user-input") return null;
  return { kind, toolCallId, toolName, host, runId, branchResultId, isError, occurredAt };
}

export interface StagedRun {
  readonly sessionFolder: string;
  readonly run: AgentRun;
  /** Newest last; at most MAX_STAGED_PER_RUN (older ones have expired). */
  readonly staged: readonly StagedToolResult[];
}

/** Every open run's staged results. */
export function listStagedRuns(workspaceFolder: string): StagedRun[] {
  const root = path.resolve(workspaceFolder);
  let names: string[];
  try {
    const folder = runsFolder(root);
    assertContained(root, folder);
    if (!fs.lstatSync(folder).isDirectory()) return [];
    names = fs.readdirSync(folder).sort();
  } catch {
    return [];
  }
  const runs: StagedRun[] = [];
  for (const name of names) {
    if (!/^[0-9a-f]{24}$/u.test(name)) continue;
    const folder = path.join(runsFolder(root), name);
    const runValue = readJson(root, path.join(folder, "run.json"));
    if (runValue === null || runValue.format !== RUN_FORMAT || typeof runValue.runId !== "string" || typeof runValue.host !== "string" || typeof runValue.startedAt !== "string") continue;
    const run: AgentRun = { runId: runValue.runId, host: runValue.host, startedAt: runValue.startedAt };
    let files: string[] = [];
    try {
      files = fs.readdirSync(path.join(folder, "staged")).filter((file) => /^[0-9a-f]{16}\.json$/u.test(file));
    } catch {
      files = [];
    }
    const staged = files
      .map((file) => parseStaged(readJson(root, path.join(folder, "staged", file)), run.runId))
      .filter((item): item is StagedToolResult => item !== null)
      .sort((left, right) => (left.occurredAt === right.occurredAt ? (left.toolCallId < right.toolCallId ? -1 : 1) : left.occurredAt < right.occurredAt ? -1 : 1))
      .slice(-MAX_STAGED_PER_RUN);
    runs.push({ sessionFolder: folder, run, staged });
  }
  return runs;
}

/** The staged result with this tool call id in an open run, or null (unknown or expired). */
export function findStaged(workspaceFolder: string, toolCallId: string): StagedToolResult | null {
  for (const run of listStagedRuns(workspaceFolder)) {
    const found = run.staged.find((item) => item.toolCallId === toolCallId);
    if (found !== undefined) return found;
  }
  return null;
}

/** Once nominated, a staged result leaves the window (it is a candidate now). */
export function removeStaged(workspaceFolder: string, toolCallIds: readonly string[]): void {
  const root = path.resolve(workspaceFolder);
  for (const run of listStagedRuns(workspaceFolder)) {
    for (const item of run.staged) {
      if (toolCallIds.includes(item.toolCallId)) removeQuietly(root, path.join(run.sessionFolder, "staged", stagedName(item.toolCallId)));
    }
  }
}

/**
 * The user's prompt of a run, once the evidence store holds it (redacted): staged like a tool
 * result under its `user-event-…` id while capture is on, so the agent can read it into a
 * SourceRead. Best effort: a prompt that cannot be staged is simply not offered.
 */
export function stageUserPrompt(workspaceFolder: string, capture: { readonly host: string; readonly sessionId: string; readonly occurredAt: string }, userEventId: string): boolean {
  try {
    if (!readCaptureMode(workspaceFolder).on) return false;
    stageToolResult(workspaceFolder, capture.sessionId, { kind: "user-input", toolCallId: userEventId, toolName: "user-input", host: capture.host, branchResultId: userEventId, isError: false, occurredAt: capture.occurredAt });
    return true;
  } catch {
    // Not staged: the agent cannot nominate this prompt.
    return false;
  }
}

/** A tool result captured while only Observer captures (no Developer scope), staged if capture is still on. */
export function stageObservedResult(
  workspaceFolder: string,
  capture: { readonly host: string; readonly sessionId: string; readonly toolCallId: string; readonly toolName: string; readonly occurredAt: string },
  branchResultId: string,
  isError: boolean,
): boolean {
  if (!readCaptureMode(workspaceFolder).on) return false;
  stageToolResult(workspaceFolder, capture.sessionId, { kind: "tool-result", toolCallId: capture.toolCallId, toolName: capture.toolName, host: capture.host, branchResultId, isError, occurredAt: capture.occurredAt });
  return true;
}
