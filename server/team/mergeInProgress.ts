// `docket ledger verify` while a merge is not yet committed: the work-tree ledger is the driver's
// merge of the ledgers committed at HEAD and MERGE_HEAD, so its comparison with HEAD alone reports
// the side whose lines were renumbered as rewritten. This recomputes the merge from Git's objects
// (the same function the driver ran, docs/ledger-merge.md) and compares it with the work tree
// without writing anything: the work tree must start with exactly the merged bytes (a writer may
// have appended since, as it may after any commit).
import fs from "node:fs";
import path from "node:path";
import { MergeConflict, mergeLedgers, type LineSource, type MergeSink } from "./ledgerMerge";
import { NotUtf8Error, type SourceLine } from "./lineReader";
import { MAX_COMMITTED_LEDGER_BYTES, git, posixRelative, singleValue } from "../workspace/gitObservation";

export type MergeInProgress =
  | { readonly kind: "none" }
  | { readonly kind: "matched"; readonly head: string; readonly mergeHead: string }
  | { readonly kind: "differs"; readonly reason: string };

/** Lines of a committed ledger held in memory (verify's Git comparison already holds HEAD's whole). */
class BufferLines implements LineSource {
  private position: number;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  torn = 0;

  constructor(
    private readonly bytes: Buffer,
    start: number,
  ) {
    this.position = start;
  }

  next(): SourceLine | null {
    const end = this.bytes.indexOf(0x0a, this.position);
    if (end < 0) {
      this.torn = this.bytes.length - this.position;
      return null;
    }
    const offset = this.position;
    let text: string;
    try {
      text = this.decoder.decode(this.bytes.subarray(offset, end));
    } catch {
      throw new NotUtf8Error(offset);
    }
    this.position = end + 1;
    return { text, offset, bytes: end + 1 - offset };
  }
}

class NotTheMerge extends Error {}

/** Compares what the merge writes with the work-tree ledger as it goes; reads back from it. */
class ComparingSink implements MergeSink {
  position = 0;

  constructor(
    private readonly fd: number,
    private readonly size: number,
  ) {}

  write(text: string): void {
    const expected = Buffer.from(text, "utf8");
    if (this.position + expected.length > this.size || !this.read(this.position, expected.length).equals(expected)) {
      throw new NotTheMerge(`the work-tree ledger differs from the merge at byte ${this.position}`);
    }
    this.position += expected.length;
  }

  readBack(offset: number, length: number): string {
    return this.read(offset, length).toString("utf8");
  }

  private read(offset: number, length: number): Buffer {
    const buffer = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const read = fs.readSync(this.fd, buffer, done, length - done, offset + done);
      if (read === 0) break;
      done += read;
    }
    return buffer.subarray(0, done);
  }
}

async function committedLedger(root: string, commit: string, repoPath: string): Promise<Buffer | null> {
  const listing = (await git(root, ["ls-tree", "-z", "-l", "--full-tree", commit, "--", repoPath])).stdout.toString("utf8").split("\0")[0];
  const match = listing === undefined ? null : /^\d+ blob [0-9a-f]+ +(\d+)\t/u.exec(listing);
  if (match === null) return Buffer.alloc(0);
  if (Number(match[1]) > MAX_COMMITTED_LEDGER_BYTES) return null;
  return (await git(root, ["cat-file", "blob", `${commit}:${repoPath}`])).stdout;
}

/** Whether a merge is in progress and the ledger starts with exactly Docket's merge of its two sides. */
export async function checkMergeInProgress(ledgerPath: string): Promise<MergeInProgress> {
  try {
    const directory = await fs.promises.realpath(path.dirname(path.resolve(ledgerPath)));
    const root = singleValue((await git(directory, ["rev-parse", "--show-toplevel"])).stdout);
    if (root === "") return { kind: "none" };
    const mergeHeadAnswer = await git(root, ["rev-parse", "--verify", "--quiet", "MERGE_HEAD^{commit}"], [1]);
    if (mergeHeadAnswer.status !== 0) return { kind: "none" };
    const mergeHead = singleValue(mergeHeadAnswer.stdout);
    const head = singleValue((await git(root, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"])).stdout);
    const bases = singleValue((await git(root, ["merge-base", "--all", head, mergeHead], [1])).stdout).split("\n").filter((line) => line !== "");
    // Several bases (a criss-cross merge): Git merged them into a virtual base first; not recomputed here.
    if (bases.length > 1) return { kind: "differs", reason: "the merge has several merge bases; recompute it by hand (docs/ledger-merge.md)" };
    const repoPath = posixRelative(root, path.join(directory, path.basename(ledgerPath)));
    const [base, ours, theirs] = await Promise.all([bases[0] === undefined ? Buffer.alloc(0) : committedLedger(root, bases[0], repoPath), committedLedger(root, head, repoPath), committedLedger(root, mergeHead, repoPath)]);
    if (base === null || ours === null || theirs === null) return { kind: "differs", reason: "a committed ledger is larger than Docket compares" };
    const inputs = { base, ours, theirs };
    const fd = fs.openSync(ledgerPath, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) return { kind: "differs", reason: "the ledger is not a regular file" };
      mergeLedgers({ open: (side, start) => new BufferLines(inputs[side], start) }, new ComparingSink(fd, stat.size));
      return { kind: "matched", head, mergeHead };
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    if (error instanceof NotTheMerge || error instanceof MergeConflict) return { kind: "differs", reason: error.message };
    return { kind: "differs", reason: error instanceof Error ? error.message : String(error) };
  }
}
