// The compact per-line and per-event columns replay keeps (issue 16: a million events in 256 MB)
// answer exactly what the plain forms they replace answer: the line index (block offsets and
// developer flags instead of an offset and two indexes per line) against a list of records, the
// chunked id table against a Map with rollbacks, the chunked hash column and the run-length column
// (in runs and after switching to one value per position) against arrays, and a
// replayer's stored index of each accepted event (derived from its rejections) against its
// dispositions, with rejections, trials and rollbacks.
import { test } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fc from "fast-check";
import { LineIndex, type LineRecord } from "../../server/ledger/lineIndex";
import { EventIdTable } from "../../server/ledger/eventIdTable";
import { HashColumn } from "../../server/ledger/hashColumn";
import { RunColumn } from "../../server/ledger/runColumn";
import { Replayer } from "../../server/ledger/replay";
import { cycleScopesEntries } from "../support/generatedCycles";

type LineStep = { readonly developer: boolean; readonly length: number; readonly gap: number };

const lineStep: fc.Arbitrary<LineStep> = fc.record({
  developer: fc.boolean(),
  length: fc.integer({ min: 1, max: 5_000 }),
  // Almost always 0 (the store's lines follow each other); sometimes a jump, which the index must still answer exactly.
  gap: fc.oneof({ weight: 30, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: -100, max: 100_000 }) }),
});

function checkIndex(index: LineIndex, records: readonly LineRecord[], lines: readonly number[]): void {
  assert.equal(index.length, records.length);
  for (let line = -1; line <= records.length; line += 1) assert.deepEqual(index.record(line), records[line]);
  for (let replay = -1; replay <= lines.length; replay += 1) assert.equal(index.lineOfReplayIndex(replay), lines[replay]);
  assert.equal(index.record(0.5), undefined);
  assert.equal(index.lineOfReplayIndex(0.5), undefined);
}

test("the line index answers every record and replay index as a list of records does", () => {
  fc.assert(
    fc.property(fc.array(lineStep, { maxLength: 700 }), fc.integer({ min: 0, max: 1_000_000 }), (steps, firstOffset) => {
      const index = new LineIndex();
      const records: LineRecord[] = [];
      const lines: number[] = [];
      let offset = firstOffset;
      for (const step of steps) {
        offset = Math.max(0, offset + step.gap);
        const replayIndex = step.developer ? lines.length : null;
        index.push(offset, step.length, replayIndex);
        records.push({ offset, length: step.length, replayIndex });
        if (step.developer) lines.push(records.length - 1);
        offset += step.length;
      }
      checkIndex(index, records, lines);
    }),
    { numRuns: 300 },
  );
});

test("the line index of a long ledger of developer lines only, then one Guard line", () => {
  const index = new LineIndex();
  const records: LineRecord[] = [];
  const lines: number[] = [];
  let offset = 0;
  for (let line = 0; line < 5_000; line += 1) {
    const length = 900 + (line % 37);
    index.push(offset, length, line);
    records.push({ offset, length, replayIndex: line });
    lines.push(line);
    offset += length;
  }
  checkIndex(index, records, lines);
  index.push(offset, 50, null);
  records.push({ offset, length: 50, replayIndex: null });
  index.push(offset + 50, 60, lines.length);
  records.push({ offset: offset + 50, length: 60, replayIndex: lines.length });
  lines.push(records.length - 1);
  checkIndex(index, records, lines);
  assert.throws(() => index.push(offset + 110, 10, lines.length + 1), /out of order/u);
});

test("the chunked id table finds, names and rolls back ids as a Map does", () => {
  const shortId = fc.oneof(fc.stringMatching(/^[A-Za-z][A-Za-z0-9._:/-]{0,40}$/u), fc.string({ unit: "binary", maxLength: 12 }));
  // Ids that share a prefix (ASCII or not) make probes meet ids that differ late, or only in length.
  const id = fc.oneof(shortId, fc.tuple(fc.constantFrom("event:", "event:\u00e9", "e", "\u00e9"), fc.string({ unit: fc.constantFrom("a", "b", "\u00e9"), maxLength: 3 })).map(([prefix, rest]) => prefix + rest));
  const step = fc.oneof({ weight: 12, arbitrary: id.map((value) => ({ push: value })) }, { weight: 1, arbitrary: fc.nat(30).map((back) => ({ back })) });
  fc.assert(
    fc.property(fc.array(step, { maxLength: 400 }), (steps) => {
      const table = new EventIdTable();
      const model: string[] = [];
      for (const entry of steps) {
        if ("push" in entry) {
          if (model.includes(entry.push)) continue;
          table.push(entry.push);
          model.push(entry.push);
        } else {
          const count = Math.max(0, model.length - entry.back);
          table.truncate(count);
          model.length = count;
        }
      }
      assert.equal(table.size, model.length);
      model.forEach((value, ordinal) => {
        assert.equal(table.idOf(ordinal), value);
        assert.equal(table.get(value), ordinal);
      });
      assert.equal(table.idOf(model.length), undefined);
      assert.equal(table.get("\u0000absent"), undefined);
    }),
    { numRuns: 300 },
  );
});

test("ids spread over many chunks, rolled back across a chunk boundary, stay exact", () => {
  const table = new EventIdTable();
  const ids: string[] = [];
  for (let ordinal = 0; ordinal < 12_000; ordinal += 1) {
    const value = `event:${ordinal.toString(36)}-${"x".repeat(ordinal % 150)}`;
    table.push(value);
    ids.push(value);
  }
  const check = (): void => {
    assert.equal(table.size, ids.length);
    for (let ordinal = 0; ordinal < ids.length; ordinal += 1) {
      assert.equal(table.idOf(ordinal), ids[ordinal]);
      assert.equal(table.get(ids[ordinal] as string), ordinal);
    }
  };
  check();
  for (const count of [11_999, 9_000, 4_321, 4_321, 0]) {
    table.truncate(count);
    for (const removed of ids.slice(count)) assert.equal(table.get(removed), undefined);
    ids.length = count;
    check();
    for (let ordinal = count; ordinal < count + 700; ordinal += 1) {
      const value = `again:${count}:${ordinal}:${"y".repeat(ordinal % 90)}`;
      table.push(value);
      ids.push(value);
    }
    check();
  }
});

test("the chunked hash column returns every hash written, also rewritten after a rollback", () => {
  const column = new HashColumn();
  const hashes: string[] = [];
  for (let position = 0; position < 10_000; position += 1) {
    const hex = crypto.createHash("sha256").update(String(position)).digest("hex");
    column.write(position, hex);
    hashes.push(hex);
  }
  for (let position = 5_000; position < 7_000; position += 1) {
    const hex = crypto.createHash("sha256").update(`again ${position}`).digest("hex");
    column.write(position, hex);
    hashes[position] = hex;
  }
  hashes.forEach((hex, position) => assert.equal(column.hexAt(position), hex));
});

test("the run-length column answers every position as an array does, in runs or dense, across rollbacks", () => {
  // Long runs (a scope's events in a row), then values changing at every position (interleaved scopes).
  const value = fc.oneof(fc.nat(3), fc.nat(1_000_000));
  const step = fc.oneof(
    { weight: 10, arbitrary: fc.tuple(value, fc.integer({ min: 1, max: 400 })).map(([pushed, times]) => ({ pushed, times })) },
    { weight: 3, arbitrary: fc.array(value, { minLength: 1, maxLength: 900 }).map((values) => ({ values })) },
    { weight: 2, arbitrary: fc.nat(500).map((back) => ({ back })) },
  );
  fc.assert(
    fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
      const column = new RunColumn();
      const model: number[] = [];
      for (const entry of steps) {
        const values = "pushed" in entry ? new Array<number>(entry.times).fill(entry.pushed) : "values" in entry ? entry.values : [];
        for (const pushed of values) {
          column.push(pushed);
          model.push(pushed);
        }
        if ("back" in entry) {
          const count = Math.max(0, model.length - entry.back);
          column.truncate(count);
          model.length = count;
        }
        assert.equal(column.length, model.length);
      }
      model.forEach((expected, position) => assert.equal(column.at(position), expected));
    }),
    { numRuns: 300 },
  );
});

test("a replayer's stored index of every accepted event matches its dispositions, with rejections and trials", () => {
  const entries = cycleScopesEntries(6) as unknown as Record<string, unknown>[];
  const scopeOfEvent = new Map(entries.map((entry) => [entry.eventId, entry.workScopeId]));
  fc.assert(
    fc.property(fc.array(fc.nat(9), { minLength: entries.length, maxLength: entries.length }), fc.array(fc.nat(entries.length), { maxLength: 4 }), (noise, trialsAt) => {
      const replayer = new Replayer();
      const check = (): void => {
        let ordinal = 0;
        for (const disposition of replayer.dispositions) {
          if (disposition.status !== "accepted") continue;
          assert.equal(replayer.storedIndexOf(ordinal), disposition.index);
          assert.equal(replayer.eventIdOf(ordinal), disposition.eventId);
          assert.equal(replayer.workScopeIdOf(ordinal), scopeOfEvent.get(disposition.eventId));
          ordinal += 1;
        }
        assert.equal(ordinal, replayer.acceptedCount);
        assert.equal(replayer.storedIndexOf(ordinal), undefined);
      };
      entries.forEach((entry, position) => {
        // Rejected entries among the accepted ones: junk, a duplicate of the previous entry, a damaged hash.
        if (noise[position] === 0) replayer.apply({ not: "an envelope" });
        if (noise[position] === 1 && position > 0) replayer.apply(entries[position - 1]);
        if (noise[position] === 2) replayer.apply({ ...entry, eventSha256: "0".repeat(64) });
        if (trialsAt.includes(position)) {
          const tried = [{ junk: true }, ...entries.slice(position, position + 3), { junk: true }];
          assert.equal(replayer.trial(tried).dispositions.length, tried.length);
          check();
        }
        replayer.apply(entry);
      });
      check();
      assert.equal(replayer.acceptedCount, entries.length);
    }),
    { numRuns: 40 },
  );
});
