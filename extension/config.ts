// Reads the window's folder, trust and Docket settings, and turns them into the backend's
// initialization options.
import * as vscode from "vscode";
import type { BackendInitOptions } from "../server/protocol/messages";
import type { WorkspaceState } from "../server/protocol/webviewMessages";
import { isInsideFolder, resolveLedgerPath } from "../server/workspace/ledgerPaths";

export const LEDGER_PATH_SETTING = "docket.ledgerPath";

export function firstFolder(): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.workspaceFolders?.[0];
}

export function hasFolder(): boolean {
  return firstFolder() !== undefined;
}

export function workspaceState(): WorkspaceState {
  if (!hasFolder()) {
    return "none";
  }
  return vscode.workspace.isTrusted ? "trusted" : "untrusted";
}

/**
 * The raw `docket.ledgerPath` value. In Restricted Mode only the user's own (global) value
 * counts: an untrusted workspace must not point Docket at an arbitrary file. A value from the
 * workspace's own settings (a file the repository ships) must also stay inside the folder:
 * otherwise a cloned `.vscode/settings.json` could make Docket append to any file the user owns.
 */
function ledgerPathSetting(folder: vscode.WorkspaceFolder | undefined): string {
  const inspected = vscode.workspace
    .getConfiguration("docket", folder?.uri)
    .inspect<string>("ledgerPath");
  if (inspected === undefined) {
    return "";
  }
  const workspaceValue = vscode.workspace.isTrusted ? (inspected.workspaceFolderValue ?? inspected.workspaceValue) : undefined;
  if (typeof workspaceValue === "string" && folder?.uri.scheme === "file" && !isInsideFolder(folder.uri.fsPath, resolveLedgerPath(folder.uri.fsPath, workspaceValue))) {
    return typeof inspected.globalValue === "string" ? inspected.globalValue : "";
  }
  const value = workspaceValue ?? inspected.globalValue;
  return typeof value === "string" ? value : "";
}

/**
 * The raw `docket.notebookPath` value. In Restricted Mode only the user's own (global) value
 * counts: an untrusted workspace must not point Docket at a folder of its choosing.
 */
export function notebookPathSetting(): string | null {
  const inspected = vscode.workspace.getConfiguration("docket").inspect<string>("notebookPath");
  const value = vscode.workspace.isTrusted
    ? (inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue)
    : inspected?.globalValue;
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

export function backendInitOptions(): BackendInitOptions {
  const folder = firstFolder();
  const workspaceFolder = folder?.uri.scheme === "file" ? folder.uri.fsPath : null;
  return {
    workspaceFolder,
    // The same rules as the CLI and hooks: one definition in server/workspace/ledgerPaths.ts.
    ledgerPath: workspaceFolder === null ? null : resolveLedgerPath(workspaceFolder, ledgerPathSetting(folder)),
    trusted: vscode.workspace.isTrusted,
  };
}

export function sameInitOptions(a: BackendInitOptions, b: BackendInitOptions): boolean {
  return a.workspaceFolder === b.workspaceFolder && a.ledgerPath === b.ledgerPath && a.trusted === b.trusted;
}

/** Fires when anything that feeds `backendInitOptions()` may have changed. */
export function onDidChangeBackendInputs(listener: () => void): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(LEDGER_PATH_SETTING)) {
        listener();
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => listener()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => listener()),
  );
}
