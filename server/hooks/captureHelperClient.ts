// The hook's side of Observer's capture helper (captureHelperProtocol.ts): hand one capture over
// and wait for the helper to say it is stored and staged, or learn that no helper can take it.
// "Unavailable" means nothing reached a helper that could have written it, so the hook captures
// in-process; "unconfirmed" means the request was sent but no answer came, so capturing again
// could record the result twice: the hook says so instead.
import fs from "node:fs";
import type { Socket } from "node:net";
import path from "node:path";
import { assertContained } from "../workspace/containedFs";
import {
  CAPTURE_HELPER,
  CAPTURE_HELPER_PROTOCOL,
  MAX_ANSWER_BYTES,
  buildIdentity,
  captureSocketPath,
  refusedBeforeWork,
  type CaptureHelperAnswer,
  type CaptureHelperRequest,
} from "./captureHelperProtocol";
import type { ObservedToolCapture, PromptCapture } from "./promptCapture";

export type HelperOutcome =
  | { readonly kind: "answered"; readonly answer: CaptureHelperAnswer }
  | { readonly kind: "unavailable"; readonly reason: string; readonly startHelper: boolean }
  | { readonly kind: "unconfirmed"; readonly reason: string };

export type HelperCapture = { readonly kind: "tool-result"; readonly capture: ObservedToolCapture } | { readonly kind: "user-prompt"; readonly capture: PromptCapture };

function slowBundleOf(runtimeDir: string | null | undefined): string | null {
  return runtimeDir === null || runtimeDir === undefined ? null : path.join(runtimeDir, "docket-hook-slow.js");
}

/**
 * The socket as found on disk: usable (a socket of this user, no link on the way), absent (a
 * helper may be started), or something else (left alone: no helper, no start).
 */
function socketState(workspaceFolder: string, socket: string): "socket" | "absent" | "unusable" {
  try {
    assertContained(workspaceFolder, socket);
    const stat = fs.lstatSync(socket);
    const ownUid = typeof process.getuid === "function" ? process.getuid() : stat.uid;
    return stat.isSocket() && stat.uid === ownUid ? "socket" : "unusable";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "absent" : "unusable";
  }
}

function parseAnswer(line: string): CaptureHelperAnswer | null {
  try {
    const value = JSON.parse(line) as unknown;
    if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
    const answer = value as Record<string, unknown>;
    if (answer.ok === false && typeof answer.code === "string" && typeof answer.message === "string") return value as CaptureHelperAnswer;
    if (answer.ok !== true || typeof answer.staged !== "boolean") return null;
    if (answer.kind === "tool-result") {
      const fields = typeof answer.branchResultId === "string" && typeof answer.truncated === "boolean" && typeof answer.redactions === "number" && typeof answer.isError === "boolean";
      return fields ? (value as CaptureHelperAnswer) : null;
    }
    return answer.kind === "user-prompt" && typeof answer.userEventId === "string" ? (value as CaptureHelperAnswer) : null;
  } catch {
    return null;
  }
}

/** Sends one capture to the workspace's helper and waits (at most `timeoutMs`) for its answer. */
export function captureThroughHelper(runtimeDir: string | null | undefined, workspaceFolder: string, item: HelperCapture, timeoutMs: number): Promise<HelperOutcome> {
  const slow = slowBundleOf(runtimeDir);
  const build = slow === null ? null : buildIdentity(slow);
  const socket = captureSocketPath(workspaceFolder);
  if (build === null || socket === null) return Promise.resolve({ kind: "unavailable", reason: "no capture helper can run here", startHelper: false });
  const state = socketState(workspaceFolder, socket);
  if (state !== "socket") return Promise.resolve({ kind: "unavailable", reason: `no capture helper (${state})`, startHelper: state === "absent" });
  const request: CaptureHelperRequest = { protocol: CAPTURE_HELPER_PROTOCOL, build, ...item } as CaptureHelperRequest;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const net = require("node:net") as typeof import("node:net");
  return new Promise((resolve) => {
    let sent = false;
    let settled = false;
    let received = "";
    const connection: Socket = net.createConnection({ path: socket });
    const finish = (outcome: HelperOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      connection.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      finish(sent ? { kind: "unconfirmed", reason: `the capture helper did not answer within ${timeoutMs} ms` } : { kind: "unavailable", reason: "the capture helper did not accept the connection", startHelper: false });
    }, timeoutMs);
    connection.setEncoding("utf8");
    connection.on("connect", () => {
      sent = true;
      connection.write(`${JSON.stringify(request)}\n`);
    });
    connection.on("data", (chunk: string) => {
      received += chunk;
      if (received.length > MAX_ANSWER_BYTES) return finish({ kind: "unconfirmed", reason: "the capture helper's answer was too long" });
      const end = received.indexOf("\n");
      if (end < 0) return;
      const answer = parseAnswer(received.slice(0, end));
      if (answer === null) return finish({ kind: "unconfirmed", reason: "the capture helper's answer could not be read" });
      if (!answer.ok && refusedBeforeWork(answer.code)) return finish({ kind: "unavailable", reason: `the capture helper refused: ${answer.message}`, startHelper: answer.code === "outdated" || answer.code === "shutting-down" });
      finish({ kind: "answered", answer });
    });
    connection.on("error", (error: NodeJS.ErrnoException) => {
      // A stale socket (its helper died) refuses the connection: a new helper replaces it.
      if (!sent) finish({ kind: "unavailable", reason: `no capture helper answers (${error.code ?? error.message})`, startHelper: error.code === "ECONNREFUSED" });
      else finish({ kind: "unconfirmed", reason: `the connection to the capture helper failed (${error.code ?? error.message})` });
    });
    connection.on("close", () => finish(sent ? { kind: "unconfirmed", reason: "the capture helper closed the connection without an answer" } : { kind: "unavailable", reason: "the capture helper closed the connection", startHelper: false }));
  });
}

/** Starts the workspace's helper in the background (the host does not wait for it); false when it could not start. */
export function startCaptureHelper(runtimeDir: string | null | undefined, workspaceFolder: string): boolean {
  const slow = slowBundleOf(runtimeDir);
  if (slow === null || buildIdentity(slow) === null || captureSocketPath(workspaceFolder) === null) return false;
  try {
    // Loaded here, not at start, like node:net above: most hook calls never start a helper.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { spawn } = require("node:child_process") as typeof import("node:child_process");
    const child = spawn(process.execPath, [slow, CAPTURE_HELPER, path.resolve(workspaceFolder)], { detached: true, stdio: "ignore", cwd: workspaceFolder });
    child.on("error", () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
