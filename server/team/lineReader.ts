// Reads a file a line at a time through a fixed chunk, so a merge of two large ledgers holds no more
// than one line of each input (plus the chunk) in memory. Lines are decoded as strict UTF-8: bytes
// that are not UTF-8 would come back from a lenient decoder as U+FFFD and be written out as other
// bytes than the file held, so they end the read instead.
import fs from "node:fs";

export interface SourceLine {
  /** The line's text without its newline. */
  readonly text: string;
  /** Byte offset of the line's first byte. */
  readonly offset: number;
  /** Bytes of the line including its newline. */
  readonly bytes: number;
}

export class NotUtf8Error extends Error {
  constructor(readonly offset: number) {
    super(`the bytes at offset ${offset} are not UTF-8`);
    this.name = "NotUtf8Error";
  }
}

const CHUNK_BYTES = 256 * 1024;
/**
 * No line Docket writes comes near this (an entry's payload is bounded far below it); a hostile
 * input made of one endless line would otherwise be gathered in memory whole.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

export class LineTooLongError extends Error {
  constructor(readonly offset: number) {
    super(`the line at offset ${offset} is longer than ${MAX_LINE_BYTES} bytes, which no ledger line is`);
    this.name = "LineTooLongError";
  }
}
const NEWLINE = 0x0a;

export class LineReader {
  private readonly chunk: Buffer;
  /** Unreturned bytes are chunk[start, end). */
  private start = 0;
  private end = 0;
  /** File offset of the next read from disk. */
  private readPosition: number;
  /** File offset of the next line to return. */
  private lineOffset: number;
  private eof = false;
  /** The first bytes of a line longer than the chunk. */
  private long: Buffer[] = [];
  private longBytes = 0;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  /** Bytes after the last newline, known once next() has returned null. */
  torn = 0;

  constructor(
    private readonly fd: number,
    startOffset = 0,
    chunkBytes = CHUNK_BYTES,
  ) {
    this.chunk = Buffer.allocUnsafe(chunkBytes);
    this.readPosition = startOffset;
    this.lineOffset = startOffset;
  }

  /** File offset just past the last line returned. */
  get offset(): number {
    return this.lineOffset;
  }

  /** The next complete line, or null at the end (then `torn` counts what followed the last newline). */
  next(): SourceLine | null {
    for (;;) {
      const at = this.start < this.end ? this.chunk.indexOf(NEWLINE, this.start) : -1;
      if (at >= 0 && at < this.end) {
        const piece = this.chunk.subarray(this.start, at);
        const bytes = this.long.length === 0 ? piece : Buffer.concat([...this.long, piece]);
        const length = this.longBytes + (at - this.start) + 1;
        const offset = this.lineOffset;
        const text = this.decode(bytes, offset);
        this.long = [];
        this.longBytes = 0;
        this.start = at + 1;
        this.lineOffset += length;
        return { text, offset, bytes: length };
      }
      if (this.eof) {
        this.torn = this.longBytes + (this.end - this.start);
        return null;
      }
      if (this.start === 0 && this.end === this.chunk.length) {
        // A line longer than the chunk: its first bytes are kept apart.
        this.long.push(Buffer.from(this.chunk));
        this.longBytes += this.end;
        if (this.longBytes > MAX_LINE_BYTES) throw new LineTooLongError(this.lineOffset);
        this.end = 0;
      } else if (this.start > 0) {
        this.chunk.copy(this.chunk, 0, this.start, this.end);
        this.end -= this.start;
        this.start = 0;
      }
      const read = fs.readSync(this.fd, this.chunk, this.end, this.chunk.length - this.end, this.readPosition);
      if (read === 0) this.eof = true;
      this.end += read;
      this.readPosition += read;
    }
  }

  private decode(bytes: Buffer, offset: number): string {
    try {
      return this.decoder.decode(bytes);
    } catch {
      throw new NotUtf8Error(offset);
    }
  }
}
