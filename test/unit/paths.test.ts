import assert from "node:assert/strict";
import * as path from "node:path";
import { test } from "node:test";
import { resolveLedgerPath } from "../../extension/paths";

const folder = path.resolve("/work/project");
const home = path.resolve("/home/me");

test("empty setting means the backend's default", () => {
  assert.equal(resolveLedgerPath("", folder, home), null);
  assert.equal(resolveLedgerPath("   ", folder, home), null);
});

test("relative paths resolve against the workspace folder", () => {
  assert.equal(resolveLedgerPath("ledgers/main.jsonl", folder, home), path.join(folder, "ledgers", "main.jsonl"));
  assert.equal(resolveLedgerPath("../shared.jsonl", folder, home), path.resolve(folder, "../shared.jsonl"));
  assert.equal(resolveLedgerPath("ledger.jsonl", null, home), null);
});

test("absolute and home paths", () => {
  const absolute = path.resolve("/var/docket/ledger.jsonl");
  assert.equal(resolveLedgerPath(absolute, folder, home), absolute);
  assert.equal(resolveLedgerPath(absolute, null, home), absolute);
  assert.equal(resolveLedgerPath("~/docket.jsonl", null, home), path.join(home, "docket.jsonl"));
});
