// The eventSha256 of every accepted event, 32 bytes each, in fixed-size chunks: a million events
// hold 32 MB of hashes, and one growing buffer would copy them at every doubling and hold the old
// and the new copy at once (the replay's peak memory) until the collector frees the old one.

const HASH_BYTES = 32;
const CHUNK_SHIFT = 11;
const CHUNK_HASHES = 1 << CHUNK_SHIFT;

export class HashColumn {
  private readonly chunks: Buffer[] = [];

  /** The lowercase hex hash at `position`; the caller keeps positions below what it wrote. */
  hexAt(position: number): string {
    const start = (position & (CHUNK_HASHES - 1)) * HASH_BYTES;
    return (this.chunks[position >> CHUNK_SHIFT] as Buffer).toString("hex", start, start + HASH_BYTES);
  }

  /** Writes a 64-character lowercase hex hash at `position` (positions are written in order, or again after a rollback). */
  write(position: number, hex: string): void {
    const chunk = position >> CHUNK_SHIFT;
    while (this.chunks.length <= chunk) this.chunks.push(Buffer.alloc(CHUNK_HASHES * HASH_BYTES));
    (this.chunks[chunk] as Buffer).write(hex, (position & (CHUNK_HASHES - 1)) * HASH_BYTES, HASH_BYTES, "hex");
  }
}
