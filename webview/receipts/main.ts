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
//   [data-testid="page-info"]             "Showing n of m receipts" text
//   [data-testid="nav-first"|"nav-previous"|"nav-next"]   paging buttons
//   [data-testid="verify-ledger"]         Verify Ledger button; result in [data-testid="verify-status"]
//                                         (class "ok" or "failed")
//   [data-testid="stale-banner"]          shown when the projection changed under the page;
//                                         its [data-testid="show-latest"] loads the newest page
//                                         (ids #stale-banner / #show-latest are kept too)
//   [data-testid="receipt-detail"]        the detail pane (hidden until a row is selected):
//                                         data-ordinal, data-kind, data-event-sha256 of the receipt
//     [data-testid="detail-close"]        closes it
//     [data-testid="detail-event-sha256"], [data-testid="detail-receipt-sha256"]   full hashes
//     [data-testid="canonical-json"]      <pre> with the exact hashed canonical JSON
//     [data-testid="copy-canonical-json"] copy button; [data-testid="copy-status"] its outcome
//     [data-testid="causal-ref"]          one per causal ref: a <button> (data-ordinal,
//                                         data-kind, data-event-sha256) that jumps to the receipt,
//                                         or a <span data-unresolved="true"> when it is not in
//                                         the receipts
//     [data-testid="previous-scope-event"] the same for the previous event of the scope
//   [data-testid="filter-cleared"]        note shown when a jump had to clear the kind filter
import "./zodSetup";
import { ReceiptKind, type ReceiptDetail, type ReceiptLink, type ReceiptRow, type ReceiptsPage } from "../../server/protocol/messages";
import {
  HostToReceipts,
  ReceiptsStrings,
  ReceiptsToHost,
  ReceiptsViewState,
} from "../../server/protocol/webviewMessages";
import {
  format,
  initialModel,
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

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { id?: string; className?: string; text?: string; testId?: string } = {},
  children: readonly Node[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.id !== undefined) node.id = props.id;
  if (props.className !== undefined) node.className = props.className;
  if (props.text !== undefined) node.textContent = props.text;
  if (props.testId !== undefined) node.dataset["testid"] = props.testId;
  for (const child of children) node.appendChild(child);
  return node;
}

function icon(name: string): HTMLElement {
  const span = el("span", { className: `codicon codicon-${name}` });
  span.setAttribute("aria-hidden", "true");
  return span;
}

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

function iconButton(label: string, codicon: string, testId: string): HTMLButtonElement {
  const node = el("button", { className: "icon-button", testId }, [icon(codicon)]);
  node.type = "button";
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

function show(node: HTMLElement, visible: boolean): void {
  node.hidden = !visible;
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
const detailBody = el("div", { className: "detail-body" });
const detailPane = el("section", { id: "receipt-detail", className: "detail-pane", testId: "receipt-detail" }, [
  el("div", { className: "detail-header" }, [detailTitle, detailClose]),
  detailBody,
]);
detailPane.setAttribute("aria-labelledby", "detail-title");
detailPane.tabIndex = -1;

const navGroup = el("div", { className: "nav" }, [firstButton, prevButton, nextButton]);
const toolbar = el("div", { className: "toolbar" }, [navGroup, pageInfo, verifyButton]);
toolbar.setAttribute("role", "toolbar");
const header = el("div", { className: "header" }, [
  toolbar,
  filterGroup,
  staleBanner,
  filterClearedNote,
  blockedNote,
  untrustedNote,
  errorLine,
  verifyStatus,
  message,
  emptyState,
]);

document.body.appendChild(el("main", { id: "app" }, [header, tableScroll, detailPane]));

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
  if (focused !== undefined) {
    const again = tbody.querySelector<HTMLTableRowElement>(`tr.receipt[data-ordinal="${CSS.escape(focused)}"]`);
    again?.focus();
  }
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
    const option = el("option", { text: format(strings.filterOption, kind, count) });
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

function definition(list: HTMLDListElement, label: string, value: string, mono: boolean, testId?: string): void {
  list.appendChild(el("dt", { text: label }));
  const dd = el("dd", { className: mono ? "mono" : "", text: value });
  if (testId !== undefined) dd.dataset["testid"] = testId;
  list.appendChild(dd);
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

function section(title: string, children: readonly Node[]): HTMLElement {
  return el("div", { className: "detail-section" }, [el("h3", { className: "section-title", text: title }), ...children]);
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
  copyStatus.textContent = current.copied === null ? "" : current.copied ? strings.copied : strings.copyFailed;
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
  definition(facts, strings.detailEventId, row.eventId, true);
  definition(facts, strings.detailWorkScopeId, row.workScopeId, true);
  definition(facts, strings.detailOccurredAt, row.occurredAt, false);
  definition(facts, strings.detailScopeSequence, String(row.scopeSequence), false);
  definition(facts, strings.detailStoredIndex, String(row.storedIndex), false);
  definition(facts, strings.detailEventSha256, row.eventSha256, true, "detail-event-sha256");
  definition(facts, strings.detailReceiptSha256, row.receiptSha256, true, "detail-receipt-sha256");

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

function render(current: Model): void {
  const nav = navigation(current);
  firstButton.disabled = !nav.first;
  prevButton.disabled = !nav.previous;
  nextButton.disabled = !nav.next;
  const workspaceOpen = current.workspace !== null && current.workspace !== "none";
  verifyButton.disabled = current.verifying || current.backend !== "ready" || !workspaceOpen;
  setLabel(verifyButton, current.verifying ? strings.verifying : strings.verify);

  show(staleBanner, current.stale && current.page !== null);
  show(filterClearedNote, current.filterCleared);
  show(untrustedNote, current.workspace === "untrusted");
  show(blockedNote, current.blocked && workspaceOpen);
  errorLine.textContent = current.error?.message ?? "";
  show(errorLine, current.error !== null);

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
  } else if (current.page === null) {
    if (current.backend === "ready" && current.pending !== null) text = strings.loading;
    else if (current.backend !== "ready" || current.workspace === null) text = strings.waiting;
  }
  message.textContent = text ?? "";
  show(message, text !== null);

  const page = workspaceOpen ? current.page : null;
  const hasRows = page !== null && page.receipts.length > 0;
  const filtered = page !== null && page.kinds !== null;
  emptyState.textContent = filtered ? strings.emptyFiltered : current.workspace === "untrusted" ? strings.emptyUntrusted : strings.empty;
  show(emptyState, page !== null && !hasRows && current.error === null && text === null && !current.blocked);
  show(toolbar, workspaceOpen);
  show(filterGroup, page !== null && (page.receiptCount > 0 || filtered));
  kindFilter.disabled = current.backend !== "ready";
  renderFilter(current);
  show(tableScroll, hasRows);
  show(navGroup, hasRows || current.cursor !== null);
  pageInfo.textContent = !hasRows
    ? ""
    : filtered
      ? format(strings.pageInfoFiltered, page.receipts.length, page.matchingCount, page.receiptCount)
      : format(strings.pageInfo, page.receipts.length, page.receiptCount);
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
  if (event.key === "Escape" && model.selected !== null && !(event.target instanceof HTMLSelectElement)) {
    event.preventDefault();
    detailClose.click();
  }
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
