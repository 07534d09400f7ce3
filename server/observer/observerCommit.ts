// `observer_commit` (design/observer.md §3, piggyback mode): the agent's own turn interprets what
// it read and submits it in one call — nominations of staged tool results, SourceReads with their
// observations or new hypotheses, context reviews of the user's hypotheses, and either a Memo
// reconciliation or a save preparation. Every member runs against the stream as the members
// before it left it; the whole batch is then proven by replay and appended at once, or refused
// as a whole. Nothing reaches the ledger from a failed member.
import * as z from "zod";
import { asLogEntries, cleanSnapshot, refuse, type DraftContext, type DraftOutcome } from "./observerDrafts";
import { captureRetrievedMaterial } from "./materialReviewOperations";
import type { ObserverLedgerEntry } from "./observerEntry";
import { captureCandidate, isObserverTool } from "./candidateCapture";
import { hydrateInquiries, recordNewHypothesis, recordObservation, recordSourceRead, reviewHypothesis, type WorkingSourceDraft } from "./evidenceChain";
import { reconcileMemo, type MemoReconciliation } from "./memoOperations";
import { memoHistoryView } from "./memoScope";
import { ASSESSMENTS, MOVEMENTS, STANCES } from "./observationEvents";
import type { NotebookFacts } from "./notebookFacts";
import { prepareSave, type PreflightOutcome } from "./saveOperations";
import type { PreparedSave } from "./saveProfile";
import { MemoSubmissionSchema } from "./memoSubmission";

const Text = (limit: number) => z.string().min(1).max(limit);
const Id = z.string().min(1).max(300);

const ExternalMaterial = z.strictObject({
  kind: z.literal("external-material"),
  title: Text(4000),
  lang: z.string().min(2).max(35),
  uri: z.string().max(8000).nullable(),
  revision: z.string().max(4000).nullable(),
  content_hash: z.string().regex(/^[0-9a-f]{64}$/u).nullable(),
  retrieval_context: z.string().max(8000).nullable(),
});
const DirectObservation = z.strictObject({
  kind: z.literal("direct-observation"),
  title: Text(4000),
  lang: z.string().min(2).max(35),
  observed_at: z.string(),
  observed_by: Text(4000),
  fact: Text(20_000),
  conditions: Text(20_000),
  interpretation_boundary: Text(20_000),
});

export const CommitObservation = z.strictObject({
  candidate_ids: z.array(Id).max(16).default([]),
  nominations: z.array(z.strictObject({ tool_call_id: Id, reason: Text(4000) })).max(8).default([]),
  source: z.discriminatedUnion("kind", [ExternalMaterial, DirectObservation]),
  faithful_summary: Text(4000),
  claims: z.array(z.strictObject({ text: Text(20_000), locator: z.string().max(4000).nullable() })).min(1).max(1000),
  related_inquiry_ids: z.array(Id).max(8).default([]),
  stance: z.enum(STANCES),
  record: z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("observation"), movement: z.enum(MOVEMENTS).exclude(["independent-new-hypothesis"]), rationale: Text(20_000) }),
    z.strictObject({ kind: z.literal("new-hypothesis"), rationale: Text(20_000), observer_hypothesis: Text(20_000) }),
  ]),
});
export type CommitObservation = z.infer<typeof CommitObservation>;

export const CommitHypothesisReview = z.strictObject({
  hypothesis_observation_id: Id,
  assessment: z.enum(ASSESSMENTS),
  supporting_clues: z.array(Text(20_000)).max(1000).default([]),
  challenging_clues: z.array(Text(20_000)).max(1000).default([]),
  missing_information: z.array(Text(20_000)).max(1000).default([]),
  source_ids: z.array(Id).max(1000).default([]),
  interpretation_boundary: Text(20_000),
});

export const ObserverCommitRequest = z.strictObject({
  episode_id: Text(300),
  /** From observer_status: the batch applies only to the stream it was made against. */
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/u),
  observations: z.array(CommitObservation).max(4).default([]),
  hypothesis_context_reviews: z.array(CommitHypothesisReview).max(8).default([]),
  memo: z.strictObject({ request_id: Id, submission: MemoSubmissionSchema }).nullable().default(null),
  save: z
    .strictObject({
      request_id: Id,
      summary: Text(4000),
      records: z.array(z.unknown()).max(1000),
    })
    .nullable()
    .default(null),
});
export type ObserverCommitRequest = z.infer<typeof ObserverCommitRequest>;

/** The tool-result text behind a nominated call id (the redacted capture), or why it cannot be used. */
export type NominatedResult =
  | { readonly ok: true; readonly origin: "tool-result" | "user-input"; readonly toolName: string; readonly text: string }
  | { readonly ok: false; readonly code: string; readonly message: string };

export interface CommitFacts {
  readonly notebook: NotebookFacts;
  readonly nominated: ReadonlyMap<string, NominatedResult>;
  readonly isDocketTool: (toolName: string) => boolean;
  /** A pending retrieved-tool-results Material review: nominated results become its linked candidates. */
  readonly retrievedReviewId: string | null;
  /** Preflights a prepared save against the Notebook (server/notebook/preflight.ts). */
  readonly preflight: (prepared: PreparedSave) => PreflightOutcome<unknown>;
}

export interface CommittedObservation {
  readonly candidateIds: readonly string[];
  readonly readId: string;
  readonly sourceId: string;
  readonly hydrationId: string | null;
  readonly observationId: string;
  readonly inquiryId: string | null;
}

export interface CommitValue {
  readonly observations: readonly CommittedObservation[];
  readonly reviewedHypothesisIds: readonly string[];
  readonly memo: MemoReconciliation | null;
  readonly save: { readonly proposalId: string; readonly prepared: PreparedSave; readonly plan: unknown } | null;
  readonly nominatedToolCallIds: readonly string[];
}

function sourceDraft(source: CommitObservation["source"]): WorkingSourceDraft {
  if (source.kind === "external-material") {
    return { kind: "external-material", title: source.title, lang: source.lang, uri: source.uri, revision: source.revision, contentHash: source.content_hash, retrievalContext: source.retrieval_context };
  }
  return {
    kind: "direct-observation",
    title: source.title,
    lang: source.lang,
    observedAt: source.observed_at,
    observedBy: source.observed_by,
    fact: source.fact,
    conditions: source.conditions,
    interpretationBoundary: source.interpretation_boundary,
  };
}

/** Stages members one after another; each sees the stream with what the members before it staged. */
class Staging {
  readonly entries: ObserverLedgerEntry[] = [];
  constructor(private readonly base: DraftContext) {}

  context(): DraftContext {
    return { entries: [...this.base.entries, ...asLogEntries(this.entries)], now: this.base.now, ids: this.base.ids };
  }

  run<Value>(what: string, operation: (context: DraftContext) => DraftOutcome<Value>): { ok: true; value: Value } | { ok: false; code: string; message: string } {
    const outcome = operation(this.context());
    if (!outcome.ok) return { ok: false, code: outcome.code, message: `${what}: ${outcome.message}` };
    this.entries.push(...outcome.entries);
    return { ok: true, value: outcome.value };
  }
}

/** Builds the whole commit as one operation (observerRuntime.ts proves and appends it). */
export function commitOperation(request: ObserverCommitRequest, facts: CommitFacts): (context: DraftContext) => DraftOutcome<CommitValue> {
  return (context) => {
    if (request.memo !== null && request.save !== null) return refuse("observer.commit-memo-and-save", "a commit carries a Memo reconciliation or a save preparation, not both: the save's scope depends on the finished Memo");
    if (request.observations.length === 0 && request.hypothesis_context_reviews.length === 0 && request.memo === null && request.save === null) {
      return refuse("observer.commit-empty", "the commit carries no observation, review, Memo or save");
    }
    const callIds = request.observations.flatMap((observation) => observation.nominations.map((nomination) => nomination.tool_call_id));
    if (new Set(callIds).size !== callIds.length) return refuse("observer.nomination-duplicate", "a tool call id is nominated more than once in this commit");
    const clean = cleanSnapshot(context.entries);
    if (!clean.ok) return clean;
    const episode = clean.snapshot.lifecycle.episode;
    if (episode.status !== "open" || episode.core.episodeId !== request.episode_id) {
      return refuse("observer.stale", `the commit is for Episode ${request.episode_id}, but ${episode.status === "open" ? `Episode ${episode.core.episodeId} is open` : `no Episode is open (${episode.status})`}; read observer_status again`);
    }
    const staging = new Staging(context);
    const memoState = () => memoHistoryView(staging.context().entries).state;
    const standing = () => ({ notebook: facts.notebook.views, memo: memoState() });
    const observations: CommittedObservation[] = [];
    const usedCandidates = new Set<string>();
    for (const [position, observation] of request.observations.entries()) {
      const label = `observations[${position}]`;
      const candidateIds = [...observation.candidate_ids];
      for (const nomination of observation.nominations) {
        const result = facts.nominated.get(nomination.tool_call_id);
        if (result === undefined || !result.ok) {
          return refuse(result?.code ?? "observer.nomination-unknown", `${label}: ${result?.message ?? `${nomination.tool_call_id} is not a tool result staged in an open agent run`}`);
        }
        if (result.origin === "tool-result" && (facts.isDocketTool(result.toolName) || isObserverTool(result.toolName))) {
          return refuse("observer.capture-own-tool", `${label}: ${result.toolName} is Docket's own tool; it is never evidence`);
        }
        const reviewId = facts.retrievedReviewId;
        const captured = staging.run(`${label} nomination ${nomination.tool_call_id}`, (ctx) =>
          result.origin === "user-input"
            ? captureCandidate(ctx, { origin: { kind: "user-input", inputSource: "interactive" }, text: result.text })
            : reviewId !== null
            ? captureRetrievedMaterial(ctx, { requestId: reviewId, toolCallId: nomination.tool_call_id, toolName: result.toolName, text: result.text })
            : captureCandidate(ctx, {
                origin: { kind: "tool-result", toolCallId: nomination.tool_call_id, toolName: result.toolName },
                text: result.text,
                nominationReason: nomination.reason,
                isDocketTool: facts.isDocketTool,
              }),
        );
        if (!captured.ok) return refuse(captured.code, captured.message);
        candidateIds.push(...captured.value.candidateIds);
      }
      if (candidateIds.length === 0) return refuse("observer.candidate-required", `${label}: a reading needs at least one candidate (candidate_ids or nominations)`);
      for (const id of candidateIds) {
        if (usedCandidates.has(id)) return refuse("observer.candidate-consumed", `${label}: candidate ${id} is read twice in this commit`);
        usedCandidates.add(id);
      }
      const read = staging.run(`${label} SourceRead`, (ctx) =>
        recordSourceRead(ctx, { candidateIds, source: sourceDraft(observation.source), faithfulSummary: observation.faithful_summary, claims: observation.claims, standing: standing() }),
      );
      if (!read.ok) return refuse(read.code, read.message);
      let hydrationId: string | null = null;
      if (observation.related_inquiry_ids.length > 0) {
        const hydrated = staging.run(`${label} hydration`, (ctx) => hydrateInquiries(ctx, { readId: read.value.readId, inquiryIds: observation.related_inquiry_ids, standing: standing() }));
        if (!hydrated.ok) return refuse(hydrated.code, hydrated.message);
        hydrationId = hydrated.value.hydrationId;
      }
      const record = observation.record;
      const recorded =
        record.kind === "observation"
          ? staging.run(`${label} observation`, (ctx) =>
              recordObservation(ctx, { readId: read.value.readId, relatedInquiryIds: observation.related_inquiry_ids, hydrationId, stance: observation.stance, movement: record.movement, rationale: record.rationale }),
            )
          : staging.run(`${label} new hypothesis`, (ctx) =>
              recordNewHypothesis(ctx, { readId: read.value.readId, relatedInquiryIds: observation.related_inquiry_ids, hydrationId, stance: observation.stance, rationale: record.rationale, hypothesis: record.observer_hypothesis }),
            );
      if (!recorded.ok) return refuse(recorded.code, recorded.message);
      observations.push({ candidateIds, readId: read.value.readId, sourceId: read.value.sourceId, hydrationId, observationId: recorded.value.observationId, inquiryId: recorded.value.inquiryId });
    }
    const reviewed: string[] = [];
    for (const [position, review] of request.hypothesis_context_reviews.entries()) {
      const done = staging.run(`hypothesis_context_reviews[${position}]`, (ctx) =>
        reviewHypothesis(ctx, {
          hypothesisObservationId: review.hypothesis_observation_id,
          assessment: review.assessment,
          supportingClues: review.supporting_clues,
          challengingClues: review.challenging_clues,
          missingInformation: review.missing_information,
          sourceIds: review.source_ids,
          interpretationBoundary: review.interpretation_boundary,
          notebook: facts.notebook.views,
        }),
      );
      if (!done.ok) return refuse(done.code, done.message);
      reviewed.push(review.hypothesis_observation_id);
    }
    let memo: MemoReconciliation | null = null;
    if (request.memo !== null) {
      const memoRequest = request.memo;
      const reconciled = staging.run("memo", (ctx) => reconcileMemo(ctx, { requestId: memoRequest.request_id, submission: memoRequest.submission, notebook: facts.notebook.records }));
      if (!reconciled.ok) return refuse(reconciled.code, reconciled.message);
      memo = reconciled.value;
    }
    let save: CommitValue["save"] = null;
    if (request.save !== null) {
      const saveRequest = request.save;
      const view = memoHistoryView(staging.context().entries);
      const memoFacts = {
        state: view.state,
        lastReceipt: view.lastReceipt,
        preparedPassPending: view.prepared !== null,
        acknowledgementPending: view.pendingAcknowledgement !== null,
        problems: view.problems,
      };
      const prepared = staging.run("save", (ctx) =>
        prepareSave(ctx, { requestId: saveRequest.request_id, summary: saveRequest.summary, records: saveRequest.records, notebook: facts.notebook.save, memo: memoFacts }, facts.preflight),
      );
      if (!prepared.ok) return refuse(prepared.code, prepared.message);
      save = { proposalId: prepared.value.handoff.prepared.proposal_id, prepared: prepared.value.handoff.prepared, plan: prepared.value.plan };
    }
    return { ok: true, entries: staging.entries, value: { observations, reviewedHypothesisIds: reviewed, memo, save, nominatedToolCallIds: callIds } };
  };
}
