// What an agent writes with Docket's own tools keeps no secret: free text of every operation is
// redacted before the batch is built (the ledger may be committed to Git), identifiers holding a
// secret are refused with nothing written, and review reports and Notebook proposals are redacted
// before they are stored. Real ledgers in real Git workspaces; the files are searched afterwards.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger, type Clock } from "../../server/workspace/workspaceLedger";
import { redactPersistedInput } from "../../server/evidence/persistedText";
import { DocketError } from "../../server/errors";
import { tempRepo } from "../support/gitRepo";

const GITHUB = `ghp_${"Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"}`;
const AWS_SECRET = `aws_secret_access_key = ${"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}`;
const ANTHROPIC = `sk-ant-api03-${"q".repeat(20)}${"Ab3".repeat(10)}`;

function fixedClock(): Clock {
  let tick = 0;
  return { now: () => new Date(Date.UTC(2031, 0, 1) + 1_000 * tick++).toISOString() };
}

function everyFile(folder: string): string {
  let text = "";
  const walk = (directory: string): void => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== ".git") walk(full);
      } else text += fs.readFileSync(full, "latin1");
    }
  };
  walk(folder);
  return text;
}

test("free text is redacted field by field; identifiers, paths and enumerations are never rewritten", () => {
  const { value, redactions } = redactPersistedInput({
    question: `Why does the deploy fail with ${GITHUB}?`,
    obligations: [{ obligationId: "obligation:a", statement: `Rotate\n${AWS_SECRET}\nnow.` }],
    routeDefinitionId: "route:meaning-settlement",
  });
  assert.equal(redactions, 2);
  assert.match(value.question, /^Why does the deploy fail with \[REDACTED:[a-z-]+\]\?$/u);
  assert.equal(value.obligations[0]?.obligationId, "obligation:a");
  assert.doesNotMatch(JSON.stringify(value), /ghp_|wJalrXUtnFEMI/u);
  assert.throws(
    () => redactPersistedInput({ obligations: [{ obligationId: GITHUB, statement: "x" }] }),
    (error: unknown) => error instanceof DocketError && error.code === "docket.invalid-params" && /obligations\[0\]\.obligationId/u.test(error.message) && !error.message.includes(GITHUB),
  );
});

test("no secret an agent puts into a judgment, an authorization or a landing reaches the ledger", async () => {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  try {
    const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
    const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true, clock: fixedClock() });
    ledger.refresh();
    await ledger.turnOn();
    const before = fs.readFileSync(ledgerPath);
    await assert.rejects(
      ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "What?", obligations: [{ obligationId: GITHUB, statement: "Settled." }] }),
      (error: unknown) => error instanceof DocketError && error.code === "docket.invalid-params",
    );
    assert.ok(fs.readFileSync(ledgerPath).equals(before), "a refused identifier writes nothing");
    await ledger.openJudgment({
      routeDefinitionId: "route:meaning-settlement",
      question: `The key ${ANTHROPIC} leaked in the logs: what changes?`,
      obligations: [{ obligationId: "obligation:a", statement: `The config no longer holds ${AWS_SECRET}.` }],
    });
    await ledger.concludeJudgment({ disposition: "not-applicable", reason: `Token ${GITHUB} is revoked already.`, basis: [`password: ${"hunter2-Xy9"}`] });
    await ledger.authorizeChange({ movement: `Remove ${GITHUB}.`, stableLanding: "No key in src.", verificationTarget: "grep finds none." });
    repo.write("src/a.ts", "export const a = 2;\n");
    await ledger.recordLanding({ result: `Removed ${ANTHROPIC}.`, verification: [AWS_SECRET] });
    await ledger.turnOff(`Done; ${GITHUB} rotated.`);
    const written = everyFile(path.join(repo.root, ".docket"));
    for (const secret of [GITHUB, ANTHROPIC, "wJalrXUtnFEMI/K7MDENG", "hunter2-Xy9"]) assert.equal(written.includes(secret), false, `${secret.slice(0, 6)}… reached .docket/`);
    assert.match(fs.readFileSync(ledgerPath, "utf8"), /\[REDACTED:/u);
  } finally {
    repo.dispose();
  }
});
