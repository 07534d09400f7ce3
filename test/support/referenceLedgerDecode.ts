// The line and envelope decoding as they were before replay's seventh part (one canonicalization
// of the entry, the wrapper written out and compared, the envelope hash written out field by
// field), kept verbatim as the reference the fast paths are tested against.
import { canonicalJson, sha256Hex, toJsonValue, utf8Length, MAX_JSON_DEPTH, nestsDeeperThan, type JsonValue } from "../../server/ledger/canonicalJson";
import { ValueError, fail, integerAt, isRecord, shaAt, idAt, timestampAt, arrayAt, MAX_PAYLOAD_BYTES } from "../../server/ledger/values";
import { GUARD_STREAM, guardEntryProblem } from "../../server/guard/guardEntry";
import { OBSERVER_STREAM, observerEntryProblem } from "../../server/observer/observerEntry";
import { LEDGER_LINE_FORMAT, LINE_DOMAIN, LineFault, STREAMS, type DecodedLedgerLine, type LedgerLine, type Stream } from "../../server/ledger/ledgerLine";
import { DEVELOPER_PROTOCOL, ENVELOPE_DOMAIN, MAX_SCOPE_SEQUENCE, causalRefKey, type Envelope, type EnvelopeDraft, type EventRef } from "../../server/ledger/envelope";

function referenceExactKeys(value: Record<string, unknown>, path: string, required: readonly string[]): void {
  for (const key of required) {
    if (!Object.hasOwn(value, key)) fail(`${path}.${key}`, "is required");
  }
  for (const key of Object.keys(value)) {
    if (!required.includes(key)) fail(`${path}.${key}`, "is not allowed");
  }
}

function objectAt(value: unknown, path: string): Record<string, unknown> {
  if (!isRecord(value)) return fail(path, "expected an object");
  return value;
}

const LINE_KEYS = ["ledger", "line", "previousLineSha256", "stream", "entry", "lineSha256"] as const;

function hashFromEntryText(line: number, previous: string | null, stream: string, entryText: string): string {
  const previousText = previous === null ? "null" : JSON.stringify(previous);
  return sha256Hex(
    `{"domain":${JSON.stringify(LINE_DOMAIN)},"value":{"entry":${entryText},"line":${line},"previousLineSha256":${previousText},"stream":${JSON.stringify(stream)}}}`,
  );
}

function wrapperText(line: number, previous: string | null, stream: string, entryText: string, sha: string): string {
  const previousText = previous === null ? "null" : JSON.stringify(previous);
  return `{"entry":${entryText},"ledger":${JSON.stringify(LEDGER_LINE_FORMAT)},"line":${line},"lineSha256":"${sha}","previousLineSha256":${previousText},"stream":${JSON.stringify(stream)}}`;
}

export function referenceDecodeLedgerLine(text: string, expectedLine: number, expectedPrevious: string | null): DecodedLedgerLine {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LineFault("ledger-line-invalid", `line ${expectedLine + 1} is not JSON`);
  }
  let line: LedgerLine;
  try {
    const data = objectAt(parsed, "line");
    referenceExactKeys(data, "line", LINE_KEYS);
    if (data.ledger !== LEDGER_LINE_FORMAT) fail("line.ledger", `expected ${LEDGER_LINE_FORMAT}`);
    if (!(STREAMS as readonly unknown[]).includes(data.stream)) fail("line.stream", "is not a known stream");
    line = {
      line: integerAt(data.line, "line.line"),
      previousLineSha256: data.previousLineSha256 === null ? null : shaAt(data.previousLineSha256, "line.previousLineSha256"),
      stream: data.stream as Stream,
      entry: data.entry as JsonValue,
      lineSha256: shaAt(data.lineSha256, "line.lineSha256"),
    };
  } catch (error) {
    const message = error instanceof ValueError || error instanceof Error ? error.message : "invalid line";
    throw new LineFault("ledger-line-invalid", `line ${expectedLine + 1}: ${message}`);
  }
  if (line.line !== expectedLine || line.previousLineSha256 !== expectedPrevious) {
    throw new LineFault(
      "ledger-line-chain-mismatch",
      `line ${expectedLine + 1} does not follow the previous line (a line was removed, reordered or edited)`,
    );
  }
  let entryText: string;
  try {
    entryText = canonicalJson(line.entry);
  } catch {
    throw new LineFault("ledger-line-invalid", `line ${expectedLine + 1} is nested too deeply to be a ledger line`);
  }
  const expectedSha = hashFromEntryText(line.line, line.previousLineSha256, line.stream, entryText);
  if (expectedSha !== line.lineSha256) {
    throw new LineFault("ledger-line-hash-mismatch", `line ${expectedLine + 1} does not match its hash`);
  }
  if (wrapperText(line.line, line.previousLineSha256, line.stream, entryText, expectedSha) !== text) {
    throw new LineFault("ledger-line-invalid", `line ${expectedLine + 1} is not in canonical form`);
  }
  if (line.stream === GUARD_STREAM) {
    const problem = guardEntryProblem(line.entry);
    if (problem !== null) throw new LineFault("ledger-line-invalid", `line ${expectedLine + 1}: ${problem}`);
  }
  if (line.stream === OBSERVER_STREAM) {
    const problem = observerEntryProblem(line.entry);
    if (problem !== null) throw new LineFault("ledger-line-invalid", `line ${expectedLine + 1}: ${problem}`);
  }
  return { ...line, entryText };
}

const ENVELOPE_KEYS = [
  "protocolVersion",
  "eventId",
  "workScopeId",
  "scopeSequence",
  "previousScopeEventSha256",
  "causalRefs",
  "occurredAt",
  "kind",
  "payload",
  "eventSha256",
] as const;

function parseEventRef(value: unknown, path: string): EventRef {
  const data = objectAt(value, path);
  referenceExactKeys(data, path, ["workScopeId", "eventId", "eventSha256"]);
  return {
    workScopeId: idAt(data.workScopeId, `${path}.workScopeId`),
    eventId: idAt(data.eventId, `${path}.eventId`),
    eventSha256: shaAt(data.eventSha256, `${path}.eventSha256`),
  };
}

const PAYLOAD_MEMBER = ',"payload":';
const AFTER_PAYLOAD_MEMBER = ',"previousScopeEventSha256":';

function payloadTextWithin(envelopeText: string, value: unknown): string | undefined {
  const start = envelopeText.indexOf(PAYLOAD_MEMBER);
  const end = envelopeText.lastIndexOf(AFTER_PAYLOAD_MEMBER);
  if (start < 0 || end < start) return undefined;
  const text = envelopeText.slice(start + PAYLOAD_MEMBER.length, end);
  if (text.length > 2 * MAX_JSON_DEPTH && nestsDeeperThan(value, MAX_JSON_DEPTH)) return undefined;
  return text;
}

function payloadAt(value: unknown, path: string, parsedText?: string): { json: JsonValue; text: string } {
  const text = parsedText === undefined ? undefined : payloadTextWithin(parsedText, value);
  if (text !== undefined) {
    if (utf8Length(text) > MAX_PAYLOAD_BYTES) fail(path, "JSON value exceeds its byte limit");
    return { json: value as JsonValue, text };
  }
  let json: JsonValue;
  try {
    json = toJsonValue(value, `${path}/`);
  } catch (error) {
    return fail(path, error instanceof Error ? error.message : "expected a JSON value");
  }
  const canonical = canonicalJson(json);
  if (utf8Length(canonical) > MAX_PAYLOAD_BYTES) fail(path, "JSON value exceeds its byte limit");
  return { json, text: canonical };
}

function envelopeSha256WithPayloadText(draft: EnvelopeDraft, payloadText: string): string {
  const refs = draft.causalRefs
    .map((ref) => `{"eventId":${JSON.stringify(ref.eventId)},"eventSha256":${JSON.stringify(ref.eventSha256)},"workScopeId":${JSON.stringify(ref.workScopeId)}}`)
    .join(",");
  const previous = draft.previousScopeEventSha256 === null ? "null" : JSON.stringify(draft.previousScopeEventSha256);
  return sha256Hex(
    `{"domain":${JSON.stringify(ENVELOPE_DOMAIN)},"value":{"causalRefs":[${refs}],"eventId":${JSON.stringify(draft.eventId)},"kind":${JSON.stringify(draft.kind)},"occurredAt":${JSON.stringify(draft.occurredAt)},"payload":${payloadText},"previousScopeEventSha256":${previous},"protocolVersion":${JSON.stringify(draft.protocolVersion)},"scopeSequence":${draft.scopeSequence},"workScopeId":${JSON.stringify(draft.workScopeId)}}}`,
  );
}

export function referenceParseEnvelope(value: unknown, path = "developerEventEnvelope", parsedText?: string): Envelope {
  const data = objectAt(value, path);
  referenceExactKeys(data, path, ENVELOPE_KEYS);
  const scopeSequence = integerAt(data.scopeSequence, `${path}.scopeSequence`, { max: MAX_SCOPE_SEQUENCE });
  const previousScopeEventSha256 =
    data.previousScopeEventSha256 === null ? null : shaAt(data.previousScopeEventSha256, `${path}.previousScopeEventSha256`);
  if (scopeSequence === 0 && previousScopeEventSha256 !== null) fail(`${path}.previousScopeEventSha256`, "must be null for the first scope event");
  if (scopeSequence > 0 && previousScopeEventSha256 === null) fail(`${path}.previousScopeEventSha256`, "is required after the first scope event");
  const causalRefs = arrayAt(data.causalRefs, `${path}.causalRefs`, parseEventRef);
  const seen = new Set<string>();
  for (const ref of causalRefs) {
    const key = causalRefKey(ref);
    if (seen.has(key)) fail(`${path}.causalRefs`, "contains duplicates");
    seen.add(key);
  }
  for (let index = 1; index < causalRefs.length; index += 1) {
    if (causalRefKey(causalRefs[index - 1] as EventRef) >= causalRefKey(causalRefs[index] as EventRef)) fail(`${path}.causalRefs`, "must be unique and in canonical order");
  }
  if (data.protocolVersion !== DEVELOPER_PROTOCOL) fail(`${path}.protocolVersion`, `expected one of ${DEVELOPER_PROTOCOL}`);
  const eventId = idAt(data.eventId, `${path}.eventId`);
  const workScopeId = idAt(data.workScopeId, `${path}.workScopeId`);
  const occurredAt = timestampAt(data.occurredAt, `${path}.occurredAt`);
  const kind = idAt(data.kind, `${path}.kind`);
  const payload = payloadAt(data.payload, `${path}.payload`, typeof data.eventSha256 === "string" ? parsedText : undefined);
  const parsed: EnvelopeDraft = {
    protocolVersion: DEVELOPER_PROTOCOL,
    eventId,
    workScopeId,
    scopeSequence,
    previousScopeEventSha256,
    causalRefs,
    occurredAt,
    kind,
    payload: payload.json,
  };
  const eventSha256 = shaAt(data.eventSha256, `${path}.eventSha256`);
  if (envelopeSha256WithPayloadText(parsed, payload.text) !== eventSha256) fail(`${path}.eventSha256`, "does not match the canonical event body");
  return { ...parsed, eventSha256 };
}
