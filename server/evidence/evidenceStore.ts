// The evidence store's API: tool results and user prompts captured by the host hooks, kept so a
// conclusion can nominate them (`tool-result{branchResultId}`, `user-decision`). It lives in
// `<workspace>/.docket/evidence/`, never in the ledger: the ledger binds evidence only through the
// hashes the Judgment engine seals. Capture validates its input, redacts and bounds the content
// (toolContent.ts, redaction.ts) and appends one self-hashed record (evidenceSegments.ts); lookups
// read without a lock (evidenceIndex.ts). docs/evidence.md describes the whole store.
import * as z from "zod/mini";
import { en } from "zod/v4/locales";
import { hashValue, sha256Hex } from "../ledger/canonicalJson";
import { DocketError } from "../errors";
import { ErrorCodes } from "../protocol/errorCodes";
import { contextContentSha256 } from "../judgment/content";
import { argumentsSha256 } from "./boundedJson";
import { EVIDENCE_FORMAT, sealRecord, type ToolResultRecord, type UserDecisionRecord } from "./evidenceRecord";
import { appendRecord } from "./evidenceSegments";
import { addRedactionCounts, redactSecrets, type RedactionCounts } from "./redaction";
import { redactedCanonicalJson } from "./structuredRedaction";
import { promptContent, toolResultContent } from "./toolContent";
import { HOST, toolResultCaptureOf } from "./toolResultInput";

export { recentEvidence, workspaceEvidence, type RecentEvidence } from "./evidenceIndex";
export { EVIDENCE_RELATIVE_DIRECTORY, MAX_LINE_BYTES, SEGMENT_BYTES, STORE_CAP_BYTES, evidenceDirectory, setEvidenceStoreLimitsForTests } from "./evidenceSegments";

/** Characters of the arguments' canonical JSON kept (after redaction) as a preview. */
export const INPUT_PREVIEW_CHARS = 4_096;

// zod/mini, the same validation engine as the full API at a fraction of its cost to build (a hook
// loads this module to capture one tool result). Its issue messages are the full API's English ones.
z.config(en());

function buildCaptureSchemas() {
  const Host = z.string().check(z.regex(HOST));
  /** Identifiers the Judgment engine takes as directly normalised text. */
  const Identifier = (max: number) =>
    z
      .string()
      .check(
        z.minLength(1),
        z.maxLength(max),
        z.refine((value) => value === value.trim() && value.trim().length > 0, "must be non-blank without surrounding whitespace"),
      );
  const OccurredAt = z.iso.datetime({ offset: true });
  const ToolResultCapture = z.strictObject({
    host: Host,
    sessionId: z.string().check(z.maxLength(300)),
    toolCallId: Identifier(300),
    toolName: Identifier(128),
    toolInput: z.unknown(),
    toolResponse: z.unknown(),
    occurredAt: OccurredAt,
    /** When the host says so explicitly (e.g. Claude's PostToolUseFailure); otherwise read from the response. */
    isError: z.optional(z.boolean()),
  });
  const UserDecisionCapture = z.strictObject({
    host: Host,
    sessionId: z.string().check(z.maxLength(300)),
    prompt: z.string(),
    occurredAt: OccurredAt,
  });
  return { ToolResultCapture, UserDecisionCapture };
}

type CaptureSchemas = ReturnType<typeof buildCaptureSchemas>;
let captureSchemaCache: CaptureSchemas | undefined;

/**
 * The captures' zod schemas, built on first use: a PostToolUse hook's capture passes
 * `toolResultCaptureOf` (toolResultInput.ts) without them. They stay the rule for anything that
 * check declines, and Observer's capture helper validates a handed-over capture with them.
 */
export function captureSchemas(): CaptureSchemas {
  captureSchemaCache ??= buildCaptureSchemas();
  return captureSchemaCache;
}

export type ToolResultCapture = z.input<CaptureSchemas["ToolResultCapture"]>;
/** A capture as the schema's parse returns it. */
export type ToolResultCaptureInput = z.output<CaptureSchemas["ToolResultCapture"]>;
export type UserDecisionCapture = z.input<CaptureSchemas["UserDecisionCapture"]>;

export interface CapturedToolResult {
  readonly branchResultId: string;
  readonly truncated: boolean;
  readonly redactions: RedactionCounts;
  readonly isError: boolean;
}

/** `branch-result-` + the first 16 hex of sha256(toolCallId) (developer/v8 §3.3 c). */
export function branchResultIdOf(toolCallId: string): string {
  return `branch-result-${sha256Hex(toolCallId).slice(0, 16)}`;
}

function parseInput<T>(schema: z.ZodMiniType<T>, input: unknown, what: string): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  // Paths and reasons only: the input may hold secrets, so no value is echoed.
  const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(input)"}: ${issue.message}`).join("; ");
  throw new DocketError(ErrorCodes.invalidParams, `Invalid ${what}: ${issues}`);
}

/**
 * The arguments' preview: their canonical JSON with every string field and property name redacted
 * as decoded text (knowing the name it is assigned to) before it is encoded, then cut.
 */
function inputPreview(toolInput: unknown): { preview: string; bytes: number; truncated: boolean; redactions: RedactionCounts } {
  const rendered = redactedCanonicalJson(toolInput ?? {}, INPUT_PREVIEW_CHARS);
  return { preview: rendered.text, bytes: rendered.bytes, truncated: rendered.truncated, redactions: rendered.redactions };
}

/**
 * Identifiers are stored as they are (the engine binds them), so one that holds a secret is refused
 * rather than redacted: a host never puts a credential in a call id, and if one does, nothing of it
 * is written. The refusal names the field, never the value.
 */
function refuseSecretIdentifiers(fields: Readonly<Record<string, string>>): void {
  const named = Object.entries(fields)
    .filter(([, value]) => Object.keys(redactSecrets(value).counts).length > 0)
    .map(([field]) => field);
  if (named.length > 0) throw new DocketError(ErrorCodes.invalidParams, `Invalid capture: ${named.join(", ")} looks like it holds a secret; nothing was captured.`);
}

/**
 * Captures one tool call's result: redacted, bounded, numbered and appended. Returns the handle a
 * conclusion nominates. Bad input is docket.invalid-params and nothing is written.
 */
export async function captureToolResult(workspaceFolder: string, capture: ToolResultCapture): Promise<CapturedToolResult> {
  const input = toolResultCaptureOf(capture) ?? parseInput(captureSchemas().ToolResultCapture, capture, "tool result capture");
  refuseSecretIdentifiers({ sessionId: input.sessionId, toolCallId: input.toolCallId, toolName: input.toolName });
  const argumentsHash = argumentsSha256(input.toolInput);
  const preview = inputPreview(input.toolInput);
  const content = toolResultContent(input.toolResponse);
  const redactions = addRedactionCounts(content.redactions, preview.redactions);
  const branchResultId = branchResultIdOf(input.toolCallId);
  const record = await appendRecord<ToolResultRecord>(workspaceFolder, (sequence) =>
    sealRecord({
      format: EVIDENCE_FORMAT,
      kind: "tool-result" as const,
      sequence,
      occurredAt: input.occurredAt,
      host: input.host,
      sessionId: input.sessionId,
      branchResultId,
      toolCallId: input.toolCallId,
      toolName: input.toolName,
      argumentsSha256: argumentsHash,
      input: { preview: preview.preview, bytes: preview.bytes, truncated: preview.truncated },
      parts: [...content.parts],
      isError: input.isError ?? content.isError,
      truncated: content.truncated,
      originalBytes: content.originalBytes,
      redactions,
    }),
  );
  return { branchResultId: record.branchResultId, truncated: record.truncated, redactions: record.redactions, isError: record.isError };
}

/** Captures a user's prompt as the latest user decision. */
export async function captureUserDecision(workspaceFolder: string, capture: UserDecisionCapture): Promise<{ readonly userEventId: string }> {
  const input = parseInput(captureSchemas().UserDecisionCapture, capture, "user decision capture");
  refuseSecretIdentifiers({ sessionId: input.sessionId });
  const content = promptContent(input.prompt);
  const contentSha256 = contextContentSha256(content.parts);
  const record = await appendRecord<UserDecisionRecord>(workspaceFolder, (sequence) =>
    sealRecord({
      format: EVIDENCE_FORMAT,
      kind: "user-decision" as const,
      sequence,
      occurredAt: input.occurredAt,
      host: input.host,
      sessionId: input.sessionId,
      // Unique by sequence, and bound to what the user said.
      userEventId: `user-event-${hashValue({ host: input.host, sessionId: input.sessionId, sequence, contentSha256 }).slice(0, 16)}`,
      parts: [...content.parts],
      truncated: content.truncated,
      originalBytes: content.originalBytes,
      redactions: content.redactions,
    }),
  );
  return { userEventId: record.userEventId };
}
