// Observer's capture helper (server/hooks/captureHelperServer.ts) through the real bundles: the
// first PostToolUse with only Observer on captures in-process and starts the helper; later calls
// are stored and staged by it before the hook answers. And how it holds against what a hostile
// repository, a stale socket, another workspace or an older Docket could put in its way.
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { test } from "node:test";
import { buildIdentity, CAPTURE_HELPER, CAPTURE_HELPER_PROTOCOL } from "../../server/hooks/captureHelperProtocol";
import { findStaged, listStagedRuns } from "../../server/observer/captureWindow";
import { writeCaptureMode } from "../../server/observer/observerFiles";
import { tempRepo, type TempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const CLI = path.join(repoRoot(), "dist", "docket.js");
const HOOK = path.join(repoRoot(), "dist", "docket-hook.js");
const SLOW = path.join(repoRoot(), "dist", "docket-hook-slow.js");
const SECRET = "sk-ant-api03-" + "Q".repeat(86) + "AA";

function observingWorkspace(): TempRepo {
  const repo = tempRepo({ files: { "README.md": "hello\n" } });
  const notebook = path.join(repo.root, "notes");
  assert.equal(spawnSync(process.execPath, [CLI, "notebook", "setup", notebook, "--language", "en", "--yes"], { cwd: repo.root }).status, 0);
  assert.equal(spawnSync(process.execPath, [CLI, "observer", "on", "--notebook", notebook], { cwd: repo.root }).status, 0);
  return repo;
}

function socketOf(workspace: string): string {
  return path.join(workspace, ".docket", "observer", "capture.sock");
}

function postToolUse(workspace: string, toolUseId: string, stdout = "2 passing\n"): { stdout: string; stderr: string } {
  const input = { session_id: "sess-helper", cwd: workspace, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: { stdout, stderr: "", interrupted: false }, tool_use_id: toolUseId };
  const result = spawnSync(process.execPath, [HOOK, "hook", "--host", "claude", "PostToolUse"], { input: JSON.stringify(input), cwd: workspace, encoding: "utf8", timeout: 30_000 });
  assert.equal(result.status, 0, result.stderr);
  return { stdout: result.stdout, stderr: result.stderr };
}

async function until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function isSocket(file: string): boolean {
  try {
    return fs.lstatSync(file).isSocket();
  } catch {
    return false;
  }
}

/** A helper started by hand, with short checks so a test sees it leave. */
async function startHelper(workspace: string, extra: readonly string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, [SLOW, CAPTURE_HELPER, workspace, "--check-ms", "100", ...extra], { stdio: "ignore" });
  await until(() => isSocket(socketOf(workspace)), "the helper listens");
  return child;
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/** One raw request line to a helper socket; resolves with the answer line parsed. */
function ask(socket: string, line: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const connection = net.createConnection({ path: socket });
    let text = "";
    connection.setEncoding("utf8");
    connection.on("connect", () => connection.write(line));
    connection.on("data", (chunk: string) => {
      text += chunk;
    });
    // An oversized request is answered before it was sent in full: the rest of the write fails.
    connection.on("error", () => undefined);
    connection.on("close", () => {
      try {
        resolve(JSON.parse(text) as Record<string, unknown>);
      } catch {
        reject(new Error(`no answer: ${JSON.stringify(text)}`));
      }
    });
  });
}

function toolRequest(workspace: string, toolCallId: string, overrides: Record<string, unknown> = {}): string {
  const capture = { workspaceFolder: workspace, host: "claude", sessionId: "sess-raw", toolCallId, toolName: "Bash", toolInput: { command: "ls" }, toolResponse: { stdout: "a\n", stderr: "", interrupted: false }, occurredAt: "2026-12-01T10:00:00.000Z" };
  return `${JSON.stringify({ protocol: CAPTURE_HELPER_PROTOCOL, build: buildIdentity(SLOW), kind: "tool-result", capture, ...overrides })}\n`;
}

function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

test("the first capture starts the helper; later captures are stored, redacted and staged by it before the hook answers", { timeout: 120_000 }, async () => {
  const repo = observingWorkspace();
  const workspace = repo.root;
  try {
    const first = postToolUse(workspace, "toolu_first");
    assert.match(first.stdout, /captured this tool result as evidence branch-result-[0-9a-f]{16}.*Observer staged it/u);
    assert.notEqual(findStaged(workspace, "toolu_first"), null, "the in-process capture is staged when the hook answers");
    await until(() => isSocket(socketOf(workspace)), "the helper the first capture started listens");
    assert.equal(fs.statSync(socketOf(workspace)).mode & 0o777, 0o600, "only this user may connect");

    const second = postToolUse(workspace, "toolu_second", `token ${SECRET}\n`);
    assert.match(second.stdout, /evidence branch-result-[0-9a-f]{16} \(1 secret redacted\); Observer staged it/u, second.stdout + second.stderr);
    assert.equal(second.stderr, "");
    assert.notEqual(findStaged(workspace, "toolu_second"), null, "staged before the hook answered");
    for (const file of filesUnder(path.join(workspace, ".docket"))) assert.ok(!fs.readFileSync(file, "utf8").includes(SECRET), `${file} holds the secret`);

    // A prompt goes through the helper too: the new run's prompt is stored (redacted) and staged before the hook answers.
    const prompt = spawnSync(process.execPath, [HOOK, "hook", "--host", "claude", "UserPromptSubmit"], {
      input: JSON.stringify({ session_id: "sess-helper", cwd: workspace, hook_event_name: "UserPromptSubmit", prompt: `use the key ${SECRET} to deploy` }),
      cwd: workspace,
      encoding: "utf8",
      timeout: 30_000,
    });
    assert.equal(prompt.status, 0, prompt.stderr);
    assert.equal(prompt.stderr, "");
    const staged = listStagedRuns(workspace).flatMap((run) => run.staged);
    assert.deepEqual(staged.map((item) => item.kind), ["user-input"], "the new run holds only its prompt");
    assert.match(staged[0]?.toolCallId ?? "", /^user-event-/u);
    for (const file of filesUnder(path.join(workspace, ".docket"))) assert.ok(!fs.readFileSync(file, "utf8").includes(SECRET), `${file} holds the secret`);

    // Observer Off: the helper leaves at its next check and takes its socket with it.
    assert.equal(spawnSync(process.execPath, [CLI, "observer", "off"], { cwd: workspace }).status, 0);
    await until(() => !fs.existsSync(socketOf(workspace)), "the helper leaves after Observer Off", 15_000);
  } finally {
    repo.dispose();
  }
});

test("a stale socket (its helper was killed) is replaced: the hook captures in-process and the next helper takes over", { timeout: 120_000 }, async () => {
  const repo = observingWorkspace();
  const workspace = repo.root;
  try {
    const helper = await startHelper(workspace);
    helper.kill("SIGKILL");
    await exited(helper);
    assert.ok(isSocket(socketOf(workspace)), "a killed helper leaves its socket behind");
    const output = postToolUse(workspace, "toolu_after_kill");
    assert.match(output.stdout, /Observer staged it/u);
    assert.notEqual(findStaged(workspace, "toolu_after_kill"), null);
    await until(() => {
      const answer = spawnSync(process.execPath, ["-e", `require("net").createConnection(${JSON.stringify(socketOf(workspace))}).on("connect",()=>process.exit(0)).on("error",()=>process.exit(1))`]);
      return answer.status === 0;
    }, "a new helper answers on the socket");
  } finally {
    writeCaptureMode(workspace, { on: false, episodeId: null });
    repo.dispose();
  }
});

test("a socket path a repository planted (a link to another workspace's helper, or a file) is never used and never removed", { timeout: 120_000 }, async () => {
  const victim = observingWorkspace();
  const hostile = observingWorkspace();
  try {
    const victimHelper = await startHelper(victim.root);
    // A link to the victim's live helper: the hook must not hand this workspace's results to it.
    fs.symlinkSync(socketOf(victim.root), socketOf(hostile.root));
    const output = postToolUse(hostile.root, "toolu_hostile", `token ${SECRET}\n`);
    assert.match(output.stdout, /Observer staged it/u);
    assert.notEqual(findStaged(hostile.root, "toolu_hostile"), null, "captured in the hook's own workspace");
    assert.equal(findStaged(victim.root, "toolu_hostile"), null, "nothing reached the other workspace");
    assert.ok(fs.lstatSync(socketOf(hostile.root)).isSymbolicLink(), "the link is left alone");

    // A link to a listener that would collect whatever it is sent: it receives nothing.
    fs.unlinkSync(socketOf(hostile.root));
    const collected: Buffer[] = [];
    const listenerSocket = path.join(victim.root, "collector.sock");
    const collector = net.createServer((connection) => connection.on("data", (chunk: Buffer) => collected.push(chunk)));
    // Unreferenced: a failing assertion must not leave the test process waiting on this listener.
    collector.unref();
    await new Promise<void>((resolve) => collector.listen(listenerSocket, resolve));
    fs.symlinkSync(listenerSocket, socketOf(hostile.root));
    assert.match(postToolUse(hostile.root, "toolu_collected", `token ${SECRET}\n`).stdout, /Observer staged it/u);
    collector.close();
    assert.equal(Buffer.concat(collected).length, 0, "nothing was sent through the planted link");
    assert.notEqual(findStaged(hostile.root, "toolu_collected"), null);

    // A plain file where the socket would be: no helper starts over it, the file stays.
    fs.unlinkSync(socketOf(hostile.root));
    fs.writeFileSync(socketOf(hostile.root), "not a socket");
    postToolUse(hostile.root, "toolu_file");
    assert.notEqual(findStaged(hostile.root, "toolu_file"), null);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(fs.readFileSync(socketOf(hostile.root), "utf8"), "not a socket");
    victimHelper.kill("SIGTERM");
    await exited(victimHelper);
  } finally {
    writeCaptureMode(victim.root, { on: false, episodeId: null });
    writeCaptureMode(hostile.root, { on: false, episodeId: null });
    victim.dispose();
    hostile.dispose();
  }
});

test("the helper refuses bad requests before any work and keeps serving; an older build's helper leaves", { timeout: 120_000 }, async () => {
  const repo = observingWorkspace();
  const other = observingWorkspace();
  const workspace = repo.root;
  try {
    const helper = await startHelper(workspace);
    const socket = socketOf(workspace);
    const evidence = path.join(workspace, ".docket", "evidence");
    const before = fs.existsSync(evidence) ? filesUnder(evidence).map((file) => fs.readFileSync(file, "utf8")).join("") : "";
    const refusals: Array<[string, string]> = [
      ["not json\n", "invalid-request"],
      [toolRequest(workspace, "toolu_extra", { extra: true }), "invalid-request"],
      [toolRequest(workspace, "toolu_inner", { capture: { workspaceFolder: workspace, host: "claude", sessionId: "s", toolCallId: "toolu_inner", toolName: "Bash", toolInput: null, toolResponse: "x", occurredAt: "2026-12-01T10:00:00.000Z", extra: 1 } }), "invalid-request"],
      [toolRequest(workspace, "toolu_time", { capture: { workspaceFolder: workspace, host: "claude", sessionId: "s", toolCallId: "toolu_time", toolName: "Bash", toolInput: null, toolResponse: "x", occurredAt: "yesterday" } }), "invalid-request"],
      [toolRequest(workspace, "toolu_protocol", { protocol: "docket/capture-helper/v0" }), "invalid-request"],
      [toolRequest(other.root, "toolu_other"), "other-workspace"],
      [`${JSON.stringify({ protocol: CAPTURE_HELPER_PROTOCOL, build: buildIdentity(SLOW), kind: "tool-result", capture: { workspaceFolder: workspace, host: "claude", sessionId: "s", toolCallId: "x", toolName: "Bash", toolInput: null, toolResponse: "y".repeat(5 * 1024 * 1024), occurredAt: "2026-12-01T10:00:00.000Z" } })}\n`, "invalid-request"],
    ];
    for (const [line, code] of refusals) {
      const answer = await ask(socket, line);
      assert.equal(answer.ok, false, line.slice(0, 80));
      assert.equal(answer.code, code, line.slice(0, 80));
    }
    const after = fs.existsSync(evidence) ? filesUnder(evidence).map((file) => fs.readFileSync(file, "utf8")).join("") : "";
    assert.equal(after, before, "no refused request wrote evidence");
    assert.equal(findStaged(other.root, "toolu_other"), null);

    const served = await ask(socket, toolRequest(workspace, "toolu_good"));
    assert.equal(served.ok, true, JSON.stringify(served));
    assert.equal(served.staged, true);
    assert.notEqual(findStaged(workspace, "toolu_good"), null);

    // A request from another build: refused, and the helper leaves so that build can start its own.
    const outdated = await ask(socket, toolRequest(workspace, "toolu_outdated", { build: "0:0:0:0" }));
    assert.equal(outdated.code, "outdated");
    assert.equal(await exited(helper), 0);
    assert.equal(fs.existsSync(socket), false, "the leaving helper removed its socket");
  } finally {
    writeCaptureMode(workspace, { on: false, episodeId: null });
    writeCaptureMode(other.root, { on: false, episodeId: null });
    repo.dispose();
    other.dispose();
  }
});

test("an idle helper leaves; a helper whose socket was removed leaves without touching a new one", { timeout: 60_000 }, async () => {
  const repo = observingWorkspace();
  const workspace = repo.root;
  try {
    const idle = await startHelper(workspace, ["--idle-ms", "300"]);
    assert.equal(await exited(idle), 0);
    assert.equal(fs.existsSync(socketOf(workspace)), false);

    const removed = await startHelper(workspace);
    fs.unlinkSync(socketOf(workspace));
    assert.equal(await exited(removed), 0);
  } finally {
    writeCaptureMode(workspace, { on: false, episodeId: null });
    repo.dispose();
  }
});

test("a workspace too deep for a socket path captures in-process and starts no helper", { timeout: 60_000 }, () => {
  const repo = tempRepo({ files: { "README.md": "hello\n" } });
  const deep = path.join(repo.root, "d".repeat(60), "e".repeat(60));
  try {
    fs.mkdirSync(path.join(deep, ".git"), { recursive: true });
    const notebook = path.join(repo.root, "notes");
    assert.equal(spawnSync(process.execPath, [CLI, "notebook", "setup", notebook, "--language", "en", "--yes"], { cwd: deep }).status, 0);
    assert.equal(spawnSync(process.execPath, [CLI, "observer", "on", "--notebook", notebook], { cwd: deep }).status, 0);
    assert.ok(Buffer.byteLength(socketOf(deep)) > 107);
    for (const id of ["toolu_deep_1", "toolu_deep_2"]) {
      assert.match(postToolUse(deep, id).stdout, /Observer staged it/u);
      assert.notEqual(findStaged(deep, id), null);
    }
    assert.equal(fs.existsSync(socketOf(deep)), false);
  } finally {
    writeCaptureMode(deep, { on: false, episodeId: null });
    repo.dispose();
  }
});

test("a helper that stops answering never holds the host: the hook answers within its bound and says the result may not be captured", { timeout: 60_000 }, async () => {
  const repo = observingWorkspace();
  const workspace = repo.root;
  const helper = await startHelper(workspace);
  try {
    helper.kill("SIGSTOP");
    const started = Date.now();
    const output = postToolUse(workspace, "toolu_stuck");
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 15_000, `the hook answered after ${elapsed} ms`);
    assert.doesNotMatch(output.stdout, /Observer staged it/u, "nothing claims a capture that was not confirmed");
    assert.match(output.stderr, /may not have been captured: the capture helper did not answer/u);
    // Resumed, the helper finishes the request it held: captured once, never twice.
    helper.kill("SIGCONT");
    await until(() => findStaged(workspace, "toolu_stuck") !== null, "the held request is finished");
    const records = filesUnder(path.join(workspace, ".docket", "evidence")).flatMap((file) => fs.readFileSync(file, "utf8").split("\n").filter((line) => line.includes('"toolCallId":"toolu_stuck"')));
    assert.equal(records.length, 1, "one evidence record for the held call");
  } finally {
    helper.kill("SIGCONT");
    helper.kill("SIGTERM");
    await exited(helper);
    writeCaptureMode(workspace, { on: false, episodeId: null });
    repo.dispose();
  }
});
