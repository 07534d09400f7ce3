// Review & Save operations (server/observer/saveOperations.ts): request → prepare → approve →
// commit (or cancel) as pure drafts. Every success replays with no issue in observation replay and
// in save replay; every refusal is coded and stages nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { PreparedSave as NotebookPreparedSave } from "../../server/notebook/proposal";
import { emptyMemoState, type MemoWorkingState } from "../../server/observer/memoReconcile";
import { asLogEntries, type DraftContext, type DraftOutcome, type ObserverIds } from "../../server/observer/observerDrafts";
import { replayObservationSession, type ObserverLogEntry } from "../../server/observer/observationSession";
import {
  approveSave,
  cancelSave,
  commitSave,
  prepareSave,
  requestSave,
  requiredRecords,
  stageSaveEntries,
  type PreflightOutcome,
  type SaveMemoFacts,
  type SaveNotebookFacts,
} from "../../server/observer/saveOperations";
import { notebookPreparedSave, type PreparedSave } from "../../server/observer/saveProfile";
import { replayObserverSaves } from "../../server/observer/saveReplay";
import { EPISODE, candidatePayload, id, observation, sha, sourceReadPayload, toolOrigin, type HostEntry, type ReadSpec } from "../support/observerLog";

const NOTEBOOK = id("notebook-", 701);
const ROOT = "/tmp/observer-save";
const SOURCE = id("source-", 705);
const READ = id("source-read-", 704);
const CANDIDATE = id("candidate-", 706);
const NOW = "2026-08-01T12:00:00.000Z";

const toLog = (entries: readonly HostEntry[]): ObserverLogEntry[] => entries.map((entry) => ({ custom: true, customType: entry.customType ?? "", data: entry.data }));
const lifecycle = (data: Record<string, unknown>): ObserverLogEntry => ({ custom: true, customType: "observer.lifecycle", data: { protocol: "observer/v1", ...data } });

const READ_SPEC: ReadSpec = {
  readId: READ,
  candidates: [{ id: CANDIDATE, text: "tool output" }],
  sourceId: SOURCE,
  summary: "The source remains available for a durable save.",
  claims: [{ text: "One save claim.", locator: null }],
  indexDigest: sha("standing index"),
  indexInquiryIds: [],
};

/** An open Episode (Observer on) with one tool result read as a source, nothing to reconcile. */
function episodeLog(): ObserverLogEntry[] {
  return [
    lifecycle({ kind: "notebook-selected", notebookId: NOTEBOOK }),
    lifecycle({ kind: "episode-opened", episodeId: EPISODE, notebookId: NOTEBOOK, lang: "en" }),
    lifecycle({ kind: "activation-changed", enabled: true }),
    ...toLog([observation(candidatePayload({ id: CANDIDATE, origin: toolOrigin("call-1"), text: "tool output" })), observation(sourceReadPayload(READ_SPEC))]),
  ];
}

function sequenceIds(start = 800): ObserverIds {
  let next = start;
  return { next: (prefix) => id(prefix, next++) };
}

const context = (entries: readonly ObserverLogEntry[], ids: ObserverIds = sequenceIds()): DraftContext => ({ entries, now: NOW, ids });

const noMemo = (overrides: Partial<SaveMemoFacts> = {}): SaveMemoFacts => ({ state: emptyMemoState(), lastReceipt: null, preparedPassPending: false, acknowledgementPending: false, problems: 0, ...overrides });

function notebook(inventory: SaveNotebookFacts["inventory"] = []): SaveNotebookFacts {
  return { notebookId: NOTEBOOK, root: ROOT, inventory };
}

const accept = (prepared: PreparedSave): PreflightOutcome<{ readonly records: number }> => ({ ok: true, value: { records: prepared.records.length } });

/** The entries a successful draft adds, after proving they replay clean in both replays. */
function applied<Value>(entries: readonly ObserverLogEntry[], outcome: DraftOutcome<Value>): { readonly log: ObserverLogEntry[]; readonly value: Value } {
  if (!outcome.ok) assert.fail(`${outcome.code}: ${outcome.message}`);
  const log = [...entries, ...asLogEntries(outcome.entries)];
  assert.deepEqual(replayObservationSession(log).issues, []);
  assert.deepEqual(replayObserverSaves(log).issues, []);
  return { log, value: outcome.value };
}

function refused(outcome: DraftOutcome<unknown>, code: string, message?: RegExp): void {
  assert.equal(outcome.ok, false, "expected a refusal");
  if (outcome.ok) return;
  assert.equal(outcome.code, code, outcome.message);
  if (message !== undefined) assert.match(outcome.message, message);
  assert.equal("entries" in outcome, false);
}

const sourceMarkdown = "---\nid: source\n---\n# Source\n\nBody.\n";

/** Request, then prepare a proposal with the one required source record. */
function proposedLog(inventory: SaveNotebookFacts["inventory"] = []): { log: ObserverLogEntry[]; proposalId: string; requestId: string } {
  const requested = applied(episodeLog(), requestSave(context(episodeLog()), { notebook: notebook(inventory), memo: noMemo() }));
  const request = requested.value.request;
  const record = inventory.some((item) => item.recordId === SOURCE)
    ? { operation: "update", record_id: SOURCE, expected_sha256: inventory.find((item) => item.recordId === SOURCE)?.sha256, markdown: sourceMarkdown }
    : { operation: "create", record_id: SOURCE, markdown: sourceMarkdown };
  const prepared = applied(requested.log, prepareSave(context(requested.log), { requestId: request.requestId, summary: "Persist the observed source.", records: [record], notebook: notebook(inventory), memo: noMemo() }, accept));
  return { log: prepared.log, proposalId: request.proposalId, requestId: request.requestId };
}

test("end to end: request, prepare, approve and commit settle the Episode with Observer off", () => {
  const start = episodeLog();
  const requested = applied(start, requestSave(context(start), { notebook: notebook(), memo: noMemo() }));
  const request = requested.value.request;
  assert.equal(requested.value.kind, "new");
  assert.equal(request.requestId, id("save-request-", 800));
  assert.equal(request.proposalId, id("proposal-", 801));
  assert.deepEqual(request.sourceReadIds, [READ]);
  assert.equal(requested.log.length, start.length + 1);
  const guide = requested.value.guide;
  assert.deepEqual(guide.locked_target, { proposal_id: request.proposalId, notebook_id: NOTEBOOK, root: ROOT, episode_language: "en" });
  assert.deepEqual(guide.required_records, [{ record_id: SOURCE, observer_type: "source", operation: "create", expected_sha256: null }]);
  assert.deepEqual(guide.submission_contract.submit_only, ["request_id", "summary", "records"]);
  assert.equal(guide.observed_sources[0]?.read_id, READ);

  // Asking again resumes the same request and appends nothing.
  const resumed = requestSave(context(requested.log, sequenceIds(900)), { notebook: notebook(), memo: noMemo() });
  assert.ok(resumed.ok);
  assert.equal(resumed.value.kind, "resume");
  assert.deepEqual(resumed.entries, []);
  assert.equal(resumed.value.request.requestId, request.requestId);

  let seen: PreparedSave | null = null;
  const prepared = applied(
    requested.log,
    prepareSave(
      context(requested.log),
      { requestId: request.requestId, summary: "Persist the observed source.", records: [{ operation: "create", record_id: SOURCE, markdown: sourceMarkdown }], notebook: notebook(), memo: noMemo() },
      (value) => {
        seen = value;
        return accept(value);
      },
    ),
  );
  assert.deepEqual(prepared.value.plan, { records: 1 });
  assert.equal(prepared.log.length, requested.log.length + 2);
  assert.deepEqual(
    prepared.log.slice(-2).map((entry) => (entry.custom ? entry.customType : "")),
    ["observer.prepared-save", "observer.lifecycle"],
  );
  assert.deepEqual(seen, prepared.value.handoff.prepared);
  // Docket's Notebook proposal takes the prepared save as it is.
  const forNotebook: NotebookPreparedSave = notebookPreparedSave(prepared.value.handoff.prepared);
  assert.deepEqual(forNotebook, prepared.value.handoff.prepared);
  assert.equal(forNotebook.proposal_id, request.proposalId);
  const reviewing = replayObserverSaves(prepared.log);
  assert.equal(reviewing.lifecycle.episode.status, "reviewing-save");
  assert.equal(reviewing.prepared?.digest, prepared.value.preparedDigest);
  assert.equal(reviewing.pendingSaveRequest, null);

  const approved = applied(prepared.log, approveSave(context(prepared.log), { proposalId: request.proposalId }));
  assert.equal(approved.value.attempt.attemptId, id("attempt-", 800));
  assert.equal(approved.value.attempt.preparedDigest, prepared.value.preparedDigest);
  // A retried approval reuses the recorded attempt.
  const again = approveSave(context(approved.log, sequenceIds(950)), { proposalId: request.proposalId });
  assert.ok(again.ok);
  assert.deepEqual(again.entries, []);
  assert.equal(again.value.attempt.attemptId, approved.value.attempt.attemptId);

  const receiptId = id("receipt-", 1);
  const settled = applied(approved.log, commitSave(context(approved.log), { proposalId: request.proposalId, receiptId, recordIds: [SOURCE] }));
  assert.deepEqual(settled.value.recordIds, [SOURCE]);
  const observed = replayObservationSession(settled.log);
  assert.equal(observed.lifecycle.mode, "off");
  assert.equal(observed.lifecycle.episode.status, "settled");
  const saves = replayObserverSaves(settled.log);
  assert.equal(saves.lifecycle.episode.status, "settled");
  assert.equal(saves.prepared, null);
  assert.deepEqual(saves.consumedSaveRequestIds, [request.requestId]);
});

test("an existing record is required as an update expecting its current hash", () => {
  const inventory = [{ recordId: SOURCE, path: `${ROOT}/records/source.md`, sha256: sha("current source") }];
  const requested = requestSave(context(episodeLog()), { notebook: notebook(inventory), memo: noMemo() });
  assert.ok(requested.ok);
  assert.deepEqual(requested.value.guide.required_records, [{ record_id: SOURCE, observer_type: "source", operation: "update", expected_sha256: sha("current source") }]);
  const { log } = proposedLog(inventory);
  assert.equal(replayObserverSaves(log).lifecycle.episode.status, "reviewing-save");
});

test("required records: every source, working hypothesis and working Memo, sorted, update when the Notebook has it", () => {
  const inquiry = id("inquiry-", 10);
  const [memoA, memoB] = [id("memo-", 1), id("memo-", 2)];
  const memo = (memoId: string): MemoWorkingState["memos"][number] => ({
    memoId,
    episodeId: EPISODE,
    title: "Timing",
    lang: "en",
    content: "Timing: what the readings show.",
    inquiryIds: [inquiry],
    hypothesisId: inquiry,
    evidenceIds: [],
    currentRevisionId: id("memo-working-revision-", 1),
    disposition: "incubating",
    supersededBy: null,
    durableBase: null,
  });
  const state: MemoWorkingState = {
    ...emptyMemoState(),
    revisionId: id("memo-working-revision-", 1),
    passes: 1,
    memos: [memo(memoA), memo(memoB)],
    hypotheses: [{ inquiryId: inquiry, episodeId: EPISODE, origin: "observer", original: "Timing matters.", current: "Timing matters.", revisionReason: null, evidenceIds: [] }],
  };
  const observationSnapshot = replayObservationSession(episodeLog());
  const required = requiredRecords(observationSnapshot, state, [{ recordId: memoB, path: `${ROOT}/records/memo-b.md`, sha256: sha("memo b") }]);
  assert.deepEqual(required, [
    { record_id: inquiry, observer_type: "inquiry", operation: "create", expected_sha256: null },
    { record_id: memoA, observer_type: "memo", operation: "create", expected_sha256: null },
    { record_id: memoB, observer_type: "memo", operation: "update", expected_sha256: sha("memo b") },
    { record_id: SOURCE, observer_type: "source", operation: "create", expected_sha256: null },
  ]);
  // The request records the Memo working revision it was made against.
  const requested = requestSave(context(episodeLog()), { notebook: notebook(), memo: noMemo({ state }) });
  assert.ok(requested.ok);
  assert.equal(requested.value.request.memoRevisionId, state.revisionId);
  assert.equal(requested.value.guide.required_records.length, 4);
});

test("the Episode language is locked by the pending request", () => {
  const start = episodeLog();
  const requested = applied(start, requestSave(context(start), { notebook: notebook(), memo: noMemo() }));
  const changed = [...requested.log, lifecycle({ kind: "output-language-changed", lang: "ko" })];
  const resumed = requestSave(context(changed), { notebook: notebook(), memo: noMemo() });
  assert.ok(resumed.ok);
  assert.equal(resumed.value.kind, "resume");
  assert.equal(resumed.value.request.episodeLanguage, "en");
  // Without a pending request the current language is taken.
  const fresh = requestSave(context([...start, lifecycle({ kind: "output-language-changed", lang: "ko" })]), { notebook: notebook(), memo: noMemo() });
  assert.ok(fresh.ok);
  assert.equal(fresh.value.request.episodeLanguage, "ko");
});

test("requestSave refusals", () => {
  const start = episodeLog();
  const requestWith = (entries: readonly ObserverLogEntry[], memo = noMemo(), facts = notebook()): DraftOutcome<unknown> => requestSave(context(entries), { notebook: facts, memo });
  refused(requestWith([...start, lifecycle({ kind: "bogus" })]), "save-request.history");
  refused(requestWith(start, noMemo({ problems: 1 })), "save-request.history");
  refused(requestWith([]), "save-request.state", /open Episode/u);
  refused(requestWith(start, noMemo({ acknowledgementPending: true })), "save-request.pending");
  refused(requestWith(start, noMemo({ preparedPassPending: true })), "save-request.pending");
  refused(requestWith(start, noMemo(), { ...notebook(), notebookId: id("notebook-", 9) }), "save.target-mismatch");
  const review = { custom: true as const, customType: "observer.material-review", data: { protocol: "observer.material-review/v1", kind: "material-review-requested", request_id: id("material-review-", 1), episode_id: EPISODE, user_message_digest: sha("m"), material: "inline-user-message" } };
  refused(requestWith([...start, review]), "observer.material-review-pending");

  // A pending request whose basis moved is stale: the Notebook changed, or the Memo working state did.
  const requested = applied(start, requestSave(context(start), { notebook: notebook(), memo: noMemo() }));
  refused(requestWith(requested.log, noMemo(), notebook([{ recordId: "zettel-x", path: `${ROOT}/records/zettel-x.md`, sha256: sha("new") }])), "save-request.stale");
  refused(requestWith(requested.log, noMemo({ state: { ...emptyMemoState(), passes: 1 } })), "save-request.stale");
  // Two pending requests: the request history's own issue.
  const other = { custom: true as const, customType: "observer.save-request", data: { ...pendingRequestData(requested.log), request_id: id("save-request-", 999), proposal_id: id("proposal-", 999) } };
  refused(requestWith([...requested.log, other]), "save-request.conflict");
  // Under review: no new request.
  const { log } = proposedLog();
  refused(requestWith(log), "save-request.state", /under review/u);
});

function pendingRequestData(log: readonly ObserverLogEntry[]): Record<string, unknown> {
  const last = [...log].reverse().find((entry) => entry.custom && entry.customType === "observer.save-request");
  if (last === undefined || !last.custom) assert.fail("no save request in the log");
  return last.data as Record<string, unknown>;
}

test("prepareSave refusals leave nothing staged", () => {
  const start = episodeLog();
  const requested = applied(start, requestSave(context(start), { notebook: notebook(), memo: noMemo() }));
  const requestId = requested.value.request.requestId;
  const prepareWith = (records: unknown, options: { requestId?: string; summary?: unknown; facts?: SaveNotebookFacts; preflight?: (prepared: PreparedSave) => PreflightOutcome<unknown> } = {}): DraftOutcome<unknown> =>
    prepareSave(context(requested.log), { requestId: options.requestId ?? requestId, summary: options.summary ?? "Persist.", records, notebook: options.facts ?? notebook(), memo: noMemo() }, options.preflight ?? accept);
  const create = { operation: "create", record_id: SOURCE, markdown: sourceMarkdown };

  refused(prepareWith([create], { requestId: id("save-request-", 1) }), "save-request.state");
  refused(prepareWith([]), "save-request.submission", /missing the required source record/u);
  refused(prepareWith([create, create]), "save-request.submission", /repeats record/u);
  refused(prepareWith([{ operation: "update", record_id: SOURCE, expected_sha256: sha("x"), markdown: sourceMarkdown }]), "save-request.submission", /must be a create/u);
  refused(prepareWith([{ ...create, markdown: "" }]), "save-request.submission", /not a valid proposal/u);
  refused(prepareWith([create], { summary: "  " }), "save-request.submission");
  refused(prepareWith("not records"), "save-request.submission");
  refused(prepareWith([create], { preflight: () => ({ ok: false, code: "save.invalid-plan", message: "final-invalid" }) }), "save.invalid-plan");
  refused(prepareWith([create], { facts: notebook([{ recordId: "zettel-x", path: `${ROOT}/records/zettel-x.md`, sha256: sha("new") }]) }), "save-request.stale");

  // An update must expect exactly the current hash.
  const inventory = [{ recordId: SOURCE, path: `${ROOT}/records/source.md`, sha256: sha("current") }];
  const withRecord = applied(start, requestSave(context(start), { notebook: notebook(inventory), memo: noMemo() }));
  const wrongHash = prepareSave(
    context(withRecord.log),
    { requestId: withRecord.value.request.requestId, summary: "Persist.", records: [{ operation: "update", record_id: SOURCE, expected_sha256: sha("stale"), markdown: sourceMarkdown }], notebook: notebook(inventory), memo: noMemo() },
    accept,
  );
  refused(wrongHash, "save-request.submission", /current SHA-256/u);

  // Records beyond the required ones are the model's to add (preflight judges them).
  const extra = prepareWith([create, { operation: "create", record_id: id("zettel-", 1), markdown: "# Zettel\n" }]);
  assert.ok(extra.ok);
  assert.equal(extra.entries.length, 2);
});

test("approve, commit and cancel refusals", () => {
  const { log, proposalId } = proposedLog();
  const other = id("proposal-", 1);
  refused(approveSave(context(episodeLog()), { proposalId }), "save.lifecycle", /no proposal/u);
  refused(approveSave(context(log), { proposalId: other }), "save.lifecycle");
  refused(cancelSave(context(log), { proposalId: other }), "save.lifecycle");
  refused(commitSave(context(log), { proposalId, receiptId: id("receipt-", 1), recordIds: [SOURCE] }), "save.lifecycle", /never approved/u);
  refused(approveSave(context([...log, lifecycle({ kind: "bogus" })]), { proposalId }), "observer.replay-issues");

  const approved = applied(log, approveSave(context(log), { proposalId }));
  refused(commitSave(context(approved.log), { proposalId: other, receiptId: id("receipt-", 1), recordIds: [SOURCE] }), "save.lifecycle");
  refused(commitSave(context(approved.log), { proposalId, receiptId: "receipt-1", recordIds: [SOURCE] }), "save-profile.shape");
  refused(commitSave(context(approved.log), { proposalId, receiptId: id("receipt-", 1), recordIds: [] }), "save.lifecycle", /exactly the approved/u);
  refused(commitSave(context(approved.log), { proposalId, receiptId: id("receipt-", 1), recordIds: [SOURCE, SOURCE] }), "save.lifecycle");

  const settled = applied(approved.log, commitSave(context(approved.log), { proposalId, receiptId: id("receipt-", 1), recordIds: [SOURCE] }));
  // A second commit of a settled proposal is refused.
  refused(commitSave(context(settled.log), { proposalId, receiptId: id("receipt-", 2), recordIds: [SOURCE] }), "save.lifecycle");
});

test("cancel returns to the open Episode; a new request then gets a new proposal", () => {
  const { log, proposalId, requestId } = proposedLog();
  const cancelled = applied(log, cancelSave(context(log), { proposalId }));
  const observed = replayObservationSession(cancelled.log);
  assert.equal(observed.lifecycle.episode.status, "open");
  assert.equal(observed.lifecycle.mode, "on");
  assert.equal(replayObserverSaves(cancelled.log).prepared, null);
  const again = applied(cancelled.log, requestSave(context(cancelled.log, sequenceIds(1000)), { notebook: notebook(), memo: noMemo() }));
  assert.equal(again.value.kind, "new");
  assert.notEqual(again.value.request.requestId, requestId);
  assert.notEqual(again.value.request.proposalId, proposalId);
});

test("the same handoff recorded without its proposal (a crash in between) only gets its proposal", () => {
  const start = episodeLog();
  const requested = applied(start, requestSave(context(start), { notebook: notebook(), memo: noMemo() }));
  const input = { requestId: requested.value.request.requestId, summary: "Persist.", records: [{ operation: "create", record_id: SOURCE, markdown: sourceMarkdown }], notebook: notebook(), memo: noMemo() };
  const first = prepareSave(context(requested.log), input, accept);
  assert.ok(first.ok);
  const crashed = [...requested.log, ...asLogEntries(first.entries.slice(0, 1))];
  const retried = applied(crashed, prepareSave(context(crashed), input, accept));
  assert.equal(retried.log.length, crashed.length + 1);
  assert.equal(replayObserverSaves(retried.log).lifecycle.episode.status, "reviewing-save");
  // A different handoff while that one is recorded conflicts.
  refused(prepareSave(context(crashed), { ...input, summary: "Another summary." }, accept), "pi-entry.handoff.conflict");
});

test("stageSaveEntries refuses a batch save replay would flag even when observation replay accepts it", () => {
  const start = episodeLog();
  const bare = lifecycle({ kind: "save-proposed", proposalId: id("proposal-", 1), summary: "No handoff." });
  if (!bare.custom) assert.fail();
  assert.deepEqual(replayObservationSession([...start, bare]).issues, []);
  const refusal = stageSaveEntries(start, [{ customType: "observer.lifecycle", data: bare.data }]);
  assert.equal(refusal?.code, "pi-entry.lifecycle.order");
  assert.equal(stageSaveEntries(start, []), null);
  // A second pending request is reported at the request that sorts second, which may be the earlier one.
  const requested = applied(start, requestSave(context(start), { notebook: notebook(), memo: noMemo() }));
  const earlierId = { ...pendingRequestData(requested.log), request_id: id("save-request-", 1), proposal_id: id("proposal-", 2) };
  assert.equal(stageSaveEntries(requested.log, [{ customType: "observer.save-request", data: earlierId }])?.code, "save-request.conflict");
});

test("the request digest is the reference's: Memo state JSON with its last receipt, inventory in collation order", () => {
  // The expected value was computed by the reference's planSaveRequest (dev-hobin/agent
  // packages/observer) over the same log, Memo working state and inventory.
  const inquiry = id("inquiry-", 10);
  const state: MemoWorkingState = {
    revisionId: id("memo-working-revision-", 1),
    passes: 1,
    memos: [
      {
        memoId: id("memo-", 1),
        episodeId: EPISODE,
        title: "Timing",
        lang: "en",
        content: "Timing: what the readings show.",
        inquiryIds: [inquiry],
        hypothesisId: inquiry,
        evidenceIds: [id("evidence-", 1)],
        currentRevisionId: id("memo-working-revision-", 1),
        disposition: "incubating",
        supersededBy: null,
        durableBase: { path: `${ROOT}/records/memo.md`, sha256: sha("memo") },
      },
    ],
    hypotheses: [{ inquiryId: inquiry, episodeId: EPISODE, origin: "observer", original: "Timing matters.", current: "Timing matters, within bounds.", revisionReason: "Bounded.", evidenceIds: [id("evidence-", 1)] }],
    evidence: [{ evidenceId: id("evidence-", 1), kind: "source-claim", sourceId: SOURCE, summary: "Claim." }],
    lastPassId: id("memo-pass-", 1),
    lastPassDigest: sha("pass"),
  };
  const lastReceipt = {
    receiptId: id("memo-receipt-", 1),
    passId: id("memo-pass-", 1),
    revisionId: id("memo-working-revision-", 1),
    scope: { episodeMemos: 1, standingInquiries: 0, durableMemos: 1 },
    changes: { created: 1, revised: 0, merged: 0, keptIncubating: 0, promotionCandidates: 0, hypothesisRevisions: 1 },
    summary: "1 created.",
  };
  const inventory = ["memo-b", "Memo-c", "a_b", "a-b", "ab"].map((name) => ({ recordId: name, path: `${ROOT}/records/${name}.md`, sha256: sha(name) }));
  const requested = requestSave(context(episodeLog()), { notebook: notebook(inventory), memo: noMemo({ state, lastReceipt }) });
  assert.ok(requested.ok);
  assert.equal(requested.value.request.requestDigest, "2bc54a87b4f3fec4bbbb0a7ccde2fec2d71ea411dfef8d1ab624ad5ff48c07d3");
  assert.deepEqual(
    requested.value.guide.inventory.map((record) => record.record_id),
    ["a_b", "a-b", "ab", "memo-b", "Memo-c"],
  );
});
