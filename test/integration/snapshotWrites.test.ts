// Writes from the verified snapshot against writes after a full replay: the same random operation
// sequences run on two copies of a workspace — one through a fresh WorkspaceLedger per operation
// (never read the ledger: the snapshot path), one through a ledger that replayed first (the full
// path) — must leave identical ledger bytes and checkpoints and give identical results and coded
// errors. Tampered checkpoints, seeds, anchors and ledgers must make the snapshot path fall back
// (the store then reads the whole ledger) or refuse exactly as the full path refuses.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger, type Clock, type ScopeNonceSource } from "../../server/workspace/workspaceLedger";
import { DocketError } from "../../server/errors";
import { checkpointPathFor } from "../../server/hooks/checkpoint";
import { tailSeedPathFor } from "../../server/hooks/tailSeed";
import { anchorPathFor } from "../../server/ledger/anchor";
import { createEnvelope } from "../../server/ledger/envelope";
import { DEVELOPER_STREAM, encodeLedgerLine } from "../../server/ledger/ledgerLine";
import { LedgerStore } from "../../server/ledger/store";
import { scopeOpenedDraft } from "../../server/developer/scopeOperations";
import { tempRepo, type TempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";
import { seededRandom as random } from "../support/seededRandom";

type Op = "on" | "off" | "open" | "open-bad" | "conclude" | "conclude-bad" | "authorize" | "edit" | "land";
const OPS: readonly Op[] = ["on", "off", "open", "open-bad", "conclude", "conclude-bad", "authorize", "edit", "land"];


function clockFrom(start: number): Clock {
  let tick = start;
  return { now: () => new Date(Date.UTC(2031, 0, 1) + 1_000 * tick++).toISOString() };
}

/** Scope nonces as reproducible as the clock: both copies must open the same scope ids. */
function noncesFrom(start: number): ScopeNonceSource {
  let draw = start;
  return () => (draw++).toString(16).padStart(32, "0");
}

const obligations = [{ obligationId: "obligation:a", statement: "The question is settled." }];

interface Copy {
  readonly repo: TempRepo;
  readonly ledgerPath: string;
  readonly clock: Clock;
  readonly scopeNonce: ScopeNonceSource;
  /** The ledger used for the next operation. */
  ledger(): WorkspaceLedger;
}

function copy(replayFirst: boolean): Copy {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n", ".gitignore": "" } });
  const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
  const clock = clockFrom(0);
  const scopeNonce = noncesFrom(0);
  let shared: WorkspaceLedger | null = null;
  return {
    repo,
    ledgerPath,
    clock,
    scopeNonce,
    ledger: () => {
      if (replayFirst) {
        shared ??= new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true, clock, scopeNonce });
        shared.refresh();
        return shared;
      }
      return new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true, clock, scopeNonce });
    },
  };
}

/** What an operation answered: its result (eventIds and state) or its coded error. */
async function run(target: Copy, op: Op, step: number): Promise<{ outcome: unknown; ledger: WorkspaceLedger }> {
  const ledger = target.ledger();
  const attempt = async (): Promise<unknown> => {
    switch (op) {
      case "on":
        return ledger.turnOn();
      case "off":
        return ledger.turnOff(`step ${step}`);
      case "open":
        return ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: `Question ${step}?`, obligations });
      case "open-bad":
        return ledger.openJudgment({ routeDefinitionId: "route:nope", question: "What?", obligations });
      case "conclude":
        return ledger.concludeJudgment({ disposition: "not-applicable", reason: "Nothing.", basis: [`Seen at ${step}.`] });
      case "conclude-bad":
        return ledger.concludeJudgment({ disposition: "not-applicable", reason: "Nothing.", basis: ["dup", "dup"] });
      case "authorize":
        return ledger.authorizeChange({ movement: `Change ${step}.`, stableLanding: "Done.", verificationTarget: "Types check." });
      case "edit":
        target.repo.write("src/a.ts", `export const a = ${step};\n`);
        return "edited";
      case "land":
        return ledger.recordLanding({ result: `Landed ${step}.`, verification: [] });
    }
  };
  try {
    return { outcome: { ok: await attempt() }, ledger };
  } catch (error) {
    assert.ok(error instanceof DocketError, `step ${step} ${op}: ${String(error)}`);
    // Copies live in different folders; messages naming files are compared without them.
    return { outcome: { code: error.code, message: error.message.replaceAll(target.repo.root, "<workspace>") }, ledger };
  }
}

function files(target: Copy): { ledger: string; checkpoint: string | null } {
  const read = (file: string): string | null => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null);
  const checkpoint = read(checkpointPathFor(target.ledgerPath));
  // The checkpoint names its file's inode; everything else must be equal byte for byte.
  const comparable = checkpoint === null ? null : JSON.stringify({ ...JSON.parse(checkpoint), seal: null, ledger: { ...JSON.parse(checkpoint).ledger, ino: null } });
  return { ledger: read(target.ledgerPath) ?? "", checkpoint: comparable };
}

test("random operation sequences: the snapshot path writes exactly what the full path writes, and refuses alike", async () => {
  let snapshotWrites = 0;
  for (const seed of [1, 2, 3, 4]) {
    const next = random(seed);
    const snapshot = copy(false);
    const full = copy(true);
    try {
      for (let step = 0; step < 14; step += 1) {
        // "on" first most of the time so sequences get past the first scope.
        const op = step === 0 ? "on" : (OPS[Math.floor(next() * OPS.length)] as Op);
        const hadCheckpoint = fs.existsSync(checkpointPathFor(snapshot.ledgerPath));
        const fromSnapshot = await run(snapshot, op, step);
        const fromReplay = await run(full, op, step);
        assert.deepEqual(fromSnapshot.outcome, fromReplay.outcome, `seed ${seed} step ${step} ${op}`);
        assert.deepEqual(files(snapshot), files(full), `seed ${seed} step ${step} ${op}: ledger or checkpoint differ`);
        const wrote = typeof fromSnapshot.outcome === "object" && fromSnapshot.outcome !== null && "ok" in fromSnapshot.outcome && op !== "edit";
        if (wrote && hadCheckpoint && !fromSnapshot.ledger.store.exists) snapshotWrites += 1;
      }
    } finally {
      snapshot.repo.dispose();
      full.repo.dispose();
    }
  }
  // The comparison means something only if most writes really took the snapshot path.
  assert.ok(snapshotWrites >= 10, `only ${snapshotWrites} writes came from the snapshot`);
});

/** A workspace that is on, with its checkpoint current, and a twin ledger path for the full path. */
async function onWorkspace(): Promise<{ target: Copy; dispose: () => void }> {
  const target = copy(false);
  await run(target, "on", 0);
  return { target, dispose: () => target.repo.dispose() };
}

/** Runs `docket off` through a fresh ledger and tells whether it read the whole ledger. */
async function offFresh(target: Copy): Promise<{ outcome: unknown; replayed: boolean }> {
  const { outcome, ledger } = await run(target, "off", 1);
  return { outcome, replayed: ledger.store.exists };
}

function editJson(file: string, edit: (value: Record<string, unknown>) => void): void {
  const value = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
  edit(value);
  fs.writeFileSync(file, `${JSON.stringify(value)}\n`);
}

test("a current, sealed checkpoint is written from; a tampered one makes the writer replay", async () => {
  const cases: { label: string; tamper: (target: Copy) => void }[] = [
    { label: "untouched", tamper: () => undefined },
    {
      label: "state edited without its seal",
      tamper: (target) => editJson(checkpointPathFor(target.ledgerPath), (value) => ((value.state as { phase: string }).phase = "off")),
    },
    { label: "checkpoint removed", tamper: (target) => fs.rmSync(checkpointPathFor(target.ledgerPath)) },
    { label: "seed removed", tamper: (target) => fs.rmSync(tailSeedPathFor(target.ledgerPath)) },
    { label: "seed of another position", tamper: (target) => editJson(tailSeedPathFor(target.ledgerPath), (value) => (value.lines = 0)) },
    {
      label: "ledger put in place of the original (another inode)",
      tamper: (target) => {
        const moved = `${target.ledgerPath}.copy`;
        fs.copyFileSync(target.ledgerPath, moved);
        fs.renameSync(moved, target.ledgerPath);
      },
    },
    {
      label: "a batch announced in the anchor",
      tamper: (target) =>
        editJson(anchorPathFor(target.ledgerPath), (value) => {
          value.pending = { bytes: (value.bytes as number) + 10, lines: (value.lines as number) + 1, lineSha256: "0".repeat(64) };
        }),
    },
  ];
  for (const { label, tamper } of cases) {
    const { target, dispose } = await onWorkspace();
    try {
      tamper(target);
      const result = await offFresh(target);
      assert.ok(typeof result.outcome === "object" && result.outcome !== null && "ok" in result.outcome, `${label}: ${JSON.stringify(result.outcome)}`);
      assert.equal(result.replayed, label !== "untouched", `${label}: ${result.replayed ? "replayed" : "wrote from the snapshot"}`);
      const store = new LedgerStore(target.ledgerPath);
      store.refresh();
      assert.equal(store.fault, null, label);
      assert.equal(store.replayer.firstRejected, null, label);
    } finally {
      dispose();
    }
  }
});

test("a damaged ledger or anchor is refused by the snapshot writer exactly as by the full path", async () => {
  const cases: { label: string; damage: (target: Copy) => void }[] = [
    {
      label: "anchor names another head",
      damage: (target) => editJson(anchorPathFor(target.ledgerPath), (value) => ((value.head as { lineSha256: string }).lineSha256 = "f".repeat(64)))
    },
    { label: "anchor is not JSON", damage: (target) => fs.writeFileSync(anchorPathFor(target.ledgerPath), "{") },
    { label: "a bad line after the checkpoint", damage: (target) => fs.appendFileSync(target.ledgerPath, "{}\n") },
    {
      label: "an entry after the checkpoint that replay rejects",
      damage: (target) => {
        const store = new LedgerStore(target.ledgerPath);
        store.refresh();
        // A second scope opened by a foreign writer: accepted by replay, but two open scopes block the history.
        const envelope = createEnvelope(scopeOpenedDraft("scope:foreign", "2031-01-01T00:10:00.000Z"));
        fs.appendFileSync(target.ledgerPath, encodeLedgerLine(store.lineCount, store.headLineSha256, DEVELOPER_STREAM, envelope).text);
      }
    },
  ];
  for (const { label, damage } of cases) {
    const snapshot = await onWorkspace();
    const full = await onWorkspace();
    try {
      damage(snapshot.target);
      damage(full.target);
      const before = fs.readFileSync(snapshot.target.ledgerPath);
      const fromSnapshot = await offFresh(snapshot.target);
      const fromReplay = (await run({ ...full.target, ledger: copyLedger(full.target) }, "off", 1)).outcome;
      assert.deepEqual(fromSnapshot.outcome, fromReplay, label);
      assert.ok(typeof fromSnapshot.outcome === "object" && fromSnapshot.outcome !== null && "code" in fromSnapshot.outcome, `${label}: must be refused`);
      assert.deepEqual(fs.readFileSync(snapshot.target.ledgerPath), before, `${label}: nothing written`);
    } finally {
      snapshot.dispose();
      full.dispose();
    }
  }
});

function copyLedger(target: Copy): () => WorkspaceLedger {
  return () => {
    const ledger = new WorkspaceLedger({ workspaceFolder: target.repo.root, ledgerPath: target.ledgerPath, trusted: true, clock: target.clock, scopeNonce: target.scopeNonce });
    ledger.refresh();
    return ledger;
  };
}

test("lines a foreign writer appended after the checkpoint, and a torn tail, are reduced and written after as the full path does", async () => {
  const snapshot = await onWorkspace();
  const full = await onWorkspace();
  try {
    for (const target of [snapshot.target, full.target]) {
      // Another Docket wrote lines without moving the checkpoint (it died before), then a torn write.
      const writer = new WorkspaceLedger({ workspaceFolder: target.repo.root, ledgerPath: target.ledgerPath, trusted: true, clock: clockFrom(100), scopeNonce: noncesFrom(100) });
      writer.refresh();
      const saved = { checkpoint: fs.readFileSync(checkpointPathFor(target.ledgerPath)), seed: fs.readFileSync(tailSeedPathFor(target.ledgerPath)) };
      await writer.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "Foreign?", obligations });
      fs.writeFileSync(checkpointPathFor(target.ledgerPath), saved.checkpoint);
      fs.writeFileSync(tailSeedPathFor(target.ledgerPath), saved.seed);
      fs.appendFileSync(target.ledgerPath, '{"torn":');
    }
    const fromSnapshot = await run(snapshot.target, "conclude", 2);
    const fromReplay = await run({ ...full.target, ledger: copyLedger(full.target) }, "conclude", 2);
    assert.deepEqual(fromSnapshot.outcome, fromReplay.outcome);
    assert.equal(fromSnapshot.ledger.store.exists, false, "the tail was reduced from the seed, not replayed");
    assert.deepEqual(files(snapshot.target), files(full.target));
    const torn = fs.readdirSync(path.dirname(snapshot.target.ledgerPath)).filter((name) => name.includes(".torn-"));
    assert.equal(torn.length, 1, "the torn tail was set aside");
  } finally {
    snapshot.dispose();
    full.dispose();
  }
});

test("`docket on` and `docket off` print the same bytes from the snapshot as after a full replay", () => {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  const cli = path.join(repoRoot(), "dist", "docket.js");
  const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
  // Scope and event ids name the time and position of each write; everything else must be equal.
  const normalized = (text: string): string => text.replace(/\b(scope|event):[0-9a-z-]+/gu, "$1:ID");
  const docket = (...args: string[]): { out: string; err: string; status: number | null } => {
    const result = spawnSync(process.execPath, [cli, ...args, "--workspace", repo.root], { encoding: "utf8" });
    return { out: normalized(result.stdout), err: normalized(result.stderr), status: result.status };
  };
  /** The same command twice: from the snapshot, then (the checkpoint removed, the state put back) after a full replay. */
  const both = (first: string[], undo: string[] | null): void => {
    const fromSnapshot = docket(...first);
    if (undo !== null) docket(...undo);
    fs.rmSync(checkpointPathFor(ledgerPath));
    const fromReplay = docket(...first);
    assert.deepEqual(fromSnapshot, fromReplay, first.join(" "));
    // A refused write leaves no checkpoint behind; `docket status` replays once and writes it.
    if (!fs.existsSync(checkpointPathFor(ledgerPath))) docket("status");
    assert.ok(fs.existsSync(checkpointPathFor(ledgerPath)));
  };
  try {
    assert.equal(docket("on").status, 0);
    both(["off"], ["on"]);
    both(["on"], ["off"]);
    both(["on"], null); // refused: docket.already-on
    both(["off", "--json"], ["on"]);
    both(["on", "--json"], ["off"]);
    const store = new LedgerStore(ledgerPath);
    store.refresh();
    assert.equal(store.fault, null);
    assert.equal(store.replayer.firstRejected, null);
  } finally {
    repo.dispose();
  }
});

test("an MCP server's writes and the state it reports after each call come from the snapshot, equal to a replay's", async () => {
  const { target, dispose } = await onWorkspace();
  try {
    const fresh = target.ledger();
    await fresh.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "What?", obligations });
    const fromSnapshot = { ...fresh.agentPolicy(), landings: fresh.landingsNow() };
    assert.equal(fresh.store.exists, false, "nothing asked for the whole history");
    const replayed = copyLedger(target)();
    assert.deepEqual(fromSnapshot, { ...replayed.agentPolicy(), landings: replayed.landingsNow() });
    assert.equal(fromSnapshot.policy.phase, "deciding");
    assert.equal(fromSnapshot.purpose, "work-decision");
  } finally {
    dispose();
  }
});
