// The Receipts webview's state machine: pure, no DOM, so it can be unit-tested in Node.
// `update` takes the current model and one event (a validated host message or a user action)
// and returns the next model plus the messages to post to the host. Filter, selection and
// causal-ref jumps live here too, so the DOM layer only renders and forwards events. The Reviews
// tab pages the completion guard's ledger entries (`docket/guard/v1`) newest first beside the
// developer/v8 receipts; it follows the ledger live (its cursors are line numbers, which appends
// never move), while the receipts page keeps its stale banner. The Observer tab (./observerModel.ts)
// pages Observer's entries (`observer/v1`) the same way, under a customType / kind filter.
import type { GuardReceiptDetail, GuardReceiptsPage, ReceiptDetail, ReceiptKind, ReceiptLink, ReceiptsPage } from "../../server/protocol/messages";
import {
  DETAIL_SHARE,
  MAX_COPY_CHARS,
  type BackendState,
  type HostToReceipts,
  type ObserverFilter,
  type PageEnd,
  type ReceiptsTab,
  type ReceiptsToHost,
  type ReceiptsViewState,
  type ReceiptsViewStateInput,
  type WorkspaceState,
} from "../../server/protocol/webviewMessages";
import {
  initialObserver,
  observerAction,
  observerCopyText,
  observerHost,
  observerNavigation,
  persistedObserver,
  syncObserver,
  type ObserverHostMessage,
  type ObserverModel,
  type ObserverScope,
  type ObserverStep,
} from "./observerModel";
import { clampShare } from "./detailSplit";

/** Error codes the view reacts to (defined by the backend, see `ErrorCodes`). */
export const STALE_CURSOR = "docket.stale-cursor";
export const INVALID_CURSOR = "docket.invalid-cursor";
export const RECEIPT_NOT_FOUND = "docket.receipt-not-found";
/** Client-side code the host uses when the backend is not running. */
export const BACKEND_UNAVAILABLE = "docket.backend-unavailable";

export type KindFilter = readonly ReceiptKind[] | null;

export interface PendingRequest {
  readonly requestId: number;
  readonly cursor: string | null;
  readonly from: PageEnd;
  readonly kinds: KindFilter;
  /** Event hash whose page is requested (a causal-ref jump), or null. */
  readonly containing: string | null;
}

export interface PendingDetail {
  readonly requestId: number;
  readonly eventSha256: string;
}

export interface Failure {
  readonly code: string;
  readonly message: string;
}

/** The Reviews tab: one page of guard entries (newest first) and the detail of one of them. */
export interface ReviewsModel {
  /** Cursor (a ledger line) of the displayed page, or null for the newest page; persisted. */
  readonly cursor: number | null;
  readonly page: GuardReceiptsPage | null;
  readonly pending: { readonly requestId: number; readonly cursor: number | null } | null;
  readonly error: Failure | null;
  /** Line hash of the selected entry, whose detail pane is open (persisted). */
  readonly selected: string | null;
  readonly detail: GuardReceiptDetail | null;
  readonly detailPending: { readonly requestId: number; readonly lineSha256: string } | null;
  readonly detailError: Failure | null;
}

export interface Model {
  /** The tab shown (persisted). */
  readonly tab: ReceiptsTab;
  /** The backend's status revision as last announced by the host (moves with guard lines too). */
  readonly latestRevision: string | null;
  readonly reviews: ReviewsModel;
  readonly observer: ObserverModel;
  /** Null until the host sent its first `state`. */
  readonly workspace: WorkspaceState | null;
  readonly backend: BackendState | null;
  readonly on: boolean;
  readonly blocked: boolean;
  /** The backend's newest projection as last announced by the host. */
  readonly latestProjection: string | null;
  /** Cursor of the displayed page, or null for the oldest/newest page (`from`); persisted. */
  readonly cursor: string | null;
  readonly from: PageEnd;
  /** The page on screen, or null before the first page arrived. */
  readonly page: ReceiptsPage | null;
  readonly pending: PendingRequest | null;
  readonly nextRequestId: number;
  /** Newer data exists than what is displayed: show the banner, never swap silently. */
  readonly stale: boolean;
  readonly error: { readonly code: string; readonly message: string } | null;
  /** Kind filter of the displayed page (persisted); a pending request may carry another one. */
  readonly kinds: KindFilter;
  /** Event hash of the selected receipt, whose detail pane is open (persisted). */
  readonly selected: string | null;
  /** The selected receipt's detail once loaded; kept while the page moves (receipts are immutable). */
  readonly detail: ReceiptDetail | null;
  readonly detailPending: PendingDetail | null;
  readonly detailError: { readonly code: string; readonly message: string } | null;
  /** The last jump to a causal ref had to clear the kind filter (the target is of another kind). */
  readonly filterCleared: boolean;
  /** Outcome of the last copy, until something else is selected. */
  readonly copied: boolean | null;
  /**
   * Which value the last copy took (a copy button beside a hash or id names its value), or null
   * when it was a whole entry (canonical JSON, hashed line): the outcome shows beside that button.
   */
  readonly copyTarget: string | null;
  /** The open detail's share of the list-and-detail height (persisted; see ./detailSplit.ts). */
  readonly detailShare: number;
  readonly verifying: boolean;
  readonly verifyResult: { readonly ok: boolean; readonly message: string } | null;
}

export type UiAction =
  | { readonly type: "first" }
  | { readonly type: "previous" }
  | { readonly type: "next" }
  | { readonly type: "showLatest" }
  | { readonly type: "verify" }
  | { readonly type: "filter"; readonly kinds: KindFilter }
  | { readonly type: "select"; readonly eventSha256: string }
  | { readonly type: "closeDetail" }
  /** Follow a causal ref or the previous-scope link of the open detail to its receipt. */
  | { readonly type: "jump"; readonly eventSha256: string }
  | { readonly type: "copy" }
  /** Copy one shown value (a hash or an id) in full; `key` names its copy button. */
  | { readonly type: "copyValue"; readonly key: string; readonly text: string }
  /** Show the open detail of the current tab in an editor. */
  | { readonly type: "openInEditor" }
  /** Move the sash between the list and the detail: the detail's new share of the height. */
  | { readonly type: "resizeDetail"; readonly share: number }
  | { readonly type: "tab"; readonly tab: ReceiptsTab }
  /** Open the detail of a guard entry (a row, or the review's other entry from a detail). */
  | { readonly type: "selectReview"; readonly lineSha256: string }
  /** Copy the open guard entry's canonical JSON, or the exact text its line hash covers. */
  | { readonly type: "copyReview"; readonly part: "entry" | "line" }
  /** Observer tab: page under another filter, open an entry's detail, copy its JSON or hashed line. */
  | { readonly type: "observerFilter"; readonly filter: ObserverFilter }
  | { readonly type: "selectObserver"; readonly lineSha256: string }
  | { readonly type: "copyObserver"; readonly part: "entry" | "line" };

export type ModelEvent =
  | { readonly source: "host"; readonly message: HostToReceipts }
  | { readonly source: "ui"; readonly action: UiAction };

export interface Update {
  readonly model: Model;
  readonly post: readonly ReceiptsToHost[];
}

export function initialModel(saved: ReceiptsViewStateInput | null): Model {
  return {
    tab: saved?.tab ?? "receipts",
    latestRevision: null,
    reviews: {
      cursor: saved?.reviewsCursor ?? null,
      page: null,
      pending: null,
      error: null,
      selected: saved?.reviewSelected ?? null,
      detail: null,
      detailPending: null,
      detailError: null,
    },
    observer: initialObserver(saved?.observer),
    workspace: null,
    backend: null,
    on: false,
    blocked: false,
    latestProjection: null,
    cursor: saved?.cursor ?? null,
    // The newest receipts are what people look for first.
    from: saved?.from ?? "end",
    page: null,
    pending: null,
    nextRequestId: 1,
    stale: false,
    error: null,
    kinds: saved?.kinds ?? null,
    selected: saved?.selected ?? null,
    detail: null,
    detailPending: null,
    detailError: null,
    filterCleared: false,
    copied: null,
    copyTarget: null,
    detailShare: clampShare(saved?.detailShare ?? DETAIL_SHARE.initial),
    verifying: false,
    verifyResult: null,
  };
}

export function persistedState(model: Model): ReceiptsViewState {
  const observer = persistedObserver(model.observer);
  return {
    cursor: model.cursor,
    from: model.from,
    kinds: model.kinds === null ? null : [...model.kinds],
    selected: model.selected,
    tab: model.tab,
    reviewsCursor: model.reviews.cursor,
    reviewSelected: model.reviews.selected,
    ...(observer === undefined ? {} : { observer }),
    ...(model.detailShare === DETAIL_SHARE.initial ? {} : { detailShare: model.detailShare }),
  };
}

interface PageTarget {
  readonly cursor: string | null;
  readonly from: PageEnd;
  readonly kinds: KindFilter;
  readonly containing: string | null;
}

function requestPage(model: Model, target: PageTarget): Update {
  const requestId = model.nextRequestId;
  return {
    model: { ...model, pending: { requestId, ...target }, nextRequestId: requestId + 1, error: null },
    post: [
      {
        type: "loadPage",
        requestId,
        cursor: target.cursor,
        from: target.from,
        kinds: target.kinds === null ? null : [...target.kinds],
        containing: target.containing,
      },
    ],
  };
}

/** A page under the current filter. */
function request(model: Model, cursor: string | null, from: PageEnd = "start"): Update {
  return requestPage(model, { cursor, from, kinds: model.kinds, containing: null });
}

/** The page with the newest receipts. */
function latest(model: Model): Update {
  return request({ ...model, stale: false }, null, "end");
}

function requestDetail(model: Model, eventSha256: string): Update {
  const requestId = model.nextRequestId;
  return {
    model: { ...model, detailPending: { requestId, eventSha256 }, nextRequestId: requestId + 1, detailError: null },
    post: [{ type: "loadDetail", requestId, eventSha256 }],
  };
}

function then(first: Update, next: (model: Model) => Update): Update {
  const second = next(first.model);
  return { model: second.model, post: [...first.post, ...second.post] };
}

/** Opens the detail pane on a receipt (reusing a detail already loaded for it). */
function select(model: Model, eventSha256: string): Update {
  const base: Model = { ...model, selected: eventSha256, copied: null, filterCleared: false };
  if (model.detail?.receipt.eventSha256 === eventSha256) return unchanged({ ...base, detailError: null, detailPending: null });
  if (model.detailPending?.eventSha256 === eventSha256) return unchanged(base);
  return requestDetail({ ...base, detail: null }, eventSha256);
}

/** The links the open detail offers (causal refs, then the previous-scope event). */
export function detailLinks(detail: ReceiptDetail | null): readonly ReceiptLink[] {
  if (detail === null) return [];
  return detail.previousScopeEvent === null ? detail.causalRefs : [...detail.causalRefs, detail.previousScopeEvent];
}

/** Kind filter a request is about to apply, else the displayed one (what the filter control shows). */
export function shownKinds(model: Model): KindFilter {
  return model.pending !== null ? model.pending.kinds : model.kinds;
}

function jump(model: Model, eventSha256: string): Update {
  const link = detailLinks(model.detail).find((candidate) => candidate.eventSha256 === eventSha256);
  if (link === undefined || link.ordinal === null || link.kind === null) return unchanged(model);
  const onPage = model.page?.receipts.some((row) => row.eventSha256 === eventSha256) ?? false;
  const selected = select(model, eventSha256);
  if (onPage || !canLoad(model)) return selected;
  // Keep the filter when the target passes it; otherwise the target could not be shown at all.
  const keep = model.kinds === null || model.kinds.some((kind) => kind === link.kind);
  return then(selected, (next) =>
    requestPage(
      { ...next, filterCleared: !keep },
      { cursor: null, from: "start", kinds: keep ? model.kinds : null, containing: eventSha256 },
    ),
  );
}

const unchanged = (model: Model): Update => ({ model, post: [] });

function canLoad(model: Model): boolean {
  return model.backend === "ready" && model.workspace !== null && model.workspace !== "none";
}

// ---------------------------------------------------------------------------------------------
// Reviews tab

function withReviews(model: Model, reviews: Partial<ReviewsModel>): Model {
  return { ...model, reviews: { ...model.reviews, ...reviews } };
}

function requestReviews(model: Model, cursor: number | null): Update {
  const requestId = model.nextRequestId;
  return {
    model: withReviews({ ...model, nextRequestId: requestId + 1 }, { pending: { requestId, cursor }, error: null }),
    post: [{ type: "loadReviews", requestId, cursor }],
  };
}

function requestReviewDetail(model: Model, lineSha256: string): Update {
  const requestId = model.nextRequestId;
  return {
    model: withReviews({ ...model, nextRequestId: requestId + 1 }, { detailPending: { requestId, lineSha256 }, detailError: null }),
    post: [{ type: "loadReviewDetail", requestId, lineSha256 }],
  };
}

function selectReview(model: Model, lineSha256: string): Update {
  const reviews = model.reviews;
  const base = withReviews({ ...model, copied: null }, { selected: lineSha256 });
  if (reviews.detail?.receipt.lineSha256 === lineSha256) return unchanged(withReviews(base, { detailError: null, detailPending: null }));
  if (reviews.detailPending?.lineSha256 === lineSha256) return unchanged(base);
  return requestReviewDetail(withReviews(base, { detail: null }), lineSha256);
}

/**
 * Brings the Reviews tab up to date while it is shown: the first page (and a restored detail), or
 * the same page again once the ledger moved. Review lines are append-only facts and cursors are
 * line numbers, so re-reading the page never shows other entries under the same cursor: new
 * entries appear at the top of the newest page, live.
 */
function syncReviews(model: Model): Update {
  const reviews = model.reviews;
  if (model.tab !== "reviews" || !canLoad(model) || reviews.pending !== null) return unchanged(model);
  if (reviews.page === null) {
    const first = requestReviews(model, reviews.cursor);
    const selected = reviews.selected;
    return selected !== null && reviews.detail === null && reviews.detailPending === null
      ? then(first, (next) => requestReviewDetail(next, selected))
      : first;
  }
  if (model.latestRevision !== null && model.latestRevision !== reviews.page.revision) return requestReviews(model, reviews.cursor);
  return unchanged(model);
}

function onReviewsHost(model: Model, message: Extract<HostToReceipts, { type: "reviews" | "reviewsError" | "reviewDetail" | "reviewDetailError" }>): Update {
  const reviews = model.reviews;
  switch (message.type) {
    case "reviews": {
      const pending = reviews.pending;
      if (pending === null || pending.requestId !== message.requestId) return unchanged(model);
      const settled = withReviews(model, { page: message.page, cursor: pending.cursor, pending: null, error: null });
      // The ledger moved again while the page was on its way: read it once more.
      return syncReviews(settled);
    }
    case "reviewsError": {
      const pending = reviews.pending;
      if (pending === null || pending.requestId !== message.requestId) return unchanged(model);
      // The next `state` with backend "ready" retries.
      if (message.code === BACKEND_UNAVAILABLE) return unchanged(withReviews(model, { pending: null }));
      return unchanged(withReviews(model, { pending: null, error: { code: message.code, message: message.message } }));
    }
    case "reviewDetail": {
      const pending = reviews.detailPending;
      if (pending === null || pending.requestId !== message.requestId) return unchanged(model);
      return unchanged(withReviews(model, { detail: message.detail, detailPending: null, detailError: null }));
    }
    case "reviewDetailError": {
      const pending = reviews.detailPending;
      if (pending === null || pending.requestId !== message.requestId) return unchanged(model);
      const error = message.code === BACKEND_UNAVAILABLE ? null : { code: message.code, message: message.message };
      return unchanged(withReviews(model, { detailPending: null, detailError: error }));
    }
  }
}

/** The text a copy of the open guard entry puts on the clipboard (null: nothing to copy). */
function reviewCopy(model: Model, part: "entry" | "line"): Update {
  const detail = model.reviews.detail;
  if (detail === null) return unchanged(model);
  const text = part === "entry" ? detail.canonicalJson : detail.lineHashInput;
  // Past the message bound the host would refuse it: say so instead of posting.
  if (text.length > MAX_COPY_CHARS) return unchanged({ ...model, copied: false, copyTarget: null });
  return { model: { ...model, copied: null, copyTarget: null }, post: [{ type: "copy", text }] };
}

function onReviewsUi(model: Model, action: UiAction): Update | null {
  const reviews = model.reviews;
  switch (action.type) {
    case "first":
    case "showLatest":
      return canLoad(model) ? requestReviews(model, null) : unchanged(model);
    case "previous": {
      const target = reviews.page?.previousCursor ?? null;
      return target !== null && canLoad(model) ? requestReviews(model, target) : unchanged(model);
    }
    case "next": {
      const target = reviews.page?.nextCursor ?? null;
      return target !== null && canLoad(model) ? requestReviews(model, target) : unchanged(model);
    }
    case "closeDetail":
      return unchanged(withReviews({ ...model, copied: null }, { selected: null, detail: null, detailPending: null, detailError: null }));
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Observer tab (./observerModel.ts holds its logic)

function observerScope(model: Model): ObserverScope {
  return { shown: model.tab === "observer", loadable: canLoad(model), revision: model.latestRevision, nextRequestId: model.nextRequestId };
}

function applyObserver(model: Model, step: ObserverStep): Update {
  return { model: { ...model, observer: step.observer, nextRequestId: step.nextRequestId }, post: step.post };
}

function syncObserverTab(model: Model): Update {
  return applyObserver(model, syncObserver(model.observer, observerScope(model)));
}

function onObserverHost(model: Model, message: ObserverHostMessage): Update {
  return applyObserver(model, observerHost(model.observer, observerScope(model), message));
}

function observerCopy(model: Model, part: "entry" | "line"): Update {
  const text = observerCopyText(model.observer, part);
  if (text === null) return unchanged(model);
  // Past the message bound the host would refuse it: say so instead of posting.
  if (text.length > MAX_COPY_CHARS) return unchanged({ ...model, copied: false, copyTarget: null });
  return { model: { ...model, copied: null, copyTarget: null }, post: [{ type: "copy", text }] };
}

/** Copies one shown value; its outcome shows beside the button that asked (`key`). */
function copyValue(model: Model, key: string, text: string): Update {
  if (text.length > MAX_COPY_CHARS) return unchanged({ ...model, copied: false, copyTarget: key });
  return { model: { ...model, copied: null, copyTarget: key }, post: [{ type: "copy", text }] };
}

/** The entry whose detail the current tab shows: a receipt's event hash or a guard / Observer line hash. */
export function openEntry(model: Model): string | null {
  switch (model.tab) {
    case "receipts":
      return model.selected;
    case "reviews":
      return model.reviews.selected;
    case "observer":
      return model.observer.selected;
  }
}

function onObserverUi(model: Model, action: UiAction): Update | null {
  switch (action.type) {
    case "first":
    case "previous":
    case "next":
    case "showLatest":
    case "closeDetail":
    case "observerFilter":
    case "selectObserver": {
      const copied = action.type === "closeDetail" || action.type === "selectObserver" ? null : model.copied;
      return applyObserver({ ...model, copied }, observerAction(model.observer, observerScope(model), action));
    }
    case "copyObserver":
      return observerCopy(model, action.part);
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------

function onHost(model: Model, message: HostToReceipts): Update {
  switch (message.type) {
    case "state":
      return then(then(onState(model, message), syncReviews), syncObserverTab);
    case "reviews":
    case "reviewsError":
    case "reviewDetail":
    case "reviewDetailError":
      return onReviewsHost(model, message);
    case "observerEntries":
    case "observerEntriesError":
    case "observerDetail":
    case "observerDetailError":
      return onObserverHost(model, message);
    case "showLatest":
      if (!canLoad(model)) return unchanged(model);
      if (model.tab === "observer") return onObserverUi(model, { type: "showLatest" }) ?? unchanged(model);
      return model.tab === "reviews" ? requestReviews(model, null) : latest(model);
    default:
      return onReceiptsHost(model, message);
  }
}

function onState(model: Model, message: Extract<HostToReceipts, { type: "state" }>): Update {
  // The developer/v8 receipts: load the first page, or flag a page the projection moved under.
  const next: Model = {
    ...model,
    workspace: message.workspace,
    backend: message.backend,
    on: message.on,
    blocked: message.blocked,
    latestProjection: message.projectionSha256,
    latestRevision: message.revision,
  };
  if (!canLoad(next) || next.pending !== null) {
    return unchanged(next);
  }
  if (next.page === null) {
    const first = request(next, next.cursor, next.from);
    const selected = next.selected;
    // A restored view reopens its detail pane.
    return selected !== null && next.detail === null && next.detailPending === null
      ? then(first, (model) => requestDetail(model, selected))
      : first;
  }
  if (next.latestProjection !== null && next.latestProjection !== next.page.projectionSha256) {
    // An empty page has nothing to swap out: show the new receipts right away.
    if (next.page.receipts.length === 0) {
      return latest(next);
    }
    return unchanged({ ...next, stale: true });
  }
  return unchanged(next);
}

function onReceiptsHost(
  model: Model,
  message: Exclude<HostToReceipts, { type: "state" | "showLatest" | "reviews" | "reviewsError" | "reviewDetail" | "reviewDetailError" } | ObserverHostMessage>,
): Update {
  switch (message.type) {
    case "page": {
      const pending = model.pending;
      if (pending === null || pending.requestId !== message.requestId) {
        return unchanged(model);
      }
      const page = message.page;
      const stale = model.latestProjection !== null && model.latestProjection !== page.projectionSha256;
      return unchanged({
        ...model,
        page,
        // A jump has no cursor of its own: remember the page's, so hide/show returns to it.
        cursor: pending.containing !== null ? page.pageCursor : pending.cursor,
        from: pending.containing !== null ? "start" : pending.from,
        kinds: pending.kinds,
        pending: null,
        stale,
        error: null,
        // A verification result describes the ledger as it was; drop it once the data moves on.
        verifyResult:
          model.page === null || model.page.projectionSha256 === page.projectionSha256 ? model.verifyResult : null,
      });
    }
    case "pageError": {
      if (model.pending === null || model.pending.requestId !== message.requestId) {
        return unchanged(model);
      }
      const settled: Model = { ...model, pending: null };
      if (message.code === STALE_CURSOR) {
        // The cursor belongs to an older projection. Keep what is on screen and offer the
        // latest page; with nothing on screen there is nothing to keep.
        return settled.page === null ? latest(settled) : unchanged({ ...settled, stale: true });
      }
      if (message.code === INVALID_CURSOR) {
        return latest(settled);
      }
      if (message.code === RECEIPT_NOT_FOUND && model.pending.containing !== null) {
        // The jump target left the projection (a replaced ledger): say so, keep the page.
        return unchanged({ ...settled, filterCleared: false, error: { code: message.code, message: message.message } });
      }
      if (message.code === BACKEND_UNAVAILABLE) {
        // The next `state` with backend "ready" retries.
        return unchanged(settled);
      }
      return unchanged({ ...settled, error: { code: message.code, message: message.message } });
    }
    case "verifyStarted":
      return unchanged({ ...model, verifying: true, verifyResult: null });
    case "verifyResult":
      return unchanged({
        ...model,
        verifying: false,
        verifyResult: { ok: message.ok, message: message.message },
      });
    case "detail": {
      const pending = model.detailPending;
      if (pending === null || pending.requestId !== message.requestId) return unchanged(model);
      return unchanged({ ...model, detail: message.detail, detailPending: null, detailError: null });
    }
    case "detailError": {
      const pending = model.detailPending;
      if (pending === null || pending.requestId !== message.requestId) return unchanged(model);
      if (message.code === BACKEND_UNAVAILABLE) {
        return unchanged({ ...model, detailPending: null, detailError: null });
      }
      return unchanged({ ...model, detailPending: null, detailError: { code: message.code, message: message.message } });
    }
    case "copyResult":
      return unchanged({ ...model, copied: message.ok });
  }
}

function onUi(model: Model, action: UiAction): Update {
  const shared = onSharedUi(model, action);
  if (shared !== null) return shared;
  if (model.tab === "reviews") {
    const handled = onReviewsUi(model, action);
    if (handled !== null) return handled;
  }
  if (model.tab === "observer") {
    const handled = onObserverUi(model, action);
    if (handled !== null) return handled;
  }
  switch (action.type) {
    case "tab":
      return action.tab === model.tab ? unchanged(model) : then(syncReviews({ ...model, tab: action.tab, copied: null }), syncObserverTab);
    case "observerFilter":
    case "selectObserver":
    case "copyObserver":
      // Only the Observer tab shows these controls.
      return unchanged(model);
    case "copyValue":
    case "openInEditor":
    case "resizeDetail":
      // onSharedUi answered these already.
      return unchanged(model);
    case "selectReview":
      return selectReview(model, action.lineSha256);
    case "copyReview":
      return reviewCopy(model, action.part);
    case "first":
      return canLoad(model) ? request({ ...model, stale: false }, null, "start") : unchanged(model);
    case "showLatest":
      return canLoad(model) ? latest(model) : unchanged(model);
    case "previous": {
      const target = model.page?.previousCursor ?? null;
      return target !== null && canLoad(model) ? request(model, target) : unchanged(model);
    }
    case "next": {
      const target = model.page?.nextCursor ?? null;
      return target !== null && canLoad(model) ? request(model, target) : unchanged(model);
    }
    case "verify":
      return model.verifying
        ? unchanged(model)
        : { model: { ...model, verifying: true, verifyResult: null }, post: [{ type: "verify" }] };
    case "filter": {
      if (!canLoad(model)) return unchanged(model);
      // A filter change starts from the newest matching receipts; the open detail stays.
      return requestPage({ ...model, stale: false, filterCleared: false }, { cursor: null, from: "end", kinds: action.kinds, containing: null });
    }
    case "select":
      return select(model, action.eventSha256);
    case "closeDetail":
      return unchanged({ ...model, selected: null, detail: null, detailPending: null, detailError: null, copied: null, filterCleared: false });
    case "jump":
      return jump(model, action.eventSha256);
    case "copy":
      return model.detail === null ? unchanged(model) : { model: { ...model, copied: null, copyTarget: null }, post: [{ type: "copy", text: model.detail.canonicalJson }] };
  }
}

/** What every tab does alike: copy a value, open the detail in an editor, move the sash. */
function onSharedUi(model: Model, action: UiAction): Update | null {
  switch (action.type) {
    case "copyValue":
      return copyValue(model, action.key, action.text);
    case "openInEditor": {
      const sha256 = openEntry(model);
      return sha256 === null ? unchanged(model) : { model, post: [{ type: "openInEditor", tab: model.tab, sha256 }] };
    }
    case "resizeDetail": {
      const share = clampShare(action.share);
      return unchanged(share === model.detailShare ? model : { ...model, detailShare: share });
    }
    default:
      return null;
  }
}

export function update(model: Model, event: ModelEvent): Update {
  return event.source === "host" ? onHost(model, event.message) : onUi(model, event.action);
}

/** What the navigation buttons allow right now. */
export function navigation(model: Model): { first: boolean; previous: boolean; next: boolean } {
  if (model.tab === "observer") return observerNavigation(model.observer, canLoad(model));
  if (model.tab === "reviews") {
    const reviews = model.reviews;
    const ready = reviews.pending === null && canLoad(model);
    return {
      first: ready && (reviews.page?.startPosition ?? 0) > 0,
      previous: ready && (reviews.page?.previousCursor ?? null) !== null,
      next: ready && (reviews.page?.nextCursor ?? null) !== null,
    };
  }
  const idle = model.pending === null && canLoad(model);
  return {
    first: idle && (model.stale || (model.page?.startPosition ?? 0) > 0),
    previous: idle && (model.page?.previousCursor ?? null) !== null,
    next: idle && (model.page?.nextCursor ?? null) !== null,
  };
}

/** First 12 hex digits of a SHA-256, as shown in the table. */
export function shortHash(sha256: string): string {
  return sha256.slice(0, 12);
}

/** Characters a long value keeps at its end when it is cut in the middle to fit. */
export const VALUE_TAIL = 8;

/**
 * A long value (a hash or an id) as a head and its last VALUE_TAIL characters: the view cuts the
 * head with "…" when the value does not fit, so both its start and its end stay readable. Splits
 * between code points; a value no longer than twice the tail is not split.
 */
export function valueParts(value: string): { readonly head: string; readonly tail: string } {
  const points = Array.from(value);
  if (points.length <= 2 * VALUE_TAIL) return { head: value, tail: "" };
  return { head: points.slice(0, -VALUE_TAIL).join(""), tail: points.slice(-VALUE_TAIL).join("") };
}

/** Replaces `{0}`, `{1}`, … in a localized template. */
export function format(template: string, ...args: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/gu, (match, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? match : String(value);
  });
}

/** A recorded time as the reviews table shows it: date and time to the second, as recorded (UTC). */
export function reviewTime(at: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/u.exec(at);
  return match === null ? at : `${match[1]} ${match[2]}`;
}

/** The review id as the table shows it: its first 8 hex digits ("review:" dropped). */
export function shortReviewId(reviewId: string): string {
  return reviewId.startsWith("review:") ? reviewId.slice("review:".length, "review:".length + 8) : reviewId.slice(0, 12);
}
