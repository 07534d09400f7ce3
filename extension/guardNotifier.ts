// One message per new Stop decision whose final answer had no supported review: the agent claimed
// to be done without proof. "Show" reveals the Work view, where the Reviews section lists the
// stop and the work that remained. Which decisions were announced is kept in the workspace's
// memento, so a reload never announces one again (guardAlerts.ts decides).
import * as vscode from "vscode";
import type { GuardStop } from "../server/protocol/messages";
import { planAlerts } from "./guardAlerts";
import type { GuardOverviewSource } from "./guardOverviewSource";
import { hostLabel } from "./guardTreeModel";

const MEMENTO_KEY = "docket.guard.announcedStops";
const WORK_VIEW_FOCUS = "docket.work.focus";

function message(stop: GuardStop): string {
  const host = hostLabel(stop.host, { l10n: vscode.l10n, time: (iso) => iso });
  const count = stop.remaining.length;
  if (count === 0) return vscode.l10n.t("Docket: {0} claimed completion without a supported review.", host);
  if (count === 1) return vscode.l10n.t("Docket: {0} claimed completion without a supported review — 1 item remains.", host);
  return vscode.l10n.t("Docket: {0} claimed completion without a supported review — {1} items remain.", host, count);
}

export function registerGuardNotifier(source: GuardOverviewSource, memento: vscode.Memento): vscode.Disposable {
  return source.onDidChange((overview) => {
    if (overview === null) return;
    const plan = planAlerts(overview.stops, memento.get<string[]>(MEMENTO_KEY) ?? null);
    void memento.update(MEMENTO_KEY, plan.remembered);
    for (const stop of plan.announce) {
      const show = vscode.l10n.t("Show");
      void vscode.window.showWarningMessage(message(stop), show).then((choice) => {
        if (choice === show) void vscode.commands.executeCommand(WORK_VIEW_FOCUS);
      });
    }
  });
}
