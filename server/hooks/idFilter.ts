// A Bloom filter over the event and scope ids a ledger prefix has accepted, so a hook reducing the
// tail after a checkpoint can prove an id is new without the whole history. "Maybe present" is
// never trusted: the hook then falls back to a full replay, so a false positive costs time, never
// correctness. Not cryptographic: ids are hashed as UTF-16 code units with two FNV-1a variants.
const HASHES = 7;
/** Bits per id; with 7 hashes this keeps false positives near 1%. */
const BITS_PER_ID = 10;
const MIN_BITS = 1 << 13;

export interface IdFilterData {
  /** Bit array, little-endian within bytes, base64. */
  readonly bits: string;
  readonly size: number;
  readonly count: number;
}

function fnv1a(text: string, seed: number): number {
  let hash = seed;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export class IdFilter {
  private constructor(
    private readonly bytes: Uint8Array,
    readonly size: number,
    private added: number,
  ) {}

  /** A filter sized for `capacity` ids (the size is a power of two). */
  static forCapacity(capacity: number): IdFilter {
    let size = MIN_BITS;
    while (size < capacity * BITS_PER_ID) size *= 2;
    return new IdFilter(new Uint8Array(size / 8), size, 0);
  }

  static fromData(data: IdFilterData): IdFilter | null {
    const { size } = data;
    if (!Number.isInteger(size) || size < MIN_BITS || (size & (size - 1)) !== 0) return null;
    const bytes = Buffer.from(data.bits, "base64");
    if (bytes.length !== size / 8) return null;
    return new IdFilter(new Uint8Array(bytes), size, data.count);
  }

  get count(): number {
    return this.added;
  }

  /** True while the filter still keeps its false-positive rate at its current size. */
  get roomy(): boolean {
    return this.added * BITS_PER_ID <= this.size;
  }

  private positions(id: string): number[] {
    const first = fnv1a(id, 0x811c9dc5);
    const second = fnv1a(id, 0x050c5d1f) | 1;
    const mask = this.size - 1;
    const positions: number[] = [];
    for (let index = 0; index < HASHES; index += 1) positions.push((first + Math.imul(index, second)) & mask);
    return positions;
  }

  add(id: string): void {
    for (const bit of this.positions(id)) this.bytes[bit >>> 3] = (this.bytes[bit >>> 3] as number) | (1 << (bit & 7));
    this.added += 1;
  }

  mightContain(id: string): boolean {
    return this.positions(id).every((bit) => ((this.bytes[bit >>> 3] as number) & (1 << (bit & 7))) !== 0);
  }

  toData(): IdFilterData {
    return { bits: Buffer.from(this.bytes).toString("base64"), size: this.size, count: this.added };
  }
}

export const eventIdKey = (eventId: string): string => `event\u0000${eventId}`;
export const scopeIdKey = (workScopeId: string): string => `scope\u0000${workScopeId}`;
