// `docket/notebook/*` through the real backend (`docket serve --stdio` in a child process): setup
// asked first and then applied, health, a stored proposal with its before/after bytes, approval
// bound to the proposal's size, all-or-nothing publication with its receipt, a stale proposal
// refused and discarded, and Restricted Mode writing nothing.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { ErrorCodes, Requests } from "../../server/protocol/messages";
import { openNotebook, sha256Hex } from "../../server/notebook/notebookStore";
import { notebookView, prepareProposal } from "../../server/notebook/preflight";
import { decodePreparedSave, OBSERVER_SAVE_SCHEMA } from "../../server/notebook/proposal";
import { writeProposal } from "../../server/notebook/proposalStore";
import { spawnSync } from "node:child_process";
import { KILL_AT_VARIABLE } from "../../server/notebook/crashSeam";
import { startBackend } from "../support/backendProcess";
import { notebookFixture, pairedBatch, proposeRecords, publishSteps, recordFiles, stepOf } from "../support/notebookFixture";
import { sourceMarkdown } from "../support/notebookRecords";

const SOURCE_A = "source-00000000-0000-4000-8000-00000000000a";
const SOURCE_B = "source-00000000-0000-4000-8000-00000000000b";


/** The integration test's records carry a custom key, which a rewrite must keep. */
function customSource(id: string, title: string, body: string): string {
  return sourceMarkdown(id, title, body, ["custom_note: kept as written"]);
}

function tempDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** Stores a proposal the way `docket notebook propose` does (preflighted against the notebook now). */
function propose(workspace: string, root: string, records: readonly ({ operation: "create"; record_id: string; markdown: string } | { operation: "update"; record_id: string; expected_sha256: string; markdown: string })[]): string {
  const opened = openNotebook(root);
  assert.ok(opened.ok, "the notebook opens");
  const prepared = decodePreparedSave({
    observer_save: OBSERVER_SAVE_SCHEMA,
    proposal_id: `proposal-${randomUUID()}`,
    notebook_id: opened.value.manifest.notebook_id,
    root: opened.value.root,
    episode_language: "en",
    records,
  });
  assert.ok(prepared.ok, "the prepared save decodes");
  const checked = prepareProposal(prepared.value, notebookView(opened.value));
  assert.ok(checked.ok, checked.ok ? "" : `preflight: ${checked.issue.reason} ${checked.issue.message}`);
  writeProposal(workspace, checked.proposal);
  return checked.proposal.prepared.proposal_id;
}

test("notebook setup, proposals and publication through the backend", async () => {
  const workspace = tempDir("docket-nb-ws-");
  const home = tempDir("docket-nb-home-");
  const root = path.join(home, "notebook");
  fs.mkdirSync(path.join(root, "records"), { recursive: true });
  const existingA = customSource(SOURCE_A, "Handbook chapter", "The first reading.");
  fs.writeFileSync(path.join(root, "records", "handbook.md"), existingA);
  fs.writeFileSync(path.join(root, "unrelated.txt"), "left alone\n");
  const backend = await startBackend({ workspaceFolder: workspace });
  try {
    assert.deepEqual(await backend.request(Requests.notebookStatus, { notebookPath: null }), {
      health: "not-configured",
      root: null,
      notebookId: null,
      language: null,
      records: 0,
      problem: null,
    });
    const refused = await backend.request(Requests.notebookStatus, { notebookPath: "~someone/notes" });
    assert.equal(refused.health, "unusable");
    assert.equal(refused.problem?.code, "notebook.path-unsupported");
    assert.equal((await backend.request(Requests.notebookStatus, { notebookPath: root })).health, "missing");

    // Asked first: the absolute root and what would happen, nothing written.
    const plan = await backend.request(Requests.notebookSetup, { notebookPath: root, language: "en", apply: false });
    assert.deepEqual(plan, { root, action: "create", applied: false, notebookId: null, language: "en" });
    assert.equal(fs.existsSync(path.join(root, ".observer")), false);
    const setup = await backend.request(Requests.notebookSetup, { notebookPath: root, language: "en", apply: true });
    assert.equal(setup.applied, true);
    assert.match(setup.notebookId ?? "", /^notebook-/u);
    assert.equal(fs.readFileSync(path.join(root, "unrelated.txt"), "utf8"), "left alone\n");
    assert.equal((await backend.request(Requests.notebookSetup, { notebookPath: root, language: "en", apply: false })).action, "adopt");
    assert.equal(await backend.errorCode(Requests.notebookSetup.method, { notebookPath: root, language: "ko", apply: true }), ErrorCodes.notebookSetupRefused);
    const healthy = await backend.request(Requests.notebookStatus, { notebookPath: root });
    assert.equal(healthy.health, "ok");
    assert.equal(healthy.records, 1);
    assert.equal(healthy.notebookId, setup.notebookId);

    assert.deepEqual(await backend.request(Requests.notebookProposals, {}), { proposals: [] });
    const nextA = customSource(SOURCE_A, "Handbook chapter", "The second reading, with notes.");
    const newB = customSource(SOURCE_B, "Field observation", "Seen at the desk.");
    const proposalId = propose(workspace, root, [
      { operation: "update", record_id: SOURCE_A, expected_sha256: sha256Hex(Buffer.from(existingA)), markdown: nextA },
      { operation: "create", record_id: SOURCE_B, markdown: newB },
    ]);

    const listed = await backend.request(Requests.notebookProposals, {});
    assert.equal(listed.proposals.length, 1);
    const summary = listed.proposals[0];
    assert.equal(summary?.proposalId, proposalId);
    assert.equal(summary?.stale, false);
    assert.equal(summary?.valid, true);
    assert.deepEqual(
      summary?.records.map((record) => [record.operation, record.path, record.validation, record.stale]),
      [
        ["update", "records/handbook.md", "valid", false],
        ["create", `records/${SOURCE_B}.md`, "valid", false],
      ],
    );
    const detail = await backend.request(Requests.notebookProposal, { proposalId });
    const update = detail.records.find((record) => record.operation === "update");
    const create = detail.records.find((record) => record.operation === "create");
    assert.equal(update?.before, existingA);
    assert.equal(update?.after, nextA);
    assert.equal(create?.before, null);
    assert.equal(create?.after, newB);
    assert.equal(create?.afterSha256, sha256Hex(Buffer.from(newB)));

    // Approval is bound to the proposal's size and digest: anything else writes nothing.
    const proposalSha256 = detail.proposalSha256;
    assert.equal(summary?.proposalSha256, proposalSha256);
    assert.equal(await backend.errorCode(Requests.notebookPublish.method, { proposalId, approvedCount: 1, proposalSha256 }), ErrorCodes.approvalMismatch);
    assert.equal(await backend.errorCode(Requests.notebookPublish.method, { proposalId, approvedCount: 2, proposalSha256: "0".repeat(64) }), ErrorCodes.approvalMismatch);
    assert.equal(await backend.errorCode(Requests.notebookPublish.method, { proposalId, approvedCount: 2 }), ErrorCodes.invalidParams);
    assert.equal(fs.readFileSync(path.join(root, "records", "handbook.md"), "utf8"), existingA);
    assert.equal(await backend.errorCode(Requests.notebookPublish.method, { proposalId: "proposal-unknown", approvedCount: 2, proposalSha256 }), ErrorCodes.proposalNotFound);

    const published = await backend.request(Requests.notebookPublish, { proposalId, approvedCount: 2, proposalSha256 });
    assert.equal(published.receipt.proposal_id, proposalId);
    assert.equal(published.receipt.notebook_id, setup.notebookId);
    assert.deepEqual(
      published.receipt.records.map((record) => [record.operation, record.record_id, record.path]),
      [
        ["update", SOURCE_A, "records/handbook.md"],
        ["create", SOURCE_B, `records/${SOURCE_B}.md`],
      ],
    );
    assert.equal(fs.readFileSync(path.join(root, "records", "handbook.md"), "utf8"), nextA);
    assert.equal(fs.readFileSync(path.join(root, "records", `${SOURCE_B}.md`), "utf8"), newB);
    assert.deepEqual(await backend.request(Requests.notebookProposals, {}), { proposals: [] });
    assert.equal(await backend.errorCode(Requests.notebookProposal.method, { proposalId }), ErrorCodes.proposalNotFound);

    // A target changed on disk after the proposal: stale, refused, and only discarded.
    const stale = propose(workspace, root, [
      { operation: "update", record_id: SOURCE_B, expected_sha256: sha256Hex(Buffer.from(newB)), markdown: customSource(SOURCE_B, "Field observation", "Revised.") },
    ]);
    const edited = customSource(SOURCE_B, "Field observation", "Edited by hand meanwhile.");
    fs.writeFileSync(path.join(root, "records", `${SOURCE_B}.md`), edited);
    const staleSummary = (await backend.request(Requests.notebookProposals, {})).proposals.find((entry) => entry.proposalId === stale);
    assert.equal(staleSummary?.stale, true);
    assert.equal(staleSummary?.records[0]?.stale, true);
    assert.equal(await backend.errorCode(Requests.notebookPublish.method, { proposalId: stale, approvedCount: 1, proposalSha256: staleSummary?.proposalSha256 }), ErrorCodes.proposalStale);
    assert.equal(fs.readFileSync(path.join(root, "records", `${SOURCE_B}.md`), "utf8"), edited);
    assert.deepEqual(await backend.request(Requests.notebookDiscard, { proposalId: stale }), { proposalId: stale, discarded: true });
    assert.equal(await backend.errorCode(Requests.notebookDiscard.method, { proposalId: stale }), ErrorCodes.proposalNotFound);
    assert.equal(await backend.errorCode(Requests.notebookPublish.method, { proposalId: stale, approvedCount: -1, proposalSha256 }), ErrorCodes.invalidParams);
  } finally {
    await backend.stop();
  }

  // Restricted Mode shows health and proposals but writes nothing.
  const untrusted = await startBackend({ workspaceFolder: workspace, trusted: false });
  try {
    assert.equal((await untrusted.request(Requests.notebookStatus, { notebookPath: root })).health, "ok");
    const pending = propose(workspace, root, [{ operation: "create", record_id: "source-00000000-0000-4000-8000-00000000000c", markdown: customSource("source-00000000-0000-4000-8000-00000000000c", "Third", "Body.") }]);
    assert.equal(await untrusted.errorCode(Requests.notebookPublish.method, { proposalId: pending, approvedCount: 1, proposalSha256: "0".repeat(64) }), ErrorCodes.untrusted);
    assert.equal(await untrusted.errorCode(Requests.notebookDiscard.method, { proposalId: pending }), ErrorCodes.untrusted);
    assert.equal(await untrusted.errorCode(Requests.notebookSetup.method, { notebookPath: path.join(home, "other"), language: "en", apply: true }), ErrorCodes.untrusted);
    assert.equal(fs.existsSync(path.join(root, "records", "source-00000000-0000-4000-8000-00000000000c.md")), false);
  } finally {
    await untrusted.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test("the Observer view's status explains an interrupted publication in Restricted Mode and recovers it in a trusted workspace", async () => {
  const labels = publishSteps(pairedBatch);
  const fx = notebookFixture({ prefix: "docket-nb-rpc-crash-" });
  const before = recordFiles(fx.root);
  const proposalId = proposeRecords(fx, pairedBatch(fx));
  const killed = spawnSync(process.execPath, [path.join(__dirname, "..", "..", "..", "dist", "docket.js"), "notebook", "publish", proposalId, "--yes", "--workspace", fx.workspace], {
    encoding: "utf8",
    env: { ...process.env, [KILL_AT_VARIABLE]: `publish:${stepOf(labels, / -> records\//u, 1)}` },
  });
  assert.equal(killed.signal, "SIGKILL", killed.stderr);
  const crashed = recordFiles(fx.root);
  assert.notDeepEqual(crashed, before, "half published");
  // A stray temporary (the reference's publisher killed mid-write) must not turn this into "unusable".
  fs.writeFileSync(path.join(fx.root, "records", ".memo-incubating.md.00000000-0000-4000-8000-000000000000.tmp"), "half");

  const untrusted = await startBackend({ workspaceFolder: fx.workspace, trusted: false });
  try {
    const status = await untrusted.request(Requests.notebookStatus, { notebookPath: fx.root });
    assert.equal(status.health, "recovery-required");
    assert.equal(status.problem?.code, "publication-transaction.active");
    assert.match(status.problem?.message ?? "", /recovery restores every record to its bytes before the publication/u);
  } finally {
    await untrusted.stop();
  }
  assert.equal(fs.existsSync(path.join(fx.root, ".observer", "transactions", "active")), true, "Restricted Mode writes nothing");

  const trusted = await startBackend({ workspaceFolder: fx.workspace });
  try {
    const status = await trusted.request(Requests.notebookStatus, { notebookPath: fx.root });
    assert.equal(status.health, "ok", JSON.stringify(status));
    assert.deepEqual(recordFiles(fx.root), before, "rolled back to the old notebook");
    assert.deepEqual(fs.readdirSync(path.join(fx.root, ".observer", "transactions")), []);
    const listed = await trusted.request(Requests.notebookProposals, {});
    assert.equal(listed.proposals.find((entry) => entry.proposalId === proposalId)?.stale, false, "the proposal can be published again");
  } finally {
    await trusted.stop();
    fs.rmSync(fx.workspace, { recursive: true, force: true });
  }
});
