// docs/examples/audit-report.md is produced by the command: scripts/audit-example.mjs builds the
// scripted two-commit branch and runs `docket audit main..feature --markdown`. This test runs the
// script again and compares, so the example never drifts from what the command prints. The ledger's
// occurredAt comes from the clock, so every id and hash after it differs between runs: those are
// compared as placeholders (normalizeIds), everything else byte for byte.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../support/repoRoot";
import { tempFolder } from "../support/gitRepo";
import { normalizeIds } from "../support/auditIds";

test("docs/examples/audit-report.md is what scripts/audit-example.mjs makes docket audit print (ids normalized)", () => {
  const folder = tempFolder("docket-audit-example-");
  try {
    const out = path.join(folder, "report.md");
    const run = spawnSync(process.execPath, [path.join(repoRoot(), "scripts", "audit-example.mjs"), "--out", out], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    const produced = fs.readFileSync(out, "utf8");
    const checkedIn = fs.readFileSync(path.join(repoRoot(), "docs", "examples", "audit-report.md"), "utf8");
    assert.equal(normalizeIds(produced), normalizeIds(checkedIn), "regenerate with: node scripts/build.mjs && node scripts/audit-example.mjs --out docs/examples/audit-report.md");
    assert.match(produced, /src\/greeting\.ts` \| M \| ✅ landed/u);
    assert.match(produced, /src\/farewell\.ts` \| A \| ❌ \*\*unlanded\*\*/u);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true, maxRetries: 30, retryDelay: 100 });
  }
});
