// "Docket: Open Pi Session…" and "Docket: Close Pi Session": show a Pi session's developer.runtime
// history read-only in the Work tree and Receipts view, and go back to the workspace ledger. The
// backend holds the open session; the context key follows the status it reports, so it is right
// after a backend restart too (a restarted backend shows the workspace ledger again).
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { Requests, type Status } from "../server/protocol/messages";
import type { Backend } from "./backend";
import { toDocketError } from "./errors";

export const PiSessionCommandIds = {
  open: "docket.openPiSession",
  close: "docket.closePiSession",
} as const;

/** True while the backend shows a Pi session instead of the workspace ledger. */
export const PI_SESSION_CONTEXT_KEY = "docket.piSessionOpen";

interface Dependencies {
  readonly backend: Backend;
  readonly log: vscode.LogOutputChannel;
}

function piSessionPath(status: Status | null): string | null {
  return status?.source.kind === "pi-session" ? status.source.path : null;
}

/** Where Pi keeps its sessions, when that folder exists; else the workspace folder. */
async function defaultFolder(): Promise<vscode.Uri | undefined> {
  const sessions = vscode.Uri.file(path.join(os.homedir(), ".pi", "agent", "sessions"));
  try {
    await vscode.workspace.fs.stat(sessions);
    return sessions;
  } catch {
    return vscode.workspace.workspaceFolders?.[0]?.uri;
  }
}

export function registerPiSessionCommands({ backend, log }: Dependencies): vscode.Disposable[] {
  const setOpen = (status: Status | null): void => {
    void vscode.commands.executeCommand("setContext", PI_SESSION_CONTEXT_KEY, piSessionPath(status) !== null);
  };

  function fail(error: unknown, method: string, sentence: (code: string, message: string) => string): void {
    const failure = toDocketError(error, method);
    log.warn(`${method} failed [${failure.code}]: ${failure.message}`);
    void vscode.window.showErrorMessage(sentence(failure.code, failure.message));
  }

  async function open(): Promise<Status | undefined> {
    const picked = await vscode.window.showOpenDialog({
      canSelectFiles: true,
      canSelectFolders: false,
      canSelectMany: false,
      defaultUri: await defaultFolder(),
      openLabel: vscode.l10n.t("Open Pi Session"),
      title: vscode.l10n.t("Docket: Open a Pi session read-only"),
      filters: { [vscode.l10n.t("Pi sessions (JSON Lines)")]: ["jsonl"] },
    });
    const uri = picked?.[0];
    if (uri === undefined) return undefined;
    try {
      const status = await backend.request(Requests.piSessionOpen, { path: uri.fsPath });
      await backend.refreshStatus().catch(() => undefined);
      log.info(`showing the Pi session ${uri.fsPath} read-only (${status.receiptCount} receipts, phase ${status.phase})`);
      void vscode.window.showInformationMessage(
        vscode.l10n.t("Showing the Pi session {0} read-only: {1} receipts. Docket writes nothing until you close it.", path.basename(uri.fsPath), String(status.receiptCount)),
      );
      return status;
    } catch (error) {
      fail(error, Requests.piSessionOpen.method, (code, message) => vscode.l10n.t("Docket could not open the Pi session ({0}): {1}", code, message));
      return undefined;
    }
  }

  async function close(): Promise<Status | undefined> {
    try {
      const status = await backend.request(Requests.piSessionClose, {});
      await backend.refreshStatus().catch(() => undefined);
      void vscode.window.showInformationMessage(vscode.l10n.t("Closed the Pi session; Docket shows the workspace ledger again."));
      return status;
    } catch (error) {
      fail(error, Requests.piSessionClose.method, (code, message) => vscode.l10n.t("Docket could not close the Pi session ({0}): {1}", code, message));
      return undefined;
    }
  }

  setOpen(backend.status);
  return [
    backend.onDidChangeStatus(setOpen),
    vscode.commands.registerCommand(PiSessionCommandIds.open, open),
    vscode.commands.registerCommand(PiSessionCommandIds.close, close),
  ];
}
