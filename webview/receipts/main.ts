// Receipts webview: renders the model from ./model.ts into the DOM. Every piece of data goes
// in through textContent or attributes; there is no innerHTML and no inline handler.
//
// Stable DOM hooks for end-to-end tests (the view lives in nested iframes: the workbench's
// `iframe.webview`, then `#active-frame`):
//   #receipts-table                       the table; only receipt rows inside carry data-kind
//   [data-testid="receipt-row"]           one row per receipt: data-ordinal, data-kind,
//                                         data-event-sha256, aria-current="true" when selected
//                                         (click or Enter/Space selects; Escape closes the detail)
//   [data-testid="kind-filter"]           <select>: value "" = all kinds, else one kind; options
//                                         list the kinds present (data-kind on each option)
//   [data-testid="page-info"]             "Showing a–b of m receipts" text
//   [data-testid="nav-first"|"nav-previous"|"nav-next"]   paging buttons
//   [data-testid="verify-ledger"]         Verify Ledger button; result in [data-testid="verify-status"]
//                                         (class "ok" or "failed")
//   [data-testid="stale-banner"]          shown when the projection changed under the page;
//                                         its [data-testid="show-latest"] loads the newest page
//                                         (ids #stale-banner / #show-latest are kept too)
//   [data-testid="receipt-detail"]        the detail pane (hidden until a row is selected):
//                                         data-ordinal, data-kind, data-event-sha256 of the receipt
//     [data-testid="detail-close"]        closes it; [data-testid="detail-open-editor"] opens it in an editor
//     [data-testid="detail-event-sha256"], [data-testid="detail-receipt-sha256"]   full hashes (innerText;
//                                         cut in the middle on screen), also detail-event-id and
//                                         detail-work-scope-id; each has a copy button
//                                         [data-testid="copy-<its testid>"] (class copy-value;
//                                         data-copied="true"|"false" once its copy answered)
//     [data-testid="canonical-json"]      <pre> with the exact hashed canonical JSON
//     [data-testid="copy-canonical-json"] copy button; [data-testid="copy-status"] its outcome
//     [data-testid="causal-ref"]          one per causal ref: a <button> (data-ordinal,
//                                         data-kind, data-event-sha256) that jumps to the receipt,
//                                         or a <span data-unresolved="true"> when it is not in
//                                         the receipts
//     [data-testid="previous-scope-event"] the same for the previous event of the scope
//   [data-testid="filter-cleared"]        note shown when a jump had to clear the kind filter
//   [data-testid="tab-receipts"|"tab-reviews"]   the two tabs (role="tab", aria-selected; arrow
//                                         keys, Home and End move between them)
//   #reviews-table                        the completion guard's entries (docket/guard/v1), newest first
//   [data-testid="review-row"]            one row per guard line: data-line, data-kind
//                                         (review-opened|review-submitted), data-review-id,
//                                         data-status (submitted only), data-line-sha256
//   [data-testid="review-detail"]         its detail pane: data-line, data-kind, data-line-sha256
//     [data-testid="review-canonical-json"]   <pre> with the entry's canonical JSON
//     [data-testid="review-line-hash-input"]  <pre> with the exact text the line hash covers
//     [data-testid="review-line-sha256"], [data-testid="review-previous-line-sha256"]   full hashes
//     [data-testid="review-related"]      a <button> (data-line, data-kind, data-line-sha256) to
//                                         the review's other entry
//     [data-testid="copy-review-json"], [data-testid="copy-review-line"]   copy buttons
//     [data-testid="review-open-editor"]  opens the detail in an editor
//   [data-testid="tab-observer"]          Observer's entries (observer/v1); its hooks are listed in ./observerView.ts
//   [data-testid="receipts-sash"|"reviews-sash"|"observer-sash"]   the sash between a tab's list and its
//                                         open detail (role="separator", aria-valuenow = the list's
//                                         percentage of the height; arrow keys, Page Up/Down, Home, End)
import "./zodSetup";
import { copyableDefinition, createCopyButton, definition, el, fitDigits, formatCount, icon, iconButton, readOnlyJson, section, show } from "./dom";
import { createObserverView } from "./observerView";
import { createSash, type Sash } from "./sash";
import {
  ReceiptKind,
  type GuardReceiptRow,
  type GuardReceiptsPage,
  type ReceiptDetail,
  type ReceiptLink,
  type ReceiptRow,
  type ReceiptsPage,
} from "../../server/protocol/messages";
import {
  HostToReceipts,
  ReceiptsStrings,
  ReceiptsTab,
  ReceiptsToHost,
  ReceiptsViewState,
  reviewStatusText,
} from "../../server/protocol/webviewMessages";
import {
  format,
  initialModel,
  reviewTime,
  shortReviewId,
  type Model,
  type ModelEvent,
  navigation,
  persistedState,
  shortHash,
  shownKinds,
  type UiAction,
  update,
} from "./model";

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();

function readStrings(): ReceiptsStrings {
  const raw = document.body.dataset["strings"] ?? "{}";
  return ReceiptsStrings.parse(JSON.parse(raw));
}

function readSavedState(): ReceiptsViewState | null {
  const parsed = ReceiptsViewState.safeParse(vscode.getState());
  return parsed.success ? parsed.data : null;
}

const strings = readStrings();
let model: Model = initialModel(readSavedState());

// ---------------------------------------------------------------------------------------------
// DOM helpers

function button(id: string, label: string, codicon: string, secondary: boolean): HTMLButtonElement {
  const node = el("button", { id, className: secondary ? "button secondary" : "button" }, [
    icon(codicon),
    el("span", { className: "label", text: label }),
  ]);
  node.type = "button";
  // The label may collapse to the icon in a narrow view; keep the name and a tooltip.
  node.title = label;
  node.setAttribute("aria-label", label);
  return node;
}

function setLabel(node: HTMLButtonElement, label: string): void {
  const span = node.querySelector(".label");
  if (span !== null) span.textContent = label;
  node.title = label;
  node.setAttribute("aria-label", label);
}

// ---------------------------------------------------------------------------------------------
// Static skeleton

const firstButton = button("first", strings.first, "arrow-up", true);
firstButton.dataset["testid"] = "nav-first";
const prevButton = button("prev", strings.previous, "chevron-left", true);
prevButton.dataset["testid"] = "nav-previous";
const nextButton = button("next", strings.next, "chevron-right", true);
nextButton.dataset["testid"] = "nav-next";
const verifyButton = button("verify", strings.verify, "verified", false);
verifyButton.dataset["testid"] = "verify-ledger";
const pageInfo = el("span", { id: "page-info", className: "page-info", testId: "page-info" });
pageInfo.setAttribute("aria-live", "polite");

const kindFilter = el("select", { id: "kind-filter", className: "kind-filter", testId: "kind-filter" });
const kindFilterLabel = el("label", { className: "filter-label", text: strings.filterLabel });
kindFilterLabel.htmlFor = "kind-filter";
const filterGroup = el("div", { className: "filter" }, [icon("filter"), kindFilterLabel, kindFilter]);

const showLatestButton = el("button", { id: "show-latest", className: "link-button", text: strings.showLatest, testId: "show-latest" });
showLatestButton.type = "button";
const staleBanner = el("div", { id: "stale-banner", className: "banner", testId: "stale-banner" }, [
  icon("info"),
  el("span", { className: "banner-text", text: strings.staleBanner }),
  showLatestButton,
]);
staleBanner.setAttribute("role", "status");

const filterClearedNote = el("div", { id: "filter-cleared", className: "note", testId: "filter-cleared" }, [
  icon("filter"),
  el("span", { text: strings.filterClearedForJump }),
]);
filterClearedNote.setAttribute("role", "status");

const blockedNote = el("div", { id: "blocked-note", className: "error" }, [
  icon("error"),
  el("span", { text: strings.blocked }),
]);
const untrustedNote = el("div", { id: "untrusted-note", className: "note" }, [
  icon("shield"),
  el("span", { text: strings.untrusted }),
]);
const errorLine = el("div", { id: "error", className: "error" });
errorLine.setAttribute("role", "alert");
const verifyStatus = el("div", { id: "verify-status", className: "verify-status", testId: "verify-status" });
verifyStatus.setAttribute("aria-live", "polite");
const message = el("p", { id: "message", className: "message" });
const emptyState = el("p", { id: "empty-state", className: "message", text: strings.empty });

const tbody = el("tbody");
const headerRow = el("tr", {}, [
  el("th", { className: "col-ordinal", text: strings.columnOrdinal }),
  el("th", { className: "col-kind", text: strings.columnKind }),
  el("th", { className: "col-sequence", text: strings.columnSequence }),
  el("th", { className: "col-hash", text: strings.columnHash }),
]);
for (const cell of Array.from(headerRow.children)) cell.setAttribute("scope", "col");
const table = el("table", { id: "receipts-table" }, [
  el("caption", { className: "visually-hidden", text: strings.caption }),
  el("thead", {}, [headerRow]),
  tbody,
]);
const tableScroll = el("div", { id: "table-scroll", className: "table-scroll" }, [table]);

// Detail pane: its skeleton is static, its contents are rebuilt when the detail changes.
const detailTitle = el("h2", { id: "detail-title", className: "detail-title" });
const detailClose = iconButton(strings.detailClose, "close", "detail-close");
const detailOpenEditor = iconButton(strings.openInEditor, "go-to-file", "detail-open-editor");
const detailBody = el("div", { className: "detail-body" });
const detailPane = el("section", { id: "receipt-detail", className: "detail-pane", testId: "receipt-detail" }, [
  el("div", { className: "detail-header" }, [detailTitle, detailOpenEditor, detailClose]),
  detailBody,
]);
detailPane.setAttribute("aria-labelledby", "detail-title");
detailPane.tabIndex = -1;

// Tabs: developer/v8 receipts, the completion guard's review entries and Observer's entries.
const TAB_PANELS: Readonly<Record<ReceiptsTab, string>> = { receipts: "table-scroll", reviews: "reviews-scroll", observer: "observer-scroll" };
function tab(id: ReceiptsTab, label: string, codicon: string): HTMLButtonElement {
  const node = el("button", { id: `tab-${id}`, className: "tab", testId: `tab-${id}` }, [icon(codicon), el("span", { text: label })]);
  node.type = "button";
  node.setAttribute("role", "tab");
  node.setAttribute("aria-controls", TAB_PANELS[id]);
  node.dataset["tab"] = id;
  return node;
}
const tabs = [
  tab("receipts", strings.tabReceipts, "checklist"),
  tab("reviews", strings.tabReviews, "comment-discussion"),
  tab("observer", strings.tabObserver, "eye"),
] as const;
const tabList = el("div", { className: "tabs" }, [...tabs]);
tabList.setAttribute("role", "tablist");
tabList.setAttribute("aria-label", strings.tabsLabel);

const reviewsBody = el("tbody");
const reviewsHeader = el("tr", {}, [
  el("th", { className: "col-line", text: strings.columnLine }),
  el("th", { className: "col-kind", text: strings.columnKind }),
  el("th", { className: "col-review", text: strings.columnReview }),
  el("th", { className: "col-status", text: strings.columnStatus }),
  el("th", { className: "col-time", text: strings.columnTime }),
]);
for (const cell of Array.from(reviewsHeader.children)) cell.setAttribute("scope", "col");
const reviewsTable = el("table", { id: "reviews-table" }, [
  el("caption", { className: "visually-hidden", text: strings.reviewsCaption }),
  el("thead", {}, [reviewsHeader]),
  reviewsBody,
]);
const reviewsScroll = el("div", { id: "reviews-scroll", className: "table-scroll" }, [reviewsTable]);
reviewsScroll.setAttribute("role", "tabpanel");
reviewsScroll.setAttribute("aria-labelledby", "tab-reviews");
tableScroll.setAttribute("role", "tabpanel");
tableScroll.setAttribute("aria-labelledby", "tab-receipts");

const reviewTitle = el("h2", { id: "review-detail-title", className: "detail-title" });
const reviewClose = iconButton(strings.detailClose, "close", "review-detail-close");
const reviewOpenEditor = iconButton(strings.openInEditor, "go-to-file", "review-open-editor");
const reviewBody = el("div", { className: "detail-body" });
const reviewPane = el("section", { id: "review-detail", className: "detail-pane", testId: "review-detail" }, [
  el("div", { className: "detail-header" }, [reviewTitle, reviewOpenEditor, reviewClose]),
  reviewBody,
]);
reviewPane.setAttribute("aria-labelledby", "review-detail-title");
reviewPane.tabIndex = -1;

const observerView = createObserverView(strings, (action) => act(action), () => model);

const navGroup = el("div", { className: "nav" }, [firstButton, prevButton, nextButton]);
const toolbar = el("div", { className: "toolbar" }, [navGroup, pageInfo, verifyButton]);
toolbar.setAttribute("role", "toolbar");
const header = el("div", { className: "header" }, [
  tabList,
  toolbar,
  filterGroup,
  observerView.filterGroup,
  staleBanner,
  filterClearedNote,
  blockedNote,
  untrustedNote,
  errorLine,
  verifyStatus,
  message,
  emptyState,
]);

// Each tab's list and detail are split by a sash; one share of the height serves all three.
const sashLabels = { name: strings.resizeDetail, hint: strings.resizeDetailHint };
const resize = (share: number): void => act({ type: "resizeDetail", share });
const currentShare = (): number => model.detailShare;
const receiptsSash = createSash(sashLabels, "receipts-sash", tableScroll, detailPane, currentShare, resize);
const reviewsSash = createSash(sashLabels, "reviews-sash", reviewsScroll, reviewPane, currentShare, resize);
const observerSash = createSash(sashLabels, "observer-sash", observerView.panel, observerView.pane, currentShare, resize);
const splits: readonly { readonly list: HTMLElement; readonly pane: HTMLElement; readonly sash: Sash }[] = [
  { list: tableScroll, pane: detailPane, sash: receiptsSash },
  { list: reviewsScroll, pane: reviewPane, sash: reviewsSash },
  { list: observerView.panel, pane: observerView.pane, sash: observerSash },
];
/** Says "… copied to the clipboard" for the copy buttons beside values (they only change their icon). */
const copyAnnouncer = el("div", { id: "copy-announcer", className: "visually-hidden" });
copyAnnouncer.setAttribute("aria-live", "polite");

const app = el("main", { id: "app" }, [
  header,
  tableScroll,
  receiptsSash.element,
  detailPane,
  reviewsScroll,
  reviewsSash.element,
  reviewPane,
  observerView.panel,
  observerSash.element,
  observerView.pane,
  copyAnnouncer,
]);
document.body.appendChild(app);

// ---------------------------------------------------------------------------------------------
// Rendering

function receiptRow(row: ReceiptRow, selected: boolean): HTMLTableRowElement {
  const hash = el("td", { className: "col-hash mono", text: shortHash(row.eventSha256) });
  hash.title = row.eventSha256;
  const tr = el("tr", { className: selected ? "receipt selected" : "receipt", testId: "receipt-row" }, [
    el("td", { className: "col-ordinal", text: String(row.ordinal) }),
    el("td", { className: "col-kind", text: row.kind }),
    el("td", { className: "col-sequence", text: String(row.scopeSequence) }),
    hash,
  ]);
  tr.dataset["ordinal"] = String(row.ordinal);
  tr.dataset["kind"] = row.kind;
  tr.dataset["eventSha256"] = row.eventSha256;
  tr.tabIndex = 0;
  tr.setAttribute("aria-controls", "receipt-detail");
  if (selected) tr.setAttribute("aria-current", "true");
  tr.setAttribute("aria-label", format(strings.rowLabel, row.ordinal, row.kind, row.scopeSequence));
  return tr;
}

let renderedPage: Model["page"] = null;
let renderedSelected: Model["selected"] = null;

function renderRows(page: ReceiptsPage | null, selected: string | null): void {
  if (page === renderedPage && selected === renderedSelected) return;
  const focused = document.activeElement instanceof HTMLTableRowElement ? document.activeElement.dataset["ordinal"] : undefined;
  renderedPage = page;
  renderedSelected = selected;
  tbody.replaceChildren(...(page?.receipts ?? []).map((row) => receiptRow(row, row.eventSha256 === selected)));
  fitDigits(table, "ordinal", (page?.receipts ?? []).map((row) => row.ordinal));
  fitDigits(table, "sequence", (page?.receipts ?? []).map((row) => row.scopeSequence));
  if (focused !== undefined) {
    const again = tbody.querySelector<HTMLTableRowElement>(`tr.receipt[data-ordinal="${CSS.escape(focused)}"]`);
    again?.focus();
  }
  // The selected receipt stays in view after a click, a causal jump or a page change, even when
  // the detail pane takes most of the height.
  tbody.querySelector<HTMLTableRowElement>("tr.receipt.selected")?.scrollIntoView({ block: "nearest" });
}

let renderedFilterKey = "";

function renderFilter(current: Model): void {
  const kinds = shownKinds(current);
  const counts = current.page?.kindCounts ?? [];
  const key = JSON.stringify([kinds, counts]);
  if (key === renderedFilterKey) return;
  renderedFilterKey = key;
  const options: HTMLOptionElement[] = [el("option", { text: strings.filterAll })];
  (options[0] as HTMLOptionElement).value = "";
  const listed = new Set<string>();
  for (const { kind, count } of counts) {
    const option = el("option", { text: format(strings.filterOption, kind, formatCount(count)) });
    option.value = kind;
    option.dataset["kind"] = kind;
    options.push(option);
    listed.add(kind);
  }
  // A filtered kind with no receipts (e.g. after a replaced ledger) must stay selectable.
  for (const kind of kinds ?? []) {
    if (listed.has(kind)) continue;
    const option = el("option", { text: format(strings.filterOption, kind, 0) });
    option.value = kind;
    option.dataset["kind"] = kind;
    options.push(option);
  }
  kindFilter.replaceChildren(...options);
  kindFilter.value = kinds?.[0] ?? "";
}

function linkNode(link: ReceiptLink, testId: string): HTMLElement {
  if (link.ordinal === null || link.kind === null) {
    const span = el("span", { className: "link-unresolved mono", text: `${shortHash(link.eventSha256)} — ${strings.linkUnresolved}`, testId });
    span.dataset["unresolved"] = "true";
    span.dataset["eventSha256"] = link.eventSha256;
    span.title = link.eventSha256;
    return span;
  }
  const node = el("button", { className: "link-button receipt-link", testId }, [
    el("span", { className: "link-ordinal", text: `#${link.ordinal}` }),
    el("span", { className: "link-kind", text: link.kind }),
    el("span", { className: "link-hash mono", text: shortHash(link.eventSha256) }),
  ]);
  node.type = "button";
  node.dataset["ordinal"] = String(link.ordinal);
  node.dataset["kind"] = link.kind;
  node.dataset["eventSha256"] = link.eventSha256;
  node.title = link.eventSha256;
  node.setAttribute("aria-label", format(strings.linkLabel, link.ordinal, link.kind));
  return node;
}

const copyStatus = el("span", { className: "copy-status", testId: "copy-status" });
copyStatus.setAttribute("aria-live", "polite");
const copyButton = el("button", { className: "button secondary small", testId: "copy-canonical-json" }, [
  icon("copy"),
  el("span", { className: "label", text: strings.copy }),
]);
copyButton.type = "button";

/** A captured tool result's handle opens it in an editor; other handles are shown as text. */
function evidenceNode(handle: string): HTMLElement {
  if (!/^branch-result-[0-9a-f]{16}$/u.test(handle)) return el("span", { className: "mono", text: handle, testId: "nominated-evidence" });
  const button = el("button", { className: "link-button evidence-link mono", text: handle, testId: "nominated-evidence" });
  button.type = "button";
  button.dataset["branchResultId"] = handle;
  button.title = strings.openEvidence;
  return button;
}

/** Who wrote the batch (client and session) and the evidence handles its conclusion nominated. */
function provenanceNode(provenance: ReceiptDetail["provenance"]): HTMLElement {
  if (provenance === null) return el("p", { className: "muted", text: strings.detailWriterUnknown, testId: "written-by" });
  const actor = provenance.actor;
  const who = [actor.client ?? actor.kind, actor.session].filter((part): part is string => part !== null).join(" · ");
  const children: Node[] = [el("p", { className: "mono", text: `${actor.kind}: ${who}`, testId: "written-by" })];
  if (provenance.nominations.length > 0) {
    const list = el("ul", { className: "link-list" });
    for (const handle of provenance.nominations) list.appendChild(el("li", {}, [evidenceNode(handle)]));
    children.push(el("h4", { className: "section-title", text: strings.detailNominations }), list);
  }
  return el("div", {}, children);
}

/** A long value (hash or id) with its copy button; see copyableDefinition. */
function copyable(list: HTMLDListElement, label: string, value: string, testId: string): void {
  copyableDefinition(list, label, value, testId, format(strings.copyValue, label));
}

let renderedDetail: Model["detail"] | undefined;
let renderedDetailState = "";

function renderDetail(current: Model): void {
  const open = current.selected !== null;
  show(detailPane, open);
  if (!open) {
    renderedDetail = undefined;
    renderedDetailState = "";
    return;
  }
  const copied = entryCopyOutcome(current);
  copyStatus.textContent = copied === null ? "" : copied ? strings.copied : strings.copyFailed;
  const detail = current.detail;
  const stateKey = JSON.stringify([current.selected, current.detailPending !== null, current.detailError]);
  if (detail === renderedDetail && stateKey === renderedDetailState) return;
  renderedDetail = detail;
  renderedDetailState = stateKey;
  if (detail === null) {
    detailPane.removeAttribute("data-ordinal");
    detailPane.removeAttribute("data-kind");
    detailPane.dataset["eventSha256"] = current.selected ?? "";
    detailTitle.textContent = current.detailError === null ? strings.detailLoading : current.detailError.message;
    detailBody.replaceChildren();
    return;
  }
  const row = detail.receipt;
  // A new receipt starts at its top, not where the previous one was scrolled to.
  detailPane.scrollTop = 0;
  detailPane.dataset["ordinal"] = String(row.ordinal);
  detailPane.dataset["kind"] = row.kind;
  detailPane.dataset["eventSha256"] = row.eventSha256;
  detailTitle.textContent = format(strings.detailTitle, row.ordinal, row.kind);

  const facts = el("dl", { className: "detail-list" });
  copyable(facts, strings.detailEventId, row.eventId, "detail-event-id");
  copyable(facts, strings.detailWorkScopeId, row.workScopeId, "detail-work-scope-id");
  definition(facts, strings.detailOccurredAt, row.occurredAt, false);
  definition(facts, strings.detailScopeSequence, String(row.scopeSequence), false);
  definition(facts, strings.detailStoredIndex, String(row.storedIndex), false);
  copyable(facts, strings.detailEventSha256, row.eventSha256, "detail-event-sha256");
  copyable(facts, strings.detailReceiptSha256, row.receiptSha256, "detail-receipt-sha256");

  const summary = el("dl", { className: "detail-list summary" });
  const entries = Object.entries(row.summary);
  for (const [key, value] of entries) {
    summary.appendChild(el("dt", { className: "mono", text: key }));
    summary.appendChild(el("dd", { className: "mono", text: typeof value === "string" ? value : JSON.stringify(value) ?? "" }));
  }

  const refs = el("ul", { className: "link-list" });
  for (const link of detail.causalRefs) refs.appendChild(el("li", {}, [linkNode(link, "causal-ref")]));
  const previous = detail.previousScopeEvent;

  const json = el("pre", { className: "canonical-json mono", text: detail.canonicalJson, testId: "canonical-json" });
  // Focusable so keyboard users can scroll it and select its text.
  json.tabIndex = 0;
  json.setAttribute("aria-label", strings.detailCanonicalJson);

  detailBody.replaceChildren(
    facts,
    section(strings.detailCausalRefs, [
      detail.causalRefs.length > 0 ? refs : el("p", { className: "muted", text: strings.detailNoCausalRefs }),
    ]),
    section(strings.detailPreviousScopeEvent, [
      previous === null ? el("p", { className: "muted", text: strings.detailNoPreviousScopeEvent }) : linkNode(previous, "previous-scope-event"),
    ]),
    section(strings.detailWrittenBy, [provenanceNode(detail.provenance)]),
    section(strings.detailSummary, [entries.length > 0 ? summary : el("p", { className: "muted", text: strings.detailSummaryEmpty })]),
    section(strings.detailCanonicalJson, [
      el("p", { className: "muted hint", text: strings.detailCanonicalJsonHint }),
      el("div", { className: "copy-row" }, [copyButton, copyStatus]),
      json,
    ]),
  );
}

// Reviews tab ------------------------------------------------------------------------------------

const STATUS_ICONS = { supported: "pass", unsupported: "error", incomplete: "warning" } as const;

function statusText(status: GuardReceiptRow["status"]): string {
  return reviewStatusText(status, strings) ?? "";
}

function statusNode(status: GuardReceiptRow["status"]): HTMLElement {
  if (status === null) return el("span", { className: "muted", text: "—" });
  return el("span", { className: `status status-${status}` }, [icon(STATUS_ICONS[status]), el("span", { text: statusText(status) })]);
}

function reviewRow(row: GuardReceiptRow, selected: boolean): HTMLTableRowElement {
  const time = reviewTime(row.at);
  const review = el("td", { className: "col-review mono", text: shortReviewId(row.reviewId) });
  review.title = row.reviewId;
  const timeCell = el("td", { className: "col-time", text: time });
  timeCell.title = row.at;
  const tr = el("tr", { className: selected ? "receipt review selected" : "receipt review", testId: "review-row" }, [
    el("td", { className: "col-line", text: String(row.line) }),
    // In a narrow view the status, review and time columns fold into this cell: two lines per entry.
    el("td", { className: "col-kind" }, [
      el("span", { className: "kind-text", text: row.kind }),
      el("span", { className: "inline-status" }, [statusNode(row.status)]),
      el("span", { className: "inline-meta muted" }, [
        el("span", { className: "mono", text: shortReviewId(row.reviewId) }),
        el("span", { text: time }),
      ]),
    ]),
    review,
    el("td", { className: "col-status" }, [statusNode(row.status)]),
    timeCell,
  ]);
  tr.dataset["line"] = String(row.line);
  tr.dataset["kind"] = row.kind;
  tr.dataset["reviewId"] = row.reviewId;
  if (row.status !== null) tr.dataset["status"] = row.status;
  tr.dataset["lineSha256"] = row.lineSha256;
  tr.tabIndex = 0;
  tr.setAttribute("aria-controls", "review-detail");
  if (selected) tr.setAttribute("aria-current", "true");
  tr.setAttribute("aria-label", format(strings.reviewRowLabel, row.line, row.kind, row.reviewId, `${statusText(row.status)} ${time}`.trim()));
  return tr;
}

let renderedReviews: GuardReceiptsPage | null = null;
let renderedReviewSelected: string | null = null;

function renderReviewRows(page: GuardReceiptsPage | null, selected: string | null): void {
  if (page === renderedReviews && selected === renderedReviewSelected) return;
  const focused = document.activeElement instanceof HTMLTableRowElement ? document.activeElement.dataset["lineSha256"] : undefined;
  renderedReviews = page;
  renderedReviewSelected = selected;
  reviewsBody.replaceChildren(...(page?.entries ?? []).map((row) => reviewRow(row, row.lineSha256 === selected)));
  fitDigits(reviewsTable, "line", (page?.entries ?? []).map((row) => row.line));
  if (focused !== undefined) reviewsBody.querySelector<HTMLTableRowElement>(`tr.review[data-line-sha256="${CSS.escape(focused)}"]`)?.focus();
}

function reviewLink(row: GuardReceiptRow): HTMLElement {
  const node = el("button", { className: "link-button receipt-link review-link", testId: "review-related" }, [
    el("span", { className: "link-ordinal", text: `${strings.columnLine} ${row.line}` }),
    el("span", { className: "link-kind", text: row.kind }),
    el("span", { className: "link-hash mono", text: shortHash(row.lineSha256) }),
  ]);
  node.type = "button";
  node.dataset["line"] = String(row.line);
  node.dataset["kind"] = row.kind;
  node.dataset["lineSha256"] = row.lineSha256;
  node.title = row.lineSha256;
  node.setAttribute("aria-label", format(strings.reviewLinkLabel, row.line, row.kind));
  return node;
}

function copyButtonFor(testId: string): HTMLButtonElement {
  return createCopyButton(strings.copy, testId);
}

const reviewCopyStatus = el("span", { className: "copy-status", testId: "review-copy-status" });
reviewCopyStatus.setAttribute("aria-live", "polite");
const copyReviewJson = copyButtonFor("copy-review-json");
const copyReviewLine = copyButtonFor("copy-review-line");

let renderedReviewDetail: Model["reviews"]["detail"] | undefined;
let renderedReviewState = "";

function renderReviewDetail(current: Model): void {
  const reviews = current.reviews;
  const open = current.tab === "reviews" && reviews.selected !== null;
  show(reviewPane, open);
  if (!open) {
    renderedReviewDetail = undefined;
    renderedReviewState = "";
    return;
  }
  const copied = entryCopyOutcome(current);
  reviewCopyStatus.textContent = copied === null ? "" : copied ? strings.copied : strings.copyFailed;
  const detail = reviews.detail;
  const stateKey = JSON.stringify([reviews.selected, reviews.detailPending !== null, reviews.detailError]);
  if (detail === renderedReviewDetail && stateKey === renderedReviewState) return;
  renderedReviewDetail = detail;
  renderedReviewState = stateKey;
  if (detail === null) {
    reviewPane.removeAttribute("data-line");
    reviewPane.removeAttribute("data-kind");
    reviewPane.dataset["lineSha256"] = reviews.selected ?? "";
    reviewTitle.textContent = reviews.detailError === null ? strings.reviewDetailLoading : reviews.detailError.message;
    reviewBody.replaceChildren();
    return;
  }
  const row = detail.receipt;
  reviewPane.scrollTop = 0;
  reviewPane.dataset["line"] = String(row.line);
  reviewPane.dataset["kind"] = row.kind;
  reviewPane.dataset["lineSha256"] = row.lineSha256;
  reviewTitle.textContent = format(strings.reviewDetailTitle, row.line, row.kind);

  const facts = el("dl", { className: "detail-list" });
  copyable(facts, strings.detailReview, row.reviewId, "review-id");
  if (row.workScopeId !== null) copyable(facts, strings.detailWorkScopeId, row.workScopeId, "review-work-scope-id");
  if (row.status !== null) {
    facts.appendChild(el("dt", { text: strings.detailStatus }));
    const dd = el("dd", { testId: "review-status" }, [statusNode(row.status)]);
    facts.appendChild(dd);
  }
  definition(facts, strings.detailAt, row.at, false);
  definition(facts, strings.detailStream, detail.stream, true);
  definition(facts, strings.detailLine, String(row.line), false);
  copyable(facts, strings.detailLineSha256, row.lineSha256, "review-line-sha256");
  if (detail.previousLineSha256 !== null) copyable(facts, strings.detailPreviousLineSha256, detail.previousLineSha256, "review-previous-line-sha256");
  else definition(facts, strings.detailPreviousLineSha256, strings.detailNoPreviousLine, false, "review-previous-line-sha256");

  const related = detail.related;
  reviewBody.replaceChildren(
    facts,
    section(strings.detailRelated, [
      related !== null ? reviewLink(related) : el("p", { className: "muted", text: row.kind === "review-opened" ? strings.detailNoRelated : "—" }),
    ]),
    section(strings.detailEntryJson, [
      el("p", { className: "muted hint", text: strings.detailEntryJsonHint }),
      el("div", { className: "copy-row" }, [copyReviewJson, reviewCopyStatus]),
      readOnlyJson(detail.canonicalJson, strings.detailEntryJson, "review-canonical-json"),
    ]),
    section(strings.detailLineHashInput, [
      el("p", { className: "muted hint", text: strings.detailLineHashInputHint }),
      el("div", { className: "copy-row" }, [copyReviewLine]),
      readOnlyJson(detail.lineHashInput, strings.detailLineHashInput, "review-line-hash-input"),
    ]),
  );
}

let renderedTab: ReceiptsTab | null = null;

function renderTabs(current: Model): void {
  if (renderedTab === current.tab) return;
  renderedTab = current.tab;
  for (const node of tabs) {
    const active = node.dataset["tab"] === current.tab;
    node.setAttribute("aria-selected", String(active));
    node.classList.toggle("active", active);
    node.tabIndex = active ? 0 : -1;
  }
  // Reviews and Observer entries are paged newest first.
  const newestFirst = current.tab !== "receipts";
  setLabel(firstButton, newestFirst ? strings.reviewsNewest : strings.first);
  setLabel(prevButton, newestFirst ? strings.reviewsNewer : strings.previous);
  setLabel(nextButton, newestFirst ? strings.reviewsOlder : strings.next);
}

/** The Reviews tab's share of the header: message, empty state, page info, rows and detail. */
function renderReviews(current: Model, text: string | null, workspaceOpen: boolean): void {
  const reviews = current.reviews;
  const page = workspaceOpen ? reviews.page : null;
  const hasRows = page !== null && page.entries.length > 0;
  emptyState.textContent = strings.reviewsEmpty;
  show(emptyState, page !== null && !hasRows && reviews.error === null && text === null);
  show(reviewsScroll, hasRows);
  show(navGroup, hasRows || reviews.cursor !== null);
  pageInfo.textContent = hasRows ? format(strings.reviewsPageInfo, formatCount(page.entries.length), formatCount(page.entryCount)) : "";
  document.body.classList.toggle("busy", reviews.pending !== null);
  renderReviewRows(hasRows ? page : null, reviews.selected);
}

function render(current: Model): void {
  renderContent(current);
  renderSplit(current);
  renderCopyFeedback(current);
  keepSelectionInView(current);
}

let laidOut = "";

/**
 * When the split appears, moves or goes, the list changes height under its selected row: bring
 * that row back into view (only then — a reader who scrolled away from it is left alone).
 */
function keepSelectionInView(current: Model): void {
  const layout = JSON.stringify([current.tab, current.detailShare, app.classList.contains("split")]);
  if (layout === laidOut) return;
  laidOut = layout;
  document.querySelector<HTMLTableRowElement>(".table-scroll:not([hidden]) tr.selected")?.scrollIntoView({ block: "nearest" });
}

/** Lays out the shown tab's list and open detail by the share the sash set. */
function renderSplit(current: Model): void {
  let split = false;
  for (const { list, pane, sash } of splits) {
    const both = !list.hidden && !pane.hidden;
    show(sash.element, both);
    if (both) split = true;
    sash.render(current.detailShare);
  }
  app.classList.toggle("split", split);
  // Custom properties set through the CSSOM, not a style attribute (the CSP allows none). Grow
  // factors of 0…100 that add up to 100 share the height below the header exactly.
  const detail = Math.round(current.detailShare * 1000) / 10;
  app.style.setProperty("--detail-grow", String(detail));
  app.style.setProperty("--list-grow", String(100 - detail));
}

/** The outcome of the last copy of a whole entry (canonical JSON, hashed line); null after a value's copy. */
function entryCopyOutcome(current: Model): boolean | null {
  return current.copyTarget === null ? current.copied : null;
}

/** The copy buttons beside values: a check (or an error) on the one the last copy came from. */
function renderCopyFeedback(current: Model): void {
  let announcement = "";
  for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>("button.copy-value"))) {
    const label = button.dataset["valueLabel"] ?? "";
    const outcome = current.copyTarget !== null && button.dataset["copyKey"] === current.copyTarget ? current.copied : null;
    const glyph = button.querySelector(".codicon");
    if (glyph !== null) glyph.className = `codicon codicon-${outcome === true ? "check" : outcome === false ? "error" : "copy"}`;
    if (outcome === null) {
      delete button.dataset["copied"];
      button.title = format(strings.copyValue, label);
    } else {
      button.dataset["copied"] = String(outcome);
      button.title = outcome ? format(strings.copiedValue, label) : strings.copyFailed;
      announcement = button.title;
    }
  }
  if (copyAnnouncer.textContent !== announcement) copyAnnouncer.textContent = announcement;
}

function renderContent(current: Model): void {
  const nav = navigation(current);
  firstButton.disabled = !nav.first;
  prevButton.disabled = !nav.previous;
  nextButton.disabled = !nav.next;
  const workspaceOpen = current.workspace !== null && current.workspace !== "none";
  verifyButton.disabled = current.verifying || current.backend !== "ready" || !workspaceOpen;
  setLabel(verifyButton, current.verifying ? strings.verifying : strings.verify);

  renderTabs(current);
  const onReviews = current.tab === "reviews";
  const onObserver = current.tab === "observer";
  const onReceipts = current.tab === "receipts";
  show(staleBanner, onReceipts && current.stale && current.page !== null);
  show(filterClearedNote, onReceipts && current.filterCleared);
  show(untrustedNote, current.workspace === "untrusted");
  show(blockedNote, current.blocked && workspaceOpen);
  const error = onReviews ? current.reviews.error : onObserver ? current.observer.error : current.error;
  errorLine.textContent = error?.message ?? "";
  show(errorLine, error !== null);

  if (current.verifyResult !== null) {
    verifyStatus.textContent = current.verifyResult.message;
    verifyStatus.className = current.verifyResult.ok ? "verify-status ok" : "verify-status failed";
    show(verifyStatus, true);
  } else {
    show(verifyStatus, false);
  }

  let text: string | null = null;
  if (current.workspace === "none") {
    text = strings.noFolder;
  } else if (current.backend === "stopped") {
    text = strings.stopped;
  } else if ((onReviews ? current.reviews.page : onObserver ? current.observer.page : current.page) === null) {
    const pending = onReviews ? current.reviews.pending : onObserver ? current.observer.pending : current.pending;
    if (current.backend === "ready" && pending !== null) text = onReviews ? strings.reviewsLoading : onObserver ? strings.observerLoading : strings.loading;
    else if (current.backend !== "ready" || current.workspace === null) text = strings.waiting;
  }
  message.textContent = text ?? "";
  show(message, text !== null);

  show(toolbar, workspaceOpen);
  kindFilter.disabled = current.backend !== "ready";
  const observerHeader = observerView.render(current, text, workspaceOpen);
  if (observerHeader !== null) {
    show(filterGroup, false);
    show(tableScroll, false);
    show(detailPane, false);
    show(reviewsScroll, false);
    renderReviewDetail(current);
    emptyState.textContent = observerHeader.empty ?? "";
    show(emptyState, observerHeader.empty !== null);
    show(navGroup, observerHeader.navigation);
    pageInfo.textContent = observerHeader.pageInfo;
    document.body.classList.toggle("busy", observerHeader.busy);
    return;
  }
  if (onReviews) {
    show(filterGroup, false);
    show(tableScroll, false);
    show(detailPane, false);
    renderReviews(current, text, workspaceOpen);
    renderReviewDetail(current);
    return;
  }
  show(reviewsScroll, false);
  renderReviewDetail(current);
  const page = workspaceOpen ? current.page : null;
  const hasRows = page !== null && page.receipts.length > 0;
  const filtered = page !== null && page.kinds !== null;
  emptyState.textContent = filtered ? strings.emptyFiltered : current.workspace === "untrusted" ? strings.emptyUntrusted : strings.empty;
  show(emptyState, page !== null && !hasRows && current.error === null && text === null && !current.blocked);
  show(filterGroup, page !== null && (page.receiptCount > 0 || filtered));
  renderFilter(current);
  show(tableScroll, hasRows);
  show(navGroup, hasRows || current.cursor !== null);
  pageInfo.textContent = !hasRows
    ? ""
    : filtered
      ? format(strings.pageInfoFiltered, formatCount(page.startPosition + 1), formatCount(page.startPosition + page.receipts.length), formatCount(page.matchingCount), formatCount(page.receiptCount))
      : format(strings.pageInfo, formatCount(page.startPosition + 1), formatCount(page.startPosition + page.receipts.length), formatCount(page.receiptCount));
  document.body.classList.toggle("busy", current.pending !== null);
  renderRows(hasRows ? page : null, current.selected);
  renderDetail(current);
}

// ---------------------------------------------------------------------------------------------
// Events

function post(messageToHost: ReceiptsToHost): void {
  vscode.postMessage(ReceiptsToHost.parse(messageToHost));
}

let persisted = JSON.stringify(persistedState(model));

function dispatch(event: ModelEvent): void {
  const result = update(model, event);
  model = result.model;
  const state = persistedState(model);
  const serialized = JSON.stringify(state);
  if (serialized !== persisted) {
    persisted = serialized;
    vscode.setState(state);
  }
  for (const outgoing of result.post) post(outgoing);
  render(model);
  revealSelected();
}

function act(action: UiAction): void {
  dispatch({ source: "ui", action });
}

firstButton.addEventListener("click", () => act({ type: "first" }));
prevButton.addEventListener("click", () => act({ type: "previous" }));
nextButton.addEventListener("click", () => act({ type: "next" }));
verifyButton.addEventListener("click", () => act({ type: "verify" }));
showLatestButton.addEventListener("click", () => act({ type: "showLatest" }));
detailClose.addEventListener("click", () => {
  const selected = model.selected;
  act({ type: "closeDetail" });
  // Return focus to the row the pane belonged to.
  if (selected !== null) tbody.querySelector<HTMLTableRowElement>(`tr.receipt[data-event-sha256="${CSS.escape(selected)}"]`)?.focus();
});
copyButton.addEventListener("click", () => act({ type: "copy" }));
detailOpenEditor.addEventListener("click", () => act({ type: "openInEditor" }));
reviewOpenEditor.addEventListener("click", () => act({ type: "openInEditor" }));
// Copy buttons beside values, in whichever detail shows them.
app.addEventListener("click", (event) => {
  const target = event.target instanceof Element ? event.target.closest("button.copy-value") : null;
  if (!(target instanceof HTMLButtonElement)) return;
  const key = target.dataset["copyKey"];
  const text = target.dataset["copyText"];
  if (key !== undefined && text !== undefined) act({ type: "copyValue", key, text });
});

kindFilter.addEventListener("change", () => {
  const kind = ReceiptKind.safeParse(kindFilter.value);
  act({ type: "filter", kinds: kind.success ? [kind.data] : null });
});

detailBody.addEventListener("click", (event) => {
  const evidence = event.target instanceof Element ? event.target.closest("button.evidence-link") : null;
  const branchResultId = evidence instanceof HTMLButtonElement ? evidence.dataset["branchResultId"] : undefined;
  if (branchResultId !== undefined) {
    post({ type: "openEvidence", branchResultId });
    return;
  }
  const target = event.target instanceof Element ? event.target.closest("button.receipt-link") : null;
  if (!(target instanceof HTMLButtonElement)) return;
  const eventSha256 = target.dataset["eventSha256"];
  if (eventSha256 !== undefined) act({ type: "jump", eventSha256 });
});

function rowFromEvent(event: Event): HTMLTableRowElement | null {
  const target = event.target instanceof Element ? event.target : null;
  const row = target?.closest("tr.receipt");
  return row instanceof HTMLTableRowElement ? row : null;
}

function select(row: HTMLTableRowElement): void {
  const eventSha256 = row.dataset["eventSha256"];
  if (eventSha256 !== undefined) act({ type: "select", eventSha256 });
}

tbody.addEventListener("click", (event) => {
  const row = rowFromEvent(event);
  if (row !== null) select(row);
});
tbody.addEventListener("keydown", (event) => {
  const row = rowFromEvent(event);
  if (row === null) return;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    select(row);
  } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    event.preventDefault();
    const rows = Array.from(tbody.querySelectorAll<HTMLTableRowElement>("tr.receipt"));
    const index = rows.indexOf(row) + (event.key === "ArrowDown" ? 1 : -1);
    rows[index]?.focus();
  }
});
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || event.target instanceof HTMLSelectElement) return;
  if (model.tab === "observer") {
    if (model.observer.selected === null) return;
    event.preventDefault();
    observerView.closeDetail();
    return;
  }
  if (model.tab === "reviews" ? model.reviews.selected !== null : model.selected !== null) {
    event.preventDefault();
    (model.tab === "reviews" ? reviewClose : detailClose).click();
  }
});

// Tabs: click, or arrow keys / Home / End (automatic activation, focus follows).
function activateTab(target: ReceiptsTab): void {
  act({ type: "tab", tab: target });
  tabs.find((node) => node.dataset["tab"] === target)?.focus();
}
tabList.addEventListener("click", (event) => {
  const target = event.target instanceof Element ? event.target.closest("button.tab") : null;
  const parsed = ReceiptsTab.safeParse(target instanceof HTMLButtonElement ? target.dataset["tab"] : undefined);
  if (parsed.success) activateTab(parsed.data);
});
tabList.addEventListener("keydown", (event) => {
  const index = tabs.findIndex((node) => node.dataset["tab"] === model.tab);
  const last = tabs.length - 1;
  const next =
    event.key === "ArrowRight" ? (index + 1) % tabs.length
    : event.key === "ArrowLeft" ? (index + last) % tabs.length
    : event.key === "Home" ? 0
    : event.key === "End" ? last
    : null;
  if (next === null) return;
  event.preventDefault();
  const parsed = ReceiptsTab.safeParse(tabs[next]?.dataset["tab"]);
  if (parsed.success) activateTab(parsed.data);
});

function reviewRowFromEvent(event: Event): HTMLTableRowElement | null {
  const target = event.target instanceof Element ? event.target : null;
  const row = target?.closest("tr.review");
  return row instanceof HTMLTableRowElement ? row : null;
}
function selectReviewRow(row: HTMLTableRowElement): void {
  const lineSha256 = row.dataset["lineSha256"];
  if (lineSha256 !== undefined) act({ type: "selectReview", lineSha256 });
}
reviewsBody.addEventListener("click", (event) => {
  const row = reviewRowFromEvent(event);
  if (row !== null) selectReviewRow(row);
});
reviewsBody.addEventListener("keydown", (event) => {
  const row = reviewRowFromEvent(event);
  if (row === null) return;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    selectReviewRow(row);
  } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    event.preventDefault();
    const rows = Array.from(reviewsBody.querySelectorAll<HTMLTableRowElement>("tr.review"));
    rows[rows.indexOf(row) + (event.key === "ArrowDown" ? 1 : -1)]?.focus();
  }
});
reviewClose.addEventListener("click", () => {
  const selected = model.reviews.selected;
  act({ type: "closeDetail" });
  if (selected !== null) reviewsBody.querySelector<HTMLTableRowElement>(`tr.review[data-line-sha256="${CSS.escape(selected)}"]`)?.focus();
});
copyReviewJson.addEventListener("click", () => act({ type: "copyReview", part: "entry" }));
copyReviewLine.addEventListener("click", () => act({ type: "copyReview", part: "line" }));
reviewBody.addEventListener("click", (event) => {
  const target = event.target instanceof Element ? event.target.closest("button.review-link") : null;
  const lineSha256 = target instanceof HTMLButtonElement ? target.dataset["lineSha256"] : undefined;
  if (lineSha256 === undefined) return;
  act({ type: "selectReview", lineSha256 });
  // The pane is rebuilt: keep focus inside it, on its row when the page shows it.
  const row = reviewsBody.querySelector<HTMLTableRowElement>(`tr.review[data-line-sha256="${CSS.escape(lineSha256)}"]`);
  if (row !== null) row.focus();
  else reviewPane.focus();
});

// After a jump the target row arrives with the next page: bring it into view once.
let scrolledTo: string | null = null;
function revealSelected(): void {
  const selected = model.selected;
  if (selected === null || selected === scrolledTo) return;
  const row = tbody.querySelector<HTMLTableRowElement>(`tr.receipt[data-event-sha256="${CSS.escape(selected)}"]`);
  if (row === null) return;
  scrolledTo = selected;
  // A jump re-renders the pane and drops the focused link: hand focus to the target row.
  const active = document.activeElement;
  if (active === null || active === document.body || !active.isConnected) row.focus();
  else row.scrollIntoView({ block: "nearest" });
}

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  const parsed = HostToReceipts.safeParse(event.data);
  if (!parsed.success) {
    console.warn("Docket receipts: ignored an invalid host message", parsed.error.issues);
    return;
  }
  dispatch({ source: "host", message: parsed.data });
});

render(model);
post({ type: "ready" });
