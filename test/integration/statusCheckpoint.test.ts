// `docket status` and `docket policy` answer from the hook checkpoint instead of replaying the
// ledger (docs/performance.md). Whatever that checkpoint holds — current, deleted, behind, edited,
// from another position or another file — they must print exactly what a full replay prints, and an
// edited checkpoint must never make them report another phase than the replay.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger, type Clock } from "../../server/workspace/workspaceLedger";
import { checkpointPolicy } from "../../server/workspace/checkpointPolicy";
import { checkpointPathFor, lookupCheckpointFile, type Checkpoint, type CheckpointState } from "../../server/hooks/checkpoint";
import { sealedCheckpoint } from "../../server/hooks/checkpointSeal";
import { describeHistory } from "../../server/developer/history";
import { turnOffBatch } from "../../server/developer/scopeOperations";
import { LedgerStore } from "../../server/ledger/store";
import type { ToolPolicyResult } from "../../server/protocol/messages";
import { tempRepo, type TempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const cli = path.join(repoRoot(), "dist", "docket.js");
const PHASES = ["off", "deciding", "ready-to-edit", "editing", "rerouting", "verifying", "done", "blocked"] as const;
const OBLIGATIONS = [{ obligationId: "obligation:a", statement: "Settled." }];

function fixedClock(): Clock {
  let tick = 0;
  return { now: () => new Date(Date.UTC(2031, 0, 1) + 1_000 * tick++).toISOString() };
}

function docket(args: readonly string[], cwd: string): string {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8" });
  assert.equal(result.status, 0, `docket ${args.join(" ")}: ${result.stderr}`);
  assert.equal(result.stderr, "");
  return result.stdout;
}

interface Answers {
  readonly status: string;
  readonly statusJson: string;
  readonly policy: string;
  readonly policyJson: string;
}

/**
 * Everything `docket status` and `docket policy` print for the workspace, in both forms;
 * `prepare` runs before each command (a replay repairs the checkpoint it could not use).
 */
function answers(root: string, prepare: () => void = () => undefined): Answers {
  const run = (args: readonly string[]): string => {
    prepare();
    return docket(args, root);
  };
  return { status: run(["status"]), statusJson: run(["status", "--json"]), policy: run(["policy"]), policyJson: run(["policy", "--json"]) };
}

/** The policy a full replay of the ledger gives, read in this process. */
function replayedPolicy(root: string, ledgerPath: string): ToolPolicyResult {
  const ledger = new WorkspaceLedger({ workspaceFolder: root, ledgerPath, trusted: false });
  ledger.refresh();
  return ledger.policy();
}

function readCheckpoint(ledgerPath: string): Checkpoint {
  return JSON.parse(fs.readFileSync(checkpointPathFor(ledgerPath), "utf8")) as Checkpoint;
}

function writeCheckpoint(ledgerPath: string, checkpoint: unknown): void {
  fs.writeFileSync(checkpointPathFor(ledgerPath), `${JSON.stringify(checkpoint)}\n`);
}

/**
 * The CLI's answers with the checkpoint as it is, then (`replayed`) with it deleted, which leaves
 * only a full replay: both must be byte-identical, and the replay leaves a current checkpoint.
 */
function assertAnswersMatchReplay(repo: TempRepo, ledgerPath: string, label: string): Answers {
  const fast = answers(repo.root);
  fs.rmSync(checkpointPathFor(ledgerPath), { force: true });
  const replayed = answers(repo.root);
  assert.deepEqual(fast, replayed, label);
  const expected = replayedPolicy(repo.root, ledgerPath);
  assert.deepEqual(JSON.parse(replayed.policyJson), expected, label);
  const { workspaceFolder, ledgerPath: reported, agents, ...policy } = JSON.parse(replayed.statusJson) as ToolPolicyResult & { workspaceFolder: string; ledgerPath: string; agents: unknown };
  assert.deepEqual(policy, expected, label);
  assert.equal(workspaceFolder, repo.root, label);
  assert.equal(reported, ledgerPath, label);
  assert.ok(Array.isArray(agents), label);
  if (fs.existsSync(ledgerPath)) assert.equal(lookupCheckpointFile(ledgerPath, repo.root).kind, "current", `${label}: the replay rewrote the checkpoint`);
  return replayed;
}

test("across a whole cycle the checkpoint's answer is the replay's, byte for byte, and the checkpoint answers without a replay", async () => {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  try {
    const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
    const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true, clock: fixedClock() });
    ledger.refresh();
    const steps: { label: string; act: () => Promise<unknown> }[] = [
      { label: "never on", act: async () => undefined },
      { label: "on", act: () => ledger.turnOn() },
      { label: "frame open", act: () => ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "What?", obligations: OBLIGATIONS }) },
      { label: "concluded", act: () => ledger.concludeJudgment({ disposition: "not-applicable", reason: "Nothing.", basis: ["Seen."] }) },
      { label: "authorized", act: () => ledger.authorizeChange({ movement: "M.", stableLanding: "S.", verificationTarget: "V." }) },
      {
        label: "landed",
        act: () => {
          repo.write("src/a.ts", "export const a = 2;\n");
          return ledger.recordLanding({ changedPaths: ["src/a.ts"], result: "Changed a.", verification: ["npm test"] });
        },
      },
      { label: "reroute frame", act: () => ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "Reroute?", obligations: OBLIGATIONS }) },
      {
        label: "reroute concluded",
        act: () => ledger.concludeJudgment({ disposition: "judgment", outcome: { kind: "contextual-judgment", rationale: "Holds.", artifact: "No reroute.", stopEvidence: ["Matches."] } }),
      },
      {
        label: "verification frame",
        act: () => ledger.openJudgment({ purpose: "verification-decision", routeDefinitionId: "route:claim-evidence-assessment", question: "Verified?", obligations: OBLIGATIONS }),
      },
      { label: "verified", act: () => ledger.concludeJudgment({ disposition: "not-applicable", reason: "Verified.", basis: ["npm test passed."] }) },
      { label: "off", act: () => ledger.turnOff("Done.") },
    ];
    const phases: string[] = [];
    for (const step of steps) {
      await step.act();
      // A writer left a current, sealed checkpoint (or there is no ledger at all): it answers alone.
      const fromCheckpoint = checkpointPolicy(repo.root, ledgerPath);
      assert.notEqual(fromCheckpoint, null, `${step.label}: the checkpoint answers`);
      assert.deepEqual(fromCheckpoint, replayedPolicy(repo.root, ledgerPath), step.label);
      const replayed = assertAnswersMatchReplay(repo, ledgerPath, step.label);
      phases.push((JSON.parse(replayed.policyJson) as ToolPolicyResult).phase);
    }
    assert.deepEqual(phases, ["off", "deciding", "deciding", "ready-to-edit", "editing", "rerouting", "rerouting", "verifying", "verifying", "done", "off"]);
  } finally {
    repo.dispose();
  }
});

async function workspaceAt(stop: "deciding" | "editing" | "done"): Promise<{ repo: TempRepo; ledgerPath: string; ledger: WorkspaceLedger }> {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
  const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true, clock: fixedClock() });
  ledger.refresh();
  await ledger.turnOn();
  if (stop === "deciding") return { repo, ledgerPath, ledger };
  await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "What?", obligations: OBLIGATIONS });
  await ledger.concludeJudgment({ disposition: "not-applicable", reason: "Nothing.", basis: ["Seen."] });
  await ledger.authorizeChange({ movement: "M.", stableLanding: "S.", verificationTarget: "V." });
  if (stop === "editing") return { repo, ledgerPath, ledger };
  repo.write("src/a.ts", "export const a = 2;\n");
  await ledger.recordLanding({ changedPaths: ["src/a.ts"], result: "Changed a.", verification: [] });
  await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "Reroute?", obligations: OBLIGATIONS });
  await ledger.concludeJudgment({ disposition: "judgment", outcome: { kind: "contextual-judgment", rationale: "Holds.", artifact: "No reroute.", stopEvidence: ["Matches."] } });
  await ledger.openJudgment({ purpose: "verification-decision", routeDefinitionId: "route:claim-evidence-assessment", question: "Verified?", obligations: OBLIGATIONS });
  await ledger.concludeJudgment({ disposition: "not-applicable", reason: "Verified.", basis: ["Read it."] });
  return { repo, ledgerPath, ledger };
}

/** Each field of the state changed by hand, one at a time, and everything at once. */
function editedStates(state: CheckpointState): CheckpointState[] {
  const edits: CheckpointState[] = PHASES.filter((phase) => phase !== state.phase).map((phase) => ({ ...state, phase }));
  for (const fact of Object.keys(state.facts) as (keyof CheckpointState["facts"])[]) {
    edits.push({ ...state, facts: { ...state.facts, [fact]: !state.facts[fact] } });
  }
  edits.push({ ...state, workScopeId: state.workScopeId === null ? "scope:forged" : null });
  edits.push({ ...state, purpose: state.purpose === "verification-decision" ? "work-decision" : "verification-decision" });
  edits.push({ blockedReason: null, phase: "off", workScopeId: null, purpose: null, facts: { blocked: false, scopeActive: false, authorizationActive: false, openFrame: false, concludedFrameExists: false, reroutePending: false, verificationPending: false } });
  return edits;
}

for (const stop of ["deciding", "editing", "done"] as const) {
  test(`${stop}: an edited checkpoint never changes the reported phase or policy; the replay answers and repairs it`, async () => {
    const { repo, ledgerPath } = await workspaceAt(stop);
    try {
      const truth = replayedPolicy(repo.root, ledgerPath);
      assert.equal(truth.phase, stop);
      const genuine = readCheckpoint(ledgerPath);
      const expected = assertAnswersMatchReplay(repo, ledgerPath, "genuine");
      const edits = editedStates(genuine.state).map((state) => ({ ...genuine, state }));
      // The genuine seal beside another position of the ledger (e.g. a state moved from an older checkpoint).
      edits.push({ ...genuine, ledger: { ...genuine.ledger, lines: genuine.ledger.lines + 1 } });
      for (const [index, edited] of edits.entries()) {
        const tamper = (): void => writeCheckpoint(ledgerPath, edited);
        tamper();
        assert.equal(checkpointPolicy(repo.root, ledgerPath), null, `edit ${index}: an edited checkpoint does not answer`);
        // Both commands read the checkpoint through checkpointPolicy (null above); status in both forms here.
        tamper();
        const statusJson = docket(["status", "--json"], repo.root);
        assert.equal(statusJson, expected.statusJson, `edit ${index}`);
        assert.equal((JSON.parse(statusJson) as ToolPolicyResult).phase, stop, `edit ${index}`);
        tamper();
        assert.equal(docket(["status"], repo.root), expected.status, `edit ${index}`);
      }
      // Not a checkpoint at all, or one of the previous format.
      for (const [label, bytes] of [
        ["garbage", "{not json"],
        ["empty", ""],
        ["previous format", JSON.stringify({ format: "docket/hook-checkpoint/v2", ledger: genuine.ledger, state: genuine.state })],
      ] as const) {
        assert.deepEqual(answers(repo.root, () => fs.writeFileSync(checkpointPathFor(ledgerPath), bytes)), expected, label);
      }
      // Each replay above left the genuine checkpoint behind it.
      assert.deepEqual(readCheckpoint(ledgerPath), genuine);
    } finally {
      repo.dispose();
    }
  });
}

test("a resealed checkpoint that claims tools may run is disproven by the ledger's own last lines", async () => {
  for (const stop of ["deciding", "done"] as const) {
    const { repo, ledgerPath } = await workspaceAt(stop);
    try {
      const expected = assertAnswersMatchReplay(repo, ledgerPath, stop);
      const genuine = readCheckpoint(ledgerPath);
      const claims: CheckpointState[] = [
        { ...genuine.state, phase: "editing", facts: { ...genuine.state.facts, authorizationActive: true, openFrame: false, reroutePending: false, verificationPending: false } },
        { blockedReason: null, phase: "off", workScopeId: null, purpose: null, facts: { ...genuine.state.facts, scopeActive: false, authorizationActive: false } },
      ];
      for (const [index, state] of claims.entries()) {
        const forge = (): void => writeCheckpoint(ledgerPath, sealedCheckpoint(genuine.ledger, state));
        forge();
        assert.equal(checkpointPolicy(repo.root, ledgerPath), null, `${stop} claim ${index}`);
        assert.deepEqual(answers(repo.root, forge), expected, `${stop} claim ${index}`);
      }
    } finally {
      repo.dispose();
    }
  }
});

test("a checkpoint behind the ledger, or a ledger copied over the original, is answered by the replay", async () => {
  const { repo, ledgerPath } = await workspaceAt("deciding");
  try {
    const deciding = assertAnswersMatchReplay(repo, ledgerPath, "deciding");
    assert.equal((JSON.parse(deciding.policyJson) as ToolPolicyResult).shell, "deny");
    // Behind: a bare writer appends without moving the checkpoint (an older Docket, or a crash).
    const saved = fs.readFileSync(checkpointPathFor(ledgerPath));
    const bare = new LedgerStore(ledgerPath);
    await bare.append((store) => ({ drafts: turnOffBatch(describeHistory(store.replayer), "Closed by a bare writer.", "2031-02-01T00:00:00.000Z").drafts, context: null }));
    const restore = (): void => fs.writeFileSync(checkpointPathFor(ledgerPath), saved);
    restore();
    assert.equal(lookupCheckpointFile(ledgerPath, repo.root).kind, "behind");
    assert.equal(checkpointPolicy(repo.root, ledgerPath), null);
    const behind = answers(repo.root, restore);
    assert.equal((JSON.parse(behind.policyJson) as ToolPolicyResult).phase, "off");
    assert.deepEqual(behind, assertAnswersMatchReplay(repo, ledgerPath, "behind"));
  } finally {
    repo.dispose();
  }
  // The same bytes in another file (a restored or cloned ledger): the checkpoint and the anchor
  // describe the original file, so the authorization is no longer vouched for here.
  const copied = await workspaceAt("editing");
  try {
    const authorized = assertAnswersMatchReplay(copied.repo, copied.ledgerPath, "authorized");
    assert.equal((JSON.parse(authorized.policyJson) as ToolPolicyResult).shell, "allow");
    // Copied beside the original first, so the copy cannot reuse the original's inode.
    const original = fs.statSync(copied.ledgerPath).ino;
    fs.copyFileSync(copied.ledgerPath, `${copied.ledgerPath}.copy`);
    fs.renameSync(`${copied.ledgerPath}.copy`, copied.ledgerPath);
    assert.notEqual(fs.statSync(copied.ledgerPath).ino, original);
    assert.equal(checkpointPolicy(copied.repo.root, copied.ledgerPath), null);
    const replayed = answers(copied.repo.root);
    const policy = JSON.parse(replayed.policyJson) as ToolPolicyResult;
    assert.deepEqual(policy, replayedPolicy(copied.repo.root, copied.ledgerPath));
    assert.equal(policy.shell, "deny");
    assert.match(policy.reason ?? "", /not recorded by Docket on this machine/u);
  } finally {
    copied.repo.dispose();
  }
});
