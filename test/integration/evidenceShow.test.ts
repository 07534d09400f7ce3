// Reading a captured tool result back (docket/evidence/show), as a receipt's "nominated evidence"
// link does: exactly the stored, redacted text; an unknown handle is a coded refusal.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { captureToolResult } from "../../server/evidence/evidenceStore";
import { DocketError } from "../../server/errors";
import { ErrorCodes } from "../../server/protocol/messages";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";

test("a captured tool result reads back redacted; unknown handles are refused", async () => {
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "docket-evidence-show-")));
  try {
    const captured = await captureToolResult(folder, {
      host: "claude",
      sessionId: "s1",
      toolCallId: "toolu_01",
      toolName: "Bash",
      toolInput: { command: "cat .env" },
      toolResponse: { stdout: "TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789\nok", stderr: "", interrupted: false },
      occurredAt: "2031-01-01T00:00:00.000Z",
    });
    const ledger = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath: path.join(folder, ".docket", "ledger.jsonl"), trusted: true });
    const shown = ledger.showEvidence(captured.branchResultId);
    assert.equal(shown.toolName, "Bash");
    assert.equal(shown.truncated, false);
    assert.match(shown.text, /ok/u);
    assert.doesNotMatch(shown.text, /ghp_abcdefghijklmnopqrstuvwxyz0123456789/u, "the secret was redacted before it was stored");
    assert.throws(
      () => ledger.showEvidence("branch-result-0000000000000000"),
      (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.unknownEvidenceHandle,
    );
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
