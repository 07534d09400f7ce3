// The evidence record's direct check (server/evidence/evidenceRecord.ts evidenceRecordOf) spares a
// capture building and running the record schemas to re-read the records it just wrote. It must
// answer only where the schema accepts, with exactly what its parse returns (same values, keys in
// the same order), and decline everything the schema refuses: random records of both kinds, each
// with one field replaced, removed or joined by another, get the same verdict from both, and
// parseRecordLine gives what the schema-only reading gave.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { mutatedAt, valuePaths } from "../support/jsonMutations";
import { hashValue } from "../../server/ledger/canonicalJson";
import { EVIDENCE_FORMAT, MAX_SEQUENCE, evidenceRecordOf, evidenceRecordSchema, parseRecordLine, sealRecord } from "../../server/evidence/evidenceRecord";
import { REDACTION_KINDS } from "../../server/evidence/redaction";

const sha = fc.stringMatching(/^[0-9a-f]{64}$/);
const hex16 = fc.stringMatching(/^[0-9a-f]{16}$/);
const count = fc.oneof(fc.nat({ max: 1_000_000 }), fc.constantFrom(0, Number.MAX_SAFE_INTEGER));
const text = (min: number, max: number) => fc.oneof(fc.string({ minLength: min, maxLength: Math.min(max, 40) }), fc.constant("x".repeat(max)), fc.constant("é".repeat(min === 0 ? 0 : min)));
const part = fc.oneof(
  fc.record({ kind: fc.constant("text"), text: fc.oneof(fc.string({ maxLength: 60 }), fc.constant("t".repeat(48_000))) }),
  fc.record({ kind: fc.constant("image"), mediaType: text(1, 128), contentSha256: sha }),
);
const redactions = fc.dictionary(fc.constantFrom(...REDACTION_KINDS), fc.oneof(fc.integer({ min: 1, max: 1_000 }), fc.constant(Number.MAX_SAFE_INTEGER)), { maxKeys: 4 });
const common = {
  format: fc.constant(EVIDENCE_FORMAT),
  sequence: fc.oneof(fc.integer({ min: 1, max: MAX_SEQUENCE }), fc.constantFrom(1, MAX_SEQUENCE)),
  occurredAt: text(1, 64),
  host: text(1, 32),
  sessionId: text(0, 300),
  parts: fc.array(part, { minLength: 1, maxLength: 5 }),
  truncated: fc.boolean(),
  originalBytes: count,
  redactions,
  recordSha256: sha,
};
const toolResult = fc.record({
  ...common,
  kind: fc.constant("tool-result"),
  branchResultId: hex16.map((hex) => `branch-result-${hex}`),
  toolCallId: text(1, 300),
  toolName: text(1, 128),
  argumentsSha256: sha,
  input: fc.record({ preview: fc.oneof(fc.string({ maxLength: 50 }), fc.constant("p".repeat(4_096))), bytes: count, truncated: fc.boolean() }),
  isError: fc.boolean(),
});
const userDecision = fc.record({ ...common, kind: fc.constant("user-decision"), userEventId: hex16.map((hex) => `user-event-${hex}`) });
const validRecord = fc.oneof(toolResult, userDecision);

const ODD_VALUES: readonly unknown[] = [null, 0, -1, -0, 1.5, MAX_SEQUENCE + 1, Number.MAX_SAFE_INTEGER + 2, 1e21, "", " ", "x", "tool-result", "user-decision", "text", "image", "a".repeat(64), "A".repeat(64), "x".repeat(33), "x".repeat(65), "x".repeat(129), "x".repeat(301), "x".repeat(4_097), "x".repeat(48_001), "branch-result-0123456789abcdef", "user-event-0123456789abcdef", true, false, [], {}, [1], [{}], { "private-key": 1 }, { "private-key": 0 }, { unknown: 1 }];
const odd = fc.oneof(fc.constantFrom(...ODD_VALUES), fc.jsonValue({ maxDepth: 1 }));

type Json = Record<string, unknown>;

/**
 * The one record shape the check declines though the schema accepts it (the schema then decides,
 * as it always did): a redaction count keyed `__proto__`, which zod's record skips. Docket never
 * writes one.
 */
function declinedOnPurpose(value: unknown): boolean {
  const redactions = (value as { redactions?: unknown } | null)?.redactions;
  return typeof redactions === "object" && redactions !== null && Object.hasOwn(redactions, "__proto__");
}

function sameAnswer(value: unknown): void {
  const direct = evidenceRecordOf(value);
  const schema = evidenceRecordSchema().safeParse(value);
  if (direct === null) {
    if (schema.success) assert.ok(declinedOnPurpose(value), `declined a record the schema accepts: ${JSON.stringify(value)}`);
    return;
  }
  assert.ok(schema.success, `accepted a record the schema refuses: ${JSON.stringify(value)}`);
  assert.deepEqual(direct, schema.data);
  assert.equal(JSON.stringify(direct), JSON.stringify(schema.data));
}

/** parseRecordLine as it was: the schema alone, then the hash. */
function schemaOnlyRead(line: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = evidenceRecordSchema().safeParse(value);
  if (!parsed.success) return undefined;
  const { recordSha256, ...body } = parsed.data;
  return hashValue(body) === recordSha256 ? parsed.data : undefined;
}

test("valid records of both kinds: the direct check answers, with the schema's parse", () => {
  fc.assert(
    fc.property(validRecord, (value) => {
      assert.notEqual(evidenceRecordOf(value), null);
      sameAnswer(value);
    }),
    { numRuns: 2_000 },
  );
});

test("records with one field replaced, removed or joined by another: the same verdict as the schema", () => {
  fc.assert(
    fc.property(validRecord, fc.nat(), fc.constantFrom("replace", "remove", "extra" as const), odd, (value, pick, how, replacement) => {
      const all = valuePaths(value);
      sameAnswer(mutatedAt(value, all[pick % all.length] as (string | number)[], how, replacement));
    }),
    { numRuns: 6_000 },
  );
});

test("every field of a record replaced by every odd value, removed or joined; odd shapes", () => {
  const base = sealRecord({
    format: EVIDENCE_FORMAT,
    kind: "tool-result" as const,
    sequence: 3,
    occurredAt: "2026-01-01T00:00:00.000Z",
    host: "claude",
    sessionId: "s",
    branchResultId: "branch-result-0123456789abcdef",
    toolCallId: "toolu_1",
    toolName: "Read",
    argumentsSha256: "b".repeat(64),
    input: { preview: "{}", bytes: 2, truncated: false },
    parts: [{ kind: "text" as const, text: "hello" }, { kind: "image" as const, mediaType: "image/png", contentSha256: "c".repeat(64) }],
    isError: false,
    truncated: false,
    originalBytes: 5,
    redactions: { "private-key": 1, "github-token": 2 },
  });
  const decision = sealRecord({ format: EVIDENCE_FORMAT, kind: "user-decision" as const, sequence: 1, occurredAt: "t", host: "h", sessionId: "", userEventId: "user-event-0123456789abcdef", parts: [{ kind: "text" as const, text: "" }], truncated: true, originalBytes: 0, redactions: {} });
  for (const record of [base, decision]) {
    sameAnswer(record);
    for (const at of valuePaths(record)) {
      for (const replacement of ODD_VALUES) sameAnswer(mutatedAt(record, at, "replace", replacement));
      sameAnswer(mutatedAt(record, at, "remove", null));
      sameAnswer(mutatedAt(record, at, "extra", 1));
    }
  }
  fc.assert(fc.property(fc.oneof(fc.jsonValue(), odd), (value) => sameAnswer(value)), { numRuns: 2_000 });
  for (const textValue of ['{"__proto__":{}}', "[]", "null", "1", '"record"']) sameAnswer(JSON.parse(textValue));
  const json = JSON.stringify(base);
  sameAnswer(JSON.parse(json.replace('"redactions":{', '"redactions":{"__proto__":1,')));
  sameAnswer(JSON.parse(json.replace('"redactions":{', '"redactions":{"__proto__":{},')));
  sameAnswer(JSON.parse(json.replace('"sequence":3', '"sequence":-0')));
  sameAnswer(JSON.parse(json.replace('"originalBytes":5', '"originalBytes":-0')));
  sameAnswer(JSON.parse(json.replace('"sequence":3', '"sequence":3.0')));
  sameAnswer(JSON.parse(json.replace('{"format"', '{"__proto__":null,"format"')));
  sameAnswer(Object.assign(Object.create(null) as Json, JSON.parse(json) as Json));
  sameAnswer(Object.assign(Object.create({ inherited: 1 }) as Json, JSON.parse(json) as Json));
});

test("parseRecordLine answers as the schema-only reading did (hash included)", () => {
  fc.assert(
    fc.property(validRecord, fc.boolean(), fc.nat(), fc.constantFrom("replace", "remove", "extra" as const), odd, (value, seal, pick, how, replacement) => {
      const { recordSha256: _ignored, ...body } = value;
      const record = seal ? { ...body, recordSha256: hashValue(body) } : value;
      const all = valuePaths(record);
      for (const candidate of [record, mutatedAt(record, all[pick % all.length] as (string | number)[], how, replacement)]) {
        const line = JSON.stringify(candidate);
        const read = parseRecordLine(line);
        assert.deepEqual(read, schemaOnlyRead(line));
        assert.equal(JSON.stringify(read), JSON.stringify(schemaOnlyRead(line)));
      }
    }),
    { numRuns: 2_000 },
  );
  for (const line of ["", "{", "null", "[]", JSON.stringify({ format: EVIDENCE_FORMAT })]) assert.equal(parseRecordLine(line), schemaOnlyRead(line));
});
