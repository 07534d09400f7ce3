// Router stages 5–7 against hand-built stage values (design router.md "Review Board", context
// pack, verification): seating with a reason per seat, every seat state, the three verdicts,
// stale reports ignored and said, deterministic seat checks, and checks never claimed as ran.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { hashValue } from "../../server/ledger/canonicalJson";
import {
  Catalogue,
  CatalogueEntry,
  CompositionStage,
  ContextPackStage,
  IntentStage,
  PlanOptions,
  ReviewStage,
  RoutingStage,
  SeatReport,
  TaskStage,
  VerificationStage,
  WorkspaceSnapshot,
  type ReviewerId,
  type SkillRole,
} from "../../server/router/planSchema";
import { basisSha256, buildContextPack, FILES_PER_ENTITY } from "../../server/router/contextPack";
import { planVerification } from "../../server/router/verification";
import { reviewStage, seatBoard } from "../../server/router/reviewBoard";
import { isTestFile, testReferences } from "../../server/router/reviewChecks";

// ── Hand-built stage values ──────────────────────────────────────────────────────────────────

function snapshotOf(partial: Partial<Omit<WorkspaceSnapshot, "snapshotSha256" | "format">> = {}): WorkspaceSnapshot {
  const body = {
    format: "docket/router-snapshot/v1" as const,
    source: partial.source ?? "git",
    files: partial.files ?? ["README.md", "package.json", "src/payments/webhook.ts", "src/util.ts"],
    directories: partial.directories ?? ["src", "src/payments"],
    modules: partial.modules ?? [{ name: "shop", path: ".", kind: "npm-package" as const, manifest: "package.json", scripts: ["build", "lint", "test"] }],
    technologies: partial.technologies ?? [{ name: "TypeScript", sources: ["package.json"] }],
    ruleFiles: partial.ruleFiles ?? [{ path: "AGENTS.md", sha256: "a".repeat(64) }],
    hotPaths: partial.hotPaths ?? [],
    imports: partial.imports ?? [],
    limits: partial.limits ?? [],
    skipped: partial.skipped ?? [],
  };
  return WorkspaceSnapshot.parse({ ...body, snapshotSha256: hashValue(body) });
}

const TASK_TEXT = "fix the retry in webhook.ts";
const task: TaskStage = { text: TASK_TEXT, tokens: [] };
const span = (text: string): { start: number; end: number; text: string } => {
  const start = TASK_TEXT.indexOf(text);
  return { start: Math.max(start, 0), end: Math.max(start, 0) + text.length, text };
};

function intentOf(partial: Partial<IntentStage> = {}): IntentStage {
  return IntentStage.parse({
    domain: { value: "fix", reasons: [{ kind: "task-span", span: span("fix"), note: "domain verb" }] },
    entities: [],
    unmatched: [],
    ambiguous: [],
    signals: [],
    risk: [],
    executionMode: { value: "implement", reasons: [{ kind: "router-rule", rule: "default mode" }] },
    ...partial,
  });
}

const webhookEntity = { kind: "file" as const, value: "src/payments/webhook.ts", span: span("webhook.ts"), path: "src/payments/webhook.ts" };

const emptyRouting: RoutingStage = { candidates: [], setAside: [], fit: { outcome: "no-skill-fits", reasons: [{ kind: "router-rule", rule: "test" }] }, excluded: [], unavailable: [] };

function compositionOf(partial: Partial<CompositionStage> = {}): CompositionStage {
  return CompositionStage.parse({ steps: [], groups: [], edges: [], gates: [], issues: [], executable: true, blockedBecause: [], ...partial });
}

function entry(name: string, role: SkillRole, reviewer: ReviewerId | null, overrides: Partial<CatalogueEntry> = {}): CatalogueEntry {
  return CatalogueEntry.parse({
    name,
    source: "bundled",
    path: `skills/${name}/SKILL.md`,
    description: `${name} skill`,
    revisionSha256: hashValue(name),
    status: "available",
    problem: null,
    metadata: {
      role,
      domains: [],
      signals: [],
      entityKinds: [],
      technologies: [],
      riskTags: [],
      modes: [],
      reviewer,
      relations: [],
      excludedBy: [],
    },
    ...overrides,
  });
}

const REVIEWERS: ReviewerId[] = ["code-reviewer", "security-auditor", "test-engineer", "architect", "performance-specialist"];

function catalogueOf(omit: readonly string[] = []): Catalogue {
  return Catalogue.parse({
    entries: [entry("verify", "work", null), ...REVIEWERS.filter((name) => !omit.includes(name)).map((name) => entry(name, "review", name))].sort((a, b) =>
      a.name < b.name ? -1 : 1,
    ),
  });
}

const noOptions: PlanOptions = { mode: null, reports: [], ranChecks: [] };

interface Board {
  readonly pack: ContextPackStage;
  readonly review: ReviewStage;
  readonly basis: string;
}

function board(
  intent: IntentStage,
  options: PlanOptions = noOptions,
  snapshot: WorkspaceSnapshot = snapshotOf(),
  composition: CompositionStage = compositionOf(),
  catalogue: Catalogue = catalogueOf(),
): Board {
  const pack = buildContextPack(task, intent, emptyRouting, composition, snapshot, catalogue);
  const review = ReviewStage.parse(reviewStage(task, intent, emptyRouting, composition, pack, snapshot, catalogue, options));
  return { pack: ContextPackStage.parse(pack), review, basis: pack.versions.basisSha256 };
}

function report(basis: string, reviewer: ReviewerId, extra: Partial<SeatReport> = {}): SeatReport {
  return SeatReport.parse({ basisSha256: basis, reviewer, outcome: "reported", findings: [], failure: null, ...extra });
}

function allReported(basis: string, reviewers: readonly ReviewerId[] = REVIEWERS.slice(0, 4)): PlanOptions {
  return { mode: null, reports: reviewers.map((reviewer) => report(basis, reviewer)), ranChecks: [] };
}

const seatNames = (review: ReviewStage): string[] => review.seats.map((seat) => seat.reviewer);

// ── Seating ──────────────────────────────────────────────────────────────────────────────────

test("seating: the first four always sit with the router rule; the performance specialist needs a hot path, a signal or the mode", () => {
  const hot = snapshotOf({ hotPaths: [{ path: "src/payments", hint: 'the name has "cache"' }] });
  const table: { name: string; intent: IntentStage; snapshot: WorkspaceSnapshot; performanceReason: string | null }[] = [
    { name: "plain task", intent: intentOf({ entities: [webhookEntity] }), snapshot: snapshotOf(), performanceReason: null },
    { name: "hot paths elsewhere", intent: intentOf({ entities: [webhookEntity] }), snapshot: snapshotOf({ hotPaths: [{ path: "src/render", hint: "x" }] }), performanceReason: null },
    { name: "entity under a hot folder", intent: intentOf({ entities: [webhookEntity] }), snapshot: hot, performanceReason: "hot-path" },
    {
      name: "hot entity the task says to leave alone",
      intent: intentOf({ entities: [webhookEntity], signals: [{ kind: "negative", word: "without", span: span("in"), target: span("webhook.ts") }] }),
      snapshot: hot,
      performanceReason: null,
    },
    {
      name: "entity is a hot file",
      intent: intentOf({ entities: [webhookEntity] }),
      snapshot: snapshotOf({ hotPaths: [{ path: "src/payments/webhook.ts", hint: "h" }] }),
      performanceReason: "hot-path",
    },
    {
      name: "entity's own name is hot (snapshot list capped)",
      intent: intentOf({ entities: [{ ...webhookEntity, value: "src/cache.ts", path: "src/cache.ts" }] }),
      snapshot: snapshotOf({ files: ["src/cache.ts"], directories: ["src"] }),
      performanceReason: "hot-path",
    },
    {
      name: "performance signal",
      intent: intentOf({ signals: [{ kind: "performance", word: "retry", span: span("retry"), target: null }] }),
      snapshot: snapshotOf(),
      performanceReason: "task-span",
    },
    {
      name: "review mode",
      intent: intentOf({ executionMode: { value: "review", reasons: [{ kind: "router-rule", rule: "forced" }] } }),
      snapshot: snapshotOf(),
      performanceReason: "execution-mode",
    },
  ];
  for (const row of table) {
    const seats = seatBoard(row.intent, row.snapshot);
    assert.deepEqual(
      seats.slice(0, 4).map((seat) => seat.reviewer),
      ["code-reviewer", "security-auditor", "test-engineer", "architect"],
      row.name,
    );
    for (const seat of seats.slice(0, 4)) assert.deepEqual(seat.reasons.map((reason) => reason.kind), ["router-rule"], row.name);
    const performance = seats.find((seat) => seat.reviewer === "performance-specialist");
    if (row.performanceReason === null) {
      assert.equal(seats.length, 4, row.name);
    } else {
      assert.equal(seats.length, 5, row.name);
      assert.ok(performance !== undefined && performance.reasons.length > 0, row.name);
      assert.ok(performance.reasons.every((reason) => reason.kind === row.performanceReason), `${row.name}: ${JSON.stringify(performance.reasons)}`);
    }
  }
  // The reason cites the hint that fired.
  const seats = seatBoard(intentOf({ entities: [webhookEntity] }), hot);
  assert.deepEqual(seats[4]?.reasons, [{ kind: "hot-path", path: "src/payments", hint: 'the name has "cache"' }]);
});

// ── Seat states ──────────────────────────────────────────────────────────────────────────────

test("every seat is returned in its real state: reported, failed (with why), awaiting-report, unavailable", () => {
  const catalogue = catalogueOf(["architect"]);
  const first = board(intentOf(), noOptions, snapshotOf(), compositionOf(), catalogue);
  const options: PlanOptions = {
    mode: null,
    reports: [report(first.basis, "code-reviewer"), report(first.basis, "security-auditor", { outcome: "failed", failure: "could not read the diff" })],
    ranChecks: [],
  };
  const { review } = board(intentOf(), options, snapshotOf(), compositionOf(), catalogue);
  assert.deepEqual(seatNames(review), ["code-reviewer", "security-auditor", "test-engineer", "architect"]);
  const states = Object.fromEntries(review.seats.map((seat) => [seat.reviewer, [seat.state, seat.skill, seat.failure]]));
  assert.deepEqual(states["code-reviewer"], ["reported", "code-reviewer", null]);
  assert.deepEqual(states["security-auditor"], ["failed", "security-auditor", "could not read the diff"]);
  assert.deepEqual(states["test-engineer"], ["awaiting-report", "test-engineer", null]);
  assert.equal(states.architect?.[0], "unavailable");
  assert.equal(states.architect?.[1], null);
  assert.match(String(states.architect?.[2]), /no available skill with routing reviewer architect/u);
  assert.equal(review.verdict, "FIX_REQUIRED");
  assert.ok(review.verdictReasons.some((line) => line.includes("security-auditor failed: could not read the diff")));
  assert.ok(review.verdictReasons.some((line) => line.includes("test-engineer has not reported")));
  assert.ok(review.verdictReasons.some((line) => line.startsWith("architect cannot sit")));
});

test("a broken reviewer skill makes its seat unavailable with the catalogue's problem", () => {
  const catalogue = catalogueOf();
  const broken = {
    entries: catalogue.entries.map((item) =>
      item.name === "test-engineer" ? { ...item, status: "unavailable" as const, problem: { code: "metadata-invalid", message: "bad role" } } : item,
    ),
  };
  const { review } = board(intentOf(), noOptions, snapshotOf(), compositionOf(), broken);
  const seat = review.seats.find((item) => item.reviewer === "test-engineer");
  assert.equal(seat?.state, "unavailable");
  assert.match(seat?.failure ?? "", /metadata-invalid: bad role/u);
});

// ── Verdicts ─────────────────────────────────────────────────────────────────────────────────

test("verdict GO: every seat reported on this basis, nothing unresolved, composition executable; reasons said", () => {
  const first = board(intentOf());
  const { review } = board(intentOf(), allReported(first.basis));
  assert.equal(review.verdict, "GO");
  assert.equal(review.verdictReasons.length, 1);
  assert.match(review.verdictReasons[0] ?? "", /All 4 seated reviewers reported/u);
  assert.ok(review.seats.every((seat) => seat.state === "reported"));
});

test("verdict FIX_REQUIRED: an unresolved finding, or a seat that has not reported", () => {
  const first = board(intentOf());
  const withFinding = allReported(first.basis);
  withFinding.reports[0] = report(first.basis, "code-reviewer", {
    findings: [{ findingId: "cr-1", severity: "minor", message: "unclear name", citations: [{ kind: "file", path: "src/util.ts", line: 3 }], resolved: false }],
  });
  const unresolved = board(intentOf(), withFinding).review;
  assert.equal(unresolved.verdict, "FIX_REQUIRED");
  assert.deepEqual(unresolved.verdictReasons, ["code-reviewer has 1 unresolved finding: cr-1."]);

  const resolved = allReported(first.basis);
  resolved.reports[0] = report(first.basis, "code-reviewer", {
    findings: [{ findingId: "cr-1", severity: "blocking", message: "fixed since", citations: [], resolved: true }],
  });
  assert.equal(board(intentOf(), resolved).review.verdict, "GO");

  const awaiting = board(intentOf()).review;
  assert.equal(awaiting.verdict, "FIX_REQUIRED");
  assert.equal(awaiting.verdictReasons.length, 4);
});

test("verdict BLOCKED: a blocking composition issue, or an unresolved blocking finding", () => {
  const blockedComposition = compositionOf({
    executable: false,
    issues: [{ kind: "conflict", resolved: false, blocking: true, skills: ["a", "b"], detail: "a CONFLICTS_WITH b" }],
    blockedBecause: ["a and b conflict"],
  });
  const first = board(intentOf(), noOptions, snapshotOf(), blockedComposition);
  const blocked = board(intentOf(), allReported(first.basis), snapshotOf(), blockedComposition).review;
  assert.equal(blocked.verdict, "BLOCKED");
  assert.equal(blocked.verdictReasons[0], "The composition is blocked: a and b conflict.");
  // The architect's deterministic check reflects the issue as a blocking finding.
  const architect = blocked.seats.find((seat) => seat.reviewer === "architect");
  assert.deepEqual(architect?.checks.map((check) => [check.check, check.passed]), [["composition:conflict:a,b", false]]);
  assert.equal(architect?.findings[0]?.severity, "blocking");

  const base = board(intentOf());
  const options = allReported(base.basis);
  options.reports[1] = report(base.basis, "security-auditor", {
    findings: [{ findingId: "sa-1", severity: "blocking", message: "token logged", citations: [], resolved: false }],
  });
  const review = board(intentOf(), options).review;
  assert.equal(review.verdict, "BLOCKED");
  assert.deepEqual(review.verdictReasons, ["security-auditor has 1 unresolved blocking finding: sa-1."]);
});

// ── Reports and basis ────────────────────────────────────────────────────────────────────────

test("reports for another basis are ignored and said; the latest report per reviewer wins", () => {
  const first = board(intentOf());
  const stale = "f".repeat(64);
  const options: PlanOptions = {
    mode: null,
    reports: [
      report(stale, "code-reviewer"),
      report(first.basis, "test-engineer", { outcome: "failed", failure: "first try" }),
      report(first.basis, "test-engineer"),
      report(first.basis, "performance-specialist"),
    ],
    ranChecks: [],
  };
  const { review } = board(intentOf(), options);
  assert.equal(review.seats.find((seat) => seat.reviewer === "code-reviewer")?.state, "awaiting-report");
  assert.equal(review.seats.find((seat) => seat.reviewer === "test-engineer")?.state, "reported");
  assert.deepEqual(
    review.ignoredReports.map((item) => [item.reviewer, item.basisSha256 === stale]),
    [
      ["code-reviewer", true],
      ["test-engineer", false],
      ["performance-specialist", false],
    ],
  );
  assert.match(review.ignoredReports[0]?.why ?? "", /bound to basis f+, not this plan's/u);
  assert.match(review.ignoredReports[1]?.why ?? "", /superseded/u);
  assert.match(review.ignoredReports[2]?.why ?? "", /not seated/u);
});

test("the basis binds task, snapshot and catalogue, independent of catalogue order", () => {
  const snapshot = snapshotOf();
  const catalogue = catalogueOf();
  const basis = basisSha256(task, snapshot, catalogue);
  assert.equal(basisSha256(task, snapshot, { entries: [...catalogue.entries].reverse() }), basis);
  assert.notEqual(basisSha256({ text: "another task", tokens: [] }, snapshot, catalogue), basis);
  assert.notEqual(basisSha256(task, snapshotOf({ files: ["a.ts"] }), catalogue), basis);
  assert.notEqual(basisSha256(task, snapshot, catalogueOf(["architect"])), basis);
});

// ── Deterministic checks ─────────────────────────────────────────────────────────────────────

test("test engineer: a touched source file needs a test that references it (by import or by name)", () => {
  const intent = intentOf({ entities: [webhookEntity] });
  const uncovered = board(intent).review.seats.find((seat) => seat.reviewer === "test-engineer");
  assert.deepEqual(uncovered?.checks.map((check) => [check.check, check.passed]), [["test-reference:src/payments/webhook.ts", false]]);
  assert.equal(uncovered?.findings[0]?.findingId, "test-engineer/test-reference:src/payments/webhook.ts");
  assert.equal(uncovered?.findings[0]?.severity, "major");

  const byImport = snapshotOf({
    files: ["src/payments/webhook.ts", "test/payments.test.ts"],
    imports: [{ from: "test/payments.test.ts", to: "src/payments/webhook.ts" }],
  });
  const imported = board(intent, noOptions, byImport).review.seats.find((seat) => seat.reviewer === "test-engineer");
  assert.deepEqual(imported?.checks.map((check) => check.passed), [true]);
  assert.deepEqual(imported?.findings, []);
  // A file the task says not to touch needs no test from this change.
  const leftAlone = intentOf({ entities: [webhookEntity], signals: [{ kind: "negative", word: "without", span: span("in"), target: span("webhook.ts") }] });
  assert.deepEqual(board(leftAlone).review.seats.find((seat) => seat.reviewer === "test-engineer")?.checks, []);

  for (const name of ["src/payments/webhook.test.ts", "tests/webhook_test.go", "test_webhook.py", "spec/webhook.spec.js"]) {
    const refs = testReferences("src/payments/webhook.ts", snapshotOf({ files: ["src/payments/webhook.ts", name] }));
    assert.deepEqual(refs.byName, [name], name);
  }
  // A non-test file that imports it, or a test with a longer name, does not count.
  const refs = testReferences("src/payments/webhook.ts", snapshotOf({
    files: ["src/app.ts", "src/payments/webhook.ts", "test/webhookRetry.test.ts"],
    imports: [{ from: "src/app.ts", to: "src/payments/webhook.ts" }],
  }));
  assert.deepEqual([refs.importedBy, refs.byName], [[], []]);
  assert.ok(isTestFile("pkg/__tests__/a.ts") && isTestFile("a_test.go") && !isTestFile("src/latest.ts") && !isTestFile("src/contest.ts"));
});

test("a seat's report resolves a deterministic finding by its id", () => {
  const intent = intentOf({ entities: [webhookEntity] });
  const first = board(intent);
  const options = allReported(first.basis);
  options.reports[2] = report(first.basis, "test-engineer", {
    findings: [{ findingId: "test-engineer/test-reference:src/payments/webhook.ts", severity: "major", message: "covered by the e2e suite", citations: [], resolved: true }],
  });
  const { review } = board(intent, options);
  assert.equal(review.verdict, "GO");
});

test("architect, security auditor and code reviewer checks", () => {
  const ghost = { kind: "file" as const, value: "src/ghost.ts", span: span("webhook.ts"), path: "src/ghost.ts" };
  const intent = intentOf({
    entities: [webhookEntity, ghost],
    unmatched: [{ text: "retry.ts", span: span("retry"), looksLike: "file", why: "no file has that name" }],
    ambiguous: [{ text: "util", span: span("the"), kind: "file", candidates: ["b/util.ts", "a/util.ts"] }],
    signals: [{ kind: "security", word: "retry", span: span("retry"), target: null }],
    risk: [
      { rule: "touches-payments", level: "high", reasons: [{ kind: "task-span", span: span("retry"), note: "security word" }] },
      { rule: "broad-change", level: "low", reasons: [{ kind: "risk-rule", rule: "many files" }] },
    ],
  });
  const { review } = board(intent);
  const seat = (reviewer: ReviewerId) => review.seats.find((item) => item.reviewer === reviewer);
  assert.deepEqual(seat("architect")?.checks.map((check) => [check.check, check.passed]), [
    ["grounded:file:src/payments/webhook.ts", true],
    ["grounded:file:src/ghost.ts", false],
  ]);
  assert.equal(review.verdict, "BLOCKED");
  assert.deepEqual(seat("security-auditor")?.findings.map((item) => [item.findingId, item.severity]), [["security-auditor/risk:touches-payments", "major"]]);
  assert.deepEqual(seat("code-reviewer")?.findings.map((item) => item.findingId), ["code-reviewer/ambiguous:util", "code-reviewer/unmatched:retry.ts"]);
  assert.deepEqual(seat("code-reviewer")?.findings[0]?.citations, [
    { kind: "file", path: "a/util.ts", line: null },
    { kind: "file", path: "b/util.ts", line: null },
  ]);
});

// ── Verification ─────────────────────────────────────────────────────────────────────────────

test("verification derives checks from manifests and scripts, one review per seat, and never claims a check ran", () => {
  const stage = VerificationStage.parse(planVerification(intentOf(), compositionOf(), snapshotOf(), noOptions));
  assert.deepEqual(
    stage.required.map((check) => [check.checkId, check.kind, check.command]),
    [
      ["test:npm:.:test", "test", "npm test"],
      ["lint:npm:.:lint", "lint", "npm run lint"],
      ["build:npm:.:build", "build", "npm run build"],
      ["review:code-reviewer", "review", null],
      ["review:security-auditor", "review", null],
      ["review:test-engineer", "review", null],
      ["review:architect", "review", null],
    ],
  );
  assert.deepEqual(stage.ran, []);
  assert.deepEqual(stage.pending, [...stage.required.map((check) => check.checkId)].sort());

  const ran = planVerification(intentOf(), compositionOf(), snapshotOf(), {
    mode: null,
    reports: [],
    ranChecks: [
      { checkId: "test:npm:.:test", evidence: "ledger event e-1: exit 0", passed: true },
      { checkId: "lint:npm:.:lint", evidence: "  ", passed: true },
    ],
  });
  assert.deepEqual(ran.ran, [{ checkId: "test:npm:.:test", evidence: "ledger event e-1: exit 0", passed: true }]);
  assert.ok(!ran.pending.includes("test:npm:.:test") && ran.pending.includes("lint:npm:.:lint"));
});

test("verification: toolchains by manifest, pytest only with evidence, nested modules only when touched, manual fallback", () => {
  const ids = (snapshot: WorkspaceSnapshot, intent: IntentStage = intentOf()): [string, string | null][] =>
    planVerification(intent, compositionOf(), snapshot, noOptions)
      .required.filter((check) => check.kind !== "review")
      .map((check) => [check.checkId, check.command]);
  assert.deepEqual(ids(snapshotOf({ files: ["go.mod", "main.go"], modules: [{ name: "example.com/x", path: ".", kind: "go-module", manifest: "go.mod" }] })), [
    ["test:go-module:.", "go test ./..."],
  ]);
  assert.deepEqual(ids(snapshotOf({ files: ["Cargo.toml"], modules: [{ name: "x", path: ".", kind: "cargo-crate", manifest: "Cargo.toml" }] })), [
    ["test:cargo-crate:.", "cargo test"],
  ]);
  const python = { name: "pkg", path: ".", kind: "python-package" as const, manifest: "pyproject.toml" };
  assert.deepEqual(ids(snapshotOf({ files: ["pyproject.toml", "pkg/a.py"], modules: [python] })), [["manual:verify", null]]);
  assert.deepEqual(ids(snapshotOf({ files: ["pyproject.toml", "pkg/a.py", "tests/test_a.py"], modules: [python] })), [["test:python-package:.", "pytest"]]);
  // npm without scripts: no invented command.
  assert.deepEqual(ids(snapshotOf({ modules: [{ name: "shop", path: ".", kind: "npm-package", manifest: "package.json" }] })), [["manual:verify", null]]);

  const monorepo = snapshotOf({
    files: ["package.json", "packages/api/package.json", "packages/api/src/a.ts", "packages/web/package.json"],
    modules: [
      { name: "root", path: ".", kind: "npm-package", manifest: "package.json", scripts: ["lint"] },
      { name: "api", path: "packages/api", kind: "npm-package", manifest: "packages/api/package.json", scripts: ["test", "typecheck", "tsc"] },
      { name: "web", path: "packages/web", kind: "npm-package", manifest: "packages/web/package.json", scripts: ["test"] },
    ],
  });
  const touched = intentOf({ entities: [{ kind: "file", value: "packages/api/src/a.ts", span: span("webhook.ts"), path: "packages/api/src/a.ts" }] });
  assert.deepEqual(ids(monorepo, touched), [
    ["lint:npm:.:lint", "npm run lint"],
    ["test:npm:packages/api:test", "npm --prefix packages/api test"],
    ["typecheck:npm:packages/api:typecheck", "npm --prefix packages/api run typecheck"],
  ]);
  // A package the task says to leave alone contributes no checks; paths are quoted for the shell when needed.
  const spaced = snapshotOf({
    files: ["my api/package.json", "my api/a.ts"],
    modules: [{ name: "api", path: "my api", kind: "npm-package", manifest: "my api/package.json", scripts: ["test"] }],
  });
  const entity = { kind: "file" as const, value: "my api/a.ts", span: span("webhook.ts"), path: "my api/a.ts" };
  assert.deepEqual(ids(spaced, intentOf({ entities: [entity] })), [["test:npm:my api:test", "npm --prefix 'my api' test"]]);
  const negated = intentOf({ entities: [entity], signals: [{ kind: "negative", word: "without", span: span("in"), target: span("webhook.ts") }] });
  assert.deepEqual(ids(spaced, negated), [["manual:verify", null]]);
  const gates = planVerification(intentOf(), compositionOf({ gates: [{ afterGroup: 0, kind: "authorization", description: "Authorize before editing." }] }), snapshotOf(), noOptions);
  assert.ok(gates.required.some((check) => check.checkId === "gate:authorization:0" && check.kind === "manual"));
});

// ── Context pack ─────────────────────────────────────────────────────────────────────────────

test("context pack: versions, files (capped and said), graph, rules, constraints, findings, unknowns", () => {
  const many = Array.from({ length: FILES_PER_ENTITY + 5 }, (_, index) => `lib/f${String(index).padStart(3, "0")}.ts`);
  const snapshot = snapshotOf({
    files: ["AGENTS.md", ...many, "src/app.ts", "src/payments/webhook.ts", "src/payments/webhook.test.ts"],
    directories: ["lib", "src", "src/payments"],
    imports: [
      { from: "src/app.ts", to: "src/payments/webhook.ts" },
      { from: "src/payments/webhook.ts", to: "lib/f000.ts" },
    ],
    limits: ["files: 9 listed, first 8 kept"],
    hotPaths: [{ path: "lib", hint: "h" }],
  });
  const intent = intentOf({
    entities: [webhookEntity, { kind: "directory", value: "lib", span: span("the"), path: "lib" }],
    unmatched: [{ text: "retry.ts", span: span("retry"), looksLike: "file", why: "no file has that name" }],
    signals: [{ kind: "negative", word: "without", span: span("the"), target: span("retry") }],
  });
  const composition = compositionOf({ issues: [{ kind: "missing-requirement", resolved: false, blocking: true, skills: ["verify"], detail: "verify REQUIRES specify" }] });
  const { pack } = board(intent, noOptions, snapshot, composition);
  assert.equal(pack.versions.snapshotSha256, snapshot.snapshotSha256);
  assert.deepEqual(pack.versions.skills.map((item) => item.skill), ["architect", "code-reviewer", "performance-specialist", "security-auditor", "test-engineer"]);
  assert.equal(pack.files.length, FILES_PER_ENTITY + 1);
  assert.deepEqual(pack.files.find((file) => file.path === "src/payments/webhook.ts")?.reasons.map((reason) => reason.kind), ["snapshot-entity", "task-span"]);
  assert.deepEqual(pack.graph, [{ path: "src/payments/webhook.ts", imports: ["lib/f000.ts"], importedBy: ["src/app.ts"] }]);
  assert.deepEqual(pack.rules, [{ path: "AGENTS.md", sha256: "a".repeat(64) }]);
  assert.deepEqual(pack.constraints, [{ text: "the retry", span: { start: 4, end: 13, text: "the retry" }, kind: "negative" }]);
  assert.deepEqual(pack.findings.map((item) => item.finding), ["src/payments/webhook.ts is referenced by the test file src/payments/webhook.test.ts"]);
  assert.deepEqual(
    pack.unknowns.map((item) => [item.kind, item.text]),
    [
      ["unmatched", "retry.ts"],
      ["missing-requirement", "verify"],
      ["snapshot-limit", "files: 9 listed, first 8 kept"],
      ["snapshot-limit", "directory lib"],
    ],
  );
  assert.ok(pack.facts.every((fact) => fact.reasons.length > 0));
  assert.deepEqual(pack.facts.slice(0, 3).map((fact) => [fact.fact, fact.value]), [
    ["domain", "fix"],
    ["execution mode", "implement"],
    ["file list source", "git"],
  ]);
});

// ── Board invariants over arbitrary report sets ──────────────────────────────────────────────

test("property: every seat is listed once, every report is counted or ignored, GO only for a clean board", () => {
  const intent = intentOf({ entities: [webhookEntity] });
  const basis = board(intent).basis;
  const other = "e".repeat(64);
  const findingArb = fc.record({
    findingId: fc.constantFrom("x-1", "x-2", "test-engineer/test-reference:src/payments/webhook.ts"),
    severity: fc.constantFrom("blocking", "major", "minor", "info"),
    message: fc.constant("m"),
    citations: fc.constant([]),
    resolved: fc.boolean(),
  });
  const reportArb = fc.record({
    basisSha256: fc.constantFrom(basis, basis, other),
    reviewer: fc.constantFrom(...REVIEWERS),
    outcome: fc.constantFrom("reported", "failed"),
    findings: fc.array(findingArb, { maxLength: 3 }),
    failure: fc.constant("why"),
  });
  fc.assert(
    fc.property(fc.array(reportArb, { maxLength: 12 }), fc.boolean(), (reports, reviewMode) => {
      const modeIntent = reviewMode ? { ...intent, executionMode: { value: "review" as const, reasons: intent.executionMode.reasons } } : intent;
      const { review } = board(modeIntent, { mode: null, reports: reports.map((item) => SeatReport.parse(item)), ranChecks: [] });
      const seated = seatNames(review);
      assert.deepEqual(seated, reviewMode ? REVIEWERS : REVIEWERS.slice(0, 4));
      const counted = review.seats.filter((seat) => seat.state === "reported" || seat.state === "failed").length;
      const countable = new Set(reports.filter((item) => item.basisSha256 === basis && seated.includes(item.reviewer)).map((item) => item.reviewer));
      assert.equal(counted, countable.size);
      assert.equal(review.ignoredReports.length, reports.length - countable.size);
      if (review.verdict === "GO") {
        assert.ok(review.seats.every((seat) => seat.state === "reported" && seat.findings.every((item) => item.resolved)));
      }
      if (review.seats.some((seat) => seat.findings.some((item) => !item.resolved && item.severity === "blocking"))) assert.equal(review.verdict, "BLOCKED");
      assert.ok(review.verdictReasons.length >= 1);
    }),
    { numRuns: 200 },
  );
});
