// The backend's team requests (issue 17) over the real stdio backend, against real temporary Git
// repositories: the commits carrying a landing (lazily asked by the Work view), a commit's patch
// for the editor's fallback diff, the audit range a newcomer starts from, and the audit itself.
// Hostile input (option-like ranges and ids, objects that are not commits, unknown fields) is
// refused with a code and changes nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ErrorCodes, Requests } from "../../server/protocol/messages";
import { startBackend, type Backend } from "../support/backendProcess";
import { repoRoot } from "../support/repoRoot";
import { runGit, tempFolder, tempRepo, type TempRepo } from "../support/gitRepo";

/**
 * server/team/commitLinks.ts is an interface stub (it answers no commits) until the commit-links
 * work lands; the tests that need real links are skipped while the stub's marker is there.
 */
const LINKS_STUB = fs.readFileSync(path.join(repoRoot(), "server", "team", "commitLinks.ts"), "utf8").includes("INTERFACE STUB");

/** A repository on branch `feature` off `main`, with one landing recorded through the backend and its change committed with `message`. */
async function landedRepository(): Promise<{ repo: TempRepo; backend: Backend; landingId: string; eventSha256: string }> {
  const repo = tempRepo();
  runGit(repo.root, ["checkout", "--quiet", "-b", "main"]);
  repo.write("src/a.ts", "export const a = 1;\n");
  repo.write(".gitignore", ".docket/\n");
  repo.commitAll("Start");
  runGit(repo.root, ["checkout", "--quiet", "-b", "feature"]);
  const backend = await startBackend({ workspaceFolder: repo.root });
  await backend.request(Requests.turnOn, {});
  await backend.request(Requests.openJudgment, { routeDefinitionId: "route:meaning-settlement", question: "Change a?", obligations: [{ obligationId: "obligation:a", statement: "a is settled." }] });
  await backend.request(Requests.concludeJudgment, { disposition: "not-applicable", reason: "Small.", basis: ["Seen."] });
  await backend.request(Requests.authorizeChange, { movement: "Set a to 2.", stableLanding: "a is 2.", verificationTarget: "a reads 2." });
  repo.write("src/a.ts", "export const a = 2;\n");
  await backend.request(Requests.recordLanding, { result: "a is 2." });
  const landing = (await backend.request(Requests.workState, {})).landings.at(-1);
  assert.ok(landing !== undefined);
  assert.deepEqual(landing.changedPaths, ["src/a.ts"]);
  return { repo, backend, landingId: landing.landingId, eventSha256: landing.eventSha256 };
}

test("landingCommits: every asked landing gets an entry (deduplicated, in order); the stub's answer is no commits", async () => {
  const { repo, backend, landingId } = await landedRepository();
  try {
    repo.commitAll("Set a to 2 without a trailer");
    const answer = await backend.request(Requests.teamLandingCommits, { landingIds: [landingId, "landing:unknown", landingId] });
    assert.deepEqual(answer.landings.map((entry) => entry.landingId), [landingId, "landing:unknown"]);
    // A commit without a trailer or note is never claimed for the landing, whatever it changed.
    assert.deepEqual(answer.landings[0]?.commits, []);
    assert.deepEqual(answer.landings[1]?.commits, []);
    assert.equal(await backend.errorCode(Requests.teamLandingCommits.method, { landingIds: [] }), ErrorCodes.invalidParams);
    assert.equal(await backend.errorCode(Requests.teamLandingCommits.method, { landingIds: [landingId], all: true }), ErrorCodes.invalidParams);
  } finally {
    await backend.stop();
    repo.dispose();
  }
});

test("landingCommits: a commit whose message carries the landing's Docket-Landing trailer is listed with its subject", { skip: LINKS_STUB && "server/team/commitLinks.ts is still the interface stub (no links yet)" }, async () => {
  const { repo, backend, landingId, eventSha256 } = await landedRepository();
  try {
    runGit(repo.root, ["add", "src/a.ts"]);
    runGit(repo.root, ["commit", "--quiet", "--no-verify", "-m", `Set a to 2\n\nDocket-Landing: ${landingId} ${eventSha256}\n`]);
    const sha = repo.head();
    runGit(repo.root, ["commit", "--quiet", "--no-verify", "--allow-empty", "-m", "Unrelated"]);
    const answer = await backend.request(Requests.teamLandingCommits, { landingIds: [landingId] });
    assert.deepEqual(answer.landings, [{ landingId, commits: [{ sha, subject: "Set a to 2", source: "trailer" }] }]);
  } finally {
    await backend.stop();
    repo.dispose();
  }
});

test("landingCommits: a refs/notes/docket note links an existing commit", { skip: LINKS_STUB && "server/team/commitLinks.ts is still the interface stub (no links yet)" }, async () => {
  const { repo, backend, landingId, eventSha256 } = await landedRepository();
  try {
    const sha = repo.commitAll("Set a to 2, linked later");
    runGit(repo.root, ["notes", "--ref=docket", "add", "-m", `Docket-Landing: ${landingId} ${eventSha256}`, sha]);
    const answer = await backend.request(Requests.teamLandingCommits, { landingIds: [landingId] });
    assert.deepEqual(answer.landings, [{ landingId, commits: [{ sha, subject: "Set a to 2, linked later", source: "note" }] }]);
  } finally {
    await backend.stop();
    repo.dispose();
  }
});

test("commitPatch: git show of a commit; refs, options, trees, blobs and unknown ids are refused", async () => {
  const { repo, backend } = await landedRepository();
  try {
    // An external diff driver in the repository's config must not run: the patch is Git's own.
    const marker = path.join(tempFolder("docket-extdiff-"), "ran");
    runGit(repo.root, ["config", "diff.external", `sh -c 'touch ${marker}'`]);
    repo.write(".gitattributes", "*.ts diff=evil\n");
    runGit(repo.root, ["config", "diff.evil.textconv", `sh -c 'touch ${marker}'`]);
    const sha = repo.commitAll("Set a to 2");
    const patch = await backend.request(Requests.teamCommitPatch, { sha });
    assert.equal(patch.sha, sha);
    assert.equal(patch.truncated, false);
    assert.match(patch.text, new RegExp(`^commit ${sha}`, "u"));
    assert.match(patch.text, /Set a to 2/u);
    assert.match(patch.text, /src\/a\.ts +\| 2 \+-/u);
    assert.match(patch.text, /^-export const a = 1;$/mu);
    assert.match(patch.text, /^\+export const a = 2;$/mu);
    assert.equal(fs.existsSync(marker), false, "no external diff or textconv program ran");
    const tree = runGit(repo.root, ["rev-parse", "HEAD^{tree}"]).trim();
    const blob = runGit(repo.root, ["rev-parse", "HEAD:src/a.ts"]).trim();
    for (const other of [tree, blob, "f".repeat(40)]) {
      assert.equal(await backend.errorCode(Requests.teamCommitPatch.method, { sha: other }), ErrorCodes.commitNotFound, other);
    }
    for (const bad of ["HEAD", "--output=/tmp/x", sha.slice(0, 12), sha.toUpperCase()]) {
      assert.equal(await backend.errorCode(Requests.teamCommitPatch.method, { sha: bad }), ErrorCodes.invalidParams, bad);
    }
  } finally {
    await backend.stop();
    repo.dispose();
  }
});

test("commitPatch: a folder that is not a Git repository is workspace-unavailable", async () => {
  const folder = tempFolder("docket-nogit-");
  const backend = await startBackend({ workspaceFolder: folder });
  try {
    assert.equal(await backend.errorCode(Requests.teamCommitPatch.method, { sha: "a".repeat(40) }), ErrorCodes.workspaceUnavailable);
    assert.equal(await backend.errorCode(Requests.teamAuditRange.method, {}), ErrorCodes.workspaceUnavailable);
  } finally {
    await backend.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

test("auditRange: local main, then the remote's default branch; audit echoes the range and refuses option-like ranges", async () => {
  const { repo, backend } = await landedRepository();
  const remote = tempFolder("docket-remote-");
  try {
    repo.commitAll("Set a to 2");
    assert.deepEqual(await backend.request(Requests.teamAuditRange, {}), { range: "main..HEAD", basis: "local-main" });
    runGit(remote, ["init", "--quiet", "--bare"]);
    runGit(repo.root, ["remote", "add", "origin", remote]);
    runGit(repo.root, ["push", "--quiet", "origin", "main"]);
    assert.deepEqual(await backend.request(Requests.teamAuditRange, {}), { range: "origin/main..HEAD", basis: "remote-main" });
    runGit(repo.root, ["remote", "set-head", "origin", "main"]);
    assert.deepEqual(await backend.request(Requests.teamAuditRange, {}), { range: "origin/main..HEAD", basis: "origin-head" });

    const report = await backend.request(Requests.teamAudit, { range: "origin/main..HEAD" });
    assert.equal(report.range, "origin/main..HEAD");
    assert.equal(typeof report.markdown, "string");
    assert.ok(report.markdown.length > 0);
    for (const range of ["--output=/tmp/x", "main..--upload-pack=x", "main..HEAD -- src", "a\nb"]) {
      assert.equal(await backend.errorCode(Requests.teamAudit.method, { range }), ErrorCodes.invalidParams, range);
    }
    assert.equal(await backend.errorCode(Requests.teamAudit.method, { range: "main..HEAD", require: "landed" }), ErrorCodes.invalidParams);
  } finally {
    await backend.stop();
    repo.dispose();
    fs.rmSync(remote, { recursive: true, force: true });
  }
});

test("no folder: the team requests say so", async () => {
  const backend = await startBackend({ workspaceFolder: null });
  try {
    assert.equal(await backend.errorCode(Requests.teamLandingCommits.method, { landingIds: ["landing:a"] }), ErrorCodes.noWorkspace);
    assert.equal(await backend.errorCode(Requests.teamCommitPatch.method, { sha: "a".repeat(40) }), ErrorCodes.noWorkspace);
    assert.equal(await backend.errorCode(Requests.teamAuditRange.method, {}), ErrorCodes.noWorkspace);
    assert.equal(await backend.errorCode(Requests.teamAudit.method, { range: "main..HEAD" }), ErrorCodes.noWorkspace);
  } finally {
    await backend.stop();
  }
});
