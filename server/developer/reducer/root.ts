// Root transitions (§3.2 events 2–4, §6.4): closure, authorization, landing, and the landing
// debts that a reroute frame's opening and a verification frame's conclusion clear.
import type { EventRef } from "../../ledger/envelope";
import { stop } from "../../ledger/faults";
import type { ScopeClosure } from "../eventKinds";
import type { ScopeState } from "../scopeState";
import type { Authorization } from "../values/authorization";
import { createLandingDebt, type Landing } from "../values/landing";
import type { CauseFact } from "./causes";
import { cites, reject } from "./transition";

/** The only route whose conclusion can pay a verification debt. */
export const VERIFICATION_ROUTE_ID = "route:claim-evidence-assessment";

export function closeScope(scope: ScopeState, closure: ScopeClosure, closedAt: string): ScopeState {
  // Open frames and pending debts deliberately do not block closure (the reference allows it).
  if (scope.root.activeAuthorization !== null || scope.activeInvocation !== null) {
    reject("scope-close-blocked", "Runtime scope cannot close with active authorization or invocation");
  }
  return { ...scope, root: { ...scope.root, status: "closed", closure, activeAuthorization: null }, closedAt };
}

/** Event 3: the cause must be this scope's conclusion of the authorized frame, with that hash. */
export function authorizeChange(scope: ScopeState, authorization: Authorization, facts: readonly CauseFact[], eventRef: EventRef): ScopeState {
  const caused = facts.some(
    (fact) =>
      fact.kind === "conclusion" &&
      fact.ref.workScopeId === scope.workScopeId &&
      fact.frameId === authorization.frameId &&
      fact.conclusionSha256 === authorization.conclusionSha256,
  );
  if (!caused) stop("source-causality-missing", "Runtime authorization lacks its exact frame conclusion cause");
  const root = scope.root;
  if (
    root.activeAuthorization !== null ||
    root.landings.some((landing) => landing.authorizationId === authorization.authorizationId) ||
    root.debts.some((debt) => debt.reroutePending || debt.verificationPending) ||
    scope.activeInvocation !== null ||
    scope.frames.some((entry) => entry.conclusion === null)
  ) {
    reject("authorization-blocked", "Runtime authorization requires settled frames, invocation, and landing debt");
  }
  const frame = scope.frames.find((entry) => entry.frame.frameId === authorization.frameId);
  if (
    frame === undefined ||
    frame.frame.frameRevision !== authorization.frameRevision ||
    frame.conclusion?.conclusionSha256 !== authorization.conclusionSha256
  ) {
    reject("authorization-stale", "Runtime authorization does not match a current frame conclusion");
  }
  return {
    ...scope,
    root: {
      ...root,
      activeAuthorization: authorization,
      authorizations: [...root.authorizations, { authorizationId: authorization.authorizationId, eventRef }],
    },
  };
}

/** Event 4: a landing clears the authorization and leaves both debts pending. */
export function recordLanding(scope: ScopeState, landing: Landing, facts: readonly CauseFact[], eventRef: EventRef): ScopeState {
  const root = scope.root;
  const caused = facts.some(
    (fact) => fact.kind === "authorization" && fact.ref.workScopeId === scope.workScopeId && fact.authorizationId === landing.authorizationId,
  );
  if (!caused) stop("source-causality-missing", "Runtime landing lacks its exact authorization cause");
  if (root.activeAuthorization === null) return reject("landing-blocked", "Runtime landing requires an active authorization");
  if (
    root.activeAuthorization.authorizationId !== landing.authorizationId ||
    scope.frames.some((entry) => entry.frame.frameId === landing.rerouteFrameId || entry.frame.frameId === landing.verificationFrameId)
  ) {
    reject("landing-stale", "Runtime landing does not match current authorization or debt identities");
  }
  return {
    ...scope,
    root: {
      ...root,
      activeAuthorization: null,
      landings: [...root.landings, landing],
      debts: [...root.debts, createLandingDebt(landing, eventRef)],
    },
  };
}

/** After event 5: opening the reroute frame pays the reroute debt, if it cites the landing. */
export function observeFrameOpened(scope: ScopeState, frameId: string, causes: readonly EventRef[]): ScopeState {
  const debts = scope.root.debts.map((debt) => {
    if (!debt.reroutePending || debt.rerouteFrameId !== frameId) return debt;
    if (!cites(causes, debt.landingEventRef)) reject("debt-causality-mismatch", "Reroute frame lacks the exact landing cause");
    return { ...debt, reroutePending: false };
  });
  return { ...scope, root: { ...scope.root, debts } };
}

/** After event 18: concluding the verification frame on claim-evidence assessment pays that debt. */
export function observeFrameConcluded(scope: ScopeState, frameId: string, causes: readonly EventRef[]): ScopeState {
  const frame = scope.frames.find((entry) => entry.frame.frameId === frameId);
  if (frame === undefined || frame.conclusion === null) return reject("invalid-input", "Verification debt requires a concluded frame");
  const debts = scope.root.debts.map((debt) => {
    if (!debt.verificationPending || debt.verificationFrameId !== frameId) return debt;
    if (frame.frame.routeDefinitionId !== VERIFICATION_ROUTE_ID) {
      reject("verification-route-mismatch", "Verification debt requires claim-evidence assessment Route");
    }
    if (!cites(causes, debt.landingEventRef)) reject("debt-causality-mismatch", "Verification conclusion lacks the exact landing cause");
    return { ...debt, verificationPending: false };
  });
  return { ...scope, root: { ...scope.root, debts } };
}
