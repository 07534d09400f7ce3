import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { takeWorkspaceSnapshot } from "../../server/workspace/gitObservation";
import {
  checkAuthorization,
  reconcileLanding,
  workspaceDelta,
  WorkspaceErrorCodes,
  type GitWorkspaceSnapshot,
  type WorkspaceDelta,
  type WorkspaceSnapshot,
} from "../../server/developer/workspaceDelta";
import {
  baselineFile,
  baselinesDirectory,
  BaselineStoreError,
  discardBaselines,
  loadBaseline,
  saveBaseline,
} from "../../server/workspace/baselineStore";
import { canonicalJson, hashValue, type JsonValue } from "../../server/ledger/canonicalJson";
import { runGit, tempFolder, tempRepo } from "../support/gitRepo";

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

function git(snapshot: WorkspaceSnapshot): GitWorkspaceSnapshot {
  if (snapshot.kind !== "git") assert.fail(`expected a Git snapshot: ${snapshot.reason}`);
  return snapshot;
}

function observed(delta: WorkspaceDelta): readonly string[] {
  if (delta.kind !== "observed") assert.fail(`expected an observed delta: ${delta.reason}`);
  return delta.changedPaths;
}

function identityOf(snapshot: GitWorkspaceSnapshot, file: string): string | undefined {
  return snapshot.dirty.find((entry) => entry.path === file)?.identity;
}

// ---- observation against real repositories -------------------------------------------------

test("pre-existing dirt left untouched is excluded; edited dirt and new files are changes", async (t) => {
  const repo = tempRepo({ files: { "tracked.txt": "committed\n", "other.txt": "other\n" } });
  t.after(() => repo.dispose());
  repo.write("tracked.txt", "pre-existing edit\n");
  repo.write("untouched.txt", "untracked dirt\n");
  repo.write("other.txt", "dirty before, left alone\n");
  const baseline = git(await takeWorkspaceSnapshot(repo.root));
  assert.equal(baseline.head, repo.head());
  assert.deepEqual(
    baseline.dirty.map((entry) => entry.path),
    ["other.txt", "tracked.txt", "untouched.txt"],
  );
  assert.equal(identityOf(baseline, "tracked.txt"), `file:${sha("pre-existing edit\n")}`);

  repo.write("tracked.txt", "edited further\n");
  repo.write("new.txt", "new\n");
  const current = await takeWorkspaceSnapshot(repo.root);
  assert.deepEqual(observed(workspaceDelta(baseline, current)), ["new.txt", "tracked.txt"]);
  // The same snapshot twice is an empty delta: observation is deterministic.
  assert.deepEqual(observed(workspaceDelta(current, await takeWorkspaceSnapshot(repo.root))), []);
});

test("a deleted tracked file has identity `absent` and is a change", async (t) => {
  const repo = tempRepo({ files: { "keep.txt": "keep\n", "gone.txt": "gone\n" } });
  t.after(() => repo.dispose());
  const baseline = await takeWorkspaceSnapshot(repo.root);
  assert.deepEqual(git(baseline).dirty, []);
  repo.remove("gone.txt");
  const current = git(await takeWorkspaceSnapshot(repo.root));
  assert.equal(identityOf(current, "gone.txt"), "absent");
  assert.deepEqual(observed(workspaceDelta(baseline, current)), ["gone.txt"]);
});

test("a dirty file reverted to HEAD is a change; a staged-only revert too", async (t) => {
  const repo = tempRepo({ files: { "a.txt": "original\n", "b.txt": "b\n" } });
  t.after(() => repo.dispose());
  repo.write("a.txt", "dirty at baseline\n");
  repo.write("b.txt", "staged at baseline\n");
  runGit(repo.root, ["add", "b.txt"]);
  const baseline = await takeWorkspaceSnapshot(repo.root);
  assert.deepEqual(git(baseline).dirty.map((entry) => entry.path), ["a.txt", "b.txt"]);
  runGit(repo.root, ["checkout", "HEAD", "--", "a.txt", "b.txt"]);
  const current = git(await takeWorkspaceSnapshot(repo.root));
  assert.deepEqual(current.dirty, []);
  assert.deepEqual(observed(workspaceDelta(baseline, current)), ["a.txt", "b.txt"]);
});

test("ignored files are invisible; un-ignoring one makes it (and .gitignore) a change", async (t) => {
  const repo = tempRepo({ files: { ".gitignore": "build/\n*.log\n", "src.txt": "src\n" } });
  t.after(() => repo.dispose());
  const baseline = await takeWorkspaceSnapshot(repo.root);
  repo.write("build/out.js", "generated\n");
  repo.write("debug.log", "noise\n");
  const current = git(await takeWorkspaceSnapshot(repo.root));
  assert.deepEqual(current.dirty, []);
  assert.deepEqual(observed(workspaceDelta(baseline, current)), []);
  // Un-ignoring makes the file visible, so it counts (as does the edited .gitignore).
  repo.write(".gitignore", "build/\n");
  assert.deepEqual(observed(workspaceDelta(baseline, await takeWorkspaceSnapshot(repo.root))), [".gitignore", "debug.log"]);
});

test("symlink identity is the sha256 of its target; retargeting is a change", { skip: process.platform === "win32" }, async (t) => {
  const repo = tempRepo({ files: { "a.txt": "a\n", "b.txt": "b\n" } });
  t.after(() => repo.dispose());
  fs.symlinkSync("a.txt", path.join(repo.root, "link"));
  const baseline = git(await takeWorkspaceSnapshot(repo.root));
  assert.equal(identityOf(baseline, "link"), `symlink:${sha("a.txt")}`);
  // Editing the target changes the target's identity, not the link's.
  repo.write("a.txt", "edited\n");
  assert.deepEqual(observed(workspaceDelta(baseline, await takeWorkspaceSnapshot(repo.root))), ["a.txt"]);
  repo.write("a.txt", "a\n");
  fs.unlinkSync(path.join(repo.root, "link"));
  fs.symlinkSync("b.txt", path.join(repo.root, "link"));
  const current = git(await takeWorkspaceSnapshot(repo.root));
  assert.equal(identityOf(current, "link"), `symlink:${sha("b.txt")}`);
  assert.deepEqual(observed(workspaceDelta(baseline, current)), ["link"]);
});

test("an untracked nested repository is one `directory` path", async (t) => {
  const repo = tempRepo({ files: { "a.txt": "a\n" } });
  t.after(() => repo.dispose());
  fs.mkdirSync(path.join(repo.root, "nested"));
  runGit(path.join(repo.root, "nested"), ["init", "--quiet"]);
  const snapshot = git(await takeWorkspaceSnapshot(repo.root));
  assert.deepEqual(snapshot.dirty, [{ path: "nested", identity: "directory" }]);
});

test("paths with spaces, non-ASCII characters and newlines survive and sort by code units", async (t) => {
  const repo = tempRepo({ files: { "with space.txt": "1\n", "한글 파일.txt": "2\n" } });
  t.after(() => repo.dispose());
  const baseline = await takeWorkspaceSnapshot(repo.root);
  const names = ["with space.txt", "한글 파일.txt", "Zed.txt", "émoji 🎉.txt", "dir with space/ü.txt"];
  if (process.platform !== "win32") names.push("line\nbreak.txt");
  for (const name of names) repo.write(name, `changed ${name}\n`);
  const current = git(await takeWorkspaceSnapshot(repo.root));
  const expected = [...names].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
  assert.deepEqual(
    current.dirty.map((entry) => entry.path),
    expected,
  );
  assert.equal(identityOf(current, "한글 파일.txt"), `file:${sha("changed 한글 파일.txt\n")}`);
  assert.deepEqual(observed(workspaceDelta(baseline, current)), expected);
});

test("paths are relative to cwd, and changes outside cwd are still seen", async (t) => {
  const repo = tempRepo({ files: { "pkg/a.txt": "a\n", "top.txt": "top\n" } });
  t.after(() => repo.dispose());
  const cwd = path.join(repo.root, "pkg");
  const baseline = git(await takeWorkspaceSnapshot(cwd));
  assert.equal(baseline.cwd, cwd);
  assert.equal(baseline.root, runGit(repo.root, ["rev-parse", "--show-toplevel"]).trim());
  repo.write("pkg/a.txt", "edited\n");
  repo.write("top.txt", "edited\n");
  repo.write("outside-new.txt", "new\n");
  assert.deepEqual(observed(workspaceDelta(baseline, await takeWorkspaceSnapshot(cwd))), [
    "../outside-new.txt",
    "../top.txt",
    "a.txt",
  ]);
});

test("excluded paths (Docket's own state) never appear in a snapshot", async (t) => {
  const repo = tempRepo({ files: { "a.txt": "a\n" } });
  t.after(() => repo.dispose());
  const excludedPaths = [path.join(repo.root, ".docket")];
  const baseline = await takeWorkspaceSnapshot(repo.root, { excludedPaths });
  repo.write(".docket/ledger.jsonl", "{}\n");
  await saveBaseline(repo.root, { workScopeId: "scope:1", role: "scope", snapshot: baseline });
  repo.write("a.txt", "edited\n");
  assert.deepEqual(observed(workspaceDelta(baseline, await takeWorkspaceSnapshot(repo.root, { excludedPaths }))), ["a.txt"]);
  // Without the exclusion the ledger would pollute every delta.
  const unfiltered = git(await takeWorkspaceSnapshot(repo.root));
  assert.ok(unfiltered.dirty.some((entry) => entry.path === ".docket/ledger.jsonl"));
});

test("a HEAD change makes the delta unavailable with an actionable message", async (t) => {
  const repo = tempRepo({ files: { "a.txt": "a\n" } });
  t.after(() => repo.dispose());
  const baseline = await takeWorkspaceSnapshot(repo.root);
  repo.write("a.txt", "edited\n");
  repo.commitAll("committed during the scope");
  const delta = workspaceDelta(baseline, await takeWorkspaceSnapshot(repo.root));
  assert.equal(delta.kind, "unavailable");
  assert.equal(delta.kind === "unavailable" && delta.cause, "head-changed");
  assert.match(delta.kind === "unavailable" ? delta.reason : "", /^Git HEAD changed .*committing or switching branches during a Docket scope breaks landing reconciliation.*git reset --soft/su);
  const landing = reconcileLanding(delta, ["a.txt"]);
  assert.equal(landing.ok, false);
  assert.equal(!landing.ok && landing.code, WorkspaceErrorCodes.gitHeadChanged);
  const authorization = checkAuthorization(baseline, await takeWorkspaceSnapshot(repo.root));
  assert.equal(!authorization.ok && authorization.code, WorkspaceErrorCodes.gitHeadChanged);
});

test("a folder outside Git, a missing folder and a missing git are unavailable with clear reasons", async (t) => {
  const folder = tempFolder("docket-nogit-");
  t.after(() => fs.rmSync(folder, { recursive: true, force: true }));
  const plain = await takeWorkspaceSnapshot(folder);
  assert.deepEqual(plain, { kind: "unavailable", reason: `${folder} is not inside a Git repository.` });
  const missing = await takeWorkspaceSnapshot(path.join(folder, "does-not-exist"));
  assert.equal(missing.kind, "unavailable");
  assert.match(missing.kind === "unavailable" ? missing.reason : "", /does not exist/u);

  const savedPath = process.env.PATH;
  process.env.PATH = folder; // a folder without a git executable
  try {
    const noGit = await takeWorkspaceSnapshot(folder);
    assert.deepEqual(noGit, { kind: "unavailable", reason: "Git is not installed or not on PATH, so Docket cannot observe the workspace." });
  } finally {
    process.env.PATH = savedPath;
  }
  const delta = workspaceDelta(plain, plain);
  assert.deepEqual(delta, { kind: "unavailable", cause: "baseline-unavailable", reason: `${folder} is not inside a Git repository.` });
});

test("a Git that does not answer within 5 s is reported as a timeout", { skip: process.platform === "win32", timeout: 20_000 }, async (t) => {
  const folder = tempFolder("docket-slowgit-");
  t.after(() => fs.rmSync(folder, { recursive: true, force: true }));
  const fakeGit = path.join(folder, "git");
  fs.writeFileSync(fakeGit, "#!/bin/sh\nexec sleep 30\n", { mode: 0o755 });
  const savedPath = process.env.PATH;
  process.env.PATH = `${folder}${path.delimiter}${savedPath ?? ""}`;
  try {
    const started = Date.now();
    const snapshot = await takeWorkspaceSnapshot(folder);
    assert.equal(snapshot.kind, "unavailable");
    assert.match(snapshot.kind === "unavailable" ? snapshot.reason : "", /did not answer within 5 s/u);
    assert.ok(Date.now() - started < 10_000);
  } finally {
    process.env.PATH = savedPath;
  }
});

test("a repository without commits is observable: HEAD is null and everything staged or untracked is dirty", async (t) => {
  const repo = tempRepo();
  t.after(() => repo.dispose());
  repo.write("staged.txt", "staged\n");
  runGit(repo.root, ["add", "staged.txt"]);
  repo.write("untracked.txt", "untracked\n");
  const baseline = git(await takeWorkspaceSnapshot(repo.root));
  assert.equal(baseline.head, null);
  assert.deepEqual(baseline.dirty.map((entry) => entry.path), ["staged.txt", "untracked.txt"]);
  repo.write("untracked.txt", "edited\n");
  repo.write("new.txt", "new\n");
  const current = await takeWorkspaceSnapshot(repo.root);
  assert.deepEqual(observed(workspaceDelta(baseline, current)), ["new.txt", "untracked.txt"]);
  // The first commit moves HEAD from nothing to a commit.
  repo.commitAll("first");
  const afterCommit = workspaceDelta(baseline, await takeWorkspaceSnapshot(repo.root));
  assert.equal(afterCommit.kind === "unavailable" && afterCommit.cause, "head-changed");
  assert.match(afterCommit.kind === "unavailable" ? afterCommit.reason : "", /no commit yet/u);
});

// ---- pure rules ----------------------------------------------------------------------------

const head = "a".repeat(40);
function snapshot(dirty: Readonly<Record<string, string>>, overrides: Partial<GitWorkspaceSnapshot> = {}): GitWorkspaceSnapshot {
  return {
    kind: "git",
    root: "/repo",
    cwd: "/repo",
    head,
    dirty: Object.keys(dirty)
      .sort()
      .map((file) => ({ path: file, identity: dirty[file] as string })),
    ...overrides,
  };
}
const file = (content: string): string => `file:${sha(content)}`;

test("workspaceDelta: identity change, untouched dirt, and prototype-like names", () => {
  const base = snapshot({ ["__proto__"]: file("x"), constructor: file("y"), keep: file("k") });
  const now = snapshot({ ["__proto__"]: file("x2"), constructor: file("y"), keep: file("k") });
  assert.deepEqual(workspaceDelta(base, now), { kind: "observed", changedPaths: ["__proto__"] });
  const moved = workspaceDelta(base, snapshot({}, { cwd: "/repo/sub" }));
  assert.equal(moved.kind === "unavailable" && moved.cause, "identity-changed");
  assert.match(moved.kind === "unavailable" ? moved.reason : "", /^Workspace identity changed/u);
  const otherRoot = workspaceDelta(base, snapshot({}, { root: "/elsewhere" }));
  assert.equal(otherRoot.kind === "unavailable" && otherRoot.cause, "identity-changed");
  const gone = workspaceDelta(base, { kind: "unavailable", reason: "Git timed out." });
  assert.deepEqual(gone, { kind: "unavailable", cause: "current-unavailable", reason: "Git timed out." });
});

test("checkAuthorization: clean passes, changes refuse with the paths, non-Git passes", () => {
  const base = snapshot({ dirt: file("d") });
  assert.deepEqual(checkAuthorization(base, snapshot({ dirt: file("d") })), { ok: true });
  const changed = checkAuthorization(base, snapshot({ dirt: file("d2"), "new.ts": file("n") }));
  assert.equal(changed.ok, false);
  assert.equal(!changed.ok && changed.code, WorkspaceErrorCodes.changedBeforeAuthorization);
  assert.match(!changed.ok ? changed.message : "", /dirt, new\.ts/u);
  assert.deepEqual(checkAuthorization({ kind: "unavailable", reason: "not Git" }, snapshot({ x: file("x") })), { ok: true });
  const broken = checkAuthorization(base, { kind: "unavailable", reason: "Git timed out." });
  assert.equal(!broken.ok && broken.code, WorkspaceErrorCodes.workspaceUnavailable);
  const moved = checkAuthorization(base, snapshot({}, { root: "/other" }));
  assert.equal(!moved.ok && moved.code, WorkspaceErrorCodes.identityChanged);
});

test("reconcileLanding covers every branch", () => {
  const delta: WorkspaceDelta = { kind: "observed", changedPaths: ["a.ts", "b.ts"] };
  assert.deepEqual(reconcileLanding(delta), { ok: true, changedPaths: ["a.ts", "b.ts"], source: "observed" });
  assert.deepEqual(reconcileLanding(delta, ["b.ts", "a.ts"]), { ok: true, changedPaths: ["a.ts", "b.ts"], source: "observed" });

  const mismatch = reconcileLanding(delta, ["a.ts", "c.ts"]);
  assert.equal(!mismatch.ok && mismatch.code, WorkspaceErrorCodes.landingPathsMismatch);
  assert.match(!mismatch.ok ? mismatch.message : "", /Omitted: b\.ts\. Extra: c\.ts\. Observed: a\.ts, b\.ts\./u);
  const omitted = reconcileLanding(delta, ["a.ts"]);
  assert.match(!omitted.ok ? omitted.message : "", /Omitted: b\.ts\. Extra: \(none\)\./u);
  const duplicated = reconcileLanding(delta, ["a.ts", "a.ts", "b.ts"]);
  assert.equal(!duplicated.ok && duplicated.code, WorkspaceErrorCodes.landingPathsInvalid);

  const empty = reconcileLanding({ kind: "observed", changedPaths: [] }, ["a.ts"]);
  assert.equal(!empty.ok && empty.code, WorkspaceErrorCodes.landingEmpty);
  const tooMany = reconcileLanding({ kind: "observed", changedPaths: Array.from({ length: 201 }, (_, index) => `f${String(index).padStart(3, "0")}`) });
  assert.equal(!tooMany.ok && tooMany.code, WorkspaceErrorCodes.landingPathsInvalid);
  assert.match(!tooMany.ok ? tooMany.message : "", /201 paths/u);

  const nonGit: WorkspaceDelta = { kind: "unavailable", cause: "baseline-unavailable", reason: "x is not inside a Git repository." };
  const required = reconcileLanding(nonGit);
  assert.equal(!required.ok && required.code, WorkspaceErrorCodes.landingPathsRequired);
  assert.deepEqual(reconcileLanding(nonGit, ["z.md", "a.md"]), { ok: true, changedPaths: ["a.md", "z.md"], source: "declared" });
  for (const bad of [[], Array.from({ length: 201 }, (_, index) => `p${index}`), ["a", "a"], ["x".repeat(4097)], [""]]) {
    const result = reconcileLanding(nonGit, bad);
    assert.equal(!result.ok && result.code, WorkspaceErrorCodes.landingPathsInvalid, JSON.stringify(bad).slice(0, 40));
  }
  assert.equal(reconcileLanding(nonGit, ["x".repeat(4096)]).ok, true);

  const causes = [
    ["head-changed", WorkspaceErrorCodes.gitHeadChanged],
    ["identity-changed", WorkspaceErrorCodes.identityChanged],
    ["current-unavailable", WorkspaceErrorCodes.workspaceUnavailable],
  ] as const;
  for (const [cause, code] of causes) {
    // Declared paths never stand in for a Git observation that broke.
    const result = reconcileLanding({ kind: "unavailable", cause, reason: "r" }, ["a.ts"]);
    assert.equal(!result.ok && result.code, code);
  }
});

// ---- baseline store ------------------------------------------------------------------------

test("baselines round-trip atomically, survive a 'restart' and let a landing reconcile", async (t) => {
  const repo = tempRepo({ files: { "a.txt": "a\n" } });
  t.after(() => repo.dispose());
  const excludedPaths = [path.join(repo.root, ".docket")];
  const scopeSnapshot = await takeWorkspaceSnapshot(repo.root, { excludedPaths });
  const scopeFile = await saveBaseline(repo.root, { workScopeId: "scope:abc/1", role: "scope", snapshot: scopeSnapshot });
  const authorizationSnapshot = await takeWorkspaceSnapshot(repo.root, { excludedPaths });
  await saveBaseline(repo.root, { workScopeId: "scope:abc/1", role: "authorization", authorizationId: "change:1", snapshot: authorizationSnapshot });
  // Saving again overwrites in place.
  await saveBaseline(repo.root, { workScopeId: "scope:abc/1", role: "scope", snapshot: scopeSnapshot });

  const leftovers = fs.readdirSync(path.dirname(scopeFile)).filter((name) => name.endsWith(".tmp"));
  assert.deepEqual(leftovers, []);
  assert.deepEqual(fs.readdirSync(path.dirname(scopeFile)).length, 2);
  assert.ok(scopeFile.startsWith(baselinesDirectory(repo.root)));
  const text = fs.readFileSync(scopeFile, "utf8");
  assert.equal(text, `${canonicalJson(JSON.parse(text) as JsonValue)}\n`);
  assert.match(text, /"format":"docket\/workspace-baseline\/v1"/u);

  // A "restarted" process has nothing in memory: it loads the baseline and lands.
  repo.write("a.txt", "edited\n");
  const loaded = await loadBaseline(repo.root, { workScopeId: "scope:abc/1", role: "authorization", authorizationId: "change:1" });
  if (!loaded.ok) assert.fail(loaded.message);
  assert.deepEqual(loaded.baseline, { workScopeId: "scope:abc/1", role: "authorization", authorizationId: "change:1", snapshot: authorizationSnapshot });
  const landing = reconcileLanding(workspaceDelta(loaded.baseline.snapshot, await takeWorkspaceSnapshot(repo.root, { excludedPaths })));
  assert.deepEqual(landing, { ok: true, changedPaths: ["a.txt"], source: "observed" });
  const scope = await loadBaseline(repo.root, { workScopeId: "scope:abc/1", role: "scope" });
  assert.deepEqual(scope.ok && scope.baseline, { workScopeId: "scope:abc/1", role: "scope", snapshot: scopeSnapshot });

  await discardBaselines(repo.root, "scope:abc/1");
  const missing = await loadBaseline(repo.root, { workScopeId: "scope:abc/1", role: "scope" });
  assert.equal(!missing.ok && missing.problem, "missing");
  await discardBaselines(repo.root, "scope:never-saved");
});

test("an unavailable snapshot is a valid baseline (the non-Git workspace case)", async (t) => {
  const folder = tempFolder("docket-baseline-");
  t.after(() => fs.rmSync(folder, { recursive: true, force: true }));
  const snapshot = await takeWorkspaceSnapshot(folder);
  await saveBaseline(folder, { workScopeId: "scope:1", role: "scope", snapshot });
  const loaded = await loadBaseline(folder, { workScopeId: "scope:1", role: "scope" });
  assert.deepEqual(loaded.ok && loaded.baseline.snapshot, snapshot);
});

test("corrupt, tampered, unknown-field and misplaced baselines are coded problems, never crashes", async (t) => {
  const folder = tempFolder("docket-baseline-");
  t.after(() => fs.rmSync(folder, { recursive: true, force: true }));
  const key = { workScopeId: "scope:1", role: "scope" } as const;
  const snapshot: WorkspaceSnapshot = { kind: "git", root: "/r", cwd: "/r", head: "b".repeat(40), dirty: [{ path: "a", identity: file("a") }] };
  const target = await saveBaseline(folder, { ...key, snapshot });
  const good = fs.readFileSync(target, "utf8");
  const parsed = JSON.parse(good) as { format: string; baseline: Record<string, unknown>; sha256: string };
  const rehashed = (baseline: Record<string, unknown>): string =>
    `${canonicalJson({ format: parsed.format, baseline: baseline as JsonValue, sha256: hashValue({ format: parsed.format, baseline }) })}\n`;

  const cases: Array<[string, string]> = [
    ["torn", good.slice(0, good.length / 2)],
    ["empty", ""],
    ["not an object", "[]\n"],
    ["tampered content", good.replace(`"path":"a"`, `"path":"b"`)],
    ["tampered hash", good.replace(parsed.sha256, "0".repeat(64))],
    ["unknown field", rehashed({ ...parsed.baseline, extra: true })],
    ["unknown format", good.replace("docket/workspace-baseline/v1", "docket/workspace-baseline/v2")],
    ["bad identity", rehashed({ ...parsed.baseline, snapshot: { ...snapshot, dirty: [{ path: "a", identity: "file:nope" }] } })],
    ["unsorted dirt", rehashed({ ...parsed.baseline, snapshot: { ...snapshot, dirty: [{ path: "b", identity: "absent" }, { path: "a", identity: "absent" }] } })],
    ["another scope", rehashed({ ...parsed.baseline, workScopeId: "scope:2" })],
    ["not canonical", `${JSON.stringify(JSON.parse(good), null, 2)}\n`],
  ];
  for (const [name, content] of cases) {
    fs.writeFileSync(target, content);
    const loaded = await loadBaseline(folder, key);
    assert.equal(loaded.ok, false, name);
    assert.equal(!loaded.ok && loaded.problem, "corrupt", name);
    assert.match(!loaded.ok ? loaded.message : "", /damaged/u, name);
  }
  fs.writeFileSync(target, good);
  assert.equal((await loadBaseline(folder, key)).ok, true);
  assert.equal(baselineFile(folder, key), target);

  await assert.rejects(
    saveBaseline(folder, { workScopeId: "not an id", role: "scope", snapshot }),
    (error: unknown) => error instanceof BaselineStoreError && error.code === "invalid-baseline",
  );
  await assert.rejects(
    saveBaseline(folder, { workScopeId: "scope:1", role: "authorization", snapshot }),
    (error: unknown) => error instanceof BaselineStoreError && error.code === "invalid-baseline",
  );
});
