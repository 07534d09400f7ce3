// node:test launcher for the extension-host suite (test/exthost/*.suite.ts, run by index.ts inside VS Code):
//   1. desktop VS Code through @vscode/test-electron, when one is installed (else skipped);
//   2. always: the VS Code server bundled in code-server, driven by headless Chromium.
// The extension under test is the repository root (package.json main = dist/extension.js: run `npm run build`).
// Overrides (to test the harness itself): DOCKET_EXTHOST_DEV_PATH, DOCKET_EXTHOST_TESTS_PATH.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test, type TestContext } from "node:test";
import { ensureToolchain, repoRoot } from "../e2e/support/toolchain";
import type { ExtHostResults } from "./results";
import { tailFile } from "../e2e/support/process";
import { desktopSkipReason, extensionLogFiles, runInDesktopVSCode, runInVSCodeServer, type SuiteRun } from "./runners";

const root = repoRoot();
const extensionDevelopmentPath = process.env.DOCKET_EXTHOST_DEV_PATH ?? root;
const extensionTestsPath = process.env.DOCKET_EXTHOST_TESTS_PATH ?? path.join(root, "out", "test", "exthost", "index.js");
const TIMEOUT_MS = Number(process.env.DOCKET_EXTHOST_TIMEOUT_MS ?? 150_000);

function checkInputs(): void {
  assert.ok(
    fs.existsSync(extensionTestsPath),
    `${extensionTestsPath} is missing: compile the tests first (tsc -p tsconfig.json)`,
  );
  if (process.env.DOCKET_EXTHOST_DEV_PATH === undefined) {
    assert.ok(
      fs.existsSync(path.join(root, "dist", "extension.js")),
      "dist/extension.js is missing: run `npm run build` first",
    );
  }
}

function report(t: TestContext, route: string, run: SuiteRun): void {
  const results: ExtHostResults = run.results;
  t.diagnostic(
    `${route}: ${results.appName} ${results.vscodeVersion}, Node ${results.node}, remote ${results.remoteName ?? "none"}; ` +
      `${results.passed} passed, ${results.failed} failed, ${results.pending} pending in ${results.durationMs} ms; ` +
      `timings ${JSON.stringify(run.timings)}; logs in ${run.artifacts}`,
  );
  for (const entry of results.tests) t.diagnostic(`  ${entry.state.padEnd(7)} ${entry.title}`);
  const failures = results.tests
    .filter((entry) => entry.state === "failed")
    .map((entry) => `✗ ${entry.title}\n${entry.error ?? ""}`);
  if (results.error !== undefined) failures.unshift(`runner error: ${results.error}`);
  if (failures.length > 0) {
    // The extension's own log usually says why (its commands catch errors and show a notification).
    for (const file of extensionLogFiles(run.runArtifacts, "docket.docket")) {
      failures.push(`--- last lines of ${file}:\n${tailFile(file, 25)}`);
    }
  }
  assert.equal(failures.length, 0, `${route}: extension-host tests failed:\n${failures.join("\n\n")}`);
  assert.ok(results.passed > 0, `${route}: no extension-host test passed`);
}

test("extension-host suite in desktop VS Code (@vscode/test-electron)", { timeout: TIMEOUT_MS + 30_000 }, async (t) => {
  const skip = process.env.DOCKET_SKIP_E2E === "1" ? "DOCKET_SKIP_E2E=1: real-VS-Code tests skipped" : desktopSkipReason();
  if (skip !== undefined) {
    t.skip(skip);
    return;
  }
  checkInputs();
  const run = await runInDesktopVSCode({
    extensionDevelopmentPath,
    extensionTestsPath,
    label: process.env.DOCKET_EXTHOST_DEV_PATH === undefined ? "docket" : "custom",
    timeoutMs: TIMEOUT_MS,
    log: (line) => t.diagnostic(line),
  });
  report(t, "desktop", run);
});

test("extension-host suite in the VS Code server (code-server's bundled server-main.js)", { timeout: TIMEOUT_MS + 600_000 }, async (t) => {
  const installed = await ensureToolchain();
  if ("skip" in installed) {
    t.skip(installed.skip);
    return;
  }
  checkInputs();
  const run = await runInVSCodeServer(installed.toolchain, {
    extensionDevelopmentPath,
    extensionTestsPath,
    label: process.env.DOCKET_EXTHOST_DEV_PATH === undefined ? "docket" : "custom",
    timeoutMs: TIMEOUT_MS,
    log: (line) => t.diagnostic(line),
  });
  report(t, "vscode-server", run);
});
