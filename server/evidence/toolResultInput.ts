// A PostToolUse capture's input checked directly, so the hook builds and runs no zod schema for a
// capture it was handed in the expected shape: `toolResultCaptureOf` answers only where the
// capture schema (evidenceStore.ts `captureSchemas().ToolResultCapture`) certainly accepts, with
// what its parse returns (keys in the schema's order, the tool's input and response the same
// references); anything else — including every input the schema refuses — goes to the schema,
// whose issues remain the refusal's text. test/unit/toolResultInputShape.test.ts holds the two
// to the same answers.
import type { ToolResultCaptureInput } from "./evidenceStore";
import { hasExactKeys, isPlainRecord, isStringOf } from "./plainShape";

/** A host name as the capture schema takes it. */
export const HOST = /^[a-z][a-z0-9-]{0,31}$/u;
const REQUIRED_KEYS = ["host", "sessionId", "toolCallId", "toolName", "toolInput", "toolResponse", "occurredAt"] as const;
const OPTIONAL_KEYS = ["isError"] as const;
// What `Date.prototype.toISOString` writes for years 0–9999 (the hooks' own `occurredAt`); the
// round trip below proves a real date and time, which the schema's RFC 3339 pattern accepts.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/u;

/** The schema's identifier: 1–`max` code units, non-blank, no surrounding whitespace. */
function isIdentifier(value: unknown, max: number): value is string {
  return isStringOf(value, 1, max) && value === value.trim() && value.trim().length > 0;
}

function isIsoInstant(value: unknown): value is string {
  if (typeof value !== "string" || !ISO_INSTANT.test(value)) return false;
  const time = Date.parse(value);
  return Number.isFinite(time) && new Date(time).toISOString() === value;
}

/** The capture as the schema's parse returns it, when the schema certainly accepts it; null when unsure. */
export function toolResultCaptureOf(value: unknown): ToolResultCaptureInput | null {
  if (!isPlainRecord(value) || !hasExactKeys(value, REQUIRED_KEYS, OPTIONAL_KEYS)) return null;
  const { host, sessionId, toolCallId, toolName, occurredAt } = value;
  if (typeof host !== "string" || !HOST.test(host) || !isStringOf(sessionId, 0, 300) || !isIdentifier(toolCallId, 300) || !isIdentifier(toolName, 128) || !isIsoInstant(occurredAt)) return null;
  const capture: ToolResultCaptureInput = { host, sessionId, toolCallId, toolName, toolInput: value.toolInput, toolResponse: value.toolResponse, occurredAt };
  if (Object.hasOwn(value, "isError")) {
    if (typeof value.isError !== "boolean") return null;
    capture.isError = value.isError;
  }
  return capture;
}
