// The Observer view's pure model: the Notebook first, then each pending proposal (by id) with its
// records (by path), stale proposals marked, an explicit "none" when the backend says there are
// none, the `docket-proposal:` document addresses round-tripping, and the short names a row gives
// generated ids so it fits a default-width side bar.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { NotebookStatus, ProposalSummary } from "../../server/protocol/messages";
import {
  buildProposalTree,
  childrenOf,
  originText,
  parseProposalDocumentPath,
  ProposalItemContext,
  proposalDocumentPath,
  recordFileLabel,
  shortProposalId,
  type ProposalTreeNode,
} from "../../extension/proposalTreeModel";

const healthy: NotebookStatus = {
  health: "ok",
  root: "/home/me/notebook",
  notebookId: "notebook-0b5f6c1e-2d3a-4b4c-8d9e-0f1a2b3c4d5e",
  language: "en",
  records: 2,
  problem: null,
};

function proposal(id: string, stale: boolean, records: ProposalSummary["records"]): ProposalSummary {
  return { proposalId: id, proposalSha256: "d".repeat(64), origin: null, notebookId: healthy.notebookId ?? "", root: healthy.root ?? "", stale, valid: true, records };
}

const first = proposal("proposal-b", false, [
  { recordId: "source-z", operation: "update", path: "records/z.md", validation: "valid", stale: false },
  { recordId: "memo-a", operation: "create", path: "records/memo-a.md", validation: "invalid", stale: false },
]);
const second = proposal("proposal-a", true, [{ recordId: "inquiry-q", operation: "update", path: "records/q.md", validation: "valid", stale: true }]);

function summary(nodes: readonly ProposalTreeNode[]): string[] {
  return nodes.flatMap((node) => [
    `${node.kind}:${node.id}:${node.context}`,
    ...childrenOf(node).map((child) => (child.kind === "record" ? `  ${child.record.path} ${child.record.operation} ${child.record.validation}${child.proposalStale ? " stale-proposal" : ""}${child.record.stale ? " stale" : ""}` : child.id)),
  ]);
}

test("the notebook comes first, then proposals by id with records by path", () => {
  const nodes = buildProposalTree({ status: healthy, proposals: [first, second], error: null });
  assert.deepEqual(summary(nodes), [
    `notebook:notebook:${ProposalItemContext.notebook}`,
    `proposal:proposal/proposal-a:${ProposalItemContext.proposalStale}`,
    "  records/q.md update valid stale-proposal stale",
    `proposal:proposal/proposal-b:${ProposalItemContext.proposal}`,
    "  records/memo-a.md create invalid",
    "  records/z.md update valid",
  ]);
  const record = childrenOf(nodes[2] as ProposalTreeNode)[0];
  assert.equal(record?.kind, "record");
  if (record?.kind === "record") assert.equal(record.proposalId, "proposal-b");
});

test("the order of the backend's answer does not change the tree", () => {
  const a = buildProposalTree({ status: healthy, proposals: [first, second], error: null });
  const b = buildProposalTree({ status: healthy, proposals: [second, { ...first, records: [...first.records].reverse() }], error: null });
  assert.deepEqual(summary(a), summary(b));
});

test("no proposals says so; an unanswered backend shows only the notebook with the reason", () => {
  assert.deepEqual(summary(buildProposalTree({ status: healthy, proposals: [], error: null })), [
    `notebook:notebook:${ProposalItemContext.notebook}`,
    `empty:proposals/none:${ProposalItemContext.empty}`,
  ]);
  const down = buildProposalTree({ status: null, proposals: null, error: "backend stopped" });
  assert.equal(down.length, 1);
  const notebook = down[0];
  assert.equal(notebook?.kind, "notebook");
  if (notebook?.kind === "notebook") {
    assert.equal(notebook.context, ProposalItemContext.notebookUnavailable);
    assert.equal(notebook.error, "backend stopped");
  }
});

test("a notebook that is not healthy offers setup", () => {
  for (const health of ["not-configured", "missing", "unusable", "recovery-required"] as const) {
    const nodes = buildProposalTree({ status: { ...healthy, health }, proposals: [], error: null });
    assert.equal(nodes[0]?.context, ProposalItemContext.notebookMissing, health);
  }
});

test("proposal document addresses round-trip, ids kept as one segment", () => {
  for (const address of [
    { proposalId: "proposal-1", side: "existing" as const, recordId: "memo-a", path: "records/memo-a.md" },
    { proposalId: "proposal/../x", side: "proposed" as const, recordId: "id with spaces/and slash", path: "records/odd name.md" },
  ]) {
    const documentPath = proposalDocumentPath(address);
    assert.ok(documentPath.endsWith(`/${address.path}`), "the file name stays last (Markdown language)");
    assert.deepEqual(parseProposalDocumentPath(documentPath), address);
  }
  assert.equal(parseProposalDocumentPath("/proposal-1/sideways/memo/records/x.md"), null);
  assert.equal(parseProposalDocumentPath("/only"), null);
});

test("a generated proposal id is cut to its UUID's first block; other ids stay as they are", () => {
  assert.equal(shortProposalId("proposal-771696ae-43cd-42bb-9e12-1741803b0188"), "771696ae");
  for (const id of ["proposal-a", "proposal-771696ae", "771696ae-43cd-42bb-9e12-1741803b0188", "proposal-771696AE-43CD-42BB-9E12-1741803B0188"]) {
    assert.equal(shortProposalId(id), id);
  }
});

test("a record's row names its file; a generated <type>-<uuid>.md name is cut to the UUID's first block", () => {
  assert.equal(recordFileLabel("records/handbook.md"), "handbook.md");
  assert.equal(recordFileLabel("records/source-771696ae-43cd-42bb-9e12-1741803b0188.md"), "source-771696ae….md");
  assert.equal(recordFileLabel("records/memo-00000000-0000-4000-8000-000000000004.md"), "memo-00000000….md");
  assert.equal(recordFileLabel("top.md"), "top.md");
  // Not the generated shape: kept whole (the tooltip has the path either way).
  assert.equal(recordFileLabel("records/source-771696ae.md"), "source-771696ae.md");
  assert.equal(recordFileLabel("records/source-771696ae-43cd-42bb-9e12-1741803b0188.txt"), "source-771696ae-43cd-42bb-9e12-1741803b0188.txt");
});

test("who made a proposal, in words", () => {
  const l10n = { t: (message: string, ...args: Array<string | number | boolean>) => message.replace(/\{(\d+)\}/gu, (_, index: string) => String(args[Number(index)])) };
  assert.equal(originText(null, l10n), null);
  assert.equal(originText({ kind: "cli", client: null }, l10n), "from docket notebook propose");
  assert.equal(originText({ kind: "observer", client: null }, l10n), "from Observer's Review & Save");
  assert.equal(originText({ kind: "mcp", client: null }, l10n), "from an MCP agent");
  assert.equal(originText({ kind: "mcp", client: "claude-code 2.1" }, l10n), "from claude-code 2.1 (MCP)");
});
