// The store reads the ledger a bounded chunk at a time (issue 16): lines that straddle chunks, a
// line longer than a chunk, a torn tail and a bad line after many good chunks all read exactly as
// the whole file read at once would, and every line's place is kept (by line and by replay index).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LedgerStore } from "../../server/ledger/store";
import { replayEntries } from "../../server/ledger/replay";
import type { Envelope } from "../../server/ledger/envelope";
import { cycleScopesEntries, ledgerLines } from "../support/generatedCycles";

function tempLedger(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "docket-stream-"));
  fs.mkdirSync(path.join(directory, ".docket"));
  return path.join(directory, ".docket", "ledger.jsonl");
}


const generated: Envelope[] = cycleScopesEntries(150);
const oversized = { ...(generated[0] as Envelope), payload: { filler: "x".repeat(1_500_000) } };
const entries: unknown[] = [...generated.slice(0, 1_000), oversized, ...generated.slice(1_000)];

test("a ledger of several read chunks, one line longer than a chunk, reads as replaying its entries at once", () => {
  const ledgerPath = tempLedger();
  const lines = ledgerLines(entries);
  fs.writeFileSync(ledgerPath, lines.join(""));
  assert.ok(fs.statSync(ledgerPath).size > 4 * 1024 * 1024, "the ledger spans several chunks");
  const store = new LedgerStore(ledgerPath);
  const { dispositions } = store.refresh();
  const expected = replayEntries(entries);
  assert.equal(store.fault, null);
  assert.deepEqual(dispositions, expected.dispositions);
  assert.deepEqual(store.replayer.dispositions, expected.dispositions);
  assert.equal(store.replayer.dispositions[1_000]?.status, "rejected", "the oversized payload is rejected by replay, not by reading");
  assert.equal(store.lineCount, lines.length);
  assert.equal(store.tornTail, 0);
  let offset = 0;
  for (const [line, text] of lines.entries()) {
    const length = Buffer.byteLength(text);
    assert.deepEqual(store.lineRecord(line), { offset, length, replayIndex: line });
    assert.equal(store.lineOfReplayIndex(line), line);
    offset += length;
  }
  assert.equal(store.offset, offset);
  assert.equal(store.lineBytes(1_000)?.toString("utf8"), lines[1_000]);
  assert.equal(store.lineBytes(lines.length - 1)?.toString("utf8"), lines.at(-1));
  assert.equal(store.lineBytes(lines.length), undefined);
  assert.equal(store.lineOfReplayIndex(lines.length), undefined);
});

test("a torn tail after many chunks and a bad line after many chunks are found as in one read", () => {
  const lines = ledgerLines(entries);
  const torn = tempLedger();
  const tail = (lines.at(-1) as string).slice(0, 100);
  fs.writeFileSync(torn, lines.slice(0, -1).join("") + tail);
  const tornStore = new LedgerStore(torn);
  tornStore.refresh();
  assert.equal(tornStore.fault, null);
  assert.equal(tornStore.lineCount, lines.length - 1);
  assert.equal(tornStore.tornTail, Buffer.byteLength(tail));
  // Appending the rest of the line completes it: the next read starts inside what was torn.
  fs.appendFileSync(torn, (lines.at(-1) as string).slice(100));
  tornStore.refresh();
  assert.equal(tornStore.lineCount, lines.length);
  assert.equal(tornStore.tornTail, 0);

  const damaged = tempLedger();
  const bad = 3_000;
  fs.writeFileSync(damaged, [...lines.slice(0, bad), (lines[bad] as string).replace('"line":', '"line": '), ...lines.slice(bad + 1)].join(""));
  const store = new LedgerStore(damaged);
  const before = store.offset;
  const { dispositions } = store.refresh();
  assert.equal(store.fault?.code, "ledger-line-invalid");
  assert.equal(store.fault?.line, bad);
  assert.equal(store.lineCount, bad);
  assert.equal(dispositions.length, bad);
  assert.equal(store.tornTail, 0);
  assert.equal(store.offset, before, "a damaged read leaves the read position where it was");
});
