// Review & Save on the person's side: an Observer proposal is saved through the Notebook's own
// publication transaction, bracketed by the Observer ledger: the approved attempt is appended
// before any Notebook write, and `save-committed` only after publication read the records back
// exactly — so the Episode is never settled by a write that did not happen. "Return to Review"
// cancels the proposal in the ledger before its file is discarded.
import { DocketError, toDocketError } from "../errors";
import { canonicalize } from "../ledger/canonicalJson";
import { openNotebook } from "../notebook/notebookStore";
import { notebookView, prepareProposal } from "../notebook/preflight";
import { readProposal, readReceipt, writeProposal } from "../notebook/proposalStore";
import { ErrorCodes, type NotebookDiscardResult, type NotebookPublishResult } from "../protocol/messages";
import type { WorkspaceLedger } from "../workspace/workspaceLedger";
import type { ObserverIds } from "./observerDrafts";
import { observerLogOf, runObserverOperation } from "./observerRuntime";
import { approveSave, cancelSave, commitSave } from "./saveOperations";
import { replayObserverSaves } from "./saveReplay";
import { notebookPreparedSave, type PreparedSaveHandoff } from "./saveProfile";

/** The proposal Observer has under review, when it is `proposalId`. */
export async function isObserverProposalUnderReview(ledger: WorkspaceLedger, proposalId: string): Promise<boolean> {
  const saves = await ledger.readCaughtUp((store) => replayObserverSaves(observerLogOf(store)));
  const episode = saves.lifecycle.episode;
  return episode.status === "reviewing-save" && episode.proposalId === proposalId;
}

async function settle(ledger: WorkspaceLedger, workspaceFolder: string, proposalId: string, receipt: { readonly receipt_id: string; readonly records: readonly { readonly record_id: string }[] }, ids?: ObserverIds): Promise<void> {
  await runObserverOperation(ledger, workspaceFolder, "observer save committed", (context) => commitSave(context, { proposalId, receiptId: receipt.receipt_id, recordIds: receipt.records.map((record) => record.record_id) }), { ids });
}

/** The handoff Observer recorded for its proposal under review (the ledger is what binds the Markdown). */
async function recordedHandoff(ledger: WorkspaceLedger, proposalId: string): Promise<PreparedSaveHandoff | null> {
  const saves = await ledger.readCaughtUp((store) => replayObserverSaves(observerLogOf(store)));
  const episode = saves.lifecycle.episode;
  if (episode.status !== "reviewing-save" || episode.proposalId !== proposalId || saves.prepared === null) return null;
  return saves.prepared.handoff;
}

/**
 * The proposal file must hold exactly the records Observer recorded: a file planted or edited
 * under `.docket/notebook/proposals/` could otherwise be published in the Episode's name.
 */
function requireRecordedBatch(workspaceFolder: string, handoff: PreparedSaveHandoff): void {
  const stored = readProposal(workspaceFolder, handoff.prepared.proposal_id);
  const recorded = canonicalize(notebookPreparedSave(handoff.prepared));
  if (stored.status !== "found" || canonicalize(stored.proposal.prepared) !== recorded) {
    throw new DocketError(
      ErrorCodes.proposalInvalid,
      `The proposal file of ${handoff.prepared.proposal_id} does not hold the records Observer recorded for it; nothing was saved. Return it to review and ask the agent for Review & Save again.`,
    );
  }
}

/** Save all records of Observer's proposal: attempt → publication → readback → `save-committed`. */
export async function publishObserverSave(ledger: WorkspaceLedger, workspaceFolder: string, proposalId: string, publish: () => NotebookPublishResult, ids?: ObserverIds): Promise<NotebookPublishResult> {
  const handoff = await recordedHandoff(ledger, proposalId);
  if (handoff === null) throw new DocketError(ErrorCodes.proposalStale, `${proposalId} is no longer the proposal Observer has under review; nothing was saved.`);
  requireRecordedBatch(workspaceFolder, handoff);
  await runObserverOperation(ledger, workspaceFolder, "observer save approved", (context) => approveSave(context, { proposalId }), { ids });
  const published = publish();
  try {
    await settle(ledger, workspaceFolder, proposalId, published.receipt, ids);
  } catch (error) {
    const coded = toDocketError(error);
    throw new DocketError(
      ErrorCodes.publicationRecoveryRequired,
      `The records of ${proposalId} were saved, but the Episode could not be marked saved (${coded.code}: ${coded.message}). Refresh the Observer view (or run any docket observer command); Docket settles it from the receipt without writing the Notebook again.`,
    );
  }
  return published;
}

/** Return to Review: the proposal leaves review in the ledger first, then its file is discarded. */
export async function returnObserverSaveToReview(ledger: WorkspaceLedger, workspaceFolder: string, proposalId: string, discard: () => NotebookDiscardResult, ids?: ObserverIds): Promise<NotebookDiscardResult> {
  await runObserverOperation(ledger, workspaceFolder, "observer save cancelled", (context) => cancelSave(context, { proposalId }), { ids });
  return discard();
}

/**
 * Brings files in line with the ledger after an interruption: a proposal under review whose file
 * was never written (a crash between the append and the write) is written again from the recorded
 * handoff, and an approved, published proposal is settled from its receipt. Returns what it did.
 */
export async function synchronizeObserverSave(ledger: WorkspaceLedger, workspaceFolder: string, ids?: ObserverIds): Promise<string | null> {
  const saves = await ledger.readCaughtUp((store) => replayObserverSaves(observerLogOf(store)));
  const episode = saves.lifecycle.episode;
  if (saves.issues.length > 0 || episode.status !== "reviewing-save" || saves.prepared === null) return null;
  const proposalId = episode.proposalId;
  if (readReceipt(workspaceFolder, proposalId) === null && readProposal(workspaceFolder, proposalId).status === "missing") {
    const opened = openNotebook(saves.prepared.handoff.prepared.root);
    if (!opened.ok) return null;
    const checked = prepareProposal(notebookPreparedSave(saves.prepared.handoff.prepared), notebookView(opened.value), { kind: "observer", client: null });
    if (!checked.ok) return `The proposal ${proposalId} could not be written again (${checked.issue.code}); return it to review.`;
    writeProposal(workspaceFolder, checked.proposal);
    return `The proposal ${proposalId} was written again from the Observer ledger.`;
  }
  return settleInterruptedSave(ledger, workspaceFolder, ids);
}

/**
 * Crash recovery: an approved proposal whose publication finished (its receipt is stored) but
 * whose `save-committed` was never appended is settled from the receipt; nothing is republished.
 * Returns what it did, or null.
 */
export async function settleInterruptedSave(ledger: WorkspaceLedger, workspaceFolder: string, ids?: ObserverIds): Promise<string | null> {
  const saves = await ledger.readCaughtUp((store) => replayObserverSaves(observerLogOf(store)));
  const episode = saves.lifecycle.episode;
  if (saves.issues.length > 0 || episode.status !== "reviewing-save" || saves.attempt === null || saves.attempt.proposalId !== episode.proposalId) return null;
  const receipt = readReceipt(workspaceFolder, episode.proposalId);
  if (receipt === null || receipt.proposal_id !== episode.proposalId) return null;
  await settle(ledger, workspaceFolder, episode.proposalId, receipt, ids);
  return `The interrupted save of ${episode.proposalId} was settled from its receipt ${receipt.receipt_id}.`;
}
