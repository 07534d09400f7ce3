// The ledger's head anchor (server/ledger/anchor.ts): lines cut from the end, a rewritten
// history and a deleted ledger are reported with the missing range, block every writer and are
// only accepted by a person; a crash between an append and its anchor is never a truncation; a
// ledger tracked by Git is also compared with its committed version.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger, verifyLedgerFile } from "../../server/workspace/workspaceLedger";
import { LedgerStore } from "../../server/ledger/store";
import { ANCHOR_FORMAT, anchorPathFor, lineShaOfText, readAnchor } from "../../server/ledger/anchor";
import { DEVELOPER_STREAM, encodeLedgerLine } from "../../server/ledger/ledgerLine";
import { DocketError } from "../../server/errors";
import { tempFolder, tempRepo, runGit } from "../support/gitRepo";

function fixedClock(): { now(): string } {
  let seconds = 0;
  return { now: () => new Date(Date.UTC(2030, 0, 1, 0, 0, seconds++)).toISOString() };
}

/** A ledger of `cycles` on/off pairs written by Docket (so anchored), and its folder. */
async function anchoredLedger(cycles: number, folder = tempFolder("docket-anchor-")): Promise<{ folder: string; ledgerPath: string }> {
  const ledgerPath = path.join(folder, ".docket", "ledger.jsonl");
  const ledger = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true, clock: fixedClock() });
  ledger.refresh();
  for (let index = 0; index < cycles; index += 1) {
    await ledger.turnOn();
    await ledger.turnOff();
  }
  return { folder, ledgerPath };
}

function lineEnds(bytes: Buffer): number[] {
  const ends: number[] = [];
  for (let index = bytes.indexOf(0x0a); index >= 0; index = bytes.indexOf(0x0a, index + 1)) ends.push(index + 1);
  return ends;
}

const isCode = (code: string) => (error: unknown) => error instanceof DocketError && error.code === code;

test("every append moves the anchor to the new head, durably beside the ledger", async () => {
  const { folder, ledgerPath } = await anchoredLedger(2);
  const read = readAnchor(folder, ledgerPath);
  assert.equal(read.kind, "anchor");
  if (read.kind !== "anchor") return;
  const bytes = fs.readFileSync(ledgerPath);
  const ends = lineEnds(bytes);
  assert.equal(read.anchor.format, ANCHOR_FORMAT);
  assert.equal(read.anchor.lines, 4);
  assert.equal(read.anchor.bytes, bytes.length);
  assert.equal(read.anchor.head?.offset, ends[2]);
  assert.equal(read.anchor.head?.lineSha256, lineShaOfText(bytes.subarray(ends[2], ends[3]).toString("utf8")));
  assert.equal(read.anchor.ino, fs.statSync(ledgerPath, { bigint: true }).ino.toString());
  const verified = await verifyLedgerFile(ledgerPath);
  assert.equal(verified.ok, true);
  assert.equal(verified.anchor, "matched");
  assert.equal(verified.missingLines, null);
});

test("cutting the ledger anywhere inside its anchored lines is a truncation naming the missing lines; writers refuse and write nothing", async () => {
  const { folder, ledgerPath } = await anchoredLedger(2);
  const original = fs.readFileSync(ledgerPath);
  const ends = lineEnds(original);
  for (let cut = 0; cut < original.length; cut += 1) {
    fs.writeFileSync(ledgerPath, original.subarray(0, cut));
    const kept = ends.filter((end) => end <= cut).length;
    const verified = await verifyLedgerFile(ledgerPath);
    assert.equal(verified.ok, false, `cut ${cut}`);
    assert.equal(verified.firstFault?.code, "ledger-truncated", `cut ${cut}`);
    assert.equal(verified.firstFault?.line, kept + 1, `cut ${cut}`);
    assert.deepEqual(verified.missingLines, { from: kept + 1, to: 4 }, `cut ${cut}`);
    assert.match(verified.firstFault?.message ?? "", kept === 3 ? /line 4 is missing/u : new RegExp(`lines ${kept + 1}–4 are missing`, "u"));
  }
  // One cut checked end to end: the writer refuses and the file keeps its bytes.
  fs.writeFileSync(ledgerPath, original.subarray(0, ends[1]));
  const writer = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true, clock: fixedClock() });
  writer.refresh();
  assert.equal(writer.status().phase, "blocked");
  await assert.rejects(writer.turnOn(), isCode("docket.ledger-truncated"));
  assert.ok(fs.readFileSync(ledgerPath).equals(original.subarray(0, ends[1])));
});

test("a whole-chain rewrite that keeps the line count is a rewrite at the anchored head", async () => {
  const { folder, ledgerPath } = await anchoredLedger(2);
  const lines = fs.readFileSync(ledgerPath, "utf8").split("\n").slice(0, -1).map((line) => JSON.parse(line) as { entry: { occurredAt: string } });
  // Change an entry of line 2 and recompute every later line hash: a valid chain, another history.
  let previous: string | null = null;
  let text = "";
  lines.forEach((line, index) => {
    const entry = index === 1 ? { ...line.entry, occurredAt: "2099-01-01T00:00:00.000Z" } : line.entry;
    const encoded = encodeLedgerLine(index, previous, DEVELOPER_STREAM, entry);
    text += encoded.text;
    previous = encoded.lineSha256;
  });
  fs.writeFileSync(ledgerPath, text);
  const store = new LedgerStore(ledgerPath);
  store.refresh();
  // The lines form a valid chain; the anchor is what says the history up to line 4 is not the
  // one Docket wrote.
  assert.equal(store.anchorState.kind, "mismatched");
  assert.equal(store.fault?.code, "ledger-rewritten");
  // verify names the earliest problem: the edited envelope on line 2 (its own hash no longer
  // matches); the anchor's verdict on line 4 is what blocks writers even when an edit is perfect.
  const verified = await verifyLedgerFile(ledgerPath);
  assert.equal(verified.ok, false);
  assert.equal(verified.firstFault?.line, 2);
  assert.equal(verified.anchor, "mismatched");
  const writer = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true });
  writer.refresh();
  assert.equal(writer.status().phase, "blocked");
  await assert.rejects(writer.turnOn(), isCode("docket.ledger-rewritten"));
});

test("a deleted ledger whose anchor remains is every line missing, not a workspace turned off", async () => {
  const { folder, ledgerPath } = await anchoredLedger(1);
  fs.rmSync(ledgerPath);
  const reader = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true });
  reader.refresh();
  assert.equal(reader.status().phase, "blocked");
  assert.deepEqual(reader.store.fault?.missingLines, { from: 1, to: 2 });
  await assert.rejects(reader.turnOn(), isCode("docket.ledger-truncated"));
  assert.equal(fs.existsSync(ledgerPath), false);
  const verified = await verifyLedgerFile(ledgerPath);
  assert.equal(verified.firstFault?.code, "ledger-truncated");
  // A person who decides the ledger is gone for good removes the anchor; then Docket is off.
  const removed = await new LedgerStore(ledgerPath).anchorNow({ accept: true });
  assert.equal(removed.lines, 0);
  reader.refresh();
  assert.equal(reader.status().phase, "off");
});

test("a damaged anchor blocks writers until a person anchors the ledger again", async () => {
  const { folder, ledgerPath } = await anchoredLedger(1);
  for (const garbage of ["not json", "{}", JSON.stringify({ format: ANCHOR_FORMAT, lines: 5, bytes: 3, head: null, ino: "1" })]) {
    fs.writeFileSync(anchorPathFor(ledgerPath), garbage);
    const writer = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true });
    writer.refresh();
    assert.equal(writer.store.fault?.code, "ledger-anchor-invalid", garbage);
    await assert.rejects(writer.turnOn(), isCode("docket.ledger-corrupt"));
    await assert.rejects(new LedgerStore(ledgerPath).anchorNow({ accept: false }), (error: unknown) => error instanceof Error && /--accept/u.test(error.message));
  }
  await new LedgerStore(ledgerPath).anchorNow({ accept: true });
  const writer = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true });
  writer.refresh();
  await writer.turnOn();
  assert.equal((await verifyLedgerFile(ledgerPath)).ok, true);
});

test("an anchor behind the ledger (a crash after the append, before the anchor) is not a truncation", async () => {
  const { folder, ledgerPath } = await anchoredLedger(1);
  const early = fs.readFileSync(anchorPathFor(ledgerPath));
  const writer = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true, clock: fixedClock() });
  writer.refresh();
  await writer.turnOn();
  fs.writeFileSync(anchorPathFor(ledgerPath), early);
  const verified = await verifyLedgerFile(ledgerPath);
  assert.equal(verified.ok, true);
  assert.equal(verified.anchor, "matched");
  await writer.turnOff();
  const read = readAnchor(folder, ledgerPath);
  assert.equal(read.kind === "anchor" ? read.anchor.lines : -1, 4, "the next write moves the anchor forward");
});

test("a batch the anchor announced and a crash cut short is never replayed in part, even a whole line without its newline", async () => {
  const { folder, ledgerPath } = await anchoredLedger(1);
  const writer = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true, clock: fixedClock() });
  writer.refresh();
  await writer.turnOn();
  await writer.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "What?", obligations: [{ obligationId: "obligation:a", statement: "Settled." }] });
  const phaseBefore = writer.status().phase;
  const anchorBefore = fs.readFileSync(anchorPathFor(ledgerPath), "utf8");
  const committed = fs.readFileSync(ledgerPath);
  await writer.concludeJudgment({ disposition: "not-applicable", reason: "Nothing.", basis: ["Seen."] });
  const whole = fs.readFileSync(ledgerPath);
  const read = readAnchor(folder, ledgerPath);
  assert.ok(read.kind === "anchor" && read.anchor.head !== null);
  const after = read.anchor;
  const batchEnds = lineEnds(whole.subarray(committed.length)).map((end) => committed.length + end);
  assert.ok(batchEnds.length > 1, "concluding a judgment appends several lines");
  // Cuts: after the batch's first whole line, and one byte short (a whole line without its newline).
  for (const cut of [batchEnds[0] as number, whole.length - 1]) {
    fs.writeFileSync(ledgerPath, whole.subarray(0, cut));
    const pending = { bytes: after.bytes, lines: after.lines, lineSha256: after.head?.lineSha256 };
    fs.writeFileSync(anchorPathFor(ledgerPath), `${JSON.stringify({ ...JSON.parse(anchorBefore), pending })}\n`);
    const reader = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true, clock: fixedClock() });
    reader.refresh();
    assert.equal(reader.status().phase, phaseBefore, `cut at ${cut}: nothing of the batch is replayed`);
    const verified = await verifyLedgerFile(ledgerPath);
    assert.equal(verified.ok, true, `cut at ${cut}: ${JSON.stringify(verified.firstFault)}`);
    assert.equal(verified.tornTailBytes, cut - committed.length);
    // The next writer sets the cut batch aside and writes its own after the committed lines.
    await reader.concludeJudgment({ disposition: "not-applicable", reason: "Nothing.", basis: ["Seen."] });
    assert.deepEqual(fs.readFileSync(ledgerPath).subarray(0, committed.length), committed);
    assert.ok(fs.readdirSync(path.dirname(ledgerPath)).some((name) => name.startsWith("ledger.jsonl.torn-")));
    assert.equal((await verifyLedgerFile(ledgerPath)).ok, true);
    const moved = readAnchor(folder, ledgerPath);
    assert.ok(moved.kind === "anchor" && moved.anchor.pending === undefined && moved.anchor.bytes === fs.statSync(ledgerPath).size);
  }
});

test("a ledger without an anchor (older Docket) verifies with a note, and the first write anchors it", async () => {
  const { folder, ledgerPath } = await anchoredLedger(1);
  fs.rmSync(anchorPathFor(ledgerPath));
  const verified = await verifyLedgerFile(ledgerPath);
  assert.equal(verified.ok, true);
  assert.equal(verified.anchor, "none");
  const writer = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true, clock: fixedClock() });
  writer.refresh();
  await writer.turnOn();
  assert.equal(readAnchor(folder, ledgerPath).kind, "anchor");
});

test("anchoring refuses a cut ledger without --accept and changes nothing; with it, readers follow the kept history", async () => {
  const { folder, ledgerPath } = await anchoredLedger(2);
  const original = fs.readFileSync(ledgerPath);
  const anchorBefore = fs.readFileSync(anchorPathFor(ledgerPath));
  fs.writeFileSync(ledgerPath, original.subarray(0, lineEnds(original)[1]));
  await assert.rejects(new LedgerStore(ledgerPath).anchorNow({ accept: false }), (error: unknown) => error instanceof Error && (error as { code?: string }).code === "ledger-truncated");
  assert.ok(fs.readFileSync(anchorPathFor(ledgerPath)).equals(anchorBefore));
  const accepted = await new LedgerStore(ledgerPath).anchorNow({ accept: true });
  assert.deepEqual(accepted, { lines: 2, previous: "mismatched" });
  const writer = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true, clock: fixedClock() });
  writer.refresh();
  assert.equal(writer.status().phase, "off");
  await writer.turnOn();
  assert.equal((await verifyLedgerFile(ledgerPath)).ok, true);
});

test("Git is a second anchor: a tracked ledger cut together with its local anchor is still caught", async () => {
  const repo = tempRepo({ files: { "README.md": "hello\n" } });
  try {
    const { ledgerPath } = await anchoredLedger(2, repo.root);
    runGit(repo.root, ["add", "-f", ".docket/ledger.jsonl"]);
    runGit(repo.root, ["commit", "--quiet", "--no-verify", "-m", "ledger"]);
    const committed = await verifyLedgerFile(ledgerPath);
    assert.equal(committed.ok, true);
    assert.equal(committed.git.state, "matched");
    const original = fs.readFileSync(ledgerPath);
    fs.writeFileSync(ledgerPath, original.subarray(0, lineEnds(original)[0]));
    // Someone who also rewrote the local anchor leaves nothing to compare beside the ledger…
    await new LedgerStore(ledgerPath).anchorNow({ accept: true });
    const cut = await verifyLedgerFile(ledgerPath);
    // …but the commit still holds four lines.
    assert.equal(cut.ok, false);
    assert.equal(cut.anchor, "matched");
    assert.equal(cut.git.state, "mismatched");
    assert.equal(cut.firstFault?.code, "ledger-truncated");
    assert.deepEqual(cut.missingLines, { from: 2, to: 4 });
    // A ledger replaced by a link to a device without end: refused, and the Git comparison never reads it.
    fs.rmSync(ledgerPath);
    fs.symlinkSync("/dev/zero", ledgerPath);
    const linked = await verifyLedgerFile(ledgerPath);
    assert.equal(linked.ok, false);
    fs.rmSync(ledgerPath);
    // Appending on top of the committed history is fine.
    fs.writeFileSync(ledgerPath, original);
    await new LedgerStore(ledgerPath).anchorNow({ accept: true });
    const writer = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true, clock: fixedClock() });
    writer.refresh();
    await writer.turnOn();
    const extended = await verifyLedgerFile(ledgerPath);
    assert.equal(extended.ok, true);
    assert.equal(extended.git.state, "matched");
  } finally {
    repo.dispose();
  }
});
