// The Work view. It renders what the backend says (Status for the scope list, WorkState for the
// active scope's frames, authorization and landings and for the newest page of the closed scopes'
// history, older pages as "Show older…" asks for them, the guard
// overview for the Reviews section, the Notebook's pending proposals for the row that leads to
// them, a landing's commits once its row is opened) and re-asks for the work state whenever the
// status revision moves (or the backend finishes reading the history it first answered from its
// snapshot); a reply older than the latest request is dropped, never shown.
import * as vscode from "vscode";
import type { GuardOverview, ProposalSummary, Status, WorkHistoryPage, WorkHistoryPageParams, WorkState } from "../server/protocol/messages";
import { proposalNotice, type ProposalNotice } from "./proposalNotice";
import { HISTORY_PAGE_SIZE, needsWorkState, statusKey } from "./workHistory";
import type { LandingCommitsSource } from "./landingCommits";
import { buildWorkTree, SHOW_OLDER_HISTORY_COMMAND, WorkItemContext, type WorkNode } from "./workTreeModel";

export { isBlocked, WorkItemContext, type WorkNode } from "./workTreeModel";

export class WorkTreeProvider implements vscode.TreeDataProvider<WorkNode> {
  private status: Status | null = null;
  private work: WorkState | null = null;
  private guard: GuardOverview | null = null;
  private proposals: ProposalNotice | null = null;
  private roots: WorkNode[] = [];
  private requested: string | null = null;
  private generation = 0;
  private inFlight: Promise<void> = Promise.resolve();
  private readonly changeEmitter = new vscode.EventEmitter<WorkNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;

  private readonly showOlderCommand: vscode.Disposable;
  private readonly commitsChanged: vscode.Disposable | undefined;
  /** The cursor of the older page being loaded, so a second press does not ask twice. */
  private loadingOlder: string | null = null;
  /** When the first rows were ready (performance.now()), until VS Code asks for them; then null. */
  private firstRowsReadyAt: number | undefined | null;

  /**
   * @param loadWorkState asks the backend; rejects while it is down (the tree then shows the scope only).
   * @param loadHistoryPage asks for the History page at a cursor the work state (or the last page) gave.
   * @param firstRowsGiven told once, when VS Code first asks for rows the view has (for the start's log).
   * @param commits the landings' commits, asked for when a landing's row is opened (none: no Commits rows).
   */
  constructor(
    private readonly loadWorkState: () => Promise<WorkState>,
    private readonly loadHistoryPage: (params: WorkHistoryPageParams) => Promise<WorkHistoryPage>,
    private readonly firstRowsGiven: (readyMsBefore: number) => void = () => undefined,
    private readonly commits?: LandingCommitsSource,
  ) {
    this.commitsChanged = commits?.onDidChange(() => this.rebuild());
    this.showOlderCommand = vscode.commands.registerCommand(SHOW_OLDER_HISTORY_COMMAND, (cursor: unknown) => {
      if (typeof cursor === "string") void this.showOlder(cursor);
    });
  }

  setStatus(status: Status | null): void {
    this.status = status;
    if (!needsWorkState(status)) {
      this.work = null;
      this.requested = null;
    } else if (status !== null && statusKey(status) !== this.requested) {
      this.requested = statusKey(status);
      void this.fetch();
    }
    this.rebuild();
  }

  /**
   * Appends the next older page to the History. The work state it extends must still be the one
   * shown (a newer revision restarts the History from its newest page); a stale cursor re-asks.
   */
  private async showOlder(cursor: string): Promise<void> {
    const work = this.work;
    if (work === null || work.historyNextCursor !== cursor || this.loadingOlder === cursor) return;
    this.loadingOlder = cursor;
    const generation = this.generation;
    try {
      const page = await this.loadHistoryPage({ cursor, pageSize: HISTORY_PAGE_SIZE });
      if (generation !== this.generation || this.work !== work) return;
      this.work = { ...work, history: [...work.history, ...page.entries], historyNextCursor: page.nextCursor };
      this.rebuild();
    } catch {
      // The ledger moved (stale cursor) or the backend is down: ask for the work state again.
      if (generation === this.generation) this.reload();
    } finally {
      this.loadingOlder = null;
    }
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

  /** Settles once the work state asked for last has its answer (at once when none is being asked for). */
  settled(): Promise<void> {
    return this.inFlight;
  }

  private fetch(): Promise<void> {
    const fetching = this.fetchWorkState();
    this.inFlight = fetching;
    return fetching;
  }

  private async fetchWorkState(): Promise<void> {
    const generation = ++this.generation;
    try {
      const work = await this.loadWorkState();
      if (generation !== this.generation) return;
      this.work = work;
      // The ledger moved: the landings looked at may be carried by other commits now (or other landings).
      this.commits?.refresh();
    } catch {
      if (generation !== this.generation) return;
      this.work = null;
      this.requested = null;
    }
    this.rebuild();
  }

  private rebuild(): void {
    const commits = this.commits;
    this.roots = buildWorkTree(this.status, this.work, this.guard, this.proposals, commits === undefined ? null : (landingId) => commits.stateOf(landingId));
    if (this.roots.length > 0 && this.firstRowsReadyAt === undefined) this.firstRowsReadyAt = performance.now();
    this.changeEmitter.fire(undefined);
  }

  dispose(): void {
    this.showOlderCommand.dispose();
    this.commitsChanged?.dispose();
    this.changeEmitter.dispose();
  }

  getChildren(element?: WorkNode): WorkNode[] {
    if (element === undefined && this.roots.length > 0 && typeof this.firstRowsReadyAt === "number") {
      const readyAt = this.firstRowsReadyAt;
      this.firstRowsReadyAt = null;
      this.firstRowsGiven(Math.round(performance.now() - readyAt));
    }
    // A landing's row is open: its commits are looked up now (lazily, never for every landing at start).
    if (element?.context === WorkItemContext.landing && element.landingId !== undefined) this.commits?.want(element.landingId);
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
