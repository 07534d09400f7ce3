// How the list and an open detail share the Receipts view's height. The sash between them moves
// the detail's share (DETAIL_SHARE.min…max of the height below the header) by pointer or by key;
// this module is the arithmetic, free of the DOM so it can be unit-tested in Node.
import { DETAIL_SHARE } from "../../server/protocol/webviewMessages";

/** One arrow key moves the sash by this share of the height; Page Up / Page Down by four times it. */
export const SHARE_STEP = 0.05;

/** A share kept within the bounds the view state accepts, to a thousandth (tidy persisted state). */
export function clampShare(share: number): number {
  if (!Number.isFinite(share)) return DETAIL_SHARE.initial;
  const rounded = Math.round(share * 1000) / 1000;
  return Math.min(DETAIL_SHARE.max, Math.max(DETAIL_SHARE.min, rounded));
}

/**
 * The share after a key on the focused sash, or null for a key the sash ignores. The sash lies
 * below the list: Up moves it up (the detail grows), Down moves it down (the list grows), Home and
 * End go to the top and bottom ends.
 */
export function shareForKey(share: number, key: string): number | null {
  switch (key) {
    case "ArrowUp":
      return clampShare(share + SHARE_STEP);
    case "ArrowDown":
      return clampShare(share - SHARE_STEP);
    case "PageUp":
      return clampShare(share + 4 * SHARE_STEP);
    case "PageDown":
      return clampShare(share - 4 * SHARE_STEP);
    case "Home":
      return DETAIL_SHARE.max;
    case "End":
      return DETAIL_SHARE.min;
    default:
      return null;
  }
}

/**
 * The share that puts the detail's top at `detailTop` when the list starts at `top`, the detail
 * ends at `bottom` (client coordinates) and `gap` lies between them (the sash): the two share what
 * remains once the gap is taken. Null when there is no such height (nothing laid out).
 */
export function shareFromPointer(detailTop: number, top: number, bottom: number, gap = 0): number | null {
  const height = bottom - top - gap;
  if (!(height > 0) || !Number.isFinite(detailTop)) return null;
  return clampShare((bottom - detailTop) / height);
}

/**
 * The sash's value for assistive technology, as the window-splitter pattern has it: the list's
 * (the pane the sash controls) percentage of the height, with its bounds.
 */
export function sashValue(share: number): { readonly now: number; readonly min: number; readonly max: number } {
  const percent = (detail: number): number => Math.round((1 - detail) * 100);
  return { now: percent(clampShare(share)), min: percent(DETAIL_SHARE.max), max: percent(DETAIL_SHARE.min) };
}
