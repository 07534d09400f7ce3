// Server processes for the real-VS-Code tests: each one runs in its own process group (setsid) so that
// stopping it also ends the extension host, file watcher and pty host it forks (a plain kill orphans them).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

const liveGroups = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Last resort if a test crashes or the runner exits early: SIGKILL every group still alive.
  process.on("exit", () => {
    for (const pgid of liveGroups) killGroup(pgid, "SIGKILL");
  });
}

function killGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

function groupAlive(pgid: number): boolean {
  return killGroup(pgid, 0);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Ends a whole process group: SIGTERM, then SIGKILL after `graceMs`. Resolves once the group is gone. */
export async function stopGroup(pgid: number, graceMs = 4000): Promise<void> {
  if (!groupAlive(pgid)) {
    liveGroups.delete(pgid);
    return;
  }
  killGroup(pgid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
  if (groupAlive(pgid)) {
    killGroup(pgid, "SIGKILL");
    const hardDeadline = Date.now() + 3000;
    while (groupAlive(pgid) && Date.now() < hardDeadline) await sleep(100);
  }
  liveGroups.delete(pgid);
}

/** Registers a process group started elsewhere (e.g. by @vscode/test-electron) for the exit hook. */
export function trackGroup(pgid: number): void {
  installExitHook();
  liveGroups.add(pgid);
}

export interface ServerProcess {
  readonly pid: number;
  readonly logFile: string;
  /** Settles when the group leader exits (value: exit code or signal). */
  readonly exited: Promise<string>;
  hasExited(): boolean;
  logTail(lines?: number): string;
  stop(): Promise<void>;
}

/**
 * Starts `command args` detached (new session = new process group), stdout+stderr to `logFile`, stdin closed.
 */
export function startDetached(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; logFile: string },
): ServerProcess {
  installExitHook();
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  const fd = fs.openSync(options.logFile, "a");
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", fd, fd] });
  fs.closeSync(fd);
  if (child.pid === undefined) throw new Error(`failed to start ${command}`);
  const pid = child.pid;
  liveGroups.add(pid);
  let exitedFlag = false;
  const exited = new Promise<string>((resolve) => {
    child.on("exit", (code, signal) => {
      exitedFlag = true;
      resolve(String(code ?? signal));
    });
    child.on("error", (error) => {
      exitedFlag = true;
      resolve(`spawn error: ${error.message}`);
    });
  });
  return {
    pid,
    logFile: options.logFile,
    exited,
    hasExited: () => exitedFlag,
    logTail: (lines = 40) => tailFile(options.logFile, lines),
    stop: () => stopGroup(pid),
  };
}

export function tailFile(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/** A port that was free a moment ago on 127.0.0.1 (bind :0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") {
        server.close();
        reject(new Error("no port"));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}

/** Polls `url` until it answers 2xx; fails early (with the log tail) if the server exits. */
export async function waitForHttp(url: string, server: ServerProcess, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (server.hasExited()) {
      throw new Error(`server exited (${await server.exited}) before ${url} answered:\n${server.logTail()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return Date.now() - started;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${url}:\n${server.logTail()}`);
    }
    await sleep(100);
  }
}

/** Polls until `check()` returns a value (not undefined) or the timeout passes. */
export async function waitUntil<T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(200);
  }
}

/** Runs a command synchronously, throwing with its output on failure. */
export function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): string {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: options.timeoutMs ?? 300_000,
  });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.error !== undefined || result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} failed (${result.error?.message ?? `exit ${result.status}`}):\n${output.trim().split("\n").slice(-30).join("\n")}`,
    );
  }
  return output;
}
