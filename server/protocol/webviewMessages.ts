// The one definition of every message exchanged between the extension host and the Receipts
// webview (`postMessage` in both directions) plus the webview's persisted state. Both sides
// validate with these schemas; strict objects reject unknown fields.
import * as z from "zod";
import {
  GuardReceiptDetail,
  GuardReceiptsPage,
  MAX_OBSERVER_KIND,
  ObserverReceiptCustomType,
  ObserverReceiptDetail,
  ObserverReceiptsPage,
  ReceiptDetail,
  ReceiptKind,
  ReceiptsPage,
} from "./messages";
import { Plan } from "../router/planSchema";

const sha256 = z.string().regex(/^[a-f0-9]{64}$/u);
const requestId = z.number().int().nonnegative();
/** Same bound as `ReceiptsPageParams.cursor`. */
const cursor = z.string().max(200).nullable();
/** Which end a cursor-less page is taken from. */
const from = z.enum(["start", "end"]);
export type PageEnd = z.infer<typeof from>;
/** A kind filter as the protocol takes it (null: every kind). */
const kinds = z.array(ReceiptKind).min(1).max(18).nullable();
/**
 * The canonical JSON of one envelope stays far below this (payloads are ≤ 64,000 bytes); a guard
 * entry of 100 claims and 100 sources at their limits stays below it too.
 */
export const MAX_COPY_CHARS = 2_000_000;
/** A guard page cursor: a ledger line number (`GuardReceiptsPageParams.cursor`). */
const guardCursor = z.number().int().nonnegative().nullable();
/** Which stream the view shows: developer/v8 receipts, the completion guard's reviews or Observer's entries. */
export const ReceiptsTab = z.enum(["receipts", "reviews", "observer"]);
export type ReceiptsTab = z.infer<typeof ReceiptsTab>;
/** The Observer tab's filter (`ObserverReceiptsPageParams`): one customType and/or one `data.kind`, null for any. */
export const ObserverFilter = z.strictObject({
  customType: ObserverReceiptCustomType.nullable(),
  kind: z.string().min(1).max(MAX_OBSERVER_KIND).nullable(),
});
export type ObserverFilter = z.infer<typeof ObserverFilter>;
/**
 * How the list and an open detail share the view's height: the detail's fraction of it, moved by
 * the sash between them (webview/receipts/detailSplit.ts) and remembered with the view's state.
 */
export const DETAIL_SHARE = { min: 0.2, max: 0.85, initial: 0.5 } as const;
const detailShare = z.number().min(DETAIL_SHARE.min).max(DETAIL_SHARE.max);

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
  /** Label of the kind filter drop-down. */
  filterLabel: z.string(),
  filterAll: z.string(),
  /** "{0}" = kind, "{1}" = receipts of that kind. */
  filterOption: z.string(),
  /** "{0}" = rows on this page, "{1}" = receipts matching the filter, "{2}" = receipts in total. */
  pageInfoFiltered: z.string(),
  /** No receipt of the selected kind. */
  emptyFiltered: z.string(),
  /** "{0}" = ordinal, "{1}" = kind. */
  detailTitle: z.string(),
  detailClose: z.string(),
  detailLoading: z.string(),
  detailCanonicalJson: z.string(),
  /** Explains that SHA-256 of the canonical JSON is the event hash. */
  detailCanonicalJsonHint: z.string(),
  copy: z.string(),
  copied: z.string(),
  copyFailed: z.string(),
  detailCausalRefs: z.string(),
  detailNoCausalRefs: z.string(),
  detailPreviousScopeEvent: z.string(),
  detailNoPreviousScopeEvent: z.string(),
  detailWrittenBy: z.string(),
  detailWriterUnknown: z.string(),
  detailNominations: z.string(),
  openEvidence: z.string(),
  /** "{0}" = ordinal, "{1}" = kind: the accessible name of a link to a receipt. */
  linkLabel: z.string(),
  /** A link whose target is not in the receipts. */
  linkUnresolved: z.string(),
  /** Shown after a jump had to clear the kind filter. */
  filterClearedForJump: z.string(),
  /** Accessible name of the tab list, and the two tabs. */
  tabsLabel: z.string(),
  tabReceipts: z.string(),
  tabReviews: z.string(),
  /** Reviews tab: navigation newest-first. */
  reviewsNewest: z.string(),
  reviewsNewer: z.string(),
  reviewsOlder: z.string(),
  /** "{0}" = entries on this page, "{1}" = guard entries in total. */
  reviewsPageInfo: z.string(),
  reviewsEmpty: z.string(),
  reviewsLoading: z.string(),
  reviewsCaption: z.string(),
  columnLine: z.string(),
  columnReview: z.string(),
  columnStatus: z.string(),
  columnTime: z.string(),
  statusSupported: z.string(),
  statusUnsupported: z.string(),
  statusIncomplete: z.string(),
  /** "{0}" = line, "{1}" = kind, "{2}" = review id, "{3}" = status or "". */
  reviewRowLabel: z.string(),
  /** "{0}" = line, "{1}" = kind. */
  reviewDetailTitle: z.string(),
  reviewDetailLoading: z.string(),
  detailReview: z.string(),
  detailStatus: z.string(),
  detailLine: z.string(),
  detailAt: z.string(),
  detailStream: z.string(),
  detailLineSha256: z.string(),
  detailPreviousLineSha256: z.string(),
  /** The previous-line hash of line 0. */
  detailNoPreviousLine: z.string(),
  /** Heading of the link to the review's other entry. */
  detailRelated: z.string(),
  detailNoRelated: z.string(),
  /** "{0}" = line, "{1}" = kind: a link to the review's other entry. */
  reviewLinkLabel: z.string(),
  detailEntryJson: z.string(),
  detailEntryJsonHint: z.string(),
  detailLineHashInput: z.string(),
  detailLineHashInputHint: z.string(),
  /** Observer tab (`observer/v1` entries). */
  tabObserver: z.string(),
  observerCaption: z.string(),
  /** "{0}" = entries on this page, "{1}" = Observer entries in total. */
  observerPageInfo: z.string(),
  /** "{0}" = rows on this page, "{1}" = entries matching the filter, "{2}" = Observer entries in total. */
  observerPageInfoFiltered: z.string(),
  observerEmpty: z.string(),
  observerEmptyFiltered: z.string(),
  observerLoading: z.string(),
  /** Label of the customType drop-down and its "any" option. */
  observerTypeLabel: z.string(),
  observerTypeAll: z.string(),
  columnEntryType: z.string(),
  columnEpisode: z.string(),
  columnId: z.string(),
  /** "{0}" = line, "{1}" = customType, "{2}" = kind, "{3}" = id (kind and id may be ""). */
  observerRowLabel: z.string(),
  observerDetailLoading: z.string(),
  /** "{0}" = the `data` field the value comes from, e.g. `candidate_id`. */
  detailEntryId: z.string(),
  detailEntryTime: z.string(),
  detailEpisode: z.string(),
  detailEntryType: z.string(),
  /** Opens the open detail in an editor tab. */
  openInEditor: z.string(),
  /** Accessible name of the sash between the list and the detail. */
  resizeDetail: z.string(),
  /** Tooltip of the sash: how to move it. */
  resizeDetailHint: z.string(),
  /** "{0}" = the label of the value (e.g. "Event SHA-256"): a copy button's name. */
  copyValue: z.string(),
  /** "{0}" = the label of the value: announced once it is on the clipboard. */
  copiedValue: z.string(),
});
export type ReceiptsStrings = z.infer<typeof ReceiptsStrings>;

/** A review's status in words, the same in the Reviews tab and in its editor document (null: no status yet). */
export function reviewStatusText(status: "supported" | "unsupported" | "incomplete" | null, strings: ReceiptsStrings): string | null {
  switch (status) {
    case "supported":
      return strings.statusSupported;
    case "unsupported":
      return strings.statusUnsupported;
    case "incomplete":
      return strings.statusIncomplete;
    case null:
      return null;
  }
}

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
    /** The backend's status revision (moves with every ledger line, guard lines included), or null. */
    revision: z.string().max(200).nullable(),
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
  /** Answer to `loadDetail` with the same `requestId`. */
  z.strictObject({ type: z.literal("detail"), requestId, detail: ReceiptDetail }),
  /** Failed `loadDetail`; `code` is a `docket.*` error code. */
  z.strictObject({ type: z.literal("detailError"), requestId, code: z.string(), message: z.string() }),
  /** Whether the text of the last `copy` reached the clipboard. */
  z.strictObject({ type: z.literal("copyResult"), ok: z.boolean() }),
  /** Answer to `loadReviews` with the same `requestId` (`docket/guard/receipts/page`). */
  z.strictObject({ type: z.literal("reviews"), requestId, page: GuardReceiptsPage }),
  /** Failed `loadReviews`. */
  z.strictObject({ type: z.literal("reviewsError"), requestId, code: z.string(), message: z.string() }),
  /** Answer to `loadReviewDetail` with the same `requestId` (`docket/guard/receipts/detail`). */
  z.strictObject({ type: z.literal("reviewDetail"), requestId, detail: GuardReceiptDetail }),
  /** Failed `loadReviewDetail`. */
  z.strictObject({ type: z.literal("reviewDetailError"), requestId, code: z.string(), message: z.string() }),
  /** Answer to `loadObserver` with the same `requestId` (`docket/observer/receipts/page`). */
  z.strictObject({ type: z.literal("observerEntries"), requestId, page: ObserverReceiptsPage }),
  /** Failed `loadObserver`. */
  z.strictObject({ type: z.literal("observerEntriesError"), requestId, code: z.string(), message: z.string() }),
  /** Answer to `loadObserverDetail` with the same `requestId` (`docket/observer/receipts/detail`). */
  z.strictObject({ type: z.literal("observerDetail"), requestId, detail: ObserverReceiptDetail }),
  /** Failed `loadObserverDetail`. */
  z.strictObject({ type: z.literal("observerDetailError"), requestId, code: z.string(), message: z.string() }),
]);
export type HostToReceipts = z.infer<typeof HostToReceipts>;

/** Webview → host. */
export const ReceiptsToHost = z.discriminatedUnion("type", [
  /** The script has loaded; the host answers with a `state` message. */
  z.strictObject({ type: z.literal("ready") }),
  /**
   * Load the page at `cursor`; without one, the oldest (`from: "start"`) or newest page, or with
   * `containing` the page holding that event's receipt. `kinds` filters (cursors are bound to it).
   */
  z.strictObject({ type: z.literal("loadPage"), requestId, cursor, from, kinds, containing: sha256.nullable() }),
  /** Load the detail of the receipt of this event (`docket/receipts/detail`). */
  z.strictObject({ type: z.literal("loadDetail"), requestId, eventSha256: sha256 }),
  /** Run "Verify Ledger" (the `docket.verifyLedger` command). */
  z.strictObject({ type: z.literal("verify") }),
  /** Put this text (a receipt's canonical JSON) on the clipboard. */
  z.strictObject({ type: z.literal("copy"), text: z.string().max(MAX_COPY_CHARS) }),
  /** Open a captured tool result a conclusion nominated (the `docket.showEvidence` command). */
  z.strictObject({ type: z.literal("openEvidence"), branchResultId: z.string().regex(/^branch-result-[0-9a-f]{16}$/u) }),
  /** Load a page of the guard stream's entries, newest first, starting at the line `cursor` (null: the newest). */
  z.strictObject({ type: z.literal("loadReviews"), requestId, cursor: guardCursor }),
  /** Load the detail of the guard line with this hash. */
  z.strictObject({ type: z.literal("loadReviewDetail"), requestId, lineSha256: sha256 }),
  /** Load a page of Observer entries, newest first, from the line `cursor` (null: the newest), under `filter`. */
  z.strictObject({ type: z.literal("loadObserver"), requestId, cursor: guardCursor, filter: ObserverFilter }),
  /** Load the detail of the Observer line with this hash. */
  z.strictObject({ type: z.literal("loadObserverDetail"), requestId, lineSha256: sha256 }),
  /**
   * Show the detail of one entry of `tab` in an editor (one read-only document, reused): a
   * receipt's event hash, or the line hash of a guard or Observer entry. The host reads the detail
   * from the backend itself; the webview names the entry only.
   */
  z.strictObject({ type: z.literal("openInEditor"), tab: ReceiptsTab, sha256 }),
]);
export type ReceiptsToHost = z.infer<typeof ReceiptsToHost>;

/** What the webview keeps with `vscode.setState` across hide/show (older states lack the later fields). */
export const ReceiptsViewState = z.strictObject({
  cursor,
  from,
  kinds: kinds.default(null),
  /** Event hash of the receipt whose detail is open. */
  selected: sha256.nullable().default(null),
  /** The tab shown, the reviews page's cursor and the guard line whose detail is open (newer states only). */
  tab: ReceiptsTab.default("receipts"),
  reviewsCursor: guardCursor.default(null),
  reviewSelected: sha256.nullable().default(null),
  /** The Observer tab's page cursor, filter and open line; absent while all are at their defaults. */
  observer: z
    .strictObject({ cursor: guardCursor, filter: ObserverFilter, selected: sha256.nullable() })
    .optional(),
  /** The detail's share of the height (DETAIL_SHARE); absent while it is the initial one. */
  detailShare: detailShare.optional(),
});
export type ReceiptsViewState = z.infer<typeof ReceiptsViewState>;
export type ReceiptsViewStateInput = z.input<typeof ReceiptsViewState>;

// ── Plan panel (extension/planPanel.ts ⇄ webview/plan) ─────────────────────────────────────────

/** Localized UI strings for the Plan panel; "{0}"-style placeholders are filled in the webview. */
export const PlanStrings = z.strictObject({
  stageTask: z.string(),
  stageIntent: z.string(),
  stageRouting: z.string(),
  stageComposition: z.string(),
  stageContextPack: z.string(),
  stageVerification: z.string(),
  stageReview: z.string(),
  waiting: z.string(),
  domain: z.string(),
  executionMode: z.string(),
  entities: z.string(),
  unmatched: z.string(),
  ambiguous: z.string(),
  signals: z.string(),
  risk: z.string(),
  candidates: z.string(),
  noSkillFits: z.string(),
  setAside: z.string(),
  excluded: z.string(),
  unavailable: z.string(),
  executable: z.string(),
  blocked: z.string(),
  groups: z.string(),
  /** "{0}" = group index. */
  group: z.string(),
  edges: z.string(),
  gates: z.string(),
  issues: z.string(),
  versions: z.string(),
  facts: z.string(),
  files: z.string(),
  graph: z.string(),
  rules: z.string(),
  constraints: z.string(),
  findings: z.string(),
  unknowns: z.string(),
  required: z.string(),
  ran: z.string(),
  pending: z.string(),
  seats: z.string(),
  verdict: z.string(),
  ignoredReports: z.string(),
  none: z.string(),
  because: z.string(),
  /** "{0}" = score. */
  score: z.string(),
  imports: z.string(),
  importedBy: z.string(),
  /** Accessible name of a link that opens a file: "{0}" = path. */
  openFile: z.string(),
  /** Accessible name of a link that opens a skill's SKILL.md: "{0}" = skill. */
  openSkill: z.string(),
  /** Accessible name of a link that highlights task words: "{0}" = the words. */
  showWords: z.string(),
  planHash: z.string(),
  basis: z.string(),
  snapshot: z.string(),
  /** Seat states. */
  stateAwaitingReport: z.string(),
  stateReported: z.string(),
  stateFailed: z.string(),
  stateUnavailable: z.string(),
  /** Verdicts in words (the raw GO / FIX_REQUIRED / BLOCKED stays in data-verdict only). */
  verdictGo: z.string(),
  verdictFixRequired: z.string(),
  verdictBlocked: z.string(),
  yes: z.string(),
  no: z.string(),
  resolved: z.string(),
  /** Execution modes. */
  modePlanOnly: z.string(),
  modeImplement: z.string(),
  modeReview: z.string(),
  modeInvestigate: z.string(),
  /** Risk levels. */
  riskHigh: z.string(),
  riskMedium: z.string(),
  riskLow: z.string(),
  /** Finding severities. */
  severityBlocking: z.string(),
  severityMajor: z.string(),
  severityMinor: z.string(),
  severityInfo: z.string(),
});
export type PlanStrings = z.infer<typeof PlanStrings>;

/** Host → Plan panel. */
export const HostToPlan = z.discriminatedUnion("type", [
  /** The plan to show (sent after `ready`, and again when the same task is planned anew). */
  z.strictObject({ type: z.literal("plan"), plan: Plan }),
]);
export type HostToPlan = z.infer<typeof HostToPlan>;

/** Plan panel → host. */
export const PlanToHost = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("ready") }),
  /** Open a workspace file a reason or citation names (the host keeps it inside the workspace). */
  z.strictObject({ type: z.literal("openFile"), path: z.string().min(1).max(4096), line: z.number().int().positive().nullable() }),
  /** Open the SKILL.md of a catalogue entry the plan names (the host looks it up in the plan). */
  z.strictObject({ type: z.literal("openSkill"), skill: z.string().min(1).max(200) }),
]);
export type PlanToHost = z.infer<typeof PlanToHost>;
