// The `docket.*` context keys that drive `when` clauses in package.json.
import * as vscode from "vscode";
import type { Status } from "../server/protocol/messages";
import type { BackendState } from "../server/protocol/webviewMessages";

export const ContextKeys = {
  /** The current phase ("off", "editing", …), or "" while unknown. */
  phase: "docket.phase",
  /** A work scope is open. */
  on: "docket.on",
  /** The backend is running and answers requests. */
  backendReady: "docket.backendReady",
  /** The backend stopped and will not restart on its own. */
  backendFailed: "docket.backendFailed",
} as const;

export function updateContextKeys(state: BackendState, status: Status | null): void {
  const set = (key: string, value: unknown): void => {
    void vscode.commands.executeCommand("setContext", key, value);
  };
  set(ContextKeys.backendReady, state === "ready");
  set(ContextKeys.backendFailed, state === "stopped");
  set(ContextKeys.phase, status?.phase ?? "");
  set(ContextKeys.on, status !== null && status.activeScope !== null);
}
