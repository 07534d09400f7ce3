// The file side of `docket merge-ledger`: Git hands the driver three temporary files (base, ours,
// theirs) and takes the result from "ours". The merge is written to a temporary file beside ours
// and renamed over it only when complete and verified, so a refused or failed merge leaves ours
// exactly as it was. Inputs are opened without following links and must be regular files.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { LineReader } from "./lineReader";
import { MergeConflict, mergeLedgers, type MergeResult, type MergeSide, type MergeSink } from "./ledgerMerge";
import { lineShaOfText, readAnchor, type LedgerAnchor } from "../ledger/anchor";
import { MERGE_RECORD_FORMAT, mergeRecordPathFor, type MergeRecord } from "../ledger/mergeRecord";
import { openContained, writeFileAtomicContained } from "../workspace/containedFs";

const O_NOFOLLOW: number = fs.constants.O_NOFOLLOW ?? 0;
const WRITE_BUFFER_BYTES = 1024 * 1024;

export interface MergeFiles {
  readonly base: string;
  readonly ours: string;
  readonly theirs: string;
  /**
   * The work-tree ledger Git merges into (the driver's %P, below the repository's top folder): when
   * it is ours and reaches its head anchor, a merge that renumbers the anchored line leaves a merge
   * record beside it (server/ledger/mergeRecord.ts).
   */
  readonly workTree?: { readonly root: string; readonly ledgerPath: string };
}

export interface MergeOutcome extends MergeResult {
  /** The merge record written beside the work-tree ledger, or why none was needed or possible. */
  readonly record: { readonly kind: "written"; readonly path: string } | { readonly kind: "not-needed" } | { readonly kind: "not-possible"; readonly why: string };
}

function openInput(side: MergeSide, file: string): number {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | O_NOFOLLOW);
  } catch (error) {
    throw new MergeConflict("docket.merge-unreadable", `cannot open ${side} (${file}): ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (!fs.fstatSync(fd).isFile()) {
    fs.closeSync(fd);
    throw new MergeConflict("docket.merge-unreadable", `${side} (${file}) is not a regular file`);
  }
  return fd;
}

/** Buffers the result's lines and writes them to the temporary file in large writes. */
class FileSink implements MergeSink {
  private readonly buffer = Buffer.allocUnsafe(WRITE_BUFFER_BYTES);
  private used = 0;
  private position = 0;
  /** SHA-256 of every byte written, for the merge record. */
  readonly hash = crypto.createHash("sha256");

  constructor(private readonly fd: number) {}

  write(text: string): void {
    const bytes = Buffer.byteLength(text);
    if (this.used + bytes > this.buffer.length) this.flush();
    if (bytes > this.buffer.length) {
      this.writeAll(Buffer.from(text));
      return;
    }
    this.used += this.buffer.write(text, this.used);
  }

  readBack(offset: number, length: number): string {
    this.flush();
    const into = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const read = fs.readSync(this.fd, into, done, length - done, offset + done);
      if (read === 0) break;
      done += read;
    }
    return into.subarray(0, done).toString("utf8");
  }

  flush(): void {
    if (this.used === 0) return;
    this.writeAll(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private writeAll(bytes: Buffer): void {
    this.hash.update(bytes);
    let done = 0;
    while (done < bytes.length) {
      done += fs.writeSync(this.fd, bytes, done, bytes.length - done, this.position + done);
    }
    this.position += bytes.length;
  }
}

/** Merges the three files into `files.ours` (renamed into place), or throws MergeConflict leaving it untouched. */
export function mergeLedgerFiles(files: MergeFiles): MergeOutcome {
  const fds = new Map<MergeSide, number>();
  let temp: string | null = null;
  let tempFd: number | null = null;
  try {
    for (const side of ["base", "ours", "theirs"] as const) fds.set(side, openInput(side, files[side]));
    const oursStat = fs.fstatSync(fds.get("ours") as number);
    temp = path.join(path.dirname(files.ours), `.${path.basename(files.ours)}.docket-merge-${process.pid}-${crypto.randomBytes(6).toString("hex")}`);
    try {
      tempFd = fs.openSync(temp, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_EXCL | O_NOFOLLOW, oursStat.mode & 0o777);
    } catch (error) {
      temp = null;
      throw new MergeConflict("docket.merge-unreadable", `cannot create the result beside ours: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    const sink = new FileSink(tempFd);
    const anchored = files.workTree === undefined ? null : anchoredWorkTree(files.workTree, fds.get("ours") as number);
    const trackOursLine = anchored !== null && anchored.kind === "anchored" ? anchored.anchor.lines - 1 : undefined;
    const result = mergeLedgers({ open: (side, start) => new LineReader(fds.get(side) as number, start) }, sink, trackOursLine === undefined ? {} : { trackOursLine });
    sink.flush();
    fs.fsyncSync(tempFd);
    fs.closeSync(tempFd);
    tempFd = null;
    const record = recordMerge(files.workTree, anchored, result, sink.hash.digest("hex"));
    fs.renameSync(temp, files.ours);
    temp = null;
    return { ...result, record };
  } finally {
    if (tempFd !== null) fs.closeSync(tempFd);
    if (temp !== null) fs.rmSync(temp, { force: true });
    for (const fd of fds.values()) fs.closeSync(fd);
  }
}

type Anchored = { readonly kind: "anchored"; readonly anchor: LedgerAnchor & { readonly head: NonNullable<LedgerAnchor["head"]> } } | { readonly kind: "unanchored"; readonly why: string };

function sameBytes(left: number, right: number): boolean {
  const a = Buffer.allocUnsafe(256 * 1024);
  const b = Buffer.allocUnsafe(256 * 1024);
  if (fs.fstatSync(left).size !== fs.fstatSync(right).size) return false;
  for (let position = 0; ; ) {
    const readA = fs.readSync(left, a, 0, a.length, position);
    const readB = fs.readSync(right, b, 0, b.length, position);
    if (readA !== readB) return false;
    if (readA === 0) return true;
    if (!a.subarray(0, readA).equals(b.subarray(0, readB))) return false;
    position += readA;
  }
}

/**
 * Whether the work-tree ledger is ours (byte for byte) and reaches its head anchor: only then can
 * a record say where the anchored line went. Never throws: without a record the merge still
 * stands, and the person re-anchors by hand.
 */
function anchoredWorkTree(workTree: NonNullable<MergeFiles["workTree"]>, oursFd: number): Anchored {
  try {
    const read = readAnchor(workTree.root, workTree.ledgerPath);
    if (read.kind !== "anchor") return { kind: "unanchored", why: read.kind === "none" ? "the work-tree ledger has no head anchor" : `its head anchor cannot be used (${read.why})` };
    const anchor = read.anchor;
    if (anchor.head === null || (anchor.pending ?? null) !== null) return { kind: "unanchored", why: "its head anchor names no line, or a batch is being written" };
    const fd = openContained(workTree.root, workTree.ledgerPath, "r");
    try {
      if (!sameBytes(fd, oursFd)) return { kind: "unanchored", why: "the work-tree ledger is not ours (%A)" };
    } finally {
      fs.closeSync(fd);
    }
    const head = Buffer.alloc(anchor.head.length);
    const got = fs.readSync(oursFd, head, 0, head.length, anchor.head.offset);
    const text = head.subarray(0, got).toString("utf8");
    if (got !== head.length || !text.endsWith("\n") || lineShaOfText(text) !== anchor.head.lineSha256) return { kind: "unanchored", why: "the work-tree ledger does not reach its head anchor" };
    return { kind: "anchored", anchor: { ...anchor, head: anchor.head } };
  } catch (error) {
    return { kind: "unanchored", why: error instanceof Error ? error.message : String(error) };
  }
}

function recordMerge(workTree: MergeFiles["workTree"], anchored: Anchored | null, result: MergeResult, sha256: string): MergeOutcome["record"] {
  if (workTree === undefined || anchored === null) return { kind: "not-possible", why: "Git gave no work-tree path (%P)" };
  if (anchored.kind === "unanchored") return result.moved === "ours" ? { kind: "not-possible", why: anchored.why } : { kind: "not-needed" };
  const anchor = anchored.anchor;
  const tracked = result.tracked;
  if (tracked === null || result.headLine === null || result.headLineSha256 === null) return { kind: "not-possible", why: "the anchored line was not found in ours" };
  // The anchored line keeps its place: the anchor still holds for the merged ledger.
  if (tracked.offset === anchor.head.offset && tracked.line === anchor.lines - 1) return { kind: "not-needed" };
  const record: MergeRecord = {
    format: MERGE_RECORD_FORMAT,
    before: { lines: anchor.lines, bytes: anchor.bytes, head: { offset: anchor.head.offset, length: anchor.head.length, lineSha256: anchor.head.lineSha256 } },
    after: { lines: result.lines, bytes: result.bytes, sha256, head: { offset: result.headLine.offset, length: result.headLine.length, lineSha256: result.headLineSha256 } },
    anchoredLine: tracked,
  };
  const recordPath = mergeRecordPathFor(workTree.ledgerPath);
  writeFileAtomicContained(workTree.root, recordPath, `${JSON.stringify(record)}\n`, { durable: true });
  return { kind: "written", path: recordPath };
}
