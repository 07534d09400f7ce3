// Reading Docket's own views in the workbench: the activity-bar container and the Receipts webview rows.
import type { TestContext } from "node:test";
import type { Page } from "./playwright";
import type { Workbench } from "./workbench";

export async function openDocketContainer(page: Page): Promise<void> {
  const container = page.locator('.activitybar [aria-label^="Docket"]').first();
  await container.waitFor({ timeout: 30_000 });
  await container.click();
  await page.locator('[id="workbench.parts.sidebar"] .pane-header', { hasText: /Work/i }).first().waitFor({ timeout: 30_000 });
}

async function rowKinds(workbench: Workbench): Promise<string[]> {
  const rows = workbench.receipts.locator("#receipts-table [data-kind]");
  const kinds: string[] = [];
  for (let index = 0; index < (await rows.count()); index++) kinds.push((await rows.nth(index).getAttribute("data-kind", { timeout: 5_000 })) ?? "");
  return kinds;
}

/**
 * The kinds of the rows the Receipts view shows, once it shows at least `count` rows (or 20 s passed).
 * Receipts does not swap its page under the reader: when the ledger grows it shows a "New receipts are
 * available" banner (#stale-banner) with a Show latest button (#show-latest); this clicks it when it appears.
 */
export async function receiptKinds(t: TestContext, workbench: Workbench, count: number, bannerShot: string): Promise<string[]> {
  await workbench.receipts.locator("#receipts-table").waitFor({ timeout: 30_000 });
  const showLatest = workbench.receipts.locator("#stale-banner #show-latest");
  const deadline = Date.now() + 20_000;
  let kinds = await rowKinds(workbench);
  let bannerSeen = false;
  while (kinds.length < count && Date.now() < deadline) {
    if (await showLatest.isVisible()) {
      if (!bannerSeen) await workbench.shot(bannerShot);
      bannerSeen = true;
      await showLatest.click({ timeout: 5_000 }).catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
    kinds = await rowKinds(workbench);
  }
  t.diagnostic(`Receipts rows: ${JSON.stringify(kinds)}${bannerSeen ? " (after clicking Show latest)" : ""}`);
  return kinds;
}
