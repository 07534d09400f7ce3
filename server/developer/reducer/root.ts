// Root transitions (§3.2 events 2–4, §6.4): closure, authorization, landing, and the landing
// debts that a reroute frame's opening and a verification frame's conclusion clear.
import type { EventRef } from "../../ledger/envelope";
import { stop } from "../../ledger/faults";
import type { ScopeClosure } from "../eventKinds";
import type { Authorization } from "../values/authorization";
import { createLandingDebt, type Landing } from "../values/landing";
import type { CauseFact } from "./causes";
import type { LiveScope } from "./liveScope";
import { cites, reject } from "./transition";

/** The only route whose conclusion can pay a verification debt. */
export const VERIFICATION_ROUTE_ID = "route:claim-evidence-assessment";

export function closeScope(scope: LiveScope, closure: ScopeClosure, closedAt: string): void {
  // Open frames and pending debts deliberately do not block closure (the reference allows it).
  if (scope.activeAuthorization !== null || scope.activeInvocation !== null) {
    reject("scope-close-blocked", "Runtime scope cannot close with active authorization or invocation");
  }
  scope.close(closure, closedAt);
}

/** Event 3: the cause must be this scope's conclusion of the authorized frame, with that hash. */
export function authorizeChange(scope: LiveScope, authorization: Authorization, facts: readonly CauseFact[], eventRef: EventRef): void {
  const caused = facts.some(
    (fact) =>
      fact.kind === "conclusion" &&
      fact.ref.workScopeId === scope.workScopeId &&
      fact.frameId === authorization.frameId &&
      fact.conclusionSha256 === authorization.conclusionSha256,
  );
  if (!caused) stop("source-causality-missing", "Runtime authorization lacks its exact frame conclusion cause");
  if (
    scope.activeAuthorization !== null ||
    scope.landings.has(authorization.authorizationId) ||
    scope.hasPendingDebt() ||
    scope.activeInvocation !== null ||
    scope.hasOpenFrame()
  ) {
    reject("authorization-blocked", "Runtime authorization requires settled frames, invocation, and landing debt");
  }
  const frame = scope.frame(authorization.frameId);
  if (
    frame === undefined ||
    frame.frame.frameRevision !== authorization.frameRevision ||
    frame.conclusion?.conclusionSha256 !== authorization.conclusionSha256
  ) {
    reject("authorization-stale", "Runtime authorization does not match a current frame conclusion");
  }
  scope.setActiveAuthorization(authorization);
  scope.addAuthorization({ authorizationId: authorization.authorizationId, eventRef });
}

/** Event 4: a landing clears the authorization and leaves both debts pending. */
export function recordLanding(scope: LiveScope, landing: Landing, facts: readonly CauseFact[], eventRef: EventRef): void {
  const caused = facts.some(
    (fact) => fact.kind === "authorization" && fact.ref.workScopeId === scope.workScopeId && fact.authorizationId === landing.authorizationId,
  );
  if (!caused) stop("source-causality-missing", "Runtime landing lacks its exact authorization cause");
  const active = scope.activeAuthorization;
  if (active === null) return reject("landing-blocked", "Runtime landing requires an active authorization");
  if (active.authorizationId !== landing.authorizationId || scope.frames.has(landing.rerouteFrameId) || scope.frames.has(landing.verificationFrameId)) {
    reject("landing-stale", "Runtime landing does not match current authorization or debt identities");
  }
  const debt = createLandingDebt(landing, eventRef);
  scope.setActiveAuthorization(null);
  scope.addLanding(landing);
  scope.addDebt(debt);
}

/** After event 5: opening the reroute frame pays the reroute debt, if it cites the landing. */
export function observeFrameOpened(scope: LiveScope, frameId: string, causes: readonly EventRef[]): void {
  for (const { key, debt } of scope.pendingDebtEntries()) {
    if (!debt.reroutePending || debt.rerouteFrameId !== frameId) continue;
    if (!cites(causes, debt.landingEventRef)) reject("debt-causality-mismatch", "Reroute frame lacks the exact landing cause");
    scope.updateDebt(key, { ...debt, reroutePending: false });
  }
}

/** After event 18: concluding the verification frame on claim-evidence assessment pays that debt. */
export function observeFrameConcluded(scope: LiveScope, frameId: string, causes: readonly EventRef[]): void {
  const frame = scope.frame(frameId);
  if (frame === undefined || frame.conclusion === null) return reject("invalid-input", "Verification debt requires a concluded frame");
  for (const { key, debt } of scope.pendingDebtEntries()) {
    if (!debt.verificationPending || debt.verificationFrameId !== frameId) continue;
    if (frame.frame.routeDefinitionId !== VERIFICATION_ROUTE_ID) {
      reject("verification-route-mismatch", "Verification debt requires claim-evidence assessment Route");
    }
    if (!cites(causes, debt.landingEventRef)) reject("debt-causality-mismatch", "Verification conclusion lacks the exact landing cause");
    scope.updateDebt(key, { ...debt, verificationPending: false });
  }
}
