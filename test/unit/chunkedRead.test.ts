// The store's chunked read (server/ledger/chunkedRead.ts) against the read it replaced
// (test/support/referenceChunkedRead.ts): on files of random lines (empty lines, lines longer than a
// chunk, an unfinished last line), any chunk size, any start and end, and a consumer that takes whole
// lines and may stop at a "bad" line, both hand the consumer the same lines at the same offsets, in
// order, stop at the same bad line, and report the same consumed byte count and, when no bad line
// stopped them, the same left-over count (after a bad line the store counts no torn tail). (How the
// bytes are cut into reads differs: the new read fills only what the carried bytes leave of the
// chunk, so the consumer may be called more often with less.)
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { readInChunks } from "../../server/ledger/chunkedRead";
import { referenceReadInChunks } from "../support/referenceChunkedRead";

type Reader = typeof readInChunks;

interface Trace {
  /** [file offset, text] of every line the consumer took, and of the bad line it stopped at. */
  readonly lines: Array<readonly [number, string]>;
  /** What the store keeps of the result: the left-over count only when no bad line stopped the read (after one it counts no torn tail). */
  readonly result: { readonly consumed: number; readonly left: number | null };
}

/** Runs `reader` with a consumer that takes the whole lines of what it is given, up to a bad one (a line starting with "!"). */
function traceOf(reader: Reader, file: string, start: number, end: number, chunkBytes: number): Trace {
  const fd = fs.openSync(file, "r");
  try {
    const lines: Array<readonly [number, string]> = [];
    let bad = false;
    const result = reader(
      fd,
      start,
      end,
      chunkBytes,
      (data, base) => {
        let taken = 0;
        for (;;) {
          const newline = data.indexOf(0x0a, taken);
          if (newline < 0) break;
          lines.push([base + taken, data.toString("latin1", taken, newline)]);
          if (data[taken] === 0x21) {
            bad = true;
            break;
          }
          taken = newline + 1;
        }
        return taken;
      },
      () => bad,
    );
    return { lines, result: { consumed: result.consumed, left: bad ? null : result.left } };
  } finally {
    fs.closeSync(fd);
  }
}

const line = fc.oneof(
  { weight: 5, arbitrary: fc.string({ unit: fc.constantFrom("a", "b", "é", "{", "!"), maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom("x", "y"), minLength: 20, maxLength: 80 }) },
);

test("the chunked read hands the consumer the lines the read it replaced handed it", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "docket-chunked-read-"));
  const file = path.join(dir, "ledger.jsonl");
  try {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 30 }),
        fc.string({ unit: fc.constantFrom("z", "é"), maxLength: 40 }),
        fc.integer({ min: 1, max: 48 }),
        fc.nat(),
        fc.nat(),
        (lines, unfinished, chunkBytes, startSeed, endSeed) => {
          const bytes = Buffer.from(lines.map((text) => `${text}\n`).join("") + unfinished, "utf8");
          fs.writeFileSync(file, bytes);
          // Start at a line start (as the store does); end anywhere after it, or at the file's end.
          const starts = [0, ...[...bytes].flatMap((byte, index) => (byte === 0x0a ? [index + 1] : []))];
          const start = starts[startSeed % starts.length] as number;
          const end = start + (endSeed % 3 === 0 ? bytes.length - start : endSeed % (bytes.length - start + 1));
          const written = traceOf(readInChunks, file, start, end, chunkBytes);
          const reference = traceOf(referenceReadInChunks, file, start, end, chunkBytes);
          assert.deepEqual(written, reference);
        },
      ),
      { numRuns: 3_000 },
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
