// `docket.guard.mode`: when the workspace's settings name a mode, the extension writes it to
// `.docket/guard/mode.json` (what the hooks read) through `docket/guard/setMode` — when the setting
// changes, and once after each backend start if the file says otherwise. When the workspace does
// not set it, the file is left alone: `docket guard mode` in a terminal may have chosen it. In
// Restricted Mode the workspace's value is ignored (a cloned repository must not turn the guard off).
import * as vscode from "vscode";
import { GuardMode, Requests, type GuardModeName } from "../server/protocol/messages";
import type { Backend } from "./backend";
import { firstFolder } from "./config";
import type { GuardOverviewSource } from "./guardOverviewSource";

export const GUARD_MODE_SETTING = "docket.guard.mode";

/** The mode this workspace's settings ask for, or null when they do not name one. */
export function workspaceGuardMode(): GuardModeName | null {
  if (!vscode.workspace.isTrusted) return null;
  const inspected = vscode.workspace.getConfiguration("docket.guard", firstFolder()?.uri).inspect<unknown>("mode");
  const parsed = GuardMode.safeParse(inspected?.workspaceFolderValue ?? inspected?.workspaceValue);
  return parsed.success ? parsed.data : null;
}

export function registerGuardModeSetting(backend: Backend, source: GuardOverviewSource, log: vscode.LogOutputChannel): vscode.Disposable[] {
  let checkedSinceStart = false;
  const apply = async (announceFailure: boolean): Promise<void> => {
    const mode = workspaceGuardMode();
    if (mode === null || backend.state !== "ready") return;
    try {
      await backend.request(Requests.guardSetMode, { mode });
      log.info(`completion guard mode set to ${mode} from the workspace setting ${GUARD_MODE_SETTING}`);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      log.warn(`docket/guard/setMode ${mode} failed: ${text}`);
      if (announceFailure) void vscode.window.showErrorMessage(vscode.l10n.t("Docket could not set the completion guard mode: {0}", text));
    }
  };
  return [
    backend.onDidChangeState((state) => {
      if (state !== "ready") checkedSinceStart = false;
    }),
    source.onDidChange((overview) => {
      if (overview === null || checkedSinceStart) return;
      checkedSinceStart = true;
      const wanted = workspaceGuardMode();
      if (wanted !== null && wanted !== overview.mode) void apply(false);
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(GUARD_MODE_SETTING)) void apply(true);
    }),
  ];
}
