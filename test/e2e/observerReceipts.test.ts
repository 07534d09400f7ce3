// Observer's ledger entries in the Receipts view of a real VS Code workbench (code-server +
// Chromium): `observer/v1` lines appended through the ledger store show on the view's Observer tab
// newest first (line, type, kind, Episode, id, time), the entry type and kind filters narrow them,
// an entry appended while the tab is shown appears without a click, and a row's detail (opened with
// Enter) shows the entry's canonical JSON and the exact text whose SHA-256 is the line hash
// (checked here). Screenshots land in test-artifacts/e2e-observer-receipts/.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { LedgerStore } from "../../server/ledger/store";
import type { ObserverLedgerEntry } from "../../server/observer/observerEntry";
import { lifecycleEntry, observationEntry } from "../../server/observer/observerDrafts";
import { repoRoot } from "../support/repoRoot";
import { openDocketContainer } from "./support/docketViews";
import { inWorkbench } from "./support/workbench";

const BUDGET_MS = Number(process.env.DOCKET_E2E_BUDGET_MS ?? 240_000);
const PANE_HEADER = '[id="workbench.parts.sidebar"] .pane-header';
const EPISODE = "episode-e2e";

function candidate(n: number, text: string): ObserverLedgerEntry {
  return observationEntry({
    kind: "candidate-captured",
    episodeId: EPISODE,
    candidateId: `candidate-${n}0000000-0000-4000-8000-00000000000${n}`,
    origin: { kind: "user-input", inputSource: "interactive" },
    text,
    contentHash: createHash("sha256").update(text, "utf8").digest("hex"),
    capturedAt: `2026-03-0${n}T09:1${n}:00.000Z`,
    reviewRequestId: null,
  });
}

async function appendObserver(workspace: string, entries: readonly ObserverLedgerEntry[]): Promise<void> {
  const store = new LedgerStore(path.join(workspace, ".docket", "ledger.jsonl"));
  await store.append(() => ({ drafts: [], context: null, observerEntries: entries }));
}

test("the Receipts view's Observer tab lists, filters and details Observer's ledger entries in real VS Code (code-server)", { timeout: BUDGET_MS + 600_000 }, async (t) => {
  const files = { "README.md": "# Field notes\n" };
  await inWorkbench(t, { label: "e2e-observer-receipts", files, budgetMs: BUDGET_MS }, async (workbench) => {
    const { page: p, shot, mark, dirs } = workbench;
    const workspace = dirs.workspace;
    await p.locator(".statusbar-item", { hasText: /Docket: Off/u }).first().waitFor({ timeout: 60_000 });
    execFileSync(process.execPath, [path.join(repoRoot(), "dist", "docket.js"), "on", "--workspace", workspace], { encoding: "utf8" });
    await p.locator(".statusbar-item", { hasText: /Docket: Deciding/u }).first().waitFor({ timeout: 30_000 });
    await appendObserver(workspace, [
      lifecycleEntry({ kind: "episode-opened", episodeId: EPISODE, notebookId: "notebook-e2e", lang: "en" }),
      lifecycleEntry({ kind: "activation-changed", enabled: true }),
      candidate(1, "The sourdough rose faster in the warm kitchen."),
      candidate(2, "Maybe the starter is more active after feeding twice."),
    ]);
    mark("entriesAppended");

    await openDocketContainer(p);
    await p.locator(PANE_HEADER, { hasText: /^Work/u }).first().click();
    const receipts = workbench.receipts;
    await receipts.locator("#receipts-table").waitFor({ timeout: 30_000 });
    assert.equal(await receipts.locator('[data-testid="receipt-row"]').count(), 1, "the developer/v8 receipts: the one work-scope-opened");

    // The Observer tab: four entries, newest first.
    await receipts.locator('[data-testid="tab-observer"]').click();
    const rows = receipts.locator('[data-testid="observer-row"]');
    await rows.nth(3).waitFor({ timeout: 20_000 });
    const shown = async (): Promise<string[]> => {
      const out: string[] = [];
      for (let index = 0; index < (await rows.count()); index += 1) {
        const row = rows.nth(index);
        out.push(`${await row.getAttribute("data-custom-type")}:${(await row.getAttribute("data-kind")) ?? "-"}`);
      }
      return out;
    };
    assert.deepEqual(await shown(), [
      "observer.observation:candidate-captured",
      "observer.observation:candidate-captured",
      "observer.lifecycle:activation-changed",
      "observer.lifecycle:episode-opened",
    ]);
    assert.equal(await receipts.locator('[data-testid="tab-observer"]').getAttribute("aria-selected"), "true");
    assert.match(await receipts.locator('[data-testid="page-info"]').innerText(), /Showing 4 of 4 Observer entries/u);
    assert.equal(await rows.first().getAttribute("data-id"), "candidate-20000000-0000-4000-8000-000000000002");
    assert.equal(await rows.nth(3).getAttribute("data-id"), EPISODE);
    mark("observerTab");
    await shot("01-observer-tab");

    // Filters: the observation entries, then one kind of them.
    await receipts.locator('[data-testid="observer-type-filter"]').selectOption("observer.lifecycle");
    await receipts.locator('[data-testid="observer-row"][data-custom-type="observer.observation"]').first().waitFor({ state: "detached", timeout: 20_000 });
    assert.deepEqual(await shown(), ["observer.lifecycle:activation-changed", "observer.lifecycle:episode-opened"]);
    assert.match(await receipts.locator('[data-testid="page-info"]').innerText(), /Showing 2 of 2 matching Observer entries \(4 in total\)/u);
    await receipts.locator('[data-testid="observer-kind-filter"]').selectOption("episode-opened");
    await receipts.locator('[data-testid="observer-row"][data-kind="activation-changed"]').waitFor({ state: "detached", timeout: 20_000 });
    assert.deepEqual(await shown(), ["observer.lifecycle:episode-opened"]);
    await shot("02-filtered");
    await receipts.locator('[data-testid="observer-type-filter"]').selectOption("");
    await rows.nth(3).waitFor({ timeout: 20_000 });

    // Live: an entry appended while the tab is shown appears on top without a click.
    await appendObserver(workspace, [candidate(3, "The crumb was more open on the second bake.")]);
    await rows.nth(4).waitFor({ timeout: 20_000 });
    assert.equal(await rows.first().getAttribute("data-id"), "candidate-30000000-0000-4000-8000-000000000003");
    mark("live");

    // Detail of the first candidate, opened from the keyboard.
    const firstCandidate = receipts.locator('[data-testid="observer-row"][data-id="candidate-10000000-0000-4000-8000-000000000001"]');
    await firstCandidate.press("Enter");
    const pane = receipts.locator('[data-testid="observer-detail"][data-custom-type="observer.observation"]');
    await pane.waitFor({ timeout: 20_000 });
    const lineSha256 = (await pane.getAttribute("data-line-sha256")) ?? "";
    const entryJson = await receipts.locator('[data-testid="observer-canonical-json"]').innerText();
    const hashed = await receipts.locator('[data-testid="observer-line-hash-input"]').innerText();
    assert.match(entryJson, /^\{"customType":"observer\.observation","data":\{.*"candidate_id":"candidate-10000000-/u);
    assert.equal(createHash("sha256").update(hashed, "utf8").digest("hex"), lineSha256, "the shown text hashes to the line hash");
    assert.ok(hashed.includes(`"entry":${entryJson}`));
    assert.ok(hashed.endsWith(`"stream":"observer/v1"}}`));
    assert.equal(await receipts.locator('[data-testid="observer-line-sha256"]').innerText(), lineSha256);
    assert.match(await receipts.locator('[data-testid="observer-previous-line-sha256"]').innerText(), /^[0-9a-f]{64}$/u);
    assert.equal(await receipts.locator('[data-testid="observer-time"]').innerText(), "2026-03-01T09:11:00.000Z");
    assert.equal(await receipts.locator('[data-testid="observer-episode"]').innerText(), EPISODE);
    mark("detail");
    await receipts.locator('[data-testid="observer-detail"] .detail-title').hover();
    await shot("03-observer-detail");

    // Escape closes the pane and gives focus back to the row; the tabs work from the keyboard.
    await p.keyboard.press("Escape");
    await receipts.locator('[data-testid="observer-detail"]').waitFor({ state: "hidden", timeout: 10_000 });
    await receipts.locator('[data-testid="tab-observer"]').press("Home");
    await receipts.locator('[data-testid="tab-receipts"][aria-selected="true"]').waitFor({ timeout: 10_000 });
    assert.equal(await receipts.locator('[data-testid="receipt-row"]').count(), 1, "Observer entries never join the developer/v8 receipts");
    await receipts.locator('[data-testid="tab-receipts"]').press("End");
    await receipts.locator('[data-testid="tab-observer"][aria-selected="true"]').waitFor({ timeout: 10_000 });
    await rows.first().waitFor({ timeout: 10_000 });

    // The same tab in a dark theme.
    fs.mkdirSync(path.join(workspace, ".vscode"), { recursive: true });
    fs.writeFileSync(path.join(workspace, ".vscode", "settings.json"), `${JSON.stringify({ "workbench.colorTheme": "Default Dark Modern" }, null, 2)}\n`);
    await p.locator(".monaco-workbench.vs-dark").first().waitFor({ timeout: 20_000 });
    await rows.nth(1).click();
    await receipts.locator('[data-testid="observer-detail"]').waitFor({ timeout: 20_000 });
    await p.waitForTimeout(300);
    await shot("04-dark-theme");
  });
});
