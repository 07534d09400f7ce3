// The .vsix holds only what runs: bundles, media, strings, manifest and the three documents.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../support/repoRoot";

const root = repoRoot();

function packagedFiles(): string[] {
  const vsce = path.join(root, "node_modules", "@vscode", "vsce", "vsce");
  return execFileSync(process.execPath, [vsce, "ls", "--no-dependencies"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .sort();
}

test("the packaged file list has no sources, tests, maps or node_modules", () => {
  const files = packagedFiles();
  const allowed = /^(dist\/(extension|extension-main|docket|docket-cli-[a-z]+|docket-hook|docket-hook-slow|docket-hook-tail|docket-hook-evidence|docket-hook-secretlint|docket-mcp-worker)(\.bundle)?\.js|dist\/webview\/[\w.-]+\.(js|css|ttf)|media\/(walkthrough\/([a-z-]+\/)?)?[\w.-]+|skills\/[\w-]+\/(SKILL\.md|judgment\.json|routing\.yaml|references\/[\w.-]+\.md)|l10n\/[\w.-]+\.json|package(\.nls(\.[a-z-]+)?)?\.json|README\.md|CHANGELOG\.md|LICENSE)$/u;
  const unexpected = files.filter((file) => !allowed.test(file));
  assert.deepEqual(unexpected, []);
  for (const required of ["dist/extension.js", "dist/extension-main.js", "dist/docket.js", "dist/docket-hook.js", "dist/docket-hook-slow.js", "dist/docket-hook-tail.js", "dist/docket-hook-evidence.js", "dist/docket-hook-secretlint.js", "dist/docket-mcp-worker.js", "dist/docket-cli-state.js", "dist/docket-cli-workspace.js", "dist/docket-cli-servers.js", "dist/docket-cli-hook.js", "dist/webview/receipts.js", "package.json", "LICENSE", "media/docket.svg", "l10n/bundle.l10n.ko.json", "skills/verify/SKILL.md"]) {
    assert.ok(files.includes(required), `${required} is packaged`);
  }
});

test("every Getting Started step's Markdown is packaged, in English and in Korean", () => {
  const files = packagedFiles();
  const read = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(root, file), "utf8"));
  const manifest = read("package.json") as { contributes: { walkthroughs: { steps: { id: string; media: { markdown: string } }[] }[] } };
  const steps = manifest.contributes.walkthroughs.flatMap((walkthrough) => walkthrough.steps);
  assert.ok(steps.length >= 5, "the walkthrough has its steps");
  for (const strings of [read("package.nls.json"), read("package.nls.ko.json")] as Record<string, string>[]) {
    for (const step of steps) {
      const key = /^%(.+)%$/u.exec(step.media.markdown)?.[1];
      const markdown = key === undefined ? step.media.markdown : strings[key];
      assert.ok(markdown !== undefined && markdown.startsWith("media/walkthrough/"), `${step.id}: ${markdown}`);
      assert.ok(files.includes(markdown), `${markdown} is packaged`);
    }
  }
});
