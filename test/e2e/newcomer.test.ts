// A newcomer's cycle in a real VS Code workbench (code-server + Chromium), driven only by
// "Docket: Next Step…" and the first (recommended) item of every pick: the palette offers only the
// operations legal in the phase, every route says what it is for, the reroute judgment recommends
// its route first, step counts never change mid-flow, a refused landing keeps what was typed for
// the next attempt, and the verified end says the cycle is complete. Screenshots go to
// test-artifacts/e2e-newcomer/.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { openDocketContainer } from "./support/docketViews";
import type { Page } from "./support/playwright";
import { answerQuickInput, inWorkbench, runCommand, SIDEBAR_ROWS } from "./support/workbench";

const BUDGET_MS = Number(process.env.DOCKET_E2E_BUDGET_MS ?? 240_000);
const NEXT_STEP = "Docket: Next Step…";

async function treeRow(page: Page, text: string | RegExp): Promise<void> {
  await page.locator(SIDEBAR_ROWS, { hasText: text }).first().waitFor({ timeout: 30_000 });
}

async function toast(page: Page, text: RegExp): Promise<void> {
  await page.locator(".notifications-toasts", { hasText: text }).first().waitFor({ timeout: 30_000 });
}

/** Takes the first item of the pick whose title or prompt matches `expect` (what Enter does), returning the items' text. */
async function acceptFirst(page: Page, expect: RegExp): Promise<string[]> {
  const widget = page.locator(".quick-input-widget", { hasText: expect }).first();
  await widget.waitFor({ state: "visible", timeout: 20_000 });
  const rows = widget.locator(".quick-input-list .monaco-list-row");
  await rows.first().waitFor({ timeout: 20_000 });
  const texts = await rows.allInnerTexts();
  await page.keyboard.press("Enter");
  await widget.waitFor({ state: "hidden", timeout: 10_000 }).catch(() => undefined);
  return texts;
}

/** Accepts a box that already holds `value` (what was typed before a refusal). */
async function acceptPrefilled(page: Page, expect: RegExp, value: string): Promise<void> {
  const widget = page.locator(".quick-input-widget", { hasText: expect }).first();
  await widget.waitFor({ state: "visible", timeout: 20_000 });
  assert.equal(await widget.locator("input").first().inputValue(), value);
  await page.keyboard.press("Enter");
}

/** The example the box at `expect` offers (its placeholder), once it is visible. */
async function exampleOf(page: Page, expect: RegExp): Promise<string> {
  const widget = page.locator(".quick-input-widget", { hasText: expect }).first();
  await widget.waitFor({ state: "visible", timeout: 20_000 });
  return (await widget.locator("input").first().getAttribute("placeholder")) ?? "";
}

async function answerList(page: Page, step: RegExp, entries: readonly string[]): Promise<void> {
  for (const [index, entry] of entries.entries()) await answerQuickInput(page, new RegExp(`${step.source}[\\s\\S]*entry ${index + 1}\\.`, "u"), entry);
  await answerQuickInput(page, new RegExp(`${step.source}[\\s\\S]*entry ${entries.length + 1}\\.`, "u"), "");
}

/** The palette's rows for `query` (after it settled), then closes it. */
async function paletteRows(page: Page, query: string): Promise<string[]> {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input").first();
  await input.waitFor({ state: "visible", timeout: 15_000 });
  await page.keyboard.type(query);
  await page.waitForTimeout(1_000);
  const rows = await page.locator(".quick-input-list .monaco-list-row").allInnerTexts();
  await page.keyboard.press("Escape");
  return rows;
}

test("a newcomer's cycle through Next Step and the recommended items, in real VS Code (code-server)", { timeout: BUDGET_MS + 600_000 }, async (t) => {
  const files = { "README.md": "# Greeting service\n", "src/greet.ts": "export const greet = (name: string): string => `hello ${name}`;\n" };
  await inWorkbench(t, { label: "e2e-newcomer", files, budgetMs: BUDGET_MS }, async (workbench) => {
    const { page: p, shot } = workbench;
    await openDocketContainer(p);
    await runCommand(p, "Docket: Turn On");
    await treeRow(p, /Next: Open a judgment/);

    // Only the legal operation is offered in the palette. Each is asked by name: "Docket: " alone
    // lists more commands than the palette shows rows.
    const offered = (await paletteRows(p, "Docket: Open Judgment")).join("\n");
    assert.match(offered, /Docket: Open Judgment/u, offered);
    await shot("01-palette-legal-only");
    for (const illegal of ["Record Landing", "Authorize Change", "Conclude Judgment"]) {
      const rows = (await paletteRows(p, `Docket: ${illegal}`)).join("\n");
      assert.doesNotMatch(rows, new RegExp(`Docket: ${illegal}`, "u"), rows);
    }

    // Work judgment: the owner first (uncounted), then a stable count of three steps.
    await runCommand(p, NEXT_STEP);
    const owners = await acceptFirst(p, /Open Judgment[\s\S]*No owning Skill/u);
    assert.match(owners[0] ?? "", /No owning Skill[\s\S]*Recommended/u);
    const routes = p.locator(".quick-input-widget", { hasText: /\(1\/3\)[\s\S]*meaning settlement/u }).first();
    await routes.waitFor({ state: "visible", timeout: 20_000 });
    await shot("02-routes-in-plain-words");
    const routeTexts = await acceptFirst(p, /\(1\/3\)/u);
    assert.match(routeTexts[0] ?? "", /meaning settlement[\s\S]*Decide what the product should mean/u);
    assert.match(await exampleOf(p, /\(2\/3\)/u), /^e\.g\. /u);
    await answerQuickInput(p, /\(2\/3\)/u, "Should greet() trim the name?");
    await answerList(p, /\(3\/3\)/u, ["Decide whether surrounding spaces are part of a name"]);
    await treeRow(p, "Should greet() trim the name?");

    await runCommand(p, NEXT_STEP);
    await acceptFirst(p, /Conclude[\s\S]*Contextual judgment/u);
    await answerQuickInput(p, /Should greet\(\) trim the name\?[\s\S]*\(1\/3\)/u, "greet() trims the name");
    await answerQuickInput(p, /\(2\/3\)/u, "Names typed with stray spaces should greet the same person");
    await answerList(p, /\(3\/3\)/u, ["The support ticket shows ' Ada ' greeted with spaces"]);
    await treeRow(p, /Next: Authorize the change/);

    await runCommand(p, NEXT_STEP);
    await answerQuickInput(p, /\(1\/3\)/u, "Trim the name in greet()");
    await answerQuickInput(p, /\(2\/3\)/u, "src/greet.ts trims the name; nothing else changed");
    await answerQuickInput(p, /\(3\/3\)/u, "Read src/greet.ts");
    await treeRow(p, /Authorized change/);

    // A landing before any file changed is refused; what was typed comes back on the next attempt.
    await runCommand(p, NEXT_STEP);
    await answerQuickInput(p, /Record Landing[\s\S]*\(1\/2\)/u, "greet() now trims the name");
    await answerList(p, /\(2\/2\)/u, ["Read the diff"]);
    await toast(p, /Nothing changed in the workspace since authorization/u);
    await shot("03-landing-refused");
    fs.writeFileSync(path.join(workbench.dirs.workspace, "src", "greet.ts"), "export const greet = (name: string): string => `hello ${name.trim()}`;\n");
    await runCommand(p, NEXT_STEP);
    await acceptPrefilled(p, /Record Landing[\s\S]*\(1\/2\)/u, "greet() now trims the name");
    await acceptPrefilled(p, /\(2\/2\)[\s\S]*entry 1\./u, "Read the diff");
    await answerQuickInput(p, /\(2\/2\)[\s\S]*entry 2\./u, "");
    await treeRow(p, /Reroute debt/);

    // The reroute judgment recommends its route first.
    await runCommand(p, NEXT_STEP);
    await acceptFirst(p, /Open Judgment[\s\S]*No owning Skill/u);
    const rerouteRoutes = p.locator(".quick-input-widget", { hasText: /reroute decision[\s\S]*\(1\/3\)/u }).first();
    await rerouteRoutes.waitFor({ state: "visible", timeout: 20_000 });
    await shot("04-reroute-route-recommended");
    const rerouteTexts = await acceptFirst(p, /reroute decision[\s\S]*\(1\/3\)/u);
    assert.match(rerouteTexts[0] ?? "", /change timing[\s\S]*Recommended for a reroute judgment/u);
    assert.match(await exampleOf(p, /reroute decision[\s\S]*\(2\/3\)/u), /greet\(\) now trims the name/u, "the example quotes the landing");
    await answerQuickInput(p, /reroute decision[\s\S]*\(2\/3\)/u, "Does the trimmed greeting change the plan?");
    await answerList(p, /\(3\/3\)/u, ["Check whether other callers pass padded names"]);
    await treeRow(p, "Does the trimmed greeting change the plan?");
    await runCommand(p, NEXT_STEP);
    await acceptFirst(p, /Conclude[\s\S]*Contextual judgment/u);
    await answerQuickInput(p, /\(1\/3\)/u, "The plan holds");
    await answerQuickInput(p, /\(2\/3\)/u, "Only greet() handles names");
    await answerList(p, /\(3\/3\)/u, ["src/greet.ts is the only caller of trim"]);

    // Verification: its route is fixed and the title says so instead of asking.
    await runCommand(p, NEXT_STEP);
    await acceptFirst(p, /claim–evidence route[\s\S]*No owning Skill/u);
    assert.match(await exampleOf(p, /claim–evidence route[\s\S]*\(1\/2\)/u), /Does the landed change do what was authorized: greet\(\) now trims the name/u);
    await answerQuickInput(p, /claim–evidence route[\s\S]*\(1\/2\)/u, "Does greet() trim the name now?");
    await answerList(p, /\(2\/2\)/u, ["Confirm the landed behaviour"]);
    await treeRow(p, "Does greet() trim the name now?");
    await runCommand(p, NEXT_STEP);
    await acceptFirst(p, /Conclude[\s\S]*Contextual judgment/u);
    await answerQuickInput(p, /\(1\/3\)/u, "greet() trims the name");
    await answerQuickInput(p, /\(2\/3\)/u, "The landed file calls name.trim()");
    await answerList(p, /\(3\/3\)/u, ["src/greet.ts line 1"]);
    await toast(p, /The cycle is complete: the landing is verified/u);
    await treeRow(p, /Cycle complete[\s\S]*the landing is verified/);
    await shot("05-cycle-complete");
  });
});
