// What the cited causes of an event prove (§2.4, §3.2 "cause required" rules). A cause is an
// accepted event; the reference matches on the cause's kind and payload, and for support,
// settlement and conclusion causes it does not require the cause to be in the same scope.
// The replay driver may hand over the resolved cause events; without them, causes are looked
// up among the records of the current scope (so a cause in another scope then proves nothing).
import { eventRefOf, type Envelope, type EventRef } from "../../ledger/envelope";
import type { SemanticEvent } from "../eventKinds";
import { conclusionSha256 } from "../values/conclusions";
import type { ObservedSupport } from "../values/contributions";
import type { InvocationSettlement } from "../values/skills";
import type { LiveScope } from "./liveScope";
import { sameRef } from "./transition";

/** A resolved, already accepted cause event. */
export interface CauseEvent {
  readonly envelope: Envelope;
  readonly event: SemanticEvent;
}

export type CauseFact =
  | { readonly kind: "support"; readonly ref: EventRef; readonly support: ObservedSupport }
  | { readonly kind: "settlement"; readonly ref: EventRef; readonly settlement: InvocationSettlement }
  | { readonly kind: "conclusion"; readonly ref: EventRef; readonly frameId: string; readonly conclusionSha256: string }
  | { readonly kind: "authorization"; readonly ref: EventRef; readonly authorizationId: string }
  | { readonly kind: "other"; readonly ref: EventRef };

export function factOfEvent(cause: CauseEvent): CauseFact {
  const ref = eventRefOf(cause.envelope);
  const event = cause.event;
  switch (event.kind) {
    case "support-observed":
      return { kind: "support", ref, support: event.support };
    case "invocation-settled":
      return { kind: "settlement", ref, settlement: event.settlement };
    case "route-frame-concluded":
      return { kind: "conclusion", ref, frameId: event.proposal.frameId, conclusionSha256: conclusionSha256(event.proposal) };
    case "change-authorized":
      return { kind: "authorization", ref, authorizationId: event.authorization.authorizationId };
    default:
      return { kind: "other", ref };
  }
}

/**
 * Finds what the scope recorded for a cited ref (the fallback when no cause events are given; the
 * replay drivers always give them, so this linear search is off their path).
 */
function factInScope(scope: LiveScope, ref: EventRef): CauseFact {
  const support = scope.supports.values().find((entry) => sameRef(entry.eventRef, ref));
  if (support !== undefined) return { kind: "support", ref, support };
  const settled = scope.settlements.values().find((entry) => sameRef(entry.eventRef, ref));
  if (settled !== undefined) return { kind: "settlement", ref, settlement: settled.settlement };
  const concluded = scope.frames.values().find((entry) => entry.conclusion !== null && sameRef(entry.conclusion.eventRef, ref));
  if (concluded?.conclusion != null) {
    return { kind: "conclusion", ref, frameId: concluded.frame.frameId, conclusionSha256: concluded.conclusion.conclusionSha256 };
  }
  const authorized = scope.authorizations.values().find((entry) => sameRef(entry.eventRef, ref));
  if (authorized !== undefined) return { kind: "authorization", ref, authorizationId: authorized.authorizationId };
  return { kind: "other", ref };
}

export function causeFacts(scope: LiveScope, causalRefs: readonly EventRef[], given: readonly CauseFact[] | undefined): readonly CauseFact[] {
  return given ?? causalRefs.map((ref) => factInScope(scope, ref));
}
