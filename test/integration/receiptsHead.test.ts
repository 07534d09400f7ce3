// Receipts pages before the full replay (docs/performance.md "Receipts pages on a large ledger"):
// ledger files in, pages out. A WorkspaceLedger that replayed the ledger persists the receipt head
// beside it; a fresh one that has not read the ledger answers the newest pages from that head and
// the lines it names, and must give exactly the full replay's page (JSON bytes) or nothing — a
// forged or stale head, a changed ledger, or a page reaching older receipts falls back.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DocketError } from "../../server/errors";
import { DEVELOPER_STREAM, OBSERVER_STREAM, encodeLedgerLine } from "../../server/ledger/ledgerLine";
import { ErrorCodes } from "../../server/protocol/messages";
import { receiptHeadPathFor, sealedReceiptHead, type StoredHead } from "../../server/workspace/receiptHead";
import { receiptsPageFromHead } from "../../server/workspace/receiptWindow";
import type { ReceiptPageQuery } from "../../server/workspace/receiptQueries";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { cycleScopesEntries, ledgerLines } from "../support/generatedCycles";
import { seededRandom } from "../support/seededRandom";

const KINDS = ["work-scope-opened", "work-scope-closed", "change-authorized", "implementation-landing-recorded", "support-observed", "obligation-discharged"] as const;

interface Workspace {
  readonly folder: string;
  readonly ledgerPath: string;
}

function workspaceWith(text: string): Workspace {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "docket-receipt-head-"));
  const ledgerPath = path.join(folder, ".docket", "ledger.jsonl");
  fs.mkdirSync(path.dirname(ledgerPath), { recursive: true });
  fs.writeFileSync(ledgerPath, text);
  return { folder, ledgerPath };
}

function ledgerOf(workspace: Workspace, trusted = true): WorkspaceLedger {
  return new WorkspaceLedger({ workspaceFolder: workspace.folder, ledgerPath: workspace.ledgerPath, trusted });
}

/** The page's JSON, or the coded error's code and message. */
function answer(read: () => unknown): string {
  try {
    return JSON.stringify(read());
  } catch (error) {
    if (error instanceof DocketError) return `error ${error.code}: ${error.message}`;
    throw error;
  }
}

function fromHead(workspace: Workspace, query: ReceiptPageQuery): string | null {
  try {
    const page = receiptsPageFromHead(workspace.folder, workspace.ledgerPath, query);
    return page === null ? null : JSON.stringify(page);
  } catch (error) {
    if (error instanceof DocketError) return `error ${error.code}: ${error.message}`;
    throw error;
  }
}

function fullPage(ledger: WorkspaceLedger, query: ReceiptPageQuery): string {
  return answer(() => ledger.receiptsPage(query.cursor, query.pageSize, query.from, { kinds: query.kinds, containing: query.containing }));
}

/** Replays the workspace's ledger in full and persists its receipt head (as the backend does on a page). */
function replayed(workspace: Workspace): WorkspaceLedger {
  const ledger = ledgerOf(workspace);
  ledger.receiptsPage(null, 1, "end");
  assert.ok(fs.existsSync(receiptHeadPathFor(workspace.ledgerPath)), "a full replay persists the receipt head");
  return ledger;
}

function lastLineOf(text: string): { line: number; lineSha256: string } {
  const lines = text.trimEnd().split("\n");
  const last = JSON.parse(lines.at(-1) as string) as { line: number; lineSha256: string };
  return { line: last.line, lineSha256: last.lineSha256 };
}

/** A line of another stream appended after `text` (its entry need not be valid: such a line never adds a receipt). */
function observerLineAfter(text: string, entry: unknown): string {
  const last = lastLineOf(text);
  return encodeLedgerLine(last.line + 1, last.lineSha256, OBSERVER_STREAM, entry).text;
}

function developerLineAfter(text: string, entry: unknown): string {
  const last = lastLineOf(text);
  return encodeLedgerLine(last.line + 1, last.lineSha256, DEVELOPER_STREAM, entry).text;
}

function readHead(workspace: Workspace): StoredHead {
  return JSON.parse(fs.readFileSync(receiptHeadPathFor(workspace.ledgerPath), "utf8")) as StoredHead;
}

/** The head with the newest receipt's entry in one column replaced, resealed. */
function resealedWith<K extends keyof StoredHead["receipts"]["window"]>(head: StoredHead, column: K, value: StoredHead["receipts"]["window"][K][number]): StoredHead {
  const values = [...head.receipts.window[column]];
  values[values.length - 1] = value;
  return sealedReceiptHead(head.ledger, { ...head.receipts, window: { ...head.receipts.window, [column]: values } });
}

function writeHead(workspace: Workspace, head: StoredHead): void {
  fs.writeFileSync(receiptHeadPathFor(workspace.ledgerPath), `${JSON.stringify(head)}\n`);
}

test("differential: random ledgers and queries — the head's page is the full replay's, byte for byte, or nothing", () => {
  const random = seededRandom(16_06);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  let served = 0;
  let fellBack = 0;
  for (let round = 0; round < 12; round += 1) {
    const scopes = 1 + Math.floor(random() * 18);
    let text = ledgerLines(cycleScopesEntries(scopes)).join("");
    const workspace = workspaceWith(text);
    const full = replayed(workspace);
    // Lines of another stream appended after the head add no receipt: still answered.
    if (random() < 0.4) {
      const line = observerLineAfter(text, { note: `round ${round}` });
      fs.appendFileSync(workspace.ledgerPath, line);
      text += line;
    }
    const reference = ledgerOf(workspace);
    const count = full.receiptsPage(null, 1).receiptCount;
    const queries: ReceiptPageQuery[] = [];
    for (let index = 0; index < 14; index += 1) {
      const pageSize = pick([1, 7, 20, 50, 99, 100, 1 + Math.floor(random() * 100)]);
      const kinds = random() < 0.3 ? [pick(KINDS), ...(random() < 0.5 ? [pick(KINDS)] : [])] : undefined;
      const from = random() < 0.8 ? ("end" as const) : ("start" as const);
      queries.push({ cursor: null, pageSize, from, kinds });
      const newest = full.receiptsPage(null, pageSize, "end", { kinds });
      for (const cursor of [newest.previousCursor, newest.pageCursor, newest.nextCursor]) if (cursor !== null) queries.push({ cursor, pageSize, kinds });
      const previous = newest.previousCursor === null ? null : full.receiptsPage(newest.previousCursor, pageSize, "start", { kinds }).previousCursor;
      if (previous !== null) queries.push({ cursor: previous, pageSize, kinds });
      const ordinal = Math.floor(random() * count);
      const event = full.store.replayer.acceptedEvent(ordinal);
      if (event !== undefined) queries.push({ cursor: null, pageSize, containing: event.envelope.eventSha256, kinds });
    }
    let replayedFresh = false;
    for (const query of queries) {
      const expected = fullPage(reference, query);
      const early = fromHead(workspace, query);
      if (early === null) fellBack += 1;
      else {
        served += 1;
        assert.equal(early, expected, `round ${round}: ${JSON.stringify(query)}`);
      }
      // A ledger that has not replayed answers the same, from the head or (once a round, it costs
      // a replay) after replaying.
      if (early !== null || !replayedFresh) assert.equal(fullPage(ledgerOf(workspace), query), expected);
      if (early === null) replayedFresh = true;
    }
    // The newest page of every size up to 100, unfiltered, is always served from the head.
    assert.notEqual(fromHead(workspace, { cursor: null, pageSize: 100, from: "end" }), null);
  }
  assert.ok(served > 100, `served ${served}`);
  assert.ok(fellBack > 10, `fell back ${fellBack}`);
});

test("a Developer line after the head, a rewritten or copied ledger, and a forged head fall back", () => {
  const text = ledgerLines(cycleScopesEntries(12)).join("");
  const newest: ReceiptPageQuery = { cursor: null, pageSize: 100, from: "end" };

  // A Developer line appended after the head may add a receipt: wait for the replay.
  const grown = workspaceWith(text);
  replayed(grown);
  const extra = cycleScopesEntries(13).slice(-20);
  fs.appendFileSync(grown.ledgerPath, developerLineAfter(text, extra[0]));
  assert.equal(fromHead(grown, newest), null);
  assert.equal(ledgerOf(grown).receiptsPage(null, 100, "end").receiptCount, 241);
  // A torn write (no newline) is not a line: still answered.
  const torn = workspaceWith(text);
  const tornFull = replayed(torn);
  fs.appendFileSync(torn.ledgerPath, '{"entry":');
  assert.equal(fromHead(torn, newest), fullPage(tornFull, newest));
  // A line that is not JSON after the head: not proven.
  fs.appendFileSync(torn.ledgerPath, "\n");
  assert.equal(fromHead(torn, newest), null);

  // The ledger replaced by a copy (another inode) with the same bytes: the head describes another file.
  const copied = workspaceWith(text);
  replayed(copied);
  // Written beside it first and renamed over it, so the copy cannot reuse the freed inode number.
  fs.copyFileSync(copied.ledgerPath, `${copied.ledgerPath}.copy`);
  fs.renameSync(`${copied.ledgerPath}.copy`, copied.ledgerPath);
  assert.equal(fromHead(copied, newest), null);

  // A line inside the window changed (the head line kept): the chain no longer reaches the head.
  const edited = workspaceWith(text);
  replayed(edited);
  const lines = text.split("\n");
  const target = lines.length - 5;
  lines[target] = (lines[target] as string).replace(/"occurredAt":"[^"]*"/u, '"occurredAt":"2030-01-01T00:00:00.000Z"');
  fs.writeFileSync(edited.ledgerPath, lines.join("\n"));
  const editedStat = fs.statSync(edited.ledgerPath);
  assert.equal(editedStat.size, Buffer.byteLength(text));
  assert.equal(fromHead(edited, newest), null);

  // Forged heads: an edited count without its seal; a resealed head naming another event; a
  // resealed head whose window points at the wrong line; an unknown field; not JSON at all.
  const forged = workspaceWith(text);
  const forgedFull = replayed(forged);
  const original = readHead(forged);
  const expected = fullPage(forgedFull, newest);
  assert.equal(fromHead(forged, newest), expected);
  const variants: [string, () => void][] = [
    ["unsealed count", () => writeHead(forged, { ...original, receipts: { ...original.receipts, count: original.receipts.count + 1 } })],
    ["another event", () => writeHead(forged, resealedWith(original, "eventSha256s", "0".repeat(64)))],
    ["shifted lines", () => writeHead(forged, resealedWith(original, "lines", (original.receipts.window.lines.at(-1) as number) - 1))],
    ["wrong kind", () => writeHead(forged, resealedWith(original, "kinds", "work-scope-opened"))],
    ["columns of different lengths", () => writeHead(forged, sealedReceiptHead(original.ledger, { ...original.receipts, window: { ...original.receipts.window, kinds: original.receipts.window.kinds.slice(1) } }))],
    ["unknown field", () => writeHead(forged, { ...original, extra: true } as StoredHead)],
    ["not JSON", () => fs.writeFileSync(receiptHeadPathFor(forged.ledgerPath), "{")],
  ];
  for (const [name, forge] of variants) {
    forge();
    assert.equal(fromHead(forged, newest), null, name);
    // The ledger itself still answers, after its replay.
    assert.equal(fullPage(ledgerOf(forged, false), newest), expected, name);
  }
});

test("bad cursors and parameters get the full replay's coded errors from the head too", () => {
  const text = ledgerLines(cycleScopesEntries(9)).join("");
  const workspace = workspaceWith(text);
  const full = replayed(workspace);
  const newest = full.receiptsPage(null, 50, "end");
  const cursor = newest.pageCursor as string;
  const forgedCursor = `${cursor.slice(0, -1)}${cursor.endsWith("0") ? "1" : "0"}`;
  const otherProjection = `${"a".repeat(64)}${cursor.slice(64)}`;
  const cases: [ReceiptPageQuery, string][] = [
    [{ cursor: "garbage", pageSize: 50 }, ErrorCodes.invalidCursor],
    [{ cursor: forgedCursor, pageSize: 50 }, ErrorCodes.invalidCursor],
    [{ cursor, pageSize: 50, kinds: ["work-scope-opened"] }, ErrorCodes.invalidCursor],
    [{ cursor: otherProjection, pageSize: 50 }, ErrorCodes.invalidCursor],
    [{ cursor, pageSize: 50, containing: newest.receipts[0]?.eventSha256 }, ErrorCodes.invalidParams],
  ];
  for (const [query, code] of cases) {
    const expected = fullPage(full, query);
    assert.ok(expected.startsWith(`error ${code}:`), `${JSON.stringify(query)} → ${expected}`);
    assert.equal(fromHead(workspace, query), expected);
    assert.equal(fullPage(ledgerOf(workspace), query), expected);
  }
  // A cursor issued by the projection before the ledger grew is stale once it grew.
  const stale = full.receiptsPage(null, 20, "end").pageCursor as string;
  const grownText = ledgerLines(cycleScopesEntries(10)).join("");
  const grown = workspaceWith(grownText);
  replayed(grown);
  const staleAnswer = fromHead(grown, { cursor: stale, pageSize: 20 });
  assert.equal(staleAnswer, fullPage(ledgerOf(grown), { cursor: stale, pageSize: 20 }));
  assert.ok(staleAnswer?.startsWith(`error ${ErrorCodes.staleCursor}:`), staleAnswer ?? "null");
});

test("an untrusted workspace reads a head but never writes one", () => {
  const workspace = workspaceWith(ledgerLines(cycleScopesEntries(3)).join(""));
  const untrusted = ledgerOf(workspace, false);
  untrusted.receiptsPage(null, 10, "end");
  assert.equal(fs.existsSync(receiptHeadPathFor(workspace.ledgerPath)), false);
  const full = replayed(workspace);
  const query: ReceiptPageQuery = { cursor: null, pageSize: 10, from: "end" };
  assert.equal(answer(() => ledgerOf(workspace, false).receiptsPage(null, 10, "end")), fullPage(full, query));
});

test("a loaded ledger that has not caught up with a rewrite in place writes no head for the new bytes", () => {
  const workspace = workspaceWith(ledgerLines(cycleScopesEntries(4)).join(""));
  const stale = ledgerOf(workspace);
  stale.refresh();
  // The same inode, other bytes: a history of other scopes, longer than the one the store read.
  const other = ledgerLines(cycleScopesEntries(6).slice(20)).join("");
  fs.writeFileSync(workspace.ledgerPath, other);
  stale.receiptsPage(null, 10, "end");
  assert.equal(fs.existsSync(receiptHeadPathFor(workspace.ledgerPath)), false);
  assert.equal(fromHead(workspace, { cursor: null, pageSize: 10, from: "end" }), null);
});
