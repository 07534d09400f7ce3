// The merge record (docs/ledger-merge.md "The head anchor after a merge"). When `docket
// merge-ledger` renumbers this clone's own lines (they now follow the other branch's), the local
// head anchor names a line that is no longer where it was, and every reader would call the merged
// ledger rewritten. The driver, which checked that the work-tree ledger is ours and reaches its
// anchor, leaves this record beside the ledger (`<ledger>.merged`, not committed): the anchor it
// found, the exact result it produced, and where the anchored line now lies.
//
// A reader whose anchor check fails accepts the ledger in the record's stead only when all of this
// holds, else the anchor's own refusal stands (fail closed):
// - the anchor is exactly the record's `before` (and announces no batch);
// - the ledger is exactly the record's `after`: its size, its head line, and (for the readers that
//   read the whole file anyway: the store, so every writer and `docket ledger verify`) the SHA-256
//   of every byte; the hooks, which check only the anchored head line, check its head line too;
// - the line the record points at carries the anchored line's entry: its hash at the anchored
//   position and link, recomputed from the line's stream and entry, is the anchor's lineSha256.
//   This part does not trust the record: the entry the anchor sealed is there.
// The next writer anchors the ledger as it then is and removes the record.
import crypto from "node:crypto";
import fs from "node:fs";
import { hashValue } from "./canonicalJson";
import type { LedgerAnchor } from "./anchor";
import { readContained } from "../workspace/containedFs";

export const MERGE_RECORD_FORMAT = "docket/ledger-merge-record/v1";
const LINE_DOMAIN = "docket/ledger-line/v1";
const MAX_RECORD_BYTES = 64 * 1024;
const SHA256 = /^[0-9a-f]{64}$/u;

interface HeadLine {
  readonly offset: number;
  readonly length: number;
  readonly lineSha256: string;
}

export interface MergeRecord {
  readonly format: typeof MERGE_RECORD_FORMAT;
  /** The head anchor the merge found (its `lines`, `bytes` and `head`). */
  readonly before: { readonly lines: number; readonly bytes: number; readonly head: HeadLine };
  /** The merged ledger: its line count, size, head line and the SHA-256 of all its bytes. */
  readonly after: { readonly lines: number; readonly bytes: number; readonly sha256: string; readonly head: HeadLine };
  /** Where the anchored line is in the merged ledger, and the link it had before (to recompute its old hash). */
  readonly anchoredLine: { readonly line: number; readonly offset: number; readonly length: number; readonly previousLineSha256Before: string | null };
}

export function mergeRecordPathFor(ledgerPath: string): string {
  return `${ledgerPath}.merged`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function exactly(value: unknown, keys: readonly string[]): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isSha(value: unknown): value is string {
  return typeof value === "string" && SHA256.test(value);
}

function isHead(value: unknown): value is HeadLine {
  return exactly(value, ["offset", "length", "lineSha256"]) && isCount(value.offset) && isCount(value.length) && value.length > 0 && isSha(value.lineSha256);
}

/** The record's strict shape; null for anything else (unknown fields included). */
export function mergeRecordOf(value: unknown): MergeRecord | null {
  if (!exactly(value, ["format", "before", "after", "anchoredLine"]) || value.format !== MERGE_RECORD_FORMAT) return null;
  const { before, after, anchoredLine } = value;
  if (!exactly(before, ["lines", "bytes", "head"]) || !isCount(before.lines) || before.lines === 0 || !isCount(before.bytes) || !isHead(before.head)) return null;
  if (!exactly(after, ["lines", "bytes", "sha256", "head"]) || !isCount(after.lines) || !isCount(after.bytes) || !isSha(after.sha256) || !isHead(after.head)) return null;
  if (!exactly(anchoredLine, ["line", "offset", "length", "previousLineSha256Before"]) || !isCount(anchoredLine.line) || !isCount(anchoredLine.offset) || !isCount(anchoredLine.length) || anchoredLine.length === 0) return null;
  if (anchoredLine.previousLineSha256Before !== null && !isSha(anchoredLine.previousLineSha256Before)) return null;
  if (after.head.offset + after.head.length !== after.bytes || anchoredLine.offset + anchoredLine.length > after.bytes || anchoredLine.line >= after.lines) return null;
  return value as unknown as MergeRecord;
}

function readRecord(root: string, ledgerPath: string): MergeRecord | null {
  try {
    const bytes = readContained(root, mergeRecordPathFor(ledgerPath), MAX_RECORD_BYTES);
    return bytes === null ? null : mergeRecordOf(JSON.parse(bytes.toString("utf8")));
  } catch {
    return null;
  }
}

function readAt(fd: number, offset: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const read = fs.readSync(fd, buffer, done, length - done, offset + done);
    if (read === 0) break;
    done += read;
  }
  return buffer.subarray(0, done);
}

function lineShaIn(text: string): string | null {
  const marker = '"lineSha256":"';
  const at = text.lastIndexOf(marker);
  const value = at < 0 ? "" : text.slice(at + marker.length, at + marker.length + 64);
  return SHA256.test(value) && text[at + marker.length + 64] === '"' ? value : null;
}

function fileSha256(fd: number, size: number): string {
  const hash = crypto.createHash("sha256");
  const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, Math.max(1, size)));
  let position = 0;
  while (position < size) {
    const read = fs.readSync(fd, chunk, 0, Math.min(chunk.length, size - position), position);
    if (read === 0) break;
    hash.update(chunk.subarray(0, read));
    position += read;
  }
  return hash.digest("hex");
}

/**
 * The anchor that stands for the merged ledger, when a merge record vouches for it exactly as the
 * header says; null otherwise (the caller keeps the anchor's own verdict). `wholeFile`: also hash
 * every byte (readers that read the whole ledger anyway).
 */
export function anchorAfterMerge(root: string, ledgerPath: string, anchor: LedgerAnchor, fd: number, size: number, wholeFile: boolean): LedgerAnchor | null {
  const record = readRecord(root, ledgerPath);
  if (record === null || anchor.head === null || (anchor.pending ?? null) !== null) return null;
  const { before, after, anchoredLine } = record;
  if (before.lines !== anchor.lines || before.bytes !== anchor.bytes || before.head.offset !== anchor.head.offset || before.head.length !== anchor.head.length || before.head.lineSha256 !== anchor.head.lineSha256) return null;
  if (size !== after.bytes) return null;
  const head = readAt(fd, after.head.offset, after.head.length).toString("utf8");
  if (!head.endsWith("\n") || lineShaIn(head) !== after.head.lineSha256) return null;
  const moved = readAt(fd, anchoredLine.offset, anchoredLine.length).toString("utf8");
  if (!moved.endsWith("\n")) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(moved);
  } catch {
    return null;
  }
  if (!isRecord(parsed) || parsed.line !== anchoredLine.line || typeof parsed.stream !== "string" || !Object.hasOwn(parsed, "entry")) return null;
  let sealed: string;
  try {
    sealed = hashValue({ domain: LINE_DOMAIN, value: { line: anchor.lines - 1, previousLineSha256: anchoredLine.previousLineSha256Before, stream: parsed.stream, entry: parsed.entry } });
  } catch {
    return null;
  }
  if (sealed !== anchor.head.lineSha256) return null;
  if (wholeFile && fileSha256(fd, size) !== after.sha256) return null;
  return { format: anchor.format, lines: after.lines, bytes: after.bytes, head: { offset: after.head.offset, length: after.head.length, lineSha256: after.head.lineSha256 }, ino: anchor.ino };
}
