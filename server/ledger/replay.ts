// The replay driver (developer/v8 §7.2). It applies raw entries one at a time to an accumulator,
// records one disposition per entry and never throws. It is incremental (entries can keep
// arriving) and supports trial application for batch preflight, rolled back exactly. Every entry
// costs O(1) however long the ledger and its scopes are: open scopes are reduced in place
// (LiveScope), a closed scope is kept as its head and summary (its records are rebuilt from its
// events when read, see closedScope.ts), and causes are found by event id.
import { LiveScope, advanceLiveScope, advanceScopeWithFacts, openLiveScope } from "../developer/reducer";
import { ClosedScope, closedScopeState, type ClosedScopeSource } from "./closedScope";
import { EventIdTable } from "./eventIdTable";
import { HashColumn } from "./hashColumn";
import { RunColumn } from "./runColumn";
import { factOfEvent, type CauseFact } from "../developer/reducer/causes";
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

/** A scope as the status lists show it (without its records). */
export interface ScopeListing {
  readonly workScopeId: string;
  readonly status: "open" | "closed";
  readonly head: number;
  readonly openedAt: string;
  readonly closedAt: string | null;
  readonly openedEventSha256: string;
}

/** What a cited event proves, without the ref (which the citing ref equals when it resolves). */
type FactBody = CauseFact extends infer F ? (F extends { readonly ref: EventRef } ? Omit<F, "ref"> : never) : never;

/** An open scope is reduced in place; a closed one can never change again and is kept in its closedScope form. */
type ScopeEntry = LiveScope | ClosedScope;

function bodyOf(fact: CauseFact): FactBody | null {
  if (fact.kind === "other") return null;
  const { ref: _ref, ...body } = fact;
  return body as FactBody;
}

const INITIAL_CAPACITY = 1_024;
/** Closed scopes whose full state stays built (a reader usually looks at one scope at a time). */
const CLOSED_STATES_KEPT = 8;

export interface ReplayerOptions {
  /**
   * Reads again the raw entry replayed at `storedIndex` (a store reads its line from the file).
   * With it, the replayer keeps per accepted event only what a later event can cite (its id,
   * scope, hash and what it proves as a cause) and reloads whole events when a reader asks; without
   * it, every accepted event stays in memory.
   */
  readonly reload?: (storedIndex: number) => unknown;
  /**
   * Called with a scope's full final state the moment it closes (never during a trial), while the
   * state is still in memory: a reader that needs a summary of every closed scope takes it here
   * instead of making the replayer rebuild each one from its lines later.
   */
  readonly onScopeClosed?: (state: ScopeState) => void;
  /** Called with each accepted event while it is in memory (never during a trial), with its ordinal. */
  readonly onAccepted?: (accepted: AcceptedEvent, ordinal: number) => void;
}

/** A reloaded entry is not the event replay accepted at that place (the file changed under the reader). */
export class ReplayReloadError extends Error {
  constructor(storedIndex: number) {
    super(`entry ${storedIndex} is no longer the event replay accepted there; the ledger changed under the reader`);
    this.name = "ReplayReloadError";
  }
}

export class Replayer implements ClosedScopeSource {
  private readonly reload: ((storedIndex: number) => unknown) | null;
  /** Accepted events in order (ordinals), only without `reload`. */
  private readonly retained: AcceptedEvent[] | null;
  /** Each accepted event's id by ordinal, and the ordinal of an id. */
  private readonly eventIds = new EventIdTable();
  /**
   * The entry index of every rejected entry, ascending. An accepted event's stored index follows
   * from them (rejections are rare), so no stored index is kept per accepted event.
   */
  private readonly rejectedIndexes: number[] = [];
  /** Each accepted event's scope ordinal (a scope's events mostly follow each other: kept as runs). */
  private readonly scopeOrdinals = new RunColumn();
  /** Each accepted event's kind, as an index into `kindNames`. */
  private kindCodes = new Uint16Array(INITIAL_CAPACITY);
  private readonly kindNames: string[] = [];
  private readonly kindCodeByName = new Map<string, number>();
  /** The eventSha256 of each accepted event, 32 bytes each. */
  private readonly shas = new HashColumn();
  private acceptedTotal = 0;
  /**
   * What each accepted support, settlement, conclusion or authorization of an open scope proves
   * when cited. A closed scope's are dropped: one of them is cited rarely (another scope citing
   * it, or its own rebuild) and is then read again from its event.
   */
  private readonly factBodies = new Map<number, FactBody>();
  /** Which kind codes prove something as a cause (the others prove "other"). */
  private readonly factKindCodes = new Set<number>();
  private readonly scopeIds: string[] = [];
  private readonly scopeEntries: ScopeEntry[] = [];
  private readonly scopeOrdinalById = new Map<string, number>();
  /** Accepted ordinals of each open scope (what a hook seed needs), dropped when the scope closes. */
  private readonly openScopeEvents = new Map<number, number[]>();
  /** Accepted ordinals of the closed scopes, each scope's as [count, ...ordinals] (ClosedScope.start). */
  private closedOrdinals = new Uint32Array(INITIAL_CAPACITY);
  private closedOrdinalsUsed = 0;
  /** The last few closed scopes' rebuilt full states, least recently read first. */
  private readonly closedStates = new Map<number, ScopeState>();
  private entryTotal = 0;
  private readonly rejections = new Map<number, Disposition & { status: "rejected" }>();
  private firstRejection: (Disposition & { status: "rejected" }) | null = null;
  /** Bumped by every accepted event: the key of the cached scope list. */
  private version = 0;
  private scopesCache: { readonly version: number; readonly scopes: ScopeState[] } | null = null;
  private listingsCache: { readonly version: number; readonly listings: readonly ScopeListing[] } | null = null;
  /** During a trial: the events it accepted, and each live scope it changed with its journal position before. */
  private trialAccepted: AcceptedEvent[] | null = null;
  private trialMarks: Map<LiveScope, number> | null = null;

  private readonly onScopeClosed: ((state: ScopeState) => void) | null;
  private readonly onAccepted: ((accepted: AcceptedEvent, ordinal: number) => void) | null;

  constructor(options: ReplayerOptions = {}) {
    this.reload = options.reload ?? null;
    this.onScopeClosed = options.onScopeClosed ?? null;
    this.onAccepted = options.onAccepted ?? null;
    this.retained = this.reload === null ? [] : null;
  }

  get acceptedCount(): number {
    return this.acceptedTotal;
  }

  /**
   * Every accepted event. Without `reload` this is the list kept in memory; with it, the events
   * are read again (O(events): for tools and tests, not for per-request paths).
   */
  get accepted(): readonly AcceptedEvent[] {
    if (this.retained !== null) return this.retained;
    const events: AcceptedEvent[] = [];
    for (let ordinal = 0; ordinal < this.acceptedTotal; ordinal += 1) events.push(this.acceptedEvent(ordinal) as AcceptedEvent);
    return events;
  }

  /** The accepted event of an ordinal (0 = the first accepted), reloaded when not kept. */
  acceptedEvent(ordinal: number): AcceptedEvent | undefined {
    if (!Number.isInteger(ordinal) || ordinal < 0 || ordinal >= this.acceptedTotal) return undefined;
    if (this.retained !== null) return this.retained[ordinal];
    const trialStart = this.acceptedTotal - (this.trialAccepted?.length ?? 0);
    if (this.trialAccepted !== null && ordinal >= trialStart) return this.trialAccepted[ordinal - trialStart];
    const storedIndex = this.storedIndexAt(ordinal);
    const raw = (this.reload as (storedIndex: number) => unknown)(storedIndex);
    let envelope: Envelope;
    let event: SemanticEvent;
    try {
      envelope = parseStored(raw);
      event = parseSemanticEvent(envelope);
    } catch {
      throw new ReplayReloadError(storedIndex);
    }
    if (envelope.eventSha256 !== this.eventSha256Of(ordinal)) throw new ReplayReloadError(storedIndex);
    return { storedIndex, envelope, event };
  }

  /** The replay index (stored index) of an accepted ordinal. */
  storedIndexOf(ordinal: number): number | undefined {
    return Number.isInteger(ordinal) && ordinal >= 0 && ordinal < this.acceptedTotal ? this.storedIndexAt(ordinal) : undefined;
  }

  /**
   * The entry index of accepted ordinal `ordinal`: the ordinal plus the rejections before it. With
   * the rejected indexes r[0] < r[1] < …, r[i] - i never decreases, and the rejections before the
   * ordinal's entry are exactly those with r[i] - i <= ordinal: a binary search finds how many.
   */
  private storedIndexAt(ordinal: number): number {
    const rejected = this.rejectedIndexes;
    let low = 0;
    let high = rejected.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((rejected[middle] as number) - middle <= ordinal) low = middle + 1;
      else high = middle;
    }
    return ordinal + low;
  }

  /** Ordinal of the accepted event with this id. */
  ordinalOfEventId(eventId: string): number | undefined {
    return this.eventIds.get(eventId);
  }

  eventIdOf(ordinal: number): string | undefined {
    return this.eventIds.idOf(ordinal);
  }

  workScopeIdOf(ordinal: number): string | undefined {
    return ordinal >= 0 && ordinal < this.acceptedTotal ? this.scopeIds[this.scopeOrdinals.at(ordinal)] : undefined;
  }

  kindOf(ordinal: number): string | undefined {
    return ordinal >= 0 && ordinal < this.acceptedTotal ? this.kindNames[this.kindCodes[ordinal] as number] : undefined;
  }

  /** The last accepted event of a kind (a scan of two bytes per event, no event read). */
  lastOrdinalOfKind(kind: string): number | undefined {
    const code = this.kindCodeByName.get(kind);
    if (code === undefined) return undefined;
    for (let ordinal = this.acceptedTotal - 1; ordinal >= 0; ordinal -= 1) if (this.kindCodes[ordinal] === code) return ordinal;
    return undefined;
  }

  /**
   * The scopes with an accepted landing of this id (read from the landing events only, about one
   * event in twenty), sorted by id: a closed scope's landings are not kept in memory.
   */
  scopesWithLanding(landingId: string): string[] {
    const code = this.kindCodeByName.get("implementation-landing-recorded");
    const scopes = new Set<string>();
    if (code === undefined) return [];
    for (let ordinal = 0; ordinal < this.acceptedTotal; ordinal += 1) {
      if (this.kindCodes[ordinal] !== code) continue;
      const event = (this.acceptedEvent(ordinal) as AcceptedEvent).event;
      if (event.kind === "implementation-landing-recorded" && event.landing.landingId === landingId) scopes.add(this.workScopeIdOf(ordinal) as string);
    }
    return [...scopes].sort(compareCodeUnits);
  }

  /** The accepted ordinals of an open scope, in order; undefined for a closed or unknown scope. */
  openScopeOrdinals(workScopeId: string): readonly number[] | undefined {
    const scopeOrdinal = this.scopeOrdinalById.get(workScopeId);
    return scopeOrdinal === undefined ? undefined : this.openScopeEvents.get(scopeOrdinal);
  }

  /** The id of each scope in the order scopes were opened (`scopeCount` of them). */
  scopeIdAt(scopeOrdinal: number): string | undefined {
    return this.scopeIds[scopeOrdinal];
  }

  eventSha256Of(ordinal: number): string {
    return this.shas.hexAt(ordinal);
  }

  /** Every disposition in entry order, built when asked (one per entry: O(entries)). */
  get dispositions(): readonly Disposition[] {
    return this.dispositionsFrom(0);
  }

  /** The dispositions of entries from `start` up to (not including) `end`. */
  dispositionsFrom(start: number, end = this.entryTotal): Disposition[] {
    const result: Disposition[] = [];
    const from = Math.max(0, start);
    // Entries before `from` that were accepted: every one of them but the (few) rejected.
    let ordinal = from;
    for (const index of this.rejections.keys()) if (index < from) ordinal -= 1;
    for (let index = from; index < Math.min(end, this.entryTotal); index += 1) {
      const rejected = this.rejections.get(index);
      if (rejected !== undefined) {
        result.push(rejected);
        continue;
      }
      result.push({ status: "accepted", index, eventId: this.eventIds.idOf(ordinal) as string });
      ordinal += 1;
    }
    return result;
  }

  get entryCount(): number {
    return this.entryTotal;
  }

  get firstRejected(): (Disposition & { status: "rejected" }) | null {
    return this.firstRejection;
  }

  get scopeCount(): number {
    return this.scopeIds.length;
  }

  /** Scopes sorted by id (code-unit order); built when asked, kept until an event is accepted. */
  scopes(): ScopeState[] {
    if (this.scopesCache !== null && this.scopesCache.version === this.version) return [...this.scopesCache.scopes];
    const scopes = this.scopeEntries.map((_, scopeOrdinal) => this.stateOf(scopeOrdinal)).sort((a, b) => compareCodeUnits(a.workScopeId, b.workScopeId));
    if (this.trialMarks === null) this.scopesCache = { version: this.version, scopes };
    return [...scopes];
  }

  /** Every scope's listing sorted by id (code-unit order), without building any closed scope's state. */
  scopeListings(): readonly ScopeListing[] {
    if (this.listingsCache !== null && this.listingsCache.version === this.version) return this.listingsCache.listings;
    const listings = this.scopeEntries
      .map((entry, scopeOrdinal): ScopeListing => {
        if (entry instanceof LiveScope) {
          const state = entry.snapshot();
          return {
            workScopeId: state.workScopeId,
            status: state.root.status,
            head: state.head.scopeSequence,
            openedAt: state.openedAt,
            closedAt: state.closedAt,
            openedEventSha256: state.openedEventSha256,
          };
        }
        return {
          workScopeId: this.scopeIds[scopeOrdinal] as string,
          status: "closed",
          head: entry.headSequence,
          openedAt: entry.openedAt,
          closedAt: entry.closedAt,
          openedEventSha256: this.eventSha256Of(this.closedOrdinals[entry.start + 1] as number),
        };
      })
      .sort((a, b) => compareCodeUnits(a.workScopeId, b.workScopeId));
    if (this.trialMarks === null) this.listingsCache = { version: this.version, listings };
    return listings;
  }

  /** The open scopes sorted by id, without building the closed ones (usually zero or one scope). */
  openScopes(): ScopeState[] {
    const open: ScopeState[] = [];
    for (const scopeOrdinal of this.openScopeEvents.keys()) open.push(this.stateOf(scopeOrdinal));
    return open.sort((a, b) => compareCodeUnits(a.workScopeId, b.workScopeId));
  }

  /** [refKey, fact] of every accepted event of the open scopes, in accepted order (null past `limit`). */
  openScopeCauses(limit: number): (readonly [string, CauseFact])[] | null {
    const ordinals = [...this.openScopeEvents.values()].flat().sort((a, b) => a - b);
    if (ordinals.length > limit) return null;
    return ordinals.map((ordinal) => {
      const ref = this.refOf(ordinal);
      return [refKey(ref), this.factOf(ordinal, ref)] as const;
    });
  }

  /**
   * The full final state of a closed scope, rebuilt by reducing its events again (read from their
   * lines and checked against the kept hashes, with the same resolved causes) and kept among the
   * last few read. Called by a closed scope's record getters.
   */
  closedScopeState(scopeOrdinal: number): ScopeState {
    const kept = this.closedStates.get(scopeOrdinal);
    if (kept !== undefined) {
      this.closedStates.delete(scopeOrdinal);
      this.closedStates.set(scopeOrdinal, kept);
      return kept;
    }
    const entry = this.scopeEntries[scopeOrdinal];
    if (!(entry instanceof ClosedScope)) throw new Error(`scope ${scopeOrdinal} is not closed`);
    const start = entry.start;
    const count = this.closedOrdinals[start] as number;
    // The scope's own events, just read, prove their facts without being read again.
    const own = new Map<string, AcceptedEvent>();
    let live: LiveScope | null = null;
    for (let position = start + 1; position <= start + count; position += 1) {
      const accepted = this.acceptedEvent(this.closedOrdinals[position] as number) as AcceptedEvent;
      const { storedIndex, envelope, event } = accepted;
      try {
        if (live === null) {
          live = openLiveScope(envelope, event);
          own.set(envelope.eventId, accepted);
          continue;
        }
        const causes = envelope.causalRefs.map((ref) => {
          const cited = own.get(ref.eventId);
          if (cited !== undefined && cited.envelope.eventSha256 === ref.eventSha256 && ref.workScopeId === envelope.workScopeId) {
            const fact = factOfEvent(cited);
            return { ...fact, ref } as CauseFact;
          }
          return this.resolve(ref) ?? stop("unresolved-causal-ref", "cause not found");
        });
        advanceLiveScope(live, envelope, event, causes);
        live.journal.forget();
        own.set(envelope.eventId, accepted);
      } catch {
        throw new ReplayReloadError(storedIndex);
      }
    }
    const state = (live as LiveScope).snapshot();
    this.closedStates.set(scopeOrdinal, state);
    if (this.closedStates.size > CLOSED_STATES_KEPT) this.closedStates.delete(this.closedStates.keys().next().value as number);
    return state;
  }

  scope(workScopeId: string): ScopeState | undefined {
    const scopeOrdinal = this.scopeOrdinalById.get(workScopeId);
    return scopeOrdinal === undefined ? undefined : this.stateOf(scopeOrdinal);
  }

  private stateOf(scopeOrdinal: number): ScopeState {
    const entry = this.scopeEntries[scopeOrdinal] as ScopeEntry;
    if (entry instanceof LiveScope) return entry.snapshot();
    const count = this.closedOrdinals[entry.start] as number;
    const first = this.closedOrdinals[entry.start + 1] as number;
    const last = this.closedOrdinals[entry.start + count] as number;
    const fields = {
      workScopeId: this.scopeIds[scopeOrdinal] as string,
      head: { scopeSequence: entry.headSequence, eventRef: this.refOf(last) },
      openedAt: entry.openedAt,
      openedEventSha256: this.eventSha256Of(first),
      closedAt: entry.closedAt,
    };
    return closedScopeState(fields, this, scopeOrdinal);
  }

  /**
   * Applies one raw entry and returns its disposition. Never throws. A reader that just parsed
   * and verified a ledger line hands over its entry with the entry's canonical text
   * (`parsedText`), which spares parsing the payload a second time.
   */
  apply(raw: unknown, parsedText?: string): Disposition {
    const index = this.entryTotal;
    const acceptedBefore = this.acceptedTotal;
    let disposition: Disposition;
    try {
      disposition = this.accept(index, raw, parsedText);
    } catch (error) {
      const rejected = { status: "rejected" as const, index, ...rejectionOf(error), observedIdentity: observedIdentity(raw) };
      this.rejections.set(index, rejected);
      // A listener that threw after the event was accepted leaves it accepted at this index.
      if (this.acceptedTotal === acceptedBefore) this.rejectedIndexes.push(index);
      if (this.firstRejection === null && this.trialMarks === null) this.firstRejection = rejected;
      disposition = rejected;
    }
    this.entryTotal += 1;
    return disposition;
  }

  /**
   * Applies entries on trial and rolls every effect back afterwards, returning the dispositions
   * and the envelopes that would be accepted. Used to preflight a batch before writing it. The
   * scope list as the trial left it is built only when `withScopes` asks (an append never does:
   * building it costs a view per closed scope).
   */
  trial(
    raws: readonly unknown[],
    options: { readonly withScopes?: boolean } = {},
  ): { dispositions: Disposition[]; accepted: AcceptedEvent[]; readonly scopes: ScopeState[] | null } {
    if (this.trialMarks !== null) throw new Error("nested replay trials are not supported");
    const entryStart = this.entryTotal;
    const acceptedStart = this.acceptedTotal;
    const scopeStart = this.scopeIds.length;
    const versionStart = this.version;
    this.trialMarks = new Map();
    this.trialAccepted = [];
    const dispositions: Disposition[] = [];
    const accepted = this.trialAccepted;
    try {
      for (const raw of raws) dispositions.push(this.apply(raw));
      const scopes = options.withScopes === true ? this.scopes() : null;
      return { dispositions, accepted: [...accepted], scopes };
    } finally {
      for (let ordinal = this.acceptedTotal - 1; ordinal >= acceptedStart; ordinal -= 1) {
        this.factBodies.delete(ordinal);
        const events = this.openScopeEvents.get(this.scopeOrdinals.at(ordinal));
        if (events !== undefined && events.at(-1) === ordinal) events.pop();
      }
      for (let scopeOrdinal = this.scopeIds.length - 1; scopeOrdinal >= scopeStart; scopeOrdinal -= 1) {
        this.scopeOrdinalById.delete(this.scopeIds[scopeOrdinal] as string);
        this.openScopeEvents.delete(scopeOrdinal);
      }
      this.scopeIds.length = scopeStart;
      this.scopeEntries.length = scopeStart;
      this.eventIds.truncate(acceptedStart);
      this.scopeOrdinals.truncate(acceptedStart);
      this.retained?.splice(acceptedStart);
      for (let index = entryStart; index < this.entryTotal; index += 1) this.rejections.delete(index);
      while ((this.rejectedIndexes.at(-1) ?? -1) >= entryStart) this.rejectedIndexes.pop();
      for (const [scope, mark] of this.trialMarks) {
        scope.journal.rollback(mark);
        scope.journal.forget();
      }
      this.entryTotal = entryStart;
      this.acceptedTotal = acceptedStart;
      this.version = versionStart;
      this.trialMarks = null;
      this.trialAccepted = null;
    }
  }

  private refOf(ordinal: number): EventRef {
    return { workScopeId: this.workScopeIdOf(ordinal) as string, eventId: this.eventIds.idOf(ordinal) as string, eventSha256: this.eventSha256Of(ordinal) };
  }

  private factOf(ordinal: number, ref: EventRef): CauseFact {
    const body = this.factBodies.get(ordinal) ?? this.closedFactBody(ordinal);
    // Members in factOfEvent's order: a hook seed writes facts out as JSON.
    if (body === undefined || body === null) return { kind: "other", ref };
    const { kind, ...members } = body;
    return { kind, ref, ...members } as CauseFact;
  }

  /** What the accepted event a causal ref names proves (event ids are unique among accepted events). */
  private resolve(ref: EventRef): CauseFact | undefined {
    const ordinal = this.eventIds.get(ref.eventId);
    if (ordinal === undefined || this.scopeIds[this.scopeOrdinals.at(ordinal)] !== ref.workScopeId) return undefined;
    if (this.eventSha256Of(ordinal) !== ref.eventSha256) return undefined;
    return this.factOf(ordinal, ref);
  }

  /** Keeps a closing scope's ordinals as [count, ...ordinals] in the shared pool. */
  private keepClosedOrdinals(ordinals: readonly number[]): number {
    const needed = this.closedOrdinalsUsed + ordinals.length + 1;
    if (needed > this.closedOrdinals.length) {
      const pool = new Uint32Array(Math.max(needed, this.closedOrdinals.length * 2));
      pool.set(this.closedOrdinals.subarray(0, this.closedOrdinalsUsed));
      this.closedOrdinals = pool;
    }
    const start = this.closedOrdinalsUsed;
    this.closedOrdinals[start] = ordinals.length;
    this.closedOrdinals.set(ordinals, start + 1);
    this.closedOrdinalsUsed = needed;
    return start;
  }

  /** What an event of a closed scope proves, read again from the event (null for the kinds that prove nothing). */
  private closedFactBody(ordinal: number): FactBody | null {
    if (!this.factKindCodes.has(this.kindCodes[ordinal] as number)) return null;
    if (this.openScopeEvents.has(this.scopeOrdinals.at(ordinal))) return null;
    return bodyOf(factOfEvent(this.acceptedEvent(ordinal) as AcceptedEvent));
  }

  private grow(): void {
    const capacity = this.kindCodes.length * 2;
    const kindCodes = new Uint16Array(capacity);
    kindCodes.set(this.kindCodes);
    this.kindCodes = kindCodes;
  }

  private accept(index: number, raw: unknown, parsedText: string | undefined): Disposition {
    const envelope = parseStored(raw, parsedText);
    if (this.eventIds.has(envelope.eventId)) {
      stop("duplicate-event-id", `Duplicate accepted event ID: ${envelope.eventId}`);
    }
    const event = parseSemanticEvent(envelope);
    // Causes may live in any scope; the reducer checks which of them support the event.
    const causes: CauseFact[] = [];
    for (const ref of envelope.causalRefs) {
      const cause = this.resolve(ref);
      if (cause === undefined) {
        return stop("unresolved-causal-ref", `Causal ref is not already accepted: ${ref.workScopeId}/${ref.eventId}`);
      }
      causes.push(cause);
    }
    let scopeOrdinal = this.scopeOrdinalById.get(envelope.workScopeId);
    const current = scopeOrdinal === undefined ? undefined : (this.scopeEntries[scopeOrdinal] as ScopeEntry);
    if (current === undefined) {
      const opened = openLiveScope(envelope, event);
      scopeOrdinal = this.scopeIds.length;
      this.scopeIds.push(envelope.workScopeId);
      this.scopeEntries.push(opened);
      this.scopeOrdinalById.set(envelope.workScopeId, scopeOrdinal);
      this.openScopeEvents.set(scopeOrdinal, []);
    } else if (current instanceof LiveScope) {
      if (this.trialMarks !== null && !this.trialMarks.has(current)) this.trialMarks.set(current, current.journal.length);
      advanceLiveScope(current, envelope, event, causes);
      if (this.trialMarks === null) {
        current.journal.forget();
        if (current.status === "closed") {
          this.onScopeClosed?.(current.snapshot());
          const ordinals = this.openScopeEvents.get(scopeOrdinal as number) as number[];
          ordinals.push(this.acceptedTotal);
          const start = this.keepClosedOrdinals(ordinals);
          for (const ordinal of ordinals) this.factBodies.delete(ordinal);
          this.scopeEntries[scopeOrdinal as number] = new ClosedScope(start, current.head.scopeSequence, current.openedAt, envelope.occurredAt);
          this.openScopeEvents.delete(scopeOrdinal as number);
        }
      }
    } else {
      // A closed scope: this always rejects (with the head fault first, as for any scope).
      advanceScopeWithFacts(this.stateOf(scopeOrdinal as number), envelope, event, causes);
    }
    const ordinal = this.acceptedTotal;
    if (ordinal === this.kindCodes.length) this.grow();
    // Truncated first: an entry that failed after this point left its value behind.
    this.scopeOrdinals.truncate(ordinal);
    this.scopeOrdinals.push(scopeOrdinal as number);
    let kindCode = this.kindCodeByName.get(envelope.kind);
    if (kindCode === undefined) {
      kindCode = this.kindNames.length;
      this.kindNames.push(envelope.kind);
      this.kindCodeByName.set(envelope.kind, kindCode);
    }
    this.kindCodes[ordinal] = kindCode;
    this.shas.write(ordinal, envelope.eventSha256);
    this.eventIds.push(envelope.eventId);
    const accepted: AcceptedEvent = { storedIndex: index, envelope, event };
    const body = bodyOf(factOfEvent(accepted));
    if (body !== null) {
      this.factKindCodes.add(kindCode);
      if (this.scopeEntries[scopeOrdinal as number] instanceof LiveScope) this.factBodies.set(ordinal, body);
    }
    this.openScopeEvents.get(scopeOrdinal as number)?.push(ordinal);
    this.retained?.push(accepted);
    this.trialAccepted?.push(accepted);
    this.acceptedTotal += 1;
    this.version += 1;
    if (this.trialMarks === null) this.onAccepted?.(accepted, ordinal);
    return { status: "accepted", index, eventId: envelope.eventId };
  }
}

/** Replays a whole list of raw entries (§7.2). */
export function replayEntries(raws: Iterable<unknown>): Replayer {
  const replayer = new Replayer();
  for (const raw of raws) replayer.apply(raw);
  return replayer;
}
