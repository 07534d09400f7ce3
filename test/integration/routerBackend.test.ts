// `docket/plan` through the real backend (`docket serve --stdio` in a child process): the plan
// for a task, coded errors for bad input, and a snapshot that follows file changes in the
// workspace without restarting the backend.
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCodes, Requests } from "../../server/protocol/messages";
import type { Plan } from "../../server/router/planSchema";
import { startBackend } from "../support/backendProcess";
import { tempRepo } from "../support/gitRepo";

const TASK = "fix the retry bug in webhook.ts without touching billing";

function shopRepo(): ReturnType<typeof tempRepo> {
  const repo = tempRepo({});
  repo.write("package.json", JSON.stringify({ name: "shop", scripts: { test: "node --test" } }));
  repo.write("src/payments/webhook.ts", "export function handle(): number {\n  return 1;\n}\n");
  repo.commitAll("init");
  return repo;
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) assert.fail("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("docket/plan answers the plan, the same bytes each time, and coded errors for bad input", async () => {
  const repo = shopRepo();
  const backend = await startBackend({ workspaceFolder: repo.root });
  try {
    const plan = await backend.request(Requests.plan, { task: TASK });
    assert.ok(plan.intent.entities.some((entity) => entity.kind === "file" && entity.value === "src/payments/webhook.ts"));
    assert.equal(plan.review.seats.length >= 4, true);
    const again = await backend.request(Requests.plan, { task: TASK, mode: null });
    assert.equal(again.planSha256, plan.planSha256);
    const forced = await backend.request(Requests.plan, { task: TASK, mode: "review" });
    assert.equal(forced.intent.executionMode.value, "review");

    assert.equal(await backend.errorCode(Requests.plan.method, { task: "x".repeat(4001) }), ErrorCodes.taskInvalid);
    assert.equal(await backend.errorCode(Requests.plan.method, { task: "bell\u0007" }), ErrorCodes.taskInvalid);
    assert.equal(await backend.errorCode(Requests.plan.method, { task: "" }), ErrorCodes.taskInvalid);
    assert.equal(await backend.errorCode(Requests.plan.method, { task: TASK, extra: true }), ErrorCodes.invalidParams);
    assert.equal(await backend.errorCode(Requests.plan.method, { task: TASK, mode: "fast" }), ErrorCodes.invalidParams);
    assert.equal(await backend.errorCode(Requests.plan.method, {}), ErrorCodes.invalidParams);
  } finally {
    await backend.stop();
    repo.dispose();
  }
});

test("Restricted Mode: docket/plan answers the same plan and writes no Router index; a trusted backend keeps one", async () => {
  const repo = shopRepo();
  const index = path.join(repo.root, ".docket", "router-index");
  const restricted = await startBackend({ workspaceFolder: repo.root, trusted: false });
  let untrustedPlan: Plan;
  try {
    untrustedPlan = await restricted.request(Requests.plan, { task: TASK });
    assert.equal(fs.existsSync(path.join(repo.root, ".docket")), false, "an untrusted workspace gets no .docket/");
  } finally {
    await restricted.stop();
  }
  const trusted = await startBackend({ workspaceFolder: repo.root });
  try {
    const plan = await trusted.request(Requests.plan, { task: TASK });
    assert.equal(plan.planSha256, untrustedPlan.planSha256);
    assert.equal(fs.existsSync(index), true, "a trusted workspace keeps its Router index");
  } finally {
    await trusted.stop();
    repo.dispose();
  }
});

test("docket/plan follows file changes: a file created after the first plan is grounded by the next", async () => {
  const repo = shopRepo();
  const backend = await startBackend({ workspaceFolder: repo.root });
  try {
    const task = "fix the rounding in refunds.ts";
    const before = await backend.request(Requests.plan, { task });
    assert.ok(before.intent.unmatched.some((entry) => entry.text === "refunds.ts"));
    repo.write("src/payments/refunds.ts", "export const refund = 0;\n");
    let after: Plan | null = null;
    await eventually(async () => {
      after = await backend.request(Requests.plan, { task });
      return after.intent.entities.some((entity) => entity.value === "src/payments/refunds.ts");
    });
    repo.remove("src/payments/refunds.ts");
    await eventually(async () => (await backend.request(Requests.plan, { task })).planSha256 === before.planSha256);
  } finally {
    await backend.stop();
    repo.dispose();
  }
});

test("docket/plan without a folder is docket.no-workspace", async () => {
  const backend = await startBackend({ workspaceFolder: null });
  try {
    assert.equal(await backend.errorCode(Requests.plan.method, { task: TASK }), ErrorCodes.noWorkspace);
  } finally {
    await backend.stop();
  }
});
