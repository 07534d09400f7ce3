// The extension's own code cache (extension/codeCache.ts, loaded by extension/entry.ts): a bundle
// loaded through it is the module Node's require() makes of it, with or without the cache, and an
// entry is used only for the exact bytes, V8 and data it was written for.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { loadWithCodeCache } from "../../extension/codeCache";
import { versionedCacheFolder } from "../../extension/versionedCache";

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "docket-code-cache-"));
}

/** A CommonJS module that reports what the loader gave it. */
function moduleSource(value: unknown, padding: string): string {
  return [
    `// ${padding}`,
    'const dep = require("./dep");',
    'const sep = require("node:path").sep;',
    `exports.early = ${JSON.stringify(value)};`,
    "module.exports = { value: exports.early, file: __filename, dir: __dirname, self: this === exports, dep: dep.x, sep, loaded: module.loaded, id: module.id };",
    "function later(n) { return n + 1; }",
    "module.exports.later = later(1);",
  ].join("\n");
}

function viaRequire(file: string): unknown {
  const exports = require(file) as unknown;
  delete require.cache[file];
  return exports;
}

test("a module loaded through the code cache is the one require() makes, without, with an absent and with a used cache", () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, "dep.js"), "exports.x = 42;\n");
  let round = 0;
  fc.assert(
    fc.property(fc.jsonValue(), fc.string({ maxLength: 40 }), (value, padding) => {
      round += 1;
      const file = path.join(dir, `bundle-${round}.js`);
      fs.writeFileSync(file, moduleSource(value, padding.replace(/[\r\n\u2028\u2029]/gu, " ")));
      const expected = viaRequire(file);
      const folder = path.join(dir, `cache-${round}`);

      const off = loadWithCodeCache(file, undefined, module);
      assert.equal(off.cache, "off");
      assert.deepEqual(off.exports, expected);
      off.save();
      assert.equal(fs.existsSync(folder), false);
      delete require.cache[file];

      const first = loadWithCodeCache(file, folder, module);
      assert.equal(first.cache, "absent");
      assert.deepEqual(first.exports, expected);
      assert.equal(require.cache[file]?.exports, first.exports, "registered as Node's loader would");
      first.save();
      delete require.cache[file];

      const second = loadWithCodeCache(file, folder, module);
      assert.equal(second.cache, "used");
      assert.deepEqual(second.exports, expected);
      delete require.cache[file];
    }),
    { numRuns: 25 },
  );
});

test("an entry written for other bytes of the same length is not used: the new bytes run", () => {
  const dir = tempDir();
  const file = path.join(dir, "bundle.js");
  const folder = path.join(dir, "cache");
  fs.writeFileSync(file, 'module.exports = { answer: "A", f() { return 1; } };\n');
  const a = loadWithCodeCache(file, folder, module);
  a.save();
  delete require.cache[file];
  assert.equal(loadWithCodeCache(file, folder, module).cache, "used");
  delete require.cache[file];

  fs.writeFileSync(file, 'module.exports = { answer: "B", f() { return 2; } };\n');
  const b = loadWithCodeCache(file, folder, module);
  assert.equal(b.cache, "stale");
  assert.equal((b.exports as { answer: string }).answer, "B");
  assert.equal((b.exports as { f(): number }).f(), 2);
  b.save();
  delete require.cache[file];
  const again = loadWithCodeCache(file, folder, module);
  assert.equal(again.cache, "used", "the stale entry was replaced");
  assert.equal((again.exports as { answer: string }).answer, "B");
  delete require.cache[file];
});

test("a damaged entry, one for other bytes or a cut one never reaches V8: the source is compiled", () => {
  const dir = tempDir();
  const file = path.join(dir, "bundle.js");
  const folder = path.join(dir, "cache");
  fs.writeFileSync(file, "module.exports = { sum: [1, 2, 3].reduce((a, b) => a + b, 0) };\n");
  loadWithCodeCache(file, folder, module).save();
  delete require.cache[file];
  const entry = path.join(folder, "bundle.js.v8cache");
  const whole = fs.readFileSync(entry);
  const damaged = [
    Buffer.concat([whole.subarray(0, whole.length - 1), Buffer.from([whole[whole.length - 1]! ^ 0xff])]),
    // The header names other bundle bytes (the bundle's SHA-256 starts at byte 8).
    Buffer.concat([whole.subarray(0, 8), Buffer.from([whole[8]! ^ 0x01]), whole.subarray(9)]),
    whole.subarray(0, whole.length - 10),
    Buffer.alloc(0),
  ];
  for (const bytes of damaged) {
    fs.writeFileSync(entry, bytes);
    const loaded = loadWithCodeCache(file, folder, module);
    assert.equal(loaded.cache, "stale");
    assert.deepEqual(loaded.exports, { sum: 6 });
    delete require.cache[file];
  }
  // A whole entry that others may write, or a link to one, is not read either.
  fs.writeFileSync(entry, whole);
  fs.chmodSync(entry, 0o664);
  assert.equal(loadWithCodeCache(file, folder, module).cache, "stale");
  delete require.cache[file];
  fs.chmodSync(entry, 0o600);
  const elsewhere = path.join(dir, "elsewhere.v8cache");
  fs.renameSync(entry, elsewhere);
  fs.symlinkSync(elsewhere, entry);
  assert.equal(loadWithCodeCache(file, folder, module).cache, "stale");
  delete require.cache[file];
  fs.unlinkSync(entry);
  fs.renameSync(elsewhere, entry);
  assert.equal(loadWithCodeCache(file, folder, module).cache, "used");
  delete require.cache[file];
});

test("a bundle that throws while loading leaves no module behind", () => {
  const dir = tempDir();
  const file = path.join(dir, "bundle.js");
  fs.writeFileSync(file, 'throw new Error("broken bundle");\n');
  assert.throws(() => loadWithCodeCache(file, path.join(dir, "cache"), module), /broken bundle/u);
  assert.equal(require.cache[file], undefined);
});

test("the cache folder is per extension version and the other versions' folders are removed", async () => {
  const storage = tempDir();
  const root = path.join(storage, "extension-code-cache");
  for (const name of ["0.0.9", "0.1.0", "unknown"]) fs.mkdirSync(path.join(root, name, "x"), { recursive: true });
  const context = (version: unknown) => ({ globalStorageUri: { fsPath: storage }, extension: { packageJSON: { version } } });
  assert.equal(versionedCacheFolder(context("0.1.0"), "extension-code-cache"), path.join(root, "0.1.0"));
  for (let attempt = 0; attempt < 50 && fs.readdirSync(root).length > 1; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(fs.readdirSync(root), ["0.1.0"]);
  assert.equal(versionedCacheFolder(context("../../escape"), "extension-code-cache"), path.join(root, "unknown"));
  assert.equal(versionedCacheFolder(context(undefined), "node-compile-cache"), path.join(storage, "node-compile-cache", "unknown"));
});
