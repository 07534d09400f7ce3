// The Observer commands: On / Off, Add Hypothesis…, Reconcile Memo, Review & Save, Review
// Material…, Refresh. The backend decides and records everything (server/observer); these ask the
// person, send exactly what they gave (a hypothesis is never trimmed or rewritten), show the
// backend's one-sentence answer and the overview it returned. Registered at activation: while the
// backend is down a command says so instead of failing, and nothing is thrown to VS Code.
import * as vscode from "vscode";
import { ErrorCodes, Requests, type ObserverActionResult, type ObserverMaterialParams } from "../server/protocol/messages";
import type { Backend } from "./backend";
import { hasFolder, notebookPathSetting } from "./config";
import { createCommandRunner } from "./commandRunner";
import { ClientErrorCodes, DocketError } from "./errors";
import { OBSERVER_OFF_COMMAND, OBSERVER_ON_COMMAND, type ObserverTreeProvider } from "./observerTree";
import { REFRESH_NOTEBOOK_COMMAND, SETUP_NOTEBOOK_COMMAND } from "./proposalTree";
import { noFolderMessage, untrustedMessage } from "./strings";

export const ObserverCommandIds = {
  on: OBSERVER_ON_COMMAND,
  off: OBSERVER_OFF_COMMAND,
  toggle: "docket.observer.toggle",
  addHypothesis: "docket.observer.addHypothesis",
  reconcileMemo: "docket.observer.reconcileMemo",
  reviewSave: "docket.observer.reviewSave",
  reviewMaterial: "docket.observer.reviewMaterial",
  refresh: "docket.observer.refresh",
} as const;

/** The protocol's bound on a hypothesis and its context (ObserverHypothesisParams). */
const MAX_HYPOTHESIS_LENGTH = 20_000;
/** The protocol's bound on selected text sent for Material review. */
const MAX_MATERIAL_TEXT = 1_048_576;
const MAX_URL_LENGTH = 2000;

/** Refusals that are answers about the state of things, not failures. */
const WARNINGS = new Set<string>([
  ErrorCodes.untrusted,
  ErrorCodes.noWorkspace,
  ErrorCodes.notebookNotConfigured,
  ErrorCodes.notebookUnusable,
  ErrorCodes.observerRefused,
  ErrorCodes.observerBlocked,
  ErrorCodes.observerStale,
  ErrorCodes.ledgerLocked,
  ClientErrorCodes.backendUnavailable,
]);

/** Why a Material URL is refused, or null: http(s) only, no credentials (the backend checks again). */
export function materialUrlProblem(value: string): string | null {
  const text = value.trim();
  if (text === "") return vscode.l10n.t("Enter a URL, or press Escape to cancel.");
  if (text.length > MAX_URL_LENGTH) return vscode.l10n.t("At most {0} characters.", MAX_URL_LENGTH);
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return vscode.l10n.t("This is not a URL.");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return vscode.l10n.t("Only http and https URLs can be reviewed.");
  if (parsed.username !== "" || parsed.password !== "") return vscode.l10n.t("A URL with a user name or password cannot be reviewed.");
  return null;
}

interface Dependencies {
  readonly backend: Backend;
  readonly log: vscode.LogOutputChannel;
  readonly tree: ObserverTreeProvider;
}

export function registerObserverCommands({ backend, log, tree }: Dependencies): vscode.Disposable[] {
  const setUpNotebook = vscode.l10n.t("Set Up Notebook…");
  const { register } = createCommandRunner({
    backend,
    log,
    warnings: WARNINGS,
    extraAction: (failure) => (failure.code === ErrorCodes.notebookNotConfigured ? { label: setUpNotebook, command: SETUP_NOTEBOOK_COMMAND } : null),
    // Whatever happened, show what the backend holds now (a refusal may mean the view was stale).
    after: (id) => {
      if (id !== ObserverCommandIds.refresh) void tree.refreshObserver();
    },
  });

  /** Every Observer change is recorded in the workspace's ledger: it needs a folder and trust. */
  function requireWritableWorkspace(): void {
    if (!hasFolder()) throw new DocketError(ErrorCodes.noWorkspace, noFolderMessage());
    if (!vscode.workspace.isTrusted) throw new DocketError(ErrorCodes.untrusted, untrustedMessage());
  }

  function done(command: string, result: ObserverActionResult): ObserverActionResult {
    log.info(`${command}: ${result.message} (mode ${result.overview.mode}, episode ${result.overview.episode.episodeId ?? "(none)"} ${result.overview.episode.status})`);
    tree.show(result.overview);
    void vscode.window.showInformationMessage(result.message);
    return result;
  }

  async function on(): Promise<ObserverActionResult | undefined> {
    requireWritableWorkspace();
    let notebookPath = notebookPathSetting();
    if (notebookPath === null) {
      const answer = await vscode.window.showInformationMessage(
        vscode.l10n.t("Observer writes to a Notebook, and none is set up for this workspace yet. Set one up now?"),
        setUpNotebook,
      );
      if (answer !== setUpNotebook) return undefined;
      await vscode.commands.executeCommand(SETUP_NOTEBOOK_COMMAND);
      notebookPath = notebookPathSetting();
      // Setup was cancelled or refused (it said why): nothing to turn on with.
      if (notebookPath === null) return undefined;
    }
    return done("observer on", await backend.request(Requests.observerSetMode, { on: true, notebookPath }));
  }

  async function off(): Promise<ObserverActionResult> {
    requireWritableWorkspace();
    return done("observer off", await backend.request(Requests.observerSetMode, { on: false, notebookPath: null }));
  }

  function hypothesisProblem(value: string, required: boolean): string | undefined {
    if (required && value.trim() === "") return vscode.l10n.t("Enter your hypothesis, or press Escape to cancel.");
    if (value.length > MAX_HYPOTHESIS_LENGTH) return vscode.l10n.t("At most {0} characters.", MAX_HYPOTHESIS_LENGTH);
    return undefined;
  }

  async function addHypothesis(): Promise<ObserverActionResult | undefined> {
    requireWritableWorkspace();
    const title = vscode.l10n.t("Docket: Add Hypothesis");
    const text = await vscode.window.showInputBox({
      title: `${title} (1/2)`,
      prompt: vscode.l10n.t("Your hypothesis, in your own words. Observer records it exactly as typed."),
      ignoreFocusOut: true,
      validateInput: (value) => hypothesisProblem(value, true),
    });
    if (text === undefined) return undefined;
    const context = await vscode.window.showInputBox({
      title: `${title} (2/2)`,
      prompt: vscode.l10n.t("Optional context: what made you think so (leave empty for none)."),
      ignoreFocusOut: true,
      validateInput: (value) => hypothesisProblem(value, false),
    });
    // Escape on the second box cancels the whole command: nothing was sent, nothing is written.
    if (context === undefined) return undefined;
    return done("observer add hypothesis", await backend.request(Requests.observerAddHypothesis, { text, context: context.trim() === "" ? null : context }));
  }

  async function reconcileMemo(): Promise<ObserverActionResult> {
    requireWritableWorkspace();
    return done("observer reconcile memo", await backend.request(Requests.observerReconcileMemo, {}));
  }

  async function reviewSave(): Promise<ObserverActionResult> {
    requireWritableWorkspace();
    return done("observer review and save", await backend.request(Requests.observerReviewSave, {}));
  }

  async function pickMaterial(): Promise<ObserverMaterialParams | undefined> {
    const editor = vscode.window.activeTextEditor;
    const selected = editor === undefined ? "" : editor.selections.map((selection) => editor.document.getText(selection)).filter((text) => text !== "").join("\n\n");
    type Choice = vscode.QuickPickItem & { material: ObserverMaterialParams["kind"] };
    const choices: Choice[] = [];
    if (selected.trim() !== "") {
      choices.push({
        material: "text",
        label: `$(selection) ${vscode.l10n.t("Selected text")}`,
        description: selected.length === 1 ? vscode.l10n.t("1 character") : vscode.l10n.t("{0} characters", selected.length),
      });
    }
    choices.push(
      { material: "file", label: `$(file) ${vscode.l10n.t("A workspace file…")}`, description: vscode.l10n.t("a UTF-8 text file inside this folder") },
      { material: "url", label: `$(link) ${vscode.l10n.t("A URL…")}`, description: vscode.l10n.t("an http or https page") },
    );
    const picked = await vscode.window.showQuickPick(choices, { title: vscode.l10n.t("Docket: What should Observer review?"), ignoreFocusOut: true });
    if (picked === undefined) return undefined;
    switch (picked.material) {
      case "text":
        if (selected.length > MAX_MATERIAL_TEXT) throw new DocketError(ErrorCodes.invalidParams, vscode.l10n.t("The selection is larger than {0} characters: select less.", MAX_MATERIAL_TEXT));
        return { kind: "text", text: selected };
      case "file": {
        const folder = vscode.workspace.workspaceFolders?.[0];
        const files = await vscode.window.showOpenDialog({
          canSelectFiles: true,
          canSelectFolders: false,
          canSelectMany: false,
          defaultUri: folder?.uri,
          openLabel: vscode.l10n.t("Review"),
          title: vscode.l10n.t("Docket: Choose a workspace file to review"),
        });
        const file = files?.[0];
        if (file === undefined) return undefined;
        // Relative when inside the folder; anything else is sent as is and the backend refuses it.
        const relative = vscode.workspace.asRelativePath(file, false);
        return { kind: "file", path: relative === file.fsPath || relative === file.path ? file.fsPath : relative };
      }
      case "url": {
        const url = await vscode.window.showInputBox({
          title: vscode.l10n.t("Docket: Review a URL"),
          prompt: vscode.l10n.t("The http or https address of the page Observer should review."),
          placeHolder: "https://",
          ignoreFocusOut: true,
          validateInput: (value) => materialUrlProblem(value) ?? undefined,
        });
        return url === undefined ? undefined : { kind: "url", url: url.trim() };
      }
    }
  }

  async function reviewMaterial(): Promise<ObserverActionResult | undefined> {
    requireWritableWorkspace();
    const material = await pickMaterial();
    if (material === undefined) return undefined;
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Asking Observer to review the material…"), cancellable: true },
      async (_progress, token) => {
        // The request is not abandoned half-way: once the backend answered, a cancellation withdraws it.
        const result = await backend.request(Requests.observerReviewMaterial, material);
        return { result, cancelled: token.isCancellationRequested };
      },
    );
    if (!outcome.cancelled) return done("observer review material", outcome.result);
    log.info(`observer review material: cancelled by the user after ${outcome.result.message}`);
    return done("observer cancel material review", await backend.request(Requests.observerCancelMaterial, {}));
  }

  return [
    register(ObserverCommandIds.on, on),
    register(ObserverCommandIds.off, off),
    register(ObserverCommandIds.toggle, async () => ((tree.overview()?.mode ?? "off") === "on" ? off() : on())),
    register(ObserverCommandIds.addHypothesis, addHypothesis),
    register(ObserverCommandIds.reconcileMemo, reconcileMemo),
    register(ObserverCommandIds.reviewSave, reviewSave),
    register(ObserverCommandIds.reviewMaterial, reviewMaterial),
    register(ObserverCommandIds.refresh, async () => {
      // The Notebook's own refresh also drops the cached proposal documents.
      await Promise.all([tree.refreshObserver(), vscode.commands.executeCommand(REFRESH_NOTEBOOK_COMMAND)]);
    }),
  ];
}
