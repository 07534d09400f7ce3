// The Observer tab of the Receipts webview: pure state for paging Observer's ledger entries
// (`observer/v1`) newest first under a customType / kind filter, and the detail of one entry.
// Like the Reviews tab it follows the ledger live: cursors are line numbers, which appends never
// move, so the shown page is read again whenever the status revision moves. ./model.ts owns the
// shared parts (tab, request ids, copy outcome) and hands this module a scope.
import type { ObserverReceiptDetail, ObserverReceiptsPage } from "../../server/protocol/messages";
import type { HostToReceipts, ObserverFilter, ReceiptsToHost, ReceiptsViewState } from "../../server/protocol/webviewMessages";

/** Client-side code the host uses when the backend is not running (the next `state` retries). */
const BACKEND_UNAVAILABLE = "docket.backend-unavailable";

export const NO_OBSERVER_FILTER: ObserverFilter = { customType: null, kind: null };

interface Failure {
  readonly code: string;
  readonly message: string;
}

export interface ObserverModel {
  /** Cursor (a ledger line) of the displayed page, or null for the newest page; persisted. */
  readonly cursor: number | null;
  /** Filter of the displayed page (persisted); a pending request may carry another one. */
  readonly filter: ObserverFilter;
  readonly page: ObserverReceiptsPage | null;
  readonly pending: { readonly requestId: number; readonly cursor: number | null; readonly filter: ObserverFilter } | null;
  readonly error: Failure | null;
  /** Line hash of the selected entry, whose detail pane is open (persisted). */
  readonly selected: string | null;
  readonly detail: ObserverReceiptDetail | null;
  readonly detailPending: { readonly requestId: number; readonly lineSha256: string } | null;
  readonly detailError: Failure | null;
}

/** What the tab needs from the whole view. */
export interface ObserverScope {
  /** The Observer tab is shown. */
  readonly shown: boolean;
  /** The backend is ready and a folder is open. */
  readonly loadable: boolean;
  /** The backend's status revision as last announced. */
  readonly revision: string | null;
  readonly nextRequestId: number;
}

export interface ObserverStep {
  readonly observer: ObserverModel;
  readonly nextRequestId: number;
  readonly post: readonly ReceiptsToHost[];
}

export type ObserverAction =
  | { readonly type: "first" | "previous" | "next" | "showLatest" | "closeDetail" }
  | { readonly type: "observerFilter"; readonly filter: ObserverFilter }
  | { readonly type: "selectObserver"; readonly lineSha256: string };

export type ObserverHostMessage = Extract<HostToReceipts, { type: "observerEntries" | "observerEntriesError" | "observerDetail" | "observerDetailError" }>;

type SavedObserver = NonNullable<ReceiptsViewState["observer"]>;

export function initialObserver(saved: SavedObserver | undefined): ObserverModel {
  return {
    cursor: saved?.cursor ?? null,
    filter: saved?.filter ?? NO_OBSERVER_FILTER,
    page: null,
    pending: null,
    error: null,
    selected: saved?.selected ?? null,
    detail: null,
    detailPending: null,
    detailError: null,
  };
}

/** The persisted part, or undefined while it is all defaults (older views never had it). */
export function persistedObserver(observer: ObserverModel): SavedObserver | undefined {
  const { cursor, filter, selected } = observer;
  if (cursor === null && selected === null && filter.customType === null && filter.kind === null) return undefined;
  return { cursor, filter: { ...filter }, selected };
}

/** The filter a request is about to apply, else the displayed one (what the filter controls show). */
export function shownObserverFilter(observer: ObserverModel): ObserverFilter {
  return observer.pending?.filter ?? observer.filter;
}

const stay = (observer: ObserverModel, scope: ObserverScope): ObserverStep => ({ observer, nextRequestId: scope.nextRequestId, post: [] });

function chain(first: ObserverStep, scope: ObserverScope, next: (observer: ObserverModel, scope: ObserverScope) => ObserverStep): ObserverStep {
  const second = next(first.observer, { ...scope, nextRequestId: first.nextRequestId });
  return { observer: second.observer, nextRequestId: second.nextRequestId, post: [...first.post, ...second.post] };
}

function requestEntries(observer: ObserverModel, scope: ObserverScope, cursor: number | null, filter: ObserverFilter): ObserverStep {
  const requestId = scope.nextRequestId;
  return {
    observer: { ...observer, pending: { requestId, cursor, filter }, error: null },
    nextRequestId: requestId + 1,
    post: [{ type: "loadObserver", requestId, cursor, filter: { ...filter } }],
  };
}

function requestDetail(observer: ObserverModel, scope: ObserverScope, lineSha256: string): ObserverStep {
  const requestId = scope.nextRequestId;
  return {
    observer: { ...observer, detailPending: { requestId, lineSha256 }, detailError: null },
    nextRequestId: requestId + 1,
    post: [{ type: "loadObserverDetail", requestId, lineSha256 }],
  };
}

/**
 * Brings the tab up to date while it is shown: the first page (and a restored detail), or the
 * same page again once the ledger moved.
 */
export function syncObserver(observer: ObserverModel, scope: ObserverScope): ObserverStep {
  if (!scope.shown || !scope.loadable || observer.pending !== null) return stay(observer, scope);
  if (observer.page === null) {
    const first = requestEntries(observer, scope, observer.cursor, observer.filter);
    const selected = observer.selected;
    return selected !== null && observer.detail === null && observer.detailPending === null
      ? chain(first, scope, (next, nextScope) => requestDetail(next, nextScope, selected))
      : first;
  }
  if (scope.revision !== null && scope.revision !== observer.page.revision) return requestEntries(observer, scope, observer.cursor, observer.filter);
  return stay(observer, scope);
}

export function observerHost(observer: ObserverModel, scope: ObserverScope, message: ObserverHostMessage): ObserverStep {
  switch (message.type) {
    case "observerEntries": {
      const pending = observer.pending;
      if (pending === null || pending.requestId !== message.requestId) return stay(observer, scope);
      const settled = { ...observer, page: message.page, cursor: pending.cursor, filter: pending.filter, pending: null, error: null };
      // The ledger moved again while the page was on its way: read it once more.
      return syncObserver(settled, scope);
    }
    case "observerEntriesError": {
      const pending = observer.pending;
      if (pending === null || pending.requestId !== message.requestId) return stay(observer, scope);
      const error = message.code === BACKEND_UNAVAILABLE ? null : { code: message.code, message: message.message };
      return stay({ ...observer, pending: null, error }, scope);
    }
    case "observerDetail": {
      const pending = observer.detailPending;
      if (pending === null || pending.requestId !== message.requestId) return stay(observer, scope);
      return stay({ ...observer, detail: message.detail, detailPending: null, detailError: null }, scope);
    }
    case "observerDetailError": {
      const pending = observer.detailPending;
      if (pending === null || pending.requestId !== message.requestId) return stay(observer, scope);
      const error = message.code === BACKEND_UNAVAILABLE ? null : { code: message.code, message: message.message };
      return stay({ ...observer, detailPending: null, detailError: error }, scope);
    }
  }
}

function select(observer: ObserverModel, scope: ObserverScope, lineSha256: string): ObserverStep {
  const base = { ...observer, selected: lineSha256 };
  if (observer.detail?.receipt.lineSha256 === lineSha256) return stay({ ...base, detailError: null, detailPending: null }, scope);
  if (observer.detailPending?.lineSha256 === lineSha256) return stay(base, scope);
  return requestDetail({ ...base, detail: null }, scope, lineSha256);
}

/** A user action while the Observer tab is shown. */
export function observerAction(observer: ObserverModel, scope: ObserverScope, action: ObserverAction): ObserverStep {
  switch (action.type) {
    case "first":
    case "showLatest":
      return scope.loadable ? requestEntries(observer, scope, null, observer.filter) : stay(observer, scope);
    case "previous":
    case "next": {
      const target = (action.type === "next" ? observer.page?.nextCursor : observer.page?.previousCursor) ?? null;
      return target !== null && scope.loadable ? requestEntries(observer, scope, target, observer.filter) : stay(observer, scope);
    }
    case "observerFilter":
      // A new filter starts from the newest matching entries; the open detail stays.
      return scope.loadable ? requestEntries(observer, scope, null, action.filter) : stay(observer, scope);
    case "selectObserver":
      return select(observer, scope, action.lineSha256);
    case "closeDetail":
      return stay({ ...observer, selected: null, detail: null, detailPending: null, detailError: null }, scope);
  }
}

/** What the navigation buttons allow on the Observer tab. */
export function observerNavigation(observer: ObserverModel, loadable: boolean): { first: boolean; previous: boolean; next: boolean } {
  const ready = observer.pending === null && loadable;
  return {
    first: ready && (observer.page?.startPosition ?? 0) > 0,
    previous: ready && (observer.page?.previousCursor ?? null) !== null,
    next: ready && (observer.page?.nextCursor ?? null) !== null,
  };
}

/** The text a copy of the open entry puts on the clipboard: its canonical JSON or its hashed line; null without a detail. */
export function observerCopyText(observer: ObserverModel, part: "entry" | "line"): string | null {
  const detail = observer.detail;
  if (detail === null) return null;
  return part === "entry" ? detail.canonicalJson : detail.lineHashInput;
}

const TYPED_ID = /^([a-z][a-z-]*-)([0-9a-f]{8})-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u;
/** Longest id the table shows whole. */
const SHORT_ID_LIMIT = 24;

/** An id as the table shows it: a typed id keeps its prefix and the UUID's first 8 digits; others are cut at 24 units. */
export function shortObserverId(id: string): string {
  const typed = TYPED_ID.exec(id);
  if (typed !== null) return `${typed[1] ?? ""}${typed[2] ?? ""}`;
  return id.length <= SHORT_ID_LIMIT ? id : `${id.slice(0, SHORT_ID_LIMIT - 1)}…`;
}

/** A customType as the table shows it: without the `observer.` every one of them starts with. */
export function shortCustomType(customType: string): string {
  return customType.startsWith("observer.") ? customType.slice("observer.".length) : customType;
}

/**
 * The kinds the kind filter offers under a customType filter (null: every type, counts summed),
 * by kind in code-unit order as the backend lists them.
 */
export function observerKindChoices(page: ObserverReceiptsPage | null, customType: ObserverFilter["customType"]): readonly { readonly kind: string; readonly count: number }[] {
  const totals = new Map<string, number>();
  for (const entry of page?.kindCounts ?? []) {
    if (customType !== null && entry.customType !== customType) continue;
    totals.set(entry.kind, (totals.get(entry.kind) ?? 0) + entry.count);
  }
  return [...totals].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)).map(([kind, count]) => ({ kind, count }));
}
