// Runs Observer operations against a workspace's ledger. The operation is computed under the
// ledger's lock from the caught-up Observer stream, its entries are proven by replaying the whole
// stream with them (a batch that would add any issue is refused as a whole), and only then are
// they appended — so concurrent writers cannot interleave, and a refusal writes nothing.
// An optional fingerprint (from observer status) makes a caller's batch depend on the stream it
// read: if anything was appended since, the batch is refused as stale.
import { DocketError, toDocketError } from "../errors";
import type { LedgerStore } from "../ledger/store";
import { ErrorCodes } from "../protocol/messages";
import type { WorkspaceLedger } from "../workspace/workspaceLedger";
import { asLogEntries, randomObserverIds, type DraftContext, type DraftOutcome, type ObserverIds } from "./observerDrafts";
import { writeCaptureMode } from "./observerFiles";
import { replayObservationSession, type ObservationSnapshot, type ObserverLogEntry } from "./observationSession";
import { sha256OfText } from "./observerValues";
import { replayObserverSaves } from "./saveReplay";
import { MATERIAL_REVIEW_ENTRY, ReviewHistoryReplay, decodeReviewEvent } from "./materialReview";

/** The replays whose issues block Observer mutation (observation session, and the save handoffs). */
export interface ObserverIssue {
  readonly index: number;
  readonly code: string;
  readonly message: string;
}

export type ObserverReplay = (entries: readonly ObserverLogEntry[]) => { readonly issues: readonly ObserverIssue[]; readonly snapshot: ObservationSnapshot };

/**
 * Observation replay and the save handoff replay over the same stream; the issues of both, in
 * stream order, block every Observer change.
 */
export const observationReplay: ObserverReplay = (entries) => {
  const snapshot = replayObservationSession(entries);
  const saves = replayObserverSaves(entries);
  if (saves.issues.length === 0) return { issues: snapshot.issues, snapshot };
  const issues: ObserverIssue[] = [...snapshot.issues, ...saves.issues].sort((left, right) => left.index - right.index);
  return { issues, snapshot };
};

export function observerLogOf(store: LedgerStore): ObserverLogEntry[] {
  return asLogEntries(store.observerLines.map((line) => line.entry));
}

/** Names the Observer stream as it stands: its length and the hash of its last line (which chains every line before it). */
export function observerFingerprintOf(store: LedgerStore): string {
  const lines = store.observerLines;
  const last = lines.at(-1);
  return sha256OfText(`observer/v1:${lines.length}:${last === undefined ? "none" : last.lineSha256}`);
}

export interface ObserverRunOptions {
  readonly ids?: ObserverIds;
  /** Refuse with docket.observer-stale unless the stream still has this fingerprint. */
  readonly fingerprint?: string | null;
  readonly replay?: ObserverReplay;
}

export interface ObserverRunResult<Value> {
  readonly value: Value;
  readonly appended: number;
  readonly fingerprint: string;
  readonly snapshot: ObservationSnapshot;
}

function refusalError(code: string, message: string): DocketError {
  if (code === "observer.replay-issues") return new DocketError(ErrorCodes.observerBlocked, message, { observerCode: code });
  if (code === "observer.stale") return new DocketError(ErrorCodes.observerStale, `${code}: ${message}`, { observerCode: code });
  return new DocketError(ErrorCodes.observerRefused, `${code}: ${message}`, { observerCode: code });
}

export async function runObserverOperation<Value>(
  ledger: WorkspaceLedger,
  workspaceFolder: string,
  purpose: string,
  operation: (context: DraftContext) => DraftOutcome<Value>,
  options: ObserverRunOptions = {},
): Promise<ObserverRunResult<Value>> {
  const replay = options.replay ?? observationReplay;
  const ids = options.ids ?? randomObserverIds;
  let fingerprintAfter = "";
  try {
    const result = await ledger.appendObserver(
      (store) => {
        const fingerprint = observerFingerprintOf(store);
        if (options.fingerprint !== undefined && options.fingerprint !== null && options.fingerprint !== fingerprint) {
          throw new DocketError(ErrorCodes.observerStale, "The Observer history changed since it was read (another Observer change was recorded); read observer_status again and resubmit against it. Nothing was written.", { observerCode: "observer.stale" });
        }
        const existing = observerLogOf(store);
        // Any issue of the history as it stands (observation or save replay) blocks every change.
        const first = replay(existing).issues[0];
        if (first !== undefined) throw refusalError("observer.replay-issues", `The Observer history has an issue at entry ${first.index} (${first.code}: ${first.message}); Observer changes nothing until it is repaired. Nothing was written.`);
        const outcome = operation({ entries: existing, now: ledger.now(), ids });
        if (!outcome.ok) throw refusalError(outcome.code, outcome.message);
        const after = replay([...existing, ...asLogEntries(outcome.entries)]);
        const fresh = after.issues.find((issue) => issue.index >= existing.length);
        if (fresh !== undefined) throw refusalError(fresh.code, `entry ${fresh.index - existing.length + 1} of the batch would not replay: ${fresh.message}. Nothing was written.`);
        fingerprintAfter = fingerprint;
        return { entries: outcome.entries, context: { value: outcome.value, appended: outcome.entries.length, snapshot: after.snapshot } };
      },
      purpose,
      (store, context) => {
        fingerprintAfter = observerFingerprintOf(store);
        if (context.appended > 0) publishCaptureMode(workspaceFolder, context.snapshot, retrievedReviewPendingIn(observerLogOf(store)));
      },
    );
    return { ...result, fingerprint: fingerprintAfter };
  } catch (error) {
    throw toDocketError(error);
  }
}

/**
 * Derived for the hooks: capture is on while the mode is on and an Episode is open, and while a
 * Material review waits for retrieved material (the agent fetches it, Observer may be off).
 */
export function publishCaptureMode(workspaceFolder: string, snapshot: ObservationSnapshot, retrievedReviewPending = false): void {
  const lifecycle = snapshot.lifecycle;
  const on = (lifecycle.mode === "on" || retrievedReviewPending) && lifecycle.episode.status === "open" && snapshot.issues.length === 0;
  try {
    writeCaptureMode(workspaceFolder, { on, episodeId: on && lifecycle.episode.status === "open" ? lifecycle.episode.core.episodeId : null });
  } catch {
    // Best effort: without the file the hooks do not capture, which fails closed.
  }
}

/** The pending Material review of a stream and its kind, or null. */
export function pendingMaterialReviewOf(entries: readonly ObserverLogEntry[]): { readonly requestId: string; readonly material: string } | null {
  const replay = new ReviewHistoryReplay();
  const kinds = new Map<string, string>();
  for (const entry of entries) {
    if (!entry.custom || entry.customType !== MATERIAL_REVIEW_ENTRY) continue;
    replay.apply(entry.data);
    const event = decodeReviewEvent(entry.data);
    if (event?.kind === "material-review-requested") kinds.set(event.requestId, event.material);
  }
  const pending = replay.history.pending;
  return pending === null ? null : { requestId: pending.requestId, material: kinds.get(pending.requestId) ?? "inline-user-message" };
}

/** Whether the stream ends with a retrieved-tool-results Material review still pending. */
export function retrievedReviewPendingIn(entries: readonly ObserverLogEntry[]): boolean {
  return pendingMaterialReviewOf(entries)?.material === "retrieved-tool-results";
}

/** The Observer state as replay sees it now (no lock; for views and status). */
export async function readObserverState(ledger: WorkspaceLedger, replay: ObserverReplay = observationReplay): Promise<{ snapshot: ObservationSnapshot; issues: readonly ObserverIssue[]; fingerprint: string; entryCount: number }> {
  return ledger.readCaughtUp((store) => {
    const entries = observerLogOf(store);
    const result = replay(entries);
    return { snapshot: result.snapshot, issues: result.issues, fingerprint: observerFingerprintOf(store), entryCount: entries.length };
  });
}
