// Makes sure the real agent hosts (Claude Code, Codex) are installed, by running
// scripts/hosts/toolchain.sh (idempotent; well under a second once installed), and says where.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { repoRoot } from "../repoRoot";

const HostsToolchainSchema = z.object({
  cache: z.string(),
  /** Claude Code's native binary (bin/claude.exe after its install.cjs ran). */
  claude: z.string(),
  /** Codex's npm launcher (bin/codex.js), run with `node`; it starts the native binary. */
  codex: z.string(),
  versions: z.object({ claudeCode: z.string(), codex: z.string() }),
});
export type HostsToolchain = z.infer<typeof HostsToolchainSchema>;

export type HostsToolchainResult = { readonly toolchain: HostsToolchain } | { readonly skip: string };

export function isCI(): boolean {
  const value = process.env.CI;
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

export function hostsCacheDir(): string {
  return process.env.DOCKET_HOSTS_CACHE ?? path.join(os.homedir(), ".cache", "docket-hosts");
}

let pending: Promise<HostsToolchainResult> | undefined;

/**
 * Installs the hosts on first use. `{ skip }` when DOCKET_SKIP_REAL_HOSTS=1, or (outside CI only)
 * when the install fails; with CI=true a failed install throws, so the target fails.
 */
export function ensureHostsToolchain(log: (line: string) => void = () => undefined): Promise<HostsToolchainResult> {
  pending ??= install(log);
  return pending;
}

async function install(log: (line: string) => void): Promise<HostsToolchainResult> {
  if (process.env.DOCKET_SKIP_REAL_HOSTS === "1") return { skip: "DOCKET_SKIP_REAL_HOSTS=1: real-host runs skipped" };
  const script = path.join(repoRoot(), "scripts", "hosts", "toolchain.sh");
  const started = Date.now();
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const child = spawn("bash", [script], { stdio: ["ignore", "pipe", "pipe"], env });
    let output = "";
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", (error) => resolve({ code: -1, output: output + String(error) }));
    child.on("close", (exitCode) => resolve({ code: exitCode, output }));
  });
  for (const line of output.trim().split("\n")) if (line.trim() !== "") log(line);
  if (code !== 0) {
    const reason = output.trim().split("\n").filter((line) => line.includes("ERROR")).pop()?.trim() ?? `exit ${String(code)}`;
    const message = `real-host toolchain install failed after ${Date.now() - started} ms (${reason})`;
    if (isCI()) throw new Error(`${message}; CI=true: failing instead of skipping`);
    return { skip: `${message}; real-host runs skipped (with CI=true this fails)` };
  }
  const parsed = HostsToolchainSchema.safeParse(JSON.parse(fs.readFileSync(path.join(hostsCacheDir(), "env.json"), "utf8")));
  if (!parsed.success) throw new Error(`${path.join(hostsCacheDir(), "env.json")} is not what scripts/hosts/toolchain.sh writes: ${parsed.error.message}`);
  return { toolchain: parsed.data };
}
