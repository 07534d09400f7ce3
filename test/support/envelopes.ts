// Builders for hand-made developer/v8 logs used across tests.
import { createEnvelope, envelopeSha256, type Envelope, type EnvelopeDraft, type EventRef } from "../../server/ledger/envelope";
import { createScopeClosure } from "../../server/developer/eventKinds";

export function sha(character: string): string {
  return character.repeat(64);
}

let clockSeconds = 0;
function nextTime(): string {
  clockSeconds += 1;
  return new Date(Date.UTC(2030, 0, 1, 0, 0, clockSeconds)).toISOString();
}

export function openScope(workScopeId: string, eventId = `event:${workScopeId.replace(/^scope:/u, "")}-open`): Envelope {
  return createEnvelope({
    protocolVersion: "developer/v8",
    eventId,
    workScopeId,
    scopeSequence: 0,
    previousScopeEventSha256: null,
    causalRefs: [],
    occurredAt: nextTime(),
    kind: "work-scope-opened",
    payload: {},
  });
}

export function next(
  previous: Envelope,
  kind: string,
  payload: EnvelopeDraft["payload"],
  overrides: Partial<EnvelopeDraft> = {},
): Envelope {
  return createEnvelope({
    protocolVersion: "developer/v8",
    eventId: `event:${previous.workScopeId.replace(/^scope:/u, "")}-${previous.scopeSequence + 1}`,
    workScopeId: previous.workScopeId,
    scopeSequence: previous.scopeSequence + 1,
    previousScopeEventSha256: previous.eventSha256,
    causalRefs: [],
    occurredAt: nextTime(),
    kind,
    payload,
    ...overrides,
  });
}

export function closeScope(previous: Envelope, reason = "User disabled Developer.", overrides: Partial<EnvelopeDraft> = {}): Envelope {
  const closure = createScopeClosure(reason);
  return next(previous, "work-scope-closed", { closure: { reason: closure.reason, reasonSha256: closure.reasonSha256 } }, overrides);
}

export function refOf(envelope: Envelope): EventRef {
  return { workScopeId: envelope.workScopeId, eventId: envelope.eventId, eventSha256: envelope.eventSha256 };
}

/** Re-hashes an edited envelope body so only the intended rule is violated. */
export function rehash(body: Omit<Envelope, "eventSha256"> & Record<string, unknown>): Record<string, unknown> {
  const { eventSha256: _ignored, ...draft } = body as Record<string, unknown>;
  return { ...draft, eventSha256: envelopeSha256(draft as unknown as EnvelopeDraft) };
}
