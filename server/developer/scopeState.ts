// Per-scope reducer state (§3.1). The root part tracks open/closed; the frame, authorization and
// invocation parts are filled in by the Developer runtime and start empty here.
import type { EventRef } from "../ledger/envelope";
import type { ScopeClosure } from "./eventKinds";

export interface RootState {
  readonly status: "open" | "closed";
  readonly closure: ScopeClosure | null;
  /** Set by `change-authorized`; cleared by a landing. */
  readonly activeAuthorization: { readonly authorizationId: string } | null;
}

export interface ScopeState {
  readonly workScopeId: string;
  readonly head: { readonly scopeSequence: number; readonly eventRef: EventRef };
  readonly root: RootState;
  /** At most one active skill invocation per scope. */
  readonly activeInvocation: { readonly invocationId: string } | null;
  /** Audit-only timestamps of the opening and closing events (never used for ordering). */
  readonly openedAt: string;
  readonly openedEventSha256: string;
  readonly closedAt: string | null;
}
