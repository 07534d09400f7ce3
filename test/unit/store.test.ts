import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { WorkspaceLedger, verifyLedgerFile } from "../../server/workspace/workspaceLedger";
import { LedgerStore } from "../../server/ledger/store";
import { withExclusiveLock } from "../../server/ledger/lock";
import { DocketError } from "../../server/errors";

const run = promisify(execFile);

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "docket-store-"));
}

function fixedClock(): { now(): string } {
  let seconds = 0;
  return { now: () => new Date(Date.UTC(2030, 0, 1, 0, 0, seconds++)).toISOString() };
}

async function ledgerWith(directory: string, cycles: number): Promise<string> {
  const ledgerPath = path.join(directory, ".docket", "ledger.jsonl");
  const ledger = new WorkspaceLedger({ workspaceFolder: directory, ledgerPath, trusted: true, clock: fixedClock() });
  ledger.refresh();
  for (let index = 0; index < cycles; index += 1) {
    await ledger.turnOn();
    await ledger.turnOff();
  }
  return ledgerPath;
}

test("4 writer processes x 200 appends: all accepted, chains intact, no duplicates", { timeout: 300_000 }, async () => {
  const directory = tempDir();
  const ledgerPath = path.join(directory, ".docket", "ledger.jsonl");
  const worker = path.join(__dirname, "..", "support", "ledgerWriter.js");
  const results = await Promise.all(
    [0, 1, 2, 3].map(() => run(process.execPath, [worker, ledgerPath, "200"], { cwd: directory, maxBuffer: 1 << 24 })),
  );
  const eventIds = results.flatMap((result) => (JSON.parse(result.stdout) as { eventIds: string[] }).eventIds);
  assert.equal(eventIds.length, 800);
  assert.equal(new Set(eventIds).size, 800);
  const verified = await verifyLedgerFile(ledgerPath);
  assert.equal(verified.ok, true, JSON.stringify(verified.firstFault));
  assert.equal(verified.lines, 800);
  assert.equal(verified.accepted, 800);
  const lines = fs.readFileSync(ledgerPath, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line) as { entry: { eventId: string } });
  assert.deepEqual(new Set(lines.map((line) => line.entry.eventId)), new Set(eventIds));
  assert.equal(fs.existsSync(`${ledgerPath}.lock`), false);
});

test("truncating the final entry at every byte offset keeps the committed prefix and reports a torn tail", async () => {
  const directory = tempDir();
  const ledgerPath = await ledgerWith(directory, 2);
  const bytes = fs.readFileSync(ledgerPath);
  const lineEnds: number[] = [];
  bytes.forEach((byte, index) => {
    if (byte === 0x0a) lineEnds.push(index + 1);
  });
  const lastStart = lineEnds.at(-2) ?? 0;
  const copy = path.join(directory, "copy.jsonl");
  for (let cut = lastStart; cut <= bytes.length; cut += 1) {
    fs.writeFileSync(copy, bytes.subarray(0, cut));
    const store = new LedgerStore(copy);
    store.refresh();
    const complete = lineEnds.filter((end) => end <= cut).length;
    assert.equal(store.fault, null, `cut ${cut}`);
    assert.equal(store.lineCount, complete, `cut ${cut}`);
    assert.equal(store.replayer.accepted.length, complete, `cut ${cut}`);
    assert.equal(store.tornTail, cut - (lineEnds.filter((end) => end <= cut).at(-1) ?? 0), `cut ${cut}`);
    const verified = await verifyLedgerFile(copy);
    const wholeLineWithoutNewline = cut === bytes.length - 1;
    assert.equal(verified.ok, !wholeLineWithoutNewline, `cut ${cut}`);
  }
});

test("an append after a torn tail sets the torn bytes aside and never loses a committed line", async () => {
  const directory = tempDir();
  const ledgerPath = await ledgerWith(directory, 1);
  const committed = fs.readFileSync(ledgerPath);
  fs.appendFileSync(ledgerPath, '{"entry":{"protocolVersion":"developer/v8","eve');
  const ledger = new WorkspaceLedger({ workspaceFolder: directory, ledgerPath, trusted: true, clock: fixedClock() });
  ledger.refresh();
  assert.equal(ledger.health().tornTailBytes, 47);
  await ledger.turnOn();
  const after = fs.readFileSync(ledgerPath);
  assert.ok(after.subarray(0, committed.length).equals(committed));
  assert.equal((await verifyLedgerFile(ledgerPath)).ok, true);
  assert.equal((await verifyLedgerFile(ledgerPath)).accepted, 3);
  const aside = fs.readdirSync(path.dirname(ledgerPath)).filter((name) => name.includes(".torn-"));
  assert.equal(aside.length, 1);
});

test("changing any byte of a committed entry makes verification fail", async () => {
  const directory = tempDir();
  const ledgerPath = await ledgerWith(directory, 1);
  const bytes = fs.readFileSync(ledgerPath);
  const copy = path.join(directory, "tampered.jsonl");
  assert.equal((await verifyLedgerFile(ledgerPath)).ok, true);
  for (let index = 0; index < bytes.length; index += 1) {
    const tampered = Buffer.from(bytes);
    tampered[index] = tampered[index] === 0x41 ? 0x42 : 0x41;
    fs.writeFileSync(copy, tampered);
    assert.equal((await verifyLedgerFile(copy)).ok, false, `byte ${index} (${String.fromCharCode(bytes[index] ?? 0)})`);
  }
});

test("a lock held by a live process blocks writers with a coded error and writes nothing", async () => {
  const directory = tempDir();
  const ledgerPath = await ledgerWith(directory, 1);
  const before = fs.readFileSync(ledgerPath);
  const ledger = new WorkspaceLedger({ workspaceFolder: directory, ledgerPath, trusted: true, lockTimeoutMs: 200 });
  ledger.refresh();
  await withExclusiveLock(`${ledgerPath}.lock`, async () => {
    await assert.rejects(ledger.turnOn(), (error: unknown) => error instanceof DocketError && error.code === "docket.ledger-locked" && /locked by process/u.test(error.message));
  });
  assert.ok(fs.readFileSync(ledgerPath).equals(before));
});

test("a stale lock from a dead process is recovered", async () => {
  const directory = tempDir();
  const ledgerPath = await ledgerWith(directory, 1);
  const dead = await run(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  fs.writeFileSync(
    `${ledgerPath}.lock`,
    JSON.stringify({ token: "dead", pid: Number(dead.stdout), hostname: os.hostname(), startTime: null, acquiredAt: "2030-01-01T00:00:00.000Z", purpose: "test" }),
  );
  const ledger = new WorkspaceLedger({ workspaceFolder: directory, ledgerPath, trusted: true, lockTimeoutMs: 2_000 });
  ledger.refresh();
  const result = await ledger.turnOn();
  assert.equal(result.eventIds.length, 1);
  assert.equal(fs.existsSync(`${ledgerPath}.lock`), false);
});

test("foreign files, blocked history, untrusted workspaces and unwritable folders write nothing", async () => {
  const directory = tempDir();
  const foreign = path.join(directory, "foreign.jsonl");
  fs.writeFileSync(foreign, "hello world\n");
  const foreignLedger = new WorkspaceLedger({ workspaceFolder: directory, ledgerPath: foreign, trusted: true });
  foreignLedger.refresh();
  await assert.rejects(foreignLedger.turnOn(), (error: unknown) => error instanceof DocketError && error.code === "docket.ledger-foreign");
  assert.equal(fs.readFileSync(foreign, "utf8"), "hello world\n");
  assert.equal(foreignLedger.status().phase, "blocked");

  const ledgerPath = await ledgerWith(directory, 1);
  const untrusted = new WorkspaceLedger({ workspaceFolder: directory, ledgerPath, trusted: false });
  untrusted.refresh();
  await assert.rejects(untrusted.turnOn(), (error: unknown) => error instanceof DocketError && error.code === "docket.untrusted-workspace");

  const readOnlyDir = path.join(directory, "readonly");
  fs.mkdirSync(readOnlyDir);
  fs.chmodSync(readOnlyDir, 0o555);
  const unwritable = new WorkspaceLedger({ workspaceFolder: readOnlyDir, ledgerPath: path.join(readOnlyDir, ".docket", "ledger.jsonl"), trusted: true });
  unwritable.refresh();
  if (process.getuid?.() !== 0) {
    await assert.rejects(unwritable.turnOn(), (error: unknown) => error instanceof DocketError && error.code === "docket.ledger-unwritable");
  }
  const fileAsDir = path.join(directory, "file");
  fs.writeFileSync(fileAsDir, "x");
  const blockedByFile = new WorkspaceLedger({ workspaceFolder: directory, ledgerPath: path.join(fileAsDir, "ledger.jsonl"), trusted: true });
  blockedByFile.refresh();
  await assert.rejects(blockedByFile.turnOn(), (error: unknown) => error instanceof DocketError && error.code === "docket.ledger-unwritable");
});

test("turning on twice or off when off is refused with a coded error", async () => {
  const directory = tempDir();
  const ledgerPath = path.join(directory, ".docket", "ledger.jsonl");
  const ledger = new WorkspaceLedger({ workspaceFolder: directory, ledgerPath, trusted: true });
  ledger.refresh();
  await assert.rejects(ledger.turnOff(), (error: unknown) => error instanceof DocketError && error.code === "docket.already-off");
  assert.equal(fs.existsSync(ledgerPath), false);
  const on = await ledger.turnOn();
  assert.equal(on.runtime.state, "idle");
  assert.equal(on.nextAction, "open_judgment");
  await assert.rejects(ledger.turnOn(), (error: unknown) => error instanceof DocketError && error.code === "docket.already-on");
  const off = await ledger.turnOff();
  assert.equal(off.runtime.state, "inactive");
  assert.equal(off.nextAction, null);
  assert.equal((await verifyLedgerFile(ledgerPath)).accepted, 2);
});

test("another process's appends are seen incrementally; a rewritten file is re-read from the start", async () => {
  const directory = tempDir();
  const ledgerPath = await ledgerWith(directory, 1);
  const reader = new WorkspaceLedger({ workspaceFolder: directory, ledgerPath, trusted: true });
  reader.refresh();
  assert.equal(reader.status().receiptCount, 2);
  const writer = new WorkspaceLedger({ workspaceFolder: directory, ledgerPath, trusted: true });
  writer.refresh();
  await writer.turnOn();
  assert.equal(reader.refresh(), true);
  assert.equal(reader.status().receiptCount, 3);
  assert.equal(reader.status().phase, "deciding");
  const lines = fs.readFileSync(ledgerPath, "utf8").split("\n");
  fs.writeFileSync(ledgerPath, `${lines.slice(0, 2).join("\n")}\n`);
  reader.refresh();
  assert.equal(reader.status().receiptCount, 2);
  // The writer anchored 3 lines: the shorter file is a truncation, not a turned-off workspace.
  assert.equal(reader.status().phase, "blocked");
  assert.equal(reader.store.fault?.code, "ledger-truncated");
  assert.deepEqual(reader.store.fault?.missingLines, { from: 3, to: 3 });
  await assert.rejects(writer.turnOn(), (error: unknown) => error instanceof DocketError && error.code === "docket.ledger-truncated");
  // A person who decides to keep the shorter ledger anchors it as it is; readers follow.
  await new LedgerStore(ledgerPath).anchorNow({ accept: true });
  reader.refresh();
  assert.equal(reader.status().phase, "off");
});
