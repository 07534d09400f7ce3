// Every UI string has a Korean translation, and every %key% in the manifest has both languages.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { repoRoot } from "../support/repoRoot";


const root = repoRoot();
const readJson = (file: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(path.join(root, file), "utf8")) as Record<string, unknown>;

function uiStrings(): Set<string> {
  const keys = new Set<string>();
  const dir = path.join(root, "extension");
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith(".ts"))) {
    const source = fs.readFileSync(path.join(dir, file), "utf8");
    assert.doesNotMatch(source, /l10n\.t\(\s*[`']/u, `${file}: use a double-quoted literal in l10n.t`);
    for (const match of source.matchAll(/l10n\.t\(\s*("(?:[^"\\]|\\.)*")/gu)) {
      keys.add(JSON.parse(match[1] ?? '""') as string);
    }
  }
  return keys;
}

test("every l10n.t string has a Korean translation with the same placeholders", () => {
  const bundle = readJson("l10n/bundle.l10n.ko.json");
  const keys = uiStrings();
  assert.ok(keys.size > 50);
  const placeholders = (text: string): string[] => [...text.matchAll(/\{\d+\}/gu)].map((m) => m[0]).sort();
  for (const key of keys) {
    const translation = bundle[key];
    assert.equal(typeof translation, "string", `missing Korean translation: ${key}`);
    assert.deepEqual(placeholders(translation as string), placeholders(key), `placeholders differ: ${key}`);
  }
  assert.deepEqual(Object.keys(bundle).filter((key) => !keys.has(key)), [], "unused Korean translations");
});

test("every manifest %key% exists in English and Korean", () => {
  const manifest = fs.readFileSync(path.join(root, "package.json"), "utf8");
  const used = new Set([...manifest.matchAll(/"%([^"%]+)%"/gu)].map((m) => m[1] ?? ""));
  const english = readJson("package.nls.json");
  const korean = readJson("package.nls.ko.json");
  for (const key of used) {
    assert.equal(typeof english[key], "string", `package.nls.json lacks ${key}`);
    assert.equal(typeof korean[key], "string", `package.nls.ko.json lacks ${key}`);
  }
  assert.deepEqual(Object.keys(english).sort(), [...used].sort());
  assert.deepEqual(Object.keys(korean).sort(), Object.keys(english).sort());
});
