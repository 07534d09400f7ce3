// The owner-skill cycle over the real stdio backend against a temporary Git repository: on →
// open with an owning bundled skill → open a context source → conclude (settling the owner) →
// authorize → edit → land → reroute frame → verification frame → idle, with the tool policy and
// phase checked at every step and the ledger verified at the end.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { ErrorCodes, Requests } from "../../server/protocol/messages";
import { verifyLedgerFile } from "../../server/workspace/workspaceLedger";
import { startBackend } from "../support/backendProcess";
import { tempRepo } from "../support/gitRepo";

test("owner-skill cycle over JSON-RPC with Git: open with owner, context source, conclude, authorize, land, reroute, verify", async () => {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  const backend = await startBackend({ workspaceFolder: repo.root });
  const policy = async () => backend.request(Requests.policy, {});
  const obligations = [
    { obligationId: "obligation:rule", statement: "The rule for a is settled." },
    { obligationId: "obligation:scope", statement: "The scope of the change is settled." },
  ];
  try {
    await backend.connection.sendRequest(Requests.turnOn.method, {});
    assert.deepEqual((await policy()).legalOperations, ["open_judgment"]);

    assert.equal(
      await backend.errorCode(Requests.openJudgment.method, {
        routeDefinitionId: "route:meaning-settlement",
        question: "What should a be?",
        obligations,
        ownerSkill: { skillName: "not-bundled", subquestion: "S?", expectedContribution: "E." },
      }),
      ErrorCodes.unknownSkill,
    );
    const opened = await backend.request(Requests.openJudgment, {
      routeDefinitionId: "route:meaning-settlement",
      question: "What should a be?",
      obligations,
      ownerSkill: { skillName: "sketch", targetObligationIds: ["obligation:rule"], subquestion: "Which rule fits a?", expectedContribution: "A rule with its check." },
    });
    assert.equal(opened.eventIds.length, 7);
    assert.equal(opened.runtime.state, "frame");
    assert.equal(opened.owner?.skillName, "sketch");
    assert.ok((opened.owner?.method.length ?? 0) > 0);
    assert.equal(opened.routeSign, "meaning settlement");
    let current = await policy();
    assert.equal(current.phase, "deciding");
    assert.deepEqual(current.legalOperations, ["open_context_sources", "conclude_judgment"]);
    assert.equal(current.edit, "deny");

    const doctor = opened.contextSources.find((entry) => entry.kind === "skill" && entry.title === "doctor");
    assert.ok(doctor !== undefined);
    assert.equal(await backend.errorCode(Requests.openContextSources.method, { inventorySourceIds: [doctor.inventorySourceId, doctor.inventorySourceId] }), ErrorCodes.invalidParams);
    assert.equal(await backend.errorCode(Requests.openContextSources.method, { inventorySourceIds: ["skill-unknown"] }), ErrorCodes.unknownContextSource);
    const sources = await backend.request(Requests.openContextSources, { inventorySourceIds: [doctor.inventorySourceId] });
    assert.equal(sources.eventIds.length, 1);
    assert.equal(sources.opened[0]?.skillName, "doctor");
    const again = await backend.request(Requests.openContextSources, { inventorySourceIds: [doctor.inventorySourceId] });
    assert.deepEqual(again.eventIds, []);
    assert.deepEqual(again.skipped, [{ inventorySourceId: doctor.inventorySourceId, reason: "already-open" }]);
    assert.deepEqual((await policy()).legalOperations, ["open_context_sources", "conclude_judgment"]);

    // A nominated evidence handle nobody captured is refused; nothing is written.
    assert.equal(
      await backend.errorCode(Requests.concludeJudgment.method, {
        disposition: "judgment",
        applicability: { kind: "applicable", basis: ["a has one rule."] },
        selectionBasis: ["The test run."],
        nominations: [{ nominationId: "n:test", kind: "tool-result", branchResultId: "branch-result-0123456789abcdef" }],
        coverage: { status: "sufficient", contributions: [{ nominationId: "n:test", useAs: "evidence", contribution: "Tests pass; timing untested.", assurance: "agent-asserted" }] },
        outcome: { kind: "contextual-judgment", rationale: "R.", artifact: "A.", stopEvidence: ["S."] },
      }),
      ErrorCodes.unknownEvidenceHandle,
    );
    // The owner's needs-evidence is recorded as its settlement; the frame stays open and blocked.
    const needs = await backend.request(Requests.concludeJudgment, { disposition: "judgment", outcome: { kind: "needs-evidence", evidenceNeeded: ["The current value of a."], resolutionOwner: "agent" } });
    assert.equal(needs.eventIds.length, 1);
    assert.equal(needs.runtime.state, "frame");
    // Settled already: a second unresolved outcome is recorded as an attempt, not as a settlement.
    const still = await backend.request(Requests.concludeJudgment, { disposition: "judgment", outcome: { kind: "needs-evidence", evidenceNeeded: ["Still."], resolutionOwner: "agent" } });
    assert.equal(still.eventIds.length, 1);
    const concluded = await backend.request(Requests.concludeJudgment, {
      disposition: "judgment",
      applicability: { kind: "applicable", basis: ["a has interacting conditions."] },
      selectionBasis: ["The doctor checklist."],
      nominations: [{ nominationId: "n:doctor", kind: "inventory-source", inventorySourceId: doctor.inventorySourceId }],
      coverage: { status: "sufficient", contributions: [{ nominationId: "n:doctor", useAs: "guidance", contribution: "Adds the default case; says nothing about timing.", assurance: "agent-asserted" }] },
      outcome: { kind: "contextual-judgment", citedUses: [{ contributionIndex: 0, artifactEffect: "Adds the default." }], rationale: "One rule covers both.", artifact: "a = 2.", stopEvidence: ["Both cases hold."] },
    });
    assert.equal(concluded.runtime.state, "idle");
    current = await policy();
    assert.equal(current.phase, "ready-to-edit");
    assert.deepEqual(current.legalOperations, ["authorize_change", "open_judgment"]);

    await backend.connection.sendRequest(Requests.authorizeChange.method, { movement: "Set a to 2.", stableLanding: "a is 2.", verificationTarget: "The a test." });
    current = await policy();
    assert.equal(current.phase, "editing");
    assert.deepEqual(current.legalOperations, ["record_landing"]);
    assert.equal(current.edit, "allow");
    repo.write("src/a.ts", "export const a = 2;\n");
    const landed = await backend.request(Requests.recordLanding, { result: "a is 2." });
    assert.deepEqual(landed.runtime, { state: "idle", reroutePending: true, verificationPending: true });
    current = await policy();
    assert.equal(current.phase, "rerouting");
    assert.equal(current.edit, "deny");
    assert.deepEqual(current.legalOperations, ["open_judgment"]);

    const reroute = await backend.request(Requests.openJudgment, { routeDefinitionId: "route:meaning-settlement", question: "Is more work needed?", obligations: [{ obligationId: "obligation:next", statement: "Next work is decided." }] });
    assert.equal(reroute.owner, null);
    assert.equal((await policy()).phase, "rerouting");
    await backend.connection.sendRequest(Requests.concludeJudgment.method, { disposition: "not-applicable", reason: "No further work.", basis: ["The change is complete."] });
    current = await policy();
    assert.equal(current.phase, "verifying");
    assert.deepEqual(current.legalOperations, ["open_judgment"]);

    assert.equal(
      await backend.errorCode(Requests.openJudgment.method, { routeDefinitionId: "route:meaning-settlement", question: "Verified?", obligations: [{ obligationId: "obligation:v", statement: "Verified." }] }),
      ErrorCodes.verificationRouteRequired,
    );
    await backend.connection.sendRequest(Requests.openJudgment.method, {
      routeDefinitionId: "route:claim-evidence-assessment",
      question: "Does a equal 2?",
      obligations: [{ obligationId: "obligation:v", statement: "a equals 2 in the file." }],
      ownerSkill: { skillName: "verify", subquestion: "Is the claim supported?", expectedContribution: "The strongest supported claim." },
    });
    assert.equal((await policy()).phase, "verifying");
    await backend.connection.sendRequest(Requests.concludeJudgment.method, {
      disposition: "judgment",
      outcome: { kind: "contextual-judgment", rationale: "The file reads a = 2.", artifact: "a equals 2.", stopEvidence: ["src/a.ts shows 2."] },
    });
    current = await policy();
    assert.equal(current.phase, "done");
    assert.deepEqual(current.legalOperations, ["authorize_change", "open_judgment"]);
    const status = await backend.request(Requests.status, {});
    assert.equal(status.phase, "done");
    assert.equal((await verifyLedgerFile(path.join(repo.root, ".docket", "ledger.jsonl"))).ok, true);

    // Turning off with an active owner invocation cancels it before closing.
    await backend.connection.sendRequest(Requests.openJudgment.method, {
      routeDefinitionId: "route:change-timing",
      question: "Now or later?",
      obligations: [{ obligationId: "obligation:t", statement: "Timing is decided." }],
      ownerSkill: { skillName: "schedule", subquestion: "When?", expectedContribution: "A timing call." },
    });
    const off = await backend.request(Requests.turnOff, {});
    assert.equal(off.eventIds.length, 2);
    assert.equal((await policy()).phase, "off");
    assert.equal((await verifyLedgerFile(path.join(repo.root, ".docket", "ledger.jsonl"))).ok, true);
  } finally {
    await backend.stop();
    repo.dispose();
  }
});
