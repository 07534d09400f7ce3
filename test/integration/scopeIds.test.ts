// Scope ids are unique across clones and branches (issue 17, item 0): bound to the ledger position
// a scope opens at and to a nonce drawn once for that opening, so two clones that open a scope after
// the same committed prefix never share an id, while ids written by the older rule still replay.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { runGit, tempFolder, tempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";
import { h24 } from "../../server/ledger/canonicalJson";
import { newScopeId, scopeClosedDraft, scopeOpenedDraft } from "../../server/developer/scopeOperations";
import { createEnvelope } from "../../server/ledger/envelope";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { LedgerStore } from "../../server/ledger/store";

const cli = path.join(repoRoot(), "dist", "docket.js");

function docket(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function openedScopeId(cwd: string): string {
  const on = docket(["on", "--json"], cwd);
  assert.equal(on.status, 0, on.stderr);
  const status = JSON.parse(docket(["status", "--json"], cwd).stdout) as { workScopeId: string };
  return status.workScopeId;
}

test("golden vectors: the v2 rule hashes the position and the nonce; the v1 rule is kept for reference", () => {
  assert.equal(newScopeId({ lineCount: 0, headLineSha256: null }, "0".repeat(32)), "scope:cf37fe90618fdba030e4f458");
  assert.equal(newScopeId({ lineCount: 5, headLineSha256: "a".repeat(64) }, "00112233445566778899aabbccddeeff"), "scope:752ca051e0a91340afd11e35");
  // The id every workspace's first scope got before: the reason for the change.
  assert.equal(`scope:${h24({ domain: "docket/work-scope-id/v1", line: 0, previousLineSha256: null })}`, "scope:b56b13d0a45f7176996d1506");
  assert.notEqual(newScopeId({ lineCount: 0, headLineSha256: null }, "0".repeat(32)), newScopeId({ lineCount: 0, headLineSha256: null }, `${"0".repeat(31)}1`));
});

test("a nonce that is not 32 lowercase hex digits is refused", () => {
  for (const nonce of ["", "0".repeat(31), "0".repeat(33), "G".repeat(32), "A".repeat(32), ` ${"0".repeat(31)}`]) {
    assert.throws(() => newScopeId({ lineCount: 0, headLineSha256: null }, nonce), /nonce/u);
  }
});

test("two clones that open a scope after the same committed prefix get different scope ids", () => {
  const repo = tempRepo({ files: { "a.txt": "a\n" } });
  const cloneParent = tempFolder("docket-clone-");
  try {
    const first = openedScopeId(repo.root);
    assert.equal(docket(["off"], repo.root).status, 0);
    repo.commitAll("ledger with one closed scope");
    const clone = path.join(cloneParent, "clone");
    runGit(cloneParent, ["clone", "--quiet", repo.root, clone]);
    assert.equal(fs.readFileSync(path.join(clone, ".docket", "ledger.jsonl"), "utf8"), fs.readFileSync(path.join(repo.root, ".docket", "ledger.jsonl"), "utf8"));

    const here = openedScopeId(repo.root);
    const there = openedScopeId(clone);
    assert.notEqual(here, there, "the same position, different openings");
    assert.notEqual(here, first);
    for (const id of [first, here, there]) assert.match(id, /^scope:[0-9a-f]{24}$/u);
    assert.equal(docket(["ledger", "verify"], repo.root).status, 0);
    assert.equal(docket(["ledger", "verify"], clone).status, 0);
  } finally {
    repo.dispose();
    fs.rmSync(cloneParent, { recursive: true, force: true, maxRetries: 30, retryDelay: 100 });
  }
});

test("a pinned nonce source gives reproducible ids; a ledger whose scopes carry v1 ids still replays and turns off", async () => {
  const repo = tempRepo({ files: { "a.txt": "a\n" } });
  try {
    const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
    const pinned = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true, scopeNonce: () => "0".repeat(32) });
    const on = await pinned.turnOn();
    assert.equal(on.workScopeId, "scope:cf37fe90618fdba030e4f458");
    await pinned.turnOff("done");

    // A scope opened under the old rule (its id derived from the position alone), closed, then a
    // second one still open: replay takes whatever id the ledger recorded.
    const oldId = `scope:${h24({ domain: "docket/work-scope-id/v1", line: 0, previousLineSha256: null })}`;
    const other = tempRepo({ files: { "b.txt": "b\n" } });
    try {
      const otherLedger = path.join(other.root, ".docket", "ledger.jsonl");
      // Write the v1-era scope through the store exactly as an old Docket did.
      const opened = createEnvelope(scopeOpenedDraft(oldId, "2030-01-01T00:00:00.000Z"));
      fs.mkdirSync(path.dirname(otherLedger), { recursive: true });
      await new LedgerStore(otherLedger).append(() => ({
        drafts: [scopeOpenedDraft(oldId, "2030-01-01T00:00:00.000Z"), scopeClosedDraft({ workScopeId: oldId, scopeSequence: 0, eventSha256: opened.eventSha256 }, "done", "2030-01-01T00:01:00.000Z")],
        context: null,
      }));
      const bare = new WorkspaceLedger({ workspaceFolder: other.root, ledgerPath: otherLedger, trusted: true });
      bare.refresh();
      assert.equal(bare.history().mode, "v8-closed");
      const next = await bare.turnOn();
      assert.match(next.workScopeId ?? "", /^scope:[0-9a-f]{24}$/u);
      assert.notEqual(next.workScopeId, oldId);
      await bare.turnOff("done");
      assert.equal(docket(["ledger", "verify"], other.root).status, 0);
    } finally {
      other.dispose();
    }
  } finally {
    repo.dispose();
  }
});
