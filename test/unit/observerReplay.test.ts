// Observer replay (server/observer/observationSession.ts): a valid Episode trace covering every
// observation event kind, and mutations that must yield the reference's issue codes at the same
// entries (which rule gives `scope` and which `order`, digests, identical repeats, conflicts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { replayObservationSession, type ObserverLogEntry } from "../../server/observer/observationSession";
import {
  EPISODE,
  candidatePayload,
  contextBasis,
  continuationPayload,
  custom,
  digestOfEntry,
  explicitOrigin,
  hydrationPayload,
  id,
  lifecycle,
  memoRequestPayload,
  modeOff,
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

const USER_CANDIDATE = id("candidate-", 301);
const TOOL_CANDIDATE = id("candidate-", 302);
const READ = id("source-read-", 303);
const HYDRATION = id("hydration-", 304);
const MAJOR = id("observation-", 305);
const USER_OBSERVATION = id("observation-", 306);
const REQUEST = id("memo-request-", 307);
const SOURCE = id("source-", 308);
const DURABLE_INQUIRY = id("inquiry-", 3);
const USER_INQUIRY = id("inquiry-", 309);
const USER_TEXT = "My hypothesis: when I write things down changes the cost of getting back in.";
const TOOL_TEXT = "The source reports a counterexample to interruption-free capture.";

const READ_SPEC: ReadSpec = {
  readId: READ,
  candidates: [{ id: TOOL_CANDIDATE, text: TOOL_TEXT }],
  sourceId: SOURCE,
  summary: "The source reports that capture can interrupt reading under specific timing conditions.",
  claims: [{ text: "Capture timing changes interruption cost.", locator: "result section" }],
  indexDigest: sha("standing-index"),
  indexInquiryIds: [DURABLE_INQUIRY],
};
const HYDRATION_SPEC: HydrationSpec = { hydrationId: HYDRATION, readId: READ, indexDigest: sha("standing-index"), inquiryIds: [DURABLE_INQUIRY], contextDigest: sha("standing-context") };

function toLog(entries: readonly HostEntry[]): ObserverLogEntry[] {
  return entries.map((entry) => (entry.type === "custom" && entry.customType !== undefined ? { custom: true, customType: entry.customType, data: entry.data } : { custom: false }));
}

const replay = (entries: readonly HostEntry[]) => replayObservationSession(toLog(entries));
const codes = (entries: readonly HostEntry[]): [number, string][] => replay(entries).issues.map((issue) => [issue.index, issue.code]);

function trace() {
  const userCandidate = observation(candidatePayload({ id: USER_CANDIDATE, origin: userOrigin(), text: USER_TEXT }));
  const toolCandidate = observation(candidatePayload({ id: TOOL_CANDIDATE, origin: toolOrigin("tool-call-reading-1"), text: TOOL_TEXT }));
  const read = observation(sourceReadPayload(READ_SPEC));
  const hydration = observation(hydrationPayload(HYDRATION_SPEC));
  const semantic = observation(semanticPayload({ observationId: MAJOR, read: READ_SPEC, hydration: HYDRATION_SPEC }));
  const userHypothesis = observation(userHypothesisPayload({ observationId: USER_OBSERVATION, candidateId: USER_CANDIDATE, inquiryId: USER_INQUIRY, original: "Timing changes the re-entry cost." }));
  const request = observation(memoRequestPayload(REQUEST, [semantic, userHypothesis]));
  const entries = [opened(), modeOn(), userCandidate, toolCandidate, read, hydration, semantic, userHypothesis, request];
  return { entries, userCandidate, toolCandidate, read, hydration, semantic, userHypothesis, request };
}

test("a full trace replays without issues: candidates in acceptance order, the rest sorted, nothing consumed yet", () => {
  const snapshot = replay(trace().entries);
  assert.deepEqual(snapshot.issues, []);
  assert.equal(snapshot.lifecycle.mode, "on");
  assert.equal(snapshot.lifecycle.episode.status, "open");
  assert.deepEqual(
    snapshot.candidates.map((candidate) => candidate.candidateId),
    [USER_CANDIDATE, TOOL_CANDIDATE],
  );
  assert.deepEqual(
    snapshot.sourceReads.map((read) => read.readId),
    [READ],
  );
  assert.deepEqual(
    snapshot.hydrations.map((hydration) => hydration.hydrationId),
    [HYDRATION],
  );
  assert.deepEqual(
    snapshot.observations.map((item) => [item.observationId, item.stance, item.movement]),
    [[MAJOR, "challenges", "core-counterexample"]],
  );
  assert.deepEqual(
    snapshot.userHypotheses.map((item) => item.observationId),
    [USER_OBSERVATION],
  );
  assert.equal(snapshot.pendingMemoRequest?.requestId, REQUEST);
  assert.deepEqual(snapshot.consumedObservationIds, []);
  assert.deepEqual(snapshot.unconsumedObservationIds, [MAJOR, USER_OBSERVATION]);
});

test("candidates arrive in acceptance order, not sorted", () => {
  const { entries, toolCandidate, userCandidate } = trace();
  const snapshot = replay([entries[0] as HostEntry, entries[1] as HostEntry, toolCandidate, userCandidate]);
  assert.deepEqual(
    snapshot.candidates.map((candidate) => candidate.candidateId),
    [TOOL_CANDIDATE, USER_CANDIDATE],
  );
});

test("an identical repeat is a stutter; the same identity with other content is a conflict", () => {
  const { entries, userCandidate } = trace();
  const repeated = replay([...entries, userCandidate]);
  assert.deepEqual(repeated.issues, []);
  assert.equal(repeated.candidates.length, 2);
  const other = observation(candidatePayload({ id: USER_CANDIDATE, origin: userOrigin(), text: "Another text under the same id." }));
  assert.deepEqual(codes([opened(), modeOn(), userCandidate, other]), [[3, "observation-session.conflict"]]);
});

test("a repeat with its sorted id set written in another order is still the same event", () => {
  const inquiries = [id("inquiry-", 2), id("inquiry-", 1)];
  const spec: ReadSpec = { ...READ_SPEC, indexInquiryIds: inquiries };
  const { entries, toolCandidate } = trace();
  // The digest is of the normalised (sorted) payload, whatever order the entry lists the ids in.
  const sortedPayload = sourceReadPayload({ ...spec, indexInquiryIds: [...inquiries].sort() });
  const written = { ...sortedPayload, index_inquiry_ids: inquiries };
  const read = custom("observer.observation", { ...written, event_digest: sha(JSON.stringify(sortedPayload)) });
  const snapshot = replay([entries[0] as HostEntry, entries[1] as HostEntry, toolCandidate, read, read]);
  assert.deepEqual(snapshot.issues, []);
  assert.deepEqual(snapshot.sourceReads[0]?.indexInquiryIds, [...inquiries].sort());
  // A digest over the order as written does not match.
  const unnormalised = custom("observer.observation", { ...written, event_digest: sha(JSON.stringify(written)) });
  assert.deepEqual(codes([entries[0] as HostEntry, entries[1] as HostEntry, toolCandidate, unnormalised]), [[3, "observation-session.malformed"]]);
});

test("undecodable observation entries are malformed: digest, protocol, kind, fields, self tool, basis-less history", () => {
  const { entries, userCandidate } = trace();
  const base = [opened(), modeOn()];
  const data = userCandidate.data as Record<string, unknown>;
  const variants: unknown[] = [
    { ...data, event_digest: "0".repeat(64) },
    { ...data, event_digest: undefined },
    { ...data, observer_observation: "observer-observation/v2" },
    { ...data, observer_observation: 1 },
    { ...data, kind: "something-else" },
    { ...data, unexpected: true },
    "not an object",
    null,
  ];
  for (const variant of variants) {
    assert.deepEqual(codes([...base, custom("observer.observation", variant)]), [[2, "observation-session.malformed"]], JSON.stringify(variant));
  }
  const self = observation(candidatePayload({ id: TOOL_CANDIDATE, origin: toolOrigin("observer-call", "observer_sidecar"), text: "self output" }));
  assert.deepEqual(codes([...base, self]), [[2, "observation-session.malformed"]]);
  const semantic = entries[6] as HostEntry;
  const { context_basis: _basis, ...withoutBasis } = semantic.data as Record<string, unknown>;
  assert.deepEqual(codes([...base, observation(withoutBasis)]), [[2, "observation-session.malformed"]]);
  // related inquiries without a hydration, and a hypothesis without the new-hypothesis movement
  const inconsistent = observation({ ...semanticPayload({ observationId: MAJOR, read: READ_SPEC, hydration: null }), related_inquiry_ids: [DURABLE_INQUIRY] });
  const hypothesisOnSupport = observation(semanticPayload({ observationId: MAJOR, read: READ_SPEC, hydration: null, movement: "repeated-support", hypothesis: { inquiry_id: USER_INQUIRY, original: "A new idea." } }));
  assert.deepEqual(codes([...base, inconsistent, hypothesisOnSupport]), [
    [2, "observation-session.malformed"],
    [3, "observation-session.malformed"],
  ]);
  // content_hash must be the SHA-256 of the text; captured_at an exact ISO instant
  assert.deepEqual(codes([...base, observation({ ...candidatePayload({ id: USER_CANDIDATE, origin: userOrigin(), text: "a" }), content_hash: sha("b") })]), [[2, "observation-session.malformed"]]);
  assert.deepEqual(codes([...base, observation({ ...candidatePayload({ id: USER_CANDIDATE, origin: userOrigin(), text: "a" }), captured_at: "2026-08-01T10:00:00Z" })]), [[2, "observation-session.malformed"]]);
  // an edited context basis no longer matches its basis hash
  const basis = contextBasis(READ_SPEC, null, []);
  const edited = observation(semanticPayload({ observationId: MAJOR, read: READ_SPEC, hydration: null, movement: "repeated-support", stance: "supports", basis: { ...basis, contract_sha256: sha("other") } }));
  assert.deepEqual(codes([...base, edited]), [[2, "observation-session.malformed"]]);
});

test("lifecycle entries: malformed and refused transitions are lifecycle issues and change nothing", () => {
  assert.deepEqual(codes([lifecycle({ kind: "activation-changed", enabled: "yes" })]), [[0, "observation-session.lifecycle"]]);
  assert.deepEqual(codes([custom("observer.lifecycle", { protocol: "observer/v2", kind: "activation-changed", enabled: true })]), [[0, "observation-session.lifecycle"]]);
  // Observer on needs an Episode; a second Episode cannot open over a live one.
  assert.deepEqual(codes([modeOn(), opened(), opened("episode-2")]), [
    [0, "observation-session.lifecycle"],
    [2, "observation-session.lifecycle"],
  ]);
  const snapshot = replay([modeOn(), opened()]);
  assert.equal(snapshot.lifecycle.mode, "off");
  assert.equal(snapshot.lifecycle.episode.status, "open");
  // Settling: propose, commit with a validated receipt; the settled id cannot be reopened.
  const settled = replay([
    opened(),
    modeOn(),
    lifecycle({ kind: "save-proposed", proposalId: "proposal-1", summary: "Save the Episode." }),
    lifecycle({ kind: "save-committed", proposalId: "proposal-1", receipt: { receiptId: "receipt-1", status: "validated", recordIds: [] } }),
    opened(),
  ]);
  assert.equal(settled.lifecycle.episode.status, "settled");
  assert.equal(settled.lifecycle.mode, "off");
  assert.deepEqual(
    settled.issues.map((issue) => [issue.index, issue.code]),
    [[4, "observation-session.lifecycle"]],
  );
  assert.deepEqual(codes([opened(), lifecycle({ kind: "save-proposed", proposalId: "proposal-1", summary: "s" }), lifecycle({ kind: "save-committed", proposalId: "proposal-1", receipt: { receiptId: "r", status: "unvalidated", recordIds: [] } })]), [
    [2, "observation-session.lifecycle"],
  ]);
});

test("scope: an event for another Episode, or any event while the save is under review, or with no Episode", () => {
  const { entries } = trace();
  const foreign = observation(candidatePayload({ id: USER_CANDIDATE, origin: userOrigin(), text: USER_TEXT, episodeId: "episode-other" }));
  assert.deepEqual(codes([opened(), modeOn(), foreign]), [[2, "observation-session.scope"]]);
  assert.deepEqual(codes([entries[2] as HostEntry]), [[0, "observation-session.scope"]]);
  const reviewing = [opened(), modeOn(), lifecycle({ kind: "save-proposed", proposalId: "proposal-1", summary: "Save." }), entries[2] as HostEntry];
  assert.deepEqual(codes(reviewing), [[3, "observation-session.scope"]]);
});

test("scope vs order: a candidate with Observer off is scope, a SourceRead with Observer off is order", () => {
  const { userCandidate, toolCandidate, read } = trace();
  assert.deepEqual(codes([opened(), userCandidate]), [[1, "observation-session.scope"]]);
  assert.deepEqual(codes([opened(), modeOn(), toolCandidate, modeOff(), read]), [[4, "observation-session.order"]]);
});

test("scope vs order for user hypotheses: a prompt needs Observer on (scope), an explicit hypothesis does not", () => {
  const { userCandidate, userHypothesis } = trace();
  assert.deepEqual(codes([opened(), modeOn(), userCandidate, modeOff(), userHypothesis]), [[4, "observation-session.scope"]]);
  // An unknown candidate with Observer off is also scope (the gate asks for Observer on first) …
  assert.deepEqual(codes([opened(), userHypothesis]), [[1, "observation-session.scope"]]);
  // … and order with Observer on.
  assert.deepEqual(codes([opened(), modeOn(), userHypothesis]), [[2, "observation-session.order"]]);
  const explicit = observation(candidatePayload({ id: USER_CANDIDATE, origin: explicitOrigin(), text: USER_TEXT }));
  const snapshot = replay([opened(), explicit, userHypothesis]);
  assert.deepEqual(snapshot.issues, []);
  assert.equal(snapshot.userHypotheses.length, 1);
  // A tool result cannot become a user hypothesis.
  const toolHypothesis = observation(userHypothesisPayload({ observationId: USER_OBSERVATION, candidateId: TOOL_CANDIDATE, inquiryId: USER_INQUIRY, original: "x" }));
  assert.deepEqual(codes([opened(), modeOn(), trace().toolCandidate, toolHypothesis]), [[3, "observation-session.order"]]);
});

test("SourceReads consume unused candidates of their Episode, bound by the candidate digest", () => {
  const { toolCandidate, userCandidate, read } = trace();
  const base = [opened(), modeOn(), toolCandidate];
  // unknown candidate
  assert.deepEqual(codes([opened(), modeOn(), read]), [[2, "observation-session.order"]]);
  // a candidate already read by an earlier SourceRead
  const again = observation(sourceReadPayload({ ...READ_SPEC, readId: id("source-read-", 399) }));
  assert.deepEqual(codes([...base, read, again]), [[4, "observation-session.order"]]);
  // an explicit user hypothesis is never source material
  const explicit = observation(candidatePayload({ id: TOOL_CANDIDATE, origin: explicitOrigin(), text: TOOL_TEXT }));
  assert.deepEqual(codes([opened(), modeOn(), explicit, read]), [[3, "observation-session.order"]]);
  // a user prompt can be read
  const promptRead = observation(sourceReadPayload({ ...READ_SPEC, candidates: [{ id: USER_CANDIDATE, text: USER_TEXT }] }));
  assert.deepEqual(codes([opened(), modeOn(), userCandidate, promptRead]), []);
  // the candidate digest must cover exactly these candidates' contents
  const wrongDigest = observation({ ...sourceReadPayload(READ_SPEC), candidate_digest: sha("other") });
  assert.deepEqual(codes([...base, wrongDigest]), [[3, "observation-session.order"]]);
});

test("hydration is bound to its SourceRead and the standing index it recorded", () => {
  const { toolCandidate, read, hydration } = trace();
  const base = [opened(), modeOn(), toolCandidate, read];
  assert.deepEqual(codes([...base, hydration]), []);
  assert.deepEqual(codes([opened(), modeOn(), hydration]), [[2, "observation-session.order"]]);
  const otherIndex = observation(hydrationPayload({ ...HYDRATION_SPEC, indexDigest: sha("another index") }));
  assert.deepEqual(codes([...base, otherIndex]), [[4, "observation-session.order"]]);
  const notIndexed = observation(hydrationPayload({ ...HYDRATION_SPEC, inquiryIds: [id("inquiry-", 77)] }));
  assert.deepEqual(codes([...base, notIndexed]), [[4, "observation-session.order"]]);
  // the read is no longer authorised once Observer is off
  assert.deepEqual(codes([...base, modeOff(), hydration]), [[5, "observation-session.order"]]);
});

test("semantic observations: one per SourceRead, matching hydration, and a basis computed from this very read", () => {
  const { toolCandidate, read, hydration, semantic } = trace();
  const base = [opened(), modeOn(), toolCandidate, read, hydration];
  assert.deepEqual(codes([...base, semantic]), []);
  const second = observation(semanticPayload({ observationId: id("observation-", 398), read: READ_SPEC, hydration: HYDRATION_SPEC, stance: "supports", movement: "repeated-support" }));
  assert.deepEqual(codes([...base, semantic, second]), [[6, "observation-session.order"]]);
  // a basis copied from another branch (another summary of the same read) is rejected
  const foreignBasis = contextBasis({ ...READ_SPEC, summary: "A parallel branch changed the source-reading basis." }, HYDRATION_SPEC, [DURABLE_INQUIRY]);
  const foreign = observation(semanticPayload({ observationId: MAJOR, read: READ_SPEC, hydration: HYDRATION_SPEC, basis: foreignBasis }));
  const replayed = replay([...base, foreign]);
  assert.deepEqual(
    replayed.issues.map((issue) => [issue.index, issue.code]),
    [[5, "observation-session.order"]],
  );
  assert.equal(replayed.observations.length, 0);
  // related inquiries other than the hydration's, even with a basis computed for them
  const otherRelated = [id("inquiry-", 4)];
  const mismatched = observation({
    ...semanticPayload({ observationId: MAJOR, read: READ_SPEC, hydration: HYDRATION_SPEC, basis: contextBasis(READ_SPEC, HYDRATION_SPEC, otherRelated) }),
    related_inquiry_ids: otherRelated,
  });
  assert.deepEqual(codes([...base, mismatched]), [[5, "observation-session.order"]]);
  // the hydration must exist
  assert.deepEqual(codes([opened(), modeOn(), toolCandidate, read, semantic]), [[4, "observation-session.order"]]);
  // a basis with missing coverage, or for another question
  const missing = observation(semanticPayload({ observationId: MAJOR, read: READ_SPEC, hydration: HYDRATION_SPEC, basis: contextBasis(READ_SPEC, HYDRATION_SPEC, [DURABLE_INQUIRY], { missing: ["semantic-interpretation"] }) }));
  assert.deepEqual(codes([...base, missing]), [[5, "observation-session.order"]]);
  const otherQuestion = observation(semanticPayload({ observationId: MAJOR, read: READ_SPEC, hydration: HYDRATION_SPEC, basis: contextBasis(READ_SPEC, HYDRATION_SPEC, [DURABLE_INQUIRY], { question: "reconcile-memo-pass" }) }));
  assert.deepEqual(codes([...base, otherQuestion]), [[5, "observation-session.order"]]);
  // without hydration: the basis selects the reading only
  const plain = observation(semanticPayload({ observationId: MAJOR, read: READ_SPEC, hydration: null, stance: "uncertain", movement: "uncertain-association" }));
  assert.deepEqual(codes([opened(), modeOn(), toolCandidate, read, plain]), []);
});

test("every stance and movement replays; a new hypothesis carries the observer's own wording", () => {
  const stances = ["supports", "challenges", "refines", "boundary", "uncertain"];
  const movements = [
    "repeated-support",
    "minor-refinement",
    "uncertain-association",
    "material-boundary-change",
    "core-counterexample",
    "independent-new-hypothesis",
    "major-direction-change",
    "missed-important-mismatch",
  ];
  const entries: HostEntry[] = [opened(), modeOn()];
  movements.forEach((movement, n) => {
    const candidateText = `tool result ${n}`;
    const spec: ReadSpec = { ...READ_SPEC, readId: id("source-read-", 500 + n), candidates: [{ id: id("candidate-", 500 + n), text: candidateText }] };
    entries.push(observation(candidatePayload({ id: id("candidate-", 500 + n), origin: toolOrigin(`call-${n}`), text: candidateText })));
    entries.push(observation(sourceReadPayload(spec)));
    const hypothesis = movement === "independent-new-hypothesis" ? { inquiry_id: id("inquiry-", 600 + n), original: "Capture timing is the real variable." } : null;
    entries.push(observation(semanticPayload({ observationId: id("observation-", 500 + n), read: spec, hydration: null, stance: stances[n % stances.length] as string, movement, hypothesis })));
  });
  const snapshot = replay(entries);
  assert.deepEqual(snapshot.issues, []);
  assert.deepEqual(
    snapshot.observations.map((item) => item.movement),
    movements,
  );
  assert.equal(snapshot.observations.find((item) => item.movement === "independent-new-hypothesis")?.observerHypothesis?.original, "Capture timing is the real variable.");
});

test("hypothesis context reviews need their user hypothesis in the open Episode, Observer on or off", () => {
  const { userCandidate, userHypothesis } = trace();
  const base = [opened(), modeOn(), userCandidate, userHypothesis];
  for (const assessment of ["supports", "challenges", "mixed", "insufficient-context"]) {
    const snapshot = replay([...base, modeOff(), observation(reviewPayload(USER_OBSERVATION, assessment))]);
    assert.deepEqual(snapshot.issues, [], assessment);
    assert.equal(snapshot.hypothesisReviews[0]?.assessment, assessment);
  }
  assert.deepEqual(codes([opened(), observation(reviewPayload(USER_OBSERVATION))]), [[1, "observation-session.order"]]);
  // a second, different review of the same hypothesis conflicts
  assert.deepEqual(codes([...base, observation(reviewPayload(USER_OBSERVATION, "supports")), observation(reviewPayload(USER_OBSERVATION, "mixed"))]), [[5, "observation-session.conflict"]]);
});

test("Memo requests name exactly the unrequested observations, sorted, over the current Memo base, with their digest", () => {
  const { entries, semantic, userHypothesis } = trace();
  const prefix = entries.slice(0, -1);
  const bad = (payload: Record<string, unknown>) => codes([...prefix, observation(payload)]);
  assert.deepEqual(bad(memoRequestPayload(REQUEST, [semantic, userHypothesis], null, [USER_OBSERVATION, MAJOR])), [[8, "observation-session.order"]]);
  assert.deepEqual(bad(memoRequestPayload(REQUEST, [semantic])), [[8, "observation-session.order"]]);
  assert.deepEqual(bad(memoRequestPayload(REQUEST, [semantic, userHypothesis], "memo-working-revision-x")), [[8, "observation-session.order"]]);
  assert.deepEqual(bad({ ...memoRequestPayload(REQUEST, [semantic, userHypothesis]), request_digest: sha("other") }), [[8, "observation-session.order"]]);
  assert.deepEqual(bad(memoRequestPayload(REQUEST, [semantic, userHypothesis, observation(userHypothesisPayload({ observationId: id("observation-", 999), candidateId: USER_CANDIDATE, inquiryId: USER_INQUIRY, original: "x" }))])), [
    [8, "observation-session.order"],
  ]);
  // a request reached while Observer is off is fine (the Episode is open)
  assert.deepEqual(codes([...prefix, modeOff(), entries.at(-1) as HostEntry]), []);
});

test("a second pending Memo request is a conflict reported at the later request in id order", () => {
  const { entries, toolCandidate } = trace();
  // The first request takes every observation; a later observation can only be requested again.
  const laterSpec: ReadSpec = { ...READ_SPEC, readId: id("source-read-", 700), candidates: [{ id: id("candidate-", 700), text: "later tool result" }] };
  const later = [
    observation(candidatePayload({ id: id("candidate-", 700), origin: toolOrigin("call-700"), text: "later tool result" })),
    observation(sourceReadPayload(laterSpec)),
    observation(semanticPayload({ observationId: id("observation-", 700), read: laterSpec, hydration: null, stance: "supports", movement: "repeated-support" })),
  ];
  // request ids: the second request (line 12) sorts *before* the first (line 8), so the conflict lands on line 8.
  const secondRequest = observation(memoRequestPayload(id("memo-request-", 1), [later[2] as HostEntry]));
  const all = [...entries, ...later, secondRequest];
  const snapshot = replay(all);
  assert.deepEqual(
    snapshot.issues.map((issue) => [issue.index, issue.code]),
    [[8, "observation-session.conflict"]],
  );
  assert.equal(snapshot.pendingMemoRequest?.requestId, id("memo-request-", 1));
  assert.equal(toolCandidate.type, "custom");
});

test("a Review & Save continuation follows its exact Memo request", () => {
  const { entries } = trace();
  const continuation = observation(continuationPayload(REQUEST));
  const accepted = replay([...entries, continuation]);
  assert.deepEqual(accepted.issues, []);
  assert.equal(accepted.reviewSaveContinuations[0]?.memoRequestId, REQUEST);
  const reordered = [...entries.slice(0, -1), continuation, entries.at(-1) as HostEntry];
  assert.deepEqual(codes(reordered), [[8, "observation-session.order"]]);
  // a request of an Episode that was settled does not carry over to the next Episode
  const settled = [
    ...entries,
    lifecycle({ kind: "save-proposed", proposalId: "proposal-1", summary: "Save." }),
    lifecycle({ kind: "save-committed", proposalId: "proposal-1", receipt: { receiptId: "receipt-1", status: "validated", recordIds: [] } }),
    opened("episode-2"),
    observation(continuationPayload(REQUEST, "episode-2")),
  ];
  assert.deepEqual(codes(settled), [[12, "observation-session.order"]]);
});

test("a shorter branch simply has less: no observation before its entry", () => {
  const { entries } = trace();
  assert.equal(replay(entries).observations.length, 1);
  assert.equal(replay(entries.slice(0, 4)).observations.length, 0);
  assert.equal(EPISODE.length > 0, true);
  assert.equal(typeof digestOfEntry(entries[2] as HostEntry), "string");
});
