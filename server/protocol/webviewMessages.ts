// The one definition of every message exchanged between the extension host and the Receipts
// webview (`postMessage` in both directions) plus the webview's persisted state. Both sides
// validate with these schemas; strict objects reject unknown fields.
import * as z from "zod";
import { ReceiptsPage } from "./messages";

const sha256 = z.string().regex(/^[a-f0-9]{64}$/u);
const requestId = z.number().int().nonnegative();
/** Same bound as `ReceiptsPageParams.cursor`. */
const cursor = z.string().max(200).nullable();
/** Which end a cursor-less page is taken from. */
const from = z.enum(["start", "end"]);
export type PageEnd = z.infer<typeof from>;

/** Lifecycle of the backend process as the extension sees it. */
export const BackendState = z.enum(["starting", "ready", "restarting", "stopped"]);
export type BackendState = z.infer<typeof BackendState>;

/** Whether the window has a folder and whether it is trusted. */
export const WorkspaceState = z.enum(["none", "untrusted", "trusted"]);
export type WorkspaceState = z.infer<typeof WorkspaceState>;

/** Localized UI strings the host hands to the webview (the webview has no `vscode.l10n`). */
export const ReceiptsStrings = z.strictObject({
  caption: z.string(),
  first: z.string(),
  previous: z.string(),
  next: z.string(),
  verify: z.string(),
  verifying: z.string(),
  staleBanner: z.string(),
  showLatest: z.string(),
  empty: z.string(),
  /** Empty state in Restricted Mode, where Docket cannot be turned on. */
  emptyUntrusted: z.string(),
  /** Shown when the ledger's history is blocked. */
  blocked: z.string(),
  noFolder: z.string(),
  waiting: z.string(),
  stopped: z.string(),
  untrusted: z.string(),
  loading: z.string(),
  /** "{0}" = receipts on this page, "{1}" = receipts in total. */
  pageInfo: z.string(),
  columnOrdinal: z.string(),
  columnKind: z.string(),
  columnSequence: z.string(),
  columnHash: z.string(),
  detailEventId: z.string(),
  detailWorkScopeId: z.string(),
  detailOccurredAt: z.string(),
  detailStoredIndex: z.string(),
  detailScopeSequence: z.string(),
  detailEventSha256: z.string(),
  detailReceiptSha256: z.string(),
  detailSummary: z.string(),
  detailSummaryEmpty: z.string(),
  rowLabel: z.string(),
});
export type ReceiptsStrings = z.infer<typeof ReceiptsStrings>;

/** Host → webview. */
export const HostToReceipts = z.discriminatedUnion("type", [
  /** Sent on `ready`, on every backend state change and on every `docket/stateChanged`. */
  z.strictObject({
    type: z.literal("state"),
    backend: BackendState,
    workspace: WorkspaceState,
    on: z.boolean(),
    /** The ledger's history is blocked (see the Work view for the reason). */
    blocked: z.boolean(),
    /** The backend's current projection, or null while no status is known. */
    projectionSha256: sha256.nullable(),
    receiptCount: z.number().int().nonnegative().nullable(),
  }),
  /** Answer to `loadPage` with the same `requestId`. */
  z.strictObject({ type: z.literal("page"), requestId, page: ReceiptsPage }),
  /** Failed `loadPage`; `code` is a `docket.*` error code. */
  z.strictObject({
    type: z.literal("pageError"),
    requestId,
    code: z.string(),
    message: z.string(),
  }),
  z.strictObject({ type: z.literal("verifyStarted") }),
  z.strictObject({ type: z.literal("verifyResult"), ok: z.boolean(), message: z.string() }),
  /** The user asked (e.g. "Refresh Receipts") for the newest page. */
  z.strictObject({ type: z.literal("showLatest") }),
]);
export type HostToReceipts = z.infer<typeof HostToReceipts>;

/** Webview → host. */
export const ReceiptsToHost = z.discriminatedUnion("type", [
  /** The script has loaded; the host answers with a `state` message. */
  z.strictObject({ type: z.literal("ready") }),
  /** Load the page at `cursor`; without one, the oldest (`from: "start"`) or newest page. */
  z.strictObject({ type: z.literal("loadPage"), requestId, cursor, from }),
  /** Run "Verify Ledger". */
  z.strictObject({ type: z.literal("verify") }),
]);
export type ReceiptsToHost = z.infer<typeof ReceiptsToHost>;

/** What the webview keeps with `vscode.setState` across hide/show. */
export const ReceiptsViewState = z.strictObject({ cursor, from });
export type ReceiptsViewState = z.infer<typeof ReceiptsViewState>;
