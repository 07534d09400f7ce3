// End-to-end UI test in a real VS Code workbench (code-server 4.139.1 = VS Code 1.139.1), driven by headless
// Debian Chromium through playwright-core: install the packaged .vsix into a fresh profile, open a fresh git
// workspace, open the Docket container, Turn On / Turn Off from the command palette and check the Work tree and
// the Receipts webview. Screenshots after each step: test-artifacts/e2e/*.png.
// Skips when DOCKET_SKIP_E2E=1, or when the toolchain cannot be installed outside CI (CI=true: fails).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { receiptKinds, openDocketContainer } from "./support/docketViews";
import { inWorkbench, runCommand, SIDEBAR_ROWS } from "./support/workbench";

const BUDGET_MS = Number(process.env.DOCKET_E2E_BUDGET_MS ?? 180_000);
const SCOPE_ROW = /Work scope|scope:/;

test("Docket in real VS Code (code-server): Turn On / Turn Off through the UI", { timeout: BUDGET_MS + 600_000 }, async (t) => {
  const files = {
    "README.md": "# Docket UI test workspace\n\nCreated fresh for one end-to-end run.\n",
    "src/hello.ts": 'export const hello = (name: string): string => `hello ${name}`;\n',
  };
  await inWorkbench(t, { label: "e2e", files, budgetMs: BUDGET_MS }, async (workbench) => {
    const { page: p, shot, mark } = workbench;
    // 1. Workbench with the workspace's files.
    await shot("01-workbench");

    // 2. Docket's activity-bar container.
    await openDocketContainer(p);
    mark("containerOpen");
    await shot("02-docket-container");

    // 3. Docket: Turn On → the Work tree shows the scope, Receipts shows work-scope-opened.
    await runCommand(p, "Docket: Turn On");
    await p.locator(SIDEBAR_ROWS, { hasText: SCOPE_ROW }).first().waitFor({ timeout: 30_000 });
    mark("workTreeScope");
    const afterOn = await receiptKinds(t, workbench, 1, "03a-new-receipts-banner");
    mark("receiptOpened");
    await shot("03-turned-on");
    assert.deepEqual(afterOn, ["work-scope-opened"], "Receipts shows exactly the work-scope-opened row after Turn On");

    // 4. Docket: Turn Off → two receipts.
    await runCommand(p, "Docket: Turn Off");
    const afterOff = await receiptKinds(t, workbench, 2, "04a-new-receipts-banner");
    mark("receiptClosed");
    await shot("04-turned-off");
    assert.deepEqual([...afterOff].sort(), ["work-scope-closed", "work-scope-opened"], "Receipts shows both rows after Turn Off");
    const tree = await p.locator(SIDEBAR_ROWS).allInnerTexts();
    t.diagnostic(`Work tree after Turn Off: ${JSON.stringify(tree)}`);

    // 5. Docket: Connect Claude Code… shows the exact change in diff editors, asks once, then writes it.
    await runCommand(p, "Docket: Connect Claude Code");
    await p.locator(".tab", { hasText: /current ⇄ proposed by Docket/u }).first().waitFor({ timeout: 30_000 });
    const dialog = p.locator(".monaco-dialog-box", { hasText: /Connect Claude Code to Docket\?/u }).first();
    await dialog.waitFor({ timeout: 30_000 });
    await shot("05-connect-claude-diff-and-confirmation");
    await dialog.locator(".monaco-button", { hasText: /^Connect$/u }).first().click();
    // The follow-up says what the user must still do; it is a modal too.
    const notes = p.locator(".monaco-dialog-box", { hasText: /connected to Docket/u }).first();
    await notes.waitFor({ timeout: 30_000 });
    await shot("06-connect-claude-notes");
    await notes.locator(".monaco-button").first().click();
    const settings = JSON.parse(fs.readFileSync(path.join(workbench.dirs.workspace, ".claude", "settings.json"), "utf8")) as { hooks?: Record<string, unknown> };
    assert.ok(settings.hooks?.PreToolUse !== undefined, "the PreToolUse hook is installed");
    assert.match(JSON.stringify(settings.hooks), /docket-hook\.js/u, "hooks point at the installed runtime's hook bundle");
    const mcp = JSON.parse(fs.readFileSync(path.join(workbench.dirs.workspace, ".mcp.json"), "utf8")) as { mcpServers?: Record<string, unknown> };
    assert.ok(mcp.mcpServers?.docket !== undefined, "the MCP server is registered for Claude Code");
    // The Connected Agents view lists Claude Code as connected.
    await p.locator('[id="workbench.parts.sidebar"] .pane-header', { hasText: /Connected Agents/u }).first().click();
    await p.locator(SIDEBAR_ROWS, { hasText: /Claude Code/u }).first().waitFor({ timeout: 30_000 });
    await shot("07-connected-agents");
    t.diagnostic(`Connected Agents: ${JSON.stringify(await p.locator(SIDEBAR_ROWS, { hasText: /Claude Code|Codex/u }).allInnerTexts())}`);
  });
});
