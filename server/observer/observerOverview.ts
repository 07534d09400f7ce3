// What the Observer view, the status bar, `docket observer status` and MCP `observer_status` show:
// the replayed Observer state in plain rows, the tool results an agent may still nominate, and one
// sentence naming the next step. Pure: replayed state and staged runs in, overview out.
import type { ObserverOverview } from "../protocol/messages";
import type { StagedRun } from "./captureWindow";
import type { MemoHistoryView } from "./memoScope";
import type { NotebookSelection } from "./observerFiles";
import type { ObserverIssue } from "./observerRuntime";
import type { ObservationSnapshot } from "./observationSession";
import type { CandidateCaptured } from "./observationEvents";

const PREVIEW = 200;
const MAX_ISSUES = 20;

export interface OverviewInput {
  readonly snapshot: ObservationSnapshot;
  readonly issues: readonly ObserverIssue[];
  readonly memo: MemoHistoryView;
  readonly fingerprint: string;
  readonly entries: number;
  readonly staged: readonly StagedRun[];
  readonly selection: NotebookSelection | null;
  /** A Material review waiting for the agent, if any. */
  readonly pendingMaterialReview: { readonly requestId: string; readonly material: string } | null;
  readonly pendingSaveRequest: { readonly requestId: string; readonly proposalId: string } | null;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/gu, " ").trim();
  return flat.length <= PREVIEW ? flat : `${flat.slice(0, PREVIEW - 1)}…`;
}

function candidateLabel(candidate: CandidateCaptured): string {
  switch (candidate.origin.kind) {
    case "tool-result":
      return candidate.origin.toolName;
    case "user-input":
      return "user input";
    case "explicit-user-hypothesis":
      return "user hypothesis";
    case "assistant-result":
      return "assistant answer";
  }
}

function nextStep(input: OverviewInput, overview: Omit<ObserverOverview, "next">): string {
  if (input.issues.length > 0) return "The Observer history has replay issues: Observer changes nothing until they are repaired (see docs/observer.md).";
  const episode = overview.episode;
  if (episode.status === "reviewing-save") return `Review the proposal ${episode.proposalId ?? ""} in the Observer view and save it, or return it to review.`;
  if (input.pendingSaveRequest !== null) return `Review & Save is waiting for the agent: it writes the records with observer_commit (save, request ${input.pendingSaveRequest.requestId}).`;
  if (overview.pendingMemoRequest !== null) return `A Memo reconciliation is waiting for the agent: it answers with observer_commit (memo, request ${overview.pendingMemoRequest.requestId}).`;
  if (input.pendingMaterialReview !== null) return `A Material review (${input.pendingMaterialReview.material}) is waiting for the agent to read the material and record what it observes with observer_commit.`;
  if (episode.status === "empty" || episode.status === "settled") return overview.mode === "off" ? "Turn Observer on to start an Episode." : "Open an Episode: turn Observer on.";
  if (overview.mode === "off") return "Observer is off: nothing is captured. Turn it on to capture the agent's tool results.";
  const unreviewed = overview.hypotheses.filter((hypothesis) => hypothesis.review === null && !hypothesis.consumed).length;
  if (unreviewed > 0) return `${unreviewed} hypothesis(es) wait for the agent's context review (observer_commit hypothesis_context_reviews).`;
  if (overview.staged.length > 0) return "The agent may nominate staged tool results as evidence with observer_commit before its turn ends.";
  if (overview.unconsumedObservationIds.length > 0) return "Reconcile the Memo to fold the new observations in, then Review & Save.";
  if (overview.memos.length > 0 || overview.readings.length > 0) return "Review & Save proposes the Episode's records for the Notebook.";
  return "Observer is capturing: work with your agent; it records what it reads with observer_commit.";
}

export function buildOverview(input: OverviewInput): ObserverOverview {
  const snapshot = input.snapshot;
  const lifecycle = snapshot.lifecycle;
  const episode = lifecycle.episode;
  const consumed = new Set(snapshot.consumedObservationIds);
  const readIds = new Set(snapshot.sourceReads.flatMap((read) => read.candidateIds));
  const observedReads = new Set(snapshot.observations.map((observation) => observation.readId));
  const readsById = new Map(snapshot.sourceReads.map((read) => [read.readId, read]));
  const reviews = new Map(snapshot.hypothesisReviews.map((review) => [review.hypothesisObservationId, review]));
  const base: Omit<ObserverOverview, "next"> = {
    mode: lifecycle.mode,
    episode: {
      status: episode.status,
      episodeId: episode.status === "empty" ? null : episode.core.episodeId,
      notebookId: episode.status === "empty" ? lifecycle.selectedNotebookId : episode.core.notebookId,
      language: episode.status === "empty" ? null : episode.core.lang,
      proposalId: episode.status === "reviewing-save" || episode.status === "settled" ? episode.proposalId : null,
      summary: episode.status === "reviewing-save" ? episode.summary : null,
    },
    notebook: input.selection === null ? null : { root: input.selection.root, notebookId: input.selection.notebookId },
    fingerprint: input.fingerprint,
    entries: input.entries,
    issues: input.issues.slice(0, MAX_ISSUES).map((issue) => ({ index: issue.index, code: issue.code, message: issue.message })),
    issueCount: input.issues.length,
    staged: input.staged.flatMap((run) => run.staged.map((item) => ({ toolCallId: item.toolCallId, toolName: item.toolName, host: item.host, isError: item.isError, occurredAt: item.occurredAt }))),
    candidates: snapshot.candidates.map((candidate) => ({
      candidateId: candidate.candidateId,
      episodeId: candidate.episodeId,
      origin: candidate.origin.kind,
      label: candidateLabel(candidate),
      preview: preview(candidate.text),
      capturedAt: candidate.capturedAt,
      read: readIds.has(candidate.candidateId),
    })),
    readings: snapshot.sourceReads.map((read) => ({
      readId: read.readId,
      episodeId: read.episodeId,
      sourceId: read.source.sourceId,
      title: read.source.title,
      summary: read.faithfulSummary,
      claims: read.claims.length,
      candidateIds: [...read.candidateIds],
      observed: observedReads.has(read.readId),
    })),
    observations: snapshot.observations.map((observation) => ({
      observationId: observation.observationId,
      readId: observation.readId,
      sourceId: readsById.get(observation.readId)?.source.sourceId ?? null,
      stance: observation.stance,
      movement: observation.movement,
      rationale: observation.rationale,
      inquiryIds: [...observation.relatedInquiryIds],
      newHypothesis: observation.observerHypothesis?.original ?? null,
      consumed: consumed.has(observation.observationId),
    })),
    hypotheses: snapshot.userHypotheses.map((hypothesis) => {
      const review = reviews.get(hypothesis.observationId);
      return {
        observationId: hypothesis.observationId,
        inquiryId: hypothesis.inquiryId,
        original: hypothesis.original,
        context: hypothesis.context,
        review:
          review === undefined
            ? null
            : {
                assessment: review.assessment,
                supportingClues: [...review.supportingClues],
                challengingClues: [...review.challengingClues],
                missingInformation: [...review.missingInformation],
                interpretationBoundary: review.interpretationBoundary,
              },
        consumed: consumed.has(hypothesis.observationId),
      };
    }),
    memos: input.memo.state.memos.map((memo) => ({ memoId: memo.memoId, title: memo.title, disposition: memo.disposition, revisionId: memo.currentRevisionId, evidence: memo.evidenceIds.length })),
    lastMemo: episode.status === "empty" || episode.lastMemo === null ? null : { revisionId: episode.lastMemo.revisionId, summary: episode.lastMemo.summary },
    pendingMemoRequest: snapshot.pendingMemoRequest === null ? null : { requestId: snapshot.pendingMemoRequest.requestId, observationIds: [...snapshot.pendingMemoRequest.observationIds] },
    unconsumedObservationIds: [...snapshot.unconsumedObservationIds],
  };
  return { ...base, next: nextStep(input, base) };
}
