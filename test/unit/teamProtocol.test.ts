// The team requests' schemas (issue 17) as both ends validate them: strict objects (unknown fields
// rejected), bounded lists, full commit ids only, and revision ranges that can never be read as
// an option of `git` (no side starting with `-`, no whitespace or control characters).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Requests, RevisionRange } from "../../server/protocol/messages";

const SHA1 = "0123456789abcdef0123456789abcdef01234567";
const SHA256 = "0123456789abcdef".repeat(4);

test("landingCommits: 1..100 landing ids, nothing else", () => {
  const params = Requests.teamLandingCommits.params;
  assert.equal(params.safeParse({ landingIds: ["landing:a"] }).success, true);
  assert.equal(params.safeParse({ landingIds: Array.from({ length: 100 }, (_, i) => `landing:${i}`) }).success, true);
  assert.equal(params.safeParse({ landingIds: [] }).success, false);
  assert.equal(params.safeParse({ landingIds: Array.from({ length: 101 }, (_, i) => `landing:${i}`) }).success, false);
  assert.equal(params.safeParse({ landingIds: [""] }).success, false);
  assert.equal(params.safeParse({ landingIds: ["x".repeat(201)] }).success, false);
  // A Docket-Landing line is `<landingId> <eventSha256>`: an id with whitespace could not be named by one.
  for (const id of ["landing: a", "landing:a\n", "landing:\ta", "landing:\u0000"]) assert.equal(params.safeParse({ landingIds: [id] }).success, false, JSON.stringify(id));
  assert.equal(params.safeParse({ landingIds: ["landing:a"], head: "HEAD" }).success, false);
  assert.equal(params.safeParse({}).success, false);
});

test("landingCommits result: strict rows with full ids and a known source", () => {
  const result = Requests.teamLandingCommits.result;
  const row = { sha: SHA1, subject: "Subject", source: "trailer" };
  assert.equal(result.safeParse({ landings: [{ landingId: "landing:a", commits: [row] }] }).success, true);
  assert.equal(result.safeParse({ landings: [{ landingId: "landing:a", commits: [{ ...row, sha: SHA256, source: "note" }] }] }).success, true);
  assert.equal(result.safeParse({ landings: [{ landingId: "landing:a", commits: [{ ...row, extra: 1 }] }] }).success, false);
  assert.equal(result.safeParse({ landings: [{ landingId: "landing:a", commits: [{ ...row, source: "guess" }] }] }).success, false);
  assert.equal(result.safeParse({ landings: [{ landingId: "landing:a", commits: [{ ...row, sha: SHA1.slice(0, 7) }] }] }).success, false);
  assert.equal(result.safeParse({ landings: [{ landingId: "landing:a", commits: [], more: true }] }).success, false);
  assert.equal(result.safeParse({ landings: [], revision: "x" }).success, false);
});

test("commitPatch: a full lower-case commit id only (no refs, no options, no abbreviations)", () => {
  const params = Requests.teamCommitPatch.params;
  assert.equal(params.safeParse({ sha: SHA1 }).success, true);
  assert.equal(params.safeParse({ sha: SHA256 }).success, true);
  for (const sha of ["HEAD", "--output=/tmp/x", `-${SHA1.slice(1)}`, SHA1.toUpperCase(), SHA1.slice(0, 39), `${SHA1}0`, `${SHA1}\n`, `${SHA1}^{tree}`]) {
    assert.equal(params.safeParse({ sha }).success, false, sha);
  }
  assert.equal(params.safeParse({ sha: SHA1, stat: false }).success, false);
  const result = Requests.teamCommitPatch.result;
  assert.equal(result.safeParse({ sha: SHA1, text: "diff", truncated: false }).success, true);
  assert.equal(result.safeParse({ sha: SHA1, text: "diff", truncated: false, path: "/" }).success, false);
});

test("revision ranges: what a user types is accepted; options, whitespace and control characters are not", () => {
  for (const range of ["origin/main..HEAD", "main...feature", "HEAD", "HEAD~3..HEAD", `${SHA1}..HEAD`, "@{upstream}..HEAD", "v1.0^..v1.1", "origin/feature-x..HEAD"]) {
    assert.equal(RevisionRange.safeParse(range).success, true, range);
  }
  for (const range of ["", "-n1", "--output=/tmp/x", "main..--upload-pack=x", "main...-x", "main..HEAD -- x", "main..HEAD\n", "a\tb", "a\u0000b", "x".repeat(501)]) {
    assert.equal(RevisionRange.safeParse(range).success, false, JSON.stringify(range));
  }
});

test("audit and auditRange: strict params and results", () => {
  assert.equal(Requests.teamAudit.params.safeParse({ range: "origin/main..HEAD" }).success, true);
  assert.equal(Requests.teamAudit.params.safeParse({ range: "origin/main..HEAD", json: true }).success, false);
  assert.equal(Requests.teamAudit.params.safeParse({ range: "-x" }).success, false);
  assert.equal(Requests.teamAudit.result.safeParse({ range: "r", markdown: "# m", commits: 2 }).success, true);
  assert.equal(Requests.teamAudit.result.safeParse({ range: "r", markdown: "# m", commits: -1 }).success, false);
  assert.equal(Requests.teamAudit.result.safeParse({ range: "r", markdown: "# m", commits: 0, json: {} }).success, false);
  assert.equal(Requests.teamAuditRange.params.safeParse({}).success, true);
  assert.equal(Requests.teamAuditRange.params.safeParse({ remote: "origin" }).success, false);
  assert.equal(Requests.teamAuditRange.result.safeParse({ range: "origin/main..HEAD", basis: "origin-head" }).success, true);
  assert.equal(Requests.teamAuditRange.result.safeParse({ range: "-x..HEAD", basis: "origin-head" }).success, false);
  assert.equal(Requests.teamAuditRange.result.safeParse({ range: "main..HEAD", basis: "guess" }).success, false);
});

test("the team requests are namespaced under docket/team/", () => {
  const methods = [Requests.teamLandingCommits, Requests.teamCommitPatch, Requests.teamAuditRange, Requests.teamAudit].map((definition) => definition.method);
  assert.deepEqual(methods, ["docket/team/landingCommits", "docket/team/commitPatch", "docket/team/auditRange", "docket/team/audit"]);
});
