// Capturing a user's prompt as evidence without making the host wait for it. Redaction and the
// evidence store live in the slow bundle (a second Node start's worth of parsing); a host waits
// for UserPromptSubmit before the model even sees the prompt. So the installed hook hands the
// prompt to a detached `docket-hook-slow.js --capture-user-decision` through a pipe (never argv,
// never a file: the prompt is unredacted until that process redacts it) and answers at once.
// Without the installed runtime beside it (tests in-process) the capture runs here, awaited.
import fs from "node:fs";
import path from "node:path";
import type { ToolResultCapture, UserDecisionInput } from "./evidenceAdapter";

export const CAPTURE_USER_DECISION = "--capture-user-decision";

/** A prompt and the workspace whose store takes it. */
export type PromptCapture = UserDecisionInput & { readonly workspaceFolder: string };

/** A tool result Observer's capture helper stages while no Developer scope captures it (captureHelperProtocol.ts). */
export type ObservedToolCapture = ToolResultCapture & { readonly workspaceFolder: string };

/** The slow bundle beside the running hook bundle, or null when Docket does not run installed. */
function slowBundle(runtimeDir: string | null | undefined): string | null {
  if (runtimeDir === null || runtimeDir === undefined) return null;
  const file = path.join(runtimeDir, "docket-hook-slow.js");
  try {
    return fs.statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

/**
 * Starts the capture in a detached process; false when it could not be started (the caller then
 * captures in-process). The pipe is written in full before this process exits.
 */
export function captureDetached(runtimeDir: string | null | undefined, capture: PromptCapture): boolean {
  const bundle = slowBundle(runtimeDir);
  if (bundle === null) return false;
  try {
    // Loaded here, not at start: node:child_process is a large share of a hook's start-up, and only a prompt's capture spawns.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { spawn } = require("node:child_process") as typeof import("node:child_process");
    const child = spawn(process.execPath, [bundle, CAPTURE_USER_DECISION], { detached: true, stdio: ["pipe", "ignore", "ignore"], cwd: capture.workspaceFolder });
    child.on("error", () => undefined);
    child.stdin.on("error", () => undefined);
    child.stdin.end(JSON.stringify(capture));
    child.unref();
    return true;
  } catch {
    return false;
  }
}
