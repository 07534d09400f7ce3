// The status-bar items: Docket's phase (or the backend's state while it is not ready), and Observer's mode.
import * as vscode from "vscode";
import type { ObserverOverview, Phase, Status } from "../server/protocol/messages";
import type { BackendState, WorkspaceState } from "../server/protocol/webviewMessages";
import { observerSummaryLines, observerWorthShowing } from "./observerTreeModel";
import { phaseLabel } from "./strings";

function phaseIcon(phase: Phase): string {
  switch (phase) {
    case "off":
      return "$(circle-slash)";
    case "blocked":
      return "$(error)";
    case "deciding":
      return "$(lightbulb)";
    case "ready-to-edit":
      return "$(unlock)";
    case "editing":
      return "$(edit)";
    case "rerouting":
      return "$(debug-step-back)";
    case "verifying":
      return "$(beaker)";
    case "done":
      return "$(pass)";
  }
}

export class DocketStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("docket.status", vscode.StatusBarAlignment.Left, 10);

  constructor() {
    this.item.name = vscode.l10n.t("Docket");
    this.item.command = "docket.showStatus";
    this.item.show();
  }

  update(state: BackendState, status: Status | null, workspace: WorkspaceState): void {
    const item = this.item;
    item.backgroundColor = undefined;
    const clickHint = vscode.l10n.t("Click to show Docket's status.");
    if (workspace === "none") {
      item.text = "$(circle-slash) Docket";
      item.tooltip = vscode.l10n.t("Open a folder to use Docket.");
      return;
    }
    if (state === "starting" || (state === "ready" && status === null)) {
      item.text = "$(loading~spin) Docket";
      item.tooltip = vscode.l10n.t("Docket's backend is starting…");
      return;
    }
    if (state === "restarting") {
      item.text = `$(loading~spin) ${vscode.l10n.t("Docket: restarting…")}`;
      item.tooltip = vscode.l10n.t("Docket's backend stopped unexpectedly and is restarting.");
      item.backgroundColor = new vscode.ThemeColor("statusBarItem.warningBackground");
      return;
    }
    if (state === "stopped" || status === null) {
      item.text = `$(error) ${vscode.l10n.t("Docket: stopped")}`;
      item.tooltip = `${vscode.l10n.t("Docket's backend is not running.")}\n${clickHint}`;
      item.backgroundColor = new vscode.ThemeColor("statusBarItem.errorBackground");
      return;
    }
    const restricted = workspace === "untrusted" ? " $(shield)" : "";
    item.text = `${phaseIcon(status.phase)} ${vscode.l10n.t("Docket: {0}", phaseLabel(status.phase))}${restricted}`;
    const lines = [vscode.l10n.t("Docket — {0}", phaseLabel(status.phase))];
    if (status.activeScope !== null) {
      lines.push(vscode.l10n.t("Work scope: {0}", status.activeScope.workScopeId));
    }
    // While the backend still reads the ledger it does not know the count yet, so it is not shown as one.
    lines.push(status.stillReading === true ? vscode.l10n.t("Receipts: still reading the history…") : vscode.l10n.t("Receipts: {0}", status.receiptCount));
    if (status.blockedReason !== null) {
      lines.push(vscode.l10n.t("Blocked: {0}", status.blockedReason));
    }
    if (workspace === "untrusted") {
      lines.push(vscode.l10n.t("Restricted Mode: read-only."));
    }
    lines.push(clickHint);
    item.tooltip = lines.join("\n");
    if (status.phase === "blocked") {
      item.backgroundColor = new vscode.ThemeColor("statusBarItem.warningBackground");
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}

/**
 * Observer's own item: on or off, the Episode and its counts in the tooltip; a click turns it
 * the other way. Hidden until a Notebook is configured or Observer was used in this workspace.
 */
export class ObserverStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("docket.observer", vscode.StatusBarAlignment.Left, 9);

  constructor(toggleCommand: string) {
    this.item.name = vscode.l10n.t("Docket Observer");
    this.item.command = toggleCommand;
  }

  update(overview: ObserverOverview | null, notebookConfigured: boolean): void {
    const item = this.item;
    if (!observerWorthShowing(overview, notebookConfigured)) {
      item.hide();
      return;
    }
    const on = overview?.mode === "on";
    item.text = on ? `$(eye) ${vscode.l10n.t("Observer")}` : `$(eye-closed) ${vscode.l10n.t("Observer off")}`;
    const lines = overview === null ? [vscode.l10n.t("Observer: unavailable")] : observerSummaryLines(overview, { l10n: vscode.l10n, time: (iso) => iso });
    if (overview !== null) {
      lines.push(
        vscode.l10n.t(
          "Candidates: {0} · Readings: {1} · Observations: {2} · Hypotheses: {3} · Memos: {4}",
          overview.candidates.length,
          overview.readings.length,
          overview.observations.length,
          overview.hypotheses.length,
          overview.memos.length,
        ),
      );
    }
    lines.push(on ? vscode.l10n.t("Click to turn Observer off.") : vscode.l10n.t("Click to turn Observer on."));
    item.tooltip = lines.join("\n");
    item.accessibilityInformation = { label: on ? vscode.l10n.t("Docket Observer is on") : vscode.l10n.t("Docket Observer is off") };
    item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
