// Writes from the verified snapshot: a batch built, preflighted and appended without replaying the
// ledger, so a write costs the same on a ledger of a million events as on one of a hundred.
//
// The snapshot is the hook checkpoint and its tail seed (docs/hooks.md "Checkpoint"). A writer
// believes it only for this very file and only as far as it can prove, under the ledger lock:
//
// - the checkpoint is bound to the ledger's inode, the ledger holds the exact bytes of its head
//   line at its offset, and its seal is intact (a state edited by hand reads as unusable);
// - the head anchor is readable, announces no batch (a writer that died mid-append is the full
//   path's to judge), and the ledger still reaches its head line;
// - every complete line after the checkpoint reduces from the seed with the rules a full replay
//   applies (server/hooks/tailReduction.ts), with no fault, rejection or blocked history;
// - the batch preflights on that state with those rules, every new id provably new.
//
// Anything it cannot prove returns null and the caller writes as before: one full replay, which
// reports the coded error or writes. So this path never writes where a replay would refuse and
// never accepts an entry a replay would reject (test/unit/snapshotWrites.test.ts compares them).
// What it does not re-check is the body of the history before the checkpoint's head line: that
// line's bytes carry the hash chain, and `docket ledger verify` re-reads every line.
import fs from "node:fs";
import type { HistoryView } from "../developer/history";
import { readAnchor, writeAnchor, type LedgerAnchor } from "../ledger/anchor";
import { anchorAt, appendAnnounced, encodeBatch, setAsideTornTail, type LedgerPosition } from "../ledger/batchAppend";
import { createEnvelope, type Envelope, type EnvelopeDraft } from "../ledger/envelope";
import { StoreError } from "../ledger/storeError";
import type { AppendResult } from "../ledger/store";
import { checkpointPathFor, lookupCheckpoint, readAt, type Checkpoint, type OpenLedger } from "../hooks/checkpoint";
import { sealIntact, sealedCheckpoint } from "../hooks/checkpointSeal";
import { checkpointStateOf } from "../hooks/checkpointState";
import { reduceSeededTail, type ReducedTail } from "../hooks/tailReduction";
import { writeTailSeed } from "../hooks/tailSeed";
import { openContained, writeFileAtomicContained } from "./containedFs";

/**
 * What a batch is built from: the replay-current history and the position it will follow. From the
 * snapshot, `history.scopes` holds the open scopes only (the builders read the mode, the blocked
 * reason and the active scope); readers that list closed scopes replay (WorkspaceLedger.history).
 */
export interface WriteView {
  readonly history: HistoryView;
  readonly lineCount: number;
  readonly headLineSha256: string | null;
}

export type SnapshotBuild<T> = (view: WriteView) => { drafts: EnvelopeDraft[]; context: T };

export interface SnapshotAppendResult<T> extends AppendResult<T> {
  /** The history after the batch, as a full replay would describe its active scope. */
  readonly history: HistoryView;
}

/** The snapshot a write may start from: the open ledger, its anchor and the reduced state. */
interface VerifiedSnapshot {
  readonly ledger: OpenLedger;
  readonly reduced: ReducedTail;
  readonly history: HistoryView;
  /** Bytes after the last complete line: a torn write the full path would set aside too. */
  readonly tornBytes: number;
}

/** Opens the ledger and proves the snapshot for it, or null; `use` runs while the file is open. */
function withVerifiedSnapshot<R>(root: string, ledgerPath: string, use: (snapshot: VerifiedSnapshot) => R | null): R | null {
  let fd: number;
  try {
    fd = openContained(root, ledgerPath, "r");
  } catch {
    // Missing (the first write creates it), a link, unreadable: the full path decides.
    return null;
  }
  try {
    const stat = fs.fstatSync(fd, { bigint: true });
    if (!stat.isFile()) return null;
    const ledger: OpenLedger = { ledgerPath, root, fd, size: Number(stat.size), ino: stat.ino.toString() };
    let snapshot: VerifiedSnapshot | null;
    try {
      snapshot = verify(ledger);
    } catch {
      // A cache that cannot even be read proves nothing.
      snapshot = null;
    }
    return snapshot === null ? null : use(snapshot);
  } finally {
    fs.closeSync(fd);
  }
}

function verify(ledger: OpenLedger): VerifiedSnapshot | null {
  const anchorRead = readAnchor(ledger.root, ledger.ledgerPath);
  if (anchorRead.kind === "invalid") return null;
  const anchor = anchorRead.kind === "anchor" ? anchorRead.anchor : null;
  if ((anchor?.pending ?? null) !== null) return null;
  const lookup = lookupCheckpoint(ledger);
  if (lookup.kind === "unusable" || !sealIntact(lookup.checkpoint)) return null;
  const checkpoint = lookup.checkpoint;
  const reduced = reduceSeededTail(ledger, checkpoint);
  if (reduced === null || reduced.kind === "fault") return null;
  if (reduced.replay.firstRejection !== null) return null;
  const history = reduced.replay.history();
  if (history.mode === "blocked") return null;
  if (anchor !== null && !reachesAnchor(anchor, checkpoint, reduced)) return null;
  return { ledger, reduced, history, tornBytes: ledger.size - reduced.bytes };
}

/** The ledger still holds the anchored head line, at its place (what store.ts checks on every read). */
function reachesAnchor(anchor: LedgerAnchor, checkpoint: Checkpoint, reduced: ReducedTail): boolean {
  if (anchor.head === null) return true;
  if (anchor.lines > reduced.lines) return false;
  const index = anchor.lines - 1;
  const head = checkpoint.ledger.headLine;
  const line =
    index >= checkpoint.ledger.lines
      ? reduced.tailLines[index - checkpoint.ledger.lines]
      : index === checkpoint.ledger.lines - 1 && head !== null
        ? head
        : undefined;
  // An anchor behind the checkpoint names a line only a full read can place.
  if (line === undefined) return false;
  return line.lineSha256 === anchor.head.lineSha256 && line.offset === anchor.head.offset && line.length === anchor.head.length;
}

function viewOf(snapshot: VerifiedSnapshot): WriteView {
  return { history: snapshot.history, lineCount: snapshot.reduced.lines, headLineSha256: snapshot.reduced.headLine?.lineSha256 ?? null };
}

/** The write view from the snapshot without the lock (a caller's checks before it writes), or null. */
export function readSnapshotView(root: string, ledgerPath: string): WriteView | null {
  try {
    return withVerifiedSnapshot(root, ledgerPath, viewOf);
  } catch {
    return null;
  }
}

/** What a reader may show from the snapshot: the write view and the file bytes it was proven for. */
export interface SnapshotReading {
  readonly view: WriteView;
  /** The ledger's size when it was proven, and the bytes after its last complete line. */
  readonly bytes: number;
  readonly tornBytes: number;
}

/**
 * The snapshot as a reader shows it (the backend's first status and Work view), or null. Stricter
 * than readSnapshotView: every id the tail accepted must be proven new against the id log, so the
 * state is the one a full replay reaches (a duplicate there is a rejection the replay would show).
 */
export function readSnapshotReading(root: string, ledgerPath: string): SnapshotReading | null {
  try {
    return withVerifiedSnapshot(root, ledgerPath, (snapshot) =>
      snapshot.reduced.replay.provenNew() ? { view: viewOf(snapshot), bytes: snapshot.ledger.size, tornBytes: snapshot.tornBytes } : null,
    );
  } catch {
    return null;
  }
}

/**
 * Builds, preflights and appends one batch from the verified snapshot. Must run under the ledger
 * lock (store.append's `fromSnapshot`). Null: not proven, nothing written, the caller replays.
 * A builder's refusal is thrown as it is: it saw the history a replay would show.
 */
export function appendFromSnapshot<T>(root: string, ledgerPath: string, build: SnapshotBuild<T>, sweep: () => void): SnapshotAppendResult<T> | null {
  return withVerifiedSnapshot(root, ledgerPath, (snapshot) => {
    const { drafts, context } = build(viewOf(snapshot));
    if (drafts.length === 0) return { envelopes: [], context, setAsideTornTail: null, history: snapshot.history };
    const envelopes = drafts.map((draft) => createEnvelope(draft));
    const replay = snapshot.reduced.replay;
    for (const envelope of envelopes) replay.apply(envelope);
    // An id the id log may hold, or a rejected entry: the full path decides, with the replay's own wording.
    if (!replay.provenNew() || replay.firstRejection !== null) return null;
    sweep();
    return commit(snapshot, envelopes, context);
  });
}

function commit<T>(snapshot: VerifiedSnapshot, envelopes: readonly Envelope[], context: T): SnapshotAppendResult<T> {
  const { ledger, reduced } = snapshot;
  const { root, ledgerPath, ino } = ledger;
  const position: LedgerPosition = { lines: reduced.lines, bytes: reduced.bytes, headLineSha256: reduced.headLine?.lineSha256 ?? null };
  const batch = encodeBatch(position, envelopes, [], []);
  const setAside = snapshot.tornBytes > 0 ? setAsideTornTail(root, ledgerPath, reduced.bytes) : null;
  appendAnnounced(root, ledgerPath, anchorAt(position, reduced.headLine, ino), position, batch);
  const end = position.bytes + batch.byteLength;
  confirmAppended(ledger, position.bytes, batch.text, end);
  const headLine = { offset: end - Buffer.byteLength(batch.lastLine), length: Buffer.byteLength(batch.lastLine), text: batch.lastLine, lineSha256: batch.headLineSha256 };
  const after: LedgerPosition = { lines: batch.lines, bytes: end, headLineSha256: batch.headLineSha256 };
  try {
    writeAnchor(root, ledgerPath, anchorAt(after, headLine, ino));
  } catch {
    // The batch is committed; the next write anchors it.
  }
  const history = reduced.replay.history();
  // Seed first, then the checkpoint that points at it (as writeCheckpoint does); a cache, so best effort.
  try {
    writeTailSeed(root, ledgerPath, reduced.replay.seedAt(after.lines, after.headLineSha256));
    const checkpoint = sealedCheckpoint({ ino, bytes: end, lines: after.lines, headLine }, checkpointStateOf(history));
    writeFileAtomicContained(root, checkpointPathFor(ledgerPath), `${JSON.stringify(checkpoint)}\n`);
  } catch {
    // The next reader replays once and writes them again.
  }
  return { envelopes: [...envelopes], context, setAsideTornTail: setAside, history };
}

/** The file (the same one) now ends with exactly the batch; anything else means another writer ignored the lock. */
function confirmAppended(ledger: OpenLedger, start: number, text: string, end: number): void {
  const changed = new StoreError("ledger-changed-under-writer", "The ledger changed while Docket held its lock; the write could not be confirmed.");
  const fd = openContained(ledger.root, ledger.ledgerPath, "r");
  try {
    const stat = fs.fstatSync(fd, { bigint: true });
    if (stat.ino.toString() !== ledger.ino || Number(stat.size) !== end) throw changed;
    if (!readAt(fd, start, end - start).equals(Buffer.from(text, "utf8"))) throw changed;
  } finally {
    fs.closeSync(fd);
  }
}
