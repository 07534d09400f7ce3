// The backend's notebook handlers over fake ports: approval bound to the proposal's size and digest, stale and
// invalid proposals refused before the transaction, each transaction outcome mapped to the Docket
// code the UI acts on, and Restricted Mode writing nothing.
import assert from "node:assert/strict";
import { test } from "node:test";
import { DocketError } from "../../server/errors";
import { ErrorCodes, type ProposalDetail } from "../../server/protocol/messages";
import { NotebookRpc, type NotebookPorts, type PublishOutcome } from "../../server/notebook/notebookRpc";

const SHA = "a".repeat(64);
const DIGEST = "d".repeat(64);

function detail(overrides: Partial<ProposalDetail> = {}): ProposalDetail {
  return {
    proposalId: "proposal-1",
    proposalSha256: DIGEST,
    origin: { kind: "mcp", client: "claude-code 2.1.0" },
    notebookId: "notebook-1",
    root: "/notes",
    stale: false,
    valid: true,
    records: [
      { recordId: "source-1", operation: "create", path: "records/source-1.md", validation: "valid", stale: false, before: null, beforeSha256: null, after: "x", afterSha256: SHA, diagnostics: [] },
      { recordId: "source-2", operation: "update", path: "records/b.md", validation: "valid", stale: false, before: "y", beforeSha256: SHA, after: "z", afterSha256: SHA, diagnostics: [] },
    ],
    diagnostics: [],
    ...overrides,
  };
}

function rpc(options: { proposal?: ProposalDetail | null; outcome?: PublishOutcome; trusted?: boolean; interrupted?: boolean } = {}): {
  rpc: NotebookRpc;
  published: string[];
  recovered: string[];
} {
  const published: string[] = [];
  const recovered: string[] = [];
  const ports: NotebookPorts = {
    status: (root) => ({
      health: options.interrupted === true && recovered.length === 0 ? "recovery-required" : "ok",
      root,
      notebookId: "notebook-1",
      language: "en",
      records: 0,
      problem: null,
    }),
    setup: (root, language, apply) => ({ root, action: "create", applied: apply, notebookId: null, language }),
    listProposals: () => [],
    readProposal: () => (options.proposal === undefined ? detail() : options.proposal),
    publish: (_workspace, proposalId, approvedSha256) => {
      assert.equal(approvedSha256, DIGEST, "the approved digest reaches the transaction");
      published.push(proposalId);
      return options.outcome ?? { ok: true, receipt: { observer_receipt: "observer-save-receipt/v1", receipt_id: "receipt-1", proposal_id: proposalId, notebook_id: "notebook-1", records: [] } };
    },
    discard: () => true,
    recover: (root) => {
      recovered.push(root);
    },
  };
  return { rpc: new NotebookRpc(() => ({ workspaceFolder: "/ws", trusted: options.trusted ?? true }), ports, "/home/me"), published, recovered };
}

test("an interrupted publication is recovered when the view first asks for status, only where Docket may write", () => {
  const trusted = rpc({ interrupted: true });
  assert.equal(trusted.rpc.status({ notebookPath: "/notes" }).health, "ok");
  assert.deepEqual(trusted.recovered, ["/notes"]);
  assert.equal(trusted.rpc.status({ notebookPath: "/notes" }).health, "ok");
  assert.deepEqual(trusted.recovered, ["/notes"], "a healthy notebook is not touched again");
  const restricted = rpc({ interrupted: true, trusted: false });
  assert.equal(restricted.rpc.status({ notebookPath: "/notes" }).health, "recovery-required");
  assert.deepEqual(restricted.recovered, []);
});

function code(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof DocketError, String(error));
    return error.code;
  }
  return "(succeeded)";
}

test("publication needs the proposal's exact record count and digest, a fresh and valid proposal, and trust", () => {
  const ok = rpc();
  assert.equal(code(() => ok.rpc.publish({ proposalId: "proposal-1", approvedCount: 2, proposalSha256: "e".repeat(64) })), ErrorCodes.approvalMismatch);
  assert.equal(code(() => ok.rpc.publish({ proposalId: "proposal-1", approvedCount: 1, proposalSha256: DIGEST })), ErrorCodes.approvalMismatch);
  assert.equal(code(() => ok.rpc.publish({ proposalId: "proposal-1", approvedCount: 3, proposalSha256: DIGEST })), ErrorCodes.approvalMismatch);
  assert.deepEqual(ok.published, [], "nothing reaches the transaction");
  assert.equal(ok.rpc.publish({ proposalId: "proposal-1", approvedCount: 2, proposalSha256: DIGEST }).receipt.receipt_id, "receipt-1");
  assert.deepEqual(ok.published, ["proposal-1"]);

  for (const [options, expected] of [
    [{ proposal: null }, ErrorCodes.proposalNotFound],
    [{ proposal: detail({ stale: true }) }, ErrorCodes.proposalStale],
    [{ proposal: detail({ valid: false }) }, ErrorCodes.proposalInvalid],
    [{ trusted: false }, ErrorCodes.untrusted],
  ] as const) {
    const refused = rpc(options);
    assert.equal(code(() => refused.rpc.publish({ proposalId: "proposal-1", approvedCount: 2, proposalSha256: DIGEST })), expected);
    assert.deepEqual(refused.published, []);
  }
});

test("transaction failures keep their code and advice in the message", () => {
  const cases: [PublishOutcome, string][] = [
    [{ ok: false, code: "save.persistence", reason: "publication-transaction.publish", message: "disk full", recoveryRequired: false, advice: "Restored." }, ErrorCodes.publicationFailed],
    [{ ok: false, code: "save.persistence", reason: "publication-transaction.rollback", message: "foreign bytes", recoveryRequired: true, advice: "Inspect it." }, ErrorCodes.publicationRecoveryRequired],
    // The drift reason the transaction attaches must not hide that the proposal went stale.
    [{ ok: false, code: "save.concurrent-change", reason: "publication-transaction.drift", message: "changed", recoveryRequired: false, advice: "Propose again." }, ErrorCodes.proposalStale],
    [{ ok: false, code: "notebook.manifest-invalid", reason: null, message: "bad manifest", recoveryRequired: false, advice: "Run status." }, ErrorCodes.notebookUnusable],
    // A target changed between the view's check and the transaction's own preflight: stale too.
    [{ ok: false, code: "save.invalid-plan", reason: "publication-preflight.update-stale", message: "changed", recoveryRequired: false, advice: "Propose again." }, ErrorCodes.proposalStale],
    [{ ok: false, code: "save.invalid-plan", reason: "publication-preflight.final-invalid", message: "graph", recoveryRequired: false, advice: "Fix." }, ErrorCodes.publicationFailed],
  ];
  for (const [outcome, expected] of cases) {
    try {
      rpc({ outcome }).rpc.publish({ proposalId: "proposal-1", approvedCount: 2, proposalSha256: DIGEST });
      assert.fail("publish should fail");
    } catch (error) {
      assert.ok(error instanceof DocketError);
      assert.equal(error.code, expected);
      if (!outcome.ok) {
        assert.ok(error.message.includes(outcome.code), error.message);
        assert.ok(error.message.includes(outcome.advice), error.message);
      }
    }
  }
});

test("status and setup apply the path rules; setup asks before it writes and writes only when trusted", () => {
  const { rpc: handlers } = rpc({ trusted: false });
  assert.equal(handlers.status({ notebookPath: null }).health, "not-configured");
  assert.equal(handlers.status({ notebookPath: "~other/notes" }).problem?.code, "notebook.path-unsupported");
  assert.equal(handlers.status({ notebookPath: "~/notes" }).root, "/home/me/notes");
  assert.equal(handlers.status({ notebookPath: "notes" }).root, "/ws/notes");
  assert.deepEqual(handlers.setup({ notebookPath: "~/notes", language: "ko", apply: false }), { root: "/home/me/notes", action: "create", applied: false, notebookId: null, language: "ko" });
  assert.equal(code(() => handlers.setup({ notebookPath: "~/notes", language: "ko", apply: true })), ErrorCodes.untrusted);
  assert.equal(code(() => handlers.setup({ notebookPath: "~x", language: "en", apply: false })), ErrorCodes.notebookSetupRefused);
  assert.equal(code(() => handlers.discard("proposal-1")), ErrorCodes.untrusted);
});
