// The .vsix holds only what runs: bundles, media, strings, manifest and the three documents.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { repoRoot } from "../support/repoRoot";

const root = repoRoot();

test("the packaged file list has no sources, tests, maps or node_modules", () => {
  const vsce = path.join(root, "node_modules", "@vscode", "vsce", "vsce");
  const files = execFileSync(process.execPath, [vsce, "ls", "--no-dependencies"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .sort();
  const allowed = /^(dist\/(extension|docket|docket-hook|docket-hook-slow|docket-mcp-worker)\.js|dist\/webview\/[\w.-]+\.(js|css|ttf)|media\/[\w.-]+|skills\/[\w-]+\/(SKILL\.md|judgment\.json|routing\.yaml|references\/[\w.-]+\.md)|l10n\/[\w.-]+\.json|package(\.nls(\.[a-z-]+)?)?\.json|README\.md|CHANGELOG\.md|LICENSE)$/u;
  const unexpected = files.filter((file) => !allowed.test(file));
  assert.deepEqual(unexpected, []);
  for (const required of ["dist/extension.js", "dist/docket.js", "dist/docket-hook.js", "dist/docket-hook-slow.js", "dist/docket-mcp-worker.js", "dist/webview/receipts.js", "package.json", "LICENSE", "media/docket.svg", "l10n/bundle.l10n.ko.json", "skills/verify/SKILL.md"]) {
    assert.ok(files.includes(required), `${required} is packaged`);
  }
});
