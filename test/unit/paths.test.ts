// Ledger path rules shared by the extension, the backend and the CLI.
import assert from "node:assert/strict";
import * as path from "node:path";
import { test } from "node:test";
import { resolveLedgerPath } from "../../server/workspace/ledgerPaths";

const folder = path.resolve("/work/project");
const home = path.resolve("/home/me");

test("an empty setting means .docket/ledger.jsonl in the workspace folder", () => {
  assert.equal(resolveLedgerPath(folder, "", home), path.join(folder, ".docket", "ledger.jsonl"));
  assert.equal(resolveLedgerPath(folder, "   ", home), path.join(folder, ".docket", "ledger.jsonl"));
  assert.equal(resolveLedgerPath(folder, null, home), path.join(folder, ".docket", "ledger.jsonl"));
});

test("relative paths resolve against the workspace folder", () => {
  assert.equal(resolveLedgerPath(folder, "ledgers/main.jsonl", home), path.join(folder, "ledgers", "main.jsonl"));
  assert.equal(resolveLedgerPath(folder, "../shared.jsonl", home), path.resolve(folder, "../shared.jsonl"));
});

test("absolute and home paths", () => {
  const absolute = path.resolve("/var/docket/ledger.jsonl");
  assert.equal(resolveLedgerPath(folder, absolute, home), absolute);
  assert.equal(resolveLedgerPath(folder, "~/docket.jsonl", home), path.join(home, "docket.jsonl"));
  assert.equal(resolveLedgerPath(folder, "~", home), home);
});
