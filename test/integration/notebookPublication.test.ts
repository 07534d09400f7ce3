// The publication transaction on real folders (observer.md §6.3–§6.4): exact bytes and receipt,
// every row of the failure table with "inventory unchanged and no active dir" where it applies,
// injected faults at every step, and the CLI (`docket notebook propose` / `publish`) as a child process.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sha256Hex } from "../../server/ledger/canonicalJson";
import { openNotebook } from "../../server/notebook/notebookStore";
import type { PreparedRecord } from "../../server/notebook/proposal";
import { readProposal, readReceipt } from "../../server/notebook/proposalStore";
import { publishProposal, type FaultPoint, type PublicationIds, type PublicationResult } from "../../server/notebook/publication";
import { OWNER_FILE } from "../../server/notebook/recovery";
import { SOURCE_NEW, MEMO_ONE, ZETTEL_NEW, promotedZettel } from "../support/notebookRecords";
import { externalSource, nextId, notebookFixture, pairedBatch, proposeRecords, recordFiles, type NotebookFixture } from "../support/notebookFixture";

const CLI = path.join(__dirname, "..", "..", "server", "cli", "main.js");
const ids: PublicationIds = { transactionId: () => nextId("transaction"), receiptId: () => nextId("receipt") };

function memoPath(fx: NotebookFixture): string {
  return path.join(fx.root, "records", "memo-incubating.md");
}

const activeDir = (root: string): string => path.join(root, ".observer", "transactions", "active");

function assertUntouched(fx: NotebookFixture, before: Record<string, string>): void {
  assert.deepEqual(recordFiles(fx.root), before, "inventory unchanged");
  assert.equal(fs.existsSync(activeDir(fx.root)), false, "no active transaction dir");
}

function failure(result: PublicationResult): Extract<PublicationResult, { ok: false }>["issue"] {
  assert.equal(result.ok, false, JSON.stringify(result));
  if (result.ok) throw new Error("unreachable");
  return result.issue;
}

test("publishes a create and an update with exact bytes, the receipt sorted by record id, and refuses a second commit", () => {
  const fx = notebookFixture({ prefix: "docket-publication-" });
  const batch = pairedBatch(fx);
  const proposalId = proposeRecords(fx, batch);
  const result = publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids });
  assert.ok(result.ok, JSON.stringify(result));
  assert.equal(result.settled, "published");
  assert.deepEqual(result.receipt, {
    observer_receipt: "observer-save-receipt/v1",
    receipt_id: result.receipt.receipt_id,
    proposal_id: proposalId,
    notebook_id: fx.notebookId,
    records: [
      { operation: "update", record_id: MEMO_ONE, path: "records/memo-incubating.md", sha256: sha256Hex((batch[0] as PreparedRecord).markdown) },
      { operation: "create", record_id: ZETTEL_NEW, path: `records/${ZETTEL_NEW}.md`, sha256: sha256Hex(promotedZettel()) },
    ],
  });
  assert.match(result.receipt.receipt_id, /^receipt-/u);
  assert.equal(fs.readFileSync(memoPath(fx), "utf8"), (batch[0] as PreparedRecord).markdown, "update keeps its path");
  assert.equal(fs.readFileSync(path.join(fx.root, "records", `${ZETTEL_NEW}.md`), "utf8"), promotedZettel());
  assert.equal(fs.existsSync(activeDir(fx.root)), false);
  assert.deepEqual(fs.readdirSync(path.join(fx.root, "records")).filter((name) => name.endsWith(".tmp")), [], "no temp files left");
  assert.deepEqual(readReceipt(fx.workspace, proposalId), result.receipt);
  const opened = openNotebook(fx.root);
  assert.ok(opened.ok && opened.value.inventory.length === 7);
  const before = recordFiles(fx.root);
  const again = failure(publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids }));
  assert.equal(again.code, "save.lifecycle");
  assertUntouched(fx, before);
});

test("an update is published byte for byte: custom frontmatter, comments, quoting and CRLF line ends are never re-serialized", () => {
  const fx = notebookFixture({ prefix: "docket-publication-custom-" });
  const memo = fs.readFileSync(memoPath(fx), "utf8");
  const custom = memo
    .replace("observer_status: incubating", "observer_status: incubating   # still thinking\neditor_note: 'kept  as   written'\nreview: {by: me, at: \"2026-08-01\"}")
    .replace(/\n/gu, "\r\n");
  const proposalId = proposeRecords(fx, [{ operation: "update", record_id: MEMO_ONE, expected_sha256: sha256Hex(memo), markdown: custom }]);
  const result = publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids });
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.deepEqual(fs.readFileSync(memoPath(fx)), Buffer.from(custom, "utf8"));
  const reopened = openNotebook(fx.root);
  assert.ok(reopened.ok);
  const record = reopened.value.inventory.find((entry) => entry.recordId === MEMO_ONE)?.record;
  assert.equal(record?.frontmatter["editor_note"], "kept  as   written");
  assert.deepEqual(record?.frontmatter["review"], { by: "me", at: "2026-08-01" });
});

test("an approved empty batch validates, writes nothing and settles", () => {
  const fx = notebookFixture({ prefix: "docket-publication-" });
  const before = recordFiles(fx.root);
  const proposalId = proposeRecords(fx, []);
  const result = publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids });
  assert.ok(result.ok, JSON.stringify(result));
  assert.deepEqual(result.receipt.records, []);
  assertUntouched(fx, before);
});

test("§6.4 refusals before staging: unknown, malformed or tampered proposal, declined, target mismatch, invalid notebook, stale target, busy", () => {
  const fx = notebookFixture({ prefix: "docket-publication-" });
  const source = externalSource(SOURCE_NEW);
  const proposalId = proposeRecords(fx, [{ operation: "create", record_id: SOURCE_NEW, markdown: source }]);
  const before = recordFiles(fx.root);
  const proposalFile = path.join(fx.workspace, ".docket", "notebook", "proposals", `${proposalId}.json`);
  const original = fs.readFileSync(proposalFile, "utf8");

  assert.equal(failure(publishProposal({ workspace: fx.workspace, proposalId: nextId("proposal"), approved: true, ids })).code, "save.lifecycle");
  assertUntouched(fx, before);
  assert.equal(failure(publishProposal({ workspace: fx.workspace, proposalId, approved: false, ids })).code, "save.declined");
  assertUntouched(fx, before);
  // Approval of another digest is no approval of this proposal.
  assert.equal(failure(publishProposal({ workspace: fx.workspace, proposalId, approved: true, approvedSha256: "0".repeat(64), ids })).code, "save.declined");
  assertUntouched(fx, before);

  fs.writeFileSync(proposalFile, original.replace("Version 4.2", "Version 9.9"));
  assert.equal(failure(publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids })).code, "save-profile.digest");
  fs.writeFileSync(proposalFile, "[]");
  assert.equal(failure(publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids })).code, "save-profile.object");
  fs.writeFileSync(proposalFile, original);
  assertUntouched(fx, before);

  const manifestPath = path.join(fx.root, ".observer", "notebook.json");
  const manifest = fs.readFileSync(manifestPath, "utf8");
  fs.writeFileSync(manifestPath, manifest.replace(fx.notebookId, "notebook-00000000-0000-4000-8000-00000000ffff"));
  const mismatch = failure(publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids }));
  assert.equal(mismatch.code, "save.target-mismatch");
  assert.equal(mismatch.recoveryRequired, false);
  fs.writeFileSync(manifestPath, manifest);
  assertUntouched(fx, before);

  fs.writeFileSync(path.join(fx.root, "records", "broken.md"), "# no frontmatter\n");
  const invalid = failure(publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids }));
  assert.equal(invalid.code, "notebook.records-invalid");
  assert.ok(invalid.diagnostics.some((diagnostic) => diagnostic.code === "markdown.frontmatter.missing"));
  fs.unlinkSync(path.join(fx.root, "records", "broken.md"));
  assertUntouched(fx, before);

  // The lock of a live publisher (our parent process stands in for it): busy, nothing written.
  fs.mkdirSync(activeDir(fx.root), { recursive: true });
  fs.writeFileSync(path.join(activeDir(fx.root), OWNER_FILE), JSON.stringify({ pid: process.ppid, hostname: os.hostname() }));
  const busy = failure(publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids }));
  assert.equal(busy.code, "save.busy");
  assert.equal(busy.recoveryRequired, true);
  assert.deepEqual(recordFiles(fx.root), before);
  assert.ok(fs.existsSync(path.join(activeDir(fx.root), OWNER_FILE)), "a live owner's lock is never removed");
  fs.rmSync(activeDir(fx.root), { recursive: true });

  // A target (or any file) that changed after the proposal: the proposal is stale, nothing is written.
  fs.appendFileSync(memoPath(fx), "\nEdited elsewhere.\n");
  const changed = recordFiles(fx.root);
  const stale = failure(publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids }));
  assert.equal(stale.code, "save.concurrent-change");
  assert.equal(stale.recoveryRequired, false);
  assertUntouched(fx, changed);
  fs.writeFileSync(memoPath(fx), before["memo-incubating.md"] as string);

  const ok = publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids });
  assert.ok(ok.ok, JSON.stringify(ok));
});

test("at publication, preflight runs again first: a changed target is the reference's update-stale or create-collision, other files are drift", () => {
  const fx = notebookFixture({ prefix: "docket-publication-recheck-" });
  const batch = pairedBatch(fx);
  const proposalId = proposeRecords(fx, batch);
  fs.appendFileSync(memoPath(fx), "\nEdited elsewhere.\n");
  const edited = recordFiles(fx.root);
  const stale = failure(publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids }));
  assert.deepEqual([stale.code, stale.reason, stale.recordId], ["save.invalid-plan", "publication-preflight.update-stale", MEMO_ONE]);
  assertUntouched(fx, edited);

  const other = notebookFixture({ prefix: "docket-publication-collision-" });
  const create = proposeRecords(other, [{ operation: "create", record_id: SOURCE_NEW, markdown: externalSource(SOURCE_NEW) }]);
  // Someone else's record at the target (bytes equal to the proposal's would count as already published).
  fs.writeFileSync(path.join(other.root, "records", `${SOURCE_NEW}.md`), externalSource(SOURCE_NEW).replace("Version 4.2", "Version 5.0"));
  const collided = failure(publishProposal({ workspace: other.workspace, proposalId: create, approved: true, ids }));
  assert.deepEqual([collided.code, collided.reason], ["save.invalid-plan", "publication-preflight.create-collision"]);
});

test("record file names the reader accepts (a backslash, a bare .md) stay publishable; a linked transactions folder is refused before any write", () => {
  const fx = notebookFixture({ prefix: "docket-publication-names-" });
  const odd = externalSource(SOURCE_NEW);
  fs.writeFileSync(path.join(fx.root, "records", "odd\\name.md"), odd);
  const updated = odd.replace("Version 4.2", "Version 4.3");
  assert.notEqual(updated, odd);
  const proposalId = proposeRecords(fx, [{ operation: "update", record_id: SOURCE_NEW, expected_sha256: sha256Hex(odd), markdown: updated }]);
  const result = publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids });
  assert.ok(result.ok, JSON.stringify(result));
  assert.equal(fs.readFileSync(path.join(fx.root, "records", "odd\\name.md"), "utf8"), updated);

  const outside = fs.mkdtempSync(path.join(path.dirname(fx.workspace), "docket-publication-elsewhere-"));
  fs.mkdirSync(path.join(fx.root, ".observer"), { recursive: true });
  fs.rmSync(path.join(fx.root, ".observer", "transactions"), { recursive: true, force: true });
  fs.symlinkSync(outside, path.join(fx.root, ".observer", "transactions"));
  const before = recordFiles(fx.root);
  const next = proposeRecords(fx, pairedBatch(fx));
  const refused = failure(publishProposal({ workspace: fx.workspace, proposalId: next, approved: true, ids }));
  assert.equal(refused.code, "notebook.layout-invalid");
  assert.deepEqual(fs.readdirSync(outside), [], "nothing was staged through the link");
  assert.deepEqual(recordFiles(fx.root), before);
  fs.rmSync(outside, { recursive: true, force: true });
});

test("injected faults at every step roll back to the exact old bytes, with no active dir and recoveryRequired false", () => {
  const points: [FaultPoint, string][] = [
    ["after-stage", "save.persistence"],
    ["before-drift-check", "save.concurrent-change"],
    ["before-publish", "save.persistence"],
    ["mid-publish", "save.persistence"],
    ["after-publish", "save.persistence"],
    ["before-readback", "save.persistence"],
  ];
  for (const [at, code] of points) {
    const fx = notebookFixture({ prefix: "docket-publication-" });
    const proposalId = proposeRecords(fx, pairedBatch(fx));
    const before = recordFiles(fx.root);
    let reached = false;
    const issue = failure(publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids, fault: { at, run: () => (reached = true) } }));
    assert.ok(reached, at);
    assert.equal(issue.code, code, at);
    assert.equal(issue.recoveryRequired, false, at);
    assertUntouched(fx, before);
    assert.equal(readReceipt(fx.workspace, proposalId), null);
    // The proposal is still good: the same approval publishes it afterwards.
    const retry = publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids });
    assert.ok(retry.ok, `${at}: ${JSON.stringify(retry)}`);
  }
});

test("drift of a non-target file after staging is save.concurrent-change and leaves the targets alone", () => {
  const fx = notebookFixture({ prefix: "docket-publication-" });
  const proposalId = proposeRecords(fx, pairedBatch(fx));
  const sourcePath = path.join(fx.root, "records", "source-external.md");
  const memoBefore = fs.readFileSync(memoPath(fx), "utf8");
  const issue = failure(
    publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids, fault: { at: "before-drift-check", run: () => fs.appendFileSync(sourcePath, "\n") } }),
  );
  assert.equal(issue.code, "save.concurrent-change");
  assert.equal(fs.readFileSync(memoPath(fx), "utf8"), memoBefore);
  assert.equal(fs.existsSync(path.join(fx.root, "records", `${ZETTEL_NEW}.md`)), false);
  assert.equal(fs.existsSync(activeDir(fx.root)), false);
});

test("rollback refuses to overwrite foreign bytes: recovery required, foreign bytes and active dir kept, next publish blocked with diagnostics", () => {
  const fx = notebookFixture({ prefix: "docket-publication-" });
  const proposalId = proposeRecords(fx, pairedBatch(fx));
  const issue = failure(
    publishProposal({
      workspace: fx.workspace,
      proposalId,
      approved: true,
      ids,
      fault: { at: "mid-publish", run: () => fs.writeFileSync(memoPath(fx), "external concurrent edit") },
    }),
  );
  assert.equal(issue.code, "save.persistence");
  assert.equal(issue.reason, "publication-transaction.rollback");
  assert.equal(issue.recoveryRequired, true);
  assert.match(issue.advice, /Recovery required/u);
  assert.equal(fs.readFileSync(memoPath(fx), "utf8"), "external concurrent edit");
  assert.ok(fs.existsSync(path.join(activeDir(fx.root), "transaction.json")));
  const blocked = failure(publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids }));
  assert.equal(blocked.code, "save.busy");
  assert.equal(blocked.recoveryRequired, true);
  assert.ok(blocked.diagnostics.some((diagnostic) => diagnostic.code === "publication-transaction.mixed" && diagnostic.recordId === MEMO_ONE));
  assert.equal(fs.readFileSync(memoPath(fx), "utf8"), "external concurrent edit", "recovery wrote nothing");
});

test("a failing cleanup keeps the active dir and requires recovery; after a read-back it rolls the batch back as any failure does", () => {
  const failing = (): void => {
    throw new Error("injected: cannot remove the active folder");
  };
  const fx = notebookFixture({ prefix: "docket-publication-" });
  const proposalId = proposeRecords(fx, pairedBatch(fx));
  const before = recordFiles(fx.root);
  const afterFault = failure(publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids, fault: { at: "before-readback" }, removeTree: failing }));
  assert.equal(afterFault.code, "save.persistence");
  assert.equal(afterFault.reason, "publication-transaction.cleanup");
  assert.equal(afterFault.recoveryRequired, true);
  assert.deepEqual(recordFiles(fx.root), before, "rolled back before the cleanup failed");
  assert.ok(fs.existsSync(activeDir(fx.root)));
  // Next publish: recovery finds every record in its before state, clears the folder, publishes and
  // reads back whole, but the lock cannot be removed: the batch is rolled back (§6.3 "On failure").
  const next = publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids, removeTree: failing });
  const issue = failure(next);
  assert.equal(issue.reason, "publication-transaction.cleanup");
  assert.equal(issue.recoveryRequired, true);
  assert.deepEqual(recordFiles(fx.root), before, "rolled back: the notebook is fully old");
  assert.ok(fs.existsSync(activeDir(fx.root)));
  // And the publish after that clears the lock (every record before) and publishes.
  const published = publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids });
  assert.ok(published.ok && published.settled === "published", JSON.stringify(published));
  assert.equal(fs.readFileSync(path.join(fx.root, "records", `${ZETTEL_NEW}.md`), "utf8"), promotedZettel());
  assert.equal(fs.existsSync(activeDir(fx.root)), false);
});

test("published but the receipt cannot be written: save.lifecycle with recovery; publishing again settles without republishing", () => {
  const fx = notebookFixture({ prefix: "docket-publication-" });
  const proposalId = proposeRecords(fx, pairedBatch(fx));
  fs.writeFileSync(path.join(fx.workspace, ".docket", "notebook", "receipts"), "not a folder");
  const issue = failure(publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids }));
  assert.equal(issue.code, "save.lifecycle");
  assert.equal(issue.recoveryRequired, true);
  const published = recordFiles(fx.root);
  assert.equal(published[`${ZETTEL_NEW}.md`], promotedZettel());
  fs.unlinkSync(path.join(fx.workspace, ".docket", "notebook", "receipts"));
  const inode = fs.statSync(path.join(fx.root, "records", `${ZETTEL_NEW}.md`)).ino;
  const settled = publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids });
  assert.ok(settled.ok && settled.settled === "already-published", JSON.stringify(settled));
  assert.equal(fs.statSync(path.join(fx.root, "records", `${ZETTEL_NEW}.md`)).ino, inode, "not republished");
  assert.deepEqual(recordFiles(fx.root), published);
});

function docket(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("CLI: propose FILE.json stores a proposal; publish refuses without --yes, publishes with it, and reports codes with exit codes", () => {
  const fx = notebookFixture({ prefix: "docket-publication-" });
  const memo = fs.readFileSync(memoPath(fx), "utf8");
  fs.writeFileSync(path.join(fx.workspace, "zettel.md"), promotedZettel());
  const input = {
    notebook: "./notebook",
    records: [
      { operation: "update", record_id: MEMO_ONE, expected_sha256: sha256Hex(memo), markdown: memo.replace("observer_status: incubating", "observer_status: promoted") },
      { operation: "create", record_id: ZETTEL_NEW, markdown_file: "zettel.md" },
    ],
  };
  fs.writeFileSync(path.join(fx.workspace, "proposal.json"), JSON.stringify(input));
  const proposed = docket(["notebook", "propose", "proposal.json", "--workspace", ".", "--json"], fx.workspace);
  assert.equal(proposed.status, 0, proposed.stderr);
  const summary = JSON.parse(proposed.stdout) as { ok: boolean; proposalId: string; records: { path: string }[] };
  assert.match(summary.proposalId, /^proposal-[0-9a-f-]{36}$/u);
  assert.deepEqual(summary.records.map((record) => record.path), ["records/memo-incubating.md", `records/${ZETTEL_NEW}.md`]);
  const stored = readProposal(fx.workspace, summary.proposalId);
  assert.deepEqual(stored.status === "found" ? stored.proposal.origin : null, { kind: "cli", client: null }, "sealed as made by a script");
  const before = recordFiles(fx.root);

  const unapproved = docket(["notebook", "publish", summary.proposalId, "--workspace", "."], fx.workspace);
  assert.equal(unapproved.status, 1);
  assert.match(unapproved.stderr, /save\.declined/u);
  assertUntouched(fx, before);

  const published = docket(["notebook", "publish", summary.proposalId, "--yes", "--workspace", "."], fx.workspace);
  assert.equal(published.status, 0, published.stderr);
  const receipt = JSON.parse(published.stdout) as { observer_receipt: string; records: unknown[] };
  assert.equal(receipt.observer_receipt, "observer-save-receipt/v1");
  assert.equal(receipt.records.length, 2);
  assert.equal(fs.readFileSync(path.join(fx.root, "records", `${ZETTEL_NEW}.md`), "utf8"), promotedZettel());

  const unknown = docket(["notebook", "publish", "proposal-00000000-0000-4000-8000-00000000dead", "--yes", "--workspace", "."], fx.workspace);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /save\.lifecycle/u);

  // A stale expected hash is refused by preflight: exit 1, save.invalid-plan, nothing stored.
  fs.writeFileSync(path.join(fx.workspace, "stale.json"), JSON.stringify({ notebook: "./notebook", records: [{ operation: "update", record_id: MEMO_ONE, expected_sha256: "0".repeat(64), markdown: memo }] }));
  const stale = docket(["notebook", "propose", "stale.json", "--workspace", "."], fx.workspace);
  assert.equal(stale.status, 1);
  assert.match(stale.stdout, /save\.invalid-plan \(publication-preflight\.update-stale\)/u);
  fs.writeFileSync(path.join(fx.workspace, "bad.json"), JSON.stringify({ records: [], extra: true }));
  assert.equal(docket(["notebook", "propose", "bad.json", "--notebook", "notebook"], fx.workspace).status, 2);
  const proposals = fs.readdirSync(path.join(fx.workspace, ".docket", "notebook", "proposals"));
  assert.deepEqual(proposals, [`${summary.proposalId}.json`]);
});

test("proposals and receipts are never written through a link in the workspace's .docket/notebook folder", () => {
  const fx = notebookFixture({ prefix: "docket-publication-linked-state-" });
  const proposalId = proposeRecords(fx, pairedBatch(fx));
  const outside = fs.mkdtempSync(path.join(path.dirname(fx.workspace), "docket-publication-receipts-elsewhere-"));
  const receipts = path.join(fx.workspace, ".docket", "notebook", "receipts");
  fs.symlinkSync(outside, receipts);
  const issue = failure(publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids }));
  assert.equal(issue.code, "save.lifecycle");
  assert.equal(issue.recoveryRequired, true);
  assert.match(issue.message, /symbolic link/u);
  assert.deepEqual(fs.readdirSync(outside), [], "nothing was written through the link");
  fs.unlinkSync(receipts);
  const settled = publishProposal({ workspace: fx.workspace, proposalId, approved: true, ids });
  assert.ok(settled.ok && settled.settled === "already-published", JSON.stringify(settled));

  const proposals = path.join(fx.workspace, ".docket", "notebook", "proposals");
  fs.renameSync(proposals, `${proposals}.real`);
  fs.symlinkSync(outside, proposals);
  assert.throws(() => proposeRecords(fx, [{ operation: "create", record_id: SOURCE_NEW, markdown: externalSource(SOURCE_NEW) }]), /symbolic link/u);
  assert.deepEqual(fs.readdirSync(outside), []);
  fs.rmSync(outside, { recursive: true, force: true });
});
