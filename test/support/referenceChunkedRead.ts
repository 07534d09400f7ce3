// The store's chunked read as it was before `server/ledger/chunkedRead.ts` (issue 16, replay's
// ninth part): the bytes of a line begun in one read were copied out and joined with the next read
// by Buffer.concat. Kept verbatim (as a function) as the reference of test/unit/chunkedRead.test.ts.
import fs from "node:fs";
import type { ChunkedRead } from "../../server/ledger/chunkedRead";

export function referenceReadInChunks(
  fd: number,
  start: number,
  end: number,
  chunkBytes: number,
  consume: (data: Buffer, base: number) => number,
  stopped: () => boolean,
): ChunkedRead {
  const chunk = Buffer.allocUnsafe(Math.min(chunkBytes, end - start));
  /** Bytes of a line begun in an earlier chunk (copied out of it: the chunk buffer is reused). */
  let carry: Buffer | null = null;
  let position = start;
  let consumedTotal = 0;
  while (position < end && !stopped()) {
    const read = fs.readSync(fd, chunk, 0, Math.min(chunk.length, end - position), position);
    if (read === 0) break;
    position += read;
    const data: Buffer = carry === null ? chunk.subarray(0, read) : Buffer.concat([carry, chunk.subarray(0, read)]);
    const consumed = consume(data, start + consumedTotal);
    consumedTotal += consumed;
    carry = consumed === data.length ? null : Buffer.from(data.subarray(consumed));
  }
  return { consumed: consumedTotal, left: carry?.length ?? 0 };
}
