// Discovery in a real VS Code workbench (code-server + Chromium) at the default side-bar width
// (300 px in a 1400 px window): a whole Developer cycle driven by "Docket: Next Step…" with a judgment
// owned by a bundled Skill, where every Work row's label fits (nothing the row is about is cut); the
// Work view shows the subquestion and expected contribution typed for the owner, one entry per
// contribution claim, an obligation "settled by the conclusion" whose tooltip says what the
// discharge cites, and the closed scope's judgments and landing under History while Docket is off;
// Show Method opens a read-only `docket-method:` document that closes without asking to save; a
// Notebook proposal made with the CLI puts a count on the Docket icon whose source the Work view
// shows (the badge is the Work view's, the row says what waits) and one click on that row opens
// the proposal in the collapsed Observer view with its first record's diff. Screenshots go to
// test-artifacts/e2e-discovery/.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test, type TestContext } from "node:test";
import { recordFileLabel, shortProposalId } from "../../extension/proposalTreeModel";
import { sourceMarkdown } from "../support/notebookRecords";
import { repoRoot } from "../support/repoRoot";
import { openDocketContainer } from "./support/docketViews";
import type { Locator, Page } from "./support/playwright";
import { answerQuickInput, hoverFor, inWorkbench, runCommand } from "./support/workbench";

const BUDGET_MS = Number(process.env.DOCKET_E2E_BUDGET_MS ?? 300_000);
const NEXT_STEP = "Docket: Next Step…";
const SIDE_BAR = '[id="workbench.parts.sidebar"]';
const DEFAULT_SIDE_BAR_WIDTH = 300;
const SOURCE = "source-00000000-0000-4000-8000-00000000000b";

const QUESTION = "Should greet() trim the name?";
const OBLIGATION = "Spaces are not part of a name";
const SUBQUESTION = "Which names arrive padded?";
const EXPECTED = "A list of padded inputs";
const CONCLUSION = "greet() trims the name";
const STOP_EVIDENCE = "Ticket 12 shows ' Ada '";
const LANDING = "greet() now trims";
const REROUTE = "Does the plan change?";
const VERIFICATION = "Does greet() trim now?";
const REROUTE_OBLIGATION = "Other callers checked";
const VERIFICATION_OBLIGATION = "The landed behaviour is seen";
/** Row labels that are text the test types (a closed scope is named by its landing). */
const TYPED: ReadonlySet<string> = new Set([QUESTION, OBLIGATION, LANDING, REROUTE, REROUTE_OBLIGATION, VERIFICATION, VERIFICATION_OBLIGATION]);

function docket(args: readonly string[], cwd: string): string {
  return execFileSync(process.execPath, [path.join(repoRoot(), "dist", "docket.js"), ...args], { cwd, encoding: "utf8", timeout: 30_000 });
}

/** The side-bar pane whose title is `title` (VS Code labels each pane header "<title> Section"). */
function pane(page: Page, title: string): Locator {
  return page.locator(`${SIDE_BAR} .pane:has(> .pane-header[aria-label="${title} Section"])`).first();
}

function paneRow(page: Page, title: string, text: string | RegExp): Locator {
  return pane(page, title).locator(".monaco-list-row", { hasText: text }).first();
}

interface RowFit {
  readonly label: string;
  readonly description: string;
  readonly labelCut: boolean;
  readonly descriptionCut: boolean;
}

/**
 * Every rendered row of a pane: whether its label (and its description) is cut. Layout keeps an
 * inline span at its full width even when its container clips it, so a span ending right of the
 * container is cut; and when anything in the row overflows, the "…" the container draws at its end
 * takes the label's last characters unless the label leaves room for it.
 */
async function rowFits(page: Page, title: string): Promise<RowFit[]> {
  return pane(page, title)
    .locator(".monaco-list-row")
    .evaluateAll((rows) => {
      const canvas = document.createElement("canvas").getContext("2d");
      return rows.map((row) => {
        const container = row.querySelector(".monaco-icon-label-container");
        const name = row.querySelector(".label-name");
        const description = row.querySelector(".label-description");
        const right = container?.getBoundingClientRect().right ?? 0;
        const overflows = container !== null && container.scrollWidth > container.clientWidth;
        let ellipsis = 0;
        if (canvas !== null && name !== null) {
          canvas.font = getComputedStyle(name).font;
          ellipsis = canvas.measureText("…").width;
        }
        const nameRight = name?.getBoundingClientRect().right ?? 0;
        return {
          label: name?.textContent ?? "",
          description: description?.textContent ?? "",
          labelCut: name !== null && (nameRight > right + 0.5 || (overflows && nameRight + ellipsis > right + 0.5)),
          descriptionCut: description !== null && description.getBoundingClientRect().right > right + 0.5,
        };
      });
    });
}

/**
 * Asserts that no label Docket writes is cut in the pane. Labels that are what the user typed (a
 * question, an obligation, a landing) may be, when long and deep: their tooltips hold them whole.
 */
async function assertLabelsFit(t: TestContext, page: Page, title: string, moment: string): Promise<RowFit[]> {
  const fits = await rowFits(page, title);
  assert.ok(fits.length > 0, `${moment}: the ${title} view shows rows`);
  const typedCut = fits.filter((fit) => fit.labelCut && TYPED.has(fit.label)).map((fit) => fit.label);
  const descriptionsCut = fits.filter((fit) => fit.descriptionCut).map((fit) => `${fit.label} | ${fit.description}`);
  t.diagnostic(`${moment}: ${fits.length} ${title} rows; typed labels cut: ${JSON.stringify(typedCut)}; descriptions cut: ${JSON.stringify(descriptionsCut)}`);
  assert.deepEqual(
    fits.filter((fit) => fit.labelCut && !TYPED.has(fit.label)).map((fit) => fit.label),
    [],
    `${moment}: no ${title} row label Docket writes is cut at the default side-bar width`,
  );
  return fits;
}

/** The descriptions of the rows labelled exactly `label`. */
function descriptionsOf(fits: readonly RowFit[], label: string): string[] {
  return fits.filter((fit) => fit.label === label).map((fit) => fit.description);
}

async function answerList(page: Page, step: RegExp, entries: readonly string[]): Promise<void> {
  for (const [index, entry] of entries.entries()) await answerQuickInput(page, new RegExp(`${step.source}[\\s\\S]*entry ${index + 1}\\.`, "u"), entry);
  await answerQuickInput(page, new RegExp(`${step.source}[\\s\\S]*entry ${entries.length + 1}\\.`, "u"), "");
}

/** Takes the first (recommended) item of the pick whose title or prompt matches `expect`. */
async function acceptFirst(page: Page, expect: RegExp): Promise<void> {
  const widget = page.locator(".quick-input-widget", { hasText: expect }).first();
  await widget.waitFor({ state: "visible", timeout: 20_000 });
  await widget.locator(".quick-input-list .monaco-list-row").first().waitFor({ timeout: 20_000 });
  await page.keyboard.press("Enter");
}

/** Opens a folded tree row (a click on its twistie side toggles it). */
async function expand(row: Locator): Promise<void> {
  await row.waitFor({ timeout: 30_000 });
  if ((await row.getAttribute("aria-expanded")) !== "true") await row.click();
}

async function sideBarWidth(page: Page): Promise<number> {
  const widths = await page.locator(SIDE_BAR).evaluateAll((parts) => parts.map((part) => part.getBoundingClientRect().width));
  return widths[0] ?? 0;
}

test("discovery at the default side-bar width: rows that fit, the typed owner fields, history while off, a read-only method, the badge's source one click from the proposal (code-server)", { timeout: BUDGET_MS + 600_000 }, async (t) => {
  const files = {
    "README.md": "# Greeting service\n",
    "src/greet.ts": "export const greet = (name: string): string => `hello ${name}`;\n",
    ".vscode/settings.json": `${JSON.stringify({ "docket.notebookPath": "notebook" }, null, 2)}\n`,
  };
  await inWorkbench(t, { label: "e2e-discovery", files, budgetMs: BUDGET_MS }, async (workbench) => {
    const { page: p, shot, mark, dirs } = workbench;
    await openDocketContainer(p);
    assert.equal(await sideBarWidth(p), DEFAULT_SIDE_BAR_WIDTH, "the side bar has code-server's default width");
    // The side bar's width stays; folding Receipts only gives the Work tree the height to show a whole cycle.
    await p.locator(`${SIDE_BAR} .pane-header[aria-label="Receipts Section"]`).first().click();
    await runCommand(p, "Docket: Turn On");
    await paneRow(p, "Work", /Next: Open a judgment/u).waitFor({ timeout: 30_000 });
    await assertLabelsFit(t, p, "Work", "turned on");

    // A judgment owned by the bundled sketch Skill: its subquestion and expected contribution are asked for.
    await runCommand(p, NEXT_STEP);
    await answerQuickInput(p, /Open Judgment[\s\S]*No owning Skill/u, "sketch");
    await answerQuickInput(p, /\(1\/5\)/u, "meaning settlement");
    await answerQuickInput(p, /\(2\/5\)/u, QUESTION);
    await answerList(p, /\(3\/5\)/u, [OBLIGATION]);
    await answerQuickInput(p, /\(4\/5\)/u, SUBQUESTION);
    await answerQuickInput(p, /\(5\/5\)/u, EXPECTED);
    await paneRow(p, "Work", QUESTION).waitFor({ timeout: 30_000 });
    // What was typed for the owner is shown under it, word for word.
    await paneRow(p, "Work", /Owning Skill[\s\S]*sketch/u).waitFor({ timeout: 10_000 });
    const opened = await assertLabelsFit(t, p, "Work", "judgment open");
    assert.deepEqual(descriptionsOf(opened, "Subquestion"), [SUBQUESTION]);
    assert.deepEqual(descriptionsOf(opened, "Expected contribution"), [EXPECTED]);
    await shot("01-owned-judgment-subquestion-and-contribution");
    mark("judgmentOpen");

    // Show Method: a read-only virtual document, closed without a save prompt.
    const offer = p.locator(".notification-toast", { hasText: /sketch owns this judgment/u }).first();
    await offer.waitFor({ timeout: 20_000 });
    await offer.locator(".monaco-button", { hasText: /^Show Method$/u }).first().click();
    const methodTab = p.locator(".tab", { hasText: "sketch.md" }).first();
    await methodTab.waitFor({ timeout: 20_000 });
    await p.locator(".monaco-editor .view-line", { hasText: "The question it settles" }).first().waitFor({ timeout: 20_000 });
    // The tab's hover names the document by its address (docket-method:/sketch.md shows as its path), not an Untitled file.
    const tabHover = await hoverFor(p, methodTab, /sketch\.md/u);
    const tabHoverText = await tabHover.innerText();
    t.diagnostic(`method tab hover: ${JSON.stringify(tabHoverText)}`);
    assert.match(tabHoverText, /^\/sketch\.md\b/u, "the tab names the method's virtual document");
    assert.equal(await p.locator(".tab", { hasText: /Untitled/u }).count(), 0, "no Untitled document");
    // Typing changes nothing: VS Code says the editor is read-only.
    await p.locator(".monaco-editor .view-line", { hasText: "The question it settles" }).first().click();
    await p.keyboard.type("x");
    await p.locator(".monaco-editor-overlaymessage, .monaco-hover", { hasText: /read-only/iu }).first().waitFor({ timeout: 10_000 });
    assert.equal(await p.locator(".tab.dirty", { hasText: "sketch.md" }).count(), 0, "the method document is not dirty");
    await shot("02-method-read-only");
    await runCommand(p, "View: Close Editor");
    await methodTab.waitFor({ state: "hidden", timeout: 10_000 });
    await p.waitForTimeout(500);
    assert.equal(await p.locator(".monaco-dialog-box").count(), 0, "closing the method asks nothing");
    mark("method");

    // Concluding discharges the obligation; the owner's return and the judgment result are one claim.
    await runCommand(p, NEXT_STEP);
    await acceptFirst(p, /Conclude[\s\S]*Contextual judgment/u);
    await answerQuickInput(p, /\(1\/3\)/u, CONCLUSION);
    await answerQuickInput(p, /\(2\/3\)/u, "Padded names greet the same person");
    await answerList(p, /\(3\/3\)/u, [STOP_EVIDENCE]);
    await paneRow(p, "Work", /Next: Authorize the change/u).waitFor({ timeout: 30_000 });
    await expand(paneRow(p, "Work", /Concluded judgments/u));
    await expand(paneRow(p, "Work", QUESTION));
    await paneRow(p, "Work", /^Contribution/u).waitFor({ timeout: 10_000 });
    // One entry for the claim that both the owner's return and the judgment result recorded.
    assert.deepEqual(descriptionsOf(await rowFits(p, "Work"), "Contribution"), [CONCLUSION]);
    const obligation = paneRow(p, "Work", OBLIGATION);
    assert.match(await obligation.innerText(), /settled by the conclusion/u);
    const cited = await hoverFor(p, obligation, /On the strength of/u);
    const citedText = await cited.innerText();
    assert.match(citedText, /Settled when the judgment was concluded/u);
    assert.ok(citedText.includes(`On the strength of: ${CONCLUSION} (from the owner Skill's return, the judgment result)`), citedText);
    assert.ok(citedText.includes(`Stop evidence: ${STOP_EVIDENCE}`), citedText);
    await shot("03-obligation-settled-by-the-conclusion");
    await p.locator(".part.editor").first().hover();
    await assertLabelsFit(t, p, "Work", "judgment concluded");
    mark("concluded");

    await runCommand(p, NEXT_STEP);
    await answerQuickInput(p, /\(1\/3\)/u, "Trim the name in greet()");
    await answerQuickInput(p, /\(2\/3\)/u, "src/greet.ts trims the name");
    await answerQuickInput(p, /\(3\/3\)/u, "Read src/greet.ts");
    await paneRow(p, "Work", /Next: Record the landing/u).waitFor({ timeout: 30_000 });
    await assertLabelsFit(t, p, "Work", "authorized");
    await shot("04-authorized");

    fs.writeFileSync(path.join(dirs.workspace, "src", "greet.ts"), "export const greet = (name: string): string => `hello ${name.trim()}`;\n");
    await runCommand(p, NEXT_STEP);
    await answerQuickInput(p, /Record Landing[\s\S]*\(1\/2\)/u, LANDING);
    await answerList(p, /\(2\/2\)/u, ["Read the diff"]);
    await paneRow(p, "Work", /Reroute debt/u).waitFor({ timeout: 30_000 });
    await assertLabelsFit(t, p, "Work", "landed");
    await shot("05-landed");

    await runCommand(p, NEXT_STEP);
    await acceptFirst(p, /Open Judgment[\s\S]*No owning Skill/u);
    await acceptFirst(p, /reroute decision[\s\S]*\(1\/3\)/u);
    await answerQuickInput(p, /reroute decision[\s\S]*\(2\/3\)/u, REROUTE);
    await answerList(p, /\(3\/3\)/u, [REROUTE_OBLIGATION]);
    await paneRow(p, "Work", REROUTE).waitFor({ timeout: 30_000 });
    await assertLabelsFit(t, p, "Work", "reroute judgment open");
    await shot("06-reroute-open");
    await runCommand(p, NEXT_STEP);
    await acceptFirst(p, /Conclude[\s\S]*Contextual judgment/u);
    await answerQuickInput(p, /\(1\/3\)/u, "The plan holds");
    await answerQuickInput(p, /\(2\/3\)/u, "Only greet() handles names");
    await answerList(p, /\(3\/3\)/u, ["One caller"]);

    await runCommand(p, NEXT_STEP);
    await acceptFirst(p, /claim–evidence route[\s\S]*No owning Skill/u);
    await answerQuickInput(p, /claim–evidence route[\s\S]*\(1\/2\)/u, VERIFICATION);
    await answerList(p, /\(2\/2\)/u, [VERIFICATION_OBLIGATION]);
    await paneRow(p, "Work", VERIFICATION).waitFor({ timeout: 30_000 });
    await assertLabelsFit(t, p, "Work", "verification judgment open");
    await shot("07-verification-open");
    await runCommand(p, NEXT_STEP);
    await acceptFirst(p, /Conclude[\s\S]*Contextual judgment/u);
    await answerQuickInput(p, /\(1\/3\)/u, "greet() trims");
    await answerQuickInput(p, /\(2\/3\)/u, "The file calls trim()");
    await answerList(p, /\(3\/3\)/u, ["src/greet.ts line 1"]);
    await paneRow(p, "Work", /Cycle complete[\s\S]*the landing is verified/u).waitFor({ timeout: 30_000 });
    await assertLabelsFit(t, p, "Work", "cycle complete");
    await shot("08-cycle-complete");
    mark("cycle");

    // Off: the closed scope is history, named by what it landed, with its judgments and landing.
    await runCommand(p, "Docket: Turn Off");
    await paneRow(p, "Work", /Docket is off/u).waitFor({ timeout: 30_000 });
    const scope = paneRow(p, "Work", new RegExp(`^${LANDING.replace(/[()]/gu, "\\$&")}[\\s\\S]*closed `, "u"));
    await expand(scope);
    for (const question of [QUESTION, REROUTE, VERIFICATION]) await paneRow(p, "Work", question).waitFor({ timeout: 10_000 });
    await paneRow(p, "Work", /greet\(\) now trims[\s\S]*1 path changed/u).waitFor({ timeout: 10_000 });
    await assertLabelsFit(t, p, "Work", "off, history shown");
    await shot("09-history-while-off");
    mark("history");

    // A proposal arrives (a script or an agent makes it) while the Observer view is folded.
    const notebook = path.join(dirs.workspace, "notebook");
    docket(["notebook", "setup", notebook, "--language", "en", "--yes"], dirs.workspace);
    const input = path.join(dirs.tmp, "proposal.json");
    fs.writeFileSync(input, JSON.stringify({ records: [{ operation: "create", record_id: SOURCE, markdown: sourceMarkdown(SOURCE, "Support ticket 12", "A customer typed their name with spaces.") }] }));
    const proposalId = (JSON.parse(docket(["notebook", "propose", input, "--notebook", notebook, "--workspace", dirs.workspace, "--json"], dirs.workspace)) as { proposalId: string }).proposalId;
    // The Notebook was set up outside VS Code: refreshing keeps a slow watcher from failing the test.
    await runCommand(p, "Docket: Refresh Notebook");
    const badge = p.locator('.activitybar .action-item:has([aria-label^="Docket"]) .badge-content', { hasText: /^1$/u }).first();
    await badge.waitFor({ timeout: 30_000 });
    const observerHeader = p.locator(`${SIDE_BAR} .pane-header[aria-label="Observer Section"]`).first();
    assert.equal(await observerHeader.getAttribute("aria-expanded"), "false", "the Observer view is still folded");
    // The count's source is in the view that is open: the Work view's badge and its row.
    const waiting = paneRow(p, "Work", /Notebook proposal to review/u);
    await waiting.waitFor({ timeout: 30_000 });
    assert.match(await waiting.innerText(), /1 record · from docket notebook propose/u);
    // The icon's hover says what the number counts.
    const badgeHover = await hoverFor(p, p.locator('.activitybar .action-item:has([aria-label^="Docket"])').first(), /Notebook proposal waiting for review/u);
    assert.match(await badgeHover.innerText(), /Docket\W+1 Notebook proposal waiting for review/u);
    const tooltip = await hoverFor(p, waiting, /Click to open it in the Observer view/u);
    const tooltipText = await tooltip.innerText();
    assert.match(tooltipText, /1 Notebook proposal waiting for review/u);
    assert.ok(tooltipText.includes(`Proposal ${shortProposalId(proposalId)}: 1 record · from docket notebook propose`), tooltipText);
    await shot("10-badge-and-what-it-counts");
    await p.locator(".part.editor").first().hover();
    await assertLabelsFit(t, p, "Work", "proposal waiting");
    mark("badge");

    // One click: the Observer view opens on the proposal, and its first record's diff opens.
    await waiting.click();
    await p.locator(`${SIDE_BAR} .pane-header[aria-label="Observer Section"][aria-expanded="true"]`).first().waitFor({ timeout: 20_000 });
    const proposalRow = paneRow(p, "Observer", `Proposal ${shortProposalId(proposalId)}`);
    await proposalRow.waitFor({ timeout: 20_000 });
    assert.equal(await proposalRow.getAttribute("aria-selected"), "true", "the proposal is selected");
    await paneRow(p, "Observer", recordFileLabel(`records/${SOURCE}.md`)).waitFor({ timeout: 10_000 });
    await p.locator(".tab", { hasText: `${SOURCE}.md (new record ⇄ proposed)` }).first().waitFor({ timeout: 20_000 });
    await p.locator('.editor-actions [aria-label^="Save All Records"]').first().waitFor({ timeout: 10_000 });
    await p.locator(".part.editor").first().hover();
    await shot("11-one-click-to-the-proposal");
    await assertLabelsFit(t, p, "Observer", "proposal revealed");
    mark("revealed");

    // The Connected Agents view at the same width.
    await p.locator(`${SIDE_BAR} .pane-header[aria-label="Connected Agents Section"]`).first().click();
    await paneRow(p, "Connected Agents", /Claude Code[\s\S]*not connected/u).waitFor({ timeout: 20_000 });
    await assertLabelsFit(t, p, "Connected Agents", "agents");
    await assertLabelsFit(t, p, "Observer", "observer beside the agents");
    assert.equal(await sideBarWidth(p), DEFAULT_SIDE_BAR_WIDTH, "still the default width");
    await shot("12-observer-and-agents");
  });
});
