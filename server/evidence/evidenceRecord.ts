// One line of the evidence store: a self-describing record (format version, kind, position) whose
// `recordSha256` is the hash of its own canonical JSON without that field. A line that does not
// parse, has another format or a wrong hash is not evidence; readers skip it.
import * as z from "zod/mini";
import { hashValue } from "../ledger/canonicalJson";
import { REDACTION_KINDS } from "./redaction";

export const EVIDENCE_FORMAT = "docket/evidence-record/v1";
/** The engine's bound on observed-context sequence numbers (judgment.md §5.2). */
export const MAX_SEQUENCE = 1_000_000_000;

// zod/mini (the same validation engine as zod's full API): a hook that captures a tool result
// loads this module, and the full API's schema objects cost it several milliseconds to build.
// Records are validated only by success, so no message depends on a locale.
const Sha256 = z.string().check(z.regex(/^[0-9a-f]{64}$/));
const Text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));
const NonNegativeInteger = z.int().check(z.nonnegative());

function recordSchemas() {
  const ContentPart = z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("text"), text: z.string().check(z.maxLength(48_000)) }),
    z.strictObject({ kind: z.literal("image"), mediaType: Text(128), contentSha256: Sha256 }),
  ]);
  const Redactions = z.partialRecord(z.enum(REDACTION_KINDS), z.int().check(z.positive()));
  const Common = {
    format: z.literal(EVIDENCE_FORMAT),
    sequence: z.int().check(z.minimum(1), z.maximum(MAX_SEQUENCE)),
    occurredAt: Text(64),
    host: Text(32),
    sessionId: z.string().check(z.maxLength(300)),
    parts: z.array(ContentPart).check(z.minLength(1), z.maxLength(64)),
    truncated: z.boolean(),
    originalBytes: NonNegativeInteger,
    redactions: Redactions,
    recordSha256: Sha256,
  };
  const ToolResultRecord = z.strictObject({
    ...Common,
    kind: z.literal("tool-result"),
    branchResultId: z.string().check(z.regex(/^branch-result-[0-9a-f]{16}$/)),
    toolCallId: Text(300),
    toolName: Text(128),
    argumentsSha256: Sha256,
    /** A redacted, bounded preview of the arguments; never the arguments verbatim beyond the bound. */
    input: z.strictObject({ preview: z.string().check(z.maxLength(4_096)), bytes: NonNegativeInteger, truncated: z.boolean() }),
    isError: z.boolean(),
  });
  const UserDecisionRecord = z.strictObject({
    ...Common,
    kind: z.literal("user-decision"),
    userEventId: z.string().check(z.regex(/^user-event-[0-9a-f]{16}$/)),
  });
  return { ToolResultRecord, UserDecisionRecord, EvidenceRecord: z.discriminatedUnion("kind", [ToolResultRecord, UserDecisionRecord]) };
}

type RecordSchemas = ReturnType<typeof recordSchemas>;
let schemas: RecordSchemas | undefined;

/** Built on the first record read: a capture into an empty store reads none. */
function evidenceRecordSchema(): RecordSchemas["EvidenceRecord"] {
  schemas ??= recordSchemas();
  return schemas.EvidenceRecord;
}

export type ToolResultRecord = z.infer<RecordSchemas["ToolResultRecord"]>;
export type UserDecisionRecord = z.infer<RecordSchemas["UserDecisionRecord"]>;
export type EvidenceRecord = z.infer<RecordSchemas["EvidenceRecord"]>;

/** Seals a record body with its own hash. */
export function sealRecord<T extends Omit<EvidenceRecord, "recordSha256">>(body: T): T & { recordSha256: string } {
  return { ...body, recordSha256: hashValue(body) };
}

/** The record a line holds, or undefined when the line is torn, foreign or altered. */
export function parseRecordLine(line: string): EvidenceRecord | undefined {
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
