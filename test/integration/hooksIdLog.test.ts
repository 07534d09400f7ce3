// The id log beside the ledger (`<ledger>.ids`): a hook or a writer reducing the lines after a
// checkpoint proves each id new against the prefix the tail seed binds. A missing, truncated,
// foreign or altered log must make it replay in full (same answer), a log longer than the seed
// must still serve, a duplicate id must be rejected exactly as a full replay rejects it, and every
// writer — full replay, hook catching up, writer from the snapshot — must write the same bytes.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger, type Clock } from "../../server/workspace/workspaceLedger";
import { scopeOpenedDraft } from "../../server/developer/scopeOperations";
import { createEnvelope, type Envelope } from "../../server/ledger/envelope";
import { LedgerStore } from "../../server/ledger/store";
import { anchorPathFor } from "../../server/ledger/anchor";
import { checkpointPathFor, lookupCheckpointFile } from "../../server/hooks/checkpoint";
import { writeCheckpoint } from "../../server/hooks/checkpointState";
import { readHookState, type HookState } from "../../server/hooks/hookState";
import { appendRaw, comparable, fullReplay } from "../support/hookStateOracle";
import { idLogPathFor } from "../../server/hooks/idLog";
import { tailSeedPathFor } from "../../server/hooks/tailSeed";
import { tempRepo } from "../support/gitRepo";

function fixedClock(start = 0): Clock {
  let tick = start;
  return { now: () => new Date(Date.UTC(2031, 0, 1) + 1_000 * tick++).toISOString() };
}

const obligations = [{ obligationId: "obligation:a", statement: "Settled." }];

interface Workspace {
  readonly root: string;
  readonly ledgerPath: string;
  readonly ledger: WorkspaceLedger;
  dispose(): void;
}

/** On, one scope closed, a second opened with a frame: ids in closed and open scopes. */
async function workspace(clockStart = 0): Promise<Workspace> {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
  const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true, clock: fixedClock(clockStart) });
  ledger.refresh();
  await ledger.turnOn();
  await ledger.turnOff("First scope closed.");
  await ledger.turnOn();
  await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "What?", obligations });
  return { root: repo.root, ledgerPath, ledger, dispose: () => repo.dispose() };
}

/** The files a checkpoint position consists of, to put back. */
function saveState(ledgerPath: string): () => void {
  const files = [checkpointPathFor(ledgerPath), tailSeedPathFor(ledgerPath), anchorPathFor(ledgerPath), idLogPathFor(ledgerPath)];
  const saved = files.map((file) => [file, fs.readFileSync(file)] as const);
  const ledger = fs.readFileSync(ledgerPath);
  return () => {
    fs.writeFileSync(ledgerPath, ledger);
    for (const [file, bytes] of saved) fs.writeFileSync(file, bytes);
  };
}

function acceptedEnvelopes(ledgerPath: string): Envelope[] {
  const store = new LedgerStore(ledgerPath);
  store.refresh();
  return store.replayer.accepted.map((accepted) => accepted.envelope);
}

/** Lines a writer appended without moving the checkpoint (it died before). */
async function bareAppend(ledgerPath: string, question: string): Promise<void> {
  const writer = new WorkspaceLedger({ workspaceFolder: path.dirname(path.dirname(ledgerPath)), ledgerPath, trusted: true, clock: fixedClock(500) });
  writer.refresh();
  const keep = saveState(ledgerPath);
  await writer.concludeJudgment({ disposition: "not-applicable", reason: "Nothing.", basis: [question] });
  const ledger = fs.readFileSync(ledgerPath);
  keep();
  fs.writeFileSync(ledgerPath, ledger);
  // The anchor follows the ledger (a writer moves it before its checkpoint).
  const store = new LedgerStore(ledgerPath);
  store.refresh();
  assert.equal(store.fault, null);
}

function sourceOf(state: HookState): string {
  return state.kind === "ready" ? state.source : state.kind;
}

/** The id log a full replay writes for the ledger as it is now. */
function idLogOfFullReplay(ledgerPath: string): Buffer {
  const scratch = fs.mkdtempSync(path.join(path.dirname(ledgerPath), "full-"));
  const copyPath = path.join(scratch, "ledger.jsonl");
  fs.copyFileSync(ledgerPath, copyPath);
  const store = new LedgerStore(copyPath, { root: path.dirname(path.dirname(ledgerPath)) });
  store.refresh();
  assert.ok(writeCheckpoint(store));
  const bytes = fs.readFileSync(idLogPathFor(copyPath));
  fs.rmSync(scratch, { recursive: true, force: true });
  return bytes;
}

test("a missing, truncated, foreign or altered id log makes the hook replay with the same answer; a longer one still serves", async () => {
  const ws = await workspace();
  // Ids name the time of each write: another clock, another history.
  const other = await workspace(10_000);
  try {
    const restore = saveState(ws.ledgerPath);
    const idLog = idLogPathFor(ws.ledgerPath);
    const original = fs.readFileSync(idLog);
    // Header and one fingerprint per accepted event id and per scope id.
    assert.equal(original.length, 8 + 8 * (acceptedEnvelopes(ws.ledgerPath).length + 2));
    assert.deepEqual(original, idLogOfFullReplay(ws.ledgerPath), "the writers' log is the full replay's");
    const cases: { label: string; damage: () => void; source: "tail" | "replay" }[] = [
      { label: "untouched", damage: () => undefined, source: "tail" },
      { label: "missing", damage: () => fs.rmSync(idLog), source: "replay" },
      { label: "truncated by one fingerprint", damage: () => fs.writeFileSync(idLog, original.subarray(0, original.length - 8)), source: "replay" },
      { label: "only its header", damage: () => fs.writeFileSync(idLog, original.subarray(0, 8)), source: "replay" },
      { label: "foreign (another workspace's)", damage: () => fs.copyFileSync(idLogPathFor(other.ledgerPath), idLog), source: "replay" },
      {
        label: "one fingerprint altered",
        damage: () => {
          const altered = Buffer.from(original);
          altered[8 + 8 * 3] = (altered[8 + 8 * 3] as number) ^ 1;
          fs.writeFileSync(idLog, altered);
        },
        source: "replay",
      },
      { label: "another header", damage: () => fs.writeFileSync(idLog, Buffer.concat([Buffer.from("DKIDS\u00002\n", "latin1"), original.subarray(8)])), source: "replay" },
      { label: "a directory", damage: () => (fs.rmSync(idLog), fs.mkdirSync(idLog)), source: "replay" },
      { label: "longer than the seed", damage: () => fs.appendFileSync(idLog, Buffer.alloc(8 * 5, 0xab)), source: "tail" },
    ];
    for (const { label, damage, source } of cases) {
      fs.rmSync(idLog, { recursive: true, force: true });
      restore();
      await bareAppend(ws.ledgerPath, label);
      assert.equal(lookupCheckpointFile(ws.ledgerPath).kind, "behind", label);
      damage();
      const expected = fullReplay(ws.ledgerPath);
      const state = readHookState(ws.root, ws.ledgerPath);
      assert.equal(sourceOf(state), source, label);
      assert.deepEqual(comparable(state), expected, label);
      assert.equal(lookupCheckpointFile(ws.ledgerPath).kind, "current", label);
      // Whichever path answered, the log it left serves the next tail, and holds the full replay's bytes.
      if (fs.statSync(idLog).isFile()) {
        const written = fs.readFileSync(idLog);
        const full = idLogOfFullReplay(ws.ledgerPath);
        assert.deepEqual(written.subarray(0, full.length), full, `${label}: the log holds what a full replay writes`);
      }
    }
  } finally {
    ws.dispose();
    other.dispose();
  }
});

test("a duplicate id in the tail is rejected exactly as a full replay rejects it", async () => {
  const ws = await workspace();
  try {
    const restore = saveState(ws.ledgerPath);
    const accepted = acceptedEnvelopes(ws.ledgerPath);
    const closedScopeEvent = accepted[0] as Envelope;
    const openScopeEvent = accepted[accepted.length - 1] as Envelope;
    const fresh = createEnvelope(scopeOpenedDraft("scope:id-log-second", "2031-03-01T00:00:00.000Z"));
    const cases: { label: string; entries: unknown[] }[] = [
      { label: "an event of a closed scope again", entries: [closedScopeEvent] },
      { label: "an event of the open scope again", entries: [openScopeEvent] },
      { label: "a new event twice in the tail", entries: [fresh, fresh] },
      { label: "a closed scope reopened", entries: [createEnvelope(scopeOpenedDraft(closedScopeEvent.workScopeId, "2031-03-01T00:00:00.000Z"))] },
    ];
    for (const { label, entries } of cases) {
      restore();
      appendRaw(ws.ledgerPath, entries);
      const expected = fullReplay(ws.ledgerPath);
      assert.equal((expected as { kind: string }).kind, "blocked", label);
      const state = readHookState(ws.root, ws.ledgerPath);
      assert.deepEqual(comparable(state), expected, label);
      // A writer from the snapshot refuses as the full path refuses.
      const before = fs.readFileSync(ws.ledgerPath);
      const writer = new WorkspaceLedger({ workspaceFolder: ws.root, ledgerPath: ws.ledgerPath, trusted: true, clock: fixedClock(900) });
      await assert.rejects(writer.turnOff("Not now."), (error: unknown) => error instanceof Error, label);
      assert.deepEqual(fs.readFileSync(ws.ledgerPath), before, `${label}: nothing written`);
    }
  } finally {
    ws.dispose();
  }
});

test("a writer from the snapshot writes the full replay's id log, and one without a usable log replays and rewrites it", async () => {
  const ws = await workspace();
  try {
    const idLog = idLogPathFor(ws.ledgerPath);
    const fresh = (): WorkspaceLedger => new WorkspaceLedger({ workspaceFolder: ws.root, ledgerPath: ws.ledgerPath, trusted: true, clock: fixedClock(2_000) });
    const first = fresh();
    await first.concludeJudgment({ disposition: "not-applicable", reason: "Nothing.", basis: ["Seen."] });
    assert.equal(first.store.exists, false, "written from the snapshot");
    assert.deepEqual(fs.readFileSync(idLog), idLogOfFullReplay(ws.ledgerPath));
    fs.rmSync(idLog);
    const second = fresh();
    await second.authorizeChange({ movement: "M.", stableLanding: "S.", verificationTarget: "V." });
    assert.equal(second.store.exists, true, "no id log: the writer replayed");
    assert.deepEqual(fs.readFileSync(idLog), idLogOfFullReplay(ws.ledgerPath));
    fs.writeFileSync(path.join(ws.root, "src", "a.ts"), "export const a = 2;\n");
    const third = fresh();
    await third.recordLanding({ changedPaths: ["src/a.ts"], result: "Changed a.", verification: ["npm test"] });
    assert.equal(third.store.exists, false, "the rewritten log serves the next write");
    assert.deepEqual(fs.readFileSync(idLog), idLogOfFullReplay(ws.ledgerPath));
  } finally {
    ws.dispose();
  }
});
