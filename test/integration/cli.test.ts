// The CLI as people and scripts run it: a real child process, real files, exit codes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { closeScope, next, openScope, sha } from "../support/envelopes";
import { repoRoot } from "../support/repoRoot";

const cli = path.join(repoRoot(), "dist", "docket.js");

function docket(args: string[], cwd = os.tmpdir()): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "docket-cli-"));
}

test("--help and usage errors", () => {
  const help = docket(["--help"]);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /docket ledger verify/u);
  assert.equal(docket([]).status, 2);
  const unknown = docket(["frobnicate"]);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /docket\.usage: unknown command frobnicate/u);
  assert.equal(docket(["ledger", "verify", "--bogus"]).status, 2);
  assert.equal(docket(["ledger", "replay"]).status, 2);
  assert.equal(docket(["serve"]).status, 2);
});

test("ledger verify: 0 on an untouched ledger, 1 naming the first bad line after tampering, 2 without a ledger", async () => {
  const workspace = tempDir();
  fs.mkdirSync(path.join(workspace, ".git"));
  const ledgerPath = path.join(workspace, ".docket", "ledger.jsonl");
  const ledger = new WorkspaceLedger({ workspaceFolder: workspace, ledgerPath, trusted: true });
  ledger.refresh();
  await ledger.turnOn();
  await ledger.turnOff();
  const nested = path.join(workspace, "src", "deep");
  fs.mkdirSync(nested, { recursive: true });
  const ok = docket(["ledger", "verify"], nested);
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /ok: 2 lines, 2 accepted/u);
  const json = docket(["ledger", "verify", "--ledger", ledgerPath, "--json"]);
  assert.equal(JSON.parse(json.stdout).ok, true);
  const text = fs.readFileSync(ledgerPath, "utf8");
  fs.writeFileSync(ledgerPath, text.replace("User disabled Developer.", "User disabled Developer!"));
  const bad = docket(["ledger", "verify", "--workspace", workspace]);
  assert.equal(bad.status, 1);
  assert.match(bad.stdout, /rejected: line 2/u);
  const missing = docket(["ledger", "verify", "--ledger", path.join(workspace, "nope.jsonl")]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /docket\.ledger-missing/u);
});

test("ledger replay reproduces §7.2 dispositions from bare envelopes, Docket lines and Pi entries", async () => {
  const directory = tempDir();
  const first = openScope("scope:first");
  const second = openScope("scope:second");
  const unknown = next(first, "mystery-kind", {});
  const unresolved = closeScope(first, "User disabled Developer.", { causalRefs: [{ workScopeId: first.workScopeId, eventId: first.eventId, eventSha256: sha("3") }] });
  const corrected = closeScope(first);
  const broken = closeScope(first, "Broken.", { eventId: "event:broken-chain", scopeSequence: 9, previousScopeEventSha256: corrected.eventSha256 });
  const wrongChain = closeScope(second, "Chain.", { previousScopeEventSha256: sha("9") });
  const foreign = { protocolVersion: "foreign/runtime", eventId: "legacy:event" };
  const pi = (data: unknown) => JSON.stringify({ type: "custom", customType: "developer.runtime", id: "x", parentId: null, timestamp: "2030-01-01T00:00:00.000Z", data });
  const lines = [
    JSON.stringify(foreign),
    JSON.stringify({ type: "session", version: 3, id: "s" }),
    "{}",
    pi(first),
    JSON.stringify({ type: "message", message: { role: "user" } }),
    JSON.stringify({ type: "custom", customType: "developer.tool-policy-lifecycle", data: first }),
    JSON.stringify(second),
    JSON.stringify(unknown),
    pi(unresolved),
    "",
    JSON.stringify(corrected),
    JSON.stringify(broken),
    JSON.stringify(first),
    JSON.stringify(wrongChain),
  ];
  const file = path.join(directory, "mixed.jsonl");
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  const result = docket(["ledger", "replay", file, "--json"]);
  assert.equal(result.status, 1);
  const parsed = JSON.parse(result.stdout) as { dispositions: Array<{ index: number; status: string; code?: string }>; scopes: unknown[] };
  assert.deepEqual(
    parsed.dispositions.map((d) => (d.status === "accepted" ? "accepted" : d.code)),
    ["unsupported-protocol", "invalid-envelope", "accepted", "accepted", "unknown-event-kind", "unresolved-causal-ref", "accepted", "scope-sequence-mismatch", "duplicate-event-id", "scope-chain-mismatch"],
  );
  assert.deepEqual(parsed.dispositions.map((d) => d.index), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.equal(Object.hasOwn(parsed.dispositions[2] ?? {}, "code"), false);
  assert.deepEqual(parsed.scopes, [
    { workScopeId: "scope:first", status: "closed", head: 1 },
    { workScopeId: "scope:second", status: "open", head: 0 },
  ]);

  const workspace = tempDir();
  const ledgerPath = path.join(workspace, "ledger.jsonl");
  const ledger = new WorkspaceLedger({ workspaceFolder: workspace, ledgerPath, trusted: true });
  ledger.refresh();
  await ledger.turnOn();
  const fromLedger = docket(["ledger", "replay", ledgerPath, "--json"]);
  assert.equal(fromLedger.status, 0);
  assert.deepEqual(JSON.parse(fromLedger.stdout).dispositions, [{ index: 0, status: "accepted" }]);
  const binary = path.join(directory, "binary.jsonl");
  fs.writeFileSync(binary, Buffer.from([0xff, 0xfe, 0x0a]));
  assert.equal(docket(["ledger", "replay", binary]).status, 2);
});

test("policy reports legal operations and shell/edit decisions from the ledger", async () => {
  const workspace = tempDir();
  const off = docket(["policy", "--workspace", workspace, "--json"]);
  assert.equal(off.status, 0, off.stderr);
  assert.deepEqual(JSON.parse(off.stdout), {
    governing: false,
    legalOperations: [],
    nextAction: null,
    shell: "allow",
    edit: "allow",
    reason: null,
    phase: "off",
    workScopeId: null,
  });
  const ledger = new WorkspaceLedger({ workspaceFolder: workspace, ledgerPath: path.join(workspace, ".docket", "ledger.jsonl"), trusted: true });
  ledger.refresh();
  const on = await ledger.turnOn();
  const governed = JSON.parse(docket(["policy", "--json"], workspace).stdout) as Record<string, unknown>;
  assert.equal(governed.governing, true);
  assert.equal(governed.shell, "deny");
  assert.equal(governed.edit, "deny");
  assert.equal(governed.nextAction, "open_judgment");
  assert.equal(governed.workScopeId, on.workScopeId);
  assert.match(docket(["policy"], workspace).stdout, /shell: deny, edit: deny — /u);
  assert.equal(docket(["policy", "extra"], workspace).status, 2);
});
