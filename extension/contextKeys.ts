// The `docket.*` context keys that drive `when` clauses in package.json.
import * as vscode from "vscode";
import type { ProtocolOperationName, Status } from "../server/protocol/messages";
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

/**
 * One key per developer/v8 operation, true while it is legal in the workspace's history: the
 * palette offers only these (package.json `commandPalette`); Next Step… always leads to the legal one.
 */
export const LegalOperationKeys: Readonly<Record<ProtocolOperationName, string>> = {
  open_judgment: "docket.legal.openJudgment",
  open_context_sources: "docket.legal.openContextSources",
  conclude_judgment: "docket.legal.concludeJudgment",
  authorize_change: "docket.legal.authorizeChange",
  record_landing: "docket.legal.recordLanding",
};

export function updateContextKeys(state: BackendState, status: Status | null): void {
  const set = (key: string, value: unknown): void => {
    void vscode.commands.executeCommand("setContext", key, value);
  };
  set(ContextKeys.backendReady, state === "ready");
  set(ContextKeys.backendFailed, state === "stopped");
  set(ContextKeys.phase, status?.phase ?? "");
  set(ContextKeys.on, status !== null && status.activeScope !== null);
  // A Pi session opened read-only is never written: nothing is legal there from the palette.
  const legal = state === "ready" && status !== null && status.source.kind === "workspace" ? new Set(status.legalOperations) : new Set<ProtocolOperationName>();
  for (const [operation, key] of Object.entries(LegalOperationKeys) as Array<[ProtocolOperationName, string]>) set(key, legal.has(operation));
}
