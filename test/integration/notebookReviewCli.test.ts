// Reviewing proposals in a terminal: `docket notebook proposals`, `show` (a unified diff per
// record and the publish command bound to the digest), `publish --sha256` refusing any other
// proposal than the one shown, and `discard` — the bundled CLI as a child process.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { ProposalDetail, ProposalList } from "../../server/protocol/messages";
import { DOCKET_CLI } from "../support/mcpClient";
import { externalSource, notebookFixture, pairedBatch, proposeRecords, recordFiles } from "../support/notebookFixture";
import { SOURCE_NEW, ZETTEL_NEW } from "../support/notebookRecords";

function docket(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [DOCKET_CLI, "notebook", ...args], { encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

test("proposals lists, show prints each record's diff and the bound publish command, publish --sha256 publishes only what was shown", () => {
  const fx = notebookFixture({ prefix: "docket-review-cli-" });
  const ws = ["--workspace", fx.workspace];
  try {
    assert.deepEqual([docket(["proposals", ...ws]).stdout], ["No pending proposals.\n"]);
    const proposalId = proposeRecords(fx, pairedBatch(fx));

    const listed = docket(["proposals", ...ws]);
    assert.equal(listed.status, 0, listed.stderr);
    // The fixture seals proposals without an origin, as proposals made before Docket recorded one.
    assert.match(listed.stdout, new RegExp(`${proposalId}: 2 records for ${fx.root}, from an unrecorded origin \\(valid\\)`, "u"));
    assert.match(listed.stdout, /  update records\/memo-incubating\.md \(valid\)/u);
    const json = ProposalList.parse(JSON.parse(docket(["proposals", "--json", ...ws]).stdout));
    assert.deepEqual(json.proposals.map((proposal) => proposal.proposalId), [proposalId]);

    const shown = docket(["show", proposalId, ...ws]);
    assert.equal(shown.status, 0, shown.stderr);
    assert.match(shown.stdout, /--- a\/records\/memo-incubating\.md\n\+\+\+ b\/records\/memo-incubating\.md/u);
    assert.match(shown.stdout, /^-observer_status: incubating$/mu);
    assert.match(shown.stdout, /^\+observer_status: promoted$/mu);
    assert.match(shown.stdout, new RegExp(`--- /dev/null\\n\\+\\+\\+ b/records/${ZETTEL_NEW}\\.md`, "u"));
    const detail = ProposalDetail.parse(JSON.parse(docket(["show", proposalId, "--json", ...ws]).stdout));
    assert.ok(shown.stdout.includes(`docket notebook publish ${proposalId} --yes --sha256 ${detail.proposalSha256}`));

    const before = recordFiles(fx.root);
    const wrong = docket(["publish", proposalId, "--yes", "--sha256", "0".repeat(64), ...ws]);
    assert.equal(wrong.status, 1);
    assert.match(wrong.stderr, /save\.declined/u);
    assert.deepEqual(recordFiles(fx.root), before);
    const malformed = docket(["publish", proposalId, "--yes", "--sha256", "abc", ...ws]);
    assert.equal(malformed.status, 2);
    assert.match(malformed.stderr, /docket\.usage/u);

    const published = docket(["publish", proposalId, "--yes", "--sha256", detail.proposalSha256, ...ws]);
    assert.equal(published.status, 0, published.stderr);
    assert.match(recordFiles(fx.root)["memo-incubating.md"] ?? "", /observer_status: promoted/u);
    assert.equal(recordFiles(fx.root)[`${ZETTEL_NEW}.md`] !== undefined, true);

    const gone = docket(["show", proposalId, ...ws]);
    assert.equal(gone.status, 2);
    assert.match(gone.stderr, /docket\.proposal-not-found/u);
  } finally {
    fs.rmSync(fx.workspace, { recursive: true, force: true });
  }
});

test("a stale proposal is shown as such with the discard command; discard drops it and changes nothing", () => {
  const fx = notebookFixture({ prefix: "docket-review-cli-stale-" });
  const ws = ["--workspace", fx.workspace];
  try {
    const proposalId = proposeRecords(fx, pairedBatch(fx));
    fs.appendFileSync(`${fx.root}/records/memo-incubating.md`, "\nEdited elsewhere.\n");
    const shown = docket(["show", proposalId, ...ws]);
    assert.equal(shown.status, 0, shown.stderr);
    assert.match(shown.stdout, /stale: a record changed on disk/u);
    assert.match(shown.stdout, new RegExp(`cannot be published\\. Discard it with: docket notebook discard ${proposalId}`, "u"));
    assert.doesNotMatch(shown.stdout, /--sha256/u);

    const other = proposeRecords(fx, [{ operation: "create", record_id: SOURCE_NEW, markdown: externalSource(SOURCE_NEW) }]);
    const before = recordFiles(fx.root);
    const discarded = docket(["discard", proposalId, ...ws]);
    assert.equal(discarded.status, 0, discarded.stderr);
    assert.match(discarded.stdout, /Discarded/u);
    assert.deepEqual(recordFiles(fx.root), before);
    assert.equal(docket(["discard", proposalId, ...ws]).status, 2);
    assert.deepEqual(ProposalList.parse(JSON.parse(docket(["proposals", "--json", ...ws]).stdout)).proposals.map((proposal) => proposal.proposalId), [other]);
    assert.equal(docket(["show", ...ws]).status, 2, "show needs an id");
    assert.match(docket(["show", "a", "b", ...ws]).stderr, /exactly one PROPOSAL_ID/u);
  } finally {
    fs.rmSync(fx.workspace, { recursive: true, force: true });
  }
});
