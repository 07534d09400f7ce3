// node:crypto as the hook bundles see it (scripts/build.mjs resolves their `node:crypto` imports to
// this file): the module loads only when a hook needs more than it offers here. A PreToolUse answer
// hashes nothing, and loading node:crypto costs a hook more CPU than everything a PostToolUse or a
// Stop hashes, so until the module is loaded a SHA-256 of a short input is computed in JavaScript
// (smallSha256.ts, the same digest) and random bytes come from the kernel's /dev/urandom, the source
// node:crypto reads too. Longer inputs, other algorithms and every other member load the module.
import fs from "node:fs";
import type { BinaryLike, BinaryToTextEncoding, Hash } from "node:crypto";
import { smallSha256 } from "./smallSha256";

type NodeCrypto = typeof import("node:crypto");

/** Above this many bytes, hashing in JavaScript (interpreted, in a process this short) costs more than loading node:crypto. */
export const SMALL_HASH_LIMIT_BYTES = 4 * 1024;

let loaded: NodeCrypto | null = null;

function nodeCrypto(): NodeCrypto {
  // "crypto", not "node:crypto": the build redirects only the prefixed name here.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require("crypto") as NodeCrypto;
  return loaded;
}

function bytesOf(data: BinaryLike, encoding: BufferEncoding | undefined): Uint8Array {
  if (typeof data === "string") return Buffer.from(data, encoding ?? "utf8");
  if (data instanceof Uint8Array) return data;
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * A SHA-256 that collects its input while it is short and computes the digest in JavaScript;
 * past SMALL_HASH_LIMIT_BYTES (or once node:crypto is loaded anyway) it hands everything to a
 * node:crypto hash. Only update and digest exist: the hook bundles use nothing else of a Hash.
 */
class ShortSha256 {
  private chunks: Uint8Array[] | null = [];
  private length = 0;
  private native: Hash | null = null;

  update(data: BinaryLike, encoding?: BufferEncoding): this {
    if (this.native !== null) {
      this.native.update(bytesOf(data, encoding));
      return this;
    }
    // A caller's buffer may change before digest(), as node:crypto's copy would not: keep a copy.
    const bytes = typeof data === "string" ? bytesOf(data, encoding) : new Uint8Array(bytesOf(data, encoding));
    (this.chunks as Uint8Array[]).push(bytes);
    this.length += bytes.length;
    if (this.length > SMALL_HASH_LIMIT_BYTES || loaded !== null) {
      this.native = nodeCrypto().createHash("sha256");
      for (const chunk of this.chunks as Uint8Array[]) this.native.update(chunk);
      this.chunks = null;
    }
    return this;
  }

  digest(): Buffer;
  digest(encoding: BinaryToTextEncoding): string;
  digest(encoding?: BinaryToTextEncoding): Buffer | string {
    if (this.native !== null) return encoding === undefined ? this.native.digest() : this.native.digest(encoding);
    if (this.chunks === null) throw new Error("Digest already called");
    const digest = smallSha256(this.chunks.length === 1 ? (this.chunks[0] as Uint8Array) : Buffer.concat(this.chunks));
    this.chunks = null;
    return encoding === undefined ? digest : digest.toString(encoding);
  }
}

export function createHash(algorithm: string): Hash {
  if (algorithm !== "sha256" || loaded !== null) return nodeCrypto().createHash(algorithm);
  return new ShortSha256() as unknown as Hash;
}

/** `size` random bytes from /dev/urandom while node:crypto is not loaded (where there is one). */
export function randomBytes(size: number): Buffer {
  if (loaded === null) {
    const bytes = Buffer.alloc(size);
    let fd: number | null = null;
    try {
      fd = fs.openSync("/dev/urandom", "r");
      let read = 0;
      while (read < size) {
        const count = fs.readSync(fd, bytes, read, size - read, null);
        if (count <= 0) break;
        read += count;
      }
      if (read === size) return bytes;
    } catch {
      // No /dev/urandom (Windows): node:crypto below.
    } finally {
      if (fd !== null) fs.closeSync(fd);
    }
  }
  return nodeCrypto().randomBytes(size);
}

/**
 * Always present, so a caller that tests for the one-shot hash before loading anything takes it;
 * on a Node without one it is the same digest through createHash.
 */
export function hash(algorithm: string, data: BinaryLike, outputEncoding: BinaryToTextEncoding = "hex"): string {
  if (algorithm === "sha256" && loaded === null) return createHash(algorithm).update(data).digest(outputEncoding);
  const crypto = nodeCrypto();
  return typeof crypto.hash === "function" ? crypto.hash(algorithm, data, outputEncoding) : crypto.createHash(algorithm).update(data).digest(outputEncoding);
}

const lazyMembers: Readonly<Record<string, unknown>> = { createHash, randomBytes, hash };

/** The default import: the members above stay lazy; any other member loads the module and is its own. */
export default new Proxy(lazyMembers, {
  get: (members, key) => (typeof key === "string" && Object.hasOwn(members, key) ? members[key] : Reflect.get(nodeCrypto(), key)),
});
