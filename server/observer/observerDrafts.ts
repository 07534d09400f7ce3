// Building Observer entries (the write side of docs/observer-replay.md). Every operation that
// changes Observer working state is a pure function from the current Observer stream to the
// entries it would append; nothing is written here. `stageEntries` then proves the batch: the
// whole stream plus the new entries is replayed, and a batch that would add any issue is refused
// as a whole, so what is appended is exactly what replay accepts.
import { countOf } from "../plural";
import { randomUUID } from "node:crypto";
import type { ObserverLedgerEntry } from "./observerEntry";
import { observationPayload, type ObservationEvent } from "./observationEvents";
import { OBSERVER_LIFECYCLE_PROTOCOL, type LifecycleEvent } from "./observerLifecycle";
import { replayObservationSession, type ObservationIssue, type ObservationSnapshot, type ObserverLogEntry } from "./observationSession";
import { sha256OfText } from "./observerValues";

/** Draws the ids an operation records (prefix + lowercase UUIDv4); tests inject a fixed sequence. */
export interface ObserverIds {
  next(prefix: string): string;
}

export const randomObserverIds: ObserverIds = { next: (prefix) => `${prefix}${randomUUID()}` };

/** What an operation sees: the Observer stream so far (with anything staged before it) and the time. */
export interface DraftContext {
  readonly entries: readonly ObserverLogEntry[];
  readonly now: string;
  readonly ids: ObserverIds;
}

export interface DraftRefusal {
  readonly ok: false;
  /** A coded reason (`observer.*`, or the reference's code when replay produced it). */
  readonly code: string;
  readonly message: string;
}

export type DraftOutcome<Value> = { readonly ok: true; readonly entries: readonly ObserverLedgerEntry[]; readonly value: Value } | DraftRefusal;

export function refuse(code: string, message: string): DraftRefusal {
  return { ok: false, code, message };
}

/** An event as decoders return it, without its digest and encoding. */
export type ObservationDraft = ObservationEvent extends infer Event ? (Event extends ObservationEvent ? Omit<Event, "digest" | "encoded"> : never) : never;

/** `observer.observation` with its `event_digest` (SHA-256 of the normalised payload's JSON). */
export function observationEntry(draft: ObservationDraft): ObserverLedgerEntry {
  const payload = observationPayload(draft);
  return { customType: "observer.observation", data: { ...payload, event_digest: sha256OfText(JSON.stringify(payload)) } };
}

/** `observer.lifecycle` in the reference's key order. */
export function lifecycleEntry(event: LifecycleEvent): ObserverLedgerEntry {
  const head = { protocol: OBSERVER_LIFECYCLE_PROTOCOL, kind: event.kind };
  switch (event.kind) {
    case "episode-opened":
      return { customType: "observer.lifecycle", data: { ...head, episodeId: event.episodeId, notebookId: event.notebookId, lang: event.lang } };
    case "activation-changed":
      return { customType: "observer.lifecycle", data: { ...head, enabled: event.enabled } };
    case "output-language-changed":
      return { customType: "observer.lifecycle", data: { ...head, lang: event.lang } };
    case "notebook-selected":
      return { customType: "observer.lifecycle", data: { ...head, notebookId: event.notebookId } };
    case "memo-reconciled":
      return { customType: "observer.lifecycle", data: { ...head, revisionId: event.revisionId, receipt: { receiptId: event.receiptId, summary: event.summary } } };
    case "save-proposed":
      return { customType: "observer.lifecycle", data: { ...head, proposalId: event.proposalId, summary: event.summary } };
    case "save-cancelled":
      return { customType: "observer.lifecycle", data: { ...head, proposalId: event.proposalId } };
    case "save-committed":
      return {
        customType: "observer.lifecycle",
        data: { ...head, proposalId: event.proposalId, receipt: { receiptId: event.receiptId, status: event.validated ? "validated" : "unvalidated", recordIds: [...event.recordIds] } },
      };
  }
}

export function asLogEntries(entries: readonly ObserverLedgerEntry[]): ObserverLogEntry[] {
  return entries.map((entry) => ({ custom: true, customType: entry.customType, data: entry.data }));
}

/**
 * Proves a batch: replaying `existing` followed by `staged` must add no issue to those `existing`
 * already has. Refuses with the first new issue's code (the reference's) otherwise.
 */
export function stageEntries(existing: readonly ObserverLogEntry[], staged: readonly ObserverLedgerEntry[], replay: (entries: readonly ObserverLogEntry[]) => { readonly issues: readonly ObservationIssue[] } = replayObservationSession): DraftRefusal | null {
  if (staged.length === 0) return null;
  const after = replay([...existing, ...asLogEntries(staged)]);
  const fresh = after.issues.find((issue) => issue.index >= existing.length);
  if (fresh !== undefined) return refuse(fresh.code, `entry ${fresh.index - existing.length + 1} of the batch would not replay: ${fresh.message}`);
  return null;
}

/** The replay a mutation starts from; any issue blocks every Observer mutation (fail closed). */
export function cleanSnapshot(entries: readonly ObserverLogEntry[]): { readonly ok: true; readonly snapshot: ObservationSnapshot } | DraftRefusal {
  const snapshot = replayObservationSession(entries);
  const first = snapshot.issues[0];
  if (first !== undefined) return refuse("observer.replay-issues", `the Observer history has ${countOf(snapshot.issues.length, "issue")} (first: ${first.code} at entry ${first.index}: ${first.message}); Observer changes nothing until it is repaired`);
  return { ok: true, snapshot };
}
