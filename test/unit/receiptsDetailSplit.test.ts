// The arithmetic of the sash between the Receipts view's list and an open detail.
import assert from "node:assert/strict";
import { test } from "node:test";
import { DETAIL_SHARE } from "../../server/protocol/webviewMessages";
import { clampShare, SHARE_STEP, sashValue, shareForKey, shareFromPointer } from "../../webview/receipts/detailSplit";

test("a share stays within the bounds the view state accepts, to a thousandth", () => {
  assert.equal(clampShare(0.4), 0.4);
  assert.equal(clampShare(0.123456), DETAIL_SHARE.min);
  assert.equal(clampShare(0.98), DETAIL_SHARE.max);
  assert.equal(clampShare(0.33333), 0.333);
  assert.equal(clampShare(Number.POSITIVE_INFINITY), DETAIL_SHARE.initial);
  assert.equal(clampShare(Number.NaN), DETAIL_SHARE.initial);
});

test("keys move the sash: Up grows the detail, Down the list, Home and End go to the ends", () => {
  const start = 0.5;
  assert.equal(shareForKey(start, "ArrowUp"), start + SHARE_STEP);
  assert.equal(shareForKey(start, "ArrowDown"), start - SHARE_STEP);
  assert.equal(shareForKey(start, "PageUp"), clampShare(start + 4 * SHARE_STEP));
  assert.equal(shareForKey(start, "PageDown"), clampShare(start - 4 * SHARE_STEP));
  assert.equal(shareForKey(start, "Home"), DETAIL_SHARE.max);
  assert.equal(shareForKey(start, "End"), DETAIL_SHARE.min);
  assert.equal(shareForKey(DETAIL_SHARE.min, "ArrowDown"), DETAIL_SHARE.min, "held at the bound");
  assert.equal(shareForKey(DETAIL_SHARE.max, "PageUp"), DETAIL_SHARE.max);
  assert.equal(shareForKey(start, "Enter"), null);
  assert.equal(shareForKey(start, "ArrowLeft"), null);
  // Repeated steps land on round shares (no floating-point drift in the persisted state).
  let share = 0.5;
  for (let step = 0; step < 5; step += 1) share = shareForKey(share, "ArrowDown") ?? share;
  assert.equal(share, 0.25);
});

test("a dragged sash gives the detail the height below it", () => {
  // The list starts at y = 100 and the detail ends at y = 500.
  assert.equal(shareFromPointer(300, 100, 500), 0.5);
  assert.equal(shareFromPointer(400, 100, 500), 0.25);
  assert.equal(shareFromPointer(120, 100, 500), DETAIL_SHARE.max, "dragged above the list's top: the largest detail");
  assert.equal(shareFromPointer(900, 100, 500), DETAIL_SHARE.min, "dragged below the view: the smallest detail");
  assert.equal(shareFromPointer(300, 500, 500), null, "nothing laid out yet");
  // With a 10 px sash between them, list and detail share the 390 px left.
  assert.equal(shareFromPointer(305, 100, 500, 10), clampShare(195 / 390));
  assert.equal(shareFromPointer(300, 100, 110, 10), null);
  assert.equal(shareFromPointer(Number.NaN, 100, 500), null);
});

test("assistive technology reads the list's percentage of the height", () => {
  assert.deepEqual(sashValue(0.5), { now: 50, min: 15, max: 80 });
  assert.deepEqual(sashValue(0.3), { now: 70, min: 15, max: 80 });
  assert.equal(sashValue(2).now, 15);
});
