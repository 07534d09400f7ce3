// A second head anchor for a ledger tracked by Git: the version committed at HEAD. Docket only
// ever appends, so the committed bytes must be a prefix of the file in the work tree; a shorter
// file lost lines, a different prefix was rewritten. Unlike the local anchor beside the ledger,
// this one lives in Git's object store and in every clone and remote that has the commit, so a
// process that rewrites both the ledger and its local anchor is still caught here.
import fs from "node:fs";
import { readCommittedAtHead } from "./gitObservation";

export type GitAnchorCheck =
  | { readonly kind: "unavailable"; readonly reason: string }
  | { readonly kind: "untracked" }
  | { readonly kind: "matched"; readonly commit: string }
  | { readonly kind: "truncated"; readonly commit: string; readonly missing: { readonly from: number; readonly to: number }; readonly message: string }
  | { readonly kind: "rewritten"; readonly commit: string; readonly line: number; readonly message: string };

function completeLines(bytes: Buffer): number {
  let count = 0;
  for (let index = bytes.indexOf(0x0a); index >= 0; index = bytes.indexOf(0x0a, index + 1)) count += 1;
  return count;
}

/**
 * The ledger's first `length` bytes (fewer when it is shorter): only they are compared, and the
 * file is never followed through a link (the local checks refuse a linked ledger; a link to a
 * device would otherwise be read without end). Empty when it cannot be read.
 */
function readPrefix(ledgerPath: string, length: number): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(ledgerPath, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | fs.constants.O_NONBLOCK);
  } catch {
    return Buffer.alloc(0);
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return Buffer.alloc(0);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = fs.readSync(fd, buffer, read, length - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } catch {
    return Buffer.alloc(0);
  } finally {
    fs.closeSync(fd);
  }
}

/** Compares the ledger file with its version committed at HEAD; never rejects. */
export async function compareWithCommittedLedger(ledgerPath: string): Promise<GitAnchorCheck> {
  const committed = await readCommittedAtHead(ledgerPath);
  if (committed.kind === "unavailable") return committed;
  if (committed.kind === "untracked") return committed;
  if (committed.kind === "too-large") return { kind: "unavailable", reason: `the committed ledger has ${committed.size} bytes, more than Docket compares` };
  const { commit, bytes } = committed;
  const short = commit.slice(0, 12);
  // Only whole lines count: a commit made while a write was in flight may end in a torn line.
  const committedEnd = bytes.lastIndexOf(0x0a) + 1;
  const anchored = bytes.subarray(0, committedEnd);
  const current = readPrefix(ledgerPath, anchored.length);
  if (current.length >= anchored.length && current.subarray(0, anchored.length).equals(anchored)) return { kind: "matched", commit };
  // Find the first line where the two differ.
  let offset = 0;
  let line = 1;
  for (;;) {
    const end = anchored.indexOf(0x0a, offset);
    if (end < 0) break;
    const committedLine = anchored.subarray(offset, end + 1);
    if (current.length < end + 1) {
      const kept = completeLines(current.subarray(0, Math.min(current.length, end + 1)));
      const from = kept + 1;
      const to = completeLines(anchored);
      const range = from === to ? `line ${from} is missing` : `lines ${from}–${to} are missing`;
      return {
        kind: "truncated",
        commit,
        missing: { from, to },
        message: `${range}: commit ${short} holds ${to} lines of this ledger, the file holds ${from - 1}.`,
      };
    }
    if (!current.subarray(offset, end + 1).equals(committedLine)) {
      return { kind: "rewritten", commit, line, message: `line ${line} differs from the ledger committed at ${short}: the history was rewritten after it was committed.` };
    }
    offset = end + 1;
    line += 1;
  }
  return { kind: "matched", commit };
}
