// Checkpoint plus tail: when the hook checkpoint is behind the ledger (a crash between append and
// checkpoint write, or lines written by an older Docket), a hook reduces only the lines after it,
// from the checkpoint's tail seed, and must answer exactly what a full replay answers — including
// blocked histories — falling back to a full replay only when the tail reaches outside the seed.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger, type Clock } from "../../server/workspace/workspaceLedger";
import { describeHistory } from "../../server/developer/history";
import { scopeOpenedDraft, turnOffBatch } from "../../server/developer/scopeOperations";
import { createEnvelope } from "../../server/ledger/envelope";
import { DEVELOPER_STREAM, encodeLedgerLine } from "../../server/ledger/ledgerLine";
import { LedgerStore } from "../../server/ledger/store";
import { checkpointPathFor, lookupCheckpointFile } from "../../server/hooks/checkpoint";
import { anchorPathFor } from "../../server/ledger/anchor";
import { readHookState } from "../../server/hooks/hookState";
import { appendRaw, comparable, fullReplay } from "../support/hookStateOracle";
import { tailSeedPathFor } from "../../server/hooks/tailSeed";
import { tempRepo } from "../support/gitRepo";

function fixedClock(): Clock {
  let tick = 0;
  return { now: () => new Date(Date.UTC(2031, 0, 1) + 1_000 * tick++).toISOString() };
}

interface Saved {
  readonly label: string;
  readonly checkpoint: Buffer;
  readonly seed: Buffer;
  /** The head anchor belongs to the same position: a restored ledger gets its anchor back too. */
  readonly anchor: Buffer;
}

async function onWorkspace(): Promise<{ root: string; ledgerPath: string; ledger: WorkspaceLedger; save: (label: string) => Saved; dispose: () => void }> {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
  const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true, clock: fixedClock() });
  ledger.refresh();
  await ledger.turnOn();
  const save = (label: string): Saved => ({ label, checkpoint: fs.readFileSync(checkpointPathFor(ledgerPath)), seed: fs.readFileSync(tailSeedPathFor(ledgerPath)), anchor: fs.readFileSync(anchorPathFor(ledgerPath)) });
  return { root: repo.root, ledgerPath, ledger, save, dispose: () => repo.dispose() };
}

function restore(ledgerPath: string, saved: Saved): void {
  fs.writeFileSync(checkpointPathFor(ledgerPath), saved.checkpoint);
  fs.writeFileSync(tailSeedPathFor(ledgerPath), saved.seed);
  fs.writeFileSync(anchorPathFor(ledgerPath), saved.anchor);
}

test("a checkpoint any number of lines behind is caught up from its seed, equal to a full replay, then advanced", async () => {
  const { root, ledgerPath, ledger, save, dispose } = await onWorkspace();
  try {
    const saved: Saved[] = [save("on")];
    await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "What?", obligations: [{ obligationId: "obligation:a", statement: "Settled." }] });
    saved.push(save("frame open"));
    await ledger.concludeJudgment({ disposition: "not-applicable", reason: "Nothing.", basis: ["Seen."] });
    saved.push(save("concluded"));
    await ledger.authorizeChange({ movement: "M.", stableLanding: "S.", verificationTarget: "V." });
    saved.push(save("authorized"));
    fs.writeFileSync(path.join(root, "src", "a.ts"), "export const a = 2;\n");
    await ledger.recordLanding({ changedPaths: ["src/a.ts"], result: "Changed a.", verification: ["npm test"] });
    saved.push(save("landed"));
    await ledger.turnOff("Done for today.");
    await ledger.turnOn();
    await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "Next?", obligations: [{ obligationId: "obligation:b", statement: "Settled." }] });
    const expected = fullReplay(ledgerPath);
    assert.equal(expected.kind, "ready");
    const finalCheckpoint = fs.readFileSync(checkpointPathFor(ledgerPath));
    for (const entry of saved) {
      restore(ledgerPath, entry);
      assert.equal(lookupCheckpointFile(ledgerPath).kind, "behind", entry.label);
      const caughtUp = readHookState(root, ledgerPath);
      assert.equal(caughtUp.kind === "ready" ? caughtUp.source : caughtUp.kind, "tail", entry.label);
      assert.deepEqual(comparable(caughtUp), expected, entry.label);
      // The hook moved the checkpoint to the end: the next call reads no tail.
      assert.equal(lookupCheckpointFile(ledgerPath).kind, "current", entry.label);
      const next = readHookState(root, ledgerPath);
      assert.equal(next.kind === "ready" ? next.source : next.kind, "checkpoint", entry.label);
      assert.deepEqual(comparable(next), expected, entry.label);
      assert.deepEqual(JSON.parse(fs.readFileSync(checkpointPathFor(ledgerPath), "utf8")), JSON.parse(finalCheckpoint.toString("utf8")), entry.label);
    }
    // The advanced seed serves the next writer-less tail too.
    const bare = new LedgerStore(ledgerPath);
    await bare.append((store) => ({ drafts: turnOffBatch(describeHistory(store.replayer), "Bare writer.", "2031-02-01T00:00:00.000Z").drafts, context: null }));
    const off = readHookState(root, ledgerPath);
    assert.equal(off.kind === "ready" ? off.source : off.kind, "tail");
    assert.deepEqual(comparable(off), fullReplay(ledgerPath));
    if (off.kind === "ready") assert.equal(off.state.phase, "off");
  } finally {
    dispose();
  }
});

test("a rejected entry, a broken line or non-UTF-8 bytes in the tail block the hook with the full replay's reason", async () => {
  const { root, ledgerPath, save, dispose } = await onWorkspace();
  try {
    const saved = save("on");
    const original = fs.readFileSync(ledgerPath);
    const cases: { label: string; damage: () => void }[] = [
      { label: "invalid envelope", damage: () => appendRaw(ledgerPath, [{ not: "an envelope" }]) },
      {
        label: "second open scope",
        damage: () => appendRaw(ledgerPath, [createEnvelope(scopeOpenedDraft("scope:tail-second", "2031-03-01T00:00:00.000Z"))]),
      },
      {
        label: "broken chain",
        damage: () => {
          const store = new LedgerStore(ledgerPath);
          store.refresh();
          fs.appendFileSync(ledgerPath, encodeLedgerLine(store.lineCount, "0".repeat(64), DEVELOPER_STREAM, { x: 1 }).text);
        },
      },
      { label: "not UTF-8", damage: () => fs.appendFileSync(ledgerPath, Buffer.from([0xff, 0xfe, 0x0a])) },
    ];
    for (const { label, damage } of cases) {
      fs.writeFileSync(ledgerPath, original);
      restore(ledgerPath, saved);
      damage();
      const expected = fullReplay(ledgerPath);
      assert.equal(expected.kind, "blocked", label);
      const state = readHookState(root, ledgerPath);
      assert.deepEqual(comparable(state), expected, label);
      // A blocked answer never advances the checkpoint past the damage.
      assert.equal(lookupCheckpointFile(ledgerPath).kind, "behind", label);
    }
  } finally {
    dispose();
  }
});

test("a tail the seed cannot answer falls back to one full replay with the same answer", async () => {
  const { root, ledgerPath, ledger, save, dispose } = await onWorkspace();
  try {
    await ledger.turnOff("First scope closed.");
    const closed = new LedgerStore(ledgerPath);
    closed.refresh();
    const firstOpened = closed.replayer.accepted[0]?.envelope;
    assert.ok(firstOpened !== undefined);
    const saved = save("off");
    const original = fs.readFileSync(ledgerPath);
    const cases: { label: string; damage: () => void }[] = [
      // The same scope id again: only the full history knows it is closed.
      { label: "reopened closed scope", damage: () => appendRaw(ledgerPath, [createEnvelope(scopeOpenedDraft(firstOpened.workScopeId, "2031-03-01T00:00:00.000Z"))]) },
      { label: "no seed", damage: () => fs.rmSync(tailSeedPathFor(ledgerPath)) },
    ];
    for (const { label, damage } of cases) {
      fs.writeFileSync(ledgerPath, original);
      restore(ledgerPath, saved);
      const bare = new LedgerStore(ledgerPath);
      await bare.append((store) => ({ drafts: [scopeOpenedDraft(`scope:tail-${label.length}`, "2031-02-01T00:00:00.000Z")], context: null }));
      damage();
      const expected = fullReplay(ledgerPath);
      const state = readHookState(root, ledgerPath);
      assert.equal(state.kind === "ready" ? state.source : "replay", "replay", label);
      assert.deepEqual(comparable(state), expected, label);
    }
  } finally {
    dispose();
  }
});
