// Observer over MCP (docs/observer.md): `observer_status` shows what the agent may do now (staged
// tool results to nominate, user hypotheses to review, a pending Memo or save request with its
// guide) and `observer_commit` applies one batch all-or-nothing. The agent's own turn does the
// interpreting (piggyback mode): Docket consults no model.
import { countOf } from "../plural";
import * as z from "zod";
import { commitObserverWork, observerAgentStatus } from "../observer/observerAgentWork";
import { ObserverCommitRequest } from "../observer/observerCommit";
import { PreparedRecord } from "../notebook/proposal";
import { defineTool, type DocketTool } from "./toolDefinition";

const observerStatus = defineTool({
  name: "observer_status",
  title: "Read Observer's state and what it asks of you",
  readOnly: true,
  params: z.strictObject({}),
  description: [
    "Observer (when the user turned it on) keeps evidence of what you actually read and ran, your interpretations of it, the user's hypotheses, working Memos, and proposes Notebook records the user approves. Call this before observer_commit.",
    "Result: overview {mode, episode {status, episodeId}, fingerprint (pass it to observer_commit), staged (tool results of this run you may nominate by toolCallId), candidates, readings, observations, hypotheses (the user's, with review null until you review them), memos, pendingMemoRequest, next}, memoGuide (when a Memo reconciliation is pending: required_coverage, evidence_sources, pass_seed), saveGuide (when Review & Save is pending: required_records, locked_target, submission_contract), unreadCandidates (full text of candidates not read yet, e.g. material the user asked you to review: read them into a SourceRead with candidate_ids).",
    "Nothing is written.",
  ].join("\n"),
  run: async (context) => {
    const status = await observerAgentStatus(context.ledger, context.workspaceFolder);
    return { summary: status.overview.next, fields: { observer: status }, result: null };
  },
});

// The commit leaves save.records opaque (Review & Save checks them with its own codes); clients are
// shown the record shape those checks expect, so a strict client can write one.
const saveRequest = ObserverCommitRequest.shape.save.unwrap().unwrap();
const ObserverCommitPublished = ObserverCommitRequest.extend({
  save: saveRequest.extend({ records: z.array(PreparedRecord).max(1000) }).nullable().default(null),
});

const observerCommit = defineTool({
  name: "observer_commit",
  title: "Record what you observed (one atomic Observer batch)",
  readOnly: false,
  params: ObserverCommitRequest,
  publishedAs: ObserverCommitPublished,
  description: [
    "Record, in one call at the end of your work, the evidence you relied on and how you interpret it. All or nothing: any failed member, or any Observer change since observer_status (fingerprint), writes nothing.",
    "episode_id and fingerprint: from observer_status. observations (≤4), each one SourceRead: nominations [{tool_call_id (a staged result), reason (why it matters)}] and/or candidate_ids (existing candidates, e.g. the user's input); source {kind:\"external-material\", title, lang, uri, revision, content_hash, retrieval_context} (at least one of the last four non-null) or {kind:\"direct-observation\", title, lang, observed_at (ISO), observed_by, fact, conditions, interpretation_boundary}; faithful_summary (what the source says, not your opinion); claims [{text, locator|null}] (what it states, with where); related_inquiry_ids (standing hypotheses it bears on, may be empty); stance supports|challenges|refines|boundary|uncertain; record {kind:\"observation\", movement, rationale} or {kind:\"new-hypothesis\", rationale, observer_hypothesis} (your own new hypothesis).",
    "movement: repeated-support | minor-refinement | uncertain-association | material-boundary-change | core-counterexample | major-direction-change | missed-important-mismatch (independent-new-hypothesis only through record kind new-hypothesis).",
    "hypothesis_context_reviews (≤8): for the user's hypotheses {hypothesis_observation_id, assessment supports|challenges|mixed|insufficient-context, supporting_clues, challenging_clues, missing_information, source_ids, interpretation_boundary}. insufficient-context is a valid, honest answer (list what is missing). Never restate or rewrite the user's wording.",
    "memo (when observer_status shows memoGuide): {request_id, submission {evidence, hypothesis_outcomes, memo_outcomes, dispositions}} accounting for every required item exactly once. save (when it shows saveGuide): {request_id, summary, records [{operation, record_id, [expected_sha256], markdown}]} covering every required record. Not both in one call.",
    "Result: committed {observations [{readId, sourceId, observationId, inquiryId}], reviewedHypothesisIds, memo (receipt summary), save (proposalId)}, followUps (a save request continuing Review & Save, a completed Material review, the proposal now waiting for the user), overview.",
    "Refused (nothing written): docket.observer-stale (re-read observer_status), docket.observer-refused with the Observer code (e.g. observer.nomination-unknown: not staged or expired with its run; observer.read-already-observed; memo-reconcile.coverage; save-request.submission), docket.observer-blocked (history needs repair).",
  ].join("\n"),
  run: async (context, params) => {
    const outcome = await commitObserverWork(context.ledger, context.workspaceFolder, params);
    const c = outcome.committed;
    const parts = [
      `${outcome.appended} Observer entr${outcome.appended === 1 ? "y" : "ies"} recorded`,
      c.observations.length > 0 ? `${countOf(c.observations.length, "reading")} with observations` : "",
      c.reviewedHypothesisIds.length > 0 ? `${countOf(c.reviewedHypothesisIds.length, "hypothesis review")}` : "",
      c.memo !== null ? `Memo reconciled (${c.memo.summary})` : "",
      c.save !== null ? `save proposal ${c.save.proposalId}` : "",
    ].filter((part) => part !== "");
    return { summary: `${parts.join("; ")}. ${outcome.followUps.join(" ")}`.trim(), fields: { observer: { committed: c, followUps: outcome.followUps, overview: outcome.overview } }, result: null };
  },
});

export const OBSERVER_TOOLS: readonly DocketTool[] = Object.freeze([observerStatus, observerCommit]);
