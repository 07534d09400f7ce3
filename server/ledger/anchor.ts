// The ledger's head anchor: how long the ledger was the last time a Docket writer confirmed an
// append (line count, byte length, the head line's own hash and where it lies), written durably
// beside the ledger, inside the lock, after every append. The hash chain makes an edited, removed
// or reordered line detectable, but not lines cut from the end: the shorter file is a valid chain.
// The anchor is what makes that visible: a ledger that no longer reaches the anchored head was
// truncated, and one that holds other bytes there was rewritten.
//
// What a local anchor cannot prove: a process that rewrites the ledger *and* the anchor (the same
// user's arbitrary code) leaves nothing to compare. docs/guarantees.md says so; a ledger tracked by
// Git has a second anchor in its history (ledgerVerify's Git comparison).
//
// `ino` binds the anchor to this very file: a copy that arrives with a repository (a committed
// `.docket/`) or any file put in its place has another inode, so its anchor does not vouch for it.
import fs from "node:fs";
import * as z from "zod/mini";
import { readContained, writeFileAtomicContained } from "../workspace/containedFs";

export const ANCHOR_FORMAT = "docket/ledger-anchor/v1";

function buildAnchorSchema() {
  const sha256 = z.string().check(z.regex(/^[0-9a-f]{64}$/u));
  const count = z.int().check(z.nonnegative());
  return z.strictObject({
    format: z.literal(ANCHOR_FORMAT),
    /** Complete lines the ledger held when the anchor was written. */
    lines: count,
    /** Byte offset just past the last of them. */
    bytes: count,
    /** The last anchored line: where it lies and its `lineSha256`; null for an empty ledger. */
    head: z.nullable(z.strictObject({ offset: count, length: z.int().check(z.positive()), lineSha256: sha256 })),
    /** The ledger file's inode number (decimal) when the anchor was written. */
    ino: z.string().check(z.regex(/^[0-9]{1,24}$/u)),
    /**
     * A batch being appended (write-ahead intent): where it will end and its last line's hash.
     * Lines past the anchored head that stop short of `bytes` are a batch cut by a crash, power loss
     * or a short write: never replayed, set aside by the next writer like a torn line.
     */
    pending: z.optional(z.nullable(z.strictObject({ bytes: count, lines: count, lineSha256: sha256 }))),
  });
}

let anchorSchema: ReturnType<typeof buildAnchorSchema> | null = null;

/**
 * The anchor's schema, built on first use: every hook reads the anchor, and an anchor Docket wrote
 * passes `anchorOf` below without it (building the first zod schema of a process pays zod's own
 * warm-up, a few ms of a hook's start). It stays the rule for everything `anchorOf` declines.
 */
export function ledgerAnchorSchema(): ReturnType<typeof buildAnchorSchema> {
  anchorSchema ??= buildAnchorSchema();
  return anchorSchema;
}

export type LedgerAnchor = z.infer<ReturnType<typeof buildAnchorSchema>>;

const SHA256_HEX = /^[0-9a-f]{64}$/u;
const INODE = /^[0-9]{1,24}$/u;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Exactly these own keys, or these without `optional` (a strict object's rule). */
function hasKeys(value: Record<string, unknown>, keys: readonly string[], optional?: string): boolean {
  const own = Object.keys(value);
  const expected = optional !== undefined && !Object.hasOwn(value, optional) ? keys.length - 1 : keys.length;
  return own.length === expected && own.every((key) => keys.includes(key));
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isSha256(value: unknown): value is string {
  return typeof value === "string" && SHA256_HEX.test(value);
}

/**
 * The anchor as the schema's parse returns it (its keys in the schema's order), when the schema
 * certainly accepts `value`; null when unsure, and the schema decides.
 * `test/unit/anchorShape.test.ts` holds the two to the same answers.
 */
export function anchorOf(value: unknown): LedgerAnchor | null {
  if (!isRecord(value) || !hasKeys(value, ["format", "lines", "bytes", "head", "ino", "pending"], "pending")) return null;
  const { format, lines, bytes, head, ino } = value;
  if (format !== ANCHOR_FORMAT || !isCount(lines) || !isCount(bytes) || typeof ino !== "string" || !INODE.test(ino)) return null;
  let checkedHead: LedgerAnchor["head"] = null;
  if (head !== null) {
    if (!isRecord(head) || !hasKeys(head, ["offset", "length", "lineSha256"]) || !isCount(head.offset) || !isCount(head.length) || head.length === 0 || !isSha256(head.lineSha256)) return null;
    checkedHead = { offset: head.offset, length: head.length, lineSha256: head.lineSha256 };
  }
  const anchor: LedgerAnchor = { format: ANCHOR_FORMAT, lines, bytes, head: checkedHead, ino };
  if (!Object.hasOwn(value, "pending")) return anchor;
  const pending = value.pending;
  if (pending === null) return { ...anchor, pending: null };
  if (!isRecord(pending) || !hasKeys(pending, ["bytes", "lines", "lineSha256"]) || !isCount(pending.bytes) || !isCount(pending.lines) || !isSha256(pending.lineSha256)) return null;
  return { ...anchor, pending: { bytes: pending.bytes, lines: pending.lines, lineSha256: pending.lineSha256 } };
}

function checkedAnchor(value: unknown): LedgerAnchor | null {
  const known = anchorOf(value);
  if (known !== null) return known;
  const checked = ledgerAnchorSchema().safeParse(value);
  return checked.success ? checked.data : null;
}

export function anchorPathFor(ledgerPath: string): string {
  return `${ledgerPath}.anchor`;
}

export type AnchorRead =
  | { readonly kind: "none" }
  | { readonly kind: "invalid"; readonly why: string }
  | { readonly kind: "anchor"; readonly anchor: LedgerAnchor };

/** An anchor is a few hundred bytes; a larger file is not one Docket wrote (it reads as invalid). */
const MAX_ANCHOR_BYTES = 64 * 1024;

/** Reads the anchor beside the ledger without following a link; never throws. */
export function readAnchor(root: string, ledgerPath: string): AnchorRead {
  let bytes: Buffer | null;
  try {
    bytes = readContained(root, anchorPathFor(ledgerPath), MAX_ANCHOR_BYTES);
  } catch (error) {
    return { kind: "invalid", why: error instanceof Error ? error.message : String(error) };
  }
  if (bytes === null) return { kind: "none" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    return { kind: "invalid", why: "the anchor is not JSON" };
  }
  const anchor = checkedAnchor(parsed);
  if (anchor === null) return { kind: "invalid", why: "the anchor has an unknown shape" };
  const consistent = anchor.head === null ? anchor.lines === 0 && anchor.bytes === 0 : anchor.lines > 0 && anchor.head.offset + anchor.head.length === anchor.bytes;
  const pending = anchor.pending ?? null;
  const pendingConsistent = pending === null || (pending.bytes > anchor.bytes && pending.lines > anchor.lines);
  return consistent && pendingConsistent ? { kind: "anchor", anchor } : { kind: "invalid", why: "the anchor contradicts itself" };
}

/** Writes the anchor atomically and durably (a lost anchor would hide a later truncation). */
export function writeAnchor(root: string, ledgerPath: string, anchor: LedgerAnchor): void {
  writeFileAtomicContained(root, anchorPathFor(ledgerPath), `${JSON.stringify(ledgerAnchorSchema().parse(anchor))}\n`, { durable: true });
}

/**
 * How much of a ledger of `size` bytes readers may take: a batch announced by the anchor and cut
 * short (the file ends past the anchored head but before the batch's end) stays unread.
 */
export function readableSize(anchor: LedgerAnchor | null, size: number): number {
  const pending = anchor?.pending ?? null;
  if (anchor === null || pending === null) return size;
  return size > anchor.bytes && size < pending.bytes ? anchor.bytes : size;
}

/** The inode of an open ledger, as the anchor records it. */
export function inodeOf(fd: number): string {
  return fs.fstatSync(fd, { bigint: true }).ino.toString();
}

/** The `lineSha256` a canonical ledger line carries, read from its text without a full decode. */
export function lineShaOfText(text: string): string | null {
  // Keys are sorted, so the wrapper's own lineSha256 follows the entry (whose text may contain
  // the same key inside a nested object): the last occurrence is the wrapper's.
  const marker = '"lineSha256":"';
  const at = text.lastIndexOf(marker);
  if (at < 0) return null;
  const value = text.slice(at + marker.length, at + marker.length + 64);
  return /^[0-9a-f]{64}$/u.test(value) && text[at + marker.length + 64] === '"' ? value : null;
}

export type AnchorFault =
  | { readonly code: "ledger-truncated"; readonly line: number; readonly missing: { readonly from: number; readonly to: number }; readonly message: string }
  | { readonly code: "ledger-rewritten"; readonly line: number; readonly message: string };

/**
 * Compares what the ledger holds now with its anchor. `lines` complete lines are present;
 * `lineShaAt(n)` reads the `lineSha256` of zero-based line n (n < lines). Line numbers in the
 * result are 1-based, as people count them.
 */
export function compareWithAnchor(anchor: LedgerAnchor, lines: number, lineShaAt: (line: number) => string | null, ledgerPath: string): AnchorFault | null {
  if (anchor.head === null) return null;
  if (lines < anchor.lines) {
    const from = lines + 1;
    const to = anchor.lines;
    const range = from === to ? `line ${from} is missing` : `lines ${from}–${to} are missing`;
    return {
      code: "ledger-truncated",
      line: from,
      missing: { from, to },
      message: `${range}: the head anchor (${anchorPathFor(ledgerPath)}) recorded ${anchor.lines} lines, the ledger holds ${lines}. Lines were cut from its end; restore the ledger from a copy, or accept it as it is with \`docket ledger anchor --accept\`.`,
    };
  }
  if (lineShaAt(anchor.lines - 1) !== anchor.head.lineSha256) {
    return {
      code: "ledger-rewritten",
      line: anchor.lines,
      message: `line ${anchor.lines} is not the line the head anchor (${anchorPathFor(ledgerPath)}) recorded: the history up to it was rewritten. Restore the ledger from a copy, or accept it as it is with \`docket ledger anchor --accept\`.`,
    };
  }
  return null;
}
