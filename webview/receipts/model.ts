// The Receipts webview's state machine: pure, no DOM, so it can be unit-tested in Node.
// `update` takes the current model and one event (a validated host message or a user action)
// and returns the next model plus the messages to post to the host.
import type { ReceiptsPage } from "../../server/protocol/messages";
import type {
  BackendState,
  HostToReceipts,
  PageEnd,
  ReceiptsToHost,
  ReceiptsViewState,
  WorkspaceState,
} from "../../server/protocol/webviewMessages";

/** Error codes the view reacts to (defined by the backend, see `ErrorCodes`). */
export const STALE_CURSOR = "docket.stale-cursor";
export const INVALID_CURSOR = "docket.invalid-cursor";
/** Client-side code the host uses when the backend is not running. */
export const BACKEND_UNAVAILABLE = "docket.backend-unavailable";

export interface PendingRequest {
  readonly requestId: number;
  readonly cursor: string | null;
  readonly from: PageEnd;
}

export interface Model {
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
  /** Ordinals whose detail row is open. */
  readonly expanded: readonly number[];
  readonly verifying: boolean;
  readonly verifyResult: { readonly ok: boolean; readonly message: string } | null;
}

export type UiAction =
  | { readonly type: "first" }
  | { readonly type: "previous" }
  | { readonly type: "next" }
  | { readonly type: "showLatest" }
  | { readonly type: "verify" }
  | { readonly type: "toggle"; readonly ordinal: number };

export type ModelEvent =
  | { readonly source: "host"; readonly message: HostToReceipts }
  | { readonly source: "ui"; readonly action: UiAction };

export interface Update {
  readonly model: Model;
  readonly post: readonly ReceiptsToHost[];
}

export function initialModel(saved: ReceiptsViewState | null): Model {
  return {
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
    expanded: [],
    verifying: false,
    verifyResult: null,
  };
}

export function persistedState(model: Model): ReceiptsViewState {
  return { cursor: model.cursor, from: model.from };
}

function request(model: Model, cursor: string | null, from: PageEnd = "start"): Update {
  const requestId = model.nextRequestId;
  return {
    model: { ...model, pending: { requestId, cursor, from }, nextRequestId: requestId + 1, error: null },
    post: [{ type: "loadPage", requestId, cursor, from }],
  };
}

/** The page with the newest receipts. */
function latest(model: Model): Update {
  return request({ ...model, stale: false }, null, "end");
}

const unchanged = (model: Model): Update => ({ model, post: [] });

function canLoad(model: Model): boolean {
  return model.backend === "ready" && model.workspace !== null && model.workspace !== "none";
}

function onHost(model: Model, message: HostToReceipts): Update {
  switch (message.type) {
    case "state": {
      const next: Model = {
        ...model,
        workspace: message.workspace,
        backend: message.backend,
        on: message.on,
        blocked: message.blocked,
        latestProjection: message.projectionSha256,
      };
      if (!canLoad(next) || next.pending !== null) {
        return unchanged(next);
      }
      if (next.page === null) {
        return request(next, next.cursor, next.from);
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
    case "page": {
      if (model.pending === null || model.pending.requestId !== message.requestId) {
        return unchanged(model);
      }
      const page = message.page;
      const sameView =
        model.page !== null &&
        model.page.projectionSha256 === page.projectionSha256 &&
        model.cursor === model.pending.cursor &&
        model.from === model.pending.from;
      const stale = model.latestProjection !== null && model.latestProjection !== page.projectionSha256;
      return unchanged({
        ...model,
        page,
        cursor: model.pending.cursor,
        from: model.pending.from,
        pending: null,
        stale,
        error: null,
        expanded: sameView ? model.expanded : [],
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
    case "showLatest":
      return canLoad(model) ? latest(model) : unchanged(model);
  }
}

function onUi(model: Model, action: UiAction): Update {
  switch (action.type) {
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
    case "toggle": {
      const open = model.expanded.includes(action.ordinal);
      return unchanged({
        ...model,
        expanded: open
          ? model.expanded.filter((ordinal) => ordinal !== action.ordinal)
          : [...model.expanded, action.ordinal],
      });
    }
  }
}

export function update(model: Model, event: ModelEvent): Update {
  return event.source === "host" ? onHost(model, event.message) : onUi(model, event.action);
}

/** What the navigation buttons allow right now. */
export function navigation(model: Model): { first: boolean; previous: boolean; next: boolean } {
  const idle = model.pending === null && canLoad(model);
  return {
    first: idle && (model.stale || (model.page?.startOrdinal ?? 0) > 0),
    previous: idle && (model.page?.previousCursor ?? null) !== null,
    next: idle && (model.page?.nextCursor ?? null) !== null,
  };
}

/** First 12 hex digits of a SHA-256, as shown in the table. */
export function shortHash(sha256: string): string {
  return sha256.slice(0, 12);
}

/** Replaces `{0}`, `{1}`, … in a localized template. */
export function format(template: string, ...args: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/gu, (match, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? match : String(value);
  });
}
