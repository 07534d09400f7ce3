// Localized strings shared by several modules. Every UI string goes through vscode.l10n.t with
// a literal English key; l10n/bundle.l10n.ko.json holds the Korean translations.
import * as vscode from "vscode";
import type { Phase } from "../server/protocol/messages";
import type { BackendState, ReceiptsStrings } from "../server/protocol/webviewMessages";

export function phaseLabel(phase: Phase): string {
  switch (phase) {
    case "off":
      return vscode.l10n.t("Off");
    case "deciding":
      return vscode.l10n.t("Deciding");
    case "ready-to-edit":
      return vscode.l10n.t("Ready to edit");
    case "editing":
      return vscode.l10n.t("Editing");
    case "rerouting":
      return vscode.l10n.t("Rerouting");
    case "verifying":
      return vscode.l10n.t("Verifying");
    case "done":
      return vscode.l10n.t("Done");
    case "blocked":
      return vscode.l10n.t("Blocked");
  }
}

/** What a command says when it needs the backend and the backend is not ready. */
export function backendUnavailableMessage(state: BackendState): string {
  switch (state) {
    case "starting":
      return vscode.l10n.t("Docket's backend is not running (starting…). Try again in a moment.");
    case "restarting":
      return vscode.l10n.t("Docket's backend is not running (restarting…). Try again in a moment.");
    case "stopped":
    case "ready":
      return vscode.l10n.t(
        "Docket's backend is not running. Run \"Docket: Restart Backend\" or see the output for details.",
      );
  }
}

export function noFolderMessage(): string {
  return vscode.l10n.t("Open a folder to use Docket.");
}

export function untrustedMessage(): string {
  return vscode.l10n.t(
    "Docket can't change anything in Restricted Mode. Trust this workspace to turn Docket on or off.",
  );
}

/** A count as the user's language writes it (5,000 rather than 5000). */
export function formatCount(count: number): string {
  return count.toLocaleString(vscode.env.language);
}

/** Formats an ISO timestamp for display; falls back to the raw text. */
export function formatTime(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : time.toLocaleString(vscode.env.language);
}

/** The short form for a narrow row (no seconds, a short date); the tooltip gives formatTime's. */
export function formatShortTime(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : time.toLocaleString(vscode.env.language, { dateStyle: "short", timeStyle: "short" });
}

export function receiptsStrings(): ReceiptsStrings {
  return {
    caption: vscode.l10n.t("Receipts"),
    first: vscode.l10n.t("First"),
    previous: vscode.l10n.t("Previous"),
    next: vscode.l10n.t("Next"),
    verify: vscode.l10n.t("Verify ledger"),
    verifying: vscode.l10n.t("Verifying…"),
    staleBanner: vscode.l10n.t("New receipts are available —"),
    showLatest: vscode.l10n.t("Show latest"),
    empty: vscode.l10n.t("No receipts yet. Turn Docket on to open a work scope."),
    emptyUntrusted: vscode.l10n.t("No receipts yet."),
    blocked: vscode.l10n.t("The ledger's history is blocked. The Work view shows why."),
    noFolder: vscode.l10n.t("Open a folder to use Docket."),
    waiting: vscode.l10n.t("Waiting for Docket's backend…"),
    stopped: vscode.l10n.t("Docket's backend is not running."),
    untrusted: vscode.l10n.t("Restricted Mode: receipts are shown read-only."),
    loading: vscode.l10n.t("Loading receipts…"),
    pageInfo: vscode.l10n.t("Showing {0}–{1} of {2} receipts"),
    columnOrdinal: vscode.l10n.t("#"),
    columnKind: vscode.l10n.t("Kind"),
    columnSequence: vscode.l10n.t("Seq."),
    columnHash: vscode.l10n.t("Hash"),
    detailEventId: vscode.l10n.t("Event"),
    detailWorkScopeId: vscode.l10n.t("Work scope"),
    detailOccurredAt: vscode.l10n.t("Occurred at"),
    detailStoredIndex: vscode.l10n.t("Stored index"),
    detailScopeSequence: vscode.l10n.t("Scope sequence"),
    detailEventSha256: vscode.l10n.t("Event SHA-256"),
    detailReceiptSha256: vscode.l10n.t("Receipt SHA-256"),
    detailSummary: vscode.l10n.t("Summary"),
    detailSummaryEmpty: vscode.l10n.t("No summary fields."),
    rowLabel: vscode.l10n.t("Receipt {0}, {1}, scope sequence {2}"),
    filterLabel: vscode.l10n.t("Kind"),
    filterAll: vscode.l10n.t("All kinds"),
    filterOption: vscode.l10n.t("{0} ({1})"),
    pageInfoFiltered: vscode.l10n.t("Showing {0}–{1} of {2} matching receipts ({3} in total)"),
    emptyFiltered: vscode.l10n.t("No receipts of this kind."),
    detailTitle: vscode.l10n.t("Receipt #{0} · {1}"),
    detailClose: vscode.l10n.t("Close details"),
    detailLoading: vscode.l10n.t("Loading receipt…"),
    detailCanonicalJson: vscode.l10n.t("Canonical JSON"),
    detailCanonicalJsonHint: vscode.l10n.t("Exactly the bytes that were hashed: their SHA-256 is the event SHA-256."),
    copy: vscode.l10n.t("Copy"),
    copied: vscode.l10n.t("Copied to the clipboard."),
    copyFailed: vscode.l10n.t("Could not copy to the clipboard."),
    detailCausalRefs: vscode.l10n.t("Causal references"),
    detailNoCausalRefs: vscode.l10n.t("No causal references."),
    detailPreviousScopeEvent: vscode.l10n.t("Previous event in this scope"),
    detailNoPreviousScopeEvent: vscode.l10n.t("None: this event opened the scope."),
    detailWrittenBy: vscode.l10n.t("Written by"),
    detailWriterUnknown: vscode.l10n.t("Not recorded (written by another tool, or before Docket kept provenance)."),
    detailNominations: vscode.l10n.t("Nominated evidence"),
    openEvidence: vscode.l10n.t("Open the captured tool result"),
    linkLabel: vscode.l10n.t("Go to receipt {0}, {1}"),
    linkUnresolved: vscode.l10n.t("not in the receipts"),
    filterClearedForJump: vscode.l10n.t("The kind filter was cleared to show the referenced receipt."),
    tabsLabel: vscode.l10n.t("Ledger streams"),
    tabReceipts: vscode.l10n.t("Receipts"),
    tabReviews: vscode.l10n.t("Reviews"),
    reviewsNewest: vscode.l10n.t("Newest"),
    reviewsNewer: vscode.l10n.t("Newer"),
    reviewsOlder: vscode.l10n.t("Older"),
    reviewsPageInfo: vscode.l10n.t("Showing {0} of {1} review entries"),
    reviewsEmpty: vscode.l10n.t("No reviews recorded yet. Agents record a review of their final answer with Docket's review_open and review_submit tools."),
    reviewsLoading: vscode.l10n.t("Loading reviews…"),
    reviewsCaption: vscode.l10n.t("Completion reviews in the ledger (docket/guard/v1), newest first"),
    columnLine: vscode.l10n.t("Line"),
    columnReview: vscode.l10n.t("Review"),
    columnStatus: vscode.l10n.t("Status"),
    columnTime: vscode.l10n.t("Time"),
    statusSupported: vscode.l10n.t("supported"),
    statusUnsupported: vscode.l10n.t("unsupported"),
    statusIncomplete: vscode.l10n.t("incomplete"),
    reviewRowLabel: vscode.l10n.t("Line {0}, {1}, {2} {3}"),
    reviewDetailTitle: vscode.l10n.t("Line {0} · {1}"),
    reviewDetailLoading: vscode.l10n.t("Loading review entry…"),
    detailReview: vscode.l10n.t("Review id"),
    detailStatus: vscode.l10n.t("Status"),
    detailLine: vscode.l10n.t("Ledger line"),
    detailAt: vscode.l10n.t("Recorded at"),
    detailStream: vscode.l10n.t("Stream"),
    detailLineSha256: vscode.l10n.t("Line SHA-256"),
    detailPreviousLineSha256: vscode.l10n.t("Previous line SHA-256"),
    detailNoPreviousLine: vscode.l10n.t("None: this is the ledger's first line."),
    detailRelated: vscode.l10n.t("The review's other entry"),
    detailNoRelated: vscode.l10n.t("Not submitted yet."),
    reviewLinkLabel: vscode.l10n.t("Go to line {0}, {1}"),
    detailEntryJson: vscode.l10n.t("Entry (canonical JSON)"),
    detailEntryJsonHint: vscode.l10n.t("The entry exactly as the ledger line holds it."),
    detailLineHashInput: vscode.l10n.t("Hashed line"),
    detailLineHashInputHint: vscode.l10n.t("Exactly the bytes that were hashed: their SHA-256 is the line SHA-256. `docket ledger verify` checks every line this way."),
    tabObserver: vscode.l10n.t("Observer"),
    observerCaption: vscode.l10n.t("Observer entries in the ledger (observer/v1)"),
    observerPageInfo: vscode.l10n.t("Showing {0} of {1} Observer entries"),
    observerPageInfoFiltered: vscode.l10n.t("Showing {0} of {1} matching Observer entries ({2} in total)"),
    observerEmpty: vscode.l10n.t("No Observer entries yet. They appear once Observer opens an Episode and records what it observes."),
    observerEmptyFiltered: vscode.l10n.t("No Observer entries match the filter."),
    observerLoading: vscode.l10n.t("Loading Observer entries…"),
    observerTypeLabel: vscode.l10n.t("Entry type"),
    observerTypeAll: vscode.l10n.t("All entry types"),
    columnEntryType: vscode.l10n.t("Entry type"),
    columnEpisode: vscode.l10n.t("Episode"),
    columnId: vscode.l10n.t("Id"),
    observerRowLabel: vscode.l10n.t("Line {0}, {1} {2}, {3}"),
    observerDetailLoading: vscode.l10n.t("Loading Observer entry…"),
    detailEntryId: vscode.l10n.t("Id ({0})"),
    detailEntryTime: vscode.l10n.t("Time ({0})"),
    detailEpisode: vscode.l10n.t("Episode"),
    detailEntryType: vscode.l10n.t("Entry type"),
    openInEditor: vscode.l10n.t("Open in Editor"),
    resizeDetail: vscode.l10n.t("Resize the list and the details"),
    resizeDetailHint: vscode.l10n.t("Drag, or use the arrow keys, to resize. Double-click to reset."),
    copyValue: vscode.l10n.t("Copy {0}"),
    copiedValue: vscode.l10n.t("{0} copied to the clipboard."),
  };
}
