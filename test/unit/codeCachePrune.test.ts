// Pruning the per-user code cache folder (server/codeCache/cachePrune.ts): entries of earlier builds
// go after 30 days, crashed writers' temporary files after an hour, the folder keeps at most 64
// entries, and nothing the cache did not write (other names, links, folders) is ever removed.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { CACHE_ENTRY_MAX_AGE_MS, MAX_CACHE_ENTRIES, TEMPORARY_MAX_AGE_MS, entriesToPrune, pruneCacheFolder, type FolderEntry } from "../../server/codeCache/cachePrune";
import { cacheFileName } from "../../server/codeCache/cacheFormat";

const NOW = 1_800_000_000_000;
const DAY = 24 * 60 * 60 * 1000;
const hex = (n: number): string => n.toString(16).padStart(64, "0");
const entry = (n: number, ageMs: number, regularFile = true): FolderEntry => ({ name: cacheFileName(hex(n), "v20.20.2", "x64"), regularFile, modifiedMs: NOW - ageMs });
const temporary = (n: number, ageMs: number): FolderEntry => ({ name: `.${cacheFileName(hex(n), "v20.20.2", "x64")}.123.abcdef.tmp`, regularFile: true, modifiedMs: NOW - ageMs });

test("old entries and a crashed writer's old temporary file go; recent ones, the one just written and foreign names stay", () => {
  const keep = entry(1, 40 * DAY);
  const entries = [keep, entry(2, 31 * DAY), entry(3, 29 * DAY), temporary(4, 2 * 60 * 60 * 1000), temporary(5, 60 * 1000), { name: "notes.txt", regularFile: true, modifiedMs: 0 }, entry(6, 90 * DAY, false)];
  assert.deepEqual(entriesToPrune(entries, NOW, keep.name), [entry(2, 0).name, temporary(4, 0).name]);
});

test("beyond the entry cap the oldest go first, with the entry just written counted", () => {
  const entries = Array.from({ length: MAX_CACHE_ENTRIES + 5 }, (_, i) => entry(i + 10, i * 1000));
  const keep = entry(1, 0);
  const removed = entriesToPrune([keep, ...entries], NOW, keep.name);
  assert.deepEqual(removed, entries.slice(-6).reverse().map((e) => e.name));
});

test("property: never removes the kept entry, a non-regular file or a name the cache does not write; leaves at most the cap", () => {
  const arbitraryEntry = fc.record({
    kind: fc.constantFrom("entry", "temporary", "other"),
    n: fc.integer({ min: 0, max: 200 }),
    ageMs: fc.integer({ min: 0, max: 60 * DAY }),
    regularFile: fc.boolean(),
  });
  fc.assert(
    fc.property(fc.array(arbitraryEntry, { maxLength: 150 }), fc.integer({ min: 0, max: 200 }), (raw, keepN) => {
      const seen = new Set<string>();
      const entries: FolderEntry[] = [];
      for (const r of raw) {
        const base = r.kind === "entry" ? entry(r.n, r.ageMs, r.regularFile) : r.kind === "temporary" ? { ...temporary(r.n, r.ageMs), regularFile: r.regularFile } : { name: `other-${r.n}`, regularFile: r.regularFile, modifiedMs: NOW - r.ageMs };
        if (seen.has(base.name)) continue;
        seen.add(base.name);
        entries.push(base);
      }
      const keep = entry(keepN, 0).name;
      const removed = new Set(entriesToPrune(entries, NOW, keep));
      for (const e of entries) {
        if (!removed.has(e.name)) continue;
        assert.notEqual(e.name, keep);
        assert.ok(e.regularFile);
        assert.ok(!e.name.startsWith("other-"));
        if (e.name.endsWith(".tmp")) assert.ok(NOW - e.modifiedMs > TEMPORARY_MAX_AGE_MS);
      }
      const remainingEntries = entries.filter((e) => e.regularFile && !e.name.endsWith(".tmp") && !e.name.startsWith("other-") && e.name !== keep && !removed.has(e.name));
      assert.ok(remainingEntries.length <= MAX_CACHE_ENTRIES - 1);
      for (const e of remainingEntries) assert.ok(NOW - e.modifiedMs <= CACHE_ENTRY_MAX_AGE_MS);
    }),
    { numRuns: 300 },
  );
});

test("on a real folder: removes old entries, keeps the rest, never follows or removes a link's target", { skip: process.platform === "win32" }, () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "docket-prune-"));
  try {
    const old = path.join(folder, entry(2, 0).name);
    const fresh = path.join(folder, entry(3, 0).name);
    const keep = path.join(folder, entry(1, 0).name);
    const outside = path.join(folder, "outside.txt");
    const link = path.join(folder, entry(4, 0).name);
    for (const file of [old, fresh, keep, outside]) fs.writeFileSync(file, "x");
    fs.symlinkSync(outside, link);
    const longAgo = new Date(NOW - 45 * DAY);
    for (const file of [old, keep, outside]) fs.utimesSync(file, longAgo, longAgo);
    fs.lutimesSync(link, longAgo, longAgo);
    fs.utimesSync(fresh, new Date(NOW - DAY), new Date(NOW - DAY));
    assert.equal(pruneCacheFolder(folder, path.basename(keep), NOW), 1);
    assert.deepEqual(fs.readdirSync(folder).sort(), [path.basename(keep), path.basename(fresh), path.basename(link), "outside.txt"].sort());
    assert.ok(fs.lstatSync(link).isSymbolicLink());
    assert.equal(pruneCacheFolder(path.join(folder, "missing"), "x", NOW), 0);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
