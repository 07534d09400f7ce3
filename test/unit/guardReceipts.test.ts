// The guard stream's pages and details for the Receipts view (server/guard/guardReceipts.ts):
// newest- and oldest-first pages over guard lines spread between developer lines, cursors that are
// line numbers (stable while entries are appended), and a detail whose hashed text reproduces
// the line hash.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import type { GuardEntry } from "../../server/guard/guardEntry";
import { guardReceiptDetail, guardReceiptsPage } from "../../server/guard/guardReceipts";
import { canonicalJson, toJsonValue } from "../../server/ledger/canonicalJson";
import { encodeLedgerLine } from "../../server/ledger/ledgerLine";
import type { GuardLine } from "../../server/ledger/store";
import { DocketError } from "../../server/errors";
import { ErrorCodes, GuardReceiptDetail, GuardReceiptsPage, GuardReceiptsPageParams } from "../../server/protocol/messages";

const sha = (c: string): string => c.repeat(64);
const reviewId = (n: number): string => `review:${n.toString(16).padStart(24, "0")}`;

function opened(n: number): GuardEntry {
  return {
    kind: "review-opened",
    reviewId: reviewId(n),
    workScopeId: "scope:0123456789abcdef01234567",
    draftSha256: sha("a"),
    draftBytes: 12,
    coversEntireAnswer: false,
    claims: [{ claimId: "c1", text: `claim ${n}` }],
    sources: [{ sourceId: "source:1", kind: "file", path: "a.txt", sha256: sha("b"), bytes: 3 }],
    session: null,
    openedAt: `2026-01-01T00:00:${String(n).padStart(2, "0")}.000Z`,
  };
}

function submitted(n: number, openedLineSha256: string, status: "supported" | "unsupported" | "incomplete"): GuardEntry {
  return {
    kind: "review-submitted",
    reviewId: reviewId(n),
    openedLineSha256,
    claims: [{ claimId: "c1", verdict: status === "supported" ? "supported" : "unsupported", citations: ["source:1"] }],
    response: { verdict: status === "supported" ? "supported" : "unsupported", rationale: "because" },
    status,
    problems: [],
    submittedAt: `2026-01-01T00:01:${String(n).padStart(2, "0")}.000Z`,
  };
}

/** Guard lines as the store reads them: real line hashes, developer lines (not listed) in between. */
function ledger(entries: readonly { line: number; entry: (previous: readonly GuardLine[]) => GuardEntry }[]): GuardLine[] {
  const lines: GuardLine[] = [];
  for (const { line, entry } of entries) {
    const previousLineSha256 = line === 0 ? null : sha((line % 10).toString());
    const value = entry(lines);
    const encoded = encodeLedgerLine(line, previousLineSha256, "docket/guard/v1", value);
    lines.push({ line, offset: line * 100, length: encoded.text.length, previousLineSha256, lineSha256: encoded.lineSha256, entry: value });
  }
  return lines;
}

const lineOf = (lines: readonly GuardLine[], n: number): string => (lines.find((line) => line.entry.kind === "review-opened" && line.entry.reviewId === reviewId(n)) as GuardLine).lineSha256;

/** Five reviews, the last one still open: lines 1..9 with developer lines at 0, 3 and 6. */
const lines = ledger([
  { line: 1, entry: () => opened(1) },
  { line: 2, entry: (done) => submitted(1, lineOf(done, 1), "supported") },
  { line: 4, entry: () => opened(2) },
  { line: 5, entry: (done) => submitted(2, lineOf(done, 2), "unsupported") },
  { line: 7, entry: () => opened(3) },
  { line: 8, entry: (done) => submitted(3, lineOf(done, 3), "incomplete") },
  { line: 9, entry: () => opened(4) },
]);

const page = (query: { order?: "newest" | "oldest"; cursor?: number | null; pageSize?: number }, from: readonly GuardLine[] = lines) => {
  const params = GuardReceiptsPageParams.parse(query);
  return GuardReceiptsPage.parse(guardReceiptsPage(from, "rev-1", params));
};

test("newest first: pages of the given size, cursors are ledger lines", () => {
  const first = page({ pageSize: 3 });
  assert.equal(first.order, "newest");
  assert.equal(first.entryCount, 7);
  assert.equal(first.revision, "rev-1");
  assert.deepEqual(first.entries.map((row) => row.line), [9, 8, 7]);
  assert.equal(first.startPosition, 0);
  assert.equal(first.pageCursor, 9);
  assert.equal(first.previousCursor, null);
  assert.equal(first.nextCursor, 5);

  const second = page({ pageSize: 3, cursor: first.nextCursor });
  assert.deepEqual(second.entries.map((row) => row.line), [5, 4, 2]);
  assert.equal(second.startPosition, 3);
  assert.equal(second.previousCursor, 9);
  assert.equal(second.nextCursor, 1);

  const last = page({ pageSize: 3, cursor: second.nextCursor });
  assert.deepEqual(last.entries.map((row) => row.line), [1]);
  assert.equal(last.nextCursor, null);
  assert.equal(last.previousCursor, 5);
  assert.deepEqual(page({ pageSize: 3, cursor: last.previousCursor }), second);
});

test("oldest first walks the other way", () => {
  const first = page({ order: "oldest", pageSize: 4 });
  assert.deepEqual(first.entries.map((row) => row.line), [1, 2, 4, 5]);
  assert.equal(first.nextCursor, 7);
  const second = page({ order: "oldest", pageSize: 4, cursor: 7 });
  assert.deepEqual(second.entries.map((row) => row.line), [7, 8, 9]);
  assert.equal(second.startPosition, 4);
  assert.equal(second.previousCursor, 1);
  assert.equal(second.nextCursor, null);
});

test("a cursor between guard lines (a developer line) starts at the next guard line in order", () => {
  assert.deepEqual(page({ cursor: 6, pageSize: 2 }).entries.map((row) => row.line), [5, 4]);
  assert.deepEqual(page({ order: "oldest", cursor: 6, pageSize: 2 }).entries.map((row) => row.line), [7, 8]);
  // Past either end: an empty page (newest-first, a cursor past the head reads from the head).
  assert.deepEqual(page({ order: "oldest", cursor: 100 }).entries, []);
  assert.equal(page({ order: "oldest", cursor: 100 }).pageCursor, null);
  assert.deepEqual(page({ cursor: 100, pageSize: 1 }).entries.map((row) => row.line), [9]);
  assert.deepEqual(page({ cursor: 0 }).entries, []);
});

test("appending entries leaves a cursor's page as it was; the newest page shows them first", () => {
  const older = page({ pageSize: 3, cursor: 5 });
  const grown = ledger([
    { line: 1, entry: () => opened(1) },
    { line: 2, entry: (done) => submitted(1, lineOf(done, 1), "supported") },
    { line: 4, entry: () => opened(2) },
    { line: 5, entry: (done) => submitted(2, lineOf(done, 2), "unsupported") },
    { line: 7, entry: () => opened(3) },
    { line: 8, entry: (done) => submitted(3, lineOf(done, 3), "incomplete") },
    { line: 9, entry: () => opened(4) },
    { line: 10, entry: (done) => submitted(4, lineOf(done, 4), "supported") },
  ]);
  const again = page({ pageSize: 3, cursor: 5 }, grown);
  assert.deepEqual(again.entries, older.entries);
  assert.equal(again.startPosition, older.startPosition + 1);
  assert.deepEqual(page({ pageSize: 1 }, grown).entries.map((row) => [row.line, row.kind, row.status]), [[10, "review-submitted", "supported"]]);
});

test("rows: kind, review id, status (submitted) or work scope (opened), time", () => {
  const rows = page({ pageSize: 100 }).entries;
  assert.deepEqual(rows.find((row) => row.line === 8), {
    line: 8,
    lineSha256: lines[5]?.lineSha256,
    kind: "review-submitted",
    reviewId: reviewId(3),
    status: "incomplete",
    workScopeId: null,
    at: "2026-01-01T00:01:03.000Z",
  });
  assert.deepEqual(rows.find((row) => row.line === 9), {
    line: 9,
    lineSha256: lines[6]?.lineSha256,
    kind: "review-opened",
    reviewId: reviewId(4),
    status: null,
    workScopeId: "scope:0123456789abcdef01234567",
    at: "2026-01-01T00:00:04.000Z",
  });
});

test("an empty guard stream is one empty page", () => {
  assert.deepEqual(page({}, []), {
    revision: "rev-1",
    order: "newest",
    entryCount: 0,
    startPosition: 0,
    pageCursor: null,
    entries: [],
    nextCursor: null,
    previousCursor: null,
  });
});

test("params: bounded page size, non-negative integer cursor, known orders, nothing else", () => {
  assert.deepEqual(GuardReceiptsPageParams.parse({}), { order: "newest", cursor: null, pageSize: 50 });
  for (const bad of [{ pageSize: 0 }, { pageSize: 101 }, { cursor: -1 }, { cursor: 1.5 }, { cursor: "3" }, { order: "random" }, { from: "end" }]) {
    assert.equal(GuardReceiptsPageParams.safeParse(bad).success, false, JSON.stringify(bad));
  }
});

test("detail: the entry's canonical JSON and the exact text the line hash covers", () => {
  const line = lines[1] as GuardLine;
  const detail = GuardReceiptDetail.parse(guardReceiptDetail(lines, line.lineSha256));
  assert.equal(detail.stream, "docket/guard/v1");
  assert.equal(detail.receipt.line, 2);
  assert.equal(detail.previousLineSha256, line.previousLineSha256);
  assert.equal(detail.canonicalJson, canonicalJson(toJsonValue(line.entry)));
  assert.equal(createHash("sha256").update(detail.lineHashInput, "utf8").digest("hex"), line.lineSha256);
  assert.ok(detail.lineHashInput.includes(`"entry":${detail.canonicalJson}`));
  assert.ok(detail.lineHashInput.startsWith('{"domain":"docket/ledger-line/v1","value":{'));
  // The line as the ledger holds it carries the same entry text.
  assert.ok(encodeLedgerLine(2, line.previousLineSha256, "docket/guard/v1", line.entry).text.startsWith(`{"entry":${detail.canonicalJson},`));
  // A submission points at its opening, an opening at its submission; an open review at nothing.
  assert.equal(detail.related?.line, 1);
  assert.equal(detail.related?.kind, "review-opened");
  assert.equal(guardReceiptDetail(lines, (lines[0] as GuardLine).lineSha256).related?.line, 2);
  assert.equal(guardReceiptDetail(lines, (lines[6] as GuardLine).lineSha256).related, null);
});

test("detail: an unknown line hash is receipt-not-found", () => {
  assert.throws(() => guardReceiptDetail(lines, sha("f")), (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.receiptNotFound);
});
