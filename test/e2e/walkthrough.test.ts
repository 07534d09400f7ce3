// The Getting Started walkthrough in a real VS Code workbench (code-server + Chromium): it is
// listed under Welcome: Open Walkthrough…, shows its steps with their pages, and its first step's
// button turns Docket on (the step then counts as done). Screenshots go to test-artifacts/e2e-walkthrough/.
import { test } from "node:test";
import { openDocketContainer } from "./support/docketViews";
import { inWorkbench, runCommand, SIDEBAR_ROWS } from "./support/workbench";

const BUDGET_MS = Number(process.env.DOCKET_E2E_BUDGET_MS ?? 240_000);

test("the Get Started walkthrough is listed, shows its steps and turns Docket on from its first step (code-server)", { timeout: BUDGET_MS + 600_000 }, async (t) => {
  const files = { "README.md": "# Greeting service\n", "src/greet.ts": "export const greet = (name: string): string => `hello ${name}`;\n" };
  await inWorkbench(t, { label: "e2e-walkthrough", files, budgetMs: BUDGET_MS }, async (workbench) => {
    const { page: p, shot } = workbench;
    await openDocketContainer(p);
    await runCommand(p, "Welcome: Open Walkthrough...");
    const picker = p.locator(".quick-input-widget", { hasText: /Get Started with Docket/u }).first();
    await picker.waitFor({ state: "visible", timeout: 20_000 });
    await picker.locator("input").first().fill("Get Started with Docket");
    await p.keyboard.press("Enter");
    const page = p.locator(".gettingStartedContainer", { hasText: /Get Started with Docket/u }).first();
    await page.waitFor({ state: "visible", timeout: 30_000 });
    for (const step of [/Turn Docket on/u, /Decide before you edit/u, /Authorize the change/u]) await page.locator(".getting-started-step", { hasText: step }).first().waitFor({ timeout: 20_000 });
    await shot("01-walkthrough");
    // The first step's own button runs Turn On; the Work view then offers the first judgment.
    await page.locator(".getting-started-step", { hasText: /Turn Docket on/u }).first().click();
    await page.locator(".getting-started-step.expanded a, .getting-started-step.expanded button", { hasText: /^Turn On$/u }).first().click();
    await p.locator(SIDEBAR_ROWS, { hasText: /Next: Open a judgment/u }).first().waitFor({ timeout: 30_000 });
    // The step's circle becomes a check once Docket is on (its completion events).
    await page.locator(".getting-started-step", { hasText: /Turn Docket on/u }).first().locator(".codicon-getting-started-step-checked").first().waitFor({ timeout: 20_000 });
    await shot("02-turned-on-from-the-walkthrough");
  });
});
