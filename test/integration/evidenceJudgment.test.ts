// Captured evidence as a conclusion's material, end to end on a real Git workspace: the hooks'
// store API captures a tool result and a prompt, WorkspaceLedger (with its default evidence
// lookup, as the backend, CLI, hooks and MCP construct it) concludes a zero-owner judgment that
// nominates them, and the judgment-result support binds exactly the captured bytes. Unknown,
// truncated and error handles are refused with nothing written; capture files never disturb Git
// reconciliation.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { resolveLedgerPath } from "../../server/workspace/ledgerPaths";
import { captureToolResult, captureUserDecision, workspaceEvidence } from "../../server/evidence/evidenceStore";
import { prepareJudgment } from "../../server/developer/operations/judgmentContext";
import type { EvidenceLookup } from "../../server/developer/operations/evidence";
import type { ConcludeJudgmentInput } from "../../server/developer/operations/judgmentOperations";
import { findPackageRoot, loadSkillCatalog } from "../../server/developer/operations/skillCatalog";
import { DocketError } from "../../server/errors";
import { ErrorCodes, Requests } from "../../server/protocol/messages";
import { startBackend } from "../support/backendProcess";
import { tempRepo } from "../support/gitRepo";

const AT = "2031-01-01T00:00:00.000Z";
const clock = { now: () => AT };

function concludeInput(branchResultId: string): Extract<ConcludeJudgmentInput, { disposition: "judgment" }> {
  return {
    disposition: "judgment",
    applicability: { kind: "applicable", basis: ["The test run decides what a must be."] },
    nominations: [
      { nominationId: "n:test", kind: "tool-result", branchResultId },
      { nominationId: "n:user", kind: "user-decision" },
    ],
    selectionBasis: ["The captured test run and the user's instruction."],
    coverage: {
      status: "sufficient",
      contributions: [
        { nominationId: "n:test", useAs: "evidence", contribution: "The suite passes with a = 2.", assurance: "agent-asserted" },
        { nominationId: "n:user", useAs: "decision", contribution: "The user chose a = 2.", assurance: "user-accepted" },
      ],
    },
    outcome: { kind: "contextual-judgment", citedUses: [{ contributionIndex: 0, artifactEffect: "Sets a to 2." }], rationale: "Tests and the user agree.", artifact: "a = 2", stopEvidence: ["The suite passed."] },
  };
}

async function refused(action: () => Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(action, (error: unknown) => error instanceof DocketError && error.code === code, `expected ${code}`);
}

test("a captured tool result and prompt are nominated, sealed and bound by the judgment-result support", async () => {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  try {
    // Constructed exactly like the CLI, hooks and MCP server do: no evidence option.
    const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath: resolveLedgerPath(repo.root, ""), trusted: true, clock });
    await ledger.turnOn();
    await ledger.openJudgment({
      routeDefinitionId: "route:meaning-settlement",
      question: "What should a be?",
      obligations: [{ obligationId: "obligation:value", statement: "The value of a is settled." }],
    });
    const lines = () => ledger.store.lineCount;
    const captured = await captureToolResult(repo.root, {
      host: "claude",
      sessionId: "s-1",
      toolCallId: "toolu_test_run",
      toolName: "Bash",
      toolInput: { command: "npm test" },
      toolResponse: { stdout: "# pass 12\n# fail 0\n", stderr: "" },
      occurredAt: AT,
    });
    const decision = await captureUserDecision(repo.root, { host: "claude", sessionId: "s-1", prompt: "Make a equal 2.", occurredAt: AT });

    // Unknown handle: coded refusal, nothing written.
    const before = lines();
    await refused(() => ledger.concludeJudgment(concludeInput("branch-result-0123456789abcdef")), ErrorCodes.unknownEvidenceHandle);
    assert.equal(lines(), before);
    // Truncated or failed results are captured but the engine will not select them.
    const big = await captureToolResult(repo.root, { host: "claude", sessionId: "s-1", toolCallId: "toolu_big", toolName: "Bash", toolInput: {}, toolResponse: "z".repeat(60_000), occurredAt: AT });
    assert.equal(big.truncated, true);
    await refused(() => ledger.concludeJudgment(concludeInput(big.branchResultId)), ErrorCodes.judgmentRejected);
    const failed = await captureToolResult(repo.root, { host: "claude", sessionId: "s-1", toolCallId: "toolu_fail", toolName: "Bash", toolInput: {}, toolResponse: "boom", isError: true, occurredAt: AT });
    await refused(() => ledger.concludeJudgment(concludeInput(failed.branchResultId)), ErrorCodes.judgmentRejected);
    assert.equal(lines(), before);
    // The latest prompt is the decision a user-decision nomination binds to.
    await captureUserDecision(repo.root, { host: "claude", sessionId: "s-1", prompt: "Make a equal 2, and keep it exported.", occurredAt: AT });

    // The basis the engine computes over the captured bytes, and over other bytes for the same handle.
    const catalog = await loadSkillCatalog(findPackageRoot(__dirname));
    const input = concludeInput(captured.branchResultId);
    const expected = await prepareJudgment(ledger.history(), input, catalog, workspaceEvidence(repo.root));
    const real = workspaceEvidence(repo.root);
    const altered: EvidenceLookup = {
      toolResult: (id) => {
        const record = real.toolResult(id);
        return record === undefined ? undefined : { ...record, parts: [{ kind: "text", text: "# pass 11\n# fail 1\n" }] };
      },
      latestUserDecision: () => real.latestUserDecision(),
    };
    const other = await prepareJudgment(ledger.history(), input, catalog, altered);
    assert.notEqual(other.contextBasisSha256, expected.contextBasisSha256);

    const concluded = await ledger.concludeJudgment(input);
    assert.ok(concluded.eventIds.length > 0);
    const events = ledger.store.replayer.accepted.map((entry) => entry.envelope);
    const support = events.find((envelope) => envelope.kind === "support-observed" && (envelope.payload as { support: { sourceKind: string } }).support.sourceKind === "judgment-result");
    assert.ok(support !== undefined);
    const payload = support.payload as { support: { sourceRevisionSha256: string; supportSha256: string } };
    assert.equal(payload.support.sourceRevisionSha256, expected.contextBasisSha256);
    assert.equal(events[events.length - 1]?.kind, "route-frame-concluded");
    assert.equal(ledger.policy().phase, "ready-to-edit");
    assert.notEqual(decision.userEventId, workspaceEvidence(repo.root).latestUserDecision()?.userEventId);

    // `.docket/evidence/` is outside what Git reconciliation compares: authorization still works.
    assert.ok(fs.existsSync(`${repo.root}/.docket/evidence`));
    const authorized = await ledger.authorizeChange({ movement: "Set a to 2.", stableLanding: "a is 2 and exported.", verificationTarget: "The suite passes." });
    assert.ok(authorized.eventIds.length > 0);
  } finally {
    repo.dispose();
  }
});

test("the backend resolves evidence another process captured after it started", async () => {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  const backend = await startBackend({ workspaceFolder: repo.root });
  try {
    await backend.connection.sendRequest(Requests.turnOn.method, {});
    await backend.request(Requests.openJudgment, {
      routeDefinitionId: "route:meaning-settlement",
      question: "What should a be?",
      obligations: [{ obligationId: "obligation:value", statement: "The value of a is settled." }],
    });
    const unknown = concludeInput("branch-result-0123456789abcdef");
    assert.equal(await backend.errorCode(Requests.concludeJudgment.method, unknown), ErrorCodes.unknownEvidenceHandle);
    // Captured by this test process while the backend runs, as a hook process would.
    const captured = await captureToolResult(repo.root, { host: "codex", sessionId: "s", toolCallId: "call_9", toolName: "shell", toolInput: { command: ["npm", "test"] }, toolResponse: "# pass 12\n", occurredAt: AT });
    await captureUserDecision(repo.root, { host: "codex", sessionId: "s", prompt: "Make a equal 2.", occurredAt: AT });
    const concluded = await backend.request(Requests.concludeJudgment, concludeInput(captured.branchResultId));
    assert.ok(concluded.eventIds.length > 0);
    assert.equal(concluded.runtime.state, "idle");
  } finally {
    await backend.stop();
    repo.dispose();
  }
});
