// Reading a byte range of the ledger a bounded chunk at a time, so that whatever consumes it always
// sees runs of bytes that begin at a line start. The first bytes of a line begun in one read are
// moved to the chunk's start and the next read placed after them, so a read allocates nothing; only
// when they fill the whole chunk (a line longer than a chunk) are they kept apart and joined with
// the next read.
import fs from "node:fs";

export interface ChunkedRead {
  /** Bytes `consume` took, from `start` on. */
  readonly consumed: number;
  /** Bytes read after them that no `consume` took (the start of an unfinished line). */
  readonly left: number;
}

/**
 * Reads bytes [start, end) of `fd` in chunks of at most `chunkBytes`, calling `consume(data, base)`
 * with the bytes not yet consumed (`base`: their file offset); it returns how many it took (whole
 * lines). Stops at the end, at a short read, or when `stopped()` says so before a read.
 */
export function readInChunks(
  fd: number,
  start: number,
  end: number,
  chunkBytes: number,
  consume: (data: Buffer, base: number) => number,
  stopped: () => boolean,
): ChunkedRead {
  const chunk = Buffer.allocUnsafe(Math.min(chunkBytes, end - start));
  let carried = 0;
  let long: Buffer | null = null;
  let position = start;
  let consumedTotal = 0;
  while (position < end && !stopped()) {
    const into = long === null ? carried : 0;
    const read = fs.readSync(fd, chunk, into, Math.min(chunk.length - into, end - position), position);
    if (read === 0) break;
    position += read;
    const data: Buffer = long === null ? chunk.subarray(0, carried + read) : Buffer.concat([long, chunk.subarray(0, read)]);
    const consumed = consume(data, start + consumedTotal);
    consumedTotal += consumed;
    const left = data.length - consumed;
    carried = 0;
    long = null;
    if (left >= chunk.length) long = Buffer.from(data.subarray(consumed));
    else if (left > 0) {
      // Buffer#copy is a memmove: `data` may be this very chunk.
      data.copy(chunk, 0, consumed);
      carried = left;
    }
  }
  return { consumed: consumedTotal, left: long === null ? carried : long.length };
}
