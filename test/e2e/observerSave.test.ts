// Observer's Review & Save approved in a real VS Code workbench (code-server + Chromium). The scripted
// agent session of test/support/observerSession.ts runs in the workspace the workbench shows (real hook
// processes, the MCP server, the CLI) up to the proposal; then, as the person would: the Observer view
// shows the mode, the Episode reviewing its save, the readings, the observations with their stance
// icons, the hypothesis with its review, the Memo and the pending proposal from Observer's Review &
// Save with its four records; a record opens in the diff editor; Save All Records is confirmed in the
// modal; on disk the four records are in the Notebook, `docket notebook validate` passes and the
// Episode is settled with Observer off, as the view then says. Screenshots in test-artifacts/e2e-observer-save/.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { ObserverOverview } from "../../server/protocol/messages";
import {
  docket,
  OBSERVER_HYPOTHESIS,
  OBSERVER_NOTEBOOK_FOLDER,
  OBSERVER_SESSION_FILES,
  OBSERVER_SESSION_TEXT,
  sessionUntilProposal,
} from "../support/observerSession";
import { recordFileLabel, shortProposalId } from "../../extension/proposalTreeModel";
import { openDocketContainer } from "./support/docketViews";
import { OBSERVER_HEADER } from "./support/notebookSetup";
import type { Locator, Page } from "./support/playwright";
import { hoverFor, inWorkbench, runCommand, SIDEBAR_ROWS } from "./support/workbench";

const BUDGET_MS = Number(process.env.DOCKET_E2E_BUDGET_MS ?? 240_000);

/** playwright-core API beyond the subset ./support/playwright declares. */
type Box = { x: number; y: number; width: number; height: number };
type Measurable = Locator & { boundingBox(): Promise<Box | null> };
type WithMouse = Page & {
  mouse: { move(x: number, y: number, options?: { steps?: number }): Promise<void>; down(): Promise<void>; up(): Promise<void> };
};

function row(page: Page, text: string | RegExp): Locator {
  return page.locator(SIDEBAR_ROWS, { hasText: text }).first();
}

/** Whether `target` shows the codicon `icon` as its own item icon (not an inline action's). */
async function showsIcon(target: Locator, icon: string): Promise<boolean> {
  return (await target.locator(`.custom-view-tree-node-item-icon.codicon-${icon}`).count()) === 1;
}

/**
 * Drags the sash between the side bar and the editor so the side bar is `width` pixels wide: the
 * Observer rows carry long labels (rationales, ids) that a default-width side bar cuts off.
 */
async function resizeSideBar(page: Page, width: number): Promise<void> {
  const sideBar = page.locator('[id="workbench.parts.sidebar"]').first() as Measurable;
  const box = await sideBar.boundingBox();
  assert.ok(box !== null, "the side bar is shown");
  const mouse = (page as WithMouse).mouse;
  const y = box.y + box.height / 2;
  await mouse.move(box.x + box.width + 1, y);
  await mouse.down();
  await mouse.move(box.x + width, y, { steps: 8 });
  await mouse.up();
  // The sash stays highlighted while the pointer rests on it.
  await page.locator(".part.editor").first().hover();
  const after = await sideBar.boundingBox();
  assert.ok(after !== null && Math.abs(after.width - width) < 40, `the side bar is about ${width} px wide (is ${after?.width})`);
}

test("Observer's Review & Save from a scripted agent session is approved in the workbench and settles the Episode (code-server)", { timeout: BUDGET_MS + 600_000 }, async (t) => {
  // The setting names the Notebook the session sets up, relative to the workspace, so the view shows it.
  const files = {
    "README.md": "# Cache service\n",
    ...OBSERVER_SESSION_FILES,
    ".vscode/settings.json": `${JSON.stringify({ "docket.notebookPath": OBSERVER_NOTEBOOK_FOLDER }, null, 2)}\n`,
  };
  await inWorkbench(t, { label: "e2e-observer-save", files, budgetMs: BUDGET_MS }, async (workbench) => {
    const { page: p, shot, mark, dirs } = workbench;
    await p.locator(".statusbar-item", { hasText: /Docket: Off/u }).first().waitFor({ timeout: 60_000 });
    mark("backendReady");

    await openDocketContainer(p);
    await p.locator(OBSERVER_HEADER, { hasText: /Observer/u }).first().click();
    for (const name of [/Work/u, /Receipts/u]) await p.locator(OBSERVER_HEADER, { hasText: name }).first().click();
    await resizeSideBar(p, 820);
    await row(p, /Observer: off[\s\S]*Episode none yet/u).waitFor({ timeout: 30_000 });
    await row(p, /^Notebook[\s\S]*no notebook at this folder yet/u).waitFor({ timeout: 30_000 });
    await shot("01-before-the-session");

    // The agent works in this very workspace while the workbench is open.
    const session = await sessionUntilProposal(dirs.workspace);
    const { notebook, proposalId } = session;
    const root = fs.realpathSync(notebook);
    mark("proposed");

    // Ledger appends refresh the view by themselves; refreshing as well keeps a slow watcher from failing the test.
    await runCommand(p, "Docket: Refresh Observer");
    const rootRow = row(p, /Observer: on[\s\S]*Episode reviewing save/u);
    await rootRow.waitFor({ timeout: 30_000 });
    assert.equal(await showsIcon(rootRow, "eye"), true, "the root shows Observer on");

    await row(p, /^Readings\s*2/u).waitFor({ timeout: 10_000 });
    for (const title of OBSERVER_SESSION_TEXT.readingTitles) {
      const reading = row(p, title);
      await reading.waitFor({ timeout: 10_000 });
      assert.match(await reading.innerText(), /1 claim/u);
      assert.equal(await showsIcon(reading, "book"), true, `the reading ${title} shows its codicon`);
    }

    await row(p, /^Observations\s*2/u).waitFor({ timeout: 10_000 });
    const supports = row(p, OBSERVER_SESSION_TEXT.observationRationales.supports);
    const refines = row(p, OBSERVER_SESSION_TEXT.observationRationales.refines);
    await supports.waitFor({ timeout: 10_000 });
    await refines.waitFor({ timeout: 10_000 });
    assert.equal(await showsIcon(supports, "pass"), true, "a supporting observation shows the pass icon");
    assert.equal(await showsIcon(refines, "edit"), true, "a refining observation shows the edit icon");

    const hypothesis = row(p, OBSERVER_HYPOTHESIS);
    await hypothesis.waitFor({ timeout: 10_000 });
    assert.match(await hypothesis.innerText(), /review: insufficient context/u);
    assert.equal(await showsIcon(hypothesis, "lightbulb"), true);

    const memo = row(p, OBSERVER_SESSION_TEXT.memoTitle);
    await memo.waitFor({ timeout: 10_000 });
    assert.match(await memo.innerText(), /2 pieces of evidence/u);
    assert.equal(await showsIcon(memo, "note"), true);

    // The Episode's proposal, and the same proposal with its records in the Notebook part of the view.
    // Rows name a proposal and a record by the first block of its UUID (the tooltip has the whole id).
    await row(p, new RegExp(`Proposal ${shortProposalId(proposalId)}[\\s\\S]*review below`, "u")).waitFor({ timeout: 10_000 });
    // (A string, not a RegExp: playwright's selector text breaks a RegExp holding the apostrophe.)
    const proposalRow = row(p, "4 records · from Observer's Review & Save");
    await proposalRow.waitFor({ timeout: 30_000 });
    assert.ok((await proposalRow.innerText()).includes(`Proposal ${shortProposalId(proposalId)}`), "the Notebook part lists the Episode's proposal");
    for (const recordId of session.recordIds) {
      const recordRow = row(p, recordFileLabel(`records/${recordId}.md`));
      await recordRow.waitFor({ timeout: 10_000 });
      assert.match(await recordRow.innerText(), /create · valid/u);
    }
    await row(p, `0 records · ${root}`).waitFor({ timeout: 10_000 });
    const badge = p.locator('.activitybar .action-item:has([aria-label^="Docket"]) .badge-content', { hasText: /^1$/u }).first();
    await badge.waitFor({ timeout: 15_000 });
    mark("viewShown");
    await shot("02-observer-reviewing-save");

    // The person's own wording first, the review beside it.
    const review = await hoverFor(p, hypothesis, /Missing information/u);
    const reviewText = await review.innerText();
    assert.ok(reviewText.startsWith(OBSERVER_HYPOTHESIS), "the tooltip starts with the user's wording");
    assert.match(reviewText, /review: insufficient context/u);
    await shot("03-hypothesis-review");
    await p.locator(".part.editor").first().hover();

    // A record opens in the diff editor: nothing on disk yet against the proposed Memo. A narrower
    // side bar leaves the editor room for the side-by-side diff and its title actions.
    await resizeSideBar(p, 430);
    const memoRecord = session.recordIds.find((id) => id.startsWith("memo-"));
    assert.ok(memoRecord !== undefined, "the proposal holds the Memo's record");
    await row(p, recordFileLabel(`records/${memoRecord}.md`)).click();
    await p.locator(".tab", { hasText: `${memoRecord}.md (new record ⇄ proposed)` }).first().waitFor({ timeout: 20_000 });
    await p.locator(".monaco-diff-editor .view-line", { hasText: `# ${OBSERVER_SESSION_TEXT.memoTitle}` }).first().waitFor({ timeout: 20_000 });
    const saveAction = p.locator('.editor-actions [aria-label^="Save All Records"]').first();
    await saveAction.waitFor({ timeout: 10_000 });
    await p.locator('.editor-actions [aria-label^="Discard Proposal"]').first().waitFor({ timeout: 10_000 });
    mark("diffShown");
    await saveAction.hover();
    await shot("04-record-diff");

    await saveAction.click();
    const modal = p.locator(".monaco-dialog-box").first();
    await modal.waitFor({ timeout: 15_000 });
    const modalText = await modal.innerText();
    assert.ok(modalText.includes(`Save all 4 records to the Notebook ${root}?`), `the modal names the count and the Notebook: ${modalText}`);
    assert.ok(modalText.includes(proposalId), "the modal names the proposal");
    const approve = modal.locator(".monaco-button", { hasText: "Save All 4 Records" }).first();
    await approve.waitFor({ timeout: 5_000 });
    assert.deepEqual(fs.existsSync(path.join(notebook, "records")) ? fs.readdirSync(path.join(notebook, "records")) : [], [], "nothing is written before the approval");
    await shot("05-save-all-modal");
    await approve.click();

    // The pointer rests where the modal's button was, over the tree: move it away so no tooltip hides the rows.
    await p.locator(".part.editor").first().hover();
    const toast = p.locator(".notification-toast", { hasText: /Saved 4 records to the Notebook/u }).first();
    await toast.waitFor({ timeout: 30_000 });
    assert.match(await toast.innerText(), /receipt-[0-9a-f-]{36}/u);
    await p.locator(".notification-toast", { hasText: /Saving 4 records/u }).first().waitFor({ state: "hidden", timeout: 30_000 });
    mark("saved");
    await shot("06-saved-receipt");

    // On disk: the four records, a valid Notebook, the Episode settled and Observer off.
    assert.deepEqual(fs.readdirSync(path.join(notebook, "records")).sort(), session.recordIds.map((id) => `${id}.md`).sort());
    const validate = docket(dirs.workspace, ["notebook", "validate", notebook]);
    assert.equal(validate.status, 0, validate.stdout + validate.stderr);
    const status = docket(dirs.workspace, ["observer", "status", "--json"]);
    assert.equal(status.status, 0, status.stderr);
    const overview = (JSON.parse(status.stdout) as { overview: ObserverOverview }).overview;
    assert.equal(overview.episode.status, "settled");
    assert.equal(overview.episode.episodeId, session.episodeId);
    assert.equal(overview.mode, "off", "a committed save turns Observer off");

    // The view follows: the Episode settled, nothing waiting, the Notebook holding the records.
    await resizeSideBar(p, 820);
    const settled = row(p, /Observer: off[\s\S]*Episode settled/u);
    await settled.waitFor({ timeout: 30_000 });
    assert.equal(await showsIcon(settled, "eye-closed"), true, "the root shows Observer off");
    await row(p, /No pending proposals/u).waitFor({ timeout: 20_000 });
    await row(p, `4 records · ${root}`).waitFor({ timeout: 20_000 });
    await badge.waitFor({ state: "hidden", timeout: 15_000 });
    assert.equal(await row(p, "from Observer's Review & Save").count(), 0, "the Notebook part no longer lists the proposal");
    for (const recordId of session.recordIds) assert.equal(await row(p, recordFileLabel(`records/${recordId}.md`)).count(), 0, `${recordId} is no longer pending`);
    mark("settled");
    await shot("07-episode-settled");
  });
});
