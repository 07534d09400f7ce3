// Derives and writes the hook checkpoint from a caught-up store. Writers call it inside the
// ledger lock right after an append (so checkpoints advance in ledger order); a hook calls it
// after a full replay when the checkpoint was behind. Best effort: a checkpoint is a cache.
import fs from "node:fs";
import { describeHistory } from "../developer/history";
import type { LedgerStore } from "../ledger/store";
import { openContained, writeFileAtomicContained } from "../workspace/containedFs";
import { idLogOf, tailSeedOf, writeTailSeed } from "./tailSeed";
import { checkpointPathFor, lookupCheckpointFile, type Checkpoint } from "./checkpoint";
import { sealIntact, sealedCheckpoint } from "./checkpointSeal";
import { checkpointStateOf } from "./checkpointStateOf";

export { checkpointStateOf };


/** The checkpoint of a fault-free store, or null when the store cannot vouch for its bytes. */
export function checkpointOf(store: LedgerStore): Checkpoint | null {
  if (store.fault !== null || !store.exists) return null;
  const last = store.lineCount === 0 ? undefined : store.lineRecord(store.lineCount - 1);
  let headLine: Checkpoint["ledger"]["headLine"] = null;
  if (last !== undefined) {
    const headSha = store.headLineSha256;
    if (headSha === null) return null;
    const bytes = Buffer.alloc(last.length);
    const fd = openContained(store.root, store.ledgerPath, "r");
    try {
      fs.readSync(fd, bytes, 0, last.length, last.offset);
    } finally {
      fs.closeSync(fd);
    }
    headLine = { offset: last.offset, length: last.length, text: bytes.toString("utf8"), lineSha256: headSha };
  }
  const ino = store.inodeNumber;
  if (ino === null) return null;
  return sealedCheckpoint({ ino, bytes: store.offset, lines: store.lineCount, headLine }, checkpointStateOf(describeHistory(store.replayer)));
}

/**
 * Writes the store's id log, its tail seed, then its checkpoint (the seed and checkpoint atomically,
 * temp file + rename); never throws. Each goes before what points at it, so a checkpoint never
 * points past the seed a reader will find, nor a seed past the id log.
 */
export function writeCheckpoint(store: LedgerStore): boolean {
  try {
    const checkpoint = checkpointOf(store);
    if (checkpoint === null) return false;
    const seed = tailSeedOf(store);
    writeTailSeed(store.root, store.ledgerPath, seed !== null && idLogOf(store).sync(store.root, store.ledgerPath) ? seed : null);
    writeFileAtomicContained(store.root, checkpointPathFor(store.ledgerPath), `${JSON.stringify(checkpoint)}\n`);
    return true;
  } catch {
    return false;
  }
}

/**
 * After a reader's full replay (`docket status` when the checkpoint could not answer): rewrites
 * the checkpoint unless a current, sealed one is already there, so the next reader is fast again.
 * Without the lock, like a hook's: a stale write is only slower, never wrong. Never throws.
 */
export function refreshCheckpoint(store: LedgerStore): void {
  try {
    const lookup = lookupCheckpointFile(store.ledgerPath, store.root);
    if (lookup.kind === "current" && sealIntact(lookup.checkpoint)) return;
  } catch {
    // Unreadable: rewrite it.
  }
  writeCheckpoint(store);
}
