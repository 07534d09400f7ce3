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

/** Whitespace-normalised title and content, sorted inquiries and the hypothesis: what makes two Memos the same. */
function semanticKey(memo: WorkingMemo): string {
  return JSON.stringify({
    title: memo.title.replace(/\s+/gu, " ").trim(),
    content: memo.content.replace(/\s+/gu, " ").trim(),
    inquiryIds: distinctSorted(memo.inquiryIds),
    hypothesisId: memo.hypothesisId,
  });
}

/**
 * What reconciliation looks up in a working state, kept beside the state so that a pass costs
 * what it touches rather than a scan and sort of every Episode's Memos and hypotheses. Values by
 * id follow a Map built from the state's arrays (a later duplicate id wins); each Episode's values
 * stay in state order (duplicates included) for the scope basis; the sorted views hold the Map's
 * values by id. States are immutable, so an index never goes stale: a successful pass moves the
 * index of its base state on to the state it makes, updated by what the pass changed.
 */
interface StateIndex {
  /** Every array of the state strictly ascending by id: what reconciliation itself produces. */
  readonly normal: boolean;
  readonly hypothesisById: Map<string, WorkingHypothesis>;
  readonly memoById: Map<string, WorkingMemo>;
  readonly evidenceById: Map<string, EvidenceItem>;
  readonly hypothesesByEpisode: Map<string, WorkingHypothesis[]>;
  readonly memosByEpisode: Map<string, WorkingMemo[]>;
  sortedHypotheses: readonly WorkingHypothesis[];
  sortedMemos: readonly WorkingMemo[];
  sortedEvidence: readonly EvidenceItem[];
  /** The semantic key of each live Memo, by id, and how many live Memos share each key. */
  readonly liveKeyOf: Map<string, string>;
  readonly liveKeyCount: Map<string, number>;
  /** How many keys more than one live Memo has. */
  repeatedKeys: number;
}

const indexes = new WeakMap<MemoWorkingState, StateIndex>();

const hypothesisKey = (value: WorkingHypothesis): string => value.inquiryId;
const memoKey = (value: WorkingMemo): string => value.memoId;
const evidenceKey = (value: EvidenceItem): string => value.evidenceId;

function strictlyAscendingBy<Value>(values: readonly Value[], id: (value: Value) => string): boolean {
  for (let index = 1; index < values.length; index += 1) if (compareCodeUnits(id(values[index - 1] as Value), id(values[index] as Value)) >= 0) return false;
  return true;
}

function groupedByEpisode<Value extends { readonly episodeId: string }>(values: readonly Value[]): Map<string, Value[]> {
  const groups = new Map<string, Value[]>();
  for (const value of values) {
    const group = groups.get(value.episodeId);
    if (group === undefined) groups.set(value.episodeId, [value]);
    else group.push(value);
  }
  return groups;
}

function sortedValues<Value>(byId: ReadonlyMap<string, Value>, id: (value: Value) => string): Value[] {
  return [...byId.values()].sort((left, right) => compareCodeUnits(id(left), id(right)));
}

function indexOf(state: MemoWorkingState): StateIndex {
  const known = indexes.get(state);
  if (known !== undefined) return known;
  const normal = strictlyAscendingBy(state.hypotheses, hypothesisKey) && strictlyAscendingBy(state.memos, memoKey) && strictlyAscendingBy(state.evidence, evidenceKey);
  const hypothesisById = new Map(state.hypotheses.map((value) => [value.inquiryId, value]));
  const memoById = new Map(state.memos.map((value) => [value.memoId, value]));
  const evidenceById = new Map(state.evidence.map((value) => [value.evidenceId, value]));
  const liveKeyOf = new Map<string, string>();
  const liveKeyCount = new Map<string, number>();
  for (const memo of memoById.values()) {
    if (memo.disposition === "superseded") continue;
    const key = semanticKey(memo);
    liveKeyOf.set(memo.memoId, key);
    liveKeyCount.set(key, (liveKeyCount.get(key) ?? 0) + 1);
  }
  const index: StateIndex = {
    normal,
    hypothesisById,
    memoById,
    evidenceById,
    hypothesesByEpisode: groupedByEpisode(state.hypotheses),
    memosByEpisode: groupedByEpisode(state.memos),
    sortedHypotheses: normal ? state.hypotheses : sortedValues(hypothesisById, hypothesisKey),
    sortedMemos: normal ? state.memos : sortedValues(memoById, memoKey),
    sortedEvidence: normal ? state.evidence : sortedValues(evidenceById, evidenceKey),
    liveKeyOf,
    liveKeyCount,
    repeatedKeys: [...liveKeyCount.values()].filter((count) => count > 1).length,
  };
  indexes.set(state, index);
  return index;
}

/** The values of an Episode's group that a Map built from the state keeps, each once. */
function survivors<Value>(group: readonly Value[] | undefined, byId: ReadonlyMap<string, Value>, id: (value: Value) => string, normal: boolean): readonly Value[] {
  if (group === undefined) return [];
  if (normal) return group;
  const seen = new Set<string>();
  return group.filter((value) => {
    const key = id(value);
    if (byId.get(key) !== value || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The scope basis digest: what the pass was prepared against (JSON text, fixed key order). */
function scopeBasisDigest(state: MemoWorkingState, scope: Omit<MemoScope, "basisDigest" | "episodeLanguage">): string {
  const pairOrder = (left: readonly string[], right: readonly string[]): number => compareCodeUnits(left[0] as string, right[0] as string);
  const index = indexOf(state);
  return sha256OfText(
    JSON.stringify({
      revisionId: state.revisionId,
      episodeId: scope.episodeId,
      relatedInquiryIds: scope.relatedInquiryIds,
      workingMemos: (index.memosByEpisode.get(scope.episodeId) ?? [])
        .filter((memo) => memo.disposition !== "superseded")
        .map((memo) => [memo.memoId, memo.currentRevisionId])
        .sort(pairOrder),
      durableMemos: scope.durableMemos.map((memo) => [memo.memoId, memo.durableBase?.sha256 ?? ""]),
      existingRecordIds: scope.existingRecordIds,
      sourceIds: scope.sourceIds,
      basisRecords: scope.basisRecords.map((record) => ({ recordId: record.recordId, path: record.path, sha256: record.sha256 })),
      hypotheses: [...(index.hypothesesByEpisode.get(scope.episodeId) ?? []), ...scope.durableHypotheses]
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

/** A state's values by id as a pass sees them: the base state's, under what the scope adds and the pass sets. */
class Overlay<Value> {
  readonly changed = new Map<string, Value>();

  constructor(private readonly base: ReadonlyMap<string, Value>) {}

  get(id: string): Value | undefined {
    return this.changed.get(id) ?? this.base.get(id);
  }

  has(id: string): boolean {
    return this.changed.has(id) || this.base.has(id);
  }

  set(id: string, value: Value): void {
    this.changed.set(id, value);
  }

  /** Only where no value has the id yet (a current value wins over a durable one). */
  add(id: string, value: Value): void {
    if (!this.has(id)) this.changed.set(id, value);
  }
}

/**
 * The base's sorted values with the changed ones put in: replaced where the id exists, inserted in
 * id order where it is new. A pass changes a handful of values, so the base is copied whole and
 * only those positions are touched (binary search), never compared one by one.
 */
function mergedSorted<Value>(sorted: readonly Value[], base: ReadonlyMap<string, Value>, changed: ReadonlyMap<string, Value>, id: (value: Value) => string): Value[] {
  const result = sorted.slice();
  const added: Value[] = [];
  for (const [key, value] of changed) {
    if (base.has(key)) result[positionIn(sorted, key, id)] = value;
    else added.push(value);
  }
  // From the highest id down, so each insertion leaves the positions still to come in place.
  added.sort((left, right) => compareCodeUnits(id(right), id(left)));
  for (const value of added) result.splice(positionIn(sorted, id(value), id), 0, value);
  return result;
}

/** Where `id` is, or would go, in a group strictly ascending by id. */
function positionIn<Value>(group: readonly Value[], key: string, id: (value: Value) => string): number {
  let low = 0;
  let high = group.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareCodeUnits(id(group[middle] as Value), key) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Puts a changed value in its Episode's group (of a normal state's index), replacing the value it changes. */
function regroup<Value extends { readonly episodeId: string }>(groups: Map<string, Value[]>, before: Value | undefined, after: Value, id: (value: Value) => string): void {
  const key = id(after);
  if (before !== undefined) {
    const group = groups.get(before.episodeId) as Value[];
    const at = positionIn(group, key, id);
    if (before.episodeId === after.episodeId) {
      group[at] = after;
      return;
    }
    group.splice(at, 1);
  }
  const group = groups.get(after.episodeId);
  if (group === undefined) groups.set(after.episodeId, [after]);
  else group.splice(positionIn(group, key, id), 0, after);
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
  const index = indexOf(state);
  const episodeId = scope.episodeId;
  const existingRecordIds = new Set(scope.existingRecordIds);
  // Evidence: the pass's items join what the state knows; an id may not change meaning.
  const evidence = new Overlay(index.evidenceById);
  for (const item of pass.evidence) {
    const earlier = evidence.get(item.evidenceId);
    if (earlier !== undefined && !sameEvidence(earlier, item)) refuse("evidence");
    if (item.kind === "source-claim" && item.sourceId === null) refuse("evidence");
    if (item.sourceId !== null && !scope.sourceIds.includes(item.sourceId)) refuse("evidence");
    evidence.set(item.evidenceId, item);
  }
  const onlyKnown = (ids: readonly string[]): void => {
    if (ids.some((id) => !evidence.has(id))) refuse("evidence");
  };
  const cited = (ids: readonly string[]): void => {
    if (ids.length === 0) refuse("evidence");
    onlyKnown(ids);
  };
  const changes: Changes = { created: 0, revised: 0, merged: 0, keptIncubating: 0, promotionCandidates: 0, hypothesisRevisions: 0 };

  // Hypotheses: every scoped one exactly once (keep or revise); creations need a free id.
  const hypotheses = new Overlay(index.hypothesisById);
  for (const durable of scope.durableHypotheses) hypotheses.add(durable.inquiryId, durable);
  const relatedIds = new Set(scope.relatedInquiryIds);
  const scopedHypothesis = (value: WorkingHypothesis): boolean => value.episodeId === episodeId && (relatedIds.has(value.inquiryId) || !existingRecordIds.has(value.inquiryId));
  const hypothesisCount = new Map<string, number>();
  for (const value of survivors(index.hypothesesByEpisode.get(episodeId), index.hypothesisById, hypothesisKey, index.normal)) if (scopedHypothesis(value)) hypothesisCount.set(value.inquiryId, 0);
  for (const value of hypotheses.changed.values()) if (scopedHypothesis(value)) hypothesisCount.set(value.inquiryId, 0);
  for (const outcome of pass.hypothesisOutcomes) {
    if (outcome.kind === "create") {
      const draft = outcome.hypothesis;
      if (hypotheses.has(draft.inquiryId) || existingRecordIds.has(draft.inquiryId) || draft.episodeId !== episodeId) refuse("identity");
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
  for (const count of hypothesisCount.values()) if (count !== 1) refuse("coverage");

  // Memos: every scoped one targeted exactly once (keep, revise, mark, or as a merge source).
  const memos = new Overlay(index.memoById);
  for (const durable of scope.durableMemos) memos.add(durable.memoId, durable);
  const scopedMemo = (value: WorkingMemo): boolean => value.episodeId === episodeId && value.disposition !== "superseded";
  const memoCount = new Map<string, number>();
  for (const value of survivors(index.memosByEpisode.get(episodeId), index.memoById, memoKey, index.normal)) if (scopedMemo(value)) memoCount.set(value.memoId, 0);
  for (const value of memos.changed.values()) if (scopedMemo(value)) memoCount.set(value.memoId, 0);
  for (const outcome of pass.memoOutcomes) {
    const targets = outcome.kind === "merge" ? outcome.sourceIds : outcome.kind === "create" ? [] : [outcome.memoId];
    for (const id of targets) {
      const count = memoCount.get(id);
      if (count === undefined) refuse("scope");
      memoCount.set(id, count + 1);
    }
  }
  for (const count of memoCount.values()) if (count !== 1) refuse("coverage");
  const checkDraft = (draft: MemoDraft): void => {
    const hypothesisOk = draft.hypothesisId === null || (hypotheses.has(draft.hypothesisId) && draft.inquiryIds.includes(draft.hypothesisId));
    if (draft.episodeId !== episodeId || draft.lang !== scope.episodeLanguage || draft.inquiryIds.some((id) => !hypotheses.has(id)) || !hypothesisOk) refuse("scope");
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
        if (memos.has(outcome.memo.memoId) || existingRecordIds.has(outcome.memo.memoId)) refuse("identity");
        memos.set(outcome.memo.memoId, fromDraft(outcome.memo));
        changes.created += 1;
        break;
      case "merge": {
        const target = outcome.target;
        checkDraft(target);
        if (memos.has(target.memoId) || existingRecordIds.has(target.memoId)) refuse("identity");
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
  // Live Memos stay semantically distinct: only the keys of changed Memos can move.
  const keyCountAfter = new Map<string, number>();
  const keyCount = (key: string): number => keyCountAfter.get(key) ?? index.liveKeyCount.get(key) ?? 0;
  const keysAfter = new Map<string, string | null>();
  for (const [id, memo] of memos.changed) {
    const before = index.liveKeyOf.get(id);
    if (before !== undefined) keyCountAfter.set(before, keyCount(before) - 1);
    const key = memo.disposition === "superseded" ? null : semanticKey(memo);
    if (key !== null) keyCountAfter.set(key, keyCount(key) + 1);
    keysAfter.set(id, key);
  }
  let repeatedKeys = index.repeatedKeys;
  for (const [key, count] of keyCountAfter) {
    if ((index.liveKeyCount.get(key) ?? 0) > 1) repeatedKeys -= 1;
    if (count > 1) repeatedKeys += 1;
  }
  if (repeatedKeys > 0) refuse("duplicate");

  // The pass's evidence joins where the state has no item of that id (the first of an id wins).
  const evidenceAdded = new Map<string, EvidenceItem>();
  for (const item of pass.evidence) if (!index.evidenceById.has(item.evidenceId) && !evidenceAdded.has(item.evidenceId)) evidenceAdded.set(item.evidenceId, item);
  let episodeMemos = 0;
  for (const memo of survivors(index.memosByEpisode.get(episodeId), index.memoById, memoKey, index.normal)) {
    const now = memos.get(memo.memoId) as WorkingMemo;
    if (now.episodeId === episodeId && now.durableBase === null) episodeMemos += 1;
  }
  for (const [id, memo] of memos.changed) {
    if (index.memoById.get(id)?.episodeId === episodeId) continue;
    if (memo.episodeId === episodeId && memo.durableBase === null) episodeMemos += 1;
  }
  const receipt: MemoReceipt = {
    receiptId: ids.receiptId,
    passId: pass.passId,
    revisionId: ids.revisionId,
    scope: { episodeMemos, standingInquiries: scope.relatedInquiryIds.length, durableMemos: scope.durableMemos.length },
    changes: { ...changes },
    summary: receiptSummary(changes),
  };
  const next: MemoWorkingState = {
    revisionId: ids.revisionId,
    passes: state.passes + 1,
    memos: mergedSorted(index.sortedMemos, index.memoById, memos.changed, memoKey),
    hypotheses: mergedSorted(index.sortedHypotheses, index.hypothesisById, hypotheses.changed, hypothesisKey),
    evidence: mergedSorted(index.sortedEvidence, index.evidenceById, evidenceAdded, evidenceKey),
    lastPassId: pass.passId,
    lastPassDigest: pass.digest,
  };
  if (index.normal) {
    // The next state is the base plus these changes: its index is this one, updated.
    for (const [id, value] of hypotheses.changed) {
      regroup(index.hypothesesByEpisode, index.hypothesisById.get(id), value, hypothesisKey);
      index.hypothesisById.set(id, value);
    }
    for (const [id, value] of memos.changed) {
      regroup(index.memosByEpisode, index.memoById.get(id), value, memoKey);
      index.memoById.set(id, value);
      const before = index.liveKeyOf.get(id);
      if (before !== undefined) {
        const remaining = (index.liveKeyCount.get(before) ?? 0) - 1;
        if (remaining > 0) index.liveKeyCount.set(before, remaining);
        else index.liveKeyCount.delete(before);
        index.liveKeyOf.delete(id);
      }
      const key = keysAfter.get(id) ?? null;
      if (key !== null) {
        index.liveKeyOf.set(id, key);
        index.liveKeyCount.set(key, (index.liveKeyCount.get(key) ?? 0) + 1);
      }
    }
    for (const [id, item] of evidenceAdded) index.evidenceById.set(id, item);
    index.sortedHypotheses = next.hypotheses;
    index.sortedMemos = next.memos;
    index.sortedEvidence = next.evidence;
    index.repeatedKeys = repeatedKeys;
    indexes.delete(state);
    indexes.set(next, index);
  }
  return { state: next, receipt };
}
