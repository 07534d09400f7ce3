// One unsigned 32-bit value per accepted event, appended in order, kept as runs of equal values:
// replay's scope of each event, where a scope's events mostly follow each other (a million
// events of 20-event scopes are 50,000 runs, 0.4 MB instead of 4 MB). A column whose values
// change more often than every second position switches to one value per position, so it never
// costs more than twice the plain array, and every answer is the same either way.

const INITIAL_RUNS = 256;
/** Below this many positions the runs are always kept (switching would save nothing). */
const DENSE_AFTER = 1_024;

export class RunColumn {
  /** The first position of each run and its value. */
  private runStarts: Uint32Array<ArrayBuffer> = new Uint32Array(INITIAL_RUNS);
  private runValues: Uint32Array<ArrayBuffer> = new Uint32Array(INITIAL_RUNS);
  private runs = 0;
  /** One value per position, once the runs stopped paying. */
  private dense: Uint32Array<ArrayBuffer> | null = null;
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(value: number): void {
    const position = this.count;
    if (this.dense !== null) {
      if (position === this.dense.length) this.dense = grownTo(this.dense, this.dense.length * 2);
      this.dense[position] = value;
    } else if (this.runs === 0 || this.runValues[this.runs - 1] !== value) {
      if (position >= DENSE_AFTER && this.runs * 2 > position) {
        this.dense = this.materialized(Math.max(DENSE_AFTER, position * 2));
        this.dense[position] = value;
      } else {
        if (this.runs === this.runStarts.length) {
          this.runStarts = grownTo(this.runStarts, this.runs * 2);
          this.runValues = grownTo(this.runValues, this.runs * 2);
        }
        this.runStarts[this.runs] = position;
        this.runValues[this.runs] = value;
        this.runs += 1;
      }
    }
    this.count = position + 1;
  }

  /** The value at a position below `length`. */
  at(position: number): number {
    if (this.dense !== null) return this.dense[position] as number;
    // The last run holds the newest positions, which replay asks about most.
    let low = 0;
    let high = this.runs - 1;
    if ((this.runStarts[high] as number) <= position) return this.runValues[high] as number;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((this.runStarts[middle] as number) <= position) low = middle;
      else high = middle - 1;
    }
    return this.runValues[low] as number;
  }

  /** Drops every position from `count` on (a trial's rollback). */
  truncate(count: number): void {
    if (count >= this.count) return;
    if (this.dense === null) while (this.runs > 0 && (this.runStarts[this.runs - 1] as number) >= count) this.runs -= 1;
    this.count = count;
  }

  private materialized(capacity: number): Uint32Array<ArrayBuffer> {
    const dense = new Uint32Array(capacity);
    for (let run = 0; run < this.runs; run += 1) {
      const end = run + 1 < this.runs ? (this.runStarts[run + 1] as number) : this.count;
      dense.fill(this.runValues[run] as number, this.runStarts[run] as number, end);
    }
    return dense;
  }
}

function grownTo(array: Uint32Array, capacity: number): Uint32Array<ArrayBuffer> {
  const next = new Uint32Array(capacity);
  next.set(array);
  return next;
}
