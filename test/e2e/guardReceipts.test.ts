// The completion guard's ledger entries in the Receipts view of a real VS Code workbench
// (code-server + Chromium): reviews recorded with the real CLI show on the view's Reviews tab
// newest first (kind, review id, status with its codicon, time), a review recorded while the tab
// is shown appears without a click, the tabs work from the keyboard, and a row's detail shows the
// entry's canonical JSON and the exact text whose SHA-256 is the line hash (checked here). The
// developer/v8 receipts on the other tab stay as they were. Screenshots land in
// test-artifacts/e2e-guard-receipts/.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { recordReview } from "../support/guardFlow";
import { repoRoot } from "../support/repoRoot";
import { openDocketContainer } from "./support/docketViews";
import { inWorkbench } from "./support/workbench";

const BUDGET_MS = Number(process.env.DOCKET_E2E_BUDGET_MS ?? 240_000);
const PANE_HEADER = '[id="workbench.parts.sidebar"] .pane-header';

test("the Receipts view's Reviews tab shows the guard stream's entries and their details in real VS Code (code-server)", { timeout: BUDGET_MS + 600_000 }, async (t) => {
  const files = { "README.md": "# Greeting service\n", "greet.txt": "hello, world\n" };
  await inWorkbench(t, { label: "e2e-guard-receipts", files, budgetMs: BUDGET_MS }, async (workbench) => {
    const { page: p, shot, mark, dirs } = workbench;
    const workspace = dirs.workspace;
    await p.locator(".statusbar-item", { hasText: /Docket: Off/u }).first().waitFor({ timeout: 60_000 });
    execFileSync(process.execPath, [path.join(repoRoot(), "dist", "docket.js"), "on", "--workspace", workspace], { encoding: "utf8" });
    await p.locator(".statusbar-item", { hasText: /Docket: Deciding/u }).first().waitFor({ timeout: 30_000 });

    const open = { draft: "greet.txt says hello, world.", claims: [{ id: "c1", text: "greet.txt says hello, world" }], sources: [{ kind: "file" as const, path: "greet.txt" }] };
    recordReview(workspace, open, () => ({ claims: [{ claimId: "c1", verdict: "supported", citations: ["source:1"] }], response: { verdict: "supported", rationale: "greet.txt holds exactly that line." } }));
    recordReview(workspace, open, () => ({ claims: [{ claimId: "c1", verdict: "unsupported", citations: ["source:1"] }], response: { verdict: "unsupported", rationale: "The file says something else." } }));
    mark("reviewsRecorded");

    await openDocketContainer(p);
    // Room for the Receipts view: fold the Work view.
    await p.locator(PANE_HEADER, { hasText: /^Work/u }).first().click();
    const receipts = workbench.receipts;
    await receipts.locator("#receipts-table").waitFor({ timeout: 30_000 });
    const receiptRows = await receipts.locator('[data-testid="receipt-row"]').count();
    assert.equal(receiptRows, 1, "the developer/v8 receipts: the one work-scope-opened");

    // The Reviews tab: four entries, newest first.
    await receipts.locator('[data-testid="tab-reviews"]').click();
    const rows = receipts.locator('[data-testid="review-row"]');
    await rows.nth(3).waitFor({ timeout: 20_000 });
    const shown = async (): Promise<string[]> => {
      const out: string[] = [];
      for (let index = 0; index < (await rows.count()); index += 1) {
        const row = rows.nth(index);
        out.push(`${await row.getAttribute("data-kind")}:${(await row.getAttribute("data-status")) ?? "-"}`);
      }
      return out;
    };
    assert.deepEqual(await shown(), ["review-submitted:unsupported", "review-opened:-", "review-submitted:supported", "review-opened:-"]);
    assert.equal(await receipts.locator('[data-testid="tab-reviews"]').getAttribute("aria-selected"), "true");
    assert.match(await receipts.locator('[data-testid="page-info"]').innerText(), /Showing 4 of 4 review entries/u);
    assert.equal(await rows.first().locator("td.col-kind .codicon-error").count(), 1, "unsupported shows the error codicon");
    assert.equal(await rows.nth(2).locator("td.col-kind .codicon-pass").count(), 1, "supported shows the pass codicon");
    const lines = await Promise.all([0, 1, 2, 3].map(async (index) => Number(await rows.nth(index).getAttribute("data-line"))));
    assert.deepEqual([...lines].sort((a, b) => b - a), lines, "newest first");
    mark("reviewsTab");
    await shot("01-reviews-tab");

    // Live: a review opened while the tab is shown appears on top without a click.
    const pending = JSON.parse(
      execFileSync(process.execPath, [path.join(repoRoot(), "dist", "docket.js"), "review", "open", "--workspace", workspace, "--json"], { input: JSON.stringify(open), encoding: "utf8" }),
    ) as { reviewId: string };
    await rows.nth(4).waitFor({ timeout: 20_000 });
    assert.equal(await rows.first().getAttribute("data-review-id"), pending.reviewId);
    assert.equal(await rows.first().getAttribute("data-kind"), "review-opened");
    mark("live");

    // Detail of the unsupported submission, opened from the keyboard.
    const submittedRow = receipts.locator('[data-testid="review-row"][data-kind="review-submitted"][data-status="unsupported"]');
    await submittedRow.press("Enter");
    const pane = receipts.locator('[data-testid="review-detail"][data-kind="review-submitted"]');
    await pane.waitFor({ timeout: 20_000 });
    const lineSha256 = (await pane.getAttribute("data-line-sha256")) ?? "";
    const entryJson = await receipts.locator('[data-testid="review-canonical-json"]').innerText();
    const hashed = await receipts.locator('[data-testid="review-line-hash-input"]').innerText();
    assert.match(entryJson, /^\{"claims":\[.*"kind":"review-submitted".*"status":"unsupported"/u);
    assert.equal(createHash("sha256").update(hashed, "utf8").digest("hex"), lineSha256, "the shown text hashes to the line hash");
    assert.ok(hashed.includes(`"entry":${entryJson}`));
    assert.equal(await receipts.locator('[data-testid="review-line-sha256"]').innerText(), lineSha256);
    assert.match(await receipts.locator('[data-testid="review-previous-line-sha256"]').innerText(), /^[0-9a-f]{64}$/u);
    assert.equal(await receipts.locator('[data-testid="review-related"]').getAttribute("data-kind"), "review-opened");
    mark("detail");
    await receipts.locator('[data-testid="review-detail"] .detail-title').hover();
    await shot("02-review-detail");
    await receipts.locator('[data-testid="review-line-hash-input"]').hover();
    await shot("02b-review-canonical-json");

    // The related entry opens from the detail; Escape closes the pane.
    await receipts.locator('[data-testid="review-related"]').click();
    await receipts.locator('[data-testid="review-detail"][data-kind="review-opened"]').waitFor({ timeout: 20_000 });
    assert.match(await receipts.locator('[data-testid="review-canonical-json"]').innerText(), /"kind":"review-opened"/u);
    await p.keyboard.press("Escape");
    await receipts.locator('[data-testid="review-detail"]').waitFor({ state: "hidden", timeout: 10_000 });

    // Tabs from the keyboard: back to the receipts, unchanged, and over again.
    await receipts.locator('[data-testid="tab-reviews"]').press("ArrowLeft");
    await receipts.locator('[data-testid="tab-receipts"][aria-selected="true"]').waitFor({ timeout: 10_000 });
    await receipts.locator("#receipts-table").waitFor({ timeout: 10_000 });
    assert.equal(await receipts.locator('[data-testid="receipt-row"]').count(), 1, "guard entries never join the developer/v8 receipts");
    assert.equal(await receipts.locator('[data-testid="review-row"]').first().isVisible(), false);
    await shot("03-receipts-tab-unchanged");
    await receipts.locator('[data-testid="tab-receipts"]').press("ArrowRight");
    await receipts.locator('[data-testid="tab-reviews"][aria-selected="true"]').waitFor({ timeout: 10_000 });
    await rows.first().waitFor({ timeout: 10_000 });

    // The same tab in a dark theme (the workspace settings are watched).
    fs.mkdirSync(path.join(workspace, ".vscode"), { recursive: true });
    fs.writeFileSync(path.join(workspace, ".vscode", "settings.json"), `${JSON.stringify({ "workbench.colorTheme": "Default Dark Modern" }, null, 2)}\n`);
    await p.locator(".monaco-workbench.vs-dark").first().waitFor({ timeout: 20_000 });
    await rows.nth(1).click();
    await receipts.locator('[data-testid="review-detail"]').waitFor({ timeout: 20_000 });
    await p.waitForTimeout(300);
    await shot("04-dark-theme");
  });
});
