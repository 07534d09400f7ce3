// The Observer lifecycle (server/observer/observerLifecycle.ts): strict decoding of observer/v1
// events and every transition with the reference's refusal reasons.
import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeLifecycleEvent, emptyLifecycle, stepLifecycle, type LifecycleEvent, type LifecycleRefusal, type LifecycleState } from "../../server/observer/observerLifecycle";

const P = { protocol: "observer/v1" };
const raw = {
  opened: (episodeId = "episode-1", notebookId = "notebook-main", lang = "ko") => ({ ...P, kind: "episode-opened", episodeId, notebookId, lang }),
  activation: (enabled: boolean) => ({ ...P, kind: "activation-changed", enabled }),
  language: (lang: string) => ({ ...P, kind: "output-language-changed", lang }),
  notebook: (notebookId: string) => ({ ...P, kind: "notebook-selected", notebookId }),
  memo: (revisionId = "revision-1") => ({ ...P, kind: "memo-reconciled", revisionId, receipt: { receiptId: "memo-receipt-1", summary: "One Memo revised." } }),
  proposed: (proposalId = "proposal-1") => ({ ...P, kind: "save-proposed", proposalId, summary: "Save two records." }),
  cancelled: (proposalId = "proposal-1") => ({ ...P, kind: "save-cancelled", proposalId }),
  committed: (proposalId = "proposal-1", status = "validated") => ({ ...P, kind: "save-committed", proposalId, receipt: { receiptId: "save-receipt-1", status, recordIds: ["record-1"] } }),
};

function event(value: unknown): LifecycleEvent {
  const decoded = decodeLifecycleEvent(value);
  assert.ok(decoded !== null, `expected ${JSON.stringify(value)} to decode`);
  return decoded;
}

function apply(state: LifecycleState, value: unknown): LifecycleState {
  const step = stepLifecycle(state, event(value));
  assert.ok(step.ok, `expected ${JSON.stringify(value)} to apply, refused: ${step.ok ? "" : step.refusal}`);
  return step.state;
}

function refused(state: LifecycleState, value: unknown, refusal: LifecycleRefusal): void {
  const step = stepLifecycle(state, event(value));
  assert.deepEqual(step, { ok: false, refusal });
}

const openState = (): LifecycleState => apply(emptyLifecycle(), raw.opened());
const reviewing = (mode: "on" | "off" = "off"): LifecycleState => apply(mode === "on" ? apply(openState(), raw.activation(true)) : openState(), raw.proposed());

test("decoding: every kind decodes; wrong protocol, unknown kind, extra or missing fields and bad values do not", () => {
  const valid = [raw.opened(), raw.activation(true), raw.activation(false), raw.language("en"), raw.notebook("n"), raw.memo(), raw.proposed(), raw.cancelled(), raw.committed(), raw.committed("p", "unvalidated")];
  for (const value of valid) assert.equal(decodeLifecycleEvent(value)?.kind, value.kind, JSON.stringify(value));
  for (const value of [
    null,
    [],
    { ...raw.activation(true), protocol: "observer/v2" },
    { ...P, kind: "unknown" },
    { ...P, enabled: true },
    { ...raw.activation(true), extra: 1 },
    { ...P, kind: "activation-changed", enabled: "true" },
    raw.opened("episode-1", "notebook-main", "ja"),
    raw.opened(" episode-1"),
    raw.opened("x".repeat(201)),
    raw.language("ja"),
    { ...P, kind: "memo-reconciled", revisionId: "revision-1", receipt: { receiptId: "memo-receipt-1" } },
    { ...raw.proposed(), summary: "s".repeat(4_001) },
    { ...P, kind: "save-committed", proposalId: "proposal-1" },
    raw.committed("proposal-1", "saved"),
    { ...raw.committed(), receipt: { receiptId: "save-receipt-1", status: "validated", recordIds: [""] } },
  ]) {
    assert.equal(decodeLifecycleEvent(value), null, JSON.stringify(value));
  }
});

test("starts empty and off; opening an Episode leaves Observer off", () => {
  assert.deepEqual(emptyLifecycle(), { mode: "off", selectedNotebookId: null, episode: { status: "empty" } });
  const state = openState();
  assert.equal(state.mode, "off");
  assert.equal(state.selectedNotebookId, "notebook-main");
});

test("Memo and save-cancel trace keeps Observer on; a Memo trace with Observer off stays off", () => {
  let state = apply(openState(), raw.activation(true));
  state = apply(apply(state, raw.memo()), raw.proposed());
  assert.equal(state.mode, "on");
  assert.equal(state.episode.status, "reviewing-save");
  state = apply(state, raw.cancelled());
  assert.equal(state.episode.status, "open");
  assert.equal(state.episode.status === "open" ? state.episode.lastMemo?.revisionId : null, "revision-1");
  assert.equal(apply(openState(), raw.memo()).mode, "off");
});

test("activation: off keeps the Episode, repeats change nothing, on needs a live Episode", () => {
  const on = apply(openState(), raw.activation(true));
  assert.deepEqual(apply(on, raw.activation(true)), on);
  const off = apply(on, raw.activation(false));
  assert.equal(off.mode, "off");
  assert.deepEqual(off.episode, on.episode);
  assert.deepEqual(apply(off, raw.activation(false)), off);
  refused(emptyLifecycle(), raw.activation(true), "activation.episode-required");
  assert.equal(apply(reviewing(), raw.activation(true)).mode, "on");
});

test("output language changes during live work only, without replacing it", () => {
  refused(emptyLifecycle(), raw.language("en"), "language.active-episode-required");
  const changed = apply(reviewing(), raw.language("en"));
  assert.equal(changed.episode.status, "reviewing-save");
  assert.equal(changed.episode.status === "reviewing-save" ? [changed.episode.core.lang, changed.episode.proposalId].join(" ") : "", "en proposal-1");
});

test("Notebooks: selected outside live work, or the live one again; never switched under live work", () => {
  let state = apply(emptyLifecycle(), raw.notebook("notebook-main"));
  state = apply(state, raw.opened());
  assert.deepEqual(apply(state, raw.notebook("notebook-main")), state);
  refused(state, raw.notebook("notebook-other"), "notebook.live-switch");
  const settled = apply(apply(state, raw.proposed()), raw.committed());
  assert.equal(apply(settled, raw.notebook("notebook-other")).selectedNotebookId, "notebook-other");
});

test("Episodes, Memos and saves: the reference's refusals", () => {
  refused(openState(), raw.opened("episode-2"), "episode.already-open");
  const memoed = apply(openState(), raw.memo());
  refused(memoed, raw.memo(), "memo.revision-duplicate");
  refused(apply(memoed, raw.proposed()), raw.memo("revision-2"), "memo.episode-open-required");
  refused(reviewing(), raw.cancelled("proposal-stale"), "save.proposal-mismatch");
  refused(reviewing(), raw.committed("proposal-stale"), "save.proposal-mismatch");
  refused(openState(), raw.committed(), "save.review-required");
  refused(reviewing(), raw.proposed("proposal-2"), "save.episode-open-required");
  refused(reviewing(), raw.committed("proposal-1", "unvalidated"), "save.receipt-unvalidated");
});

test("a validated commit settles the Episode and turns Observer off; only a new Episode on the same Notebook may follow", () => {
  const settled = apply(reviewing("on"), raw.committed());
  assert.equal(settled.mode, "off");
  assert.equal(settled.episode.status, "settled");
  assert.equal(settled.episode.status === "settled" ? settled.episode.proposalId : null, "proposal-1");
  refused(settled, raw.committed(), "save.review-required");
  refused(settled, raw.opened(), "episode.id-reused");
  refused(settled, raw.opened("episode-2", "notebook-other"), "notebook.mismatch");
  const reopened = apply(settled, raw.opened("episode-2"));
  assert.equal(reopened.episode.status, "open");
  assert.equal(reopened.episode.status === "open" ? reopened.episode.core.lang : null, "ko");
});
