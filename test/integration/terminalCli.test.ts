// `docket on|off|status` from a terminal against a real temp Git repository: the same ledger
// the extension uses, written through WorkspaceLedger, with documented exit codes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { tempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";

const cli = path.join(repoRoot(), "dist", "docket.js");

function docket(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("on → status → on again refused → off → status, from a subdirectory of the repository", () => {
  const repo = tempRepo({ files: { "src/a.txt": "a\n" } });
  try {
    const cwd = path.join(repo.root, "src");
    const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");

    const off = docket(["status"], cwd);
    assert.equal(off.status, 0, off.stderr);
    assert.match(off.stdout, /^phase: off$/mu);
    assert.match(off.stdout, new RegExp(`^ledger: ${ledgerPath.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")}$`, "mu"));
    assert.match(off.stdout, /^shell: allow, edit: allow$/mu);
    assert.equal(fs.existsSync(ledgerPath), false, "status writes nothing");

    const on = docket(["on"], cwd);
    assert.equal(on.status, 0, on.stderr);
    assert.match(on.stdout, /Docket is on: work scope scope:/u);
    assert.ok(fs.existsSync(ledgerPath));

    const status = docket(["status", "--json"], cwd);
    assert.equal(status.status, 0, status.stderr);
    const parsed = JSON.parse(status.stdout) as { phase: string; workScopeId: string | null; legalOperations: string[]; shell: string; edit: string; ledgerPath: string; workspaceFolder: string; agents: Array<{ host: string; installed: boolean }> };
    assert.equal(parsed.phase, "deciding");
    assert.ok(parsed.workScopeId?.startsWith("scope:"));
    assert.deepEqual(parsed.legalOperations, ["open_judgment"]);
    assert.equal(parsed.shell, "deny");
    assert.equal(parsed.edit, "deny");
    assert.equal(parsed.ledgerPath, ledgerPath);
    assert.equal(parsed.workspaceFolder, repo.root);
    assert.deepEqual(parsed.agents.map((agent) => [agent.host, agent.installed]), [["claude", false], ["codex", false]]);

    const human = docket(["status"], repo.root);
    assert.match(human.stdout, /^legal operations: open_judgment$/mu);
    assert.match(human.stdout, /^shell: deny, edit: deny — .*open_judgment/mu);

    const twice = docket(["on"], cwd);
    assert.equal(twice.status, 3);
    assert.match(twice.stderr, /^docket: docket\.already-on: /mu);

    const turnedOff = docket(["off", "--json"], cwd);
    assert.equal(turnedOff.status, 0, turnedOff.stderr);
    assert.equal((JSON.parse(turnedOff.stdout) as { phase: string }).phase, "off");
    assert.equal(docket(["off"], cwd).status, 3);

    // The extension's reader sees exactly what the terminal wrote.
    const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: false });
    ledger.refresh();
    assert.equal(ledger.status().phase, "off");
    assert.equal(ledger.status().scopes.length, 1);
  } finally {
    repo.dispose();
  }
});

test("--workspace and --ledger pick the ledger like the other commands; bad flags are usage errors", () => {
  const repo = tempRepo();
  const elsewhere = fs.mkdtempSync(path.join(repo.root, "..", "docket-elsewhere-"));
  try {
    const custom = path.join(elsewhere, "custom.jsonl");
    assert.equal(docket(["on", "--workspace", repo.root, "--ledger", custom], elsewhere).status, 0);
    assert.ok(fs.existsSync(custom));
    assert.equal(fs.existsSync(path.join(repo.root, ".docket", "ledger.jsonl")), false);
    const status = docket(["status", "--ledger", custom, "--workspace", repo.root, "--json"], elsewhere);
    assert.equal((JSON.parse(status.stdout) as { phase: string }).phase, "deciding");
    const bad = docket(["status", "--frob"], repo.root);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /docket\.usage: unknown option --frob/u);
    assert.equal(docket(["on", "extra"], repo.root).status, 2);
  } finally {
    fs.rmSync(elsewhere, { recursive: true, force: true });
    repo.dispose();
  }
});
