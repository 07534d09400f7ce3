// The append-only ledger store. Reading is incremental from a byte offset and never locks;
// appending happens under the cross-process lock: catch up, set aside a torn tail left by a
// crashed writer, preflight the batch against the replayed state, write once, fsync, move the
// head anchor, release. Every file it writes stays inside its containment root (no symbolic
// link is followed: server/workspace/containedFs.ts).
import fs from "node:fs";
import path from "node:path";
import { createEnvelope, type Envelope, type EnvelopeDraft } from "./envelope";
import { DEVELOPER_STREAM, GUARD_STREAM, OBSERVER_STREAM, LineFault, decodeLedgerLine, isLedgerLineShape, type LineFaultCode } from "./ledgerLine";
import { guardEntryProblem, type GuardEntry } from "../guard/guardEntry";
import { observerEntryProblem, type ObserverLedgerEntry } from "../observer/observerEntry";
import { withExclusiveLock, LockTimeoutError, processAlive } from "./lock";
import { Replayer, type AcceptedEvent, type Disposition } from "./replay";
import type { ScopeState } from "../developer/scopeState";
import { LineIndex, type LineRecord } from "./lineIndex";
import { appendAnnounced, encodeBatch, setAsideTornTail } from "./batchAppend";
import { StoreError } from "./storeError";
import { readInChunks } from "./chunkedRead";
import { anchorAfterMerge, mergeRecordPathFor } from "./mergeRecord";
import { anchorPathFor, compareWithAnchor, inodeOf, lineShaOfText, readAnchor, readableSize, writeAnchor, type AnchorRead, type LedgerAnchor } from "./anchor";
import {
  UnsafePathError,
  assertContained,
  ensureContainedDirectory,
  openContained,
  removeStaleTemporaries,
} from "../workspace/containedFs";

export { StoreError };

export type StoreFaultCode =
  | LineFaultCode
  | "ledger-foreign"
  | "ledger-not-utf8"
  | "ledger-unreadable"
  | "ledger-unsafe-path"
  | "ledger-truncated"
  | "ledger-rewritten"
  | "ledger-anchor-invalid";

export interface StoreFault {
  readonly code: StoreFaultCode;
  readonly message: string;
  /** Zero-based line number of the offending line (for a truncation: the first missing line). */
  readonly line: number;
  /** For `ledger-truncated`: the missing lines, 1-based and inclusive. */
  readonly missingLines?: { readonly from: number; readonly to: number };
}

/** What the head anchor says about the ledger as last read (docs/ledger-format.md "Head anchor"). */
export type AnchorState =
  | { readonly kind: "none" }
  | { readonly kind: "invalid"; readonly why: string }
  /** `boundToFile`: the anchor was written for this very file (same inode), not a copy. */
  | { readonly kind: "matched"; readonly anchor: LedgerAnchor; readonly boundToFile: boolean }
  | { readonly kind: "mismatched"; readonly anchor: LedgerAnchor };

/**
 * What a refresh changed. The dispositions of the entries it replayed are built when read (a cold
 * read of a long ledger replays a million entries; nobody needs an object for each).
 */
export interface RefreshResult {
  readonly changed: boolean;
  readonly dispositions: readonly Disposition[];
}

function refreshResult(changed: boolean, from?: { readonly dispositions: readonly Disposition[] }): RefreshResult {
  let dispositions: readonly Disposition[] | null = from === undefined ? [] : null;
  return {
    changed,
    get dispositions(): readonly Disposition[] {
      dispositions ??= (from as { readonly dispositions: readonly Disposition[] }).dispositions;
      return dispositions;
    },
  };
}

/** Thrown by `refresh` when a caller's deadline passes before the ledger is read. */
export class StoreDeadlineError extends Error {
  constructor(readonly linesRead: number) {
    super(`the ledger could not be read in time (${linesRead} lines read)`);
    this.name = "StoreDeadlineError";
  }
}

export interface StoreOptions {
  /**
   * The folder every write must stay inside (normally the workspace folder). Default: the
   * parent of the ledger's folder, so `<ws>/.docket/ledger.jsonl` is contained by `<ws>`.
   */
  readonly root?: string;
  /** Each scope's full final state as replay closes it (ReplayerOptions.onScopeClosed). */
  readonly onScopeClosed?: (state: ScopeState) => void;
  /** Each accepted event as replay accepts it (ReplayerOptions.onAccepted). */
  readonly onAccepted?: (accepted: AcceptedEvent, ordinal: number) => void;
}

export type { LineRecord };

/**
 * Bytes read from the file at a time: the read buffer stays this small however long the ledger
 * (a line longer than this is gathered across reads).
 */
const READ_CHUNK_BYTES = 1 << 20;

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Builds the drafts of a batch from the caught-up state; may throw to refuse the write. Guard
 * entries (`docket/guard/v1`) and then Observer entries (`observer/v1`) are appended after the
 * developer drafts, in the same batch.
 */
export type BatchBuilder<T> = (store: LedgerStore) => {
  drafts: EnvelopeDraft[];
  context: T;
  guardEntries?: readonly GuardEntry[];
  observerEntries?: readonly ObserverLedgerEntry[];
};

/** An Observer entry as it stands in the ledger: its zero-based line and its entry. */
export interface ObserverLine {
  readonly line: number;
  readonly lineSha256: string;
  readonly entry: ObserverLedgerEntry;
}

/** A guard entry as it stands in the ledger: its line, where the line is, and its hashes. */
export interface GuardLine {
  readonly line: number;
  readonly offset: number;
  readonly length: number;
  readonly previousLineSha256: string | null;
  readonly lineSha256: string;
  readonly entry: GuardEntry;
}

export interface AppendResult<T> {
  readonly envelopes: Envelope[];
  readonly context: T;
  readonly setAsideTornTail: string | null;
}

/** A full read of the guard lines, or why the ledger could not give them. */
export type GuardLinesRead = { readonly kind: "lines"; readonly lines: readonly GuardLine[] } | { readonly kind: "unreadable"; readonly reason: string };

export class LedgerStore {
  private offsetBytes = 0;
  private lines = new LineIndex();
  private guardLinesValue: GuardLine[] = [];
  private observerLinesValue: ObserverLine[] = [];
  private headSha: string | null = null;
  private readonly scopeClosedListener: ((state: ScopeState) => void) | null;
  private readonly acceptedListener: ((accepted: AcceptedEvent, ordinal: number) => void) | null;
  private replayerValue: Replayer;
  private faultValue: StoreFault | null = null;
  private tornTailBytes = 0;
  /** The last refresh was bounded and left whole lines unread (its torn tail and anchor verdict are provisional). */
  private stoppedShort = false;
  /** The torn tail lies inside a batch the anchor announced: a cut write, whatever its bytes look like. */
  private tornTailAnnounced = false;
  private fileExists = false;
  private generationValue = 0;
  private lastLineBytes: Buffer | null = null;
  private anchorFaultValue: StoreFault | null = null;
  private anchorStateValue: AnchorState = { kind: "none" };
  private inode: string | null = null;
  private sweptTemporaries = false;
  readonly root: string;

  constructor(
    readonly ledgerPath: string,
    options: StoreOptions = {},
  ) {
    this.root = options.root ?? path.dirname(path.dirname(path.resolve(ledgerPath)));
    this.scopeClosedListener = options.onScopeClosed ?? null;
    this.acceptedListener = options.onAccepted ?? null;
    this.replayerValue = this.newReplayer();
  }

  get lockPath(): string {
    return `${this.ledgerPath}.lock`;
  }

  get replayer(): Replayer {
    return this.replayerValue;
  }

  /** The first problem with the ledger: a bad line first, then a disagreement with its anchor. */
  get fault(): StoreFault | null {
    return this.faultValue ?? this.anchorFaultValue;
  }

  /** The ledger file's inode number (decimal) as last opened; null before a read. */
  get inodeNumber(): string | null {
    return this.inode;
  }

  /** The head anchor as last compared (refresh reads it every time). */
  get anchorState(): AnchorState {
    return this.anchorStateValue;
  }

  /**
   * How many bytes a Docket writer on this machine vouches for: the anchored head, or the end of
   * the batch its anchor announced when that batch is complete and is the ledger's head (its
   * writer died between the append and the anchor update). 0 without an anchor bound to this file.
   */
  get vouchedBytes(): number {
    const state = this.anchorStateValue;
    if (state.kind !== "matched" || !state.boundToFile) return 0;
    const pending = state.anchor.pending ?? null;
    const announcedComplete = pending !== null && this.offsetBytes === pending.bytes && this.headSha === pending.lineSha256;
    return announcedComplete ? pending.bytes : state.anchor.bytes;
  }

  get offset(): number {
    return this.offsetBytes;
  }

  get lineCount(): number {
    return this.lines.length;
  }

  /** Every guard entry read so far, in ledger order. */
  get observerLines(): readonly ObserverLine[] {
    return this.observerLinesValue;
  }

  get guardLines(): readonly GuardLine[] {
    return this.guardLinesValue;
  }

  get headLineSha256(): string | null {
    return this.headSha;
  }

  /** False while a bounded refresh (readAtMost) has left part of the ledger unread. */
  get readToEnd(): boolean {
    return !this.stoppedShort;
  }

  get tornTail(): number {
    return this.tornTailBytes;
  }

  get exists(): boolean {
    return this.fileExists;
  }

  /** Increments whenever the store had to start over (file replaced or truncated). */
  get generation(): number {
    return this.generationValue;
  }

  lineRecord(line: number): LineRecord | undefined {
    return this.lines.record(line);
  }

  /** The zero-based line of a developer entry's replay index; undefined past the entries read. */
  lineOfReplayIndex(index: number): number | undefined {
    return this.lines.lineOfReplayIndex(index);
  }

  /**
   * The bytes of a line as they are in the file now (newline included), read by its recorded
   * offset; undefined past the lines read. A caller that needs them unchanged compares them with
   * what it expects: the file may have been rewritten since it was read.
   */
  lineBytes(line: number): Buffer | undefined {
    const record = this.lines.record(line);
    if (record === undefined) return undefined;
    const fd = openContained(this.root, this.ledgerPath, "r");
    try {
      const bytes = Buffer.alloc(record.length);
      const read = fs.readSync(fd, bytes, 0, record.length, record.offset);
      return bytes.subarray(0, read);
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * The replayer keeps only what later events can cite; a reader asking for a whole accepted event
   * gets it read again from its line.
   */
  private newReplayer(): Replayer {
    // A listener is passed only when there is one: the replayer builds a closing scope's full
    // ScopeState just to hand it over, which a store nobody listens to would pay for every scope.
    return new Replayer({
      reload: (storedIndex) => this.entryOfReplayIndex(storedIndex),
      ...(this.scopeClosedListener === null ? {} : { onScopeClosed: (state: ScopeState) => this.scopeClosedListener?.(state) }),
      ...(this.acceptedListener === null ? {} : { onAccepted: (accepted: AcceptedEvent, ordinal: number) => this.acceptedListener?.(accepted, ordinal) }),
    });
  }

  /** The developer entry at a replay index, read from the file (null when it is not there). */
  private entryOfReplayIndex(storedIndex: number): unknown {
    const line = this.lines.lineOfReplayIndex(storedIndex);
    const bytes = line === undefined ? undefined : this.lineBytes(line);
    if (bytes === undefined) return null;
    try {
      // Decoded as the read decoded it (a leading byte-order mark is dropped there too).
      const parsed: unknown = JSON.parse(decoder.decode(bytes));
      return isLedgerLineShape(parsed) ? (parsed as { entry: unknown }).entry : null;
    } catch {
      return null;
    }
  }

  private reset(): void {
    this.offsetBytes = 0;
    this.lines = new LineIndex();
    this.guardLinesValue = [];
    this.observerLinesValue = [];
    this.headSha = null;
    this.replayerValue = this.newReplayer();
    this.faultValue = null;
    this.tornTailBytes = 0;
    this.tornTailAnnounced = false;
    this.stoppedShort = false;
    this.lastLineBytes = null;
    this.anchorFaultValue = null;
    this.anchorStateValue = { kind: "none" };
    this.inode = null;
    this.generationValue += 1;
  }

  /** The last consumed line still has the bytes we read; false means the file was rewritten. */
  private prefixIntact(fd: number, size: number): boolean {
    if (size < this.offsetBytes) return false;
    const last = this.lines.record(this.lines.length - 1);
    if (last === undefined || this.lastLineBytes === null) return true;
    const buffer = Buffer.alloc(last.length);
    fs.readSync(fd, buffer, 0, last.length, last.offset);
    return buffer.equals(this.lastLineBytes);
  }

  /**
   * Catches up with bytes appended since the last read. Returns the dispositions of newly
   * replayed developer entries. Never throws for ledger content; problems become `fault`.
   */
  refresh(options: { deadline?: number; readAtMost?: number } = {}): RefreshResult {
    let fd: number;
    try {
      fd = openContained(this.root, this.ledgerPath, "r");
    } catch (error) {
      if (error instanceof UnsafePathError) {
        const changed = this.faultValue?.code !== "ledger-unsafe-path";
        this.reset();
        this.fileExists = true;
        this.faultValue = { code: "ledger-unsafe-path", message: error.message, line: 0 };
        return refreshResult(changed);
      }
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") {
        let changed = this.fileExists || this.lines.length > 0 || this.faultValue !== null;
        if (changed) this.reset();
        this.fileExists = false;
        // A deleted ledger whose anchor remains was not turned off: every line of it is missing.
        if (this.checkAnchor(null)) changed = true;
        return refreshResult(changed);
      }
      const changed = this.faultValue?.code !== "ledger-unreadable";
      this.reset();
      this.faultValue = { code: "ledger-unreadable", message: `cannot read the ledger: ${(error as Error).message}`, line: 0 };
      return refreshResult(changed);
    }
    try {
      this.fileExists = true;
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) {
        const changed = this.faultValue?.code !== "ledger-unreadable";
        this.reset();
        this.fileExists = true;
        this.faultValue = { code: "ledger-unreadable", message: "the ledger path is not a regular file", line: 0 };
        return refreshResult(changed);
      }
      const size = stat.size;
      const anchorRead = readAnchor(this.root, this.ledgerPath);
      // A batch cut short of the end its writer announced is not read: it is a torn write.
      const readable = readableSize(anchorRead.kind === "anchor" ? anchorRead.anchor : null, size);
      let restarted = false;
      if (!this.prefixIntact(fd, size)) {
        this.reset();
        restarted = true;
      }
      this.inode = inodeOf(fd);
      this.tornTailAnnounced = size > readable;
      // A bounded read (readAtMost) stops at a line boundary; what it left unread is read next time.
      const upTo = options.readAtMost === undefined ? readable : Math.min(readable, this.offsetBytes + Math.max(1, options.readAtMost));
      this.stoppedShort = this.faultValue === null && upTo < readable;
      let result: RefreshResult;
      if (this.faultValue !== null) {
        const tornBefore = this.tornTailBytes;
        this.tornTailBytes = 0;
        result = refreshResult(restarted || tornBefore !== 0);
      } else {
        const unread = upTo - this.offsetBytes;
        if (unread <= 0) {
          const torn = Math.max(0, size - this.offsetBytes);
          const changed = restarted || this.tornTailBytes !== torn;
          this.tornTailBytes = torn;
          result = refreshResult(changed);
        } else {
          try {
            result = this.readLines(fd, upTo, restarted, options.deadline);
            if (this.faultValue !== null) this.stoppedShort = false;
            if (this.faultValue === null && !this.stoppedShort && size > readable) {
              this.tornTailBytes += size - readable;
              result = refreshResult(true, result);
            }
          } catch (error) {
            // A half-consumed read leaves no consistent position: start over next time.
            this.reset();
            throw error;
          }
        }
      }
      const anchorChanged = this.checkAnchor(fd, anchorRead);
      return anchorChanged ? refreshResult(true, result) : result;
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * Compares the ledger with its head anchor; true when the verdict changed. Read every time: the
   * anchor is tiny, and a writer or `docket ledger anchor --accept` may have moved it.
   */
  private checkAnchor(fd: number | null, alreadyRead?: AnchorRead): boolean {
    const before = this.anchorFaultValue?.code ?? this.anchorStateValue.kind;
    const read: AnchorRead = alreadyRead ?? readAnchor(this.root, this.ledgerPath);
    this.anchorFaultValue = null;
    if (read.kind === "none") {
      this.anchorStateValue = { kind: "none" };
    } else if (read.kind === "invalid") {
      this.anchorStateValue = { kind: "invalid", why: read.why };
      this.anchorFaultValue = {
        code: "ledger-anchor-invalid",
        message: `the head anchor ${anchorPathFor(this.ledgerPath)} cannot be used (${read.why}); check the ledger with \`docket ledger verify\`, then accept it with \`docket ledger anchor --accept\``,
        line: 0,
      };
    } else {
      const anchor = read.anchor;
      const lineShaAt = (line: number): string | null => {
        if (line === this.lines.length - 1) return this.headSha;
        const record = this.lines.record(line);
        if (record === undefined || fd === null) return null;
        const bytes = Buffer.alloc(record.length);
        fs.readSync(fd, bytes, 0, record.length, record.offset);
        return lineShaOfText(bytes.toString("utf8"));
      };
      // A bad line earlier than the anchored head is the fault to report; the anchor adds nothing.
      let fault = this.faultValue === null ? compareWithAnchor(anchor, this.lines.length, lineShaAt, this.ledgerPath) : null;
      // A merge that renumbered this clone's lines left a record of the exact result (mergeRecord.ts).
      const merged = fault !== null && fd !== null ? anchorAfterMerge(this.root, this.ledgerPath, anchor, fd, fs.fstatSync(fd).size, true) : null;
      if (merged !== null && compareWithAnchor(merged, this.lines.length, lineShaAt, this.ledgerPath) === null) fault = null;
      if (fault === null) {
        this.anchorStateValue = { kind: "matched", anchor: merged ?? anchor, boundToFile: (merged ?? anchor).ino === this.inode };
      } else {
        this.anchorStateValue = { kind: "mismatched", anchor };
        this.anchorFaultValue =
          fault.code === "ledger-truncated"
            ? { code: fault.code, message: fault.message, line: fault.line - 1, missingLines: fault.missing }
            : { code: fault.code, message: fault.message, line: fault.line - 1 };
      }
    }
    return (this.anchorFaultValue?.code ?? this.anchorStateValue.kind) !== before;
  }

  /** The anchor that describes the ledger as read now; null when there is nothing to anchor. */
  private currentAnchor(): LedgerAnchor | null {
    if (this.inode === null) return null;
    const last = this.lines.record(this.lines.length - 1);
    if (last === undefined || this.headSha === null) return { format: "docket/ledger-anchor/v1", lines: 0, bytes: 0, head: null, ino: this.inode };
    return {
      format: "docket/ledger-anchor/v1",
      lines: this.lines.length,
      bytes: this.offsetBytes,
      head: { offset: last.offset, length: last.length, lineSha256: this.headSha },
      ino: this.inode,
    };
  }

  /**
   * Moves the head anchor to the ledger as read now (after an append, or when a person accepts
   * the ledger as it is). Only a line-valid ledger can be anchored.
   */
  writeAnchorNow(): void {
    if (this.faultValue !== null) throw new StoreError("ledger-corrupt", `${this.faultValue.message}; a damaged ledger cannot be anchored.`);
    const anchor = this.currentAnchor();
    if (anchor === null) throw new StoreError("ledger-unwritable", `There is no ledger at ${this.ledgerPath} to anchor.`);
    writeAnchor(this.root, this.ledgerPath, anchor);
    // The anchor now names this ledger itself: a merge record has nothing left to vouch for.
    fs.rmSync(mergeRecordPathFor(this.ledgerPath), { force: true });
    this.anchorFaultValue = null;
    this.anchorStateValue = { kind: "matched", anchor, boundToFile: true };
  }

  /**
   * Reads and replays the whole lines between the read position and `readable`, a chunk at a
   * time, so memory stays bounded however many bytes are unread. Bytes after the last newline are
   * the torn tail.
   */
  private readLines(fd: number, readable: number, restarted: boolean, deadline?: number): RefreshResult {
    const replayer = this.replayerValue;
    const entryStart = replayer.entryCount;
    const previousTorn = this.tornTailBytes;
    const startOffset = this.offsetBytes;
    const read = readInChunks(
      fd,
      startOffset,
      readable,
      READ_CHUNK_BYTES,
      (data, base) => this.consumeLines(data, base, deadline),
      () => this.faultValue !== null,
    );
    if (this.faultValue !== null) {
      this.tornTailBytes = 0;
    } else {
      this.offsetBytes = startOffset + read.consumed;
      this.tornTailBytes = read.left;
    }
    const entryEnd = replayer.entryCount;
    const changed = restarted || entryEnd > entryStart || read.consumed > 0 || previousTorn !== this.tornTailBytes || this.faultValue !== null;
    return refreshResult(changed, { get dispositions() { return replayer.dispositionsFrom(entryStart, entryEnd); } });
  }

  /**
   * Replays the whole lines of `buffer` (which starts at file offset `base`) until a bad line;
   * returns how many bytes they took.
   */
  private consumeLines(buffer: Buffer, base: number, deadline?: number): number {
    let start = 0;
    let lastLineStart = -1;
    for (;;) {
      const newline = buffer.indexOf(0x0a, start);
      if (newline < 0) break;
      const lineBytes = buffer.subarray(start, newline);
      const lineNumber = this.lines.length;
      if (deadline !== undefined && (lineNumber & 1023) === 0 && Date.now() > deadline) throw new StoreDeadlineError(lineNumber);
      let text: string;
      try {
        text = decoder.decode(lineBytes);
      } catch {
        this.faultValue = { code: "ledger-not-utf8", message: `line ${lineNumber + 1} is not valid UTF-8`, line: lineNumber };
        break;
      }
      let decoded;
      try {
        decoded = decodeLedgerLine(text, lineNumber, this.headSha);
      } catch (error) {
        const fault = error instanceof LineFault ? error : new LineFault("ledger-line-invalid", String(error));
        const foreign = lineNumber === 0 && !looksLikeLedgerLine(text);
        this.faultValue = foreign
          ? { code: "ledger-foreign", message: "the file at the ledger path is not a Docket ledger", line: 0 }
          : { code: fault.code, message: fault.message, line: lineNumber };
        break;
      }
      let replayIndex: number | null = null;
      if (decoded.stream === DEVELOPER_STREAM) {
        replayIndex = this.replayerValue.entryCount;
        this.replayerValue.apply(decoded.entry, decoded.entryText);
      } else if (decoded.stream === GUARD_STREAM) {
        this.guardLinesValue.push({
          line: lineNumber,
          offset: base + start,
          length: newline - start + 1,
          previousLineSha256: decoded.previousLineSha256,
          lineSha256: decoded.lineSha256,
          // decodeLedgerLine validated the shape.
          entry: decoded.entry as unknown as GuardEntry,
        });
      } else if (decoded.stream === OBSERVER_STREAM) {
        // decodeLedgerLine validated the wrapper; Observer replay judges `data`.
        this.observerLinesValue.push({ line: lineNumber, lineSha256: decoded.lineSha256, entry: decoded.entry as unknown as ObserverLedgerEntry });
      }
      this.lines.push(base + start, newline - start + 1, replayIndex);
      this.headSha = decoded.lineSha256;
      lastLineStart = start;
      start = newline + 1;
    }
    // Only the last line's bytes are kept (to notice a rewrite); copied once per chunk, not per line.
    if (lastLineStart >= 0) this.lastLineBytes = Buffer.from(buffer.subarray(lastLineStart, start));
    return start;
  }

  /**
   * True when the bytes after the last newline are a whole valid next line, optionally followed
   * by one stray byte, outside any batch the anchor announced: an interrupted write cuts inside
   * its announced batch, so only an edited newline produces this.
   */
  tailIsCompleteLine(): boolean {
    if (this.tornTailBytes === 0 || this.faultValue !== null || this.tornTailAnnounced) return false;
    let bytes: Buffer;
    try {
      const fd = fs.openSync(this.ledgerPath, "r");
      try {
        bytes = Buffer.alloc(this.tornTailBytes);
        fs.readSync(fd, bytes, 0, bytes.length, this.offsetBytes);
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return false;
    }
    for (const candidate of [bytes, bytes.subarray(0, bytes.length - 1)]) {
      try {
        decodeLedgerLine(decoder.decode(candidate), this.lines.length, this.headSha);
        return true;
      } catch {
        // not a whole line
      }
    }
    return false;
  }

  /** Appends one batch atomically with respect to other writers. */
  async append<T>(
    build: BatchBuilder<T>,
    options: {
      lockTimeoutMs?: number;
      purpose?: string;
      afterAppend?: (store: LedgerStore) => void;
      /**
       * Tried first under the lock (server/workspace/snapshotWrites.ts): the write from the verified
       * snapshot, or null when it cannot be proven, and then this store catches up and writes.
       * `sweep` removes a killed writer's temporary files, once per store.
       */
      fromSnapshot?: (sweep: () => void) => AppendResult<T> | null;
    } = {},
  ): Promise<AppendResult<T>> {
    const directory = path.dirname(this.ledgerPath);
    try {
      ensureContainedDirectory(this.root, directory);
      assertContained(this.root, this.lockPath);
      fs.accessSync(directory, fs.constants.W_OK);
    } catch (error) {
      if (error instanceof UnsafePathError) throw new StoreError("ledger-unsafe-path", `${error.message} Docket will not write the ledger there.`);
      throw new StoreError("ledger-unwritable", `Cannot write in ${directory}: ${(error as Error).message}`);
    }
    try {
      const locked = (): AppendResult<T> => options.fromSnapshot?.(() => this.sweepTemporariesOnce()) ?? this.appendLocked(build, options.afterAppend);
      return await withExclusiveLock(this.lockPath, locked, {
        timeoutMs: options.lockTimeoutMs ?? 10_000,
        purpose: options.purpose ?? "appending to the ledger",
      });
    } catch (error) {
      if (error instanceof LockTimeoutError) throw new StoreError("ledger-locked", error.message);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EACCES" || code === "EROFS" || code === "EPERM" || code === "ENOSPC") {
        throw new StoreError("ledger-unwritable", `Cannot write the ledger ${this.ledgerPath}: ${(error as Error).message}`);
      }
      throw error;
    }
  }

  /** Holding the lock, no other writer is mid-rename: files of killed writers can go. */
  private sweepTemporariesOnce(): void {
    if (this.sweptTemporaries) return;
    this.sweptTemporaries = true;
    removeStaleTemporaries(this.root, path.dirname(this.ledgerPath), processAlive);
  }

  private appendLocked<T>(build: BatchBuilder<T>, afterAppend?: (store: LedgerStore) => void): AppendResult<T> {
    this.refresh();
    const fault = this.fault;
    if (fault !== null) throw new StoreError(storeErrorCodeOf(fault.code), `${fault.message}; Docket will not write to it (${this.ledgerPath}).`);
    this.sweepTemporariesOnce();
    const { drafts, context, guardEntries = [], observerEntries = [] } = build(this);
    if (drafts.length === 0 && guardEntries.length === 0 && observerEntries.length === 0) return { envelopes: [], context, setAsideTornTail: null };
    for (const [index, entry] of guardEntries.entries()) {
      const problem = guardEntryProblem(entry);
      if (problem !== null) throw new StoreError("preflight-rejected", `The batch was not written: guard entry ${index} is invalid (${problem}).`);
    }
    for (const [index, entry] of observerEntries.entries()) {
      const problem = observerEntryProblem(entry);
      if (problem !== null) throw new StoreError("preflight-rejected", `The batch was not written: Observer entry ${index} is invalid (${problem}).`);
    }
    const envelopes = drafts.map((draft) => createEnvelope(draft));
    const trial = this.replayerValue.trial(envelopes);
    const rejected = trial.dispositions.find((disposition) => disposition.status === "rejected");
    if (rejected !== undefined && rejected.status === "rejected") {
      throw new StoreError("preflight-rejected", `The batch was not written: entry ${rejected.index} would be rejected (${rejected.code}: ${rejected.message}).`);
    }
    const position = { lines: this.lines.length, bytes: this.offsetBytes, headLineSha256: this.headSha };
    const batch = encodeBatch(position, envelopes, guardEntries, observerEntries);
    // Only a batch that will be written changes the file: a torn tail is set aside after preflight.
    const setAside = this.tornTailBytes > 0 ? this.setAsideTornTail() : null;
    // Write-ahead: the anchor announces the batch before any byte of it is written, so a batch cut
    // by a crash, a power loss or a short write is recognised as torn, never replayed in part.
    appendAnnounced(this.root, this.ledgerPath, this.currentAnchor(), position, batch);
    const lineNumber = batch.lines;
    const previous = batch.headLineSha256;
    const before = this.replayerValue.acceptedCount;
    this.refresh();
    if (this.replayerValue.acceptedCount !== before + envelopes.length || this.lines.length !== lineNumber || this.headSha !== previous || this.faultValue !== null) {
      throw new StoreError("ledger-changed-under-writer", "The ledger changed while Docket held its lock; the write could not be confirmed.");
    }
    // The anchor only ever moves forward, inside the lock, after the lines are durable; a crash in
    // between leaves it behind the ledger, which is never mistaken for a truncation.
    try {
      this.writeAnchorNow();
    } catch {
      // The batch is committed; the next write anchors it.
    }
    // Still under the lock, so derived caches (the hook checkpoint) advance in ledger order.
    // The batch is committed: a failing callback must not report the write as failed.
    try {
      afterAppend?.(this);
    } catch {
      // best effort by contract
    }
    return { envelopes, context, setAsideTornTail: setAside };
  }

  /**
   * Anchors the ledger as it is now, under the lock (`docket ledger anchor`). An anchor the
   * ledger no longer reaches (lines cut, history rewritten, anchor damaged) is replaced only with
   * `accept`: that is a person deciding the shorter or other history is the one to keep. With no
   * ledger at all, `accept` removes a leftover anchor.
   */
  async anchorNow(options: { accept: boolean; lockTimeoutMs?: number }): Promise<{ lines: number; previous: AnchorState["kind"] }> {
    const run = (): { lines: number; previous: AnchorState["kind"] } => {
      this.refresh();
      const previous = this.anchorStateValue.kind;
      if (this.faultValue !== null) throw new StoreError(storeErrorCodeOf(this.faultValue.code), `${this.faultValue.message}; a damaged ledger cannot be anchored.`);
      const anchorFault = this.anchorFaultValue;
      if (anchorFault !== null && !options.accept) {
        throw new StoreError(
          anchorFault.code === "ledger-rewritten" ? "ledger-rewritten" : anchorFault.code === "ledger-truncated" ? "ledger-truncated" : "ledger-corrupt",
          `${anchorFault.message} Nothing was changed; pass --accept to anchor the ledger as it is now.`,
        );
      }
      if (!this.fileExists) {
        if (previous === "none") throw new StoreError("ledger-unwritable", `There is no ledger at ${this.ledgerPath} to anchor.`);
        fs.rmSync(anchorPathFor(this.ledgerPath), { force: true });
        this.anchorFaultValue = null;
        this.anchorStateValue = { kind: "none" };
        return { lines: 0, previous };
      }
      this.writeAnchorNow();
      return { lines: this.lines.length, previous };
    };
    try {
      assertContained(this.root, this.lockPath);
      return await withExclusiveLock(this.lockPath, run, { timeoutMs: options.lockTimeoutMs ?? 10_000, purpose: "anchoring the ledger" });
    } catch (error) {
      if (error instanceof LockTimeoutError) throw new StoreError("ledger-locked", error.message);
      if (error instanceof UnsafePathError) throw new StoreError("ledger-unsafe-path", error.message);
      throw error;
    }
  }

  /** Moves bytes of an interrupted write aside (never a committed line) so appends stay aligned. */
  private setAsideTornTail(): string {
    const asidePath = setAsideTornTail(this.root, this.ledgerPath, this.offsetBytes);
    this.tornTailBytes = 0;
    return asidePath;
  }
}

function storeErrorCodeOf(code: StoreFaultCode): StoreError["code"] {
  switch (code) {
    case "ledger-foreign":
      return "ledger-foreign";
    case "ledger-unreadable":
      return "ledger-unwritable";
    case "ledger-truncated":
    case "ledger-rewritten":
    case "ledger-unsafe-path":
      return code;
    default:
      return "ledger-corrupt";
  }
}

function looksLikeLedgerLine(text: string): boolean {
  try {
    return isLedgerLineShape(JSON.parse(text));
  } catch {
    return false;
  }
}

