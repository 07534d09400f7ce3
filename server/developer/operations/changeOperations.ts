// Authorizing a change and recording its landing (§3.3 d and e). The Git observation is done by
// the caller (impure layer); these builders only decide what the ledger must say about it.
import type { HistoryView } from "../history";
import { DocketError } from "../../errors";
import { ErrorCodes } from "../../protocol/messages";
import { createAuthorization, type Authorization } from "../values/authorization";
import { compareCodeUnits } from "../../ledger/canonicalJson";
import { createLanding, type Landing } from "../values/landing";
import type { ScopeState } from "../scopeState";
import { asInvalidParams, BatchChain, notLegal, operationId, requireActiveScope } from "./common";
import type { OperationBatch } from "./judgmentOperations";
import { toJsonPayload } from "./json";

export interface AuthorizeChangeInput {
  readonly movement: string;
  readonly stableLanding: string;
  readonly verificationTarget: string;
}

function requireNoDebt(scope: ScopeState): void {
  const debt = scope.root.debts.find((entry) => entry.reroutePending || entry.verificationPending);
  if (debt !== undefined) {
    notLegal(
      debt.reroutePending
        ? `Landing ${debt.landingId} still needs its reroute judgment (${debt.rerouteFrameId}); open it first.`
        : `Landing ${debt.landingId} still needs its verification judgment (${debt.verificationFrameId}); open and conclude it first.`,
    );
  }
}

export function authorizeChangeBatch(history: HistoryView, input: AuthorizeChangeInput, occurredAt: string): OperationBatch & { authorization: Authorization } {
  const scope = requireActiveScope(history);
  if (scope.root.activeAuthorization !== null) {
    notLegal(`Change ${scope.root.activeAuthorization.authorizationId} is already authorized; record its landing first.`);
  }
  if (scope.frames.some((entry) => entry.conclusion === null)) notLegal("A judgment frame is still open; conclude it before authorizing a change.");
  requireNoDebt(scope);
  // §3.3 d: the latest concluded frame, in opening order (after a full cycle: the verification frame).
  const concluded = [...scope.frames].reverse().find((entry) => entry.conclusion !== null);
  if (concluded === undefined || concluded.conclusion === null) notLegal("No judgment has concluded yet; open and conclude one first.");
  const conclusion = concluded.conclusion;
  return asInvalidParams(() => {
    const authorization = createAuthorization({
      authorizationId: operationId("change", scope, "authorization"),
      frameId: concluded.frame.frameId,
      frameRevision: concluded.frame.frameRevision,
      conclusionSha256: conclusion.conclusionSha256,
      movement: input.movement,
      stableLanding: input.stableLanding,
      verificationTarget: input.verificationTarget,
      // Refinement boundaries are latent in the adapter (§11 item 5); v1 never emits one.
      boundary: null,
    });
    const chain = new BatchChain(scope, occurredAt);
    chain.add("change-authorized", toJsonPayload({ authorization }), [conclusion.eventRef]);
    return { workScopeId: scope.workScopeId, drafts: chain.drafts, authorization };
  });
}

export interface RecordLandingInput {
  /** Already reconciled with the workspace (observed Git delta or declared non-Git paths). */
  readonly changedPaths: readonly string[];
  readonly result: string;
  readonly verification: readonly string[];
  /** The authorization whose baseline the paths were reconciled against, when known. */
  readonly expectedAuthorizationId?: string;
}

/** The authorization a landing must land: the active one, or a coded refusal. */
export function activeAuthorizationOf(history: HistoryView): { scope: ScopeState; authorization: Authorization } {
  const scope = requireActiveScope(history);
  const authorization = scope.root.activeAuthorization;
  if (authorization === null) notLegal("No change is authorized; authorize one before recording a landing.");
  return { scope, authorization };
}

export function recordLandingBatch(history: HistoryView, input: RecordLandingInput, occurredAt: string): OperationBatch & { landing: Landing } {
  const { scope, authorization } = activeAuthorizationOf(history);
  if (input.expectedAuthorizationId !== undefined && input.expectedAuthorizationId !== authorization.authorizationId) {
    // Another writer landed and re-authorized meanwhile: these paths belong to the old baseline.
    notLegal(`The active authorization changed to ${authorization.authorizationId} while the landing was being prepared; try again.`);
  }
  const record = scope.root.authorizations.find((entry) => entry.authorizationId === authorization.authorizationId);
  if (record === undefined) throw new DocketError(ErrorCodes.internal, `Authorization ${authorization.authorizationId} has no recorded event.`);
  return asInvalidParams(() => {
    const landingId = operationId("landing", scope, "landing");
    const landing = createLanding({
      landingId,
      authorizationId: authorization.authorizationId,
      // Both lists are sets recorded in canonical order (§1.1); callers may give any order.
      changedPaths: [...input.changedPaths].sort(compareCodeUnits),
      result: input.result,
      verification: [...new Set(input.verification)].sort(compareCodeUnits),
      rerouteFrameId: operationId("frame", scope, "debt:reroute"),
      verificationFrameId: operationId("frame", scope, "debt:verification"),
    });
    const chain = new BatchChain(scope, occurredAt);
    chain.add("implementation-landing-recorded", toJsonPayload({ landing }), [record.eventRef]);
    return { workScopeId: scope.workScopeId, drafts: chain.drafts, landing };
  });
}
