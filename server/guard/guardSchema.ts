// The completion guard's request and result contracts, shared by the CLI (`docket review …`,
// `docket guard …`), the MCP tools `review_open` / `review_submit` and the backend's requests
// (protocol/messages.ts). Requests are strict: an unknown field is refused, never ignored.
import * as z from "zod";
import { GuardMode, GuardRemainingWork } from "../protocol/messages";
import { REVIEW_CHECK_STATUSES } from "./guardDecision";
import { CLAIM_ID, CLAIM_VERDICTS, MAX_CLAIM_TEXT, MAX_CLAIMS, MAX_RATIONALE, MAX_SOURCES, RESPONSE_VERDICTS, REVIEW_ID, SOURCE_ID } from "./guardEntry";

/** The largest draft Docket reviews (UTF-8 bytes); hosts cap what they show far below this. */
export const MAX_DRAFT_BYTES = 256 * 1024;
/** The largest user input sealed as a source (UTF-8 bytes). */
export const MAX_USER_INPUT_BYTES = 64 * 1024;
export { MAX_SOURCE_FILE_BYTES } from "./sourceDigest";



const ClaimInput = z.strictObject({
  id: z.string().regex(CLAIM_ID, "a claim id is 1–64 letters, digits, '.', '_', ':' or '-', starting with a letter or digit"),
  text: z.string().min(1).max(MAX_CLAIM_TEXT),
});

export const SourceInput = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("file"), path: z.string().min(1).max(4096) }),
  z.strictObject({ kind: z.literal("evidence"), handle: z.string().min(1).max(200) }),
  z.strictObject({ kind: z.literal("user-input"), text: z.string().min(1) }),
]);
export type SourceInput = z.infer<typeof SourceInput>;

export const ReviewOpenRequest = z.strictObject({
  draft: z.string().min(1),
  claims: z.array(ClaimInput).min(1).max(MAX_CLAIMS),
  sources: z.array(SourceInput).min(1).max(MAX_SOURCES),
  /** True when the claims are the entire answer: only then may an answer without a marker match this review. */
  coversEntireAnswer: z.boolean().optional(),
});
export type ReviewOpenRequest = z.infer<typeof ReviewOpenRequest>;

export const ReviewOpenResult = z.strictObject({
  reviewId: z.string().regex(REVIEW_ID),
  sources: z.array(
    z.strictObject({
      sourceId: z.string().regex(SOURCE_ID),
      kind: z.enum(["file", "evidence", "user-input"]),
      sha256: z.string(),
      path: z.string().optional(),
      handle: z.string().optional(),
    }),
  ),
  claims: z.array(z.strictObject({ claimId: z.string() })),
});
export type ReviewOpenResult = z.infer<typeof ReviewOpenResult>;

export const ReviewSubmitRequest = z.strictObject({
  reviewId: z.string().regex(REVIEW_ID, "reviewId is the id review_open returned (review:<24 hex>)"),
  claims: z
    .array(
      z.strictObject({
        claimId: z.string().regex(CLAIM_ID),
        verdict: z.enum(CLAIM_VERDICTS),
        citations: z.array(z.string().regex(SOURCE_ID, "a citation is a sourceId review_open returned (source:<n>)")).max(MAX_SOURCES),
      }),
    )
    .min(1)
    .max(MAX_CLAIMS),
  response: z.strictObject({ verdict: z.enum(RESPONSE_VERDICTS), rationale: z.string().max(MAX_RATIONALE) }),
});
export type ReviewSubmitRequest = z.infer<typeof ReviewSubmitRequest>;

export const DecisionInput = z.strictObject({
  /** Claims to correct in the answer, or to report there as unresolved. */
  claims: z.array(z.strictObject({ claimId: z.string(), verdict: z.string(), text: z.string() })),
  problems: z.array(z.strictObject({ code: z.string(), message: z.string(), claimId: z.string().nullable(), sourceId: z.string().nullable() })),
  next: z.string(),
});
export type DecisionInput = z.infer<typeof DecisionInput>;

export const ReviewSubmitResult = z.strictObject({
  reviewId: z.string(),
  status: z.enum(["supported", "unsupported", "incomplete"]),
  marker: z.string().optional(),
  decisionInput: DecisionInput.optional(),
});
export type ReviewSubmitResult = z.infer<typeof ReviewSubmitResult>;


export const GuardCheckResult = z.strictObject({
  docketOn: z.boolean(),
  mode: GuardMode,
  answer: z.enum(["available", "unavailable"]),
  review: z.strictObject({
    status: z.enum(REVIEW_CHECK_STATUSES),
    reviewId: z.string().nullable(),
    /** A `docket.*` code saying why the review is not supported; null when it is. */
    cause: z.string().nullable(),
    message: z.string(),
  }),
  remaining: z.array(GuardRemainingWork),
  intakeWarning: z.string().nullable(),
  decision: z.enum(["silent", "notice", "block"]),
  notice: z.string().nullable(),
});
export type GuardCheckResult = z.infer<typeof GuardCheckResult>;
