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
import { OWNER_FILE, recoverNotebook } from "../../server/notebook/recovery";
import { MEMO_ONE, ZETTEL_NEW, promotedZettel } from "../support/notebookRecords";
import { externalSource, nextId, notebookFixture, pairedBatch, proposeRecords, recordFiles, type NotebookFixture } from "../support/notebookFixture";

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
