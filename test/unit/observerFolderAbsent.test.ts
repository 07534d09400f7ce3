// Hooks skip Observer's run boundary and capture-mode reads where `observerFolderMayExist` says the
// workspace has no `.docket/observer` (server/hooks/runHook.ts). The skip must change nothing: in
// every such workspace the general path reads capture off and the default processing policy, and
// ending or starting nothing leaves the files as they were; in every other layout (the folder, a
// file or a link in its place, `.docket` a file) the check says "may exist" and the general path runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { endRun, observerFolderMayExist } from "../../server/observer/captureWindow";
import { readCaptureMode } from "../../server/observer/observerFiles";
import { DEFAULT_PROCESSING_POLICY, readProcessingPolicy } from "../../server/observer/processingPolicy";

type Layout = "none" | "docket-empty" | "docket-file" | "observer-dir" | "observer-file" | "observer-link" | "observer-dangling-link" | "docket-link";

function tree(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return (fs.readdirSync(folder, { recursive: true, withFileTypes: true }) as fs.Dirent[]).map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name))).sort();
}

function workspaceWith(layout: Layout, other: string): string {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "docket-observer-absent-"));
  const docket = path.join(workspace, ".docket");
  if (layout === "docket-file") fs.writeFileSync(docket, "not a folder");
  else if (layout === "docket-link") fs.symlinkSync(other, docket);
  else if (layout !== "none") fs.mkdirSync(docket);
  fs.mkdirSync(path.join(workspace, ".git"));
  const observer = path.join(docket, "observer");
  if (layout === "observer-dir") fs.mkdirSync(path.join(observer, "runs"), { recursive: true });
  if (layout === "observer-file") fs.writeFileSync(observer, "x");
  if (layout === "observer-link") fs.symlinkSync(other, observer);
  if (layout === "observer-dangling-link") fs.symlinkSync(path.join(other, "missing"), observer);
  return workspace;
}

test("no .docket/observer: capture off, the default policy, and ending a run changes no file", () => {
  const other = fs.mkdtempSync(path.join(os.tmpdir(), "docket-observer-other-"));
  fs.mkdirSync(path.join(other, "observer", "runs"), { recursive: true });
  try {
    fc.assert(
      fc.property(
        fc.constantFrom<Layout>("none", "docket-empty", "docket-file", "observer-dir", "observer-file", "observer-link", "observer-dangling-link", "docket-link"),
        fc.constantFrom("claude", "codex", "vscode"),
        fc.string({ minLength: 1, maxLength: 12 }),
        (layout, host, sessionId) => {
          const workspace = workspaceWith(layout, other);
          try {
            const mayExist = observerFolderMayExist(workspace);
            const expectedAbsent = layout === "none" || layout === "docket-empty";
            assert.equal(mayExist, !expectedAbsent, layout);
            if (!mayExist) {
              const before = tree(workspace);
              assert.deepEqual(readCaptureMode(workspace), { on: false, episodeId: null });
              const policy = readProcessingPolicy(workspace);
              assert.ok(policy.ok);
              assert.deepEqual(policy.policy, DEFAULT_PROCESSING_POLICY);
              endRun(workspace, host, sessionId);
              assert.deepEqual(tree(workspace), before);
            }
          } finally {
            fs.rmSync(workspace, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 120 },
    );
  } finally {
    fs.rmSync(other, { recursive: true, force: true });
  }
});
