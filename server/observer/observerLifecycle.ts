// Observer lifecycle (`observer.lifecycle` entries, protocol `observer/v1`): the Observer mode
// (on/off), the selected Notebook and the Episode (empty → open ⇄ reviewing-save → settled).
// Decoding is strict (exact keys, bounded text); a transition either applies or is refused with
// a reason, and a refused event leaves the state as it was. See docs/observer-replay.md.
import { hasKeysExactly, isRecord, trimmedText } from "./observerValues";

export const OBSERVER_LIFECYCLE_PROTOCOL = "observer/v1";

const ID_LIMIT = 200;
const SUMMARY_LIMIT = 4_000;
const RECEIPT_RECORD_LIMIT = 1_000;

export type EpisodeLanguage = "ko" | "en";

export interface EpisodeCore {
  readonly episodeId: string;
  readonly notebookId: string;
  readonly lang: EpisodeLanguage;
}

export interface MemoRevisionMark {
  readonly revisionId: string;
  readonly receiptId: string;
  readonly summary: string;
}

export type Episode =
  | { readonly status: "empty" }
  | { readonly status: "open"; readonly core: EpisodeCore; readonly lastMemo: MemoRevisionMark | null }
  | { readonly status: "reviewing-save"; readonly core: EpisodeCore; readonly lastMemo: MemoRevisionMark | null; readonly proposalId: string; readonly summary: string }
  | { readonly status: "settled"; readonly core: EpisodeCore; readonly lastMemo: MemoRevisionMark | null; readonly proposalId: string; readonly receiptId: string; readonly recordIds: readonly string[] };

export interface LifecycleState {
  readonly mode: "off" | "on";
  readonly selectedNotebookId: string | null;
  readonly episode: Episode;
}

export type LifecycleEvent =
  | { readonly kind: "episode-opened"; readonly episodeId: string; readonly notebookId: string; readonly lang: EpisodeLanguage }
  | { readonly kind: "activation-changed"; readonly enabled: boolean }
  | { readonly kind: "output-language-changed"; readonly lang: EpisodeLanguage }
  | { readonly kind: "notebook-selected"; readonly notebookId: string }
  | { readonly kind: "memo-reconciled"; readonly revisionId: string; readonly receiptId: string; readonly summary: string }
  | { readonly kind: "save-proposed"; readonly proposalId: string; readonly summary: string }
  | { readonly kind: "save-cancelled"; readonly proposalId: string }
  | { readonly kind: "save-committed"; readonly proposalId: string; readonly receiptId: string; readonly validated: boolean; readonly recordIds: readonly string[] };

export type LifecycleRefusal =
  | "activation.episode-required"
  | "episode.already-open"
  | "episode.id-reused"
  | "language.active-episode-required"
  | "memo.episode-open-required"
  | "memo.revision-duplicate"
  | "notebook.live-switch"
  | "notebook.mismatch"
  | "save.episode-open-required"
  | "save.proposal-mismatch"
  | "save.receipt-unvalidated"
  | "save.review-required";

export type LifecycleStep = { readonly ok: true; readonly state: LifecycleState } | { readonly ok: false; readonly refusal: LifecycleRefusal };

export function emptyLifecycle(): LifecycleState {
  return { mode: "off", selectedNotebookId: null, episode: { status: "empty" } };
}

function language(value: unknown): EpisodeLanguage | null {
  return value === "ko" || value === "en" ? value : null;
}

const identifier = (value: unknown): string | null => trimmedText(value, ID_LIMIT);

/** Decodes one lifecycle entry's data; null when it is not a valid `observer/v1` event. */
export function decodeLifecycleEvent(data: unknown): LifecycleEvent | null {
  if (!isRecord(data) || data.protocol !== OBSERVER_LIFECYCLE_PROTOCOL || typeof data.kind !== "string") return null;
  const keysAre = (...keys: string[]): boolean => hasKeysExactly(data, ["protocol", "kind", ...keys]);
  switch (data.kind) {
    case "episode-opened": {
      const episodeId = identifier(data.episodeId);
      const notebookId = identifier(data.notebookId);
      const lang = language(data.lang);
      return keysAre("episodeId", "notebookId", "lang") && episodeId !== null && notebookId !== null && lang !== null
        ? { kind: "episode-opened", episodeId, notebookId, lang }
        : null;
    }
    case "activation-changed":
      return keysAre("enabled") && typeof data.enabled === "boolean" ? { kind: "activation-changed", enabled: data.enabled } : null;
    case "output-language-changed": {
      const lang = language(data.lang);
      return keysAre("lang") && lang !== null ? { kind: "output-language-changed", lang } : null;
    }
    case "notebook-selected": {
      const notebookId = identifier(data.notebookId);
      return keysAre("notebookId") && notebookId !== null ? { kind: "notebook-selected", notebookId } : null;
    }
    case "memo-reconciled": {
      const revisionId = identifier(data.revisionId);
      const receipt = data.receipt;
      if (!keysAre("revisionId", "receipt") || revisionId === null || !isRecord(receipt) || !hasKeysExactly(receipt, ["receiptId", "summary"])) return null;
      const receiptId = identifier(receipt.receiptId);
      const summary = trimmedText(receipt.summary, SUMMARY_LIMIT);
      return receiptId !== null && summary !== null ? { kind: "memo-reconciled", revisionId, receiptId, summary } : null;
    }
    case "save-proposed": {
      const proposalId = identifier(data.proposalId);
      const summary = trimmedText(data.summary, SUMMARY_LIMIT);
      return keysAre("proposalId", "summary") && proposalId !== null && summary !== null ? { kind: "save-proposed", proposalId, summary } : null;
    }
    case "save-cancelled": {
      const proposalId = identifier(data.proposalId);
      return keysAre("proposalId") && proposalId !== null ? { kind: "save-cancelled", proposalId } : null;
    }
    case "save-committed": {
      const proposalId = identifier(data.proposalId);
      const receipt = data.receipt;
      if (!keysAre("proposalId", "receipt") || proposalId === null || !isRecord(receipt) || !hasKeysExactly(receipt, ["receiptId", "status", "recordIds"])) return null;
      const receiptId = identifier(receipt.receiptId);
      const status = receipt.status;
      const recordIds = receipt.recordIds;
      if (receiptId === null || (status !== "validated" && status !== "unvalidated")) return null;
      if (!Array.isArray(recordIds) || recordIds.length > RECEIPT_RECORD_LIMIT) return null;
      const ids: string[] = [];
      for (const item of recordIds as readonly unknown[]) {
        const id = identifier(item);
        if (id === null) return null;
        ids.push(id);
      }
      return { kind: "save-committed", proposalId, receiptId, validated: status === "validated", recordIds: ids };
    }
    default:
      return null;
  }
}

function refuse(refusal: LifecycleRefusal): LifecycleStep {
  return { ok: false, refusal };
}

function to(state: LifecycleState): LifecycleStep {
  return { ok: true, state };
}

function isActive(episode: Episode): episode is Extract<Episode, { status: "open" | "reviewing-save" }> {
  return episode.status === "open" || episode.status === "reviewing-save";
}

/** Applies one decoded lifecycle event; refusals leave the state unchanged. */
export function stepLifecycle(state: LifecycleState, event: LifecycleEvent): LifecycleStep {
  const episode = state.episode;
  switch (event.kind) {
    case "episode-opened":
      if (isActive(episode)) return refuse("episode.already-open");
      if (state.selectedNotebookId !== null && state.selectedNotebookId !== event.notebookId) return refuse("notebook.mismatch");
      if (episode.status === "settled" && episode.core.episodeId === event.episodeId) return refuse("episode.id-reused");
      // Opening an Episode never turns Observer on by itself.
      return to({
        mode: "off",
        selectedNotebookId: event.notebookId,
        episode: { status: "open", core: { episodeId: event.episodeId, notebookId: event.notebookId, lang: event.lang }, lastMemo: null },
      });
    case "activation-changed":
      if (!event.enabled) return to({ ...state, mode: "off" });
      if (!isActive(episode)) return refuse("activation.episode-required");
      return to({ ...state, mode: "on", selectedNotebookId: episode.core.notebookId });
    case "output-language-changed":
      if (!isActive(episode)) return refuse("language.active-episode-required");
      return to({ ...state, episode: { ...episode, core: { ...episode.core, lang: event.lang } } });
    case "notebook-selected":
      if (isActive(episode) && (state.selectedNotebookId ?? episode.core.notebookId) !== event.notebookId) return refuse("notebook.live-switch");
      return to({ ...state, selectedNotebookId: event.notebookId });
    case "memo-reconciled":
      if (episode.status !== "open") return refuse("memo.episode-open-required");
      if (episode.lastMemo?.revisionId === event.revisionId) return refuse("memo.revision-duplicate");
      return to({ ...state, episode: { ...episode, lastMemo: { revisionId: event.revisionId, receiptId: event.receiptId, summary: event.summary } } });
    case "save-proposed":
      if (episode.status !== "open") return refuse("save.episode-open-required");
      return to({ ...state, episode: { status: "reviewing-save", core: episode.core, lastMemo: episode.lastMemo, proposalId: event.proposalId, summary: event.summary } });
    case "save-cancelled":
      if (episode.status !== "reviewing-save") return refuse("save.review-required");
      if (episode.proposalId !== event.proposalId) return refuse("save.proposal-mismatch");
      return to({ ...state, episode: { status: "open", core: episode.core, lastMemo: episode.lastMemo } });
    case "save-committed":
      if (episode.status !== "reviewing-save") return refuse("save.review-required");
      if (episode.proposalId !== event.proposalId) return refuse("save.proposal-mismatch");
      if (!event.validated) return refuse("save.receipt-unvalidated");
      // Publication settles the Episode and turns Observer off.
      return to({
        mode: "off",
        selectedNotebookId: state.selectedNotebookId,
        episode: { status: "settled", core: episode.core, lastMemo: episode.lastMemo, proposalId: event.proposalId, receiptId: event.receiptId, recordIds: event.recordIds },
      });
  }
}

/** The Episode is open (not reviewing a save) with this id, and Observer is on when `modeOn` asks for it. */
export function episodeIsLive(state: LifecycleState, episodeId: string, modeOn: boolean): boolean {
  return state.episode.status === "open" && state.episode.core.episodeId === episodeId && (!modeOn || state.mode === "on");
}
