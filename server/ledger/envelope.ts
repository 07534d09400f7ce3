// The persisted developer/v8 event envelope (§2): strict parse with every rejection rule, and
// creation from a draft. Parse recomputes eventSha256 and rejects drift.
import { MAX_JSON_DEPTH, canonicalJson, compareCodeUnits, hashValue, nestsDeeperThan, sha256Hex, toJsonValue, utf8Length, type JsonValue } from "./canonicalJson";
import {
  MAX_PAYLOAD_BYTES,
  arrayAt,
  exactKeys,
  fail,
  idAt,
  integerAt,
  objectAt,
  shaAt,
  timestampAt,
} from "./values";

export const DEVELOPER_PROTOCOL = "developer/v8";
export const ENVELOPE_DOMAIN = "developer.event-envelope/v8";
export const MAX_SCOPE_SEQUENCE = 1_000_000_000;

export interface EventRef {
  readonly workScopeId: string;
  readonly eventId: string;
  readonly eventSha256: string;
}

export interface EnvelopeDraft {
  readonly protocolVersion: typeof DEVELOPER_PROTOCOL;
  readonly eventId: string;
  readonly workScopeId: string;
  readonly scopeSequence: number;
  readonly previousScopeEventSha256: string | null;
  readonly causalRefs: readonly EventRef[];
  readonly occurredAt: string;
  readonly kind: string;
  readonly payload: JsonValue;
}

export interface Envelope extends EnvelopeDraft {
  readonly eventSha256: string;
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

/** The ordering key for causal refs (colon-joined, compared by code units). */
export function causalRefKey(ref: EventRef): string {
  return `${ref.workScopeId}:${ref.eventId}:${ref.eventSha256}`;
}

export function compareCausalRefs(left: EventRef, right: EventRef): number {
  const a = causalRefKey(left);
  const b = causalRefKey(right);
  return compareCodeUnits(a, b);
}

export function eventRefOf(envelope: Envelope): EventRef {
  return { workScopeId: envelope.workScopeId, eventId: envelope.eventId, eventSha256: envelope.eventSha256 };
}

export function parseEventRef(value: unknown, path: string): EventRef {
  const data = objectAt(value, path);
  exactKeys(data, path, ["workScopeId", "eventId", "eventSha256"]);
  return {
    workScopeId: idAt(data.workScopeId, `${path}.workScopeId`),
    eventId: idAt(data.eventId, `${path}.eventId`),
    eventSha256: shaAt(data.eventSha256, `${path}.eventSha256`),
  };
}

const PAYLOAD_MEMBER = ',"payload":';
const AFTER_PAYLOAD_MEMBER = ',"previousScopeEventSha256":';

/**
 * The payload's canonical text cut out of the whole envelope's canonical text, when the value is
 * JSON.parse output the caller hands over with its canonical text (a ledger line it just verified):
 * then the payload needs no copy and no second serialization. Undefined when that cannot apply.
 * Every other member is a validated string, ref list, null, sha or integer, so the first
 * `,"payload":` and the last `,"previousScopeEventSha256":` are the payload's own bounds.
 */
function payloadTextWithin(envelopeText: string, value: unknown): string | undefined {
  const start = envelopeText.indexOf(PAYLOAD_MEMBER);
  const end = envelopeText.lastIndexOf(AFTER_PAYLOAD_MEMBER);
  if (start < 0 || end < start) return undefined;
  const text = envelopeText.slice(start + PAYLOAD_MEMBER.length, end);
  // Nesting past toJsonValue's limit needs at least two characters per level; such a payload takes
  // the general path, which refuses it with its own message.
  if (text.length > 2 * MAX_JSON_DEPTH && nestsDeeperThan(value, MAX_JSON_DEPTH)) return undefined;
  return text;
}

function payloadAt(value: unknown, path: string, parsedText?: string): { json: JsonValue; text: string } {
  const text = parsedText === undefined ? undefined : payloadTextWithin(parsedText, value);
  if (text !== undefined) {
    // A UTF-16 code unit takes at most 3 UTF-8 bytes, so a short text needs no byte count.
    if (text.length * 3 > MAX_PAYLOAD_BYTES && utf8Length(text) > MAX_PAYLOAD_BYTES) fail(path, "JSON value exceeds its byte limit");
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

export function envelopeSha256(draft: EnvelopeDraft): string {
  return hashValue({ domain: ENVELOPE_DOMAIN, value: draft });
}

// Same bytes as envelopeSha256 (canonical JSON written out around the payload's canonical text,
// keys in code-unit order), so parsing canonicalizes each payload once. The golden-vector tests
// pin both to the reference hashes.
function envelopeSha256WithPayloadText(draft: EnvelopeDraft, payloadText: string): string {
  const refs = draft.causalRefs
    .map((ref) => `{"eventId":${JSON.stringify(ref.eventId)},"eventSha256":${JSON.stringify(ref.eventSha256)},"workScopeId":${JSON.stringify(ref.workScopeId)}}`)
    .join(",");
  const previous = draft.previousScopeEventSha256 === null ? "null" : JSON.stringify(draft.previousScopeEventSha256);
  return sha256Hex(
    `{"domain":${JSON.stringify(ENVELOPE_DOMAIN)},"value":{"causalRefs":[${refs}],"eventId":${JSON.stringify(draft.eventId)},"kind":${JSON.stringify(draft.kind)},"occurredAt":${JSON.stringify(draft.occurredAt)},"payload":${payloadText},"previousScopeEventSha256":${previous},"protocolVersion":${JSON.stringify(draft.protocolVersion)},"scopeSequence":${draft.scopeSequence},"workScopeId":${JSON.stringify(draft.workScopeId)}}}`,
  );
}

const ENVELOPE_HASH_OPENING = `{"domain":${JSON.stringify(ENVELOPE_DOMAIN)},"value":`;

/**
 * The text envelopeSha256 hashes, cut out of the whole envelope's canonical text (`parsedText`,
 * see parseEnvelope) instead of written again: the hashed draft is the envelope without its
 * eventSha256 member, with every other member the very value the text holds, so its canonical
 * text is the envelope's with that member removed. Undefined when the member is not found (the
 * caller then writes the text out). Every member before it is validated (refs and ids hold no
 * quote), and a ref's own eventSha256 is followed by its workScopeId, never by `kind`, so the first
 * match is the envelope's member.
 */
function hashedTextWithin(parsedText: string, eventSha256: string): string | undefined {
  const member = `,"eventSha256":"${eventSha256}"`;
  const at = parsedText.indexOf(`${member},"kind":`);
  if (at < 0) return undefined;
  return `${ENVELOPE_HASH_OPENING}${parsedText.slice(0, at)}${parsedText.slice(at + member.length)}}`;
}

/** Whether the refs' keys strictly ascend by code units (which implies they are unique). */
function isStrictlyAscending(refs: readonly EventRef[]): boolean {
  let previous: string | null = null;
  for (const ref of refs) {
    const key = causalRefKey(ref);
    if (previous !== null && previous >= key) return false;
    previous = key;
  }
  return true;
}

/**
 * Strictly parses a stored envelope. Throws ValueError describing the first violation.
 * `parsedText`: only for a value that is JSON.parse output handed over for good, its canonical
 * JSON text (a ledger line's entry, proven canonical by decodeLedgerLine); the envelope then keeps
 * that value's payload as is, and the texts the payload's byte limit and the event hash read are
 * cut out of it.
 */
export function parseEnvelope(value: unknown, path = "developerEventEnvelope", parsedText?: string): Envelope {
  const data = objectAt(value, path);
  exactKeys(data, path, ENVELOPE_KEYS);
  const scopeSequence = integerAt(data.scopeSequence, `${path}.scopeSequence`, { max: MAX_SCOPE_SEQUENCE });
  const previousScopeEventSha256 =
    data.previousScopeEventSha256 === null
      ? null
      : shaAt(data.previousScopeEventSha256, `${path}.previousScopeEventSha256`);
  if (scopeSequence === 0 && previousScopeEventSha256 !== null) {
    fail(`${path}.previousScopeEventSha256`, "must be null for the first scope event");
  }
  if (scopeSequence > 0 && previousScopeEventSha256 === null) {
    fail(`${path}.previousScopeEventSha256`, "is required after the first scope event");
  }
  const causalRefs = arrayAt(data.causalRefs, `${path}.causalRefs`, parseEventRef);
  if (!isStrictlyAscending(causalRefs)) {
    // Only an unordered list needs the duplicate check: strictly ascending keys are unique. It
    // runs first so that a duplicate is reported as such.
    const seen = new Set<string>();
    for (const ref of causalRefs) {
      const key = causalRefKey(ref);
      if (seen.has(key)) fail(`${path}.causalRefs`, "contains duplicates");
      seen.add(key);
    }
    fail(`${path}.causalRefs`, "must be unique and in canonical order");
  }
  if (data.protocolVersion !== DEVELOPER_PROTOCOL) {
    fail(`${path}.protocolVersion`, `expected one of ${DEVELOPER_PROTOCOL}`);
  }
  // Fields are checked in the reference's order so the first reported violation matches.
  const eventId = idAt(data.eventId, `${path}.eventId`);
  const workScopeId = idAt(data.workScopeId, `${path}.workScopeId`);
  const occurredAt = timestampAt(data.occurredAt, `${path}.occurredAt`);
  const kind = idAt(data.kind, `${path}.kind`);
  // The cut-out needs every member before the payload to be a string or a ref list (checked above).
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
  const hashedText = parsedText === undefined ? undefined : hashedTextWithin(parsedText, eventSha256);
  const computed = hashedText === undefined ? envelopeSha256WithPayloadText(parsed, payload.text) : sha256Hex(hashedText);
  if (computed !== eventSha256) {
    fail(`${path}.eventSha256`, "does not match the canonical event body");
  }
  // Written out, not spread: V8 gives every object built by `{ ...parsed, eventSha256 }` a map of
  // its own, which costs each of the (retained) envelopes hundreds of bytes and makes every
  // envelope field access megamorphic.
  return {
    protocolVersion: parsed.protocolVersion,
    eventId,
    workScopeId,
    scopeSequence,
    previousScopeEventSha256,
    causalRefs,
    occurredAt,
    kind,
    payload: payload.json,
    eventSha256,
  };
}

/** Builds a hashed envelope from a draft and re-parses it, so creation obeys every parse rule. */
export function createEnvelope(draft: EnvelopeDraft): Envelope {
  return parseEnvelope({ ...draft, eventSha256: envelopeSha256(draft) });
}
