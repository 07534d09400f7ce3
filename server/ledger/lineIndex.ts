// Where every line of the ledger lies in the file, kept in typed arrays: a year of work is a
// million lines, and an object per line would hold more memory than the replayed state itself.
// Readers page through history by line number or by replay index and read the bytes from the file.

/** A line's place in the file and, for developer entries, its replay index. */
export interface LineRecord {
  readonly offset: number;
  readonly length: number;
  readonly replayIndex: number | null;
}

const INITIAL_CAPACITY = 1_024;

function grown<T extends Float64Array | Uint32Array | Int32Array>(array: T, make: (size: number) => T): T {
  const next = make(array.length * 2);
  next.set(array);
  return next;
}

export class LineIndex {
  // Offsets as doubles: exact up to 2^53 bytes, where 32 bits would stop at 4 GiB.
  private offsets = new Float64Array(INITIAL_CAPACITY);
  private lengths = new Uint32Array(INITIAL_CAPACITY);
  /** -1 for a line that is not a developer entry. */
  private replayIndexes = new Int32Array(INITIAL_CAPACITY);
  /** The line of each replay index (developer entries are replayed in line order). */
  private linesByReplayIndex = new Uint32Array(INITIAL_CAPACITY);
  private count = 0;
  private replayed = 0;

  get length(): number {
    return this.count;
  }

  push(offset: number, length: number, replayIndex: number | null): void {
    if (this.count === this.offsets.length) {
      this.offsets = grown(this.offsets, (size) => new Float64Array(size));
      this.lengths = grown(this.lengths, (size) => new Uint32Array(size));
      this.replayIndexes = grown(this.replayIndexes, (size) => new Int32Array(size));
    }
    this.offsets[this.count] = offset;
    this.lengths[this.count] = length;
    this.replayIndexes[this.count] = replayIndex ?? -1;
    if (replayIndex !== null) {
      if (replayIndex !== this.replayed) throw new Error(`replay index ${replayIndex} out of order (expected ${this.replayed})`);
      if (this.replayed === this.linesByReplayIndex.length) this.linesByReplayIndex = grown(this.linesByReplayIndex, (size) => new Uint32Array(size));
      this.linesByReplayIndex[this.replayed] = this.count;
      this.replayed += 1;
    }
    this.count += 1;
  }

  record(line: number): LineRecord | undefined {
    if (!Number.isInteger(line) || line < 0 || line >= this.count) return undefined;
    const replayIndex = this.replayIndexes[line] as number;
    return { offset: this.offsets[line] as number, length: this.lengths[line] as number, replayIndex: replayIndex < 0 ? null : replayIndex };
  }

  /** The zero-based line holding the developer entry of this replay index. */
  lineOfReplayIndex(index: number): number | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.replayed) return undefined;
    return this.linesByReplayIndex[index];
  }
}
