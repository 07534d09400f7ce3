// The Work view: the active work scope with its details, closed scopes under "History", and
// the blocked reason when the ledger's history is blocked. Empty while Docket is off, so the
// view's welcome content (Turn On) shows.
import * as vscode from "vscode";
import type { ScopeSummary, Status } from "../server/protocol/messages";
import { formatTime, phaseLabel } from "./strings";

/** `contextValue`s, for `view/item/context` menus. */
export const WorkItemContext = {
  blocked: "docket.blocked",
  ledgerProblem: "docket.ledgerProblem",
  activeScope: "docket.scope.active",
  closedScope: "docket.scope.closed",
  history: "docket.history",
  detail: "docket.detail",
  ledger: "docket.ledger",
} as const;

export type WorkNode =
  | { readonly kind: "blocked"; readonly reason: string }
  | { readonly kind: "ledgerProblem"; readonly code: string; readonly message: string; readonly line: number | null }
  | { readonly kind: "activeScope"; readonly scope: ScopeSummary; readonly status: Status }
  | { readonly kind: "history"; readonly scopes: readonly ScopeSummary[] }
  | { readonly kind: "closedScope"; readonly scope: ScopeSummary }
  | {
      readonly kind: "detail";
      readonly id: string;
      readonly label: string;
      readonly value: string;
      readonly icon: string;
      readonly context: string;
    };

function detail(parentId: string, key: string, label: string, value: string, icon: string, context: string = WorkItemContext.detail): WorkNode {
  return { kind: "detail", id: `${parentId}/${key}`, label, value, icon, context };
}

function scopeDetails(parentId: string, scope: ScopeSummary): WorkNode[] {
  const nodes = [
    detail(parentId, "id", vscode.l10n.t("Scope ID"), scope.workScopeId, "symbol-key"),
    detail(parentId, "head", vscode.l10n.t("Head sequence"), String(scope.head), "list-ordered"),
    detail(parentId, "opened", vscode.l10n.t("Opened at"), formatTime(scope.openedAt), "calendar"),
  ];
  if (scope.closedAt !== null) {
    nodes.push(detail(parentId, "closed", vscode.l10n.t("Closed at"), formatTime(scope.closedAt), "calendar"));
  }
  return nodes;
}

export function isBlocked(status: Status): boolean {
  return status.historyMode === "blocked" || status.phase === "blocked" || status.blockedReason !== null;
}

export class WorkTreeProvider implements vscode.TreeDataProvider<WorkNode> {
  private status: Status | null = null;
  private readonly changeEmitter = new vscode.EventEmitter<WorkNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;

  setStatus(status: Status | null): void {
    this.status = status;
    this.changeEmitter.fire(undefined);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }

  getChildren(element?: WorkNode): WorkNode[] {
    if (element === undefined) {
      return this.roots();
    }
    switch (element.kind) {
      case "activeScope": {
        const nodes = scopeDetails("active", element.scope);
        if (element.status.ledger !== null) {
          nodes.push(detail("active", "ledger", vscode.l10n.t("Ledger"), element.status.ledger.path, "database", WorkItemContext.ledger));
        }
        return nodes;
      }
      case "history":
        return element.scopes.map((scope) => ({ kind: "closedScope", scope }));
      case "closedScope":
        return scopeDetails(`closed/${element.scope.workScopeId}`, element.scope);
      default:
        return [];
    }
  }

  private roots(): WorkNode[] {
    const status = this.status;
    if (status === null) {
      return [];
    }
    const nodes: WorkNode[] = [];
    const blocked = isBlocked(status);
    if (blocked) {
      nodes.push({ kind: "blocked", reason: status.blockedReason ?? vscode.l10n.t("The ledger's history is blocked.") });
    } else if (status.ledger?.problem) {
      const problem = status.ledger.problem;
      nodes.push({ kind: "ledgerProblem", code: problem.code, message: problem.message, line: problem.line });
    }
    if (status.phase === "off" && nodes.length === 0) {
      // Off: leave the view empty so its welcome content (with "Turn On") shows.
      return [];
    }
    if (status.activeScope !== null) {
      nodes.push({ kind: "activeScope", scope: status.activeScope, status });
    }
    const closed = status.scopes.filter((scope) => scope.status === "closed");
    if (closed.length > 0) {
      nodes.push({ kind: "history", scopes: closed });
    }
    return nodes;
  }

  getTreeItem(node: WorkNode): vscode.TreeItem {
    const None = vscode.TreeItemCollapsibleState.None;
    switch (node.kind) {
      case "blocked": {
        const item = new vscode.TreeItem(vscode.l10n.t("History is blocked"), None);
        item.id = "blocked";
        item.description = node.reason;
        item.tooltip = node.reason;
        item.iconPath = new vscode.ThemeIcon("error", new vscode.ThemeColor("errorForeground"));
        item.contextValue = WorkItemContext.blocked;
        item.accessibilityInformation = { label: vscode.l10n.t("History is blocked: {0}", node.reason) };
        return item;
      }
      case "ledgerProblem": {
        const item = new vscode.TreeItem(vscode.l10n.t("Ledger problem"), None);
        item.id = "ledger-problem";
        item.description = node.message;
        item.tooltip =
          node.line === null
            ? `${node.message}\n(${node.code})`
            : `${vscode.l10n.t("Line {0}: {1}", node.line, node.message)}\n(${node.code})`;
        item.iconPath = new vscode.ThemeIcon("warning", new vscode.ThemeColor("problemsWarningIcon.foreground"));
        item.contextValue = WorkItemContext.ledgerProblem;
        return item;
      }
      case "activeScope": {
        const scope = node.scope;
        const item = new vscode.TreeItem(vscode.l10n.t("Work scope"), vscode.TreeItemCollapsibleState.Expanded);
        item.id = "active";
        item.description = phaseLabel(node.status.phase);
        item.tooltip = [
          vscode.l10n.t("Work scope {0}", scope.workScopeId),
          vscode.l10n.t("Phase: {0}", phaseLabel(node.status.phase)),
          vscode.l10n.t("Head sequence: {0}", scope.head),
          vscode.l10n.t("Opened at: {0}", formatTime(scope.openedAt)),
        ].join("\n");
        item.iconPath = new vscode.ThemeIcon("checklist");
        item.contextValue = WorkItemContext.activeScope;
        return item;
      }
      case "history": {
        const item = new vscode.TreeItem(vscode.l10n.t("History"), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = "history";
        item.description =
          node.scopes.length === 1
            ? vscode.l10n.t("1 closed scope")
            : vscode.l10n.t("{0} closed scopes", node.scopes.length);
        item.iconPath = new vscode.ThemeIcon("history");
        item.contextValue = WorkItemContext.history;
        return item;
      }
      case "closedScope": {
        const scope = node.scope;
        const item = new vscode.TreeItem(scope.workScopeId, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `closed/${scope.workScopeId}`;
        item.description = scope.closedAt === null ? "" : vscode.l10n.t("closed {0}", formatTime(scope.closedAt));
        item.tooltip = [
          vscode.l10n.t("Work scope {0}", scope.workScopeId),
          vscode.l10n.t("Head sequence: {0}", scope.head),
          vscode.l10n.t("Opened at: {0}", formatTime(scope.openedAt)),
          ...(scope.closedAt === null ? [] : [vscode.l10n.t("Closed at: {0}", formatTime(scope.closedAt))]),
        ].join("\n");
        item.iconPath = new vscode.ThemeIcon("archive");
        item.contextValue = WorkItemContext.closedScope;
        return item;
      }
      case "detail": {
        const item = new vscode.TreeItem(node.label, None);
        item.id = node.id;
        item.description = node.value;
        item.tooltip = `${node.label}: ${node.value}`;
        item.iconPath = new vscode.ThemeIcon(node.icon);
        item.contextValue = node.context;
        item.accessibilityInformation = { label: `${node.label}: ${node.value}` };
        return item;
      }
    }
  }
}
