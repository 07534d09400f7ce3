// The replay driver (developer/v8 §7.2). It applies raw entries one at a time to an accumulator,
// records one disposition per entry and never throws. It is incremental (entries can keep
// arriving) and supports trial application for batch preflight, rolled back exactly.
import { advanceScope, openScope } from "../developer/reducer";
import { parseSemanticEvent, type SemanticEvent } from "../developer/eventKinds";
import type { ScopeState } from "../developer/scopeState";
import { DEVELOPER_PROTOCOL, eventRefOf, parseEnvelope, type Envelope, type EventRef } from "./envelope";
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

/** Parses a stored entry into an envelope or stops with the fault replay records for it. */
export function parseStored(raw: unknown): Envelope {
  if (isRecord(raw) && typeof raw.protocolVersion === "string" && raw.protocolVersion !== DEVELOPER_PROTOCOL) {
    return stop("unsupported-protocol", `Unsupported Developer protocol: ${raw.protocolVersion}`);
  }
  try {
    return parseEnvelope(raw);
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

interface UndoRecord {
  readonly workScopeId: string;
  readonly previousScope: ScopeState | undefined;
  readonly eventId: string;
  readonly refKey: string;
}

export class Replayer {
  private readonly scopeById = new Map<string, ScopeState>();
  private readonly acceptedById = new Map<string, AcceptedEvent>();
  private readonly acceptedByRef = new Map<string, AcceptedEvent>();
  private readonly acceptedList: AcceptedEvent[] = [];
  private readonly dispositionList: Disposition[] = [];
  private firstRejection: (Disposition & { status: "rejected" }) | null = null;
  private undoLog: UndoRecord[] | null = null;

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
    return [...this.scopeById.values()].sort((a, b) => compareCodeUnits(a.workScopeId, b.workScopeId));
  }

  scope(workScopeId: string): ScopeState | undefined {
    return this.scopeById.get(workScopeId);
  }

  /** Applies one raw entry and returns its disposition. Never throws. */
  apply(raw: unknown): Disposition {
    const index = this.dispositionList.length;
    let disposition: Disposition;
    try {
      disposition = this.accept(index, raw);
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
    try {
      for (const raw of raws) this.apply(raw);
      return {
        dispositions: this.dispositionList.slice(dispositionStart),
        accepted: this.acceptedList.slice(acceptedStart),
        scopes: this.scopes(),
      };
    } finally {
      for (const undo of this.undoLog.reverse()) {
        if (undo.previousScope === undefined) this.scopeById.delete(undo.workScopeId);
        else this.scopeById.set(undo.workScopeId, undo.previousScope);
        this.acceptedById.delete(undo.eventId);
        this.acceptedByRef.delete(undo.refKey);
      }
      this.dispositionList.length = dispositionStart;
      this.acceptedList.length = acceptedStart;
      this.undoLog = null;
    }
  }

  private accept(index: number, raw: unknown): Disposition {
    const envelope = parseStored(raw);
    if (this.acceptedById.has(envelope.eventId)) {
      stop("duplicate-event-id", `Duplicate accepted event ID: ${envelope.eventId}`);
    }
    const event = parseSemanticEvent(envelope);
    for (const ref of envelope.causalRefs) {
      if (!this.acceptedByRef.has(refKey(ref))) {
        stop("unresolved-causal-ref", `Causal ref is not already accepted: ${ref.workScopeId}/${ref.eventId}`);
      }
    }
    const current = this.scopeById.get(envelope.workScopeId);
    // Causes may live in any scope; the reducer checks which of them support the event.
    const causes = envelope.causalRefs.map((ref) => this.acceptedByRef.get(refKey(ref)) as AcceptedEvent);
    const next = current === undefined ? openScope(envelope, event) : advanceScope(current, envelope, event, causes);
    const accepted: AcceptedEvent = { storedIndex: index, envelope, event };
    const key = refKey(eventRefOf(envelope));
    this.undoLog?.push({ workScopeId: envelope.workScopeId, previousScope: current, eventId: envelope.eventId, refKey: key });
    this.scopeById.set(envelope.workScopeId, next);
    this.acceptedById.set(envelope.eventId, accepted);
    this.acceptedByRef.set(key, accepted);
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
