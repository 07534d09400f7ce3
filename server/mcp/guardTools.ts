// The completion guard over MCP (docs/guard.md): `review_open` and `review_submit`, the two steps
// that turn a final answer's claims into a recorded review. The descriptions teach the flow: seal
// the draft and its original sources, judge each claim against them, judge the whole response,
// and append the completion control marker only when Docket returns one.
import { countOf } from "../plural";
import { ReviewOpenRequest, ReviewSubmitRequest } from "../guard/guardSchema";
import { openReview, submitReview } from "../guard/reviews";
import { defineTool, type DocketTool } from "./toolDefinition";

const reviewOpen = defineTool({
  name: "review_open",
  title: "Open a review of your final answer",
  readOnly: false,
  params: ReviewOpenRequest,
  description: [
    "Before you tell the user that work is done (tests pass, the bug is fixed, the change is complete), open a Docket review of that final answer. Docket's Stop check compares every final answer with a recorded review: an answer without one is reported to the user as unreviewed.",
    "draft: the complete final answer exactly as you will send it (≤ 256 KiB). claims: 1–100 {id (e.g. \"c1\"), text}: each factual or completion claim the answer makes, one per item. sources: 1–100 original sources the claims rest on, each {kind:\"file\", path (inside the workspace)} sealed by the SHA-256 of its bytes, {kind:\"evidence\", handle (a captured tool result, e.g. branch-result-… from status)} or {kind:\"user-input\", text (what the user said)}.",
    "coversEntireAnswer (optional, default false): true only when the claims together are the entire answer; then an answer without the marker can still match this review.",
    "Result: reviewId and sources [{sourceId (source:1, source:2, …), kind, sha256}]. Next: judge every claim against its sources — read them again, do not rely on memory — and call review_submit citing sourceIds.",
    "Refused (nothing written): docket.off (Docket is off), docket.review-source-invalid (a path outside the workspace, a symbolic link, not a regular file, too large), docket.unknown-evidence-handle, docket.review-draft-too-large, docket.review-invalid.",
  ].join("\n"),
  run: async (context, params) => {
    const result = await openReview(context.ledger, params);
    return {
      summary: `Opened ${result.reviewId} with ${countOf(result.claims.length, "claim")} and ${countOf(result.sources.length, "sealed source")}. Judge each claim against its sources, then call review_submit.`,
      fields: { review: result },
      result: null,
    };
  },
});

const reviewSubmit = defineTool({
  name: "review_submit",
  title: "Submit the judgments of a review",
  readOnly: false,
  params: ReviewSubmitRequest,
  description: [
    "Record your judgments for a review opened with review_open. reviewId: the id it returned. claims: one judgment per claim, every claim exactly once: {claimId, verdict: \"supported\" | \"unsupported\" | \"partial\", citations: [sourceId…] that support the verdict}. response: the separate whole-response judgment {verdict: \"supported\" | \"unsupported\", rationale}, made from the claim judgments, the complete draft and the user's objective and constraints.",
    "Be honest: a claim your sources do not show is unsupported; evidence for part of a claim is partial; an explanation without a cited source is not proof.",
    "Result status \"supported\" (every claim supported with citations, the response supported, no sealed source changed): result.marker is the completion control marker — append it to your final answer exactly, after a blank line, and send the answer unchanged otherwise.",
    "Status \"unsupported\" or \"incomplete\": no marker; result.decisionInput lists the claims and problems. Correct the answer, or state those claims as unresolved, then open a new review of the corrected answer. Never redo finished work just to get a marker.",
    "Refused (nothing written): docket.review-unknown, docket.review-closed (already submitted), docket.review-claim-unjudged, docket.review-claim-unknown, docket.review-citation-unsealed. docket.review-not-recorded: the judgments were valid but not written — submit the same judgments again.",
  ].join("\n"),
  run: async (context, params) => {
    const result = await submitReview(context.ledger, params);
    const summary =
      result.status === "supported"
        ? `${result.reviewId} is supported. Append result.marker to your final answer exactly, after a blank line.`
        : `${result.reviewId} is ${result.status}: no marker. ${result.decisionInput?.next ?? ""}`;
    return { summary, fields: { review: result }, result: null };
  },
});

export const GUARD_TOOLS: readonly DocketTool[] = Object.freeze([reviewOpen, reviewSubmit]);
