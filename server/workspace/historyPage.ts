// The Work view's History a page at a time, newest first. A year of work is tens of thousands of
// closed scopes; the view shows the newest page and asks for older ones with a cursor, so neither
// the backend nor the tree builds a row for every scope on every refresh. Pure: the caller hands
// in the scope listings, a way to build one closed scope's state, and the status revision.
import { DocketError } from "../errors";
import type { ScopeListing } from "../ledger/replay";
import type { ScopeState } from "../developer/scopeState";
import { describeClosedScope, type FrameActor } from "../developer/workState";
import { ErrorCodes, WorkHistoryCursor, type WorkHistoryPage } from "../protocol/messages";

/** Closed scopes in `docket/workState`'s answer; older ones come a page at a time. */
export const WORK_HISTORY_FIRST_PAGE = 50;

export interface HistoryPageSource {
  readonly listings: readonly ScopeListing[];
  /** The state of a closed scope, by id (a replayer rebuilds it from its lines). */
  readonly stateOf: (workScopeId: string) => ScopeState | undefined;
  readonly drivenBy: FrameActor;
  /** The status revision the page is cut from; a cursor from another revision is stale. */
  readonly revision: string;
}

function byCodeUnits(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Newest first: the later close first, then the larger scope id (code units), so the order is total. */
export function closedNewestFirst(listings: readonly ScopeListing[]): ScopeListing[] {
  return listings
    .filter((listing) => listing.status === "closed")
    .sort((left, right) => byCodeUnits(right.closedAt ?? "", left.closedAt ?? "") || byCodeUnits(right.workScopeId, left.workScopeId));
}

export function historyCursor(start: number, revision: string): string {
  return `wh1:${start}:${revision}`;
}

/** The position a cursor names in this revision; a coded error for anything else. */
export function cursorStart(cursor: string, revision: string): number {
  if (!WorkHistoryCursor.safeParse(cursor).success) {
    throw new DocketError(ErrorCodes.invalidCursor, "This History cursor is not one Docket gave out; ask for the Work view again.");
  }
  const [, start, cursorRevision] = cursor.split(":");
  if (cursorRevision !== revision) {
    throw new DocketError(ErrorCodes.staleCursor, "The ledger moved since this History page was cut; the Work view shows the History again from its newest scope.");
  }
  return Number(start);
}

/** The closed scopes from `start` (newest first); past the end, an empty page. */
export function workHistoryPage(source: HistoryPageSource, start: number, pageSize: number): WorkHistoryPage {
  const ordered = closedNewestFirst(source.listings);
  const slice = ordered.slice(start, start + pageSize);
  const entries = slice.flatMap((listing) => {
    const state = source.stateOf(listing.workScopeId);
    return state === undefined ? [] : [describeClosedScope(state, source.drivenBy)];
  });
  const next = start + slice.length;
  return {
    revision: source.revision,
    entries,
    total: ordered.length,
    nextCursor: slice.length > 0 && next < ordered.length ? historyCursor(next, source.revision) : null,
  };
}
