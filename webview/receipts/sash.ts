// The sash between a tab's list and its open detail: a focusable separator (the window-splitter
// pattern) dragged with the pointer or moved with the arrow keys, Page Up / Page Down, Home and
// End; a double-click puts it back where it started. It only reports the detail's new share; the
// model keeps it and ./main.ts lays the split out from it.
import { DETAIL_SHARE } from "../../server/protocol/webviewMessages";
import { el } from "./dom";
import { sashValue, shareForKey, shareFromPointer } from "./detailSplit";

export interface SashLabels {
  /** Accessible name. */
  readonly name: string;
  /** Tooltip: how to move it. */
  readonly hint: string;
}

export interface Sash {
  readonly element: HTMLElement;
  /** Shows the sash's current position to assistive technology. */
  render(share: number): void;
}

/**
 * A sash between `list` and `pane`. `share` reads the current share, `resize` reports a new one.
 * `testId` is the sash's DOM hook.
 */
export function createSash(
  labels: SashLabels,
  testId: string,
  list: HTMLElement,
  pane: HTMLElement,
  share: () => number,
  resize: (share: number) => void,
): Sash {
  const element = el("div", { className: "sash", testId });
  element.tabIndex = 0;
  element.title = labels.hint;
  element.setAttribute("role", "separator");
  element.setAttribute("aria-orientation", "horizontal");
  element.setAttribute("aria-label", labels.name);
  element.setAttribute("aria-controls", list.id);

  let dragging: number | null = null;
  /** Where on the sash the pointer took hold (its distance above the detail's top), so the sash moves with it exactly. */
  let grab = 0;
  const follow = (event: PointerEvent): void => {
    // Measured on every move: the header above may change height while the pointer is down.
    const listBox = list.getBoundingClientRect();
    const paneBox = pane.getBoundingClientRect();
    const next = shareFromPointer(event.clientY - grab, listBox.top, paneBox.bottom, paneBox.top - listBox.bottom);
    if (next !== null) resize(next);
  };
  element.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    event.preventDefault();
    dragging = event.pointerId;
    grab = event.clientY - pane.getBoundingClientRect().top;
    element.setPointerCapture(event.pointerId);
    element.classList.add("active");
    document.body.classList.add("resizing");
    element.focus();
  });
  element.addEventListener("pointermove", (event) => {
    if (dragging === event.pointerId) follow(event);
  });
  const release = (event: PointerEvent): void => {
    if (dragging !== event.pointerId) return;
    dragging = null;
    if (element.hasPointerCapture(event.pointerId)) element.releasePointerCapture(event.pointerId);
    element.classList.remove("active");
    document.body.classList.remove("resizing");
  };
  element.addEventListener("pointerup", release);
  element.addEventListener("pointercancel", release);
  element.addEventListener("dblclick", () => resize(DETAIL_SHARE.initial));
  element.addEventListener("keydown", (event) => {
    const next = shareForKey(share(), event.key);
    if (next === null) return;
    event.preventDefault();
    resize(next);
  });

  return {
    element,
    render(current: number): void {
      const value = sashValue(current);
      element.setAttribute("aria-valuenow", String(value.now));
      element.setAttribute("aria-valuemin", String(value.min));
      element.setAttribute("aria-valuemax", String(value.max));
    },
  };
}
