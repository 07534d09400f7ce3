// The Work view's History rows (extension/workHistory.ts): the entries the work state and the older
// pages carry, in the backend's order, each with its scope's summary; one page of the status's
// closed scopes before the work state arrives; the cursor of the next page; and the key the view
// re-asks on, which moves when the backend finishes reading the history of the same bytes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { historyRows, statusKey, HISTORY_ROWS_BEFORE_WORK_STATE } from "../../extension/workHistory";
import type { ScopeSummary, Status, WorkState } from "../../server/protocol/messages";

const sha = "a".repeat(64);

function scope(index: number, status: "open" | "closed" = "closed"): ScopeSummary {
  return { workScopeId: `scope:${String(index).padStart(3, "0")}`, status, head: 3, openedAt: "2031-01-01T00:00:00.000Z", closedAt: status === "closed" ? `2031-01-01T00:${String(index % 60).padStart(2, "0")}:00.000Z` : null, openedEventSha256: sha };
}

function statusOf(scopes: ScopeSummary[], stillReading?: true): Status {
  return {
    workspaceFolder: "/w",
    trusted: true,
    phase: "off",
    historyMode: "v8-closed",
    blockedReason: null,
    activeScope: null,
    scopes,
    ledger: null,
    revision: "b".repeat(64),
    receiptCount: 0,
    projectionSha256: sha,
    source: { kind: "workspace" },
    legalOperations: [],
    ...(stillReading === undefined ? {} : { stillReading }),
  };
}

function workOf(ids: string[], historyNextCursor: string | null): WorkState {
  return {
    phase: "off",
    workScopeId: null,
    purpose: null,
    legalOperations: [],
    nextAction: null,
    frames: [],
    authorization: null,
    landings: [],
    history: ids.map((workScopeId) => ({ workScopeId, frames: [], landings: [] })),
    historyNextCursor,
  };
}

test("rows follow the work state's entries, with each scope's summary, and carry its next cursor", () => {
  const scopes = [scope(1), scope(2), scope(3), scope(4, "open")];
  const rows = historyRows(statusOf(scopes), workOf(["scope:003", "scope:001", "scope:999"], "wh1:2:cursor"));
  assert.deepEqual(rows.rows.map((row) => [row.scope.workScopeId, row.recorded?.workScopeId]), [["scope:003", "scope:003"], ["scope:001", "scope:001"]]);
  assert.equal(rows.total, 3);
  assert.equal(rows.olderCursor, "wh1:2:cursor");
  // A source that gives its whole History (a Pi session) has no cursor: nothing older to offer.
  const whole = workOf(["scope:001", "scope:002", "scope:003"], null);
  delete (whole as { historyNextCursor?: string | null }).historyNextCursor;
  assert.equal(historyRows(statusOf(scopes), whole).olderCursor, null);
});

test("before the work state arrives: one page of the last closed scopes, nothing older offered", () => {
  const scopes = Array.from({ length: 120 }, (_, index) => scope(index));
  const rows = historyRows(statusOf(scopes), null);
  assert.equal(rows.rows.length, HISTORY_ROWS_BEFORE_WORK_STATE);
  assert.equal(rows.rows[0]?.scope.workScopeId, "scope:119");
  assert.equal(rows.rows.every((row) => row.recorded === undefined), true);
  assert.equal(rows.olderCursor, null);
  assert.equal(rows.total, 120);
});

test("the view's key moves when the backend finishes reading the same bytes", () => {
  const reading = statusOf([], true);
  const read = statusOf([]);
  assert.equal(reading.revision, read.revision);
  assert.notEqual(statusKey(reading), statusKey(read));
});
