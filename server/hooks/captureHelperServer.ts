// Observer's capture helper (`node docket-hook-slow.js --capture-helper <workspace>`): one
// background process per workspace, started by the first PostToolUse that captured in-process
// while only Observer captures. It takes captures over `.docket/observer/capture.sock`, runs the
// same redaction, evidence store and staging as the hook would, one request at a time in arrival
// order, and answers only once they are on disk, so a hook that got an answer may say the result
// is staged. Unredacted content crosses only the socket, never the disk.
//
// It serves one workspace and one build: a request for another folder or from another build of
// Docket is refused before any work (the hook then captures itself; an outdated helper leaves).
// It leaves when Observer's capture is off, when its socket was removed or replaced, or after
// IDLE_MS without a request; a stale socket (a helper that died) is replaced by the next one.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import * as z from "zod";
import { extend } from "zod/mini";
import { stageObservedResult, stageUserPrompt } from "../observer/captureWindow";
import { observerFolder, readCaptureMode } from "../observer/observerFiles";
import { ensureContainedDirectory } from "../workspace/containedFs";
import { ensureDocketFolder } from "../workspace/docketFolder";
import {
  CAPTURE_HELPER_PROTOCOL,
  MAX_REQUEST_BYTES,
  buildIdentity,
  captureSocketPath,
  type CaptureHelperAnswer,
  type CaptureHelperRefusal,
} from "./captureHelperProtocol";
import { captureSchemas } from "../evidence/evidenceStore";
import { evidenceCapture } from "./evidenceAdapter";

/** A helper nobody used for this long leaves; the next capture starts another. */
export const IDLE_MS = 10 * 60 * 1000;
/** How often the helper checks its socket, Observer's mode and its idleness. */
const CHECK_MS = 5_000;
/** Quiet time after a tool result before the recent-handles cache is rewritten. */
const RECENT_REFRESH_DELAY_MS = 300;

// The capture itself is the evidence store's own schema (one definition), plus the workspace it is
// for; the host is one of the hook dialects, since staging files results by host. Built on the
// first request (the store's capture schemas are built on first use).
function buildRequestSchema() {
  const ForHook = { workspaceFolder: z.string(), host: z.enum(["claude", "codex", "vscode"]) };
  const { ToolResultCapture, UserDecisionCapture } = captureSchemas();
  return z.discriminatedUnion("kind", [
    z.strictObject({
      protocol: z.literal(CAPTURE_HELPER_PROTOCOL),
      build: z.string(),
      kind: z.literal("tool-result"),
      capture: extend(ToolResultCapture, ForHook),
    }),
    z.strictObject({
      protocol: z.literal(CAPTURE_HELPER_PROTOCOL),
      build: z.string(),
      kind: z.literal("user-prompt"),
      capture: extend(UserDecisionCapture, ForHook),
    }),
  ]);
}
let requestSchema: ReturnType<typeof buildRequestSchema> | undefined;
type Request = z.infer<ReturnType<typeof buildRequestSchema>>;

export interface CaptureHelperOptions {
  readonly idleMs?: number;
  readonly checkMs?: number;
  /** The slow bundle this helper runs (its build identity); defaults to the running script. */
  readonly bundleFile?: string;
}

function refusal(code: CaptureHelperRefusal, message: string): CaptureHelperAnswer {
  return { ok: false, code, message };
}

function socketInode(socket: string): bigint | null {
  try {
    const stat = fs.lstatSync(socket, { bigint: true });
    return stat.isSocket() ? stat.ino : null;
  } catch {
    return null;
  }
}

/** Whether a live process accepts connections on `socket` (a helper already serving). */
function socketAnswers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createConnection({ path: socket });
    probe.on("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.on("error", () => resolve(false));
  });
}

/**
 * Makes room for this helper's socket: nothing there, or a stale socket of a helper that died.
 * Anything else (a live helper, a link, a file a repository shipped) is left alone: false.
 */
async function claimSocketPath(socket: string): Promise<boolean> {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(socket);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
  if (!stat.isSocket()) return false;
  if (await socketAnswers(socket)) return false;
  try {
    fs.unlinkSync(socket);
    return true;
  } catch {
    return false;
  }
}

class CaptureHelper {
  private queue: Promise<void> = Promise.resolve();
  private lastRequestAt = Date.now();
  private shuttingDown = false;
  private inode: bigint | null = null;
  private readonly server: net.Server;
  private checkTimer: NodeJS.Timeout | null = null;
  private recentTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly root: string,
    private readonly socket: string,
    private readonly build: string,
    private readonly options: Required<Omit<CaptureHelperOptions, "bundleFile">>,
  ) {
    this.server = net.createServer((connection) => this.accept(connection));
  }

  listen(): Promise<boolean> {
    return new Promise((resolve) => {
      // The socket is created 0600 (no other user may hand captures in or read answers).
      const previousUmask = process.umask(0o177);
      this.server.once("error", () => {
        process.umask(previousUmask);
        resolve(false);
      });
      this.server.listen({ path: this.socket }, () => {
        process.umask(previousUmask);
        this.inode = socketInode(this.socket);
        this.checkTimer = setInterval(() => this.check(), this.options.checkMs);
        resolve(this.inode !== null);
      });
    });
  }

  private accept(connection: net.Socket): void {
    this.lastRequestAt = Date.now();
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const answer = (value: CaptureHelperAnswer): void => {
      if (!connection.destroyed) connection.end(`${JSON.stringify(value)}\n`);
    };
    connection.on("error", () => undefined);
    connection.on("data", (chunk: Buffer) => {
      if (done) return;
      const end = chunk.indexOf(0x0a);
      size += end < 0 ? chunk.length : end;
      if (size > MAX_REQUEST_BYTES) {
        done = true;
        answer(refusal("invalid-request", `the request exceeds ${MAX_REQUEST_BYTES} bytes`));
        return;
      }
      chunks.push(end < 0 ? chunk : chunk.subarray(0, end));
      if (end < 0) return;
      done = true;
      const line = Buffer.concat(chunks).toString("utf8");
      // One request at a time, in arrival order: a prompt is staged before the tool results after it.
      this.queue = this.queue.then(async () => {
        const outcome = await this.handle(line);
        answer(outcome);
        if (outcome.ok && outcome.kind === "tool-result") this.refreshRecentSoon();
      });
    });
  }

  private async handle(line: string): Promise<CaptureHelperAnswer> {
    this.lastRequestAt = Date.now();
    if (this.shuttingDown) return refusal("shutting-down", "the capture helper is leaving");
    let request: Request;
    try {
      requestSchema ??= buildRequestSchema();
      const parsed = requestSchema.safeParse(JSON.parse(line));
      if (!parsed.success) return refusal("invalid-request", `the request is not a capture: ${parsed.error.issues[0]?.message ?? "invalid"}`);
      request = parsed.data;
    } catch {
      return refusal("invalid-request", "the request is not JSON");
    }
    if (request.build !== this.build) {
      // Another Docket build is installed: leave, so its own helper can take the socket.
      this.shutdown();
      return refusal("outdated", "the capture helper runs another build of Docket");
    }
    if (path.resolve(request.capture.workspaceFolder) !== this.root) return refusal("other-workspace", `the capture helper serves ${this.root} only`);
    try {
      if (request.kind === "user-prompt") {
        const { workspaceFolder: _folder, ...decision } = request.capture;
        const { userEventId } = await evidenceCapture().captureUserDecision(this.root, decision);
        return { ok: true, kind: "user-prompt", userEventId, staged: stageUserPrompt(this.root, request.capture, userEventId) };
      }
      if (!readCaptureMode(this.root).on) {
        this.shutdown();
        return refusal("capture-off", "Observer's capture is off");
      }
      const { workspaceFolder: _folder, ...capture } = request.capture;
      const captured = await evidenceCapture().captureToolResult(this.root, capture, { refreshRecent: false });
      const staged = stageObservedResult(this.root, request.capture, captured.branchResultId, captured.isError);
      return { ok: true, kind: "tool-result", branchResultId: captured.branchResultId, truncated: captured.truncated, redactions: captured.redactions, isError: captured.isError, staged };
    } catch (error) {
      return refusal("capture-failed", error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * The recent-handles cache (informational, read by the prompt hooks) is refreshed once a burst of
   * tool calls has passed, not after each one: reading the store back costs more than the capture.
   */
  private refreshRecentSoon(): void {
    if (this.recentTimer !== null) clearTimeout(this.recentTimer);
    this.recentTimer = setTimeout(() => {
      this.recentTimer = null;
      this.queue = this.queue.then(() => this.refreshRecent());
    }, RECENT_REFRESH_DELAY_MS);
  }

  private refreshRecent(): void {
    try {
      evidenceCapture().refreshRecentCache(this.root);
    } catch {
      // The prompt hooks read around a stale cache.
    }
  }

  private check(): void {
    if (this.shuttingDown) return;
    // Removed or replaced (a cleaned workspace, another helper): it is not this helper's socket any more.
    if (socketInode(this.socket) !== this.inode) return this.shutdown(false);
    if (!readCaptureMode(this.root).on || Date.now() - this.lastRequestAt >= this.options.idleMs) this.shutdown();
  }

  shutdown(removeSocket = true): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    if (this.checkTimer !== null) clearInterval(this.checkTimer);
    if (this.recentTimer !== null) {
      clearTimeout(this.recentTimer);
      this.recentTimer = null;
      this.queue = this.queue.then(() => this.refreshRecent());
    }
    if (removeSocket && this.inode !== null && socketInode(this.socket) === this.inode) {
      try {
        fs.unlinkSync(this.socket);
      } catch {
        // Gone already.
      }
    }
    // Requests already queued are finished and answered; new connections are no longer accepted.
    this.server.close();
    void this.queue.then(() => setTimeout(() => process.exit(0), 50).unref());
  }
}

/** Runs the helper for `workspaceArg` until it leaves; resolves false when it did not start. */
export async function runCaptureHelper(workspaceArg: string, options: CaptureHelperOptions = {}): Promise<boolean> {
  if (!path.isAbsolute(workspaceArg)) return false;
  const root = path.resolve(workspaceArg);
  const socket = captureSocketPath(root);
  const build = buildIdentity(options.bundleFile ?? path.resolve(process.argv[1] ?? ""));
  if (socket === null || build === null || !readCaptureMode(root).on) return false;
  try {
    ensureDocketFolder(root);
    ensureContainedDirectory(root, observerFolder(root), 0o700);
  } catch {
    return false;
  }
  if (!(await claimSocketPath(socket))) return false;
  const helper = new CaptureHelper(root, socket, build, { idleMs: options.idleMs ?? IDLE_MS, checkMs: options.checkMs ?? CHECK_MS });
  if (!(await helper.listen())) return false;
  process.on("SIGTERM", () => helper.shutdown());
  process.on("SIGINT", () => helper.shutdown());
  // An unexpected failure must not leave a socket that accepts and never answers.
  process.on("uncaughtException", () => {
    helper.shutdown();
    setTimeout(() => process.exit(1), 50).unref();
  });
  return true;
}

/** `--idle-ms N` / `--check-ms N` after the workspace (tests shorten the helper's life). */
export function helperOptionsFromArgv(args: readonly string[]): CaptureHelperOptions {
  const options: { idleMs?: number; checkMs?: number } = {};
  for (let index = 0; index + 1 < args.length; index += 2) {
    const value = Number(args[index + 1]);
    if (!Number.isInteger(value) || value <= 0) continue;
    if (args[index] === "--idle-ms") options.idleMs = value;
    if (args[index] === "--check-ms") options.checkMs = value;
  }
  return options;
}
