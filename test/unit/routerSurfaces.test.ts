// The Router's surfaces against a fixed plan (test/fixtures/router/plan.json): the text
// rendering, `docket plan` argument handling and output, the review-report store, the
// workspace planner's wiring, the MCP tool list and the panel's task highlighting.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DocketError } from "../../server/errors";
import { canonicalize } from "../../server/ledger/canonicalJson";
import { listTools } from "../../server/mcp/mcpServer";
import { ErrorCodes, Requests } from "../../server/protocol/messages";
import { HostToPlan, PlanToHost } from "../../server/protocol/webviewMessages";
import { Plan, type Catalogue, type PlanOptions, type SeatReport, type WorkspaceSnapshot } from "../../server/router/planSchema";
import { runPlanCommand } from "../../server/router/planCli";
import { reasonText, renderPlanText } from "../../server/router/planText";
import { appendReport, MAX_REPORTS_PER_BASIS, readReports, reviewsFile } from "../../server/router/reportStore";
import { WorkspacePlanner, type PlannerModules } from "../../server/router/workspacePlanner";
import { citedSpans, segments } from "../../webview/plan/spans";
import { repoRoot } from "../support/repoRoot";

const fixture = Plan.parse(JSON.parse(fs.readFileSync(path.join(repoRoot(), "test", "fixtures", "router", "plan.json"), "utf8")));
const basis = fixture.contextPack.versions.basisSha256;
const SEATS = fixture.review.seats.map((seat) => seat.reviewer);

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "docket-router-surfaces-"));
}

function report(overrides: Partial<SeatReport> = {}): SeatReport {
  return {
    basisSha256: basis,
    reviewer: "code-reviewer",
    outcome: "reported",
    findings: [{ findingId: "f1", severity: "minor", message: "Retry count is not logged.", citations: [{ kind: "file", path: "src/payments/webhook.ts", line: 3 }], resolved: false }],
    failure: null,
    ...overrides,
  };
}

function codeOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    assert.ok(error instanceof DocketError, String(error));
    return error.code;
  }
  assert.fail("expected a DocketError");
}

/** Planner modules that return the fixture, recording what they were asked. */
function fakeModules(): PlannerModules & { calls: PlanOptions[]; invalidated: string[][] } {
  const calls: PlanOptions[] = [];
  const invalidated: string[][] = [];
  const snapshot = { snapshotSha256: "0".repeat(64) } as unknown as WorkspaceSnapshot;
  return {
    calls,
    invalidated,
    createCache: () => ({ invalidate: (paths) => invalidated.push([...paths]), get: async () => snapshot }),
    loadCatalogue: (): Catalogue => ({ entries: [] }),
    plan: (task, _snapshot, _catalogue, options) => {
      calls.push(options);
      if (task.includes("\u0007")) throw new DocketError(ErrorCodes.taskInvalid, "control character");
      return fixture;
    },
  };
}

// ── Fixture and text rendering ─────────────────────────────────────────────────────────────

test("the fixture plan passes the Plan schema and has exactly the documented top-level keys", () => {
  assert.deepEqual(Object.keys(fixture).sort(), ["composition", "contextPack", "intent", "planSha256", "review", "routing", "task", "verification"]);
});

test("the text rendering shows the seven stages in order, reasons as facts, and the verdict", () => {
  const text = renderPlanText(fixture);
  const headings = ["1. TASK", "2. TASK INTENT", "3. SKILL ROUTING", "4. SKILL COMPOSITION", "5. CONTEXT PACK", "6. VERIFICATION", "7. REVIEW"];
  let last = -1;
  for (const heading of headings) {
    const at = text.indexOf(`\n${heading}\n`) === -1 && text.startsWith(`${heading}\n`) ? 0 : text.indexOf(`\n${heading}\n`);
    assert.ok(at > last, `${heading} in order`);
    last = at;
  }
  assert.match(text, /file src\/payments\/webhook\.ts ← "webhook\.ts" @21-31/u);
  assert.match(text, /because catalogue doctor\.domains = "fix" matched "fix" @0-3/u);
  assert.match(text, /because workspace file src\/payments\/webhook\.ts/u);
  assert.match(text, /excluded billing-helper/u);
  assert.match(text, /verdict: FIX_REQUIRED/u);
  assert.match(text, /major no-test:src\/payments\/webhook\.ts: .* \[src\/payments\/webhook\.ts:1\]/u);
  assert.ok(text.endsWith(`plan ${fixture.planSha256}\n`));
  assert.equal(renderPlanText(fixture), text, "pure");
});

test("a blocked plan says why, prominently", () => {
  const blocked: Plan = {
    ...fixture,
    composition: { ...fixture.composition, executable: false, blockedBecause: ["doctor REQUIRES model, which is not in the catalogue"], steps: [], groups: [] },
  };
  const text = renderPlanText(blocked);
  assert.match(text, /executable: NO\n {2}BLOCKED because doctor REQUIRES model/u);
  assert.match(text, /\(no steps\)/u);
});

test("every reason kind renders as a checkable fragment", () => {
  const span = { start: 0, end: 3, text: "fix" };
  assert.equal(reasonText({ kind: "task-span", span, note: "" }), 'task words "fix" @0-3');
  assert.equal(reasonText({ kind: "risk-rule", rule: "payments-path" }), "risk rule payments-path");
  assert.equal(reasonText({ kind: "execution-mode", mode: "review" }), "execution mode review");
  assert.equal(reasonText({ kind: "relation", from: "a", relation: "REQUIRES", to: "b" }), "relation a REQUIRES b");
  assert.equal(reasonText({ kind: "hot-path", path: "src/a.ts", hint: "handler" }), "hot path src/a.ts (handler)");
  assert.equal(reasonText({ kind: "router-rule", rule: "r" }), "router rule: r");
  assert.match(reasonText({ kind: "description-token", skill: "s", token: "retry", span }), /weaker/u);
  assert.equal(reasonText({ kind: "snapshot-entity", entityKind: "technology", value: "TypeScript", path: "package.json" }), "workspace technology TypeScript (package.json)");
});

// ── docket plan ─────────────────────────────────────────────────────────────────────────────

async function cli(args: string[], cwd: string, modules: PlannerModules = fakeModules()): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runPlanCommand(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd }, modules);
  return { code, stdout, stderr };
}

test("docket plan --json prints the canonical plan on one line", async () => {
  const dir = tempDir();
  const result = await cli(["fix the retry bug", "--workspace", dir, "--json"], dir);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, `${canonicalize(fixture)}\n`);
  assert.equal(result.stdout.split("\n").length, 2);
  assert.deepEqual(Object.keys(JSON.parse(result.stdout) as object), ["composition", "contextPack", "intent", "planSha256", "review", "routing", "task", "verification"]);
});

test("docket plan prints the text rendering by default and passes --mode on", async () => {
  const dir = tempDir();
  const modules = fakeModules();
  const result = await cli(["--mode=review", "fix it", `--workspace=${dir}`], dir, modules);
  assert.equal(result.code, 0);
  assert.equal(result.stdout, renderPlanText(fixture));
  assert.equal(modules.calls[0]?.mode, "review");
});

test("docket plan refuses bad usage and bad input with exit 2 and a coded error", async () => {
  const dir = tempDir();
  const cases: Array<[string[], RegExp]> = [
    [[], /docket\.usage: plan needs exactly one task/u],
    [["a", "b"], /docket\.usage/u],
    [["a", "--mode", "fast"], /docket\.usage: --mode must be one of plan-only, implement, review, investigate/u],
    [["a", "--bogus"], /docket\.usage: unknown option --bogus/u],
    [["a", "--workspace"], /docket\.usage: --workspace needs a value/u],
    [["ring\u0007", "--workspace", dir], /docket\.task-invalid/u],
    [["a", "--workspace", path.join(dir, "missing")], /docket\.snapshot-unavailable/u],
  ];
  for (const [args, pattern] of cases) {
    const result = await cli(args, dir);
    assert.equal(result.code, 2, args.join(" "));
    assert.equal(result.stdout, "");
    assert.match(result.stderr, pattern);
  }
});

// ── Review reports ──────────────────────────────────────────────────────────────────────────

test("a report is validated, appended as canonical JSON and read back (latest per seat)", () => {
  const dir = tempDir();
  const board = { basisSha256: basis, seats: SEATS };
  appendReport(dir, report(), board);
  appendReport(dir, report({ reviewer: "architect", findings: [] }), board);
  appendReport(dir, report({ findings: [] }), board);
  const file = reviewsFile(dir, basis);
  assert.equal(file, path.join(dir, ".docket", "reviews", `${basis}.jsonl`));
  const lines = fs.readFileSync(file, "utf8").split("\n");
  assert.equal(lines.length, 4);
  assert.equal(lines[0], canonicalize(report()));
  assert.match(fs.readFileSync(path.join(dir, ".docket", ".gitignore"), "utf8"), /^\*$/mu, "the reviews stay out of commits");
  const read = readReports(dir, basis);
  assert.deepEqual(read.map((entry) => entry.reviewer), ["architect", "code-reviewer"]);
  assert.deepEqual(read[1]?.findings, [], "the later report of a seat supersedes the earlier one");
  assert.deepEqual(readReports(dir, "f".repeat(64)), []);
});

test("reports are refused with docket.review-report-invalid and nothing is written", () => {
  const dir = tempDir();
  const board = { basisSha256: basis, seats: SEATS.filter((seat) => seat !== "performance-specialist") };
  const refusals: unknown[] = [
    report({ basisSha256: "a".repeat(64) }),
    report({ reviewer: "performance-specialist" }),
    { ...report(), extra: true },
    report({ outcome: "failed", failure: null }),
    report({ outcome: "reported", failure: "why" }),
    report({ findings: [{ findingId: "x", severity: "info", message: "m", citations: [{ kind: "file", path: "../outside.ts", line: null }], resolved: false }] }),
    report({ findings: [{ findingId: "x", severity: "info", message: "m", citations: [{ kind: "file", path: "/etc/passwd", line: null }], resolved: false }] }),
    "not a report",
  ];
  for (const raw of refusals) assert.equal(codeOf(() => appendReport(dir, raw, board)), ErrorCodes.reviewReportInvalid, JSON.stringify(raw));
  assert.equal(fs.existsSync(path.join(dir, ".docket")), false);
  assert.equal(codeOf(() => readReports(dir, "not-a-hash")), ErrorCodes.reviewReportInvalid);
});

test("a torn last line and garbage lines are skipped; the store is bounded", () => {
  const dir = tempDir();
  const board = { basisSha256: basis, seats: SEATS };
  const file = reviewsFile(dir, basis);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `not json\n${JSON.stringify({ ...report(), reviewer: "nobody" })}\n{"basisSha256":"${basis}","revi`);
  appendReport(dir, report({ reviewer: "test-engineer" }), board);
  assert.deepEqual(readReports(dir, basis).map((entry) => entry.reviewer), ["test-engineer"]);
  fs.writeFileSync(file, "x\n".repeat(MAX_REPORTS_PER_BASIS));
  assert.equal(codeOf(() => appendReport(dir, report(), board)), ErrorCodes.reviewReportInvalid);
});

// ── Workspace planner ───────────────────────────────────────────────────────────────────────

test("the planner plans, passes recorded reports for the plan's basis, and records reports for current plans only", async () => {
  const dir = tempDir();
  const modules = fakeModules();
  const planner = new WorkspacePlanner(dir, repoRoot(), modules);
  await assert.rejects(planner.recordReport(report()), (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.reviewReportInvalid);
  const first = await planner.plan("fix the retry bug", null);
  assert.equal(first.planSha256, fixture.planSha256);
  assert.equal(modules.calls.length, 1, "no reports: planned once");
  const recorded = await planner.recordReport(report());
  assert.equal(recorded.report.reviewer, "code-reviewer");
  const last = modules.calls[modules.calls.length - 1];
  assert.deepEqual(last?.reports.map((entry) => entry.reviewer), ["code-reviewer"], "the re-evaluated plan saw the report");
  await assert.rejects(planner.recordReport(report({ basisSha256: "b".repeat(64) })), (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.reviewReportInvalid);
  planner.invalidate([path.join(dir, "src", "a.ts"), "src/b.ts", path.join(os.tmpdir(), "elsewhere.ts"), ".git/index", path.join(dir, ".git", "info", "exclude")]);
  assert.deepEqual(modules.invalidated, [["src/a.ts", "src/b.ts", ".git/info/exclude"]]);
});

test("the planner maps an unusable folder and scanner failures to docket.snapshot-unavailable", async () => {
  const dir = tempDir();
  const missing = new WorkspacePlanner(path.join(dir, "missing"), repoRoot(), fakeModules());
  await assert.rejects(missing.plan("x", null), (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.snapshotUnavailable);
  const failing: PlannerModules = { ...fakeModules(), createCache: () => ({ invalidate: () => undefined, get: () => Promise.reject(new Error("EACCES")) }) };
  await assert.rejects(new WorkspacePlanner(dir, repoRoot(), failing).plan("x", null), (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.snapshotUnavailable);
  const broken: PlannerModules = { ...fakeModules(), plan: () => ({ ...fixture, planSha256: "nope" }) };
  await assert.rejects(new WorkspacePlanner(dir, repoRoot(), broken).plan("x", null), (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.internal);
});

// ── Protocol, MCP, panel ────────────────────────────────────────────────────────────────────

test("docket/plan params are strict; the result is the Plan", () => {
  assert.equal(Requests.plan.method, "docket/plan");
  assert.ok(Requests.plan.params.safeParse({ task: "fix it" }).success);
  assert.ok(Requests.plan.params.safeParse({ task: "fix it", mode: null }).success);
  assert.ok(Requests.plan.params.safeParse({ task: "fix it", mode: "review" }).success);
  assert.equal(Requests.plan.params.safeParse({ task: "fix it", mode: "fast" }).success, false);
  assert.equal(Requests.plan.params.safeParse({ task: "fix it", extra: 1 }).success, false);
  assert.ok(Requests.plan.result.safeParse(fixture).success);
});

test("the MCP tools plan and review_report have object schemas derived from the zod schemas", () => {
  const tools = listTools();
  const planTool = tools.find((tool) => tool.name === "plan");
  const reportTool = tools.find((tool) => tool.name === "review_report");
  assert.deepEqual(Object.keys(planTool?.inputSchema.properties ?? {}).sort(), ["mode", "task"]);
  assert.deepEqual(planTool?.inputSchema.required, ["task", "mode"]);
  assert.deepEqual(Object.keys(reportTool?.inputSchema.properties ?? {}).sort(), ["basisSha256", "failure", "findings", "mode", "outcome", "reviewer", "task"]);
  assert.equal(reportTool?.annotations?.readOnlyHint, false);
});

test("panel messages are strict", () => {
  assert.ok(HostToPlan.safeParse({ type: "plan", plan: fixture }).success);
  assert.ok(PlanToHost.safeParse({ type: "openFile", path: "src/payments/webhook.ts", line: null }).success);
  assert.equal(PlanToHost.safeParse({ type: "openFile", path: "", line: null }).success, false);
  assert.equal(PlanToHost.safeParse({ type: "openFile", path: "a", line: 0 }).success, false);
  assert.equal(PlanToHost.safeParse({ type: "run", command: "rm" }).success, false);
});

test("the panel highlights exactly the task words that reasons and the intent cite", () => {
  const spans = citedSpans(fixture);
  const parts = segments(fixture.task.text, spans);
  assert.equal(parts.map((part) => part.text).join(""), fixture.task.text);
  const cited = parts.filter((part) => part.cited).map((part) => part.text);
  for (const word of ["fix", "retry", "webhook.ts", "without", "touching billing"]) assert.ok(cited.includes(word), word);
  assert.equal(cited.some((text) => text.includes("bug")), false);
  assert.deepEqual(segments("abc", [{ start: 1, end: 9, text: "bc" }]).map((part) => part.cited), [false, true]);
});
