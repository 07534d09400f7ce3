// What a writer killed in the middle of its write(2) leaves: a prefix of the batch it was
// appending. A SIGKILL cannot split a small write to a regular file on Linux (and Docket writes a
// batch with one call), so after a kill that landed inside the ledger lock the target appends such
// a prefix itself: the bytes are those Docket would have written next (built by Docket's own
// writer on a scratch copy), cut at a seeded byte. This is the state a power loss or a kill
// between two partial writes produces, without a fault-injection seam in Docket's code.
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger } from "../../../server/workspace/workspaceLedger";
import { ledgerAnchorSchema, anchorPathFor, lineShaOfText } from "../../../server/ledger/anchor";
import type { Operation } from "./cycle";

export interface TornWrite {
  /** Bytes appended to the ledger, out of `of` in the batch. */
  readonly bytes: number;
  readonly of: number;
  /** Whole lines of the batch among the appended bytes (a torn batch keeps its complete prefix). */
  readonly completeLines: number;
  /** The cut left a whole line without its newline (verify calls that an edit, by design). */
  readonly wholeLineWithoutNewline: boolean;
  readonly operation: string;
}

/**
 * Appends to `ledgerPath` a prefix of the batch `operation` would have written (the write of the
 * killed writer, which had not reached the file); `fraction` ∈ [0, 1) picks the cut. Null when
 * that write cannot be rebuilt on a scratch copy (a landing needs the workspace's baselines) or
 * would have been refused.
 */
export async function appendTornWrite(ledgerPath: string, scratch: string, fraction: number, operation: Operation): Promise<TornWrite | null> {
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(scratch, { recursive: true });
  // A killed first writer leaves no ledger yet: its batch would have created the file.
  const original = fs.existsSync(ledgerPath) ? fs.readFileSync(ledgerPath) : Buffer.alloc(0);
  const committed = original.subarray(0, original.lastIndexOf(0x0a) + 1);
  if (committed.length !== original.length) return null; // already torn
  const copy = path.join(scratch, "ledger.jsonl");
  fs.writeFileSync(copy, committed);
  const ledger = new WorkspaceLedger({ workspaceFolder: scratch, ledgerPath: copy, trusted: true });
  ledger.refresh();
  try {
    if (operation.name === "capture" || operation.name === "recordLanding") return null;
    const params = operation.params as never;
    if (operation.name === "turnOn") await ledger.turnOn();
    else if (operation.name === "turnOff") await ledger.turnOff((operation.params as { reason?: string }).reason);
    else if (operation.name === "concludeJudgment") await ledger.concludeJudgment(params);
    else if (operation.name === "openJudgment") await ledger.openJudgment(params);
    else await ledger.authorizeChange(params);
  } catch {
    return null;
  }
  const batch = fs.readFileSync(copy).subarray(committed.length);
  if (batch.length < 2) return null;
  const bytes = 1 + Math.floor(fraction * (batch.length - 1));
  const prefix = batch.subarray(0, bytes);
  // Docket announces a batch in the head anchor before writing any of it, so the writer died with
  // its intent on disk: write the intent it wrote, then the part of the batch that made it.
  writeIntent(ledgerPath, committed, batch);
  fs.appendFileSync(ledgerPath, prefix);
  let completeLines = 0;
  for (const byte of prefix) if (byte === 0x0a) completeLines += 1;
  return { bytes, of: batch.length, completeLines, wholeLineWithoutNewline: batch[bytes] === 0x0a, operation: operation.name };
}

/** The anchor a writer about to append `batch` after `committed` leaves: the head it read plus its intent. */
function writeIntent(ledgerPath: string, committed: Buffer, batch: Buffer): void {
  const linesOf = (bytes: Buffer): string[] => bytes.toString("utf8").split("\n").slice(0, -1);
  const before = linesOf(committed);
  const batchLines = linesOf(batch);
  const last = before.at(-1);
  const ino = fs.existsSync(ledgerPath) ? fs.statSync(ledgerPath, { bigint: true }).ino.toString() : "0";
  const headLength = last === undefined ? 0 : Buffer.byteLength(last, "utf8") + 1;
  const anchor = ledgerAnchorSchema().parse({
    format: "docket/ledger-anchor/v1",
    lines: before.length,
    bytes: committed.length,
    head: last === undefined ? null : { offset: committed.length - headLength, length: headLength, lineSha256: lineShaOfText(last) },
    ino,
    pending: { bytes: committed.length + batch.length, lines: before.length + batchLines.length, lineSha256: lineShaOfText(batchLines.at(-1) ?? "") },
  });
  fs.writeFileSync(anchorPathFor(ledgerPath), `${JSON.stringify(anchor)}\n`);
}

/**
 * The evidence store's counterpart: a prefix of a record appended to the newest segment, as a
 * capture cut short would leave it (the bytes of the segment's last record, which has the same
 * shape as the one that was being written). Null when there is no record to imitate.
 */
export function appendTornEvidence(evidenceFolder: string, fraction: number): { bytes: number; of: number; segment: string } | null {
  let segments: string[];
  try {
    segments = fs.readdirSync(evidenceFolder).filter((name) => /^segment-\d{12}\.jsonl$/u.test(name)).sort();
  } catch {
    return null;
  }
  const segment = segments.at(-1);
  if (segment === undefined) return null;
  const file = path.join(evidenceFolder, segment);
  const text = fs.readFileSync(file);
  if (text.length === 0 || text[text.length - 1] !== 0x0a) return null;
  const start = text.lastIndexOf(0x0a, text.length - 2) + 1;
  const record = text.subarray(start, text.length - 1);
  if (record.length < 2) return null;
  const bytes = 1 + Math.floor(fraction * (record.length - 1));
  fs.appendFileSync(file, record.subarray(0, bytes));
  return { bytes, of: record.length, segment };
}
