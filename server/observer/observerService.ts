// Observer's commands against one workspace (shared by the backend, `docket observer` and MCP):
// each resolves what it needs outside the ledger (the Notebook, the capture window), then runs a
// pure operation through observerRuntime.ts, which proves and appends it under the ledger lock.
import { countOf } from "../plural";
import path from "node:path";
import { DocketError } from "../errors";
import { redactPersistedInput } from "../evidence/persistedText";
import { openNotebook, type OpenNotebook } from "../notebook/notebookStore";
import { ErrorCodes, type ObserverActionResult, type ObserverHypothesisParams, type ObserverMaterialParams, type ObserverOverview } from "../protocol/messages";
import type { WorkspaceLedger } from "../workspace/workspaceLedger";
import { listStagedRuns } from "./captureWindow";
import { recordUserHypothesis } from "./evidenceChain";
import { chain, ensureEpisode, turnObserverOff, turnObserverOn, type LifecycleChange } from "./lifecycleOperations";
import { captureRetrievedMaterial, cancelMaterialReview as cancelReview, materialUrlProblem, readMaterialFile, requestMaterialReview as materialReviewRequest } from "./materialReviewOperations";
import { requestMemo, requestReviewSaveContinuation, type MemoRequestPlan } from "./memoOperations";
import { memoHistoryView, type MemoHistoryView } from "./memoScope";
import { notebookFactsOf, type NotebookFacts } from "./notebookFacts";
import type { DraftContext, DraftOutcome, ObserverIds } from "./observerDrafts";
import { readNotebookSelection, writeNotebookSelection, type NotebookSelection } from "./observerFiles";
import { buildOverview } from "./observerOverview";
import { observationReplay, observerFingerprintOf, observerLogOf, pendingMaterialReviewOf, publishCaptureMode, retrievedReviewPendingIn, runObserverOperation, type ObserverIssue, type ObserverRunResult } from "./observerRuntime";
import type { ObservationSnapshot, ObserverLogEntry } from "./observationSession";
import { sha256OfText } from "./observerValues";
import { requestSave, type SaveMemoFacts } from "./saveOperations";
import { replayObserverSaves } from "./saveReplay";

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
  publishCaptureMode(workspaceFolder, result.snapshot, await ledger.readCaughtUp((store) => retrievedReviewPendingIn(observerLogOf(store))));
  return result;
}

/** Observer Off: the mode only; the Episode and its working evidence stay. */
export async function observerOff(ledger: WorkspaceLedger, workspaceFolder: string, options: ObserverServiceOptions = {}): Promise<ObserverRunResult<LifecycleChange>> {
  const result = await runObserverOperation(ledger, workspaceFolder, "observer off", (context) => turnObserverOff(context), { ids: options.ids });
  publishCaptureMode(workspaceFolder, result.snapshot, await ledger.readCaughtUp((store) => retrievedReviewPendingIn(observerLogOf(store))));
  return result;
}


// ---- reading the Observer state --------------------------------------------------------------

interface ObserverRead {
  readonly entries: readonly ObserverLogEntry[];
  readonly snapshot: ObservationSnapshot;
  readonly issues: readonly ObserverIssue[];
  readonly fingerprint: string;
  readonly memo: MemoHistoryView;
  readonly pendingSaveRequest: { readonly requestId: string; readonly proposalId: string } | null;
  readonly pendingMaterialReview: { readonly requestId: string; readonly material: string } | null;
}

async function readObserver(ledger: WorkspaceLedger): Promise<ObserverRead> {
  return ledger.readCaughtUp((store) => {
    const entries = observerLogOf(store);
    const { snapshot, issues } = observationReplay(entries);
    const saves = replayObserverSaves(entries);
    const pendingSave = saves.pendingSaveRequest;
    return {
      entries,
      snapshot,
      issues,
      fingerprint: observerFingerprintOf(store),
      memo: memoHistoryView(entries),
      pendingSaveRequest: pendingSave === null ? null : { requestId: pendingSave.requestId, proposalId: pendingSave.proposalId },
      pendingMaterialReview: pendingMaterialReviewOf(entries),
    };
  });
}

function overviewOf(read: ObserverRead, workspaceFolder: string): ObserverOverview {
  return buildOverview({
    snapshot: read.snapshot,
    issues: read.issues,
    memo: read.memo,
    fingerprint: read.fingerprint,
    entries: read.entries.length,
    staged: listStagedRuns(workspaceFolder),
    selection: readNotebookSelection(workspaceFolder),
    pendingMaterialReview: read.pendingMaterialReview,
    pendingSaveRequest: read.pendingSaveRequest,
  });
}

/** The Observer as the view and `observer_status` show it. */
export async function observerOverview(ledger: WorkspaceLedger, workspaceFolder: string): Promise<ObserverOverview> {
  return overviewOf(await readObserver(ledger), workspaceFolder);
}

async function actionResult(ledger: WorkspaceLedger, workspaceFolder: string, message: string): Promise<ObserverActionResult> {
  return { message, overview: await observerOverview(ledger, workspaceFolder) };
}

/** The Episode's Notebook (the selection, checked against the ledger's selected id). */
function episodeNotebook(workspaceFolder: string, snapshot: ObservationSnapshot): { selection: NotebookSelection; notebook: OpenNotebook; facts: NotebookFacts } {
  const lifecycle = snapshot.lifecycle;
  const notebookId = lifecycle.episode.status === "empty" ? lifecycle.selectedNotebookId : lifecycle.episode.core.notebookId;
  const { selection, notebook } = selectedNotebook(workspaceFolder, notebookId);
  return { selection, notebook, facts: notebookFactsOf(notebook) };
}

// ---- the user's commands ----------------------------------------------------------------------

/** Observer On (with the Notebook root, already resolved by the caller) or Off. */
export async function setObserverMode(ledger: WorkspaceLedger, workspaceFolder: string, input: { on: boolean; notebookRoot: string | null }, options: ObserverServiceOptions = {}): Promise<ObserverActionResult> {
  if (!input.on) {
    const result = await observerOff(ledger, workspaceFolder, options);
    return actionResult(ledger, workspaceFolder, result.value.changed ? "Observer is off: nothing more is captured. The Episode and its evidence stay." : "Observer was already off.");
  }
  const root = input.notebookRoot ?? readNotebookSelection(workspaceFolder)?.root ?? null;
  if (root === null) throw new DocketError(ErrorCodes.notebookNotConfigured, "Observer needs a Notebook: set one up first (Docket: Set Up Notebook… in VS Code, or `docket notebook setup DIR`), then turn Observer on.");
  const result = await observerOn(ledger, workspaceFolder, root, options);
  return actionResult(ledger, workspaceFolder, result.value.changed ? `Observer is on (Episode ${result.value.episodeId ?? ""}): the agent's tool results are staged for it to nominate as evidence.` : "Observer was already on.");
}

/** The user's own hypothesis, recorded in their wording (surrounding whitespace aside); Observer may be off. */
export async function addUserHypothesis(ledger: WorkspaceLedger, workspaceFolder: string, input: ObserverHypothesisParams, options: ObserverServiceOptions = {}): Promise<ObserverActionResult> {
  const redacted = redactPersistedInput({ text: input.text.trim(), context: input.context?.trim() ?? "" }).value;
  if (redacted.text === "") throw new DocketError(ErrorCodes.invalidParams, "A hypothesis needs words: the text is empty.");
  const read = await readObserver(ledger);
  const { notebook } = episodeNotebook(workspaceFolder, read.snapshot);
  const result = await runObserverOperation(
    ledger,
    workspaceFolder,
    "observer add hypothesis",
    chain(
      (context) => ensureEpisode(context, { notebookId: notebook.manifest.notebook_id, lang: notebook.manifest.default_language }),
      (context) => recordUserHypothesis(context, { text: redacted.text, ...(redacted.context === "" ? {} : { context: redacted.context }), inputSource: "interactive" }),
    ),
    { ids: options.ids },
  );
  const value = result.value;
  return actionResult(
    ledger,
    workspaceFolder,
    value.status === "resumed" ? "This hypothesis is already recorded." : `Hypothesis recorded (${value.inquiryId}). Your agent reviews it against what it has read (observer_commit hypothesis_context_reviews).`,
  );
}

/** Reconcile Memo: records the Memo request the agent's next observer_commit answers. */
export async function requestMemoReconciliation(ledger: WorkspaceLedger, workspaceFolder: string, options: ObserverServiceOptions = {}): Promise<ObserverActionResult> {
  const result = await runObserverOperation(ledger, workspaceFolder, "observer memo request", (context) => requestMemo(context), { ids: options.ids });
  const plan = result.value;
  const message =
    plan.status === "none"
      ? "Nothing to reconcile: every observation is already in the Memo."
      : plan.status === "delegate"
        ? "A Memo pass is already prepared; it completes with the agent's next observer_commit."
        : `Memo request ${plan.request.requestId} (${countOf(plan.request.observationIds.length, "observation")}) ${plan.status === "resumed" ? "is still waiting" : "recorded"}: ask your agent to reconcile the Memo (observer_commit with memo).`;
  return actionResult(ledger, workspaceFolder, message);
}

function saveMemoFacts(view: MemoHistoryView): SaveMemoFacts {
  return { state: view.state, lastReceipt: view.lastReceipt, preparedPassPending: view.prepared !== null, acknowledgementPending: view.pendingAcknowledgement !== null, problems: view.problems };
}

/**
 * Review & Save: records the save request the agent answers with exact Markdown. With Memo work
 * outstanding, the Memo is requested first with a Review & Save continuation; the save request
 * follows once the agent's Memo pass is acknowledged.
 */
export async function requestReviewAndSave(ledger: WorkspaceLedger, workspaceFolder: string, options: ObserverServiceOptions = {}): Promise<ObserverActionResult> {
  const read = await readObserver(ledger);
  const { facts } = episodeNotebook(workspaceFolder, read.snapshot);
  if (read.snapshot.unconsumedObservationIds.length > 0 || read.snapshot.pendingMemoRequest !== null) {
    const saveRequestCount = replayObserverSaves(read.entries).saveRequests.length;
    const result = await runObserverOperation(
      ledger,
      workspaceFolder,
      "observer review and save (memo first)",
      chain(
        (context) => requestMemo(context),
        (context, plan): DraftOutcome<MemoRequestPlan> => {
          if (plan.status !== "requested" && plan.status !== "resumed") return { ok: true, entries: [], value: plan };
          const continued = requestReviewSaveContinuation(context, { memoRequestId: plan.request.requestId, saveRequestCount });
          return continued.ok ? { ok: true, entries: continued.entries, value: plan } : continued;
        },
      ),
      { ids: options.ids },
    );
    const plan = result.value;
    const requestId = plan.status === "requested" || plan.status === "resumed" ? plan.request.requestId : "";
    return actionResult(ledger, workspaceFolder, `The Memo must take in the new observations first: ask your agent to reconcile it (observer_commit with memo, request ${requestId}); Review & Save continues right after.`);
  }
  const result = await runObserverOperation(ledger, workspaceFolder, "observer review and save", (context) => requestSave(context, { notebook: facts.save, memo: saveMemoFacts(memoHistoryView(context.entries)) }), { ids: options.ids });
  const value = result.value;
  return actionResult(
    ledger,
    workspaceFolder,
    `Review & Save ${value.kind === "resume" ? "is still waiting" : "requested"} (${countOf(value.guide.required_records.length, "record")}, request ${value.request.requestId}): ask your agent to write them (observer_commit with save); you approve the exact Markdown in the diff editor.`,
  );
}

/** Material review of one bounded item: selected text, a workspace file, or a URL the agent fetches. */
export async function requestMaterialReview(ledger: WorkspaceLedger, workspaceFolder: string, input: ObserverMaterialParams, options: ObserverServiceOptions = {}): Promise<ObserverActionResult> {
  const read = await readObserver(ledger);
  const { notebook } = episodeNotebook(workspaceFolder, read.snapshot);
  const episode = (context: DraftContext) => ensureEpisode(context, { notebookId: notebook.manifest.notebook_id, lang: notebook.manifest.default_language });
  if (input.kind === "text") {
    const text = redactPersistedInput({ text: input.text.trim() }).value.text;
    const result = await runObserverOperation(
      ledger,
      workspaceFolder,
      "observer material review (text)",
      chain(episode, (context) => materialReviewRequest(context, { latestUser: { text, inputSource: "interactive" }, material: "inline-user-message" })),
      { ids: options.ids },
    );
    return actionResult(ledger, workspaceFolder, `Material review ${result.value.requestId} ${result.value.status}: ask your agent to read it and record what it observes (observer_commit).`);
  }
  if (input.kind === "file") {
    const file = readMaterialFile(workspaceFolder, path.resolve(workspaceFolder, input.path));
    if (!file.ok) throw new DocketError(ErrorCodes.invalidParams, `${file.code}: ${file.message}`, { observerCode: file.code });
    const relative = path.relative(path.resolve(workspaceFolder), file.file).split(path.sep).join("/");
    const content = redactPersistedInput({ text: file.text }).value.text;
    const toolCallId = `docket-read-${sha256OfText(relative).slice(0, 16)}`;
    const result = await runObserverOperation(
      ledger,
      workspaceFolder,
      "observer material review (file)",
      chain(
        chain(episode, (context) => materialReviewRequest(context, { latestUser: { text: `Review material: ${relative}`, inputSource: "interactive" }, material: "retrieved-tool-results" })),
        (context, requested) => {
          const captured = captureRetrievedMaterial(context, { requestId: requested.requestId, toolCallId, toolName: "docket.read-file", text: content.trim() });
          return captured.ok ? { ok: true, entries: captured.entries, value: requested } : captured;
        },
      ),
      { ids: options.ids },
    );
    return actionResult(ledger, workspaceFolder, `Material review ${result.value.requestId} of ${relative}: the file is captured; ask your agent to read it and record what it observes (observer_commit).`);
  }
  const problem = materialUrlProblem(input.url);
  if (problem !== null) throw new DocketError(ErrorCodes.invalidParams, `observer.material-invalid: ${problem}`, { observerCode: "observer.material-invalid" });
  const result = await runObserverOperation(
    ledger,
    workspaceFolder,
    "observer material review (url)",
    chain(episode, (context) => materialReviewRequest(context, { latestUser: { text: `Review material: ${input.url}`, inputSource: "interactive" }, material: "retrieved-tool-results" })),
    { ids: options.ids },
  );
  return actionResult(ledger, workspaceFolder, `Material review ${result.value.requestId}: ask your agent to fetch ${input.url}; the fetched result is captured for the review when the agent nominates it (observer_commit).`);
}

export async function cancelMaterialReview(ledger: WorkspaceLedger, workspaceFolder: string, options: ObserverServiceOptions = {}): Promise<ObserverActionResult> {
  const result = await runObserverOperation(ledger, workspaceFolder, "observer cancel material review", (context) => cancelReview(context), { ids: options.ids });
  return actionResult(ledger, workspaceFolder, `Material review ${result.value.requestId} cancelled; the Episode and mode are unchanged.`);
}
