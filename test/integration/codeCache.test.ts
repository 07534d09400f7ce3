// The V8 code cache of the short-lived entries (server/codeCache/, docs/performance.md "A safe V8 code
// cache"): real `node dist/docket-hook.js` children with a temporary XDG_CACHE_HOME and real files.
// A cache is written by a first run and used by the second; answers are byte-identical with, without
// and while writing a cache; and every hostile or damaged cache, file or folder falls back to a
// correct answer without a crash. DOCKET_CODE_CACHE_DEBUG=1 makes the loader say what it did.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { cacheFileName, encodeCacheFile, decodeCacheFile, sha256With } from "../../server/codeCache/cacheFormat";
import { createHash } from "node:crypto";
import { tempFolder, tempRepo, type TempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const root = repoRoot();
const DIST = path.join(root, "dist");
const HOOK = path.join(DIST, "docket-hook.js");
const BUNDLE = "docket-hook.bundle.js";
const sha256 = sha256With(createHash);

let repo: TempRepo;
let template: string;
let scratch: string;

before(async () => {
  assert.ok(fs.existsSync(path.join(DIST, BUNDLE)), "dist/docket-hook.js is a code cache loader (node scripts/build.mjs)");
  repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath: path.join(repo.root, ".docket", "ledger.jsonl"), trusted: true });
  ledger.refresh();
  await ledger.turnOn();
  scratch = tempFolder("docket-code-cache-");
  template = path.join(scratch, "docket-template");
  fs.cpSync(path.join(repo.root, ".docket"), template, { recursive: true });
});

after(() => {
  (repo as TempRepo | undefined)?.dispose();
  if (typeof scratch === "string") fs.rmSync(scratch, { recursive: true, force: true });
});

let cacheCount = 0;
/** A fresh XDG_CACHE_HOME (not created: the first run creates its folders). */
function freshCacheHome(): string {
  cacheCount += 1;
  return path.join(scratch, `cache-${cacheCount}`);
}

const folderOf = (cacheHome: string): string => path.join(cacheHome, "docket", "code-cache");
const bundleSha256 = (): string => sha256(fs.readFileSync(path.join(DIST, BUNDLE))).toString("hex");
const cacheFileOf = (cacheHome: string): string => path.join(folderOf(cacheHome), cacheFileName(bundleSha256()));

type Event = "PreToolUse" | "PostToolUse" | "Stop";

function inputOf(event: Event, marker = "plain"): string {
  const cwd = repo.root;
  if (event === "PreToolUse") return JSON.stringify({ session_id: "s-cache", cwd, hook_event_name: event, tool_name: "Bash", tool_input: { command: `echo ${marker}` }, tool_use_id: "toolu_cache_pre" });
  if (event === "PostToolUse")
    return JSON.stringify({
      session_id: "s-cache",
      cwd,
      hook_event_name: event,
      tool_name: "Read",
      tool_input: { file_path: path.join(cwd, "src/a.ts") },
      tool_response: { file: { filePath: path.join(cwd, "src/a.ts"), content: `export const a = 1; // ${marker}\n` } },
      tool_use_id: "toolu_cache_post",
    });
  return JSON.stringify({ session_id: "s-cache", transcript_path: null, cwd, hook_event_name: event, stop_hook_active: false, last_assistant_message: `Done: ${marker}.` });
}

interface Run {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number | null;
  /** What the loader said (DOCKET_CODE_CACHE_DEBUG lines), in order. */
  readonly cache: readonly string[];
}

function envOf(cacheHome: string, extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: cacheHome, DOCKET_CODE_CACHE_DEBUG: "1", ...extra };
  if (!("DOCKET_CODE_CACHE" in extra)) delete env.DOCKET_CODE_CACHE;
  return env;
}

function resetWorkspace(): void {
  const folder = path.join(repo.root, ".docket");
  fs.rmSync(folder, { recursive: true, force: true });
  fs.cpSync(template, folder, { recursive: true });
}

function split(stderr: string): { stderr: string; cache: string[] } {
  const lines = stderr.split("\n");
  const prefix = `docket code cache: ${BUNDLE}: `;
  return { stderr: lines.filter((line) => !line.startsWith("docket code cache: ")).join("\n"), cache: lines.filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length)) };
}

function runHook(event: Event, cacheHome: string, options: { readonly marker?: string; readonly env?: Readonly<Record<string, string>>; readonly entry?: string } = {}): Run {
  resetWorkspace();
  const result = spawnSync(process.execPath, [options.entry ?? HOOK, "hook", "--host", "claude", event], { cwd: repo.root, input: inputOf(event, options.marker), env: envOf(cacheHome, options.env), encoding: "utf8" });
  return { stdout: result.stdout, status: result.status, ...split(result.stderr) };
}

/** The answer without any cache (the opt-out): every other run must match it byte for byte. */
const reference = new Map<Event, Run>();
function expected(event: Event): Run {
  let run = reference.get(event);
  if (run === undefined) {
    run = runHook(event, freshCacheHome(), { env: { DOCKET_CODE_CACHE: "0" } });
    assert.deepEqual(run.cache, ["off"]);
    reference.set(event, run);
  }
  return run;
}

function assertSameAnswer(run: Run, event: Event): void {
  const reference = expected(event);
  assert.equal(run.stdout, reference.stdout, `${event} stdout`);
  assert.equal(run.status, reference.status, `${event} exit code`);
  assert.equal(run.stderr, reference.stderr, `${event} stderr`);
}

function modeOf(file: string): number {
  return fs.lstatSync(file).mode & 0o777;
}

test("a first run writes the cache after its answer and a second run uses it; answers are byte-identical with, without and while writing a cache", () => {
  for (const event of ["PreToolUse", "PostToolUse", "Stop"] as const) {
    const home = freshCacheHome();
    const first = runHook(event, home);
    assert.deepEqual(first.cache, ["missing", "written"], event);
    assertSameAnswer(first, event);
    const file = cacheFileOf(home);
    assert.ok(fs.lstatSync(file).isFile());
    assert.equal(modeOf(file) & 0o077, 0, "the cache file is private");
    assert.equal(modeOf(folderOf(home)), 0o700);
    assert.equal(modeOf(path.dirname(folderOf(home))), 0o700);
    // PostToolUse also loads the evidence bundle through its own loader: one cache per bundle.
    assert.ok(fs.readdirSync(folderOf(home)).every((name) => /^[0-9a-f]{64}-v[\d.]+-[\w]+-f1\.cache$/u.test(name)), "no temporary file is left");
    const bytes = fs.readFileSync(file);
    const second = runHook(event, home);
    assert.deepEqual(second.cache, ["hit"], event);
    assertSameAnswer(second, event);
    assert.ok(fs.readFileSync(file).equals(bytes), "a hit does not rewrite the cache");
    // The cache is shared by the events of one bundle: another event's run uses it too.
    const other = event === "Stop" ? "PreToolUse" : "Stop";
    const third = runHook(other, home);
    assert.deepEqual(third.cache, ["hit"]);
    assertSameAnswer(third, other);
  }
});

test("DOCKET_CODE_CACHE=0 neither reads nor writes a cache", () => {
  const home = freshCacheHome();
  const run = runHook("Stop", home, { env: { DOCKET_CODE_CACHE: "0" } });
  assert.deepEqual(run.cache, ["off"]);
  assert.equal(fs.existsSync(home), false);
});

/** A home whose cache the first run wrote. */
function warmHome(): string {
  const home = freshCacheHome();
  assert.deepEqual(runHook("PreToolUse", home).cache, ["missing", "written"]);
  return home;
}

test("a tampered payload, a truncated file or a header for another bundle is never given to V8, and is replaced", () => {
  const damages: Record<string, (bytes: Buffer) => Buffer> = {
    "tampered payload": (bytes) => {
      const copy = Buffer.from(bytes);
      copy[copy.length - 100] = (copy[copy.length - 100] as number) ^ 0xff;
      return copy;
    },
    truncated: (bytes) => bytes.subarray(0, bytes.length - 1000),
    "header only": (bytes) => bytes.subarray(0, 76),
    empty: () => Buffer.alloc(0),
    "another bundle's hash in the header": (bytes) => {
      const copy = Buffer.from(bytes);
      copy.fill(0xab, 8, 40);
      return copy;
    },
    "another format": (bytes) => {
      const copy = Buffer.from(bytes);
      copy.writeUInt32LE(2, 4);
      return copy;
    },
  };
  for (const [name, damage] of Object.entries(damages)) {
    const home = warmHome();
    const file = cacheFileOf(home);
    fs.writeFileSync(file, damage(fs.readFileSync(file)));
    for (const event of ["PreToolUse", "Stop"] as const) {
      const run = runHook(event, home);
      assertSameAnswer(run, event);
      if (event === "PreToolUse") assert.deepEqual(run.cache, ["damaged", "written"], name);
      else assert.deepEqual(run.cache, ["hit"], `${name}: replaced by a valid cache`);
    }
  }
});

test("a well-formed cache V8 refuses (another bundle's code under this bundle's hash) is rejected and replaced", () => {
  const home = warmHome();
  const file = cacheFileOf(home);
  const payload = decodeCacheFile(fs.readFileSync(file), bundleSha256(), sha256);
  assert.ok(payload !== null);
  // Code compiled for other source bytes, sealed with a correct header: only V8's own check remains.
  const script = new (require("node:vm") as typeof import("node:vm")).Script("(function () { return 1; })");
  fs.writeFileSync(file, encodeCacheFile(bundleSha256(), script.createCachedData(), sha256));
  const run = runHook("PreToolUse", home);
  assertSameAnswer(run, "PreToolUse");
  assert.deepEqual(run.cache, ["rejected", "written"]);
  assert.deepEqual(runHook("PreToolUse", home).cache, ["hit"]);
});

test("a cache named for other bytes is never opened", () => {
  const home = warmHome();
  const file = cacheFileOf(home);
  const other = path.join(folderOf(home), cacheFileName("ab".repeat(32)));
  fs.renameSync(file, other);
  const run = runHook("PreToolUse", home);
  assertSameAnswer(run, "PreToolUse");
  assert.deepEqual(run.cache, ["missing", "written"]);
});

test("a write prunes an earlier build's entry once it is 30 days old, and leaves a recent one", () => {
  const home = warmHome();
  const file = cacheFileOf(home);
  const stale = path.join(folderOf(home), cacheFileName("cd".repeat(32)));
  const recent = path.join(folderOf(home), cacheFileName("ef".repeat(32)));
  fs.copyFileSync(file, stale);
  fs.copyFileSync(file, recent);
  const longAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
  fs.utimesSync(stale, longAgo, longAgo);
  fs.rmSync(file);
  const run = runHook("PreToolUse", home);
  assertSameAnswer(run, "PreToolUse");
  assert.deepEqual(run.cache, ["missing", "written", "pruned 1"]);
  assert.ok(!fs.existsSync(stale));
  assert.ok(fs.existsSync(recent));
  assert.deepEqual(runHook("PreToolUse", home).cache, ["hit"]);
});

test("a cache file that is a link, or that group or others can write, is not read, and is replaced", () => {
  {
    const home = warmHome();
    const file = cacheFileOf(home);
    const elsewhere = path.join(scratch, `linked-${cacheCount}.cache`);
    fs.renameSync(file, elsewhere);
    fs.symlinkSync(elsewhere, file);
    const run = runHook("PreToolUse", home);
    assertSameAnswer(run, "PreToolUse");
    assert.deepEqual(run.cache, ["unusable", "written"]);
    assert.ok(fs.lstatSync(file).isFile(), "the link itself was replaced");
    assert.ok(fs.lstatSync(elsewhere).isFile(), "the link's target was not written through");
  }
  if (process.platform !== "win32") {
    const home = warmHome();
    const file = cacheFileOf(home);
    fs.chmodSync(file, 0o620);
    const run = runHook("PreToolUse", home);
    assertSameAnswer(run, "PreToolUse");
    assert.deepEqual(run.cache, ["unusable", "written"]);
    assert.equal(modeOf(file) & 0o077, 0);
  }
});

test("a cache folder that is a link, writable by others or someone else's is neither read nor written", { skip: process.platform === "win32" }, () => {
  const cases: Record<string, (home: string) => void> = {
    "code-cache is a link": (home) => {
      const real = path.join(scratch, `real-folder-${cacheCount}`);
      fs.renameSync(folderOf(home), real);
      fs.symlinkSync(real, folderOf(home));
    },
    "docket is a link": (home) => {
      const parent = path.dirname(folderOf(home));
      const real = path.join(scratch, `real-parent-${cacheCount}`);
      fs.renameSync(parent, real);
      fs.symlinkSync(real, parent);
    },
    "code-cache is world-writable": (home) => fs.chmodSync(folderOf(home), 0o777),
    "code-cache is group-writable": (home) => fs.chmodSync(folderOf(home), 0o770),
    "docket is world-writable": (home) => fs.chmodSync(path.dirname(folderOf(home)), 0o777),
  };
  if (typeof process.getuid === "function" && process.getuid() === 0) {
    // As root the owner can be changed for real: a folder of `nobody` is someone else's.
    cases["code-cache belongs to someone else"] = (home) => fs.chownSync(folderOf(home), 65534, 65534);
    cases["the cache file belongs to someone else"] = (home) => fs.chownSync(cacheFileOf(home), 65534, 65534);
  }
  for (const [name, spoil] of Object.entries(cases)) {
    const home = warmHome();
    const file = cacheFileOf(home);
    const before = fs.readFileSync(file);
    spoil(home);
    const run = runHook("PreToolUse", home);
    assertSameAnswer(run, "PreToolUse");
    if (name === "the cache file belongs to someone else") {
      assert.deepEqual(run.cache, ["unusable", "written"], name);
      assert.equal(fs.lstatSync(file).uid, process.getuid?.());
    } else {
      assert.deepEqual(run.cache, ["untrusted-folder", "not written"], name);
      assert.ok(fs.readFileSync(file).equals(before), `${name}: nothing was written`);
      assert.equal(fs.readdirSync(folderOf(home)).length, 1, `${name}: no temporary file`);
    }
  }
});

test("an unwritable cache location gives a correct answer and no cache", () => {
  // A regular file where the cache's base folder should be: no folder can be made below it (even as root).
  const blocked = path.join(scratch, `blocked-${cacheCount}`);
  fs.writeFileSync(blocked, "not a folder\n");
  const run = runHook("Stop", blocked);
  assertSameAnswer(run, "Stop");
  assert.deepEqual(run.cache, ["missing", "not written"]);
  if (process.platform !== "win32" && process.getuid?.() !== 0) {
    const home = warmHome();
    fs.rmSync(cacheFileOf(home));
    fs.chmodSync(folderOf(home), 0o500);
    try {
      const readOnly = runHook("Stop", home);
      assertSameAnswer(readOnly, "Stop");
      assert.deepEqual(readOnly.cache, ["missing", "not written"]);
    } finally {
      fs.chmodSync(folderOf(home), 0o700);
    }
  }
});

test("a relative XDG_CACHE_HOME is ignored (the home's .cache is used instead)", () => {
  const home = path.join(scratch, `home-${cacheCount}`);
  fs.mkdirSync(home);
  const run = runHook("PreToolUse", "relative/cache", { env: { HOME: home } });
  assertSameAnswer(run, "PreToolUse");
  assert.deepEqual(run.cache, ["missing", "written"]);
  assert.equal(fs.readdirSync(path.join(home, ".cache", "docket", "code-cache")).length, 1);
  assert.equal(fs.existsSync(path.join(repo.root, "relative")), false);
});

test("bundle bytes that are not the built ones get no cache and leave none", () => {
  const copy = path.join(scratch, "dist-copy");
  fs.mkdirSync(copy);
  for (const name of fs.readdirSync(DIST)) if (name.endsWith(".js")) fs.copyFileSync(path.join(DIST, name), path.join(copy, name));
  // Same length, other bytes: what V8's own header check would let through.
  const bundle = fs.readFileSync(path.join(copy, BUNDLE), "utf8");
  fs.writeFileSync(path.join(copy, BUNDLE), `${bundle.slice(0, -2)}\n\n`);
  const home = warmHome();
  const before = fs.readFileSync(cacheFileOf(home));
  const run = runHook("PreToolUse", home, { entry: path.join(copy, "docket-hook.js") });
  assert.equal(run.stdout, expected("PreToolUse").stdout);
  assert.deepEqual(run.cache, ["source-mismatch"]);
  assert.ok(fs.readFileSync(cacheFileOf(home)).equals(before));
});

test("eight concurrent first runs leave one valid cache and give the same answers", async () => {
  const home = freshCacheHome();
  resetWorkspace();
  const runs = await Promise.all(
    Array.from({ length: 8 }, () =>
      new Promise<{ stdout: string; status: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [HOOK, "hook", "--host", "claude", "PreToolUse"], { cwd: repo.root, env: envOf(home) });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
        child.on("error", reject);
        child.on("close", (status) => resolve({ stdout, status, stderr }));
        child.stdin.end(inputOf("PreToolUse"));
      }),
    ),
  );
  for (const run of runs) {
    assert.equal(run.stdout, expected("PreToolUse").stdout);
    assert.equal(run.status, expected("PreToolUse").status);
    assert.doesNotMatch(split(run.stderr).cache.join(","), /damaged|rejected|unusable/u);
  }
  assert.deepEqual(fs.readdirSync(folderOf(home)), [path.basename(cacheFileOf(home))], "one cache, no temporary files");
  assert.ok(decodeCacheFile(fs.readFileSync(cacheFileOf(home)), bundleSha256(), sha256) !== null);
  assert.deepEqual(runHook("PreToolUse", home).cache, ["hit"]);
});

test("a secret in a hook's input never reaches the cache file (V8's code cache holds code, not heap values)", () => {
  for (const event of ["PreToolUse", "PostToolUse", "Stop"] as const) {
    const marker = `DOCKETSECRET${createHash("sha256").update(`${event}${process.pid}`).digest("hex").slice(0, 24)}`;
    const home = freshCacheHome();
    const run = runHook(event, home, { marker });
    assert.deepEqual(run.cache, ["missing", "written"]);
    // Every cache the run left (PostToolUse's evidence bundle has its own).
    for (const name of fs.readdirSync(folderOf(home))) {
      const bytes = fs.readFileSync(path.join(folderOf(home), name));
      for (const encoding of ["latin1", "utf16le"] as const) {
        assert.equal(bytes.includes(Buffer.from(marker, encoding)), false, `${event}: the marker is in ${name} (${encoding})`);
        assert.equal(bytes.includes(Buffer.from(marker.slice(0, 12), encoding)), false, `${event}: part of the marker is in ${name} (${encoding})`);
      }
    }
    // The search itself finds what the cache does hold: string constants of the bundle's source.
    assert.ok(fs.readFileSync(cacheFileOf(home)).includes(Buffer.from("permissionDecision", "latin1")), "a source constant is found by the same search");
  }
});

test("the other cached entries (the tail and evidence bundles through the hook, `docket plan` and `docket status`) answer the same with, without and while writing a cache", () => {
  const cli = path.join(DIST, "docket.js");
  for (const bundle of ["docket-hook-tail", "docket-hook-evidence", "docket-cli-plan", "docket-cli-state"]) {
    assert.ok(fs.existsSync(path.join(DIST, `${bundle}.bundle.js`)), `${bundle}.js is a loader`);
  }
  const commands: Record<string, readonly string[]> = { "docket-cli-plan": ["plan", "add a cache to the parser and test it", "--json"], "docket-cli-state": ["status", "--json"] };
  for (const [bundle, args] of Object.entries(commands)) {
    const cliRun = (home: string, extra: Readonly<Record<string, string>> = {}): { stdout: string; status: number | null; cache: string[] } => {
      resetWorkspace();
      const result = spawnSync(process.execPath, [cli, ...args], { cwd: repo.root, env: envOf(home, extra), encoding: "utf8" });
      const prefix = `docket code cache: ${bundle}.bundle.js: `;
      return { stdout: result.stdout, status: result.status, cache: result.stderr.split("\n").filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length)) };
    };
    const home = freshCacheHome();
    const off = cliRun(home, { DOCKET_CODE_CACHE: "0" });
    assert.equal(off.status, 0, bundle);
    assert.deepEqual(off.cache, ["off"]);
    const first = cliRun(home);
    assert.deepEqual(first.cache, ["missing", "written"], bundle);
    const second = cliRun(home);
    assert.deepEqual(second.cache, ["hit"], bundle);
    for (const run of [first, second]) {
      assert.equal(run.stdout, off.stdout, bundle);
      assert.equal(run.status, off.status, bundle);
    }
  }
  // PostToolUse loads the evidence bundle through its loader: its cache is written and then used.
  const post = freshCacheHome();
  assertSameAnswer(runHook("PostToolUse", post), "PostToolUse");
  resetWorkspace();
  const again = spawnSync(process.execPath, [HOOK, "hook", "--host", "claude", "PostToolUse"], { cwd: repo.root, input: inputOf("PostToolUse"), env: envOf(post), encoding: "utf8" });
  assert.match(again.stderr, /^docket code cache: docket-hook-evidence\.bundle\.js: hit$/mu);
  assert.equal(again.stdout, expected("PostToolUse").stdout);
});
