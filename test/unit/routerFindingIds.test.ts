// A task naming something very long (a 300-character token, a long path) still plans: the review
// board's deterministic finding ids stay within the 200 characters a Finding allows, unique and the
// same for the same task (found by the reliability suite's fuzz target: the Router refused its own
// plan with docket.internal).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadCatalogue } from "../../server/router/catalogueFiles";
import { plan } from "../../server/router/plan";
import { findingIdOf } from "../../server/router/reviewChecks";
import { SnapshotCache } from "../../server/router/snapshot/snapshotCache";
import { generateWorkspace } from "../support/routerWorkspace";
import { repoRoot } from "../support/repoRoot";

test("finding ids are cut to 200 characters with a digest of the whole, never splitting a surrogate pair", () => {
  assert.equal(findingIdOf("code-reviewer", "unmatched:cache"), "code-reviewer/unmatched:cache");
  const long = findingIdOf("code-reviewer", `unmatched:${"x".repeat(300)}`);
  assert.equal(long.length, 200);
  assert.match(long, /^code-reviewer\/unmatched:x+…#[0-9a-f]{16}$/u);
  assert.notEqual(findingIdOf("code-reviewer", `unmatched:${"x".repeat(300)}a`), long, "different names keep different ids");
  for (let pad = 0; pad < 4; pad += 1) {
    const id = findingIdOf("architect", `grounded:file:${"a".repeat(pad)}${"😀".repeat(120)}`);
    assert.ok(id.length <= 200);
    assert.doesNotMatch(id, /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u, "no lone surrogate");
  }
});

test("a task with very long names plans, with bounded and unique finding ids", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "docket-router-long-"));
  try {
    generateWorkspace(root, 30);
    const snapshot = await new SnapshotCache(root).get();
    const catalogue = loadCatalogue(root, repoRoot());
    const shortened: string[] = [];
    for (const task of [`Fix ${"0".repeat(400)} now`, `Refactor packages/${"deep/".repeat(60)}file.ts`, `Add a React component for render-2${"0".repeat(400)}`, `Review ${"x".repeat(3_000)}`]) {
      const first = plan(task, snapshot, catalogue, { mode: null, reports: [], ranChecks: [] });
      const ids = first.review.seats.flatMap((seat) => seat.findings.map((finding) => finding.findingId));
      shortened.push(...ids.filter((id) => id.includes("…#")));
      for (const id of ids) assert.ok(id.length <= 200, id);
      assert.equal(new Set(ids).size, ids.length);
      assert.equal(plan(task, snapshot, catalogue, { mode: null, reports: [], ranChecks: [] }).planSha256, first.planSha256);
    }
    assert.ok(shortened.length > 0, "some names were long enough to be cut");
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
