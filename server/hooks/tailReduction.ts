// Reduces the ledger lines appended after a checkpoint, starting from the checkpoint's tail seed,
// with the same line decoding and the same reducer a full replay uses. It answers exactly what a
// full replay would, or null when the tail reaches outside what the seed knows (an id the id log
// may hold, a cause in a closed scope, an event of a closed scope): the caller then replays.
// Ids are assumed new while the lines are reduced and proven new afterwards with one scan of the
// id log: if any was not new, the whole reduction is discarded, so the assumption never shows.
// Writers use the same reduction (server/workspace/snapshotWrites.ts) and then preflight their
// batch on the reduced state with the same rules, so a write needs no full replay either.
import { parseSemanticEvent } from "../developer/eventKinds";
import type { HistoryView } from "../developer/history";
import { LiveScope, advanceLiveScope, openLiveScope } from "../developer/reducer";
import { factOfEvent, type CauseFact } from "../developer/reducer/causes";
import type { ScopeState } from "../developer/scopeState";
import { eventRefOf } from "../ledger/envelope";
import { stop } from "../ledger/faults";
import { DEVELOPER_STREAM, LineFault, decodeLedgerLine } from "../ledger/ledgerLine";
import { parseStored, refKey, rejectionOf } from "../ledger/replay";
import { writeFileAtomicContained } from "../workspace/containedFs";
import type { Checkpoint, CheckpointState } from "./checkpoint";
import { checkpointPathFor } from "./checkpointPath";
import { checkpointStateOf } from "./checkpointStateOf";
import { readAt, type OpenLedger } from "./openLedger";
import { sealedCheckpoint } from "./checkpointSeal";
import { Fingerprints, VerifiedIdLog, type IdLogBinding } from "./idLog";
import { MAX_SEEDED_EVENTS, TAIL_SEED_FORMAT, readTailSeed, writeTailSeed, type TailSeed } from "./tailSeed";

/** A longer tail is not a crash window but a foreign writer's history: replay it. */
export const MAX_TAIL_BYTES = 8 * 1024 * 1024;

export type TailResult = { readonly kind: "state"; readonly state: CheckpointState } | { readonly kind: "fault"; readonly reason: string };

const decoder = new TextDecoder("utf-8", { fatal: true });

function readTail(ledger: OpenLedger, from: number): Buffer | null {
  const length = ledger.size - from;
  if (length < 0 || length > MAX_TAIL_BYTES) return null;
  return readAt(ledger.fd, from, length);
}

/** Replay's per-entry rules over the seed (server/ledger/replay.ts Replayer.accept). */
export class SeededReplay {
  /** The seed's open scopes, each made live (reduced in place) when the tail first reaches it. */
  private readonly scopes = new Map<string, ScopeState | LiveScope>();
  private readonly causes: Map<string, CauseFact>;
  private readonly tailIds = new Set<string>();
  /** Ids the reduction assumed the prefix never accepted (event ids, cited ids, scope ids). */
  private readonly assumedNew = new Fingerprints();
  private provenCount = 0;
  private refuted = false;
  /** Ids accepted after the seed, in the id log's order. */
  private readonly added = new Fingerprints();
  private extendedCount = 0;
  private idLog: VerifiedIdLog | null | undefined = undefined;
  private ids: IdLogBinding;
  entryCount: number;
  scopeCount: number;
  firstRejection: { index: number; code: string; message: string } | null = null;

  constructor(
    seed: TailSeed,
    private readonly root: string,
    private readonly ledgerPath: string,
  ) {
    for (const scope of seed.openScopes) this.scopes.set(scope.workScopeId, scope);
    this.causes = new Map(seed.causes.map(([key, fact]) => [key, fact]));
    this.ids = seed.ids;
    this.entryCount = seed.entryCount;
    this.scopeCount = seed.scopeCount;
  }

  /**
   * True when no id assumed new so far is in the seed's id log; false when one may be, or the log
   * does not hold what the seed binds (then only a full replay can tell). One scan of the log for
   * all the ids assumed since the last proof.
   */
  provenNew(): boolean {
    if (this.refuted) return false;
    if (this.provenCount === this.assumedNew.length) return true;
    if (this.idLog === undefined) this.idLog = VerifiedIdLog.read(this.root, this.ledgerPath, this.ids);
    if (this.idLog === null || this.idLog.containsAny(this.assumedNew.wordsOf(this.provenCount))) {
      this.refuted = true;
      return false;
    }
    this.provenCount = this.assumedNew.length;
    return true;
  }

  /** Like Replayer.apply, assuming every id it meets new; provenNew() then says whether they were. */
  apply(raw: unknown, parsedText?: string): void {
    const index = this.entryCount;
    this.entryCount += 1;
    try {
      this.accept(raw, parsedText);
    } catch (error) {
      if (this.firstRejection === null) this.firstRejection = { index, ...rejectionOf(error) };
    }
  }

  private accept(raw: unknown, parsedText: string | undefined): void {
    const envelope = parseStored(raw, parsedText);
    if (this.tailIds.has(envelope.eventId)) stop("duplicate-event-id", `Duplicate accepted event ID: ${envelope.eventId}`);
    // Before any other check, as replay's duplicate check: if the prefix holds it, replay decides.
    this.assumedNew.add("event", envelope.eventId);
    const event = parseSemanticEvent(envelope);
    const facts: CauseFact[] = [];
    for (const ref of envelope.causalRefs) {
      const fact = this.causes.get(refKey(ref));
      if (fact === undefined) {
        // A cause outside the open scopes may still be a real event of a closed one.
        this.assumedNew.add("event", ref.eventId);
        stop("unresolved-causal-ref", `Causal ref is not already accepted: ${ref.workScopeId}/${ref.eventId}`);
      }
      facts.push(fact);
    }
    const known = this.scopes.get(envelope.workScopeId);
    // A scope the seed does not hold open is new unless the prefix opened (and closed) it.
    if (known === undefined) this.assumedNew.add("scope", envelope.workScopeId);
    if (known === undefined) {
      this.scopes.set(envelope.workScopeId, openLiveScope(envelope, event));
      this.scopeCount += 1;
    } else {
      const live = known instanceof LiveScope ? known : LiveScope.fromState(known);
      this.scopes.set(envelope.workScopeId, live);
      advanceLiveScope(live, envelope, event, facts);
      live.journal.forget();
    }
    this.tailIds.add(envelope.eventId);
    this.added.add("event", envelope.eventId);
    if (known === undefined) this.added.add("scope", envelope.workScopeId);
    this.causes.set(refKey(eventRefOf(envelope)), factOfEvent({ envelope, event }));
  }

  /**
   * The open scopes' states. A scope the tail closed stays live (a later event of it is rejected
   * as a replay rejects it) but is never snapshotted: only open scopes reach the history and seed.
   */
  private openStates(): ScopeState[] {
    const open: ScopeState[] = [];
    for (const scope of this.scopes.values()) {
      if (scope instanceof LiveScope) {
        if (scope.status === "open") open.push(scope.snapshot());
      } else if (scope.root.status === "open") {
        open.push(scope);
      }
    }
    return open;
  }

  /** The history view describeHistory would give for the whole ledger. */
  history(): HistoryView {
    const open = this.openStates();
    const scopes = open;
    if (this.firstRejection !== null) {
      const { index, code, message } = this.firstRejection;
      return { mode: "blocked", blockedReason: `replay rejected entry ${index}: ${code}: ${message}`, activeScope: null, scopes };
    }
    if (open.length > 1) return { mode: "blocked", blockedReason: "multiple open work scopes", activeScope: null, scopes };
    if (open.length === 1) return { mode: "v8-active", blockedReason: null, activeScope: open[0] ?? null, scopes };
    return { mode: this.scopeCount === 0 ? "empty" : "v8-closed", blockedReason: null, activeScope: null, scopes };
  }

  /** The id log's binding once the ids accepted after the seed are written to it; null if they cannot be. */
  private extendedIds(): IdLogBinding | null {
    if (this.extendedCount === this.added.length) return this.ids;
    // Every added id was assumed new first, so a proof has read the log.
    if (!this.provenNew() || this.idLog === null || this.idLog === undefined) return null;
    const binding = this.idLog.extend(this.root, this.ledgerPath, this.added.bytesOf(this.extendedCount));
    if (binding === null) return null;
    this.ids = binding;
    this.extendedCount = this.added.length;
    return binding;
  }

  /**
   * The seed at a position, with the ids accepted so far written to the id log first; null where
   * tailSeedOf would give none (open scopes too large to seed) or the id log cannot be extended.
   */
  seedAt(lines: number, headLineSha256: string | null): TailSeed | null {
    const openScopes = this.openStates();
    const open = new Set(openScopes.map((scope) => scope.workScopeId));
    const causes = [...this.causes].filter(([key]) => open.has(key.slice(0, key.indexOf("\u0000"))));
    if (causes.length > MAX_SEEDED_EVENTS) return null;
    const ids = this.extendedIds();
    if (ids === null) return null;
    return { format: TAIL_SEED_FORMAT, lines, headLineSha256, entryCount: this.entryCount, scopeCount: this.scopeCount, openScopes, causes, ids };
  }
}

/** One complete line of the tail: where it lies and its chained hash. */
export interface TailLine {
  readonly offset: number;
  readonly length: number;
  readonly lineSha256: string;
}

/** The seeded state after every complete line of the tail, and where those lines end. */
export interface ReducedTail {
  readonly kind: "reduced";
  readonly replay: SeededReplay;
  /** Offset just past the last complete line; bytes after it are a torn write. */
  readonly bytes: number;
  readonly lines: number;
  readonly headLine: Checkpoint["ledger"]["headLine"];
  readonly tailLines: readonly TailLine[];
}

/**
 * Reduces the complete lines after the checkpoint from its seed; null when only a full replay can
 * tell (no matching seed, a blocked prefix, a tail too long, an id or cause the seed cannot vouch
 * for), a fault for a line a full replay would fault on too.
 */
export function reduceSeededTail(openLedger: OpenLedger, checkpoint: Checkpoint): ReducedTail | { readonly kind: "fault"; readonly reason: string } | null {
  const seed = readTailSeed(openLedger.root, openLedger.ledgerPath);
  const { ledger } = checkpoint;
  if (seed === null || seed.lines !== ledger.lines || seed.headLineSha256 !== (ledger.headLine?.lineSha256 ?? null)) return null;
  // A blocked prefix stays blocked whatever follows, except "several open scopes", which the
  // tail could close; that rare case is left to a full replay.
  if (checkpoint.state.blockedReason !== null) return null;
  let tail: Buffer | null;
  try {
    tail = readTail(openLedger, ledger.bytes);
  } catch {
    return null;
  }
  if (tail === null) return null;
  const replay = new SeededReplay(seed, openLedger.root, openLedger.ledgerPath);
  let lineNumber = ledger.lines;
  let previous = ledger.headLine?.lineSha256 ?? null;
  let start = 0;
  let headLine = ledger.headLine;
  const tailLines: TailLine[] = [];
  for (;;) {
    const newline = tail.indexOf(0x0a, start);
    if (newline < 0) break;
    let text: string;
    try {
      text = decoder.decode(tail.subarray(start, newline));
    } catch {
      return { kind: "fault", reason: `ledger line ${lineNumber + 1}: ledger-not-utf8: line ${lineNumber + 1} is not valid UTF-8` };
    }
    let decoded;
    try {
      decoded = decodeLedgerLine(text, lineNumber, previous);
    } catch (error) {
      const fault = error instanceof LineFault ? error : new LineFault("ledger-line-invalid", String(error));
      return { kind: "fault", reason: `ledger line ${lineNumber + 1}: ${fault.code}: ${fault.message}` };
    }
    if (decoded.stream === DEVELOPER_STREAM) replay.apply(decoded.entry, decoded.entryText);
    const offset = ledger.bytes + start;
    const length = newline - start + 1;
    headLine = { offset, length, text: `${text}\n`, lineSha256: decoded.lineSha256 };
    tailLines.push({ offset, length, lineSha256: decoded.lineSha256 });
    previous = decoded.lineSha256;
    lineNumber += 1;
    start = newline + 1;
  }
  if (!replay.provenNew()) return null;
  return { kind: "reduced", replay, bytes: ledger.bytes + start, lines: lineNumber, headLine, tailLines };
}

/**
 * The state after the tail, or null when only a full replay can tell. On success the checkpoint
 * and its seed are moved to the end of the tail (best effort) so the next hook reads no tail.
 */
export function reduceTail(openLedger: OpenLedger, checkpoint: Checkpoint): TailResult | null {
  const reduced = reduceSeededTail(openLedger, checkpoint);
  if (reduced === null || reduced.kind === "fault") return reduced;
  const { replay, headLine } = reduced;
  const state = checkpointStateOf(replay.history());
  if (reduced.tailLines.length > 0 && headLine !== null && state.blockedReason === null) {
    const position: Checkpoint["ledger"] = { ino: openLedger.ino, bytes: reduced.bytes, lines: reduced.lines, headLine };
    advanceCheckpoint(openLedger, sealedCheckpoint(position, state), replay.seedAt(reduced.lines, headLine.lineSha256));
  }
  return { kind: "state", state };
}

/** Seed first, then the checkpoint that points at it; a writer's newer pair may win the race, harmlessly. */
function advanceCheckpoint(ledger: OpenLedger, checkpoint: Checkpoint, seed: TailSeed | null): void {
  try {
    writeTailSeed(ledger.root, ledger.ledgerPath, seed);
    writeFileAtomicContained(ledger.root, checkpointPathFor(ledger.ledgerPath), `${JSON.stringify(checkpoint)}\n`);
  } catch {
    // A checkpoint is a cache; the next hook reduces the same tail again.
  }
}
