// The Work view. It renders what the backend says (Status for the scope list, WorkState for the
// active scope's frames, authorization and landings and for the closed scopes' history, the guard
// overview for the Reviews section, the Notebook's pending proposals for the row that leads to
// them) and re-asks for the work state whenever the status revision moves; a reply older than the
// latest request is dropped, never shown.
import * as vscode from "vscode";
import type { GuardOverview, ProposalSummary, Status, WorkState } from "../server/protocol/messages";
import { proposalNotice, type ProposalNotice } from "./proposalNotice";
import { needsWorkState } from "./workHistory";
import { buildWorkTree, type WorkNode } from "./workTreeModel";

export { isBlocked, WorkItemContext, type WorkNode } from "./workTreeModel";

export class WorkTreeProvider implements vscode.TreeDataProvider<WorkNode> {
  private status: Status | null = null;
  private work: WorkState | null = null;
  private guard: GuardOverview | null = null;
  private proposals: ProposalNotice | null = null;
  private roots: WorkNode[] = [];
  private requested: string | null = null;
  private generation = 0;
  private readonly changeEmitter = new vscode.EventEmitter<WorkNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;

  /** @param loadWorkState asks the backend; rejects while it is down (the tree then shows the scope only). */
  constructor(private readonly loadWorkState: () => Promise<WorkState>) {}

  setStatus(status: Status | null): void {
    this.status = status;
    if (!needsWorkState(status)) {
      this.work = null;
      this.requested = null;
    } else if (status !== null && status.revision !== this.requested) {
      this.requested = status.revision;
      void this.fetch();
    }
    this.rebuild();
  }

  /** The completion guard's overview, kept by GuardOverviewSource. */
  setGuard(guard: GuardOverview | null): void {
    this.guard = guard;
    this.rebuild();
  }

  /** The Notebook proposals waiting for review (the Observer view's list). */
  setProposals(proposals: readonly ProposalSummary[]): void {
    this.proposals = proposalNotice(proposals, { l10n: vscode.l10n, locale: vscode.env.language });
    this.rebuild();
  }

  /** Asks again even if the revision did not move (e.g. after a backend restart). */
  reload(): void {
    this.requested = null;
    this.setStatus(this.status);
  }

  private async fetch(): Promise<void> {
    const generation = ++this.generation;
    try {
      const work = await this.loadWorkState();
      if (generation !== this.generation) return;
      this.work = work;
    } catch {
      if (generation !== this.generation) return;
      this.work = null;
      this.requested = null;
    }
    this.rebuild();
  }

  private rebuild(): void {
    this.roots = buildWorkTree(this.status, this.work, this.guard, this.proposals);
    this.changeEmitter.fire(undefined);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }

  getChildren(element?: WorkNode): WorkNode[] {
    return [...(element === undefined ? this.roots : element.children)];
  }

  getTreeItem(node: WorkNode): vscode.TreeItem {
    const state =
      node.children.length === 0
        ? vscode.TreeItemCollapsibleState.None
        : node.expanded === true
          ? vscode.TreeItemCollapsibleState.Expanded
          : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(node.label, state);
    item.id = node.id;
    item.description = node.description;
    item.tooltip = node.tooltip ?? (node.description === undefined ? node.label : `${node.label}: ${node.description}`);
    item.iconPath = new vscode.ThemeIcon(node.icon, node.iconColor === undefined ? undefined : new vscode.ThemeColor(node.iconColor));
    item.contextValue = node.context;
    item.command = node.command;
    item.resourceUri = node.resourceUri;
    item.accessibilityInformation = { label: node.description === undefined ? node.label : `${node.label}: ${node.description}` };
    return item;
  }
}
