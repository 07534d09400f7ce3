// The Observer view (`docket.observer`): Observer's own rows first (on/off and the Episode, replay
// issues, the working evidence; extension/observerTreeModel.ts), then the Notebook and its pending
// proposals (extension/proposalTree.ts, unchanged). Observer's part is asked again when the backend
// (re)starts, when the ledger moves (`docket/stateChanged`), when an agent run's staged tool results
// change on disk, when `docket.notebookPath` changes, after an Observer command, or on Refresh; a reply older than the latest request
// is dropped, never shown. The `docket.observerOn` context key follows the last overview shown.
import * as vscode from "vscode";
import { Requests, type ObserverOverview } from "../server/protocol/messages";
import type { Backend } from "./backend";
import { toDocketError } from "./errors";
import { buildObserverTree, type ObserverNode } from "./observerTreeModel";
import { ProposalTreeProvider } from "./proposalTree";
import type { ProposalTreeNode } from "./proposalTreeModel";

export { pendingProposalsBadge } from "./proposalTree";

export const OBSERVER_ON_COMMAND = "docket.observer.on";
export const OBSERVER_OFF_COMMAND = "docket.observer.off";
/** True while the last overview shown says Observer is on. */
export const OBSERVER_ON_CONTEXT_KEY = "docket.observerOn";

/** A row of the Observer view: Observer's own, or the Notebook's and its proposals'. */
export type ObserverViewNode = ObserverNode | ProposalTreeNode;
type ViewNode = ObserverViewNode;

const STAGED_RESULTS_REFRESH_MS = 300;

function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(vscode.env.language, { dateStyle: "short", timeStyle: "medium" });
}

export class ObserverTreeProvider implements vscode.TreeDataProvider<ViewNode>, vscode.Disposable {
  /** The Notebook and proposal rows, which the Notebook commands also use. */
  readonly proposals: ProposalTreeProvider;
  private roots: ObserverNode[] = [];
  private parents = new Map<ObserverNode, ObserverNode>();
  private current: ObserverOverview | null = null;
  private generation = 0;
  private lastRevision: string | null = null;
  private stagedTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly changeEmitter = new vscode.EventEmitter<ViewNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly overviewEmitter = new vscode.EventEmitter<ObserverOverview | null>();
  /** Fires after each completed Observer refresh with the overview shown (null when unavailable). */
  readonly onDidChangeOverview = this.overviewEmitter.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly backend: Backend) {
    this.proposals = new ProposalTreeProvider(backend);
    this.disposables.push(
      this.proposals,
      this.proposals.onDidChangeTreeData(() => this.changeEmitter.fire(undefined)),
      // Every Observer change is a ledger append: a new revision means the overview may differ.
      backend.onDidChangeStatus((status) => {
        if (status === null || status.revision === this.lastRevision) return;
        this.lastRevision = status.revision;
        void this.refreshObserver();
      }),
      // The status-bar item appears once a Notebook is configured: say so without waiting for the ledger.
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration("docket.notebookPath")) void this.refreshObserver();
      }),
    );
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (folder !== undefined) {
      // Tool results staged by the hooks live beside the ledger, not in it.
      const staged = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, ".docket/observer/runs/**"));
      const soon = (): void => {
        clearTimeout(this.stagedTimer);
        this.stagedTimer = setTimeout(() => void this.refreshObserver(), STAGED_RESULTS_REFRESH_MS);
      };
      this.disposables.push(staged, staged.onDidCreate(soon), staged.onDidChange(soon), staged.onDidDelete(soon));
    }
  }

  /** The overview shown now (null while the backend cannot answer). */
  overview(): ObserverOverview | null {
    return this.current;
  }

  /** Both parts of the view. */
  async refresh(): Promise<void> {
    await Promise.all([this.refreshObserver(), this.proposals.refresh()]);
  }

  /** Shows an overview an Observer command got back, without asking again. */
  show(overview: ObserverOverview): void {
    this.generation += 1;
    this.apply(overview, null);
  }

  async refreshObserver(): Promise<void> {
    const generation = ++this.generation;
    let overview: ObserverOverview | null = null;
    let error: string | null = null;
    if (this.backend.state !== "ready") {
      error = vscode.l10n.t("Docket's backend is not running.");
    } else {
      try {
        overview = await this.backend.request(Requests.observerOverview, {});
      } catch (failure) {
        error = toDocketError(failure, Requests.observerOverview.method).message;
      }
    }
    if (generation !== this.generation) return;
    this.apply(overview, error);
  }

  private apply(overview: ObserverOverview | null, error: string | null): void {
    this.current = overview;
    this.roots = buildObserverTree({ overview, error }, { l10n: vscode.l10n, time: formatTime });
    this.parents = new Map();
    const walk = (node: ObserverNode): void => {
      for (const child of node.children) {
        this.parents.set(child, node);
        walk(child);
      }
    };
    this.roots.forEach(walk);
    void vscode.commands.executeCommand("setContext", OBSERVER_ON_CONTEXT_KEY, overview?.mode === "on");
    this.changeEmitter.fire(undefined);
    this.overviewEmitter.fire(overview);
  }

  getChildren(element?: ViewNode): ViewNode[] {
    if (element === undefined) return [...this.roots, ...this.proposals.getChildren()];
    return element.kind === "observer" ? [...element.children] : this.proposals.getChildren(element);
  }

  /** What TreeView.reveal walks up to show a row (a proposal revealed from the Work view). */
  getParent(node: ViewNode): ViewNode | undefined {
    return node.kind === "observer" ? this.parents.get(node) : this.proposals.getParent(node);
  }

  getTreeItem(node: ViewNode): vscode.TreeItem {
    if (node.kind !== "observer") return this.proposals.getTreeItem(node);
    const state =
      node.children.length === 0
        ? vscode.TreeItemCollapsibleState.None
        : node.expanded === false
          ? vscode.TreeItemCollapsibleState.Collapsed
          : vscode.TreeItemCollapsibleState.Expanded;
    const item = new vscode.TreeItem(node.label, state);
    item.id = node.id;
    item.description = node.description;
    item.tooltip = node.tooltip ?? (node.description === undefined ? node.label : `${node.label}: ${node.description}`);
    item.iconPath = new vscode.ThemeIcon(node.icon, node.iconColor === undefined ? undefined : new vscode.ThemeColor(node.iconColor));
    item.contextValue = node.context;
    if (node.accessibilityLabel !== undefined) item.accessibilityInformation = { label: node.accessibilityLabel };
    if (node.action !== undefined) {
      item.command =
        node.action === "observer-on"
          ? { command: OBSERVER_ON_COMMAND, title: vscode.l10n.t("Observer On") }
          : { command: OBSERVER_OFF_COMMAND, title: vscode.l10n.t("Observer Off") };
    }
    return item;
  }

  dispose(): void {
    clearTimeout(this.stagedTimer);
    for (const disposable of this.disposables) disposable.dispose();
    this.changeEmitter.dispose();
    this.overviewEmitter.dispose();
  }
}
