// Review & Save replay (server/observer/saveReplay.ts): the reference's prepared handoff, approved
// attempt and save request rules — codes at the same entries, identical repeats ignored, the first
// handoff kept on conflict, the handoff digest independent of key order, requests consumed by any
// lifecycle save event naming their proposal and at most one pending.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { ObserverLogEntry } from "../../server/observer/observationSession";
import { decodeApprovedSaveAttempt, decodePreparedSaveHandoff, decodeSaveRequest, preparedSaveDigest, saveRequestData, type PreparedSaveHandoff } from "../../server/observer/saveProfile";
import { replayObserverSaves } from "../../server/observer/saveReplay";
import { id, sha } from "../support/observerLog";

const NOTEBOOK = id("notebook-", 1);
const PROPOSAL = "proposal-1";

const custom = (customType: string, data: unknown): ObserverLogEntry => ({ custom: true, customType, data });
const lifecycle = (data: Record<string, unknown>): ObserverLogEntry => custom("observer.lifecycle", { protocol: "observer/v1", ...data });
const selected = (): ObserverLogEntry => lifecycle({ kind: "notebook-selected", notebookId: NOTEBOOK });
const opened = (): ObserverLogEntry => lifecycle({ kind: "episode-opened", episodeId: "episode-1", notebookId: NOTEBOOK, lang: "ko" });
const activation = (enabled: boolean): ObserverLogEntry => lifecycle({ kind: "activation-changed", enabled });
const proposed = (summary = "Plan to approve."): ObserverLogEntry => lifecycle({ kind: "save-proposed", proposalId: PROPOSAL, summary });
const cancelled = (): ObserverLogEntry => lifecycle({ kind: "save-cancelled", proposalId: PROPOSAL });
const committed = (): ObserverLogEntry => lifecycle({ kind: "save-committed", proposalId: PROPOSAL, receipt: { receiptId: "receipt-1", status: "validated", recordIds: [] } });

function handoff(summary = "Plan to approve."): PreparedSaveHandoff {
  return {
    protocol: "observer.pi-prepared-save/v1",
    summary,
    prepared: { observer_save: "observer-save/v1", proposal_id: PROPOSAL, notebook_id: NOTEBOOK, root: "/tmp/observer-notebook", episode_language: "ko", records: [] },
  };
}

const preparedEntry = (value: unknown = handoff()): ObserverLogEntry => custom("observer.prepared-save", value);

function attempt(value: PreparedSaveHandoff = handoff(), attemptId = "attempt-1"): Record<string, unknown> {
  return { protocol: "observer.pi-save-attempt/v1", kind: "approved", attemptId, proposalId: value.prepared.proposal_id, preparedDigest: preparedSaveDigest(value) };
}

const attemptEntry = (value: unknown = attempt()): ObserverLogEntry => custom("observer.save-attempt", value);
const openBranch = (): ObserverLogEntry[] => [selected(), opened(), activation(true)];
const codes = (entries: readonly ObserverLogEntry[]): string[] => replayObserverSaves(entries).issues.map((issue) => issue.code);
const positions = (entries: readonly ObserverLogEntry[]): [number, string][] => replayObserverSaves(entries).issues.map((issue) => [issue.index, issue.code]);

test("handoffs and attempts decode strictly", () => {
  assert.equal(decodePreparedSaveHandoff(handoff()).ok, true);
  const extra = decodePreparedSaveHandoff({ ...handoff(), extra: true });
  assert.equal(!extra.ok && extra.code, "pi-entry.handoff.shape");
  const unsupported = decodePreparedSaveHandoff({ ...handoff(), protocol: "observer.pi-prepared-save/v2" });
  assert.equal(!unsupported.ok && unsupported.code, "pi-entry.handoff.unsupported");
  const badPrepared = decodePreparedSaveHandoff({ ...handoff(), prepared: { ...handoff().prepared, root: "relative/root" } });
  assert.equal(!badPrepared.ok && badPrepared.code, "pi-entry.handoff.shape");
  const blankSummary = decodePreparedSaveHandoff({ ...handoff(), summary: " padded " });
  assert.equal(blankSummary.ok, false);

  assert.equal(decodeApprovedSaveAttempt(attempt()).ok, true);
  const badDigest = decodeApprovedSaveAttempt({ ...attempt(), preparedDigest: "not-a-hash" });
  assert.equal(!badDigest.ok && badDigest.code, "pi-entry.attempt.shape");
  const otherProtocol = decodeApprovedSaveAttempt({ ...attempt(), protocol: "observer.pi-save-attempt/v2" });
  assert.equal(!otherProtocol.ok && otherProtocol.code, "pi-entry.attempt.unsupported");
});

test("the handoff digest is taken over the decoded handoff, so input key order does not matter", () => {
  const reordered = {
    prepared: { records: [], episode_language: "ko", root: "/tmp/observer-notebook", notebook_id: NOTEBOOK, proposal_id: PROPOSAL, observer_save: "observer-save/v1" },
    summary: "Plan to approve.",
    protocol: "observer.pi-prepared-save/v1",
  };
  const decoded = decodePreparedSaveHandoff(reordered);
  assert.ok(decoded.ok);
  assert.equal(preparedSaveDigest(decoded.value), preparedSaveDigest(handoff()));
  assert.deepEqual(Object.keys(decoded.value), ["protocol", "summary", "prepared"]);
});

test("property: any key order of a handoff with records replays as the same proposal", () => {
  const records = [
    { operation: "update", record_id: "memo-a", expected_sha256: sha("before"), markdown: "# A\n" },
    { operation: "create", record_id: "source-b", markdown: "# B\n" },
  ];
  const base = { ...handoff(), prepared: { ...handoff().prepared, records } };
  const decodedBase = decodePreparedSaveHandoff(base);
  assert.ok(decodedBase.ok);
  const shuffle = (value: Record<string, unknown>, order: readonly number[]): Record<string, unknown> => {
    const keys = Object.keys(value);
    const ranked = keys.map((key, index) => ({ key, rank: order[index % order.length] ?? 0, index }));
    ranked.sort((left, right) => left.rank - right.rank || left.index - right.index);
    return Object.fromEntries(ranked.map(({ key }) => [key, value[key]]));
  };
  fc.assert(
    fc.property(fc.array(fc.nat(10), { minLength: 1, maxLength: 6 }), (order) => {
      const prepared = base.prepared;
      const moved = shuffle({ ...base, prepared: shuffle({ ...prepared, records: prepared.records.map((record) => shuffle(record, order)) }, order) }, order);
      const decoded = decodePreparedSaveHandoff(moved);
      assert.ok(decoded.ok);
      assert.equal(preparedSaveDigest(decoded.value), preparedSaveDigest(decodedBase.value));
      const attemptOfBase = attemptEntry(attempt(decodedBase.value));
      assert.deepEqual(codes([...openBranch(), preparedEntry(moved), proposed(), attemptOfBase, committed()]), []);
    }),
    { numRuns: 60 },
  );
});

test("a prepared, proposed, approved and committed save replays clean and clears the proposal", () => {
  const snapshot = replayObserverSaves([...openBranch(), preparedEntry(), proposed(), attemptEntry(), committed()]);
  assert.deepEqual(snapshot.issues, []);
  assert.equal(snapshot.lifecycle.mode, "off");
  assert.equal(snapshot.lifecycle.episode.status, "settled");
  assert.equal(snapshot.prepared, null);
  assert.equal(snapshot.attempt, null);
});

test("identical handoff and attempt repeats are ignored", () => {
  const snapshot = replayObserverSaves([...openBranch(), preparedEntry(), preparedEntry(), proposed(), attemptEntry(), attemptEntry()]);
  assert.deepEqual(snapshot.issues, []);
  assert.equal(snapshot.lifecycle.episode.status, "reviewing-save");
  assert.equal(snapshot.attempt?.attemptId, "attempt-1");
});

test("a conflicting handoff is an issue and the first one stays", () => {
  const snapshot = replayObserverSaves([...openBranch(), preparedEntry(), preparedEntry(handoff("Another plan.")), proposed()]);
  assert.deepEqual(
    snapshot.issues.map((issue) => [issue.index, issue.code]),
    [[4, "pi-entry.handoff.conflict"]],
  );
  assert.equal(snapshot.prepared?.handoff.summary, "Plan to approve.");
  assert.equal(snapshot.lifecycle.episode.status, "reviewing-save");
});

test("reordered lifecycle and a stale attempt fail closed at their entries", () => {
  const stale = { ...attempt(), preparedDigest: "a".repeat(64) };
  const entries = [...openBranch(), proposed(), preparedEntry(), attemptEntry(stale), committed()];
  assert.deepEqual(positions(entries), [
    [3, "pi-entry.lifecycle.order"],
    [5, "pi-entry.attempt.order"],
    [6, "pi-entry.lifecycle.order"],
  ]);
  const snapshot = replayObserverSaves(entries);
  assert.equal(snapshot.lifecycle.episode.status, "open");
  assert.equal(snapshot.prepared?.handoff.prepared.proposal_id, PROPOSAL);
});

test("malformed owned entries are issues; other custom and non-custom entries are ignored", () => {
  const entries: ObserverLogEntry[] = [
    custom("another.extension", { bad: true }),
    lifecycle({ kind: "unknown" }),
    custom("observer.prepared-save", null),
    custom("observer.save-attempt", { protocol: "other" }),
    { custom: false },
  ];
  assert.deepEqual(positions(entries), [
    [1, "pi-entry.lifecycle.decode"],
    [2, "pi-entry.handoff.shape"],
    [3, "pi-entry.attempt.unsupported"],
  ]);
  assert.equal(replayObserverSaves(entries).lifecycle.episode.status, "empty");
});

test("a handoff needs the open Episode of its Notebook; a proposal needs the same summary; a transition can still be refused", () => {
  const otherNotebook = { ...handoff(), prepared: { ...handoff().prepared, notebook_id: id("notebook-", 2) } };
  assert.deepEqual(positions([preparedEntry()]), [[0, "pi-entry.handoff.order"]]);
  assert.deepEqual(positions([...openBranch(), preparedEntry(otherNotebook)]), [[3, "pi-entry.handoff.order"]]);
  assert.deepEqual(positions([...openBranch(), preparedEntry(), proposed("A different summary.")]), [[4, "pi-entry.lifecycle.order"]]);
  // The order guard passes, the lifecycle refuses an unvalidated receipt.
  const unvalidated = lifecycle({ kind: "save-committed", proposalId: PROPOSAL, receipt: { receiptId: "receipt-1", status: "unvalidated", recordIds: [] } });
  assert.deepEqual(positions([...openBranch(), preparedEntry(), proposed(), attemptEntry(), unvalidated]), [[6, "pi-entry.lifecycle.transition"]]);
  // An attempt before the proposal is out of order; a different second attempt conflicts.
  assert.deepEqual(positions([...openBranch(), preparedEntry(), attemptEntry()]), [[4, "pi-entry.attempt.order"]]);
  assert.deepEqual(positions([...openBranch(), preparedEntry(), proposed(), attemptEntry(), attemptEntry(attempt(handoff(), "attempt-2"))]), [[6, "pi-entry.attempt.conflict"]]);
});

test("cancellation returns to the same open Episode with the mode unchanged", () => {
  const snapshot = replayObserverSaves([...openBranch(), preparedEntry(), proposed(), cancelled()]);
  assert.deepEqual(snapshot.issues, []);
  assert.equal(snapshot.lifecycle.mode, "on");
  assert.equal(snapshot.lifecycle.episode.status, "open");
  assert.equal(snapshot.prepared, null);
});

test("replay follows the entries it is given: a fork is independent and non-custom entries only stutter", () => {
  const branchPoint = openBranch();
  const parent = replayObserverSaves([...branchPoint, activation(false)]);
  const fork = replayObserverSaves([...branchPoint, { custom: false }]);
  assert.equal(parent.lifecycle.mode, "off");
  assert.equal(fork.lifecycle.mode, "on");
  assert.deepEqual(fork.issues, []);
});

test("a prepared save keeps its locked language when the output language changes", () => {
  const snapshot = replayObserverSaves([...openBranch(), lifecycle({ kind: "output-language-changed", lang: "en" }), preparedEntry()]);
  assert.deepEqual(snapshot.issues, []);
  assert.equal(snapshot.prepared?.handoff.prepared.episode_language, "ko");
});

// --- save requests ------------------------------------------------------------------------------

const REQUEST = id("save-request-", 702);
const REQUEST_PROPOSAL = id("proposal-", 703);

function requestData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    protocol: "observer.save-request/v1",
    kind: "save-requested",
    request_id: REQUEST,
    proposal_id: REQUEST_PROPOSAL,
    request_digest: sha("request"),
    episode_id: "episode-1",
    notebook_id: NOTEBOOK,
    root: "/tmp/observer-notebook",
    episode_language: "en",
    memo_revision_id: null,
    source_read_ids: [id("source-read-", 2), id("source-read-", 1)],
    ...overrides,
  };
}

const requestEntry = (overrides: Record<string, unknown> = {}): ObserverLogEntry => custom("observer.save-request", requestData(overrides));

test("save requests decode strictly and re-encode to the same value (source reads sorted)", () => {
  const decoded = decodeSaveRequest(requestData());
  assert.ok(decoded.ok);
  assert.deepEqual(decoded.value.sourceReadIds, [id("source-read-", 1), id("source-read-", 2)]);
  assert.deepEqual(decodeSaveRequest(saveRequestData(decoded.value)), decoded);
  for (const bad of [
    { extra: true },
    { protocol: "observer.save-request/v2" },
    { request_id: "save-request-1" },
    { proposal_id: "proposal-1" },
    { request_digest: "short" },
    { root: "relative" },
    { episode_language: "de" },
    { memo_revision_id: "" },
    { source_read_ids: ["a", "a"] },
    { source_read_ids: [" padded"] },
  ]) {
    const refused = decodeSaveRequest(requestData(bad));
    assert.equal(!refused.ok && refused.code, "save-request.shape", JSON.stringify(bad));
  }
});

test("a request is pending until a lifecycle save event names its proposal", () => {
  const pending = replayObserverSaves([...openBranch(), requestEntry(), requestEntry({ source_read_ids: [id("source-read-", 1), id("source-read-", 2)] })]);
  assert.deepEqual(pending.issues, []);
  assert.equal(pending.saveRequests.length, 1);
  assert.equal(pending.pendingSaveRequest?.requestId, REQUEST);

  // Any decoded save event naming the proposal consumes it, even one the lifecycle refuses.
  const consumed = replayObserverSaves([...openBranch(), requestEntry(), lifecycle({ kind: "save-cancelled", proposalId: REQUEST_PROPOSAL })]);
  assert.equal(consumed.pendingSaveRequest, null);
  assert.deepEqual(consumed.consumedSaveRequestIds, [REQUEST]);
  assert.deepEqual(
    consumed.issues.map((issue) => issue.code),
    ["pi-entry.lifecycle.order"],
  );
});

test("request conflicts: a different request under the same id at its entry, a second pending one at the later id", () => {
  assert.deepEqual(positions([...openBranch(), requestEntry(), requestEntry({ request_digest: sha("conflict") })]), [[4, "save-request.conflict"]]);
  assert.deepEqual(positions([...openBranch(), requestEntry({ root: "relative" })]), [[3, "save-request.shape"]]);
  const second = id("save-request-", 704);
  // The second pending request in id order is reported, wherever it sits in the log, after every other issue.
  const twoPending = [...openBranch(), requestEntry({ request_id: second, proposal_id: id("proposal-", 705) }), requestEntry(), lifecycle({ kind: "bogus" })];
  assert.deepEqual(positions(twoPending), [
    [5, "pi-entry.lifecycle.decode"],
    [3, "save-request.conflict"],
  ]);
  const snapshot = replayObserverSaves(twoPending);
  assert.equal(snapshot.pendingSaveRequest?.requestId, REQUEST);
});
