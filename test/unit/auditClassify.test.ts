// The audit's pure parts: the range check, the path rules, the matching rule (claims, fallback
// after the base, one commit per landing and path) and the Markdown escaping.
import { test } from "node:test";
import assert from "node:assert/strict";
import { classifyAudit, describeChange, parseLandingClaim, pathProblem, workspaceRelative, type ClassifyInput } from "../../server/team/auditClassify";
import { parseAuditRange } from "../../server/team/auditRange";
import { AuditError } from "../../server/team/auditError";
import { mdCode, mdText, renderAuditJson, renderAuditMarkdown } from "../../server/team/auditRender";
import type { CommitClaim, CommitInput, LedgerLanding, LedgerScope } from "../../server/team/auditModel";

const SHA_A = "a".repeat(64);
const SHA_B = "b".repeat(64);
const commitSha = (n: number): string => String(n).repeat(40).slice(0, 40);

function landing(id: string, eventSha256: string, paths: string[], line: number, scope = "scope:one"): LedgerLanding {
  return { landingId: id, eventSha256, workScopeId: scope, authorizationId: "change:1", changedPaths: paths, line };
}

function scopeOf(landings: LedgerLanding[], pending = { reroutePending: false, verificationPending: true }): LedgerScope {
  return {
    workScopeId: "scope:one",
    status: "open",
    judgments: [],
    authorizations: [],
    landings: landings.map((entry) => ({ landingId: entry.landingId, eventSha256: entry.eventSha256, authorizationId: entry.authorizationId, changedPaths: entry.changedPaths, result: "r", verification: [], ...pending })),
    guardReviews: [],
  };
}

function commit(n: number, paths: string[], claims: CommitClaim[] = []): CommitInput {
  return {
    sha: commitSha(n),
    parents: [commitSha(n - 1)],
    subject: `commit ${n}`,
    changes: paths.map((entry) => describeChange({ path: entry, status: "M", oldMode: "100644", newMode: "100644" }, "", [".docket/"])),
    claims,
  };
}

function input(commits: CommitInput[], landings: LedgerLanding[], extra: Partial<ClassifyInput> = {}): ClassifyInput {
  return {
    range: "main..feature",
    base: commitSha(0),
    head: commits[commits.length - 1]?.sha ?? commitSha(0),
    ledger: { path: ".docket/ledger.jsonl", lines: 20, headLineSha256: null, baseLines: 0 },
    commits,
    landings,
    scopes: [scopeOf(landings)],
    knownScopeIds: new Set(["scope:one"]),
    spentLandings: new Set<string>(),
    requirements: ["landed"],
    ...extra,
  };
}

const trailer = (value: string): CommitClaim => ({ source: "trailer", key: "Docket-Landing", value });

test("parseAuditRange: FROM..TO and TO; refuses leading '-', '...', empty sides, spaces and control characters with docket.audit-range-invalid", () => {
  assert.deepEqual(parseAuditRange("origin/main..HEAD"), { from: "origin/main", to: "HEAD" });
  assert.deepEqual(parseAuditRange("HEAD"), { from: null, to: "HEAD" });
  for (const bad of ["", "-HEAD", "--output=x", "main..-x", "main...HEAD", "..HEAD", "main..", "a..b..c", "main ..HEAD", "main\n..HEAD", "HEAD\u0000"]) {
    assert.throws(() => parseAuditRange(bad), (error: unknown) => error instanceof AuditError && error.code === "docket.audit-range-invalid" && error.exitCode === 2, JSON.stringify(bad));
  }
});

test("pathProblem: '..', '.', empty and .git segments are invalid paths; mode 160000 is a submodule", () => {
  assert.equal(pathProblem("src/a.ts", "100644", "100644"), null);
  for (const bad of ["../x", "a/../b", "a/./b", "a//b", ".git/config", "x/.GIT/hooks/post-checkout", ""]) assert.equal(pathProblem(bad, "100644", "100644"), "docket.audit-path-invalid", bad);
  assert.equal(pathProblem("vendor/lib", "000000", "160000"), "docket.audit-submodule");
  assert.equal(pathProblem("vendor/lib", "160000", "000000"), "docket.audit-submodule");
});

test("workspaceRelative: what a landing records for a workspace below the repository root", () => {
  assert.equal(workspaceRelative("src/a.ts", ""), "src/a.ts");
  assert.equal(workspaceRelative("app/src/a.ts", "app"), "src/a.ts");
  assert.equal(workspaceRelative("lib/b.ts", "app"), "../lib/b.ts");
  assert.equal(workspaceRelative("app2/b.ts", "app"), "../app2/b.ts");
  assert.equal(workspaceRelative("a/c/d.ts", "a/b"), "../c/d.ts");
});

test("parseLandingClaim: exactly '<landingId> <eventSha256>'", () => {
  assert.deepEqual(parseLandingClaim(`landing:abc ${SHA_A}`), { landingId: "landing:abc", eventSha256: SHA_A });
  for (const bad of ["landing:abc", `landing:abc ${SHA_A} extra`, `landing:abc ${SHA_A.toUpperCase()}`, `landing:abc ${SHA_A.slice(1)}`, `-x ${SHA_A}`]) assert.equal(parseLandingClaim(bad), null, bad);
});

test("a verified trailer lands the path; a commit without claims falls back to path matching; .docket/ is Docket state", () => {
  const l1 = landing("landing:1", SHA_A, ["src/a.ts"], 5);
  const l2 = landing("landing:2", SHA_B, ["src/b.ts"], 9);
  const report = classifyAudit(input([commit(1, ["src/a.ts", ".docket/ledger.jsonl"], [trailer(`landing:1 ${SHA_A}`)]), commit(2, ["src/b.ts", "src/c.ts"])], [l1, l2]));
  const [first, second] = report.commits;
  assert.deepEqual(first?.paths.map((entry) => [entry.path, entry.class, entry.landing?.match ?? null]), [
    [".docket/ledger.jsonl", "docket-state", null],
    ["src/a.ts", "landed", "trailer"],
  ]);
  assert.deepEqual(second?.paths.map((entry) => [entry.path, entry.class, entry.landing?.match ?? null]), [
    ["src/b.ts", "landed", "path"],
    ["src/c.ts", "unlanded", null],
  ]);
  assert.deepEqual(report.violations.map((entry) => [entry.requirement, entry.kind, entry.path]), [["landed", "unlanded", "src/c.ts"]]);
  assert.deepEqual(report.summary, { commits: 2, landed: 2, unlanded: 1, docketState: 1, invalid: 0, claimsVerified: 1, claimsRejected: 0, violations: 1 });
});

test("a landing vouches for one commit per path: the same path edited again later is unlanded, even with the trailer copied", () => {
  const l1 = landing("landing:1", SHA_A, ["src/a.ts"], 5);
  const claim = trailer(`landing:1 ${SHA_A}`);
  const report = classifyAudit(input([commit(1, ["src/a.ts"], [claim]), commit(2, ["src/a.ts"]), commit(3, ["src/a.ts"], [claim])], [l1]));
  assert.deepEqual(report.commits.map((entry) => entry.paths[0]?.class), ["landed", "unlanded", "unlanded"]);
  assert.deepEqual(report.commits[2]?.claims.map((entry) => entry.status), ["already-used"]);
  assert.deepEqual(report.violations.map((entry) => entry.kind), ["unlanded", "unlanded", "claim-already-used"]);
});

test("forged and mismatched claims are reported and never land a path: unknown id, other eventSha256, path not recorded, scope mismatch, malformed", () => {
  const l1 = landing("landing:1", SHA_A, ["src/a.ts"], 5);
  const l2 = landing("landing:2", SHA_B, ["src/other.ts"], 7);
  const report = classifyAudit(
    input(
      [
        commit(1, ["src/a.ts"], [trailer(`landing:nope ${SHA_A}`)]),
        commit(2, ["src/a.ts"], [trailer(`landing:1 ${SHA_B}`)]),
        commit(3, ["src/b.ts"], [trailer(`landing:2 ${SHA_B}`)]),
        commit(4, ["src/c.ts"], [trailer("landing:1"), { source: "note", key: "Docket-Scope", value: "scope:ghost" }]),
      ],
      [l1, l2],
      { ledger: { path: ".docket/ledger.jsonl", lines: 20, headLineSha256: null, baseLines: 10 }, spentLandings: new Set([SHA_A]) },
    ),
  );
  assert.deepEqual(
    report.commits.map((entry) => entry.claims.map((claim) => claim.status)),
    [["unknown-landing"], ["event-mismatch"], ["path-not-recorded"], ["malformed", "unknown-scope"]],
  );
  // landing:1 was in the ledger committed at the base (spent), so it cannot land src/a.ts by path either.
  assert.ok(report.commits.every((entry) => entry.paths.every((item) => item.class === "unlanded")));
});

test("a claim whose landing sits in another scope than the commit's Docket-Scope is a scope mismatch", () => {
  const l1 = landing("landing:1", SHA_A, ["src/a.ts"], 5);
  const report = classifyAudit(input([commit(1, ["src/a.ts"], [trailer(`landing:1 ${SHA_A}`), { source: "trailer", key: "Docket-Scope", value: "scope:two" }])], [l1], { knownScopeIds: new Set(["scope:one", "scope:two"]) }));
  assert.deepEqual(report.commits[0]?.claims.map((claim) => claim.status), ["scope-mismatch", "verified"]);
  // No verified claim: the path still falls back (and the mismatch is a violation of `landed`).
  assert.equal(report.commits[0]?.paths[0]?.landing?.match, "path");
  assert.ok(report.violations.some((entry) => entry.kind === "claim-scope-mismatch"));
});

test("requirements: verified, rerouted, no-debt and claimed name each landing's owed judgments and path-only matches", () => {
  const l1 = landing("landing:1", SHA_A, ["src/a.ts"], 5);
  const scopes = [scopeOf([l1], { reroutePending: true, verificationPending: true })];
  const report = classifyAudit(input([commit(1, ["src/a.ts"])], [l1], { scopes, requirements: ["no-debt", "claimed"] }));
  assert.deepEqual(report.violations.map((entry) => [entry.requirement, entry.kind]), [
    ["claimed", "unclaimed-landing"],
    ["no-debt", "reroute-pending"],
    ["no-debt", "verification-pending"],
  ]);
  const none = classifyAudit(input([commit(1, ["src/a.ts"])], [l1], { scopes, requirements: [] }));
  assert.deepEqual(none.violations, []);
});

test("submodule entries and '..' paths are not auditable whatever is required", () => {
  const change = (entry: string, mode: string): CommitInput["changes"][number] => describeChange({ path: entry, status: "A", oldMode: "000000", newMode: mode }, "", [".docket/"]);
  const report = classifyAudit(input([{ ...commit(1, []), changes: [change("vendor/lib", "160000"), change("../escape", "100644")] }], [], { requirements: [] }));
  assert.deepEqual(report.violations.map((entry) => [entry.requirement, entry.kind, entry.path]), [
    ["auditable", "docket.audit-path-invalid", "../escape"],
    ["auditable", "docket.audit-submodule", "vendor/lib"],
  ]);
});

test("JSON: format docket/audit/v1, keys sorted by code units; Markdown escapes what the repository wrote", () => {
  const hostile = "x | <img src=x onerror=alert(1)> [link](javascript:alert(1)) `code`\nsecond";
  const report = classifyAudit(input([{ ...commit(1, ["src/a|b.ts"]), subject: hostile }], [], { requirements: ["landed"] }));
  const json = renderAuditJson(report);
  assert.equal((JSON.parse(json) as { format: string }).format, "docket/audit/v1");
  assert.ok(json.indexOf('"base"') < json.indexOf('"commits"') && json.indexOf('"commits"') < json.indexOf('"format"'));
  const markdown = renderAuditMarkdown(report);
  // Backslash-escaped: shown as text, never parsed as HTML or a link.
  assert.ok(!/[^\\]<img/u.test(markdown), markdown);
  assert.ok(markdown.includes("\\<img"), markdown);
  assert.ok(!/[^\\]\]\(javascript/u.test(markdown), markdown);
  assert.ok(markdown.includes("`src/a\\|b.ts`"), markdown);
  assert.ok(!/\nsecond/u.test(markdown));
  assert.equal(mdCode("a`b"), "``a`b``");
  assert.equal(mdText("a_b*c"), "a\\_b\\*c");
});

test("Markdown in Korean: the same report with Korean words, violations built from their fields", () => {
  const l1 = landing("landing:1", SHA_A, ["src/a.ts"], 5);
  const report = classifyAudit(input([commit(1, ["src/a.ts", "src/b.ts"])], [l1], { requirements: ["landed", "verified"] }));
  const korean = renderAuditMarkdown(report, "ko");
  assert.match(korean, /^# Docket 감사: `main\.\.feature`/u);
  assert.match(korean, /❌ `--require landed,verified` \*\*위반 2건\*\*/u);
  assert.match(korean, /`src\/a\.ts` \| M \| ✅ 반영됨 \| `landing:1` \| 경로 \|/u);
  assert.match(korean, /`src\/b\.ts` \| M \| ❌ \*\*미반영\*\*/u);
  assert.match(korean, /- `landed` · `unlanded`: 커밋 `111111111111`, 경로 `src\/b\.ts`/u);
  assert.match(korean, /## 범위/u);
  assert.doesNotMatch(korean, /without a landing/u);
  assert.match(renderAuditMarkdown(report), /^# Docket audit of `main\.\.feature`/u);
});

test("a pair a later commit claims is not handed to an earlier commit by the path fallback", () => {
  const l1 = landing("landing:1", SHA_A, ["src/a.ts"], 5);
  const report = classifyAudit(input([commit(1, ["src/a.ts"]), commit(2, ["src/a.ts"], [trailer(`landing:1 ${SHA_A}`)])], [l1], { base: null, ledger: { path: ".docket/ledger.jsonl", lines: 20, headLineSha256: null, baseLines: null } }));
  assert.deepEqual(report.commits.map((entry) => [entry.paths[0]?.class, entry.paths[0]?.landing?.match ?? null]), [
    ["unlanded", null],
    ["landed", "trailer"],
  ]);
});
