// Reviews as ledger facts, through the real `docket review` and `docket guard` commands in real Git
// repositories (docs/guard.md): sealing, judgments, the marker, the Stop check's statuses, every
// coded refusal writing nothing, and the attacks a hostile agent or repository would try.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { tempFolder, tempRepo, type TempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { openReview, submitReview } from "../../server/guard/reviews";
import { DocketError } from "../../server/errors";

const cli = fs.realpathSync(path.join(repoRoot(), "dist", "docket.js"));

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function docket(args: readonly string[], cwd: string, stdin?: string): Run {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8", input: stdin ?? "" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function json<T>(run: Run): T {
  assert.ok(run.stdout.trim() !== "", `no output (exit ${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

interface Opened {
  reviewId: string;
  sources: { sourceId: string; kind: string; sha256: string; path?: string }[];
}
interface Submitted {
  status: string;
  marker?: string;
  decisionInput?: { claims: { claimId: string; verdict: string }[]; problems: { code: string }[]; next: string };
}
interface Check {
  docketOn: boolean;
  review: { status: string; cause: string | null; reviewId: string | null };
  remaining: { kind: string; text: string }[];
  decision: string;
  notice: string | null;
}

function workspace(): TempRepo {
  const repo = tempRepo({ files: { "greet.ts": "export const greet = (name: string) => `hi ${name.trim()}`;\n", "README.md": "# demo\n" } });
  assert.equal(docket(["on", "--json"], repo.root).status, 0);
  return repo;
}

const DRAFT = "greet.ts now trims the name.";

function open(repo: TempRepo, extra: Record<string, unknown> = {}): Opened {
  const request = { draft: DRAFT, claims: [{ id: "c1", text: "greet.ts trims the name" }], sources: [{ kind: "file", path: "greet.ts" }, { kind: "user-input", text: "make greet trim" }], ...extra };
  const run = docket(["review", "open", "--workspace", repo.root, "--json"], repo.root, JSON.stringify(request));
  assert.equal(run.status, 0, run.stderr);
  return json<Opened>(run);
}

function submit(repo: TempRepo, reviewId: string, claims: unknown[], verdict = "supported"): { run: Run; result: Submitted | null } {
  const run = docket(["review", "submit", "--workspace", repo.root, "--json"], repo.root, JSON.stringify({ reviewId, claims, response: { verdict, rationale: "read greet.ts" } }));
  return { run, result: run.status === 0 ? json<Submitted>(run) : null };
}

function check(repo: TempRepo, answer: string | null, extra: string[] = []): Check {
  const args = ["guard", "check", "--workspace", repo.root, "--json", ...extra];
  if (answer !== null) {
    const file = path.join(repo.root, ".git", "answer.txt");
    fs.writeFileSync(file, answer);
    args.push("--answer-file", file);
  }
  const run = docket(args, repo.root);
  assert.equal(run.status, 0, run.stderr);
  return json<Check>(run);
}

function ledgerBytes(repo: TempRepo): string {
  return fs.readFileSync(path.join(repo.root, ".docket", "ledger.jsonl"), "utf8");
}

const supportedClaims = [{ claimId: "c1", verdict: "supported", citations: ["source:1"] }];

test("a supported review returns the marker; the answer with it stops silently; ledger verify covers the review", () => {
  const repo = workspace();
  try {
    const opened = open(repo);
    assert.match(opened.reviewId, /^review:[0-9a-f]{24}$/u);
    assert.deepEqual(opened.sources.map((source) => source.sourceId), ["source:1", "source:2"]);
    const expected = fs.readFileSync(path.join(repo.root, "greet.ts"));
    assert.equal(opened.sources[0]?.sha256, require("node:crypto").createHash("sha256").update(expected).digest("hex"));
    const { result } = submit(repo, opened.reviewId, supportedClaims);
    assert.equal(result?.status, "supported");
    const marker = result?.marker ?? "";
    assert.match(marker, /^\n\ndocket-completion-control\/v1\nreview: review:[0-9a-f]{24}\nanswer-sha256: [0-9a-f]{64}\n$/u);

    const clear = check(repo, `${DRAFT}${marker}`);
    assert.deepEqual([clear.docketOn, clear.review.status, clear.remaining, clear.decision, clear.notice], [true, "supported", [], "silent", null]);

    const lines = ledgerBytes(repo).trim().split("\n").map((line) => JSON.parse(line) as { stream: string; entry: { kind: string } });
    assert.deepEqual(lines.map((line) => line.stream), ["developer/v8", "docket/guard/v1", "docket/guard/v1"]);
    assert.deepEqual(lines.slice(1).map((line) => line.entry.kind), ["review-opened", "review-submitted"]);
    // The user's input is sealed by its digest; its text never reaches the ledger.
    assert.doesNotMatch(ledgerBytes(repo), /make greet trim/u);
    assert.equal(docket(["ledger", "verify", "--workspace", repo.root], repo.root).status, 0);
  } finally {
    repo.dispose();
  }
});

test("without a supported review: missing, edited, stale and unsupported answers each get a notice with their cause", () => {
  const repo = workspace();
  try {
    const opened = open(repo);
    const marker = submit(repo, opened.reviewId, supportedClaims).result?.marker ?? "";

    const bare = check(repo, "Done, all tests pass.");
    assert.deepEqual([bare.review.status, bare.review.cause, bare.decision], ["missing", "docket.marker-missing", "notice"]);
    assert.deepEqual(bare.remaining.map((item) => item.kind), ["unreviewed-claim"]);
    assert.match(bare.notice ?? "", /not backed by a supported review/u);

    const edited = check(repo, `${DRAFT} And all tests pass.${marker}`);
    assert.deepEqual([edited.review.status, edited.review.cause], ["mismatch", "docket.answer-changed"]);

    fs.appendFileSync(path.join(repo.root, "greet.ts"), "// changed after the review\n");
    const stale = check(repo, `${DRAFT}${marker}`);
    assert.deepEqual([stale.review.status, stale.review.cause, stale.decision], ["stale", "docket.source-changed", "notice"]);

    const partial = open(repo, { draft: "All tests pass.", claims: [{ id: "tests", text: "all tests pass" }] });
    const judged = submit(repo, partial.reviewId, [{ claimId: "tests", verdict: "partial", citations: ["source:2"] }]).result;
    assert.equal(judged?.status, "incomplete");
    assert.equal(judged?.marker, undefined);
    assert.deepEqual(judged?.decisionInput?.claims, [{ claimId: "tests", verdict: "partial", text: "all tests pass" }]);
    assert.match(judged?.decisionInput?.next ?? "", /Do not redo work/u);

    const unsupported = open(repo, { draft: "Shipped.", claims: [{ id: "c1", text: "it shipped" }] });
    const refused = submit(repo, unsupported.reviewId, [{ claimId: "c1", verdict: "supported", citations: ["source:1"] }], "unsupported").result;
    assert.equal(refused?.status, "unsupported");
    // A marker forged for a review that was not supported is reported with the review's own claims.
    const forged = `Shipped.\n\ndocket-completion-control/v1\nreview: ${unsupported.reviewId}\nanswer-sha256: ${require("node:crypto").createHash("sha256").update("Shipped.").digest("hex")}\n`;
    const result = check(repo, forged);
    assert.deepEqual([result.review.status, result.review.cause], ["unsupported", "docket.review-unsupported"]);
  } finally {
    repo.dispose();
  }
});

test("a claim judged supported without a citation is not proof: the review is incomplete", () => {
  const repo = workspace();
  try {
    const opened = open(repo);
    const result = submit(repo, opened.reviewId, [{ claimId: "c1", verdict: "supported", citations: [] }]).result;
    assert.equal(result?.status, "incomplete");
    assert.deepEqual(result?.decisionInput?.problems.map((problem) => problem.code), ["docket.claim-uncited"]);
  } finally {
    repo.dispose();
  }
});

test("coded refusals write nothing: unknown review, unsealed citation, unjudged or unknown claim, resubmission, bad requests", () => {
  const repo = workspace();
  try {
    const opened = open(repo);
    const before = ledgerBytes(repo);
    const cases: [unknown[], string, string?][] = [
      [supportedClaims, "docket.review-unknown", "review:ffffffffffffffffffffffff"],
      [[{ claimId: "c1", verdict: "supported", citations: ["source:9"] }], "docket.review-citation-unsealed"],
      [[{ claimId: "c9", verdict: "supported", citations: ["source:1"] }], "docket.review-claim-unknown"],
    ];
    for (const [claims, code, reviewId] of cases) {
      const { run } = submit(repo, reviewId ?? opened.reviewId, claims);
      assert.equal(run.status, 1, `${code}: ${run.stderr}`);
      assert.match(run.stderr, new RegExp(code.replace(/\./gu, "\\."), "u"));
      assert.equal((JSON.parse(run.stdout) as { error: { code: string } }).error.code, code);
    }
    const twoClaims = open(repo, { claims: [{ id: "a", text: "one" }, { id: "b", text: "two" }] });
    const afterOpen = ledgerBytes(repo);
    const unjudged = submit(repo, twoClaims.reviewId, [{ claimId: "a", verdict: "supported", citations: ["source:1"] }]).run;
    assert.equal(unjudged.status, 1);
    assert.match(unjudged.stderr, /docket\.review-claim-unjudged: .*not judged: b/u);
    assert.equal(ledgerBytes(repo), afterOpen);

    assert.equal(submit(repo, opened.reviewId, supportedClaims).run.status, 0);
    const again = submit(repo, opened.reviewId, supportedClaims).run;
    assert.equal(again.status, 1);
    assert.match(again.stderr, /docket\.review-closed/u);

    const unknownField = docket(["review", "open", "--workspace", repo.root, "--json"], repo.root, JSON.stringify({ draft: "x", claims: [{ id: "c", text: "t" }], sources: [{ kind: "file", path: "README.md" }], extra: 1 }));
    assert.equal(unknownField.status, 1);
    assert.match(unknownField.stderr, /docket\.review-invalid/u);
    const notJson = docket(["review", "open", "--workspace", repo.root], repo.root, "{not json");
    assert.equal(notJson.status, 2);
    assert.equal(docket(["review", "close", "--workspace", repo.root], repo.root).status, 2);
    assert.ok(ledgerBytes(repo).startsWith(before));
  } finally {
    repo.dispose();
  }
});

test("hostile sources are refused by code: outside the workspace, a link out of it, a device, an oversized draft, Docket off", () => {
  const repo = workspace();
  const outside = tempFolder("docket-outside-");
  try {
    fs.writeFileSync(path.join(outside, "secret.txt"), "not yours\n");
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(repo.root, "link.txt"));
    fs.symlinkSync("/dev/zero", path.join(repo.root, "zero"));
    fs.mkdirSync(path.join(repo.root, "sub"));
    fs.symlinkSync(outside, path.join(repo.root, "sub", "out"));
    const before = ledgerBytes(repo);
    const refusal = (sources: unknown[], draft = "Done."): Run =>
      docket(["review", "open", "--workspace", repo.root, "--json"], repo.root, JSON.stringify({ draft, claims: [{ id: "c1", text: "done" }], sources }));
    for (const source of ["../outside.txt", path.join(outside, "secret.txt"), "link.txt", "zero", "sub/out/secret.txt", "sub"]) {
      const run = refusal([{ kind: "file", path: source }]);
      assert.equal(run.status, 1, `${source}: ${run.stdout}`);
      assert.match(run.stderr, /docket\.review-source-invalid/u, source);
    }
    const handle = refusal([{ kind: "evidence", handle: "branch-result-0000000000000000" }]);
    assert.match(handle.stderr, /docket\.unknown-evidence-handle/u);
    const large = refusal([{ kind: "file", path: "README.md" }], "x".repeat(256 * 1024 + 1));
    assert.match(large.stderr, /docket\.review-draft-too-large/u);
    const withMarker = refusal([{ kind: "file", path: "README.md" }], `Done.\n\ndocket-completion-control/v1\nreview: review:${"0".repeat(24)}\nanswer-sha256: ${"0".repeat(64)}`);
    assert.match(withMarker.stderr, /docket\.review-invalid/u);
    assert.equal(ledgerBytes(repo), before);

    assert.equal(docket(["off", "--json"], repo.root).status, 0);
    const off = refusal([{ kind: "file", path: "README.md" }]);
    assert.equal(off.status, 1);
    assert.match(off.stderr, /docket\.off/u);
  } finally {
    repo.dispose();
    fs.rmSync(outside, { recursive: true, force: true });
  }
});

test("marker attacks: an unknown review, another workspace's review, two markers and text after the marker never pass", () => {
  const repo = workspace();
  const other = workspace();
  try {
    const elsewhere = open(other);
    const marker = submit(other, elsewhere.reviewId, supportedClaims).result?.marker ?? "";
    const foreign = check(repo, `${DRAFT}${marker}`);
    assert.deepEqual([foreign.review.status, foreign.review.cause, foreign.decision], ["mismatch", "docket.review-unknown", "notice"]);

    const own = open(repo);
    const ownMarker = submit(repo, own.reviewId, supportedClaims).result?.marker ?? "";
    assert.equal(check(repo, `${DRAFT}${ownMarker}`).review.status, "supported");
    assert.equal(check(repo, `${DRAFT}${ownMarker}${ownMarker}`).review.cause, "docket.marker-duplicate");
    assert.equal(check(repo, `${DRAFT}${ownMarker}Also, one more claim.`).review.cause, "docket.marker-trailing-text");
    // A locator pointing elsewhere finds nothing rather than another review.
    const locators = path.join(repo.root, ".docket", "guard", "reviews");
    const [locator] = fs.readdirSync(locators);
    const record = JSON.parse(fs.readFileSync(path.join(locators, locator as string), "utf8")) as { lines: { offset: number }[] };
    for (const line of record.lines) line.offset += 1;
    fs.writeFileSync(path.join(locators, locator as string), JSON.stringify(record));
    // The full ledger read still finds the real review.
    assert.equal(check(repo, `${DRAFT}${ownMarker}`).review.status, "supported");
  } finally {
    repo.dispose();
    other.dispose();
  }
});

test("automatic matching without a marker only for a review whose claims cover the entire answer", () => {
  const repo = workspace();
  try {
    const partialCoverage = open(repo);
    submit(repo, partialCoverage.reviewId, supportedClaims);
    assert.equal(check(repo, DRAFT).review.cause, "docket.marker-missing");
    const whole = open(repo, { draft: "greet.ts trims the name", coversEntireAnswer: true });
    submit(repo, whole.reviewId, supportedClaims);
    const matched = check(repo, "greet.ts trims the name\n");
    assert.deepEqual([matched.review.status, matched.review.reviewId, matched.decision], ["supported", whole.reviewId, "silent"]);
  } finally {
    repo.dispose();
  }
});

test("an edited review line blocks the history: verify names it and the Stop check says nothing is proof", () => {
  const repo = workspace();
  try {
    const opened = open(repo);
    const marker = submit(repo, opened.reviewId, supportedClaims).result?.marker ?? "";
    const file = path.join(repo.root, ".docket", "ledger.jsonl");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("greet.ts trims the name", "greet.ts trims the NAME"));
    assert.notEqual(docket(["ledger", "verify", "--workspace", repo.root], repo.root).status, 0);
    const result = check(repo, `${DRAFT}${marker}`);
    assert.deepEqual([result.docketOn, result.review.status, result.review.cause, result.decision], [true, "missing", "docket.history-blocked", "notice"]);
    assert.match(result.notice ?? "", /nothing here is proof/u);
  } finally {
    repo.dispose();
  }
});

test("Docket off or never on: docketOn false and silent; the mode is persisted and honoured", () => {
  const repo = tempRepo({ files: { "a.txt": "a\n" } });
  try {
    const never = check(repo, "Done.");
    assert.deepEqual([never.docketOn, never.decision], [false, "silent"]);
    assert.equal(docket(["on"], repo.root).status, 0);
    assert.equal(check(repo, "Done.").decision, "notice");
    assert.deepEqual(json<{ mode: string }>(docket(["guard", "mode", "off", "--workspace", repo.root, "--json"], repo.root)), { mode: "off" });
    assert.equal(check(repo, "Done.").decision, "silent");
    assert.equal(docket(["guard", "mode", "sometimes", "--workspace", repo.root], repo.root).status, 2);
    docket(["guard", "mode", "notice", "--workspace", repo.root], repo.root);
    assert.equal(docket(["off"], repo.root).status, 0);
    assert.deepEqual([check(repo, "Done.").docketOn, check(repo, "Done.").decision], [false, "silent"]);
  } finally {
    repo.dispose();
  }
});

test("a recording failure says to submit the same judgments again, and the retry records them", async () => {
  const repo = workspace();
  try {
    const opened = open(repo);
    const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
    const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true, lockTimeoutMs: 200 });
    ledger.refresh();
    const lock = `${ledgerPath}.lock`;
    // A lock held by a live process (this one) that will not let go within the timeout.
    fs.writeFileSync(lock, JSON.stringify({ token: "t", pid: process.pid, hostname: os.hostname(), startTime: null, acquiredAt: new Date().toISOString(), purpose: "test" }));
    const request = { reviewId: opened.reviewId, claims: supportedClaims, response: { verdict: "supported" as const, rationale: "r" } };
    await assert.rejects(
      submitReview(ledger, request),
      (error: unknown) => error instanceof DocketError && error.code === "docket.review-not-recorded" && /Submit the same judgments again/u.test(error.message) && /does not need to be redone/u.test(error.message),
    );
    fs.rmSync(lock);
    const retried = await submitReview(ledger, request);
    assert.equal(retried.status, "supported");
    await assert.rejects(openReview(ledger, { draft: "x", claims: [], sources: [] }), (error: unknown) => error instanceof DocketError && error.code === "docket.review-invalid");
  } finally {
    repo.dispose();
  }
});

test("a review from an earlier work scope does not back an answer in the open one", () => {
  const repo = workspace();
  try {
    const opened = open(repo, { coversEntireAnswer: true });
    const marker = submit(repo, opened.reviewId, supportedClaims).result?.marker ?? "";
    assert.equal(check(repo, `${DRAFT}${marker}`).review.status, "supported");
    assert.equal(docket(["off"], repo.root).status, 0);
    assert.equal(docket(["on"], repo.root).status, 0);
    const later = check(repo, `${DRAFT}${marker}`);
    assert.deepEqual([later.review.status, later.review.cause], ["mismatch", "docket.review-other-scope"]);
    // Automatic matching does not reach into the old scope either.
    assert.equal(check(repo, DRAFT).review.cause, "docket.marker-missing");
  } finally {
    repo.dispose();
  }
});

test("a mode file saying off that Docket did not write here (shipped or copied) is not honoured", () => {
  const repo = workspace();
  const copy = tempFolder("docket-copy-");
  try {
    const modeFile = path.join(repo.root, ".docket", "guard", "mode.json");
    fs.mkdirSync(path.dirname(modeFile), { recursive: true });
    fs.writeFileSync(modeFile, JSON.stringify({ format: "docket/guard-mode/v1", mode: "off" }));
    const shipped = docket(["guard", "check", "--workspace", repo.root, "--json"], repo.root);
    assert.equal((JSON.parse(shipped.stdout) as Check).decision, "notice");
    assert.match(shipped.stderr, /not written by Docket in this folder/u);
    assert.equal(docket(["guard", "mode", "off", "--workspace", repo.root], repo.root).status, 0);
    assert.equal(check(repo, "Done.").decision, "silent");
    // The same files copied to another folder (a clone, an archive) are not this folder's choice.
    fs.cpSync(repo.root, copy, { recursive: true });
    const copied = docket(["guard", "check", "--workspace", copy, "--json"], copy);
    assert.equal((JSON.parse(copied.stdout) as Check).decision, "notice");
  } finally {
    repo.dispose();
    fs.rmSync(copy, { recursive: true, force: true });
  }
});
