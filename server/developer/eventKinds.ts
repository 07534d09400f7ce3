// The eighteen developer/v8 event kinds (§3.2) and their semantic payload parsing.
import { hashValue } from "../ledger/canonicalJson";
import type { Envelope } from "../ledger/envelope";
import { stop } from "../ledger/faults";
import { ValueError, exactKeys, isRecord, objectAt, shaAt, textAt } from "../ledger/values";

export const EVENT_KINDS = [
  "work-scope-opened",
  "work-scope-closed",
  "change-authorized",
  "implementation-landing-recorded",
  "route-frame-opened",
  "route-frame-replaced",
  "routing-snapshot-opened",
  "routing-page-accounted",
  "routing-coverage-completed",
  "can-serve-basis-created",
  "ready-assignment-recorded",
  "skill-invocation-started",
  "invocation-settled",
  "support-observed",
  "frame-contribution-admitted",
  "frame-blocker-resolved",
  "obligation-discharged",
  "route-frame-concluded",
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export function isEventKind(value: string): value is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(value);
}

export const SCOPE_CLOSURE_DOMAIN = "developer/v8/scope-closure";

export interface ScopeClosure {
  readonly reason: string;
  readonly reasonSha256: string;
}

export function createScopeClosure(reason: string): ScopeClosure {
  const exact = textAt(reason, "closure.reason");
  return { reason: exact, reasonSha256: hashValue({ domain: SCOPE_CLOSURE_DOMAIN, reason: exact }) };
}

export function parseScopeClosure(value: unknown): ScopeClosure {
  const data = objectAt(value, "closure");
  exactKeys(data, "closure", ["reason", "reasonSha256"]);
  const closure = createScopeClosure(data.reason as string);
  if (closure.reasonSha256 !== shaAt(data.reasonSha256, "closure.reasonSha256")) {
    throw new ValueError("closure hash mismatch");
  }
  return closure;
}

export type SemanticEvent =
  | { readonly kind: "work-scope-opened" }
  | { readonly kind: "work-scope-closed"; readonly closure: ScopeClosure }
  /** A known kind whose reducer arrives with the Developer runtime; replay rejects it. */
  | { readonly kind: "not-yet-supported"; readonly eventKind: EventKind };

function payloadKeys(payload: Record<string, unknown>, path: string, keys: readonly string[]): void {
  const actual = Object.keys(payload);
  if (actual.length !== keys.length || keys.some((key) => !(key in payload)) || actual.some((key) => !keys.includes(key))) {
    stop("invalid-payload", `${path} has an invalid representation`);
  }
}

/** Semantic parse by kind (§7.2 step 4): `unknown-event-kind` or `invalid-payload`. */
export function parseSemanticEvent(envelope: Envelope): SemanticEvent {
  const path = `${envelope.kind}.payload`;
  if (!isRecord(envelope.payload)) return stop("invalid-payload", `${path} must be an object`);
  const payload = envelope.payload as Record<string, unknown>;
  if (!isEventKind(envelope.kind)) {
    return stop("unknown-event-kind", `Unknown Developer v8 event kind: ${envelope.kind}`);
  }
  switch (envelope.kind) {
    case "work-scope-opened":
      payloadKeys(payload, path, []);
      return { kind: "work-scope-opened" };
    case "work-scope-closed":
      payloadKeys(payload, path, ["closure"]);
      try {
        return { kind: "work-scope-closed", closure: parseScopeClosure(payload.closure) };
      } catch (error) {
        return stop("invalid-payload", error instanceof Error ? error.message : "invalid closure");
      }
    default:
      return { kind: "not-yet-supported", eventKind: envelope.kind };
  }
}
