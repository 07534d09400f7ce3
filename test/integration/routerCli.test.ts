// `docket plan` as people and scripts run it: the built CLI in a child process against real
// temporary Git repositories and plain folders. Exit 0 for any plan (whatever its verdict), 2
// with a coded error for what cannot be planned; --json is the canonical plan on one line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { canonicalize } from "../../server/ledger/canonicalJson";
import { Plan } from "../../server/router/planSchema";
import { tempRepo } from "../support/gitRepo";
import { callTool, connectMcp, type ToolAnswer } from "../support/mcpClient";
import { repoRoot } from "../support/repoRoot";

const cli = path.join(repoRoot(), "dist", "docket.js");
const TASK = "fix the retry bug in webhook.ts without touching billing";

function docket(args: string[], cwd = os.tmpdir()): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function shopRepo(): ReturnType<typeof tempRepo> {
  const repo = tempRepo({});
  repo.write("package.json", JSON.stringify({ name: "shop", scripts: { test: "node --test" }, devDependencies: { typescript: "5.9.0" } }));
  repo.write("src/payments/webhook.ts", "export function handle(): number {\n  return 1;\n}\n");
  repo.write("src/billing/invoice.ts", "export const invoice = 1;\n");
  repo.commitAll("init");
  return repo;
}

test("docket plan --json: canonical one-line plan with the documented keys, the project's spelling and unmatched names", () => {
  const repo = shopRepo();
  try {
    const result = docket(["plan", TASK, "--json"], path.join(repo.root, "src"));
    assert.equal(result.status, 0, result.stderr);
    assert.ok(result.stdout.endsWith("}\n"));
    assert.equal(result.stdout.indexOf("\n"), result.stdout.length - 1, "one line");
    const plan = Plan.parse(JSON.parse(result.stdout));
    assert.equal(result.stdout, `${canonicalize(plan)}\n`, "canonical bytes");
    assert.deepEqual(Object.keys(JSON.parse(result.stdout) as object), ["composition", "contextPack", "intent", "planSha256", "review", "routing", "task", "verification"]);
    assert.ok(plan.intent.entities.some((entity) => entity.kind === "file" && entity.value === "src/payments/webhook.ts"));
    assert.ok(["GO", "FIX_REQUIRED", "BLOCKED"].includes(plan.review.verdict));

    const missing = docket(["plan", "fix the crash in refunds.ts", "--json", "--workspace", repo.root]);
    assert.equal(missing.status, 0, missing.stderr);
    const missingPlan = Plan.parse(JSON.parse(missing.stdout));
    assert.ok(missingPlan.intent.unmatched.some((entry) => entry.text === "refunds.ts"));
    assert.equal(missingPlan.intent.entities.some((entity) => entity.value.includes("refunds")), false);
  } finally {
    repo.dispose();
  }
});

test("docket plan is byte-identical across processes and working directories", () => {
  const repo = shopRepo();
  try {
    const first = docket(["plan", TASK, "--json", "--workspace", repo.root]);
    const second = docket(["plan", TASK, "--json"], path.join(repo.root, "src", "payments"));
    assert.equal(first.status, 0, first.stderr);
    assert.equal(second.stdout, first.stdout);
    const text = docket(["plan", TASK, "--workspace", repo.root]);
    assert.equal(text.status, 0, text.stderr);
    for (const heading of ["1. TASK", "2. TASK INTENT", "3. SKILL ROUTING", "4. SKILL COMPOSITION", "5. CONTEXT PACK", "6. VERIFICATION", "7. REVIEW"]) {
      assert.match(text.stdout, new RegExp(`^${heading.replace(".", "\\.")}$`, "mu"));
    }
    assert.match(text.stdout, /file src\/payments\/webhook\.ts ← "webhook\.ts"/u);
    assert.match(text.stdout, /verdict: (GO|FIX_REQUIRED|BLOCKED)/u);
    assert.match(text.stdout, new RegExp(`plan ${(JSON.parse(first.stdout) as { planSha256: string }).planSha256}\\n$`, "u"));
  } finally {
    repo.dispose();
  }
});

test("docket plan refuses what cannot be planned with exit 2 and a coded error, writing nothing", () => {
  const repo = shopRepo();
  try {
    const cases: Array<[string[], RegExp]> = [
      [["plan"], /docket\.usage/u],
      [["plan", "x".repeat(4001), "--workspace", repo.root], /docket\.task-invalid/u],
      [["plan", "fix\u0001it", "--workspace", repo.root], /docket\.task-invalid/u],
      [["plan", "   ", "--workspace", repo.root], /docket\.task-invalid/u],
      [["plan", TASK, "--mode", "yolo", "--workspace", repo.root], /docket\.usage/u],
      [["plan", TASK, "--workspace", path.join(repo.root, "nope")], /docket\.snapshot-unavailable/u],
      [["plan", TASK, "--workspace", path.join(repo.root, "package.json")], /docket\.snapshot-unavailable/u],
    ];
    for (const [args, pattern] of cases) {
      const result = docket(args);
      assert.equal(result.status, 2, `${args.slice(0, 2).join(" ").slice(0, 40)}: ${result.stderr}`);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, pattern);
    }
    assert.equal(fs.existsSync(path.join(repo.root, ".docket")), false, "planning writes nothing");
  } finally {
    repo.dispose();
  }
});

test("docket plan works outside Git (a .gitignore-honouring walk) and in an empty folder", () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "docket-plan-walk-"));
  try {
    const empty = docket(["plan", "add a readme", "--json", "--workspace", folder]);
    assert.equal(empty.status, 0, empty.stderr);
    assert.equal(Plan.parse(JSON.parse(empty.stdout)).contextPack.files.length, 0);
    fs.mkdirSync(path.join(folder, "src", "payments"), { recursive: true });
    fs.writeFileSync(path.join(folder, "src", "payments", "webhook.ts"), "export {};\n");
    fs.writeFileSync(path.join(folder, "bad.json"), Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    const walked = docket(["plan", TASK, "--json", "--workspace", folder]);
    assert.equal(walked.status, 0, walked.stderr);
    assert.ok(Plan.parse(JSON.parse(walked.stdout)).intent.entities.some((entity) => entity.value === "src/payments/webhook.ts"));
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

test("docket mcp: plan, then review_report on its basis re-evaluates the board; other bases are refused", async () => {
  const repo = shopRepo();
  const client = await connectMcp(repo.root, { name: "router-test" });
  const call = (name: string, args: Record<string, unknown>): Promise<ToolAnswer> => callTool(client, name, args);
  try {
    const planned = await call("plan", { task: TASK });
    assert.equal(planned.isError, false, planned.text);
    const plan = Plan.parse(planned.structured["plan"]);
    assert.match(planned.text, /verdict (GO|FIX_REQUIRED|BLOCKED)/u);
    assert.match(planned.text, /7\. REVIEW/u);
    const basis = plan.contextPack.versions.basisSha256;
    const seat = plan.review.seats.find((entry) => entry.reviewer === "code-reviewer");
    assert.equal(seat?.state, "awaiting-report");

    const report = { basisSha256: basis, reviewer: "code-reviewer", outcome: "reported", findings: [], failure: null };
    const recorded = await call("review_report", report);
    assert.equal(recorded.isError, false, recorded.text);
    const after = Plan.parse(recorded.structured["plan"]);
    assert.equal(after.review.seats.find((entry) => entry.reviewer === "code-reviewer")?.state, "reported");
    assert.equal(after.contextPack.versions.basisSha256, basis);
    const file = path.join(repo.root, ".docket", "reviews", `${basis}.jsonl`);
    assert.equal(fs.readFileSync(file, "utf8"), `${canonicalize(report)}\n`);

    const stale = await call("review_report", { ...report, basisSha256: "0".repeat(64) });
    assert.equal(stale.isError, true);
    assert.match(stale.text, /docket\.review-report-invalid/u);
    const badTask = await call("plan", { task: "x".repeat(4001) });
    assert.equal(badTask.isError, true);
    assert.match(badTask.text, /docket\.task-invalid/u);

    // A plan in another process sees the recorded report (it is read from .docket/reviews/).
    const cliPlan = Plan.parse(JSON.parse(docket(["plan", TASK, "--json", "--workspace", repo.root]).stdout));
    assert.equal(cliPlan.review.seats.find((entry) => entry.reviewer === "code-reviewer")?.state, "reported");

    // A reviewer in its own session (here: its own server process) reports with the plan's task.
    const reviewer = await connectMcp(repo.root, { name: "reviewer-agent" });
    try {
      const seated = after.review.seats.find((entry) => entry.reviewer !== "code-reviewer" && entry.state === "awaiting-report")?.reviewer;
      assert.ok(seated !== undefined, "another seat awaits a report");
      const own = { basisSha256: basis, reviewer: seated, outcome: "reported", findings: [], failure: null };
      const withoutTask = await callTool(reviewer, "review_report", own);
      assert.equal(withoutTask.isError, true);
      assert.match(withoutTask.text, /send the task with the report/u);
      const otherTask = await callTool(reviewer, "review_report", { ...own, task: `${TASK} now` });
      assert.equal(otherTask.isError, true);
      assert.match(otherTask.text, /another basis/u);
      const withTask = await callTool(reviewer, "review_report", { ...own, task: TASK });
      assert.equal(withTask.isError, false, withTask.text);
      assert.equal(Plan.parse(withTask.structured["plan"]).review.seats.find((entry) => entry.reviewer === seated)?.state, "reported");
      assert.ok(!fs.readFileSync(file, "utf8").includes(TASK.slice(0, 20)), "the task is not stored with the report");
    } finally {
      await reviewer.close();
    }
  } finally {
    await client.close();
    repo.dispose();
  }
});

test("docket plan says when no skill fits well, and which skills it set aside and why (issue 15's showcase)", () => {
  const repo = tempRepo({});
  try {
    repo.write("README.md", "# Docket demo workspace\n");
    repo.write("src/greet.ts", "export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n");
    repo.commitAll("init");
    const showcase = docket(["plan", "make greet.ts trim the name without touching the README", "--workspace", repo.root]);
    assert.equal(showcase.status, 0, showcase.stderr);
    assert.match(showcase.stdout, /^ {2}specify \(bundled, work, declared, score \d+\)/mu);
    assert.match(showcase.stdout, /^ {2}set aside naming-judgment \(bundled, work, declared, score 1\) skills\/naming-judgment\/SKILL\.md$/mu);
    assert.match(showcase.stdout, /"name" is what "trim" acts on/u);
    assert.match(showcase.stdout, /^ {4}set aside because router rule: a word the task acts on with a behaviour verb does not select a skill on its own$/mu);
    assert.doesNotMatch(showcase.stdout, /no skill fits well/u);

    const docs = docket(["plan", "update the README with the steps to run the demo", "--workspace", repo.root]);
    assert.equal(docs.status, 0, docs.stderr);
    assert.match(docs.stdout, /^3\. SKILL ROUTING\n {2}no skill fits well\n {4}because router rule: no skill fits well: /mu);
    assert.match(docs.stdout, /^ {2}\(no steps: no skill fits well\)$/mu);
    const json = Plan.parse(JSON.parse(docket(["plan", "update the README with the steps to run the demo", "--json", "--workspace", repo.root]).stdout));
    assert.equal(json.routing.fit.outcome, "no-skill-fits");
    assert.deepEqual(json.routing.candidates, []);
    assert.deepEqual(json.composition.steps, []);
  } finally {
    repo.dispose();
  }
});
