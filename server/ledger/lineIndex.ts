// Where every line of the ledger lies in the file, kept in typed arrays: a year of work is a
// million lines, and an object per line would hold more memory than the replayed state itself.
// Readers page through history by line number or by replay index and read the bytes from the file.
//
// About 5 bytes a line: each line's length and whether it is a developer entry, plus, per block
// of 64 lines, the block's first offset and how many developer entries came before it. Lines
// follow each other in the file, so an offset is its block's offset plus the lengths before it
// in the block, and a replay index is its block's count plus the developer lines before it.
// A push that does not follow the previous line (the store never makes one) switches the index to
// one offset per line, so every answer stays exact.

/** A line's place in the file and, for developer entries, its replay index. */
export interface LineRecord {
  readonly offset: number;
  readonly length: number;
  readonly replayIndex: number | null;
}

const INITIAL_CAPACITY = 1_024;
const BLOCK_SHIFT = 6;
const BLOCK_LINES = 1 << BLOCK_SHIFT;

function grown<T extends Float64Array | Uint32Array | Uint8Array>(array: T, make: (size: number) => T): T {
  const next = make(array.length * 2);
  next.set(array);
  return next;
}

export class LineIndex {
  private lengths = new Uint32Array(INITIAL_CAPACITY);
  /** 1 for a developer entry, 0 for any other line. */
  private developer = new Uint8Array(INITIAL_CAPACITY);
  // Offsets as doubles: exact up to 2^53 bytes, where 32 bits would stop at 4 GiB.
  private blockOffsets = new Float64Array(INITIAL_CAPACITY >> BLOCK_SHIFT);
  /** Developer entries in the lines before each block. */
  private blockReplayed = new Uint32Array(INITIAL_CAPACITY >> BLOCK_SHIFT);
  /** One offset per line, only once a push did not follow the line before it. */
  private denseOffsets: Float64Array | null = null;
  /** Where the next line starts when it follows the last one. */
  private nextOffset = 0;
  private count = 0;
  private replayed = 0;

  get length(): number {
    return this.count;
  }

  push(offset: number, length: number, replayIndex: number | null): void {
    if (replayIndex !== null && replayIndex !== this.replayed) throw new Error(`replay index ${replayIndex} out of order (expected ${this.replayed})`);
    const line = this.count;
    if (line === this.lengths.length) {
      this.lengths = grown(this.lengths, (size) => new Uint32Array(size));
      this.developer = grown(this.developer, (size) => new Uint8Array(size));
      this.blockOffsets = grown(this.blockOffsets, (size) => new Float64Array(size));
      this.blockReplayed = grown(this.blockReplayed, (size) => new Uint32Array(size));
      if (this.denseOffsets !== null) this.denseOffsets = grown(this.denseOffsets, (size) => new Float64Array(size));
    }
    if ((line & (BLOCK_LINES - 1)) === 0) {
      this.blockOffsets[line >> BLOCK_SHIFT] = offset;
      this.blockReplayed[line >> BLOCK_SHIFT] = this.replayed;
    } else if (this.denseOffsets === null && offset !== this.nextOffset) {
      this.denseOffsets = this.materializedOffsets();
    }
    if (this.denseOffsets !== null) this.denseOffsets[line] = offset;
    this.lengths[line] = length;
    this.developer[line] = replayIndex === null ? 0 : 1;
    this.nextOffset = offset + length;
    if (replayIndex !== null) this.replayed += 1;
    this.count += 1;
  }

  record(line: number): LineRecord | undefined {
    if (!Number.isInteger(line) || line < 0 || line >= this.count) return undefined;
    return { offset: this.offsetOf(line), length: this.lengths[line] as number, replayIndex: this.developer[line] === 1 ? this.replayIndexOf(line) : null };
  }

  /** The zero-based line holding the developer entry of this replay index. */
  lineOfReplayIndex(index: number): number | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.replayed) return undefined;
    // Every line a developer entry (a ledger without Guard or Observer lines): the index is the line.
    if (this.replayed === this.count) return index;
    // The last block whose count before it is at most `index` holds the entry.
    let low = 0;
    let high = ((this.count - 1) >> BLOCK_SHIFT) + 1;
    while (high - low > 1) {
      const middle = (low + high) >>> 1;
      if ((this.blockReplayed[middle] as number) <= index) low = middle;
      else high = middle;
    }
    let remaining = index - (this.blockReplayed[low] as number);
    for (let line = low << BLOCK_SHIFT; line < this.count; line += 1) {
      if (this.developer[line] !== 1) continue;
      if (remaining === 0) return line;
      remaining -= 1;
    }
    return undefined;
  }

  private offsetOf(line: number): number {
    if (this.denseOffsets !== null) return this.denseOffsets[line] as number;
    const first = line & ~(BLOCK_LINES - 1);
    let offset = this.blockOffsets[line >> BLOCK_SHIFT] as number;
    for (let before = first; before < line; before += 1) offset += this.lengths[before] as number;
    return offset;
  }

  private replayIndexOf(line: number): number {
    let index = this.blockReplayed[line >> BLOCK_SHIFT] as number;
    for (let before = line & ~(BLOCK_LINES - 1); before < line; before += 1) index += this.developer[before] as number;
    return index;
  }

  private materializedOffsets(): Float64Array {
    const offsets = new Float64Array(this.lengths.length);
    for (let line = 0; line < this.count; line += 1) offsets[line] = this.offsetOf(line);
    return offsets;
  }
}
