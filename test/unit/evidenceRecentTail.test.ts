// recentEvidence reads a large segment from its tail first; its answers must be those of reading
// every segment whole (the reference below, the implementation before the tail read), on generated
// stores with duplicate handles, failed calls, user decisions, torn, foreign, tampered and
// non-UTF-8 lines, several segments, and a cut that lands on a record inside a foreign line.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { sha256Hex } from "../../server/ledger/canonicalJson";
import { EVIDENCE_FORMAT, sealRecord, type ToolResultRecord, type UserDecisionRecord } from "../../server/evidence/evidenceRecord";
import { RECENT_TAIL_BYTES, recentEvidence, type RecentEvidence } from "../../server/evidence/evidenceIndex";
import { evidenceDirectory, listSegments, recordsBackwards } from "../../server/evidence/evidenceSegments";
import { tempFolder } from "../support/gitRepo";

/** recentEvidence as it was before the tail read: every segment read whole, newest first. */
function wholeFileRecentEvidence(workspaceFolder: string, limit: number): RecentEvidence[] {
  const result: RecentEvidence[] = [];
  const seen = new Set<string>();
  const segments = listSegments(evidenceDirectory(workspaceFolder));
  for (let index = segments.length - 1; index >= 0 && result.length < limit; index -= 1) {
    let text: string;
    try {
      text = fs.readFileSync((segments[index] as { readonly file: string }).file, "utf8");
    } catch {
      continue;
    }
    for (const record of recordsBackwards(text)) {
      if (record.kind !== "tool-result" || seen.has(record.branchResultId)) continue;
      seen.add(record.branchResultId);
      if (record.isError) continue;
      result.push({ branchResultId: record.branchResultId, toolName: record.toolName, occurredAt: record.occurredAt, truncated: record.truncated });
      if (result.length >= limit) break;
    }
  }
  return result;
}

function toolResultLine(sequence: number, handle: number, isError: boolean, textChars: number): string {
  const body: Omit<ToolResultRecord, "recordSha256"> = {
      format: EVIDENCE_FORMAT,
      kind: "tool-result" as const,
      sequence,
      occurredAt: `2031-01-01T00:00:${String(sequence % 60).padStart(2, "0")}.000Z`,
      host: "claude",
      sessionId: "session-1",
      parts: [{ kind: "text" as const, text: `out ${sequence} ${"é".repeat(textChars % 7)}${"x".repeat(textChars)}` }],
      truncated: sequence % 3 === 0,
      originalBytes: textChars,
      redactions: {},
      branchResultId: `branch-result-${sha256Hex(`call-${handle}`).slice(0, 16)}`,
      toolCallId: `call-${handle}`,
      toolName: `Tool${sequence}`,
      argumentsSha256: sha256Hex(`arguments-${sequence}`),
      input: { preview: "{}", bytes: 2, truncated: false },
    isError,
  };
  return JSON.stringify(sealRecord(body));
}

function userDecisionLine(sequence: number): string {
  const body: Omit<UserDecisionRecord, "recordSha256"> = {
      format: EVIDENCE_FORMAT,
      kind: "user-decision" as const,
      sequence,
      occurredAt: "2031-01-01T00:00:00.000Z",
      host: "claude",
      sessionId: "session-1",
      parts: [{ kind: "text" as const, text: `prompt ${sequence}` }],
      truncated: false,
      originalBytes: 10,
      redactions: {},
    userEventId: `user-event-${sha256Hex(`prompt-${sequence}`).slice(0, 16)}`,
  };
  return JSON.stringify(sealRecord(body));
}

type LineSpec =
  | { readonly kind: "tool"; readonly handle: number; readonly isError: boolean; readonly size: number }
  | { readonly kind: "decision" }
  | { readonly kind: "torn"; readonly handle: number; readonly size: number }
  | { readonly kind: "foreign"; readonly handle: number; readonly size: number }
  | { readonly kind: "tampered"; readonly handle: number; readonly size: number }
  | { readonly kind: "notUtf8" };

const SIZES = [0, 40, 3_000, 30_000, 47_000] as const;
// Mostly near the largest text a part holds, so that most stores have a segment past the tail.
const size = fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...SIZES) }, { weight: 3, arbitrary: fc.integer({ min: 40_000, max: 47_900 }) });
const handle = fc.integer({ min: 0, max: 15 });
const lineSpec: fc.Arbitrary<LineSpec> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("tool" as const), handle, isError: fc.boolean(), size }) },
  { weight: 1, arbitrary: fc.constant({ kind: "decision" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("torn" as const), handle, size }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("foreign" as const), handle, size }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("tampered" as const), handle, size }) },
  { weight: 1, arbitrary: fc.constant({ kind: "notUtf8" as const }) },
);

function lineBytes(spec: LineSpec, sequence: number): Buffer {
  switch (spec.kind) {
    case "tool":
      return Buffer.from(toolResultLine(sequence, spec.handle, spec.isError, spec.size));
    case "decision":
      return Buffer.from(userDecisionLine(sequence));
    case "torn": {
      const line = toolResultLine(sequence, spec.handle, false, spec.size);
      return Buffer.from(line.slice(0, Math.floor(line.length / 2)));
    }
    case "foreign":
      // Everything after the junk is a valid record: a tail cut just past the junk would accept it.
      return Buffer.from(`junk${toolResultLine(sequence, spec.handle, false, spec.size)}`);
    case "tampered":
      return Buffer.from(toolResultLine(sequence, spec.handle, false, spec.size).replace('"toolName":"Tool', '"toolName":"Edited'));
    case "notUtf8":
      // An unfinished multi-byte sequence right before the newline, and a stray continuation byte.
      return Buffer.from([0x7b, 0xe2, 0x82]);
  }
}

function writeStore(folder: string, segments: readonly (readonly LineSpec[])[], finalNewline: boolean): void {
  const directory = evidenceDirectory(folder);
  fs.mkdirSync(directory, { recursive: true });
  let sequence = 1;
  segments.forEach((specs, segmentIndex) => {
    const name = `segment-${String(sequence).padStart(12, "0")}.jsonl`;
    const lines = specs.map((spec) => lineBytes(spec, sequence++));
    const last = segmentIndex === segments.length - 1;
    const joined = Buffer.concat(lines.flatMap((line, index) => (index === lines.length - 1 && last && !finalNewline ? [line] : [line, Buffer.from("\n")])));
    fs.writeFileSync(path.join(directory, name), joined);
  });
}

test("recentEvidence from a segment's tail equals reading every segment whole", () => {
  let tailRuns = 0;
  fc.assert(
    fc.property(
      fc.array(fc.array(lineSpec, { minLength: 0, maxLength: 30, size: "max" }), { minLength: 1, maxLength: 3 }),
      fc.boolean(),
      (segments, finalNewline) => {
        const folder = tempFolder("docket-evidence-tail-");
        try {
          writeStore(folder, segments, finalNewline);
          if (listSegments(evidenceDirectory(folder)).some((segment) => fs.statSync(segment.file).size > RECENT_TAIL_BYTES)) tailRuns += 1;
          for (const limit of [1, 2, 5, 12, 1_000]) assert.deepEqual(recentEvidence(folder, limit), wholeFileRecentEvidence(folder, limit), `limit ${limit}`);
        } finally {
          fs.rmSync(folder, { recursive: true, force: true });
        }
      },
    ),
    { numRuns: 40 },
  );
  assert.ok(tailRuns >= 10, `only ${tailRuns} generated stores had a segment past the tail`);
});

test("a tail cut at a record inside a foreign line does not offer that record", () => {
  const folder = tempFolder("docket-evidence-tail-");
  try {
    const directory = evidenceDirectory(folder);
    fs.mkdirSync(directory, { recursive: true });
    const hidden = toolResultLine(1, 1, false, 100);
    const head = `x${hidden}\n`;
    // The tail starts exactly at `hidden`'s opening brace; the rest of the tail holds no record.
    const fillerLength = RECENT_TAIL_BYTES + 1 - Buffer.byteLength(head) - 1;
    const file = path.join(directory, "segment-000000000001.jsonl");
    fs.writeFileSync(file, `${head}${"j".repeat(fillerLength)}\n`);
    assert.equal(fs.statSync(file).size - RECENT_TAIL_BYTES, 1);
    // Limit 1: one record would settle it from the tail alone.
    for (const limit of [1, 12]) {
      assert.deepEqual(wholeFileRecentEvidence(folder, limit), []);
      assert.deepEqual(recentEvidence(folder, limit), []);
    }
    // With a valid record in the tail the answer comes from the tail alone, and is the same.
    fs.appendFileSync(file, `${toolResultLine(2, 2, false, 10)}\n`);
    assert.deepEqual(recentEvidence(folder, 1), wholeFileRecentEvidence(folder, 1));
    assert.equal(recentEvidence(folder, 1).length, 1);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
