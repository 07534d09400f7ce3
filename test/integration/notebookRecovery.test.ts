// Crash recovery and concurrent publishers (observer.md §6.3): a publishing child process is killed
// (SIGKILL) at each named step and the next start leaves the notebook fully old (cleared or rolled
// back) or fully new (settled without republishing); only someone else's bytes in a target make it
// report `mixed` with diagnostics while writing nothing. Two processes publishing different
// proposals to one notebook at once: exactly one wins. (Every numbered step of a 200-record batch
// is the reliability target test/reliability/targets/notebookCrash.ts.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sha256Hex } from "../../server/ledger/canonicalJson";
import { openNotebook } from "../../server/notebook/notebookStore";
import type { PreparedRecord } from "../../server/notebook/proposal";
import { readReceipt } from "../../server/notebook/proposalStore";
import { publishProposal, type PublicationResult } from "../../server/notebook/publication";
import { KILL_AT_VARIABLE, killPointFromEnvironment } from "../../server/notebook/crashSeam";
import { describeRecovery, OWNER_FILE, recoverNotebook } from "../../server/notebook/recovery";
import { MEMO_ONE, ZETTEL_NEW, promotedZettel } from "../support/notebookRecords";
import { externalSource, nextId, notebookFixture, pairedBatch, proposeRecords, publishSteps, recordFiles, stepOf, type NotebookFixture } from "../support/notebookFixture";

const PUBLICATION_MODULE = path.join(__dirname, "..", "..", "server", "notebook", "publication.js");

const activeDir = (root: string): string => path.join(root, ".observer", "transactions", "active");
const receiptIds = (): string => nextId("receipt");

/** A child node process that publishes; with a kill point it SIGKILLs itself there, as a crash would. */
const CHILD = `
const { publishProposal } = require(process.argv[1]);
const [workspace, proposalId, killAt] = process.argv.slice(2);
const fault = killAt === "-" ? undefined : { at: killAt, run: () => process.kill(process.pid, "SIGKILL") };
const result = publishProposal({ workspace, proposalId, approved: true, fault });
process.stdout.write(JSON.stringify(result));
`;

function publishInChild(fx: NotebookFixture, proposalId: string, killAt: string): { status: number | null; signal: NodeJS.Signals | null; stdout: string } {
  const result = spawnSync(process.execPath, ["-e", CHILD, PUBLICATION_MODULE, fx.workspace, proposalId, killAt], { encoding: "utf8" });
  return { status: result.status, signal: result.signal, stdout: result.stdout };
}

test("killed before anything was published: the next start clears the staging folder and the notebook is fully old", () => {
  for (const killAt of ["after-stage", "before-drift-check", "before-publish"]) {
    const fx = notebookFixture({ prefix: "docket-recovery-" });
    const before = recordFiles(fx.root);
    const proposalId = proposeRecords(fx, pairedBatch(fx));
    const child = publishInChild(fx, proposalId, killAt);
    assert.equal(child.signal, "SIGKILL", killAt);
    assert.ok(fs.existsSync(path.join(activeDir(fx.root), OWNER_FILE)), "the crash left the lock");
    assert.deepEqual(recordFiles(fx.root), before, killAt);
    // A kill between writing a create's temp file and linking it leaves a stray that recovery removes.
    const stray = path.join(fx.root, "records", `.${ZETTEL_NEW}.md.00000000-0000-4000-8000-000000000000.tmp`);
    fs.writeFileSync(stray, promotedZettel());
    const recovered = recoverNotebook({ root: fx.root, workspace: fx.workspace, receiptId: receiptIds });
    assert.equal(recovered.status, "not-published", killAt);
    assert.equal(fs.existsSync(activeDir(fx.root)), false);
    assert.equal(fs.existsSync(stray), false);
    assert.deepEqual(recordFiles(fx.root), before);
    // And the same approval can be published now.
    const retry = publishProposal({ workspace: fx.workspace, proposalId, approved: true });
    assert.ok(retry.ok, JSON.stringify(retry));
  }
});

test("killed mid-publish (after the first of two records): recovery rolls the published record back from its before image, and the proposal publishes again", () => {
  const fx = notebookFixture({ prefix: "docket-recovery-" });
  const before = recordFiles(fx.root);
  const proposalId = proposeRecords(fx, pairedBatch(fx));
  const batch = pairedBatch(fx);
  const child = publishInChild(fx, proposalId, "mid-publish");
  assert.equal(child.signal, "SIGKILL");
  const crashed = recordFiles(fx.root);
  assert.equal(crashed["memo-incubating.md"], (batch[0] as PreparedRecord).markdown, "first record published");
  assert.equal(crashed[`${ZETTEL_NEW}.md`], undefined, "second record not published");
  const recovered = recoverNotebook({ root: fx.root, workspace: fx.workspace, receiptId: receiptIds });
  assert.equal(recovered.status, "not-published", JSON.stringify(recovered));
  if (recovered.status !== "not-published") return;
  assert.equal(recovered.proposalId, proposalId);
  assert.equal(recovered.restored, 1);
  assert.deepEqual(recordFiles(fx.root), before, "the notebook is exactly as it was");
  assert.equal(fs.existsSync(activeDir(fx.root)), false);
  assert.deepEqual(fs.readdirSync(path.dirname(activeDir(fx.root))), [], "nothing left of the lock");
  assert.equal(readReceipt(fx.workspace, proposalId), null);
  const retry = publishProposal({ workspace: fx.workspace, proposalId, approved: true });
  assert.ok(retry.ok && retry.settled === "published", JSON.stringify(retry));
  assert.equal(recordFiles(fx.root)[`${ZETTEL_NEW}.md`], promotedZettel());
});

test("killed mid-publish, then someone else changes a published record: recovery reports mixed with diagnostics and writes nothing, until the bytes are put back", () => {
  const fx = notebookFixture({ prefix: "docket-recovery-foreign-bytes-" });
  const before = recordFiles(fx.root);
  const proposalId = proposeRecords(fx, pairedBatch(fx));
  assert.equal(publishInChild(fx, proposalId, "mid-publish").signal, "SIGKILL");
  const memo = path.join(fx.root, "records", "memo-incubating.md");
  const published = fs.readFileSync(memo);
  fs.writeFileSync(memo, "edited by someone else");
  const crashed = recordFiles(fx.root);
  const recovered = recoverNotebook({ root: fx.root, workspace: fx.workspace, receiptId: receiptIds });
  assert.equal(recovered.status, "mixed");
  if (recovered.status !== "mixed") return;
  assert.equal(recovered.proposalId, proposalId);
  assert.deepEqual(
    recovered.records.map((record) => [record.recordId, record.state]),
    [
      [MEMO_ONE, "other"],
      [ZETTEL_NEW, "before"],
    ],
  );
  assert.deepEqual(
    recovered.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.recordId, diagnostic.path]),
    [
      ["publication-transaction.mixed", MEMO_ONE, "records/memo-incubating.md"],
      ["publication-transaction.mixed", ZETTEL_NEW, `records/${ZETTEL_NEW}.md`],
    ],
  );
  assert.deepEqual(recordFiles(fx.root), crashed, "nothing written");
  assert.ok(fs.existsSync(activeDir(fx.root)), "the lock stays");
  const blocked = publishProposal({ workspace: fx.workspace, proposalId, approved: true });
  assert.ok(!blocked.ok && blocked.issue.code === "save.busy" && blocked.issue.recoveryRequired);
  assert.deepEqual(recordFiles(fx.root), crashed);
  // Put the published bytes back (what the advice says): the next recovery rolls the batch back.
  fs.writeFileSync(memo, published);
  assert.equal(recoverNotebook({ root: fx.root, workspace: fx.workspace, receiptId: receiptIds }).status, "not-published");
  assert.deepEqual(recordFiles(fx.root), before);
});

test("killed before readback (everything published): the next start settles with a receipt and does not republish", () => {
  const fx = notebookFixture({ prefix: "docket-recovery-" });
  const proposalId = proposeRecords(fx, pairedBatch(fx));
  const child = publishInChild(fx, proposalId, "before-readback");
  assert.equal(child.signal, "SIGKILL");
  const published = recordFiles(fx.root);
  const inodes = fs.readdirSync(path.join(fx.root, "records")).map((name) => fs.statSync(path.join(fx.root, "records", name)).ino);
  const recovered = recoverNotebook({ root: fx.root, workspace: fx.workspace, receiptId: receiptIds });
  assert.equal(recovered.status, "settled");
  if (recovered.status !== "settled") return;
  assert.equal(recovered.receipt.proposal_id, proposalId);
  assert.deepEqual(
    recovered.receipt.records.map((record) => record.record_id),
    [MEMO_ONE, ZETTEL_NEW],
  );
  assert.deepEqual(readReceipt(fx.workspace, proposalId), recovered.receipt);
  assert.equal(fs.existsSync(activeDir(fx.root)), false);
  assert.deepEqual(recordFiles(fx.root), published);
  assert.deepEqual(
    fs.readdirSync(path.join(fx.root, "records")).map((name) => fs.statSync(path.join(fx.root, "records", name)).ino),
    inodes,
    "no file was rewritten",
  );
  const again = publishProposal({ workspace: fx.workspace, proposalId, approved: true });
  assert.ok(!again.ok && again.issue.code === "save.lifecycle");
});

test("recovery never touches a live or unknown lock and never trusts a malformed journal; an empty or half-claimed lock folder is cleared", () => {
  const fx = notebookFixture({ prefix: "docket-recovery-" });
  const recover = (isAlive?: (pid: number) => boolean): string => recoverNotebook({ root: fx.root, workspace: fx.workspace, receiptId: receiptIds, ...(isAlive === undefined ? {} : { isAlive }) }).status;
  assert.equal(recover(), "clean");
  // A publisher killed right after taking the folder, or while writing its owner file: it owned nothing.
  fs.mkdirSync(activeDir(fx.root), { recursive: true });
  assert.equal(recover(), "not-published", "an empty lock folder is never busy forever");
  assert.equal(fs.existsSync(activeDir(fx.root)), false);
  fs.mkdirSync(activeDir(fx.root));
  fs.writeFileSync(path.join(activeDir(fx.root), ".docket-owner.json.00000000-0000-4000-8000-000000000000.tmp"), "");
  assert.equal(recover(), "not-published", "a half-written owner file owns nothing");
  assert.equal(fs.existsSync(activeDir(fx.root)), false);
  // Another tool staging (no owner, no journal, but its files): do not guess.
  fs.mkdirSync(path.join(activeDir(fx.root), "staged"), { recursive: true });
  assert.equal(recover(), "busy");
  fs.rmSync(activeDir(fx.root), { recursive: true });
  fs.mkdirSync(activeDir(fx.root));
  fs.writeFileSync(path.join(activeDir(fx.root), OWNER_FILE), JSON.stringify({ pid: 999999, hostname: os.hostname() }));
  assert.equal(recover(() => true), "busy", "a running publisher");
  fs.writeFileSync(path.join(activeDir(fx.root), OWNER_FILE), JSON.stringify({ pid: process.ppid, hostname: os.hostname(), released: true }));
  fs.writeFileSync(path.join(activeDir(fx.root), "transaction.json"), "{}");
  assert.equal(recover(() => false), "unreadable");
  fs.writeFileSync(
    path.join(activeDir(fx.root), "transaction.json"),
    JSON.stringify({ observer_transaction: "observer-notebook-publication/v1", transaction_id: "transaction-1", proposal_id: "proposal-1", records: [{ operation: "create", record_id: ZETTEL_NEW, path: "../../outside.md", before_sha256: null, next_sha256: "0".repeat(64) }] }),
  );
  assert.equal(recover(() => false), "unreadable", "a path outside records/ is refused");
  assert.ok(fs.existsSync(activeDir(fx.root)));
  fs.rmSync(path.join(activeDir(fx.root), "transaction.json"));
  assert.equal(recover(), "not-published", "a released lock without a journal: nothing was published");
  assert.equal(fs.existsSync(activeDir(fx.root)), false);
  fs.mkdirSync(activeDir(fx.root));
  fs.writeFileSync(path.join(activeDir(fx.root), OWNER_FILE), JSON.stringify({ pid: 999999, hostname: os.hostname() }));
  assert.equal(recover(() => false), "not-published", "dead owner, no journal: nothing was published");
  assert.equal(fs.existsSync(activeDir(fx.root)), false);
});

test("a no-op update beside a create, killed before anything was published, is cleared: unchanged bytes count as both before and final", () => {
  const fx = notebookFixture({ prefix: "docket-recovery-noop-" });
  const memo = fs.readFileSync(path.join(fx.root, "records", "memo-incubating.md"), "utf8");
  const source = nextId("source");
  const proposalId = proposeRecords(fx, [
    { operation: "update", record_id: MEMO_ONE, expected_sha256: sha256Hex(memo), markdown: memo },
    { operation: "create", record_id: source, markdown: externalSource(source) },
  ]);
  const before = recordFiles(fx.root);
  const killed = publishInChild(fx, proposalId, "after-stage");
  assert.equal(killed.signal, "SIGKILL");
  const recovered = recoverNotebook({ root: fx.root, workspace: fx.workspace, receiptId: receiptIds });
  assert.equal(recovered.status, "not-published", JSON.stringify(recovered));
  assert.equal(fs.existsSync(activeDir(fx.root)), false);
  assert.deepEqual(recordFiles(fx.root), before);
  const published = publishProposal({ workspace: fx.workspace, proposalId, approved: true });
  assert.equal(published.ok, true, JSON.stringify(published));
});

test("another tool's lock (a journal without Docket's owner file) is never removed or settled", () => {
  const fx = notebookFixture({ prefix: "docket-recovery-foreign-" });
  fs.mkdirSync(activeDir(fx.root), { recursive: true });
  const journal = { observer_transaction: "observer-notebook-publication/v1", transaction_id: "transaction-1", proposal_id: "proposal-1", records: [{ operation: "create", record_id: ZETTEL_NEW, path: `records/${ZETTEL_NEW}.md`, before_sha256: null, next_sha256: "0".repeat(64) }] };
  fs.writeFileSync(path.join(activeDir(fx.root), "transaction.json"), JSON.stringify(journal));
  const outcome = recoverNotebook({ root: fx.root, workspace: fx.workspace, receiptId: receiptIds, isAlive: () => false });
  assert.equal(outcome.status, "busy");
  assert.match(outcome.status === "busy" ? outcome.message : "", /another tool's publication/u);
  assert.equal(describeRecovery(fx.root, () => false).action, "blocked", "status says recovery cannot finish it, not that it should wait");
  assert.ok(fs.existsSync(path.join(activeDir(fx.root), "transaction.json")), "the foreign journal is kept");
});

test("recovery reports instead of throwing, and never follows a records/ link out of the notebook", () => {
  const fx = notebookFixture({ prefix: "docket-recovery-unreadable-" });
  const proposalId = proposeRecords(fx, pairedBatch(fx));
  assert.equal(publishInChild(fx, proposalId, "before-readback").signal, "SIGKILL");
  // Everything was published, but the manifest the receipt needs is gone.
  const manifest = path.join(fx.root, ".observer", "notebook.json");
  const manifestBytes = fs.readFileSync(manifest);
  fs.rmSync(manifest);
  const missing = recoverNotebook({ root: fx.root, workspace: fx.workspace, receiptId: receiptIds });
  assert.equal(missing.status, "unreadable", JSON.stringify(missing));
  const refused = publishProposal({ workspace: fx.workspace, proposalId, approved: true });
  assert.equal(refused.ok ? null : refused.issue.code, "save.busy");
  fs.writeFileSync(manifest, manifestBytes);

  // records/ swapped for a link to a folder outside: nothing there is hashed or removed.
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), "docket-recovery-outside-"));
  const records = path.join(fx.root, "records");
  fs.cpSync(records, outside, { recursive: true });
  fs.writeFileSync(path.join(outside, `.${ZETTEL_NEW}.md.00000000-0000-4000-8000-000000000000.tmp`), "stray");
  fs.rmSync(records, { recursive: true });
  fs.symlinkSync(outside, records);
  const linked = recoverNotebook({ root: fx.root, workspace: fx.workspace, receiptId: receiptIds });
  assert.equal(linked.status, "unreadable", JSON.stringify(linked));
  assert.ok(fs.existsSync(path.join(outside, `.${ZETTEL_NEW}.md.00000000-0000-4000-8000-000000000000.tmp`)), "nothing outside the notebook was removed");
  assert.ok(fs.existsSync(activeDir(fx.root)));
  fs.rmSync(outside, { recursive: true, force: true });
});

function publishConcurrently(fx: NotebookFixture, proposalIds: readonly string[]): Promise<PublicationResult[]> {
  return Promise.all(
    proposalIds.map(
      (proposalId) =>
        new Promise<PublicationResult>((resolve, reject) => {
          const child = spawn(process.execPath, ["-e", CHILD, PUBLICATION_MODULE, fx.workspace, proposalId, "-"], { stdio: ["ignore", "pipe", "pipe"] });
          let stdout = "";
          let stderr = "";
          child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
          child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
          child.on("error", reject);
          child.on("close", () => {
            try {
              resolve(JSON.parse(stdout) as PublicationResult);
            } catch {
              reject(new Error(`child failed: ${stderr}`));
            }
          });
        }),
    ),
  );
}

test("two windows publishing different proposals to one notebook at once: exactly one wins, the other is busy or concurrent-change", async () => {
  for (let round = 0; round < 4; round += 1) {
    const fx = notebookFixture({ prefix: "docket-recovery-" });
    const before = recordFiles(fx.root);
    const first = externalSource("source-00000000-0000-4000-8000-000000000020");
    const second = externalSource("source-00000000-0000-4000-8000-000000000021");
    const proposals = [
      proposeRecords(fx, [{ operation: "create", record_id: "source-00000000-0000-4000-8000-000000000020", markdown: first }]),
      proposeRecords(fx, [{ operation: "create", record_id: "source-00000000-0000-4000-8000-000000000021", markdown: second }]),
    ];
    const results = await publishConcurrently(fx, proposals);
    const winners = results.filter((result) => result.ok);
    assert.equal(winners.length, 1, JSON.stringify(results));
    const loser = results.find((result) => !result.ok);
    assert.ok(loser !== undefined && !loser.ok && ["save.busy", "save.concurrent-change"].includes(loser.issue.code), JSON.stringify(loser));
    const winnerIndex = results.findIndex((result) => result.ok);
    const expected = { ...before, [`source-00000000-0000-4000-8000-00000000002${winnerIndex}.md`]: winnerIndex === 0 ? first : second };
    assert.deepEqual(recordFiles(fx.root), expected, "the notebook holds exactly the winner's batch");
    assert.equal(fs.existsSync(activeDir(fx.root)), false);
    assert.ok(openNotebook(fx.root).ok);
  }
});

// ---- the crash seam and the command line, as a user meets an interrupted publication ----

const CLI = path.join(__dirname, "..", "..", "..", "dist", "docket.js");

function docket(args: readonly string[], killAt: string | null = null): { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env[KILL_AT_VARIABLE];
  if (killAt !== null) env[KILL_AT_VARIABLE] = killAt;
  const result = spawnSync(process.execPath, [CLI, "notebook", ...args], { encoding: "utf8", env, input: "" });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

test("the crash seam: DOCKET_NOTEBOOK_KILL_AT kills the publisher before the named step and nothing else", () => {
  assert.equal(killPointFromEnvironment("publish", { [KILL_AT_VARIABLE]: "publish:17" }), 17);
  assert.equal(killPointFromEnvironment("recover", { [KILL_AT_VARIABLE]: "publish:17" }), null, "only the named phase");
  for (const value of ["", "publish", "publish:0", "publish:-1", "publish:1.5", "publish:x", " publish:3", "publish:3 "]) {
    assert.equal(killPointFromEnvironment("publish", { [KILL_AT_VARIABLE]: value }), null, JSON.stringify(value));
  }
  const fx = notebookFixture({ prefix: "docket-recovery-seam-" });
  const before = recordFiles(fx.root);
  // Harmless to every other command, and a malformed value kills nothing.
  assert.equal(docket(["status", fx.root], "publish:1").status, 0);
  assert.equal(docket(["validate", fx.root], "recover:1").status, 0);
  const proposalId = proposeRecords(fx, pairedBatch(fx));
  const malformed = docket(["publish", proposalId, "--yes", "--workspace", fx.workspace], "publish:one");
  assert.equal(malformed.status, 0, malformed.stderr);
  assert.notDeepEqual(recordFiles(fx.root), before);
  // A kill point names its step on stderr before the process dies.
  const other = notebookFixture({ prefix: "docket-recovery-seam-" });
  const killed = docket(["publish", proposeRecords(other, pairedBatch(other)), "--yes", "--workspace", other.workspace], "publish:2");
  assert.equal(killed.signal, "SIGKILL");
  assert.match(killed.stderr, /killed before publish step 2 \(mkdir \.observer\/transactions\/active\)/u);
});

test("after a crash mid-publish with a stray temporary in records/: status and validate say recovery-required (never layout-invalid, never valid), and recover rolls back", () => {
  const labels = publishSteps(pairedBatch);
  const fx = notebookFixture({ prefix: "docket-recovery-cli-" });
  const before = recordFiles(fx.root);
  const proposalId = proposeRecords(fx, pairedBatch(fx));
  // Killed after the first record was published, before the second.
  const killed = docket(["publish", proposalId, "--yes", "--workspace", fx.workspace], `publish:${stepOf(labels, / -> records\//u, 1)}`);
  assert.equal(killed.signal, "SIGKILL", killed.stderr);
  // What the reference Observer's publisher (or Docket's, with records/ on another file system) leaves when killed mid-write.
  const stray = path.join(fx.root, "records", `.${ZETTEL_NEW}.md.00000000-0000-4000-8000-000000000000.tmp`);
  fs.writeFileSync(stray, "half a rec");
  const crashed = recordFiles(fx.root);

  const status = docket(["status", fx.root, "--json"]);
  assert.equal(status.status, 1, status.stderr);
  const report = JSON.parse(status.stdout) as { health: string; records: number; activeTransaction: boolean; issues: { code: string; recovery?: string; message: string }[] };
  assert.equal(report.health, "recovery-required");
  assert.equal(report.activeTransaction, true);
  assert.equal(report.records, Object.keys(before).length, "the temporary is not counted as a record");
  assert.equal(report.issues[0]?.code, "publication-transaction.active");
  assert.equal(report.issues[0]?.recovery, "roll-back");
  assert.match(report.issues[0]?.message ?? "", /1 publication temporary file/u);
  const text = docket(["status", fx.root]);
  assert.match(text.stdout, /health: recovery-required\n/u);
  assert.match(text.stdout, new RegExp(`run docket notebook recover ${fx.root.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")}`, "u"));

  const validate = docket(["validate", fx.root, "--json"]);
  assert.equal(validate.status, 3, "recovery required");
  const validation = JSON.parse(validate.stdout) as { valid: boolean; diagnostics: { code: string; path: string }[] };
  assert.equal(validation.valid, false, "a half-published notebook is never valid");
  assert.deepEqual(
    validation.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.path]),
    [
      ["publication-transaction.active", ".observer/transactions/active"],
      ["publication-transaction.leftover", `records/.${ZETTEL_NEW}.md.00000000-0000-4000-8000-000000000000.tmp`],
      // Half of the batch: the memo is promoted, the zettel promoted from it is not there yet.
      ["graph.promotion.mismatch", "records/memo-incubating.md"],
    ],
  );
  assert.deepEqual(recordFiles(fx.root), crashed, "status and validate never write");

  const recovered = docket(["recover", fx.root, "--workspace", fx.workspace, "--json"]);
  assert.equal(recovered.status, 0, recovered.stderr);
  const outcome = JSON.parse(recovered.stdout) as { status: string; proposalId: string; restored: number; health: string };
  assert.deepEqual([outcome.status, outcome.proposalId, outcome.restored, outcome.health], ["not-published", proposalId, 1, "healthy"]);
  assert.deepEqual(recordFiles(fx.root), before);
  assert.equal(fs.existsSync(stray), false, "recovery removed the temporary");
  assert.deepEqual(fs.readdirSync(path.join(fx.root, ".observer", "transactions")), []);
  assert.equal(docket(["validate", fx.root, "--json"]).status, 0);
  const again = docket(["publish", proposalId, "--yes", "--workspace", fx.workspace]);
  assert.equal(again.status, 0, again.stderr);
});

test("recover: a crash after the last record settles with a receipt; a crash while the lock was being removed or the receipt written needs nothing but a following publish", () => {
  const labels = publishSteps(pairedBatch);
  const cases: [string, number][] = [
    ["before the lock is removed", stepOf(labels, /^rename \.observer\/transactions\/active -> /u)],
    ["while the removed lock is deleted", stepOf(labels, /^rm -r .*docket-removed/u)],
    ["before the receipt", stepOf(labels, /receipt/u)],
  ];
  for (const [when, step] of cases) {
    const fx = notebookFixture({ prefix: "docket-recovery-settle-" });
    const proposalId = proposeRecords(fx, pairedBatch(fx));
    assert.equal(docket(["publish", proposalId, "--yes", "--workspace", fx.workspace], `publish:${step}`).signal, "SIGKILL", when);
    const published = recordFiles(fx.root);
    assert.equal(published[`${ZETTEL_NEW}.md`], promotedZettel(), when);
    const recovered = docket(["recover", fx.root, "--workspace", fx.workspace, "--json"]);
    assert.equal(recovered.status, 0, `${when}: ${recovered.stderr}`);
    const outcome = JSON.parse(recovered.stdout) as { status: string; health: string };
    assert.equal(outcome.status, step === cases[0]?.[1] ? "settled" : "clean", when);
    assert.equal(outcome.health, "healthy", when);
    assert.deepEqual(fs.readdirSync(path.join(fx.root, ".observer", "transactions")), [], `${when}: nothing left of the lock`);
    assert.deepEqual(recordFiles(fx.root), published, when);
    const again = publishProposal({ workspace: fx.workspace, proposalId, approved: true });
    assert.ok(again.ok ? again.settled === "already-published" : again.issue.code === "save.lifecycle", `${when}: ${JSON.stringify(again)}`);
    assert.ok(readReceipt(fx.workspace, proposalId) !== null, when);
  }
});

test("recover: exit 3 while another process holds the lock or someone else's bytes are in the way; exit 2 for a folder that is not there", () => {
  const fx = notebookFixture({ prefix: "docket-recovery-exit-" });
  fs.mkdirSync(activeDir(fx.root), { recursive: true });
  fs.writeFileSync(path.join(activeDir(fx.root), OWNER_FILE), JSON.stringify({ pid: process.pid, hostname: os.hostname() }));
  const busy = docket(["recover", fx.root, "--workspace", fx.workspace]);
  assert.equal(busy.status, 3);
  assert.match(busy.stderr, /^docket: publication-transaction\.active: process \d+ is publishing to or recovering this notebook/u);
  assert.ok(fs.existsSync(path.join(activeDir(fx.root), OWNER_FILE)), "a live owner's lock is kept");
  const status = docket(["status", fx.root]);
  assert.match(status.stdout, /wait for it, then check again/u);
  fs.rmSync(activeDir(fx.root), { recursive: true });
  const missing = docket(["recover", path.join(fx.root, "nowhere")]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^docket: notebook\.path-missing: /u);
  const clean = docket(["recover", fx.root, "--workspace", fx.workspace]);
  assert.equal(clean.status, 0);
  assert.match(clean.stdout, /recovered: no publication was in progress/u);
});

// ---- containment: no write through a link in the lock folder, a record or a temporary ----

test("nothing is read or written through a link swapped into the lock folder or a record: recovery reports, rolls forward without it, or leaves it alone", () => {
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), "docket-recovery-outside-"));
  const listing = (): string[] => fs.readdirSync(outside).sort();
  try {
    // 1. staged/ swapped for a link while publishing: the publisher refuses to read through it and rolls back.
    const fx = notebookFixture({ prefix: "docket-recovery-link-" });
    const before = recordFiles(fx.root);
    const proposalId = proposeRecords(fx, pairedBatch(fx));
    const staged = path.join(activeDir(fx.root), "staged");
    const swapped = publishProposal({
      workspace: fx.workspace,
      proposalId,
      approved: true,
      fault: {
        at: "mid-publish",
        run: () => {
          fs.cpSync(staged, outside, { recursive: true });
          fs.rmSync(staged, { recursive: true });
          fs.symlinkSync(outside, staged);
        },
      },
    });
    assert.ok(!swapped.ok && !swapped.issue.recoveryRequired, JSON.stringify(swapped));
    assert.deepEqual(recordFiles(fx.root), before, "rolled back from the before image");
    assert.deepEqual(listing(), ["000000.next", "000001.next"].filter((name) => fs.existsSync(path.join(outside, name))), "nothing removed or added outside");
    const outsideBefore = listing();

    // 2. A published create swapped for a link (same bytes) after a crash: never hashed through, never unlinked: mixed.
    const other = notebookFixture({ prefix: "docket-recovery-link-" });
    const labels = publishSteps(pairedBatch);
    const otherProposal = proposeRecords(other, pairedBatch(other));
    assert.equal(docket(["publish", otherProposal, "--yes", "--workspace", other.workspace], `publish:${stepOf(labels, / -> records\//u, 1) + 1}`).signal, "SIGKILL");
    const zettel = path.join(other.root, "records", `${ZETTEL_NEW}.md`);
    const outsideZettel = path.join(outside, "zettel.md");
    fs.copyFileSync(zettel, outsideZettel);
    fs.rmSync(zettel);
    fs.symlinkSync(outsideZettel, zettel);
    const linked = recoverNotebook({ root: other.root, workspace: other.workspace, receiptId: receiptIds });
    assert.equal(linked.status, "mixed", JSON.stringify(linked));
    assert.equal(fs.readFileSync(outsideZettel, "utf8"), promotedZettel(), "the file the link points to is untouched");
    assert.ok(fs.lstatSync(zettel).isSymbolicLink(), "the link is left for a person to look at");
    fs.rmSync(zettel);
    fs.copyFileSync(outsideZettel, zettel);

    // 3. before/ swapped for a link to a folder holding a valid image: recovery does not read it, so it
    //    cannot roll back, and completes the batch from the verified staged images instead.
    const before3 = path.join(activeDir(other.root), "before");
    const outsideBefore3 = path.join(outside, "before");
    fs.cpSync(before3, outsideBefore3, { recursive: true });
    fs.rmSync(before3, { recursive: true });
    fs.symlinkSync(outsideBefore3, before3);
    const forward = recoverNotebook({ root: other.root, workspace: other.workspace, receiptId: receiptIds });
    assert.equal(forward.status, "settled", JSON.stringify(forward));
    assert.equal(fs.existsSync(activeDir(other.root)), false);
    assert.deepEqual(fs.readdirSync(path.join(outsideBefore3)), ["000000.before"], "the link was removed, never followed");
    assert.deepEqual(listing(), [...outsideBefore, "before", "zettel.md"].sort());
    assert.ok(openNotebook(other.root).ok);
  } finally {
    fs.rmSync(outside, { recursive: true, force: true });
  }
});
