// node:crypto as dist/docket-hook.js sees it (scripts/build.mjs resolves the bundle's `node:crypto`
// imports to this file): the module loads on the first hash, not at start. A PreToolUse answer
// hashes nothing, and loading node:crypto is a few milliseconds of every hook process's start-up.
import type { BinaryLike, BinaryToTextEncoding, Hash } from "node:crypto";

type NodeCrypto = typeof import("node:crypto");

let loaded: NodeCrypto | null = null;

function nodeCrypto(): NodeCrypto {
  // "crypto", not "node:crypto": the build redirects only the prefixed name here.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require("crypto") as NodeCrypto;
  return loaded;
}

export function createHash(algorithm: string): Hash {
  return nodeCrypto().createHash(algorithm);
}

export function randomBytes(size: number): Buffer {
  return nodeCrypto().randomBytes(size);
}

/**
 * Always present, so a caller that tests for the one-shot hash before loading anything takes it;
 * on a Node without one it is the same digest through createHash.
 */
export function hash(algorithm: string, data: BinaryLike, outputEncoding: BinaryToTextEncoding = "hex"): string {
  const crypto = nodeCrypto();
  return typeof crypto.hash === "function" ? crypto.hash(algorithm, data, outputEncoding) : crypto.createHash(algorithm).update(data).digest(outputEncoding);
}

const lazyMembers: Readonly<Record<string, unknown>> = { createHash, randomBytes, hash };

/** The default import: the members above stay lazy; any other member loads the module and is its own. */
export default new Proxy(lazyMembers, {
  get: (members, key) => (typeof key === "string" && Object.hasOwn(members, key) ? members[key] : Reflect.get(nodeCrypto(), key)),
});
