// Runs one non-interactive session of the real Claude Code or Codex program against the loopback
// stub model: a scratch HOME (and CODEX_HOME) so the machine user's configuration is never read or
// written, no credentials but a dummy key, a timeout, and the whole process group (the host, its
// hooks and the MCP servers it started) killed by id at the end.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startStubModel, type RecordedRequest, type StubScriptStep } from "./stubModel";
import type { HostsToolchain } from "./toolchain";

export type HostName = "claude" | "codex";

/**
 * Codex gives a model the `apply_patch` tool only when its bundled model catalog says the model
 * takes it; an unknown name gets fallback metadata without it. `gpt-5.5` is in 0.171.0's catalog.
 */
export const CODEX_STUB_MODEL = "gpt-5.5";

/** The environment variable Codex reads the (dummy) key of the stub provider from. */
const CODEX_KEY_VARIABLE = "DOCKET_STUB_MODEL_KEY";

export interface HostRunOptions {
  readonly toolchain: HostsToolchain;
  /** Scratch HOME; Codex's CODEX_HOME is `<home>/.codex`. */
  readonly home: string;
  /** The session's working directory. */
  readonly cwd: string;
  /** What the stub model answers, in order (a step may be built from earlier tool results). */
  readonly steps: readonly StubScriptStep[];
  /** Claude Code's `--allowedTools`: the host's own permission rules allow these, so only a hook can stop them. */
  readonly allowedTools?: readonly string[];
  /** Where the host's log goes: Claude's `--debug-file`, Codex's stderr (with RUST_LOG). */
  readonly logFile: string;
  /** Scratch TMPDIR for the host and everything it starts. */
  readonly tmpDir: string;
  readonly timeoutMs?: number;
  readonly prompt?: string;
  /**
   * Claude Code's `-p` output: `text` (default) prints the final answer only; `stream-json` prints
   * every message as a JSON line, the notices Claude Code shows the user (a hook's `systemMessage`,
   * as `{"type":"system","subtype":"informational"}`) and each hook run with its output included.
   */
  readonly claudeOutput?: "text" | "stream-json";
}

export interface HostRun {
  readonly host: HostName;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The host's own log (see HostRunOptions.logFile). */
  readonly log: string;
  /** Every request the stub model received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Model requests past the stub's bound (a host looping); 0 in a sound run. */
  readonly overflow: number;
  /** What went wrong inside the stub (a step's `before` failing); empty in a sound run. */
  readonly stubErrors: readonly string[];
}

const DEFAULT_TIMEOUT_MS = 90_000;
const OUTPUT_LIMIT = 4 * 1024 * 1024;

/** PATH for the host: the Node running the tests first, since the hooks and MCP servers run `node`. */
function hostPath(): string {
  return [path.dirname(process.execPath), process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin"].join(path.delimiter);
}

function baseEnv(options: HostRunOptions): NodeJS.ProcessEnv {
  return {
    PATH: hostPath(),
    HOME: options.home,
    TMPDIR: options.tmpDir,
    LANG: "C.UTF-8",
    // A Codex home of its own also for the Claude run: a hook or MCP server that looks never sees the user's.
    CODEX_HOME: path.join(options.home, ".codex"),
  };
}

function claudeInvocation(options: HostRunOptions, modelUrl: string): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  const args = ["-p", options.prompt ?? "Do the task.", "--debug-file", options.logFile];
  if (options.allowedTools !== undefined && options.allowedTools.length > 0) args.push("--allowedTools", options.allowedTools.join(","));
  if (options.claudeOutput === "stream-json") args.push("--output-format", "stream-json", "--verbose", "--include-hook-events");
  return {
    command: options.toolchain.claude,
    args,
    env: {
      ...baseEnv(options),
      ANTHROPIC_BASE_URL: modelUrl,
      ANTHROPIC_API_KEY: "sk-ant-docket-stub-not-a-key",
      // Loopback only: no update checks, telemetry or error reports.
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
    },
  };
}

function codexInvocation(options: HostRunOptions, modelUrl: string): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  const provider = "docket_stub";
  const config = [
    `model_provider="${provider}"`,
    `model="${CODEX_STUB_MODEL}"`,
    `model_providers.${provider}.name="Docket stub model"`,
    `model_providers.${provider}.base_url="${modelUrl}/v1"`,
    `model_providers.${provider}.wire_api="responses"`,
    `model_providers.${provider}.env_key="${CODEX_KEY_VARIABLE}"`,
  ];
  return {
    command: process.execPath,
    args: [
      options.toolchain.codex,
      "exec",
      // Stands in for the user trusting the project's hooks in /hooks (real-hosts.md).
      "--dangerously-bypass-hook-trust",
      // No OS sandbox: only Docket's hook may stop a command, and an allowed one must really run.
      "--sandbox",
      "danger-full-access",
      ...config.flatMap((entry) => ["-c", entry]),
      options.prompt ?? "Do the task.",
    ],
    env: { ...baseEnv(options), [CODEX_KEY_VARIABLE]: "docket-stub-not-a-key", RUST_LOG: "codex_core=info", NO_COLOR: "1" },
  };
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // the group is already gone
  }
}

/** One session of `host` driven by `options.steps`; never throws for what the host does. */
export async function runHost(host: HostName, options: HostRunOptions): Promise<HostRun> {
  const stub = await startStubModel({ steps: options.steps });
  fs.mkdirSync(options.tmpDir, { recursive: true });
  const invocation = host === "claude" ? claudeInvocation(options, stub.url) : codexInvocation(options, stub.url);
  const started = Date.now();
  try {
    const outcome = await new Promise<{ exitCode: number | null; signal: NodeJS.Signals | null; timedOut: boolean; stdout: string; stderr: string }>((resolve) => {
      // Its own process group, so the hooks and MCP servers it starts end with it.
      const child = spawn(invocation.command, invocation.args, { cwd: options.cwd, env: invocation.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
      let stdout = "";
      let stderr = "";
      let timedOut = false;
      child.stdout.on("data", (chunk: Buffer) => {
        if (stdout.length < OUTPUT_LIMIT) stdout += chunk.toString();
      });
      child.stderr.on("data", (chunk: Buffer) => {
        if (stderr.length < OUTPUT_LIMIT) stderr += chunk.toString();
      });
      const timer = setTimeout(() => {
        timedOut = true;
        if (child.pid !== undefined) killGroup(child.pid);
      }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      child.on("error", (error) => {
        clearTimeout(timer);
        resolve({ exitCode: null, signal: null, timedOut, stdout, stderr: `${stderr}\nspawn failed: ${error.message}` });
      });
      child.on("close", (exitCode, signal) => {
        clearTimeout(timer);
        if (child.pid !== undefined) killGroup(child.pid);
        resolve({ exitCode, signal, timedOut, stdout, stderr });
      });
    });
    if (host === "codex") fs.writeFileSync(options.logFile, outcome.stderr);
    const log = fs.existsSync(options.logFile) ? fs.readFileSync(options.logFile, "utf8") : "";
    return { host, ...outcome, durationMs: Date.now() - started, log, requests: [...stub.requests], overflow: stub.overflow(), stubErrors: stub.errors() };
  } finally {
    await stub.close();
  }
}
