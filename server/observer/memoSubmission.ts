// What the model submits to reconcile a Memo request (the `submission` of the reference's
// `reconcile-memo` action and of `observer-commit`'s `memo`): evidence, hypothesis and Memo
// outcomes, and one disposition per requested observation. The schema is strict (no unknown key
// anywhere) and has the reference tool schema's shape; the values are then judged by the
// prepared-pass decoder, exactly as the reference judges them. The model names Memo revisions
// with an explicit kind (`revise-incubating` / `revise-promotion-candidate`), which is lowered to
// the pass's `revise` with its disposition.
import * as z from "zod";
import type { JsonValue } from "../judgment/json";
import { compareCodeUnits } from "../ledger/canonicalJson";
import { decodePreparedMemoPass, evidenceId, memoId, PREPARED_MEMO_PASS_PROTOCOL, type PreparedMemoPass } from "./memoPass";
import { inquiryId, observationId } from "./observationEvents";
import { distinctIds, trimmedText } from "./observerValues";

const UUID_V4 = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";
const typedId = (prefix: string) => z.string().regex(new RegExp(`^${prefix}-${UUID_V4}$`, "u"));

const EvidenceIdSchema = typedId("evidence");
const InquiryIdSchema = typedId("inquiry");
const MemoIdSchema = typedId("memo");

const EvidenceItemSchema = z.strictObject({
  evidence_id: EvidenceIdSchema,
  kind: z.enum(["source-claim", "direct-observation", "counterexample"]),
  source_id: z.union([z.null(), typedId("source")]),
  summary: z.string(),
});

const HypothesisDraftSchema = z.strictObject({
  inquiry_id: InquiryIdSchema,
  episode_id: z.string(),
  origin: z.enum(["user", "observer"]),
  original: z.string(),
  current: z.string(),
  revision_reason: z.union([z.null(), z.string()]),
  evidence_ids: z.array(EvidenceIdSchema),
});

const MemoDraftSchema = z.strictObject({
  memo_id: MemoIdSchema,
  episode_id: z.string(),
  title: z.string(),
  lang: z.enum(["ko", "en"]),
  content: z.string(),
  inquiry_ids: z.array(InquiryIdSchema),
  hypothesis_id: z.union([z.null(), InquiryIdSchema]),
  evidence_ids: z.array(EvidenceIdSchema),
  reason: z.string(),
});

const MemoRevisionSchema = z.strictObject({
  revision_id: typedId("memo-revision"),
  title: z.string(),
  content: z.string(),
  evidence_ids: z.array(EvidenceIdSchema),
  reason: z.string(),
});

const HypothesisOutcomeSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("keep"), inquiry_id: InquiryIdSchema }),
  z.strictObject({ kind: z.literal("create"), hypothesis: HypothesisDraftSchema }),
  z.strictObject({ kind: z.literal("revise"), inquiry_id: InquiryIdSchema, current: z.string(), revision_reason: z.string(), evidence_ids: z.array(EvidenceIdSchema) }),
]);

const MemoOutcomeSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("keep-incubating"), memo_id: MemoIdSchema }),
  z.strictObject({ kind: z.literal("revise-incubating"), memo_id: MemoIdSchema, revision: MemoRevisionSchema }),
  z.strictObject({ kind: z.literal("revise-promotion-candidate"), memo_id: MemoIdSchema, revision: MemoRevisionSchema }),
  z.strictObject({ kind: z.literal("mark-promotion-candidate"), memo_id: MemoIdSchema, reason: z.string(), evidence_ids: z.array(EvidenceIdSchema) }),
  z.strictObject({ kind: z.literal("merge"), source_ids: z.array(MemoIdSchema).min(2), target: MemoDraftSchema }),
  z.strictObject({ kind: z.literal("create"), memo: MemoDraftSchema }),
]);

const DispositionSchema = z.strictObject({
  observation_id: typedId("observation"),
  decision: z.enum(["integrated", "kept"]),
  hypothesis_inquiry_ids: z.array(InquiryIdSchema),
  memo_ids: z.array(MemoIdSchema),
  evidence_ids: z.array(EvidenceIdSchema),
  rationale: z.string(),
});

/** The model-facing submission (also the MCP tool input of a Memo reconciliation). */
export const MemoSubmissionSchema = z.strictObject({
  evidence: z.array(EvidenceItemSchema),
  hypothesis_outcomes: z.array(HypothesisOutcomeSchema),
  memo_outcomes: z.array(MemoOutcomeSchema),
  dispositions: z.array(DispositionSchema),
});
export type MemoSubmission = z.infer<typeof MemoSubmissionSchema>;

/** How one requested observation was used by the pass (`observer.memo-instruction` dispositions). */
export interface ObservationDisposition {
  readonly observationId: string;
  readonly decision: "integrated" | "kept";
  readonly hypothesisInquiryIds: readonly string[];
  readonly memoIds: readonly string[];
  readonly evidenceIds: readonly string[];
  readonly rationale: string;
}

/** What the pass is bound to before the model's outcomes are added (the reference's instruction seed). */
export interface PassSeed {
  readonly passId: string;
  readonly episodeId: string;
  readonly baseRevisionId: string | null;
  readonly basisDigest: string;
  readonly relatedInquiryIds: readonly string[];
  readonly instructionId: string;
}

export interface DecodedSubmission {
  readonly pass: PreparedMemoPass;
  /** Sorted by observation id, id lists sorted. */
  readonly dispositions: readonly ObservationDisposition[];
}

export type SubmissionCode = "memo-submission.shape" | "memo-profile.shape" | "memo-profile.duplicate" | "memo-instruction.shape" | "memo-instruction.coverage";

export type SubmissionOutcome = { readonly ok: true; readonly value: DecodedSubmission } | { readonly ok: false; readonly code: SubmissionCode; readonly message: string };

type MemoOutcomeInput = MemoSubmission["memo_outcomes"][number];

/** The model's explicit revise kinds become the pass's `revise` with a disposition. */
function lowerMemoOutcome(outcome: MemoOutcomeInput): Record<string, unknown> {
  switch (outcome.kind) {
    case "revise-incubating":
      return { kind: "revise", memo_id: outcome.memo_id, revision: outcome.revision, disposition: "incubating" };
    case "revise-promotion-candidate":
      return { kind: "revise", memo_id: outcome.memo_id, revision: outcome.revision, disposition: "promotion-candidate" };
    default:
      return outcome;
  }
}

const RATIONALE_LIMIT = 20_000;
const LIST_LIMIT = 1_000;
const sortedIds = (value: readonly string[], decode: (item: unknown) => string | null): string[] | null => distinctIds(value, decode, { limit: LIST_LIMIT, nonEmpty: false, sorted: true });

type Refusal = { readonly ok: false; readonly code: SubmissionCode; readonly message: string };
const refusal = (code: SubmissionCode, message: string): Refusal => ({ ok: false, code, message });

/** The reference's disposition rules: bounded values, `integrated` cites something, `kept` cites nothing, one per observation. */
function normaliseDispositions(values: MemoSubmission["dispositions"]): { readonly ok: true; readonly dispositions: ObservationDisposition[] } | Refusal {
  if (values.length === 0 || values.length > LIST_LIMIT) return refusal("memo-instruction.shape", "dispositions must list between 1 and 1000 observations");
  const result: ObservationDisposition[] = [];
  for (const [index, value] of values.entries()) {
    const id = observationId(value.observation_id);
    const hypothesisInquiryIds = sortedIds(value.hypothesis_inquiry_ids, inquiryId);
    const memoIds = sortedIds(value.memo_ids, memoId);
    const evidenceIds = sortedIds(value.evidence_ids, evidenceId);
    const rationale = trimmedText(value.rationale, RATIONALE_LIMIT);
    if (id === null || hypothesisInquiryIds === null || memoIds === null || evidenceIds === null || rationale === null) {
      return refusal("memo-instruction.shape", `disposition ${index} has repeated ids or a rationale that is empty, untrimmed or longer than ${RATIONALE_LIMIT}`);
    }
    const references = hypothesisInquiryIds.length + memoIds.length + evidenceIds.length;
    if ((value.decision === "integrated") !== references > 0) {
      return refusal("memo-instruction.shape", `disposition of ${id}: an integrated observation must cite a hypothesis, Memo or evidence, a kept one none`);
    }
    if (result.some((item) => item.observationId === id)) return refusal("memo-instruction.coverage", `the observation ${id} has two dispositions`);
    result.push({ observationId: id, decision: value.decision, hypothesisInquiryIds, memoIds, evidenceIds, rationale });
  }
  return { ok: true, dispositions: result.sort((left, right) => compareCodeUnits(left.observationId, right.observationId)) };
}

/** A list repeats an identity (after lowering), which the pass decoder refuses without saying why. */
function repeatedIdentity(submission: MemoSubmission): string | null {
  const seen = (keys: readonly string[]): string | null => keys.find((key, index) => keys.indexOf(key) !== index) ?? null;
  return (
    seen(submission.evidence.map((item) => item.evidence_id)) ??
    seen(submission.hypothesis_outcomes.map((outcome) => (outcome.kind === "create" ? `create:${outcome.hypothesis.inquiry_id}` : `${outcome.kind}:${outcome.inquiry_id}`))) ??
    seen(
      submission.memo_outcomes.map((outcome) => {
        if (outcome.kind === "merge") return `merge:${outcome.target.memo_id}`;
        if (outcome.kind === "create") return `create:${outcome.memo.memo_id}`;
        const kind = outcome.kind === "revise-incubating" || outcome.kind === "revise-promotion-candidate" ? "revise" : outcome.kind;
        return `${kind}:${outcome.memo_id}`;
      }),
    )
  );
}

/** The first schema problem as one line (path and zod's message). */
function describeProblem(error: z.ZodError): string {
  const first = error.issues[0];
  return first === undefined ? "the submission is invalid" : `${first.path.length === 0 ? "(root)" : first.path.join(".")}: ${first.message}`;
}

/**
 * Decodes a submission against its seed: the strict schema, then the prepared-pass decoder over
 * the seed plus the lowered outcomes (bounded texts, reasons, normalisation), then the
 * dispositions. The pass is the normalised one replay will decode from the entry.
 */
export function decodeMemoSubmission(seed: PassSeed, value: unknown): SubmissionOutcome {
  const parsed = MemoSubmissionSchema.safeParse(value);
  if (!parsed.success) return refusal("memo-submission.shape", describeProblem(parsed.error));
  const submission = parsed.data;
  const repeated = repeatedIdentity(submission);
  if (repeated !== null) return refusal("memo-profile.duplicate", `the pass names ${repeated} twice`);
  const wire: Record<string, unknown> = {
    observer_memo_pass: PREPARED_MEMO_PASS_PROTOCOL,
    pass_id: seed.passId,
    episode_id: seed.episodeId,
    base_revision_id: seed.baseRevisionId,
    basis_digest: seed.basisDigest,
    related_inquiry_ids: [...seed.relatedInquiryIds],
    instruction_id: seed.instructionId,
    evidence: submission.evidence,
    hypothesis_outcomes: submission.hypothesis_outcomes,
    memo_outcomes: submission.memo_outcomes.map(lowerMemoOutcome),
  };
  const pass = decodePreparedMemoPass(wire);
  if (pass === null) {
    return refusal(
      "memo-profile.shape",
      "the pass is malformed: every text must be trimmed and non-empty (summaries, titles and reasons at most 4000 characters, contents at most 20000), id lists must not repeat, and a hypothesis's revision_reason is null exactly when current equals original",
    );
  }
  const dispositions = normaliseDispositions(submission.dispositions);
  if (!dispositions.ok) return dispositions;
  return { ok: true, value: { pass, dispositions: dispositions.dispositions } };
}

/** Every id the pass's outcomes name, for disposition references (merge sources and targets included). */
export function passReferences(pass: PreparedMemoPass): { readonly hypotheses: ReadonlySet<string>; readonly memos: ReadonlySet<string>; readonly evidence: ReadonlySet<string> } {
  const memos = pass.memoOutcomes.flatMap((outcome) => {
    if (outcome.kind === "merge") return [...outcome.sourceIds, outcome.target.memoId];
    if (outcome.kind === "create") return [outcome.memo.memoId];
    return [outcome.memoId];
  });
  return {
    hypotheses: new Set(pass.hypothesisOutcomes.map((outcome) => (outcome.kind === "create" ? outcome.hypothesis.inquiryId : outcome.inquiryId))),
    memos: new Set(memos),
    evidence: new Set(pass.evidence.map((item) => item.evidenceId)),
  };
}

/** JSON value of a disposition in the reference's key order. */
export function dispositionWire(disposition: ObservationDisposition): JsonValue {
  return {
    observation_id: disposition.observationId,
    decision: disposition.decision,
    hypothesis_inquiry_ids: [...disposition.hypothesisInquiryIds],
    memo_ids: [...disposition.memoIds],
    evidence_ids: [...disposition.evidenceIds],
    rationale: disposition.rationale,
  };
}
