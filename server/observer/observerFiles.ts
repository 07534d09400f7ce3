// Observer's small workspace files under `.docket/observer/`:
// - `selection.json` — the Notebook Observer works against (its canonical root and manifest id),
//   written by Observer On so MCP and CLI processes find it without editor settings. The id is
//   also in the ledger (`notebook-selected`); every use re-opens the Notebook and compares ids.
// - `capture.json` — whether hooks stage tool results (Observer mode on) for which Episode. A
//   derived cache written after every Observer append; it is honoured only when it was written in
//   this very folder (`boundTo` dev:ino), so a repository that ships one cannot switch capture on.
//   A stale "on" stages results nobody can nominate once replay says the mode is off.
// Reads are bounded and never follow links; a damaged file reads as "none".
import fs from "node:fs";
import path from "node:path";
import { ensureContainedDirectory, readContained, writeFileAtomicContained } from "../workspace/containedFs";
import { ensureDocketFolder } from "../workspace/docketFolder";

const SELECTION_FORMAT = "docket/observer-selection/v1";
const CAPTURE_FORMAT = "docket/observer-capture/v1";
const MAX_FILE_BYTES = 16 * 1024;

export function observerFolder(workspaceFolder: string): string {
  return path.join(path.resolve(workspaceFolder), ".docket", "observer");
}

function ensureObserverFolder(workspaceFolder: string): void {
  ensureDocketFolder(workspaceFolder);
  ensureContainedDirectory(path.resolve(workspaceFolder), observerFolder(workspaceFolder), 0o700);
}

function folderIdentity(workspaceFolder: string): string | null {
  try {
    const stat = fs.lstatSync(observerFolder(workspaceFolder), { bigint: true });
    return stat.isDirectory() ? `${stat.dev}:${stat.ino}` : null;
  } catch {
    return null;
  }
}

function readJson(workspaceFolder: string, name: string): Record<string, unknown> | null {
  try {
    const bytes = readContained(path.resolve(workspaceFolder), path.join(observerFolder(workspaceFolder), name), MAX_FILE_BYTES);
    if (bytes === null) return null;
    const value = JSON.parse(bytes.toString("utf8")) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export interface NotebookSelection {
  readonly root: string;
  readonly notebookId: string;
}

export function readNotebookSelection(workspaceFolder: string): NotebookSelection | null {
  const value = readJson(workspaceFolder, "selection.json");
  if (value === null || value.format !== SELECTION_FORMAT || typeof value.root !== "string" || !path.isAbsolute(value.root) || typeof value.notebookId !== "string") return null;
  return { root: value.root, notebookId: value.notebookId };
}

export function writeNotebookSelection(workspaceFolder: string, selection: NotebookSelection): void {
  ensureObserverFolder(workspaceFolder);
  const text = `${JSON.stringify({ format: SELECTION_FORMAT, root: selection.root, notebookId: selection.notebookId })}\n`;
  writeFileAtomicContained(path.resolve(workspaceFolder), path.join(observerFolder(workspaceFolder), "selection.json"), text, { mode: 0o600 });
}

export interface CaptureMode {
  readonly on: boolean;
  readonly episodeId: string | null;
}

/** Capture is on only when Docket wrote the file in this folder and says so. */
export function readCaptureMode(workspaceFolder: string): CaptureMode {
  const value = readJson(workspaceFolder, "capture.json");
  if (value === null || value.format !== CAPTURE_FORMAT || value.on !== true || typeof value.episodeId !== "string") return { on: false, episodeId: null };
  if (typeof value.boundTo !== "string" || value.boundTo !== folderIdentity(workspaceFolder)) return { on: false, episodeId: null };
  return { on: true, episodeId: value.episodeId };
}

export function writeCaptureMode(workspaceFolder: string, mode: CaptureMode): void {
  ensureObserverFolder(workspaceFolder);
  const text = `${JSON.stringify({ format: CAPTURE_FORMAT, on: mode.on, episodeId: mode.episodeId, boundTo: folderIdentity(workspaceFolder) })}\n`;
  writeFileAtomicContained(path.resolve(workspaceFolder), path.join(observerFolder(workspaceFolder), "capture.json"), text, { mode: 0o600 });
}
