// The Receipts view with a long history in a real VS Code workbench (code-server + Chromium): 108
// receipts written by the real ledger code (on/off batches) page as the newest 8 then the 100
// before them (pages partition the history from its start), with the range in the label and no
// row twice; an open detail shares the height with the list through
// a sash moved from the keyboard and by dragging, keeps the selected row in view and is remembered
// when the view comes back; hashes are cut in the middle with the full value kept, and a hash's copy
// button puts the full hash on the clipboard (pasted back into an editor); Open in Editor shows the
// detail as one read-only document in the editor area, reused for the next receipt. Nothing
// overflows the view at the default sidebar width. Screenshots (light and dark) land in
// test-artifacts/e2e-receipts-view/.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { openDocketContainer } from "./support/docketViews";
import type { FrameLocator, Locator, Page } from "./support/playwright";
import { inWorkbench, runCommand } from "./support/workbench";
import { artifactsDir } from "./support/workspace";

const BUDGET_MS = Number(process.env.DOCKET_E2E_BUDGET_MS ?? 240_000);
const PANE_HEADER = '[id="workbench.parts.sidebar"] .pane-header';
const LABEL = "e2e-receipts-view";
const RECEIPTS = 108;
const LEDGER_WRITER = path.join(__dirname, "..", "support", "ledgerWriter.js");

/** The few playwright calls this test needs beyond ./support/playwright's subset. */
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface MeasuredLocator extends Locator {
  boundingBox(): Promise<Box | null>;
  screenshot(options: { path: string }): Promise<unknown>;
  dblclick(): Promise<void>;
  evaluate<R>(pageFunction: (node: Element) => R): Promise<R>;
}
interface FullPage extends Page {
  mouse: { move(x: number, y: number, options?: { steps?: number }): Promise<void>; down(): Promise<void>; up(): Promise<void> };
  context(): { grantPermissions(permissions: string[]): Promise<void> };
}
const measured = (locator: Locator): MeasuredLocator => locator as MeasuredLocator;

/** What the receipts list shows: the ordinals of its rows, those wholly inside its scroll box, and whether the selected row is. */
async function listState(receipts: FrameLocator): Promise<{ ordinals: number[]; visible: number; selectedVisible: boolean | null }> {
  return measured(receipts.locator("#table-scroll")).evaluate((scroll) => {
    const box = scroll.getBoundingClientRect();
    const inside = (row: Element): boolean => {
      const rect = row.getBoundingClientRect();
      return rect.top >= box.top - 0.5 && rect.bottom <= box.bottom + 0.5;
    };
    const rows = Array.from(scroll.querySelectorAll("tr.receipt"));
    const selected = scroll.querySelector("tr.receipt.selected");
    return {
      ordinals: rows.map((row) => Number(row.getAttribute("data-ordinal"))),
      visible: rows.filter(inside).length,
      selectedVisible: selected === null ? null : inside(selected),
    };
  });
}

/** Elements of the view wider than the view (cut or scrolled sideways): none may exist. */
async function overflowing(receipts: FrameLocator): Promise<string[]> {
  return measured(receipts.locator("#app")).evaluate((app) => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const node of Array.from(app.querySelectorAll("*"))) {
      if (!(node instanceof HTMLElement) || node.offsetParent === null) continue;
      const rect = node.getBoundingClientRect();
      if (rect.right > width + 0.5) out.push(`${node.tagName.toLowerCase()}.${node.className} right=${Math.round(rect.right)} > ${width}`);
    }
    if (document.documentElement.scrollWidth > width) out.push(`document scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    return out;
  });
}

async function pageInfo(receipts: FrameLocator, text: string): Promise<void> {
  await receipts.locator('[data-testid="page-info"]', { hasText: text }).waitFor({ timeout: 20_000 });
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, index) => from + index);

test("the Receipts view pages a long history, splits list and detail, cuts and copies hashes and opens a detail in an editor (code-server)", { timeout: BUDGET_MS + 600_000 }, async (t) => {
  const files = { "README.md": "# Greeting service\n" };
  await inWorkbench(t, { label: LABEL, files, budgetMs: BUDGET_MS }, async (workbench) => {
    const { shot, mark, dirs } = workbench;
    const p = workbench.page as FullPage;
    const receipts = workbench.receipts;
    /** The sidebar alone at full size, to check that nothing is cut at its default width. */
    const sidebarShot = async (name: string): Promise<void> => {
      const file = path.join(artifactsDir(LABEL), `${name}.png`);
      await measured(p.locator('[id="workbench.parts.sidebar"]')).screenshot({ path: file });
      t.diagnostic(`screenshot ${file}`);
    };
    await p.locator(".statusbar-item", { hasText: /Docket: Off/u }).first().waitFor({ timeout: 60_000 });
    // 108 receipts: 54 times on, then off, each its own batch through the same ledger code the extension uses.
    execFileSync(process.execPath, [LEDGER_WRITER, path.join(".docket", "ledger.jsonl"), String(RECEIPTS)], { cwd: dirs.workspace, encoding: "utf8" });
    mark("seeded");

    await openDocketContainer(p);
    // Room for the Receipts view: fold the Work view (the sidebar keeps its default width).
    await p.locator(PANE_HEADER, { hasText: /^Work/u }).first().click();
    const rows = receipts.locator('[data-testid="receipt-row"]');

    // The newest page: receipts 100–107, the range in the label.
    await pageInfo(receipts, `Showing 101–108 of ${RECEIPTS} receipts`);
    const newest = (await listState(receipts)).ordinals;
    assert.deepEqual([...newest].sort((a, b) => a - b), range(100, 107));
    assert.deepEqual(await overflowing(receipts), []);
    mark("newestPage");
    await shot("01-newest-page");

    // Previous: the 100 earlier receipts, none of the newest page's again.
    await receipts.locator('[data-testid="nav-previous"]').click();
    await pageInfo(receipts, `Showing 1–100 of ${RECEIPTS} receipts`);
    const earlier = (await listState(receipts)).ordinals;
    assert.deepEqual([...earlier].sort((a, b) => a - b), range(0, 99));
    assert.deepEqual(earlier.filter((ordinal) => newest.includes(ordinal)), [], "no receipt on both pages");
    assert.deepEqual([...earlier, ...newest].sort((a, b) => a - b), range(0, RECEIPTS - 1), "the two pages partition the history");
    await shot("02-previous-page");

    // A detail opens under the list; the selected row stays in view.
    await rows.first().waitFor({ timeout: 10_000 });
    await receipts.locator('[data-testid="receipt-row"][data-ordinal="61"]').click();
    const pane = receipts.locator('[data-testid="receipt-detail"][data-ordinal="61"]');
    await pane.waitFor({ timeout: 20_000 });
    await receipts.locator('[data-testid="detail-event-sha256"]').waitFor({ timeout: 20_000 });
    const sash = receipts.locator('[data-testid="receipts-sash"]');
    await sash.waitFor({ timeout: 10_000 });
    assert.equal(await sash.getAttribute("role"), "separator");
    assert.equal(await sash.getAttribute("aria-valuenow"), "50");
    await p.waitForTimeout(200);
    const split = await listState(receipts);
    assert.equal(split.selectedVisible, true, "the selected row is in view with the detail open");
    t.diagnostic(`rows in view with the detail at half the height: ${split.visible}`);
    assert.deepEqual(await overflowing(receipts), []);
    // The pointer off the view, so no hover highlight shows.
    await p.mouse.move(900, 400);
    await shot("03-detail-default-split");
    await sidebarShot("03b-sidebar-detail-default-split");

    // The detail takes most of the height (Home on the focused sash): the selected row stays in view.
    await sash.press("Home");
    await receipts.locator('[data-testid="receipts-sash"][aria-valuenow="15"]').waitFor({ timeout: 5_000 });
    await p.waitForTimeout(200);
    const small = await listState(receipts);
    assert.equal(small.selectedVisible, true, "the selected row stays in view when the list shrinks");
    assert.ok(small.visible < split.visible, `fewer rows with the larger detail (${small.visible} < ${split.visible})`);

    // The list takes most of the height (End): more rows than before, the selection still in view.
    await sash.press("End");
    await receipts.locator('[data-testid="receipts-sash"][aria-valuenow="80"]').waitFor({ timeout: 5_000 });
    await p.waitForTimeout(200);
    const large = await listState(receipts);
    assert.equal(large.selectedVisible, true);
    assert.ok(large.visible > split.visible, `more rows with the smaller detail (${large.visible} > ${split.visible})`);
    t.diagnostic(`rows in view: detail at 85% ${small.visible}, 50% ${split.visible}, 20% ${large.visible}`);
    await shot("04-detail-resized-keyboard");

    // Dragging the sash up by 120 px gives the detail that much more height.
    const before = await measured(sash).boundingBox();
    assert.ok(before !== null);
    const x = before.x + before.width / 2;
    const y = before.y + before.height / 2;
    await p.mouse.move(x, y);
    await p.mouse.down();
    await p.mouse.move(x, y - 60, { steps: 4 });
    await p.mouse.move(x, y - 120, { steps: 4 });
    await p.mouse.up();
    await p.waitForTimeout(200);
    const after = await measured(sash).boundingBox();
    assert.ok(after !== null && Math.abs(after.y - (before.y - 120)) <= 3, `the sash followed the pointer (${before.y} → ${after?.y})`);
    const dragged = Number(await sash.getAttribute("aria-valuenow"));
    assert.ok(dragged < 80 && dragged > 15, `the list's share went down with the drag (${dragged})`);
    const afterDrag = await listState(receipts);
    assert.equal(afterDrag.selectedVisible, true);
    assert.ok(afterDrag.visible < large.visible && afterDrag.visible >= split.visible);
    mark("split");
    await shot("05-detail-resized-drag");

    // The size is remembered: fold the Receipts view and unfold it.
    const receiptsHeader = p.locator(PANE_HEADER, { hasText: /^Receipts/u }).first();
    await receiptsHeader.click();
    await receipts.locator('[data-testid="receipts-sash"]').waitFor({ state: "detached", timeout: 10_000 }).catch(() => undefined);
    await receiptsHeader.click();
    await receipts.locator(`[data-testid="receipts-sash"][aria-valuenow="${dragged}"]`).waitFor({ timeout: 20_000 });
    await receipts.locator('[data-testid="receipt-detail"][data-ordinal="61"] [data-testid="detail-event-sha256"]').waitFor({ timeout: 20_000 });
    await p.waitForTimeout(200);
    assert.equal((await listState(receipts)).selectedVisible, true, "the restored view shows the selected row");
    // A double-click puts the sash back at half the height.
    await measured(receipts.locator('[data-testid="receipts-sash"]')).dblclick();
    await receipts.locator('[data-testid="receipts-sash"][aria-valuenow="50"]').waitFor({ timeout: 5_000 });
    assert.equal((await listState(receipts)).selectedVisible, true);

    // Hashes: one line, cut in the middle, the whole value in the text and the tooltip.
    const eventSha256 = (await pane.getAttribute("data-event-sha256")) ?? "";
    assert.match(eventSha256, /^[0-9a-f]{64}$/u);
    const hash = receipts.locator('[data-testid="detail-event-sha256"]');
    assert.equal(await hash.innerText(), eventSha256);
    assert.equal(await hash.getAttribute("title"), eventSha256);
    const cut = await measured(hash).evaluate((node) => {
      const head = node.querySelector(".cut-head");
      const tail = node.querySelector(".cut-tail");
      return {
        headCut: head instanceof HTMLElement && head.scrollWidth > head.clientWidth,
        tailShown: tail instanceof HTMLElement && tail.getBoundingClientRect().right <= node.getBoundingClientRect().right + 0.5,
        // Under two lines high ("normal" line height is about 1.2 font sizes).
        oneLine: node.getBoundingClientRect().height < 2.4 * parseFloat(getComputedStyle(node).fontSize),
      };
    });
    assert.deepEqual(cut, { headCut: true, tailShown: true, oneLine: true }, "the hash is cut in the middle at the default sidebar width");
    assert.deepEqual(await overflowing(receipts), []);

    // Its copy button (keyboard: focus and Enter) puts the full hash on the clipboard.
    await p.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    const copy = receipts.locator('[data-testid="copy-detail-event-sha256"]');
    assert.equal(await copy.getAttribute("aria-label"), "Copy Event SHA-256");
    await copy.press("Enter");
    await receipts.locator('[data-testid="copy-detail-event-sha256"][data-copied="true"]').waitFor({ timeout: 10_000 });
    assert.equal(await receipts.locator("#copy-announcer").innerText(), "Event SHA-256 copied to the clipboard.");
    await copy.hover();
    await shot("06-hash-copied");
    await sidebarShot("06b-sidebar-hash-copied");
    await runCommand(p, "File: New Untitled Text File");
    const untitled = p.locator(".editor-instance .monaco-editor").first();
    await untitled.waitFor({ timeout: 10_000 });
    await untitled.click();
    await p.keyboard.press("Control+V");
    await p.locator(".editor-instance .view-lines", { hasText: eventSha256 }).first().waitFor({ timeout: 10_000 });
    assert.equal((await p.locator(".editor-instance .view-lines").first().innerText()).trim(), eventSha256, "the clipboard holds the full hash");
    mark("copied");
    await runCommand(p, "View: Revert and Close Editor");
    await p.locator(".tab", { hasText: /^Untitled/u }).first().waitFor({ state: "detached", timeout: 10_000 });

    // Open in Editor: the detail as a read-only Markdown document in the editor area.
    await receipts.locator('[data-testid="detail-open-editor"]').click();
    const receiptTabs = p.locator(".tabs-container .tab", { hasText: /^Receipt #/u });
    await p.locator(".tabs-container .tab", { hasText: "Receipt #61 · work-scope-closed.md" }).first().waitFor({ timeout: 20_000 });
    const editorText = p.locator(".editor-instance .view-lines").first();
    await p.locator(".editor-instance .view-lines", { hasText: eventSha256 }).first().waitFor({ timeout: 20_000 });
    // Monaco draws spaces as no-break spaces.
    assert.match((await editorText.innerText()).replace(/\u00a0/gu, " "), /^# Receipt #61 · work-scope-closed\n/u);
    mark("openInEditor");
    await shot("07-open-in-editor");

    // The previous event of the scope, opened from the link and then in the editor, reuses that one editor.
    await receipts.locator('[data-testid="previous-scope-event"][data-ordinal="60"]').click();
    await receipts.locator('[data-testid="receipt-detail"][data-ordinal="60"] [data-testid="detail-event-sha256"]').waitFor({ timeout: 20_000 });
    await p.waitForTimeout(200);
    assert.equal((await listState(receipts)).selectedVisible, true, "the jumped-to row is in view");
    await receipts.locator('[data-testid="detail-open-editor"]').click();
    await p.locator(".tabs-container .tab", { hasText: "Receipt #60 · work-scope-opened.md" }).first().waitFor({ timeout: 20_000 });
    await p.locator(".tabs-container .tab", { hasText: "Receipt #61" }).first().waitFor({ state: "detached", timeout: 10_000 });
    assert.equal(await receiptTabs.count(), 1, "one editor serves the details");

    // The same in a dark theme (the workspace settings are watched).
    fs.mkdirSync(path.join(dirs.workspace, ".vscode"), { recursive: true });
    fs.writeFileSync(path.join(dirs.workspace, ".vscode", "settings.json"), `${JSON.stringify({ "workbench.colorTheme": "Default Dark Modern" }, null, 2)}\n`);
    await p.locator(".monaco-workbench.vs-dark").first().waitFor({ timeout: 20_000 });
    await receipts.locator('[data-testid="copy-detail-receipt-sha256"]').click();
    await receipts.locator('[data-testid="copy-detail-receipt-sha256"][data-copied="true"]').waitFor({ timeout: 10_000 });
    await p.waitForTimeout(300);
    assert.deepEqual(await overflowing(receipts), []);
    await shot("08-dark-detail-and-editor");
    await sidebarShot("08b-sidebar-dark");
  });
});
