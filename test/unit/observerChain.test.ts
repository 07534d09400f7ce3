// The evidence chain as pure operations (server/observer/candidateCapture.ts, evidenceChain.ts):
// every successful operation's entries replay with no new issue, a whole chained Episode replays
// clean and shows up in the snapshot, and every refusal is coded and stages nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { captureCandidate, candidateTexts, CANDIDATE_SEGMENT_LENGTH, type CaptureInput } from "../../server/observer/candidateCapture";
import {
  hydrateInquiries,
  recordNewHypothesis,
  recordObservation,
  recordSourceRead,
  recordUserHypothesis,
  registerUserHypothesis,
  reviewHypothesis,
  type HypothesisReviewInput,
  type SourceReadInput,
} from "../../server/observer/evidenceChain";
import { MOVEMENTS, STANCES } from "../../server/observer/observationEvents";
import { replayObservationSession, type ObserverLogEntry } from "../../server/observer/observationSession";
import { asLogEntries, lifecycleEntry, type DraftContext, type DraftOutcome, type ObserverIds } from "../../server/observer/observerDrafts";
import type { LifecycleEvent } from "../../server/observer/observerLifecycle";
import type { NotebookRecordView, StandingSources } from "../../server/observer/standingIndex";
import { id, reviewRequested, review, sha } from "../support/observerLog";

const EPISODE = "episode-chain-1";
const NOTEBOOK = "notebook-chain";
const NOW = "2026-08-01T10:00:00.000Z";
const DURABLE = id("inquiry-", 900);
const NOTEBOOK_SOURCE = id("source-", 901);

const durableInquiry: NotebookRecordView = {
  record: { observer_type: "inquiry", observer_status: "open", id: DURABLE, title: "Interruptions", lang: "en", lineage: [], inquiry: { origin: "user", original: "Capture interrupts.", current: "Capture interrupts reading." } },
  body: "Why capture interrupts reading.",
};
const notebookSource: NotebookRecordView = { record: { observer_type: "source", observer_status: "active", id: NOTEBOOK_SOURCE, title: "A paper", lang: "en", lineage: [] }, body: "Paper." };
const STANDING: StandingSources = { notebook: [durableInquiry, notebookSource], memo: { hypotheses: [], memos: [] } };

/** Ids `prefix` + a fixed UUID numbered from `start`, in the order they are drawn. */
function sequentialIds(start = 1): ObserverIds {
  let next = start;
  return { next: (prefix) => id(prefix, next++) };
}

/** A mutable Observer stream the operations are run against, appending what they return. */
class Stream {
  entries: ObserverLogEntry[];
  readonly ids: ObserverIds;

  constructor(events: readonly LifecycleEvent[], start = 1) {
    this.entries = asLogEntries(events.map(lifecycleEntry));
    this.ids = sequentialIds(start);
  }

  get context(): DraftContext {
    return { entries: this.entries, now: NOW, ids: this.ids };
  }

  lifecycle(event: LifecycleEvent): void {
    this.entries = [...this.entries, ...asLogEntries([lifecycleEntry(event)])];
  }

  raw(entries: readonly ObserverLogEntry[]): void {
    this.entries = [...this.entries, ...entries];
  }

  /** Applies a successful outcome after checking that replay adds no issue; returns its value. */
  apply<Value>(outcome: DraftOutcome<Value>): Value {
    if (!outcome.ok) assert.fail(`expected success, got ${outcome.code}: ${outcome.message}`);
    const after = [...this.entries, ...asLogEntries(outcome.entries)];
    assert.deepEqual(replayObservationSession(after).issues, [], "the operation's entries replay without an issue");
    this.entries = after;
    return outcome.value;
  }
}

const opened: LifecycleEvent = { kind: "episode-opened", episodeId: EPISODE, notebookId: NOTEBOOK, lang: "en" };
const modeOn: LifecycleEvent = { kind: "activation-changed", enabled: true };
const liveStream = (start = 1): Stream => new Stream([opened, modeOn], start);

function refused(outcome: DraftOutcome<unknown>, code: string): void {
  assert.equal(outcome.ok, false, `expected refusal ${code}`);
  if (!outcome.ok) assert.equal(outcome.code, code, outcome.message);
}

const nominated = (call: string, text: string, tool = "read_file"): CaptureInput => ({ origin: { kind: "tool-result", toolCallId: call, toolName: tool }, text, nominationReason: "It reports a measured effect." });

function readInput(candidateIds: readonly string[], standing: StandingSources = STANDING): SourceReadInput {
  return {
    candidateIds,
    source: { kind: "external-material", title: "Interruption study", lang: "en", uri: "https://example.org/study", revision: null, contentHash: null, retrievalContext: null },
    faithfulSummary: "The study reports that capture timing changes the cost of resuming reading.",
    claims: [
      { text: "Capturing mid-paragraph doubles resumption time.", locator: "table 2" },
      { text: "Capturing at section ends costs little.", locator: null },
    ],
    standing,
  };
}

/** Captures one tool result and records a SourceRead of it; returns the read id. */
function capturedRead(stream: Stream, call: string, standing: StandingSources = STANDING): string {
  const captured = stream.apply(captureCandidate(stream.context, nominated(call, `Result of ${call}: resumption takes longer after mid-paragraph capture.`)));
  return stream.apply(recordSourceRead(stream.context, readInput(captured.candidateIds, standing))).readId;
}

const review_ = (hypothesisObservationId: string, overrides: Partial<HypothesisReviewInput> = {}): HypothesisReviewInput => ({
  hypothesisObservationId,
  assessment: "insufficient-context",
  supportingClues: [],
  challengingClues: [],
  missingInformation: ["Whether the user writes notes by hand."],
  sourceIds: [],
  interpretationBoundary: "Only this Episode's readings were considered.",
  notebook: STANDING.notebook,
  ...overrides,
});

test("a whole chained Episode replays clean and the snapshot shows every link", () => {
  const stream = liveStream();
  const prompt = stream.apply(captureCandidate(stream.context, { origin: { kind: "user-input", inputSource: "interactive" }, text: "Why does capture slow me down?" }));
  const answer = stream.apply(captureCandidate(stream.context, { origin: { kind: "assistant-result", turnIndex: 0 }, text: "Capture timing matters." }));
  const tool = stream.apply(captureCandidate(stream.context, nominated("call-1", "Measured: mid-paragraph capture doubles resumption time.")));
  assert.equal(tool.status, "captured");

  const read = stream.apply(recordSourceRead(stream.context, readInput([...tool.candidateIds, ...answer.candidateIds])));
  assert.deepEqual(
    read.index.inquiries.map((inquiry) => [inquiry.inquiryId, inquiry.source]),
    [[DURABLE, "durable"]],
  );
  const hydration = stream.apply(hydrateInquiries(stream.context, { readId: read.readId, inquiryIds: [DURABLE], standing: STANDING }));
  assert.equal(hydration.reused, false);
  assert.deepEqual(
    hydration.context.inquiries.map((inquiry) => inquiry.inquiryId),
    [DURABLE],
  );
  // An identical hydration is reused, not appended again.
  const again = hydrateInquiries(stream.context, { readId: read.readId, inquiryIds: [DURABLE], standing: STANDING });
  assert.ok(again.ok);
  if (again.ok) assert.deepEqual([again.entries.length, again.value.hydrationId, again.value.reused], [0, hydration.hydrationId, true]);

  const related = stream.apply(recordObservation(stream.context, { readId: read.readId, relatedInquiryIds: [DURABLE], stance: "challenges", movement: "core-counterexample", rationale: "The study contradicts the standing claim." }));
  assert.equal(related.visibility, "alert");
  assert.deepEqual(related.contextBasis.selectedSourceIds, ["inquiry-context-evidence", "source-reading-evidence"]);

  const secondRead = capturedRead(stream, "call-2");
  const fresh = stream.apply(recordNewHypothesis(stream.context, { readId: secondRead, relatedInquiryIds: [], stance: "uncertain", rationale: "A new pattern appears.", hypothesis: "Section boundaries are natural capture points." }));
  assert.ok(fresh.inquiryId?.startsWith("inquiry-"));
  assert.deepEqual(fresh.contextBasis.selectedSourceIds, ["source-reading-evidence"]);

  const user = stream.apply(recordUserHypothesis(stream.context, { text: "I lose the thread when I stop mid-sentence.", context: "Said while reviewing notes." }));
  assert.deepEqual([user.status, user.reviewPending], ["recorded", true]);
  const reviewed = stream.apply(reviewHypothesis(stream.context, review_(user.observationId)));
  assert.equal(reviewed.reused, false);

  const snapshot = replayObservationSession(stream.entries);
  assert.deepEqual(snapshot.issues, []);
  assert.deepEqual(
    snapshot.candidates.map((candidate) => candidate.origin.kind),
    ["user-input", "assistant-result", "tool-result", "tool-result", "explicit-user-hypothesis"],
  );
  assert.equal(snapshot.candidates[0]?.candidateId, prompt.candidateIds[0]);
  assert.deepEqual(snapshot.sourceReads.map((item) => item.readId).sort(), [read.readId, secondRead].sort());
  assert.deepEqual(snapshot.hydrations.map((item) => item.hydrationId), [hydration.hydrationId]);
  assert.deepEqual(snapshot.observations.map((item) => item.observationId).sort(), [related.observationId, fresh.observationId].sort());
  assert.deepEqual(snapshot.userHypotheses.map((item) => [item.observationId, item.original]), [[user.observationId, "I lose the thread when I stop mid-sentence."]]);
  assert.deepEqual(snapshot.hypothesisReviews.map((item) => [item.hypothesisObservationId, item.assessment]), [[user.observationId, "insufficient-context"]]);
  assert.deepEqual(snapshot.unconsumedObservationIds, [related.observationId, fresh.observationId, user.observationId].sort());
  const readEvent = snapshot.sourceReads.find((item) => item.readId === read.readId);
  assert.deepEqual(readEvent?.candidateIds, [...tool.candidateIds, ...answer.candidateIds]);
  assert.equal(readEvent?.reviewRequestId, null);
});

test("every stance and every movement is recorded and replays", () => {
  const stream = liveStream();
  const plain = MOVEMENTS.filter((movement) => movement !== "independent-new-hypothesis");
  plain.forEach((movement, index) => {
    const readId = capturedRead(stream, `call-m${index}`);
    const stance = STANCES[index % STANCES.length] ?? "supports";
    const value = stream.apply(recordObservation(stream.context, { readId, relatedInquiryIds: [], stance, movement, rationale: `Observed ${movement}.` }));
    const alert = movement === "core-counterexample" || movement === "major-direction-change" || movement === "missed-important-mismatch";
    assert.equal(value.visibility, alert ? "alert" : "silent", movement);
  });
  // The stances the movements did not reach yet, with a related Inquiry this time.
  for (const stance of STANCES) {
    const readId = capturedRead(stream, `call-s-${stance}`);
    stream.apply(hydrateInquiries(stream.context, { readId, inquiryIds: [DURABLE], standing: STANDING }));
    stream.apply(recordObservation(stream.context, { readId, relatedInquiryIds: [DURABLE], stance, movement: "repeated-support", rationale: `Stance ${stance}.` }));
  }
  const snapshot = replayObservationSession(stream.entries);
  assert.deepEqual(snapshot.issues, []);
  assert.deepEqual(new Set(snapshot.observations.map((item) => item.movement)), new Set(plain));
  assert.deepEqual(new Set(snapshot.observations.map((item) => item.stance)), new Set(STANCES));
});

test("capture: long text is split into contiguous, headed segments that replay", () => {
  const text = `${Array.from({ length: 11_000 }, (_unused, index) => `w${index % 97}`).join(" ")}z`;
  assert.ok(text.length > 2 * CANDIDATE_SEGMENT_LENGTH);
  const segments = candidateTexts(text);
  assert.equal(segments.length, Math.ceil(text.length / CANDIDATE_SEGMENT_LENGTH));
  segments.forEach((segment, index) => {
    assert.ok(segment.startsWith(`[Observer candidate segment ${index + 1}/${segments.length}; contiguous text from one captured message]\n`));
    assert.ok(segment.length <= 20_000);
  });
  assert.equal(segments.map((segment) => segment.slice(segment.indexOf("\n") + 1)).join(""), text);
  assert.deepEqual(candidateTexts("short"), ["short"]);

  const stream = liveStream();
  // Segment boundaries must not fall on whitespace: a segment is trimmed text like any candidate.
  const unbroken = "x".repeat(45_000);
  const captured = stream.apply(captureCandidate(stream.context, nominated("call-long", unbroken)));
  assert.equal(captured.candidateIds.length, 3);
  const read = stream.apply(recordSourceRead(stream.context, readInput(captured.candidateIds)));
  assert.ok(read.readId.startsWith("source-read-"));
});

test("capture: an identical tool-result recapture reuses its candidate; other origins do not", () => {
  const stream = liveStream();
  const first = stream.apply(captureCandidate(stream.context, nominated("call-1", "Same text.")));
  const again = captureCandidate(stream.context, nominated("call-1", "Same text."));
  assert.ok(again.ok);
  if (again.ok) assert.deepEqual([again.entries.length, again.value.status, again.value.candidateIds], [0, "resumed", first.candidateIds]);
  const otherCall = stream.apply(captureCandidate(stream.context, nominated("call-2", "Same text.")));
  assert.notDeepEqual(otherCall.candidateIds, first.candidateIds);
  const prompt = { origin: { kind: "user-input", inputSource: "rpc" }, text: "Same prompt." } as const;
  const p1 = stream.apply(captureCandidate(stream.context, prompt));
  const p2 = stream.apply(captureCandidate(stream.context, prompt));
  assert.notDeepEqual(p1.candidateIds, p2.candidateIds);
});

test("capture refusals: no window, own tools, unnominated results, dirty history", () => {
  const off = new Stream([opened]);
  refused(captureCandidate(off.context, { origin: { kind: "user-input", inputSource: "interactive" }, text: "Hello." }), "observer.capture-closed");
  refused(captureCandidate(new Stream([]).context, { origin: { kind: "assistant-result", turnIndex: 1 }, text: "Hi." }), "observer.capture-closed");

  const stream = liveStream();
  refused(captureCandidate(stream.context, nominated("call-1", "x", "observer_sidecar")), "observer.capture-own-tool");
  refused(captureCandidate(stream.context, nominated("call-1", "x", "observer_anything")), "observer.capture-own-tool");
  refused(captureCandidate(stream.context, { ...nominated("call-1", "x", "docket_status"), isDocketTool: (name) => name.startsWith("docket_") }), "observer.capture-own-tool");
  refused(captureCandidate(stream.context, { origin: { kind: "tool-result", toolCallId: "call-1", toolName: "read_file" }, text: "x" }), "observer.capture-unnominated");
  refused(captureCandidate(stream.context, { ...nominated("call-1", "x"), nominationReason: "   " }), "observer.capture-unnominated");
  refused(captureCandidate(stream.context, { ...nominated("call-1", "x"), nominationReason: "r".repeat(4_001) }), "observer.invalid-input");
  refused(captureCandidate(stream.context, { origin: { kind: "user-input", inputSource: "interactive" }, text: "x", nominationReason: "why" }), "observer.invalid-input");
  // Text an event cannot hold is refused with the decoder's code (the reference refuses it too).
  refused(captureCandidate(stream.context, { origin: { kind: "user-input", inputSource: "interactive" }, text: " padded " }), "observation-profile.shape");
  refused(captureCandidate(stream.context, { ...nominated("call-1", "x"), reviewRequestId: id("material-review-", 1) }), "observer.review-stale");

  const dirty = liveStream();
  dirty.raw([{ custom: true, customType: "observer.observation", data: { observer_observation: "observer-observation/v1", kind: "nonsense" } }]);
  refused(captureCandidate(dirty.context, nominated("call-1", "x")), "observer.replay-issues");
});

test("a retrieved-tool-results Material review captures linked candidates with Observer off and reads them", () => {
  const request = id("material-review-", 50);
  const stream = new Stream([opened]);
  const retrieved = review({ kind: "material-review-requested", request_id: request, episode_id: EPISODE, user_message_digest: sha("material"), material: "retrieved-tool-results" });
  stream.raw([{ custom: true, customType: "observer.material-review", data: retrieved.data }]);
  const captured = stream.apply(captureCandidate(stream.context, { origin: { kind: "tool-result", toolCallId: "call-r", toolName: "web_fetch" }, text: "Fetched page text.", reviewRequestId: request }));
  refused(captureCandidate(stream.context, { origin: { kind: "tool-result", toolCallId: "call-r", toolName: "web_fetch" }, text: "x", reviewRequestId: request, nominationReason: "no" }), "observer.invalid-input");
  refused(captureCandidate(stream.context, { origin: { kind: "user-input", inputSource: "interactive" }, text: "x", reviewRequestId: request }), "observer.capture-closed");
  const read = stream.apply(recordSourceRead(stream.context, readInput(captured.candidateIds)));
  assert.equal(read.reviewRequestId, request);
  stream.apply(recordObservation(stream.context, { readId: read.readId, relatedInquiryIds: [], stance: "supports", movement: "repeated-support", rationale: "It supports." }));

  // An inline-user-message review does not collect tool results.
  const inline = new Stream([opened]);
  const inlineRequest = reviewRequested(id("material-review-", 60), EPISODE);
  inline.raw([{ custom: true, customType: "observer.material-review", data: inlineRequest.data }]);
  refused(captureCandidate(inline.context, { origin: { kind: "tool-result", toolCallId: "c", toolName: "t" }, text: "x", reviewRequestId: id("material-review-", 60) }), "observer.review-stale");
});

test("SourceRead refusals: unknown, consumed, user-hypothesis and foreign candidates; Observer off", () => {
  const stream = liveStream();
  refused(recordSourceRead(stream.context, readInput([id("candidate-", 999)])), "observer.candidate-unknown");
  refused(recordSourceRead(stream.context, readInput([])), "observer.invalid-input");
  const captured = stream.apply(captureCandidate(stream.context, nominated("call-1", "Text.")));
  refused(recordSourceRead(stream.context, readInput([...captured.candidateIds, ...captured.candidateIds])), "observer.invalid-input");
  stream.apply(recordSourceRead(stream.context, readInput(captured.candidateIds)));
  refused(recordSourceRead(stream.context, readInput(captured.candidateIds)), "observer.candidate-consumed");
  const user = stream.apply(recordUserHypothesis(stream.context, { text: "A hunch." }));
  refused(recordSourceRead(stream.context, readInput([user.candidateId])), "observer.candidate-not-source");

  const fresh = stream.apply(captureCandidate(stream.context, nominated("call-2", "Other text.")));
  stream.lifecycle({ kind: "activation-changed", enabled: false });
  refused(recordSourceRead(stream.context, readInput(fresh.candidateIds)), "observer.mode-off");

  // After the Episode is settled and another one opened, the old candidates are foreign.
  stream.lifecycle({ kind: "save-proposed", proposalId: "proposal-1", summary: "Save." });
  stream.lifecycle({ kind: "save-committed", proposalId: "proposal-1", receiptId: "receipt-1", validated: true, recordIds: [] });
  refused(recordSourceRead(stream.context, readInput(fresh.candidateIds)), "observer.episode-not-open");
  stream.lifecycle({ kind: "episode-opened", episodeId: "episode-chain-2", notebookId: NOTEBOOK, lang: "en" });
  stream.lifecycle(modeOn);
  refused(recordSourceRead(stream.context, readInput(fresh.candidateIds)), "observer.candidate-foreign-episode");
});

test("hydration refusals: unknown read, moved index, ids outside the index or repeated", () => {
  const stream = liveStream();
  refused(hydrateInquiries(stream.context, { readId: id("source-read-", 999), inquiryIds: [DURABLE], standing: STANDING }), "observer.read-unknown");
  const readId = capturedRead(stream, "call-1");
  const moved: StandingSources = { ...STANDING, notebook: [] };
  refused(hydrateInquiries(stream.context, { readId, inquiryIds: [DURABLE], standing: moved }), "observer.standing-index-changed");
  refused(hydrateInquiries(stream.context, { readId, inquiryIds: [id("inquiry-", 998)], standing: STANDING }), "standing-index.missing");
  refused(hydrateInquiries(stream.context, { readId, inquiryIds: [DURABLE, DURABLE], standing: STANDING }), "standing-index.empty");
  refused(hydrateInquiries(stream.context, { readId, inquiryIds: [], standing: STANDING }), "standing-index.empty");
  stream.lifecycle({ kind: "activation-changed", enabled: false });
  refused(hydrateInquiries(stream.context, { readId, inquiryIds: [DURABLE], standing: STANDING }), "observer.read-unauthorised");
});

test("observation refusals: one observation per reading, context that was not hydrated, wrong movement, foreign reading", () => {
  const stream = liveStream();
  const readId = capturedRead(stream, "call-1");
  const base = { readId, stance: "supports", movement: "repeated-support", rationale: "Supports." } as const;
  refused(recordObservation(stream.context, { ...base, relatedInquiryIds: [], movement: "independent-new-hypothesis" }), "observer.movement-needs-new-hypothesis");
  // Related inquiries without their hydration: the assessment finds the inquiry context missing.
  refused(recordObservation(stream.context, { ...base, relatedInquiryIds: [DURABLE] }), "observer.context-incomplete");
  refused(recordObservation(stream.context, { ...base, relatedInquiryIds: [], hydrationId: id("hydration-", 5) }), "observer.invalid-input");
  refused(recordObservation(stream.context, { ...base, relatedInquiryIds: [DURABLE, DURABLE] }), "observer.invalid-input");
  const otherRead = capturedRead(stream, "call-2");
  const otherHydration = stream.apply(hydrateInquiries(stream.context, { readId: otherRead, inquiryIds: [DURABLE], standing: STANDING }));
  // A hydration of another reading is not this reading's context.
  refused(recordObservation(stream.context, { ...base, relatedInquiryIds: [DURABLE], hydrationId: otherHydration.hydrationId }), "observer.context-incomplete");
  refused(recordObservation(stream.context, { ...base, readId: id("source-read-", 999), relatedInquiryIds: [] }), "observer.read-unknown");
  stream.apply(recordObservation(stream.context, { ...base, relatedInquiryIds: [] }));
  refused(recordObservation(stream.context, { ...base, relatedInquiryIds: [] }), "observer.read-already-observed");
  refused(recordNewHypothesis(stream.context, { readId, relatedInquiryIds: [], stance: "uncertain", rationale: "r", hypothesis: "h" }), "observer.read-already-observed");
  refused(recordObservation(stream.context, { ...base, readId: otherRead, relatedInquiryIds: [], rationale: " padded" }), "observation-profile.shape");

  stream.lifecycle({ kind: "save-proposed", proposalId: "proposal-1", summary: "Save." });
  stream.lifecycle({ kind: "save-committed", proposalId: "proposal-1", receiptId: "receipt-1", validated: true, recordIds: [] });
  stream.lifecycle({ kind: "episode-opened", episodeId: "episode-chain-2", notebookId: NOTEBOOK, lang: "en" });
  stream.lifecycle(modeOn);
  refused(recordObservation(stream.context, { ...base, readId: otherRead, relatedInquiryIds: [] }), "observer.read-foreign-episode");
});

test("user hypotheses: explicit ones need no Observer and resume; prompt ones need Observer on", () => {
  const stream = new Stream([opened]);
  const text = "Writing things down changes the cost of getting back in.";
  const first = stream.apply(recordUserHypothesis(stream.context, { text, inputSource: "rpc" }));
  const snapshot = replayObservationSession(stream.entries);
  assert.deepEqual(snapshot.userHypotheses.map((item) => [item.original, item.context]), [[text, "No user-provided context was supplied."]]);
  assert.equal(snapshot.candidates[0]?.text, text);
  const again = recordUserHypothesis(stream.context, { text, inputSource: "rpc" });
  assert.ok(again.ok);
  if (again.ok) assert.deepEqual([again.entries.length, again.value.status, again.value.observationId], [0, "resumed", first.observationId]);
  // The same wording with another context reuses the candidate and tracks a second hypothesis.
  const other = stream.apply(recordUserHypothesis(stream.context, { text, context: "Another angle." }));
  assert.equal(other.candidateId, first.candidateId);
  assert.notEqual(other.observationId, first.observationId);
  refused(recordUserHypothesis(new Stream([]).context, { text }), "observer.episode-not-open");

  refused(registerUserHypothesis(stream.context, { candidateId: first.candidateId, original: text, context: "c" }), "observer.mode-off");
  stream.lifecycle(modeOn);
  refused(registerUserHypothesis(stream.context, { candidateId: first.candidateId, original: text, context: "c" }), "observer.candidate-unknown");
  const prompt = stream.apply(captureCandidate(stream.context, { origin: { kind: "user-input", inputSource: "interactive" }, text: "I think breaks help." }));
  const promptId = prompt.candidateIds[0] ?? "";
  const registered = stream.apply(registerUserHypothesis(stream.context, { candidateId: promptId, original: "Breaks help.", context: "From the prompt." }));
  assert.equal(registered.status, "recorded");
  const underDurable = stream.apply(registerUserHypothesis(stream.context, { candidateId: promptId, original: "Breaks help a lot.", context: "c", existingInquiryId: DURABLE, standing: STANDING }));
  assert.equal(underDurable.inquiryId, DURABLE);
  refused(registerUserHypothesis(stream.context, { candidateId: promptId, original: "x", context: "c", existingInquiryId: id("inquiry-", 997), standing: STANDING }), "standing-index.missing");
});

test("hypothesis review: clue rules, known sources, one review per hypothesis, unknown hypotheses", () => {
  const stream = liveStream();
  const user = stream.apply(recordUserHypothesis(stream.context, { text: "Breaks help." }));
  const none = { supportingClues: [], challengingClues: [], missingInformation: [] };
  refused(reviewHypothesis(stream.context, review_(user.observationId, { ...none, assessment: "supports", challengingClues: ["c"] })), "observer.review-clues");
  refused(reviewHypothesis(stream.context, review_(user.observationId, { ...none, assessment: "challenges", supportingClues: ["s"] })), "observer.review-clues");
  refused(reviewHypothesis(stream.context, review_(user.observationId, { ...none, assessment: "mixed", supportingClues: ["s"] })), "observer.review-clues");
  refused(reviewHypothesis(stream.context, review_(user.observationId, { ...none, assessment: "insufficient-context", supportingClues: ["s"] })), "observer.review-clues");
  refused(reviewHypothesis(stream.context, review_(user.observationId, { sourceIds: [id("source-", 996)] })), "observer.review-source-unknown");
  refused(reviewHypothesis(stream.context, review_(id("observation-", 995))), "observer.hypothesis-unknown");

  const readId = capturedRead(stream, "call-1");
  const readSource = replayObservationSession(stream.entries).sourceReads.find((read) => read.readId === readId)?.source.sourceId ?? "";
  const value = stream.apply(
    reviewHypothesis(stream.context, review_(user.observationId, { ...none, assessment: "mixed", supportingClues: ["s"], challengingClues: ["c"], sourceIds: [readSource, NOTEBOOK_SOURCE] })),
  );
  assert.equal(value.reused, false);
  const again = reviewHypothesis(stream.context, review_(user.observationId, { ...none, assessment: "supports", supportingClues: ["other"] }));
  assert.ok(again.ok);
  if (again.ok) assert.deepEqual([again.entries.length, again.value.reused], [0, true]);

  // Observer off does not stop a review; a closed Episode does.
  stream.lifecycle({ kind: "activation-changed", enabled: false });
  const second = stream.apply(recordUserHypothesis(stream.context, { text: "Another hunch." }));
  stream.apply(reviewHypothesis(stream.context, review_(second.observationId, { ...none, assessment: "supports", supportingClues: ["s"] })));
  stream.lifecycle({ kind: "save-proposed", proposalId: "proposal-1", summary: "Save." });
  refused(reviewHypothesis(stream.context, review_(second.observationId)), "observer.episode-not-open");
});

test("the standing index follows the stream: a new hypothesis becomes a pending Inquiry that can be hydrated", () => {
  const stream = liveStream();
  const readId = capturedRead(stream, "call-1");
  const fresh = stream.apply(recordNewHypothesis(stream.context, { readId, relatedInquiryIds: [], stance: "uncertain", rationale: "A pattern.", hypothesis: "Section ends are safe." }));
  const user = stream.apply(recordUserHypothesis(stream.context, { text: "Mornings are better." }));
  const more = stream.apply(captureCandidate(stream.context, nominated("call-2", "More text.")));
  const nextRead = stream.apply(recordSourceRead(stream.context, readInput(more.candidateIds)));
  assert.deepEqual(
    nextRead.index.inquiries.map((inquiry) => [inquiry.inquiryId, inquiry.source]).sort(),
    [
      [DURABLE, "durable"],
      [fresh.inquiryId, "pending"],
      [user.inquiryId, "pending"],
    ].sort(),
  );
  const hydration = stream.apply(hydrateInquiries(stream.context, { readId: nextRead.readId, inquiryIds: [fresh.inquiryId ?? "", user.inquiryId], standing: STANDING }));
  assert.deepEqual(
    hydration.context.inquiries.map((inquiry) => [inquiry.source, inquiry.origin, inquiry.body]).sort(),
    [
      ["pending", "observer", "A pattern."],
      ["pending", "user", "No user-provided context was supplied."],
    ].sort(),
  );
  stream.apply(recordObservation(stream.context, { readId: nextRead.readId, relatedInquiryIds: [user.inquiryId, fresh.inquiryId ?? ""], stance: "refines", movement: "minor-refinement", rationale: "Refines both." }));
  assert.deepEqual(replayObservationSession(stream.entries).issues, []);
});

test("refusals stage nothing and a dirty history refuses every operation", () => {
  const stream = liveStream();
  const readId = capturedRead(stream, "call-1");
  stream.raw([{ custom: true, customType: "observer.lifecycle", data: { protocol: "observer/v1", kind: "bogus" } }]);
  const context = stream.context;
  for (const outcome of [
    recordSourceRead(context, readInput([id("candidate-", 1)])),
    hydrateInquiries(context, { readId, inquiryIds: [DURABLE], standing: STANDING }),
    recordObservation(context, { readId, relatedInquiryIds: [], stance: "supports", movement: "repeated-support", rationale: "r" }),
    recordNewHypothesis(context, { readId, relatedInquiryIds: [], stance: "supports", rationale: "r", hypothesis: "h" }),
    recordUserHypothesis(context, { text: "t" }),
    reviewHypothesis(context, review_(id("observation-", 1))),
  ]) {
    refused(outcome, "observer.replay-issues");
    assert.equal("entries" in outcome, false);
  }
});
