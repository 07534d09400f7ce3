// `docket hook --host claude|codex|vscode <event>` as a process: arguments, bounded stdin, exit
// code. Shared by dist/docket.js (the `hook` subcommand) and the lean dist/docket-hook.js entry.
// Usage mistakes exit 1, not the CLI's usual 2 (for Claude Code and VS Code exit 2 means "block"),
// except for PreToolUse, which answers a fail-closed decision instead (runHook.ts).
import fs from "node:fs";
import path from "node:path";
import * as z from "zod/mini";
import { HOOK_HOSTS, HookInputError, type HookHost } from "./hostInput";
import { runHook, type HookOutcome } from "./runHook";
import { isExtensibleToolName } from "./toolClassification";

// A hook process parses each schema once: compiling zod's fast paths (`new Function`) costs more
// than it saves, and the hook's start-up time is what a host waits for on every tool call.
z.config({ jitless: true });

/** Hook input larger than this is refused unread (tool results are bounded by the evidence store anyway). */
export const MAX_HOOK_INPUT_BYTES = 4 * 1024 * 1024;
/** A host that never closes stdin must not hang the hook. */
const STDIN_TIMEOUT_MS = 10_000;

/**
 * How long a call may spend before a state Docket has not read yet counts as unreadable (and a
 * PreToolUse is denied): well inside the shortest host timeout (VS Code: 30 s by default;
 * Connect also writes an explicit `timeout` of HOOK_TIMEOUT_SECONDS into every entry), and short
 * enough that an agent waits at most about 5 s for an answer when no checkpoint is usable and the
 * ledger is too long to replay (issue 16: deny rather than make every tool call wait).
 */
export const HOOK_DECISION_BUDGET_MS = 3_000;

export const HOOK_USAGE =
  "usage: docket hook --host claude|codex|vscode [--workspace ABS_DIR] [--read-only-tool NAME]... <PreToolUse|PostToolUse|UserPromptSubmit|SessionStart|Stop>";

export interface HookArgs {
  readonly host: HookHost;
  readonly event: string;
  /** The workspace Connect wrote into the command; null in commands of older versions. */
  readonly workspace: string | null;
  readonly readOnlyTools: readonly string[];
}

interface ScannedArgs {
  host: string | undefined;
  workspace: string | undefined;
  readOnlyTools: string[];
  positionals: string[];
  problem: string | null;
}

function scanHookArgs(argv: readonly string[]): ScannedArgs {
  const args = argv[0] === "hook" ? argv.slice(1) : [...argv];
  const scanned: ScannedArgs = { host: undefined, workspace: undefined, readOnlyTools: [], positionals: [], problem: null };
  const problem = (text: string): void => {
    scanned.problem ??= text;
  };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    const [name, inline] = arg.startsWith("--") ? (arg.slice(2).split(/=(.*)/su, 2) as [string, string | undefined]) : [null, undefined];
    if (name === null) {
      scanned.positionals.push(arg);
      continue;
    }
    if (name !== "host" && name !== "workspace" && name !== "read-only-tool") {
      problem(`unknown option ${arg}`);
      continue;
    }
    const value = inline ?? args[index + 1];
    if (inline === undefined) index += 1;
    if (value === undefined) {
      problem(`--${name} needs a value`);
    } else if (name === "host") {
      scanned.host = value;
    } else if (name === "workspace") {
      if (!path.isAbsolute(value)) problem(`--workspace must be an absolute path: ${value}`);
      scanned.workspace = value;
    } else {
      if (!isExtensibleToolName(value)) problem(`--read-only-tool ${value} is not a tool name Docket accepts as read-only`);
      scanned.readOnlyTools.push(value);
    }
  }
  return scanned;
}

export function parseHookArgs(argv: readonly string[]): HookArgs | string {
  const scanned = scanHookArgs(argv);
  if (scanned.problem !== null) return scanned.problem;
  if (scanned.host === undefined || !(HOOK_HOSTS as readonly string[]).includes(scanned.host)) return "--host must be claude, codex or vscode";
  if (scanned.positionals.length !== 1) return "exactly one event name is needed";
  return { host: scanned.host as HookHost, event: scanned.positionals[0] as string, workspace: scanned.workspace ?? null, readOnlyTools: scanned.readOnlyTools };
}

/**
 * What a command line that does not parse still says: whether the call is a PreToolUse (which
 * must then fail closed rather than let the tool run) and which workspace it was installed for.
 */
function lenientHookArgs(argv: readonly string[]): { host: HookHost; event: string | null; workspace: string | null } {
  const scanned = scanHookArgs(argv);
  const host = (HOOK_HOSTS as readonly string[]).includes(scanned.host ?? "") ? (scanned.host as HookHost) : "claude";
  // Anywhere, even where an option swallowed it (`--workspace PreToolUse`): a PreToolUse must fail closed.
  const event = argv.includes("PreToolUse") ? "PreToolUse" : (scanned.positionals[0] ?? null);
  const workspace = scanned.workspace !== undefined && path.isAbsolute(scanned.workspace) ? scanned.workspace : null;
  return { host, event, workspace };
}

export function readBoundedStdin(stream: NodeJS.ReadableStream, limit = MAX_HOOK_INPUT_BYTES, timeoutMs = STDIN_TIMEOUT_MS): Promise<string | HookInputError> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (value: string | HookInputError): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream.removeAllListeners("data");
      stream.removeAllListeners("end");
      stream.removeAllListeners("error");
      resolve(value);
    };
    const timer = setTimeout(() => finish(new HookInputError("malformed-json", `no complete input on stdin within ${timeoutMs} ms`)), timeoutMs);
    stream.on("data", (chunk: Buffer | string) => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > limit) {
        finish(new HookInputError("too-large", `the hook input is larger than ${limit} bytes`));
        // Keep draining so the host's write does not fail with EPIPE.
        stream.resume();
        return;
      }
      chunks.push(bytes);
    });
    stream.on("end", () => {
      try {
        finish(new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks)));
      } catch {
        finish(new HookInputError("malformed-json", "the hook input is not UTF-8"));
      }
    });
    stream.on("error", (error: Error) => finish(new HookInputError("malformed-json", `stdin could not be read: ${error.message}`)));
  });
}

/**
 * Reads fd 0 synchronously when it is a pipe or file that allows it (no stream machinery to load,
 * which is most of a hook's start-up); null means "use the stream reader".
 */
function readStdinSync(limit = MAX_HOOK_INPUT_BYTES): string | HookInputError | null {
  const chunks: Buffer[] = [];
  let size = 0;
  const buffer = Buffer.alloc(64 * 1024);
  try {
    // Hosts write the JSON into a pipe and close it; a terminal or socket goes through the stream
    // reader and its timeout instead.
    const stat = fs.fstatSync(0);
    if (!stat.isFIFO() && !stat.isFile()) return null;
    for (;;) {
      const n = fs.readSync(0, buffer, 0, buffer.length, null);
      if (n === 0) break;
      size += n;
      if (size > limit) {
        drainSync(buffer);
        return new HookInputError("too-large", `the hook input is larger than ${limit} bytes`);
      }
      chunks.push(Buffer.from(buffer.subarray(0, n)));
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EOF") return decodeInput(chunks);
    // EAGAIN (non-blocking pipe), a TTY, or a platform without sync pipe reads: nothing is lost
    // only if nothing was read yet.
    return size === 0 ? null : new HookInputError("malformed-json", `stdin could not be read: ${code ?? "error"}`);
  }
  return decodeInput(chunks);
}

/** Bytes past the limit are read and dropped (up to a bound) so the host's write does not fail with EPIPE. */
const MAX_DRAINED_BYTES = 64 * 1024 * 1024;

function drainSync(buffer: Buffer): void {
  let drained = 0;
  try {
    while (drained < MAX_DRAINED_BYTES) {
      const n = fs.readSync(0, buffer, 0, buffer.length, null);
      if (n === 0) return;
      drained += n;
    }
  } catch {
    // nothing more to read
  }
}

function decodeInput(chunks: readonly Buffer[]): string | HookInputError {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return new HookInputError("malformed-json", "the hook input is not UTF-8");
  }
}

export interface HookProcessOptions {
  /** Folder of the running hook bundle, where Docket's `docket.js` lives (docketServer.ts). */
  readonly runtimeDir?: string | null;
  /** Capture prompts in this process instead of a detached one (a caller running thousands of calls). */
  readonly captureInProcess?: boolean;
  readonly now?: () => string;
  /** Overrides HOOK_DECISION_BUDGET_MS (tests); never longer than it. */
  readonly budgetMs?: number;
}

export async function hookOutcome(
  argv: readonly string[],
  stdin: (() => NodeJS.ReadableStream) | string,
  cwd: string,
  options: HookProcessOptions = {},
): Promise<HookOutcome> {
  const started = Date.now();
  const parsed = parseHookArgs(argv);
  const lenient = typeof parsed === "string" ? lenientHookArgs(argv) : null;
  if (lenient !== null && lenient.event !== "PreToolUse") {
    return { stdout: "", stderr: `docket hook: docket.usage: ${parsed as string}\n${HOOK_USAGE}\n`, exitCode: 1 };
  }
  const text = typeof stdin === "string" ? stdin : (readStdinSync() ?? (await readBoundedStdin(stdin())));
  const budget = Math.min(options.budgetMs ?? HOOK_DECISION_BUDGET_MS, HOOK_DECISION_BUDGET_MS);
  const common = {
    stdin: text,
    cwd,
    now: options.now ?? (() => new Date().toISOString()),
    deadline: started + budget,
    runtimeDir: options.runtimeDir ?? null,
    captureInProcess: options.captureInProcess ?? false,
  };
  const run =
    typeof parsed === "string"
      ? { ...common, host: lenient?.host ?? "claude", event: "PreToolUse", configuredWorkspace: lenient?.workspace ?? null, usageProblem: parsed }
      : { ...common, host: parsed.host, event: parsed.event, configuredWorkspace: parsed.workspace, readOnlyTools: parsed.readOnlyTools };
  try {
    return await runHook(run);
  } catch (error) {
    // A bug must not block the host's tool either: fail open, visibly (PreToolUse has its own fail-closed path).
    return { stdout: "", stderr: `docket hook: docket.internal: ${error instanceof Error ? error.message : String(error)}\n`, exitCode: 1 };
  }
}

/** Runs one hook call in this process and sets its exit code. */
export function runHookProcess(argv: readonly string[]): void {
  let stream: NodeJS.ReadableStream | null = null;
  const openStdin = (): NodeJS.ReadableStream => (stream = process.stdin);
  const script = process.argv[1];
  const runtimeDir = script === undefined ? null : path.dirname(path.resolve(script));
  void hookOutcome(argv, openStdin, process.cwd(), { runtimeDir }).then((outcome) => {
    if (outcome.stderr !== "") process.stderr.write(outcome.stderr);
    process.exitCode = outcome.exitCode;
    if (outcome.stdout !== "") process.stdout.write(outcome.stdout);
    // A host that keeps stdin open (or input past the limit) must not keep the hook alive.
    if (stream !== null) process.stdin.destroy();
  });
}
