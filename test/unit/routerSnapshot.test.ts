// The Router's workspace snapshot, pure parts: manifests, technologies, rule files, hot paths,
// the import graph, caps, bad input, and independence from listing order (in-memory file system).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import * as path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { canonicalize, hashValue } from "../../server/ledger/canonicalJson";
import { DocketError } from "../../server/errors";
import { ErrorCodes } from "../../server/protocol/messages";
import { WorkspaceSnapshot } from "../../server/router/planSchema";
import { buildSnapshot, snapshotFromFiles, type SnapshotFs, type WalkEntry } from "../../server/router/snapshot";
import { findHotPaths, HOT_WORDS, nameWords } from "../../server/router/snapshot/hotPaths";
import { readManifest } from "../../server/router/snapshot/manifests";
import { relativeSpecifiers, resolveSpecifier } from "../../server/router/snapshot/importGraph";
import { readTomlManifest, tomlKeysAt, tomlStringAt, tomlStrings, tomlTableAt } from "../../server/router/snapshot/toml";
import { seededShuffle } from "../support/shuffle";

function fromRecord(record: Readonly<Record<string, string | Buffer>>, options: Parameters<typeof snapshotFromFiles>[3] = {}) {
  const read = (file: string): Buffer | null => {
    const value = record[file];
    return value === undefined ? null : Buffer.isBuffer(value) ? value : Buffer.from(value, "utf8");
  };
  return snapshotFromFiles(Object.keys(record), read, "git", options);
}

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

const MONOREPO: Record<string, string> = {
  "package.json": JSON.stringify({ name: "shop", private: true, workspaces: ["packages/*"], devDependencies: { typescript: "5", jest: "29" } }),
  "packages/web/package.json": JSON.stringify({ name: "@shop/web", dependencies: { react: "18", next: "14" } }),
  "packages/api/package.json": JSON.stringify({ name: "@shop/api", dependencies: { express: "4" } }),
  "packages/api/src/index.ts": 'import { route } from "./router";\nexport * from "./payments/webhook.js";\n',
  "packages/api/src/router.ts": 'const util = require("../lib/util");\nimport("./lazy");\nimport "lodash";\n',
  "packages/api/src/lazy.tsx": "export default 1;\n",
  "packages/api/src/payments/webhook.ts": 'import { x } from "../../../../outside";\nimport y from "./missing";\n',
  "packages/api/lib/util/index.js": "module.exports = {};\n",
  "services/billing/go.mod": "module example.com/billing\n\ngo 1.22\n\nrequire (\n\tgithub.com/gin-gonic/gin v1.10.0 // indirect\n)\n",
  "services/billing/main.go": "package main\n",
  "crates/Cargo.toml": '[workspace]\nmembers = [\n  "core",\n  "cli",\n]\n',
  "crates/core/Cargo.toml": '[package]\nname = "shop-core" # the core\n\n[dependencies]\ntokio = { version = "1" }\n[dependencies.axum]\nversion = "0.7"\n',
  "ml/pyproject.toml": '[project]\nname = "shop-ml"\ndependencies = [\n  "Django>=4",\n  "numpy",\n]\n',
  "ml/requirements-dev.txt": "# dev\npytest==8\n-r requirements.txt\n",
  "jvm/pom.xml": "<project><parent><artifactId>parent</artifactId></parent><artifactId>shop-jvm</artifactId><dependencies><dependency><artifactId>spring-boot-starter</artifactId></dependency></dependencies></project>",
  "android/settings.gradle.kts": 'rootProject.name = "shop-android"\ninclude(":app", ":libs:core")\n',
  "android/app/build.gradle.kts": 'plugins { kotlin("android") }\n',
  "dotnet/Shop.Api.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>',
  "stats/DESCRIPTION": "Package: shopstats\nVersion: 0.1\n",
  "stats/R/model.R": "f <- function() 1\n",
  "AGENTS.md": "# rules\n",
  "packages/api/CLAUDE.md": "# api rules\n",
  ".github/copilot-instructions.md": "be nice\n",
  ".cursor/rules/style.mdc": "style\n",
  "docs/AGENTS.txt": "not a rule file\n",
  "tsconfig.json": "{}",
};

// A top-level folder is a `directory` module unless a manifest declares a module at that very path.
test("a monorepo snapshot: files, directories, modules of every manifest kind, and the schema", () => {
  const snapshot = fromRecord(MONOREPO);
  WorkspaceSnapshot.parse(snapshot);
  assert.equal(snapshot.format, "docket/router-snapshot/v1");
  assert.deepEqual(snapshot.files, [...Object.keys(MONOREPO)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  assert.ok(snapshot.directories.includes("packages/api/src/payments"));
  assert.ok(snapshot.directories.includes(".github"));
  const modules = snapshot.modules.map((entry) => `${entry.kind} ${entry.name} @${entry.path} <${entry.manifest ?? "-"}>`);
  assert.deepEqual(modules, [
    "npm-package shop @. <package.json>",
    "directory .cursor @.cursor <->",
    "directory .github @.github <->",
    "gradle-project shop-android @android <android/settings.gradle.kts>",
    "gradle-project app @android/app <android/app/build.gradle.kts>",
    "gradle-project core @android/libs/core <android/settings.gradle.kts>",
    "directory crates @crates <->",
    "cargo-crate shop-core @crates/core <crates/core/Cargo.toml>",
    "directory docs @docs <->",
    "dotnet-project Shop.Api @dotnet <dotnet/Shop.Api.csproj>",
    "maven-module shop-jvm @jvm <jvm/pom.xml>",
    "python-package shop-ml @ml <ml/pyproject.toml>",
    "directory packages @packages <->",
    "npm-package @shop/api @packages/api <packages/api/package.json>",
    "npm-package @shop/web @packages/web <packages/web/package.json>",
    "directory services @services <->",
    "go-module example.com/billing @services/billing <services/billing/go.mod>",
    "directory stats @stats <->",
  ]);
});

test("technologies use canonical spellings and cite their sources", () => {
  const snapshot = fromRecord(MONOREPO);
  const byName = new Map(snapshot.technologies.map((entry) => [entry.name, entry.sources]));
  assert.deepEqual([...byName.keys()], [
    "ASP.NET Core", "Axum", "C#", "Django", "Express", "Gin", "Go", "Java", "JavaScript", "Jest", "Kotlin", "Next.js",
    "NumPy", "Python", "R", "React", "Rust", "Spring Boot", "Tokio", "TypeScript", "pytest",
  ]);
  assert.deepEqual(byName.get("R"), ["stats/DESCRIPTION", "stats/R/model.R"]);
  assert.deepEqual(byName.get("Go"), ["services/billing/go.mod", "services/billing/main.go"]);
  assert.deepEqual(byName.get("React"), ["packages/web/package.json"]);
  // At most three files cited by extension, the first in code-unit order, plus every manifest.
  assert.deepEqual(byName.get("TypeScript"), ["package.json", "packages/api/src/index.ts", "packages/api/src/lazy.tsx", "packages/api/src/payments/webhook.ts", "tsconfig.json"]);
});

test("rule files are found by name and place and recorded by sha256", () => {
  const snapshot = fromRecord(MONOREPO);
  assert.deepEqual(snapshot.ruleFiles, [
    { path: ".cursor/rules/style.mdc", sha256: sha("style\n") },
    { path: ".github/copilot-instructions.md", sha256: sha("be nice\n") },
    { path: "AGENTS.md", sha256: sha("# rules\n") },
    { path: "packages/api/CLAUDE.md", sha256: sha("# api rules\n") },
  ]);
});

test("relative imports resolve to listed files (extensions, index files, .js for .ts); others are dropped", () => {
  const snapshot = fromRecord(MONOREPO);
  assert.deepEqual(snapshot.imports, [
    { from: "packages/api/src/index.ts", to: "packages/api/src/payments/webhook.ts" },
    { from: "packages/api/src/index.ts", to: "packages/api/src/router.ts" },
    { from: "packages/api/src/router.ts", to: "packages/api/lib/util/index.js" },
    { from: "packages/api/src/router.ts", to: "packages/api/src/lazy.tsx" },
  ]);
  assert.deepEqual(relativeSpecifiers('export { a } from "./a";\nimport b from \'../b\';\nrequire( "./c" );\nimport x from "pkg";'), ["./a", "../b", "./c"]);
  const listed = new Set(["src/a.ts", "src/dir/index.tsx", "src/m.mts", "index.js"]);
  assert.equal(resolveSpecifier("src/x.ts", "./a.js", listed), "src/a.ts");
  assert.equal(resolveSpecifier("src/x.ts", "./dir", listed), "src/dir/index.tsx");
  assert.equal(resolveSpecifier("src/x.ts", "./m.mjs", listed), "src/m.mts");
  assert.equal(resolveSpecifier("src/x.ts", "..", listed), "index.js");
  assert.equal(resolveSpecifier("src/x.ts", "../../etc/passwd", listed), null);
});

test("hot-path hints: documented words as whole name words, shallowest place, index only as a folder", () => {
  const { hotPaths } = findHotPaths(
    ["bench/cache/x.ts", "src/index.ts", "src/index/build.ts", "src/renderLoop.ts", "src/webhook.ts", "src/hotel.ts", "src/queryParser.test.ts"],
    100,
  );
  assert.deepEqual(hotPaths, [
    { path: "bench", hint: 'the name has "bench"' },
    { path: "src/index", hint: 'the name has "index"' },
    { path: "src/queryParser.test.ts", hint: 'the name has "parser", "query"' },
    { path: "src/renderLoop.ts", hint: 'the name has "loop", "render"' },
  ]);
  const capped = findHotPaths(["a/cache.ts", "b/cache.ts", "c/cache.ts"], 2);
  assert.equal(capped.total, 3);
  assert.equal(capped.hotPaths.length, 2);
});

test("listing order never changes the bytes, and snapshotSha256 covers every other field", () => {
  const reference = fromRecord(MONOREPO);
  const keys = Object.keys(MONOREPO);
  for (let seed = 1; seed <= 5; seed += 1) {
    const shuffled = seededShuffle(keys, seed);
    const record: Record<string, string> = {};
    for (const key of shuffled) record[key] = MONOREPO[key] as string;
    assert.equal(canonicalize(fromRecord(record)), canonicalize(reference));
  }
  const { snapshotSha256, ...rest } = reference;
  assert.equal(snapshotSha256, hashValue(rest));
});

test("bad input: non-UTF-8 and malformed manifests, unreadable files, invalid paths are skipped with why", () => {
  const latin1 = Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]);
  const snapshot = snapshotFromFiles(
    ["go.mod", "web/package.json", "api/package.json", "AGENTS.md", "/etc/passwd", "a/../b", "ok.txt", "ok.txt"],
    (file) => (file === "web/package.json" ? latin1 : file === "api/package.json" ? Buffer.from("{ nope") : file === "AGENTS.md" ? null : Buffer.from("")),
    "walk",
  );
  WorkspaceSnapshot.parse(snapshot);
  assert.deepEqual(snapshot.files, ["AGENTS.md", "api/package.json", "go.mod", "ok.txt", "web/package.json"]);
  assert.deepEqual(snapshot.skipped, [
    { path: "/etc/passwd", why: "not a relative path inside the workspace" },
    { path: "AGENTS.md", why: "could not be read" },
    { path: "a/../b", why: "not a relative path inside the workspace" },
    { path: "api/package.json", why: "package.json is not a JSON object" },
    { path: "go.mod", why: "go.mod has no module line" },
    { path: "web/package.json", why: "manifest is not valid UTF-8; not parsed" },
  ]);
  // The manifests still evidence their language.
  assert.deepEqual(snapshot.technologies.map((entry) => entry.name), ["Go", "JavaScript"]);
});

test("caps are applied in code-unit order and said in limits", () => {
  const files: Record<string, string> = {};
  for (let index = 0; index < 30; index += 1) files[`src/f${String(index).padStart(2, "0")}.ts`] = `import "./f${String(index + 1).padStart(2, "0")}";\n${"x".repeat(index * 10)}`;
  const snapshot = fromRecord(files, { maxFiles: 20, maxImportFiles: 10, maxImportBytesPerFile: 100, maxSkipped: 1 });
  assert.equal(snapshot.files.length, 20);
  assert.equal(snapshot.files[19], "src/f19.ts");
  assert.deepEqual(snapshot.limits, [
    "files: 30 listed, first 20 kept",
    "imports: 20 source files, first 10 parsed",
    "imports: 1 source files longer than 100 bytes, only their start scanned",
  ]);
  assert.equal(snapshot.imports.length, 10);
  const many = snapshotFromFiles(["a/package.json", "b/package.json", "c/package.json"], () => Buffer.from("["), "git", { maxSkipped: 2 });
  assert.equal(many.skipped.length, 2);
  assert.deepEqual(many.limits, ["skipped: 3 entries, first 2 kept"]);
});

test("TOML manifests are read by a real TOML parser; one that is not TOML is a problem naming its line; no manifest reader throws", () => {
  const read = readTomlManifest('name = "x" # c\n[a."b.c"]\nk = [ "1", # one\n "2" ]\n[[bin]]\nname = \'tool\'\n', "Cargo.toml");
  assert.ok(read.ok);
  assert.equal(tomlStringAt(read.value, "name"), "x");
  assert.deepEqual(tomlStrings(tomlTableAt(read.value, "a", "b.c")?.["k"]), ["1", "2"]);
  assert.deepEqual(tomlKeysAt(read.value, "a"), ["b.c"]);
  assert.equal(tomlStringAt(read.value, "bin", "name"), null, "an array of tables is not a table");
  const broken = readTomlManifest('name = "x"\nbad line\n', "Cargo.toml");
  assert.ok(!broken.ok);
  assert.match(broken.problem, /^Cargo\.toml is not valid TOML: .*\(line 2, column \d+\)$/u);
  const facts = readManifest("crates/x/Cargo.toml", "Cargo.toml", '[package]\nname = "x"\nbad line\n');
  assert.deepEqual({ modules: facts.modules, technologies: facts.technologies }, { modules: [], technologies: ["Rust"] });
  assert.match(facts.problem ?? "", /not valid TOML/u);
  // Dependencies wherever Cargo and PEP 621 / Poetry put them.
  const cargo = readManifest(
    "Cargo.toml",
    "Cargo.toml",
    '[package]\nname = "c"\n[dependencies]\nserde.version = "1"\n[target.\'cfg(unix)\'.dev-dependencies]\ntokio = "1"\n[workspace.dependencies.axum]\nversion = "0.7"\n',
  );
  assert.deepEqual(cargo.modules.map((entry) => entry.name), ["c"]);
  assert.deepEqual(
    [...cargo.technologies].sort(),
    [...readManifest("Cargo.toml", "Cargo.toml", '[dependencies]\nserde = "1"\ntokio = "1"\naxum = "0.7"\n').technologies].sort(),
  );
  assert.ok(cargo.technologies.includes("Tokio") && cargo.technologies.includes("Axum"));
  const poetry = readManifest("pyproject.toml", "pyproject.toml", '[tool.poetry]\nname = "p"\n[tool.poetry.group.dev.dependencies]\ndjango = "*"\n');
  assert.deepEqual(poetry.modules.map((entry) => entry.name), ["p"]);
  assert.deepEqual(poetry.technologies, readManifest("requirements.txt", "requirements", "django\n").technologies);
  for (const text of ["", "\u0000", "[[[", "{", "<project>", "module", "include(", "a = [".repeat(5_000)]) {
    for (const file of ["package.json", "go.mod", "Cargo.toml", "pyproject.toml", "pom.xml", "settings.gradle", "composer.json", "Gemfile", "setup.py"]) {
      const kind = file === "settings.gradle" ? "gradle-settings" : file;
      assert.doesNotThrow(() => readManifest(file, kind as Parameters<typeof readManifest>[1], text));
    }
  }
});

// ── The walk, through an in-memory file system whose listing order a seed decides ──────────────

type Node = { kind: "file"; content: Buffer } | { kind: "dir"; children: Map<string, Node> } | { kind: "symlink"; target: string };

function memoryTree(files: Readonly<Record<string, string | Buffer>>, links: Readonly<Record<string, string>> = {}): Node {
  const root: Node = { kind: "dir", children: new Map() };
  const place = (relative: string, node: Node): void => {
    const parts = relative.split("/");
    let current = root;
    for (const part of parts.slice(0, -1)) {
      let next = current.children.get(part);
      if (next === undefined) {
        next = { kind: "dir", children: new Map() };
        current.children.set(part, next);
      }
      if (next.kind !== "dir") throw new Error(`not a folder: ${part}`);
      current = next;
    }
    current.children.set(parts[parts.length - 1] as string, node);
  };
  for (const [relative, content] of Object.entries(files)) place(relative, { kind: "file", content: Buffer.isBuffer(content) ? content : Buffer.from(content) });
  for (const [relative, target] of Object.entries(links)) place(relative, { kind: "symlink", target });
  return root;
}


const MEMORY_ROOT = path.resolve("/memory/workspace");

function memoryFs(tree: Node, seed: number): SnapshotFs {
  const find = (absolute: string): Node | undefined => {
    const relative = path.relative(MEMORY_ROOT, absolute);
    if (relative.startsWith("..")) return undefined;
    let current: Node | undefined = tree;
    for (const part of relative === "" ? [] : relative.split(path.sep)) current = current?.kind === "dir" ? current.children.get(part) : undefined;
    return current;
  };
  const missing = (): Error => Object.assign(new Error("ENOENT"), { code: "ENOENT" });
  const kind = (node: Node) => (node.kind === "dir" ? "directory" : node.kind);
  return {
    async readdir(absolute) {
      const node = find(absolute);
      if (node?.kind !== "dir") throw missing();
      const entries: WalkEntry[] = [...node.children.entries()].map(([name, child]) => ({ name: Buffer.from(name, "latin1"), kind: kind(child) }));
      return seededShuffle(entries, seed);
    },
    async lstat(absolute) {
      const node = find(absolute);
      if (node === undefined) throw missing();
      return { size: node.kind === "file" ? node.content.length : 0, mtimeMs: 0, kind: kind(node) };
    },
    async realpath(absolute) {
      const node = find(absolute);
      if (node === undefined) throw missing();
      return node.kind === "symlink" ? path.resolve(path.dirname(absolute), node.target) : absolute;
    },
    async readPrefix(absolute, maxBytes) {
      const node = find(absolute);
      if (node?.kind !== "file") throw missing();
      return node.content.subarray(0, maxBytes);
    },
  };
}

// Names are stored as latin1 so a test can put raw, non-UTF-8 bytes in a name.
const utf8Name = (name: string): string => Buffer.from(name, "utf8").toString("latin1");

const WALK_TREE = memoryTree(
  {
    ".gitignore": "dist/\n*.log\n!keep.log\n",
    "package.json": JSON.stringify({ name: "walked", dependencies: { vue: "3" } }),
    "src/app.ts": 'import "./lib";\n',
    "src/lib.ts": "export {};\n",
    "src/debug.log": "x",
    "src/keep.log": "kept by negation",
    "src/generated/.gitignore": "*\n!.gitignore\n!wanted.ts\n",
    "src/generated/junk.ts": "x",
    "src/generated/wanted.ts": "x",
    "dist/bundle.js": "x",
    ".git/HEAD": "ref: refs/heads/main\n",
    [utf8Name("docs/caf\u00e9.md")]: "unicode name",
    "docs/bad\u00ff.md": "latin1 byte in the name",
    "AGENTS.md": "rules",
  },
  { "linked/outside": "../../elsewhere", "CLAUDE.md": "AGENTS.md", "docs/AGENTS.md": "../../secret.md" },
);

test("the walk honours nested .gitignore files, skips .git, lists links without following, reports bad names", async () => {
  const snapshot = await buildSnapshot(MEMORY_ROOT, { lister: "walk", fsAdapter: memoryFs(WALK_TREE, 7) });
  WorkspaceSnapshot.parse(snapshot);
  assert.equal(snapshot.source, "walk");
  assert.deepEqual(snapshot.files, [
    ".gitignore",
    "AGENTS.md",
    "CLAUDE.md",
    "docs/AGENTS.md",
    "docs/caf\u00e9.md",
    "linked/outside",
    "package.json",
    "src/app.ts",
    "src/generated/.gitignore",
    "src/generated/wanted.ts",
    "src/keep.log",
    "src/lib.ts",
  ]);
  assert.deepEqual(snapshot.skipped, [
    { path: "docs/AGENTS.md", why: "symbolic link leads outside the workspace; not read" },
    { path: "docs/bad\ufffd.md", why: "file name is not valid UTF-8" },
  ]);
  // A link inside the workspace is read through (CLAUDE.md → AGENTS.md).
  assert.deepEqual(snapshot.ruleFiles.map((entry) => entry.path), ["AGENTS.md", "CLAUDE.md"]);
  assert.equal(snapshot.ruleFiles[0]?.sha256, snapshot.ruleFiles[1]?.sha256);
  assert.deepEqual(snapshot.imports, [{ from: "src/app.ts", to: "src/lib.ts" }]);
  assert.ok(snapshot.technologies.some((entry) => entry.name === "Vue"));
});

test("determinism: shuffled directory listings (several seeds) give byte-identical snapshot JSON", async () => {
  const outputs = new Set<string>();
  for (const seed of [1, 2, 3, 42, 1234, 99999]) {
    outputs.add(canonicalize(await buildSnapshot(MEMORY_ROOT, { lister: "walk", fsAdapter: memoryFs(WALK_TREE, seed) })));
  }
  assert.equal(outputs.size, 1);
});

test("the walk's listing cap stops at the same files whatever the listing order", async () => {
  const files: Record<string, string> = {};
  for (let index = 0; index < 40; index += 1) files[`d${index % 4}/f${index}.txt`] = "";
  const tree = memoryTree(files);
  const outputs = new Set<string>();
  for (const seed of [3, 5, 8]) {
    const snapshot = await buildSnapshot(MEMORY_ROOT, { lister: "walk", fsAdapter: memoryFs(tree, seed), maxFiles: 5, maxListed: 12 });
    assert.deepEqual(snapshot.limits, ["walk: stopped after listing 12 files", "files: 12 listed, first 5 kept"]);
    outputs.add(canonicalize(snapshot));
  }
  assert.equal(outputs.size, 1);
});

test("an unusable root is the one coded error", async () => {
  const tree = memoryTree({ "file.txt": "x" });
  for (const root of [path.join(MEMORY_ROOT, "missing"), path.join(MEMORY_ROOT, "file.txt")]) {
    await assert.rejects(buildSnapshot(root, { lister: "walk", fsAdapter: memoryFs(tree, 1) }), (error: unknown) => {
      assert.ok(error instanceof DocketError);
      assert.equal(error.code, ErrorCodes.snapshotUnavailable);
      return true;
    });
  }
});

/** Hot paths as the rule says them, one file and one folder at a time (no shortcuts). */
function hotPathsByTheRule(files: readonly string[]): Array<{ path: string; hint: string }> {
  const hot = new Set(HOT_WORDS);
  const hintOf = (segment: string, isFile: boolean): string | null => {
    const dot = segment.indexOf(".", 1);
    const stem = isFile && dot > 0 ? segment.slice(0, dot) : segment;
    const words = [...new Set(nameWords(stem).filter((word) => hot.has(word) && !(isFile && word === "index")))].sort();
    return words.length === 0 ? null : `the name has ${words.map((word) => `"${word}"`).join(", ")}`;
  };
  const found = new Map<string, string>();
  for (const file of files) {
    const segments = file.split("/");
    let covered = false;
    for (let depth = 1; depth < segments.length && !covered; depth += 1) {
      const hint = hintOf(segments[depth - 1] as string, false);
      if (hint !== null) {
        found.set(segments.slice(0, depth).join("/"), hint);
        covered = true;
      }
    }
    if (!covered) {
      const hint = hintOf(segments[segments.length - 1] as string, true);
      if (hint !== null) found.set(file, hint);
    }
  }
  return [...found.entries()].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)).map(([path, hint]) => ({ path, hint }));
}

test("hot paths: the shortcuts (ASCII names without a hot word, folders taken once) agree with the rule", () => {
  const part = fc.constantFrom("cache", "Cache", "CACHE", "parser", "Parser2", "myParser", "index", "İndex", "QUERY", "QUERİES", "KACHE", "src", "lib", "a", "b", "x.ts", "render.tsx", "index.ts", "perf", "Σ", "ß", "-", "_", "9");
  const segment = fc.array(part, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(""));
  const file = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join("/"));
  fc.assert(
    fc.property(fc.uniqueArray(file, { maxLength: 30 }), (files) => {
      const sorted = [...files].sort();
      assert.deepEqual([...findHotPaths(sorted, 1000).hotPaths], hotPathsByTheRule(sorted));
    }),
    { numRuns: 300 },
  );
});
