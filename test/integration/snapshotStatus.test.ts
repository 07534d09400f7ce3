// The backend's first answers on a large ledger come from the verified snapshot while the history
// is read behind them (WorkspaceLedger.viewStatus/viewWorkState, readHistoryInSlices). Compared
// with a full replay of the same bytes: every field the snapshot answer claims must be equal, and
// once the slices have read the ledger the answers must be the full replay's, field for field.
// A checkpoint the snapshot cannot prove gives the full replay's answer at once; a fault only the
// full read can see shows as blocked once it is found, in-process and through the backend.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger, type Clock } from "../../server/workspace/workspaceLedger";
import { DocketError } from "../../server/errors";
import { checkpointPathFor } from "../../server/hooks/checkpoint";
import { tailSeedPathFor } from "../../server/hooks/tailSeed";
import { writeCheckpoint } from "../../server/hooks/checkpointState";
import { ErrorCodes, Requests, type Status, type WorkState } from "../../server/protocol/messages";
import { cycleScopesEntries, ledgerLines } from "../support/generatedCycles";
import { tempRepo, type TempRepo } from "../support/gitRepo";
import { seededRandom as random } from "../support/seededRandom";
import { startBackend } from "../support/backendProcess";

type Op = "on" | "off" | "open" | "conclude" | "authorize" | "edit" | "land" | "tear";
const OPS: readonly Op[] = ["on", "off", "open", "conclude", "authorize", "edit", "land", "tear"];
const obligations = [{ obligationId: "obligation:a", statement: "The question is settled." }];

function clockFrom(start: number): Clock {
  let tick = start;
  return { now: () => new Date(Date.UTC(2031, 0, 1) + 1_000 * tick++).toISOString() };
}

function ledgerOf(repo: TempRepo, clock: Clock = clockFrom(0)): WorkspaceLedger {
  return new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath: path.join(repo.root, ".docket", "ledger.jsonl"), trusted: true, clock });
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The full replay's answers for the ledger as it is now. */
function fullAnswers(repo: TempRepo): { status: Status; work: WorkState } {
  const ledger = ledgerOf(repo);
  ledger.refresh();
  return { status: ledger.viewStatus(), work: ledger.viewWorkState() };
}

/** The fields a snapshot status claims (Status.stillReading says which). */
function claimedStatus(status: Status): unknown {
  const ledger = status.ledger === null ? null : { path: status.ledger.path, exists: status.ledger.exists, bytes: status.ledger.bytes, lines: status.ledger.lines, tornTailBytes: status.ledger.tornTailBytes };
  return {
    workspaceFolder: status.workspaceFolder,
    trusted: status.trusted,
    phase: status.phase,
    historyMode: status.historyMode,
    blockedReason: status.blockedReason,
    activeScope: status.activeScope,
    openScopes: status.scopes.filter((scope) => scope.status === "open"),
    ledger,
    revision: status.revision,
    source: status.source,
    legalOperations: status.legalOperations,
  };
}

/** The fields a snapshot work state claims: all but the History and who opened each frame. */
function claimedWork(work: WorkState): unknown {
  return {
    phase: work.phase,
    workScopeId: work.workScopeId,
    purpose: work.purpose,
    legalOperations: work.legalOperations,
    nextAction: work.nextAction,
    frames: work.frames.map((frame) => ({ ...frame, drivenBy: null })),
    authorization: work.authorization,
    landings: work.landings,
  };
}

async function apply(repo: TempRepo, writer: WorkspaceLedger, op: Op, step: number): Promise<void> {
  try {
    switch (op) {
      case "on":
        await writer.turnOn();
        return;
      case "off":
        await writer.turnOff(`step ${step}`);
        return;
      case "open":
        await writer.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: `Question ${step}?`, obligations });
        return;
      case "conclude":
        await writer.concludeJudgment({ disposition: "not-applicable", reason: "Nothing.", basis: [`Seen at ${step}.`] });
        return;
      case "authorize":
        await writer.authorizeChange({ movement: `Change ${step}.`, stableLanding: "Done.", verificationTarget: "Types check." });
        return;
      case "edit":
        repo.write("src/a.ts", `export const a = ${step};\n`);
        return;
      case "land":
        await writer.recordLanding({ result: `Landed ${step}.`, verification: [] });
        return;
      case "tear":
        // A writer that died mid-line: both paths count the same torn bytes; the next write sets them aside.
        if (fs.existsSync(writer.store.ledgerPath)) fs.appendFileSync(writer.store.ledgerPath, `{"torn":${step}`);
        return;
    }
  } catch (error) {
    assert.ok(error instanceof DocketError, `step ${step} ${op}: ${String(error)}`);
  }
}

test("random operation sequences: the snapshot answers equal the full replay's in every claimed field, and the sliced read equals it entirely", async () => {
  let fromSnapshot = 0;
  for (const seed of [1, 2, 3, 4, 5]) {
    const next = random(seed);
    const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n", ".gitignore": "" } });
    try {
      const writer = ledgerOf(repo);
      for (let step = 0; step < 16; step += 1) {
        const op = step === 0 ? "on" : (OPS[Math.floor(next() * OPS.length)] as Op);
        await apply(repo, writer, op, step);
        const full = fullAnswers(repo);
        assert.equal(full.status.stillReading, undefined);
        const starting = ledgerOf(repo);
        const status = starting.viewStatus();
        const work = starting.viewWorkState();
        const label = `seed ${seed} step ${step} ${op}`;
        if (status.stillReading === true) {
          fromSnapshot += 1;
          assert.equal(work.stillReading, true, label);
          assert.deepEqual(claimedStatus(status), claimedStatus(full.status), label);
          assert.deepEqual(claimedWork(work), claimedWork(full.work), label);
          assert.deepEqual(work.history, [], label);
          assert.equal(starting.historyRead, false, label);
        } else {
          assert.deepEqual(status, full.status, label);
        }
        // Read in small slices (several lines each, a line longer than a slice included), then equal in full.
        await starting.readHistoryInSlices(nextTurn, 700);
        assert.deepEqual(starting.viewStatus(), full.status, `${label}: after the sliced read`);
        assert.deepEqual(starting.viewWorkState(), full.work, `${label}: after the sliced read`);
      }
    } finally {
      repo.dispose();
    }
  }
  assert.ok(fromSnapshot >= 50, `only ${fromSnapshot} answers came from the snapshot`);
});

function editJson(file: string, edit: (value: Record<string, unknown>) => void): void {
  const value = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
  edit(value);
  fs.writeFileSync(file, `${JSON.stringify(value)}\n`);
}

test("a checkpoint the snapshot cannot prove gives the full replay's answer at once", async () => {
  const cases: { label: string; tamper: (ledgerPath: string, before: string) => void }[] = [
    { label: "state edited without its seal", tamper: (ledgerPath) => editJson(checkpointPathFor(ledgerPath), (value) => ((value.state as { phase: string }).phase = "off")) },
    { label: "checkpoint removed", tamper: (ledgerPath) => fs.rmSync(checkpointPathFor(ledgerPath)) },
    { label: "seed removed", tamper: (ledgerPath) => fs.rmSync(tailSeedPathFor(ledgerPath)) },
    { label: "stale checkpoint from an earlier position (its seed moved on)", tamper: (ledgerPath, before) => fs.writeFileSync(checkpointPathFor(ledgerPath), before) },
    {
      label: "ledger replaced by a copy (another inode)",
      tamper: (ledgerPath) => {
        fs.copyFileSync(ledgerPath, `${ledgerPath}.copy`);
        fs.renameSync(`${ledgerPath}.copy`, ledgerPath);
      },
    },
    { label: "head line rewritten", tamper: (ledgerPath) => fs.writeFileSync(ledgerPath, fs.readFileSync(ledgerPath, "utf8").replace(/"eventId":"([^"]*)"([^\n]*)\n$/u, '"eventId":"$1x"$2\n')) },
  ];
  for (const { label, tamper } of cases) {
    const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n", ".gitignore": "" } });
    try {
      const writer = ledgerOf(repo);
      await writer.turnOn();
      const before = fs.readFileSync(checkpointPathFor(writer.store.ledgerPath), "utf8");
      await writer.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "Which?", obligations });
      assert.equal(ledgerOf(repo).viewStatus().stillReading, true, `${label}: proven before the tampering`);
      tamper(writer.store.ledgerPath, before);
      const full = fullAnswers(repo);
      const starting = ledgerOf(repo);
      assert.deepEqual(starting.viewStatus(), full.status, label);
      assert.equal(starting.historyRead, true, `${label}: read in full`);
      assert.deepEqual(starting.viewWorkState(), full.work, label);
    } finally {
      repo.dispose();
    }
  }
});

/** A workspace whose ledger holds `scopes` closed generated cycles and a current checkpoint. */
function generatedWorkspace(scopes: number): { repo: TempRepo; ledgerPath: string } {
  const repo = tempRepo({ files: { ".gitignore": "" } });
  const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
  fs.mkdirSync(path.dirname(ledgerPath), { recursive: true });
  fs.writeFileSync(ledgerPath, ledgerLines(cycleScopesEntries(scopes)).join(""));
  const ledger = ledgerOf(repo);
  ledger.refresh();
  assert.ok(writeCheckpoint(ledger.store));
  return { repo, ledgerPath };
}

/** Changes one character of an event id in the middle of the ledger: the same length, a broken hash chain. */
function damageMiddleLine(ledgerPath: string): void {
  const lines = fs.readFileSync(ledgerPath, "utf8").split("\n");
  const middle = Math.floor(lines.length / 2);
  const line = lines[middle] as string;
  const at = line.indexOf('"eventId":"') + '"eventId":"'.length;
  lines[middle] = `${line.slice(0, at)}${line[at] === "a" ? "b" : "a"}${line.slice(at + 1)}`;
  fs.writeFileSync(ledgerPath, lines.join("\n"));
}

test("a fault only the full read sees: the snapshot answers first, then the history shows blocked exactly as a replay shows it", async () => {
  const { repo, ledgerPath } = generatedWorkspace(30);
  try {
    damageMiddleLine(ledgerPath);
    const full = fullAnswers(repo);
    assert.equal(full.status.historyMode, "blocked");
    const starting = ledgerOf(repo);
    const first = starting.viewStatus();
    assert.equal(first.stillReading, true);
    assert.notEqual(first.historyMode, "blocked");
    await starting.readHistoryInSlices(nextTurn, 4096);
    const found = starting.viewStatus();
    // A damaged read leaves the store's position where that read began (store.ts), so the health's
    // byte count after a fault tells where the last read started, with slices as without (a
    // backend that read the ledger before the bad line was appended shows the same); all else is equal.
    assert.ok(found.ledger !== null && full.status.ledger !== null);
    assert.deepEqual({ ...found, ledger: { ...found.ledger, bytes: 0 } }, { ...full.status, ledger: { ...full.status.ledger, bytes: 0 } });
    assert.deepEqual(starting.viewWorkState(), full.work);
  } finally {
    repo.dispose();
  }
});

test("the backend answers from the snapshot first and notifies the blocked history its background read finds", async () => {
  const { repo, ledgerPath } = generatedWorkspace(30);
  const saved = { atOnce: process.env.DOCKET_BACKEND_READ_AT_ONCE_BYTES, slice: process.env.DOCKET_BACKEND_HISTORY_SLICE_BYTES };
  // A small ledger is normally read at start; these make this one take the large ledger's path, slowly.
  process.env.DOCKET_BACKEND_READ_AT_ONCE_BYTES = "0";
  process.env.DOCKET_BACKEND_HISTORY_SLICE_BYTES = "64";
  try {
    damageMiddleLine(ledgerPath);
    const backend = await startBackend({ workspaceFolder: repo.root });
    try {
      const first = await backend.request(Requests.status, {});
      assert.equal(first.stillReading, true);
      assert.equal(first.historyMode, "v8-closed");
      const work = await backend.request(Requests.workState, {});
      assert.equal(work.stillReading, true);
      const blocked = await backend.nextState((status) => status.historyMode === "blocked", 60_000);
      assert.equal(blocked.stillReading, undefined);
      const full = fullAnswers(repo).status;
      assert.equal(blocked.revision, full.revision);
      assert.equal(blocked.blockedReason, full.blockedReason);
      assert.deepEqual(blocked.ledger?.problem, full.ledger?.problem);
      assert.deepEqual(await backend.request(Requests.workState, {}), fullAnswers(repo).work);
    } finally {
      await backend.stop();
    }
  } finally {
    process.env.DOCKET_BACKEND_READ_AT_ONCE_BYTES = saved.atOnce;
    process.env.DOCKET_BACKEND_HISTORY_SLICE_BYTES = saved.slice;
    if (saved.atOnce === undefined) delete process.env.DOCKET_BACKEND_READ_AT_ONCE_BYTES;
    if (saved.slice === undefined) delete process.env.DOCKET_BACKEND_HISTORY_SLICE_BYTES;
    repo.dispose();
  }
});

test("the History comes a page at a time, newest first, and bad cursors are coded errors that change nothing", async () => {
  const { repo, ledgerPath } = generatedWorkspace(120);
  try {
    const full = ledgerOf(repo);
    full.refresh();
    const all = full.workState().history;
    const closedAt = new Map(full.status().scopes.map((scope) => [scope.workScopeId, scope.closedAt ?? ""]));
    const newestFirst = [...all].sort((left, right) => {
      const byTime = (closedAt.get(right.workScopeId) ?? "").localeCompare(closedAt.get(left.workScopeId) ?? "", "en");
      return byTime !== 0 ? byTime : right.workScopeId < left.workScopeId ? -1 : right.workScopeId > left.workScopeId ? 1 : 0;
    });
    const view = ledgerOf(repo);
    view.refresh();
    const first = view.viewWorkState();
    assert.equal(first.history.length, 50);
    assert.ok(typeof first.historyNextCursor === "string");
    const second = view.workHistoryPage(first.historyNextCursor, 50);
    assert.equal(second.total, 120);
    assert.ok(second.nextCursor !== null);
    const third = view.workHistoryPage(second.nextCursor, 50);
    assert.equal(third.entries.length, 20);
    assert.equal(third.nextCursor, null);
    assert.deepEqual([...first.history, ...second.entries, ...third.entries], newestFirst);

    const bytes = fs.readFileSync(ledgerPath);
    const revision = view.viewStatus().revision;
    const codeOf = (run: () => unknown): string => {
      try {
        run();
      } catch (error) {
        assert.ok(error instanceof DocketError);
        return error.code;
      }
      return "no error";
    };
    assert.equal(codeOf(() => view.workHistoryPage("not a cursor", 50)), ErrorCodes.invalidCursor);
    assert.equal(codeOf(() => view.workHistoryPage(`wh1:50:${"0".repeat(64)}`, 50)), ErrorCodes.staleCursor);
    assert.equal(codeOf(() => view.workHistoryPage(`wh1:050:${revision}`, 50)), ErrorCodes.invalidCursor);
    const past = view.workHistoryPage(`wh1:500:${revision}`, 50);
    assert.deepEqual({ entries: past.entries, nextCursor: past.nextCursor, total: past.total }, { entries: [], nextCursor: null, total: 120 });
    assert.ok(fs.readFileSync(ledgerPath).equals(bytes), "a page request changed the ledger");
  } finally {
    repo.dispose();
  }
});

test("docket/workHistory/page through the backend: validated params, coded errors, pages that continue the work state", async () => {
  const { repo } = generatedWorkspace(60);
  try {
    const backend = await startBackend({ workspaceFolder: repo.root });
    try {
      // A ledger of this size may be answered from its snapshot first: the History comes once it is read.
      if ((await backend.request(Requests.status, {})).stillReading === true) {
        assert.equal((await backend.request(Requests.workState, {})).history.length, 0);
        await backend.nextState((status) => status.stillReading === undefined, 60_000);
      }
      const work = await backend.request(Requests.workState, {});
      assert.equal(work.stillReading, undefined);
      assert.equal(work.history.length, 50);
      const cursor = work.historyNextCursor;
      assert.ok(typeof cursor === "string");
      const page = await backend.request(Requests.workHistoryPage, { cursor, pageSize: 50 });
      assert.equal(page.entries.length, 10);
      assert.equal(page.nextCursor, null);
      assert.equal(await backend.errorCode(Requests.workHistoryPage.method, { cursor, pageSize: 0 }), ErrorCodes.invalidParams);
      assert.equal(await backend.errorCode(Requests.workHistoryPage.method, { cursor, pageSize: 5, extra: true }), ErrorCodes.invalidParams);
      assert.equal(await backend.errorCode(Requests.workHistoryPage.method, { cursor: "wh1:x", pageSize: 5 }), ErrorCodes.invalidCursor);
      await backend.request(Requests.turnOn, {});
      assert.equal(await backend.errorCode(Requests.workHistoryPage.method, { cursor, pageSize: 5 }), ErrorCodes.staleCursor);
    } finally {
      await backend.stop();
    }
  } finally {
    repo.dispose();
  }
});
