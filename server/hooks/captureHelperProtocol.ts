// The wire between a hook process and Observer's capture helper (captureHelperServer.ts): one
// long-lived process per workspace that redacts and stores what a hook hands it, so a PostToolUse
// with Observer on costs a local socket round trip instead of loading the evidence code or
// starting a process. Lean (the hook bundle loads it): no zod, no evidence code.
//
// Framing: the hook writes one JSON line (the request) and reads one JSON line (the answer). The
// socket lives at `.docket/observer/capture.sock` (mode 0600 inside a 0700 folder); a hook talks
// to it only if it is a socket of this user, reached without a link, and the helper serves this
// workspace with this very build of Docket.
import fs from "node:fs";
import path from "node:path";
import type { ObservedToolCapture, PromptCapture } from "./promptCapture";

export const CAPTURE_HELPER_PROTOCOL = "docket/capture-helper/v1";
/** `node docket-hook-slow.js --capture-helper <workspace>` */
export const CAPTURE_HELPER = "--capture-helper";
export const CAPTURE_SOCKET_NAME = "capture.sock";
/** A hook input is at most 4 MiB (hookCli.ts); the request wraps one. */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024 + 64 * 1024;
export const MAX_ANSWER_BYTES = 64 * 1024;

export type CaptureHelperRequest =
  | { readonly protocol: typeof CAPTURE_HELPER_PROTOCOL; readonly build: string; readonly kind: "tool-result"; readonly capture: ObservedToolCapture }
  | { readonly protocol: typeof CAPTURE_HELPER_PROTOCOL; readonly build: string; readonly kind: "user-prompt"; readonly capture: PromptCapture };

/**
 * Why a helper turned a request down before doing any work (so the hook may capture in-process
 * instead), or why the capture itself failed (nothing to retry: the store refused it).
 */
export type CaptureHelperRefusal = "outdated" | "other-workspace" | "invalid-request" | "shutting-down" | "capture-off" | "capture-failed";

export type CaptureHelperAnswer =
  | { readonly ok: true; readonly kind: "tool-result"; readonly branchResultId: string; readonly truncated: boolean; readonly redactions: number; readonly isError: boolean; readonly staged: boolean }
  | { readonly ok: true; readonly kind: "user-prompt"; readonly userEventId: string; readonly staged: boolean }
  | { readonly ok: false; readonly code: CaptureHelperRefusal; readonly message: string };

/** Refusals made before the helper touched anything: the hook may do the capture itself. */
export function refusedBeforeWork(code: CaptureHelperRefusal): boolean {
  return code === "outdated" || code === "other-workspace" || code === "invalid-request" || code === "shutting-down";
}

/**
 * Longest socket path the platform accepts (sun_path holds 108 bytes on Linux, 104 on macOS and
 * the BSDs, each with its terminating NUL). A deeper workspace gets no helper: hooks capture in-process.
 */
const MAX_SOCKET_PATH_BYTES = process.platform === "linux" ? 107 : 103;

/** The helper's socket of `workspaceFolder`, or null where this platform or path cannot have one. */
export function captureSocketPath(workspaceFolder: string): string | null {
  if (process.platform === "win32") return null;
  const socket = path.join(path.resolve(workspaceFolder), ".docket", "observer", CAPTURE_SOCKET_NAME);
  return Buffer.byteLength(socket, "utf8") <= MAX_SOCKET_PATH_BYTES ? socket : null;
}

/**
 * Which build of the slow bundle a process runs: a helper started by an older Docket must not
 * serve a newer hook (its redaction or record format may differ), so both sides compare this.
 */
export function buildIdentity(slowBundleFile: string): string | null {
  try {
    const stat = fs.statSync(slowBundleFile, { bigint: true });
    return stat.isFile() ? `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}` : null;
  } catch {
    return null;
  }
}
