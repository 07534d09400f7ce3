// The acceptance cycle, driven by a person in a real VS Code workbench (code-server + Chromium) from
// the command palette against a fresh Git repository: Turn On → open a judgment → conclude it → authorize the
// change → edit a file → record the landing → reroute judgment → verification judgment → Done. Asserts what
// the Work tree, the status bar and the Receipts view show at each step, opens the landed path's
// "before ⇄ now" diff, and leaves screenshots in test-artifacts/e2e-cycle/.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { openDocketContainer, receiptKinds } from "./support/docketViews";
import type { Page } from "./support/playwright";
import { answerQuickInput, inWorkbench, runCommand, SIDEBAR_ROWS } from "./support/workbench";

const BUDGET_MS = Number(process.env.DOCKET_E2E_BUDGET_MS ?? 240_000);

async function treeRow(page: Page, text: string | RegExp): Promise<void> {
  await page.locator(SIDEBAR_ROWS, { hasText: text }).first().waitFor({ timeout: 30_000 });
}

async function statusBarSays(page: Page, text: RegExp): Promise<void> {
  await page.locator(".statusbar-item", { hasText: text }).first().waitFor({ timeout: 30_000 });
}

/** Answers a list prompt: one box per entry, then an empty box to finish. */
async function answerList(page: Page, step: RegExp, entries: readonly string[]): Promise<void> {
  for (const [index, entry] of entries.entries()) await answerQuickInput(page, new RegExp(`${step.source}[\\s\\S]*entry ${index + 1}\\.`, "u"), entry);
  await answerQuickInput(page, new RegExp(`${step.source}[\\s\\S]*entry ${entries.length + 1}\\.`, "u"), "");
}

test("full developer cycle from the command palette in real VS Code (code-server)", { timeout: BUDGET_MS + 600_000 }, async (t) => {
  const files = {
    "README.md": "# Greeting service\n",
    "src/hello.ts": 'export const hello = (name: string): string => `hello ${name}`;\n',
  };
  await inWorkbench(t, { label: "e2e-cycle", files, budgetMs: BUDGET_MS }, async (workbench) => {
    const { page: p, shot, mark } = workbench;
    await openDocketContainer(p);
    await runCommand(p, "Docket: Turn On");
    await treeRow(p, /Next: Open a judgment/);
    await statusBarSays(p, /Docket: Deciding/);
    mark("on");

    // Work judgment on a route picked from the catalogue, owned by Docket itself.
    await runCommand(p, "Docket: Open Judgment");
    await answerQuickInput(p, /Open Judgment[\s\S]*No owning Skill/u, "No owning Skill");
    await answerQuickInput(p, /\(1\/3\)/u, "meaning settlement");
    await answerQuickInput(p, /\(2\/3\)/u, "Should the greeting end with an exclamation mark?");
    await answerList(p, /\(3\/3\)/u, ["Decide the greeting's punctuation"]);
    await treeRow(p, "Should the greeting end with an exclamation mark?");
    await treeRow(p, /Decide the greeting's punctuation/);
    mark("opened");
    await shot("01-frame-open");

    // A bundled skill's method opened as context for the open judgment (multi-select pick).
    await runCommand(p, "Docket: Open Context Sources");
    const picker = p.locator(".quick-input-widget", { hasText: /Open Context Sources/u }).first();
    await picker.waitFor({ state: "visible", timeout: 20_000 });
    await picker.locator("input").first().fill("doctor");
    const doctor = p.locator(".quick-input-list .monaco-list-row", { hasText: "doctor" }).first();
    await doctor.waitFor({ timeout: 20_000 });
    // In a multi-select pick, clicking a row toggles its checkbox; OK accepts the checked rows.
    await doctor.click();
    await picker.locator(".quick-input-count", { hasText: "1" }).first().waitFor({ timeout: 10_000 });
    await p.keyboard.press("Enter");
    await p.locator(".notifications-toasts", { hasText: /Opened as context: doctor/u }).first().waitFor({ timeout: 20_000 });

    await runCommand(p, "Docket: Conclude Judgment");
    await answerQuickInput(p, /Conclude[\s\S]*Contextual judgment/u, "Contextual judgment");
    await answerQuickInput(p, /\(1\/3\)/u, "End the greeting with an exclamation mark");
    await answerQuickInput(p, /\(2\/3\)/u, "The product copy guide asks for excited greetings");
    await answerList(p, /\(3\/3\)/u, ["Copy guide section 2"]);
    await statusBarSays(p, /Docket: Ready to edit/);
    await treeRow(p, /Next: Authorize the change/);
    mark("concluded");

    await runCommand(p, "Docket: Authorize Change");
    await answerQuickInput(p, /\(1\/3\)/u, "Add an exclamation mark to hello()");
    await answerQuickInput(p, /\(2\/3\)/u, "hello() returns 'hello <name>!'");
    await answerQuickInput(p, /\(3\/3\)/u, "Read src/hello.ts");
    await treeRow(p, /Authorized change/);
    await statusBarSays(p, /Docket: Editing/);
    mark("authorized");
    await shot("02-authorized");

    // The person edits the file (outside Docket, as an agent or editor would).
    fs.writeFileSync(path.join(workbench.dirs.workspace, "src", "hello.ts"), 'export const hello = (name: string): string => `hello ${name}!`;\n');

    await runCommand(p, "Docket: Record Landing");
    await answerQuickInput(p, /\(1\/2\)/u, "hello() now ends with an exclamation mark");
    await answerList(p, /\(2\/2\)/u, ["Read the diff"]);
    await treeRow(p, /Reroute debt/);
    await statusBarSays(p, /Docket: Rerouting/);
    mark("landed");
    await shot("03-landed");

    // Reroute judgment: does the landing change the plan? Not applicable here.
    await runCommand(p, "Docket: Open Judgment");
    await answerQuickInput(p, /reroute decision[\s\S]*No owning Skill/u, "No owning Skill");
    await answerQuickInput(p, /reroute decision[\s\S]*\(1\/3\)/u, "change timing");
    await answerQuickInput(p, /\(2\/3\)/u, "Does the landing call for a different route?");
    await answerList(p, /\(3\/3\)/u, ["Check whether the plan still holds"]);
    await treeRow(p, "Does the landing call for a different route?");
    await runCommand(p, "Docket: Conclude Judgment");
    await answerQuickInput(p, /Conclude[\s\S]*Contextual judgment/u, "Not applicable");
    await answerQuickInput(p, /\(1\/2\)/u, "The landing did exactly what was decided");
    await answerList(p, /\(2\/2\)/u, ["The diff touches only src/hello.ts"]);
    await statusBarSays(p, /Docket: Verifying/);
    mark("rerouted");

    // Verification judgment: its route is fixed; the bundled verify skill owns it (routing, assignment and
    // invocation are recorded, and the conclusion settles the invocation).
    await runCommand(p, "Docket: Open Judgment");
    await answerQuickInput(p, /verification decision[\s\S]*No owning Skill/u, "verify");
    await answerQuickInput(p, /\(1\/4\)/u, "Does hello() end with an exclamation mark now?");
    await answerList(p, /\(2\/4\)/u, ["Confirm the landed behaviour"]);
    await answerQuickInput(p, /\(3\/4\)/u, "Does src/hello.ts return the greeting with an exclamation mark?");
    await answerQuickInput(p, /\(4\/4\)/u, "A checked claim about the landed greeting");
    await treeRow(p, "Does hello() end with an exclamation mark now?");
    await treeRow(p, /Owning Skill/);
    await shot("04-verification-owned-by-verify");
    await runCommand(p, "Docket: Conclude Judgment");
    await answerQuickInput(p, /Conclude[\s\S]*Contextual judgment/u, "Contextual judgment");
    await answerQuickInput(p, /\(1\/3\)/u, "hello() ends with an exclamation mark");
    await answerQuickInput(p, /\(2\/3\)/u, "The landed file shows the new template literal");
    await answerList(p, /\(3\/3\)/u, ["src/hello.ts line 1"]);
    await statusBarSays(p, /Docket: Done/);
    await treeRow(p, /Cycle complete/);
    mark("verified");

    const kinds = await receiptKinds(t, workbench, 30, "05a-new-receipts-banner");
    const count = (kind: string): number => kinds.filter((entry) => entry === kind).length;
    assert.equal(count("work-scope-opened"), 1, "one scope");
    assert.equal(count("route-frame-opened"), 3, "work, reroute and verification frames");
    assert.equal(count("route-frame-concluded"), 3, "all three frames concluded");
    assert.equal(count("change-authorized"), 1, "one authorization");
    assert.equal(count("implementation-landing-recorded"), 1, "one landing");
    assert.equal(count("skill-invocation-started"), 1, "the verify skill was invoked");
    assert.equal(count("invocation-settled"), 1, "and its invocation settled");
    await shot("05-done-work-tree-and-receipts");

    // Receipts: filter to the authorization, open its detail, and follow its causal ref to the conclusion it cites.
    const receipts = workbench.receipts;
    await receipts.locator('[data-testid="kind-filter"]').selectOption("change-authorized");
    const authorizationRow = receipts.locator('[data-testid="receipt-row"][data-kind="change-authorized"]').first();
    await authorizationRow.waitFor({ timeout: 20_000 });
    // The authorization row was there before the filter too: wait for the others to go, not for it.
    await receipts.locator('[data-testid="receipt-row"]:not([data-kind="change-authorized"])').first().waitFor({ state: "detached", timeout: 20_000 });
    assert.equal(await receipts.locator('[data-testid="receipt-row"]').count(), 1, "the filter leaves the one authorization");
    await authorizationRow.click();
    await receipts.locator('[data-testid="receipt-detail"][data-kind="change-authorized"]').waitFor({ timeout: 20_000 });
    const canonical = await receipts.locator('[data-testid="canonical-json"]').innerText();
    assert.match(canonical, /"kind":"change-authorized"/u, "the detail shows the canonical envelope");
    await shot("06-receipt-detail");
    await receipts.locator('[data-testid="causal-ref"]').first().click();
    await receipts.locator('[data-testid="receipt-detail"][data-kind="route-frame-concluded"]').waitFor({ timeout: 20_000 });
    await shot("07-causal-ref-followed");

    // The landed path opens a diff of the file before the change against the working tree.
    await p.locator(SIDEBAR_ROWS, { hasText: /^hello\.ts|src\/hello\.ts/u }).first().click();
    await p.locator(".monaco-diff-editor").first().waitFor({ timeout: 30_000 });
    await p.locator(".tab", { hasText: /before the change/u }).first().waitFor({ timeout: 10_000 });
    // Both sides rendered: the baseline line without "!" and the working-tree line with it.
    await p.locator(".monaco-diff-editor .view-line", { hasText: "name}!" }).first().waitFor({ timeout: 20_000 });
    await p.locator(".monaco-diff-editor .view-line", { hasText: "hello ${name}`" }).first().waitFor({ timeout: 20_000 });
    mark("diff");
    await shot("08-landing-diff");
    const tree = await p.locator(SIDEBAR_ROWS).allInnerTexts();
    t.diagnostic(`Work tree at the end: ${JSON.stringify(tree)}`);
  });
});
