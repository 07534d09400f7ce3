// Observer replay across histories: Memo requests consumed only by an acknowledged, re-executed
// Memo pass (prepared → applied → memo-reconciled), Memo request bases after a pass, and
// Material review ancestry of candidates and SourceReads.
import { test } from "node:test";
import assert from "node:assert/strict";
import { replayObservationSession, type ObserverLogEntry } from "../../server/observer/observationSession";
import { MemoHistoryReplay } from "../../server/observer/memoHistory";
import {
  EPISODE,
  candidatePayload,
  custom,
  digestOfEntry,
  fourPassEpisode,
  id,
  lifecycle,
  memoCommit,
  memoRequestPayload,
  memoScope,
  modeOff,
  modeOn,
  observation,
  opened,
  preparedPass,
  receiptOf,
  reviewCancelled,
  reviewCompleted,
  reviewRequested,
  semanticPayload,
  sha,
  sourceReadPayload,
  toolOrigin,
  userHypothesisPayload,
  userOrigin,
  type HostEntry,
  type MemoPassSpec,
  type ReadSpec,
} from "../support/observerLog";

const USER_CANDIDATE = id("candidate-", 301);
const TOOL_CANDIDATE = id("candidate-", 302);
const READ = id("source-read-", 303);
const MAJOR = id("observation-", 305);
const USER_OBSERVATION = id("observation-", 306);
const REQUEST = id("memo-request-", 307);
const SOURCE = id("source-", 308);
const USER_INQUIRY = id("inquiry-", 309);
const REVISION = id("memo-working-revision-", 310);
const RECEIPT = id("memo-receipt-", 311);
const PASS = id("memo-pass-", 312);
const REVIEW_REQUEST = id("material-review-", 312);
const ORIGINAL = "Timing changes the re-entry cost.";

const READ_SPEC: ReadSpec = {
  readId: READ,
  candidates: [{ id: TOOL_CANDIDATE, text: "tool output" }],
  sourceId: SOURCE,
  summary: "The source reports that capture can interrupt reading.",
  claims: [{ text: "Capture timing changes interruption cost.", locator: null }],
  indexDigest: sha("standing-index"),
  indexInquiryIds: [],
};

function toLog(entries: readonly HostEntry[]): ObserverLogEntry[] {
  return entries.map((entry) => (entry.type === "custom" && entry.customType !== undefined ? { custom: true, customType: entry.customType, data: entry.data } : { custom: false }));
}
const replay = (entries: readonly HostEntry[]) => replayObservationSession(toLog(entries));
const codes = (entries: readonly HostEntry[]): [number, string][] => replay(entries).issues.map((issue) => [issue.index, issue.code]);

function requested() {
  const userCandidate = observation(candidatePayload({ id: USER_CANDIDATE, origin: userOrigin(), text: "my hypothesis" }));
  const toolCandidate = observation(candidatePayload({ id: TOOL_CANDIDATE, origin: toolOrigin("call-1"), text: "tool output" }));
  const read = observation(sourceReadPayload(READ_SPEC));
  const semantic = observation(semanticPayload({ observationId: MAJOR, read: READ_SPEC, hydration: null, stance: "refines", movement: "minor-refinement" }));
  const hypothesis = observation(userHypothesisPayload({ observationId: USER_OBSERVATION, candidateId: USER_CANDIDATE, inquiryId: USER_INQUIRY, original: ORIGINAL }));
  const request = observation(memoRequestPayload(REQUEST, [semantic, hypothesis]));
  return { entries: [opened(), modeOn(), userCandidate, toolCandidate, read, semantic, hypothesis, request], read, semantic, hypothesis };
}

/** The pass that accounts for the request: it creates the user's hypothesis as a working hypothesis. */
function passFor(readEntry: HostEntry, overrides: Partial<MemoPassSpec> = {}): MemoPassSpec {
  return {
    passId: PASS,
    base: null,
    scope: memoScope({ revisionId: null, sources: [{ sourceId: SOURCE, readId: READ, readDigest: digestOfEntry(readEntry) }] }),
    instructionId: REQUEST,
    hypothesisOutcomes: [
      { kind: "create", hypothesis: { inquiry_id: USER_INQUIRY, episode_id: EPISODE, origin: "user", original: ORIGINAL, current: ORIGINAL, revision_reason: null, evidence_ids: [] } },
    ],
    ...overrides,
  };
}

test("observations are consumed only once the Memo pass naming their request is applied and acknowledged", () => {
  const { entries, read } = requested();
  const commit = memoCommit(passFor(read), { receiptId: RECEIPT, revisionId: REVISION });
  const done = replay([...entries, ...commit]);
  assert.deepEqual(done.issues, []);
  assert.deepEqual(done.consumedObservationIds, [MAJOR, USER_OBSERVATION]);
  assert.deepEqual(done.unconsumedObservationIds, []);
  assert.equal(done.pendingMemoRequest, null);
  assert.equal(done.lifecycle.episode.status === "open" ? done.lifecycle.episode.lastMemo?.revisionId : null, REVISION);
  // the next Memo scope's working sources: reads behind unconsumed semantic observations only
  assert.deepEqual(done.workingSourceBases, []);
  assert.deepEqual(replay(entries).workingSourceBases, [{ sourceId: SOURCE, path: `session:observer/${READ}`, sha256: digestOfEntry(read) }]);
  // applied but not acknowledged: still pending
  const unacknowledged = replay([...entries, ...commit.slice(0, 2)]);
  assert.equal(unacknowledged.pendingMemoRequest?.requestId, REQUEST);
  assert.deepEqual(unacknowledged.consumedObservationIds, []);
  // an acknowledgement that does not match the applied receipt does not consume (and is no observation issue)
  const wrongAck = lifecycle({ kind: "memo-reconciled", revisionId: REVISION, receipt: { receiptId: RECEIPT, summary: "something else" } });
  const mismatched = replay([...entries, ...commit.slice(0, 2), wrongAck]);
  assert.deepEqual(mismatched.issues, []);
  assert.equal(mismatched.pendingMemoRequest?.requestId, REQUEST);
  // an identical repeat of the applied entry changes nothing
  assert.deepEqual(replay([...entries, ...commit.slice(0, 2), commit[1] as HostEntry, commit[2] as HostEntry]).consumedObservationIds, [MAJOR, USER_OBSERVATION]);
});

test("an applied pass whose stored receipt differs from its re-execution is not applied", () => {
  const { entries, read } = requested();
  const spec = passFor(read);
  const [prepared, applied, ack] = memoCommit(spec, { receiptId: RECEIPT, revisionId: REVISION });
  const data = applied?.data as Record<string, unknown>;
  const forgedReceipt = { ...receiptOf(PASS, { receiptId: RECEIPT, revisionId: REVISION, created: 1 }) };
  const forgedSummary = forgedReceipt.summary as string;
  const forged = custom("observer.memo-pass", { ...data, receipt: forgedReceipt });
  const forgedAck = lifecycle({ kind: "memo-reconciled", revisionId: REVISION, receipt: { receiptId: RECEIPT, summary: forgedSummary } });
  const snapshot = replay([...entries, prepared as HostEntry, forged, forgedAck]);
  assert.equal(snapshot.pendingMemoRequest?.requestId, REQUEST);
  assert.deepEqual(snapshot.consumedObservationIds, []);
  assert.equal(ack?.type, "custom");
  // a scope whose basis no longer matches the working state is refused as well
  const staleScope = custom("observer.memo-pass", { ...data, scope: memoScope({ revisionId: null, sources: [] }) });
  assert.equal(replay([...entries, prepared as HostEntry, staleScope, ack as HostEntry]).pendingMemoRequest?.requestId, REQUEST);
  // an applied entry without its prepared pass is not applied either
  assert.equal(replay([...entries, applied as HostEntry, ack as HostEntry]).pendingMemoRequest?.requestId, REQUEST);
});

test("a Memo request after a pass must name the new working revision as its base", () => {
  const { entries, read } = requested();
  const commit = memoCommit(passFor(read), { receiptId: RECEIPT, revisionId: REVISION });
  const laterSpec: ReadSpec = { ...READ_SPEC, readId: id("source-read-", 700), candidates: [{ id: id("candidate-", 700), text: "later" }] };
  const later = [
    observation(candidatePayload({ id: id("candidate-", 700), origin: toolOrigin("call-700"), text: "later" })),
    observation(sourceReadPayload(laterSpec)),
    observation(semanticPayload({ observationId: id("observation-", 700), read: laterSpec, hydration: null, stance: "boundary", movement: "material-boundary-change" })),
  ];
  const prefix = [...entries, ...commit, ...later];
  const position = prefix.length;
  const staleBase = observation(memoRequestPayload(id("memo-request-", 800), [later[2] as HostEntry], null));
  assert.deepEqual(codes([...prefix, staleBase]), [[position, "observation-session.order"]]);
  const current = observation(memoRequestPayload(id("memo-request-", 800), [later[2] as HostEntry], REVISION));
  const snapshot = replay([...prefix, current]);
  assert.deepEqual(snapshot.issues, []);
  assert.equal(snapshot.pendingMemoRequest?.requestId, id("memo-request-", 800));
  assert.deepEqual(snapshot.unconsumedObservationIds, [id("observation-", 700)]);
});

test("Memo history: prepared passes need the open Episode and current base; conflicting second passes and stray acknowledgements are problems", () => {
  const { read } = requested();
  const spec = passFor(read);
  const history = new MemoHistoryReplay();
  const feed = (entry: HostEntry): void => history.apply({ customType: entry.customType as string, data: entry.data });
  feed(custom("observer.prepared-memo-pass", preparedPass(spec)));
  assert.equal(history.problems, 1, "no open Episode yet");
  feed(opened());
  feed(custom("observer.prepared-memo-pass", preparedPass(spec)));
  feed(custom("observer.prepared-memo-pass", preparedPass(spec)));
  assert.equal(history.problems, 1, "an identical re-post is no problem");
  feed(custom("observer.prepared-memo-pass", preparedPass({ ...spec, instructionId: null })));
  assert.equal(history.problems, 2, "a different second prepared pass conflicts");
  feed(lifecycle({ kind: "memo-reconciled", revisionId: REVISION, receipt: { receiptId: RECEIPT, summary: "x" } }));
  assert.equal(history.problems, 3, "an acknowledgement without an applied pass");
  feed(custom("observer.prepared-memo-pass", { ...preparedPass(spec), evidence: [{ evidence_id: id("evidence-", 1), kind: "source-claim", source_id: null, summary: "s" }, { evidence_id: id("evidence-", 1), kind: "source-claim", source_id: null, summary: "s" }] }));
  assert.equal(history.problems, 4, "a pass naming one evidence id twice is malformed");
  assert.equal(history.revisionId, null);
});

test("Material review: linked candidates need the exact pending request before them; Observer may stay off", () => {
  const linked = observation(candidatePayload({ id: USER_CANDIDATE, origin: userOrigin(), text: "inline material", review: REVIEW_REQUEST }));
  const request = reviewRequested(REVIEW_REQUEST);
  const authorised = replay([opened(), request, linked]);
  assert.deepEqual(authorised.issues, []);
  assert.equal(authorised.lifecycle.mode, "off");
  assert.equal(authorised.candidates.length, 1);
  assert.deepEqual(codes([opened(), linked, request]), [[1, "observation-session.scope"]]);
  assert.deepEqual(codes([opened(), modeOn(), linked]), [[2, "observation-session.scope"]]);
  // a request for another Episode, a cancelled or completed request, or a broken review history authorise nothing
  assert.deepEqual(codes([opened(), reviewRequested(REVIEW_REQUEST, "episode-other"), linked]), [[2, "observation-session.scope"]]);
  assert.deepEqual(codes([opened(), request, reviewCancelled(REVIEW_REQUEST), linked]), [[3, "observation-session.scope"]]);
  assert.deepEqual(codes([opened(), request, reviewCompleted(REVIEW_REQUEST, [MAJOR]), linked]), [[3, "observation-session.scope"]]);
  assert.deepEqual(codes([opened(), reviewCancelled(id("material-review-", 9)), request, linked]), [[3, "observation-session.scope"]]);
  assert.deepEqual(codes([opened(), request, reviewRequested(id("material-review-", 9)), linked]), [[3, "observation-session.scope"]]);
  // an identical repeated request is a stutter
  assert.deepEqual(codes([opened(), request, request, linked]), []);
  // unlinked capture with Observer off is scope
  const unlinked = observation(candidatePayload({ id: TOOL_CANDIDATE, origin: userOrigin(), text: "unlinked material" }));
  assert.deepEqual(codes([opened(), unlinked]), [[1, "observation-session.scope"]]);
});

test("Material review ancestry: a linked SourceRead reads only its request's candidates while the request is pending", () => {
  const text = "inline material";
  const linked = observation(candidatePayload({ id: USER_CANDIDATE, origin: userOrigin(), text, review: REVIEW_REQUEST }));
  const spec: ReadSpec = { ...READ_SPEC, candidates: [{ id: USER_CANDIDATE, text }], review: REVIEW_REQUEST };
  const read = observation(sourceReadPayload(spec));
  const semantic = observation(semanticPayload({ observationId: MAJOR, read: spec, hydration: null, stance: "supports", movement: "repeated-support" }));
  const base = [opened(), reviewRequested(REVIEW_REQUEST), linked];
  const snapshot = replay([...base, read, semantic, reviewCompleted(REVIEW_REQUEST, [MAJOR])]);
  assert.deepEqual(snapshot.issues, []);
  assert.deepEqual(
    snapshot.observations.map((item) => item.observationId),
    [MAJOR],
  );
  // the read must carry the link of its candidates …
  const unlinkedRead = observation(sourceReadPayload({ ...spec, review: undefined }));
  assert.deepEqual(codes([...base, unlinkedRead]), [[3, "observation-session.order"]]);
  // … and cannot mix linked and unlinked candidates
  const plain = observation(candidatePayload({ id: TOOL_CANDIDATE, origin: toolOrigin("call-1"), text: "tool output" }));
  const mixed = observation(sourceReadPayload({ ...spec, candidates: [{ id: USER_CANDIDATE, text }, { id: TOOL_CANDIDATE, text: "tool output" }] }));
  assert.deepEqual(codes([opened(), modeOn(), reviewRequested(REVIEW_REQUEST), linked, plain, mixed]), [[5, "observation-session.order"]]);
  // after the request is cancelled the read is no longer authorised
  assert.deepEqual(codes([...base, reviewCancelled(REVIEW_REQUEST), read]), [[4, "observation-session.order"]]);
  // a linked read's observation needs the request still pending
  assert.deepEqual(codes([...base, read, reviewCancelled(REVIEW_REQUEST), semantic]), [[5, "observation-session.order"]]);
  // Observer off does not matter for linked reads; an unlinked read with Observer off is order
  assert.deepEqual(codes([...base, read, modeOn(), modeOff(), semantic]), []);
});

test("user hypotheses are consumed with their request; the original wording is kept", () => {
  const { entries, read } = requested();
  const snapshot = replay([...entries, ...memoCommit(passFor(read), { receiptId: RECEIPT, revisionId: REVISION })]);
  assert.equal(snapshot.userHypotheses[0]?.original, ORIGINAL);
  assert.deepEqual(snapshot.unconsumedObservationIds, []);
});

test("four acknowledged passes with every Memo outcome consume every request; each request's base is the revision before it", () => {
  const episode = fourPassEpisode();
  const snapshot = replay(episode.entries);
  assert.deepEqual(snapshot.issues, []);
  assert.deepEqual(
    snapshot.memoRequests.map((request) => [request.requestId, request.baseMemoRevisionId]),
    episode.requests.map((requestId, k) => [requestId, k === 0 ? null : episode.revisions[k - 1]]),
  );
  assert.equal(snapshot.pendingMemoRequest, null);
  assert.deepEqual(snapshot.consumedObservationIds, episode.observations);
  assert.deepEqual(snapshot.unconsumedObservationIds, []);
});

test("a missing acknowledgement blocks the next pass: its request stays pending, the one after is stale", () => {
  const entries = fourPassEpisode().entries;
  // line 15 acknowledges pass 2; without it pass 3 cannot be prepared, so the working revision stays at pass 2
  const without = entries.filter((_, index) => index !== 15);
  assert.deepEqual(codes(without), [
    [25, "observation-session.order"],
    [18, "observation-session.conflict"],
  ]);
  const snapshot = replay(without);
  assert.equal(snapshot.pendingMemoRequest?.requestId, id("memo-request-", 12));
  assert.deepEqual(snapshot.consumedObservationIds, [id("observation-", 11)]);
});

test("an applied pass whose stored counts differ from its re-execution leaves the working revision where it was", () => {
  const entries = fourPassEpisode().entries;
  const applied = entries[21] as HostEntry;
  const data = applied.data as { receipt: { changes: Record<string, number> } };
  const forged = custom("observer.memo-pass", { ...data, receipt: { ...data.receipt, changes: { ...data.receipt.changes, merged: 2 } } });
  const mutated = entries.map((entry, index) => (index === 21 ? forged : entry));
  assert.deepEqual(codes(mutated), [[26, "observation-session.order"]]);
  const snapshot = replay(mutated);
  assert.equal(snapshot.pendingMemoRequest?.requestId, id("memo-request-", 13));
  assert.deepEqual(snapshot.consumedObservationIds, [id("observation-", 11), id("observation-", 12)]);
});
