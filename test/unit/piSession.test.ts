// The Pi session reader: header, active branch, developer.runtime extraction, line problems,
// replay into a read-only history, the ledger export and the backend-facing source.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DocketError } from "../../server/errors";
import { replayPiSession, verifyPiHistory } from "../../server/pi/piHistory";
import { LedgerExportError, writeLedgerFile } from "../../server/pi/piLedgerExport";
import { MAX_PI_SESSION_BYTES, readPiSession } from "../../server/pi/piSession";
import { loadPiSession } from "../../server/pi/piSessionFile";
import { PiSessionSource } from "../../server/pi/piSessionSource";
import { importPiSession } from "../../server/pi/piImport";
import { verifyLedgerFile } from "../../server/workspace/workspaceLedger";
import { frameSpec, ScopeLog } from "../support/developerLog";
import { closeScope, openScope, sha } from "../support/envelopes";
import { PiSessionBuilder } from "../support/piSessionFile";

const bytes = (text: string): Uint8Array => Buffer.from(text, "utf8");

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "docket-pi-"));
}

/** A scope that opened a frame: phase "deciding". */
function decidingLog(): ScopeLog {
  const log = new ScopeLog("scope:pi");
  log.openFrame(frameSpec("scope:pi", "frame:pi", ["a"]));
  return log;
}

test("reads the active branch's developer.runtime entries in order and skips everything else", () => {
  const log = decidingLog();
  const session = new PiSessionBuilder();
  session.message("user", "Please refactor the parser.");
  session.developer(log.entries[0]);
  session.custom("developer.tool-policy-lifecycle", { protocol: "developer/v8", kind: "tool-policy-lifecycle" });
  session.message("assistant", "Opening a judgment.");
  session.developer(log.entries[1]);
  const read = readPiSession(bytes(session.text()));
  assert.equal(read.layout, "tree");
  assert.equal(read.header.version, 3);
  assert.equal(read.entries, 5);
  assert.equal(read.branchEntries, 5);
  assert.equal(read.offBranchEntries, 0);
  assert.equal(read.skippedEntries, 3);
  assert.deepEqual(read.developerEntries.map((entry) => entry.line), [3, 6]);
  assert.equal(read.problemCount, 0);
  const history = replayPiSession(read);
  assert.equal(history.replayer.accepted.length, 2);
  assert.equal(history.history.mode, "v8-active");
  assert.equal(history.phase, "deciding");
  assert.equal(history.projection.count, 2);
  assert.equal(verifyPiHistory("/s.jsonl", history).ok, true);
});

test("malformed and non-UTF-8 lines are reported with line numbers; a rejected envelope blocks the history", () => {
  const first = openScope("scope:bad");
  const session = new PiSessionBuilder();
  session.developer(first);
  const brokenLine = session.nextLine;
  session.raw("{ not json");
  const binaryLine = session.nextLine;
  session.raw("@@BINARY@@");
  const rejectedLine = session.nextLine;
  session.developer({ ...closeScope(first), eventSha256: sha("0") });
  session.raw(JSON.stringify([1, 2, 3]));
  const [head = "", tail = ""] = session.text().split("@@BINARY@@");
  const raw = Buffer.concat([Buffer.from(head, "utf8"), Buffer.from([0xff, 0xfe]), Buffer.from(tail, "utf8")]);
  const read = readPiSession(raw);
  assert.deepEqual(
    read.problems.map((problem) => [problem.line, problem.code]),
    [
      [brokenLine, "not-json"],
      [binaryLine, "not-utf8"],
      [rejectedLine + 1, "not-an-entry"],
    ],
  );
  const history = replayPiSession(read);
  assert.equal(history.replayer.accepted.length, 1);
  const rejected = history.dispositions.find((disposition) => disposition.status === "rejected");
  assert.equal(rejected?.line, rejectedLine);
  assert.equal(rejected?.status === "rejected" ? rejected.code : null, "invalid-envelope");
  assert.equal(history.history.mode, "blocked");
  assert.match(history.history.blockedReason ?? "", new RegExp(`^Pi session line ${rejectedLine}: replay rejected entry 1: invalid-envelope`, "u"));
  const verified = verifyPiHistory("/s.jsonl", history);
  assert.equal(verified.ok, false);
  assert.deepEqual([verified.firstFault?.line, verified.firstFault?.index], [rejectedLine, 1]);
});

test("a branched session replays only the branch ending at the last entry", () => {
  const abandoned = openScope("scope:abandoned");
  const kept = openScope("scope:kept");
  const session = new PiSessionBuilder();
  const fork = session.message("user", "Start.");
  session.developer(abandoned);
  session.message("assistant", "On the first branch.");
  session.developer(kept, fork);
  session.message("assistant", "On the second branch.");
  const read = readPiSession(bytes(session.text()));
  assert.equal(read.entries, 5);
  assert.equal(read.branchEntries, 3);
  assert.equal(read.offBranchEntries, 2);
  assert.equal(read.offBranchDeveloperEntries, 1);
  const history = replayPiSession(read);
  assert.deepEqual(history.history.scopes.map((scope) => scope.workScopeId), ["scope:kept"]);
  assert.equal(history.history.mode, "v8-active");
});

test("a missing parent cuts the branch there and is reported; linear (v1) sessions are read in file order", () => {
  const first = openScope("scope:one");
  const session = new PiSessionBuilder();
  session.developer(first);
  const orphanLine = session.nextLine;
  session.entry({ type: "message", message: { role: "user" } }, "nowhere");
  const read = readPiSession(bytes(session.text()));
  assert.deepEqual(read.problems.map((problem) => [problem.line, problem.code]), [[orphanLine, "missing-parent"]]);
  assert.equal(read.branchEntries, 1);
  assert.equal(read.developerEntries.length, 0);

  const linear = new PiSessionBuilder({ version: null });
  linear.raw(JSON.stringify({ type: "custom", customType: "developer.runtime", data: first }));
  linear.raw(JSON.stringify({ type: "message", message: { role: "user" } }));
  const linearRead = readPiSession(bytes(linear.text()));
  assert.equal(linearRead.layout, "linear");
  assert.equal(linearRead.developerEntries.length, 1);
  assert.equal(replayPiSession(linearRead).replayer.accepted.length, 1);
});

test("files that are not Pi sessions are refused with coded errors", () => {
  const isCode = (code: string) => (error: unknown) => error instanceof DocketError && error.code === code;
  assert.throws(() => readPiSession(bytes("")), isCode("docket.pi-session-invalid"));
  assert.throws(() => readPiSession(bytes(`${JSON.stringify(openScope("scope:x"))}\n`)), isCode("docket.pi-session-invalid"));
  assert.throws(() => readPiSession(Buffer.from([0xff, 0x0a])), isCode("docket.pi-session-invalid"));
  assert.throws(() => readPiSession(bytes("{\n")), isCode("docket.pi-session-invalid"));
  const directory = tempDir();
  const huge = path.join(directory, "huge.jsonl");
  fs.writeFileSync(huge, "");
  fs.truncateSync(huge, MAX_PI_SESSION_BYTES + 1);
  assert.throws(() => loadPiSession(huge), isCode("docket.pi-session-too-large"));
  assert.throws(() => loadPiSession(path.join(directory, "missing.jsonl")), isCode("docket.pi-session-unreadable"));
  assert.throws(() => loadPiSession(directory), isCode("docket.pi-session-unreadable"));
});

test("the accepted envelopes become a ledger that verifies; an existing file is never replaced", async () => {
  const log = decidingLog();
  const session = new PiSessionBuilder();
  for (const envelope of log.entries) session.developer(envelope);
  const directory = tempDir();
  const sessionPath = path.join(directory, "session.jsonl");
  fs.writeFileSync(sessionPath, session.text());
  const ledgerPath = path.join(directory, "out", "ledger.jsonl");
  const outcome = importPiSession(sessionPath, ledgerPath);
  assert.equal(outcome.exitCode, 0);
  assert.equal(outcome.report.out?.lines, 2);
  const verified = await verifyLedgerFile(ledgerPath);
  assert.equal(verified.ok, true);
  assert.equal(verified.accepted, 2);
  assert.deepEqual(fs.readdirSync(path.dirname(ledgerPath)), ["ledger.jsonl"]);
  const before = fs.readFileSync(ledgerPath);
  assert.throws(() => writeLedgerFile(ledgerPath, []), (error: unknown) => error instanceof LedgerExportError && error.code === "output-exists");
  assert.deepEqual(fs.readFileSync(ledgerPath), before);
});

test("an unclean import writes nothing", () => {
  const first = openScope("scope:unclean");
  const session = new PiSessionBuilder();
  session.developer(first);
  session.developer({ ...closeScope(first), eventSha256: sha("0") });
  const directory = tempDir();
  const sessionPath = path.join(directory, "session.jsonl");
  fs.writeFileSync(sessionPath, session.text());
  const ledgerPath = path.join(directory, "ledger.jsonl");
  const outcome = importPiSession(sessionPath, ledgerPath);
  assert.equal(outcome.exitCode, 1);
  assert.equal(outcome.report.out, null);
  assert.equal(outcome.report.rejected, 1);
  assert.deepEqual(fs.readdirSync(directory), ["session.jsonl"]);
});

test("the backend source answers status and receipts from the session and follows appends", () => {
  const log = decidingLog();
  const session = new PiSessionBuilder();
  session.developer(log.entries[0]);
  const directory = tempDir();
  const sessionPath = path.join(directory, "session.jsonl");
  fs.writeFileSync(sessionPath, session.text());
  const source = new PiSessionSource(sessionPath, { workspaceFolder: null, trusted: true });
  const before = source.status();
  assert.deepEqual(before.source, { kind: "pi-session", path: sessionPath, entries: 1 });
  assert.equal(before.phase, "deciding");
  assert.equal(before.receiptCount, 1);
  assert.equal(before.ledger?.accepted, 1);
  assert.equal(source.refresh(), false);
  session.message("user", "Go on.");
  session.developer(log.entries[1]);
  fs.writeFileSync(sessionPath, session.text());
  assert.equal(source.refresh(), true);
  const after = source.status();
  assert.notEqual(after.revision, before.revision);
  assert.equal(after.receiptCount, 2);
  assert.deepEqual(
    source.receiptsPage(null, 100).receipts.map((row) => row.kind),
    ["work-scope-opened", "route-frame-opened"],
  );
  assert.equal(source.workState().frames.length, 1);
  assert.equal(source.policy().phase, "deciding");
  fs.rmSync(sessionPath);
  assert.equal(source.refresh(), true);
  const gone = source.status();
  assert.equal(gone.historyMode, "blocked");
  assert.match(gone.blockedReason ?? "", /docket\.pi-session-unreadable/u);
  assert.equal(gone.receiptCount, 0);
});
