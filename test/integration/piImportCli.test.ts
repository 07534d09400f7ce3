// `docket ledger import-pi` as people and scripts run it: a real child process, real files, exit codes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { frameSpec, ScopeLog } from "../support/developerLog";
import { closeScope, openScope, sha } from "../support/envelopes";
import { PiSessionBuilder } from "../support/piSessionFile";
import { repoRoot } from "../support/repoRoot";

const cli = path.join(repoRoot(), "dist", "docket.js");

function docket(args: string[], cwd = os.tmpdir()): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "docket-import-pi-"));
}

function cleanSession(directory: string): string {
  const log = new ScopeLog("scope:cli");
  log.openFrame(frameSpec("scope:cli", "frame:cli", ["a"]));
  const session = new PiSessionBuilder({ id: "cli-session" });
  session.message("user", "Refactor it.");
  for (const envelope of log.entries) {
    session.developer(envelope);
    session.message("assistant", "Recorded.");
  }
  const file = path.join(directory, "session.jsonl");
  fs.writeFileSync(file, session.text());
  return file;
}

test("--help lists import-pi", () => {
  const help = docket(["--help"]);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /docket ledger import-pi SESSION\.jsonl \[--json\] \[--out LEDGER\]/u);
  assert.equal(docket(["ledger", "import-pi"]).status, 2);
  assert.equal(docket(["ledger", "import-pi", "a.jsonl", "b.jsonl"]).status, 2);
});

test("a clean session: summary, JSON, and --out writes a ledger that verifies (never over an existing file)", () => {
  const directory = tempDir();
  const file = cleanSession(directory);
  const human = docket(["ledger", "import-pi", file], directory);
  assert.equal(human.status, 0, human.stderr);
  assert.match(human.stdout, /Pi session .*session\.jsonl \(session cli-session, format 3\)/u);
  assert.match(human.stdout, /developer events: 2 \(accepted 2, rejected 0\); other entries skipped: 3/u);
  assert.match(human.stdout, /scope scope:cli\topen\thead 1/u);
  assert.match(human.stdout, /phase: deciding \(v8-active\)/u);

  const json = docket(["ledger", "import-pi", "session.jsonl", "--json"], directory);
  assert.equal(json.status, 0, json.stderr);
  const report = JSON.parse(json.stdout) as Record<string, unknown>;
  assert.equal(report.developerEvents, 2);
  assert.equal(report.accepted, 2);
  assert.equal(report.phase, "deciding");
  assert.equal(report.out, null);

  const written = docket(["ledger", "import-pi", file, "--out", "imported/ledger.jsonl"], directory);
  assert.equal(written.status, 0, written.stderr);
  assert.match(written.stdout, /wrote 2 ledger lines to /u);
  const ledger = path.join(directory, "imported", "ledger.jsonl");
  const verified = docket(["ledger", "verify", "--ledger", ledger]);
  assert.equal(verified.status, 0, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /ok: 2 lines, 2 accepted/u);

  const again = docket(["ledger", "import-pi", file, "--out", ledger]);
  assert.equal(again.status, 2);
  assert.match(again.stderr, /docket\.output-exists/u);
  assert.deepEqual(fs.readdirSync(path.dirname(ledger)), ["ledger.jsonl"]);
});

test("rejected envelopes and unreadable lines: exit 1, reported with line numbers, nothing written", () => {
  const directory = tempDir();
  const first = openScope("scope:rejected");
  const session = new PiSessionBuilder();
  session.developer(first);
  const brokenLine = session.nextLine;
  session.raw("{ torn");
  const rejectedLine = session.nextLine;
  session.developer({ ...closeScope(first), eventSha256: sha("0") });
  const file = path.join(directory, "session.jsonl");
  fs.writeFileSync(file, session.text());
  const ledger = path.join(directory, "ledger.jsonl");
  const result = docket(["ledger", "import-pi", file, "--out", ledger]);
  assert.equal(result.status, 1);
  assert.match(result.stdout, new RegExp(`line ${brokenLine}: unreadable: not-json`, "u"));
  assert.match(result.stdout, new RegExp(`line ${rejectedLine} \\(event 1\\): rejected: invalid-envelope`, "u"));
  assert.match(result.stdout, /phase: blocked \(blocked\)/u);
  assert.match(result.stdout, /nothing written/u);
  assert.equal(fs.existsSync(ledger), false);
  const json = JSON.parse(docket(["ledger", "import-pi", file, "--json"]).stdout) as { rejected: number; problems: Array<{ line: number }> };
  assert.equal(json.rejected, 1);
  assert.deepEqual(json.problems.map((problem) => problem.line), [brokenLine]);
});

test("unusable input exits 2 with a coded error", () => {
  const directory = tempDir();
  const notPi = path.join(directory, "ledger.jsonl");
  fs.writeFileSync(notPi, `${JSON.stringify(openScope("scope:bare"))}\n`);
  const invalid = docket(["ledger", "import-pi", notPi]);
  assert.equal(invalid.status, 2);
  assert.match(invalid.stderr, /docket\.pi-session-invalid/u);
  const missing = docket(["ledger", "import-pi", path.join(directory, "missing.jsonl")]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /docket\.pi-session-unreadable/u);
});
