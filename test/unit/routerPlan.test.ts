// The whole Router pipeline (design router.md "Contract"): plan() runs the seven stages, the
// result passes the Plan schema, planSha256 is the hash of everything else, the same inputs in any
// list order give the same bytes, reports bound to the basis move the verdict without moving the
// basis, and one small plan's hash is pinned.
import { test } from "node:test";
import assert from "node:assert/strict";
import { canonicalize, hashValue } from "../../server/ledger/canonicalJson";
import { DocketError } from "../../server/errors";
import { ErrorCodes } from "../../server/protocol/messages";
import { PLAN_FORMAT, Plan, type Catalogue, type PlanOptions, type ReviewerId, type WorkspaceSnapshot } from "../../server/router/planSchema";
import { plan } from "../../server/router/plan";
import { catalogueFromSources, type SkillSource } from "../../server/router/catalogue";
import { snapshotFromFiles } from "../../server/router/snapshot/snapshot";
import { seededShuffle } from "../support/shuffle";

const encoder = new TextEncoder();

const WORKSPACE: Readonly<Record<string, string>> = {
  "AGENTS.md": "# Rules\nRun the tests before saying done.\n",
  "README.md": "# shop\n",
  "package.json": JSON.stringify({ name: "shop", version: "1.0.0", scripts: { test: "node --test", lint: "eslint .", build: "tsc" }, devDependencies: { typescript: "5.0.0" } }),
  "tsconfig.json": "{}\n",
  "src/payments/webhook.ts": 'import { store } from "../cache/store";\nexport function retry(): number { return store.size; }\n',
  "src/cache/store.ts": "export const store = new Map<string, number>();\n",
  "src/app.ts": 'import { retry } from "./payments/webhook";\nretry();\n',
  "test/webhook.test.ts": 'import { retry } from "../src/payments/webhook";\nretry();\n',
};

function skill(name: string, description: string, routing: string | null): SkillSource {
  return {
    source: "bundled",
    path: `skills/${name}/SKILL.md`,
    skill: encoder.encode(`---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${description}\n`),
    routing: routing === null ? null : encoder.encode(routing),
  };
}

const REVIEWERS: ReviewerId[] = ["code-reviewer", "security-auditor", "test-engineer", "architect", "performance-specialist"];

const SOURCES: readonly SkillSource[] = [
  skill("doctor", "Diagnose a failing behaviour before changing code.", "role: work\ndomains: [fix, investigate]\nsignals: [bug, failing, broken]\n"),
  skill("verify", "Prove that a change does what it claims.", "role: review\ndomains: [test]\nsignals: [verify]\nrelations:\n  - { type: VERIFIES, skill: doctor }\n"),
  skill("sketch", "Sketch a design before writing it.", null),
  ...REVIEWERS.map((name) => skill(name, `The ${name} seat of the review board.`, `role: review\nreviewer: ${name}\ndomains: [review]\n`)),
];

const TASK = "fix the failing retry in webhook.ts";
const none: PlanOptions = { mode: null, reports: [], ranChecks: [] };

function snapshotOf(order: readonly string[] = Object.keys(WORKSPACE)): WorkspaceSnapshot {
  return snapshotFromFiles(order, (path) => (WORKSPACE[path] === undefined ? null : Buffer.from(WORKSPACE[path] as string)), "git");
}

function catalogueOf(order: readonly SkillSource[] = SOURCES): Catalogue {
  return catalogueFromSources(order);
}


test("plan(): seven stages, schema-valid, planSha256 covers every other field", () => {
  const result = plan(TASK, snapshotOf(), catalogueOf(), none);
  assert.deepEqual(Object.keys(result).sort(), ["composition", "contextPack", "intent", "planSha256", "review", "routing", "task", "verification"]);
  Plan.parse(result);
  const { planSha256, ...body } = result;
  assert.equal(planSha256, hashValue({ domain: PLAN_FORMAT, value: body }));
  assert.equal(result.task.text, TASK);
  assert.ok(result.intent.entities.some((entity) => entity.kind === "file" && entity.value === "src/payments/webhook.ts"));
  assert.ok(result.contextPack.files.some((file) => file.path === "src/payments/webhook.ts"));
  assert.deepEqual(result.contextPack.rules.map((rule) => rule.path), ["AGENTS.md"]);
  assert.deepEqual(result.contextPack.graph, [{ path: "src/payments/webhook.ts", imports: ["src/cache/store.ts"], importedBy: ["src/app.ts", "test/webhook.test.ts"] }]);
  // Nothing ran, so nothing is claimed.
  assert.deepEqual(result.verification.ran, []);
  assert.deepEqual(result.verification.pending, result.verification.required.map((check) => check.checkId).sort());
  // Every seat sits in a real state; with no reports the board cannot say GO.
  assert.ok(result.review.seats.length >= 4);
  assert.ok(result.review.seats.every((seat) => seat.state === "awaiting-report"));
  assert.equal(result.review.verdict, "FIX_REQUIRED");
});

test("plan(): the same inputs in any list order give byte-identical plans", () => {
  const reference = canonicalize(plan(TASK, snapshotOf(), catalogueOf(), none));
  for (const seed of [1, 2, 3, 42]) {
    // Shuffled inputs to the pure builders …
    const viaBuilders = plan(TASK, snapshotOf(seededShuffle(Object.keys(WORKSPACE), seed)), catalogueOf(seededShuffle(SOURCES, seed)), none);
    assert.equal(canonicalize(viaBuilders), reference, `builders, seed ${seed}`);
    // … and the built values' own lists shuffled.
    const snapshot = snapshotOf();
    const shuffledSnapshot: WorkspaceSnapshot = {
      ...snapshot,
      files: seededShuffle(snapshot.files, seed),
      directories: seededShuffle(snapshot.directories, seed),
      modules: seededShuffle(snapshot.modules, seed),
      technologies: seededShuffle(snapshot.technologies, seed),
      ruleFiles: seededShuffle(snapshot.ruleFiles, seed),
      hotPaths: seededShuffle(snapshot.hotPaths, seed),
      imports: seededShuffle(snapshot.imports, seed),
    };
    const catalogue = catalogueOf();
    const viaValues = plan(TASK, shuffledSnapshot, { entries: seededShuffle(catalogue.entries, seed) }, none);
    assert.equal(canonicalize(viaValues), reference, `values, seed ${seed}`);
  }
});

test("plan(): reports bound to the basis move the verdict, not the basis; stale ones are ignored", () => {
  const first = plan(TASK, snapshotOf(), catalogueOf(), none);
  const basis = first.contextPack.versions.basisSha256;
  const seated = first.review.seats.map((seat) => seat.reviewer);
  const resolveAll = first.review.seats.flatMap((seat) => seat.findings.map((finding) => ({ ...finding, resolved: true })));
  const reports = seated.map((reviewer) => ({
    basisSha256: basis,
    reviewer,
    outcome: "reported" as const,
    findings: resolveAll.filter((finding) => finding.findingId.startsWith(`${reviewer}/`)),
    failure: null,
  }));
  const stale = { ...reports[0]!, basisSha256: "0".repeat(64) };
  const second = plan(TASK, snapshotOf(), catalogueOf(), { mode: null, reports: [stale, ...reports], ranChecks: [] });
  assert.equal(second.contextPack.versions.basisSha256, basis);
  assert.notEqual(second.planSha256, first.planSha256);
  assert.ok(second.review.seats.every((seat) => seat.state === "reported"));
  assert.equal(second.review.ignoredReports.length, 1);
  assert.equal(second.review.verdict, first.composition.executable ? "GO" : "BLOCKED");
});

test("plan(): a forced review mode seats the performance specialist for that reason", () => {
  const result = plan(TASK, snapshotOf(), catalogueOf(), { mode: "review", reports: [], ranChecks: [] });
  const seat = result.review.seats.find((item) => item.reviewer === "performance-specialist");
  assert.ok(seat !== undefined);
  assert.ok(seat.reasons.some((reason) => reason.kind === "execution-mode" && reason.mode === "review"));
  assert.ok(result.verification.required.some((check) => check.checkId === "review:performance-specialist"));
});

test("plan(): checks are only 'ran' with evidence", () => {
  const [first, second] = plan(TASK, snapshotOf(), catalogueOf(), none).verification.required.map((check) => check.checkId);
  assert.ok(first !== undefined && second !== undefined);
  const result = plan(TASK, snapshotOf(), catalogueOf(), {
    mode: null,
    reports: [],
    ranChecks: [
      { checkId: first, evidence: "exit 0 (ledger event 7)", passed: true },
      { checkId: second, evidence: "", passed: true },
    ],
  });
  assert.deepEqual(result.verification.ran.map((item) => item.checkId), [first]);
  assert.ok(!result.verification.pending.includes(first) && result.verification.pending.includes(second));
});

test("plan(): bad input is a coded error, never a plan", () => {
  assert.throws(
    () => plan("fix\u0000it", snapshotOf(), catalogueOf(), none),
    (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.taskInvalid,
  );
  const badReport = { basisSha256: "nope", reviewer: "architect", outcome: "reported", findings: [], failure: null } as unknown as PlanOptions["reports"][number];
  assert.throws(
    () => plan(TASK, snapshotOf(), catalogueOf(), { mode: null, reports: [badReport], ranChecks: [] }),
    (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.reviewReportInvalid,
  );
});

test("plan(): golden planSha256 for one fixed small plan", () => {
  const result = plan(TASK, snapshotOf(), catalogueOf(), none);
  // Pinned: a change here means the plan's bytes changed — intended changes update it (and say why).
  assert.equal(result.planSha256, GOLDEN_PLAN_SHA256);
  // The fixture's package.json declares a test script: the plan requires `npm test`.
  assert.ok(result.verification.required.some((check) => check.command === "npm test"), JSON.stringify(result.verification.required));
});

// Issue 15: routing gained `setAside` and `fit`; without those two keys this plan hashes to the
// previous golden 9776bfae…4031, so nothing else about it moved. Then three explanations were
// reworded (the domain and mode notes without "a fix word"/"a fix task", "the test file" instead
// of "test file(s)"); with the old wording this plan hashes to the previous golden 4115f059…179e.
const GOLDEN_PLAN_SHA256 = "68479fd15d6ecb19c8b96077bfc2693de98249ffe83e34b5cdc5241062143945";
