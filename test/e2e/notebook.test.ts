// Notebook approval in a real VS Code workbench (code-server + Chromium): the Notebook set up with
// "Set Up Notebook…" from the Observer view (folder picker, language, confirmation naming the path),
// a proposal made with the `docket notebook` CLI, the proposal's records in the Observer view (and
// the Docket icon's badge counting it), a record opened in the diff editor (existing ⇄ proposed)
// with "Save All Records" and "Discard Proposal" written out in the editor title, Save All
// confirmed in the one modal (Enter reviews the records, Escape closes: neither approves), Discard
// whose default keeps the proposal, and the files on disk afterwards; then an agent connected and
// disconnected (the preview diffs close, Disconnect offers only the connected agent).
// Screenshots land in test-artifacts/e2e-notebook/.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { repoRoot } from "../support/repoRoot";
import { inWorkbench, runCommand, SIDEBAR_ROWS } from "./support/workbench";
import { openDocketContainer } from "./support/docketViews";
import { OBSERVER_HEADER, readManifest, setUpNotebookThroughUi, workspaceSetting } from "./support/notebookSetup";
import type { Locator } from "./support/playwright";
import { sourceMarkdown } from "../support/notebookRecords";
import { recordFileLabel, shortProposalId } from "../../extension/proposalTreeModel";

const BUDGET_MS = Number(process.env.DOCKET_E2E_BUDGET_MS ?? 240_000);
const SOURCE_A = "source-00000000-0000-4000-8000-00000000000a";
const SOURCE_B = "source-00000000-0000-4000-8000-00000000000b";

const EXISTING_A = sourceMarkdown(SOURCE_A, "Handbook chapter on capture", "The chapter recommends capturing context at the moment of writing.");
const NEXT_A = sourceMarkdown(SOURCE_A, "Handbook chapter on capture", "The chapter recommends capturing context at the moment of writing.\n\nSecond reading: it also asks for the reason behind each note.");
const NEW_B = sourceMarkdown(SOURCE_B, "Desk observation", "Notes written after the restart were missing their context.");
const NOTEBOOK_README = "# My notes\n\nNot a record: setup must leave this file as it is.\n";

function docket(args: readonly string[], cwd: string): string {
  return execFileSync(process.execPath, [path.join(repoRoot(), "dist", "docket.js"), ...args], { cwd, encoding: "utf8", timeout: 30_000 });
}

test("a notebook set up in the UI gets a proposal reviewed in the diff editor and saved as a whole (code-server)", { timeout: BUDGET_MS + 600_000 }, async (t) => {
  // No `docket.notebookPath` yet: the Notebook is set up through the UI. The folder exists with
  // unrelated content: setup must leave it alone, and the folder picker (which lists folders only)
  // shows `attachments/` once it has navigated into the folder.
  const files = {
    "README.md": "# Notes\n",
    "notebook/README.md": NOTEBOOK_README,
    "notebook/attachments/scan-001.txt": "scanned page\n",
  };
  await inWorkbench(t, { label: "e2e-notebook", files, budgetMs: BUDGET_MS }, async (workbench) => {
    const { page: p, shot, mark, dirs } = workbench;
    await p.locator(".statusbar-item", { hasText: /Docket: Off/u }).first().waitFor({ timeout: 60_000 });
    mark("backendReady");

    await openDocketContainer(p);
    const observerHeader = p.locator(OBSERVER_HEADER, { hasText: /Observer/u }).first();
    await observerHeader.click();
    // Room for the Observer: fold the Work and Receipts views.
    for (const name of [/Work/u, /Receipts/u]) {
      await p.locator(OBSERVER_HEADER, { hasText: name }).first().click();
    }
    await p.locator(SIDEBAR_ROWS, { hasText: /^Notebook[\s\S]*not set up/u }).first().waitFor({ timeout: 30_000 });

    const notebook = path.join(dirs.workspace, "notebook");
    const root = await setUpNotebookThroughUi(workbench, notebook, "attachments");
    mark("setUp");
    const manifest = readManifest(notebook);
    assert.equal(manifest.observer_notebook, "observer-notebook/v1");
    assert.match(manifest.notebook_id, /^notebook-[0-9a-f-]{36}$/u);
    assert.equal(manifest.default_language, "en", "the language picked in the UI");
    assert.ok(fs.statSync(path.join(notebook, "records")).isDirectory(), "records/ is created");
    assert.deepEqual(fs.readdirSync(path.join(notebook, "records")), []);
    assert.equal(fs.readFileSync(path.join(notebook, "README.md"), "utf8"), NOTEBOOK_README, "setup leaves unrelated files alone");
    assert.equal(workspaceSetting(dirs.workspace, "docket.notebookPath"), root, "the workspace setting points at the new Notebook");
    // Healthy: the record count (not a problem label) and the notebook icon instead of the warning one.
    // The row also carries the inline Set Up action's notebook icon, so look at the item's own icon only.
    const healthy = p.locator(SIDEBAR_ROWS, { hasText: `0 records · ${root}` }).first();
    await healthy.waitFor({ timeout: 30_000 });
    assert.equal(await healthy.locator(".custom-view-tree-node-item-icon.codicon-notebook").count(), 1, "the Notebook row shows the healthy icon");
    assert.equal(await healthy.locator(".custom-view-tree-node-item-icon.codicon-warning").count(), 0);
    await shot("setup-4-view");

    // A record written by hand, then a proposal from the CLI, as a script or an agent would make it.
    fs.writeFileSync(path.join(notebook, "records", "handbook.md"), EXISTING_A);
    const input = path.join(dirs.tmp, "proposal.json");
    fs.writeFileSync(
      input,
      JSON.stringify({
        records: [
          { operation: "update", record_id: SOURCE_A, expected_sha256: createHash("sha256").update(EXISTING_A).digest("hex"), markdown: NEXT_A },
          { operation: "create", record_id: SOURCE_B, markdown: NEW_B },
        ],
      }),
    );
    const proposed = JSON.parse(docket(["notebook", "propose", input, "--notebook", notebook, "--workspace", dirs.workspace, "--json"], dirs.workspace)) as { proposal_id?: string; proposalId?: string };
    const proposalId = proposed.proposal_id ?? proposed.proposalId ?? "";
    assert.match(proposalId, /^proposal-/u);
    // Rows name a proposal by the first block of its UUID, so they fit a default-width side bar.
    const proposalRowText = `Proposal ${shortProposalId(proposalId)}`;
    mark("proposed");

    // The tree picks the proposal file up by itself; refreshing as well keeps a slow watcher from failing the test.
    await runCommand(p, "Docket: Refresh Notebook");
    const recordRow = p.locator(SIDEBAR_ROWS, { hasText: "handbook.md" }).first();
    await recordRow.waitFor({ timeout: 30_000 });
    await p.locator(SIDEBAR_ROWS, { hasText: recordFileLabel(`records/${SOURCE_B}.md`) }).first().waitFor({ timeout: 10_000 });
    await p.locator(SIDEBAR_ROWS, { hasText: proposalRowText }).first().waitFor({ timeout: 10_000 });
    // Who made it, as sealed in the proposal (here the CLI).
    assert.match(await p.locator(SIDEBAR_ROWS, { hasText: proposalRowText }).first().innerText(), /2 records · from docket notebook propose/u);
    await p.locator(SIDEBAR_ROWS, { hasText: `1 record · ${root}` }).first().waitFor({ timeout: 10_000 });
    // The Docket icon counts the proposals waiting for review, so an agent's proposal is noticed.
    const badge = p.locator('.activitybar .action-item:has([aria-label^="Docket"]) .badge-content', { hasText: /^1$/u }).first();
    await badge.waitFor({ timeout: 15_000 });
    assert.match(await recordRow.innerText(), /update · valid/u);
    assert.match(await p.locator(SIDEBAR_ROWS, { hasText: recordFileLabel(`records/${SOURCE_B}.md`) }).first().innerText(), /create · valid/u);
    mark("treeShown");
    await shot("01-observer-proposal");

    // A record opens VS Code's diff editor: the bytes on disk against the proposed bytes.
    await recordRow.click();
    await p.locator(".tab", { hasText: "handbook.md (existing ⇄ proposed)" }).first().waitFor({ timeout: 20_000 });
    await p.locator(".monaco-diff-editor .view-line", { hasText: "Second reading" }).first().waitFor({ timeout: 20_000 });
    const saveAction = p.locator('.editor-actions [aria-label^="Save All Records"]').first();
    const discardAction = p.locator('.editor-actions [aria-label^="Discard Proposal"]').first();
    await saveAction.waitFor({ timeout: 10_000 });
    await discardAction.waitFor({ timeout: 10_000 });
    mark("diffShown");
    // Words, not icons whose names show only on hover.
    assert.equal((await saveAction.innerText()).trim(), "Save All Records");
    assert.equal((await discardAction.innerText()).trim(), "Discard Proposal");
    await shot("02-diff-editor-with-actions");

    // The create diffs against an empty document.
    await p.locator(SIDEBAR_ROWS, { hasText: recordFileLabel(`records/${SOURCE_B}.md`) }).first().click();
    await p.locator(".tab", { hasText: `${SOURCE_B}.md (new record ⇄ proposed)` }).first().waitFor({ timeout: 20_000 });
    await p.locator(".monaco-diff-editor .view-line", { hasText: "Desk observation" }).first().waitFor({ timeout: 20_000 });
    await shot("03-create-diff");

    // One modal names the notebook, the count and the proposal. VS Code focuses the first button that is not
    // the close affordance, so "Review Records" must be that button: neither Enter nor Escape may approve.
    const receipts = path.join(dirs.workspace, ".docket", "notebook", "receipts");
    const openSaveAllModal = async (): Promise<Locator> => {
      await p.locator('.editor-actions [aria-label^="Save All Records"]').first().click();
      const modal = p.locator(".monaco-dialog-box").first();
      await modal.waitFor({ timeout: 15_000 });
      const text = await modal.innerText();
      assert.match(text, /Save all 2 records to the Notebook/u);
      assert.ok(text.includes(root), `the dialog names ${root}`);
      assert.ok(text.includes(proposalId), "the dialog names the proposal");
      await modal.locator(".monaco-button", { hasText: "Save All 2 Records" }).first().waitFor({ timeout: 5_000 });
      return modal;
    };
    const assertNothingSaved = async (after: string): Promise<void> => {
      assert.equal(fs.readFileSync(path.join(notebook, "records", "handbook.md"), "utf8"), EXISTING_A, `${after}: handbook.md is unchanged`);
      assert.equal(fs.existsSync(path.join(notebook, "records", `${SOURCE_B}.md`)), false, `${after}: the new record is not created`);
      assert.deepEqual(fs.existsSync(receipts) ? fs.readdirSync(receipts) : [], [], `${after}: no receipt under ${receipts}`);
      assert.equal(await p.locator(".notification-toast", { hasText: /Saving|Saved/u }).count(), 0, `${after}: no save started`);
      assert.equal(await p.locator(SIDEBAR_ROWS, { hasText: proposalRowText }).count(), 1, `${after}: the proposal is still listed`);
    };

    let dialog = await openSaveAllModal();
    const focused = dialog.locator(".monaco-button:focus");
    const focusedText = (await focused.count()) > 0 ? await focused.first().innerText() : "(none)";
    t.diagnostic(`focused dialog button: ${focusedText}`);
    assert.match(focusedText, /Review Records/u, "the default button does not approve");
    const buttons = await dialog.locator(".monaco-button").allInnerTexts();
    t.diagnostic(`dialog buttons: ${JSON.stringify(buttons)}`);
    assert.equal(buttons.length, 3, "Review Records, Save All 2 Records and Cancel");
    await shot("modal-default-focus");
    await assertNothingSaved("modal open");
    await p.keyboard.press("Enter");
    await dialog.waitFor({ state: "hidden", timeout: 10_000 });
    // The default opens the proposal's records for review: both diffs are open.
    await p.locator(".tab", { hasText: "handbook.md (existing ⇄ proposed)" }).first().waitFor({ timeout: 20_000 });
    await p.locator(".tab", { hasText: `${SOURCE_B}.md (new record ⇄ proposed)` }).first().waitFor({ timeout: 20_000 });
    // No sleep needed to see that nothing happened: had Enter approved, the publish request would have reached
    // the backend (one ordered channel, synchronous handlers) before the next Save All's request for the
    // proposal, so by the time that modal is back any save would show on disk, or the modal would not come back.
    dialog = await openSaveAllModal();
    await assertNothingSaved("Enter on the modal");
    await p.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden", timeout: 10_000 });
    dialog = await openSaveAllModal();
    await assertNothingSaved("Escape on the modal");
    await dialog.locator(".monaco-button", { hasText: "Save All 2 Records" }).first().click();

    const toast = p.locator(".notification-toast", { hasText: /Saved 2 records to the Notebook/u }).first();
    await toast.waitFor({ timeout: 30_000 });
    assert.match(await toast.innerText(), /receipt-[0-9a-f-]{36}/u);
    mark("saved");
    await shot("05-saved-receipt");

    assert.equal(fs.readFileSync(path.join(notebook, "records", "handbook.md"), "utf8"), NEXT_A);
    assert.equal(fs.readFileSync(path.join(notebook, "records", `${SOURCE_B}.md`), "utf8"), NEW_B);
    assert.equal(fs.existsSync(path.join(notebook, ".observer", "transactions", "active")), false, "no transaction left behind");
    assert.deepEqual(fs.readdirSync(receipts), [`${proposalId}.json`], "the one approval left one receipt");
    // The proposal is settled: the tree no longer lists it.
    await p.locator(SIDEBAR_ROWS, { hasText: /No pending proposals/u }).first().waitFor({ timeout: 20_000 });
    await badge.waitFor({ state: "hidden", timeout: 15_000 });
    await shot("06-no-pending-proposals");

    // A proposal whose target changes on disk is marked stale, cannot be saved, and can be discarded.
    fs.writeFileSync(
      input,
      JSON.stringify({
        records: [{ operation: "update", record_id: SOURCE_A, expected_sha256: createHash("sha256").update(NEXT_A).digest("hex"), markdown: NEXT_A.replace("Second reading", "Third reading") }],
      }),
    );
    const staleId = (JSON.parse(docket(["notebook", "propose", input, "--notebook", notebook, "--workspace", dirs.workspace, "--json"], dirs.workspace)) as { proposalId: string }).proposalId;
    const edited = NEXT_A.replace("Second reading", "Edited by hand");
    fs.writeFileSync(path.join(notebook, "records", "handbook.md"), edited);
    await runCommand(p, "Docket: Refresh Notebook");
    await p.locator(SIDEBAR_ROWS, { hasText: /stale: cannot be saved/u }).first().waitFor({ timeout: 30_000 });
    const staleRow = p.locator(SIDEBAR_ROWS, { hasText: "handbook.md" }).first();
    assert.match(await staleRow.innerText(), /stale/u);
    await staleRow.click();
    await p.locator(".tab", { hasText: "handbook.md (existing ⇄ proposed)" }).first().waitFor({ timeout: 20_000 });
    await p.locator('.editor-actions [aria-label^="Save All Records"]').first().click();
    await p.locator(".notification-toast", { hasText: new RegExp(`Proposal ${staleId} is stale`, "u") }).first().waitFor({ timeout: 20_000 });
    assert.equal(await p.locator(".monaco-dialog-box").count(), 0, "no approval is asked for a stale proposal");
    assert.equal(fs.readFileSync(path.join(notebook, "records", "handbook.md"), "utf8"), edited);
    await shot("07-stale-proposal-refused");
    // Discard's default (focused, Enter) keeps the proposal: Enter discards nothing.
    const discardDialog = p.locator(".monaco-dialog-box", { hasText: new RegExp(`Discard proposal ${staleId}`, "u") }).first();
    await p.locator('.editor-actions [aria-label^="Discard Proposal"]').first().click();
    await discardDialog.waitFor({ timeout: 15_000 });
    const discardFocus = discardDialog.locator(".monaco-button:focus");
    assert.match((await discardFocus.count()) > 0 ? await discardFocus.first().innerText() : "(none)", /Review Records/u, "the default button keeps the proposal");
    await shot("07b-discard-default-keeps");
    await p.keyboard.press("Enter");
    await discardDialog.waitFor({ state: "hidden", timeout: 10_000 });
    await p.locator('.editor-actions [aria-label^="Discard Proposal"]').first().click();
    await discardDialog.waitFor({ timeout: 15_000 });
    assert.equal(await p.locator(SIDEBAR_ROWS, { hasText: `Proposal ${shortProposalId(staleId)}` }).count(), 1, "Enter on the Discard modal kept the proposal");
    await discardDialog.locator(".monaco-button", { hasText: "Discard Proposal" }).first().click();
    await p.locator(SIDEBAR_ROWS, { hasText: /No pending proposals/u }).first().waitFor({ timeout: 20_000 });
    assert.equal(fs.readFileSync(path.join(notebook, "records", "handbook.md"), "utf8"), edited, "discarding never touches the notebook");
    await shot("08-stale-proposal-discarded");

    // Agents. Disconnect offers only connected agents: with none connected it says so and asks nothing.
    await runCommand(p, "Docket: Disconnect Agent");
    await p.locator(".notification-toast", { hasText: /No agent is connected to Docket in this folder/u }).first().waitFor({ timeout: 20_000 });
    assert.equal(await p.locator(".monaco-dialog-box").count(), 0, "no confirmation for an agent that is not connected");
    // Connect shows its change as preview diffs and closes them once the question is answered.
    await runCommand(p, "Docket: Connect Claude Code");
    const previews = p.locator(".tab", { hasText: /current ⇄ proposed by Docket/u });
    await previews.first().waitFor({ timeout: 30_000 });
    const connectDialog = p.locator(".monaco-dialog-box", { hasText: /Connect Claude Code to Docket\?/u }).first();
    await connectDialog.waitFor({ timeout: 30_000 });
    await connectDialog.locator(".monaco-button", { hasText: /^Connect$/u }).first().click();
    const connectedNotes = p.locator(".monaco-dialog-box", { hasText: /connected to Docket/u }).first();
    await connectedNotes.waitFor({ timeout: 30_000 });
    await connectedNotes.locator(".monaco-button").first().click();
    await connectedNotes.waitFor({ state: "hidden", timeout: 10_000 });
    assert.equal(await previews.count(), 0, "the preview diffs are closed once Connect was answered");
    assert.ok(fs.existsSync(path.join(dirs.workspace, ".mcp.json")), "Connect wrote the MCP entry");
    await shot("09-connected-previews-closed");
    // Only Claude Code is connected, so Disconnect names it without offering Codex.
    await runCommand(p, "Docket: Disconnect Agent");
    const disconnectDialog = p.locator(".monaco-dialog-box", { hasText: /Disconnect Claude Code from Docket\?/u }).first();
    await disconnectDialog.waitFor({ timeout: 20_000 });
    assert.equal(await p.locator(".quick-input-list .monaco-list-row", { hasText: /Codex/u }).count(), 0, "Codex is not offered");
    await shot("10-disconnect-only-the-connected-agent");
    await disconnectDialog.locator(".monaco-button", { hasText: /^Disconnect$/u }).first().click();
    const disconnectedNotes = p.locator(".monaco-dialog-box", { hasText: /disconnected from Docket/u }).first();
    await disconnectedNotes.waitFor({ timeout: 30_000 });
    await disconnectedNotes.locator(".monaco-button").first().click();
    assert.equal(fs.existsSync(path.join(dirs.workspace, ".claude", "settings.json")), false, "Disconnect removed the hooks it added");
  });
});
