// The ledger as a hook opened it, and reading bytes of it at a position. Its own module, free of
// the checkpoint's schemas, so the tail bundle (docket-hook-tail.js) does not build them again:
// the lean hook bundle has already parsed the checkpoint by the time a tail is reduced.
import fs from "node:fs";

/** The ledger as the hook opened it: one descriptor, read for the checkpoint, anchor and proof. */
export interface OpenLedger {
  readonly ledgerPath: string;
  /** Containment root: state files are read and written only below it, never through a link. */
  readonly root: string;
  readonly fd: number;
  readonly size: number;
  readonly ino: string;
}

export function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const n = fs.readSync(fd, buffer, read, length - read, position + read);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read);
}
