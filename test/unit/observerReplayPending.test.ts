// Pending hypotheses in the Observer replay snapshot (server/observer/observationSession.ts,
// design/observer.md §2.3): unconsumed user hypotheses (their context enriched with their review)
// and unconsumed semantic observations that carry an observer hypothesis, by inquiry id; and the
// user hypotheses still waiting for a context review.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { replayObservationSession, type ObserverLogEntry } from "../../server/observer/observationSession";
import {
  EPISODE,
  candidatePayload,
  digestOfEntry,
  id,
  memoCommit,
  memoRequestPayload,
  memoScope,
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
  type ReadSpec,
} from "../support/observerLog";

const RATIONALE = "The boundary condition contradicts the unconditional hypothesis.";

function toLog(entries: readonly HostEntry[]): ObserverLogEntry[] {
  return entries.map((entry) => (entry.type === "custom" && entry.customType !== undefined ? { custom: true, customType: entry.customType, data: entry.data } : { custom: false }));
}
const replay = (entries: readonly HostEntry[]) => replayObservationSession(toLog(entries));

/** A user-input candidate and the hypothesis recorded from it (ids from `n`). */
function userHypothesis(n: number, inquiry: number, original: string): { entries: HostEntry[]; hypothesis: HostEntry; observationId: string } {
  const candidateId = id("candidate-", n);
  const observationId = id("observation-", n);
  const hypothesis = observation(userHypothesisPayload({ observationId, candidateId, inquiryId: id("inquiry-", inquiry), original }));
  return { entries: [observation(candidatePayload({ id: candidateId, origin: userOrigin(), text: `user input ${n}` })), hypothesis], hypothesis, observationId };
}

/** A tool result read and interpreted; with `inquiry`, the observation carries an observer hypothesis. */
function observedReading(n: number, inquiry: number | null): { entries: HostEntry[]; read: HostEntry; semantic: HostEntry; spec: ReadSpec; observationId: string } {
  const text = `tool output ${n}`;
  const spec: ReadSpec = {
    readId: id("source-read-", n),
    candidates: [{ id: id("candidate-", n), text }],
    sourceId: id("source-", n),
    summary: `Reading ${n}.`,
    claims: [{ text: `Claim ${n}.`, locator: null }],
    indexDigest: sha("standing-index"),
    indexInquiryIds: [],
  };
  const observationId = id("observation-", n);
  const read = observation(sourceReadPayload(spec));
  const semantic = observation(
    semanticPayload(
      inquiry === null
        ? { observationId, read: spec, hydration: null, stance: "refines", movement: "minor-refinement" }
        : { observationId, read: spec, hydration: null, stance: "refines", movement: "independent-new-hypothesis", hypothesis: { inquiry_id: id("inquiry-", inquiry), original: `Observer idea ${n}.` } },
    ),
  );
  return { entries: [observation(candidatePayload({ id: id("candidate-", n), origin: toolOrigin(`call-${n}`), text })), read, semantic], read, semantic, spec, observationId };
}

test("an unconsumed user hypothesis with a review carries the review in its context; one without keeps its own context", () => {
  const reviewed = userHypothesis(10, 50, "Timing matters.");
  const plain = userHypothesis(11, 40, "Interruptions cost more late in the day.");
  const review = observation({
    ...reviewPayload(reviewed.observationId, "mixed"),
    supporting_clues: ["Two readings agree.", "The user saw it twice."],
    challenging_clues: [],
    missing_information: ["No measurement yet."],
  });
  const snapshot = replay([opened(), modeOn(), ...reviewed.entries, ...plain.entries, review]);
  assert.deepEqual(snapshot.issues, []);
  assert.deepEqual(snapshot.pendingHypotheses, [
    {
      inquiryId: id("inquiry-", 40),
      observationId: plain.observationId,
      origin: "user",
      original: "Interruptions cost more late in the day.",
      current: "Interruptions cost more late in the day.",
      context: "The user asked to track it.",
      sourceReadId: null,
    },
    {
      inquiryId: id("inquiry-", 50),
      observationId: reviewed.observationId,
      origin: "user",
      original: "Timing matters.",
      current: "Timing matters.",
      context: [
        "User context: The user asked to track it.",
        "Context review: mixed",
        "Supporting clues: Two readings agree. | The user saw it twice.",
        "Challenging clues: None",
        "Missing information: No measurement yet.",
        "Interpretation boundary: Only the user's own account is available.",
      ].join("\n"),
      sourceReadId: null,
    },
  ]);
  assert.deepEqual(
    snapshot.pendingHypothesisReviews.map((item) => item.observationId),
    [plain.observationId],
  );
});

test("an observation with an observer hypothesis is pending with its rationale and read; one without is not", () => {
  const own = observedReading(20, 7);
  const without = observedReading(21, null);
  const snapshot = replay([opened(), modeOn(), ...own.entries, ...without.entries]);
  assert.deepEqual(snapshot.issues, []);
  assert.deepEqual(snapshot.pendingHypotheses, [
    { inquiryId: id("inquiry-", 7), observationId: own.observationId, origin: "observer", original: "Observer idea 20.", current: "Observer idea 20.", context: RATIONALE, sourceReadId: own.spec.readId },
  ]);
  assert.deepEqual(snapshot.pendingHypothesisReviews, []);
});

test("hypotheses are ordered by inquiry id; on the same inquiry the user's comes before the observer's", () => {
  const observer = observedReading(30, 5);
  const user = userHypothesis(31, 5, "Same inquiry, user wording.");
  const earlier = userHypothesis(32, 4, "An earlier inquiry.");
  const snapshot = replay([opened(), modeOn(), ...observer.entries, ...user.entries, ...earlier.entries]);
  assert.deepEqual(snapshot.issues, []);
  assert.deepEqual(
    snapshot.pendingHypotheses.map((item) => [item.inquiryId, item.origin]),
    [
      [id("inquiry-", 4), "user"],
      [id("inquiry-", 5), "user"],
      [id("inquiry-", 5), "observer"],
    ],
  );
});

test("consumed hypotheses are no longer pending, but an unreviewed one still waits for its review", () => {
  const observer = observedReading(40, 8);
  const reviewed = userHypothesis(41, 9, "Reviewed and consumed.");
  const unreviewed = userHypothesis(42, 10, "Consumed without a review.");
  const request = id("memo-request-", 43);
  const scope = memoScope({ revisionId: null, sources: [{ sourceId: observer.spec.sourceId, readId: observer.spec.readId, readDigest: digestOfEntry(observer.read) }] });
  const commit = memoCommit(
    { passId: id("memo-pass-", 44), base: null, scope, instructionId: request, hypothesisOutcomes: [] },
    { receiptId: id("memo-receipt-", 45), revisionId: id("memo-working-revision-", 46) },
  );
  const later = userHypothesis(47, 11, "Recorded after the pass.");
  const entries = [
    opened(),
    modeOn(),
    ...observer.entries,
    ...reviewed.entries,
    observation(reviewPayload(reviewed.observationId)),
    ...unreviewed.entries,
    observation(memoRequestPayload(request, [observer.semantic, reviewed.hypothesis, unreviewed.hypothesis])),
    ...commit,
    ...later.entries,
  ];
  const snapshot = replay(entries);
  assert.deepEqual(snapshot.issues, []);
  assert.deepEqual(snapshot.consumedObservationIds, [observer.observationId, reviewed.observationId, unreviewed.observationId]);
  assert.deepEqual(
    snapshot.pendingHypotheses.map((item) => item.observationId),
    [later.observationId],
  );
  assert.deepEqual(
    snapshot.pendingHypothesisReviews.map((item) => item.observationId),
    [unreviewed.observationId, later.observationId],
  );
  // Before the pass is acknowledged (the lifecycle entry), nothing is consumed yet.
  const unacknowledged = replay(entries.slice(0, entries.length - later.entries.length - 1));
  assert.deepEqual(unacknowledged.issues, []);
  assert.deepEqual(
    unacknowledged.pendingHypotheses.map((item) => item.observationId),
    [observer.observationId, reviewed.observationId, unreviewed.observationId],
  );
});

test("property: pending hypotheses are exactly the unconsumed user hypotheses and observer-hypothesis observations", () => {
  const item = fc.record({ user: fc.boolean(), inquiry: fc.integer({ min: 1, max: 6 }), reviewed: fc.boolean(), ownHypothesis: fc.boolean() });
  fc.assert(
    fc.property(fc.array(item, { maxLength: 8 }), (items) => {
      const entries: HostEntry[] = [opened(), modeOn()];
      const expected: string[] = [];
      const awaitingReview: string[] = [];
      items.forEach((spec, k) => {
        const n = 100 + k;
        if (spec.user) {
          const made = userHypothesis(n, spec.inquiry, `Hypothesis ${n}.`);
          entries.push(...made.entries);
          if (spec.reviewed) entries.push(observation(reviewPayload(made.observationId, "supports", EPISODE)));
          else awaitingReview.push(made.observationId);
          expected.push(made.observationId);
        } else {
          const made = observedReading(n, spec.ownHypothesis ? spec.inquiry : null);
          entries.push(...made.entries);
          if (spec.ownHypothesis) expected.push(made.observationId);
        }
      });
      const snapshot = replay(entries);
      assert.deepEqual(snapshot.issues, []);
      assert.deepEqual(snapshot.pendingHypotheses.map((pending) => pending.observationId).sort(), expected.sort());
      // Sorted by inquiry id, and each entry names its own inquiry.
      const inquiries = snapshot.pendingHypotheses.map((pending) => pending.inquiryId);
      assert.deepEqual(inquiries, [...inquiries].sort());
      assert.deepEqual(snapshot.pendingHypothesisReviews.map((pending) => pending.observationId), awaitingReview.sort());
    }),
    { numRuns: 100 },
  );
});
