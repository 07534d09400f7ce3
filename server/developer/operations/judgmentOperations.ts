// Opening and concluding a judgment frame (§3.3 a and c). Without an owner Docket itself owns the
// frame: `route-frame-opened` alone, and a conclusion of support, contributions, discharges and
// the guarded conclusion. With an owning bundled skill the opening also routes, assigns and
// invokes it (ownerRouting.ts), and the conclusion first settles that invocation.
import { hashValue } from "../../ledger/canonicalJson";
import type { EnvelopeDraft, EventRef } from "../../ledger/envelope";
import { DocketError } from "../../errors";
import { ErrorCodes } from "../../protocol/messages";
import type { HistoryView } from "../history";
import { findRouteDefinition } from "../routes";
import type { ScopeState } from "../scopeState";
import { EMPTY_BLOCKER_SET_SHA256 } from "../values/blockers";
import { compareCodeUnits } from "../../ledger/canonicalJson";
import { createConclusionProposal } from "../values/conclusions";
import { proposalSha256, type ProposalBody } from "../values/contributions";
import { createObligation, type Obligation } from "../values/obligations";
import { createRouteFrame, type RouteFrame } from "../values/routeFrame";
import { createInvocationSettlement, skillReturnSupportSha256, type InvocationSettlement, type SkillReturn } from "../values/skills";
import { toJsonPayload } from "./json";
import { asInvalidParams, BatchChain, derivedPurpose, notLegal, operationId, requireActiveScope, type DecisionPurpose } from "./common";
import { contextSourceListing, openFrameOf, ownerAssignmentOf, verifiedOpenedSources, verifiedOwnerSkill, type ContextSourceListingEntry } from "./contextSources";
import { outcomeJson, usesJudgmentEngine, type JudgmentEngineInput, type PreparedJudgment } from "./judgmentContext";
import { appendOwnerRouting, requireOwnerSkill, type OwnerSkillInput } from "./ownerRouting";
import type { BundledSkill, SkillCatalog } from "./skillCatalog";

export const VERIFICATION_ROUTE_ID = "route:claim-evidence-assessment";
export const MAX_OBLIGATIONS = 100;
export const MAX_BASIS_ENTRIES = 32;

export interface OpenJudgmentInput {
  /** Optional echo of the derived purpose; when given it must match (§11 item 6: never required). */
  readonly purpose?: DecisionPurpose;
  readonly routeDefinitionId: string;
  readonly question: string;
  readonly obligations: readonly { readonly obligationId: string; readonly statement: string }[];
  readonly ownerSkill?: OwnerSkillInput;
}

export interface OperationBatch {
  readonly workScopeId: string;
  readonly drafts: EnvelopeDraft[];
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

export interface OpenedOwner {
  readonly skillName: string;
  readonly method: string;
  readonly assignmentId: string;
  readonly invocationId: string;
}

export interface OpenJudgmentBatch extends OperationBatch {
  readonly frameId: string;
  readonly purpose: DecisionPurpose;
  readonly routeSign: string;
  readonly owner: OpenedOwner | null;
  /** Empty without a catalogue (only the bundled skills can be listed). */
  readonly contextSources: readonly ContextSourceListingEntry[];
}

/** Owner operations read bundled skills; a caller that offers none cannot use them. */
function requireCatalog(catalog: SkillCatalog | undefined): SkillCatalog {
  if (catalog === undefined) throw new DocketError(ErrorCodes.internal, "The bundled skill catalogue was not loaded for an owner-skill operation.");
  return catalog;
}

export function openJudgmentBatch(history: HistoryView, input: OpenJudgmentInput, occurredAt: string, catalog?: SkillCatalog): OpenJudgmentBatch {
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
  const owner: BundledSkill | null = input.ownerSkill === undefined ? null : requireOwnerSkill(requireCatalog(catalog), input.ownerSkill.skillName);
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
  let opened: OpenedOwner | null = null;
  if (owner !== null && input.ownerSkill !== undefined) {
    const ownerInput = input.ownerSkill;
    const routing = asInvalidParams(() =>
      appendOwnerRouting(chain, frame, obligations, requireCatalog(catalog), owner, ownerInput, {
        snapshotId: operationId("snapshot", scope, "owner-routing"),
        basisId: operationId("basis", scope, "owner-routing"),
        assignmentId: operationId("assignment", scope, "owner-routing"),
        invocationId: operationId("invocation", scope, "owner-routing"),
      }),
    );
    opened = { skillName: owner.name, method: owner.method, assignmentId: routing.assignment.assignmentId, invocationId: routing.invocationId };
  }
  return {
    workScopeId: scope.workScopeId,
    drafts: chain.drafts,
    frameId,
    purpose,
    routeSign: route.sign,
    owner: opened,
    contextSources: catalog === undefined ? [] : contextSourceListing(catalog, owner),
  };
}

export type ConcludeJudgmentInput =
  | { readonly disposition: "not-applicable"; readonly reason: string; readonly basis: readonly string[] }
  | ({ readonly disposition: "judgment" } & JudgmentEngineInput);

export interface ConclusionContext {
  /** Needed when the frame has an owner or the scope opened context sources (both are re-read). */
  readonly catalog?: SkillCatalog;
  /** The Judgment engine's result, required when the input carries engine fields. */
  readonly prepared?: PreparedJudgment;
}

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

/** §3.3 c step 1: what the owner returns for this conclusion. */
function ownerReturn(
  input: ConcludeJudgmentInput,
  targets: readonly string[],
  limitations: readonly string[],
  dependencyId: string,
): SkillReturn {
  if (input.disposition === "not-applicable") return { kind: "not-applicable", targetObligationIds: targets, reason: input.reason };
  const outcome = input.outcome;
  switch (outcome.kind) {
    case "contextual-judgment":
      return {
        kind: "contribution",
        claim: outcome.artifact,
        applicability: outcome.rationale,
        targetUses: targets.map((obligationId) => ({ obligationId, useAs: "evidence" as const })),
        limitations,
      };
    case "needs-evidence":
      return { kind: "needs-context", targetObligationIds: targets, missingContext: outcome.evidenceNeeded };
    case "emergent-question":
      return { kind: "dependency", dependencyId, targetObligationIds: targets, question: outcome.question, reason: outcome.reason };
  }
}

/** Source id of an unresolved zero-owner attempt; the Work view counts them per frame. */
export function unresolvedAttemptSourceId(frameId: string): string {
  return `unresolved-judgment:${frameId}`;
}

/**
 * A zero-owner needs-evidence or emergent-question outcome: one support-observed that resolves
 * nothing (no blocker, contribution, discharge or conclusion), so the frame stays open and the
 * next legal step is still to conclude it.
 */
function unresolvedAttemptBatch(
  scope: ScopeState,
  frame: RouteFrame,
  outcome: { readonly kind: "needs-evidence" | "emergent-question" },
  occurredAt: string,
): ConcludeJudgmentBatch {
  const outcomeValue = toJsonPayload(outcome);
  const basisSha256 = hashValue({ domain: "docket/unresolved-judgment-basis/v1", frame, outcome: outcomeValue });
  const supportSha256 = hashValue({ domain: "developer/v8/judgment-result-support", frame, contextBasisSha256: basisSha256, outcome: outcomeValue });
  return asInvalidParams(() => {
    const chain = new BatchChain(scope, occurredAt);
    chain.add(
      "support-observed",
      toJsonPayload({
        support: {
          supportId: operationId("support", scope, "unresolved-judgment"),
          sourceKind: "judgment-result",
          sourceId: unresolvedAttemptSourceId(frame.frameId),
          sourceRevisionSha256: basisSha256,
          supportSha256,
        },
      }),
    );
    return { workScopeId: scope.workScopeId, drafts: chain.drafts, frameId: frame.frameId, concluded: false, settlement: null };
  });
}

/** The prepared engine result must describe exactly the frame and head this batch continues. */
function requirePrepared(prepared: PreparedJudgment | undefined, scope: ScopeState, frame: RouteFrame): PreparedJudgment {
  if (prepared === undefined) throw new DocketError(ErrorCodes.internal, "The Judgment engine result was not prepared for this conclusion.");
  if (prepared.frameId !== frame.frameId || prepared.frameRevision !== frame.frameRevision || prepared.atSequence !== scope.head.scopeSequence) {
    notLegal("The ledger moved while the judgment was being prepared; conclude again.");
  }
  return prepared;
}

export interface ConcludeJudgmentBatch extends OperationBatch {
  readonly frameId: string;
  /** Whether the frame concluded; false when only the owner's invocation was settled. */
  readonly concluded: boolean;
  readonly settlement: InvocationSettlement | null;
}

export function concludeJudgmentBatch(history: HistoryView, input: ConcludeJudgmentInput, occurredAt: string, context: ConclusionContext = {}): ConcludeJudgmentBatch {
  const scope = requireActiveScope(history);
  const state = openFrameOf(scope);
  if (state === undefined) notLegal("No judgment frame is open; open one first.");
  const frame: RouteFrame = state.frame;
  const owner = ownerAssignmentOf(scope, state);
  const active = owner?.status === "active" ? owner : undefined;
  if (scope.activeInvocation !== null && scope.activeInvocation.invocationId !== active?.invocationId) {
    notLegal(`Invocation ${scope.activeInvocation.invocationId} belongs to another frame; only its own settlement can end it.`);
  }
  // The owner's method and every opened context source are read again: a conclusion must rest
  // on the content the ledger says was used.
  if (owner !== undefined) verifiedOwnerSkill(owner, requireCatalog(context.catalog));
  if (scope.supports.some((support) => support.sourceKind === "material")) verifiedOpenedSources(scope, requireCatalog(context.catalog));

  const engine = input.disposition === "judgment" && usesJudgmentEngine(input) ? requirePrepared(context.prepared, scope, frame) : null;
  let contextBasisSha256: string | null = null;
  let outcomeForSupport: unknown = null;
  let claim = "";
  let applicability = "";
  let stopEvidence: readonly string[] = [];
  const limitations: readonly string[] = engine?.limitations ?? [];
  if (input.disposition === "not-applicable") {
    checkTextList(input.basis, "The not-applicable basis");
    contextBasisSha256 = hashValue({ domain: "developer/v8/not-applicable-judgment-basis", frame, reason: input.reason, basis: input.basis });
    outcomeForSupport = { reason: input.reason, basis: input.basis };
    claim = input.reason;
    applicability = "The negative judgment applies to the current frame.";
    stopEvidence = input.basis;
  } else if (input.outcome.kind === "contextual-judgment") {
    checkTextList(input.outcome.stopEvidence, "The stop evidence");
    if (engine !== null) {
      contextBasisSha256 = engine.contextBasisSha256;
      outcomeForSupport = outcomeJson(engine.outcome);
    } else {
      // Simplification (documented in docs/operations.md): without nominations the Judgment
      // engine has nothing to select or seal, so the basis binds the frame and the outcome itself.
      contextBasisSha256 = hashValue({ domain: "docket/contextual-judgment-basis/v1", frame, outcome: input.outcome });
      outcomeForSupport = input.outcome;
    }
    claim = input.outcome.artifact;
    applicability = input.outcome.rationale;
    stopEvidence = input.outcome.stopEvidence;
  } else if (active === undefined) {
    // No invocation to settle, so §3.3 c step 3 would be an empty batch. The attempt is still a
    // judgment result: it is recorded as judgment-result support bound to the frame and the
    // outcome, so the ledger shows the frame is waiting on evidence or on a question.
    return unresolvedAttemptBatch(scope, frame, input.outcome, occurredAt);
  }
  const resolved = contextBasisSha256 !== null;

  return asInvalidParams(() => {
    const chain = new BatchChain(scope, occurredAt);
    let settlement: InvocationSettlement | null = null;
    let settlementRef: ReturnType<BatchChain["add"]> | null = null;
    if (active !== undefined) {
      const dependencyQuestion = input.disposition === "judgment" && input.outcome.kind === "emergent-question" ? input.outcome.question : "";
      settlement = createInvocationSettlement({
        kind: "returned",
        invocationId: active.invocationId,
        assignmentId: active.assignment.assignmentId,
        value: ownerReturn(input, active.assignment.targetObligationIds, limitations, operationId("dependency", scope, `emergent-question:${dependencyQuestion}`)),
      });
      settlementRef = chain.add("invocation-settled", toJsonPayload({ settlement }));
    }
    if (!resolved || contextBasisSha256 === null) {
      return { workScopeId: scope.workScopeId, drafts: chain.drafts, frameId: frame.frameId, concluded: false, settlement };
    }
    const basisSha256 = contextBasisSha256;
    const supportSha256 = hashValue({ domain: "developer/v8/judgment-result-support", frame, contextBasisSha256: basisSha256, outcome: toJsonPayload(outcomeForSupport) });
    const sourceId = operationId("judgment", scope, "judgment-result");
    const supportRef = chain.add(
      "support-observed",
      toJsonPayload({
        support: { supportId: operationId("support", scope, "judgment-result"), sourceKind: "judgment-result", sourceId, sourceRevisionSha256: basisSha256, supportSha256 },
      }),
    );
    for (const blockerId of state.blockers.map((entry) => entry.blockerId).sort(compareCodeUnits)) {
      chain.add("frame-blocker-resolved", { frameId: frame.frameId, blockerId, resolutionBasisSha256: supportSha256 }, [supportRef]);
    }
    const targetsByContribution = new Map<string, ReadonlySet<string>>();
    if (settlement !== null && settlement.kind === "returned" && settlement.value.kind === "contribution" && settlementRef !== null) {
      const skillSupportSha256 = skillReturnSupportSha256(settlement);
      const skillContributionId = operationId("contribution", scope, "skill-return");
      const skillBody: ProposalBody = {
        proposalId: operationId("proposal", scope, "skill-return"),
        frameId: frame.frameId,
        frameRevision: frame.frameRevision,
        source: { kind: "skill-return", sourceId: settlement.invocationId, sourceRevisionSha256: skillSupportSha256 },
        claim: settlement.value.claim,
        applicability: settlement.value.applicability,
        targetUses: settlement.value.targetUses,
        limitations: settlement.value.limitations,
        supportSha256: skillSupportSha256,
      };
      chain.add(
        "frame-contribution-admitted",
        toJsonPayload({ proposal: skillBody, expectedProposalSha256: proposalSha256(skillBody), contributionId: skillContributionId, admissionBasisSha256: basisSha256 }),
        [settlementRef],
      );
      targetsByContribution.set(skillContributionId, new Set(settlement.value.targetUses.map((use) => use.obligationId)));
    }
    const contributionId = operationId("contribution", scope, "judgment-result");
    const body: ProposalBody = {
      proposalId: operationId("proposal", scope, "judgment-result"),
      frameId: frame.frameId,
      frameRevision: frame.frameRevision,
      source: { kind: "judgment-result", sourceId, sourceRevisionSha256: basisSha256 },
      claim,
      applicability,
      targetUses: state.obligations.map((entry) => ({ obligationId: entry.obligationId, useAs: "evidence" as const })),
      limitations,
      supportSha256,
    };
    chain.add(
      "frame-contribution-admitted",
      toJsonPayload({ proposal: body, expectedProposalSha256: proposalSha256(body), contributionId, admissionBasisSha256: basisSha256 }),
      [supportRef],
    );
    targetsByContribution.set(contributionId, new Set(state.obligations.map((entry) => entry.obligationId)));
    const dischargeIds: string[] = [];
    state.obligations.forEach((obligation, index) => {
      const dischargeId = operationId("discharge", scope, `obligation:${obligation.obligationId}`);
      dischargeIds.push(dischargeId);
      const citing = [...targetsByContribution.entries()].filter(([, targets]) => targets.has(obligation.obligationId)).map(([id]) => id);
      chain.add(
        "obligation-discharged",
        toJsonPayload({
          discharge: {
            dischargeId,
            frameId: frame.frameId,
            expectedFrameRevision: frame.frameRevision,
            obligationId: obligation.obligationId,
            contributionIds: citing.sort(compareCodeUnits),
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
    return { workScopeId: scope.workScopeId, drafts: chain.drafts, frameId: frame.frameId, concluded: true, settlement };
  });
}
