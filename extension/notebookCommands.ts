// The Notebook commands: Set Up Notebook…, the record diff a tree click opens, and the two
// actions of a proposal document, Save All Records and Discard Proposal (written out in the diff
// editor's title, as icons in the Observer view). The backend decides everything (path rules, staleness, the transaction); these ask the person, send exactly
// what was approved (proposal id + record count), and report the answer.
import * as vscode from "vscode";
import { ErrorCodes, Requests, type NotebookLanguage, type ProposalDetail, type ProposalRecordDetail } from "../server/protocol/messages";
import type { Backend } from "./backend";
import { hasFolder, notebookPathSetting } from "./config";
import { DocketError, toDocketError } from "./errors";
import type { ProposalDocuments } from "./proposalDocuments";
import { OPEN_RECORD_DIFF_COMMAND, REFRESH_NOTEBOOK_COMMAND, SETUP_NOTEBOOK_COMMAND, type ProposalTreeProvider } from "./proposalTree";
import { parseProposalDocumentPath, PROPOSAL_SCHEME, type ProposalTreeNode } from "./proposalTreeModel";
import { untrustedMessage } from "./strings";

export const NotebookCommandIds = {
  setup: SETUP_NOTEBOOK_COMMAND,
  openRecordDiff: OPEN_RECORD_DIFF_COMMAND,
  saveAll: "docket.notebook.saveAll",
  discard: "docket.notebook.discard",
  // The same two commands without an icon, so the diff editor's title shows them as words.
  saveAllInTitle: "docket.notebook.saveAllInTitle",
  discardInTitle: "docket.notebook.discardInTitle",
  refresh: REFRESH_NOTEBOOK_COMMAND,
} as const;

type Register = <A extends unknown[], R>(id: string, handler: (...args: A) => Promise<R>) => vscode.Disposable;

interface Dependencies {
  readonly backend: Backend;
  readonly log: vscode.LogOutputChannel;
  readonly register: Register;
  readonly tree: ProposalTreeProvider;
  readonly documents: ProposalDocuments;
}

/** A proposal id from whatever invoked the command: an id, a proposal document, a tree node, or the active editor. */
function proposalIdOf(argument: unknown): string | undefined {
  if (typeof argument === "string" && argument !== "") return argument;
  if (argument instanceof vscode.Uri) {
    return argument.scheme === PROPOSAL_SCHEME ? parseProposalDocumentPath(argument.path)?.proposalId : undefined;
  }
  if (typeof argument === "object" && argument !== null && "kind" in argument) {
    const node = argument as ProposalTreeNode;
    if (node.kind === "proposal") return node.proposal.proposalId;
    if (node.kind === "record") return node.proposalId;
  }
  return undefined;
}

function activeProposalId(): string | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputTextDiff) return proposalIdOf(input.modified) ?? proposalIdOf(input.original);
  if (input instanceof vscode.TabInputText) return proposalIdOf(input.uri);
  return proposalIdOf(vscode.window.activeTextEditor?.document.uri);
}

function requireTrusted(): void {
  if (!vscode.workspace.isTrusted) throw new DocketError(ErrorCodes.untrusted, untrustedMessage());
}

function languageName(language: NotebookLanguage): string {
  return language === "ko" ? vscode.l10n.t("Korean (한국어)") : vscode.l10n.t("English");
}

function recordDiffTitle(record: ProposalRecordDetail): string {
  return record.operation === "create"
    ? vscode.l10n.t("{0} (new record ⇄ proposed)", record.path)
    : vscode.l10n.t("{0} (existing ⇄ proposed)", record.path);
}

export function registerNotebookCommands({ backend, log, register, tree, documents }: Dependencies): vscode.Disposable[] {
  const showOutput = vscode.l10n.t("Show Output");

  function refresh(): void {
    documents.forget();
    void tree.refresh();
  }

  async function pickProposal(argument: unknown): Promise<string | undefined> {
    const direct = proposalIdOf(argument) ?? activeProposalId();
    if (direct !== undefined) return direct;
    const proposals = tree.proposals();
    if (proposals.length === 1) return proposals[0]?.proposalId;
    if (proposals.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t("There are no pending notebook proposals."));
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      proposals.map((proposal) => ({ label: proposal.proposalId, description: proposal.root, proposalId: proposal.proposalId })),
      { title: vscode.l10n.t("Docket: Which proposal?") },
    );
    return picked?.proposalId;
  }

  /** Closes the diff editors of a proposal that was saved or discarded: their contents are gone. */
  async function closeDocuments(proposalId: string): Promise<void> {
    const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => {
      const input = tab.input;
      const uri = input instanceof vscode.TabInputTextDiff ? input.modified : input instanceof vscode.TabInputText ? input.uri : undefined;
      return uri !== undefined && uri.scheme === PROPOSAL_SCHEME && parseProposalDocumentPath(uri.path)?.proposalId === proposalId;
    });
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
  }

  /**
   * A modal whose default can never be the action. VS Code focuses the first button that is not
   * the close affordance and Enter presses it, so that button must be safe; it is "Review
   * Records", which opens the proposal's diffs (the records may not have been looked at when the
   * action came from the Observer view). Escape and Cancel only close.
   */
  async function confirmSafely(message: string, options: vscode.MessageOptions, action: vscode.MessageItem): Promise<"act" | "review" | undefined> {
    const review: vscode.MessageItem = { title: vscode.l10n.t("Review Records") };
    const cancel: vscode.MessageItem = { title: vscode.l10n.t("Cancel"), isCloseAffordance: true };
    const answer = await vscode.window.showWarningMessage(message, options, review, action, cancel);
    return answer === action ? "act" : answer === review ? "review" : undefined;
  }

  /** Opens the diff of every record of a proposal; the first record's, opened last, is the one in front. */
  async function openRecordDiffs(proposal: ProposalDetail): Promise<void> {
    for (const record of [...proposal.records].reverse()) {
      await vscode.commands.executeCommand(
        "vscode.diff",
        documents.uri(proposal.proposalId, record, "existing"),
        documents.uri(proposal.proposalId, record, "proposed"),
        recordDiffTitle(record),
        { preview: false },
      );
    }
  }

  function notify(kind: "info" | "warning" | "error", message: string): void {
    const show =
      kind === "info" ? vscode.window.showInformationMessage : kind === "warning" ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
    void show(message, showOutput).then((choice) => {
      if (choice === showOutput) log.show(true);
    });
  }

  function staleMessage(proposal: ProposalDetail): string {
    return vscode.l10n.t(
      "Proposal {0} is stale: a target record changed on disk after it was made, so it cannot be saved. Discard it and propose again.",
      proposal.proposalId,
    );
  }

  async function setup(): Promise<unknown> {
    requireTrusted();
    const current = notebookPathSetting();
    const folders = await vscode.window.showOpenDialog({
      canSelectFiles: false,
      canSelectFolders: true,
      canSelectMany: false,
      openLabel: vscode.l10n.t("Use as Notebook"),
      title: vscode.l10n.t("Docket: Choose the Notebook folder"),
      defaultUri: current !== null && current.startsWith("/") ? vscode.Uri.file(current) : vscode.workspace.workspaceFolders?.[0]?.uri,
    });
    const folder = folders?.[0];
    if (folder === undefined) return undefined;
    const order: NotebookLanguage[] = vscode.env.language.startsWith("ko") ? ["ko", "en"] : ["en", "ko"];
    const picked = await vscode.window.showQuickPick(
      order.map((language) => ({ label: languageName(language), language })),
      { title: vscode.l10n.t("Docket: Notebook output language") },
    );
    if (picked === undefined) return undefined;
    const request = { notebookPath: folder.fsPath, language: picked.language };
    const plan = await backend.request(Requests.notebookSetup, { ...request, apply: false });
    const confirm = plan.action === "create" ? vscode.l10n.t("Create Notebook") : vscode.l10n.t("Use Notebook");
    const answer = await vscode.window.showWarningMessage(
      plan.action === "create"
        ? vscode.l10n.t("Create a new Notebook at {0}?", plan.root)
        : vscode.l10n.t("Use the existing Notebook at {0}?", plan.root),
      {
        modal: true,
        detail:
          plan.action === "create"
            ? vscode.l10n.t("Docket adds .observer/notebook.json and records/ to this folder ({0}); other files there are not changed.", languageName(plan.language))
            : vscode.l10n.t("Docket records this notebook as the workspace's Notebook ({0}); its files are not changed.", languageName(plan.language)),
      },
      confirm,
    );
    if (answer !== confirm) return undefined;
    const result = await backend.request(Requests.notebookSetup, { ...request, apply: true });
    await vscode.workspace
      .getConfiguration("docket")
      .update("notebookPath", result.root, hasFolder() ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
    log.info(`notebook ${result.action === "create" ? "created" : "adopted"}: ${result.root} (id ${result.notebookId ?? "(none)"}, language ${result.language})`);
    notify("info", vscode.l10n.t("Notebook ready at {0}", result.root));
    refresh();
    return result;
  }

  async function openRecordDiff(first: unknown, second: unknown): Promise<unknown> {
    // From a tree click: (proposalId, recordId); from the record's context menu: the tree node.
    const node = typeof first === "object" && first !== null && "kind" in first ? (first as ProposalTreeNode) : undefined;
    const proposalId = node?.kind === "record" ? node.proposalId : first;
    const recordId = node?.kind === "record" ? node.record.recordId : second;
    if (typeof proposalId !== "string" || typeof recordId !== "string") return undefined;
    documents.forget();
    const detail = await documents.detail(proposalId);
    const record = detail.records.find((candidate) => candidate.recordId === recordId);
    if (record === undefined) throw new DocketError(ErrorCodes.proposalNotFound, vscode.l10n.t("Proposal {0} has no record {1}.", proposalId, recordId));
    await vscode.commands.executeCommand(
      "vscode.diff",
      documents.uri(proposalId, record, "existing"),
      documents.uri(proposalId, record, "proposed"),
      recordDiffTitle(record),
      { preview: true },
    );
    if (detail.stale) notify("warning", staleMessage(detail));
    return record;
  }

  async function saveAll(argument: unknown): Promise<unknown> {
    requireTrusted();
    const proposalId = await pickProposal(argument);
    if (proposalId === undefined) return undefined;
    // Ask afresh: the count and the stale flag the person approves must be the backend's current ones.
    const proposal = await backend.request(Requests.notebookProposal, { proposalId });
    if (proposal.stale) {
      log.warn(`notebook save refused: proposal ${proposalId} is stale`);
      notify("warning", staleMessage(proposal));
      return undefined;
    }
    if (!proposal.valid) {
      log.warn(`notebook save refused: proposal ${proposalId} does not validate`);
      notify("warning", vscode.l10n.t("Proposal {0} does not validate, so it cannot be saved. Open its records to see why.", proposalId));
      return undefined;
    }
    const count = proposal.records.length;
    const approve: vscode.MessageItem = {
      title: count === 1 ? vscode.l10n.t("Save 1 Record") : vscode.l10n.t("Save All {0} Records", count),
    };
    const answer = await confirmSafely(
      count === 1
        ? vscode.l10n.t("Save 1 record to the Notebook {0}?", proposal.root)
        : vscode.l10n.t("Save all {0} records to the Notebook {1}?", count, proposal.root),
      {
        modal: true,
        detail: vscode.l10n.t(
          "Proposal {0}. Docket writes every record of this proposal or none of them; if any target changes on disk first, nothing is written.",
          proposalId,
        ),
      },
      approve,
    );
    if (answer === "review") await openRecordDiffs(proposal);
    if (answer !== "act") return undefined;
    log.info(`notebook save approved: proposal ${proposalId}, ${count} records, notebook ${proposal.root}`);
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Saving {0} records to the Notebook…", count) },
        () => backend.request(Requests.notebookPublish, { proposalId, approvedCount: count, proposalSha256: proposal.proposalSha256 }),
      );
      const receipt = result.receipt;
      log.info(
        [
          `notebook saved: proposal ${receipt.proposal_id}, receipt ${receipt.receipt_id}, notebook ${receipt.notebook_id}`,
          ...receipt.records.map((record) => `  ${record.operation} ${record.path} (${record.record_id}) sha256 ${record.sha256}`),
        ].join("\n"),
      );
      notify(
        "info",
        count === 1
          ? vscode.l10n.t("Saved 1 record to the Notebook. Receipt {0}", receipt.receipt_id)
          : vscode.l10n.t("Saved {0} records to the Notebook. Receipt {1}", count, receipt.receipt_id),
      );
      await closeDocuments(proposalId);
      return result;
    } catch (error) {
      const failure = toDocketError(error, Requests.notebookPublish.method);
      log.error(`notebook save failed [${failure.code}]: ${failure.message}`);
      const advice =
        failure.code === ErrorCodes.publicationRecoveryRequired
          ? vscode.l10n.t("Recovery required ({0}): {1}", failure.code, failure.message)
          : failure.code === ErrorCodes.proposalStale
            ? vscode.l10n.t("Not saved: the proposal is stale ({0}). {1}", failure.code, failure.message)
            : vscode.l10n.t("Not saved ({0}): {1}", failure.code, failure.message);
      notify(failure.code === ErrorCodes.proposalStale ? "warning" : "error", advice);
      return undefined;
    } finally {
      refresh();
    }
  }

  async function discard(argument: unknown): Promise<unknown> {
    requireTrusted();
    const proposalId = await pickProposal(argument);
    if (proposalId === undefined) return undefined;
    const answer = await confirmSafely(
      vscode.l10n.t("Discard proposal {0}?", proposalId),
      { modal: true, detail: vscode.l10n.t("None of its records are saved; the Notebook is not changed.") },
      { title: vscode.l10n.t("Discard Proposal") },
    );
    if (answer === "review") await openRecordDiffs(await documents.detail(proposalId));
    if (answer !== "act") return undefined;
    try {
      const result = await backend.request(Requests.notebookDiscard, { proposalId });
      log.info(`notebook proposal discarded: ${proposalId}`);
      notify("info", vscode.l10n.t("Proposal {0} discarded.", proposalId));
      await closeDocuments(proposalId);
      return result;
    } finally {
      refresh();
    }
  }

  const folder = vscode.workspace.workspaceFolders?.[0];
  const watchers: vscode.Disposable[] = [];
  if (folder !== undefined) {
    // Proposals made by the CLI or an agent appear without a manual refresh.
    const proposals = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, ".docket/notebook/proposals/*.json"));
    watchers.push(proposals, proposals.onDidCreate(refresh), proposals.onDidChange(refresh), proposals.onDidDelete(refresh));
  }
  let recordWatcher: vscode.FileSystemWatcher | undefined;
  const watchRecords = (): void => {
    recordWatcher?.dispose();
    recordWatcher = undefined;
    const root = tree.notebookStatus()?.root;
    if (root === null || root === undefined) return;
    // A record edited on disk can make a pending proposal stale: show it at once.
    recordWatcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), "records/*.md"));
    recordWatcher.onDidChange(refresh);
    recordWatcher.onDidCreate(refresh);
    recordWatcher.onDidDelete(refresh);
  };
  let watchedRoot: string | null | undefined;
  watchers.push(
    tree.onDidRefresh(() => {
      const root = tree.notebookStatus()?.root ?? null;
      if (root !== watchedRoot) {
        watchedRoot = root;
        watchRecords();
      }
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("docket.notebookPath")) refresh();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(refresh),
    { dispose: () => recordWatcher?.dispose() },
  );

  return [
    ...watchers,
    vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, documents),
    register(NotebookCommandIds.setup, setup),
    register(NotebookCommandIds.openRecordDiff, openRecordDiff),
    register(NotebookCommandIds.saveAll, saveAll),
    register(NotebookCommandIds.discard, discard),
    register(NotebookCommandIds.saveAllInTitle, saveAll),
    register(NotebookCommandIds.discardInTitle, discard),
    register(NotebookCommandIds.refresh, async () => {
      refresh();
    }),
  ];
}
