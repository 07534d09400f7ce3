// The completion guard's ledger stream, `docket/guard/v1` (docs/guard.md, docs/ledger-format.md).
// A review is two entries: `review-opened` seals the draft and its sources, `review-submitted`
// records the model's judgments and Docket's verdict on their bindings. Both are ledger facts:
// the line chain and head anchor cover them like every developer/v8 envelope, and a guard entry
// that does not have exactly this shape makes the line invalid (the history is then blocked).
// zod/mini: this runs inside every hook that decodes a ledger line.
import * as z from "zod/mini";
import { isCertainGuardEntry, type GuardEntryRules } from "./guardEntryShape";

export const GUARD_STREAM = "docket/guard/v1";

export const REVIEW_ID = /^review:[0-9a-f]{24}$/u;
export const SOURCE_ID = /^source:[1-9][0-9]{0,2}$/u;
/** Claim ids are the model's own; short, printable, no spaces, so a decision input can name them. */
export const CLAIM_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/u;
const SHA256 = /^[0-9a-f]{64}$/u;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/u;
const PROBLEM_CODE = /^docket\.[a-z-]+$/u;

export const MAX_CLAIMS = 100;
export const MAX_SOURCES = 100;
export const MAX_CLAIM_TEXT = 4_000;
export const MAX_RATIONALE = 8_000;
export const MAX_CITATIONS = 100;

export const CLAIM_VERDICTS = ["supported", "unsupported", "partial"] as const;
export type ClaimVerdict = (typeof CLAIM_VERDICTS)[number];
export const RESPONSE_VERDICTS = ["supported", "unsupported"] as const;
export const REVIEW_STATUSES = ["supported", "unsupported", "incomplete"] as const;
export type RecordedReviewStatus = (typeof REVIEW_STATUSES)[number];

/**
 * Built on first use, not at load: only a hook that meets a guard line (a review to locate or
 * decode) validates one, and building these schemas is part of every hook process's start-up.
 */
function buildGuardSchemas() {
  const sha = z.string().check(z.regex(SHA256));
  const reviewId = z.string().check(z.regex(REVIEW_ID));
  const sourceId = z.string().check(z.regex(SOURCE_ID));
  const claimId = z.string().check(z.regex(CLAIM_ID));
  const timestamp = z.string().check(z.regex(TIMESTAMP));
  const count = z.number().check(z.int(), z.minimum(0));

  const SealedSource = z.discriminatedUnion("kind", [
    z.strictObject({ sourceId, kind: z.literal("file"), path: z.string().check(z.minLength(1), z.maxLength(4096)), sha256: sha, bytes: count }),
    z.strictObject({ sourceId, kind: z.literal("evidence"), handle: z.string().check(z.minLength(1), z.maxLength(200)), sha256: sha }),
    z.strictObject({ sourceId, kind: z.literal("user-input"), sha256: sha, bytes: count }),
  ]);
  const ReviewOpened = z.strictObject({
    kind: z.literal("review-opened"),
    reviewId,
    workScopeId: z.string().check(z.minLength(1), z.maxLength(160)),
    /** SHA-256 of the draft without trailing whitespace (hosts trim what they display). */
    draftSha256: sha,
    draftBytes: count,
    /** The model said these claims are the whole answer: only then may an answer without a marker match. */
    coversEntireAnswer: z.boolean(),
    claims: z.array(z.strictObject({ claimId, text: z.string().check(z.minLength(1), z.maxLength(MAX_CLAIM_TEXT)) })).check(z.minLength(1), z.maxLength(MAX_CLAIMS)),
    sources: z.array(SealedSource).check(z.minLength(1), z.maxLength(MAX_SOURCES)),
    session: z.nullable(z.strictObject({ host: z.string().check(z.maxLength(40)), sessionId: z.string().check(z.maxLength(400)) })),
    openedAt: timestamp,
  });
  const ReviewProblem = z.strictObject({
    code: z.string().check(z.regex(PROBLEM_CODE)),
    message: z.string().check(z.maxLength(2_000)),
    claimId: z.nullable(claimId),
    sourceId: z.nullable(sourceId),
  });
  const ReviewSubmitted = z.strictObject({
    kind: z.literal("review-submitted"),
    reviewId,
    /** The `review-opened` line this judges; binds the judgment to exactly those sealed inputs. */
    openedLineSha256: sha,
    claims: z
      .array(z.strictObject({ claimId, verdict: z.enum(CLAIM_VERDICTS), citations: z.array(sourceId).check(z.maxLength(MAX_CITATIONS)) }))
      .check(z.minLength(1), z.maxLength(MAX_CLAIMS)),
    response: z.strictObject({ verdict: z.enum(RESPONSE_VERDICTS), rationale: z.string().check(z.maxLength(MAX_RATIONALE)) }),
    status: z.enum(REVIEW_STATUSES),
    problems: z.array(ReviewProblem).check(z.maxLength(MAX_CLAIMS + MAX_SOURCES + 1)),
    submittedAt: timestamp,
  });
  const GuardEntry = z.discriminatedUnion("kind", [ReviewOpened, ReviewSubmitted]);
  return { SealedSource, ReviewOpened, ReviewProblem, ReviewSubmitted, GuardEntry };
}

type GuardSchemas = ReturnType<typeof buildGuardSchemas>;
let guardSchemas: GuardSchemas | null = null;

export type SealedSource = z.infer<GuardSchemas["SealedSource"]>;
export type ReviewOpened = z.infer<GuardSchemas["ReviewOpened"]>;
export type ReviewProblem = z.infer<GuardSchemas["ReviewProblem"]>;
export type ReviewSubmitted = z.infer<GuardSchemas["ReviewSubmitted"]>;
export type GuardEntry = z.infer<GuardSchemas["GuardEntry"]>;

/** What the schemas above check, for the direct check of guardEntryShape.ts. */
export const GUARD_ENTRY_RULES: GuardEntryRules = {
  reviewId: REVIEW_ID,
  sourceId: SOURCE_ID,
  claimId: CLAIM_ID,
  sha256: SHA256,
  timestamp: TIMESTAMP,
  problemCode: PROBLEM_CODE,
  claimVerdicts: CLAIM_VERDICTS,
  responseVerdicts: RESPONSE_VERDICTS,
  statuses: REVIEW_STATUSES,
  maxClaims: MAX_CLAIMS,
  maxSources: MAX_SOURCES,
  maxClaimText: MAX_CLAIM_TEXT,
  maxRationale: MAX_RATIONALE,
  maxCitations: MAX_CITATIONS,
};

/** The guard entry schema (built on first use), the rule for whatever the direct check is unsure of. */
export function guardEntrySchema(): GuardSchemas["GuardEntry"] {
  guardSchemas ??= buildGuardSchemas();
  return guardSchemas.GuardEntry;
}

/**
 * Null when the entry is a valid guard entry; otherwise why not (for the line fault). An entry
 * the direct check is sure of (every entry Docket writes) is valid without building the schemas.
 */
export function guardEntryProblem(entry: unknown): string | null {
  if (isCertainGuardEntry(entry, GUARD_ENTRY_RULES)) return null;
  guardSchemas ??= buildGuardSchemas();
  const parsed = guardSchemas.GuardEntry.safeParse(entry);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  return issue === undefined ? "is not a guard entry" : `entry.${issue.path.join(".")}: ${issue.message}`;
}
