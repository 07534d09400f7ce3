// The zero-owner developer cycle against a real Git repository: decide, authorize, edit, land,
// reroute, verify — every batch through WorkspaceLedger, so the lock, preflight, baselines and
// Git reconciliation are all exercised together.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { verifyLedgerFile, WorkspaceLedger, type Clock } from "../../server/workspace/workspaceLedger";
import { DocketError } from "../../server/errors";
import { ErrorCodes } from "../../server/protocol/messages";
import { tempRepo } from "../support/gitRepo";
import { baselineFile, saveBaseline } from "../../server/workspace/baselineStore";
import { takeWorkspaceSnapshot } from "../../server/workspace/gitObservation";

function fixedClock(): Clock {
  let tick = 0;
  return { now: () => new Date(Date.UTC(2031, 0, 1) + 1_000 * tick++).toISOString() };
}

async function refused(action: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(action, (error: unknown) => error instanceof DocketError && error.code === code);
}

const obligations = [
  { obligationId: "obligation:b", statement: "The second question is settled." },
  { obligationId: "obligation:a", statement: "The first question is settled." },
];

/** A ledger in `folder` that is on and has one concluded (not-applicable) judgment: ready to authorize. */
async function decidedLedger(folder: string, question: string): Promise<WorkspaceLedger> {
  const ledgerPath = path.join(folder, ".docket", "ledger.jsonl");
  const ledger = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true, clock: fixedClock() });
  ledger.refresh();
  await ledger.turnOn();
  await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question, obligations });
  await ledger.concludeJudgment({ disposition: "not-applicable", reason: "Nothing.", basis: ["Seen."] });
  return ledger;
}

test("zero-owner cycle: judgment, authorization, landing, reroute and verification", async () => {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n", ".gitignore": "" } });
  try {
    const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
    const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true, clock: fixedClock() });
    ledger.refresh();
    await ledger.turnOn();
    assert.equal(ledger.status().phase, "deciding");

    await refused(ledger.openJudgment({ purpose: "verification-decision", routeDefinitionId: "route:meaning-settlement", question: "What?", obligations }), ErrorCodes.purposeMismatch);
    await refused(ledger.openJudgment({ routeDefinitionId: "route:nope", question: "What?", obligations }), ErrorCodes.unknownRoute);
    const opened = await ledger.openJudgment({ purpose: "work-decision", routeDefinitionId: "route:meaning-settlement", question: "What should change?", obligations });
    assert.equal(opened.runtime.state, "frame");
    assert.deepEqual(ledger.policy().legalOperations, ["open_context_sources", "conclude_judgment"]);

    const linesBefore = ledger.store.lineCount;
    await refused(ledger.concludeJudgment({ disposition: "not-applicable", reason: "Nothing.", basis: ["dup", "dup"] }), ErrorCodes.invalidParams);
    assert.equal(ledger.store.lineCount, linesBefore, "a refused operation writes nothing");
    const needs = await ledger.concludeJudgment({ disposition: "judgment", outcome: { kind: "needs-evidence", evidenceNeeded: ["A failing test."], resolutionOwner: "the user" } });
    assert.equal(needs.eventIds.length, 1, "the unresolved attempt is recorded");
    assert.equal(needs.runtime.state, "frame");
    assert.equal(needs.nextAction, "open_context_sources");

    const concluded = await ledger.concludeJudgment({ disposition: "not-applicable", reason: "Nothing needs deciding.", basis: ["The code already says it."] });
    // support, contribution, two discharges, conclusion
    assert.equal(concluded.eventIds.length, 5);
    assert.equal(ledger.status().phase, "ready-to-edit");
    assert.deepEqual(ledger.policy().legalOperations, ["authorize_change", "open_judgment"]);

    const authorized = await ledger.authorizeChange({ movement: "Rename a.", stableLanding: "a is renamed.", verificationTarget: "Types check." });
    assert.equal(authorized.runtime.state, "authorized");
    assert.equal(ledger.policy().edit, "allow");

    // Landing before any edit is refused: nothing to land.
    await refused(ledger.recordLanding({ result: "Done.", verification: [] }), ErrorCodes.landingEmpty);
    repo.write("src/a.ts", "export const renamed = 1;\n");
    repo.write("src/b.ts", "export const b = 2;\n");
    await refused(ledger.recordLanding({ changedPaths: ["src/a.ts"], result: "Done.", verification: [] }), ErrorCodes.landingPathsMismatch);

    // A second backend (a restart) can land: the authorization baseline is persisted.
    const restarted = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true, clock: fixedClock() });
    restarted.refresh();
    const landed = await restarted.recordLanding({ changedPaths: ["src/b.ts", "src/a.ts"], result: "Renamed a.", verification: ["npm test"] });
    assert.deepEqual(landed.runtime, { state: "idle", reroutePending: true, verificationPending: true });
    ledger.refresh();
    assert.equal(ledger.status().phase, "rerouting");
    const policy = ledger.policy();
    assert.equal(policy.shell, "deny");
    assert.equal(policy.edit, "deny");
    assert.deepEqual(policy.legalOperations, ["open_judgment"]);
    const landing = ledger.history().activeScope?.root.landings[0];
    assert.deepEqual(landing?.changedPaths, ["src/a.ts", "src/b.ts"]);

    await refused(ledger.openJudgment({ purpose: "work-decision", routeDefinitionId: "route:meaning-settlement", question: "Next?", obligations }), ErrorCodes.purposeMismatch);
    await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "Does the change alter the plan?", obligations });
    assert.equal(ledger.status().phase, "rerouting");
    assert.equal(ledger.history().activeScope?.root.debts[0]?.reroutePending, false);
    await ledger.concludeJudgment({
      disposition: "judgment",
      outcome: { kind: "contextual-judgment", rationale: "The plan holds.", artifact: "No reroute is needed.", stopEvidence: ["The landing matches the movement."] },
    });
    assert.equal(ledger.status().phase, "verifying");

    await refused(
      ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "Is it verified?", obligations }),
      ErrorCodes.verificationRouteRequired,
    );
    await ledger.openJudgment({ purpose: "verification-decision", routeDefinitionId: "route:claim-evidence-assessment", question: "Is the landing verified?", obligations });
    assert.equal(ledger.status().phase, "verifying");
    const verified = await ledger.concludeJudgment({ disposition: "not-applicable", reason: "Verified by the test run.", basis: ["npm test passed."] });
    assert.deepEqual(verified.runtime, { state: "idle", reroutePending: false, verificationPending: false });
    assert.equal(verified.nextAction, "authorize_change");
    assert.equal(ledger.status().phase, "done");

    // The next authorization measures from the post-landing state, so the landed edit is not "before authorization".
    await ledger.authorizeChange({ movement: "Second change.", stableLanding: "It lands.", verificationTarget: "Tests pass." });
    const rejected = await verifyLedgerFile(ledgerPath);
    assert.equal(rejected.ok, true, JSON.stringify(rejected.firstFault));
    assert.equal(rejected.rejected, 0);
    assert.ok(fs.existsSync(path.join(repo.root, ".docket", "baselines")));
  } finally {
    repo.dispose();
  }
});

test("authorization is refused when the workspace changed since the scope baseline", async () => {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  try {
    const ledger = await decidedLedger(repo.root, "What?");
    repo.write("src/a.ts", "export const a = 2;\n");
    const before = ledger.store.lineCount;
    await refused(ledger.authorizeChange({ movement: "M.", stableLanding: "S.", verificationTarget: "V." }), ErrorCodes.changedBeforeAuthorization);
    assert.equal(ledger.store.lineCount, before);
  } finally {
    repo.dispose();
  }
});

test("a landing whose authorization baseline is lost is observed from the baseline it was authorized against, never from a failed landing's; with both lost it is refused", async () => {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  try {
    const ledger = await decidedLedger(repo.root, "What?");
    await ledger.authorizeChange({ movement: "M.", stableLanding: "S.", verificationTarget: "V." });
    const authorizationId = ledger.workState().authorization?.authorizationId as string;
    const workScopeId = ledger.history().activeScope?.workScopeId as string;
    fs.rmSync(baselineFile(repo.root, { workScopeId, role: "authorization", authorizationId }));
    repo.write("src/a.ts", "export const a = 2;\n");
    // What a landing that saved its baseline and then failed to append leaves: the changed workspace.
    const changed = await takeWorkspaceSnapshot(repo.root, { excludedPaths: [path.join(repo.root, ".docket")] });
    await saveBaseline(repo.root, { workScopeId, role: "landing", authorizationId, snapshot: changed });
    const scopeFile = baselineFile(repo.root, { workScopeId, role: "scope" });
    const scopeBytes = fs.readFileSync(scopeFile);
    fs.rmSync(scopeFile);
    const before = ledger.store.lineCount;
    // Docket cannot observe what changed and never trusts declared paths where Git observes.
    await refused(ledger.recordLanding({ result: "Done.", verification: [] }), ErrorCodes.baselineMissing);
    await refused(ledger.recordLanding({ changedPaths: ["src/a.ts"], result: "Done.", verification: [] }), ErrorCodes.baselineMissing);
    assert.equal(ledger.store.lineCount, before);
    assert.equal(ledger.status().phase, "editing");
    // The scope baseline the change was authorized against observes the same delta.
    fs.writeFileSync(scopeFile, scopeBytes);
    await ledger.recordLanding({ result: "Done.", verification: [] });
    assert.deepEqual(ledger.workState().landings[0]?.changedPaths, ["src/a.ts"]);
  } finally {
    repo.dispose();
  }
});

test("a landed path's before-image: the file at the authorization's HEAD, absent when new, unavailable when dirty before", async () => {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n", "src/dirty.ts": "export const d = 1;\n", ".gitignore": "" } });
  try {
    // Uncommitted before Docket is on: pre-existing dirt, whose before-image Docket never saw.
    repo.write("src/dirty.ts", "export const d = 2;\n");
    const ledger = await decidedLedger(repo.root, "Change a?");
    await ledger.authorizeChange({ movement: "Change a.", stableLanding: "a is 2.", verificationTarget: "Read it." });
    repo.write("src/a.ts", "export const a = 2;\n");
    repo.write("src/new.ts", "export const n = 1;\n");
    repo.write("src/dirty.ts", "export const d = 3;\n");
    await ledger.recordLanding({ result: "Changed.", verification: [] });
    const landing = ledger.workState().landings[0];
    assert.ok(landing !== undefined);
    assert.deepEqual(landing.changedPaths, ["src/a.ts", "src/dirty.ts", "src/new.ts"]);

    const before = await ledger.landingBaseline(landing.landingId, "src/a.ts");
    assert.equal(before.source, "git-head");
    assert.equal(before.content, "export const a = 1;\n");
    assert.equal(before.absolutePath, path.join(repo.root, "src", "a.ts"));
    const created = await ledger.landingBaseline(landing.landingId, "src/new.ts");
    assert.deepEqual([created.source, created.content], ["absent", ""]);
    const dirty = await ledger.landingBaseline(landing.landingId, "src/dirty.ts");
    assert.equal(dirty.source, "unavailable");
    assert.match(dirty.note ?? "", /already had uncommitted changes/u);

    await refused(ledger.landingBaseline(landing.landingId, "src/other.ts"), ErrorCodes.invalidParams);
    await refused(ledger.landingBaseline("landing:unknown", "src/a.ts"), ErrorCodes.unknownLanding);
  } finally {
    repo.dispose();
  }
});
