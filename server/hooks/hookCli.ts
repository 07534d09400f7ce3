// `docket hook --host claude|codex|vscode <event>` as a process: arguments, bounded stdin, exit
// code. Shared by dist/docket.js (the `hook` subcommand) and the lean dist/docket-hook.js entry.
// Usage mistakes exit 1, not the CLI's usual 2: for Claude Code and VS Code exit 2 means "block".
import fs from "node:fs";
import * as z from "zod/mini";
import { HOOK_HOSTS, HookInputError, type HookHost } from "./hostInput";
import { runHook, type HookOutcome } from "./runHook";

// A hook process parses each schema once: compiling zod's fast paths (`new Function`) costs more
// than it saves, and the hook's start-up time is what a host waits for on every tool call.
z.config({ jitless: true });

/** Hook input larger than this is refused unread (tool results are bounded by the evidence store anyway). */
export const MAX_HOOK_INPUT_BYTES = 4 * 1024 * 1024;
/** A host that never closes stdin must not hang the hook. */
const STDIN_TIMEOUT_MS = 10_000;

export const HOOK_USAGE = "usage: docket hook --host claude|codex|vscode <PreToolUse|PostToolUse|UserPromptSubmit|SessionStart|Stop>";

export function parseHookArgs(argv: readonly string[]): { host: HookHost; event: string } | string {
  const args = argv[0] === "hook" ? argv.slice(1) : [...argv];
  let host: string | undefined;
  const positionals: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === "--host") {
      host = args[index + 1];
      index += 1;
    } else if (arg.startsWith("--host=")) {
      host = arg.slice("--host=".length);
    } else if (arg.startsWith("--")) {
      return `unknown option ${arg}`;
    } else {
      positionals.push(arg);
    }
  }
  if (host === undefined || !(HOOK_HOSTS as readonly string[]).includes(host)) return "--host must be claude, codex or vscode";
  if (positionals.length !== 1) return "exactly one event name is needed";
  return { host: host as HookHost, event: positionals[0] as string };
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
      if (size > limit) return new HookInputError("too-large", `the hook input is larger than ${limit} bytes`);
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

function decodeInput(chunks: readonly Buffer[]): string | HookInputError {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return new HookInputError("malformed-json", "the hook input is not UTF-8");
  }
}

export async function hookOutcome(argv: readonly string[], stdin: (() => NodeJS.ReadableStream) | string, cwd: string): Promise<HookOutcome> {
  const parsed = parseHookArgs(argv);
  if (typeof parsed === "string") return { stdout: "", stderr: `docket hook: docket.usage: ${parsed}\n${HOOK_USAGE}\n`, exitCode: 1 };
  const text = typeof stdin === "string" ? stdin : (readStdinSync() ?? (await readBoundedStdin(stdin())));
  try {
    return await runHook({ host: parsed.host, event: parsed.event, stdin: text, cwd, now: () => new Date().toISOString() });
  } catch (error) {
    // A bug must not block the host's tool either: fail open, visibly.
    return { stdout: "", stderr: `docket hook: docket.internal: ${error instanceof Error ? error.message : String(error)}\n`, exitCode: 1 };
  }
}

/** Runs one hook call in this process and sets its exit code. */
export function runHookProcess(argv: readonly string[]): void {
  let stream: NodeJS.ReadableStream | null = null;
  const openStdin = (): NodeJS.ReadableStream => (stream = process.stdin);
  void hookOutcome(argv, openStdin, process.cwd()).then((outcome) => {
    if (outcome.stderr !== "") process.stderr.write(outcome.stderr);
    process.exitCode = outcome.exitCode;
    if (outcome.stdout !== "") process.stdout.write(outcome.stdout);
    // A host that keeps stdin open (or input past the limit) must not keep the hook alive.
    if (stream !== null) process.stdin.destroy();
  });
}
