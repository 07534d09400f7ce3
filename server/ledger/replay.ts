// The replay driver (developer/v8 §7.2). It applies raw entries one at a time to an accumulator,
// records one disposition per entry and never throws. It is incremental (entries can keep
// arriving) and supports trial application for batch preflight, rolled back exactly. Every entry
// costs O(1) however long the ledger and its scopes are: open scopes are reduced in place
// (LiveScope), a closed scope is kept as its final ScopeState, and causes are found by event id.
import { LiveScope, advanceLiveScope, advanceScopeWithFacts, openLiveScope } from "../developer/reducer";
import { factOfEvent } from "../developer/reducer/causes";
import { parseSemanticEvent, type SemanticEvent } from "../developer/eventKinds";
import type { ScopeState } from "../developer/scopeState";
import { DEVELOPER_PROTOCOL, parseEnvelope, type Envelope, type EventRef } from "./envelope";
import { ReplayFault, stop, type ReplayFaultCode } from "./faults";
import { compareCodeUnits } from "./canonicalJson";
import { isRecord } from "./values";

export interface AcceptedEvent {
  readonly storedIndex: number;
  readonly envelope: Envelope;
  readonly event: SemanticEvent;
}

export interface ObservedIdentity {
  readonly protocolVersion?: string;
  readonly eventId?: string;
  readonly workScopeId?: string;
  readonly eventSha256?: string;
}

export type Disposition =
  | { readonly status: "accepted"; readonly index: number; readonly eventId: string }
  | {
      readonly status: "rejected";
      readonly index: number;
      readonly code: ReplayFaultCode;
      readonly message: string;
      readonly observedIdentity: ObservedIdentity;
    };

export function refKey(ref: EventRef): string {
  return `${ref.workScopeId}\u0000${ref.eventId}\u0000${ref.eventSha256}`;
}

function observedIdentity(raw: unknown): ObservedIdentity {
  if (!isRecord(raw)) return {};
  const identity: { -readonly [K in keyof ObservedIdentity]: ObservedIdentity[K] } = {};
  for (const key of ["protocolVersion", "eventId", "workScopeId", "eventSha256"] as const) {
    const value = raw[key];
    if (typeof value === "string") identity[key] = value.slice(0, 160);
  }
  return identity;
}

/**
 * Parses a stored entry into an envelope or stops with the fault replay records for it.
 * `parsedText`: see parseEnvelope (the canonical text of a JSON.parse result handed over).
 */
export function parseStored(raw: unknown, parsedText?: string): Envelope {
  if (isRecord(raw) && typeof raw.protocolVersion === "string" && raw.protocolVersion !== DEVELOPER_PROTOCOL) {
    return stop("unsupported-protocol", `Unsupported Developer protocol: ${raw.protocolVersion}`);
  }
  try {
    return parseEnvelope(raw, undefined, parsedText);
  } catch (error) {
    return stop("invalid-envelope", error instanceof Error ? error.message : "invalid Developer envelope");
  }
}

/** The code and (bounded) message replay records for an entry that threw. */
export function rejectionOf(error: unknown): { code: ReplayFaultCode; message: string } {
  const fault =
    error instanceof ReplayFault
      ? { code: error.code, message: error.message }
      : { code: "invalid-payload" as const, message: error instanceof Error ? error.message : "invalid replay entry" };
  return { code: fault.code, message: fault.message.slice(0, 1_000) };
}

/** What a trial entry changed outside the scopes' own journals. */
interface UndoRecord {
  readonly eventId: string;
  /** Set when the entry opened its scope: rolling back removes the scope. */
  readonly openedScopeId: string | null;
}

/** An open scope is reduced in place; a closed one can never change again and is kept as its final state. */
type ScopeEntry = LiveScope | ScopeState;

function stateOf(entry: ScopeEntry): ScopeState {
  return entry instanceof LiveScope ? entry.snapshot() : entry;
}

export class Replayer {
  private readonly scopeById = new Map<string, ScopeEntry>();
  private readonly acceptedById = new Map<string, AcceptedEvent>();
  private readonly acceptedList: AcceptedEvent[] = [];
  private readonly dispositionList: Disposition[] = [];
  private firstRejection: (Disposition & { status: "rejected" }) | null = null;
  private undoLog: UndoRecord[] | null = null;
  /** During a trial: each live scope it changed, with its journal position before the trial. */
  private trialMarks: Map<LiveScope, number> | null = null;

  get accepted(): readonly AcceptedEvent[] {
    return this.acceptedList;
  }

  get dispositions(): readonly Disposition[] {
    return this.dispositionList;
  }

  get entryCount(): number {
    return this.dispositionList.length;
  }

  get firstRejected(): (Disposition & { status: "rejected" }) | null {
    return this.firstRejection;
  }

  /** Scopes sorted by id (code-unit order). */
  scopes(): ScopeState[] {
    return [...this.scopeById.values()].map(stateOf).sort((a, b) => compareCodeUnits(a.workScopeId, b.workScopeId));
  }

  scope(workScopeId: string): ScopeState | undefined {
    const entry = this.scopeById.get(workScopeId);
    return entry === undefined ? undefined : stateOf(entry);
  }

  /**
   * Applies one raw entry and returns its disposition. Never throws. A reader that just parsed
   * and verified a ledger line hands over its entry with the entry's canonical text
   * (`parsedText`), which spares parsing the payload a second time.
   */
  apply(raw: unknown, parsedText?: string): Disposition {
    const index = this.dispositionList.length;
    let disposition: Disposition;
    try {
      disposition = this.accept(index, raw, parsedText);
    } catch (error) {
      disposition = { status: "rejected", index, ...rejectionOf(error), observedIdentity: observedIdentity(raw) };
      if (this.firstRejection === null && this.undoLog === null) this.firstRejection = disposition;
    }
    this.dispositionList.push(disposition);
    return disposition;
  }

  /**
   * Applies entries on trial and rolls every effect back afterwards, returning the dispositions
   * and the envelopes that would be accepted. Used to preflight a batch before writing it.
   */
  trial(raws: readonly unknown[]): { dispositions: Disposition[]; accepted: AcceptedEvent[]; scopes: ScopeState[] } {
    if (this.undoLog !== null) throw new Error("nested replay trials are not supported");
    const dispositionStart = this.dispositionList.length;
    const acceptedStart = this.acceptedList.length;
    this.undoLog = [];
    this.trialMarks = new Map();
    try {
      for (const raw of raws) this.apply(raw);
      return {
        dispositions: this.dispositionList.slice(dispositionStart),
        accepted: this.acceptedList.slice(acceptedStart),
        scopes: this.scopes(),
      };
    } finally {
      for (const undo of this.undoLog.reverse()) {
        if (undo.openedScopeId !== null) this.scopeById.delete(undo.openedScopeId);
        this.acceptedById.delete(undo.eventId);
      }
      for (const [scope, mark] of this.trialMarks) {
        scope.journal.rollback(mark);
        scope.journal.forget();
      }
      this.dispositionList.length = dispositionStart;
      this.acceptedList.length = acceptedStart;
      this.undoLog = null;
      this.trialMarks = null;
    }
  }

  /** The accepted event a causal ref names (event ids are unique among accepted events). */
  private resolve(ref: EventRef): AcceptedEvent | undefined {
    const accepted = this.acceptedById.get(ref.eventId);
    if (accepted === undefined || accepted.envelope.workScopeId !== ref.workScopeId || accepted.envelope.eventSha256 !== ref.eventSha256) return undefined;
    return accepted;
  }

  private accept(index: number, raw: unknown, parsedText: string | undefined): Disposition {
    const envelope = parseStored(raw, parsedText);
    if (this.acceptedById.has(envelope.eventId)) {
      stop("duplicate-event-id", `Duplicate accepted event ID: ${envelope.eventId}`);
    }
    const event = parseSemanticEvent(envelope);
    // Causes may live in any scope; the reducer checks which of them support the event.
    const causes: AcceptedEvent[] = [];
    for (const ref of envelope.causalRefs) {
      const cause = this.resolve(ref);
      if (cause === undefined) {
        return stop("unresolved-causal-ref", `Causal ref is not already accepted: ${ref.workScopeId}/${ref.eventId}`);
      }
      causes.push(cause);
    }
    const current = this.scopeById.get(envelope.workScopeId);
    if (current === undefined) {
      this.scopeById.set(envelope.workScopeId, openLiveScope(envelope, event));
    } else if (current instanceof LiveScope) {
      if (this.trialMarks !== null && !this.trialMarks.has(current)) this.trialMarks.set(current, current.journal.length);
      advanceLiveScope(current, envelope, event, causes.map(factOfEvent));
      if (this.trialMarks === null) {
        current.journal.forget();
        if (current.status === "closed") this.scopeById.set(envelope.workScopeId, current.snapshot());
      }
    } else {
      // A closed scope: this always rejects (with the head fault first, as for any scope).
      advanceScopeWithFacts(current, envelope, event, causes.map(factOfEvent));
    }
    const accepted: AcceptedEvent = { storedIndex: index, envelope, event };
    this.undoLog?.push({ eventId: envelope.eventId, openedScopeId: current === undefined ? envelope.workScopeId : null });
    this.acceptedById.set(envelope.eventId, accepted);
    this.acceptedList.push(accepted);
    return { status: "accepted", index, eventId: envelope.eventId };
  }
}

/** Replays a whole list of raw entries (§7.2). */
export function replayEntries(raws: Iterable<unknown>): Replayer {
  const replayer = new Replayer();
  for (const raw of raws) replayer.apply(raw);
  return replayer;
}
