// Locates the repository and makes sure the e2e toolchain (Node 24, code-server, playwright-core, chromium) is
// installed, by running scripts/e2e/toolchain.sh (idempotent; well under a second when already installed).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "../../support/repoRoot";
export { repoRoot };

export interface Toolchain {
  cache: string;
  /** Node 24 binary (code-server requires it). */
  node: string;
  codeServerDir: string;
  /** code-server's CLI entry (out/node/entry.js), run with `node`. */
  codeServer: string;
  /** The plain VS Code server bundled in code-server (lib/vscode/out/server-main.js). */
  serverMain: string;
  vscodeVersion: string;
  /** Folder of the playwright-core package (require() it). */
  playwrightCore: string;
  chromium: string;
}

export type ToolchainResult = { toolchain: Toolchain } | { skip: string };

/** The repository root: the nearest parent folder whose package.json is Docket's. */

export function isCI(): boolean {
  const value = process.env.CI;
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

export function cacheDir(): string {
  return process.env.DOCKET_E2E_CACHE ?? path.join(os.homedir(), ".cache", "docket-e2e");
}

let pending: Promise<ToolchainResult> | undefined;

/**
 * Installs the toolchain on first use. Returns `{ skip }` when the real-VS-Code tests should be skipped:
 * DOCKET_SKIP_E2E=1, or (outside CI only) when the install fails. With CI=true an install failure throws.
 */
export function ensureToolchain(): Promise<ToolchainResult> {
  pending ??= install();
  return pending;
}

async function install(): Promise<ToolchainResult> {
  if (process.env.DOCKET_SKIP_E2E === "1") {
    return { skip: "DOCKET_SKIP_E2E=1: real-VS-Code tests skipped" };
  }
  const script = path.join(repoRoot(), "scripts", "e2e", "toolchain.sh");
  const started = Date.now();
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    // --with-logs compiles @vscode/spdlog once (when g++ is available) so VS Code writes log files, including
    // the extension's own log that the tests attach on failure. DOCKET_E2E_WITH_LOGS=0 skips it.
    const args = process.env.DOCKET_E2E_WITH_LOGS === "0" ? [script] : [script, "--with-logs"];
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const child = spawn("bash", args, { stdio: ["ignore", "pipe", "pipe"], env });
    let output = "";
    const forward = (chunk: Buffer): void => {
      output += chunk.toString();
      process.stderr.write(chunk);
    };
    child.stdout.on("data", forward);
    child.stderr.on("data", forward);
    child.on("error", (error) => resolve({ code: -1, output: output + String(error) }));
    child.on("close", (exitCode) => resolve({ code: exitCode, output }));
  });
  if (code !== 0) {
    const tail = output.trim().split("\n").slice(-15).join("\n");
    const message = `e2e toolchain install failed (exit ${code}) after ${Date.now() - started} ms:\n${tail}`;
    if (isCI()) throw new Error(`${message}\n(CI=true: failing instead of skipping)`);
    process.stderr.write(`${message}\n`);
    const reason = output.trim().split("\n").filter((line) => line.includes("ERROR")).pop() ?? `exit ${code}`;
    return { skip: `e2e toolchain install failed (${reason.trim()}); real-VS-Code tests skipped (with CI=true this fails)` };
  }
  const envFile = path.join(cacheDir(), "env.json");
  const toolchain = JSON.parse(fs.readFileSync(envFile, "utf8")) as Toolchain;
  return { toolchain };
}
