// Observer On / Off and the output language as Observer operations (design/observer.md §1.3).
// On: select the Notebook if it differs, open a new Episode when none is live (empty or settled),
// then turn the mode on. Off: the mode only; the Episode and its working evidence stay.
import { asLogEntries, cleanSnapshot, lifecycleEntry, refuse, type DraftContext, type DraftOutcome } from "./observerDrafts";
import type { ObserverLedgerEntry } from "./observerEntry";
import { stepLifecycle, type EpisodeLanguage, type LifecycleEvent, type LifecycleState } from "./observerLifecycle";

export interface ObserverOnInput {
  /** The selected Notebook's manifest id. */
  readonly notebookId: string;
  /** The Notebook's default language: a new Episode writes in it. */
  readonly lang: EpisodeLanguage;
}

export interface LifecycleChange {
  readonly episodeId: string | null;
  readonly mode: "on" | "off";
  /** Whether anything was appended. */
  readonly changed: boolean;
}

/** Applies events in order through the reducer; a refusal names the reference's reason. */
function applyAll(state: LifecycleState, events: readonly LifecycleEvent[]): { ok: true; state: LifecycleState; entries: ObserverLedgerEntry[] } | { ok: false; code: string } {
  let current = state;
  const entries: ObserverLedgerEntry[] = [];
  for (const event of events) {
    const step = stepLifecycle(current, event);
    if (!step.ok) return { ok: false, code: step.refusal };
    current = step.state;
    entries.push(lifecycleEntry(event));
  }
  return { ok: true, state: current, entries };
}

function episodeIdOf(state: LifecycleState): string | null {
  return state.episode.status === "empty" ? null : state.episode.core.episodeId;
}

export function turnObserverOn(context: DraftContext, input: ObserverOnInput): DraftOutcome<LifecycleChange> {
  const clean = cleanSnapshot(context.entries);
  if (!clean.ok) return clean;
  const state = clean.snapshot.lifecycle;
  const events: LifecycleEvent[] = [];
  const episode = state.episode;
  const live = episode.status === "open" || episode.status === "reviewing-save";
  if ((episode.status === "open" || episode.status === "reviewing-save") && episode.core.notebookId !== input.notebookId) {
    return refuse("notebook.live-switch", `the live Episode belongs to Notebook ${episode.core.notebookId}; save or settle it before switching to ${input.notebookId}`);
  }
  if (state.selectedNotebookId !== input.notebookId) events.push({ kind: "notebook-selected", notebookId: input.notebookId });
  if (!live) events.push({ kind: "episode-opened", episodeId: context.ids.next("episode-"), notebookId: input.notebookId, lang: input.lang });
  // episode-opened resets the mode to off, so activation follows it whenever an Episode was opened.
  if (state.mode === "off" || !live) events.push({ kind: "activation-changed", enabled: true });
  const applied = applyAll(state, events);
  if (!applied.ok) return refuse(applied.code, `Observer could not be turned on (${applied.code})`);
  return { ok: true, entries: applied.entries, value: { episodeId: episodeIdOf(applied.state), mode: applied.state.mode, changed: applied.entries.length > 0 } };
}

export function turnObserverOff(context: DraftContext): DraftOutcome<LifecycleChange> {
  const clean = cleanSnapshot(context.entries);
  if (!clean.ok) return clean;
  const state = clean.snapshot.lifecycle;
  if (state.mode === "off") return { ok: true, entries: [], value: { episodeId: episodeIdOf(state), mode: "off", changed: false } };
  const applied = applyAll(state, [{ kind: "activation-changed", enabled: false }]);
  if (!applied.ok) return refuse(applied.code, `Observer could not be turned off (${applied.code})`);
  return { ok: true, entries: applied.entries, value: { episodeId: episodeIdOf(applied.state), mode: "off", changed: true } };
}

export function changeOutputLanguage(context: DraftContext, lang: EpisodeLanguage): DraftOutcome<LifecycleChange> {
  const clean = cleanSnapshot(context.entries);
  if (!clean.ok) return clean;
  const state = clean.snapshot.lifecycle;
  const applied = applyAll(state, [{ kind: "output-language-changed", lang }]);
  if (!applied.ok) return refuse(applied.code, `the output language can change only while an Episode is open (${applied.code})`);
  return { ok: true, entries: applied.entries, value: { episodeId: episodeIdOf(applied.state), mode: applied.state.mode, changed: true } };
}

/**
 * An Episode for work that may happen while the mode stays off (the user's explicit hypothesis,
 * a Material review): the live one, or a new one on the selected Notebook.
 */
export function ensureEpisode(context: DraftContext, input: ObserverOnInput): DraftOutcome<LifecycleChange> {
  const clean = cleanSnapshot(context.entries);
  if (!clean.ok) return clean;
  const state = clean.snapshot.lifecycle;
  const episode = state.episode;
  if (episode.status === "open") return { ok: true, entries: [], value: { episodeId: episode.core.episodeId, mode: state.mode, changed: false } };
  if (episode.status === "reviewing-save") return refuse("observer.episode-under-review", "the Episode is under Review & Save: save or return to review first");
  const events: LifecycleEvent[] = [];
  if (state.selectedNotebookId !== input.notebookId) events.push({ kind: "notebook-selected", notebookId: input.notebookId });
  events.push({ kind: "episode-opened", episodeId: context.ids.next("episode-"), notebookId: input.notebookId, lang: input.lang });
  const applied = applyAll(state, events);
  if (!applied.ok) return refuse(applied.code, `an Episode could not be opened (${applied.code})`);
  return { ok: true, entries: applied.entries, value: { episodeId: episodeIdOf(applied.state), mode: applied.state.mode, changed: true } };
}

/** Runs operations one after another, each seeing what the ones before it staged. */
export function chain<First, Second>(first: (context: DraftContext) => DraftOutcome<First>, second: (context: DraftContext, before: First) => DraftOutcome<Second>): (context: DraftContext) => DraftOutcome<Second> {
  return (context) => {
    const one = first(context);
    if (!one.ok) return one;
    const two = second({ ...context, entries: [...context.entries, ...asLogEntries(one.entries)] }, one.value);
    if (!two.ok) return two;
    return { ok: true, entries: [...one.entries, ...two.entries], value: two.value };
  };
}
