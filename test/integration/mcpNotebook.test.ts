// Agents propose Notebook records through MCP: the SDK's client drives the bundled `docket mcp`
// against a real notebook. A proposal is stored exactly as `docket notebook propose` stores one
// (and publishes the same way), the notebook is never touched by the agent, and every refusal is
// coded and stores nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { sha256Hex } from "../../server/ledger/canonicalJson";
import { MAX_PROPOSED_RECORDS } from "../../server/mcp/notebookTools";
import { readProposal } from "../../server/notebook/proposalStore";
import { callTool, callToolOk, connectMcp, DOCKET_CLI, structuredField } from "../support/mcpClient";
import { externalSource, notebookFixture, pairedBatch, recordFiles } from "../support/notebookFixture";
import { MEMO_ONE, SOURCE_NEW, ZETTEL_NEW, promotedZettel } from "../support/notebookRecords";

function proposalFiles(workspace: string): string[] {
  const folder = path.join(workspace, ".docket", "notebook", "proposals");
  return fs.existsSync(folder) ? fs.readdirSync(folder).sort() : [];
}

interface ReadRecord {
  readonly recordId: string;
  readonly type: string;
  readonly path: string;
  readonly sha256: string;
}

test("an agent reads the notebook, proposes a batch that the user then publishes, and the notebook is untouched until then", async () => {
  const fx = notebookFixture({ prefix: "docket-mcp-notebook-" });
  // The configured notebook, as VS Code passes docket.notebookPath: relative to the workspace.
  const client = await connectMcp(fx.workspace, { extraArgs: ["--notebook", "notebook"] });
  try {
    const before = recordFiles(fx.root);
    const read = await callToolOk(client, "notebook");
    assert.equal(structuredField(read, "notebook", "root"), fx.root);
    assert.equal(structuredField(read, "notebook", "notebookId"), fx.notebookId);
    assert.equal(structuredField(read, "notebook", "health"), "healthy");
    const records = structuredField<ReadRecord[]>(read, "notebook", "records");
    assert.equal(records.length, Object.keys(before).length);
    for (const record of records) assert.equal(record.sha256, sha256Hex(before[path.posix.basename(record.path)] ?? ""), record.path);
    assert.deepEqual(structuredField(read, "notebook", "pendingProposals"), []);
    assert.equal(structuredField(read, "notebook", "recordCount"), records.length);
    assert.equal(structuredField(read, "notebook", "truncated"), false);

    // A large notebook is read a few records at a time.
    const some = await callToolOk(client, "notebook", { recordIds: [MEMO_ONE, "memo-unknown"] });
    assert.deepEqual(structuredField<ReadRecord[]>(some, "notebook", "records").map((record) => record.recordId), [MEMO_ONE]);
    assert.deepEqual(structuredField(some, "notebook", "missingRecordIds"), ["memo-unknown"]);
    assert.match(some.text, /not in the notebook: memo-unknown/u);

    // The expected_sha256 of an update comes straight from the notebook tool.
    const memo = records.find((record) => record.recordId === MEMO_ONE);
    assert.ok(memo !== undefined);
    const batch = pairedBatch(fx);
    assert.equal(batch[0]?.operation === "update" ? batch[0].expected_sha256 : null, memo.sha256);
    const proposed = await callToolOk(client, "propose_notebook_records", { records: batch });
    const proposalId = structuredField<string>(proposed, "proposal", "proposalId");
    assert.match(proposalId, /^proposal-[0-9a-f-]{36}$/u);
    assert.deepEqual(
      structuredField<{ operation: string; recordId: string; path: string }[]>(proposed, "proposal", "records").map((entry) => [entry.operation, entry.recordId, entry.path]),
      [
        ["update", MEMO_ONE, "records/memo-incubating.md"],
        ["create", ZETTEL_NEW, `records/${ZETTEL_NEW}.md`],
      ],
    );
    assert.match(proposed.text, /waiting for the user's review/u);
    assert.deepEqual(recordFiles(fx.root), before, "proposing writes nothing to the notebook");
    const stored = readProposal(fx.workspace, proposalId);
    assert.equal(stored.status, "found");
    assert.equal(stored.status === "found" ? stored.proposal.proposal_sha256 : null, structuredField(proposed, "proposal", "proposalSha256"));
    // Sealed with who made it: the MCP client as it introduced itself.
    assert.deepEqual(stored.status === "found" ? stored.proposal.origin : null, { kind: "mcp", client: "docket-mcp-test 0.0.0" });
    const listed = spawnSync(process.execPath, [DOCKET_CLI, "notebook", "proposals", "--workspace", fx.workspace], { encoding: "utf8" });
    assert.match(listed.stdout, new RegExp(`${proposalId}: 2 records for .*, from docket-mcp-test 0\\.0\\.0 \\(MCP\\)`, "u"));

    const again = await callToolOk(client, "notebook");
    assert.deepEqual(structuredField(again, "notebook", "pendingProposals"), [{ proposalId, records: 2, stale: false }]);

    // The user's approval (here the scripted one) publishes the agent's proposal like any other.
    const published = spawnSync(process.execPath, [DOCKET_CLI, "notebook", "publish", proposalId, "--yes", "--json", "--workspace", fx.workspace], { encoding: "utf8" });
    assert.equal(published.status, 0, published.stdout + published.stderr);
    const after = recordFiles(fx.root);
    assert.equal(after[`${ZETTEL_NEW}.md`], promotedZettel());
    assert.match(after["memo-incubating.md"] ?? "", /observer_status: promoted/u);
  } finally {
    await client.close();
    fs.rmSync(fx.workspace, { recursive: true, force: true });
  }
});

test("refusals are coded, name the reference's preflight reason and diagnostics, and store nothing", async () => {
  const fx = notebookFixture({ prefix: "docket-mcp-notebook-refusals-" });
  const client = await connectMcp(fx.workspace, { extraArgs: ["--notebook", "notebook"] });
  try {
    const before = recordFiles(fx.root);
    const refused = async (args: Record<string, unknown>, code: string): Promise<Record<string, unknown>> => {
      const answer = await callTool(client, "propose_notebook_records", args);
      assert.equal(answer.isError, true, answer.text);
      assert.equal(structuredField(answer, "error", "code"), code, answer.text);
      assert.match(answer.text, /Next: /u);
      return (structuredField<Record<string, unknown>>(answer, "error", "details") ?? {}) as Record<string, unknown>;
    };

    const [update, create] = pairedBatch(fx);
    assert.ok(update?.operation === "update" && create !== undefined);
    const stale = await refused({ records: [{ ...update, expected_sha256: "0".repeat(64) }, create] }, "docket.proposal-invalid");
    assert.deepEqual([stale["code"], stale["reason"], stale["recordId"]], ["save.invalid-plan", "publication-preflight.update-stale", MEMO_ONE]);

    const collision = await refused({ records: [{ operation: "create", record_id: MEMO_ONE, markdown: update.markdown }] }, "docket.proposal-invalid");
    assert.equal(collision["reason"], "publication-preflight.create-collision");

    // A zettel promoted from a memo that stays incubating: each record is valid, the graph is not.
    const graph = await refused({ records: [create] }, "docket.proposal-invalid");
    assert.equal(graph["reason"], "publication-preflight.final-invalid");
    const diagnostics = graph["diagnostics"] as { phase: string; code: string }[];
    assert.ok(diagnostics.length > 0 && diagnostics.every((diagnostic) => diagnostic.phase === "graph"), JSON.stringify(diagnostics));

    const malformed = await refused({ records: [{ operation: "create", record_id: SOURCE_NEW, markdown: "# no frontmatter\n\nbody\n" }] }, "docket.proposal-invalid");
    assert.equal(malformed["reason"], "publication-preflight.record-invalid");
    assert.equal((malformed["diagnostics"] as { code: string }[])[0]?.code, "markdown.frontmatter.missing");

    const duplicate = externalSource(SOURCE_NEW);
    assert.equal(
      (await refused({ records: [{ operation: "create", record_id: SOURCE_NEW, markdown: duplicate }, { operation: "create", record_id: SOURCE_NEW, markdown: duplicate }] }, "docket.proposal-invalid"))["reason"],
      "publication-preflight.duplicate-id",
    );

    // Not observer-save/v1 shapes: refused by the tool's schema before anything is read.
    await refused({ records: [] }, "docket.invalid-params");
    await refused({ records: [{ operation: "create", record_id: ` ${SOURCE_NEW}`, markdown: duplicate }] }, "docket.invalid-params");
    await refused({ records: [{ operation: "create", record_id: SOURCE_NEW, markdown: duplicate, path: "../escape.md" }] }, "docket.invalid-params");
    await refused({ records: [{ operation: "update", record_id: MEMO_ONE, markdown: update.markdown }] }, "docket.invalid-params");
    const tooMany = Array.from({ length: MAX_PROPOSED_RECORDS + 1 }, () => ({ operation: "create", record_id: SOURCE_NEW, markdown: duplicate }));
    await refused({ records: tooMany }, "docket.invalid-params");
    await refused({ records: [create], publish: true }, "docket.invalid-params");

    // Notebook folders the path rules or the layout refuse.
    assert.equal((await refused({ notebook: "~someone/notes", records: [create] }, "docket.notebook-unusable"))["code"], "notebook.path-unsupported");
    fs.mkdirSync(path.join(fx.workspace, "plain"));
    assert.match(String((await refused({ notebook: "plain", records: [create] }, "docket.notebook-unusable"))["code"]), /^notebook\./u);

    assert.deepEqual(proposalFiles(fx.workspace), [], "no refusal stored a proposal");
    assert.deepEqual(recordFiles(fx.root), before);
  } finally {
    await client.close();
    fs.rmSync(fx.workspace, { recursive: true, force: true });
  }
});

test("without --notebook and without a notebook argument the tools say no notebook is configured", async () => {
  const fx = notebookFixture({ prefix: "docket-mcp-notebook-none-", baseline: false });
  const client = await connectMcp(fx.workspace);
  try {
    for (const [tool, args] of [
      ["notebook", {}],
      ["propose_notebook_records", { records: [{ operation: "create", record_id: SOURCE_NEW, markdown: externalSource(SOURCE_NEW) }] }],
    ] as const) {
      const answer = await callTool(client, tool, args);
      assert.equal(answer.isError, true, answer.text);
      assert.equal(structuredField(answer, "error", "code"), "docket.notebook-not-configured");
      assert.match(String(structuredField(answer, "error", "remedy")), /Set Up Notebook/u);
    }
    // Named per call, an absolute folder works without any configuration.
    const proposed = await callToolOk(client, "propose_notebook_records", {
      notebook: fx.root,
      episode_language: "en",
      records: [{ operation: "create", record_id: SOURCE_NEW, markdown: externalSource(SOURCE_NEW) }],
    });
    assert.equal(structuredField(proposed, "proposal", "root"), fx.root);
    assert.equal(proposalFiles(fx.workspace).length, 1);
  } finally {
    await client.close();
    fs.rmSync(fx.workspace, { recursive: true, force: true });
  }
});
