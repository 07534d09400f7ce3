// Every event id and scope id a ledger prefix has accepted, as 64-bit fingerprints in ledger order,
// in a binary file beside the ledger (`<ledger>.ids`), so a process reducing the lines after a
// checkpoint — a hook, or a writer starting from the snapshot — can prove an id is new without the
// whole history. A fingerprint found means "maybe seen", and the caller then replays in full: a
// collision (about one in 2^64 per pair) costs time, never correctness.
//
// The file is append-only and its content at each index is fixed by the ledger history (the same
// ids in the same order, whoever writes them), so writers may write the same range at once without
// the ledger lock (a hook catching up) and agree byte for byte. A tail seed binds itself to a
// prefix of it — a count and the SHA-256 of the header and those fingerprints — and a reader
// checks the binding while it scans: a missing, truncated, replaced or foreign file does not
// match, and the caller replays. Bytes past the bound prefix are ignored (another writer's newer
// fingerprints, or an append whose seed was never written).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import { openContained, writeFileAtomicContained } from "../workspace/containedFs";

/** The file's first bytes (a format change gets a new header, so an old file reads as foreign). */
const HEADER = Buffer.from("DKIDS\u00001\n", "latin1");
const HEADER_BYTES = HEADER.length;
const ENTRY_BYTES = 8;
/** Far above any ledger Docket replays (128 Mi ids, 1 GiB); a larger bound is unusable. */
const MAX_ENTRIES = 128 * 1024 * 1024;
const LITTLE_ENDIAN = os.endianness() === "LE";

export interface IdLogBinding {
  /** Fingerprints the prefix covers. */
  readonly count: number;
  /** SHA-256 (hex) of the header and those fingerprints' bytes. */
  readonly sha256: string;
}

export function idLogPathFor(ledgerPath: string): string {
  return `${ledgerPath}.ids`;
}

/** Which kind of id a fingerprint names: an event id and a scope id may be the same text. */
export type IdKind = "event" | "scope";

/**
 * Fingerprints in order, two 32-bit words each (low, high), growable. The hash is two multiplicative
 * lanes over the UTF-16 code units, seeded by the kind, with a final avalanche mixing both.
 */
export class Fingerprints {
  private words = new Uint32Array(64);
  private size = 0;

  get length(): number {
    return this.size;
  }

  add(kind: IdKind, id: string): void {
    let a = kind === "event" ? 0x811c9dc5 : 0x6c62272e;
    let b = (kind === "event" ? 0x2545f491 : 0x9e3779b9) ^ id.length;
    for (let index = 0; index < id.length; index += 1) {
      const unit = id.charCodeAt(index);
      a = Math.imul(a ^ unit, 0x01000193);
      b = Math.imul(b ^ unit, 0x5bd1e995);
      b ^= b >>> 15;
    }
    a ^= b >>> 13;
    a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
    a = Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
    a ^= a >>> 16;
    b ^= a;
    b = Math.imul(b ^ (b >>> 16), 0x7feb352d);
    b = Math.imul(b ^ (b >>> 15), 0x846ca68b);
    b ^= b >>> 16;
    if (this.size * 2 === this.words.length) {
      const grown = new Uint32Array(this.words.length * 2);
      grown.set(this.words);
      this.words = grown;
    }
    this.words[this.size * 2] = a >>> 0;
    this.words[this.size * 2 + 1] = b >>> 0;
    this.size += 1;
  }

  /** The words of fingerprints [from, to): a view, valid until the next add. */
  wordsOf(from = 0, to = this.size): Uint32Array {
    return this.words.subarray(from * 2, to * 2);
  }

  /** Fingerprints [from, to) as file bytes (little-endian words). */
  bytesOf(from = 0, to = this.size): Buffer {
    const copy = Buffer.from(this.wordsOf(from, to).slice().buffer);
    if (!LITTLE_ENDIAN) copy.swap32();
    return copy;
  }
}

/** A small open-addressing table of the fingerprints being asked about, tested against every entry. */
class ProbeTable {
  private readonly low: Int32Array;
  private readonly high: Int32Array;
  private readonly used: Uint8Array;
  private readonly mask: number;

  constructor(words: Uint32Array) {
    let size = 64;
    while (size < words.length * 2) size *= 2;
    this.low = new Int32Array(size);
    this.high = new Int32Array(size);
    this.used = new Uint8Array(size);
    this.mask = size - 1;
    for (let index = 0; index < words.length; index += 2) {
      const low = (words[index] as number) | 0;
      let slot = low & this.mask;
      while (this.used[slot] !== 0) slot = (slot + 1) & this.mask;
      this.used[slot] = 1;
      this.low[slot] = low;
      this.high[slot] = (words[index + 1] as number) | 0;
    }
  }

  /** True when any entry of `entries` (word pairs) is one of the table's fingerprints. */
  anyIn(entries: Uint32Array): boolean {
    const { low, high, used, mask } = this;
    for (let index = 0; index < entries.length; index += 2) {
      const value = (entries[index] as number) | 0;
      let slot = value & mask;
      while (used[slot] !== 0) {
        if (low[slot] === value && high[slot] === ((entries[index + 1] as number) | 0)) return true;
        slot = (slot + 1) & mask;
      }
    }
    return false;
  }
}

/** The bound prefix of the file, checked: its entries and the hash to extend it with. */
export class VerifiedIdLog {
  private constructor(
    private readonly entries: Uint32Array,
    private hash: crypto.Hash,
    private count: number,
  ) {}

  /** Reads and checks the prefix `binding` names; null when the file does not hold it. */
  static read(root: string, ledgerPath: string, binding: IdLogBinding): VerifiedIdLog | null {
    const { count } = binding;
    if (!Number.isInteger(count) || count < 0 || count > MAX_ENTRIES) return null;
    const length = HEADER_BYTES + count * ENTRY_BYTES;
    let bytes: Buffer;
    try {
      const fd = openContained(root, idLogPathFor(ledgerPath), "r");
      try {
        const stat = fs.fstatSync(fd);
        if (!stat.isFile() || stat.size < length) return null;
        bytes = Buffer.allocUnsafe(length);
        let read = 0;
        while (read < length) {
          const n = fs.readSync(fd, bytes, read, length - read, read);
          if (n === 0) return null;
          read += n;
        }
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return null;
    }
    if (!bytes.subarray(0, HEADER_BYTES).equals(HEADER)) return null;
    const hash = crypto.createHash("sha256").update(bytes);
    if (hash.copy().digest("hex") !== binding.sha256) return null;
    const body = bytes.subarray(HEADER_BYTES);
    if (!LITTLE_ENDIAN) body.swap32();
    // allocUnsafe may hand out a slice of the pool; copy only when the view would be misaligned.
    const entries = body.byteOffset % 4 === 0 ? new Uint32Array(body.buffer, body.byteOffset, count * 2) : new Uint32Array(body.slice().buffer, 0, count * 2);
    return new VerifiedIdLog(entries, hash, count);
  }

  /** True when any of `probes` (fingerprint words) is in the prefix. */
  containsAny(probes: Uint32Array): boolean {
    return probes.length > 0 && new ProbeTable(probes).anyIn(this.entries);
  }

  /**
   * Writes `added` right after the prefix and returns the binding of the longer prefix (which this
   * log then is); null when the file no longer holds the prefix (replaced meanwhile) or cannot be
   * written. Lookups still scan the prefix first read: the added ids are the caller's own.
   */
  extend(root: string, ledgerPath: string, added: Buffer): IdLogBinding | null {
    const hash = this.hash.copy().update(added);
    const binding = { count: this.count + added.length / ENTRY_BYTES, sha256: hash.copy().digest("hex") };
    if (added.length > 0 && !writeAt(root, ledgerPath, HEADER_BYTES + this.count * ENTRY_BYTES, added)) return null;
    this.hash = hash;
    this.count = binding.count;
    return binding;
  }
}

function writeAt(root: string, ledgerPath: string, position: number, bytes: Buffer): boolean {
  try {
    const fd = openContained(root, idLogPathFor(ledgerPath), "r+");
    try {
      // A shorter file is not the one the prefix was read from: a write here would leave a hole.
      if (!fs.fstatSync(fd).isFile() || fs.fstatSync(fd).size < position) return false;
      let written = 0;
      while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written, position + written);
      return true;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

/**
 * A writer's own log, kept in memory beside its replayed store: every fingerprint so far and the
 * running hash. The first sync in a process writes the whole file (atomically); later ones write
 * only what was added since, where the file still holds what this process wrote.
 */
export class IdLogWriter {
  readonly fingerprints = new Fingerprints();
  private readonly hash = crypto.createHash("sha256").update(HEADER);
  private hashed = 0;
  private written = -1;

  binding(): IdLogBinding {
    if (this.hashed < this.fingerprints.length) {
      this.hash.update(this.fingerprints.bytesOf(this.hashed));
      this.hashed = this.fingerprints.length;
    }
    return { count: this.hashed, sha256: this.hash.copy().digest("hex") };
  }

  /** Brings the file up to this log; false when it could not be written. */
  sync(root: string, ledgerPath: string): boolean {
    const count = this.fingerprints.length;
    if (this.written >= 0 && writeAt(root, ledgerPath, HEADER_BYTES + this.written * ENTRY_BYTES, this.fingerprints.bytesOf(this.written))) {
      this.written = count;
      return true;
    }
    try {
      writeFileAtomicContained(root, idLogPathFor(ledgerPath), Buffer.concat([HEADER, this.fingerprints.bytesOf()]));
      this.written = count;
      return true;
    } catch {
      return false;
    }
  }
}
