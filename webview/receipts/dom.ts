// DOM helpers the Receipts webview's tabs share. Every piece of data goes in through textContent
// or attributes; there is no innerHTML and no inline handler.
import { valueParts } from "./model";

export function el<K extends keyof HTMLElementTagNameMap>(
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

export function icon(name: string): HTMLElement {
  const span = el("span", { className: `codicon codicon-${name}` });
  span.setAttribute("aria-hidden", "true");
  return span;
}

export function iconButton(label: string, codicon: string, testId: string): HTMLButtonElement {
  const node = el("button", { className: "icon-button", testId }, [icon(codicon)]);
  node.type = "button";
  node.title = label;
  node.setAttribute("aria-label", label);
  return node;
}

export function show(node: HTMLElement, visible: boolean): void {
  node.hidden = !visible;
}

export function definition(list: HTMLDListElement, label: string, value: string, mono: boolean, testId?: string): void {
  list.appendChild(el("dt", { text: label }));
  const dd = el("dd", { className: mono ? "mono" : "", text: value });
  if (testId !== undefined) dd.dataset["testid"] = testId;
  list.appendChild(dd);
}

/**
 * A definition whose value is long (a hash or an id): one line, cut in the middle with "…" when it
 * does not fit (the full value is its tooltip and its text), and a copy button. `testId` names the
 * value's text (whose innerText is the whole value) and, prefixed with "copy-", its button; the
 * button carries the value and its key for the view's delegated click handler (class copy-value).
 */
export function copyableDefinition(list: HTMLDListElement, label: string, value: string, testId: string, copyLabel: string): void {
  list.appendChild(el("dt", { text: label }));
  const { head, tail } = valueParts(value);
  const text = el("span", { className: "cut-value mono", testId }, [
    el("span", { className: tail === "" ? "cut-head whole" : "cut-head", text: head }),
    el("span", { className: "cut-tail", text: tail }),
  ]);
  text.title = value;
  const button = iconButton(copyLabel, "copy", `copy-${testId}`);
  button.classList.add("copy-value");
  button.dataset["copyKey"] = testId;
  button.dataset["copyText"] = value;
  button.dataset["valueLabel"] = label;
  list.appendChild(el("dd", { className: "copyable" }, [text, button]));
}

export function section(title: string, children: readonly Node[]): HTMLElement {
  return el("div", { className: "detail-section" }, [el("h3", { className: "section-title", text: title }), ...children]);
}

export function createCopyButton(label: string, testId: string): HTMLButtonElement {
  const node = el("button", { className: "button secondary small", testId }, [icon("copy"), el("span", { className: "label", text: label })]);
  node.type = "button";
  return node;
}

export function readOnlyJson(text: string, label: string, testId: string): HTMLPreElement {
  const pre = el("pre", { className: "canonical-json mono", text, testId });
  // Focusable so keyboard users can scroll it and select its text.
  pre.tabIndex = 0;
  pre.setAttribute("aria-label", label);
  return pre;
}

/**
 * Widens a numeric column to its widest value on the page (`--<name>-digits`, read by the
 * column's CSS width), so an ordinal or line number of six digits is not cut to "10…".
 */
export function fitDigits(table: HTMLElement, name: string, values: readonly number[]): void {
  const widest = values.reduce((most, value) => Math.max(most, String(value).length), 1);
  table.style.setProperty(`--${name}-digits`, String(widest));
}

const counts = new Intl.NumberFormat(document.documentElement.lang || undefined);

/** A count as the user's display language writes it (100,000), for page and filter texts. */
export function formatCount(value: number): string {
  return counts.format(value);
}
