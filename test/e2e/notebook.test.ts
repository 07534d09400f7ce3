// Notebook approval in a real VS Code workbench (code-server + Chromium): a notebook set up and a
// proposal made with the `docket notebook` CLI, the proposal's records in the Observer view, a
// record opened in the diff editor (existing ⇄ proposed) with "Save All Records" and "Discard
// Proposal" in the editor title, Save All confirmed in the one modal (Cancel focused), and the
// files on disk afterwards. Screenshots land in test-artifacts/e2e-notebook/.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { repoRoot } from "../support/repoRoot";
import { runCommand, SIDEBAR_ROWS } from "./support/workbench";
import { inWorkbench } from "./support/workbench";
import { openDocketContainer } from "./support/docketViews";
import { sourceMarkdown } from "../support/notebookRecords";

const BUDGET_MS = Number(process.env.DOCKET_E2E_BUDGET_MS ?? 240_000);
const SOURCE_A = "source-00000000-0000-4000-8000-00000000000a";
const SOURCE_B = "source-00000000-0000-4000-8000-00000000000b";


const EXISTING_A = sourceMarkdown(SOURCE_A, "Handbook chapter on capture", "The chapter recommends capturing context at the moment of writing.");
const NEXT_A = sourceMarkdown(SOURCE_A, "Handbook chapter on capture", "The chapter recommends capturing context at the moment of writing.\n\nSecond reading: it also asks for the reason behind each note.");
const NEW_B = sourceMarkdown(SOURCE_B, "Desk observation", "Notes written after the restart were missing their context.");

function docket(args: readonly string[], cwd: string): string {
  return execFileSync(process.execPath, [path.join(repoRoot(), "dist", "docket.js"), ...args], { cwd, encoding: "utf8", timeout: 30_000 });
}

test("a notebook proposal is reviewed in the diff editor and saved as a whole (code-server)", { timeout: BUDGET_MS + 600_000 }, async (t) => {
  const files = {
    "README.md": "# Notes\n",
    ".vscode/settings.json": `${JSON.stringify({ "docket.notebookPath": "notebook" }, null, 2)}\n`,
    "notebook/records/handbook.md": EXISTING_A,
  };
  await inWorkbench(t, { label: "e2e-notebook", files, budgetMs: BUDGET_MS }, async (workbench) => {
    const { page: p, shot, mark, dirs } = workbench;
    await p.locator(".statusbar-item", { hasText: /Docket: Off/u }).first().waitFor({ timeout: 60_000 });
    mark("backendReady");

    // The notebook and the proposal come from the CLI, as a script or an agent would make them.
    const notebook = path.join(dirs.workspace, "notebook");
    t.diagnostic(docket(["notebook", "setup", notebook, "--language", "en", "--yes"], dirs.workspace).trim());
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
    mark("proposed");

    await openDocketContainer(p);
    const observerHeader = p.locator('[id="workbench.parts.sidebar"] .pane-header', { hasText: /Observer/u }).first();
    await observerHeader.click();
    // Room for the Observer: fold the Work and Receipts views.
    for (const name of [/Work/u, /Receipts/u]) {
      await p.locator('[id="workbench.parts.sidebar"] .pane-header', { hasText: name }).first().click();
    }
    // The tree picks the proposal file up by itself; refreshing as well keeps a slow watcher from failing the test.
    await runCommand(p, "Docket: Refresh Notebook");
    const recordRow = p.locator(SIDEBAR_ROWS, { hasText: "records/handbook.md" }).first();
    await recordRow.waitFor({ timeout: 30_000 });
    await p.locator(SIDEBAR_ROWS, { hasText: `records/${SOURCE_B}.md` }).first().waitFor({ timeout: 10_000 });
    await p.locator(SIDEBAR_ROWS, { hasText: proposalId }).first().waitFor({ timeout: 10_000 });
    const notebookRow = p.locator(SIDEBAR_ROWS, { hasText: /^Notebook/u }).first();
    assert.match(await notebookRow.innerText(), /1 record/u);
    assert.match(await recordRow.innerText(), /update · valid/u);
    assert.match(await p.locator(SIDEBAR_ROWS, { hasText: `records/${SOURCE_B}.md` }).first().innerText(), /create · valid/u);
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
    await saveAction.hover();
    await shot("02-diff-editor-with-actions");

    // The create diffs against an empty document.
    await p.locator(SIDEBAR_ROWS, { hasText: `records/${SOURCE_B}.md` }).first().click();
    await p.locator(".tab", { hasText: `${SOURCE_B}.md (new record ⇄ proposed)` }).first().waitFor({ timeout: 20_000 });
    await p.locator(".monaco-diff-editor .view-line", { hasText: "Desk observation" }).first().waitFor({ timeout: 20_000 });
    await shot("03-create-diff");

    // One modal names the notebook and the count; "Back to Review" has the focus, so Enter never approves.
    await p.locator('.editor-actions [aria-label^="Save All Records"]').first().click();
    const dialog = p.locator(".monaco-dialog-box").first();
    await dialog.waitFor({ timeout: 15_000 });
    const dialogText = await dialog.innerText();
    assert.match(dialogText, /Save all 2 records to the Notebook/u);
    assert.ok(dialogText.includes(fs.realpathSync(notebook)), `the dialog names ${notebook}`);
    assert.ok(dialogText.includes(proposalId), "the dialog names the proposal");
    const approve = dialog.locator(".monaco-button", { hasText: "Save All 2 Records" }).first();
    await approve.waitFor({ timeout: 5_000 });
    const focused = dialog.locator(".monaco-button:focus");
    const focusedText = (await focused.count()) > 0 ? await focused.first().innerText() : "(none)";
    t.diagnostic(`focused dialog button: ${focusedText}`);
    assert.match(focusedText, /Back to Review/u, "the default button does not approve");
    await shot("04-save-all-modal");
    assert.equal(fs.readFileSync(path.join(notebook, "records", "handbook.md"), "utf8"), EXISTING_A, "nothing is written before approval");
    await approve.click();

    const toast = p.locator(".notification-toast", { hasText: /Saved 2 records to the Notebook/u }).first();
    await toast.waitFor({ timeout: 30_000 });
    assert.match(await toast.innerText(), /receipt-[0-9a-f-]{36}/u);
    mark("saved");
    await shot("05-saved-receipt");

    assert.equal(fs.readFileSync(path.join(notebook, "records", "handbook.md"), "utf8"), NEXT_A);
    assert.equal(fs.readFileSync(path.join(notebook, "records", `${SOURCE_B}.md`), "utf8"), NEW_B);
    assert.equal(fs.existsSync(path.join(notebook, ".observer", "transactions", "active")), false, "no transaction left behind");
    // The proposal is settled: the tree no longer lists it.
    await p.locator(SIDEBAR_ROWS, { hasText: /No pending proposals/u }).first().waitFor({ timeout: 20_000 });
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
    const staleRow = p.locator(SIDEBAR_ROWS, { hasText: "records/handbook.md" }).first();
    assert.match(await staleRow.innerText(), /stale/u);
    await staleRow.click();
    await p.locator(".tab", { hasText: "handbook.md (existing ⇄ proposed)" }).first().waitFor({ timeout: 20_000 });
    await p.locator('.editor-actions [aria-label^="Save All Records"]').first().click();
    await p.locator(".notification-toast", { hasText: new RegExp(`Proposal ${staleId} is stale`, "u") }).first().waitFor({ timeout: 20_000 });
    assert.equal(await p.locator(".monaco-dialog-box").count(), 0, "no approval is asked for a stale proposal");
    assert.equal(fs.readFileSync(path.join(notebook, "records", "handbook.md"), "utf8"), edited);
    await shot("07-stale-proposal-refused");
    await p.locator('.editor-actions [aria-label^="Discard Proposal"]').first().click();
    const discardDialog = p.locator(".monaco-dialog-box", { hasText: new RegExp(`Discard proposal ${staleId}`, "u") }).first();
    await discardDialog.waitFor({ timeout: 15_000 });
    await discardDialog.locator(".monaco-button", { hasText: "Discard Proposal" }).first().click();
    await p.locator(SIDEBAR_ROWS, { hasText: /No pending proposals/u }).first().waitFor({ timeout: 20_000 });
    assert.equal(fs.readFileSync(path.join(notebook, "records", "handbook.md"), "utf8"), edited, "discarding never touches the notebook");
    await shot("08-stale-proposal-discarded");
  });
});
