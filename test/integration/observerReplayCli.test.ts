// `docket observer replay FILE --json` through the built CLI (dist/docket.js, `node scripts/build.mjs`):
// the JSON contract and the exit codes — 0 no issues, 1 issues, 2 usage (no FILE, unreadable
// FILE, unknown argument, a file that is neither a Pi session nor ledger lines).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "../support/repoRoot";
import { candidatePayload, id, ledgerText, modeOn, observation, opened, piSessionText, userOrigin } from "../support/observerLog";

const cli = path.join(repoRoot(), "dist", "docket.js");

function docket(args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function folder(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "docket-observer-"));
}

const candidate = observation(candidatePayload({ id: id("candidate-", 1), origin: userOrigin(), text: "a prompt" }));

test("a clean Pi session: exit 0 and the whole snapshot", () => {
  const dir = folder();
  fs.writeFileSync(path.join(dir, "session.jsonl"), piSessionText([opened(), modeOn(), candidate]));
  const run = docket(["observer", "replay", "session.jsonl", "--json"], dir);
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), {
    issues: [],
    snapshot: {
      mode: "on",
      episodeStatus: "open",
      episodeId: "episode-observer-1",
      candidates: [id("candidate-", 1)],
      sourceReads: [],
      hydrations: [],
      observations: [],
      userHypotheses: [],
      hypothesisReviews: [],
      memoRequests: [],
      pendingMemoRequest: null,
      consumedObservationIds: [],
      unconsumedObservationIds: [],
    },
  });
});

test("issues: exit 1, each with the file line, the code and a message", () => {
  const dir = folder();
  fs.writeFileSync(path.join(dir, "session.jsonl"), piSessionText([opened(), candidate]));
  const run = docket(["observer", "replay", "session.jsonl", "--json"], dir);
  assert.equal(run.status, 1, run.stderr);
  const report = JSON.parse(run.stdout) as { issues: { index: number; code: string; message: string }[] };
  assert.deepEqual(
    report.issues.map((issue) => [issue.index, issue.code]),
    [[2, "observation-session.scope"]],
  );
  assert.ok((report.issues[0]?.message ?? "").length > 0);
  // the same log as Docket ledger lines: the candidate is line 1
  fs.writeFileSync(path.join(dir, "ledger.jsonl"), ledgerText([opened(), candidate]));
  const ledger = docket(["observer", "replay", "ledger.jsonl", "--json"], dir);
  assert.equal(ledger.status, 1);
  assert.deepEqual(
    (JSON.parse(ledger.stdout) as { issues: { index: number; code: string }[] }).issues.map((issue) => [issue.index, issue.code]),
    [[1, "observation-session.scope"]],
  );
  // without --json: a readable summary, same exit code
  const text = docket(["observer", "replay", "ledger.jsonl"], dir);
  assert.equal(text.status, 1);
  assert.match(text.stdout, /line 1\tobservation-session\.scope/u);
});

test("usage: no FILE, an unreadable FILE, an unknown argument or subcommand, a foreign file — exit 2", () => {
  const dir = folder();
  fs.writeFileSync(path.join(dir, "session.jsonl"), piSessionText([opened()]));
  fs.writeFileSync(path.join(dir, "foreign.jsonl"), '{"hello":"world"}\n');
  fs.writeFileSync(path.join(dir, "latin1.jsonl"), Buffer.from([0xff, 0xfe, 0x0a]));
  for (const args of [
    ["observer", "replay", "--json"],
    ["observer", "replay", "missing.jsonl", "--json"],
    ["observer", "replay", "session.jsonl", "--json", "--frobnicate"],
    ["observer", "replay", "session.jsonl", "extra.jsonl"],
    ["observer", "replay", "."],
    ["observer", "replay", "foreign.jsonl"],
    ["observer", "replay", "latin1.jsonl"],
    ["observer", "frobnicate"],
    ["observer"],
  ]) {
    const run = docket(args, dir);
    assert.equal(run.status, 2, `${args.join(" ")}: ${run.stdout}${run.stderr}`);
    assert.match(run.stderr, /^docket: docket\./u);
  }
  const help = docket(["--help"], dir);
  assert.match(help.stdout, /docket observer replay FILE \[--json\]/u);
});
