// Writes imported developer/v8 envelopes as a new Docket ledger (file-system adapter). The lines
// are encoded by the ledger's own line writer into a temporary file next to the target, read back
// through the ledger store (hash chain and replay must hold, as for `docket ledger verify`), then
// linked into place only if nothing is there: the whole ledger appears or nothing does, and an
// existing file is never replaced.
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type { Envelope } from "../ledger/envelope";
import { DEVELOPER_STREAM, encodeLedgerLine } from "../ledger/ledgerLine";
import { LedgerStore } from "../ledger/store";
import { fsyncDirectory, writeDurably } from "../ledger/durableFs";

export type LedgerExportErrorCode = "output-exists" | "output-unwritable";

export class LedgerExportError extends Error {
  constructor(
    readonly code: LedgerExportErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "LedgerExportError";
  }
}

export interface LedgerExportResult {
  readonly path: string;
  readonly lines: number;
  readonly headLineSha256: string | null;
}

function exists(target: string): boolean {
  try {
    fs.lstatSync(target);
    return true;
  } catch {
    return false;
  }
}

function removeQuietly(target: string): void {
  try {
    fs.unlinkSync(target);
  } catch {
    // already gone
  }
}


/** Places `temporary` at `target` unless something is already there; never overwrites. */
function placeExclusively(temporary: string, target: string): void {
  try {
    fs.linkSync(temporary, target);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") throw new LedgerExportError("output-exists", `${target} already exists; Docket does not overwrite it.`);
    // File systems without hard links: a rename after the check is the closest available.
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "EXDEV") throw error;
  }
  if (exists(target)) throw new LedgerExportError("output-exists", `${target} already exists; Docket does not overwrite it.`);
  fs.renameSync(temporary, target);
}

export function writeLedgerFile(target: string, envelopes: readonly Envelope[]): LedgerExportResult {
  if (exists(target)) throw new LedgerExportError("output-exists", `${target} already exists; Docket does not overwrite it.`);
  const directory = path.dirname(target);
  const temporary = path.join(directory, `.${path.basename(target)}.import-${process.pid}-${randomBytes(6).toString("hex")}`);
  try {
    fs.mkdirSync(directory, { recursive: true });
    let previous: string | null = null;
    const chunks: string[] = [];
    envelopes.forEach((envelope, line) => {
      const encoded = encodeLedgerLine(line, previous, DEVELOPER_STREAM, envelope);
      chunks.push(encoded.text);
      previous = encoded.lineSha256;
    });
    // The temporary file is private to this process, so no ledger lock is needed to write it.
    writeDurably(temporary, "wx", chunks.join(""));
    // Read back through the store: the file must replay to exactly the imported events.
    const store = new LedgerStore(temporary);
    store.refresh();
    if (store.fault !== null || store.replayer.firstRejected !== null || store.replayer.acceptedCount !== envelopes.length) {
      throw new LedgerExportError("output-unwritable", "The written ledger did not replay to the imported events; nothing was kept.");
    }
    placeExclusively(temporary, target);
    fsyncDirectory(directory);
    return { path: target, lines: store.lineCount, headLineSha256: store.headLineSha256 };
  } catch (error) {
    if (error instanceof LedgerExportError) throw error;
    throw new LedgerExportError("output-unwritable", `Cannot write ${target}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    removeQuietly(temporary);
  }
}
