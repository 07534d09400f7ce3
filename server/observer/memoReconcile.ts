// Memo working state and one reconciliation step (design/observer.md §4.3). A pass applies
// all-or-nothing against the scope it was prepared for: the scope basis must still match the
// working state, every scoped hypothesis and Memo must be accounted for exactly once, changing
// outcomes must cite known evidence, created ids must be free, merges must keep their sources'
// links, and live Memos must stay semantically distinct. Replay re-executes each applied pass
// with the ids it recorded and requires the very receipt that was stored.
import { compareCodeUnits } from "../ledger/canonicalJson";
import type { EvidenceItem, HypothesisDraft, MemoDraft, PreparedMemoPass } from "./memoPass";
import { sha256OfText } from "./observerValues";

export interface WorkingMemo {
  readonly memoId: string;
  readonly episodeId: string;
  readonly title: string;
  readonly lang: string;
  readonly content: string;
  readonly inquiryIds: readonly string[];
  readonly hypothesisId: string | null;
  readonly evidenceIds: readonly string[];
  readonly currentRevisionId: string;
  readonly disposition: "incubating" | "promotion-candidate" | "superseded";
  readonly supersededBy: string | null;
  readonly durableBase: { readonly path: string; readonly sha256: string } | null;
}

/** A hypothesis as a Memo pass carries it, once applied. */
export type WorkingHypothesis = HypothesisDraft;

export interface MemoReceipt {
  readonly receiptId: string;
  readonly passId: string;
  readonly revisionId: string;
  readonly scope: { readonly episodeMemos: number; readonly standingInquiries: number; readonly durableMemos: number };
  readonly changes: {
    readonly created: number;
    readonly revised: number;
    readonly merged: number;
    readonly keptIncubating: number;
    readonly promotionCandidates: number;
    readonly hypothesisRevisions: number;
  };
  readonly summary: string;
}

export interface MemoWorkingState {
  readonly revisionId: string | null;
  readonly passes: number;
  readonly memos: readonly WorkingMemo[];
  readonly hypotheses: readonly WorkingHypothesis[];
  readonly evidence: readonly EvidenceItem[];
  readonly lastPassId: string | null;
  readonly lastPassDigest: string | null;
}

export interface MemoScope {
  readonly episodeId: string;
  readonly episodeLanguage: "ko" | "en";
  readonly relatedInquiryIds: readonly string[];
  readonly durableMemos: readonly WorkingMemo[];
  readonly durableHypotheses: readonly WorkingHypothesis[];
  readonly existingRecordIds: readonly string[];
  readonly sourceIds: readonly string[];
  readonly basisRecords: readonly { readonly recordId: string; readonly path: string; readonly sha256: string }[];
  readonly basisDigest: string;
}

export type ReconcileRefusal = "base" | "coverage" | "duplicate" | "evidence" | "hypothesis" | "identity" | "merge" | "scope";

export type Reconciled = { readonly ok: true; readonly state: MemoWorkingState; readonly receipt: MemoReceipt } | { readonly ok: false; readonly refusal: ReconcileRefusal };

export function emptyMemoState(): MemoWorkingState {
  return { revisionId: null, passes: 0, memos: [], hypotheses: [], evidence: [], lastPassId: null, lastPassDigest: null };
}

function distinctSorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareCodeUnits);
}

function strictlyAscending(values: readonly string[]): boolean {
  return values.every((value, index) => index === 0 || compareCodeUnits(values[index - 1] as string, value) < 0);
}

function isDistinctSorted(values: readonly string[]): boolean {
  const normal = distinctSorted(values);
  return normal.length === values.length && normal.every((value, index) => value === values[index]);
}

/** The scope basis digest: what the pass was prepared against (JSON text, fixed key order). */
function scopeBasisDigest(state: MemoWorkingState, scope: Omit<MemoScope, "basisDigest" | "episodeLanguage">): string {
  const pairOrder = (left: readonly string[], right: readonly string[]): number => compareCodeUnits(left[0] as string, right[0] as string);
  return sha256OfText(
    JSON.stringify({
      revisionId: state.revisionId,
      episodeId: scope.episodeId,
      relatedInquiryIds: scope.relatedInquiryIds,
      workingMemos: state.memos
        .filter((memo) => memo.episodeId === scope.episodeId && memo.disposition !== "superseded")
        .map((memo) => [memo.memoId, memo.currentRevisionId])
        .sort(pairOrder),
      durableMemos: scope.durableMemos.map((memo) => [memo.memoId, memo.durableBase?.sha256 ?? ""]),
      existingRecordIds: scope.existingRecordIds,
      sourceIds: scope.sourceIds,
      basisRecords: scope.basisRecords.map((record) => ({ recordId: record.recordId, path: record.path, sha256: record.sha256 })),
      hypotheses: [...state.hypotheses.filter((hypothesis) => hypothesis.episodeId === scope.episodeId), ...scope.durableHypotheses]
        .map((hypothesis) => [hypothesis.inquiryId, hypothesis.current])
        .sort(pairOrder),
    }),
  );
}

/** The recorded scope is normalised and its basis digest is the one this working state gives. */
export function scopeBasisMatches(state: MemoWorkingState, scope: MemoScope): boolean {
  if (!isDistinctSorted(scope.relatedInquiryIds) || !isDistinctSorted(scope.existingRecordIds) || !isDistinctSorted(scope.sourceIds)) return false;
  if (!strictlyAscending(scope.durableMemos.map((memo) => memo.memoId))) return false;
  if (!strictlyAscending(scope.durableHypotheses.map((hypothesis) => hypothesis.inquiryId))) return false;
  if (!strictlyAscending(scope.basisRecords.map((record) => record.recordId))) return false;
  return scope.basisDigest === scopeBasisDigest(state, scope);
}

/** Current values first, durable ones only where no current value has the id. */
function overlay<Value>(current: readonly Value[], durable: readonly Value[], id: (value: Value) => string): Map<string, Value> {
  const byId = new Map(current.map((value) => [id(value), value]));
  for (const value of durable) if (!byId.has(id(value))) byId.set(id(value), value);
  return byId;
}

function scopedHypothesisIds(state: MemoWorkingState, scope: MemoScope): string[] {
  return [...overlay(state.hypotheses, scope.durableHypotheses, (value) => value.inquiryId).values()]
    .filter((value) => value.episodeId === scope.episodeId && (scope.relatedInquiryIds.includes(value.inquiryId) || !scope.existingRecordIds.includes(value.inquiryId)))
    .map((value) => value.inquiryId);
}

function scopedMemoIds(state: MemoWorkingState, scope: MemoScope): string[] {
  return [...overlay(state.memos, scope.durableMemos, (value) => value.memoId).values()]
    .filter((value) => value.episodeId === scope.episodeId && value.disposition !== "superseded")
    .map((value) => value.memoId);
}

/** Whitespace-normalised title and content, sorted inquiries and the hypothesis: what makes two Memos the same. */
function semanticKey(memo: WorkingMemo): string {
  return JSON.stringify({
    title: memo.title.replace(/\s+/gu, " ").trim(),
    content: memo.content.replace(/\s+/gu, " ").trim(),
    inquiryIds: distinctSorted(memo.inquiryIds),
    hypothesisId: memo.hypothesisId,
  });
}

class Refused extends Error {
  constructor(readonly refusal: ReconcileRefusal) {
    super(refusal);
  }
}

function refuse(refusal: ReconcileRefusal): never {
  throw new Refused(refusal);
}

function sameEvidence(left: EvidenceItem, right: EvidenceItem): boolean {
  return left.evidenceId === right.evidenceId && left.kind === right.kind && left.sourceId === right.sourceId && left.summary === right.summary;
}

interface Changes {
  created: number;
  revised: number;
  merged: number;
  keptIncubating: number;
  promotionCandidates: number;
  hypothesisRevisions: number;
}

/** The Korean one-line receipt summary the reference writes (its exact text is part of the receipt). */
function receiptSummary(changes: Changes): string {
  return [
    `신규 ${changes.created}`,
    `수정 ${changes.revised}`,
    `병합 ${changes.merged}`,
    `incubating ${changes.keptIncubating}`,
    `승격 후보 ${changes.promotionCandidates}`,
    `가설 수정 ${changes.hypothesisRevisions}`,
  ].join(" · ");
}

/** Applies one pass with the revision and receipt ids it recorded. */
export function reconcileMemoPass(state: MemoWorkingState, scope: MemoScope, pass: PreparedMemoPass, ids: { readonly revisionId: string; readonly receiptId: string }): Reconciled {
  try {
    return { ok: true, ...apply(state, scope, pass, ids) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, refusal: error.refusal };
    throw error;
  }
}

function apply(state: MemoWorkingState, scope: MemoScope, pass: PreparedMemoPass, ids: { readonly revisionId: string; readonly receiptId: string }): { state: MemoWorkingState; receipt: MemoReceipt } {
  const related = pass.relatedInquiryIds;
  if (
    pass.episodeId !== scope.episodeId ||
    pass.baseRevisionId !== state.revisionId ||
    pass.basisDigest !== scope.basisDigest ||
    related.length !== scope.relatedInquiryIds.length ||
    related.some((id, index) => id !== scope.relatedInquiryIds[index])
  ) {
    refuse("base");
  }
  // Evidence: the pass's items join what the state knows; an id may not change meaning.
  const evidenceById = new Map(state.evidence.map((item) => [item.evidenceId, item]));
  for (const item of pass.evidence) {
    const earlier = evidenceById.get(item.evidenceId);
    if (earlier !== undefined && !sameEvidence(earlier, item)) refuse("evidence");
    if (item.kind === "source-claim" && item.sourceId === null) refuse("evidence");
    if (item.sourceId !== null && !scope.sourceIds.includes(item.sourceId)) refuse("evidence");
    evidenceById.set(item.evidenceId, item);
  }
  const known = new Set(evidenceById.keys());
  const onlyKnown = (evidence: readonly string[]): void => {
    if (evidence.some((id) => !known.has(id))) refuse("evidence");
  };
  const cited = (evidence: readonly string[]): void => {
    if (evidence.length === 0) refuse("evidence");
    onlyKnown(evidence);
  };
  const changes: Changes = { created: 0, revised: 0, merged: 0, keptIncubating: 0, promotionCandidates: 0, hypothesisRevisions: 0 };

  // Hypotheses: every scoped one exactly once (keep or revise); creations need a free id.
  const hypotheses = overlay(state.hypotheses, scope.durableHypotheses, (value) => value.inquiryId);
  const hypothesisCount = new Map(scopedHypothesisIds(state, scope).map((id) => [id, 0]));
  for (const outcome of pass.hypothesisOutcomes) {
    if (outcome.kind === "create") {
      const draft = outcome.hypothesis;
      if (hypotheses.has(draft.inquiryId) || scope.existingRecordIds.includes(draft.inquiryId) || draft.episodeId !== scope.episodeId) refuse("identity");
      if (draft.origin === "observer") cited(draft.evidenceIds);
      else onlyKnown(draft.evidenceIds);
      hypotheses.set(draft.inquiryId, draft);
      continue;
    }
    const current = hypotheses.get(outcome.inquiryId);
    const count = hypothesisCount.get(outcome.inquiryId);
    if (current === undefined || count === undefined) refuse("scope");
    hypothesisCount.set(outcome.inquiryId, count + 1);
    if (outcome.kind === "keep") continue;
    cited(outcome.evidenceIds);
    if (outcome.current === current.current) refuse("hypothesis");
    hypotheses.set(outcome.inquiryId, {
      ...current,
      current: outcome.current,
      revisionReason: outcome.revisionReason,
      evidenceIds: distinctSorted([...current.evidenceIds, ...outcome.evidenceIds]),
    });
    changes.hypothesisRevisions += 1;
  }
  if ([...hypothesisCount.values()].some((count) => count !== 1)) refuse("coverage");
  const nextHypotheses = [...hypotheses.values()].sort((left, right) => compareCodeUnits(left.inquiryId, right.inquiryId));

  // Memos: every scoped one targeted exactly once (keep, revise, mark, or as a merge source).
  const memos = overlay(state.memos, scope.durableMemos, (value) => value.memoId);
  const memoCount = new Map(scopedMemoIds(state, scope).map((id) => [id, 0]));
  for (const outcome of pass.memoOutcomes) {
    const targets = outcome.kind === "merge" ? outcome.sourceIds : outcome.kind === "create" ? [] : [outcome.memoId];
    for (const id of targets) {
      const count = memoCount.get(id);
      if (count === undefined) refuse("scope");
      memoCount.set(id, count + 1);
    }
  }
  if ([...memoCount.values()].some((count) => count !== 1)) refuse("coverage");
  const available = new Set(nextHypotheses.map((item) => item.inquiryId));
  const checkDraft = (draft: MemoDraft): void => {
    const hypothesisOk = draft.hypothesisId === null || (available.has(draft.hypothesisId) && draft.inquiryIds.includes(draft.hypothesisId));
    if (draft.episodeId !== scope.episodeId || draft.lang !== scope.episodeLanguage || draft.inquiryIds.some((id) => !available.has(id)) || !hypothesisOk) refuse("scope");
    cited(draft.evidenceIds);
  };
  const fromDraft = (draft: MemoDraft): WorkingMemo => ({
    memoId: draft.memoId,
    episodeId: draft.episodeId,
    title: draft.title,
    lang: draft.lang,
    content: draft.content,
    inquiryIds: draft.inquiryIds,
    hypothesisId: draft.hypothesisId,
    evidenceIds: draft.evidenceIds,
    currentRevisionId: ids.revisionId,
    disposition: "incubating",
    supersededBy: null,
    durableBase: null,
  });
  const existing = (id: string): WorkingMemo => memos.get(id) ?? refuse("scope");
  for (const outcome of pass.memoOutcomes) {
    switch (outcome.kind) {
      case "keep-incubating":
        memos.set(outcome.memoId, { ...existing(outcome.memoId), disposition: "incubating" });
        changes.keptIncubating += 1;
        break;
      case "revise": {
        const current = existing(outcome.memoId);
        if (outcome.revision.title === current.title && outcome.revision.content === current.content) refuse("duplicate");
        cited(outcome.revision.evidenceIds);
        memos.set(outcome.memoId, {
          ...current,
          title: outcome.revision.title,
          content: outcome.revision.content,
          evidenceIds: distinctSorted([...current.evidenceIds, ...outcome.revision.evidenceIds]),
          currentRevisionId: outcome.revision.revisionId,
          disposition: outcome.disposition,
        });
        changes.revised += 1;
        if (outcome.disposition === "promotion-candidate") changes.promotionCandidates += 1;
        break;
      }
      case "mark-promotion-candidate": {
        const current = existing(outcome.memoId);
        cited(outcome.evidenceIds);
        memos.set(outcome.memoId, {
          ...current,
          evidenceIds: distinctSorted([...current.evidenceIds, ...outcome.evidenceIds]),
          currentRevisionId: ids.revisionId,
          disposition: "promotion-candidate",
        });
        changes.promotionCandidates += 1;
        break;
      }
      case "create":
        checkDraft(outcome.memo);
        if (memos.has(outcome.memo.memoId) || scope.existingRecordIds.includes(outcome.memo.memoId)) refuse("identity");
        memos.set(outcome.memo.memoId, fromDraft(outcome.memo));
        changes.created += 1;
        break;
      case "merge": {
        const target = outcome.target;
        checkDraft(target);
        if (memos.has(target.memoId) || scope.existingRecordIds.includes(target.memoId)) refuse("identity");
        const sources = outcome.sourceIds.map((id) => memos.get(id));
        if (sources.some((source) => source === undefined)) refuse("merge");
        const present = sources as WorkingMemo[];
        const keptInquiries = new Set(target.inquiryIds);
        const keptEvidence = new Set(target.evidenceIds);
        if (present.some((source) => source.inquiryIds.some((id) => !keptInquiries.has(id)) || source.evidenceIds.some((id) => !keptEvidence.has(id)))) refuse("merge");
        for (const source of present) memos.set(source.memoId, { ...source, currentRevisionId: ids.revisionId, disposition: "superseded", supersededBy: target.memoId });
        memos.set(target.memoId, fromDraft(target));
        changes.merged += 1;
        break;
      }
    }
  }
  const nextMemos = [...memos.values()].sort((left, right) => compareCodeUnits(left.memoId, right.memoId));
  const liveKeys = nextMemos.filter((memo) => memo.disposition !== "superseded").map(semanticKey);
  if (new Set(liveKeys).size !== liveKeys.length) refuse("duplicate");

  const nextEvidence = [...overlay(state.evidence, pass.evidence, (item) => item.evidenceId).values()].sort((left, right) => compareCodeUnits(left.evidenceId, right.evidenceId));
  const receipt: MemoReceipt = {
    receiptId: ids.receiptId,
    passId: pass.passId,
    revisionId: ids.revisionId,
    scope: {
      episodeMemos: nextMemos.filter((memo) => memo.episodeId === scope.episodeId && memo.durableBase === null).length,
      standingInquiries: scope.relatedInquiryIds.length,
      durableMemos: scope.durableMemos.length,
    },
    changes: { ...changes },
    summary: receiptSummary(changes),
  };
  return {
    state: {
      revisionId: ids.revisionId,
      passes: state.passes + 1,
      memos: nextMemos,
      hypotheses: nextHypotheses,
      evidence: nextEvidence,
      lastPassId: pass.passId,
      lastPassDigest: pass.digest,
    },
    receipt,
  };
}
