// Observer's commands against one workspace (shared by the backend, `docket observer` and MCP):
// each resolves what it needs outside the ledger (the Notebook, the capture window), then runs a
// pure operation through observerRuntime.ts, which proves and appends it under the ledger lock.
import { DocketError } from "../errors";
import { openNotebook, type OpenNotebook } from "../notebook/notebookStore";
import { ErrorCodes, type ObserverActionResult, type ObserverHypothesisParams, type ObserverMaterialParams, type ObserverOverview } from "../protocol/messages";
import type { WorkspaceLedger } from "../workspace/workspaceLedger";
import { turnObserverOff, turnObserverOn, type LifecycleChange } from "./lifecycleOperations";
import type { ObserverIds } from "./observerDrafts";
import { readNotebookSelection, writeNotebookSelection, type NotebookSelection } from "./observerFiles";
import { publishCaptureMode, runObserverOperation, type ObserverRunResult } from "./observerRuntime";

export interface ObserverServiceOptions {
  readonly ids?: ObserverIds;
}

/** Opens a healthy Notebook or refuses with its own code in the message. */
export function openSelectedNotebook(root: string): OpenNotebook {
  const opened = openNotebook(root);
  if (!opened.ok) throw new DocketError(ErrorCodes.notebookUnusable, `The Notebook at ${root} cannot be used: ${opened.issue.code}: ${opened.issue.message}`, { observerCode: opened.issue.code });
  return opened.value;
}

/** The Notebook of the current selection, checked against the id the ledger selected. */
export function selectedNotebook(workspaceFolder: string, notebookId: string | null): { selection: NotebookSelection; notebook: OpenNotebook } {
  const selection = readNotebookSelection(workspaceFolder);
  if (selection === null) {
    throw new DocketError(ErrorCodes.notebookNotConfigured, "Observer has no Notebook selected in this workspace: turn Observer on with a Notebook (Docket: Observer On in VS Code, or `docket observer on --notebook DIR`).");
  }
  const notebook = openSelectedNotebook(selection.root);
  if (notebookId !== null && notebook.manifest.notebook_id !== notebookId) {
    throw new DocketError(ErrorCodes.notebookUnusable, `The Notebook at ${selection.root} is ${notebook.manifest.notebook_id}, not ${notebookId} that this Episode writes to; select the Episode's Notebook again.`, { observerCode: "save.target-mismatch" });
  }
  return { selection, notebook };
}

/** Observer On: select the Notebook, open an Episode when none is live, turn the mode on. */
export async function observerOn(ledger: WorkspaceLedger, workspaceFolder: string, notebookRoot: string, options: ObserverServiceOptions = {}): Promise<ObserverRunResult<LifecycleChange>> {
  const notebook = openSelectedNotebook(notebookRoot);
  const result = await runObserverOperation(
    ledger,
    workspaceFolder,
    "observer on",
    (context) => turnObserverOn(context, { notebookId: notebook.manifest.notebook_id, lang: notebook.manifest.default_language }),
    { ids: options.ids },
  );
  // After the ledger accepted the selection, so a refused On leaves the previous selection in place.
  writeNotebookSelection(workspaceFolder, { root: notebook.root, notebookId: notebook.manifest.notebook_id });
  publishCaptureMode(workspaceFolder, result.snapshot);
  return result;
}

/** Observer Off: the mode only; the Episode and its working evidence stay. */
export async function observerOff(ledger: WorkspaceLedger, workspaceFolder: string, options: ObserverServiceOptions = {}): Promise<ObserverRunResult<LifecycleChange>> {
  const result = await runObserverOperation(ledger, workspaceFolder, "observer off", (context) => turnObserverOff(context), { ids: options.ids });
  publishCaptureMode(workspaceFolder, result.snapshot);
  return result;
}

// ---- API used by the backend (server/backend/server.ts) -------------------------------------------

function notYet(what: string): never {
  throw new DocketError(ErrorCodes.internal, `${what} is not wired yet`);
}

/** The Observer as the view and `observer_status` show it. */
export async function observerOverview(ledger: WorkspaceLedger, workspaceFolder: string): Promise<ObserverOverview> {
  void ledger;
  void workspaceFolder;
  return notYet("observer overview");
}

/** Observer On (with the Notebook root, already resolved by the caller) or Off. */
export async function setObserverMode(ledger: WorkspaceLedger, workspaceFolder: string, input: { on: boolean; notebookRoot: string | null }): Promise<ObserverActionResult> {
  void ledger;
  void workspaceFolder;
  void input;
  return notYet("observer mode");
}

/** The user's own hypothesis, recorded in their exact wording. */
export async function addUserHypothesis(ledger: WorkspaceLedger, workspaceFolder: string, input: ObserverHypothesisParams): Promise<ObserverActionResult> {
  void ledger;
  void workspaceFolder;
  void input;
  return notYet("add hypothesis");
}

/** Asks for a Memo reconciliation: records the Memo request the agent's next observer_commit answers. */
export async function requestMemoReconciliation(ledger: WorkspaceLedger, workspaceFolder: string): Promise<ObserverActionResult> {
  void ledger;
  void workspaceFolder;
  return notYet("reconcile memo");
}

/** Review & Save: records the save request the agent's next observer_commit answers with exact Markdown. */
export async function requestReviewAndSave(ledger: WorkspaceLedger, workspaceFolder: string): Promise<ObserverActionResult> {
  void ledger;
  void workspaceFolder;
  return notYet("review and save");
}

/** Material review of one bounded item (selected text, a workspace file, a URL). */
export async function requestMaterialReview(ledger: WorkspaceLedger, workspaceFolder: string, input: ObserverMaterialParams): Promise<ObserverActionResult> {
  void ledger;
  void workspaceFolder;
  void input;
  return notYet("material review");
}

export async function cancelMaterialReview(ledger: WorkspaceLedger, workspaceFolder: string): Promise<ObserverActionResult> {
  void ledger;
  void workspaceFolder;
  return notYet("cancel material review");
}
