// The code cache file's bytes: a fixed header, then V8's cached data. The header binds the payload
// to one bundle and lets the reader check the payload's integrity before V8 sees it: V8 itself
// checks only a version, its flags and the source's *length*, and no checksum in release builds.
//
//   0   4  magic "DKCC"
//   4   4  format (uint32 LE)
//   8  32  sha256 of the bundle's bytes
//  40  32  sha256 of the payload
//  72   4  payload length (uint32 LE)
//  76   …  payload
import type { Hash } from "node:crypto";

export const CODE_CACHE_FORMAT = 1;
const MAGIC = Buffer.from("DKCC", "latin1");
const HEADER_BYTES = 76;
/** Far beyond any bundle's cache (a few hundred KB): a larger file is not read at all. */
export const MAX_CACHE_FILE_BYTES = 64 * 1024 * 1024;

type Sha256 = (data: Buffer) => Buffer;

export function sha256With(createHash: (algorithm: string) => Hash): Sha256 {
  return (data) => createHash("sha256").update(data).digest();
}

/** The file name: a cache made for other bytes, another Node or another format is never opened. */
export function cacheFileName(bundleSha256Hex: string, nodeVersion: string = process.version, arch: string = process.arch): string {
  return `${bundleSha256Hex}-${nodeVersion}-${arch}-f${CODE_CACHE_FORMAT}.cache`;
}

export function encodeCacheFile(bundleSha256Hex: string, payload: Buffer, sha256: Sha256): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(CODE_CACHE_FORMAT, 4);
  Buffer.from(bundleSha256Hex, "hex").copy(header, 8);
  sha256(payload).copy(header, 40);
  header.writeUInt32LE(payload.length, 72);
  return Buffer.concat([header, payload]);
}

/** The payload when every header field matches and the payload hashes to its recorded sha256; null otherwise. */
export function decodeCacheFile(bytes: Buffer, bundleSha256Hex: string, sha256: Sha256): Buffer | null {
  if (bytes.length < HEADER_BYTES || !bytes.subarray(0, 4).equals(MAGIC)) return null;
  if (bytes.readUInt32LE(4) !== CODE_CACHE_FORMAT) return null;
  if (!bytes.subarray(8, 40).equals(Buffer.from(bundleSha256Hex, "hex"))) return null;
  const length = bytes.readUInt32LE(72);
  if (length === 0 || length !== bytes.length - HEADER_BYTES) return null;
  const payload = bytes.subarray(HEADER_BYTES);
  return sha256(payload).equals(bytes.subarray(40, 72)) ? payload : null;
}
