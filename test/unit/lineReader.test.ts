// The merge driver's line reader (server/team/lineReader.ts) against a plain split of the same
// bytes, for any chunk size: every line with its offset and length, the torn tail, a start offset,
// lines longer than the chunk, strict UTF-8 and the line bound.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { LineReader, NotUtf8Error } from "../../server/team/lineReader";
import { tempFolder } from "../support/gitRepo";

function withFile<T>(bytes: Buffer, run: (fd: number) => T): T {
  const dir = tempFolder("docket-line-reader-");
  const file = path.join(dir, "lines");
  fs.writeFileSync(file, bytes);
  const fd = fs.openSync(file, "r");
  try {
    return run(fd);
  } finally {
    fs.closeSync(fd);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function expected(bytes: Buffer, start: number): { lines: { text: string; offset: number; bytes: number }[]; torn: number } {
  const lines: { text: string; offset: number; bytes: number }[] = [];
  let offset = start;
  for (let end = bytes.indexOf(0x0a, offset); end >= 0; end = bytes.indexOf(0x0a, offset)) {
    lines.push({ text: bytes.subarray(offset, end).toString("utf8"), offset, bytes: end + 1 - offset });
    offset = end + 1;
  }
  return { lines, torn: bytes.length - offset };
}

test("property: lines, offsets and the torn tail match a plain split, for any chunk size and start", () => {
  const line = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("é가😀", "x".repeat(100))).map((text) => text.replace(/\n/gu, " "));
  fc.assert(
    fc.property(fc.array(line, { maxLength: 20 }), fc.option(fc.string({ maxLength: 10 }).map((text) => text.replace(/\n/gu, " ")), { nil: undefined }), fc.integer({ min: 1, max: 64 }), fc.nat(3), (lines, tail, chunk, skip) => {
      const bytes = Buffer.from(lines.map((text) => `${text}\n`).join("") + (tail ?? ""), "utf8");
      const start = expected(bytes, 0).lines.slice(0, skip).reduce((sum, entry) => sum + entry.bytes, 0);
      withFile(bytes, (fd) => {
        const reader = new LineReader(fd, start, chunk);
        const got: { text: string; offset: number; bytes: number }[] = [];
        for (let next = reader.next(); next !== null; next = reader.next()) got.push({ ...next });
        const want = expected(bytes, start);
        assert.deepEqual(got, want.lines);
        assert.equal(reader.torn, want.torn);
        assert.equal(reader.offset, bytes.length - want.torn);
      });
    }),
    { numRuns: 200, seed: 17 },
  );
});

test("bytes that are not UTF-8 end the read with their offset", () => {
  const bytes = Buffer.concat([Buffer.from("ok\n"), Buffer.from([0x61, 0xff, 0x0a])]);
  withFile(bytes, (fd) => {
    const reader = new LineReader(fd, 0, 2);
    assert.equal(reader.next()?.text, "ok");
    assert.throws(() => reader.next(), (error: unknown) => error instanceof NotUtf8Error && error.offset === 3);
  });
});
