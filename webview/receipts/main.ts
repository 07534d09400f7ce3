// Receipts webview: renders the model from ./model.ts into the DOM. Every piece of data goes
// in through textContent or attributes; there is no innerHTML and no inline handler.
import "./zodSetup";
import type { ReceiptRow } from "../../server/protocol/messages";
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
  props: { id?: string; className?: string; text?: string } = {},
  children: readonly Node[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.id !== undefined) node.id = props.id;
  if (props.className !== undefined) node.className = props.className;
  if (props.text !== undefined) node.textContent = props.text;
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

function setLabel(node: HTMLButtonElement, label: string): void {
  const span = node.querySelector(".label");
  if (span !== null) span.textContent = label;
  node.title = label;
  node.setAttribute("aria-label", label);
}

// ---------------------------------------------------------------------------------------------
// Static skeleton

const firstButton = button("first", strings.first, "arrow-up", true);
const prevButton = button("prev", strings.previous, "chevron-left", true);
const nextButton = button("next", strings.next, "chevron-right", true);
const verifyButton = button("verify", strings.verify, "verified", false);
const pageInfo = el("span", { id: "page-info", className: "page-info" });
pageInfo.setAttribute("aria-live", "polite");

const showLatestButton = el("button", { id: "show-latest", className: "link-button", text: strings.showLatest });
showLatestButton.type = "button";
const staleBanner = el("div", { id: "stale-banner", className: "banner" }, [
  icon("info"),
  el("span", { className: "banner-text", text: strings.staleBanner }),
  showLatestButton,
]);
staleBanner.setAttribute("role", "status");

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
const verifyStatus = el("div", { id: "verify-status", className: "verify-status" });
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

const navGroup = el("div", { className: "nav" }, [firstButton, prevButton, nextButton]);
const toolbar = el("div", { className: "toolbar" }, [navGroup, pageInfo, verifyButton]);
toolbar.setAttribute("role", "toolbar");

document.body.appendChild(
  el("main", { id: "app" }, [toolbar, staleBanner, blockedNote, untrustedNote, errorLine, verifyStatus, message, emptyState, table]),
);

// ---------------------------------------------------------------------------------------------
// Rendering

function detailRow(row: ReceiptRow): HTMLTableRowElement {
  const list = el("dl", { className: "detail-list" });
  const add = (label: string, value: string, mono: boolean): void => {
    list.appendChild(el("dt", { text: label }));
    list.appendChild(el("dd", { className: mono ? "mono" : "", text: value }));
  };
  add(strings.detailEventId, row.eventId, true);
  add(strings.detailWorkScopeId, row.workScopeId, true);
  add(strings.detailOccurredAt, row.occurredAt, false);
  add(strings.detailScopeSequence, String(row.scopeSequence), false);
  add(strings.detailStoredIndex, String(row.storedIndex), false);
  add(strings.detailEventSha256, row.eventSha256, true);
  add(strings.detailReceiptSha256, row.receiptSha256, true);

  const summary = el("dl", { className: "detail-list summary" });
  const entries = Object.entries(row.summary);
  for (const [key, value] of entries) {
    summary.appendChild(el("dt", { className: "mono", text: key }));
    summary.appendChild(
      el("dd", { className: "mono", text: typeof value === "string" ? value : JSON.stringify(value) ?? "" }),
    );
  }
  const summaryBlock = el("div", { className: "summary-block" }, [
    el("div", { className: "summary-title", text: strings.detailSummary }),
    entries.length > 0 ? summary : el("p", { className: "muted", text: strings.detailSummaryEmpty }),
  ]);

  const cell = el("td", {}, [list, summaryBlock]);
  cell.colSpan = 4;
  const tr = el("tr", { className: "detail" }, [cell]);
  tr.id = `detail-${row.ordinal}`;
  tr.dataset["detailFor"] = String(row.ordinal);
  return tr;
}

function receiptRow(row: ReceiptRow, expanded: boolean): HTMLTableRowElement {
  const hash = el("td", { className: "col-hash mono", text: shortHash(row.eventSha256) });
  hash.title = row.eventSha256;
  const tr = el("tr", { className: expanded ? "receipt expanded" : "receipt" }, [
    el("td", { className: "col-ordinal", text: String(row.ordinal) }),
    el("td", { className: "col-kind", text: row.kind }),
    el("td", { className: "col-sequence", text: String(row.scopeSequence) }),
    hash,
  ]);
  tr.dataset["ordinal"] = String(row.ordinal);
  tr.dataset["kind"] = row.kind;
  tr.tabIndex = 0;
  tr.setAttribute("aria-expanded", String(expanded));
  tr.setAttribute("aria-label", format(strings.rowLabel, row.ordinal, row.kind, row.scopeSequence));
  if (expanded) tr.setAttribute("aria-controls", `detail-${row.ordinal}`);
  return tr;
}

let renderedPage: Model["page"] = null;
let renderedExpanded: Model["expanded"] = [];

function renderRows(current: Model): void {
  if (current.page === renderedPage && current.expanded === renderedExpanded) return;
  const focused = document.activeElement instanceof HTMLTableRowElement ? document.activeElement.dataset["ordinal"] : undefined;
  renderedPage = current.page;
  renderedExpanded = current.expanded;
  const rows: HTMLTableRowElement[] = [];
  for (const row of current.page?.receipts ?? []) {
    const open = current.expanded.includes(row.ordinal);
    rows.push(receiptRow(row, open));
    if (open) rows.push(detailRow(row));
  }
  tbody.replaceChildren(...rows);
  if (focused !== undefined) {
    const again = tbody.querySelector<HTMLTableRowElement>(`tr.receipt[data-ordinal="${CSS.escape(focused)}"]`);
    again?.focus();
  }
}

function show(node: HTMLElement, visible: boolean): void {
  node.hidden = !visible;
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
  emptyState.textContent = current.workspace === "untrusted" ? strings.emptyUntrusted : strings.empty;
  show(emptyState, page !== null && !hasRows && current.error === null && text === null && !current.blocked);
  show(toolbar, workspaceOpen);
  show(table, hasRows);
  show(navGroup, hasRows || current.cursor !== null);
  pageInfo.textContent = hasRows ? format(strings.pageInfo, page.receipts.length, page.receiptCount) : "";
  document.body.classList.toggle("busy", current.pending !== null);
  renderRows(hasRows ? current : { ...current, page: null });
}

// ---------------------------------------------------------------------------------------------
// Events

function post(messageToHost: ReceiptsToHost): void {
  vscode.postMessage(ReceiptsToHost.parse(messageToHost));
}

function dispatch(event: ModelEvent): void {
  const result = update(model, event);
  const before = model;
  model = result.model;
  if (before.cursor !== model.cursor) vscode.setState(persistedState(model));
  for (const outgoing of result.post) post(outgoing);
  render(model);
}

function act(action: UiAction): void {
  dispatch({ source: "ui", action });
}

firstButton.addEventListener("click", () => act({ type: "first" }));
prevButton.addEventListener("click", () => act({ type: "previous" }));
nextButton.addEventListener("click", () => act({ type: "next" }));
verifyButton.addEventListener("click", () => act({ type: "verify" }));
showLatestButton.addEventListener("click", () => act({ type: "showLatest" }));

function rowFromEvent(event: Event): HTMLTableRowElement | null {
  const target = event.target instanceof Element ? event.target : null;
  const row = target?.closest("tr.receipt");
  return row instanceof HTMLTableRowElement ? row : null;
}

function toggle(row: HTMLTableRowElement): void {
  const ordinal = Number(row.dataset["ordinal"]);
  if (Number.isInteger(ordinal)) act({ type: "toggle", ordinal });
}

tbody.addEventListener("click", (event) => {
  // Let users select text in an open detail without collapsing it.
  const row = rowFromEvent(event);
  if (row !== null) toggle(row);
});
tbody.addEventListener("keydown", (event) => {
  const row = rowFromEvent(event);
  if (row === null) return;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    toggle(row);
  } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    event.preventDefault();
    const rows = Array.from(tbody.querySelectorAll<HTMLTableRowElement>("tr.receipt"));
    const index = rows.indexOf(row) + (event.key === "ArrowDown" ? 1 : -1);
    rows[index]?.focus();
  }
});

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
