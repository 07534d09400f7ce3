// Memo history replay (`observer.prepared-memo-pass` and `observer.memo-pass` entries, plus the
// lifecycle's `memo-reconciled` acknowledgements): which pass is prepared, which applied pass
// awaits acknowledgement, which passes were acknowledged (and for which Memo request, through
// the pass's `instruction_id`), and the Memo working revision. Incremental, so observation replay
// can ask for the revision just before any entry. Its own problems are counted, not reported:
// observation replay only reads its state (docs/observer-replay.md "Memo entries").
import { compareCodeUnits } from "../ledger/canonicalJson";
import { decodeLifecycleEvent, emptyLifecycle, stepLifecycle, type LifecycleState } from "./observerLifecycle";
import { decodePreparedMemoPass, evidenceId, memoId, type PreparedMemoPass } from "./memoPass";
import { emptyMemoState, reconcileMemoPass, scopeBasisMatches, type MemoReceipt, type MemoScope, type MemoWorkingState, type WorkingHypothesis, type WorkingMemo } from "./memoReconcile";
import { decodedList, distinctIds, hasKeysExactly, isRecord, isSha256Hex, prefixedUuid, trimmedText } from "./observerValues";

export const PREPARED_MEMO_ENTRY = "observer.prepared-memo-pass";
export const APPLIED_MEMO_ENTRY = "observer.memo-pass";
export const APPLIED_MEMO_PROTOCOL = "observer.memo-pass/v1";
export const MEMO_SCOPE_PROTOCOL = "observer.memo-scope/v1";

const LIST_LIMIT = 1_000;
const inquiryId = (value: unknown): string | null => prefixedUuid(value, "inquiry-");
const sourceId = (value: unknown): string | null => prefixedUuid(value, "source-");
const recordId = (value: unknown): string | null => memoId(value) ?? inquiryId(value) ?? sourceId(value) ?? prefixedUuid(value, "zettel-");
const sortedIds = (value: unknown, decode: (item: unknown) => string | null): string[] | null => distinctIds(value, decode, { limit: LIST_LIMIT, nonEmpty: false, sorted: true });

export interface AcknowledgedPass {
  readonly passId: string;
  readonly instructionId: string | null;
  readonly revisionId: string;
  readonly receiptId: string;
}

export interface PendingAcknowledgement extends AcknowledgedPass {
  readonly summary: string;
}

const list = <Value>(value: unknown, decode: (item: unknown) => Value | null): Value[] | null => decodedList(value, decode, LIST_LIMIT);

function decodeWorkingMemo(value: unknown): WorkingMemo | null {
  const keys = ["memo_id", "episode_id", "title", "lang", "content", "inquiry_ids", "hypothesis_id", "evidence_ids", "current_revision_id", "disposition", "superseded_by", "durable_base"];
  if (!isRecord(value) || !hasKeysExactly(value, keys)) return null;
  const id = memoId(value.memo_id);
  const episodeId = trimmedText(value.episode_id, 300);
  const title = trimmedText(value.title, 4_000);
  const lang = trimmedText(value.lang, 100);
  const content = trimmedText(value.content, 20_000);
  const inquiryIds = sortedIds(value.inquiry_ids, inquiryId);
  const hypothesisId = value.hypothesis_id === null ? null : inquiryId(value.hypothesis_id);
  const evidenceIds = sortedIds(value.evidence_ids, evidenceId);
  const currentRevisionId = trimmedText(value.current_revision_id, 300);
  const supersededBy = value.superseded_by === null ? null : memoId(value.superseded_by);
  const disposition = value.disposition;
  let durableBase: WorkingMemo["durableBase"] | undefined;
  if (value.durable_base === null) durableBase = null;
  else if (isRecord(value.durable_base) && hasKeysExactly(value.durable_base, ["path", "sha256"])) {
    const path = trimmedText(value.durable_base.path, 20_000);
    durableBase = path !== null && isSha256Hex(value.durable_base.sha256) ? { path, sha256: value.durable_base.sha256 } : undefined;
  }
  if (id === null || episodeId === null || title === null || lang === null || content === null || inquiryIds === null || evidenceIds === null || currentRevisionId === null) return null;
  if ((value.hypothesis_id !== null && hypothesisId === null) || (value.superseded_by !== null && supersededBy === null) || durableBase === undefined) return null;
  if (disposition !== "incubating" && disposition !== "promotion-candidate" && disposition !== "superseded") return null;
  if ((disposition === "superseded") !== (supersededBy !== null)) return null;
  return { memoId: id, episodeId, title, lang, content, inquiryIds, hypothesisId, evidenceIds, currentRevisionId, disposition, supersededBy, durableBase };
}

function decodeWorkingHypothesis(value: unknown): WorkingHypothesis | null {
  if (!isRecord(value) || !hasKeysExactly(value, ["inquiry_id", "episode_id", "origin", "original", "current", "revision_reason", "evidence_ids"])) return null;
  const id = inquiryId(value.inquiry_id);
  const episodeId = trimmedText(value.episode_id, 300);
  const original = trimmedText(value.original, 20_000);
  const current = trimmedText(value.current, 20_000);
  const reason = value.revision_reason === null ? null : trimmedText(value.revision_reason, 4_000);
  const evidenceIds = sortedIds(value.evidence_ids, evidenceId);
  const origin = value.origin;
  if (id === null || episodeId === null || (origin !== "user" && origin !== "observer") || original === null || current === null || evidenceIds === null) return null;
  if (value.revision_reason !== null && reason === null) return null;
  // A changed wording must say why (an unchanged one may still carry a reason here).
  if (current !== original && reason === null) return null;
  return { inquiryId: id, episodeId, origin, original, current, revisionReason: reason, evidenceIds };
}

function decodeScope(value: unknown): MemoScope | null {
  const keys = ["observer_memo_scope", "episode_id", "episode_language", "related_inquiry_ids", "durable_memos", "durable_hypotheses", "existing_record_ids", "source_ids", "basis_records", "basis_digest"];
  if (!isRecord(value) || value.observer_memo_scope !== MEMO_SCOPE_PROTOCOL || !hasKeysExactly(value, keys)) return null;
  const episodeId = trimmedText(value.episode_id, 300);
  const language = value.episode_language;
  const relatedInquiryIds = sortedIds(value.related_inquiry_ids, inquiryId);
  const durableMemos = list(value.durable_memos, decodeWorkingMemo);
  const durableHypotheses = list(value.durable_hypotheses, decodeWorkingHypothesis);
  // Any bounded text first, then each must be a record id.
  const existingRecordIds = sortedIds(value.existing_record_ids, (item) => trimmedText(item, 300));
  const sourceIds = sortedIds(value.source_ids, sourceId);
  const basisRecords = list(value.basis_records, (item) => {
    if (!isRecord(item) || !hasKeysExactly(item, ["record_id", "path", "sha256"])) return null;
    const id = recordId(item.record_id);
    const path = trimmedText(item.path, 20_000);
    return id !== null && path !== null && isSha256Hex(item.sha256) ? { recordId: id, path, sha256: item.sha256 } : null;
  });
  if (episodeId === null || (language !== "ko" && language !== "en") || relatedInquiryIds === null || durableMemos === null || durableHypotheses === null) return null;
  if (existingRecordIds === null || existingRecordIds.some((id) => recordId(id) === null) || sourceIds === null || basisRecords === null || !isSha256Hex(value.basis_digest)) return null;
  if (durableMemos.some((memo) => memo.durableBase === null || memo.disposition !== "incubating" || memo.episodeId !== episodeId)) return null;
  if (durableHypotheses.some((hypothesis) => hypothesis.episodeId !== episodeId)) return null;
  return { episodeId, episodeLanguage: language, relatedInquiryIds, durableMemos, durableHypotheses, existingRecordIds, sourceIds, basisRecords, basisDigest: value.basis_digest };
}

function count(value: unknown): number | null {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

function decodeReceipt(value: unknown): MemoReceipt | null {
  if (!isRecord(value) || !hasKeysExactly(value, ["receipt_id", "pass_id", "revision_id", "scope", "changes", "summary"])) return null;
  const scope = value.scope;
  const changes = value.changes;
  if (!isRecord(scope) || !hasKeysExactly(scope, ["episode_memos", "standing_inquiries", "durable_memos"])) return null;
  if (!isRecord(changes) || !hasKeysExactly(changes, ["created", "revised", "merged", "kept_incubating", "promotion_candidates", "hypothesis_revisions"])) return null;
  const numbers = [scope.episode_memos, scope.standing_inquiries, scope.durable_memos, changes.created, changes.revised, changes.merged, changes.kept_incubating, changes.promotion_candidates, changes.hypothesis_revisions].map(count);
  if (numbers.some((item) => item === null)) return null;
  const [episodeMemos, standingInquiries, durableMemos, created, revised, merged, keptIncubating, promotionCandidates, hypothesisRevisions] = numbers as number[];
  const receiptId = prefixedUuid(value.receipt_id, "memo-receipt-");
  const passId = prefixedUuid(value.pass_id, "memo-pass-");
  const revisionId = prefixedUuid(value.revision_id, "memo-working-revision-");
  const summary = trimmedText(value.summary, 4_000);
  if (receiptId === null || passId === null || revisionId === null || summary === null) return null;
  return {
    receiptId,
    passId,
    revisionId,
    scope: { episodeMemos: episodeMemos as number, standingInquiries: standingInquiries as number, durableMemos: durableMemos as number },
    changes: {
      created: created as number,
      revised: revised as number,
      merged: merged as number,
      keptIncubating: keptIncubating as number,
      promotionCandidates: promotionCandidates as number,
      hypothesisRevisions: hypothesisRevisions as number,
    },
    summary,
  };
}

function sameReceipt(left: MemoReceipt, right: MemoReceipt): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

/** JSON text with object keys in code-unit order: equal for equal content whatever the key order. */
function keyOrderFree(value: unknown): string {
  const normal = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(normal);
    if (!isRecord(item)) return item;
    return Object.fromEntries(
      Object.keys(item)
        .sort(compareCodeUnits)
        .map((key) => [key, normal(item[key])]),
    );
  };
  return JSON.stringify(normal(value));
}

type Applied = { readonly ok: true; readonly pass: PreparedMemoPass; readonly state: MemoWorkingState; readonly receipt: MemoReceipt } | { readonly ok: false };

/** Decodes an applied entry (its pass already decoded, as `pass`) and re-executes the pass against the current state. */
function replayApplied(data: Readonly<Record<string, unknown>>, pass: PreparedMemoPass, state: MemoWorkingState): Applied {
  if (data.observer_memo_event !== APPLIED_MEMO_PROTOCOL || data.kind !== "applied" || !hasKeysExactly(data, ["observer_memo_event", "kind", "pass", "scope", "next_revision_id", "receipt"])) return { ok: false };
  const scope = decodeScope(data.scope);
  const nextRevisionId = prefixedUuid(data.next_revision_id, "memo-working-revision-");
  const receipt = decodeReceipt(data.receipt);
  if (scope === null || nextRevisionId === null || receipt === null) return { ok: false };
  if (!scopeBasisMatches(state, scope)) return { ok: false };
  const replayed = reconcileMemoPass(state, scope, pass, { revisionId: nextRevisionId, receiptId: receipt.receiptId });
  if (!replayed.ok) return { ok: false };
  if (nextRevisionId !== receipt.revisionId || pass.passId !== receipt.passId || !sameReceipt(replayed.receipt, receipt)) return { ok: false };
  return { ok: true, pass, state: replayed.state, receipt };
}

/** Incremental Memo history: feed every entry in order; read the state between entries. */
export class MemoHistoryReplay {
  private stateValue: MemoWorkingState = emptyMemoState();
  private lifecycle: LifecycleState = emptyLifecycle();
  private prepared: PreparedMemoPass | null = null;
  private lastReceiptValue: MemoReceipt | null = null;
  private pending: PendingAcknowledgement | null = null;
  private readonly acknowledged: AcknowledgedPass[] = [];
  /** Each applied pass's entry data, by pass id; its key-order-free text is only needed when the id comes again. */
  private readonly appliedData = new Map<string, Readonly<Record<string, unknown>>>();
  private problemCount = 0;

  /** The Memo working revision after the entries fed so far (null before any applied pass). */
  get revisionId(): string | null {
    return this.stateValue.revisionId;
  }

  /** The Memo working state after the entries fed so far. */
  get state(): MemoWorkingState {
    return this.stateValue;
  }

  /** The receipt of the last applied pass (the reference keeps it in its working state). */
  get lastReceipt(): MemoReceipt | null {
    return this.lastReceiptValue;
  }

  /** The prepared pass not yet applied, if any. */
  get preparedPass(): PreparedMemoPass | null {
    return this.prepared;
  }

  /** The applied pass whose `memo-reconciled` has not been seen yet, if any. */
  get pendingAcknowledgement(): PendingAcknowledgement | null {
    return this.pending;
  }

  get acknowledgedPasses(): readonly AcknowledgedPass[] {
    return this.acknowledged;
  }

  get problems(): number {
    return this.problemCount;
  }

  apply(entry: { readonly customType: string; readonly data: unknown }): void {
    if (entry.customType === "observer.lifecycle") this.applyLifecycle(entry.data);
    else if (entry.customType === PREPARED_MEMO_ENTRY) this.applyPrepared(entry.data);
    else if (entry.customType === APPLIED_MEMO_ENTRY) this.applyApplied(entry.data);
  }

  private applyLifecycle(data: unknown): void {
    const event = decodeLifecycleEvent(data);
    if (event === null) {
      this.problemCount += 1;
      return;
    }
    const pending = this.pending;
    if (event.kind === "memo-reconciled") {
      // Only the acknowledgement of the applied pass, word for word, counts.
      if (pending === null || event.revisionId !== pending.revisionId || event.receiptId !== pending.receiptId || event.summary !== pending.summary) {
        this.problemCount += 1;
        return;
      }
    }
    const step = stepLifecycle(this.lifecycle, event);
    if (!step.ok) {
      this.problemCount += 1;
      return;
    }
    this.lifecycle = step.state;
    if (event.kind === "memo-reconciled" && pending !== null) {
      this.acknowledged.push({ passId: pending.passId, instructionId: pending.instructionId, revisionId: pending.revisionId, receiptId: pending.receiptId });
      this.pending = null;
    }
  }

  private applyPrepared(data: unknown): void {
    const pass = decodePreparedMemoPass(data);
    if (pass === null) {
      this.problemCount += 1;
      return;
    }
    // Re-posting the pass that was just applied changes nothing.
    if (this.stateValue.lastPassId === pass.passId && this.stateValue.lastPassDigest === pass.digest) return;
    const episode = this.lifecycle.episode;
    if (this.pending !== null || episode.status !== "open" || pass.episodeId !== episode.core.episodeId || pass.baseRevisionId !== this.stateValue.revisionId) {
      this.problemCount += 1;
      return;
    }
    if (this.prepared !== null) {
      if (this.prepared.passId !== pass.passId || this.prepared.digest !== pass.digest) this.problemCount += 1;
      return;
    }
    this.prepared = pass;
  }

  private applyApplied(data: unknown): void {
    const identity = isRecord(data) ? decodePreparedMemoPass(data.pass) : null;
    if (identity === null || !isRecord(data)) {
      this.problemCount += 1;
      return;
    }
    const earlier = this.appliedData.get(identity.passId);
    if (earlier !== undefined) {
      if (keyOrderFree(earlier) !== keyOrderFree(data)) this.problemCount += 1;
      return;
    }
    if (this.prepared === null || this.prepared.passId !== identity.passId || this.prepared.digest !== identity.digest) {
      this.problemCount += 1;
      return;
    }
    const applied = replayApplied(data, identity, this.stateValue);
    if (!applied.ok) {
      this.problemCount += 1;
      return;
    }
    this.stateValue = applied.state;
    this.lastReceiptValue = applied.receipt;
    this.prepared = null;
    this.pending = {
      passId: applied.pass.passId,
      instructionId: applied.pass.instructionId,
      revisionId: applied.receipt.revisionId,
      receiptId: applied.receipt.receiptId,
      summary: applied.receipt.summary,
    };
    this.appliedData.set(identity.passId, data);
  }
}
