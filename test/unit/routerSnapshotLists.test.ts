// Lists a snapshot derives from its 100,000 paths by shortcuts (server/router/snapshot/snapshot.ts):
// technologies found once per distinct file name (what a name evidences depends on the name alone),
// folders collected once per run of files in one folder. Each must be what the rule applied file
// by file gives, for every list of files.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { compareCodeUnits } from "../../server/ledger/canonicalJson";
import { snapshotFromFiles } from "../../server/router/snapshot";
import { EXTENSION_TECHNOLOGIES, MAX_EXTENSION_SOURCES, NAME_TECHNOLOGIES } from "../../server/router/snapshot/technologies";

/** The rule file by file, as technologiesOf applied it before (no manifests: nothing is read). */
function referenceTechnologies(files: readonly string[]): Array<{ name: string; sources: string[] }> {
  const sources = new Map<string, Set<string>>();
  const add = (technology: string, source: string): void => {
    const set = sources.get(technology) ?? new Set<string>();
    set.add(source);
    sources.set(technology, set);
  };
  const byExtension = new Map<string, number>();
  for (const file of [...files].sort(compareCodeUnits)) {
    if (file.startsWith("node_modules/") || file.includes("/node_modules/")) continue;
    const name = file.slice(file.lastIndexOf("/") + 1);
    const named = Object.prototype.hasOwnProperty.call(NAME_TECHNOLOGIES, name) ? NAME_TECHNOLOGIES[name] : undefined;
    if (named !== undefined) add(named, file);
    const dot = name.lastIndexOf(".");
    const extension = dot <= 0 || name.endsWith(".gradle.kts") ? null : name.slice(dot + 1).toLowerCase();
    const technology = extension !== null && Object.prototype.hasOwnProperty.call(EXTENSION_TECHNOLOGIES, extension) ? EXTENSION_TECHNOLOGIES[extension] : undefined;
    if (technology === undefined) continue;
    const cited = byExtension.get(technology) ?? 0;
    if (cited < MAX_EXTENSION_SOURCES) {
      byExtension.set(technology, cited + 1);
      add(technology, file);
    }
  }
  return [...sources.entries()].map(([name, set]) => ({ name, sources: [...set].sort(compareCodeUnits) })).sort((left, right) => compareCodeUnits(left.name, right.name));
}

test("technologies found once per name are the ones found file by file", () => {
  const name = fc.oneof(
    fc.constantFrom(...Object.keys(NAME_TECHNOLOGIES), "a.ts", "b.TS", "c.Go", "index.tsx", ".ts", "x.gradle.kts", "y.kts", "z.R", "constructor", "__proto__", "toString", "a.constructor", "hasOwnProperty.js", "noext", "a.b.rs"),
    fc.string({ unit: fc.constantFrom("a", ".", "t", "s", "G", "o", "R"), minLength: 1, maxLength: 5 }),
  );
  const file = fc.tuple(fc.array(fc.constantFrom("src", "node_modules", "lib", "a"), { maxLength: 3 }), name).map(([folders, leaf]) => [...folders, leaf].join("/"));
  fc.assert(
    fc.property(fc.uniqueArray(file, { maxLength: 40 }), (files) => {
      // No manifest, rule file or source is read: technologies come from names alone here.
      const snapshot = snapshotFromFiles(files, () => null, "git");
      const expected = referenceTechnologies(snapshot.files).filter((entry) => entry.sources.length > 0);
      assert.deepEqual(snapshot.technologies, expected);
    }),
    { numRuns: 5_000 },
  );
});

test("folders collected once per run of files are every file's ancestors", () => {
  const segment = fc.constantFrom("a", "b", "ab", "a.b", "가", "A", "a-b", "b.ts");
  const file = fc.array(segment, { minLength: 1, maxLength: 5 }).map((segments) => segments.join("/"));
  fc.assert(
    fc.property(fc.uniqueArray(file, { maxLength: 40 }), (files) => {
      const snapshot = snapshotFromFiles(files, () => null, "git");
      const expected = new Set<string>();
      for (const path of snapshot.files) {
        for (let slash = path.indexOf("/"); slash !== -1; slash = path.indexOf("/", slash + 1)) expected.add(path.slice(0, slash));
      }
      assert.deepEqual(snapshot.directories, [...expected].sort(compareCodeUnits));
    }),
    { numRuns: 5_000 },
  );
});
