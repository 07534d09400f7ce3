// Material review operations (server/observer/materialReviewOperations.ts): every successful
// operation's entries replay with no new issue and keep the Material review history clean; every
// refusal is coded and stages nothing. Also the bounds on the material: inline text, segmented
// retrieved text, and a workspace file read without links.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { ReviewHistoryReplay, reviewCompletionDigest } from "../../server/observer/materialReview";
import {
  CANDIDATE_TEXT_LIMIT,
  candidateSegments,
  cancelMaterialReview,
  captureRetrievedMaterial,
  completeMaterialReview,
  materialUrlProblem,
  readMaterialFile,
  requestMaterialReview,
  retryMaterialReview,
} from "../../server/observer/materialReviewOperations";
import { replayObservationSession, type ObserverLogEntry } from "../../server/observer/observationSession";
import { asLogEntries, type DraftContext, type DraftOutcome, type ObserverIds } from "../../server/observer/observerDrafts";
import { EPISODE, id, lifecycle, memoRequestPayload, modeOn, observation, opened, reviewCompleted, semanticPayload, sha, sourceReadPayload, type HostEntry, type ReadSpec } from "../support/observerLog";

const NOW = "2026-08-02T09:00:00.000Z";
const MESSAGE = "Observe this: capture timing changes how long it takes to get back into reading.";

function toLog(entries: readonly HostEntry[]): ObserverLogEntry[] {
  return entries.map((entry) => (entry.type === "custom" && entry.customType !== undefined ? { custom: true, customType: entry.customType, data: entry.data } : { custom: false }));
}

/** Ids drawn in order: prefix + a fixed UUID numbered from 900. */
function sequence(start = 900): ObserverIds {
  let next = start;
  return { next: (prefix) => id(prefix, next++) };
}

function context(log: readonly ObserverLogEntry[], ids: ObserverIds = sequence()): DraftContext {
  return { entries: log, now: NOW, ids };
}

function reviewProblems(log: readonly ObserverLogEntry[]): number {
  const history = new ReviewHistoryReplay();
  for (const entry of log) if (entry.custom && entry.customType === "observer.material-review") history.apply(entry.data);
  return history.history.problems;
}

/** Asserts success, that the whole log still replays clean, and returns the log with the entries. */
function accepted<Value>(log: readonly ObserverLogEntry[], outcome: DraftOutcome<Value>): { log: ObserverLogEntry[]; value: Value } {
  assert.ok(outcome.ok, outcome.ok ? "" : `${outcome.code}: ${outcome.message}`);
  const after = [...log, ...asLogEntries(outcome.entries)];
  assert.deepEqual(replayObservationSession(after).issues, []);
  assert.equal(reviewProblems(after), 0);
  return { log: after, value: outcome.value };
}

function refused<Value>(outcome: DraftOutcome<Value>, code: string): void {
  assert.equal(outcome.ok, false, "expected a refusal");
  assert.equal(outcome.ok ? "" : outcome.code, code, outcome.ok ? "" : outcome.message);
}

const base = (): ObserverLogEntry[] => toLog([opened()]);
const latest = (text = MESSAGE) => ({ text, inputSource: "interactive" as const });

/** A linked SourceRead over `candidates` and its one semantic observation, as host entries. */
function readAndObserve(requestId: string, candidates: readonly { id: string; text: string }[], n: number): ObserverLogEntry[] {
  const spec: ReadSpec = {
    readId: id("source-read-", n),
    candidates,
    sourceId: id("source-", n),
    summary: "The message reports that capture timing changes re-entry cost.",
    claims: [{ text: "Capture timing changes re-entry cost.", locator: null }],
    indexDigest: sha("standing-index"),
    indexInquiryIds: [],
    review: requestId,
  };
  return toLog([observation(sourceReadPayload(spec)), observation(semanticPayload({ observationId: id("observation-", n), read: spec, hydration: null, stance: "supports", movement: "repeated-support" }))]);
}

test("inline request with Observer off: the request and the message as its linked candidate; asking again resumes it", () => {
  const first = accepted(base(), requestMaterialReview(context(base()), { latestUser: latest(), material: "inline-user-message" }));
  assert.deepEqual(first.value, { requestId: id("material-review-", 900), episodeId: EPISODE, status: "requested", candidateId: id("candidate-", 901) });
  const [request, candidate] = first.log.slice(1) as { customType: string; data: Record<string, unknown> }[];
  assert.deepEqual(request?.data, {
    protocol: "observer.material-review/v1",
    kind: "material-review-requested",
    request_id: id("material-review-", 900),
    episode_id: EPISODE,
    user_message_digest: sha(MESSAGE),
    material: "inline-user-message",
  });
  assert.equal(candidate?.data.one_shot_request_id, id("material-review-", 900));
  assert.deepEqual(candidate?.data.origin, { kind: "user-input", input_source: "interactive" });
  assert.equal(replayObservationSession(first.log).lifecycle.mode, "off");

  const again = requestMaterialReview(context(first.log), { latestUser: latest(), material: "inline-user-message" });
  assert.deepEqual(again, { ok: true, entries: [], value: { ...first.value, status: "resumed" } });
  // A request recorded without its candidate (a crash between the two) gets the candidate on resume.
  const requestOnly = first.log.slice(0, 2);
  const resumed = accepted(requestOnly, requestMaterialReview(context(requestOnly), { latestUser: latest(), material: "inline-user-message" }));
  assert.equal(resumed.value.status, "resumed");
  assert.equal(resumed.log.length, 3);
});

test("request refusals: another request pending, no open Episode, bad or oversized message, broken histories, a pending Memo request", () => {
  const pending = accepted(base(), requestMaterialReview(context(base()), { latestUser: latest(), material: "inline-user-message" })).log;
  refused(requestMaterialReview(context(pending), { latestUser: latest("Another message."), material: "inline-user-message" }), "material-review.pending");
  refused(requestMaterialReview(context(pending), { latestUser: latest(), material: "retrieved-tool-results" }), "material-review.pending");
  refused(requestMaterialReview(context([]), { latestUser: latest(), material: "inline-user-message" }), "observer.material-review-episode-required");
  const reviewing = toLog([opened(), lifecycle({ kind: "save-proposed", proposalId: "proposal-1", summary: "Save." })]);
  refused(requestMaterialReview(context(reviewing), { latestUser: latest(), material: "retrieved-tool-results" }), "observer.material-review-episode-required");
  refused(requestMaterialReview(context(base()), { latestUser: latest(` ${MESSAGE}`), material: "inline-user-message" }), "material-review.intent");
  refused(requestMaterialReview(context(base()), { latestUser: latest(""), material: "inline-user-message" }), "material-review.intent");
  refused(requestMaterialReview(context(base()), { latestUser: latest("x".repeat(CANDIDATE_TEXT_LIMIT + 1)), material: "inline-user-message" }), "observer.material-too-large");
  // The same long message may still be reviewed through retrieval (it is not the candidate itself).
  accepted(base(), requestMaterialReview(context(base()), { latestUser: latest("x".repeat(CANDIDATE_TEXT_LIMIT + 1)), material: "retrieved-tool-results" }));
  const strayCompletion = toLog([opened(), reviewCompleted(id("material-review-", 5), [id("observation-", 5)])]);
  refused(requestMaterialReview(context(strayCompletion), { latestUser: latest(), material: "inline-user-message" }), "material-review.history");
  const replayIssue = toLog([opened(), opened()]);
  refused(requestMaterialReview(context(replayIssue), { latestUser: latest(), material: "inline-user-message" }), "observer.replay-issues");
});

test("retrieved material: linked tool-result candidates, in segments when long; a recapture reuses them", () => {
  const requested = accepted(base(), requestMaterialReview(context(base()), { latestUser: latest(), material: "retrieved-tool-results" }));
  assert.equal(requested.value.candidateId, null);
  const requestId = requested.value.requestId;
  const ids = sequence();
  const text = `${"A long paper. ".repeat(3_000)}The end.`;
  const captured = accepted(requested.log, captureRetrievedMaterial(context(requested.log, ids), { requestId, toolCallId: "call-1", toolName: "docket_read_file", text }));
  assert.equal(captured.value.status, "captured");
  assert.equal(captured.value.candidateIds.length, candidateSegments(text).length);
  assert.ok(captured.value.candidateIds.length > 1);
  const snapshot = replayObservationSession(captured.log);
  assert.ok(snapshot.candidates.every((candidate) => candidate.reviewRequestId === requestId && candidate.origin.kind === "tool-result"));
  const again = captureRetrievedMaterial(context(captured.log, sequence()), { requestId, toolCallId: "call-1", toolName: "docket_read_file", text });
  assert.deepEqual(again, { ok: true, entries: [], value: { candidateIds: captured.value.candidateIds, status: "resumed" } });

  refused(captureRetrievedMaterial(context(captured.log), { requestId: id("material-review-", 1), toolCallId: "c", toolName: "read", text: "x" }), "material-review.pending");
  refused(captureRetrievedMaterial(context(captured.log), { requestId, toolCallId: "c", toolName: "observer_sidecar", text: "x" }), "observer.material-invalid");
  refused(captureRetrievedMaterial(context(captured.log), { requestId, toolCallId: "c", toolName: "read", text: "   " }), "observer.material-invalid");
  refused(captureRetrievedMaterial(context(captured.log), { requestId, toolCallId: "c", toolName: "read", text: "x".repeat(1_048_577) }), "observer.material-too-large");
  // An inline request takes no retrieved material.
  const inline = accepted(base(), requestMaterialReview(context(base()), { latestUser: latest(), material: "inline-user-message" }));
  refused(captureRetrievedMaterial(context(inline.log), { requestId: inline.value.requestId, toolCallId: "c", toolName: "read", text: "x" }), "material-review.pending");
});

test("completion needs coverage; it records the sorted observation ids and their digest; completing again resumes", () => {
  const requested = accepted(base(), requestMaterialReview(context(base()), { latestUser: latest(), material: "retrieved-tool-results" }));
  const requestId = requested.value.requestId;
  refused(completeMaterialReview(context(requested.log), { requestId }), "material-review.coverage");
  const ids = sequence();
  const first = accepted(requested.log, captureRetrievedMaterial(context(requested.log, ids), { requestId, toolCallId: "call-1", toolName: "read", text: "First result." }));
  const second = accepted(first.log, captureRetrievedMaterial(context(first.log, ids), { requestId, toolCallId: "call-2", toolName: "read", text: "Second result." }));
  const [one, two] = [first.value.candidateIds[0] as string, second.value.candidateIds[0] as string];
  refused(completeMaterialReview(context(second.log), { requestId }), "material-review.coverage");
  // Read and observe the second candidate only: the first is still unread.
  const partial = [...second.log, ...readAndObserve(requestId, [{ id: two, text: "Second result." }], 20)];
  assert.deepEqual(replayObservationSession(partial).issues, []);
  refused(completeMaterialReview(context(partial), { requestId }), "material-review.coverage");
  // A read without its observation is not coverage either.
  const unobserved = [...partial, ...readAndObserve(requestId, [{ id: one, text: "First result." }], 10).slice(0, 1)];
  refused(completeMaterialReview(context(unobserved), { requestId }), "material-review.coverage");
  const covered = [...partial, ...readAndObserve(requestId, [{ id: one, text: "First result." }], 10)];
  const done = accepted(covered, completeMaterialReview(context(covered), { requestId }));
  const observationIds = [id("observation-", 10), id("observation-", 20)];
  assert.deepEqual(done.value, { requestId, observationIds, digest: reviewCompletionDigest(requestId, EPISODE, observationIds), status: "completed" });
  assert.deepEqual((done.log.at(-1) as { data: unknown }).data, {
    protocol: "observer.material-review/v1",
    kind: "material-review-completed",
    request_id: requestId,
    episode_id: EPISODE,
    observation_ids: observationIds,
    digest: reviewCompletionDigest(requestId, EPISODE, observationIds),
  });
  assert.deepEqual(completeMaterialReview(context(done.log), { requestId }), { ok: true, entries: [], value: { ...done.value, status: "resumed" } });
  refused(completeMaterialReview(context(done.log), { requestId: id("material-review-", 3) }), "material-review.pending");
  refused(completeMaterialReview(context(done.log), { requestId: "not-an-id" }), "material-review.pending");
  // After completion the request's window is closed: no more captures, and a new request may start.
  refused(captureRetrievedMaterial(context(done.log), { requestId, toolCallId: "call-3", toolName: "read", text: "Late." }), "material-review.pending");
  accepted(done.log, requestMaterialReview(context(done.log, sequence(950)), { latestUser: latest("Observe the next one."), material: "retrieved-tool-results" }));
  // Reusing the completed request's id would contradict the history, and is refused.
  refused(requestMaterialReview(context(done.log), { latestUser: latest("Observe the next one."), material: "retrieved-tool-results" }), "material-review.history");
});

test("a pending Memo request blocks a new Material review", () => {
  const requested = accepted(base(), requestMaterialReview(context(base()), { latestUser: latest(), material: "retrieved-tool-results" }));
  const requestId = requested.value.requestId;
  const captured = accepted(requested.log, captureRetrievedMaterial(context(requested.log), { requestId, toolCallId: "call-1", toolName: "read", text: "First result." }));
  const observed = [...captured.log, ...readAndObserve(requestId, [{ id: captured.value.candidateIds[0] as string, text: "First result." }], 10)];
  const done = accepted(observed, completeMaterialReview(context(observed), { requestId }));
  const semantic = { type: "custom" as const, customType: "observer.observation", data: (observed.at(-1) as { data: unknown }).data };
  const memoRequest = toLog([observation(memoRequestPayload(id("memo-request-", 1), [semantic]))]);
  const busy = [...done.log, ...memoRequest];
  assert.deepEqual(replayObservationSession(busy).issues, []);
  refused(requestMaterialReview(context(busy), { latestUser: latest("Observe another."), material: "inline-user-message" }), "observer.material-review-busy");
});

test("cancel closes the pending request at the user's word (Episode and mode unchanged); retry records nothing", () => {
  const on = toLog([opened(), modeOn()]);
  const requested = accepted(on, requestMaterialReview(context(on), { latestUser: latest(), material: "retrieved-tool-results" }));
  const requestId = requested.value.requestId;
  assert.deepEqual(retryMaterialReview(context(requested.log)), { ok: true, entries: [], value: { requestId, episodeId: EPISODE, material: "retrieved-tool-results" } });
  refused(retryMaterialReview(context(requested.log), { requestId: id("material-review-", 1) }), "material-review.pending");
  refused(cancelMaterialReview(context(requested.log), { requestId: id("material-review-", 1) }), "material-review.pending");
  const cancelled = accepted(requested.log, cancelMaterialReview(context(requested.log), { requestId }));
  assert.deepEqual((cancelled.log.at(-1) as { data: unknown }).data, { protocol: "observer.material-review/v1", kind: "material-review-cancelled", request_id: requestId, episode_id: EPISODE, reason: "user-requested" });
  const snapshot = replayObservationSession(cancelled.log);
  assert.equal(snapshot.lifecycle.mode, "on");
  assert.equal(snapshot.lifecycle.episode.status, "open");
  refused(cancelMaterialReview(context(cancelled.log)), "material-review.pending");
  refused(retryMaterialReview(context(cancelled.log)), "material-review.pending");
  refused(captureRetrievedMaterial(context(cancelled.log), { requestId, toolCallId: "c", toolName: "read", text: "Late." }), "material-review.pending");
  refused(completeMaterialReview(context(cancelled.log), { requestId }), "material-review.pending");
});

test("a pending request of an Episode that is no longer open cannot be cancelled, retried or completed", () => {
  const requested = accepted(base(), requestMaterialReview(context(base()), { latestUser: latest(), material: "retrieved-tool-results" }));
  const reviewing = [...requested.log, ...toLog([lifecycle({ kind: "save-proposed", proposalId: "proposal-1", summary: "Save." })])];
  refused(cancelMaterialReview(context(reviewing)), "observer.material-review-episode-required");
  refused(retryMaterialReview(context(reviewing)), "observer.material-review-episode-required");
  refused(completeMaterialReview(context(reviewing), { requestId: requested.value.requestId }), "observer.material-review-episode-required");
});

test("property: segments are bounded, trimmed, headed i/n, and their payloads rebuild the text", () => {
  const header = /^\[Observer candidate segment (\d+)\/(\d+); contiguous text from one captured message\]\n/u;
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 70_000, unit: fc.constantFrom("a", "b", " ", "\n", "é", "\t") }), fc.nat(3), (body, pad) => {
      const text = `x${body}${"y".repeat(pad)}`.trim();
      const segments = candidateSegments(text);
      if (text.length <= CANDIDATE_TEXT_LIMIT) return assert.deepEqual(segments, [text]);
      let rebuilt = "";
      segments.forEach((segment, index) => {
        assert.ok(segment.length <= CANDIDATE_TEXT_LIMIT);
        assert.equal(segment, segment.trim());
        const match = header.exec(segment);
        assert.ok(match !== null);
        assert.deepEqual([Number(match[1]), Number(match[2])], [index + 1, segments.length]);
        rebuilt += segment.slice(match[0].length);
      });
      assert.equal(rebuilt, text);
    }),
    { numRuns: 40 },
  );
});

test("readMaterialFile: a regular UTF-8 file inside the workspace, bounded, never through a link", { skip: process.platform === "win32" ? "symbolic links need privileges on Windows" : false }, () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "docket-material-"));
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), "docket-material-outside-"));
  try {
    fs.mkdirSync(path.join(root, "notes"));
    fs.writeFileSync(path.join(root, "notes", "paper.md"), "\n# Paper\n\nCapture timing matters.\n");
    assert.deepEqual(readMaterialFile(root, "notes/paper.md"), { ok: true, text: "# Paper\n\nCapture timing matters.", file: path.join("notes", "paper.md") });
    assert.equal(readMaterialFile(root, path.join(fs.realpathSync(root), "notes", "paper.md")).ok, true);
    const code = (file: string, maxBytes?: number): string => {
      const read = readMaterialFile(root, file, maxBytes);
      return read.ok ? "ok" : read.code;
    };
    assert.equal(code("notes/missing.md"), "observer.material-not-found");
    assert.equal(code("notes/paper.md", 10), "observer.material-too-large");
    fs.writeFileSync(path.join(root, "binary.bin"), Buffer.from([0x41, 0x00, 0x42]));
    assert.equal(code("binary.bin"), "observer.material-unreadable");
    fs.writeFileSync(path.join(root, "latin1.txt"), Buffer.from([0xe9, 0x74, 0xe9]));
    assert.equal(code("latin1.txt"), "observer.material-unreadable");
    fs.writeFileSync(path.join(root, "blank.txt"), " \n ");
    assert.equal(code("blank.txt"), "observer.material-unreadable");
    assert.equal(code("notes"), "observer.material-unreadable");
    fs.writeFileSync(path.join(outside, "secret.txt"), "secret");
    assert.equal(code(path.join(outside, "secret.txt")), "observer.material-unreadable");
    assert.equal(code(`../${path.basename(outside)}/secret.txt`), "observer.material-unreadable");
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "link.txt"));
    assert.equal(code("link.txt"), "observer.material-unreadable");
    fs.symlinkSync(outside, path.join(root, "linked"));
    assert.equal(code("linked/secret.txt"), "observer.material-unreadable");
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  }
});

test("a Material URL is http(s) without credentials; nothing here fetches it", () => {
  assert.equal(materialUrlProblem("https://example.com/paper.pdf"), null);
  assert.equal(materialUrlProblem("http://127.0.0.1:8000/x"), null);
  for (const url of ["file:///etc/passwd", "https://user:pw@example.com/", "not a url", "javascript:alert(1)"]) assert.notEqual(materialUrlProblem(url), null, url);
});

test("the entries a request stages are exactly what a replay in another order would refuse", () => {
  // The batch order matters: the same candidate before its request is a scope issue.
  const outcome = requestMaterialReview(context(base()), { latestUser: latest(), material: "inline-user-message" });
  assert.ok(outcome.ok);
  const [request, candidate] = outcome.entries;
  const swapped = [...base(), ...asLogEntries([candidate, request].filter((entry) => entry !== undefined))];
  assert.deepEqual(
    replayObservationSession(swapped).issues.map((issue) => issue.code),
    ["observation-session.scope"],
  );
});
