// The Router's workspace snapshot against real Git and real folders: Git and the walk agree,
// names and manifests that are not UTF-8 are reported, links never lead out of the root, the
// cache rebuilds incrementally to the same bytes as a fresh build, and 200k files give a capped
// result in bounded time.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { canonicalize } from "../../server/ledger/canonicalJson";
import { DocketError } from "../../server/errors";
import { ErrorCodes } from "../../server/protocol/messages";
import { WorkspaceSnapshot } from "../../server/router/planSchema";
import { buildSnapshot, nodeFs, SnapshotCache, type SnapshotFs, type WalkEntry } from "../../server/router/snapshot";
import { tempFolder, tempRepo } from "../support/gitRepo";
import { generateWorkspace, memoryWorkspaceFs, workspaceEntries } from "../support/routerWorkspace";
import { seededShuffle } from "../support/shuffle";

function withoutSource(snapshot: WorkspaceSnapshot): string {
  const { source: _source, snapshotSha256: _hash, ...rest } = snapshot;
  return canonicalize(rest);
}


function shufflingFs(seed: number): SnapshotFs {
  let calls = 0;
  return { ...nodeFs, readdir: async (dir) => seededShuffle(await nodeFs.readdir(dir), seed + (calls += 1)) as readonly WalkEntry[] };
}

const PLAIN_TREE: Record<string, string> = {
  ".gitignore": "dist/\n*.log\n!keep.log\n/build\n",
  "package.json": JSON.stringify({ name: "plain", workspaces: ["packages/*"], dependencies: { express: "4" } }),
  "packages/a/package.json": JSON.stringify({ name: "@plain/a" }),
  "packages/a/src/index.ts": 'export * from "./util";\n',
  "packages/a/src/util.ts": "export const u = 1;\n",
  "packages/a/.gitignore": "generated/\n!generated/keep.ts\n",
  "packages/a/generated/out.ts": "x",
  "src/app.js": 'require("./lib/cache");\n',
  "src/lib/cache.js": "module.exports = 1;\n",
  "src/trace.log": "ignored",
  "src/keep.log": "re-included",
  "dist/bundle.js": "ignored",
  "build/out.txt": "ignored at root only",
  "docs/build/page.md": "not ignored: /build is anchored",
  "AGENTS.md": "# rules\n",
  "name with spaces.md": "spaces",
  "ünïcödé/файл.txt": "unicode names",
};

test("Git and the walk agree on a plain tree (tracked, untracked, ignored, nested .gitignore, deleted)", async () => {
  const repo = tempRepo({ files: PLAIN_TREE });
  try {
    repo.write("untracked/new.ts", 'import "../src/app";\n');
    repo.write("src/another.log", "ignored, untracked");
    repo.write("gone.txt", "soon deleted");
    repo.commitAll("add gone");
    repo.remove("gone.txt");
    const fromGit = await buildSnapshot(repo.root);
    const fromWalk = await buildSnapshot(repo.root, { lister: "walk" });
    WorkspaceSnapshot.parse(fromGit);
    WorkspaceSnapshot.parse(fromWalk);
    assert.equal(fromGit.source, "git");
    assert.equal(fromWalk.source, "walk");
    assert.deepEqual(fromGit.files, fromWalk.files);
    assert.ok(fromGit.files.includes("untracked/new.ts"));
    assert.ok(fromGit.files.includes("src/keep.log"));
    assert.ok(fromGit.files.includes("docs/build/page.md"));
    assert.ok(fromGit.files.includes("ünïcödé/файл.txt"));
    for (const absent of ["gone.txt", "src/trace.log", "dist/bundle.js", "build/out.txt", "packages/a/generated/out.ts", "src/another.log"]) {
      assert.ok(!fromGit.files.includes(absent), absent);
    }
    // Everything but the source (and so the hash) is the same.
    assert.equal(withoutSource(fromGit), withoutSource(fromWalk));
    assert.deepEqual(fromGit.imports, [
      { from: "packages/a/src/index.ts", to: "packages/a/src/util.ts" },
      { from: "src/app.js", to: "src/lib/cache.js" },
      { from: "untracked/new.ts", to: "src/app.js" },
    ]);
  } finally {
    repo.dispose();
  }
});

test("a root inside a repository lists only its own files, relative to itself", async () => {
  const repo = tempRepo({ files: { "outer.txt": "x", "inner/package.json": JSON.stringify({ name: "inner" }), "inner/a.ts": "" } });
  try {
    const snapshot = await buildSnapshot(path.join(repo.root, "inner"));
    assert.equal(snapshot.source, "git");
    assert.deepEqual(snapshot.files, ["a.ts", "package.json"]);
  } finally {
    repo.dispose();
  }
});

test("Git's listing is capped like the walk's, and the caps are said", async () => {
  const repo = tempRepo({ files: { "a.txt": "", "b.txt": "", "c.txt": "", "d.txt": "", "e.txt": "" } });
  try {
    const snapshot = await buildSnapshot(repo.root, { maxFiles: 2, maxListed: 3 });
    assert.equal(snapshot.source, "git");
    assert.deepEqual(snapshot.files, ["a.txt", "b.txt"]);
    assert.deepEqual(snapshot.limits, ["git: stopped after listing 3 files", "files: 3 listed, first 2 kept"]);
  } finally {
    repo.dispose();
  }
});

test("determinism on disk: shuffled readdir order (several seeds) gives byte-identical JSON", async () => {
  const folder = tempFolder("docket-snapshot-order-");
  try {
    for (const [relative, content] of Object.entries(PLAIN_TREE)) {
      fs.mkdirSync(path.dirname(path.join(folder, relative)), { recursive: true });
      fs.writeFileSync(path.join(folder, relative), content);
    }
    const reference = canonicalize(await buildSnapshot(folder, { lister: "walk" }));
    for (const seed of [1, 7, 31, 2024]) {
      assert.equal(canonicalize(await buildSnapshot(folder, { lister: "walk", fsAdapter: shufflingFs(seed) })), reference);
    }
    // Outside Git, "auto" walks too.
    assert.equal(canonicalize(await buildSnapshot(folder)), reference);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

test("non-UTF-8 names and manifests are skipped with why, by Git and by the walk", async () => {
  const repo = tempRepo({ files: { "ok.ts": "" } });
  try {
    fs.writeFileSync(Buffer.concat([Buffer.from(`${repo.root}/bad`), Buffer.from([0xff, 0xfe]), Buffer.from(".txt")]), "x");
    fs.mkdirSync(path.join(repo.root, "legacy"));
    fs.writeFileSync(path.join(repo.root, "legacy", "package.json"), Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]));
    for (const lister of ["auto", "walk"] as const) {
      const snapshot = await buildSnapshot(repo.root, { lister });
      WorkspaceSnapshot.parse(snapshot);
      assert.deepEqual(snapshot.files, ["legacy/package.json", "ok.ts"], lister);
      assert.deepEqual(snapshot.skipped, [
        { path: "bad\ufffd\ufffd.txt", why: "file name is not valid UTF-8" },
        { path: "legacy/package.json", why: "manifest is not valid UTF-8; not parsed" },
      ]);
    }
  } finally {
    repo.dispose();
  }
});

test("symbolic links are listed but never followed out of the root", async () => {
  const outside = tempFolder("docket-snapshot-outside-");
  const repo = tempRepo({ files: { "CLAUDE.md": "# shared rules\n", "src/a.ts": "" } });
  try {
    fs.writeFileSync(path.join(outside, "secret.md"), "outside");
    fs.mkdirSync(path.join(outside, "tree"));
    fs.writeFileSync(path.join(outside, "tree", "deep.ts"), "");
    fs.symlinkSync("CLAUDE.md", path.join(repo.root, "AGENTS.md"));
    fs.symlinkSync(path.join(outside, "secret.md"), path.join(repo.root, "GEMINI.md"));
    fs.symlinkSync(path.join(outside, "tree"), path.join(repo.root, "linked-tree"));
    for (const lister of ["auto", "walk"] as const) {
      const snapshot = await buildSnapshot(repo.root, { lister });
      assert.deepEqual(snapshot.files, ["AGENTS.md", "CLAUDE.md", "GEMINI.md", "linked-tree", "src/a.ts"], lister);
      assert.deepEqual(snapshot.ruleFiles.map((entry) => entry.path), ["AGENTS.md", "CLAUDE.md"]);
      assert.deepEqual(snapshot.skipped, [{ path: "GEMINI.md", why: "symbolic link leads outside the workspace; not read" }]);
    }
  } finally {
    repo.dispose();
    fs.rmSync(outside, { recursive: true, force: true });
  }
});

test("SnapshotCache: unchanged until invalidated, then re-reads only changed files, same bytes as a fresh build", async () => {
  const repo = tempRepo({ files: PLAIN_TREE });
  try {
    const cache = new SnapshotCache(repo.root);
    const first = await cache.get();
    const readAtFirst = cache.filesReadLastBuild;
    assert.equal(readAtFirst, 7, "first build reads every manifest (2), rule file (1) and source (4)");
    assert.equal(await cache.get(), first, "no invalidation: the same snapshot object");

    repo.write("packages/a/package.json", JSON.stringify({ name: "@plain/a", dependencies: { react: "18" } }));
    cache.invalidate([path.join(repo.root, "packages/a/package.json")]);
    const second = await cache.get();
    assert.equal(cache.filesReadLastBuild, 1);
    assert.ok(second.technologies.some((entry) => entry.name === "React"));
    assert.equal(canonicalize(second), canonicalize(await buildSnapshot(repo.root)));

    repo.write("src/new.ts", 'import "./app.js";\n');
    repo.remove("src/lib/cache.js");
    cache.invalidate(["src/new.ts", "src/lib"]);
    const third = await cache.get();
    assert.equal(cache.filesReadLastBuild, 1, "only the new source");
    assert.ok(third.files.includes("src/new.ts"));
    assert.ok(!third.files.includes("src/lib/cache.js"));
    assert.deepEqual(third.imports.filter((edge) => edge.from.startsWith("src/")), [{ from: "src/new.ts", to: "src/app.js" }]);
    assert.equal(canonicalize(third), canonicalize(await buildSnapshot(repo.root)));

    // Outside the root: ignored; the root itself: everything is re-read.
    cache.invalidate([path.join(os.tmpdir(), "elsewhere.txt")]);
    assert.equal(await cache.get(), third);
    cache.invalidate([repo.root]);
    assert.equal(canonicalize(await cache.get()), canonicalize(third));
    assert.equal(cache.filesReadLastBuild, readAtFirst);
  } finally {
    repo.dispose();
  }
});

test("an unusable root is DocketError(snapshotUnavailable); nothing else throws", async () => {
  const folder = tempFolder("docket-snapshot-root-");
  try {
    fs.writeFileSync(path.join(folder, "file.txt"), "x");
    for (const root of [path.join(folder, "missing"), path.join(folder, "file.txt")]) {
      await assert.rejects(buildSnapshot(root), (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.snapshotUnavailable);
      await assert.rejects(new SnapshotCache(root).get(), (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.snapshotUnavailable);
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

// Creating and deleting 200k real files takes minutes on a busy CI disk (measured: 16 s to 186 s
// to create, up to 7 min to delete here), so the 200k case serves the generated tree from memory
// through the walk's injectable file system: every stage but the disk itself. A smaller generated
// tree exercises the real disk through Git and the walk.
test("a 200k-file workspace gives a capped snapshot in bounded time (in-memory walk)", async () => {
  const root = path.resolve("/generated/200k");
  const entries = workspaceEntries(200_000);
  const started = process.hrtime.bigint();
  const snapshot = await buildSnapshot(root, { lister: "walk", fsAdapter: memoryWorkspaceFs(root, entries) });
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  WorkspaceSnapshot.parse(snapshot);
  assert.equal(snapshot.files.length, 100_000);
  assert.deepEqual(snapshot.limits, ["files: 200000 listed, first 100000 kept", `imports: ${snapshot.limits[1]?.match(/^imports: (\d+)/u)?.[1]} source files, first 20000 parsed`]);
  assert.ok(snapshot.imports.length > 15_000);
  // The cap keeps the first 100000 paths in code-unit order, so `services/` (after `packages/`) is cut.
  assert.ok(snapshot.technologies.some((entry) => entry.name === "React"));
  assert.ok(!snapshot.files.some((file) => file.startsWith("services/")));
  assert.ok(snapshot.hotPaths.length > 0);
  console.log(`# 200k files (in-memory walk): ${elapsedMs.toFixed(0)} ms`);
  assert.ok(elapsedMs < 45_000, `took ${elapsedMs} ms`);
});

test("a generated workspace on disk: Git and the walk agree and stay well within time", async () => {
  const count = Number(process.env.DOCKET_SNAPSHOT_DISK_FILES ?? "3000");
  const repo = tempRepo();
  try {
    const written = generateWorkspace(repo.root, count);
    const started = process.hrtime.bigint();
    const fromGit = await buildSnapshot(repo.root);
    const gitMs = Number(process.hrtime.bigint() - started) / 1e6;
    const walkStarted = process.hrtime.bigint();
    const fromWalk = await buildSnapshot(repo.root, { lister: "walk" });
    const walkMs = Number(process.hrtime.bigint() - walkStarted) / 1e6;
    console.log(`# ${count} files on disk: git ${gitMs.toFixed(0)} ms, walk ${walkMs.toFixed(0)} ms`);
    assert.equal(fromGit.source, "git");
    assert.equal(fromGit.files.length, Math.min(written.files.length, 100_000));
    assert.equal(withoutSource(fromGit), withoutSource(fromWalk));
    assert.deepEqual(fromGit.ruleFiles.map((entry) => entry.path), ["AGENTS.md"]);
    assert.ok(fromGit.modules.some((entry) => entry.kind === "go-module" && entry.name === "example.com/generated/api"));
    assert.ok(fromGit.modules.some((entry) => entry.kind === "npm-package" && entry.name === "@generated/pkg-0000"));
  } finally {
    repo.dispose();
  }
});
