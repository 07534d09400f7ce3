// The Observer stream's pages and details for the Receipts view (server/observer/observerReceipts.ts):
// newest- and oldest-first pages over Observer lines spread between other lines, cursors that are
// ledger lines (under a customType / kind filter too), rows that name the entry's kind, Episode, own
// id and time, and a detail whose hashed text reproduces the line hash, with the chain link read
// from a real ledger file. Then the Receipts webview's Observer tab (webview/receipts/observerModel.ts
// through model.ts): live pages, the filter, the detail and what a reopened view restores.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { DocketError } from "../../server/errors";
import type { GuardEntry } from "../../server/guard/guardEntry";
import { canonicalJson, toJsonValue } from "../../server/ledger/canonicalJson";
import { encodeLedgerLine } from "../../server/ledger/ledgerLine";
import { LedgerStore, type ObserverLine } from "../../server/ledger/store";
import { OBSERVER_CUSTOM_TYPES, type ObserverLedgerEntry } from "../../server/observer/observerEntry";
import {
  findObserverLine,
  observerReceiptDetail,
  observerReceiptDetailFromStore,
  observerReceiptRow,
  observerReceiptsPage,
  readObserverLineLink,
} from "../../server/observer/observerReceipts";
import type { HostToReceipts } from "../../server/protocol/webviewMessages";
import { ReceiptsViewState } from "../../server/protocol/webviewMessages";
import { initialModel, navigation, persistedState, update, type Model, type UiAction } from "../../webview/receipts/model";
import { observerKindChoices, shortCustomType, shortObserverId } from "../../webview/receipts/observerModel";
import {
  ErrorCodes,
  MAX_OBSERVER_ROW_TEXT,
  OBSERVER_RECEIPT_CUSTOM_TYPES,
  ObserverReceiptDetail,
  ObserverReceiptsPage,
  ObserverReceiptsPageParams,
  Requests,
} from "../../server/protocol/messages";

const sha = (c: string): string => c.repeat(64);
const uuid = (n: number): string => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
const EPISODE = "episode-1";

function observation(kind: string, own: Record<string, unknown>): ObserverLedgerEntry {
  return { customType: "observer.observation", data: { observer_observation: "observer-observation/v1", kind, episode_id: EPISODE, ...own, event_digest: sha("e") } };
}

const candidate = (n: number): ObserverLedgerEntry =>
  observation("candidate-captured", {
    candidate_id: `candidate-${uuid(n)}`,
    origin: { kind: "user-input", input_source: "interactive" },
    text: `text ${n}`,
    content_hash: sha("c"),
    captured_at: `2026-01-01T00:00:${String(n).padStart(2, "0")}.000Z`,
  });

const ENTRIES: Readonly<Record<string, ObserverLedgerEntry>> = {
  opened: { customType: "observer.lifecycle", data: { protocol: "observer/v1", kind: "episode-opened", episodeId: EPISODE, notebookId: "notebook-1", lang: "en" } },
  on: { customType: "observer.lifecycle", data: { protocol: "observer/v1", kind: "activation-changed", enabled: true } },
  read: observation("source-read-recorded", {
    read_id: `source-read-${uuid(1)}`,
    candidate_ids: [`candidate-${uuid(1)}`],
    source: { kind: "direct-observation", source_id: `source-${uuid(1)}`, title: "t", lang: "en", observed_at: "2026-01-02T03:04:05.000Z", observed_by: "me", fact: "f", conditions: "c", interpretation_boundary: "b" },
  }),
  semantic: observation("semantic-observation-recorded", { observation_id: `observation-${uuid(2)}`, read_id: `source-read-${uuid(1)}` }),
  hypothesis: observation("user-hypothesis-recorded", { observation_id: `observation-${uuid(3)}`, candidate_id: `candidate-${uuid(2)}` }),
  review: observation("hypothesis-context-reviewed", { hypothesis_observation_id: `observation-${uuid(3)}` }),
  memoRequest: observation("memo-requested", { request_id: `memo-request-${uuid(4)}` }),
  material: { customType: "observer.material-review", data: { protocol: "observer.material-review/v1", kind: "material-review-requested", request_id: `material-review-${uuid(5)}`, episode_id: EPISODE } },
  prepared: { customType: "observer.prepared-memo-pass", data: { observer_memo_pass: "observer.prepared-memo-pass/v1", pass_id: `memo-pass-${uuid(6)}`, episode_id: EPISODE } },
  applied: { customType: "observer.memo-pass", data: { observer_memo_event: "observer.memo-pass/v1", kind: "applied", pass: { pass_id: `memo-pass-${uuid(6)}`, episode_id: EPISODE } } },
  instruction: { customType: "observer.memo-instruction", data: { observer_memo_instruction: "observer.memo-instruction/v1", request_id: `memo-request-${uuid(4)}` } },
  proposed: { customType: "observer.lifecycle", data: { protocol: "observer/v1", kind: "save-proposed", proposalId: `proposal-${uuid(7)}`, summary: "s" } },
  handoff: { customType: "observer.prepared-save", data: { protocol: "observer.pi-prepared-save/v1", summary: "s", prepared: { proposal_id: `proposal-${uuid(7)}` } } },
  attempt: { customType: "observer.save-attempt", data: { protocol: "observer.pi-save-attempt/v1", kind: "approved", attemptId: "attempt-1", proposalId: `proposal-${uuid(7)}`, preparedDigest: sha("d") } },
  saveRequest: { customType: "observer.save-request", data: { protocol: "observer.save-request/v1", kind: "save-requested", request_id: `save-request-${uuid(8)}`, episode_id: EPISODE } },
  malformed: { customType: "observer.observation", data: [1, 2, 3] },
};

/** Observer lines as the store reads them: real line hashes, other streams' lines (not listed) in between. */
function observerLines(entries: readonly { line: number; entry: ObserverLedgerEntry }[]): ObserverLine[] {
  return entries.map(({ line, entry }) => ({ line, lineSha256: encodeLedgerLine(line, line === 0 ? null : sha((line % 10).toString()), "observer/v1", entry).lineSha256, entry }));
}

/** Twelve lines 1..17; other streams at 0, 5, 6, 10, 14 and 16. */
const LINES = observerLines([
  { line: 1, entry: ENTRIES.opened as ObserverLedgerEntry },
  { line: 2, entry: ENTRIES.on as ObserverLedgerEntry },
  { line: 3, entry: candidate(1) },
  { line: 4, entry: ENTRIES.read as ObserverLedgerEntry },
  { line: 7, entry: candidate(2) },
  { line: 8, entry: ENTRIES.semantic as ObserverLedgerEntry },
  { line: 9, entry: ENTRIES.hypothesis as ObserverLedgerEntry },
  { line: 11, entry: candidate(3) },
  { line: 12, entry: ENTRIES.memoRequest as ObserverLedgerEntry },
  { line: 13, entry: ENTRIES.prepared as ObserverLedgerEntry },
  { line: 15, entry: ENTRIES.applied as ObserverLedgerEntry },
  { line: 17, entry: ENTRIES.malformed as ObserverLedgerEntry },
]);

const page = (query: ObserverReceiptsPageParams, from: readonly ObserverLine[] = LINES) =>
  ObserverReceiptsPage.parse(observerReceiptsPage(from, "rev-1", ObserverReceiptsPageParams.parse(query)));

test("the protocol's customType list is the ledger validator's", () => {
  assert.equal(OBSERVER_RECEIPT_CUSTOM_TYPES, OBSERVER_CUSTOM_TYPES, "one list, not a copy");
  assert.equal(Requests.observerReceiptsPage.method, "docket/observer/receipts/page");
  assert.equal(Requests.observerReceiptDetail.method, "docket/observer/receipts/detail");
});

test("newest first: pages of the given size, cursors are ledger lines, counts per customType and kind", () => {
  const first = page({ pageSize: 5 });
  assert.equal(first.order, "newest");
  assert.equal(first.totalCount, 12);
  assert.equal(first.entryCount, 12);
  assert.deepEqual(first.entries.map((row) => row.line), [17, 15, 13, 12, 11]);
  assert.equal(first.pageCursor, 17);
  assert.equal(first.nextCursor, 9);
  assert.equal(first.previousCursor, null);
  assert.deepEqual(first.customTypeCounts, [
    { customType: "observer.lifecycle", count: 2 },
    { customType: "observer.observation", count: 8 },
    { customType: "observer.prepared-memo-pass", count: 1 },
    { customType: "observer.memo-pass", count: 1 },
  ]);
  assert.deepEqual(first.kindCounts, [
    { customType: "observer.lifecycle", kind: "activation-changed", count: 1 },
    { customType: "observer.lifecycle", kind: "episode-opened", count: 1 },
    { customType: "observer.observation", kind: "candidate-captured", count: 3 },
    { customType: "observer.observation", kind: "memo-requested", count: 1 },
    { customType: "observer.observation", kind: "semantic-observation-recorded", count: 1 },
    { customType: "observer.observation", kind: "source-read-recorded", count: 1 },
    { customType: "observer.observation", kind: "user-hypothesis-recorded", count: 1 },
    { customType: "observer.memo-pass", kind: "applied", count: 1 },
  ]);
  const second = page({ pageSize: 5, cursor: first.nextCursor });
  assert.deepEqual(second.entries.map((row) => row.line), [9, 8, 7, 4, 3]);
  assert.equal(second.startPosition, 5);
  assert.equal(second.previousCursor, 17);
  const third = page({ pageSize: 5, cursor: second.nextCursor });
  assert.deepEqual(third.entries.map((row) => row.line), [2, 1]);
  assert.equal(third.nextCursor, null);
  assert.equal(third.previousCursor, 9);
  // Reading a page again by its own cursor shows the same rows.
  assert.deepEqual(page({ pageSize: 5, cursor: second.pageCursor }).entries, second.entries);
});

test("oldest first, and a cursor on a line of another stream starts at the next Observer line", () => {
  const first = page({ order: "oldest", pageSize: 4 });
  assert.deepEqual(first.entries.map((row) => row.line), [1, 2, 3, 4]);
  assert.equal(first.nextCursor, 7);
  assert.deepEqual(page({ order: "oldest", pageSize: 2, cursor: 5 }).entries.map((row) => row.line), [7, 8]);
  assert.deepEqual(page({ order: "newest", pageSize: 2, cursor: 6 }).entries.map((row) => row.line), [4, 3]);
  const past = page({ order: "oldest", cursor: 99 });
  assert.deepEqual(past.entries, []);
  assert.equal(past.pageCursor, null);
  assert.equal(past.previousCursor, 1);
});

test("appending entries never moves a page read by its cursor", () => {
  const before = page({ pageSize: 3, cursor: 9 });
  const more = [...LINES, ...observerLines([{ line: 18, entry: candidate(4) }, { line: 19, entry: candidate(5) }])];
  const after = page({ pageSize: 3, cursor: 9 }, more);
  assert.deepEqual(after.entries, before.entries);
  assert.equal(after.startPosition, before.startPosition + 2);
  assert.equal(after.totalCount, 14);
});

test("a customType filter and an observation kind filter page only matching entries", () => {
  const observations = page({ customType: "observer.observation", pageSize: 3 });
  assert.equal(observations.entryCount, 8);
  assert.equal(observations.totalCount, 12);
  assert.equal(observations.customType, "observer.observation");
  assert.deepEqual(observations.entries.map((row) => row.line), [17, 12, 11]);
  assert.equal(observations.nextCursor, 9);
  assert.deepEqual(page({ customType: "observer.observation", pageSize: 3, cursor: 9 }).entries.map((row) => row.line), [9, 8, 7]);

  const candidates = page({ customType: "observer.observation", kind: "candidate-captured", order: "oldest", pageSize: 2 });
  assert.equal(candidates.entryCount, 3);
  assert.deepEqual(candidates.entries.map((row) => row.line), [3, 7]);
  assert.equal(candidates.nextCursor, 11);
  const rest = page({ customType: "observer.observation", kind: "candidate-captured", order: "oldest", pageSize: 2, cursor: 11 });
  assert.deepEqual(rest.entries.map((row) => row.line), [11]);
  assert.equal(rest.previousCursor, 3);
  // Counts always describe the whole stream, so the filter can offer every choice.
  assert.deepEqual(candidates.customTypeCounts, observations.customTypeCounts);

  // A kind alone matches it in any customType; nothing matching is an empty first page.
  assert.deepEqual(page({ kind: "applied" }).entries.map((row) => row.line), [15]);
  const none = page({ customType: "observer.save-request" });
  assert.equal(none.entryCount, 0);
  assert.deepEqual([none.pageCursor, none.nextCursor, none.previousCursor], [null, null, null]);
});

test("params: page size 1..100, known customTypes, a bounded kind", () => {
  assert.equal(ObserverReceiptsPageParams.safeParse({ pageSize: 101 }).success, false);
  assert.equal(ObserverReceiptsPageParams.safeParse({ pageSize: 0 }).success, false);
  assert.equal(ObserverReceiptsPageParams.safeParse({ customType: "observer.unknown" }).success, false);
  assert.equal(ObserverReceiptsPageParams.safeParse({ kind: "" }).success, false);
  assert.equal(ObserverReceiptsPageParams.safeParse({ kind: "k".repeat(101) }).success, false);
  assert.deepEqual(ObserverReceiptsPageParams.parse({}), { order: "newest", cursor: null, pageSize: 50, customType: null, kind: null });
});

test("rows name the kind, the Episode, the entry's own id and its time", () => {
  const row = (entry: ObserverLedgerEntry) => observerReceiptRow({ line: 4, lineSha256: sha("f"), entry });
  assert.deepEqual(row(candidate(3)), {
    line: 4,
    lineSha256: sha("f"),
    customType: "observer.observation",
    kind: "candidate-captured",
    episodeId: EPISODE,
    id: { field: "candidate_id", value: `candidate-${uuid(3)}` },
    at: { field: "captured_at", value: "2026-01-01T00:00:03.000Z" },
  });
  const expectations: readonly [keyof typeof ENTRIES, string | null, string | null, string | null, string | null][] = [
    ["opened", "episode-opened", EPISODE, "episodeId", EPISODE],
    ["on", "activation-changed", null, null, null],
    ["read", "source-read-recorded", EPISODE, "read_id", `source-read-${uuid(1)}`],
    ["semantic", "semantic-observation-recorded", EPISODE, "observation_id", `observation-${uuid(2)}`],
    ["hypothesis", "user-hypothesis-recorded", EPISODE, "observation_id", `observation-${uuid(3)}`],
    ["review", "hypothesis-context-reviewed", EPISODE, "hypothesis_observation_id", `observation-${uuid(3)}`],
    ["memoRequest", "memo-requested", EPISODE, "request_id", `memo-request-${uuid(4)}`],
    ["material", "material-review-requested", EPISODE, "request_id", `material-review-${uuid(5)}`],
    ["prepared", null, EPISODE, "pass_id", `memo-pass-${uuid(6)}`],
    ["applied", "applied", EPISODE, "pass.pass_id", `memo-pass-${uuid(6)}`],
    ["instruction", null, null, "request_id", `memo-request-${uuid(4)}`],
    ["proposed", "save-proposed", null, "proposalId", `proposal-${uuid(7)}`],
    ["handoff", null, null, "prepared.proposal_id", `proposal-${uuid(7)}`],
    ["attempt", "approved", null, "attemptId", "attempt-1"],
    ["saveRequest", "save-requested", EPISODE, "request_id", `save-request-${uuid(8)}`],
    ["malformed", null, null, null, null],
  ];
  for (const [name, kind, episodeId, field, value] of expectations) {
    const actual = row(ENTRIES[name] as ObserverLedgerEntry);
    assert.equal(actual.kind, kind, name);
    assert.equal(actual.episodeId, episodeId, name);
    assert.deepEqual(actual.id, field === null ? null : { field, value }, name);
  }
  assert.deepEqual(row(ENTRIES.read as ObserverLedgerEntry).at, { field: "source.observed_at", value: "2026-01-02T03:04:05.000Z" });
  assert.equal(row(ENTRIES.semantic as ObserverLedgerEntry).at, null);
});

test("rows cut long text, never inside a surrogate pair, and keep non-text fields out", () => {
  const long = `${"a".repeat(MAX_OBSERVER_ROW_TEXT - 1)}😀tail`;
  const row = observerReceiptRow({ line: 0, lineSha256: sha("f"), entry: observation("candidate-captured", { candidate_id: long, captured_at: 42 }) });
  assert.equal(row.id?.value, `${"a".repeat(MAX_OBSERVER_ROW_TEXT - 1)}…`);
  assert.equal(row.at, null);
  const odd: ObserverLedgerEntry = { customType: "observer.lifecycle", data: { kind: "x".repeat(500), episodeId: ["not text"] } };
  const oddRow = observerReceiptRow({ line: 0, lineSha256: sha("f"), entry: odd });
  assert.equal(oddRow.kind?.length, MAX_OBSERVER_ROW_TEXT + 1);
  assert.equal(oddRow.episodeId, null);
  // A kind too long to filter by is listed but not offered as a filter.
  const counted = observerReceiptsPage([{ line: 0, lineSha256: sha("f"), entry: odd }], "rev", ObserverReceiptsPageParams.parse({}));
  assert.deepEqual(counted.kindCounts, []);
  assert.deepEqual(counted.customTypeCounts, [{ customType: "observer.lifecycle", count: 1 }]);
});

test("property: paging in either order, under any filter, visits every matching line exactly once", () => {
  const arbitraryLines = fc
    .array(fc.record({ gap: fc.integer({ min: 1, max: 3 }), which: fc.integer({ min: 0, max: LINES.length - 1 }) }), { maxLength: 40 })
    .map((items) => {
      let line = -1;
      return items.map(({ gap, which }) => {
        line += gap;
        return { line, lineSha256: sha("0"), entry: (LINES[which] as ObserverLine).entry };
      });
    });
  const filters = fc.constantFrom(
    { customType: null, kind: null },
    { customType: "observer.observation" as const, kind: null },
    { customType: "observer.observation" as const, kind: "candidate-captured" },
    { customType: null, kind: "episode-opened" },
  );
  fc.assert(
    fc.property(arbitraryLines, filters, fc.constantFrom("newest" as const, "oldest" as const), fc.integer({ min: 1, max: 7 }), (lines, filter, order, pageSize) => {
      const expected = lines
        .filter((line) => (filter.customType === null || line.entry.customType === filter.customType) && (filter.kind === null || (line.entry.data as { kind?: unknown }).kind === filter.kind))
        .map((line) => line.line);
      if (order === "newest") expected.reverse();
      const seen: number[] = [];
      let cursor: number | null = null;
      for (let guard = 0; guard <= lines.length + 1; guard += 1) {
        const current: ObserverReceiptsPage = observerReceiptsPage(lines, "r", { order, cursor, pageSize, ...filter });
        assert.equal(current.entryCount, expected.length);
        seen.push(...current.entries.map((row) => row.line));
        if (current.nextCursor !== null) {
          // Stepping back from the next page returns to this one.
          const next = observerReceiptsPage(lines, "r", { order, cursor: current.nextCursor, pageSize, ...filter });
          assert.equal(next.previousCursor, current.pageCursor);
        }
        cursor = current.nextCursor;
        if (cursor === null) break;
      }
      assert.deepEqual(seen, expected);
    }),
    { numRuns: 200 },
  );
});

test("detail: canonical JSON of the entry and exactly the text the line hash covers", () => {
  const entry = candidate(7);
  const previous = sha("9");
  const encoded = encodeLedgerLine(42, previous, "observer/v1", entry);
  const detail = ObserverReceiptDetail.parse(observerReceiptDetail({ line: 42, lineSha256: encoded.lineSha256, entry, previousLineSha256: previous }));
  assert.equal(detail.stream, "observer/v1");
  assert.equal(detail.previousLineSha256, previous);
  assert.equal(detail.canonicalJson, canonicalJson(toJsonValue(entry)));
  assert.equal(createHash("sha256").update(detail.lineHashInput, "utf8").digest("hex"), encoded.lineSha256);
  assert.equal(
    detail.lineHashInput,
    `{"domain":"docket/ledger-line/v1","value":{"entry":${detail.canonicalJson},"line":42,"previousLineSha256":"${previous}","stream":"observer/v1"}}`,
  );
  // The wrapper as written holds exactly that entry text.
  assert.ok(encoded.text.startsWith(`{"entry":${detail.canonicalJson},`));
  assert.equal(detail.receipt.id?.value, `candidate-${uuid(7)}`);
  // A wrong link is never shown as proof.
  assert.throws(
    () => observerReceiptDetail({ line: 42, lineSha256: encoded.lineSha256, entry, previousLineSha256: sha("8") }),
    (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.internal,
  );
  assert.throws(() => findObserverLine(LINES, sha("a")), (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.receiptNotFound);
  assert.equal(findObserverLine(LINES, (LINES[3] as ObserverLine).lineSha256).line, 4);
});

const guardOpened: GuardEntry = {
  kind: "review-opened",
  reviewId: `review:${"1".padStart(24, "0")}`,
  workScopeId: "scope:0123456789abcdef01234567",
  draftSha256: sha("a"),
  draftBytes: 12,
  coversEntireAnswer: false,
  claims: [{ claimId: "c1", text: "claim" }],
  sources: [{ sourceId: "source:1", kind: "file", path: "a.txt", sha256: sha("b"), bytes: 3 }],
  session: null,
  openedAt: "2026-01-01T00:00:00.000Z",
};

test("detail from a real ledger: the chain link is read from the line's wrapper, after a line of another stream", () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "docket-observer-receipts-"));
  try {
    const ledgerPath = path.join(folder, ".docket", "ledger.jsonl");
    fs.mkdirSync(path.dirname(ledgerPath));
    const streams = [
      ["observer/v1", ENTRIES.opened],
      ["docket/guard/v1", guardOpened],
      ["observer/v1", candidate(1)],
      ["observer/v1", ENTRIES.read],
    ] as const;
    let previous: string | null = null;
    const shas: string[] = [];
    let text = "";
    for (const [index, [stream, entry]] of streams.entries()) {
      const encoded = encodeLedgerLine(index, previous, stream, entry);
      text += encoded.text;
      shas.push(encoded.lineSha256);
      previous = encoded.lineSha256;
    }
    fs.writeFileSync(ledgerPath, text);
    const store = new LedgerStore(ledgerPath);
    store.refresh();
    assert.equal(store.fault, null);
    assert.deepEqual(store.observerLines.map((line) => line.line), [0, 2, 3]);

    const first = observerReceiptDetailFromStore(store, shas[0] as string);
    assert.equal(first.previousLineSha256, null);
    const afterGuard = ObserverReceiptDetail.parse(observerReceiptDetailFromStore(store, shas[2] as string));
    assert.equal(afterGuard.previousLineSha256, shas[1]);
    assert.equal(createHash("sha256").update(afterGuard.lineHashInput, "utf8").digest("hex"), shas[2]);
    assert.equal(afterGuard.receipt.kind, "candidate-captured");
    assert.equal(observerReceiptDetailFromStore(store, shas[3] as string).previousLineSha256, shas[2]);
    // The guard line is not an Observer entry.
    assert.throws(() => observerReceiptDetailFromStore(store, shas[1] as string), (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.receiptNotFound);

    // A file replaced under the store (another line where it read one) is refused, not misread.
    const read = store.observerLines[1] as ObserverLine;
    fs.writeFileSync(ledgerPath, text.replace(/"line":2,/u, '"line":7,'));
    assert.throws(() => readObserverLineLink(store, read), (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.ledgerRewritten);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

// ── The Receipts webview's Observer tab ──────────────────────────────────────────────────────

const state = (revision: string): HostToReceipts => ({ type: "state", backend: "ready", workspace: "trusted", on: true, blocked: false, projectionSha256: sha("a"), receiptCount: 0, revision });
const host = (model: Model, message: HostToReceipts) => update(model, { source: "host", message });
const ui = (model: Model, action: UiAction) => update(model, { source: "ui", action });
const tabPage = (revision: string, query: ObserverReceiptsPageParams = {}) => ObserverReceiptsPage.parse(observerReceiptsPage(LINES, revision, ObserverReceiptsPageParams.parse({ pageSize: 5, ...query })));
const ALL = { customType: null, kind: null };

/** The view on the Observer tab showing its newest page (the receipts page requested too). */
function onObserver(revision: string): Model {
  let step = host(initialModel({ cursor: null, from: "end", tab: "observer" }), state(revision));
  assert.deepEqual(step.post.map((message) => message.type), ["loadPage", "loadObserver"]);
  assert.deepEqual(step.post[1], { type: "loadObserver", requestId: 2, cursor: null, filter: ALL });
  step = host(step.model, { type: "observerEntries", requestId: 2, page: tabPage(revision) });
  assert.deepEqual(step.post, []);
  return step.model;
}

test("Observer tab: loads when shown, re-reads the shown page when the ledger moves, pages by line cursors", () => {
  const receipts = host(initialModel(null), state("r1"));
  assert.ok(receipts.post.every((message) => message.type !== "loadObserver"), "hidden tabs load nothing");
  const switched = ui(receipts.model, { type: "tab", tab: "observer" });
  assert.deepEqual(switched.post, [{ type: "loadObserver", requestId: 2, cursor: null, filter: ALL }]);

  const model = onObserver("r1");
  assert.deepEqual(model.observer.page?.entries.map((row) => row.line), [17, 15, 13, 12, 11]);
  assert.deepEqual(navigation(model), { first: false, previous: false, next: true });
  const older = ui(model, { type: "next" });
  assert.deepEqual(older.post, [{ type: "loadObserver", requestId: 3, cursor: 9, filter: ALL }]);
  const second = host(older.model, { type: "observerEntries", requestId: 3, page: tabPage("r1", { cursor: 9 }) });
  assert.equal(second.model.observer.cursor, 9);
  assert.deepEqual(navigation(second.model), { first: true, previous: true, next: true });
  assert.deepEqual(ui(second.model, { type: "previous" }).post, [{ type: "loadObserver", requestId: 4, cursor: 17, filter: ALL }]);
  assert.deepEqual(ui(second.model, { type: "first" }).post, [{ type: "loadObserver", requestId: 4, cursor: null, filter: ALL }]);
  assert.deepEqual(host(second.model, { type: "showLatest" }).post, [{ type: "loadObserver", requestId: 4, cursor: null, filter: ALL }]);

  // Live: a new revision reads the same cursor again; an answer that is already behind reads once more.
  const moved = host(second.model, state("r2"));
  assert.deepEqual(moved.post.filter((message) => message.type === "loadObserver"), [{ type: "loadObserver", requestId: 4, cursor: 9, filter: ALL }]);
  const behind = host(host(moved.model, state("r3")).model, { type: "observerEntries", requestId: 4, page: tabPage("r2", { cursor: 9 }) });
  assert.deepEqual(behind.post, [{ type: "loadObserver", requestId: 5, cursor: 9, filter: ALL }]);
  // A stale answer (another request id) is ignored; an error is shown; a missing backend retries later.
  assert.equal(host(second.model, { type: "observerEntries", requestId: 99, page: tabPage("r9") }).model.observer.page?.revision, "r1");
  const failed = host(older.model, { type: "observerEntriesError", requestId: 3, code: "docket.no-workspace", message: "no" });
  assert.deepEqual(failed.model.observer.error, { code: "docket.no-workspace", message: "no" });
  assert.equal(host(older.model, { type: "observerEntriesError", requestId: 3, code: "docket.backend-unavailable", message: "x" }).model.observer.error, null);
});

test("Observer tab: a filter reads the newest matching page and is kept with its cursor", () => {
  const model = onObserver("r1");
  const filter = { customType: "observer.observation" as const, kind: "candidate-captured" };
  const filtering = ui(model, { type: "observerFilter", filter });
  assert.deepEqual(filtering.post, [{ type: "loadObserver", requestId: 3, cursor: null, filter }]);
  const filtered = host(filtering.model, { type: "observerEntries", requestId: 3, page: tabPage("r1", { ...filter, pageSize: 2 }) });
  assert.deepEqual(filtered.model.observer.filter, filter);
  assert.deepEqual(ui(filtered.model, { type: "next" }).post, [{ type: "loadObserver", requestId: 4, cursor: 3, filter }]);
  const saved = ReceiptsViewState.parse(JSON.parse(JSON.stringify(persistedState(filtered.model))));
  assert.deepEqual(saved.observer, { cursor: null, filter, selected: null });
  // A reopened view asks for the same filtered page.
  const restored = host(initialModel(saved), state("r1"));
  assert.ok(restored.post.some((message) => message.type === "loadObserver" && message.filter.kind === "candidate-captured"));
  // An untouched tab adds nothing to the saved state of older views.
  assert.equal("observer" in persistedState(model), false);
  // The kind filter offers the kinds of the chosen type, or all of them summed.
  assert.deepEqual(observerKindChoices(filtered.model.observer.page, "observer.lifecycle"), [
    { kind: "activation-changed", count: 1 },
    { kind: "episode-opened", count: 1 },
  ]);
  assert.equal(observerKindChoices(filtered.model.observer.page, null).length, 8);
  // Filter controls exist only on the Observer tab.
  assert.deepEqual(ui(host(initialModel(null), state("r1")).model, { type: "observerFilter", filter }).post, []);
});

test("Observer tab: a row opens its detail, copies post the entry or the hashed line, Escape closes", () => {
  const model = onObserver("r1");
  const target = (LINES[7] as ObserverLine).lineSha256;
  const selected = ui(model, { type: "selectObserver", lineSha256: target });
  assert.deepEqual(selected.post, [{ type: "loadObserverDetail", requestId: 3, lineSha256: target }]);
  assert.deepEqual(ui(selected.model, { type: "selectObserver", lineSha256: target }).post, [], "one request per entry");
  // The fixture links line n to sha(n mod 10).
  const detail = observerReceiptDetail({ ...(LINES[7] as ObserverLine), previousLineSha256: sha("1") });
  const shown = host(selected.model, { type: "observerDetail", requestId: 3, detail });
  assert.equal(shown.model.observer.detail?.receipt.line, 11);
  assert.equal(persistedState(shown.model).observer?.selected, target);
  assert.deepEqual(ui(shown.model, { type: "copyObserver", part: "entry" }).post, [{ type: "copy", text: detail.canonicalJson }]);
  assert.deepEqual(ui(shown.model, { type: "copyObserver", part: "line" }).post, [{ type: "copy", text: detail.lineHashInput }]);
  // The other tabs' selections are untouched.
  assert.equal(shown.model.selected, null);
  assert.equal(shown.model.reviews.selected, null);
  // The detail survives a live re-read of the page; closing clears it.
  const reread = host(host(shown.model, state("r2")).model, { type: "observerEntries", requestId: 4, page: tabPage("r2") });
  assert.equal(reread.model.observer.detail?.receipt.line, 11);
  const closed = ui(reread.model, { type: "closeDetail" });
  assert.equal(closed.model.observer.selected, null);
  assert.equal(closed.model.observer.detail, null);
  // A failed detail says why.
  const failed = host(selected.model, { type: "observerDetailError", requestId: 3, code: ErrorCodes.receiptNotFound, message: "gone" });
  assert.deepEqual(failed.model.observer.detailError, { code: ErrorCodes.receiptNotFound, message: "gone" });
  // A reopened view reopens the detail.
  const restored = host(initialModel(persistedState(shown.model)), state("r2"));
  assert.ok(restored.post.some((message) => message.type === "loadObserverDetail" && message.lineSha256 === target));
});

test("Observer tab: ids and types as the table shows them", () => {
  assert.equal(shortObserverId(`candidate-${uuid(3)}`), "candidate-00000000");
  assert.equal(shortObserverId("episode-1"), "episode-1");
  assert.equal(shortObserverId("x".repeat(40)), `${"x".repeat(23)}…`);
  assert.equal(shortCustomType("observer.memo-pass"), "memo-pass");
});
