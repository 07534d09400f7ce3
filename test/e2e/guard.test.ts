// The completion guard in a real VS Code workbench (code-server + Chromium): the workspace setting
// `docket.guard.mode` written to the mode file, a supported and an unsupported review recorded with
// the real CLI (one citing a tool result the real PostToolUse hook captured), an agent's Stop run
// through the real hook bundle, and then the Work view's Reviews section (statuses with their
// codicons, claims, cited sources, the whole-response judgment, the Last stop item with what
// remained), the one message for the unreviewed completion claim with its Show action, a cited
// file and a cited tool result opened from the tree, and a user input's digest in its tooltip.
// Screenshots land in test-artifacts/e2e-guard/.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { captureEvidence, recordReview, stopAgent } from "../support/guardFlow";
import { repoRoot } from "../support/repoRoot";
import { openDocketContainer } from "./support/docketViews";
import type { Locator, Page } from "./support/playwright";
import { inWorkbench, SIDEBAR_ROWS } from "./support/workbench";

const BUDGET_MS = Number(process.env.DOCKET_E2E_BUDGET_MS ?? 240_000);
const PANE_HEADER = '[id="workbench.parts.sidebar"] .pane-header';

function row(page: Page, text: string | RegExp): Locator {
  return page.locator(SIDEBAR_ROWS, { hasText: text }).first();
}

/** Expands a tree row unless VS Code already shows it expanded (it remembers expansion per item id). */
async function expand(target: Locator): Promise<void> {
  await target.waitFor({ timeout: 10_000 });
  if ((await target.getAttribute("aria-expanded")) === "false") await target.click();
}

async function icon(target: Locator, name: string): Promise<void> {
  assert.equal(await target.locator(`.custom-view-tree-node-item-icon.codicon-${name}`).count(), 1, `the row shows the ${name} codicon`);
}

test("the Reviews section shows recorded reviews and an agent's last stop in real VS Code (code-server)", { timeout: BUDGET_MS + 600_000 }, async (t) => {
  const files = {
    "README.md": "# Greeting service\n",
    "src/a.ts": "export const a = 1;\n",
    ".vscode/settings.json": `${JSON.stringify({ "docket.guard.mode": "block-once" }, null, 2)}\n`,
  };
  await inWorkbench(t, { label: "e2e-guard", files, budgetMs: BUDGET_MS }, async (workbench) => {
    const { page: p, shot, mark, dirs } = workbench;
    const workspace = dirs.workspace;
    await p.locator(".statusbar-item", { hasText: /Docket: Off/u }).first().waitFor({ timeout: 60_000 });
    execFileSync(process.execPath, [path.join(repoRoot(), "dist", "docket.js"), "on", "--workspace", workspace], { encoding: "utf8" });
    await p.locator(".statusbar-item", { hasText: /Docket: Deciding/u }).first().waitFor({ timeout: 30_000 });
    mark("on");

    await openDocketContainer(p);
    // Room for the Work view: fold Receipts.
    await p.locator(PANE_HEADER, { hasText: /Receipts/u }).first().click();
    // The workspace setting reaches the file the hooks read, and the header says so.
    const section = row(p, /Reviews[\s\S]*mode: block once/u);
    await section.waitFor({ timeout: 30_000 });
    const modeFile = JSON.parse(fs.readFileSync(path.join(workspace, ".docket", "guard", "mode.json"), "utf8")) as { format: string; mode: string; boundTo: string };
    assert.deepEqual([modeFile.format, modeFile.mode], ["docket/guard-mode/v1", "block-once"]);
    assert.match(modeFile.boundTo, /^\d+:\d+$/u, "bound to the folder it was written in");
    await row(p, "No reviews yet").waitFor({ timeout: 10_000 });
    mark("modeSynced");

    // An agent's work: a captured test run, a supported review, then an unsupported one.
    const handle = captureEvidence(workspace, "s1", "npm test", "2 tests failed");
    recordReview(
      workspace,
      { draft: "src/a.ts exports a = 1.", claims: [{ id: "export", text: "src/a.ts exports a = 1" }], sources: [{ kind: "file", path: "src/a.ts" }, { kind: "user-input", text: "Make a equal 1." }], coversEntireAnswer: true },
      () => ({ claims: [{ claimId: "export", verdict: "supported", citations: ["source:1", "source:2"] }], response: { verdict: "supported", rationale: "src/a.ts says so." } }),
    );
    recordReview(
      workspace,
      { draft: "Done, tests pass.", claims: [{ id: "tests", text: "The tests pass" }, { id: "impl", text: "The handler returns a" }], sources: [{ kind: "evidence", handle }, { kind: "file", path: "src/a.ts" }] },
      () => ({
        claims: [
          { claimId: "tests", verdict: "unsupported", citations: ["source:1"] },
          { claimId: "impl", verdict: "partial", citations: ["source:2"] },
        ],
        response: { verdict: "unsupported", rationale: "The captured run shows 2 failing tests." },
      }),
    );
    const unsupported = row(p, /Review: unsupported[\s\S]*2 claims/u);
    const supported = row(p, /Review: supported[\s\S]*1 claim/u);
    await unsupported.waitFor({ timeout: 30_000 });
    await supported.waitFor({ timeout: 10_000 });
    await icon(unsupported, "error");
    await icon(supported, "pass");
    // The newest review starts expanded: its claims and the whole-response judgment.
    await icon(row(p, /The tests pass[\s\S]*unsupported/u), "error");
    await icon(row(p, /The handler returns a[\s\S]*partly supported/u), "warning");
    await icon(row(p, /Whole response: unsupported[\s\S]*2 failing tests/u), "error");
    assert.ok(await row(p, /Reviews[\s\S]*2 reviews/u).isVisible());
    mark("reviewsShown");
    await shot("01-reviews");

    // The agent stops claiming it is done: the Stop hook records the decision in its session file only.
    const output = stopAgent(workspace, "s1", "Done, tests pass.");
    t.diagnostic(`Stop hook stdout: ${output.trim()}`);
    const toast = p.locator(".notifications-toasts .notification-toast", { hasText: /Claude Code claimed completion without a supported review/u }).first();
    await toast.waitFor({ timeout: 30_000 });
    const lastStop = row(p, /Last stop: Claude Code[\s\S]*blocked/u);
    await lastStop.waitFor({ timeout: 10_000 });
    await icon(lastStop, "error");
    await row(p, /Final answer: (no review|the review does not match the answer)/u).waitFor({ timeout: 10_000 });
    mark("stopShown");
    // Pointer off the tree (no row tooltip over the shot); let the toast finish sliding in.
    await p.locator(".part.editor").first().hover();
    await p.waitForTimeout(500);
    await shot("02-last-stop-and-message");
    assert.equal(await p.locator(".notifications-toasts .notification-toast", { hasText: /claimed completion without a supported review/u }).count(), 1, "one message for one decision");

    // A VS Code agent session (camelCase input, as `.github/hooks` or `.claude/settings.json` run it
    // for Copilot's agent) stops too: its own row, in the VS Code dialect's output.
    const vscodeOutput = stopAgent(workspace, "c0ffee00-1111-4222-8333-444455556666", "All green.", "vscode");
    assert.match(vscodeOutput, /"hookSpecificOutput":\{"hookEventName":"Stop","decision":"block"/u, vscodeOutput);
    await row(p, /Last stop: VS Code agent[\s\S]*blocked/u).waitFor({ timeout: 15_000 });
    mark("vscodeStopShown");

    // "Show" brings the Work view back even when it was folded.
    await p.locator(PANE_HEADER, { hasText: /^Work/u }).first().click();
    await lastStop.waitFor({ state: "hidden", timeout: 10_000 });
    await toast.hover();
    await toast.locator(".monaco-button", { hasText: "Show" }).first().click();
    await lastStop.waitFor({ timeout: 10_000 });
    mark("shown");

    // A cited tool result opens the captured evidence; a cited file opens the file.
    await expand(row(p, /The tests pass[\s\S]*unsupported/u));
    await row(p, new RegExp(`Captured tool result[\\s\\S]*${handle}`, "u")).click();
    await p.locator(".tab", { hasText: `Captured Bash` }).first().waitFor({ timeout: 20_000 });
    await p.locator(".monaco-editor .view-line", { hasText: "2 tests failed" }).first().waitFor({ timeout: 20_000 });
    await shot("03-evidence-opened");
    await expand(row(p, /The handler returns a[\s\S]*partly supported/u));
    await row(p, /src\/a\.ts[\s\S]*file/u).click();
    await p.locator(".tab", { hasText: "a.ts" }).first().waitFor({ timeout: 20_000 });
    await p.locator(".monaco-editor .view-line", { hasText: "export const a = 1" }).first().waitFor({ timeout: 20_000 });
    mark("sourcesOpened");
    await shot("04-file-opened");

    // The supported review's user input shows only its digest, in a tooltip.
    await expand(supported);
    await expand(row(p, /src\/a\.ts exports a = 1[\s\S]*supported/u));
    const input = row(p, /User input/u);
    await input.waitFor({ timeout: 10_000 });
    await icon(input, "person");
    await input.hover();
    const hover = p.locator(".monaco-hover, .workbench-hover", { hasText: /sealed the user.s input by its digest only/u }).first();
    await hover.waitFor({ timeout: 15_000 });
    assert.match(await hover.innerText(), /SHA-256 when the review opened: [0-9a-f]{64}/u);
    assert.doesNotMatch(await hover.innerText(), /Make a equal 1/u, "never the text itself");
    await shot("05-user-input-tooltip");

    // The icons follow the theme: the same tree in a dark theme (the workspace settings are watched).
    await p.keyboard.press("Escape");
    fs.writeFileSync(path.join(workspace, ".vscode", "settings.json"), `${JSON.stringify({ "docket.guard.mode": "block-once", "workbench.colorTheme": "Default Dark Modern" }, null, 2)}\n`);
    await p.locator(".monaco-workbench.vs-dark").first().waitFor({ timeout: 20_000 });
    await lastStop.hover();
    await p.waitForTimeout(300);
    await shot("06-dark-theme");
  });
});
