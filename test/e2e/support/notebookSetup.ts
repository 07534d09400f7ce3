// "Docket: Set Up Notebook…" driven through the workbench like a person would: the Observer view's
// title button, VS Code's folder picker, the language pick and the confirmation modal; plus readers
// for what setup leaves on disk (the manifest and the workspace setting).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Locator, Page } from "./playwright";
import type { Workbench } from "./workbench";

export const OBSERVER_HEADER = '[id="workbench.parts.sidebar"] .pane-header';

/**
 * Picks `folder` in VS Code's folder picker. In code-server that is the "simple file dialog", a quick
 * input holding a path: typing the folder with a trailing slash lists its subfolders (files are hidden
 * when only folders can be picked), and accepting a path that names a folder (no row picked) returns
 * that folder. `startListed` is a subfolder of the folder the picker opens in, `expectListed` one of
 * `folder`.
 */
export async function chooseFolder(
  page: Page,
  title: RegExp,
  folder: string,
  listed: { startListed: string; expectListed: string },
  shot: () => Promise<void>,
): Promise<void> {
  const picker = page.locator(".quick-input-widget", { hasText: title }).first();
  await picker.waitFor({ state: "visible", timeout: 20_000 });
  const row = (name: string): Locator => picker.locator(".quick-input-list .monaco-list-row", { hasText: name }).first();
  // The picker loads its start folder asynchronously and then rewrites the input; a path typed before
  // that load finished is silently replaced by the start folder. Its listing marks the load as done.
  await row(listed.startListed).waitFor({ timeout: 20_000 });
  // inputValue() is playwright-core API missing from the subset declared in ./playwright.
  const input = picker.locator("input").first() as Locator & { inputValue(): Promise<string> };
  const typed = `${folder}${path.sep}`;
  await input.fill(typed);
  // The listing of the folder proves the dialog navigated there rather than still showing its start folder.
  await row(listed.expectListed).waitFor({ timeout: 20_000 });
  assert.equal(await input.inputValue(), typed, "the picker kept the typed path");
  await shot();
  await page.keyboard.press("Enter");
  await picker.waitFor({ state: "hidden", timeout: 20_000 });
}

export interface NotebookManifestOnDisk {
  readonly observer_notebook: string;
  readonly notebook_id: string;
  readonly default_language: string;
}

/** `<folder>/.observer/notebook.json` as written by setup (server/notebook/manifest.ts). */
export function readManifest(folder: string): NotebookManifestOnDisk {
  return JSON.parse(fs.readFileSync(path.join(folder, ".observer", "notebook.json"), "utf8")) as NotebookManifestOnDisk;
}

/** A value of the workspace's `.vscode/settings.json` (VS Code writes it as plain JSON). */
export function workspaceSetting(workspace: string, key: string): unknown {
  const file = path.join(workspace, ".vscode", "settings.json");
  assert.ok(fs.existsSync(file), `${file} exists`);
  return (JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>)[key];
}

/**
 * Runs Set Up Notebook… from the Observer view's title button for `folder` (a folder of the workspace
 * that holds the subfolder `expectListed`; `docket.notebookPath` not yet set) in English, checking the confirmation names the absolute path and
 * that nothing is written before it is confirmed. Screenshots: setup-1-picker, setup-2-language,
 * setup-3-confirm. Returns the canonical root the modal named.
 */
export async function setUpNotebookThroughUi(workbench: Workbench, folder: string, expectListed: string): Promise<string> {
  const { page: p, shot } = workbench;
  const root = fs.realpathSync(folder);
  // View title actions are only rendered while the header is hovered or focused.
  await p.locator(OBSERVER_HEADER, { hasText: /Observer/u }).first().hover();
  await p.locator(`${OBSERVER_HEADER} .actions [aria-label^="Set Up Notebook"]`).first().click({ timeout: 10_000 });

  // With no notebook configured the picker opens in the workspace folder, which holds `folder`.
  await chooseFolder(p, /Choose the Notebook folder/u, folder, { startListed: path.basename(folder), expectListed }, () => shot("setup-1-picker"));

  const language = p.locator(".quick-input-widget", { hasText: /Notebook output language/u }).first();
  await language.waitFor({ state: "visible", timeout: 20_000 });
  const english = language.locator(".quick-input-list .monaco-list-row", { hasText: /^English/u }).first();
  await english.waitFor({ timeout: 10_000 });
  await shot("setup-2-language");
  await english.click();

  const confirm = p.locator(".monaco-dialog-box", { hasText: /Create a new Notebook at/u }).first();
  await confirm.waitFor({ timeout: 20_000 });
  const text = await confirm.innerText();
  assert.ok(text.includes(`Create a new Notebook at ${root}?`), `the confirmation names the absolute path ${root}: ${text}`);
  assert.match(text, /\.observer\/notebook\.json and records\/[\s\S]*English/u, "the confirmation says what is added and in which language");
  assert.equal(fs.existsSync(path.join(folder, ".observer")), false, "nothing is written before the confirmation");
  await shot("setup-3-confirm");
  await confirm.locator(".monaco-button", { hasText: "Create Notebook" }).first().click();
  await confirm.waitFor({ state: "hidden", timeout: 10_000 });
  await p.locator(".notification-toast", { hasText: `Notebook ready at ${root}` }).first().waitFor({ timeout: 30_000 });
  return root;
}
