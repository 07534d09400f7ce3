// An agent reviews its final answer through MCP: the SDK's client drives the bundled `docket mcp`
// in a real Git workspace, the review lands in the ledger, the returned marker makes the Stop
// check silent, a plan with an open board is remaining work, and refusals are coded and write nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { callTool, callToolOk, connectMcp, DOCKET_CLI, structuredField } from "../support/mcpClient";
import { tempRepo } from "../support/gitRepo";

function guardCheck(workspace: string, answer: string): { review: { status: string }; remaining: { kind: string }[]; decision: string } {
  const file = path.join(workspace, ".git", "answer.txt");
  fs.writeFileSync(file, answer);
  const result = spawnSync(process.execPath, [DOCKET_CLI, "guard", "check", "--workspace", workspace, "--answer-file", file, "--json"], { encoding: "utf8" });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout) as { review: { status: string }; remaining: { kind: string }[]; decision: string };
}

test("review_open → review_submit → marker → silent Stop; a plan made in the scope is remaining work until its board says GO", async () => {
  const repo = tempRepo({ files: { "greet.ts": "export const greet = (name: string) => name.trim();\n" } });
  assert.equal(spawnSync(process.execPath, [DOCKET_CLI, "on"], { cwd: repo.root }).status, 0);
  const client = await connectMcp(repo.root);
  try {
    const draft = "greet.ts trims the name before greeting.";
    const opened = await callToolOk(client, "review_open", { draft, claims: [{ id: "trim", text: "greet trims the name" }], sources: [{ kind: "file", path: "greet.ts" }] });
    const reviewId = structuredField<string>(opened, "review", "reviewId");
    assert.match(reviewId, /^review:[0-9a-f]{24}$/u);
    assert.match(opened.text, /call review_submit/u);

    const unsealed = await callTool(client, "review_submit", { reviewId, claims: [{ claimId: "trim", verdict: "supported", citations: ["source:2"] }], response: { verdict: "supported", rationale: "x" } });
    assert.equal(unsealed.isError, true);
    assert.match(unsealed.text, /docket\.review-citation-unsealed/u);

    const submitted = await callToolOk(client, "review_submit", { reviewId, claims: [{ claimId: "trim", verdict: "supported", citations: ["source:1"] }], response: { verdict: "supported", rationale: "greet.ts calls trim()" } });
    const marker = structuredField<string>(submitted, "review", "marker");
    assert.match(submitted.text, /Append result\.marker/u);
    assert.deepEqual([guardCheck(repo.root, `${draft}${marker}`).decision, guardCheck(repo.root, `${draft}${marker}`).review.status], ["silent", "supported"]);

    await callToolOk(client, "plan", { task: "make greet.ts trim the name" });
    const withBoard = guardCheck(repo.root, `${draft}${marker}`);
    assert.deepEqual(withBoard.remaining.map((item) => item.kind), ["board-finding"]);
    assert.equal(withBoard.decision, "notice");
  } finally {
    await client.close();
    repo.dispose();
  }
});
