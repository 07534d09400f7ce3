// The Observer view (`docket.observer`): the Notebook and its health, then each pending proposal
// with its records. It re-asks the backend when the backend restarts, the notebook setting
// changes, a proposal file or a notebook record changes on disk, or a command asks; a reply older
// than the latest request is dropped, never shown.
import * as vscode from "vscode";
import { Requests, type NotebookStatus, type ProposalSummary } from "../server/protocol/messages";
import type { Backend } from "./backend";
import { notebookPathSetting } from "./config";
import { toDocketError } from "./errors";
import { proposalFacts, waitingText } from "./proposalNotice";
import { buildProposalTree, childrenOf, recordFileLabel, shortProposalId, type ProposalTreeNode } from "./proposalTreeModel";

export const OPEN_RECORD_DIFF_COMMAND = "docket.notebook.openRecordDiff";
export const SETUP_NOTEBOOK_COMMAND = "docket.notebook.setup";
export const REFRESH_NOTEBOOK_COMMAND = "docket.notebook.refresh";

function healthLabel(status: NotebookStatus): string {
  switch (status.health) {
    case "ok":
      return status.records === 1 ? vscode.l10n.t("1 record") : vscode.l10n.t("{0} records", status.records);
    case "not-configured":
      return vscode.l10n.t("not set up");
    case "missing":
      return vscode.l10n.t("no notebook at this folder yet");
    case "unusable":
      return vscode.l10n.t("unusable");
    case "recovery-required":
      return vscode.l10n.t("recovery required");
  }
}

function validationLabel(node: { record: { validation: "valid" | "invalid"; stale: boolean }; proposalStale: boolean }): string {
  if (node.record.stale) return vscode.l10n.t("stale: changed on disk");
  if (node.proposalStale) return vscode.l10n.t("stale proposal");
  return node.record.validation === "valid" ? vscode.l10n.t("valid") : vscode.l10n.t("invalid");
}

function operationLabel(operation: "create" | "update"): string {
  return operation === "create" ? vscode.l10n.t("create") : vscode.l10n.t("update");
}

/**
 * The count of proposals waiting for review, shown on the Work view (open by default) and so on the
 * Docket icon, where the Work view's proposal row says what it counts. Nothing when none waits.
 */
export function pendingProposalsBadge(count: number): vscode.ViewBadge | undefined {
  if (count === 0) return undefined;
  return { value: count, tooltip: waitingText(count, { l10n: vscode.l10n, locale: vscode.env.language }) };
}

export class ProposalTreeProvider implements vscode.TreeDataProvider<ProposalTreeNode>, vscode.Disposable {
  private roots: ProposalTreeNode[] = buildProposalTree({ status: null, proposals: null, error: null });
  private generation = 0;
  private readonly changeEmitter = new vscode.EventEmitter<ProposalTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly refreshedEmitter = new vscode.EventEmitter<void>();
  /** Fires after each completed refresh (the documents drop their cached answers). */
  readonly onDidRefresh = this.refreshedEmitter.event;

  constructor(private readonly backend: Backend) {}

  /** The proposals shown now (for commands that need a proposal's size or root without asking). */
  proposals(): ProposalSummary[] {
    return this.roots.flatMap((node) => (node.kind === "proposal" ? [node.proposal] : []));
  }

  notebookStatus(): NotebookStatus | null {
    const notebook = this.roots.find((node) => node.kind === "notebook");
    return notebook?.kind === "notebook" ? notebook.status : null;
  }

  async refresh(): Promise<void> {
    const generation = ++this.generation;
    let input: Parameters<typeof buildProposalTree>[0];
    if (this.backend.state !== "ready") {
      input = { status: null, proposals: null, error: vscode.l10n.t("Docket's backend is not running.") };
    } else {
      try {
        const [status, list] = await Promise.all([
          this.backend.request(Requests.notebookStatus, { notebookPath: notebookPathSetting() }),
          this.backend.request(Requests.notebookProposals, {}),
        ]);
        input = { status, proposals: list.proposals, error: null };
      } catch (error) {
        input = { status: null, proposals: null, error: toDocketError(error, null).message };
      }
    }
    if (generation !== this.generation) return;
    this.roots = buildProposalTree(input);
    this.changeEmitter.fire(undefined);
    this.refreshedEmitter.fire();
  }

  getChildren(element?: ProposalTreeNode): ProposalTreeNode[] {
    return [...(element === undefined ? this.roots : childrenOf(element))];
  }

  /** A record's proposal (what TreeView.reveal walks up); the other nodes are roots. */
  getParent(node: ProposalTreeNode): ProposalTreeNode | undefined {
    if (node.kind !== "record") return undefined;
    return this.roots.find((root) => root.kind === "proposal" && root.children.includes(node));
  }

  getTreeItem(node: ProposalTreeNode): vscode.TreeItem {
    const item = this.item(node);
    item.id = node.id;
    item.contextValue = node.context;
    if (item.tooltip === undefined) item.tooltip = typeof item.description === "string" ? `${String(item.label)}: ${item.description}` : String(item.label);
    return item;
  }

  private item(node: ProposalTreeNode): vscode.TreeItem {
    switch (node.kind) {
      case "notebook": {
        const status = node.status;
        const item = new vscode.TreeItem(vscode.l10n.t("Notebook"), vscode.TreeItemCollapsibleState.None);
        if (status === null) {
          item.description = node.error ?? vscode.l10n.t("unavailable");
          item.iconPath = new vscode.ThemeIcon("warning", new vscode.ThemeColor("problemsWarningIcon.foreground"));
          return item;
        }
        item.description = status.root === null ? healthLabel(status) : `${healthLabel(status)} · ${status.root}`;
        const lines = [
          vscode.l10n.t("Notebook: {0}", status.root ?? vscode.l10n.t("not set up")),
          vscode.l10n.t("Health: {0}", healthLabel(status)),
        ];
        if (status.notebookId !== null) lines.push(vscode.l10n.t("Notebook ID: {0}", status.notebookId));
        if (status.language !== null) lines.push(vscode.l10n.t("Output language: {0}", status.language === "ko" ? "한국어" : "English"));
        if (status.problem !== null) lines.push(`${status.problem.message} (${status.problem.code})`);
        item.tooltip = lines.join("\n");
        item.iconPath =
          status.health === "ok"
            ? new vscode.ThemeIcon("notebook")
            : new vscode.ThemeIcon("warning", new vscode.ThemeColor("problemsWarningIcon.foreground"));
        if (status.health === "recovery-required") {
          // Asking for the status again runs recovery (trusted workspaces); the tooltip says what still holds it.
          item.command = { command: REFRESH_NOTEBOOK_COMMAND, title: vscode.l10n.t("Retry Notebook Recovery") };
        } else if (status.health !== "ok") {
          item.command = { command: SETUP_NOTEBOOK_COMMAND, title: vscode.l10n.t("Set Up Notebook…") };
        }
        return item;
      }
      case "proposal": {
        const proposal = node.proposal;
        // The short id keeps the row within a default-width side bar; the tooltip has the whole id.
        const item = new vscode.TreeItem(vscode.l10n.t("Proposal {0}", shortProposalId(proposal.proposalId)), vscode.TreeItemCollapsibleState.Expanded);
        item.description = proposalFacts(proposal, { l10n: vscode.l10n, locale: vscode.env.language });
        item.tooltip = [vscode.l10n.t("Proposal {0}", proposal.proposalId), vscode.l10n.t("Notebook: {0}", proposal.root), item.description].join("\n");
        item.accessibilityInformation = { label: `${vscode.l10n.t("Proposal {0}", proposal.proposalId)}: ${item.description}` };
        item.iconPath = proposal.stale
          ? new vscode.ThemeIcon("warning", new vscode.ThemeColor("problemsWarningIcon.foreground"))
          : new vscode.ThemeIcon("git-pull-request");
        return item;
      }
      case "record": {
        const record = node.record;
        const item = new vscode.TreeItem(recordFileLabel(record.path), vscode.TreeItemCollapsibleState.None);
        item.description = `${operationLabel(record.operation)} · ${validationLabel(node)}`;
        item.tooltip = [record.recordId, record.path, item.description].join("\n");
        const bad = record.stale || node.proposalStale || record.validation === "invalid";
        item.iconPath = bad
          ? new vscode.ThemeIcon("warning", new vscode.ThemeColor("problemsWarningIcon.foreground"))
          : new vscode.ThemeIcon(record.operation === "create" ? "diff-added" : "diff-modified");
        item.command = {
          command: OPEN_RECORD_DIFF_COMMAND,
          title: vscode.l10n.t("Open Notebook Record Diff"),
          arguments: [node.proposalId, record.recordId],
        };
        item.accessibilityInformation = { label: `${record.path}: ${item.description}` };
        return item;
      }
      case "empty": {
        const item = new vscode.TreeItem(vscode.l10n.t("No pending proposals"), vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon("info");
        return item;
      }
    }
  }

  dispose(): void {
    this.changeEmitter.dispose();
    this.refreshedEmitter.dispose();
  }
}
