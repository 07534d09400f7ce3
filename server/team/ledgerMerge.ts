// The merge of two Docket ledgers that grew apart from a common history (`docket merge-ledger`,
// docs/ledger-merge.md). Pure over its inputs: it reads the base and the two sides as line
// streams and writes the merged ledger to a sink; the Git and file adapter is mergeLedgerFiles.ts.
//
// The result keeps the longest common line prefix of the two sides byte for byte, then one side's
// lines exactly as they are, then the other side's lines re-wrapped (new `line`,
// `previousLineSha256` and `lineSha256`; `stream` and `entry` byte-identical). Which side comes
// first depends only on the two sides' contents, never on which one is "ours", so both merge
// directions give the same bytes. Anything the merge does not fully understand is a conflict and
// nothing is written.
import { DEVELOPER_STREAM, GUARD_STREAM, LineFault, OBSERVER_STREAM, decodeLedgerLine, isLedgerLineShape, rewrapLedgerLine, type DecodedLedgerLine } from "../ledger/ledgerLine";
import { Replayer } from "../ledger/replay";
import { describeHistory } from "../developer/history";
import { isRecord } from "../ledger/values";
import { LineTooLongError, NotUtf8Error, type SourceLine } from "./lineReader";

export type MergeSide = "base" | "ours" | "theirs";

/** Every way a merge refuses; each is printed as `docket: docket.merge-<code>: message`. */
export const MERGE_CONFLICT_CODES = [
  "docket.merge-not-ledger",
  "docket.merge-torn",
  "docket.merge-tampered",
  "docket.merge-prefix-rewritten",
  "docket.merge-unrelated",
  "docket.merge-same-scope",
  "docket.merge-observer-both",
  "docket.merge-both-open",
  "docket.merge-review-bound",
  "docket.merge-replay-rejected",
  "docket.merge-changed",
  "docket.merge-unreadable",
] as const;
export type MergeConflictCode = (typeof MERGE_CONFLICT_CODES)[number];

export class MergeConflict extends Error {
  constructor(
    readonly code: MergeConflictCode,
    message: string,
  ) {
    super(message);
    this.name = "MergeConflict";
  }
}

export interface LineSource {
  next(): SourceLine | null;
  /** Bytes after the last newline, once next() has returned null. */
  readonly torn: number;
}

export interface MergeSources {
  /** A fresh line stream of one input, from byte `start` on. */
  open(side: MergeSide, start: number): LineSource;
}

export interface MergeSink {
  /** Appends text (whole lines) to the result. */
  write(text: string): void;
  /** Reads back `length` bytes of the result written at `offset` (replay reloads an event this way). */
  readBack(offset: number, length: number): string;
}

export interface MergeResult {
  /** Which side's lines keep their positions; null when the sides were identical. */
  readonly kept: "ours" | "theirs" | null;
  /** Which side's lines were re-wrapped after the other's; null when one side added nothing. */
  readonly moved: "ours" | "theirs" | null;
  /** Lines of the common prefix. */
  readonly prefixLines: number;
  readonly lines: number;
  readonly bytes: number;
  readonly headLineSha256: string | null;
  /** Where ours' last line is in the result (its number and hash there); null when ours is empty. */
  readonly oursHead: { readonly line: number; readonly lineSha256: string } | null;
  /** The result's last line: where it lies. */
  readonly headLine: { readonly offset: number; readonly length: number } | null;
  /** Where ours' line `options.trackOursLine` is in the result, and the link it had in ours. */
  readonly tracked: { readonly line: number; readonly offset: number; readonly length: number; readonly previousLineSha256Before: string | null } | null;
}

export interface MergeOptions {
  /** A zero-based line of ours whose place in the result the caller wants (the anchored head). */
  readonly trackOursLine?: number;
}

/** What the first pass learnt of one side's lines after the common prefix. */
interface SuffixFacts {
  readonly side: "ours" | "theirs";
  lines: number;
  firstLineSha256: string | null;
  headLineSha256: string | null;
  /** Scope and review ids the suffix touches (same-scope detection). */
  readonly touched: Set<string>;
  /** Scopes open after the side's last line that its own suffix opened. */
  opensAtEnd: boolean;
  /** A review-submitted entry in the suffix binds a review-opened line of the same suffix. */
  reviewBound: boolean;
  observerLines: number;
}

const SIDE_NAMES: Record<MergeSide, string> = { base: "the base (%O)", ours: "ours (%A)", theirs: "theirs (%B)" };

function decodeOrRefuse(side: MergeSide, line: SourceLine, index: number, previous: string | null): DecodedLedgerLine {
  try {
    return decodeLedgerLine(line.text, index, previous);
  } catch (error) {
    if (!(error instanceof LineFault)) throw error;
    if (index === 0 && !looksLikeLedgerLine(line.text)) {
      throw new MergeConflict("docket.merge-not-ledger", `${SIDE_NAMES[side]} is not a Docket ledger (its first line is not a docket/ledger-line/v1 line)`);
    }
    throw new MergeConflict("docket.merge-tampered", `${SIDE_NAMES[side]}: ${error.code}: ${error.message}`);
  }
}

function looksLikeLedgerLine(text: string): boolean {
  try {
    return isLedgerLineShape(JSON.parse(text));
  } catch {
    return false;
  }
}

function nextOrRefuse(side: MergeSide, source: LineSource): SourceLine | null {
  try {
    return source.next();
  } catch (error) {
    if (error instanceof NotUtf8Error || error instanceof LineTooLongError) throw new MergeConflict("docket.merge-tampered", `${SIDE_NAMES[side]}: ${error.message}`);
    throw error;
  }
}

function refuseTorn(side: MergeSide, source: LineSource, lines: number): void {
  if (source.torn > 0) {
    throw new MergeConflict("docket.merge-torn", `${SIDE_NAMES[side]} ends with ${source.torn} bytes after its last complete line (line ${lines}): a torn or truncated ledger is not merged`);
  }
}

/** Tracks which developer/v8 scopes are open (by the envelope's kind; replay checks the rest). */
function trackScopes(open: Set<string>, entry: unknown, openedHere: Set<string> | null): void {
  if (!isRecord(entry) || typeof entry.workScopeId !== "string") return;
  if (entry.kind === "work-scope-opened") {
    open.add(entry.workScopeId);
    openedHere?.add(entry.workScopeId);
  } else if (entry.kind === "work-scope-closed") open.delete(entry.workScopeId);
}

function scanSuffix(
  side: "ours" | "theirs",
  source: LineSource,
  first: SourceLine | null,
  start: { index: number; previous: string | null },
  prefixOpen: ReadonlySet<string>,
): SuffixFacts {
  const facts: SuffixFacts = { side, lines: 0, firstLineSha256: null, headLineSha256: null, touched: new Set(), opensAtEnd: false, reviewBound: false, observerLines: 0 };
  const open = new Set(prefixOpen);
  const openedHere = new Set<string>();
  const reviewOpenedLines = new Set<string>();
  let index = start.index;
  let previous = start.previous;
  for (let line = first; line !== null; line = nextOrRefuse(side, source)) {
    const decoded = decodeOrRefuse(side, line, index, previous);
    facts.firstLineSha256 ??= decoded.lineSha256;
    const entry = decoded.entry;
    if (decoded.stream === DEVELOPER_STREAM) {
      if (isRecord(entry) && typeof entry.workScopeId === "string") facts.touched.add(entry.workScopeId);
      trackScopes(open, entry, openedHere);
    } else if (decoded.stream === GUARD_STREAM && isRecord(entry)) {
      // The shape was checked with the line (guardEntry.ts): these fields are strings.
      facts.touched.add(entry.reviewId as string);
      if (entry.kind === "review-opened") {
        facts.touched.add(entry.workScopeId as string);
        reviewOpenedLines.add(decoded.lineSha256);
      } else if (reviewOpenedLines.has(entry.openedLineSha256 as string)) facts.reviewBound = true;
    } else if (decoded.stream === OBSERVER_STREAM) facts.observerLines += 1;
    previous = decoded.lineSha256;
    index += 1;
    facts.lines += 1;
  }
  refuseTorn(side, source, index);
  facts.headLineSha256 = previous;
  facts.opensAtEnd = [...open].some((scope) => openedHere.has(scope));
  return facts;
}

interface Plan {
  readonly prefixLines: number;
  readonly prefixBytes: number;
  readonly prefixHead: string | null;
  readonly first: SuffixFacts;
  readonly second: SuffixFacts | null;
}

/** First pass: every input is a valid ledger, the base is a prefix of both sides, and an order exists. */
function planMerge(sources: MergeSources): Plan {
  const base = sources.open("base", 0);
  const ours = sources.open("ours", 0);
  const theirs = sources.open("theirs", 0);
  const prefixOpen = new Set<string>();
  let index = 0;
  let previous: string | null = null;
  let bytes = 0;
  let baseDone = false;
  let o = nextOrRefuse("ours", ours);
  let t = nextOrRefuse("theirs", theirs);
  while (o !== null && t !== null && o.text === t.text) {
    const decoded = decodeOrRefuse("ours", o, index, previous);
    if (!baseDone) {
      const b = nextOrRefuse("base", base);
      if (b === null) baseDone = true;
      else if (b.text !== o.text) refuseBaseLine("both sides", b, index, previous);
    }
    if (decoded.stream === DEVELOPER_STREAM) trackScopes(prefixOpen, decoded.entry, null);
    previous = decoded.lineSha256;
    bytes += o.bytes;
    index += 1;
    o = nextOrRefuse("ours", ours);
    t = nextOrRefuse("theirs", theirs);
  }
  if (!baseDone) {
    const b = nextOrRefuse("base", base);
    if (b !== null) {
      // The base goes on where the sides part: it is not a prefix of (at least) one of them.
      const differs = o === null || b.text !== o.text ? "ours" : "theirs";
      // A side line that is itself invalid says more than "rewritten".
      const sideLine = differs === "ours" ? o : t;
      if (sideLine !== null) decodeOrRefuse(differs, sideLine, index, previous);
      refuseBaseLine(differs, b, index, previous);
    }
  }
  refuseTorn("base", base, index);
  const start = { index, previous };
  const oursFacts = scanSuffix("ours", ours, o, start, prefixOpen);
  const theirsFacts = scanSuffix("theirs", theirs, t, start, prefixOpen);
  const plan = { prefixLines: index, prefixBytes: bytes, prefixHead: previous };
  if (oursFacts.lines === 0) return { ...plan, first: theirsFacts, second: null };
  if (theirsFacts.lines === 0) return { ...plan, first: oursFacts, second: null };
  if (index === 0) {
    throw new MergeConflict("docket.merge-unrelated", "ours and theirs share no line: the two ledgers have unrelated histories and are not merged");
  }
  for (const id of oursFacts.touched) {
    if (theirsFacts.touched.has(id)) {
      throw new MergeConflict("docket.merge-same-scope", `both sides appended to ${id} after line ${index}: one scope's history cannot be joined from two branches`);
    }
  }
  if (oursFacts.observerLines > 0 && theirsFacts.observerLines > 0) {
    throw new MergeConflict("docket.merge-observer-both", `both sides appended observer/v1 entries after line ${index} (${oursFacts.observerLines} and ${theirsFacts.observerLines}): Observer's one stream cannot be joined from two branches`);
  }
  return { ...plan, ...orderOf(oursFacts, theirsFacts, index) };
}

function refuseBaseLine(rewrote: string, b: SourceLine, index: number, previous: string | null): never {
  // A base line that is itself no ledger line says more than "rewritten".
  decodeOrRefuse("base", b, index, previous);
  throw new MergeConflict("docket.merge-prefix-rewritten", `line ${index + 1} of the base is not line ${index + 1} of ${rewrote === "both sides" ? "either side" : SIDE_NAMES[rewrote as MergeSide]}: a side removed or rewrote committed lines, which Docket never does`);
}

/**
 * The order rule. A side whose review pairs bind lines of its own suffix must keep its positions
 * (first); a side that leaves a scope it opened open must come last (else two scopes would be open
 * when the other side's scope opens). Otherwise the side whose first new line has the smaller
 * lineSha256 goes first: the two first lines share their position, so they differ in hash.
 */
function orderOf(a: SuffixFacts, b: SuffixFacts, prefixLines: number): { first: SuffixFacts; second: SuffixFacts } {
  const fits = (first: SuffixFacts, second: SuffixFacts): boolean => !second.reviewBound && !first.opensAtEnd;
  const [low, high] = (a.firstLineSha256 as string) < (b.firstLineSha256 as string) ? [a, b] : [b, a];
  if (fits(low, high)) return { first: low, second: high };
  if (fits(high, low)) return { first: high, second: low };
  if (a.opensAtEnd && b.opensAtEnd) {
    throw new MergeConflict("docket.merge-both-open", `both sides leave a scope they opened after line ${prefixLines} open: the merged history would have two open scopes. Turn Docket off on one branch first`);
  }
  throw new MergeConflict("docket.merge-review-bound", `no order keeps every review's opened line in place: ${[a, b].filter((side) => side.reviewBound).map((side) => side.side).join(" and ")} recorded a review whose submission names its opened line's hash, and the other side must come first`);
}

/** The replay of the result as it is written, reloading an event from what was written. */
class ResultReplay {
  private offsets = new Float64Array(1024);
  private lengths = new Uint32Array(1024);
  private count = 0;
  readonly replayer: Replayer;

  constructor(sink: MergeSink) {
    this.replayer = new Replayer({
      reload: (storedIndex) => {
        const text = sink.readBack(this.offsets[storedIndex] as number, this.lengths[storedIndex] as number);
        return (JSON.parse(text) as { entry: unknown }).entry;
      },
    });
  }

  apply(decoded: DecodedLedgerLine, offset: number, bytes: number): void {
    if (decoded.stream !== DEVELOPER_STREAM) return;
    if (this.count === this.offsets.length) {
      const offsets = new Float64Array(this.count * 2);
      offsets.set(this.offsets);
      this.offsets = offsets;
      const lengths = new Uint32Array(this.count * 2);
      lengths.set(this.lengths);
      this.lengths = lengths;
    }
    this.offsets[this.count] = offset;
    this.lengths[this.count] = bytes - 1;
    this.count += 1;
    const disposition = this.replayer.apply(decoded.entry, decoded.entryText);
    if (disposition.status === "rejected") {
      throw new MergeConflict("docket.merge-replay-rejected", `replay of the merged ledger rejects the developer/v8 entry at result line ${lineNumberOf(decoded)}: ${disposition.code}: ${disposition.message}`);
    }
  }
}

function lineNumberOf(decoded: DecodedLedgerLine): number {
  return decoded.line + 1;
}

/**
 * Merges. Throws MergeConflict (with nothing meaningful in the sink: the caller discards it) or
 * returns where the result's lines came from. The inputs are read twice: a first pass checks them
 * and picks the order, the second writes and replays the result, and refuses if an input changed
 * in between.
 */
export function mergeLedgers(sources: MergeSources, sink: MergeSink, options: MergeOptions = {}): MergeResult {
  const plan = planMerge(sources);
  const replay = new ResultReplay(sink);
  let index = 0;
  let previous: string | null = null;
  let written = 0;
  let oursHead: MergeResult["oursHead"] = null;
  let tracked: MergeResult["tracked"] = null;
  let headLine: MergeResult["headLine"] = null;
  const track = options.trackOursLine ?? -1;
  // The prefix and the first side: their lines as they are.
  const firstSource = sources.open(plan.first.side, 0);
  const firstLines = plan.prefixLines + plan.first.lines;
  for (let line = nextOrRefuse(plan.first.side, firstSource); line !== null; line = nextOrRefuse(plan.first.side, firstSource)) {
    if (index === firstLines) throw changed(plan.first.side);
    const decoded = decodeOrRefuse(plan.first.side, line, index, previous);
    sink.write(`${line.text}\n`);
    replay.apply(decoded, written, line.bytes);
    // Ours' lines up to the divergence are also the prefix, whichever side is written here.
    if (index === track && (plan.first.side === "ours" || index < plan.prefixLines)) {
      tracked = { line: index, offset: written, length: line.bytes, previousLineSha256Before: previous };
    }
    headLine = { offset: written, length: line.bytes };
    written += line.bytes;
    previous = decoded.lineSha256;
    index += 1;
  }
  if (index !== firstLines || firstSource.torn > 0 || previous !== (plan.first.lines > 0 ? plan.first.headLineSha256 : plan.prefixHead)) throw changed(plan.first.side);
  if (plan.first.side === "ours" || plan.second === null) oursHead = headOf(plan, previous, index);
  // The second side after it: each line re-wrapped at its new position, its entry untouched.
  if (plan.second !== null) {
    const second = plan.second;
    const source = sources.open(second.side, plan.prefixBytes);
    let ownIndex = plan.prefixLines;
    let ownPrevious = plan.prefixHead;
    for (let line = nextOrRefuse(second.side, source); line !== null; line = nextOrRefuse(second.side, source)) {
      if (ownIndex === plan.prefixLines + second.lines) throw changed(second.side);
      const decoded = decodeOrRefuse(second.side, line, ownIndex, ownPrevious);
      const wrapped = rewrapLedgerLine(index, previous, decoded.stream, decoded.entryText);
      sink.write(wrapped.text);
      const bytes = Buffer.byteLength(wrapped.text);
      replay.apply({ ...decoded, line: index, previousLineSha256: previous, lineSha256: wrapped.lineSha256 }, written, bytes);
      if (second.side === "ours" && ownIndex === track) tracked = { line: index, offset: written, length: bytes, previousLineSha256Before: ownPrevious };
      headLine = { offset: written, length: bytes };
      written += bytes;
      ownPrevious = decoded.lineSha256;
      previous = wrapped.lineSha256;
      index += 1;
      ownIndex += 1;
    }
    if (ownIndex !== plan.prefixLines + second.lines || source.torn > 0 || ownPrevious !== second.headLineSha256) throw changed(second.side);
    if (second.side === "ours") oursHead = { line: index, lineSha256: previous as string };
  }
  const history = describeHistory(replay.replayer);
  if (history.mode === "blocked") {
    throw new MergeConflict("docket.merge-replay-rejected", `the merged history would be blocked: ${history.blockedReason ?? "unknown reason"}`);
  }
  return {
    kept: plan.first.lines === 0 ? null : plan.first.side,
    moved: plan.second?.side ?? null,
    prefixLines: plan.prefixLines,
    lines: index,
    bytes: written,
    headLineSha256: previous,
    oursHead,
    headLine,
    tracked,
  };
}

/** Ours' head when ours' lines keep their positions: its last line (the prefix's, when ours added nothing). */
function headOf(plan: Plan, previous: string | null, index: number): MergeResult["oursHead"] {
  if (plan.first.side === "ours") return previous === null ? null : { line: index, lineSha256: previous };
  // Ours added nothing: its head is the prefix's last line.
  return plan.prefixHead === null ? null : { line: plan.prefixLines, lineSha256: plan.prefixHead };
}

function changed(side: MergeSide): MergeConflict {
  return new MergeConflict("docket.merge-changed", `${SIDE_NAMES[side]} changed while it was being merged; nothing was written`);
}
