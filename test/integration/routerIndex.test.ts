// The Router index (.docket/router-index/) on real Git repositories and real folders: a plan made
// through the index is byte-identical to a plan made from a fresh snapshot after every kind of
// change (contents, same-size edits in the same clock tick, new untracked files, deletions,
// commits and checkouts, manifests, ignore rules), the cheap paths are taken only when nothing
// they skip has changed, and an index that is garbled, oversized, forged to point outside the
// workspace, or reached through a symbolic link is never trusted nor written through.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { canonicalize } from "../../server/ledger/canonicalJson";
import { findPackageRoot } from "../../server/developer/operations/skillCatalog";
import { loadCatalogue } from "../../server/router/catalogueFiles";
import { buildSnapshot, SnapshotCache } from "../../server/router/snapshot";
import { DETAILS_FILE, INDEX_FOLDER, INDEX_FILE } from "../../server/router/snapshot/indexStore";
import { READ_ONLY_ROUTER_MODULES, ROUTER_MODULES, WorkspacePlanner } from "../../server/router/workspacePlanner";
import { tempFolder, tempRepo, runGit, type TempRepo } from "../support/gitRepo";

const PACKAGE_ROOT = findPackageRoot(__dirname);
const TASKS = ["fix the retry bug in src/retry.ts", "add a cache to the parser in packages/a and update AGENTS.md"];

const TREE: Record<string, string> = {
  ".gitignore": "dist/\n*.log\n",
  "package.json": JSON.stringify({ name: "shop", workspaces: ["packages/*"], dependencies: { express: "4" } }),
  "packages/a/package.json": JSON.stringify({ name: "@shop/a" }),
  "packages/a/src/parser.ts": 'export * from "./util";\n',
  "packages/a/src/util.ts": "export const u = 1;\n",
  "src/retry.ts": 'import { u } from "../packages/a/src/util";\nexport const retry = u;\n',
  "src/app.ts": 'import "./retry";\n',
  "AGENTS.md": "# rules\n",
};

function indexFile(root: string): string {
  return path.join(root, ".docket", INDEX_FOLDER, INDEX_FILE);
}

/** Plans every task in a fresh planner: through the index, or from a snapshot built afresh. */
async function plans(root: string, withIndex: boolean): Promise<string> {
  const modules = withIndex
    ? ROUTER_MODULES
    : { ...ROUTER_MODULES, loadCatalogue, createCache: (workspace: string) => ({ invalidate: () => undefined, get: () => buildSnapshot(workspace) }) };
  const planner = new WorkspacePlanner(root, PACKAGE_ROOT, modules);
  const results: string[] = [];
  for (const task of TASKS) results.push(canonicalize(await planner.plan(task, null)));
  return results.join("\n");
}

/** A fresh process's view: a new cache that starts from the index on disk. */
async function freshBuild(root: string): Promise<{ snapshot: string; tier: string | null; read: number }> {
  const cache = new SnapshotCache(root);
  const snapshot = await cache.get();
  return { snapshot: canonicalize(snapshot), tier: cache.tierLastBuild, read: cache.filesReadLastBuild };
}

async function assertSameAsFresh(root: string, step: string, expectedTier?: readonly string[]): Promise<void> {
  const indexed = await freshBuild(root);
  if (expectedTier !== undefined) assert.ok(expectedTier.includes(indexed.tier ?? "none"), `${step}: tier ${indexed.tier} not in ${expectedTier.join("|")}`);
  assert.equal(indexed.snapshot, canonicalize(await buildSnapshot(root)), `${step}: snapshot through the index = fresh snapshot`);
  assert.equal(await plans(root, true), await plans(root, false), `${step}: plans with the index = plans without it`);
}

function git(repo: TempRepo, ...args: string[]): void {
  runGit(repo.root, args);
}

test("through every kind of change, plans through the index equal plans without it (Git)", async () => {
  const repo = tempRepo({ files: TREE });
  try {
    await assertSameAsFresh(repo.root, "cold", ["cold"]);
    assert.ok(fs.statSync(indexFile(repo.root)).isFile(), "the index is written under .docket/router-index/");
    await assertSameAsFresh(repo.root, "second", ["warm", "listing"]);
    await assertSameAsFresh(repo.root, "nothing changed", ["warm"]);

    // Same size, same folder, right after the last build: only the stamp's times can tell.
    repo.write("src/retry.ts", 'import { u } from "../packages/a/src/parser";\nexport const retry = u;\n'.slice(0, fs.statSync(path.join(repo.root, "src/retry.ts")).size));
    await assertSameAsFresh(repo.root, "same-size edit of a source", ["contents"]);
    repo.write("src/retry.ts", 'import { u } from "../packages/a/src/util";\nexport const retry = u;\n');
    repo.write("src/retry.ts", 'import { u } from "../packages/a/src/pars";\nexport const retry = u;\n');
    await assertSameAsFresh(repo.root, "two edits in a row", ["contents", "listing"]);

    repo.write("packages/a/package.json", JSON.stringify({ name: "@shop/a", dependencies: { react: "18" } }));
    await assertSameAsFresh(repo.root, "manifest edited", ["contents", "listing"]);
    repo.write("AGENTS.md", "# rules\n\n- test first\n");
    await assertSameAsFresh(repo.root, "rule file edited", ["contents", "listing"]);

    repo.write("src/cache/store.ts", 'import "../app";\n');
    await assertSameAsFresh(repo.root, "untracked file in a new folder", ["listing"]);
    fs.mkdirSync(path.join(repo.root, "empty/deeper"), { recursive: true });
    await assertSameAsFresh(repo.root, "empty folders");
    repo.write("empty/deeper/render.ts", "export {};\n");
    await assertSameAsFresh(repo.root, "a file inside a folder that was empty", ["listing"]);

    repo.write("dist/bundle.js", "ignored");
    await assertSameAsFresh(repo.root, "ignored folder created");
    repo.write("dist/more.js", "still ignored");
    await assertSameAsFresh(repo.root, "a file in an ignored folder", ["warm", "listing"]);
    repo.write(".gitignore", "*.log\n");
    await assertSameAsFresh(repo.root, "ignore rules changed: dist/ is listed now", ["listing"]);
    fs.appendFileSync(path.join(repo.root, ".git", "info", "exclude"), "dist/\n");
    await assertSameAsFresh(repo.root, "info/exclude changed", ["listing"]);

    repo.remove("src/app.ts");
    await assertSameAsFresh(repo.root, "tracked file deleted", ["listing"]);
    repo.commitAll("second");
    await assertSameAsFresh(repo.root, "commit (the index changes)", ["listing"]);
    git(repo, "checkout", "--quiet", "-b", "other");
    repo.write("lib/other.ts", "export {};\n");
    repo.commitAll("third");
    git(repo, "checkout", "--quiet", "-");
    await assertSameAsFresh(repo.root, "checkout of another commit", ["listing"]);
    fs.renameSync(path.join(repo.root, "packages/a/src/util.ts"), path.join(repo.root, "packages/a/src/helpers.ts"));
    await assertSameAsFresh(repo.root, "rename", ["listing"]);
    await assertSameAsFresh(repo.root, "settled", ["warm"]);

    // The catalogue is kept in the index too: a new workspace skill, then an edit of it.
    const skill = (description: string): string => `---\nname: retry-fixer\ndescription: ${description}\n---\n\n# Retry fixer\n`;
    repo.write(".agents/skills/retry-fixer/SKILL.md", skill("Fixes retry bugs in TypeScript services."));
    await assertSameAsFresh(repo.root, "a workspace skill added");
    repo.write(".agents/skills/retry-fixer/SKILL.md", skill("Fixes caching bugs in parsers, never retries."));
    await assertSameAsFresh(repo.root, "a workspace skill edited");
    repo.write(".agents/skills/retry-fixer/SKILL.md", skill("Fixes caching bugs in parsers, never retries!"));
    await assertSameAsFresh(repo.root, "a workspace skill edited again at once");
  } finally {
    repo.dispose();
  }
});

test("skip-worktree entries, case and Unicode-normalization variants: plans through the index equal plans without it", async () => {
  const repo = tempRepo({ files: { ...TREE, "src/caf\u00e9.ts": 'import "./retry";\n', "docs/Guide.md": "# guide\n" } });
  try {
    await assertSameAsFresh(repo.root, "cold", ["cold"]);
    await assertSameAsFresh(repo.root, "settled", ["warm", "listing"]);

    // Git keeps listing a skip-worktree entry that is gone from disk.
    git(repo, "update-index", "--skip-worktree", "src/app.ts");
    await assertSameAsFresh(repo.root, "skip-worktree set (Git's index rewritten)", ["listing"]);
    repo.remove("src/app.ts");
    await assertSameAsFresh(repo.root, "a skip-worktree file removed from disk", ["listing"]);
    repo.write("src/app.ts", 'import "./cache";\n');
    await assertSameAsFresh(repo.root, "a skip-worktree file written again, other bytes", ["listing"]);

    // Another case: a tracked name missing, an untracked one beside it (case-sensitive file systems).
    fs.renameSync(path.join(repo.root, "src/retry.ts"), path.join(repo.root, "src/Retry.ts"));
    await assertSameAsFresh(repo.root, "a source renamed to another case", ["listing"]);
    fs.renameSync(path.join(repo.root, "docs"), path.join(repo.root, "Docs"));
    await assertSameAsFresh(repo.root, "a folder renamed to another case", ["listing"]);

    // The same name in NFD: Git lists the NFC entry as deleted and the NFD one as untracked.
    fs.renameSync(path.join(repo.root, "src/caf\u00e9.ts"), path.join(repo.root, "src/cafe\u0301.ts"));
    await assertSameAsFresh(repo.root, "a source renamed to its NFD spelling", ["listing"]);
    repo.write("src/cafe\u0301.ts", 'import "./Retry";\n');
    await assertSameAsFresh(repo.root, "the NFD file edited", ["contents", "listing"]);
    await assertSameAsFresh(repo.root, "settling", ["warm", "contents", "listing"]);
    await assertSameAsFresh(repo.root, "settled again: the warm path over all of the above", ["warm"]);
  } finally {
    repo.dispose();
  }
});

test("outside Git the walk's index follows folder, .gitignore and content changes", async () => {
  const root = tempFolder("docket-index-walk-");
  try {
    for (const [file, content] of Object.entries(TREE)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), content);
    }
    await assertSameAsFresh(root, "cold", ["cold"]);
    await assertSameAsFresh(root, "second", ["warm", "listing"]);
    await assertSameAsFresh(root, "nothing changed", ["warm"]);
    fs.writeFileSync(path.join(root, "src/new.ts"), 'import "./retry";\n');
    await assertSameAsFresh(root, "new file", ["listing"]);
    fs.writeFileSync(path.join(root, "src/new.ts"), 'import "./app";\n');
    await assertSameAsFresh(root, "content", ["contents", "listing"]);
    fs.mkdirSync(path.join(root, "dist"));
    fs.writeFileSync(path.join(root, "dist/x.ts"), "ignored\n");
    await assertSameAsFresh(root, "ignored folder");
    fs.writeFileSync(path.join(root, ".gitignore"), "*.log\n");
    await assertSameAsFresh(root, "ignore rules changed", ["listing"]);
    fs.mkdirSync(path.join(root, ".git"));
    await assertSameAsFresh(root, "a .git appeared: Git is asked again", ["listing"]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

/** An index file taken apart as docs/performance.md describes it (format line, seal, header, blocks). */
interface IndexParts {
  format: string;
  header: Record<string, unknown>;
  files: string[];
  directories: string[];
  stamps: string[];
  readPositions: number[];
  edges: number[];
}

function uint32List(bytes: Buffer, start: number, count: number): number[] {
  return Array.from({ length: count }, (_, at) => bytes.readUInt32LE(start + at * 4));
}

function readParts(file: string): IndexParts {
  const bytes = fs.readFileSync(file);
  const first = bytes.indexOf(0x0a);
  const format = bytes.toString("latin1", 0, first);
  const body = bytes.subarray(first + 66);
  const newline = body.indexOf(0x0a);
  const header = JSON.parse(body.toString("utf8", 0, newline)) as Record<string, unknown>;
  const counts = header.counts as { files: number; directories: number; reads: number; imports: number };
  const [filesBytes, directoriesBytes, stampsBytes] = header.bytes as [number, number, number];
  let at = newline + 1;
  const block = (size: number, count: number): string[] => {
    const text = body.toString("utf8", at, at + size);
    at += size;
    return count === 0 ? [] : text.split("\u0000");
  };
  const files = block(filesBytes, counts.files);
  const directories = block(directoriesBytes, counts.directories);
  const stamps = block(stampsBytes, counts.reads);
  const readPositions = uint32List(body, at, counts.reads);
  const edges = uint32List(body, at + counts.reads * 4, counts.imports * 2);
  return { format, header, files, directories, stamps, readPositions, edges };
}

/** Writes the parts back with a matching seal (the sizes in the header are what `parts` say unless `keepSizes`). */
function writeParts(file: string, parts: IndexParts, keepSizes = false): void {
  const text = (values: string[]): Buffer => Buffer.from(values.join("\u0000"), "utf8");
  const uint32 = (values: number[]): Buffer => {
    const block = Buffer.alloc(values.length * 4);
    values.forEach((value, at) => block.writeUInt32LE(value, at * 4));
    return block;
  };
  const blocks = [text(parts.files), text(parts.directories), text(parts.stamps)];
  if (!keepSizes) {
    parts.header.counts = { files: parts.files.length, directories: parts.directories.length, reads: parts.readPositions.length, imports: parts.edges.length / 2 };
    parts.header.bytes = blocks.map((block) => block.length);
  }
  const body = Buffer.concat([Buffer.from(`${JSON.stringify(parts.header)}\n`, "utf8"), ...blocks, uint32(parts.readPositions), uint32(parts.edges)]);
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`${parts.format}\n${createHash("sha256").update(body).digest("hex")}\n`, "latin1"), body]));
}

function reseal(file: string, edit: (parts: IndexParts) => void): void {
  const parts = readParts(file);
  edit(parts);
  writeParts(file, parts);
}

test("a garbled, oversized or forged index is ignored and rebuilt, never trusted", async () => {
  const repo = tempRepo({ files: TREE });
  try {
    const fresh = canonicalize(await buildSnapshot(repo.root));
    await freshBuild(repo.root);
    const file = indexFile(repo.root);

    // The index read back as written is used as it is (the checks below are not vacuous); a build
    // that met racy stamps settles them on the next one.
    if ((await freshBuild(repo.root)).tier !== "warm") assert.equal((await freshBuild(repo.root)).tier, "warm");
    const pristine = fs.readFileSync(file);
    assert.equal((await freshBuild(repo.root)).tier, "warm");
    const expectCold = async (what: string): Promise<void> => {
      const rebuilt = await freshBuild(repo.root);
      assert.equal(rebuilt.tier, "cold", what);
      assert.equal(rebuilt.snapshot, fresh, what);
      fs.writeFileSync(file, pristine);
    };

    // One bit flipped anywhere — format line, seal, header, the path blocks, the stamps, the binary
    // positions at the end: the format line or the seal no longer matches.
    for (const at of [0, 30, 90, 150, Math.floor(pristine.length / 2), pristine.length - 40, pristine.length - 10, pristine.length - 1]) {
      const bytes = Buffer.from(pristine);
      bytes[at] = (bytes[at] as number) ^ 0x04;
      fs.writeFileSync(file, bytes);
      await expectCold(`bit flipped at byte ${at} of ${pristine.length}`);
    }
    // Torn: cut anywhere, or nothing at all.
    for (const length of [0, 10, 100, Math.floor(pristine.length / 2), pristine.length - 1]) {
      fs.writeFileSync(file, pristine.subarray(0, length));
      await expectCold(`cut to ${length} bytes`);
    }
    // Another version of the format, with a body that would otherwise pass.
    fs.writeFileSync(file, Buffer.concat([Buffer.from("docket/router-index/v1\n"), pristine.subarray(pristine.indexOf(0x0a) + 1)]));
    await expectCold("version line v1");

    // Forged but sealed: paths that leave the workspace, positions past the lists, sizes that do
    // not add up, another root, unknown fields.
    const forgeries: Array<[string, (parts: IndexParts) => void]> = [
      ["a listed file outside", (parts) => parts.files.push("../outside.ts")],
      ["a read file outside", (parts) => (parts.files[parts.readPositions[0] as number] = "../../etc/passwd")],
      ["an absolute file", (parts) => (parts.files[0] = "/etc/passwd")],
      ["an empty path", (parts) => parts.files.push("")],
      ["a `.` segment", (parts) => (parts.files[0] = `./${parts.files[0] as string}`)],
      ["a folder outside", (parts) => parts.directories.push("src/../..")],
      ["a read position past the files", (parts) => (parts.readPositions[0] = 1_000_000)],
      ["an import edge past the files", (parts) => (parts.edges[1] = parts.files.length)],
      ["another root", (parts) => (parts.header.root = "/somewhere/else")],
      ["an unknown field", (parts) => (parts.header.unknownField = true)],
      ["an unknown module kind", (parts) => ((parts.header.snapshot as { modules: Array<{ kind: string }> }).modules[0]!.kind = "bazel-target")],
      ["a hot path with an extra field", (parts) => ((parts.header.snapshot as { hotPaths: Array<Record<string, unknown>> }).hotPaths.push({ path: "src", hint: "x", extra: 1 }))],
    ];
    // Taken apart and put back unchanged, the index is still used: the forgeries below fail for
    // what they change, not for how this test writes them.
    reseal(file, () => undefined);
    assert.deepEqual(fs.readFileSync(file), pristine);
    assert.equal((await freshBuild(repo.root)).tier, "warm");
    for (const [what, forge] of forgeries) {
      reseal(file, forge);
      await expectCold(what);
    }
    const sized: Array<[string, (parts: IndexParts) => void]> = [
      ["one file more than counted", (parts) => parts.files.push("src/extra.ts")],
      ["a block size off by one", (parts) => ((parts.header.bytes as number[])[0] = ((parts.header.bytes as number[])[0] as number) + 1)],
      ["one import less than counted", (parts) => parts.edges.splice(0, 2)],
    ];
    for (const [what, forge] of sized) {
      const parts = readParts(file);
      forge(parts);
      writeParts(file, parts, true);
      await expectCold(what);
    }
    let build = await freshBuild(repo.root);
    assert.equal(build.tier, "warm", "the pristine index is used again");

    // The facts file (read only to rebuild) garbled after a change: a cold build, never wrong facts.
    await freshBuild(repo.root);
    const facts = path.join(repo.root, ".docket", INDEX_FOLDER, DETAILS_FILE);
    fs.writeFileSync(facts, fs.readFileSync(facts, "utf8").replace('"role":"source"', '"role":"sourcE"'));
    repo.write("src/app.ts", 'import "./retry.js";\n');
    build = await freshBuild(repo.root);
    assert.equal(build.tier, "cold");
    assert.equal(build.snapshot, canonicalize(await buildSnapshot(repo.root)));

    // Oversized (sparse, so the test stays cheap): not read at all.
    fs.rmSync(file);
    fs.writeFileSync(file, "");
    fs.truncateSync(file, 300 * 1024 * 1024);
    build = await freshBuild(repo.root);
    assert.equal(build.tier, "cold");
    assert.equal(build.snapshot, canonicalize(await buildSnapshot(repo.root)));
    assert.ok(fs.statSync(file).size < 1024 * 1024, "replaced by a real index");
  } finally {
    repo.dispose();
  }
});

test("a symbolic link at .docket or at the index file is neither read nor written through", async () => {
  const repo = tempRepo({ files: TREE });
  const elsewhere = tempFolder("docket-index-elsewhere-");
  try {
    // A linked .docket leading to a folder that holds a (stale, foreign) index.
    const other = tempRepo({ files: { "x.ts": "export {};\n" } });
    try {
      await freshBuild(other.root);
      fs.cpSync(path.join(other.root, ".docket"), path.join(elsewhere, "docket"), { recursive: true });
    } finally {
      other.dispose();
    }
    const before = fs.readFileSync(path.join(elsewhere, "docket", INDEX_FOLDER, INDEX_FILE));
    fs.symlinkSync(path.join(elsewhere, "docket"), path.join(repo.root, ".docket"));
    // (Git lists the link itself as a file, as it always did.)
    const fresh = canonicalize(await buildSnapshot(repo.root));
    let build = await freshBuild(repo.root);
    assert.equal(build.tier, "cold");
    assert.equal(build.snapshot, fresh);
    assert.deepEqual(fs.readFileSync(path.join(elsewhere, "docket", INDEX_FOLDER, INDEX_FILE)), before, "nothing written through the link");
    fs.rmSync(path.join(repo.root, ".docket"));

    // The index file itself a link to a file outside.
    await freshBuild(repo.root);
    const target = path.join(elsewhere, "target.json");
    fs.copyFileSync(indexFile(repo.root), target);
    const targetBytes = fs.readFileSync(target);
    fs.rmSync(indexFile(repo.root));
    fs.symlinkSync(target, indexFile(repo.root));
    build = await freshBuild(repo.root);
    assert.equal(build.tier, "cold");
    assert.deepEqual(fs.readFileSync(target), targetBytes, "the link's target is untouched");
    assert.ok(!fs.lstatSync(indexFile(repo.root)).isSymbolicLink(), "the link is replaced by a real file");

    // The index folder a link to a folder outside the workspace holding this workspace's own index.
    await freshBuild(repo.root);
    const indexFolder = path.join(repo.root, ".docket", INDEX_FOLDER);
    const outsideFolder = path.join(elsewhere, "router-index");
    fs.cpSync(indexFolder, outsideFolder, { recursive: true });
    fs.rmSync(indexFolder, { recursive: true });
    fs.symlinkSync(outsideFolder, indexFolder);
    const outsideBytes = fs.readFileSync(path.join(outsideFolder, INDEX_FILE));
    build = await freshBuild(repo.root);
    assert.equal(build.tier, "cold");
    assert.equal(build.snapshot, canonicalize(await buildSnapshot(repo.root)));
    assert.deepEqual(fs.readFileSync(path.join(outsideFolder, INDEX_FILE)), outsideBytes, "nothing written through the folder link");
  } finally {
    repo.dispose();
    fs.rmSync(elsewhere, { recursive: true, force: true });
  }
});

test("a read-only workspace still plans (without an index)", async (context) => {
  if (process.getuid?.() === 0) {
    context.skip("root ignores folder permissions");
    return;
  }
  const repo = tempRepo({ files: TREE });
  try {
    fs.chmodSync(repo.root, 0o555);
    assert.equal(await plans(repo.root, true), await plans(repo.root, false));
    assert.ok(!fs.existsSync(path.join(repo.root, ".docket")));
  } finally {
    fs.chmodSync(repo.root, 0o755);
    repo.dispose();
  }
});

test("read-only modules (Restricted Mode) plan alike and write nothing under .docket/", async () => {
  const repo = tempRepo({ files: TREE });
  try {
    const planner = new WorkspacePlanner(repo.root, PACKAGE_ROOT, READ_ONLY_ROUTER_MODULES);
    const first = canonicalize(await planner.plan(TASKS[0] as string, null));
    assert.equal(first, canonicalize(await new WorkspacePlanner(repo.root, PACKAGE_ROOT, { ...ROUTER_MODULES, loadCatalogue, createCache: (workspace: string) => ({ invalidate: () => undefined, get: () => buildSnapshot(workspace) }) }).plan(TASKS[0] as string, null)));
    repo.write("src/retry.ts", "export const retry = 2;\n");
    planner.invalidate(["src/retry.ts"]);
    assert.equal(canonicalize(await planner.plan(TASKS[1] as string, null)), (await plans(repo.root, false)).split("\n")[1]);
    assert.equal(fs.existsSync(path.join(repo.root, ".docket")), false);
  } finally {
    repo.dispose();
  }
});

test("the first format's index file is removed when an index is written beside it, and never read", async () => {
  const repo = tempRepo({ files: TREE });
  try {
    await freshBuild(repo.root);
    const legacy = path.join(repo.root, ".docket", INDEX_FOLDER, "snapshot-index.json");
    fs.writeFileSync(legacy, "docket/router-index/v1\n");
    repo.write("src/app.ts", 'import "./retry.js";\n');
    const build = await freshBuild(repo.root);
    assert.notEqual(build.tier, "warm");
    assert.equal(build.snapshot, canonicalize(await buildSnapshot(repo.root)));
    assert.equal(fs.existsSync(legacy), false);
  } finally {
    repo.dispose();
  }
});
