// The hooks' fast path: the checkpoint writers refresh under the ledger lock, how a hook verifies
// it against the ledger's bytes, and what happens when it is behind, torn, tampered or garbage.
// Also: a held ledger lock never stalls a hook, and the heartbeat file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger, type Clock } from "../../server/workspace/workspaceLedger";
import { runtimeFacts } from "../../server/developer/history";
import { turnOffBatch } from "../../server/developer/scopeOperations";
import { withExclusiveLock } from "../../server/ledger/lock";
import { LedgerStore } from "../../server/ledger/store";
import { checkpointPathFor, lookupCheckpointFile } from "../../server/hooks/checkpoint";
import { readHookState } from "../../server/hooks/hookState";
import { readHeartbeats, recordHeartbeat, heartbeatPath } from "../../server/hooks/heartbeat";
import { describeHistory } from "../../server/developer/history";
import { tempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const HOOK_BUNDLE = path.join(repoRoot(), "dist", "docket-hook.js");

function fixedClock(): Clock {
  let tick = 0;
  return { now: () => new Date(Date.UTC(2031, 0, 1) + 1_000 * tick++).toISOString() };
}

async function onWorkspace(): Promise<{ root: string; ledgerPath: string; ledger: WorkspaceLedger; dispose: () => void }> {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
  const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true, clock: fixedClock() });
  ledger.refresh();
  await ledger.turnOn();
  return { root: repo.root, ledgerPath, ledger, dispose: () => repo.dispose() };
}

function hookState(root: string, ledgerPath: string): ReturnType<typeof readHookState> {
  return readHookState(root, ledgerPath);
}

test("every write refreshes the checkpoint under the lock, and it matches a full replay at each step", async () => {
  const { root, ledgerPath, ledger, dispose } = await onWorkspace();
  try {
    const check = (label: string): void => {
      const lookup = lookupCheckpointFile(ledgerPath);
      assert.equal(lookup.kind, "current", label);
      const state = hookState(root, ledgerPath);
      assert.equal(state.kind, "ready", label);
      if (state.kind !== "ready") return;
      assert.equal(state.source, "checkpoint", label);
      assert.deepEqual(state.state.facts, runtimeFacts(ledger.history()), label);
      assert.equal(state.state.phase, ledger.policy().phase, label);
    };
    check("on");
    await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "What?", obligations: [{ obligationId: "obligation:a", statement: "Settled." }] });
    check("frame open");
    await ledger.concludeJudgment({ disposition: "not-applicable", reason: "Nothing.", basis: ["Seen."] });
    check("concluded");
    await ledger.authorizeChange({ movement: "M.", stableLanding: "S.", verificationTarget: "V." });
    check("authorized");
  } finally {
    dispose();
  }
});

test("a torn tail keeps the checkpoint current; complete lines appended past it are reduced from the checkpoint, which moves up", async () => {
  const { root, ledgerPath, ledger, dispose } = await onWorkspace();
  try {
    fs.appendFileSync(ledgerPath, '{"ledger":"docket/ledger-li');
    assert.equal(lookupCheckpointFile(ledgerPath).kind, "current");
    // A writer without the checkpoint hook (an older Docket) appends a turn-off.
    const bare = new LedgerStore(ledgerPath);
    await bare.append((store) => ({ drafts: turnOffBatch(describeHistory(store.replayer), "Bare writer.", "2031-02-01T00:00:00.000Z").drafts, context: null }));
    assert.equal(lookupCheckpointFile(ledgerPath).kind, "behind");
    const replayed = hookState(root, ledgerPath);
    assert.equal(replayed.kind, "ready");
    if (replayed.kind === "ready") {
      assert.equal(replayed.source, "tail");
      assert.equal(replayed.state.facts.scopeActive, false);
    }
    const again = hookState(root, ledgerPath);
    assert.equal(again.kind === "ready" ? again.source : again.kind, "checkpoint", "the tail reduction moved the checkpoint");
    ledger.refresh();
    assert.equal(ledger.history().activeScope, null);
  } finally {
    dispose();
  }
});

test("a tampered head line, a garbage checkpoint or a shortened ledger is never trusted", async () => {
  const { root, ledgerPath, dispose } = await onWorkspace();
  try {
    const original = fs.readFileSync(ledgerPath);
    fs.writeFileSync(checkpointPathFor(ledgerPath), "not json");
    assert.equal(lookupCheckpointFile(ledgerPath).kind, "unusable");
    const rebuilt = hookState(root, ledgerPath);
    assert.equal(rebuilt.kind === "ready" ? rebuilt.source : rebuilt.kind, "replay");
    assert.equal(lookupCheckpointFile(ledgerPath).kind, "current");

    // Same length, one byte changed inside the head line: the checkpoint no longer matches, and
    // the replay finds the broken hash, so the hook fails closed.
    const tampered = Buffer.from(original);
    const at = tampered.indexOf("work-scope-opened");
    assert.ok(at > 0);
    tampered[at] = "W".charCodeAt(0);
    fs.writeFileSync(ledgerPath, tampered);
    assert.equal(lookupCheckpointFile(ledgerPath).kind, "unusable");
    const blocked = hookState(root, ledgerPath);
    assert.equal(blocked.kind, "blocked");
    if (blocked.kind === "blocked") assert.match(blocked.reason, /ledger line 1: ledger-line-/u);

    fs.writeFileSync(ledgerPath, original.subarray(0, 10));
    assert.equal(lookupCheckpointFile(ledgerPath).kind, "unusable");
    fs.rmSync(ledgerPath);
    // Deleting the ledger is cutting every line: its head anchor remains, so the hook fails closed.
    const deleted = hookState(root, ledgerPath);
    assert.equal(deleted.kind, "blocked", "a deleted ledger whose anchor remains");
    if (deleted.kind === "blocked") assert.match(deleted.reason, /head anchor records 1 lines/u);
    fs.rmSync(`${ledgerPath}.anchor`);
    assert.equal(hookState(root, ledgerPath).kind, "off", "no ledger and no anchor: Docket is off");
  } finally {
    dispose();
  }
});

test("a ledger lock held by another writer never stalls a hook (hooks only read)", async () => {
  const { root, ledgerPath, dispose } = await onWorkspace();
  try {
    const input = JSON.stringify({ session_id: "s", cwd: root, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t" });
    // Replay path too: without a checkpoint the hook replays, still without the lock.
    fs.rmSync(checkpointPathFor(ledgerPath));
    const result = await withExclusiveLock(`${ledgerPath}.lock`, () => {
      const started = Date.now();
      const child = spawnSync(process.execPath, [HOOK_BUNDLE, "hook", "--host", "claude", "PreToolUse"], { input, cwd: root, encoding: "utf8", timeout: 15_000 });
      return { child, ms: Date.now() - started };
    });
    assert.equal(result.child.status, 0, result.child.stderr);
    assert.match(result.child.stdout, /"permissionDecision":"deny"/u);
    assert.ok(result.ms < 10_000, `answered in ${result.ms} ms`);
  } finally {
    dispose();
  }
});

test("heartbeat: the latest call per host, best effort, tolerant of a damaged file", async () => {
  const { root, dispose } = await onWorkspace();
  try {
    assert.deepEqual(readHeartbeats(root), []);
    const session = "0d5b1c7e-3f2a-4c1e-9b7d-2a6f8e4c1d3b";
    const input = JSON.stringify({ sessionId: session, hookEventName: "SessionStart", cwd: root });
    const child = spawnSync(process.execPath, [HOOK_BUNDLE, "hook", "--host", "claude", "SessionStart"], { input, cwd: root, encoding: "utf8" });
    assert.equal(child.status, 0, child.stderr);
    const beats = readHeartbeats(root);
    assert.deepEqual(
      beats.map((beat) => [beat.host, beat.event, beat.sessionId]),
      [["vscode", "SessionStart", session]],
    );
    // A session id that is not a host's UUID (it could be anything, a secret included) is not written.
    recordHeartbeat(root, { host: "vscode", event: "Stop", sessionId: "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", at: "2031-01-01T00:00:00.000Z" });
    assert.equal(readHeartbeats(root)[0]?.sessionId, null);
    assert.equal(fs.readFileSync(heartbeatPath(root), "utf8").includes("ghp_"), false);
    recordHeartbeat(root, { host: "codex", event: "PreToolUse", sessionId: null, at: "2031-01-01T00:00:00.000Z" });
    assert.deepEqual(readHeartbeats(root).map((beat) => beat.host), ["codex", "vscode"]);
    fs.writeFileSync(heartbeatPath(root), "{broken");
    assert.deepEqual(readHeartbeats(root), []);
    recordHeartbeat(root, { host: "claude", event: "Stop", sessionId: "c", at: "2031-01-01T00:00:01.000Z" });
    assert.deepEqual(readHeartbeats(root).map((beat) => beat.host), ["claude"], "a damaged file is replaced");
  } finally {
    dispose();
  }
});

test("oversized hook input is refused unread: exit 1 for events that never block, a deny for PreToolUse; nothing written", async () => {
  const { root, ledgerPath, dispose } = await onWorkspace();
  try {
    const before = fs.readFileSync(ledgerPath);
    const huge = JSON.stringify({ session_id: "s", cwd: root, tool_name: "Bash", tool_use_id: "t", tool_response: "x".repeat(5 * 1024 * 1024) });
    const child = spawnSync(process.execPath, [HOOK_BUNDLE, "hook", "--host", "claude", "PostToolUse"], { input: huge, cwd: root, encoding: "utf8" });
    assert.equal(child.status, 1);
    assert.equal(child.stdout, "");
    assert.match(child.stderr, /too-large/u);
    assert.deepEqual(fs.readFileSync(ledgerPath), before);
    const usage = spawnSync(process.execPath, [HOOK_BUNDLE, "hook", "--host", "cursor", "Stop"], { input: "{}", cwd: root, encoding: "utf8" });
    assert.equal(usage.status, 1, "a usage mistake never exits 2, which Claude and VS Code treat as a block");
    assert.equal(usage.stdout, "");
    // A PreToolUse that cannot be decided is never let through while Docket gates: a coded deny, exit 0.
    const gated = spawnSync(process.execPath, [HOOK_BUNDLE, "hook", "--host", "cursor", "PreToolUse"], { input: "{}", cwd: root, encoding: "utf8" });
    assert.equal(gated.status, 0);
    assert.match(gated.stdout, /"permissionDecision":"deny".*docket\.usage/u);
    const tooLarge = spawnSync(process.execPath, [HOOK_BUNDLE, "hook", "--host", "claude", "--workspace", root, "PreToolUse"], { input: huge, cwd: root, encoding: "utf8" });
    assert.equal(tooLarge.status, 0);
    assert.match(tooLarge.stdout, /"permissionDecision":"deny".*docket\.hook-input-invalid/u);
    assert.deepEqual(fs.readFileSync(ledgerPath), before);
  } finally {
    dispose();
  }
});
