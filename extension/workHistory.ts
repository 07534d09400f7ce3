// Which scopes the Work view lists under History, and whether it must ask the backend for the
// work state. Closed scopes' judgments and landings come with the work state, so it is asked for
// while Docket is off too whenever there is a history to show. The backend gives the newest page
// of them with the work state and older pages on request (docket/workHistory/page); the rows are
// the entries it gave, in its order. No `vscode` import (unit-tested).
import type { ScopeSummary, Status, WorkHistoryEntry, WorkState } from "../server/protocol/messages";

/** Rows shown before the work state arrives (the backend's first page is as long). */
export const HISTORY_ROWS_BEFORE_WORK_STATE = 50;
/** How many older scopes one "Show older…" asks for. */
export const HISTORY_PAGE_SIZE = 50;

export function closedScopes(status: Status): ScopeSummary[] {
  return status.scopes.filter((scope) => scope.status === "closed");
}

export function needsWorkState(status: Status | null): boolean {
  return status !== null && (status.activeScope !== null || closedScopes(status).length > 0);
}

/**
 * What the views key their requests on: the revision, and whether the backend still reads the
 * history (the same bytes answer again, with everything, once it is read).
 */
export function statusKey(status: Status): string {
  return status.stillReading === true ? `${status.revision}:reading` : status.revision;
}

export interface HistoryRow {
  readonly scope: ScopeSummary;
  /** What the scope decided and landed; undefined until the work state arrives. */
  readonly recorded: WorkHistoryEntry | undefined;
}

export interface HistoryRows {
  readonly rows: readonly HistoryRow[];
  readonly total: number;
  /** The cursor of the next older page, when there is one to show. */
  readonly olderCursor: string | null;
}

/**
 * The History rows: the entries the work state (and the older pages loaded since) carry, with
 * each scope's summary from the status; before the work state arrives, the last closed scopes of
 * the status's list (by id), at most one page.
 */
export function historyRows(status: Status, work: WorkState | null): HistoryRows {
  const closed = closedScopes(status);
  if (work === null) {
    return { rows: closed.slice(-HISTORY_ROWS_BEFORE_WORK_STATE).reverse().map((scope) => ({ scope, recorded: undefined })), total: closed.length, olderCursor: null };
  }
  const byId = new Map(closed.map((scope) => [scope.workScopeId, scope]));
  const rows = work.history.flatMap((recorded) => {
    const scope = byId.get(recorded.workScopeId);
    return scope === undefined ? [] : [{ scope, recorded }];
  });
  return { rows, total: closed.length, olderCursor: work.historyNextCursor ?? null };
}
