// DOM helpers the Receipts webview's tabs share. Every piece of data goes in through textContent
// or attributes; there is no innerHTML and no inline handler.

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
