// A scripted agent session with Observer, through the real pieces: the hook bundle in child
// processes (UserPromptSubmit, PostToolUse, Stop), the MCP server over stdio (observer_status,
// observer_commit), the CLI (`docket observer …`, `docket notebook validate`) and the backend the
// extension talks to (the approval of the proposal). Tool results are captured and staged, two
// are nominated, readings and observations are recorded, the user's hypothesis is reviewed, the
// Memo is reconciled, Review & Save is proposed and approved, the records validate and the
// Episode is settled with Observer off. Attacks along the way: an expired nomination, a stale
// fingerprint, Docket's own tool, a shipped capture file.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { Requests, type ObserverOverview } from "../../server/protocol/messages";
import { startBackend } from "../support/backendProcess";
import { docket, sessionUntilProposal } from "../support/observerSession";
import { publishProposal } from "../../server/notebook/publication";
import { runObserverOperation } from "../../server/observer/observerRuntime";
import { approveSave } from "../../server/observer/saveOperations";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";

test("a scripted agent session: capture, nominate, observe, review, reconcile, Review & Save, approve, settle", { timeout: 240_000 }, async () => {
  const { workspace, notebook, proposalId } = await sessionUntilProposal();
  // The person approves the exact batch through the backend the extension uses.
  const backend = await startBackend({ workspaceFolder: workspace });
  try {
    const detail = await backend.request(Requests.notebookProposal, { proposalId });
    assert.equal(detail.origin?.kind, "observer");
    assert.equal(detail.records.length, 4);
    const published = await backend.request(Requests.notebookPublish, { proposalId, approvedCount: detail.records.length, proposalSha256: detail.proposalSha256 });
    assert.equal(published.receipt.records.length, 4);
    const overview = await backend.request(Requests.observerOverview, {});
    assert.equal(overview.episode.status, "settled");
    assert.equal(overview.mode, "off", "a committed save turns Observer off");
  } finally {
    await backend.stop();
  }
  const validate = docket(workspace, ["notebook", "validate", notebook]);
  assert.equal(validate.status, 0, validate.stdout + validate.stderr);
  const replay = docket(workspace, ["observer", "replay", path.join(workspace, ".docket", "ledger.jsonl"), "--json"]);
  assert.equal(replay.status, 0, replay.stdout);
  const report = JSON.parse(replay.stdout) as { snapshot: { episodeStatus: string; consumedObservationIds: string[] } };
  assert.equal(report.snapshot.episodeStatus, "settled");
  assert.equal(report.snapshot.consumedObservationIds.length, 3);
  const verify = docket(workspace, ["ledger", "verify"]);
  assert.equal(verify.status, 0, verify.stdout + verify.stderr);
});

test("Observer's proposal: a planted file is refused, a lost file is written again, the CLI saves it only through Observer", { timeout: 240_000 }, async () => {
  const { workspace, notebook, proposalId } = await sessionUntilProposal();
  const file = path.join(workspace, ".docket", "notebook", "proposals", `${proposalId}.json`);
  const original = fs.readFileSync(file, "utf8");
  // The plain Notebook commands refuse Observer's proposal: the Episode would not follow.
  const plain = docket(workspace, ["notebook", "discard", proposalId]);
  assert.notEqual(plain.status, 0);
  assert.match(plain.stderr, /docket observer return/u);
  // A crash lost the file: the next Observer command writes it again, byte for byte.
  fs.rmSync(file);
  docket(workspace, ["observer", "memo"]);
  assert.equal(fs.readFileSync(file, "utf8"), original);
  // A file edited after Observer recorded the batch is never saved in the Episode's name.
  const forged = JSON.parse(original) as { prepared: { records: { markdown: string }[] }; proposal_sha256: string };
  const record = forged.prepared.records[0];
  assert.ok(record !== undefined);
  record.markdown = record.markdown.replace("# ", "# Forged ");
  fs.writeFileSync(file, JSON.stringify(forged));
  const sha = forged.proposal_sha256;
  const refused = docket(workspace, ["observer", "approve", proposalId, "--yes", "--sha256", sha]);
  assert.equal(refused.status, 1, refused.stderr);
  assert.match(refused.stderr, /docket\.proposal-invalid/u);
  assert.deepEqual(fs.readdirSync(path.join(notebook, "records")), [], "nothing was written to the Notebook");
  // Back to the recorded bytes: saved through Observer from the command line.
  fs.writeFileSync(file, original);
  const approved = docket(workspace, ["observer", "approve", proposalId, "--yes", "--sha256", (JSON.parse(original) as { proposal_sha256: string }).proposal_sha256, "--json"]);
  assert.equal(approved.status, 0, approved.stderr);
  const settled = JSON.parse(docket(workspace, ["observer", "status", "--json"]).stdout) as { overview: ObserverOverview };
  assert.equal(settled.overview.episode.status, "settled");
  assert.equal(docket(workspace, ["notebook", "validate", notebook]).status, 0);
});

test("a crash after publication but before save-committed: the next Observer command settles the Episode from the receipt, writing nothing again", { timeout: 240_000 }, async () => {
  const { workspace, notebook, proposalId } = await sessionUntilProposal();
  // What a process killed between the Notebook publication and the ledger's save-committed leaves:
  // the approved attempt in the ledger, the records and the receipt on disk, the Episode under review.
  const ledger = new WorkspaceLedger({ workspaceFolder: workspace, ledgerPath: path.join(workspace, ".docket", "ledger.jsonl"), trusted: true });
  ledger.refresh();
  await runObserverOperation(ledger, workspace, "approved", (context) => approveSave(context, { proposalId }));
  const published = publishProposal({ workspace, proposalId, approved: true });
  assert.ok(published.ok, JSON.stringify(published));
  const before = JSON.parse(docket(workspace, ["observer", "status", "--json"]).stdout) as { overview: ObserverOverview };
  assert.equal(before.overview.episode.status, "reviewing-save", "status only reads");
  const records = fs.readdirSync(path.join(notebook, "records")).map((name) => [name, fs.statSync(path.join(notebook, "records", name)).mtimeMs]);
  const memo = docket(workspace, ["observer", "memo"]);
  assert.match(memo.stderr, /settled from its receipt/u);
  const after = JSON.parse(docket(workspace, ["observer", "status", "--json"]).stdout) as { overview: ObserverOverview };
  assert.equal(after.overview.episode.status, "settled");
  assert.equal(after.overview.mode, "off");
  assert.deepEqual(fs.readdirSync(path.join(notebook, "records")).map((name) => [name, fs.statSync(path.join(notebook, "records", name)).mtimeMs]), records, "nothing was published again");
});
