// One line of the evidence store: a self-describing record (format version, kind, position) whose
// `recordSha256` is the hash of its own canonical JSON without that field. A line that does not
// parse, has another format or a wrong hash is not evidence; readers skip it.
import * as z from "zod";
import { hashValue } from "../ledger/canonicalJson";
import { REDACTION_KINDS } from "./redaction";

export const EVIDENCE_FORMAT = "docket/evidence-record/v1";
/** The engine's bound on observed-context sequence numbers (judgment.md §5.2). */
export const MAX_SEQUENCE = 1_000_000_000;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const Text = (max: number) => z.string().min(1).max(max);
const ContentPart = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("text"), text: z.string().max(48_000) }),
  z.strictObject({ kind: z.literal("image"), mediaType: Text(128), contentSha256: Sha256 }),
]);
const Redactions = z.partialRecord(z.enum(REDACTION_KINDS), z.number().int().positive());
const Common = {
  format: z.literal(EVIDENCE_FORMAT),
  sequence: z.number().int().min(1).max(MAX_SEQUENCE),
  occurredAt: z.string().min(1).max(64),
  host: Text(32),
  sessionId: z.string().max(300),
  parts: z.array(ContentPart).min(1).max(64),
  truncated: z.boolean(),
  originalBytes: z.number().int().nonnegative(),
  redactions: Redactions,
  recordSha256: Sha256,
};

export const ToolResultRecord = z.strictObject({
  ...Common,
  kind: z.literal("tool-result"),
  branchResultId: z.string().regex(/^branch-result-[0-9a-f]{16}$/),
  toolCallId: Text(300),
  toolName: Text(128),
  argumentsSha256: Sha256,
  /** A redacted, bounded preview of the arguments; never the arguments verbatim beyond the bound. */
  input: z.strictObject({ preview: z.string().max(4_096), bytes: z.number().int().nonnegative(), truncated: z.boolean() }),
  isError: z.boolean(),
});
export type ToolResultRecord = z.infer<typeof ToolResultRecord>;

export const UserDecisionRecord = z.strictObject({
  ...Common,
  kind: z.literal("user-decision"),
  userEventId: z.string().regex(/^user-event-[0-9a-f]{16}$/),
});
export type UserDecisionRecord = z.infer<typeof UserDecisionRecord>;

export const EvidenceRecord = z.discriminatedUnion("kind", [ToolResultRecord, UserDecisionRecord]);
export type EvidenceRecord = z.infer<typeof EvidenceRecord>;

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
  const parsed = EvidenceRecord.safeParse(value);
  if (!parsed.success) return undefined;
  const { recordSha256, ...body } = parsed.data;
  return hashValue(body) === recordSha256 ? parsed.data : undefined;
}
