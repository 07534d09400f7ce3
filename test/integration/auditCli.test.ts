// `docket audit` end to end: the built CLI as a child process against real temporary Git
// repositories. The branch comes from scripts/audit-example.mjs (a whole Docket cycle through
// `docket on` and `docket mcp`, commit 1 landed with its trailer, commit 2 unlanded); the tests
// then add forged claims, re-edits, notes, submodules, crafted trees, shallow clones and damaged
// ledgers, and run the CI workflow's own commands (docs/examples/docket-audit.yml, .sh).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { DOCKET_CLI } from "../support/mcpClient";
import { repoRoot } from "../support/repoRoot";
import { runGit, tempFolder } from "../support/gitRepo";
import { normalizeIds } from "../support/auditIds";
import { cycleScopesEntries } from "../support/generatedCycles";
import { DEVELOPER_STREAM, encodeLedgerLine } from "../../server/ledger/ledgerLine";

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function docket(cwd: string, args: readonly string[]): Run {
  const run = spawnSync(process.execPath, [DOCKET_CLI, ...args], { cwd, encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

let folder = "";
let repo = "";
let landing = { landingId: "", eventSha256: "", workScopeId: "" };

function ledgerLanding(workspace: string): typeof landing {
  for (const line of fs.readFileSync(path.join(workspace, ".docket", "ledger.jsonl"), "utf8").split("\n")) {
    if (line === "") continue;
    const { entry } = JSON.parse(line) as { entry: { kind?: string; eventSha256: string; workScopeId: string; payload: { landing: { landingId: string } } } };
    if (entry.kind === "implementation-landing-recorded") return { landingId: entry.payload.landing.landingId, eventSha256: entry.eventSha256, workScopeId: entry.workScopeId };
  }
  throw new Error("no landing");
}

function commitOn(branch: string, from: string, message: string, files: Record<string, string>): string {
  runGit(repo, ["checkout", "--quiet", "-B", branch, from]);
  for (const [relative, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repo, relative)), { recursive: true });
    fs.writeFileSync(path.join(repo, relative), content);
  }
  runGit(repo, ["add", "--all"]);
  runGit(repo, ["commit", "--quiet", "--no-verify", "-m", message]);
  const sha = runGit(repo, ["rev-parse", "HEAD"]).trim();
  runGit(repo, ["checkout", "--quiet", "feature"]);
  return sha;
}

before(() => {
  folder = tempFolder("docket-audit-");
  repo = path.join(folder, "greeter");
  const build = spawnSync(process.execPath, [path.join(repoRoot(), "scripts", "audit-example.mjs"), "--repo", repo, "--out", path.join(folder, "report.md")], { encoding: "utf8" });
  assert.equal(build.status, 0, build.stderr);
  landing = ledgerLanding(repo);
});

after(() => fs.rmSync(folder, { recursive: true, force: true, maxRetries: 30, retryDelay: 100 }));

test("one landed and one unlanded commit: the JSON report is exactly the golden one (ids normalized)", () => {
  const run = docket(repo, ["audit", "main..feature", "--json"]);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, "");
  const golden = fs.readFileSync(path.join(repoRoot(), "test", "fixtures", "audit", "two-commit-branch.json"), "utf8");
  assert.equal(normalizeIds(run.stdout), golden);
  const report = JSON.parse(run.stdout) as { commits: { paths: { path: string; class: string }[] }[]; scopes: { workScopeId: string }[] };
  assert.deepEqual(
    report.commits.map((commit) => commit.paths.map((entry) => `${entry.path}=${entry.class}`)),
    [[".docket/.gitignore=docket-state", ".docket/ledger.jsonl=docket-state", "src/greeting.ts=landed"], ["src/farewell.ts=unlanded"]],
  );
  assert.deepEqual(report.scopes.map((scope) => scope.workScopeId), [landing.workScopeId]);
  // Markdown is the default and what --markdown prints.
  assert.equal(docket(repo, ["audit", "main..feature"]).stdout, docket(repo, ["audit", "main..feature", "--markdown"]).stdout);
});

test("--require landed exits 1 naming the unlanded path; landed,verified also names the owed verification", () => {
  const landed = docket(repo, ["audit", "main..feature", "--require", "landed"]);
  assert.equal(landed.status, 1);
  assert.match(landed.stderr, /^docket: violation: landed: unlanded: src\/farewell\.ts changed in [0-9a-f]{12} without a landing$/mu);
  assert.doesNotMatch(landed.stderr, /greeting/u);
  assert.match(landed.stdout, /❌ \*\*1 violation\*\* of `--require landed`/u);
  const both = docket(repo, ["audit", "main..feature", "--require", "landed,verified", "--json"]);
  assert.equal(both.status, 1);
  const violations = (JSON.parse(both.stdout) as { violations: { requirement: string; kind: string; path: string | null; landingId: string | null }[] }).violations;
  assert.deepEqual(violations.map((entry) => [entry.requirement, entry.kind, entry.path ?? entry.landingId]), [
    ["landed", "unlanded", "src/farewell.ts"],
    ["verified", "verification-pending", landing.landingId],
  ]);
  // Only the landed commit: every requirement but verification holds.
  assert.equal(docket(repo, ["audit", "main..feature~1", "--require", "landed,rerouted,claimed"]).status, 0);
  assert.equal(docket(repo, ["audit", "main..feature~1", "--require", "no-debt"]).status, 1);
});

test("a landed path edited again with the trailer copied is unlanded (already-used); a trailer with another eventSha256 is a mismatch", () => {
  const trailer = `Docket-Landing: ${landing.landingId} ${landing.eventSha256}`;
  runGit(repo, ["checkout", "--quiet", "-B", "reedit", "feature"]);
  fs.writeFileSync(path.join(repo, "src", "greeting.ts"), "export const greeting = \"Hi\";\n");
  runGit(repo, ["commit", "--quiet", "--no-verify", "-am", "Edit the greeting again", "-m", trailer]);
  fs.writeFileSync(path.join(repo, "src", "greeting.ts"), "export const greeting = \"Hey\";\n");
  const forged = `Docket-Landing: ${landing.landingId} ${"0".repeat(64)}`;
  runGit(repo, ["commit", "--quiet", "--no-verify", "-am", "And again", "-m", `${forged}\nDocket-Landing: landing:000000000000000000000000 ${landing.eventSha256}`]);
  runGit(repo, ["checkout", "--quiet", "feature"]);
  const run = docket(repo, ["audit", "main..reedit", "--json", "--require", "landed"]);
  assert.equal(run.status, 1);
  const report = JSON.parse(run.stdout) as { commits: { subject: string; paths: { path: string; class: string }[]; claims: { status: string }[] }[] };
  assert.deepEqual(
    report.commits.map((commit) => [commit.subject, commit.paths.filter((entry) => entry.path === "src/greeting.ts").map((entry) => entry.class), commit.claims.map((claim) => claim.status)]),
    [
      ["Change the greeting", ["landed"], ["verified", "verified"]],
      ["Add a farewell", [], []],
      ["Edit the greeting again", ["unlanded"], ["already-used"]],
      ["And again", ["unlanded"], ["event-mismatch", "unknown-landing"]],
    ],
  );
  assert.match(run.stderr, /claim-event-mismatch/u);
  assert.match(run.stderr, /claim-unknown-landing/u);
});

test("without a trailer the path falls back to the landing (matched by path); a refs/notes/docket note is a claim of its own", () => {
  const tree = runGit(repo, ["rev-parse", "feature~1^{tree}"]).trim();
  const main = runGit(repo, ["rev-parse", "main"]).trim();
  const bare = execFileSync("git", ["-C", repo, "commit-tree", tree, "-p", main, "-m", "Change the greeting (no trailer)"], { encoding: "utf8" }).trim();
  runGit(repo, ["branch", "-f", "nolink", bare]);
  const byPath = JSON.parse(docket(repo, ["audit", "main..nolink", "--json"]).stdout) as { commits: { paths: { path: string; landing: { match: string } | null }[] }[] };
  assert.equal(byPath.commits[0]?.paths.find((entry) => entry.path === "src/greeting.ts")?.landing?.match, "path");
  assert.equal(docket(repo, ["audit", "main..nolink", "--require", "claimed"]).status, 1);
  runGit(repo, ["notes", "--ref=docket", "add", "-m", `Docket-Landing: ${landing.landingId} ${landing.eventSha256}`, bare]);
  const byNote = JSON.parse(docket(repo, ["audit", "main..nolink", "--json", "--require", "claimed"]).stdout) as { commits: { paths: { path: string; landing: { match: string } | null }[]; claims: { source: string; status: string }[] }[] };
  assert.equal(byNote.commits[0]?.paths.find((entry) => entry.path === "src/greeting.ts")?.landing?.match, "note");
  assert.deepEqual(byNote.commits[0]?.claims, [{ key: "Docket-Landing", source: "note", status: "verified", value: `${landing.landingId} ${landing.eventSha256}` }]);
  assert.equal(docket(repo, ["audit", "main..nolink", "--require", "claimed"]).status, 0);
});

test("a landing committed before the range's base cannot vouch by path for a later edit of the same file", () => {
  // feature is merged into main; a new branch edits src/greeting.ts without Docket.
  const later = commitOn("later", "feature", "Edit the greeting without Docket", { "src/greeting.ts": "export const greeting = \"Yo\";\n" });
  const run = docket(repo, ["audit", `feature..${later}`, "--json"]);
  assert.equal(run.status, 0, run.stderr);
  const report = JSON.parse(run.stdout) as { ledger: { baseLines: number; lines: number }; commits: { paths: { path: string; class: string }[] }[] };
  assert.equal(report.ledger.baseLines, report.ledger.lines);
  assert.deepEqual(report.commits[0]?.paths, [{ class: "unlanded", landing: null, path: "src/greeting.ts", reason: null, status: "M" }]);
});

test("a single revision audits its whole history: the root commit against the empty tree, no base", () => {
  const run = docket(repo, ["audit", "feature", "--json"]);
  assert.equal(run.status, 0, run.stderr);
  const report = JSON.parse(run.stdout) as { base: string | null; ledger: { baseLines: number | null }; commits: { subject: string; parents: string[]; paths: { path: string; class: string }[] }[] };
  assert.equal(report.base, null);
  assert.equal(report.ledger.baseLines, null);
  assert.deepEqual(report.commits[0], { ...report.commits[0], subject: "Initial commit", parents: [] });
  assert.deepEqual(report.commits[0]?.paths.map((entry) => `${entry.path}=${entry.class}`), [".gitattributes=unlanded", "README.md=unlanded", "src/greeting.ts=unlanded"]);
  assert.deepEqual(report.commits.slice(1).map((commit) => commit.subject), ["Change the greeting", "Add a farewell"]);
});

test("bad ranges and options exit 2 with a code, before Git runs anything", () => {
  const cases: [readonly string[], RegExp][] = [
    [["audit", "-HEAD"], /docket\.audit-range-invalid: .*begins with '-'/u],
    [["audit", "--", "-n1"], /docket\.audit-range-invalid/u],
    [["audit", "main..-x"], /docket\.audit-range-invalid/u],
    [["audit", "main...feature"], /docket\.audit-range-invalid: .*symmetric/u],
    [["audit", "nope..feature"], /docket\.audit-range-invalid: "nope" names no commit/u],
    [["audit", "main..feature", "extra"], /docket\.audit-range-invalid/u],
    [["audit"], /docket\.audit-range-invalid/u],
    [["audit", "--output=/tmp/x", "main..feature"], /docket\.usage: unknown option --output/u],
    [["audit", "main..feature", "--json", "--markdown"], /docket\.usage/u],
    [["audit", "main..feature", "--require", "landed,bogus"], /docket\.audit-require-invalid: .*"bogus"/u],
    [["audit", "main..feature", "--language", "fr"], /docket\.usage: --language is en or ko/u],
    [["audit", "main..feature", "--workspace", folder], /docket\.audit-not-a-repository/u],
  ];
  for (const [args, expected] of cases) {
    const run = docket(repo, args);
    assert.equal(run.status, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, expected, args.join(" "));
    assert.equal(run.stdout, "");
  }
});

test("a shallow clone is refused with docket.audit-shallow-clone naming git fetch --unshallow", () => {
  const shallow = path.join(folder, "shallow");
  execFileSync("git", ["clone", "--quiet", "--depth", "1", "--branch", "feature", `file://${repo}`, shallow], { stdio: "ignore" });
  const run = docket(shallow, ["audit", "HEAD~1..HEAD"]);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /^docket: docket\.audit-shallow-clone: .*git fetch --unshallow/u);
});

test("a submodule entry and a crafted tree with a '..' path are reported as not auditable: exit 2 with their codes", () => {
  const head = runGit(repo, ["rev-parse", "feature"]).trim();
  runGit(repo, ["checkout", "--quiet", "-B", "submodule", "feature"]);
  runGit(repo, ["update-index", "--add", "--cacheinfo", `160000,${head},vendor/lib`]);
  runGit(repo, ["commit", "--quiet", "--no-verify", "-m", "Add a submodule"]);
  runGit(repo, ["checkout", "--quiet", "feature"]);
  const submodule = docket(repo, ["audit", "feature..submodule"]);
  assert.equal(submodule.status, 2);
  assert.match(submodule.stderr, /^docket: docket\.audit-submodule: vendor\/lib cannot be audited/mu);
  assert.match(submodule.stdout, /`vendor\/lib` \| A \| ⛔ \*\*not auditable\*\*/u);

  // Git refuses to write a '..' entry itself; a hostile repository writes the tree object directly.
  const blob = execFileSync("git", ["-C", repo, "hash-object", "-w", "--stdin"], { input: "escape\n", encoding: "utf8" }).trim();
  const inner = execFileSync("git", ["-C", repo, "mktree"], { input: `100644 blob ${blob}\tx.txt\n`, encoding: "utf8" }).trim();
  const top = execFileSync("git", ["-C", repo, "cat-file", "tree", `${head}^{tree}`]);
  const crafted = path.join(folder, "crafted-tree");
  fs.writeFileSync(crafted, Buffer.concat([Buffer.from("40000 ..\0"), Buffer.from(inner, "hex"), top]));
  const tree = execFileSync("git", ["-C", repo, "hash-object", "-t", "tree", "-w", "--literally", crafted], { encoding: "utf8" }).trim();
  const evil = execFileSync("git", ["-C", repo, "commit-tree", tree, "-p", head, "-m", "Escape"], { encoding: "utf8" }).trim();
  const dotdot = docket(repo, ["audit", `feature..${evil}`, "--json"]);
  assert.equal(dotdot.status, 2);
  assert.match(dotdot.stderr, /docket\.audit-path-invalid: \.\.\/x\.txt cannot be audited/u);
  const report = JSON.parse(dotdot.stdout) as { commits: { paths: { path: string; class: string; reason: string | null }[] }[] };
  assert.deepEqual(report.commits[0]?.paths, [{ class: "invalid", landing: null, path: "../x.txt", reason: "docket.audit-path-invalid", status: "A" }]);
});

test("a ledger the audit does not understand exits 3: missing, foreign, damaged, or not the history the range carries", () => {
  const missing = docket(repo, ["audit", "main..feature", "--ledger", path.join(folder, "none.jsonl")]);
  assert.equal(missing.status, 3);
  assert.match(missing.stderr, /^docket: docket\.ledger-missing:/u);
  const foreign = docket(repo, ["audit", "main..feature", "--ledger", path.join(repo, "README.md")]);
  assert.equal(foreign.status, 3);
  assert.match(foreign.stderr, /^docket: docket\.ledger-foreign:/u);

  const damagedFolder = path.join(folder, "damaged");
  fs.mkdirSync(damagedFolder);
  const damaged = path.join(damagedFolder, "ledger.jsonl");
  const lines = fs.readFileSync(path.join(repo, ".docket", "ledger.jsonl"), "utf8").split("\n");
  lines[2] = (lines[2] as string).replace("\"line\":2", "\"line\":7");
  fs.writeFileSync(damaged, lines.join("\n"));
  const corrupt = docket(repo, ["audit", "main..feature", "--ledger", damaged]);
  assert.equal(corrupt.status, 3);
  assert.match(corrupt.stderr, /^docket: docket\.ledger-corrupt: line 3/u);

  // A valid ledger of another history: the head's committed ledger is not a prefix of it.
  const other = path.join(folder, "other");
  fs.mkdirSync(other);
  execFileSync("git", ["-C", other, "init", "--quiet"]);
  assert.equal(docket(other, ["on", "--workspace", other]).status, 0);
  const diverged = docket(repo, ["audit", "main..feature", "--ledger", path.join(other, ".docket", "ledger.jsonl")]);
  assert.equal(diverged.status, 3);
  assert.match(diverged.stderr, /^docket: docket\.audit-ledger-diverged: the ledger committed at the range's head/u);
});

test("a merge answers only for the paths that differ from every parent: a clean merge adds nothing, an edit made in the merge is unlanded", () => {
  const trunk = commitOn("trunk", "main", "Trunk moves on", { "README.md": "# Greeter\n\nMore.\n" });
  runGit(repo, ["checkout", "--quiet", "-B", "merged", "feature"]);
  runGit(repo, ["merge", "--quiet", "--no-edit", "--no-ff", trunk]);
  runGit(repo, ["checkout", "--quiet", "-B", "evil-merge", "feature"]);
  runGit(repo, ["merge", "--quiet", "--no-commit", "--no-ff", trunk]);
  fs.writeFileSync(path.join(repo, "src", "extra.ts"), "export const extra = 1;\n");
  runGit(repo, ["add", "--all"]);
  runGit(repo, ["commit", "--quiet", "--no-verify", "-m", "Merge trunk (and sneak in a file)"]);
  runGit(repo, ["checkout", "--quiet", "feature"]);
  type Report = { commits: { subject: string; parents: string[]; paths: { path: string; class: string }[] }[] };
  const clean = JSON.parse(docket(repo, ["audit", "trunk..merged", "--json"]).stdout) as Report;
  assert.deepEqual(clean.commits.map((commit) => [commit.subject.replace(/^Merge .*/u, "Merge"), commit.parents.length, commit.paths.map((entry) => `${entry.path}=${entry.class}`)]), [
    ["Change the greeting", 1, [".docket/.gitignore=docket-state", ".docket/ledger.jsonl=docket-state", "src/greeting.ts=landed"]],
    ["Add a farewell", 1, ["src/farewell.ts=unlanded"]],
    ["Merge", 2, []],
  ]);
  const evil = JSON.parse(docket(repo, ["audit", "trunk..evil-merge", "--json"]).stdout) as Report;
  assert.deepEqual(evil.commits[2]?.paths.map((entry) => `${entry.path}=${entry.class}`), ["src/extra.ts=unlanded"]);
});

test("a ledger rewritten in the middle of the branch (and put back) is refused: docket.audit-ledger-diverged names the commit", () => {
  const ledgerFile = path.join(repo, ".docket", "ledger.jsonl");
  const original = fs.readFileSync(ledgerFile, "utf8");
  const lines = original.split("\n");
  const rewritten = lines.slice(0, 3).join("\n").replace(/"occurredAt":"[^"]+"/u, '"occurredAt":"2000-01-01T00:00:00.000Z"') + "\n";
  const middle = commitOn("rewrite", "feature", "Rewrite the ledger", { ".docket/ledger.jsonl": rewritten });
  commitOn("rewrite", "rewrite", "Put the ledger back", { ".docket/ledger.jsonl": original });
  fs.writeFileSync(ledgerFile, original);
  const run = docket(repo, ["audit", "main..rewrite"]);
  assert.equal(run.status, 3, run.stderr);
  assert.match(run.stderr, new RegExp(`^docket: docket\\.audit-ledger-diverged: the ledger committed at ${middle.slice(0, 12)} `, "u"));
});

test("a ledger that is a symbolic link is not read: exit 3 docket.unsafe-path", () => {
  const clone = path.join(folder, "linked");
  execFileSync("git", ["clone", "--quiet", "--no-local", "--branch", "feature", repo, clone], { stdio: "ignore" });
  const ledgerFile = path.join(clone, ".docket", "ledger.jsonl");
  fs.renameSync(ledgerFile, path.join(folder, "elsewhere.jsonl"));
  fs.symlinkSync(path.join(folder, "elsewhere.jsonl"), ledgerFile);
  const run = docket(clone, ["audit", "origin/main..HEAD"]);
  assert.equal(run.status, 3);
  assert.match(run.stderr, /^docket: docket\.unsafe-path: .*symbolic link/u);
});

test("Docket in a folder of the repository: paths are compared as the workspace sees them, its .docket/ is Docket state", () => {
  const mono = path.join(folder, "mono");
  const build = spawnSync(process.execPath, [path.join(repoRoot(), "scripts", "audit-example.mjs"), "--repo", mono, "--subfolder", "app", "--out", path.join(folder, "mono.md")], { encoding: "utf8" });
  assert.equal(build.status, 0, build.stderr);
  const workspace = path.join(mono, "app");
  // The landed commit again without its trailer (the fallback must convert app/src/greeting.ts to
  // src/greeting.ts), then a root-level file beside the workspace.
  const tree = runGit(mono, ["rev-parse", "feature~1^{tree}"]).trim();
  const bare = execFileSync("git", ["-C", mono, "commit-tree", tree, "-p", "main", "-m", "No trailer"], { encoding: "utf8" }).trim();
  runGit(mono, ["checkout", "--quiet", "-B", "mono-branch", bare]);
  fs.writeFileSync(path.join(mono, "NOTES.md"), "notes\n");
  runGit(mono, ["add", "--all"]);
  runGit(mono, ["commit", "--quiet", "--no-verify", "-m", "Notes beside the app"]);
  runGit(mono, ["checkout", "--quiet", "feature"]);
  const run = docket(workspace, ["audit", "main..mono-branch", "--json", "--workspace", workspace]);
  assert.equal(run.status, 0, run.stderr);
  const report = JSON.parse(run.stdout) as { ledger: { path: string }; commits: { paths: { path: string; class: string; landing: { match: string } | null }[] }[] };
  assert.equal(report.ledger.path, "app/.docket/ledger.jsonl");
  assert.deepEqual(
    report.commits.map((commit) => commit.paths.map((entry) => `${entry.path}=${entry.class}${entry.landing === null ? "" : `/${entry.landing.match}`}`)),
    [["app/.docket/.gitignore=docket-state", "app/.docket/ledger.jsonl=docket-state", "app/src/greeting.ts=landed/path"], ["NOTES.md=unlanded"]],
  );
});

test("a completion-guard review recorded in the scope (docket/guard/v1) is listed with its status", () => {
  const clone = path.join(folder, "guarded");
  execFileSync("git", ["clone", "--quiet", "--no-local", "--branch", "feature", repo, clone], { stdio: "ignore" });
  const request = { draft: "The greeting says Hello, world.", claims: [{ id: "c1", text: "src/greeting.ts says Hello, world" }], sources: [{ kind: "file", path: "src/greeting.ts" }] };
  const opened = spawnSync(process.execPath, [DOCKET_CLI, "review", "open", "--json"], { cwd: clone, input: JSON.stringify(request), encoding: "utf8" });
  assert.equal(opened.status, 0, opened.stderr);
  const reviewId = (JSON.parse(opened.stdout) as { reviewId: string }).reviewId;
  const judged = { reviewId, claims: [{ claimId: "c1", verdict: "supported", citations: ["source:1"] }], response: { verdict: "supported", rationale: "Read the file." } };
  assert.equal(spawnSync(process.execPath, [DOCKET_CLI, "review", "submit", "--json"], { cwd: clone, input: JSON.stringify(judged), encoding: "utf8" }).status, 0);
  const run = docket(clone, ["audit", "origin/main..HEAD", "--json"]);
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual((JSON.parse(run.stdout) as { scopes: { guardReviews: unknown[] }[] }).scopes[0]?.guardReviews, [{ claims: 1, reviewId, status: "supported" }]);
  assert.match(docket(clone, ["audit", "origin/main..HEAD"]).stdout, new RegExp(`\\*\\*Guard reviews\\*\\*: \`${reviewId}\` supported \\(1 claim\\)`, "u"));
});

/** Ledger lines of `entries` (stream and entry each) numbered from 0, as one text. */
function wrapLines(entries: readonly { stream: string; entry: unknown }[]): string {
  let previous: string | null = null;
  return entries
    .map((item, index) => {
      const encoded = encodeLedgerLine(index, previous, item.stream as typeof DEVELOPER_STREAM, item.entry);
      previous = encoded.lineSha256;
      return encoded.text;
    })
    .join("");
}

test("after a merge of the base through a ledger merge, the branch's earlier ledger is no longer a byte prefix but its events are contained: audited, base landings spent", () => {
  // mainline: the base moved on with a ledger of its own (one generated, closed scope).
  const mainEntries = cycleScopesEntries(1).map((entry) => ({ stream: DEVELOPER_STREAM as string, entry: entry as unknown }));
  const mainLedger = wrapLines(mainEntries);
  const mainline = commitOn("mainline", "main", "Main records its own work", { ".docket/ledger.jsonl": mainLedger });
  // The merge resolution a ledger merge gives: main's lines, then the branch's re-wrapped after them.
  const branchEntries = fs
    .readFileSync(path.join(repo, ".docket", "ledger.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { stream: string; entry: unknown });
  const merged = wrapLines([...mainEntries, ...branchEntries]);
  runGit(repo, ["checkout", "--quiet", "-B", "merged-ledger", "feature"]);
  spawnSync("git", ["-C", repo, "merge", "--quiet", "--no-commit", "--no-ff", mainline], { encoding: "utf8" });
  fs.writeFileSync(path.join(repo, ".docket", "ledger.jsonl"), merged);
  runGit(repo, ["add", "--all"]);
  runGit(repo, ["commit", "--quiet", "--no-verify", "-m", "Merge mainline (ledgers merged)"]);
  const clone = path.join(folder, "merged-clone");
  execFileSync("git", ["clone", "--quiet", "--no-local", "--branch", "merged-ledger", repo, clone], { stdio: "ignore" });
  runGit(repo, ["checkout", "--quiet", "-f", "feature"]);
  const run = docket(clone, ["audit", "origin/mainline..HEAD", "--json", "--require", "landed"]);
  assert.equal(run.status, 1, run.stderr);
  const report = JSON.parse(run.stdout) as { base: string; ledger: { baseLines: number; lines: number }; commits: { paths: { path: string; class: string }[] }[] };
  assert.equal(report.base, mainline);
  assert.deepEqual([report.ledger.baseLines, report.ledger.lines], [mainEntries.length, mainEntries.length + branchEntries.length]);
  assert.deepEqual(
    report.commits.map((commit) => commit.paths.map((entry) => `${entry.path}=${entry.class}`)),
    [[".docket/.gitignore=docket-state", ".docket/ledger.jsonl=docket-state", "src/greeting.ts=landed"], ["src/farewell.ts=unlanded"], [".docket/ledger.jsonl=docket-state"]],
  );
  assert.match(run.stderr, /unlanded: src\/farewell\.ts/u);
  assert.doesNotMatch(run.stderr, /diverged/u);
});

/** A PATH whose `docket` is the built CLI, as the workflow's install step provides. */
function docketOnPath(): string {
  const bin = path.join(folder, "bin");
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, "docket"), `#!/bin/sh\nexec "${process.execPath}" "${DOCKET_CLI}" "$@"\n`, { mode: 0o755 });
  return `${bin}${path.delimiter}${process.env.PATH ?? ""}`;
}

test("CI: the workflow's own steps (docs/examples/docket-audit.yml) and the shell example run against a clone of the branch", () => {
  const clone = path.join(folder, "ci");
  execFileSync("git", ["clone", "--quiet", "--no-local", repo, clone], { stdio: "ignore" });
  execFileSync("git", ["-C", clone, "checkout", "--quiet", "feature"], { stdio: "ignore" });
  const workflow = parse(fs.readFileSync(path.join(repoRoot(), "docs", "examples", "docket-audit.yml"), "utf8")) as { jobs: { audit: { steps: { name?: string; run?: string; uses?: string; with?: Record<string, unknown> }[] } } };
  const steps = workflow.jobs.audit.steps;
  assert.equal(steps[0]?.with?.["fetch-depth"], 0);
  assert.equal(steps.find((step) => step.uses === "actions/setup-node@v4")?.with?.["node-version"], 20);
  const summary = path.join(folder, "summary.md");
  const env = { ...process.env, PATH: docketOnPath(), GITHUB_STEP_SUMMARY: summary, BASE_REF: "main" };
  const runStep = (name: string): Run => {
    const script = steps.find((step) => step.name === name)?.run;
    assert.ok(script !== undefined, name);
    const run = spawnSync("bash", ["-e", "-c", script], { cwd: clone, env, encoding: "utf8" });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  const verify = runStep("Verify the ledger");
  assert.equal(verify.status, 0, verify.stderr);
  assert.match(verify.stdout, /^ok: 13 lines/u);
  assert.match(verify.stdout, /git: matches the ledger committed at/u);
  const audit = runStep("Audit the pull request");
  assert.equal(audit.status, 1);
  assert.match(audit.stderr, /docket: violation: landed: unlanded: src\/farewell\.ts/u);
  assert.match(audit.stderr, /docket: violation: verified: verification-pending/u);
  assert.match(fs.readFileSync(summary, "utf8"), /^# Docket audit of `origin\/main\.\.HEAD`\n\n❌ \*\*2 violations\*\* of `--require landed,verified`/u);
  assert.equal(audit.stdout, fs.readFileSync(summary, "utf8"));

  const shell = spawnSync("sh", [path.join(repoRoot(), "docs", "examples", "docket-audit.sh")], { cwd: clone, env: { ...env, BASE: "origin/main" }, encoding: "utf8" });
  assert.equal(shell.status, 1, shell.stderr);
  assert.match(shell.stdout, /^ok: 13 lines/mu);
  assert.match(shell.stdout, /^# Docket audit of `origin\/main\.\.HEAD`/mu);
  // The same check on the landed commit alone passes the landing requirement.
  const clean = spawnSync("sh", ["-c", 'docket audit "origin/main..HEAD~1" --require landed'], { cwd: clone, env, encoding: "utf8" });
  assert.equal(clean.status, 0, clean.stderr);
});
