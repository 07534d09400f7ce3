// Forged and shipped state files never lift the gate. A checkpoint or tail seed is a cache beside
// the ledger that a process can edit or a repository can commit; the hook believes it for denials
// only, and proves every allowance from the ledger's own last lines and a head anchor bound to the
// ledger file (server/hooks/allowProof.ts). Real hook processes against real Git workspaces.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger, type Clock } from "../../server/workspace/workspaceLedger";
import { checkpointPathFor, lookupCheckpointFile } from "../../server/hooks/checkpoint";
import { tailSeedPathFor } from "../../server/hooks/tailSeed";
import { readHookState } from "../../server/hooks/hookState";
import { anchorPathFor } from "../../server/ledger/anchor";
import { runGit, tempFolder, tempRepo, type TempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const CLI = path.join(repoRoot(), "dist", "docket.js");
const HOOK = path.join(repoRoot(), "dist", "docket-hook.js");

function fixedClock(): Clock {
  let tick = 0;
  return { now: () => new Date(Date.UTC(2031, 0, 1) + 1_000 * tick++).toISOString() };
}

interface Workspace {
  readonly repo: TempRepo;
  readonly ledgerPath: string;
  readonly ledger: WorkspaceLedger;
}

async function workspace(): Promise<Workspace> {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
  const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true, clock: fixedClock() });
  ledger.refresh();
  await ledger.turnOn();
  return { repo, ledgerPath, ledger };
}

async function concluded(ws: Workspace): Promise<void> {
  await ws.ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "What?", obligations: [{ obligationId: "obligation:a", statement: "Settled." }] });
  await ws.ledger.concludeJudgment({ disposition: "not-applicable", reason: "Nothing.", basis: ["Seen."] });
}

async function authorized(ws: Workspace): Promise<void> {
  await concluded(ws);
  await ws.ledger.authorizeChange({ movement: "Rename a.", stableLanding: "a is renamed.", verificationTarget: "Types check." });
}

function bash(cwd: string): "deny" | "allow" {
  const input = JSON.stringify({ session_id: "s", cwd, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "touch pwned" }, tool_use_id: "t" });
  const result = spawnSync(process.execPath, [HOOK, "hook", "--host", "claude", "PreToolUse"], { cwd, input, encoding: "utf8", timeout: 30_000 });
  assert.equal(result.status, 0, result.stderr);
  return /"permissionDecision":"deny"/u.test(result.stdout) ? "deny" : "allow";
}

function statusShell(cwd: string): string {
  const result = spawnSync(process.execPath, [CLI, "status", "--json"], { cwd, encoding: "utf8", timeout: 30_000 });
  return (JSON.parse(result.stdout) as { shell: string }).shell;
}

type CheckpointJson = { ledger: unknown; state: { phase: string; workScopeId: string | null; blockedReason: string | null; facts: Record<string, boolean> } };

function forge(ledgerPath: string, edit: (checkpoint: CheckpointJson) => void): void {
  const file = checkpointPathFor(ledgerPath);
  const checkpoint = JSON.parse(fs.readFileSync(file, "utf8")) as CheckpointJson;
  edit(checkpoint);
  fs.writeFileSync(file, `${JSON.stringify(checkpoint)}\n`);
}

test("a checkpoint edited to claim an authorization, no open scope or a blocked history lifts nothing", async () => {
  const ws = await workspace();
  try {
    await concluded(ws);
    const original = fs.readFileSync(checkpointPathFor(ws.ledgerPath));
    const forgeries: { label: string; edit: (checkpoint: CheckpointJson) => void }[] = [
      { label: "authorizationActive", edit: (c) => ((c.state.facts.authorizationActive = true), (c.state.phase = "editing")) },
      { label: "scopeActive false", edit: (c) => ((c.state.facts.scopeActive = false), (c.state.phase = "off"), (c.state.workScopeId = null)) },
      { label: "blocked without a reason", edit: (c) => (c.state.facts.blocked = true) },
      { label: "authorized, debts cleared", edit: (c) => Object.assign(c.state.facts, { authorizationActive: true, reroutePending: false, verificationPending: false, openFrame: false }) },
    ];
    for (const { label, edit } of forgeries) {
      fs.writeFileSync(checkpointPathFor(ws.ledgerPath), original);
      forge(ws.ledgerPath, edit);
      assert.equal(statusShell(ws.repo.root), "deny", label);
      assert.equal(bash(ws.repo.root), "deny", label);
      assert.equal(fs.existsSync(path.join(ws.repo.root, "pwned")), false);
    }
  } finally {
    ws.repo.dispose();
  }
});

test("a forged tail seed behind a stale checkpoint lifts nothing", async () => {
  const ws = await workspace();
  try {
    await authorized(ws);
    const authorizedCheckpoint = JSON.parse(fs.readFileSync(checkpointPathFor(ws.ledgerPath), "utf8")) as CheckpointJson;
    const authorizedSeed = JSON.parse(fs.readFileSync(tailSeedPathFor(ws.ledgerPath), "utf8")) as Record<string, unknown>;
    ws.repo.write("src/a.ts", "export const renamed = 1;\n");
    await ws.ledger.recordLanding({ result: "Renamed.", verification: [] });
    const afterLanding = JSON.parse(fs.readFileSync(checkpointPathFor(ws.ledgerPath), "utf8")) as { ledger: { lines: number; headLine: { lineSha256: string } } };
    // One more line after the landing, so the restored checkpoint below is behind.
    await ws.ledger.openJudgment({
      purpose: "reroute-decision",
      routeDefinitionId: "route:meaning-settlement",
      question: "Does the landing change the plan?",
      obligations: [{ obligationId: "obligation:next", statement: "The plan still holds." }],
    });
    // The checkpoint is put back one line behind with the *authorized* state, and the seed of the
    // authorized moment is relabelled to that position: a tail reduction starting from it would
    // believe the authorization is still active.
    fs.writeFileSync(checkpointPathFor(ws.ledgerPath), `${JSON.stringify({ ...afterLanding, state: authorizedCheckpoint.state })}\n`);
    fs.writeFileSync(tailSeedPathFor(ws.ledgerPath), `${JSON.stringify({ ...authorizedSeed, lines: afterLanding.ledger.lines, headLineSha256: afterLanding.ledger.headLine.lineSha256 })}\n`);
    assert.equal(lookupCheckpointFile(ws.ledgerPath).kind, "behind");
    assert.equal(statusShell(ws.repo.root), "deny");
    assert.equal(bash(ws.repo.root), "deny");
  } finally {
    ws.repo.dispose();
  }
});

test("an authorized ledger shipped in a repository (with its checkpoint, seed and anchor) is not an authorization here", async () => {
  const ws = await workspace();
  const clone = tempFolder("docket-clone-");
  try {
    await authorized(ws);
    assert.equal(bash(ws.repo.root), "allow", "the authorization made here lets the tool run");
    runGit(ws.repo.root, ["add", "-f", ".docket"]);
    runGit(ws.repo.root, ["commit", "--quiet", "--no-verify", "-m", "ship the whole .docket"]);
    runGit(clone, ["clone", "--quiet", ws.repo.root, "."]);
    for (const file of [checkpointPathFor, tailSeedPathFor, anchorPathFor].map((pathFor) => pathFor(path.join(clone, ".docket", "ledger.jsonl")))) {
      assert.ok(fs.existsSync(file), `${file} arrived with the clone`);
    }
    assert.equal(bash(clone), "deny");
    const state = readHookState(clone, path.join(clone, ".docket", "ledger.jsonl"));
    assert.equal(state.kind, "blocked");
    if (state.kind === "blocked") assert.match(state.reason, /not recorded by Docket on this machine/u);
    // The person who trusts the ledger adopts it; only then does its authorization count here.
    const adopted = spawnSync(process.execPath, [CLI, "ledger", "anchor"], { cwd: clone, encoding: "utf8" });
    assert.equal(adopted.status, 0, adopted.stderr);
    assert.equal(bash(clone), "allow");
  } finally {
    ws.repo.dispose();
    fs.rmSync(clone, { recursive: true, force: true });
  }
});

test("a hook that cannot read the state before its deadline denies", async () => {
  const ws = await workspace();
  try {
    await authorized(ws);
    fs.rmSync(checkpointPathFor(ws.ledgerPath));
    const late = readHookState(ws.repo.root, ws.ledgerPath, { deadline: Date.now() - 1 });
    assert.equal(late.kind, "blocked");
    if (late.kind === "blocked") assert.match(late.reason, /deadline/u);
    const inTime = readHookState(ws.repo.root, ws.ledgerPath, { deadline: Date.now() + 60_000 });
    assert.equal(inTime.kind, "ready");
  } finally {
    ws.repo.dispose();
  }
});

test("deleting the ledger (its head anchor remains) is not turning Docket off: the hook denies", async () => {
  const ws = await workspace();
  try {
    fs.rmSync(ws.ledgerPath);
    assert.equal(bash(ws.repo.root), "deny");
    assert.equal(statusShell(ws.repo.root), "deny");
    // Removing the anchor too is the documented limit of a local anchor: Docket is then off.
    fs.rmSync(anchorPathFor(ws.ledgerPath));
    assert.equal(bash(ws.repo.root), "allow");
  } finally {
    ws.repo.dispose();
  }
});

test("an authorization whose writer died before moving the anchor still counts; a forged announcement does not", async () => {
  const ws = await workspace();
  try {
    await concluded(ws);
    const before = JSON.parse(fs.readFileSync(anchorPathFor(ws.ledgerPath), "utf8")) as Record<string, unknown>;
    await ws.ledger.authorizeChange({ movement: "Rename a.", stableLanding: "a is renamed.", verificationTarget: "Types check." });
    const after = JSON.parse(fs.readFileSync(anchorPathFor(ws.ledgerPath), "utf8")) as { bytes: number; lines: number; head: { lineSha256: string } };
    // What a SIGKILL between the append and the anchor update leaves: the old head, the announced batch.
    const announce = (lineSha256: string): void => {
      fs.writeFileSync(anchorPathFor(ws.ledgerPath), `${JSON.stringify({ ...before, pending: { bytes: after.bytes, lines: after.lines, lineSha256 } })}\n`);
      fs.rmSync(checkpointPathFor(ws.ledgerPath), { force: true });
    };
    announce(after.head.lineSha256);
    assert.equal(bash(ws.repo.root), "allow");
    assert.equal(statusShell(ws.repo.root), "allow");
    // An announcement of another batch vouches for nothing past the anchored head.
    announce("0".repeat(64));
    assert.equal(bash(ws.repo.root), "deny");
    assert.equal(statusShell(ws.repo.root), "deny");
  } finally {
    ws.repo.dispose();
  }
});
