// One receipt opened up: the exact canonical bytes its eventSha256 was computed over, and its
// causal refs and previous-scope link resolved to receipt ordinals, so a reader can check the
// hash by hand and follow the chain. Read-only; resolution is against the given projection.
import { canonicalize } from "../ledger/canonicalJson";
import { ENVELOPE_DOMAIN, type Envelope, type EnvelopeDraft } from "../ledger/envelope";
import type { Receipt, ReceiptProjection } from "./receipts";

export interface ReceiptLink {
  readonly workScopeId: string;
  /** Null only for a previous-scope link whose event is not in the projection. */
  readonly eventId: string | null;
  readonly eventSha256: string;
  /** Ordinal of the receipt the link points at, or null when it is not in the projection. */
  readonly ordinal: number | null;
  readonly kind: string | null;
}

export interface ReceiptDetail {
  readonly projectionSha256: string;
  readonly ordinal: number;
  readonly receipt: Receipt;
  /** `{"domain":"developer.event-envelope/v8","value":<envelope minus eventSha256>}`; SHA-256 of its UTF-8 = eventSha256. */
  readonly canonicalJson: string;
  readonly causalRefs: readonly ReceiptLink[];
  readonly previousScopeEvent: ReceiptLink | null;
}

function draftOf(envelope: Envelope): EnvelopeDraft {
  return {
    protocolVersion: envelope.protocolVersion,
    eventId: envelope.eventId,
    workScopeId: envelope.workScopeId,
    scopeSequence: envelope.scopeSequence,
    previousScopeEventSha256: envelope.previousScopeEventSha256,
    causalRefs: envelope.causalRefs,
    occurredAt: envelope.occurredAt,
    kind: envelope.kind,
    payload: envelope.payload,
  };
}

/** The canonical JSON whose SHA-256 is the envelope's eventSha256 (developer/v8 §2.3). */
export function hashedEnvelopeJson(envelope: Envelope): string {
  return canonicalize({ domain: ENVELOPE_DOMAIN, value: draftOf(envelope) });
}

function resolve(projection: ReceiptProjection, workScopeId: string, eventId: string | null, eventSha256: string): ReceiptLink {
  const ordinal = projection.ordinalOf(eventSha256);
  const receipt = ordinal === undefined ? undefined : projection.receipt(ordinal);
  // A ref resolves only when all of its fields name the same accepted event.
  if (
    ordinal === undefined ||
    receipt === undefined ||
    receipt.eventRef.workScopeId !== workScopeId ||
    (eventId !== null && receipt.eventRef.eventId !== eventId)
  ) {
    return { workScopeId, eventId, eventSha256, ordinal: null, kind: null };
  }
  return { workScopeId, eventId: receipt.eventRef.eventId, eventSha256, ordinal, kind: receipt.kind };
}

/** The detail of the receipt of the accepted event with this hash; undefined when unknown. */
export function receiptDetail(projection: ReceiptProjection, eventSha256: string): ReceiptDetail | undefined {
  const ordinal = projection.ordinalOf(eventSha256);
  if (ordinal === undefined) return undefined;
  const receipt = projection.receipt(ordinal);
  const accepted = projection.acceptedEvent(ordinal);
  if (receipt === undefined || accepted === undefined) return undefined;
  const envelope = accepted.envelope;
  const previous = envelope.previousScopeEventSha256;
  return {
    projectionSha256: projection.projectionSha256,
    ordinal,
    receipt,
    canonicalJson: hashedEnvelopeJson(envelope),
    causalRefs: envelope.causalRefs.map((ref) => resolve(projection, ref.workScopeId, ref.eventId, ref.eventSha256)),
    previousScopeEvent: previous === null ? null : resolve(projection, envelope.workScopeId, null, previous),
  };
}
