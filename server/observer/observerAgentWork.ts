// What an agent does with Observer (MCP `observer_status` / `observer_commit`, `docket observer
// commit`): read the state with the guides for pending Memo and save requests, and commit a batch.
// A committed batch may settle follow-ups that belong to it: a Memo pass answering a Review & Save
// continuation leads to the save request, a batch covering a pending Material review completes it,
// and a save preparation writes the Notebook proposal the person approves in the diff editor.
import { countOf } from "../plural";
import { DocketError } from "../errors";
import { redactPersistedInput } from "../evidence/persistedText";
import { workspaceEvidence } from "../evidence/evidenceStore";
import { classifyTool, type HookDialect } from "../hooks/toolClassification";
import { notebookView, prepareProposal } from "../notebook/preflight";
import type { NotebookProposal } from "../notebook/proposal";
import { readProposal, writeProposal } from "../notebook/proposalStore";
import { ErrorCodes, type ObserverOverview } from "../protocol/messages";
import type { WorkspaceLedger } from "../workspace/workspaceLedger";
import { findStaged, removeStaged } from "./captureWindow";
import { commitOperation, type CommitValue, type NominatedResult, type ObserverCommitRequest } from "./observerCommit";
import { completeMaterialReview } from "./materialReviewOperations";
import { loadMemoContext, type MemoPreparationGuide } from "./memoOperations";
import { memoHistoryView } from "./memoScope";
import { notebookFactsOf } from "./notebookFacts";
import type { ObserverIds } from "./observerDrafts";
import { observerLogOf, pendingMaterialReviewOf, runObserverOperation } from "./observerRuntime";
import { observerOverview, selectedNotebook } from "./observerService";
import { synchronizeObserverSave } from "./observerSaveFlow";
import { readProcessingPolicy } from "./processingPolicy";
import { requestSave, type SaveGuide } from "./saveOperations";
import { notebookPreparedSave } from "./saveProfile";
import { replayObserverSaves } from "./saveReplay";
import { replayObservationSession, type ObserverLogEntry } from "./observationSession";

const DIALECTS: readonly HookDialect[] = ["claude", "codex", "vscode"];

/** A pending retrieved-tool-results Material review collects nominated results as its own candidates. */
function retrievedReviewOf(entries: readonly ObserverLogEntry[]): string | null {
  const pending = pendingMaterialReviewOf(entries);
  return pending !== null && pending.material === "retrieved-tool-results" ? pending.requestId : null;
}

export interface AgentStatus {
  readonly overview: ObserverOverview;
  /** The pending Memo request's context: what the pass must account for and may cite. */
  readonly memoGuide: MemoPreparationGuide | null;
  /** The pending save request's guide: the records to write and the locked fields. */
  readonly saveGuide: SaveGuide | null;
  /** Full text of the open Episode's candidates not read yet (the overview has only previews), bounded. */
  readonly unreadCandidates: readonly { readonly candidateId: string; readonly text: string }[];
}

/** At most this much candidate text goes into one status answer; larger material is read in turns. */
const UNREAD_TEXT_BUDGET = 64 * 1024;

function unreadCandidatesOf(entries: readonly ObserverLogEntry[], episodeId: string | null): AgentStatus["unreadCandidates"] {
  const snapshot = replayObservationSession(entries);
  const read = new Set(snapshot.sourceReads.flatMap((item) => item.candidateIds));
  const result: { candidateId: string; text: string }[] = [];
  let budget = UNREAD_TEXT_BUDGET;
  for (const candidate of snapshot.candidates) {
    if (candidate.episodeId !== episodeId || read.has(candidate.candidateId) || candidate.origin.kind === "explicit-user-hypothesis") continue;
    if (candidate.text.length > budget) break;
    budget -= candidate.text.length;
    result.push({ candidateId: candidate.candidateId, text: candidate.text });
  }
  return result;
}

export async function observerAgentStatus(ledger: WorkspaceLedger, workspaceFolder: string): Promise<AgentStatus> {
  const overview = await observerOverview(ledger, workspaceFolder);
  if (overview.issueCount > 0 || overview.episode.status !== "open") return { overview, memoGuide: null, saveGuide: null, unreadCandidates: [] };
  const entries = await ledger.readCaughtUp((store) => observerLogOf(store));
  const unreadCandidates = unreadCandidatesOf(entries, overview.episode.episodeId);
  let facts;
  try {
    facts = notebookFactsOf(selectedNotebook(workspaceFolder, overview.episode.notebookId).notebook);
  } catch {
    return { overview, memoGuide: null, saveGuide: null, unreadCandidates };
  }
  // Read-only: the guides are computed as if an operation ran, but nothing is appended, so no id
  // drawn here is ever recorded (a fresh save request is not built: only a pending one resumes).
  const context = { entries, now: ledger.now(), ids: { next: (prefix: string) => `${prefix}00000000-0000-4000-8000-000000000000` } };
  let memoGuide: MemoPreparationGuide | null = null;
  if (overview.pendingMemoRequest !== null) {
    const guide = loadMemoContext(context, { requestId: overview.pendingMemoRequest.requestId, notebook: facts.records });
    if (guide.ok) memoGuide = guide.value;
  }
  let saveGuide: SaveGuide | null = null;
  if (replayObserverSaves(entries).pendingSaveRequest !== null) {
    const view = memoHistoryView(entries);
    // A pending request resumes without appending: only its guide is read here.
    const resumed = requestSave(context, {
      notebook: facts.save,
      memo: { state: view.state, lastReceipt: view.lastReceipt, preparedPassPending: view.prepared !== null, acknowledgementPending: view.pendingAcknowledgement !== null, problems: view.problems },
    });
    if (resumed.ok && resumed.value.kind === "resume") saveGuide = resumed.value.guide;
  }
  return { overview, memoGuide, saveGuide, unreadCandidates };
}

export interface CommitOutcome {
  readonly committed: CommitValue;
  readonly appended: number;
  /** What followed from the batch (a save request, a completed Material review, a written proposal). */
  readonly followUps: readonly string[];
  readonly overview: ObserverOverview;
}

function nominatedResults(ledger: WorkspaceLedger, workspaceFolder: string, request: ObserverCommitRequest): Map<string, NominatedResult> {
  const results = new Map<string, NominatedResult>();
  for (const observation of request.observations) {
    for (const nomination of observation.nominations) {
      const staged = findStaged(workspaceFolder, nomination.tool_call_id);
      if (staged === null) {
        results.set(nomination.tool_call_id, {
          ok: false,
          code: "observer.nomination-unknown",
          message: `${nomination.tool_call_id} is not a tool result staged in an open agent run (unknown, expired with its run, or already nominated)`,
        });
        continue;
      }
      if (staged.kind === "user-input") {
        const decision = workspaceEvidence(workspaceFolder).userDecision(staged.toolCallId);
        const text = decision?.parts.map((part) => (part.kind === "text" ? part.text : "")).join("\n").trim() ?? "";
        results.set(
          nomination.tool_call_id,
          decision === undefined || text === ""
            ? { ok: false, code: "observer.nomination-unavailable", message: `the prompt ${nomination.tool_call_id} is no longer in the evidence store` }
            : { ok: true, origin: "user-input", toolName: "user-input", text },
        );
        continue;
      }
      try {
        const evidence = ledger.showEvidence(staged.branchResultId);
        results.set(nomination.tool_call_id, { ok: true, origin: "tool-result", toolName: staged.toolName, text: evidence.text.trim() });
      } catch (error) {
        results.set(nomination.tool_call_id, { ok: false, code: "observer.nomination-unavailable", message: `the capture of ${nomination.tool_call_id} cannot be read: ${error instanceof Error ? error.message : String(error)}` });
      }
    }
  }
  return results;
}

/** Applies one agent batch all-or-nothing, then its follow-ups (each its own, separately proven append). */
export async function commitObserverWork(
  ledger: WorkspaceLedger,
  workspaceFolder: string,
  raw: ObserverCommitRequest,
  options: { readonly ids?: ObserverIds; readonly processing?: "piggyback" | "local" } = {},
): Promise<CommitOutcome> {
  await synchronizeObserverSave(ledger, workspaceFolder, options.ids).catch(() => null);
  const policy = readProcessingPolicy(workspaceFolder).policy;
  // A batch applies only on the path the mode names: the agent's own turn (piggyback) or the local queue (localProcessing.ts).
  const route = options.processing ?? "piggyback";
  if (policy.mode !== route) {
    const how = route === "piggyback" ? "observer_commit is the piggyback mode's path (set it with `docket observer processing piggyback`)" : "local jobs apply only in local mode (`docket observer processing local --endpoint URL --model ID`)";
    throw new DocketError(ErrorCodes.observerRefused, `observer.commit-mode: Observer's processing mode is ${policy.mode}; ${how}.`, { observerCode: "observer.commit-mode" });
  }
  // Secrets never reach the ledger: prose the agent wrote is redacted, an id holding one is refused.
  const request = redactPersistedInput(raw).value;
  const entries = await ledger.readCaughtUp((store) => observerLogOf(store));
  const before = replayObservationSession(entries);
  const lifecycle = before.lifecycle;
  const notebookId = lifecycle.episode.status === "empty" ? lifecycle.selectedNotebookId : lifecycle.episode.core.notebookId;
  const { notebook } = selectedNotebook(workspaceFolder, notebookId);
  const facts = notebookFactsOf(notebook);
  let proposal: NotebookProposal | null = null;
  const operation = commitOperation(request, {
    notebook: facts,
    nominated: nominatedResults(ledger, workspaceFolder, request),
    isDocketTool: (toolName) => DIALECTS.some((dialect) => classifyTool(dialect, toolName) === "docket"),
    retrievedReviewId: retrievedReviewOf(entries),
    preflight: (prepared) => {
      // No client in the origin: the ledger does not record it, so a lost file is written again byte for byte.
      const checked = prepareProposal(notebookPreparedSave(prepared), notebookView(notebook), { kind: "observer", client: null });
      if (!checked.ok) return { ok: false, code: checked.issue.code, message: checked.issue.message };
      proposal = checked.proposal;
      return { ok: true, value: checked.proposal };
    },
  });
  const result = await runObserverOperation(ledger, workspaceFolder, "observer commit", operation, { ids: options.ids, fingerprint: request.fingerprint });
  const followUps: string[] = [];
  removeStaged(workspaceFolder, result.value.nominatedToolCallIds);
  const written = proposal as NotebookProposal | null;
  if (written !== null) {
    followUps.push(writeObserverProposal(workspaceFolder, written));
  }
  if (result.value.memo !== null) {
    const continued = result.snapshot.reviewSaveContinuations.some((item) => item.memoRequestId === result.value.memo?.requestId);
    if (continued) followUps.push(await continueToSave(ledger, workspaceFolder, options.ids));
  }
  const completed = await completePendingReview(ledger, workspaceFolder, options.ids);
  if (completed !== null) followUps.push(completed);
  return { committed: result.value, appended: result.appended, followUps, overview: await observerOverview(ledger, workspaceFolder) };
}

/** The proposal the person approves; a crash before it is written is repaired by writing it again (same bytes). */
export function writeObserverProposal(workspaceFolder: string, proposal: NotebookProposal): string {
  const existing = readProposal(workspaceFolder, proposal.prepared.proposal_id);
  if (existing.status === "found" && existing.proposal.proposal_sha256 === proposal.proposal_sha256) return `Proposal ${proposal.prepared.proposal_id} is ready for review in the Observer view.`;
  if (existing.status !== "missing") {
    // Someone else's file under Observer's proposal id: it is never replaced silently, and saving refuses it.
    return `A different file already holds ${proposal.prepared.proposal_id}; it cannot be saved. The user returns it to review and asks for Review & Save again.`;
  }
  writeProposal(workspaceFolder, proposal);
  return `Proposal ${proposal.prepared.proposal_id} (${countOf(proposal.prepared.records.length, "record")}) is ready: the user reviews the exact Markdown in the diff editor and saves it.`;
}

async function continueToSave(ledger: WorkspaceLedger, workspaceFolder: string, ids: ObserverIds | undefined): Promise<string> {
  try {
    const entries = await ledger.readCaughtUp((store) => observerLogOf(store));
    const snapshot = replayObservationSession(entries);
    const lifecycle = snapshot.lifecycle;
    const notebookId = lifecycle.episode.status === "empty" ? null : lifecycle.episode.core.notebookId;
    const facts = notebookFactsOf(selectedNotebook(workspaceFolder, notebookId).notebook);
    const result = await runObserverOperation(
      ledger,
      workspaceFolder,
      "observer review and save (after memo)",
      (context) => {
        const view = memoHistoryView(context.entries);
        return requestSave(context, {
          notebook: facts.save,
          memo: { state: view.state, lastReceipt: view.lastReceipt, preparedPassPending: view.prepared !== null, acknowledgementPending: view.pendingAcknowledgement !== null, problems: view.problems },
        });
      },
      { ids },
    );
    return `Review & Save continues: save request ${result.value.request.requestId} asks for ${countOf(result.value.guide.required_records.length, "record")} (observer_status shows the guide; answer with observer_commit save).`;
  } catch (error) {
    return `Review & Save could not continue yet: ${error instanceof Error ? error.message : String(error)}`;
  }
}

async function completePendingReview(ledger: WorkspaceLedger, workspaceFolder: string, ids: ObserverIds | undefined): Promise<string | null> {
  const entries = await ledger.readCaughtUp((store) => observerLogOf(store));
  const requestId = pendingMaterialReviewOf(entries)?.requestId ?? null;
  if (requestId === null) return null;
  try {
    const result = await runObserverOperation(ledger, workspaceFolder, "observer complete material review", (context) => completeMaterialReview(context, { requestId }), { ids });
    return `Material review ${requestId} is complete (${countOf(result.value.observationIds.length, "observation")}).`;
  } catch {
    // Not covered yet (a linked candidate not read, a reading without its observation): it stays pending.
    return null;
  }
}
