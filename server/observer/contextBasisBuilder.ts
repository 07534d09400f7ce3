// Building the context basis (`observer-context-basis/v1`) an interpretation is bound to: the
// write side of contextBasis.ts. The evidence is sealed as members (canonical JSON of each
// material value), the question's needs are declared with their assurance, and every hash is
// SHA-256 over Judgment canonical JSON, so the value is byte-for-byte what the reference's
// assessment produces for the same input and replay recomputes the same `input_sha256`.
// The assessment refuses (and nothing is hashed) when related inquiries are proposed without the
// exact hydration of this reading: interpreting against Inquiries nobody loaded is not allowed.
import { canonicalJson, compareText, jsonValueFromUnknown, sha256, type JsonValue } from "../judgment/json";
import { decodeContextBasis, encodeContextBasis, interpretationInputSha256, type ContextBasis, type ContextCoverage, type InterpretationInput } from "./contextBasis";

type Relation = ContextCoverage["claims"][number];
type Applicability = ContextCoverage["needApplicability"][number];

export const INTERPRETATION_QUESTION = "interpret-source-reading";
export const MEMO_RECONCILIATION_QUESTION = "reconcile-memo-pass";
export const SOURCE_READING_MEMBER = "source-reading-evidence";
export const INQUIRY_CONTEXT_MEMBER = "inquiry-context-evidence";
const SOURCE_READING_EVALUATOR = "observer-source-reading";
const INQUIRY_CONTEXT_EVALUATOR = "observer-inquiry-context";
const MEMO_EVALUATOR = "observer-memo-reconciliation";
/** Every evaluator the reference names is at version 1. */
const EVALUATOR_VERSION = "1";

/** One sealed member: the canonical JSON of the material and its hash. */
export interface SelectedMember {
  readonly sourceId: string;
  readonly contentSha256: string;
  readonly content: string;
}

export interface SelectedContext {
  readonly questionId: string;
  readonly members: readonly SelectedMember[];
  readonly sealedContextSha256: string;
}

export type ContextAssessment =
  | { readonly ok: true; readonly basis: ContextBasis; readonly selectedContext: SelectedContext }
  | { readonly ok: false; readonly message: string; readonly missing: readonly string[]; readonly conflicts: readonly string[] };

interface Material {
  readonly sourceId: string;
  readonly value: JsonValue;
}

const hashOf = (value: unknown): string => sha256(canonicalJson(jsonValueFromUnknown(value)));

function verified(needId: string, basisIds: readonly string[], evaluatorId: string): Relation {
  return { needId, basisIds: [...basisIds], assurance: "domain-verified", evaluator: { id: evaluatorId, version: EVALUATOR_VERSION }, evidenceIds: [...basisIds] };
}

function asserted(needId: string, basisIds: readonly string[]): Relation {
  return { needId, basisIds: [...basisIds], assurance: "agent-asserted" };
}

function need(relation: Relation, status: "required" | "not-required", rationale: string): Applicability {
  return { ...relation, status, rationale };
}

/** The relation as hashed in the coverage identity (canonical JSON orders the keys). */
function relationIdentity(relation: Relation): Record<string, JsonValue> {
  const identity: Record<string, JsonValue> = { needId: relation.needId, basisIds: [...relation.basisIds], assurance: relation.assurance };
  if (relation.evaluator !== undefined) identity.evaluator = { id: relation.evaluator.id, version: relation.evaluator.version };
  if (relation.evidenceIds !== undefined) identity.evidenceIds = [...relation.evidenceIds];
  if (relation.userEventId !== undefined) identity.userEventId = relation.userEventId;
  return identity;
}

function selectContext(questionId: string, materials: readonly Material[]): SelectedContext {
  const members = materials
    .map((material) => {
      const content = canonicalJson(material.value);
      return { sourceId: material.sourceId, contentSha256: sha256(content), content };
    })
    .sort((left, right) => compareText(left.sourceId, right.sourceId));
  return { questionId, members, sealedContextSha256: hashOf({ questionId, members }) };
}

/**
 * A complete assessment (nothing missing, no conflicts): seals the materials, hashes the contract,
 * the selection and the coverage, and binds them with `basis_sha256`. The basis is proven by
 * decoding its own wire form, as the reference's encoder does.
 */
function completeAssessment(input: {
  readonly questionId: string;
  readonly contractRules: readonly string[];
  readonly inputSha256: string;
  readonly materials: readonly Material[];
  readonly needApplicability: readonly Applicability[];
  readonly claims: readonly Relation[];
}): ContextAssessment {
  const selected = selectContext(input.questionId, input.materials);
  const selectedSourceIds = input.materials.map((material) => material.sourceId).sort(compareText);
  const byNeed = (left: Relation, right: Relation): number => compareText(left.needId, right.needId);
  const needApplicability = [...input.needApplicability].sort(byNeed);
  const claims = [...input.claims].sort(byNeed);
  const coverageSha256 = hashOf({
    questionId: input.questionId,
    sealedContextSha256: selected.sealedContextSha256,
    needApplicability: needApplicability.map((item) => ({ ...relationIdentity(item), status: item.status, rationale: item.rationale })),
    claims: claims.map(relationIdentity),
    missing: [],
    conflicts: [],
  });
  const unsealed: ContextBasis = {
    contractSha256: hashOf({ questionId: input.questionId, rules: input.contractRules }),
    questionId: input.questionId,
    selectionSha256: hashOf({
      questionId: input.questionId,
      selectedSourceIds,
      members: selected.members.map((member) => ({ sourceId: member.sourceId, contentSha256: member.contentSha256 })),
    }),
    inputSha256: input.inputSha256,
    selectedSourceIds,
    coverage: { questionId: input.questionId, sealedContextSha256: selected.sealedContextSha256, needApplicability, claims, missing: [], conflicts: [], coverageSha256 },
    basisSha256: "",
  };
  const { basis_sha256: _placeholder, ...wire } = encodeContextBasis(unsealed);
  const encoded = { ...wire, basis_sha256: sha256(canonicalJson(wire)) };
  const basis = decodeContextBasis(encoded);
  if (basis === null) return { ok: false, message: "the context basis does not decode (a material or rationale is not valid text)", missing: [], conflicts: [] };
  return { ok: true, basis, selectedContext: selected };
}

/**
 * The `interpret-source-reading` assessment. Related inquiries need the hydration of this very
 * reading with exactly those inquiries; otherwise it is incomplete (missing
 * `inquiry-context-basis` and `semantic-interpretation`) and no basis exists.
 */
export function assessObservationContext(input: InterpretationInput): ContextAssessment {
  const related = input.relatedInquiryIds;
  const inquiryRequired = related.length > 0;
  const inquiry = input.inquiryContext;
  const inquiryMatches =
    !inquiryRequired ||
    (inquiry !== null && inquiry.readingId === input.sourceReading.readingId && inquiry.inquiryIds.length === related.length && inquiry.inquiryIds.every((id, index) => id === related[index]));
  if (!inquiryMatches) {
    return {
      ok: false,
      message: "the related inquiries were not hydrated for this reading, so the interpretation has no exact inquiry context",
      missing: ["inquiry-context-basis", "semantic-interpretation"],
      conflicts: [],
    };
  }
  const sourceReading = input.sourceReading;
  const materials: Material[] = [
    {
      sourceId: SOURCE_READING_MEMBER,
      value: jsonValueFromUnknown({
        readingId: sourceReading.readingId,
        episodeId: sourceReading.episodeId,
        sourceId: sourceReading.sourceId,
        faithfulSummary: sourceReading.faithfulSummary,
        claims: sourceReading.claims.map((claim) => ({ text: claim.text, locator: claim.locator })),
      }),
    },
  ];
  if (inquiryRequired && inquiry !== null) {
    materials.push({
      sourceId: INQUIRY_CONTEXT_MEMBER,
      value: jsonValueFromUnknown({ inquiryContextId: inquiry.inquiryContextId, readingId: inquiry.readingId, inquiryIds: [...inquiry.inquiryIds], contextDigest: inquiry.contextDigest }),
    });
  }
  const sourceBasis = [SOURCE_READING_MEMBER];
  // In material order (reading first), not sorted: the reference hashes it that way.
  const semanticBasis = materials.map((material) => material.sourceId);
  const inquiryBasis = inquiryRequired ? [INQUIRY_CONTEXT_MEMBER] : [];
  return completeAssessment({
    questionId: INTERPRETATION_QUESTION,
    contractRules: ["exact source reading", "matching inquiry context when related", "agent-owned semantic interpretation", "no user authority forgery"],
    inputSha256: interpretationInputSha256(input),
    materials,
    needApplicability: [
      need(verified("source-reading-basis", sourceBasis, SOURCE_READING_EVALUATOR), "required", "A semantic observation requires its exact source reading."),
      inquiryRequired
        ? need(verified("inquiry-context-basis", inquiryBasis, INQUIRY_CONTEXT_EVALUATOR), "required", "Related inquiries require exact current inquiry context.")
        : need(asserted("inquiry-context-basis", inquiryBasis), "not-required", "No related inquiry was proposed."),
      need(asserted("semantic-interpretation", semanticBasis), "required", "The agent interprets stance and movement from selected evidence."),
      need(asserted("user-owned-interpretation", []), "not-required", "This evidence relation does not choose among user-owned policies."),
    ],
    claims: [
      verified("source-reading-basis", sourceBasis, SOURCE_READING_EVALUATOR),
      ...(inquiryRequired ? [verified("inquiry-context-basis", inquiryBasis, INQUIRY_CONTEXT_EVALUATOR)] : []),
      asserted("semantic-interpretation", semanticBasis),
    ],
  });
}

/** What a Memo pass was reconciled against; its hash is the `reconcile-memo-pass` basis's `input_sha256`. */
export interface MemoContextEvidence {
  readonly scopeId: string;
  readonly episodeId: string;
  readonly basisDigest: string;
  readonly relatedInquiryIds: readonly string[];
  readonly knownEvidenceIds: readonly string[];
  readonly passDigest: string;
  readonly outcomeCount: number;
  readonly dispositionCount: number;
}

/** The `reconcile-memo-pass` assessment (always complete: the pass was already checked against its scope). */
export function assessMemoContext(input: MemoContextEvidence): ContextAssessment {
  const scope = ["memo-scope-evidence"];
  const pass = ["memo-pass-evidence"];
  return completeAssessment({
    questionId: MEMO_RECONCILIATION_QUESTION,
    contractRules: ["exact memo scope", "exact reconciliation pass", "complete outcome accounting", "no user policy forgery"],
    inputSha256: hashOf({
      scopeId: input.scopeId,
      episodeId: input.episodeId,
      basisDigest: input.basisDigest,
      relatedInquiryIds: [...input.relatedInquiryIds],
      knownEvidenceIds: [...input.knownEvidenceIds],
      passDigest: input.passDigest,
      outcomeCount: input.outcomeCount,
      dispositionCount: input.dispositionCount,
    }),
    materials: [
      {
        sourceId: "memo-scope-evidence",
        value: jsonValueFromUnknown({
          scopeId: input.scopeId,
          episodeId: input.episodeId,
          basisDigest: input.basisDigest,
          relatedInquiryIds: [...input.relatedInquiryIds],
          knownEvidenceIds: [...input.knownEvidenceIds],
        }),
      },
      { sourceId: "memo-pass-evidence", value: { passDigest: input.passDigest, outcomeCount: input.outcomeCount, dispositionCount: input.dispositionCount } },
    ],
    needApplicability: [
      need(verified("exact-memo-basis", scope, MEMO_EVALUATOR), "required", "A parsed memo pass requires its exact scope basis."),
      need(verified("evidence-closure", pass, MEMO_EVALUATOR), "required", "A parsed memo pass requires exact evidence closure."),
      need(verified("outcome-accounting", pass, MEMO_EVALUATOR), "required", "A parsed memo pass requires exact outcome and disposition accounting."),
      need(asserted("user-owned-memo-policy", []), "not-required", "The parsed pass contains no unresolved user-owned promotion policy."),
    ],
    claims: [verified("exact-memo-basis", scope, MEMO_EVALUATOR), verified("evidence-closure", [...scope, ...pass], MEMO_EVALUATOR), verified("outcome-accounting", pass, MEMO_EVALUATOR)],
  });
}
