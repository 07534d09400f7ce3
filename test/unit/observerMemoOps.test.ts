// Memo operations (server/observer/memoOperations.ts): a Memo request over every observation not
// yet requested, reconciliation of that request with a model submission (instruction, prepared
// pass, applied pass, acknowledgement) and every refusal. Each successful batch is replayed after
// the history it was computed from: no issue, the request consumed, the lifecycle's last Memo set.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { acknowledgeMemoPass, loadMemoContext, memoContextBasis, passIdForRequest, reconcileMemo, requestMemo, requestReviewSaveContinuation, MEMO_INSTRUCTION_ENTRY } from "../../server/observer/memoOperations";
import { hydrateMemoScope, memoHistoryView, type NotebookRecordFact } from "../../server/observer/memoScope";
import { MemoSubmissionSchema } from "../../server/observer/memoSubmission";
import { emptyMemoState, scopeBasisMatches } from "../../server/observer/memoReconcile";
import { asLogEntries, type DraftContext, type ObserverIds } from "../../server/observer/observerDrafts";
import { replayObservationSession, type ObserverLogEntry } from "../../server/observer/observationSession";
import { decodeContextBasis } from "../../server/observer/contextBasis";
import { sha256 as judgmentSha256, canonicalJson, jsonValueFromUnknown } from "../../server/judgment/json";
import {
  EPISODE,
  candidatePayload,
  hydrationPayload,
  id,
  modeOn,
  observation,
  opened,
  reviewPayload,
  semanticPayload,
  sha,
  sourceReadPayload,
  toolOrigin,
  userHypothesisPayload,
  userOrigin,
  type HostEntry,
  type HydrationSpec,
  type ReadSpec,
} from "../support/observerLog";

const USER_CANDIDATE = id("candidate-", 201);
const USER_OBSERVATION = id("observation-", 2);
const HYPOTHESIS = id("inquiry-", 3);
const ORIGINAL = "Timing changes the re-entry cost.";
const NOW = "2026-08-01T12:00:00.000Z";
const [M1, M2, M3] = [id("memo-", 31), id("memo-", 32), id("memo-", 33)];
const evidenceId = (n: number): string => id("evidence-", n);
const sourceId = (n: number): string => id("source-", n);
const semanticId = (n: number): string => id("observation-", 100 + n);

function toLog(entries: readonly HostEntry[]): ObserverLogEntry[] {
  return entries.map((entry) => (entry.type === "custom" && entry.customType !== undefined ? { custom: true, customType: entry.customType, data: entry.data } : { custom: false }));
}

/** Ids drawn in order, from a fixed sequence: the same history gives the same entries. */
function fixedIds(start = 900): ObserverIds {
  let next = start;
  return { next: (prefix) => id(prefix, next++) };
}

const contextOf = (entries: readonly ObserverLogEntry[], start?: number): DraftContext => ({ entries, now: NOW, ids: fixedIds(start) });

function readSpec(n: number, indexInquiryIds: readonly string[] = []): ReadSpec {
  return {
    readId: id("source-read-", n),
    candidates: [{ id: id("candidate-", n), text: `tool output ${n}` }],
    sourceId: sourceId(n),
    summary: `Reading ${n} bounds the timing effect.`,
    claims: [{ text: `Claim ${n}.`, locator: null }],
    indexDigest: sha("standing-index"),
    indexInquiryIds: [...indexInquiryIds],
  };
}

/** A tool result read and interpreted (one semantic observation, optionally related through a hydration). */
function reading(n: number, related: readonly string[] = []): HostEntry[] {
  const spec = readSpec(n, related);
  const hydration: HydrationSpec | null = related.length === 0 ? null : { hydrationId: id("hydration-", n), readId: spec.readId, indexDigest: spec.indexDigest, inquiryIds: [...related], contextDigest: sha(`context ${n}`) };
  return [
    observation(candidatePayload({ id: id("candidate-", n), origin: toolOrigin(`call-${n}`), text: `tool output ${n}` })),
    observation(sourceReadPayload(spec)),
    ...(hydration === null ? [] : [observation(hydrationPayload(hydration))]),
    observation(semanticPayload({ observationId: semanticId(n), read: spec, hydration, stance: "refines", movement: "minor-refinement" })),
  ];
}

/** An open Episode with Observer on, a user hypothesis (reviewed) and one reading. */
function firstHistory(): ObserverLogEntry[] {
  return toLog([
    opened(),
    modeOn(),
    observation(candidatePayload({ id: USER_CANDIDATE, origin: userOrigin(), text: "my hypothesis" })),
    observation(userHypothesisPayload({ observationId: USER_OBSERVATION, candidateId: USER_CANDIDATE, inquiryId: HYPOTHESIS, original: ORIGINAL })),
    observation(reviewPayload(USER_OBSERVATION)),
    ...reading(1),
  ]);
}

const claim = (n: number) => ({ evidence_id: evidenceId(n), kind: "source-claim" as const, source_id: sourceId(n), summary: `Claim ${n}.` });
const memo = (memoId: string, title: string, evidence: readonly string[]) => ({
  memo_id: memoId,
  episode_id: EPISODE,
  title,
  lang: "en" as const,
  content: `${title}: what the readings show.`,
  inquiry_ids: [HYPOTHESIS],
  hypothesis_id: HYPOTHESIS,
  evidence_ids: [...evidence],
  reason: "From the readings.",
});
const integrated = (observationId: string, refs: { hypotheses?: string[]; memos?: string[]; evidence?: string[] }) => ({
  observation_id: observationId,
  decision: "integrated" as const,
  hypothesis_inquiry_ids: refs.hypotheses ?? [],
  memo_ids: refs.memos ?? [],
  evidence_ids: refs.evidence ?? [],
  rationale: "Folded into the working Memo.",
});

/** Round 1: the user's hypothesis becomes a working hypothesis; reading 1 creates M1. */
function firstSubmission() {
  return {
    evidence: [claim(1)],
    hypothesis_outcomes: [{ kind: "create" as const, hypothesis: { inquiry_id: HYPOTHESIS, episode_id: EPISODE, origin: "user" as const, original: ORIGINAL, current: ORIGINAL, revision_reason: null, evidence_ids: [] } }],
    memo_outcomes: [{ kind: "create" as const, memo: memo(M1, "Timing", [evidenceId(1)]) }],
    dispositions: [integrated(semanticId(1), { memos: [M1], evidence: [evidenceId(1)] }), integrated(USER_OBSERVATION, { hypotheses: [HYPOTHESIS] })],
  };
}

function requested(entries: readonly ObserverLogEntry[], start?: number): { entries: ObserverLogEntry[]; requestId: string } {
  const outcome = requestMemo(contextOf(entries, start));
  assert.ok(outcome.ok, outcome.ok ? "" : `${outcome.code}: ${outcome.message}`);
  assert.equal(outcome.value.status, "requested");
  assert.ok(outcome.value.status === "requested");
  return { entries: [...entries, ...asLogEntries(outcome.entries)], requestId: outcome.value.request.requestId };
}

function reconciled(entries: readonly ObserverLogEntry[], requestId: string, submission: unknown, notebook: readonly NotebookRecordFact[] = [], start?: number) {
  const outcome = reconcileMemo(contextOf(entries, start), { requestId, submission, notebook });
  assert.ok(outcome.ok, outcome.ok ? "" : `${outcome.code}: ${outcome.message}`);
  return { entries: [...entries, ...asLogEntries(outcome.entries)], outcome };
}

/** History after round 1: requested and reconciled. */
function afterFirstRound(): ObserverLogEntry[] {
  const { entries, requestId } = requested(firstHistory());
  return reconciled(entries, requestId, firstSubmission()).entries;
}

test("a Memo request lists every observation not yet requested, at the working revision, and is resumed until reconciled", () => {
  const history = firstHistory();
  const outcome = requestMemo(contextOf(history));
  assert.ok(outcome.ok && outcome.value.status === "requested");
  assert.equal(outcome.entries.length, 1);
  const request = outcome.value.request;
  assert.deepEqual(request.observationIds, [USER_OBSERVATION, semanticId(1)].sort());
  assert.equal(request.baseMemoRevisionId, null);
  assert.equal(request.requestId, id("memo-request-", 900));
  const after = replayObservationSession([...history, ...asLogEntries(outcome.entries)]);
  assert.deepEqual(after.issues, []);
  assert.equal(after.pendingMemoRequest?.requestId, request.requestId);
  // pure and deterministic: the same history and ids give the same entries
  assert.deepEqual(requestMemo(contextOf(history)), outcome);
  // the pending request is resumed, nothing is appended
  const resumed = requestMemo(contextOf([...history, ...asLogEntries(outcome.entries)], 950));
  assert.ok(resumed.ok && resumed.value.status === "resumed");
  assert.equal(resumed.entries.length, 0);
  // nothing unconsumed: nothing to request
  const none = requestMemo(contextOf(toLog([opened(), modeOn()])));
  assert.ok(none.ok && none.value.status === "none" && none.entries.length === 0);
});

test("the Memo context shows the model what to cover, what it may cite and the pass seed", () => {
  const { entries, requestId } = requested(firstHistory());
  const guide = loadMemoContext(contextOf(entries), { requestId, notebook: [] });
  assert.ok(guide.ok && guide.entries.length === 0);
  assert.deepEqual(guide.value.required_coverage, {
    hypotheses: [{ inquiryId: HYPOTHESIS, origin: "user", original: ORIGINAL, episodeId: EPISODE, current: ORIGINAL, revisionReason: null, evidenceIds: [] }],
    memos: [],
  });
  assert.deepEqual(guide.value.evidence_sources.map((source) => source.source_id), [sourceId(1)]);
  assert.deepEqual(guide.value.request.observation_ids, [USER_OBSERVATION, semanticId(1)].sort());
  assert.equal(guide.value.pass_seed.pass_id, passIdForRequest(requestId));
  const wrong = loadMemoContext(contextOf(entries), { requestId: id("memo-request-", 5), notebook: [] });
  assert.ok(!wrong.ok && wrong.code === "memo-trigger.scope");
});

test("a Memo request waits for the review of every user hypothesis and needs an open Episode", () => {
  const unreviewed = firstHistory().filter((entry) => !(entry.custom && (entry.data as { kind?: string }).kind === "hypothesis-context-reviewed"));
  const refused = requestMemo(contextOf(unreviewed));
  assert.ok(!refused.ok && refused.code === "observer.hypothesis-review-pending");
  const closed = requestMemo(contextOf([]));
  assert.ok(!closed.ok && closed.code === "memo-trigger.scope");
});

test("reconciling a request stages instruction, prepared pass, applied pass and acknowledgement; replay consumes the request", () => {
  const { entries, requestId } = requested(firstHistory());
  const { outcome, entries: after } = reconciled(entries, requestId, firstSubmission());
  assert.ok(outcome.ok);
  assert.deepEqual(
    outcome.entries.map((entry) => entry.customType),
    [MEMO_INSTRUCTION_ENTRY, "observer.prepared-memo-pass", "observer.memo-pass", "observer.lifecycle"],
  );
  const value = outcome.value;
  assert.equal(value.passId, passIdForRequest(requestId));
  assert.equal(value.passId, `memo-pass-${requestId.slice("memo-request-".length)}`);
  assert.equal(value.summary, "신규 1 · 수정 0 · 병합 0 · incubating 0 · 승격 후보 0 · 가설 수정 0");
  assert.deepEqual(value.receipt.scope, { episodeMemos: 1, standingInquiries: 0, durableMemos: 0 });
  const replayed = replayObservationSession(after);
  assert.deepEqual(replayed.issues, []);
  assert.deepEqual(replayed.consumedObservationIds, [USER_OBSERVATION, semanticId(1)].sort());
  assert.deepEqual(replayed.unconsumedObservationIds, []);
  assert.equal(replayed.pendingMemoRequest, null);
  const episode = replayed.lifecycle.episode;
  assert.ok(episode.status === "open");
  assert.deepEqual(episode.lastMemo, { revisionId: value.revisionId, receiptId: value.receipt.receiptId, summary: value.summary });
  const memoState = memoHistoryView(after);
  assert.equal(memoState.problems, 0);
  assert.deepEqual(
    memoState.state.memos.map((item) => [item.memoId, item.disposition]),
    [[M1, "incubating"]],
  );
  // the instruction binds the request, the normalised pass and a reconcile-memo-pass basis
  const instruction = outcome.entries[0]?.data as Record<string, unknown>;
  assert.deepEqual(Object.keys(instruction), ["observer_memo_instruction", "request_id", "request_digest", "pass", "dispositions", "context_basis", "digest"]);
  const { digest, ...payload } = instruction;
  assert.equal(digest, sha(JSON.stringify(payload)));
  assert.deepEqual(instruction.pass, outcome.entries[1]?.data);
  const basis = decodeContextBasis(instruction.context_basis);
  assert.ok(basis !== null);
  assert.equal(basis.questionId, "reconcile-memo-pass");
  assert.deepEqual(basis.selectedSourceIds, ["memo-pass-evidence", "memo-scope-evidence"]);
  assert.deepEqual(basis.coverage.missing, []);
  // nothing more to do: no pending acknowledgement, no new request
  const ack = acknowledgeMemoPass(contextOf(after));
  assert.ok(ack.ok && ack.value === null && ack.entries.length === 0);
  const next = requestMemo(contextOf(after));
  assert.ok(next.ok && next.value.status === "none");
});

test("later rounds revise, keep, merge and promote; every batch replays cleanly and the working state follows", () => {
  let history = afterFirstRound();
  // Round 2: revise the hypothesis, keep M1, create M2.
  history = [...history, ...toLog(reading(2))];
  let round = requested(history, 1000);
  const second = reconciled(round.entries, round.requestId, {
    evidence: [claim(2)],
    hypothesis_outcomes: [{ kind: "revise", inquiry_id: HYPOTHESIS, current: "Timing changes the re-entry cost, within bounds.", revision_reason: "Reading 2 bounds it.", evidence_ids: [evidenceId(2)] }],
    memo_outcomes: [
      { kind: "keep-incubating", memo_id: M1 },
      { kind: "create", memo: memo(M2, "Interruptions", [evidenceId(2)]) },
    ],
    dispositions: [integrated(semanticId(2), { hypotheses: [HYPOTHESIS], memos: [M2], evidence: [evidenceId(2)] })],
  }, [], 1100);
  assert.ok(second.outcome.ok);
  assert.equal(second.outcome.value.summary, "신규 1 · 수정 0 · 병합 0 · incubating 1 · 승격 후보 0 · 가설 수정 1");
  assert.deepEqual(replayObservationSession(second.entries).issues, []);
  // Round 3: merge M1 and M2 into M3, which keeps both Memos' links.
  history = [...second.entries, ...toLog(reading(3))];
  round = requested(history, 1200);
  const third = reconciled(round.entries, round.requestId, {
    evidence: [claim(3)],
    hypothesis_outcomes: [{ kind: "keep", inquiry_id: HYPOTHESIS }],
    memo_outcomes: [{ kind: "merge", source_ids: [M1, M2], target: memo(M3, "Timing and interruptions", [evidenceId(1), evidenceId(2), evidenceId(3)]) }],
    dispositions: [integrated(semanticId(3), { memos: [M3], evidence: [evidenceId(3)] })],
  }, [], 1300);
  assert.ok(third.outcome.ok);
  assert.equal(third.outcome.value.summary, "신규 0 · 수정 0 · 병합 1 · incubating 0 · 승격 후보 0 · 가설 수정 0");
  // Round 4: the model's revise-promotion-candidate is a revise with that disposition.
  history = [...third.entries, ...toLog(reading(4))];
  round = requested(history, 1400);
  const fourth = reconciled(round.entries, round.requestId, {
    evidence: [claim(4)],
    hypothesis_outcomes: [{ kind: "keep", inquiry_id: HYPOTHESIS }],
    memo_outcomes: [{ kind: "revise-promotion-candidate", memo_id: M3, revision: { revision_id: id("memo-revision-", 4), title: "Timing and interruptions", content: "Stable across four readings.", evidence_ids: [evidenceId(4)], reason: "Reading 4 confirms it." } }],
    dispositions: [{ observation_id: semanticId(4), decision: "kept", hypothesis_inquiry_ids: [], memo_ids: [], evidence_ids: [], rationale: "Already reflected." }],
  }, [], 1500);
  assert.ok(fourth.outcome.ok);
  assert.equal(fourth.outcome.value.summary, "신규 0 · 수정 1 · 병합 0 · incubating 0 · 승격 후보 1 · 가설 수정 0");
  const prepared = fourth.outcome.entries[1]?.data as { memo_outcomes: { kind: string; disposition: string }[] };
  assert.deepEqual(prepared.memo_outcomes.map((outcome) => [outcome.kind, outcome.disposition]), [["revise", "promotion-candidate"]]);
  const final = replayObservationSession(fourth.entries);
  assert.deepEqual(final.issues, []);
  assert.deepEqual(final.unconsumedObservationIds, []);
  const state = memoHistoryView(fourth.entries).state;
  assert.equal(state.passes, 4);
  assert.deepEqual(
    state.memos.map((item) => [item.memoId, item.disposition, item.supersededBy]),
    [
      [M1, "superseded", M3],
      [M2, "superseded", M3],
      [M3, "promotion-candidate", null],
    ],
  );
  assert.equal(state.hypotheses[0]?.current, "Timing changes the re-entry cost, within bounds.");
});

/** History with round 2's reading requested (M1 and the hypothesis in scope). */
function secondRequest(): { entries: ObserverLogEntry[]; requestId: string } {
  return requested([...afterFirstRound(), ...toLog(reading(2))], 1000);
}

function refusal(entries: readonly ObserverLogEntry[], requestId: string, submission: unknown, notebook: readonly NotebookRecordFact[] = []): { code: string; message: string } {
  const outcome = reconcileMemo(contextOf(entries, 1100), { requestId, submission, notebook });
  assert.ok(!outcome.ok, "the reconciliation should be refused");
  return { code: outcome.code, message: outcome.message };
}

const keepAll = {
  hypothesis_outcomes: [{ kind: "keep" as const, inquiry_id: HYPOTHESIS }],
  dispositions: [{ observation_id: semanticId(2), decision: "kept" as const, hypothesis_inquiry_ids: [], memo_ids: [], evidence_ids: [], rationale: "Nothing new." }],
};

test("every refusal is coded, names the item, and stages nothing", () => {
  const { entries, requestId } = secondRequest();
  // coverage: M1 is in scope and unaccounted for
  const coverage = refusal(entries, requestId, { ...keepAll, evidence: [], memo_outcomes: [] });
  assert.equal(coverage.code, "memo-reconcile.coverage");
  assert.match(coverage.message, new RegExp(M1));
  // coverage: the hypothesis twice is a duplicate identity of the pass
  const twice = refusal(entries, requestId, { ...keepAll, hypothesis_outcomes: [keepAll.hypothesis_outcomes[0], keepAll.hypothesis_outcomes[0]], evidence: [], memo_outcomes: [{ kind: "keep-incubating", memo_id: M1 }] });
  assert.equal(twice.code, "memo-profile.duplicate");
  // evidence: a citation nobody defines
  const unknown = refusal(entries, requestId, { ...keepAll, evidence: [], memo_outcomes: [{ kind: "keep-incubating", memo_id: M1 }, { kind: "create", memo: memo(M2, "Interruptions", [evidenceId(77)]) }] });
  assert.equal(unknown.code, "memo-reconcile.evidence");
  assert.match(unknown.message, new RegExp(evidenceId(77)));
  // identity: a created Memo reuses M1's id
  const reused = refusal(entries, requestId, { ...keepAll, evidence: [claim(2)], memo_outcomes: [{ kind: "keep-incubating", memo_id: M1 }, { kind: "create", memo: memo(M1, "Another", [evidenceId(2)]) }] });
  assert.equal(reused.code, "memo-reconcile.identity");
  assert.match(reused.message, new RegExp(M1));
  // duplicate: a new Memo identical in meaning to M1
  const duplicate = refusal(entries, requestId, { ...keepAll, evidence: [claim(2)], memo_outcomes: [{ kind: "keep-incubating", memo_id: M1 }, { kind: "create", memo: memo(M2, "Timing", [evidenceId(2)]) }] });
  assert.equal(duplicate.code, "memo-reconcile.duplicate");
  // scope: a Memo that is not in this scope
  const outside = refusal(entries, requestId, { ...keepAll, evidence: [], memo_outcomes: [{ kind: "keep-incubating", memo_id: M1 }, { kind: "keep-incubating", memo_id: M3 }] });
  assert.equal(outside.code, "memo-reconcile.scope");
  assert.match(outside.message, new RegExp(M3));
  // hypothesis: a revision that does not change the wording
  const unchanged = refusal(entries, requestId, {
    ...keepAll,
    evidence: [claim(2)],
    hypothesis_outcomes: [{ kind: "revise", inquiry_id: HYPOTHESIS, current: ORIGINAL, revision_reason: "Same.", evidence_ids: [evidenceId(2)] }],
    memo_outcomes: [{ kind: "keep-incubating", memo_id: M1 }],
  });
  assert.equal(unchanged.code, "memo-reconcile.hypothesis");
  // instruction: the requested observation needs a disposition; a hypothesis observation cites its Inquiry
  const undisposed = refusal(entries, requestId, { ...keepAll, dispositions: [integrated(USER_OBSERVATION, { hypotheses: [HYPOTHESIS] })], evidence: [], memo_outcomes: [{ kind: "keep-incubating", memo_id: M1 }] });
  assert.equal(undisposed.code, "memo-instruction.coverage");
  const dangling = refusal(entries, requestId, { ...keepAll, dispositions: [integrated(semanticId(2), { memos: [M2] })], evidence: [], memo_outcomes: [{ kind: "keep-incubating", memo_id: M1 }] });
  assert.equal(dangling.code, "memo-instruction.reference");
  // the strict schema: an unknown key anywhere, or a bad id
  assert.equal(refusal(entries, requestId, { ...keepAll, evidence: [], memo_outcomes: [{ kind: "keep-incubating", memo_id: M1 }], extra: 1 }).code, "memo-submission.shape");
  assert.equal(refusal(entries, requestId, { ...keepAll, evidence: [], memo_outcomes: [{ kind: "keep-incubating", memo_id: "memo-1" }] }).code, "memo-submission.shape");
  assert.equal(refusal(entries, requestId, { ...keepAll, evidence: [], memo_outcomes: [{ kind: "revise", memo_id: M1, revision: {}, disposition: "incubating" }] }).code, "memo-submission.shape");
  // not the pending request
  assert.equal(refusal(entries, id("memo-request-", 5), { ...keepAll, evidence: [], memo_outcomes: [{ kind: "keep-incubating", memo_id: M1 }] }).code, "memo-trigger.scope");
  // after all of that, the valid submission still reconciles from the same history
  const accepted = reconcileMemo(contextOf(entries, 1100), { requestId, submission: { ...keepAll, evidence: [], memo_outcomes: [{ kind: "keep-incubating", memo_id: M1 }] }, notebook: [] });
  assert.ok(accepted.ok);
  assert.deepEqual(replayObservationSession([...entries, ...asLogEntries(accepted.entries)]).issues, []);
});

test("a merge that drops a source's links is refused", () => {
  const { entries: round2, requestId: r2 } = secondRequest();
  const second = reconciled(round2, r2, {
    ...keepAll,
    evidence: [claim(2)],
    memo_outcomes: [{ kind: "keep-incubating", memo_id: M1 }, { kind: "create", memo: memo(M2, "Interruptions", [evidenceId(2)]) }],
    dispositions: [integrated(semanticId(2), { memos: [M2] })],
  }, [], 1100);
  const { entries, requestId } = requested([...second.entries, ...toLog(reading(3))], 1200);
  const dropped = refusal(entries, requestId, {
    ...keepAll,
    evidence: [claim(3)],
    memo_outcomes: [{ kind: "merge", source_ids: [M1, M2], target: memo(M3, "Timing and interruptions", [evidenceId(3)]) }],
    dispositions: [integrated(semanticId(3), { memos: [M3] })],
  });
  assert.equal(dropped.code, "memo-reconcile.merge");
  assert.match(dropped.message, new RegExp(M3));
});

test("submission order does not matter: outcomes, evidence and dispositions are normalised into the same entries", () => {
  const { entries, requestId } = requested(firstHistory());
  const direct = { evidence_id: evidenceId(9), kind: "direct-observation" as const, source_id: null, summary: "Seen directly." };
  const first = firstSubmission();
  const base = {
    ...first,
    evidence: [claim(1), direct],
    memo_outcomes: [...first.memo_outcomes, { kind: "create" as const, memo: memo(M2, "Interruptions", [evidenceId(9)]) }],
  };
  assert.ok(MemoSubmissionSchema.safeParse(base).success);
  const expected = reconcileMemo(contextOf(entries, 2000), { requestId, submission: base, notebook: [] });
  assert.ok(expected.ok, expected.ok ? "" : expected.message);
  const shuffled = <T>(values: readonly T[]) => fc.shuffledSubarray([...values], { minLength: values.length, maxLength: values.length });
  fc.assert(
    fc.property(shuffled(base.dispositions), shuffled(base.evidence), shuffled(base.memo_outcomes), (dispositions, evidence, memoOutcomes) => {
      const outcome = reconcileMemo(contextOf(entries, 2000), { requestId, submission: { ...base, dispositions, evidence, memo_outcomes: memoOutcomes }, notebook: [] });
      assert.ok(outcome.ok);
      assert.deepEqual(outcome.entries, expected.entries);
    }),
    { numRuns: 20 },
  );
});

test("a durable standing Inquiry and its incubating Memo join the scope and must be accounted for", () => {
  const standing = id("inquiry-", 40);
  const durableMemo = id("memo-", 41);
  const notebook: NotebookRecordFact[] = [
    { recordId: standing, type: "inquiry", status: "open", path: `records/${standing}.md`, sha256: sha("inquiry file"), title: "Timing", lang: "en", body: "Inquiry body.", derivedFrom: [], inquiry: { origin: "user", original: "Timing matters.", current: "Timing matters.", revisionReason: null } },
    { recordId: durableMemo, type: "memo", status: "incubating", path: `records/${durableMemo}.md`, sha256: sha("memo file"), title: "Durable timing", lang: "en", body: "What the notebook already says.", derivedFrom: [standing], inquiry: null },
    { recordId: sourceId(50), type: "source", status: "active", path: `records/${sourceId(50)}.md`, sha256: sha("source file"), title: "Study", lang: "en", body: "Source.", derivedFrom: [], inquiry: null },
  ];
  const history = toLog([opened(), modeOn(), ...reading(5, [standing])]);
  const { entries, requestId } = requested(history);
  const uncovered = refusal(entries, requestId, { evidence: [], hypothesis_outcomes: [{ kind: "keep", inquiry_id: standing }], memo_outcomes: [], dispositions: [{ observation_id: semanticId(5), decision: "kept", hypothesis_inquiry_ids: [], memo_ids: [], evidence_ids: [], rationale: "Nothing new." }] }, notebook);
  assert.equal(uncovered.code, "memo-reconcile.coverage");
  assert.match(uncovered.message, new RegExp(durableMemo));
  const done = reconciled(entries, requestId, {
    evidence: [claim(5)],
    hypothesis_outcomes: [{ kind: "revise", inquiry_id: standing, current: "Timing matters within bounds.", revision_reason: "Reading 5.", evidence_ids: [evidenceId(5)] }],
    memo_outcomes: [{ kind: "keep-incubating", memo_id: durableMemo }],
    dispositions: [integrated(semanticId(5), { hypotheses: [standing], evidence: [evidenceId(5)] })],
  }, notebook);
  assert.ok(done.outcome.ok);
  assert.deepEqual(done.outcome.value.receipt.scope, { episodeMemos: 0, standingInquiries: 1, durableMemos: 1 });
  assert.deepEqual(replayObservationSession(done.entries).issues, []);
  assert.equal(memoHistoryView(done.entries).problems, 0);
});

test("hydrateMemoScope: durable records, sorted ids and a basis digest the replay accepts", () => {
  const standing = id("inquiry-", 40);
  const resolved = id("inquiry-", 42);
  const durable = id("memo-", 41);
  const notebook: NotebookRecordFact[] = [
    { recordId: durable, type: "memo", status: "incubating", path: "records/m.md", sha256: sha("m"), title: "T", lang: "en", body: "B", derivedFrom: [standing], inquiry: null },
    { recordId: resolved, type: "inquiry", status: "resolved", path: "records/r.md", sha256: sha("r"), title: "R", lang: "en", body: "B", derivedFrom: [], inquiry: { origin: "observer", original: "R", current: "R", revisionReason: null } },
    { recordId: standing, type: "inquiry", status: "dormant", path: "records/i.md", sha256: sha("i"), title: "I", lang: "en", body: "B", derivedFrom: [], inquiry: { origin: "user", original: "I0", current: "I1", revisionReason: "why" } },
    { recordId: sourceId(50), type: "source", status: "active", path: "records/s.md", sha256: sha("s"), title: "S", lang: "en", body: "B", derivedFrom: [], inquiry: null },
  ];
  const lifecycle = replayObservationSession(toLog([opened()])).lifecycle;
  const working = [{ sourceId: sourceId(1), path: `session:observer/${id("source-read-", 1)}`, sha256: sha("read") }];
  const scoped = hydrateMemoScope({ lifecycle, working: emptyMemoState(), notebook, relatedInquiryIds: [standing], workingSourceBases: working });
  assert.ok(scoped.ok);
  const scope = scoped.scope;
  assert.deepEqual(scope.durableHypotheses.map((item) => [item.inquiryId, item.current, item.episodeId]), [[standing, "I1", EPISODE]]);
  assert.deepEqual(scope.durableMemos.map((item) => [item.memoId, item.currentRevisionId, item.hypothesisId]), [[durable, `durable-${sha("m")}`, standing]]);
  assert.deepEqual(scope.sourceIds, [sourceId(1), sourceId(50)]);
  assert.deepEqual(scope.existingRecordIds, [standing, resolved, durable, sourceId(1), sourceId(50)].sort());
  assert.deepEqual(scope.basisRecords.map((record) => record.recordId), [standing, durable, sourceId(1), sourceId(50)].sort());
  assert.ok(scopeBasisMatches(emptyMemoState(), scope));
  // a resolved or unknown related Inquiry, a repeated id, a closed Episode
  const refused = (related: string[]) => hydrateMemoScope({ lifecycle, working: emptyMemoState(), notebook, relatedInquiryIds: related, workingSourceBases: [] });
  assert.deepEqual([refused([resolved]), refused([id("inquiry-", 99)]), refused([standing, standing])].map((item) => (item.ok ? "ok" : item.code)), ["memo-reconcile.scope", "memo-reconcile.scope", "memo-reconcile.duplicate"]);
  const empty = hydrateMemoScope({ lifecycle: replayObservationSession([]).lifecycle, working: emptyMemoState(), notebook, relatedInquiryIds: [], workingSourceBases: [] });
  assert.ok(!empty.ok && empty.code === "memo-reconcile.state");
});

test("the reconcile-memo-pass basis is sealed over its input and decodes", () => {
  const input = { scopeId: id("memo-request-", 1), episodeId: EPISODE, basisDigest: sha("basis"), relatedInquiryIds: [], knownEvidenceIds: [evidenceId(1)], passDigest: sha("pass"), outcomeCount: 2, dispositionCount: 2 };
  const basis = memoContextBasis(input);
  assert.equal(basis.inputSha256, judgmentSha256(canonicalJson(jsonValueFromUnknown(input))));
  assert.deepEqual(basis.coverage.needApplicability.map((item) => [item.needId, item.status]), [
    ["evidence-closure", "required"],
    ["exact-memo-basis", "required"],
    ["outcome-accounting", "required"],
    ["user-owned-memo-policy", "not-required"],
  ]);
  assert.deepEqual(basis.coverage.claims.map((item) => [item.needId, item.basisIds]), [
    ["evidence-closure", ["memo-scope-evidence", "memo-pass-evidence"]],
    ["exact-memo-basis", ["memo-scope-evidence"]],
    ["outcome-accounting", ["memo-pass-evidence"]],
  ]);
  assert.notEqual(memoContextBasis({ ...input, outcomeCount: 3 }).basisSha256, basis.basisSha256);
});

test("an applied pass missing its acknowledgement is acknowledged; a Review continuation follows its request", () => {
  const { entries, requestId } = requested(firstHistory());
  const done = reconcileMemo(contextOf(entries), { requestId, submission: firstSubmission(), notebook: [] });
  assert.ok(done.ok);
  const withoutAck = [...entries, ...asLogEntries(done.entries.slice(0, 3))];
  assert.ok(!reconcileMemo(contextOf(withoutAck), { requestId, submission: firstSubmission(), notebook: [] }).ok);
  const ack = acknowledgeMemoPass(contextOf(withoutAck));
  assert.ok(ack.ok && ack.entries.length === 1);
  assert.deepEqual(ack.entries[0], done.entries[3]);
  assert.deepEqual(replayObservationSession([...withoutAck, ...asLogEntries(ack.entries)]).pendingMemoRequest, null);
  // Review & Save continuation
  const continued = requestReviewSaveContinuation(contextOf(entries), { memoRequestId: requestId, saveRequestCount: 0 });
  assert.ok(continued.ok && continued.entries.length === 1 && continued.value?.memoRequestId === requestId);
  const after = [...entries, ...asLogEntries(continued.entries)];
  assert.deepEqual(replayObservationSession(after).issues, []);
  const again = requestReviewSaveContinuation(contextOf(after), { memoRequestId: requestId, saveRequestCount: 0 });
  assert.ok(again.ok && again.entries.length === 0);
  const used = requestReviewSaveContinuation(contextOf(after), { memoRequestId: requestId, saveRequestCount: 1 });
  assert.ok(!used.ok && used.code === "observer.continuation-used");
  const unknown = requestReviewSaveContinuation(contextOf(entries), { memoRequestId: id("memo-request-", 5), saveRequestCount: 0 });
  assert.ok(!unknown.ok && unknown.code === "observer.memo-request-unknown");
});
