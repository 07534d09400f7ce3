// Team provenance in a real VS Code workbench (code-server + Chromium), issue 17: a landing recorded
// on a feature branch and committed with its `Docket-Landing:` trailer shows its commit under the
// landing's Commits row in the Work view (asked for only once the landing's row is open), a click
// opens the commit's changes (VS Code's Git extension), and "Docket: Audit Branch…" offers
// `main..HEAD`, takes Enter and shows the Markdown report in a preview. Screenshots land in
// test-artifacts/e2e-team/.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { repoRoot } from "../support/repoRoot";
import { openDocketContainer } from "./support/docketViews";
import type { Locator, Page } from "./support/playwright";
import { inWorkbench, SIDEBAR_ROWS } from "./support/workbench";

const BUDGET_MS = Number(process.env.DOCKET_E2E_BUDGET_MS ?? 240_000);
/** server/team/commitLinks.ts answers no commits until the commit-links work replaces the interface stub. */
const LINKS_STUB = fs.readFileSync(path.join(repoRoot(), "server", "team", "commitLinks.ts"), "utf8").includes("INTERFACE STUB");
const RESULT = "hello() ends with an exclamation mark";
const SUBJECT = "Greet with an exclamation mark";

function row(page: Page, text: string | RegExp): Locator {
  return page.locator(SIDEBAR_ROWS, { hasText: text }).first();
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-C", cwd, "-c", "user.name=Docket Test", "-c", "user.email=docket-test@example.invalid", ...args], { encoding: "utf8" });
}

/** On a feature branch: Docket on, one landing of src/hello.ts, committed with the landing's trailer. */
async function landAndCommit(workspace: string): Promise<{ sha: string }> {
  git(workspace, "checkout", "--quiet", "-b", "feature");
  const ledger = new WorkspaceLedger({ workspaceFolder: workspace, ledgerPath: path.join(workspace, ".docket", "ledger.jsonl"), trusted: true });
  ledger.refresh();
  await ledger.turnOn();
  await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "Should the greeting end with an exclamation mark?", obligations: [{ obligationId: "obligation:a", statement: "The punctuation is decided." }] });
  await ledger.concludeJudgment({ disposition: "not-applicable", reason: "The copy guide decides it.", basis: ["Copy guide section 2"] });
  await ledger.authorizeChange({ movement: "Add an exclamation mark to hello()", stableLanding: "hello() returns 'hello <name>!'", verificationTarget: "Read src/hello.ts" });
  fs.writeFileSync(path.join(workspace, "src", "hello.ts"), "export const hello = (name: string): string => `hello ${name}!`;\n");
  await ledger.recordLanding({ result: RESULT, verification: [] });
  const landing = ledger.workState().landings.at(-1);
  assert.ok(landing !== undefined);
  git(workspace, "add", "src/hello.ts");
  git(workspace, "commit", "--quiet", "--no-verify", "-m", `${SUBJECT}\n\nDocket-Landing: ${landing.landingId} ${landing.eventSha256}\n`);
  return { sha: git(workspace, "rev-parse", "HEAD").trim() };
}

/** The trailer line of the landing's commit (HEAD's message), for a follow-up commit to repeat. */
function landingLine(workspace: string): string {
  return git(workspace, "log", "-1", "--format=%(trailers:key=Docket-Landing)").trim();
}

function secondCommit(workspace: string, trailer: string): string {
  fs.writeFileSync(path.join(workspace, "src", "hello.ts"), "export const hello = (name: string): string => `hello ${name.trim()}!`;\n");
  git(workspace, "commit", "--quiet", "--no-verify", "-am", `Follow-up\n\n${trailer}\n`);
  return git(workspace, "rev-parse", "HEAD").trim();
}

test("a landing's commit in the Work view and Docket: Audit Branch… in real VS Code (code-server)", { timeout: BUDGET_MS + 600_000 }, async (t) => {
  const files = {
    "README.md": "# Greeting service\n",
    ".gitignore": ".docket/\n",
    "src/hello.ts": "export const hello = (name: string): string => `hello ${name}`;\n",
  };
  await inWorkbench(t, { label: "e2e-team", files, budgetMs: BUDGET_MS }, async (workbench) => {
    const { page: p, shot, mark, dirs } = workbench;
    await p.locator(".statusbar-item", { hasText: /Docket: Off/u }).first().waitFor({ timeout: 60_000 });
    const { sha } = await landAndCommit(dirs.workspace);
    mark("landed");
    await openDocketContainer(p);
    // Its debts are pending, so the landing's row opens by itself, and that asks for its commits.
    await row(p, RESULT).waitFor({ timeout: 30_000 });
    const commits = row(p, /^Commits/u);
    await commits.waitFor({ timeout: 30_000 });
    if (LINKS_STUB) {
      t.diagnostic("server/team/commitLinks.ts is the interface stub: the Commits row says none yet");
      await row(p, /Commits\s*not committed yet/u).waitFor({ timeout: 30_000 });
      await shot("01-work-tree-commits");
    } else {
      const commit = row(p, new RegExp(`${sha.slice(0, 7)}\\s*${SUBJECT}`, "u"));
      await commit.waitFor({ timeout: 30_000 });
      await row(p, /Commits\s*1 commit/u).waitFor({ timeout: 10_000 });
      await shot("01-work-tree-commits");
      mark("commitRow");
      await commit.click();
      // The Git extension's commit view (a multi-file diff titled "<short id> - <subject>").
      await p.locator(".tabs-container .tab", { hasText: sha.slice(0, 7) }).first().waitFor({ timeout: 30_000 });
      await p.waitForTimeout(1_000);
      await shot("02-commit-diff");
      mark("commitDiff");
      // A new commit moves HEAD but not the ledger: the .git watcher alone brings the second row.
      const second = secondCommit(dirs.workspace, landingLine(dirs.workspace));
      await row(p, new RegExp(`${second.slice(0, 7)}\\s*Follow-up`, "u")).waitFor({ timeout: 20_000 });
      await row(p, /Commits\s*2 commits/u).waitFor({ timeout: 10_000 });
      mark("headMoved");
    }

    // From the Work view's "…" menu (it is in the command palette too: the extension-host suite runs it).
    const header = p.locator('[id="workbench.parts.sidebar"] .pane-header', { hasText: /Work/u }).first();
    await header.hover();
    await header.locator('.action-label[aria-label*="More Actions"]').first().click();
    const menuItem = p.locator(".monaco-menu .action-item", { hasText: "Audit Branch…" }).first();
    await menuItem.waitFor({ timeout: 10_000 });
    await shot("03-work-view-menu");
    await menuItem.click();
    const box = p.locator(".quick-input-widget", { hasText: /revision range to audit/u }).first();
    await box.waitFor({ state: "visible", timeout: 20_000 });
    // A newcomer just presses Enter: the offered range is the feature branch's commits.
    assert.equal(await box.locator("input").first().inputValue(), "main..HEAD");
    await shot("04-audit-range");
    await p.keyboard.press("Enter");
    await p.locator(".tabs-container .tab", { hasText: /Docket audit main\.\.HEAD/u }).first().waitFor({ timeout: 60_000 });
    await p.locator(".notifications-toasts", { hasText: /Docket audited main\.\.HEAD/u }).first().waitFor({ timeout: 30_000 });
    // The preview (a webview, like the Receipts view) renders the backend's Markdown: its first heading names the range.
    let found = false;
    for (let attempt = 0; attempt < 40 && !found; attempt++) {
      const webviews = await p.locator("iframe.webview").count();
      for (let index = 0; index < webviews && !found; index++) {
        const heading = p.frameLocator(`iframe.webview >> nth=${index}`).frameLocator("#active-frame").locator("h1", { hasText: /main\.\.HEAD/u });
        found = (await heading.count().catch(() => 0)) > 0;
      }
      if (!found) await p.waitForTimeout(250);
    }
    assert.ok(found, "the preview shows the report's heading");
    await shot("05-audit-preview");
    mark("audit");
  });
});
