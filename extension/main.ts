// Entry point: wires the backend, views, status bar, context keys and commands together.
import "./zodSetup";
import * as vscode from "vscode";
import { Requests } from "../server/protocol/messages";
import { Backend } from "./backend";
import { CommandIds, registerCommands } from "./commands";
import { backendInitOptions, notebookPathSetting, onDidChangeBackendInputs, sameInitOptions, workspaceState } from "./config";
import { updateContextKeys } from "./contextKeys";
import { ObserverTreeProvider, pendingProposalsBadge } from "./observerTree";
import { ObserverCommandIds, registerObserverCommands } from "./observerCommands";
import { ProposalDocuments } from "./proposalDocuments";
import { PROPOSALS_PENDING_CONTEXT_KEY, registerProposalReview } from "./proposalReview";
import { registerPiSessionCommands } from "./piSessionCommands";
import { registerAgents } from "./agentCommands";
import { registerMcpServer } from "./mcpRegistration";
import { RECEIPTS_VIEW_ID, ReceiptsViewProvider } from "./receiptsView";
import { DocketStatusBar, ObserverStatusBar } from "./statusBar";
import { WorkTreeProvider } from "./workTree";
import { LandingCommitsSource } from "./landingCommits";
import { markActivateEntered, sinceActivate } from "./startTimeline";
import { GuardOverviewSource } from "./guardOverviewSource";
import { registerGuardNotifier } from "./guardNotifier";
import { registerGuardModeSetting } from "./guardModeSetting";

export const VIEW_IDS = { work: "docket.work", receipts: RECEIPTS_VIEW_ID, observer: "docket.observer" } as const;

let backend: Backend | undefined;

/** How dist/extension.js loaded this bundle (extension/entry.ts); absent when activated directly. */
export interface BundleLoading {
  readonly ms: number;
  readonly cache: string;
  /** Date.now() when dist/extension.js's activate() was entered. */
  readonly enteredAt: number;
  /** How long before that the extension host required dist/extension.js. */
  readonly requiredBeforeMs: number;
}

export function activate(context: vscode.ExtensionContext, loading?: BundleLoading): void {
  const log = vscode.window.createOutputChannel("Docket", { log: true });
  if (loading !== undefined) markActivateEntered(loading.enteredAt);
  log.info(
    loading === undefined
      ? "activating"
      : `activating (bundle loaded in ${loading.ms} ms, code cache ${loading.cache}; activate() entered at ${new Date(loading.enteredAt).toISOString()}, ${loading.requiredBeforeMs} ms after the extension host required dist/extension.js)`,
  );
  const current = new Backend(context, log);
  backend = current;
  // Nothing is asked until a landing's row is opened (start budget: docs/performance.md).
  const landingCommits = new LandingCommitsSource(
    (landingIds) => current.request(Requests.teamLandingCommits, { landingIds }),
    () => (current.status?.source.kind === "workspace" ? current.status.workspaceFolder : null),
  );
  const workTree = new WorkTreeProvider(
    () => current.request(Requests.workState, {}),
    (params) => current.request(Requests.workHistoryPage, params),
    (readyMsBefore) => log.info(`Work view: first rows given to VS Code${sinceActivate()}, ${readyMsBefore} ms after they were ready`),
    landingCommits,
  );
  // Before any other view subscribes: a new status reaches the Work view first, so its request
  // for the work state goes out ahead of the others' (the backend answers in order).
  const renderOnStatus = current.onDidChangeStatus(() => render());
  const guard = new GuardOverviewSource(() => current.request(Requests.guardOverview, {}), log);
  const statusBar = new DocketStatusBar();
  const observerTree = new ObserverTreeProvider(current);
  const observerView = vscode.window.createTreeView(VIEW_IDS.observer, { treeDataProvider: observerTree });
  const workView = vscode.window.createTreeView(VIEW_IDS.work, { treeDataProvider: workTree });
  const observerStatus = new ObserverStatusBar(ObserverCommandIds.toggle);
  const proposalDocuments = new ProposalDocuments(current);
  const receipts = new ReceiptsViewProvider(context.extensionUri, current, log, () =>
    vscode.commands.executeCommand(CommandIds.verifyLedger),
  );

  context.subscriptions.push(
    log,
    workTree,
    landingCommits,
    guard,
    guard.onDidChange((overview) => workTree.setGuard(overview)),
    registerGuardNotifier(guard, context.workspaceState),
    ...registerGuardModeSetting(current, guard, log),
    // Reviews and Stop decisions: the backend says when they may have changed (ledger or session files).
    current.onDidChangeGuard(() => void guard.refresh()),
    statusBar,
    receipts,
    observerTree,
    proposalDocuments,
    workView,
    observerView,
    // The Observer view starts collapsed: the count goes on the Work view (and so on the Docket
    // icon), whose proposal row says what waits and opens it in the Observer view.
    observerTree.proposals.onDidRefresh(() => {
      const pending = observerTree.proposals.proposals();
      workView.badge = pendingProposalsBadge(pending.length);
      workTree.setProposals(pending);
      void vscode.commands.executeCommand("setContext", PROPOSALS_PENDING_CONTEXT_KEY, pending.length > 0);
    }),
    registerProposalReview({ backend: current, log, view: observerView, tree: observerTree }),
    observerStatus,
    observerTree.onDidChangeOverview((overview) => observerStatus.update(overview, notebookPathSetting() !== null)),
    vscode.window.registerWebviewViewProvider(VIEW_IDS.receipts, receipts),
    ...registerCommands({ backend: current, log, receipts, extensionUri: context.extensionUri, notebook: { tree: observerTree.proposals, documents: proposalDocuments } }),
    ...registerObserverCommands({ backend: current, log, tree: observerTree }),
    ...registerPiSessionCommands({ backend: current, log }),
    ...registerAgents(current, log),
    registerMcpServer(context, log),
  );

  const render = (): void => {
    // A stopped backend's last status may be out of date: show the "not running" state instead.
    const status = current.state === "stopped" ? null : current.status;
    updateContextKeys(current.state, status);
    statusBar.update(current.state, status, workspaceState());
    workTree.setStatus(status);
    receipts.postState();
  };

  let pending: ReturnType<typeof setTimeout> | undefined;
  const onInputsChanged = (): void => {
    render();
    clearTimeout(pending);
    pending = setTimeout(() => {
      const next = backendInitOptions();
      const running = current.initOptions;
      if (running === undefined || !sameInitOptions(running, next)) {
        log.info("folder, trust or docket.ledgerPath changed: restarting the backend");
        // Another folder or ledger: its landings and commits are not the ones shown.
        landingCommits.reset();
        void current.start(next);
      }
    }, 250);
  };

  context.subscriptions.push(
    current.onDidChangeState(() => {
      render();
      // A restarted backend may answer differently for the same ledger revision.
      if (current.state === "ready") {
        workTree.reload();
        void afterWorkViewAnswer(current, workTree).then(() => {
          if (current.state !== "ready") return;
          void guard.refresh();
          void observerTree.refresh();
        });
        return;
      }
      if (current.state === "stopped") guard.clear();
      void observerTree.refresh();
    }),
    renderOnStatus,
    onDidChangeBackendInputs(onInputsChanged),
    { dispose: () => clearTimeout(pending) },
  );

  render();
  void current.start(backendInitOptions());
}

/** The longest the other views wait for the Work view's first answer after a start. */
const WORK_VIEW_FIRST_MS = 2_000;

/**
 * Settles once the Work view has its first answer after a start (the status, then the work state
 * it asks for), or after WORK_VIEW_FIRST_MS. The backend answers requests in the order they come:
 * the Guard and Observer views' requests, sent first, would hold up the Work view's rows behind
 * theirs (which wait for the whole history anyway on a large ledger).
 */
function afterWorkViewAnswer(backend: Backend, workTree: WorkTreeProvider): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, WORK_VIEW_FIRST_MS)));
  const answered = backend.statusAfterStart.then(() => workTree.settled());
  return Promise.race([answered, bound]).finally(() => clearTimeout(timer));
}

/** Settles once the backend's first start has its first status answer (extension/entry.ts then writes the code cache). */
export function startSettled(): Promise<void> {
  return backend?.firstStartSettled ?? Promise.resolve();
}

export function deactivate(): Promise<void> | undefined {
  const stopping = backend?.dispose();
  backend = undefined;
  return stopping;
}
