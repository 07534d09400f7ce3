// One line of the evidence store: a self-describing record (format version, kind, position) whose
// `recordSha256` is the hash of its own canonical JSON without that field. A line that does not
// parse, has another format or a wrong hash is not evidence; readers skip it.
import * as z from "zod/mini";
import { hashValue } from "../ledger/canonicalJson";
import { hasExactKeys, isPlainRecord, isSafeInt, isStringOf } from "./plainShape";
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

/**
 * Built on the first record `evidenceRecordOf` declines: a capture re-reads the records it and
 * the calls before it wrote, which pass that check without them. The rule for everything else.
 */
export function evidenceRecordSchema(): RecordSchemas["EvidenceRecord"] {
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
  let record = evidenceRecordOf(value);
  if (record === null) {
    const parsed = evidenceRecordSchema().safeParse(value);
    if (!parsed.success) return undefined;
    record = parsed.data;
  }
  const { recordSha256, ...body } = record;
  return hashValue(body) === recordSha256 ? record : undefined;
}

// --- the direct check --------------------------------------------------------------------------

const SHA256 = /^[0-9a-f]{64}$/u;
const BRANCH_RESULT_ID = /^branch-result-[0-9a-f]{16}$/u;
const USER_EVENT_ID = /^user-event-[0-9a-f]{16}$/u;
const COMMON_KEYS = ["format", "sequence", "occurredAt", "host", "sessionId", "parts", "truncated", "originalBytes", "redactions", "recordSha256"] as const;
const TOOL_RESULT_KEYS = [...COMMON_KEYS, "kind", "branchResultId", "toolCallId", "toolName", "argumentsSha256", "input", "isError"] as const;
const USER_DECISION_KEYS = [...COMMON_KEYS, "kind", "userEventId"] as const;
const KINDS: ReadonlySet<string> = new Set(REDACTION_KINDS);

function isSha256(value: unknown): value is string {
  return typeof value === "string" && SHA256.test(value);
}

function isCount(value: unknown): value is number {
  return isSafeInt(value) && value >= 0;
}

type Part = EvidenceRecord["parts"][number];

function partOf(value: unknown): Part | null {
  if (!isPlainRecord(value)) return null;
  if (value.kind === "text") return hasExactKeys(value, ["kind", "text"]) && isStringOf(value.text, 0, 48_000) ? { kind: "text", text: value.text } : null;
  if (value.kind === "image" && hasExactKeys(value, ["kind", "mediaType", "contentSha256"]) && isStringOf(value.mediaType, 1, 128) && isSha256(value.contentSha256)) {
    return { kind: "image", mediaType: value.mediaType, contentSha256: value.contentSha256 };
  }
  return null;
}

function redactionsOf(value: unknown): EvidenceRecord["redactions"] | null {
  if (!isPlainRecord(value)) return null;
  const counts: Record<string, number> = {};
  for (const key in value) {
    // A key outside the kinds (`__proto__` included) or an inherited one: the schema decides.
    if (!Object.hasOwn(value, key) || !KINDS.has(key)) return null;
    const count = value[key];
    if (!isSafeInt(count) || count <= 0) return null;
    counts[key] = count;
  }
  return counts as EvidenceRecord["redactions"];
}

/**
 * The record as `evidenceRecordSchema().safeParse` returns it (keys in the schema's order), when
 * the schema certainly accepts `value`; null when unsure, and the schema decides. Its hash is
 * not checked here (parseRecordLine does that for both). test/unit/evidenceRecordShape.test.ts
 * holds the two to the same answers.
 */
export function evidenceRecordOf(value: unknown): EvidenceRecord | null {
  if (!isPlainRecord(value)) return null;
  const kind = value.kind;
  if (kind === "tool-result" ? !hasExactKeys(value, TOOL_RESULT_KEYS) : kind === "user-decision" ? !hasExactKeys(value, USER_DECISION_KEYS) : true) return null;
  const { format, sequence, occurredAt, host, sessionId, truncated, originalBytes, recordSha256 } = value;
  if (format !== EVIDENCE_FORMAT || !isSafeInt(sequence) || sequence < 1 || sequence > MAX_SEQUENCE || !isStringOf(occurredAt, 1, 64) || !isStringOf(host, 1, 32) || !isStringOf(sessionId, 0, 300)) return null;
  if (typeof truncated !== "boolean" || !isCount(originalBytes) || !isSha256(recordSha256) || !Array.isArray(value.parts) || value.parts.length < 1 || value.parts.length > 64) return null;
  const parts: Part[] = [];
  for (const item of value.parts as unknown[]) {
    const part = partOf(item);
    if (part === null) return null;
    parts.push(part);
  }
  const redactions = redactionsOf(value.redactions);
  if (redactions === null) return null;
  const common = { format: EVIDENCE_FORMAT, sequence, occurredAt, host, sessionId, parts, truncated, originalBytes, redactions, recordSha256 } as const;
  if (kind === "user-decision") return typeof value.userEventId === "string" && USER_EVENT_ID.test(value.userEventId) ? { ...common, kind, userEventId: value.userEventId } : null;
  const { branchResultId, toolCallId, toolName, argumentsSha256, input, isError } = value;
  if (typeof branchResultId !== "string" || !BRANCH_RESULT_ID.test(branchResultId) || !isStringOf(toolCallId, 1, 300) || !isStringOf(toolName, 1, 128) || !isSha256(argumentsSha256) || typeof isError !== "boolean") return null;
  if (!isPlainRecord(input) || !hasExactKeys(input, ["preview", "bytes", "truncated"]) || !isStringOf(input.preview, 0, 4_096) || !isCount(input.bytes) || typeof input.truncated !== "boolean") return null;
  return { ...common, kind: "tool-result", branchResultId, toolCallId, toolName, argumentsSha256, input: { preview: input.preview, bytes: input.bytes, truncated: input.truncated }, isError };
}
