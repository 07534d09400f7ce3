// The accepted event ids of a replay, without a string per event: the ids' UTF-8 bytes end to end
// in one buffer, and an open-addressing table over typed arrays maps a 32-bit hash of an id to its
// ordinal (the id's bytes are compared on a hash match, so a collision never confuses two ids).
// About 12 bytes per event besides the id's bytes, instead of a Map entry and a string. An
// id's hash is not kept: a probe compares the id's bytes (the rare rehash hashes them again).
// Ordinals are dense and added in order; only the newest are ever removed (a trial's rollback).
// The bytes live in chunks of 64 KiB, an id never split between two: one growing buffer would
// copy every id at each doubling and hold both copies at once, the peak of a long replay.

const EMPTY = 0;
const CHUNK_SHIFT = 16;
const CHUNK_BYTES = 1 << CHUNK_SHIFT;
/** A start is chunk << CHUNK_SHIFT | offset in 32 bits. */
const MAX_CHUNKS = 1 << (32 - CHUNK_SHIFT);

/** FNV-1a over the UTF-16 code units (ids are short ASCII in practice). */
function hashOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index += 1) hash = Math.imul(hash ^ id.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

export class EventIdTable {
  private readonly chunks: Buffer[] = [];
  /** Bytes used in each chunk. */
  private readonly chunkUsed: number[] = [];
  /**
   * Where each ordinal's id starts: chunk << CHUNK_SHIFT | offset. It ends where the next one
   * starts in the same chunk, or where the chunk's used bytes end.
   */
  private starts = new Uint32Array(1_024);
  /** ordinal + 1 per slot, EMPTY for a free slot; at most half full. */
  private slots = new Int32Array(2_048);
  private total = 0;

  get size(): number {
    return this.total;
  }

  /** The ordinal of an id, or undefined. */
  get(id: string): number | undefined {
    const hash = hashOf(id);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot] as number;
      if (entry === EMPTY) return undefined;
      const ordinal = entry - 1;
      if (this.holds(ordinal, id)) return ordinal;
    }
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** The id of an ordinal, or undefined. */
  idOf(ordinal: number): string | undefined {
    if (!Number.isInteger(ordinal) || ordinal < 0 || ordinal >= this.total) return undefined;
    const start = this.starts[ordinal] as number;
    return (this.chunks[start >>> CHUNK_SHIFT] as Buffer).toString("utf8", start & (CHUNK_BYTES - 1), this.endOf(ordinal));
  }

  /**
   * hashOf(idOf(ordinal)) read from the bytes: an ASCII byte is its own code unit, so no string is
   * made (a rehash reads every id, and a million short-lived strings would grow the heap).
   */
  private storedHash(ordinal: number): number {
    const start = this.starts[ordinal] as number;
    const bytes = this.chunks[start >>> CHUNK_SHIFT] as Buffer;
    const end = this.endOf(ordinal);
    let hash = 0x811c9dc5;
    for (let index = start & (CHUNK_BYTES - 1); index < end; index += 1) {
      const byte = bytes[index] as number;
      if (byte >= 0x80) return hashOf(this.idOf(ordinal) as string);
      hash = Math.imul(hash ^ byte, 0x01000193);
    }
    return hash >>> 0;
  }

  /** Where an ordinal's id ends in its chunk. */
  private endOf(ordinal: number): number {
    const chunk = (this.starts[ordinal] as number) >>> CHUNK_SHIFT;
    const next = ordinal + 1 < this.total ? (this.starts[ordinal + 1] as number) : -1;
    return next >= 0 && next >>> CHUNK_SHIFT === chunk ? next & (CHUNK_BYTES - 1) : (this.chunkUsed[chunk] as number);
  }

  /**
   * Whether an ordinal's id is `id` (`idOf(ordinal) === id`) without making a string while the
   * stored bytes are ASCII: an ASCII byte is its own code unit, so all-ASCII bytes are the text
   * `id` exactly when they have its length and its code units. Only a stored id with another byte
   * is decoded and compared (a probe meets one for every lookup, so it must not allocate).
   */
  private holds(ordinal: number, id: string): boolean {
    const start = this.starts[ordinal] as number;
    const bytes = this.chunks[start >>> CHUNK_SHIFT] as Buffer;
    const from = start & (CHUNK_BYTES - 1);
    const to = this.endOf(ordinal);
    let equal = to - from === id.length;
    for (let index = from; index < to; index += 1) {
      const byte = bytes[index] as number;
      if (byte >= 0x80) return this.idOf(ordinal) === id;
      // Every byte so far was ASCII, so this is the stored id's code unit at this index: a
      // different one settles it (a probe mostly meets other ids, which differ early or late).
      if (byte !== id.charCodeAt(index - from)) return false;
    }
    return equal;
  }

  /** Adds the next ordinal's id (the caller checked it is not already there). */
  push(id: string): void {
    const ordinal = this.total;
    if (ordinal === this.starts.length) this.growRecords();
    if ((ordinal + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    const length = Buffer.byteLength(id, "utf8");
    // Event ids are at most 160 characters (idAt); a chunk holds thousands.
    if (length >= CHUNK_BYTES) throw new Error(`event id of ${length} bytes is longer than the table holds`);
    let chunk = this.chunks.length - 1;
    if (chunk < 0 || (this.chunkUsed[chunk] as number) + length > CHUNK_BYTES) {
      if (chunk + 1 >= MAX_CHUNKS) throw new Error("the event id table is full (4 GiB of ids)");
      this.chunks.push(Buffer.alloc(CHUNK_BYTES));
      this.chunkUsed.push(0);
      chunk += 1;
    }
    const offset = this.chunkUsed[chunk] as number;
    this.starts[ordinal] = ((chunk << CHUNK_SHIFT) | offset) >>> 0;
    this.chunkUsed[chunk] = offset + (this.chunks[chunk] as Buffer).write(id, offset, "utf8");
    this.total += 1;
    this.place(ordinal, hashOf(id));
  }

  /**
   * Removes every ordinal from `count` on. Clearing their slots is exact because they are the
   * newest: no older id's probe ever passed a slot that was still free when it was placed.
   */
  truncate(count: number): void {
    for (let ordinal = this.total - 1; ordinal >= count; ordinal -= 1) {
      const mask = this.slots.length - 1;
      for (let slot = this.storedHash(ordinal) & mask; ; slot = (slot + 1) & mask) {
        if (this.slots[slot] === ordinal + 1) {
          this.slots[slot] = EMPTY;
          break;
        }
      }
      const start = this.starts[ordinal] as number;
      const chunk = start >>> CHUNK_SHIFT;
      // Chunks after this id's were begun by later ids only: they are empty now.
      this.chunks.length = chunk + 1;
      this.chunkUsed.length = chunk + 1;
      this.chunkUsed[chunk] = start & (CHUNK_BYTES - 1);
      this.total = ordinal;
    }
  }

  private place(ordinal: number, hash: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.slots[slot] = ordinal + 1;
  }

  private growRecords(): void {
    const starts = new Uint32Array(this.starts.length * 2);
    starts.set(this.starts);
    this.starts = starts;
  }

  /** Placed again in ordinal order, which keeps `truncate` exact. */
  private rehash(capacity: number): void {
    this.slots = new Int32Array(capacity);
    for (let ordinal = 0; ordinal < this.total; ordinal += 1) this.place(ordinal, this.storedHash(ordinal));
  }
}
