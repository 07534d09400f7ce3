// Proposals (observer.md §6.1–§6.2): the observer-save/v1 shape, preflight's refusals with their
// reference reasons, the digest that binds the plan, the workspace store and freshness.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sha256Hex } from "../../server/ledger/canonicalJson";
import { openNotebook, setupNotebook } from "../../server/notebook/notebookStore";
import { assessFreshness, notebookView, prepareProposal, preflight, type NotebookView } from "../../server/notebook/preflight";
import { decodePreparedSave, decodeProposal, OBSERVER_SAVE_SCHEMA, serializeProposal, type PreparedRecord, type PreparedSave } from "../../server/notebook/proposal";
import { discardProposal, listPendingProposalIds, readProposal, writeProposal, writeReceipt } from "../../server/notebook/proposalStore";
import { BASELINE, EXTERNAL_SOURCE, SOURCE_ONE, SOURCE_NEW, MEMO_ONE, ZETTEL_NEW, promotedZettel } from "../support/notebookRecords";

const PROPOSAL_ID = "proposal-00000000-0000-4000-8000-0000000000aa";
const NOTEBOOK_ID = "notebook-00000000-0000-4000-8000-000000000001";

function tempDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

function baselineNotebook(): { root: string; view: NotebookView } {
  const root = path.join(tempDir("docket-proposal-"), "notebook");
  const setup = setupNotebook(root, "en");
  assert.ok(setup.ok, JSON.stringify(setup));
  for (const name of fs.readdirSync(BASELINE)) fs.copyFileSync(path.join(BASELINE, name), path.join(root, "records", name));
  return { root: setup.value.notebook.root, view: view(setup.value.notebook.root) };
}

function view(root: string): NotebookView {
  const opened = openNotebook(root);
  assert.ok(opened.ok, JSON.stringify(opened));
  return notebookView(opened.value);
}

function newSource(id = SOURCE_NEW): string {
  return fs.readFileSync(EXTERNAL_SOURCE, "utf8").replace("source-00000000-0000-4000-8000-000000000101", id);
}

function memoFile(root: string): { text: string; sha: string } {
  const text = fs.readFileSync(path.join(root, "records", "memo-incubating.md"), "utf8");
  return { text, sha: sha256Hex(text) };
}


function prepared(root: string, notebookId: string, records: readonly PreparedRecord[]): PreparedSave {
  return { observer_save: OBSERVER_SAVE_SCHEMA, proposal_id: PROPOSAL_ID, notebook_id: notebookId, root, episode_language: "en", records: [...records] };
}

function pairedBatch(root: string): PreparedRecord[] {
  const memo = memoFile(root);
  return [
    { operation: "create", record_id: ZETTEL_NEW, markdown: promotedZettel() },
    { operation: "update", record_id: MEMO_ONE, expected_sha256: memo.sha, markdown: memo.text.replace("observer_status: incubating", "observer_status: promoted") },
  ];
}

test("observer-save/v1: an empty batch decodes; malformed values are refused with the reference's codes", () => {
  const valid = { observer_save: OBSERVER_SAVE_SCHEMA, proposal_id: "proposal-1", notebook_id: NOTEBOOK_ID, root: "/tmp/notebook", episode_language: "ko", records: [] };
  assert.equal(decodePreparedSave(valid).ok, true);
  const cases: [unknown, string][] = [
    [null, "save-profile.object"],
    [[], "save-profile.object"],
    [{ ...valid, observer_save: "observer-save/v2" }, "save-profile.unsupported"],
    [{ ...valid, observer_save: 2 }, "save-profile.shape"],
    [{ ...valid, root: "relative/notebook" }, "save-profile.shape"],
    [{ ...valid, episode_language: "ja" }, "save-profile.shape"],
    [{ ...valid, records: null }, "save-profile.shape"],
    [{ ...valid, extra: true }, "save-profile.shape"],
    [{ ...valid, proposal_id: " proposal-1" }, "save-profile.shape"],
    [{ ...valid, proposal_id: "p".repeat(201) }, "save-profile.shape"],
    [{ ...valid, notebook_id: "notebook-1" }, "save-profile.shape"],
    [{ ...valid, records: [{ operation: "update", record_id: MEMO_ONE, expected_sha256: "invalid", markdown: "text" }] }, "save-profile.shape"],
    [{ ...valid, records: [{ operation: "create", record_id: MEMO_ONE, markdown: "" }] }, "save-profile.shape"],
    [{ ...valid, records: [{ operation: "create", record_id: MEMO_ONE, markdown: "x", expected_sha256: "0".repeat(64) }] }, "save-profile.shape"],
    [{ ...valid, records: [{ operation: "delete", record_id: MEMO_ONE }] }, "save-profile.shape"],
  ];
  for (const [value, code] of cases) {
    const decoded = decodePreparedSave(value);
    assert.equal(decoded.ok, false, JSON.stringify(value));
    if (!decoded.ok) assert.equal(decoded.issue.code, code, JSON.stringify(value));
  }
});

test("preflight binds identity, paths, hashes, final Markdown and the final record set; same bytes give the same proposal", () => {
  const { root, view: current } = baselineNotebook();
  const save = prepared(root, current.notebookId, pairedBatch(root));
  const first = prepareProposal(save, current);
  assert.ok(first.ok, JSON.stringify(first));
  const again = prepareProposal(save, view(root));
  assert.ok(again.ok);
  assert.equal(serializeProposal(again.proposal), serializeProposal(first.proposal), "deterministic");
  const plan = first.proposal.plan;
  assert.deepEqual(
    plan.records.map((entry) => [entry.operation, entry.record_id, entry.path, entry.record_type]),
    [
      ["update", MEMO_ONE, "records/memo-incubating.md", "memo"],
      ["create", ZETTEL_NEW, `records/${ZETTEL_NEW}.md`, "zettel"],
    ],
    "sorted by record id; updates keep their path, creates go to records/<id>.md",
  );
  assert.equal(plan.records[0]?.before_sha256, memoFile(root).sha);
  assert.equal(plan.records[1]?.before_sha256, null);
  assert.equal(plan.snapshot.length, 6);
  assert.equal(plan.final.length, 7);
  assert.deepEqual(
    plan.final.map((entry) => entry.path),
    [...plan.final.map((entry) => entry.path)].sort(),
  );
  assert.equal(decodeProposal(JSON.parse(serializeProposal(first.proposal)) as unknown).ok, true);
});

test("preflight refusals: every §6.2 check is save.invalid-plan with its reason (or save.target-mismatch), nothing written", () => {
  const { root, view: current } = baselineNotebook();
  const before = fs.readdirSync(path.join(root, "records")).map((name) => fs.readFileSync(path.join(root, "records", name), "utf8"));
  const memo = memoFile(root);
  const source = newSource();
  // A file at the create path that holds another record (the id itself is free).
  const cases: [PreparedSave, string, string][] = [
    [prepared(root, current.notebookId, [{ operation: "create", record_id: SOURCE_NEW, markdown: source }, { operation: "create", record_id: SOURCE_NEW, markdown: source }]), "save.invalid-plan", "publication-preflight.duplicate-id"],
    [prepared(root, current.notebookId, [{ operation: "create", record_id: SOURCE_NEW, markdown: "# invalid\n" }]), "save.invalid-plan", "publication-preflight.record-invalid"],
    [prepared(root, current.notebookId, [{ operation: "create", record_id: "source-00000000-0000-4000-8000-000000000011", markdown: source }]), "save.invalid-plan", "publication-preflight.record-mismatch"],
    [prepared(root, current.notebookId, [{ operation: "create", record_id: SOURCE_ONE, markdown: newSource(SOURCE_ONE) }]), "save.invalid-plan", "publication-preflight.create-collision"],
    [prepared(root, current.notebookId, [{ operation: "update", record_id: SOURCE_NEW, expected_sha256: "0".repeat(64), markdown: source }]), "save.invalid-plan", "publication-preflight.update-missing"],
    [prepared(root, current.notebookId, [{ operation: "update", record_id: MEMO_ONE, expected_sha256: "0".repeat(64), markdown: memo.text }]), "save.invalid-plan", "publication-preflight.update-stale"],
    [prepared(root, current.notebookId, [{ operation: "create", record_id: ZETTEL_NEW, markdown: promotedZettel("source-00000000-0000-4000-8000-999999999999") }]), "save.invalid-plan", "publication-preflight.final-invalid"],
    [prepared(root, NOTEBOOK_ID, []), "save.target-mismatch", "publication-preflight.target-mismatch"],
    [prepared(path.join(root, "other"), current.notebookId, []), "save.target-mismatch", "publication-preflight.target-mismatch"],
  ];
  for (const [save, code, reason] of cases) {
    const result = preflight(save, current);
    assert.equal(result.ok, false, reason);
    if (result.ok) continue;
    assert.equal(result.issue.code, code, reason);
    assert.equal(result.issue.reason, reason);
  }
  const invalid = preflight(cases[1]?.[0] as PreparedSave, current);
  assert.ok(!invalid.ok && invalid.issue.diagnostics.some((diagnostic) => diagnostic.code === "markdown.frontmatter.missing" && diagnostic.path === "<prepared-record-0>"));
  const graph = preflight(cases[6]?.[0] as PreparedSave, current);
  assert.ok(!graph.ok && graph.issue.diagnostics.some((diagnostic) => diagnostic.code === "graph.target.missing"));
  // A record whose final graph is broken by another record in the same batch (memo promoted without its zettel).
  const unlinked = preflight(prepared(root, current.notebookId, [pairedBatch(root)[1] as PreparedRecord]), current);
  assert.ok(!unlinked.ok && unlinked.issue.reason === "publication-preflight.final-invalid" && unlinked.issue.diagnostics.some((d) => d.code === "graph.promotion.mismatch"));
  // Create path taken by a file that declares a different id.
  fs.writeFileSync(path.join(root, "records", `${SOURCE_NEW}.md`), newSource("source-00000000-0000-4000-8000-000000000012"));
  const collision = preflight(prepared(root, current.notebookId, [{ operation: "create", record_id: SOURCE_NEW, markdown: source }]), view(root));
  assert.ok(!collision.ok && collision.issue.reason === "publication-preflight.create-collision" && collision.issue.path === `records/${SOURCE_NEW}.md`);
  fs.unlinkSync(path.join(root, "records", `${SOURCE_NEW}.md`));
  const after = fs.readdirSync(path.join(root, "records")).map((name) => fs.readFileSync(path.join(root, "records", name), "utf8"));
  assert.deepEqual(after, before);
});

test("a stored proposal is validated on every read: tampering, a foreign shape or a wrong file name are refused", () => {
  const { root, view: current } = baselineNotebook();
  const workspace = tempDir("docket-proposal-ws-");
  const made = prepareProposal(prepared(root, current.notebookId, pairedBatch(root)), current);
  assert.ok(made.ok);
  const file = writeProposal(workspace, made.proposal);
  assert.equal(file, path.join(workspace, ".docket", "notebook", "proposals", `${PROPOSAL_ID}.json`));
  assert.throws(() => writeProposal(workspace, made.proposal), /EEXIST/u, "never overwritten");
  const found = readProposal(workspace, PROPOSAL_ID);
  assert.equal(found.status, "found");
  assert.deepEqual(listPendingProposalIds(workspace), [PROPOSAL_ID]);
  assert.equal(readProposal(workspace, "../../etc/passwd").status, "missing");
  assert.equal(readProposal(workspace, "proposal-00000000-0000-4000-8000-0000000000ff").status, "missing");

  const original = fs.readFileSync(file, "utf8");
  const tampered = JSON.parse(original) as { prepared: { records: { markdown: string }[] }; plan: { records: { path: string }[] } };
  (tampered.prepared.records[0] as { markdown: string }).markdown += "\nsneaky\n";
  fs.writeFileSync(file, JSON.stringify(tampered));
  const digest = readProposal(workspace, PROPOSAL_ID);
  assert.ok(digest.status === "invalid" && digest.issue.code === "save-profile.digest");
  fs.writeFileSync(file, JSON.stringify({ ...(JSON.parse(original) as object), extra: 1 }));
  const shape = readProposal(workspace, PROPOSAL_ID);
  assert.ok(shape.status === "invalid" && shape.issue.code === "save-profile.shape");
  fs.writeFileSync(file, "{not json");
  assert.equal(readProposal(workspace, PROPOSAL_ID).status, "invalid");
  // A proposal a repository ships as a link (to /dev/zero, read without end) is refused, not followed.
  fs.rmSync(file);
  fs.symlinkSync("/dev/zero", file);
  const linked = readProposal(workspace, PROPOSAL_ID);
  assert.ok(linked.status === "invalid" && /symbolic link/u.test(linked.issue.message), JSON.stringify(linked));
  fs.rmSync(file);
  // A plan that disagrees with its prepared records is refused even with a recomputed digest.
  const inconsistent = JSON.parse(original) as { plan: { records: { next_sha256: string }[] } };
  (inconsistent.plan.records[0] as { next_sha256: string }).next_sha256 = "1".repeat(64);
  const decoded = decodeProposal(inconsistent);
  assert.equal(decoded.ok, false);

  fs.writeFileSync(file, original);
  writeReceipt(workspace, { observer_receipt: "observer-save-receipt/v1", receipt_id: "receipt-00000000-0000-4000-8000-0000000000bb", proposal_id: PROPOSAL_ID, notebook_id: current.notebookId, records: [] });
  assert.deepEqual(listPendingProposalIds(workspace), [], "settled proposals are not pending");
  assert.equal(discardProposal(workspace, PROPOSAL_ID), false, "a settled proposal is kept with its receipt");
});

test("the origin is sealed into the digest: who made a proposal cannot be changed afterwards, and a proposal without one still reads", () => {
  const { root, view: current } = baselineNotebook();
  const workspace = tempDir("docket-proposal-ws-");
  const plain = prepareProposal(prepared(root, current.notebookId, pairedBatch(root)), current);
  const fromAgent = prepareProposal(prepared(root, current.notebookId, pairedBatch(root)), current, { kind: "mcp", client: "claude-code 2.1.0" });
  assert.ok(plain.ok && fromAgent.ok);
  assert.equal(plain.proposal.origin, undefined);
  assert.notEqual(fromAgent.proposal.proposal_sha256, plain.proposal.proposal_sha256);
  const file = writeProposal(workspace, fromAgent.proposal);
  const found = readProposal(workspace, PROPOSAL_ID);
  assert.ok(found.status === "found");
  assert.deepEqual(found.proposal.origin, { kind: "mcp", client: "claude-code 2.1.0" });
  const relabelled = JSON.parse(fs.readFileSync(file, "utf8")) as { origin: { kind: string; client: string | null } };
  relabelled.origin = { kind: "cli", client: null };
  fs.writeFileSync(file, JSON.stringify(relabelled));
  const digest = readProposal(workspace, PROPOSAL_ID);
  assert.ok(digest.status === "invalid" && digest.issue.code === "save-profile.digest");
});

test("discard removes a pending proposal; freshness marks a changed target and any inventory change as stale", () => {
  const { root, view: current } = baselineNotebook();
  const workspace = tempDir("docket-proposal-ws-");
  const made = prepareProposal(prepared(root, current.notebookId, pairedBatch(root)), current);
  assert.ok(made.ok);
  assert.deepEqual(assessFreshness(made.proposal.plan, current), { stale: false, records: [{ recordId: MEMO_ONE, stale: false }, { recordId: ZETTEL_NEW, stale: false }] });
  fs.appendFileSync(path.join(root, "records", "source-external.md"), "\nMore.\n");
  const nonTarget = assessFreshness(made.proposal.plan, view(root));
  assert.equal(nonTarget.stale, true);
  assert.ok(nonTarget.records.every((record) => !record.stale));
  fs.appendFileSync(path.join(root, "records", "memo-incubating.md"), "\nMore.\n");
  assert.deepEqual(assessFreshness(made.proposal.plan, view(root)).records, [{ recordId: MEMO_ONE, stale: true }, { recordId: ZETTEL_NEW, stale: false }]);
  writeProposal(workspace, made.proposal);
  assert.equal(discardProposal(workspace, PROPOSAL_ID), true);
  assert.equal(discardProposal(workspace, PROPOSAL_ID), false);
  assert.equal(readProposal(workspace, PROPOSAL_ID).status, "missing");
});
