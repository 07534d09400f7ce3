// The Observer tab's DOM: the customType / kind filter, the table of `observer/v1` lines and the
// detail pane of one line. It renders ./observerModel.ts state and turns clicks and keys into
// actions; ./main.ts owns the shared header (tabs, paging buttons, page info, messages).
//
// Stable DOM hooks for end-to-end tests:
//   [data-testid="tab-observer"]              the tab (in ./main.ts)
//   [data-testid="observer-type-filter"]      <select>: "" = every customType, else one (options carry data-custom-type)
//   [data-testid="observer-kind-filter"]      <select>: "" = every kind, else one `data.kind` (options carry data-kind)
//   #observer-table                           the entries, newest first
//   [data-testid="observer-row"]              one row per line: data-line, data-custom-type, data-kind (when
//                                             the entry has one), data-id, data-line-sha256; aria-current="true"
//                                             when selected (click or Enter/Space selects; Escape closes the detail)
//   [data-testid="observer-detail"]           the detail pane: data-line, data-custom-type, data-line-sha256
//     [data-testid="observer-canonical-json"]     <pre> with the entry's canonical JSON
//     [data-testid="observer-line-hash-input"]    <pre> with the exact text the line hash covers
//     [data-testid="observer-line-sha256"], [data-testid="observer-previous-line-sha256"]   full hashes
//     [data-testid="copy-observer-json"], [data-testid="copy-observer-line"]   copy buttons
//     [data-testid="observer-detail-close"]       closes it; [data-testid="observer-open-editor"] opens it in an editor
import { OBSERVER_RECEIPT_CUSTOM_TYPES, ObserverReceiptCustomType, type ObserverReceiptRow, type ObserverReceiptsPage } from "../../server/protocol/messages";
import type { ReceiptsStrings } from "../../server/protocol/webviewMessages";
import { copyableDefinition, createCopyButton, definition, el, fitDigits, formatCount, icon, iconButton, readOnlyJson, section, show } from "./dom";
import { format, reviewTime, type Model, type UiAction } from "./model";
import { observerKindChoices, shortCustomType, shortObserverId, shownObserverFilter } from "./observerModel";

/** What the shared header shows while the Observer tab is up. */
export interface ObserverHeader {
  readonly pageInfo: string;
  /** The empty-state text, or null when it stays hidden. */
  readonly empty: string | null;
  readonly navigation: boolean;
  readonly busy: boolean;
}

export interface ObserverView {
  /** Goes into the header, under the toolbar. */
  readonly filterGroup: HTMLElement;
  /** The table's scroll container (the tab's panel). */
  readonly panel: HTMLElement;
  readonly pane: HTMLElement;
  /** Renders the tab, or hides it when another tab is shown (then returns null). */
  render(current: Model, message: string | null, workspaceOpen: boolean): ObserverHeader | null;
  /** Escape: closes the open detail and hands focus back to its row. */
  closeDetail(): void;
}

export function createObserverView(strings: ReceiptsStrings, act: (action: UiAction) => void, current: () => Model): ObserverView {
  // Filter -------------------------------------------------------------------------------------
  const typeFilter = el("select", { id: "observer-type-filter", className: "kind-filter", testId: "observer-type-filter" });
  const typeLabel = el("label", { className: "filter-label", text: strings.observerTypeLabel });
  typeLabel.htmlFor = typeFilter.id;
  const kindFilter = el("select", { id: "observer-kind-filter", className: "kind-filter", testId: "observer-kind-filter" });
  const kindLabel = el("label", { className: "filter-label", text: strings.filterLabel });
  kindLabel.htmlFor = kindFilter.id;
  const kindGroup = el("span", { className: "filter-part" }, [kindLabel, kindFilter]);
  const filterGroup = el("div", { className: "filter observer-filter" }, [icon("filter"), el("span", { className: "filter-part" }, [typeLabel, typeFilter]), kindGroup]);

  // Table --------------------------------------------------------------------------------------
  const body = el("tbody");
  const headerRow = el("tr", {}, [
    el("th", { className: "col-line", text: strings.columnLine }),
    el("th", { className: "col-type", text: strings.columnEntryType }),
    el("th", { className: "col-kind", text: strings.columnKind }),
    el("th", { className: "col-episode", text: strings.columnEpisode }),
    el("th", { className: "col-id", text: strings.columnId }),
    el("th", { className: "col-time", text: strings.columnTime }),
  ]);
  for (const cell of Array.from(headerRow.children)) cell.setAttribute("scope", "col");
  const table = el("table", { id: "observer-table" }, [el("caption", { className: "visually-hidden", text: strings.observerCaption }), el("thead", {}, [headerRow]), body]);
  const panel = el("div", { id: "observer-scroll", className: "table-scroll" }, [table]);
  panel.setAttribute("role", "tabpanel");
  panel.setAttribute("aria-labelledby", "tab-observer");

  // Detail pane --------------------------------------------------------------------------------
  const title = el("h2", { id: "observer-detail-title", className: "detail-title" });
  const close = iconButton(strings.detailClose, "close", "observer-detail-close");
  const openEditor = iconButton(strings.openInEditor, "go-to-file", "observer-open-editor");
  const detailBody = el("div", { className: "detail-body" });
  const pane = el("section", { id: "observer-detail", className: "detail-pane", testId: "observer-detail" }, [el("div", { className: "detail-header" }, [title, openEditor, close]), detailBody]);
  pane.setAttribute("aria-labelledby", title.id);
  pane.tabIndex = -1;
  const copyStatus = el("span", { className: "copy-status", testId: "observer-copy-status" });
  copyStatus.setAttribute("aria-live", "polite");
  const copyJson = createCopyButton(strings.copy, "copy-observer-json");
  const copyLine = createCopyButton(strings.copy, "copy-observer-line");

  // Rendering ----------------------------------------------------------------------------------
  function row(entry: ObserverReceiptRow, selected: boolean): HTMLTableRowElement {
    const time = entry.at === null ? "" : reviewTime(entry.at.value);
    const id = entry.id === null ? "" : shortObserverId(entry.id.value);
    const type = el("td", { className: "col-type", text: shortCustomType(entry.customType) });
    type.title = entry.customType;
    const episode = el("td", { className: "col-episode mono", text: entry.episodeId ?? "" });
    if (entry.episodeId !== null) episode.title = entry.episodeId;
    const idCell = el("td", { className: "col-id mono", text: id });
    if (entry.id !== null) idCell.title = `${entry.id.field}: ${entry.id.value}`;
    const timeCell = el("td", { className: "col-time", text: time });
    if (entry.at !== null) timeCell.title = `${entry.at.field}: ${entry.at.value}`;
    const tr = el("tr", { className: selected ? "receipt observer-entry selected" : "receipt observer-entry", testId: "observer-row" }, [
      el("td", { className: "col-line", text: String(entry.line) }),
      type,
      // In a narrow view the type, id and time columns fold into this cell: two lines per entry.
      el("td", { className: "col-kind" }, [
        el("span", { className: "kind-text", text: entry.kind ?? "—" }),
        el("span", { className: "inline-meta muted" }, [
          el("span", { text: shortCustomType(entry.customType) }),
          el("span", { className: "mono", text: id }),
          el("span", { text: time }),
        ]),
      ]),
      episode,
      idCell,
      timeCell,
    ]);
    tr.dataset["line"] = String(entry.line);
    tr.dataset["customType"] = entry.customType;
    if (entry.kind !== null) tr.dataset["kind"] = entry.kind;
    if (entry.id !== null) tr.dataset["id"] = entry.id.value;
    tr.dataset["lineSha256"] = entry.lineSha256;
    tr.tabIndex = 0;
    tr.setAttribute("aria-controls", pane.id);
    if (selected) tr.setAttribute("aria-current", "true");
    tr.setAttribute("aria-label", format(strings.observerRowLabel, entry.line, entry.customType, entry.kind ?? "", [entry.id?.value, time].filter((part) => part !== undefined && part !== "").join(" ")));
    return tr;
  }

  let renderedPage: ObserverReceiptsPage | null = null;
  let renderedSelected: string | null = null;
  function renderRows(page: ObserverReceiptsPage | null, selected: string | null): void {
    if (page === renderedPage && selected === renderedSelected) return;
    const focused = document.activeElement instanceof HTMLTableRowElement ? document.activeElement.dataset["lineSha256"] : undefined;
    renderedPage = page;
    renderedSelected = selected;
    body.replaceChildren(...(page?.entries ?? []).map((entry) => row(entry, entry.lineSha256 === selected)));
    fitDigits(table, "line", (page?.entries ?? []).map((entry) => entry.line));
    if (focused !== undefined) rowFor(focused)?.focus();
  }

  function option(value: string, text: string, data: "customType" | "kind"): HTMLOptionElement {
    const node = el("option", { text });
    node.value = value;
    if (value !== "") node.dataset[data] = value;
    return node;
  }

  let renderedFilterKey = "";
  function renderFilter(model: Model): void {
    const filter = shownObserverFilter(model.observer);
    const page = model.observer.page;
    const key = JSON.stringify([filter, page?.customTypeCounts ?? null, page?.kindCounts ?? null]);
    if (key === renderedFilterKey) return;
    renderedFilterKey = key;
    const typeCounts = new Map((page?.customTypeCounts ?? []).map((entry) => [entry.customType, entry.count]));
    // A filtered type with no entries stays selectable; the others are listed only when present.
    const types = OBSERVER_RECEIPT_CUSTOM_TYPES.filter((customType) => typeCounts.has(customType) || customType === filter.customType);
    typeFilter.replaceChildren(
      option("", strings.observerTypeAll, "customType"),
      ...types.map((customType) => option(customType, format(strings.filterOption, customType, formatCount(typeCounts.get(customType) ?? 0)), "customType")),
    );
    typeFilter.value = filter.customType ?? "";
    const kinds = [...observerKindChoices(page, filter.customType)];
    if (filter.kind !== null && !kinds.some((choice) => choice.kind === filter.kind)) kinds.push({ kind: filter.kind, count: 0 });
    kindFilter.replaceChildren(option("", strings.filterAll, "kind"), ...kinds.map(({ kind, count }) => option(kind, format(strings.filterOption, kind, formatCount(count)), "kind")));
    kindFilter.value = filter.kind ?? "";
    show(kindGroup, kinds.length > 0);
  }

  function copyable(list: HTMLDListElement, label: string, value: string, testId: string): void {
    copyableDefinition(list, label, value, testId, format(strings.copyValue, label));
  }

  let renderedDetail: Model["observer"]["detail"] | undefined;
  let renderedDetailState = "";
  function renderDetail(model: Model, open: boolean): void {
    show(pane, open);
    if (!open) {
      renderedDetail = undefined;
      renderedDetailState = "";
      return;
    }
    const observer = model.observer;
    // A copy button beside a value shows its own outcome.
    const copied = model.copyTarget === null ? model.copied : null;
    copyStatus.textContent = copied === null ? "" : copied ? strings.copied : strings.copyFailed;
    const detail = observer.detail;
    const stateKey = JSON.stringify([observer.selected, observer.detailPending !== null, observer.detailError]);
    if (detail === renderedDetail && stateKey === renderedDetailState) return;
    renderedDetail = detail;
    renderedDetailState = stateKey;
    if (detail === null) {
      pane.removeAttribute("data-line");
      pane.removeAttribute("data-custom-type");
      pane.dataset["lineSha256"] = observer.selected ?? "";
      title.textContent = observer.detailError === null ? strings.observerDetailLoading : observer.detailError.message;
      detailBody.replaceChildren();
      return;
    }
    const entry = detail.receipt;
    pane.scrollTop = 0;
    pane.dataset["line"] = String(entry.line);
    pane.dataset["customType"] = entry.customType;
    pane.dataset["lineSha256"] = entry.lineSha256;
    title.textContent = format(strings.reviewDetailTitle, entry.line, entry.kind ?? shortCustomType(entry.customType));

    const facts = el("dl", { className: "detail-list" });
    definition(facts, strings.detailEntryType, entry.customType, true, "observer-custom-type");
    if (entry.kind !== null) definition(facts, strings.columnKind, entry.kind, true, "observer-kind");
    if (entry.episodeId !== null) copyable(facts, strings.detailEpisode, entry.episodeId, "observer-episode");
    if (entry.id !== null) copyable(facts, format(strings.detailEntryId, entry.id.field), entry.id.value, "observer-id");
    if (entry.at !== null) definition(facts, format(strings.detailEntryTime, entry.at.field), entry.at.value, false, "observer-time");
    definition(facts, strings.detailStream, detail.stream, true);
    definition(facts, strings.detailLine, String(entry.line), false);
    copyable(facts, strings.detailLineSha256, entry.lineSha256, "observer-line-sha256");
    if (detail.previousLineSha256 !== null) copyable(facts, strings.detailPreviousLineSha256, detail.previousLineSha256, "observer-previous-line-sha256");
    else definition(facts, strings.detailPreviousLineSha256, strings.detailNoPreviousLine, false, "observer-previous-line-sha256");
    detailBody.replaceChildren(
      facts,
      section(strings.detailEntryJson, [
        el("p", { className: "muted hint", text: strings.detailEntryJsonHint }),
        el("div", { className: "copy-row" }, [copyJson, copyStatus]),
        readOnlyJson(detail.canonicalJson, strings.detailEntryJson, "observer-canonical-json"),
      ]),
      section(strings.detailLineHashInput, [
        el("p", { className: "muted hint", text: strings.detailLineHashInputHint }),
        el("div", { className: "copy-row" }, [copyLine]),
        readOnlyJson(detail.lineHashInput, strings.detailLineHashInput, "observer-line-hash-input"),
      ]),
    );
  }

  function render(model: Model, message: string | null, workspaceOpen: boolean): ObserverHeader | null {
    const shown = model.tab === "observer";
    const observer = model.observer;
    const page = shown && workspaceOpen ? observer.page : null;
    const hasRows = page !== null && page.entries.length > 0;
    const filtered = page !== null && (page.customType !== null || page.kind !== null);
    show(filterGroup, page !== null && (page.totalCount > 0 || filtered));
    show(panel, hasRows);
    renderDetail(model, shown && observer.selected !== null);
    if (!shown) return null;
    renderFilter(model);
    typeFilter.disabled = model.backend !== "ready";
    kindFilter.disabled = model.backend !== "ready";
    renderRows(hasRows ? page : null, observer.selected);
    return {
      pageInfo: !hasRows
        ? ""
        : filtered
          ? format(strings.observerPageInfoFiltered, formatCount(page.entries.length), formatCount(page.entryCount), formatCount(page.totalCount))
          : format(strings.observerPageInfo, formatCount(page.entries.length), formatCount(page.entryCount)),
      empty: page !== null && !hasRows && observer.error === null && message === null ? (filtered ? strings.observerEmptyFiltered : strings.observerEmpty) : null,
      navigation: hasRows || observer.cursor !== null,
      busy: observer.pending !== null,
    };
  }

  // Events -------------------------------------------------------------------------------------
  function rowFor(lineSha256: string): HTMLTableRowElement | null {
    return body.querySelector<HTMLTableRowElement>(`tr.observer-entry[data-line-sha256="${CSS.escape(lineSha256)}"]`);
  }
  function rowFromEvent(event: Event): HTMLTableRowElement | null {
    const found = event.target instanceof Element ? event.target.closest("tr.observer-entry") : null;
    return found instanceof HTMLTableRowElement ? found : null;
  }
  function select(target: HTMLTableRowElement): void {
    const lineSha256 = target.dataset["lineSha256"];
    if (lineSha256 !== undefined) act({ type: "selectObserver", lineSha256 });
  }
  body.addEventListener("click", (event) => {
    const target = rowFromEvent(event);
    if (target !== null) select(target);
  });
  body.addEventListener("keydown", (event) => {
    const target = rowFromEvent(event);
    if (target === null) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      select(target);
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const rows = Array.from(body.querySelectorAll<HTMLTableRowElement>("tr.observer-entry"));
      rows[rows.indexOf(target) + (event.key === "ArrowDown" ? 1 : -1)]?.focus();
    }
  });
  function closeDetail(): void {
    const selected = current().observer.selected;
    act({ type: "closeDetail" });
    if (selected !== null) rowFor(selected)?.focus();
  }
  close.addEventListener("click", closeDetail);
  openEditor.addEventListener("click", () => act({ type: "openInEditor" }));
  copyJson.addEventListener("click", () => act({ type: "copyObserver", part: "entry" }));
  copyLine.addEventListener("click", () => act({ type: "copyObserver", part: "line" }));
  typeFilter.addEventListener("change", () => {
    const customType = ObserverReceiptCustomType.safeParse(typeFilter.value);
    // Kinds belong to a type: another type starts with every kind.
    act({ type: "observerFilter", filter: { customType: customType.success ? customType.data : null, kind: null } });
  });
  kindFilter.addEventListener("change", () => {
    const filter = shownObserverFilter(current().observer);
    act({ type: "observerFilter", filter: { customType: filter.customType, kind: kindFilter.value === "" ? null : kindFilter.value } });
  });

  return { filterGroup, panel, pane, render, closeDetail };
}
