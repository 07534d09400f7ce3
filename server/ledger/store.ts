// The append-only ledger store. Reading is incremental from a byte offset and never locks;
// appending happens under the cross-process lock: catch up, set aside a torn tail left by a
// crashed writer, preflight the batch against the replayed state, write once, fsync, release.
import fs from "node:fs";
import path from "node:path";
import { createEnvelope, type Envelope, type EnvelopeDraft } from "./envelope";
import { DEVELOPER_STREAM, LineFault, decodeLedgerLine, encodeLedgerLine, isLedgerLineShape, type LineFaultCode } from "./ledgerLine";
import { withExclusiveLock, LockTimeoutError } from "./lock";
import { Replayer, type Disposition } from "./replay";
import { fsyncDirectory, writeDurably } from "./durableFs";

export type StoreFaultCode = LineFaultCode | "ledger-foreign" | "ledger-not-utf8" | "ledger-unreadable";

export interface StoreFault {
  readonly code: StoreFaultCode;
  readonly message: string;
  /** Zero-based line number of the offending line. */
  readonly line: number;
}

/** A line's place in the file and, for developer entries, its replay index. */
export interface LineRecord {
  readonly offset: number;
  readonly length: number;
  readonly replayIndex: number | null;
}

export class StoreError extends Error {
  constructor(
    readonly code:
      | "ledger-locked"
      | "ledger-unwritable"
      | "ledger-foreign"
      | "ledger-corrupt"
      | "ledger-changed-under-writer"
      | "preflight-rejected",
    message: string,
  ) {
    super(message);
    this.name = "StoreError";
  }
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Builds the drafts of a batch from the caught-up state; may throw to refuse the write. */
export type BatchBuilder<T> = (store: LedgerStore) => { drafts: EnvelopeDraft[]; context: T };

export interface AppendResult<T> {
  readonly envelopes: Envelope[];
  readonly context: T;
  readonly setAsideTornTail: string | null;
}

export class LedgerStore {
  private offsetBytes = 0;
  private lines: LineRecord[] = [];
  private headSha: string | null = null;
  private replayerValue = new Replayer();
  private faultValue: StoreFault | null = null;
  private tornTailBytes = 0;
  private fileExists = false;
  private generationValue = 0;
  private lastLineBytes: Buffer | null = null;

  constructor(readonly ledgerPath: string) {}

  get lockPath(): string {
    return `${this.ledgerPath}.lock`;
  }

  get replayer(): Replayer {
    return this.replayerValue;
  }

  get fault(): StoreFault | null {
    return this.faultValue;
  }

  get offset(): number {
    return this.offsetBytes;
  }

  get lineCount(): number {
    return this.lines.length;
  }

  get headLineSha256(): string | null {
    return this.headSha;
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
    return this.lines[line];
  }

  private reset(): void {
    this.offsetBytes = 0;
    this.lines = [];
    this.headSha = null;
    this.replayerValue = new Replayer();
    this.faultValue = null;
    this.tornTailBytes = 0;
    this.lastLineBytes = null;
    this.generationValue += 1;
  }

  /** The last consumed line still has the bytes we read; false means the file was rewritten. */
  private prefixIntact(fd: number, size: number): boolean {
    if (size < this.offsetBytes) return false;
    const last = this.lines.at(-1);
    if (last === undefined || this.lastLineBytes === null) return true;
    const buffer = Buffer.alloc(last.length);
    fs.readSync(fd, buffer, 0, last.length, last.offset);
    return buffer.equals(this.lastLineBytes);
  }

  /**
   * Catches up with bytes appended since the last read. Returns the dispositions of newly
   * replayed developer entries. Never throws for ledger content; problems become `fault`.
   */
  refresh(): { changed: boolean; dispositions: Disposition[] } {
    let fd: number;
    try {
      fd = fs.openSync(this.ledgerPath, "r");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") {
        const changed = this.fileExists || this.lines.length > 0 || this.faultValue !== null;
        if (changed) this.reset();
        this.fileExists = false;
        return { changed, dispositions: [] };
      }
      const changed = this.faultValue?.code !== "ledger-unreadable";
      this.reset();
      this.faultValue = { code: "ledger-unreadable", message: `cannot read the ledger: ${(error as Error).message}`, line: 0 };
      return { changed, dispositions: [] };
    }
    try {
      this.fileExists = true;
      const size = fs.fstatSync(fd).size;
      let restarted = false;
      if (!this.prefixIntact(fd, size)) {
        this.reset();
        restarted = true;
      }
      if (this.faultValue !== null) {
        const tornBefore = this.tornTailBytes;
        this.tornTailBytes = 0;
        return { changed: restarted || tornBefore !== 0, dispositions: [] };
      }
      const unread = size - this.offsetBytes;
      if (unread <= 0) {
        const changed = restarted || this.tornTailBytes !== 0;
        this.tornTailBytes = 0;
        return { changed, dispositions: [] };
      }
      const buffer = Buffer.alloc(unread);
      let read = 0;
      while (read < unread) {
        const n = fs.readSync(fd, buffer, read, unread - read, this.offsetBytes + read);
        if (n === 0) break;
        read += n;
      }
      return this.consume(buffer.subarray(0, read), restarted);
    } finally {
      fs.closeSync(fd);
    }
  }

  private consume(buffer: Buffer, restarted: boolean): { changed: boolean; dispositions: Disposition[] } {
    const dispositions: Disposition[] = [];
    const previousTorn = this.tornTailBytes;
    let start = 0;
    for (;;) {
      const newline = buffer.indexOf(0x0a, start);
      if (newline < 0) break;
      const lineBytes = buffer.subarray(start, newline);
      const lineNumber = this.lines.length;
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
        dispositions.push(this.replayerValue.apply(decoded.entry));
      }
      this.lines.push({ offset: this.offsetBytes + start, length: newline - start + 1, replayIndex });
      this.headSha = decoded.lineSha256;
      this.lastLineBytes = Buffer.from(buffer.subarray(start, newline + 1));
      start = newline + 1;
    }
    if (this.faultValue !== null) {
      this.tornTailBytes = 0;
    } else {
      this.offsetBytes += start;
      this.tornTailBytes = buffer.length - start;
    }
    const changed = restarted || dispositions.length > 0 || start > 0 || previousTorn !== this.tornTailBytes || this.faultValue !== null;
    return { changed, dispositions };
  }

  /**
   * True when the bytes after the last newline are a whole valid next line, optionally followed
   * by one stray byte: never the product of an interrupted write, only of an edited newline.
   */
  tailIsCompleteLine(): boolean {
    if (this.tornTailBytes === 0 || this.faultValue !== null) return false;
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
    options: { lockTimeoutMs?: number; purpose?: string; afterAppend?: (store: LedgerStore) => void } = {},
  ): Promise<AppendResult<T>> {
    const directory = path.dirname(this.ledgerPath);
    try {
      fs.mkdirSync(directory, { recursive: true });
      fs.accessSync(directory, fs.constants.W_OK);
    } catch (error) {
      throw new StoreError("ledger-unwritable", `Cannot write in ${directory}: ${(error as Error).message}`);
    }
    try {
      return await withExclusiveLock(this.lockPath, () => this.appendLocked(build, options.afterAppend), {
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

  private appendLocked<T>(build: BatchBuilder<T>, afterAppend?: (store: LedgerStore) => void): AppendResult<T> {
    this.refresh();
    if (this.faultValue !== null) {
      throw new StoreError(
        this.faultValue.code === "ledger-foreign" ? "ledger-foreign" : this.faultValue.code === "ledger-unreadable" ? "ledger-unwritable" : "ledger-corrupt",
        `${this.faultValue.message}; Docket will not write to it (${this.ledgerPath}).`,
      );
    }
    const setAside = this.tornTailBytes > 0 ? this.setAsideTornTail() : null;
    const { drafts, context } = build(this);
    if (drafts.length === 0) return { envelopes: [], context, setAsideTornTail: setAside };
    const envelopes = drafts.map((draft) => createEnvelope(draft));
    const trial = this.replayerValue.trial(envelopes);
    const rejected = trial.dispositions.find((disposition) => disposition.status === "rejected");
    if (rejected !== undefined && rejected.status === "rejected") {
      throw new StoreError("preflight-rejected", `The batch was not written: entry ${rejected.index} would be rejected (${rejected.code}: ${rejected.message}).`);
    }
    let previous = this.headSha;
    let lineNumber = this.lines.length;
    const chunks: string[] = [];
    for (const envelope of envelopes) {
      const encoded = encodeLedgerLine(lineNumber, previous, DEVELOPER_STREAM, envelope);
      chunks.push(encoded.text);
      previous = encoded.lineSha256;
      lineNumber += 1;
    }
    const created = !fs.existsSync(this.ledgerPath);
    writeDurably(this.ledgerPath, "a", chunks.join(""));
    if (created) fsyncDirectory(path.dirname(this.ledgerPath));
    const before = this.replayerValue.accepted.length;
    this.refresh();
    if (this.replayerValue.accepted.length !== before + envelopes.length || this.headSha !== previous) {
      throw new StoreError("ledger-changed-under-writer", "The ledger changed while Docket held its lock; the write could not be confirmed.");
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

  /** Moves bytes of an interrupted write aside (never a committed line) so appends stay aligned. */
  private setAsideTornTail(): string {
    const fd = fs.openSync(this.ledgerPath, "r+");
    try {
      const size = fs.fstatSync(fd).size;
      const torn = Buffer.alloc(size - this.offsetBytes);
      fs.readSync(fd, torn, 0, torn.length, this.offsetBytes);
      const asidePath = `${this.ledgerPath}.torn-${this.offsetBytes}`;
      fs.writeFileSync(asidePath, torn);
      const asideFd = fs.openSync(asidePath, "r");
      fs.fsyncSync(asideFd);
      fs.closeSync(asideFd);
      fs.ftruncateSync(fd, this.offsetBytes);
      fs.fsyncSync(fd);
      this.tornTailBytes = 0;
      return asidePath;
    } finally {
      fs.closeSync(fd);
    }
  }
}

function looksLikeLedgerLine(text: string): boolean {
  try {
    return isLedgerLineShape(JSON.parse(text));
  } catch {
    return false;
  }
}

