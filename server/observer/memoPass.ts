// A prepared Memo pass (`observer.prepared-memo-pass` entries, `observer.prepared-memo-pass/v1`):
// the model's account of every scoped hypothesis and Memo (keep / create / revise / merge /
// mark as promotion candidate) with the evidence it cites. Decoding normalises it (id sets
// sorted, evidence sorted by id, outcomes sorted by their identity key) and refuses a pass that
// names one identity twice. Its digest covers everything but the pass id, so re-posting the
// same pass under its id is recognisable. See docs/observer-replay.md "Memo entries".
import { compareCodeUnits } from "../ledger/canonicalJson";
import { decodedList, distinctIds, hasKeysExactly, isRecord, isSha256Hex, optionalTrimmedText, prefixedUuid, sha256OfText, trimmedText } from "./observerValues";

export const PREPARED_MEMO_PASS_PROTOCOL = "observer.prepared-memo-pass/v1";

const ID_LIMIT = 200;
const TEXT_LIMIT = 20_000;
const SUMMARY_LIMIT = 4_000;
const LIST_LIMIT = 1_000;

export const memoId = (value: unknown): string | null => prefixedUuid(value, "memo-");
export const evidenceId = (value: unknown): string | null => prefixedUuid(value, "evidence-");
const inquiryId = (value: unknown): string | null => prefixedUuid(value, "inquiry-");
const sourceId = (value: unknown): string | null => prefixedUuid(value, "source-");

export interface EvidenceItem {
  readonly evidenceId: string;
  readonly kind: "source-claim" | "direct-observation" | "counterexample";
  readonly sourceId: string | null;
  readonly summary: string;
}

export interface HypothesisDraft {
  readonly inquiryId: string;
  readonly episodeId: string;
  readonly origin: "user" | "observer";
  readonly original: string;
  readonly current: string;
  readonly revisionReason: string | null;
  readonly evidenceIds: readonly string[];
}

export interface MemoDraft {
  readonly memoId: string;
  readonly episodeId: string;
  readonly title: string;
  readonly lang: "ko" | "en";
  readonly content: string;
  readonly inquiryIds: readonly string[];
  readonly hypothesisId: string | null;
  readonly evidenceIds: readonly string[];
  readonly reason: string;
}

export type HypothesisOutcome =
  | { readonly kind: "keep"; readonly inquiryId: string }
  | { readonly kind: "create"; readonly hypothesis: HypothesisDraft }
  | { readonly kind: "revise"; readonly inquiryId: string; readonly current: string; readonly revisionReason: string; readonly evidenceIds: readonly string[] };

export type MemoOutcome =
  | { readonly kind: "keep-incubating"; readonly memoId: string }
  | {
      readonly kind: "revise";
      readonly memoId: string;
      readonly revision: { readonly revisionId: string; readonly title: string; readonly content: string; readonly evidenceIds: readonly string[]; readonly reason: string };
      readonly disposition: "incubating" | "promotion-candidate";
    }
  | { readonly kind: "mark-promotion-candidate"; readonly memoId: string; readonly reason: string; readonly evidenceIds: readonly string[] }
  | { readonly kind: "merge"; readonly sourceIds: readonly string[]; readonly target: MemoDraft }
  | { readonly kind: "create"; readonly memo: MemoDraft };

export interface PreparedMemoPass {
  readonly passId: string;
  readonly episodeId: string;
  readonly baseRevisionId: string | null;
  readonly basisDigest: string;
  readonly relatedInquiryIds: readonly string[];
  readonly instructionId: string | null;
  readonly evidence: readonly EvidenceItem[];
  readonly hypothesisOutcomes: readonly HypothesisOutcome[];
  readonly memoOutcomes: readonly MemoOutcome[];
  /** SHA-256 of the normalised pass without its id. */
  readonly digest: string;
}

const sortedIds = (value: unknown, decode: (item: unknown) => string | null): string[] | null => distinctIds(value, decode, { limit: LIST_LIMIT, nonEmpty: false, sorted: true });
const longText = (value: unknown): string | null => trimmedText(value, TEXT_LIMIT);
const shortText = (value: unknown): string | null => trimmedText(value, SUMMARY_LIMIT);

function decodeEvidence(value: unknown): EvidenceItem | null {
  if (!isRecord(value) || !hasKeysExactly(value, ["evidence_id", "kind", "source_id", "summary"])) return null;
  const id = evidenceId(value.evidence_id);
  const source = value.source_id === null ? null : sourceId(value.source_id);
  const summary = shortText(value.summary);
  const kind = value.kind;
  if (id === null || (kind !== "source-claim" && kind !== "direct-observation" && kind !== "counterexample") || (value.source_id !== null && source === null) || summary === null) return null;
  return { evidenceId: id, kind, sourceId: source, summary };
}

function decodeHypothesisDraft(value: unknown): HypothesisDraft | null {
  if (!isRecord(value) || !hasKeysExactly(value, ["inquiry_id", "episode_id", "origin", "original", "current", "revision_reason", "evidence_ids"])) return null;
  const id = inquiryId(value.inquiry_id);
  const episodeId = trimmedText(value.episode_id, ID_LIMIT);
  const original = longText(value.original);
  const current = longText(value.current);
  const reason = value.revision_reason === null ? null : longText(value.revision_reason);
  const evidenceIds = sortedIds(value.evidence_ids, evidenceId);
  const origin = value.origin;
  if (id === null || episodeId === null || (origin !== "user" && origin !== "observer") || original === null || current === null || evidenceIds === null) return null;
  if (value.revision_reason !== null && reason === null) return null;
  // A reason exactly when the current wording differs from the original.
  if ((current === original) !== (reason === null)) return null;
  return { inquiryId: id, episodeId, origin, original, current, revisionReason: reason, evidenceIds };
}

function decodeMemoDraft(value: unknown): MemoDraft | null {
  if (!isRecord(value) || !hasKeysExactly(value, ["memo_id", "episode_id", "title", "lang", "content", "inquiry_ids", "hypothesis_id", "evidence_ids", "reason"])) return null;
  const id = memoId(value.memo_id);
  const episodeId = trimmedText(value.episode_id, ID_LIMIT);
  const title = shortText(value.title);
  const content = longText(value.content);
  const inquiryIds = sortedIds(value.inquiry_ids, inquiryId);
  const hypothesisId = value.hypothesis_id === null ? null : inquiryId(value.hypothesis_id);
  const evidenceIds = sortedIds(value.evidence_ids, evidenceId);
  const reason = shortText(value.reason);
  const lang = value.lang;
  if (id === null || episodeId === null || title === null || (lang !== "ko" && lang !== "en") || content === null || inquiryIds === null || evidenceIds === null || reason === null) return null;
  if (value.hypothesis_id !== null && hypothesisId === null) return null;
  return { memoId: id, episodeId, title, lang, content, inquiryIds, hypothesisId, evidenceIds, reason };
}

function decodeHypothesisOutcome(value: unknown): HypothesisOutcome | null {
  if (!isRecord(value)) return null;
  if (value.kind === "keep") {
    const id = inquiryId(value.inquiry_id);
    return hasKeysExactly(value, ["kind", "inquiry_id"]) && id !== null ? { kind: "keep", inquiryId: id } : null;
  }
  if (value.kind === "create") {
    const hypothesis = decodeHypothesisDraft(value.hypothesis);
    return hypothesis !== null && hasKeysExactly(value, ["kind", "hypothesis"]) ? { kind: "create", hypothesis } : null;
  }
  if (value.kind === "revise") {
    const id = inquiryId(value.inquiry_id);
    const current = longText(value.current);
    const reason = shortText(value.revision_reason);
    const evidenceIds = sortedIds(value.evidence_ids, evidenceId);
    if (!hasKeysExactly(value, ["kind", "inquiry_id", "current", "revision_reason", "evidence_ids"]) || id === null || current === null || reason === null || evidenceIds === null) return null;
    return { kind: "revise", inquiryId: id, current, revisionReason: reason, evidenceIds };
  }
  return null;
}

function decodeMemoOutcome(value: unknown): MemoOutcome | null {
  if (!isRecord(value)) return null;
  switch (value.kind) {
    case "keep-incubating": {
      const id = memoId(value.memo_id);
      return hasKeysExactly(value, ["kind", "memo_id"]) && id !== null ? { kind: "keep-incubating", memoId: id } : null;
    }
    case "revise": {
      const id = memoId(value.memo_id);
      const revision = value.revision;
      const disposition = value.disposition;
      if (!hasKeysExactly(value, ["kind", "memo_id", "revision", "disposition"]) || id === null || (disposition !== "incubating" && disposition !== "promotion-candidate")) return null;
      if (!isRecord(revision) || !hasKeysExactly(revision, ["revision_id", "title", "content", "evidence_ids", "reason"])) return null;
      const revisionId = prefixedUuid(revision.revision_id, "memo-revision-");
      const title = shortText(revision.title);
      const content = longText(revision.content);
      const evidenceIds = sortedIds(revision.evidence_ids, evidenceId);
      const reason = shortText(revision.reason);
      if (revisionId === null || title === null || content === null || evidenceIds === null || reason === null) return null;
      return { kind: "revise", memoId: id, revision: { revisionId, title, content, evidenceIds, reason }, disposition };
    }
    case "mark-promotion-candidate": {
      const id = memoId(value.memo_id);
      const reason = shortText(value.reason);
      const evidenceIds = sortedIds(value.evidence_ids, evidenceId);
      if (!hasKeysExactly(value, ["kind", "memo_id", "reason", "evidence_ids"]) || id === null || reason === null || evidenceIds === null) return null;
      return { kind: "mark-promotion-candidate", memoId: id, reason, evidenceIds };
    }
    case "merge": {
      const sourceIds = sortedIds(value.source_ids, memoId);
      const target = decodeMemoDraft(value.target);
      if (!hasKeysExactly(value, ["kind", "source_ids", "target"]) || sourceIds === null || sourceIds.length < 2 || target === null) return null;
      return { kind: "merge", sourceIds, target };
    }
    case "create": {
      const memo = decodeMemoDraft(value.memo);
      return memo !== null && hasKeysExactly(value, ["kind", "memo"]) ? { kind: "create", memo } : null;
    }
    default:
      return null;
  }
}

const decodeList = <Value>(value: unknown, decode: (item: unknown) => Value | null): Value[] | null => decodedList(value, decode, LIST_LIMIT);

export function hypothesisOutcomeKey(outcome: HypothesisOutcome): string {
  return outcome.kind === "create" ? `create:${outcome.hypothesis.inquiryId}` : `${outcome.kind}:${outcome.inquiryId}`;
}

export function memoOutcomeKey(outcome: MemoOutcome): string {
  switch (outcome.kind) {
    case "merge":
      return `merge:${outcome.target.memoId}`;
    case "create":
      return `create:${outcome.memo.memoId}`;
    default:
      return `${outcome.kind}:${outcome.memoId}`;
  }
}

function distinctKeys<Value>(values: readonly Value[], key: (value: Value) => string): boolean {
  return new Set(values.map(key)).size === values.length;
}

const PASS_KEYS = ["observer_memo_pass", "pass_id", "episode_id", "base_revision_id", "basis_digest", "related_inquiry_ids", "instruction_id", "evidence", "hypothesis_outcomes", "memo_outcomes"];

/** Decodes and normalises a prepared pass; null when anything is malformed or an identity repeats. */
export function decodePreparedMemoPass(value: unknown): PreparedMemoPass | null {
  if (!isRecord(value) || value.observer_memo_pass !== PREPARED_MEMO_PASS_PROTOCOL || !hasKeysExactly(value, PASS_KEYS)) return null;
  const passId = prefixedUuid(value.pass_id, "memo-pass-");
  const episodeId = trimmedText(value.episode_id, ID_LIMIT);
  const baseRevisionId = optionalTrimmedText(value.base_revision_id, ID_LIMIT);
  const relatedInquiryIds = sortedIds(value.related_inquiry_ids, inquiryId);
  const instructionId = optionalTrimmedText(value.instruction_id, ID_LIMIT);
  const evidence = decodeList(value.evidence, decodeEvidence);
  const hypotheses = decodeList(value.hypothesis_outcomes, decodeHypothesisOutcome);
  const memos = decodeList(value.memo_outcomes, decodeMemoOutcome);
  if (passId === null || episodeId === null || baseRevisionId === undefined || !isSha256Hex(value.basis_digest) || relatedInquiryIds === null || instructionId === undefined) return null;
  if (evidence === null || hypotheses === null || memos === null) return null;
  evidence.sort((left, right) => compareCodeUnits(left.evidenceId, right.evidenceId));
  hypotheses.sort((left, right) => compareCodeUnits(hypothesisOutcomeKey(left), hypothesisOutcomeKey(right)));
  memos.sort((left, right) => compareCodeUnits(memoOutcomeKey(left), memoOutcomeKey(right)));
  if (!distinctKeys(evidence, (item) => item.evidenceId) || !distinctKeys(hypotheses, hypothesisOutcomeKey) || !distinctKeys(memos, memoOutcomeKey)) return null;
  const body = {
    episodeId,
    baseRevisionId,
    basisDigest: value.basis_digest,
    relatedInquiryIds,
    instructionId,
    evidence,
    hypothesisOutcomes: hypotheses,
    memoOutcomes: memos,
  };
  return { passId, ...body, digest: sha256OfText(JSON.stringify(body)) };
}
