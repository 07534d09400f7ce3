// Opening and concluding a judgment frame (§3.3 a and c) on the zero-owner path: no Skill owns
// the frame, so no routing, assignment or invocation events are emitted.
import { hashValue } from "../../ledger/canonicalJson";
import type { EnvelopeDraft, EventRef } from "../../ledger/envelope";
import { DocketError } from "../../errors";
import { ErrorCodes } from "../../protocol/messages";
import type { HistoryView } from "../history";
import { findRouteDefinition } from "../routes";
import type { FrameState, ScopeState } from "../scopeState";
import { EMPTY_BLOCKER_SET_SHA256 } from "../values/blockers";
import { compareCodeUnits } from "../../ledger/canonicalJson";
import { createConclusionProposal } from "../values/conclusions";
import { proposalSha256, type ProposalBody } from "../values/contributions";
import { createObligation, type Obligation } from "../values/obligations";
import { createRouteFrame, type RouteFrame } from "../values/routeFrame";
import { toJsonPayload } from "./json";
import { asInvalidParams, BatchChain, derivedPurpose, notLegal, operationId, requireActiveScope, type DecisionPurpose } from "./common";

export const VERIFICATION_ROUTE_ID = "route:claim-evidence-assessment";
export const MAX_OBLIGATIONS = 100;
export const MAX_BASIS_ENTRIES = 32;

export interface OpenJudgmentInput {
  /** Optional echo of the derived purpose; when given it must match (§11 item 6: never required). */
  readonly purpose?: DecisionPurpose;
  readonly routeDefinitionId: string;
  readonly question: string;
  readonly obligations: readonly { readonly obligationId: string; readonly statement: string }[];
}

export interface OperationBatch {
  readonly workScopeId: string;
  readonly drafts: EnvelopeDraft[];
}

function openFrameOf(scope: ScopeState): FrameState | undefined {
  return scope.frames.find((entry) => entry.conclusion === null);
}

/** The pending debt whose frame this purpose opens, with the landing event it must cite. */
function debtFor(scope: ScopeState, purpose: DecisionPurpose): { frameId: string; landingEventRef: EventRef } | null {
  if (purpose === "reroute-decision") {
    const debt = scope.root.debts.find((entry) => entry.reroutePending);
    return debt === undefined ? null : { frameId: debt.rerouteFrameId, landingEventRef: debt.landingEventRef };
  }
  if (purpose === "verification-decision") {
    const debt = scope.root.debts.find((entry) => entry.verificationPending);
    return debt === undefined ? null : { frameId: debt.verificationFrameId, landingEventRef: debt.landingEventRef };
  }
  return null;
}

export function openJudgmentBatch(history: HistoryView, input: OpenJudgmentInput, occurredAt: string): OperationBatch & { frameId: string; purpose: DecisionPurpose } {
  const scope = requireActiveScope(history);
  if (scope.root.activeAuthorization !== null) notLegal("A change is authorized; record its landing before opening another judgment.");
  const open = openFrameOf(scope);
  if (open !== undefined) notLegal(`Judgment frame ${open.frame.frameId} is still open; conclude it first.`);
  const purpose = derivedPurpose(scope);
  if (input.purpose !== undefined && input.purpose !== purpose) {
    throw new DocketError(ErrorCodes.purposeMismatch, `The current decision purpose is ${purpose}, not ${input.purpose}.`);
  }
  const route = findRouteDefinition(input.routeDefinitionId);
  if (route === undefined) throw new DocketError(ErrorCodes.unknownRoute, `${input.routeDefinitionId} is not a route in the stable catalogue.`);
  // Checked at open (§11 item 6): a verification frame on another route could never conclude.
  if (purpose === "verification-decision" && route.routeDefinitionId !== VERIFICATION_ROUTE_ID) {
    throw new DocketError(
      ErrorCodes.verificationRouteRequired,
      `The verification judgment must use ${VERIFICATION_ROUTE_ID}; ${route.routeDefinitionId} could never conclude it.`,
    );
  }
  if (input.obligations.length < 1 || input.obligations.length > MAX_OBLIGATIONS) {
    throw new DocketError(ErrorCodes.invalidParams, `A judgment needs 1 to ${MAX_OBLIGATIONS} obligations (got ${input.obligations.length}).`);
  }
  const debt = debtFor(scope, purpose);
  const frameId = debt?.frameId ?? operationId("frame", scope, "judgment-frame");
  const { frame, obligations } = asInvalidParams(() => {
    const built: Obligation[] = input.obligations.map((entry) => createObligation({ obligationId: entry.obligationId, frameId, statement: entry.statement }));
    const routeFrame = createRouteFrame(
      {
        frameId,
        frameRevision: 0,
        workScopeId: scope.workScopeId,
        parentFrameId: null,
        routeDefinitionId: route.routeDefinitionId,
        routeDefinitionRevisionSha256: route.revisionSha256,
        exactQuestion: input.question,
      },
      built,
    );
    return { frame: routeFrame, obligations: [...built].sort((left, right) => compareCodeUnits(left.obligationId, right.obligationId)) };
  });
  const chain = new BatchChain(scope, occurredAt);
  chain.add("route-frame-opened", toJsonPayload({ frame, obligations, parentDependency: null }), debt === null ? [] : [debt.landingEventRef]);
  return { workScopeId: scope.workScopeId, drafts: chain.drafts, frameId, purpose };
}

export type ConcludeJudgmentInput =
  | { readonly disposition: "not-applicable"; readonly reason: string; readonly basis: readonly string[] }
  | {
      readonly disposition: "judgment";
      readonly outcome:
        | { readonly kind: "contextual-judgment"; readonly rationale: string; readonly artifact: string; readonly stopEvidence: readonly string[] }
        | { readonly kind: "needs-evidence"; readonly evidenceNeeded: readonly string[]; readonly resolutionOwner: string };
    };

function checkTextList(values: readonly string[], what: string): void {
  if (values.length < 1 || values.length > MAX_BASIS_ENTRIES) {
    throw new DocketError(ErrorCodes.invalidParams, `${what} needs 1 to ${MAX_BASIS_ENTRIES} entries (got ${values.length}).`);
  }
  if (new Set(values).size !== values.length) throw new DocketError(ErrorCodes.invalidParams, `${what} repeats an entry.`);
}

/** The landing a pending verification frame must cite when it concludes (§6.4). */
function verificationCause(scope: ScopeState, frameId: string): EventRef[] {
  const debt = scope.root.debts.find((entry) => entry.verificationPending && entry.verificationFrameId === frameId);
  return debt === undefined ? [] : [debt.landingEventRef];
}

export function concludeJudgmentBatch(history: HistoryView, input: ConcludeJudgmentInput, occurredAt: string): OperationBatch & { frameId: string } {
  const scope = requireActiveScope(history);
  const state = openFrameOf(scope);
  if (state === undefined) notLegal("No judgment frame is open; open one first.");
  if (scope.activeInvocation !== null) {
    // The zero-owner path never starts invocations; a replayed log with one needs the owner path.
    notLegal(`Invocation ${scope.activeInvocation.invocationId} is active; only the owning Skill's settlement can conclude this frame.`);
  }
  const frame: RouteFrame = state.frame;
  let contextBasisSha256: string;
  let outcomeForSupport: unknown;
  let claim: string;
  let applicability: string;
  let stopEvidence: readonly string[];
  if (input.disposition === "not-applicable") {
    checkTextList(input.basis, "The not-applicable basis");
    contextBasisSha256 = hashValue({ domain: "developer/v8/not-applicable-judgment-basis", frame, reason: input.reason, basis: input.basis });
    outcomeForSupport = { reason: input.reason, basis: input.basis };
    claim = input.reason;
    applicability = "The negative judgment applies to the current frame.";
    stopEvidence = input.basis;
  } else if (input.outcome.kind === "contextual-judgment") {
    checkTextList(input.outcome.stopEvidence, "The stop evidence");
    // Simplification (documented in docs/operations.md): without Skill nominations the Judgment
    // engine has nothing to select or seal, so the basis binds the frame and the outcome itself.
    contextBasisSha256 = hashValue({ domain: "docket/contextual-judgment-basis/v1", frame, outcome: input.outcome });
    outcomeForSupport = input.outcome;
    claim = input.outcome.artifact;
    applicability = input.outcome.rationale;
    stopEvidence = input.outcome.stopEvidence;
  } else {
    // A zero-owner needs-evidence has nothing to settle and nothing resolves (§3.3 c step 3): we
    // refuse with a code instead of writing an empty or invented event, and keep the frame open.
    throw new DocketError(
      ErrorCodes.needsEvidence,
      `The frame stays open: gather ${input.outcome.evidenceNeeded.join("; ")} (owner: ${input.outcome.resolutionOwner}), then conclude with a judgment or not-applicable. Nothing was written.`,
    );
  }
  const supportSha256 = hashValue({ domain: "developer/v8/judgment-result-support", frame, contextBasisSha256, outcome: outcomeForSupport });
  const sourceId = operationId("judgment", scope, "judgment-result");
  return asInvalidParams(() => {
    const chain = new BatchChain(scope, occurredAt);
    const supportRef = chain.add(
      "support-observed",
      toJsonPayload({
        support: { supportId: operationId("support", scope, "judgment-result"), sourceKind: "judgment-result", sourceId, sourceRevisionSha256: contextBasisSha256, supportSha256 },
      }),
    );
    for (const blockerId of state.blockers.map((entry) => entry.blockerId).sort(compareCodeUnits)) {
      chain.add("frame-blocker-resolved", { frameId: frame.frameId, blockerId, resolutionBasisSha256: supportSha256 }, [supportRef]);
    }
    const contributionId = operationId("contribution", scope, "judgment-result");
    const body: ProposalBody = {
      proposalId: operationId("proposal", scope, "judgment-result"),
      frameId: frame.frameId,
      frameRevision: frame.frameRevision,
      source: { kind: "judgment-result", sourceId, sourceRevisionSha256: contextBasisSha256 },
      claim,
      applicability,
      targetUses: state.obligations.map((entry) => ({ obligationId: entry.obligationId, useAs: "evidence" as const })),
      limitations: [],
      supportSha256,
    };
    chain.add(
      "frame-contribution-admitted",
      toJsonPayload({ proposal: body, expectedProposalSha256: proposalSha256(body), contributionId, admissionBasisSha256: contextBasisSha256 }),
      [supportRef],
    );
    const dischargeIds: string[] = [];
    state.obligations.forEach((obligation, index) => {
      const dischargeId = operationId("discharge", scope, `obligation:${obligation.obligationId}`);
      dischargeIds.push(dischargeId);
      chain.add(
        "obligation-discharged",
        toJsonPayload({
          discharge: {
            dischargeId,
            frameId: frame.frameId,
            expectedFrameRevision: frame.frameRevision,
            obligationId: obligation.obligationId,
            contributionIds: [contributionId],
            stopEvidence,
            conclusion: `Resolved obligation ${index}.`,
          },
        }),
      );
    });
    const proposal = createConclusionProposal({
      frameId: frame.frameId,
      expectedFrameRevision: frame.frameRevision,
      dischargeIds: [...dischargeIds].sort(compareCodeUnits),
      stopEvidence,
      expectedBlockerSetSha256: EMPTY_BLOCKER_SET_SHA256,
      conclusion: claim,
    });
    chain.add("route-frame-concluded", toJsonPayload({ proposal }), verificationCause(scope, frame.frameId));
    return { workScopeId: scope.workScopeId, drafts: chain.drafts, frameId: frame.frameId };
  });
}
