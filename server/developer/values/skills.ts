// Skill values (§1.3): the ready assignment that lets one Skill contribute to a frame, the
// closed union of what a Skill may return, and the three distinct ways an invocation settles
// (a returned value — possibly `abort` —, a provider failure, or a lifecycle end).
import { arrayAt, exactKeys, idAt, integerAt, objectAt, shaAt, textAt } from "../../ledger/values";
import { booleanJson, integerJson, objectListJson, textJson, textListJson, unwritable, writtenHash } from "./canonicalText";
import { assertUnique, booleanAt, canonicalIdListAt, domainHash, expectHash, literalAt, rememberedForFrozen, uniqueTextListAt } from "./common";
import { MAX_LIMITATIONS, parseTargetUse, type ContributionTargetUse } from "./contributions";

export const SKILL_RETURN_CONTRACT = "developer-skill-return/v1";
export const ASSIGNMENT_AUTHORITY = "contribution-only";
export const ASSIGNMENT_DOMAIN = "developer.ready-skill-assignment/v1";
export const SKILL_RETURN_SUPPORT_DOMAIN = "developer/v8/skill-return-support";
export const MAX_MISSING_CONTEXT = 32;

export interface ReadySkillAssignment {
  readonly assignmentId: string;
  readonly skillCapabilityId: string;
  readonly skillRevisionSha256: string;
  readonly parentFrameId: string;
  readonly parentFrameRevision: number;
  readonly targetObligationIds: readonly string[];
  readonly subquestion: string;
  readonly applicabilityBasisSha256: string;
  readonly expectedContribution: string;
  readonly limitations: readonly string[];
  readonly returnContract: typeof SKILL_RETURN_CONTRACT;
  readonly contextBasisSha256: string;
  readonly authority: typeof ASSIGNMENT_AUTHORITY;
  readonly assignmentRevisionSha256: string;
}

export type ReadySkillAssignmentBody = Omit<ReadySkillAssignment, "assignmentRevisionSha256">;

export const ASSIGNMENT_BODY_KEYS = [
  "assignmentId",
  "skillCapabilityId",
  "skillRevisionSha256",
  "parentFrameId",
  "parentFrameRevision",
  "targetObligationIds",
  "subquestion",
  "applicabilityBasisSha256",
  "expectedContribution",
  "limitations",
  "returnContract",
  "contextBasisSha256",
  "authority",
] as const;

function assignmentBody(body: ReadySkillAssignmentBody): Record<string, unknown> {
  return {
    assignmentId: body.assignmentId,
    skillCapabilityId: body.skillCapabilityId,
    skillRevisionSha256: body.skillRevisionSha256,
    parentFrameId: body.parentFrameId,
    parentFrameRevision: body.parentFrameRevision,
    targetObligationIds: [...body.targetObligationIds],
    subquestion: body.subquestion,
    applicabilityBasisSha256: body.applicabilityBasisSha256,
    expectedContribution: body.expectedContribution,
    limitations: [...body.limitations],
    returnContract: body.returnContract,
    contextBasisSha256: body.contextBasisSha256,
    authority: body.authority,
  };
}

/** H({domain:"developer.ready-skill-assignment/v1", value: body}) — the `value` wrapper style. */
export function assignmentRevisionSha256(body: ReadySkillAssignmentBody): string {
  return writtenHash(body, assignmentHashJson, assignmentHashGeneral);
}

function assignmentHashJson(body: ReadySkillAssignmentBody): string {
  return (
    `{"domain":${JSON.stringify(ASSIGNMENT_DOMAIN)},"value":{"applicabilityBasisSha256":${textJson(body.applicabilityBasisSha256)},` +
    `"assignmentId":${textJson(body.assignmentId)},"authority":${textJson(body.authority)},"contextBasisSha256":${textJson(body.contextBasisSha256)},` +
    `"expectedContribution":${textJson(body.expectedContribution)},"limitations":${textListJson(body.limitations)},"parentFrameId":${textJson(body.parentFrameId)},` +
    `"parentFrameRevision":${integerJson(body.parentFrameRevision)},"returnContract":${textJson(body.returnContract)},` +
    `"skillCapabilityId":${textJson(body.skillCapabilityId)},"skillRevisionSha256":${textJson(body.skillRevisionSha256)},` +
    `"subquestion":${textJson(body.subquestion)},"targetObligationIds":${textListJson(body.targetObligationIds)}}}`
  );
}

function assignmentHashGeneral(body: ReadySkillAssignmentBody): string {
  return domainHash(ASSIGNMENT_DOMAIN, { value: assignmentBody(body) });
}

export function parseReadySkillAssignment(value: unknown, path = "readySkillAssignment"): ReadySkillAssignment {
  const data = objectAt(value, path);
  exactKeys(data, path, [...ASSIGNMENT_BODY_KEYS, "assignmentRevisionSha256"]);
  const body: ReadySkillAssignmentBody = Object.freeze({
    assignmentId: idAt(data.assignmentId, `${path}.assignmentId`),
    skillCapabilityId: idAt(data.skillCapabilityId, `${path}.skillCapabilityId`),
    skillRevisionSha256: shaAt(data.skillRevisionSha256, `${path}.skillRevisionSha256`),
    parentFrameId: idAt(data.parentFrameId, `${path}.parentFrameId`),
    parentFrameRevision: integerAt(data.parentFrameRevision, `${path}.parentFrameRevision`),
    targetObligationIds: canonicalIdListAt(data.targetObligationIds, `${path}.targetObligationIds`, { nonEmpty: true }),
    subquestion: textAt(data.subquestion, `${path}.subquestion`),
    applicabilityBasisSha256: shaAt(data.applicabilityBasisSha256, `${path}.applicabilityBasisSha256`),
    expectedContribution: textAt(data.expectedContribution, `${path}.expectedContribution`),
    limitations: uniqueTextListAt(data.limitations, `${path}.limitations`, { max: MAX_LIMITATIONS }),
    returnContract: literalAt(data.returnContract, `${path}.returnContract`, [SKILL_RETURN_CONTRACT]),
    contextBasisSha256: shaAt(data.contextBasisSha256, `${path}.contextBasisSha256`),
    authority: literalAt(data.authority, `${path}.authority`, [ASSIGNMENT_AUTHORITY]),
  });
  const revision = expectHash(
    data.assignmentRevisionSha256,
    `${path}.assignmentRevisionSha256`,
    assignmentRevisionSha256(body),
    "assignment",
  );
  return Object.freeze({ ...body, assignmentRevisionSha256: revision });
}

export function createReadySkillAssignment(body: ReadySkillAssignmentBody): ReadySkillAssignment {
  return parseReadySkillAssignment({ ...assignmentBody(body), assignmentRevisionSha256: assignmentRevisionSha256(body) });
}

export const SKILL_RETURN_KINDS = ["contribution", "dependency", "not-applicable", "needs-context", "abort"] as const;

export interface ContributionReturn {
  readonly kind: "contribution";
  readonly claim: string;
  readonly applicability: string;
  readonly targetUses: readonly ContributionTargetUse[];
  readonly limitations: readonly string[];
}
export interface DependencyReturn {
  readonly kind: "dependency";
  readonly dependencyId: string;
  readonly targetObligationIds: readonly string[];
  readonly question: string;
  readonly reason: string;
}
export interface NotApplicableReturn {
  readonly kind: "not-applicable";
  readonly targetObligationIds: readonly string[];
  readonly reason: string;
}
export interface NeedsContextReturn {
  readonly kind: "needs-context";
  readonly targetObligationIds: readonly string[];
  readonly missingContext: readonly string[];
}
export interface AbortReturn {
  readonly kind: "abort";
  readonly reason: string;
}
export type SkillReturn = ContributionReturn | DependencyReturn | NotApplicableReturn | NeedsContextReturn | AbortReturn;

/**
 * The kind is read first (unknown kinds are named as such), then the variant's exact keys.
 * A returned contribution's target uses are unique per (obligation, use) but NOT sorted —
 * unlike a proposal's, which must be one per obligation ascending.
 */
export function parseSkillReturn(value: unknown, path = "skillReturn"): SkillReturn {
  const data = objectAt(value, path);
  const kind = literalAt(data.kind, `${path}.kind`, SKILL_RETURN_KINDS);
  switch (kind) {
    case "contribution": {
      exactKeys(data, path, ["kind", "claim", "applicability", "targetUses", "limitations"]);
      const targetUses = arrayAt(data.targetUses, `${path}.targetUses`, parseTargetUse, { nonEmpty: true });
      assertUnique(targetUses, `${path}.targetUses`, (use) => `${use.obligationId}:${use.useAs}`);
      return Object.freeze({
        kind,
        claim: textAt(data.claim, `${path}.claim`),
        applicability: textAt(data.applicability, `${path}.applicability`),
        targetUses: Object.freeze(targetUses),
        limitations: uniqueTextListAt(data.limitations, `${path}.limitations`, { max: MAX_LIMITATIONS }),
      });
    }
    case "dependency":
      exactKeys(data, path, ["kind", "dependencyId", "targetObligationIds", "question", "reason"]);
      return Object.freeze({
        kind,
        dependencyId: idAt(data.dependencyId, `${path}.dependencyId`),
        targetObligationIds: canonicalIdListAt(data.targetObligationIds, `${path}.targetObligationIds`, { nonEmpty: true }),
        question: textAt(data.question, `${path}.question`),
        reason: textAt(data.reason, `${path}.reason`),
      });
    case "not-applicable":
      exactKeys(data, path, ["kind", "targetObligationIds", "reason"]);
      return Object.freeze({
        kind,
        targetObligationIds: canonicalIdListAt(data.targetObligationIds, `${path}.targetObligationIds`, { nonEmpty: true }),
        reason: textAt(data.reason, `${path}.reason`),
      });
    case "needs-context":
      exactKeys(data, path, ["kind", "targetObligationIds", "missingContext"]);
      return Object.freeze({
        kind,
        targetObligationIds: canonicalIdListAt(data.targetObligationIds, `${path}.targetObligationIds`, { nonEmpty: true }),
        missingContext: uniqueTextListAt(data.missingContext, `${path}.missingContext`, { nonEmpty: true, max: MAX_MISSING_CONTEXT }),
      });
    case "abort":
      exactKeys(data, path, ["kind", "reason"]);
      return Object.freeze({ kind, reason: textAt(data.reason, `${path}.reason`) });
  }
}

export type CapabilityFailure =
  | { readonly kind: "resolver-error"; readonly message: string }
  | { readonly kind: "invalid-or-silent-return"; readonly reason: string }
  | { readonly kind: "timeout"; readonly timeoutMs: number };

export const LIFECYCLE_KINDS = ["cancelled", "superseded", "stale"] as const;

export interface LifecycleSettlement {
  readonly kind: (typeof LIFECYCLE_KINDS)[number];
  readonly reason: string;
  readonly executionUncertain: boolean;
}

export type InvocationSettlement =
  | { readonly kind: "returned"; readonly invocationId: string; readonly assignmentId: string; readonly value: SkillReturn }
  | { readonly kind: "capability-failed"; readonly invocationId: string; readonly assignmentId: string; readonly failure: CapabilityFailure }
  | { readonly kind: "lifecycle"; readonly invocationId: string; readonly assignmentId: string; readonly lifecycle: LifecycleSettlement };

export function parseCapabilityFailure(value: unknown, path = "failure"): CapabilityFailure {
  const data = objectAt(value, path);
  const kind = literalAt(data.kind, `${path}.kind`, ["resolver-error", "invalid-or-silent-return", "timeout"]);
  if (kind === "resolver-error") {
    exactKeys(data, path, ["kind", "message"]);
    return Object.freeze({ kind, message: textAt(data.message, `${path}.message`) });
  }
  if (kind === "invalid-or-silent-return") {
    exactKeys(data, path, ["kind", "reason"]);
    return Object.freeze({ kind, reason: textAt(data.reason, `${path}.reason`) });
  }
  exactKeys(data, path, ["kind", "timeoutMs"]);
  // A zero timeout would describe a call that never ran; §1.1 requires timeoutMs ≥ 1.
  return Object.freeze({ kind, timeoutMs: integerAt(data.timeoutMs, `${path}.timeoutMs`, { min: 1 }) });
}

export function parseLifecycleSettlement(value: unknown, path = "lifecycle"): LifecycleSettlement {
  const data = objectAt(value, path);
  exactKeys(data, path, ["kind", "reason", "executionUncertain"]);
  return Object.freeze({
    kind: literalAt(data.kind, `${path}.kind`, LIFECYCLE_KINDS),
    reason: textAt(data.reason, `${path}.reason`),
    executionUncertain: booleanAt(data.executionUncertain, `${path}.executionUncertain`),
  });
}

/**
 * Settlements built by parseInvocationSettlement: deep-frozen and valid, so the re-parse inside the
 * support hash's general form would give each back unchanged and cannot fail. Only these take the
 * written form of that hash; any other value still takes the general form (and its errors).
 */
const PARSED_SETTLEMENTS = new WeakSet<InvocationSettlement>();

/** Kind and both ids are read before the variant's keys, matching the reference's first error. */
export function parseInvocationSettlement(value: unknown, path = "settlement"): InvocationSettlement {
  const settlement = parseSettlementMembers(value, path);
  PARSED_SETTLEMENTS.add(settlement);
  return settlement;
}

function parseSettlementMembers(value: unknown, path: string): InvocationSettlement {
  const data = objectAt(value, path);
  const kind = literalAt(data.kind, `${path}.kind`, ["returned", "capability-failed", "lifecycle"]);
  const invocationId = idAt(data.invocationId, `${path}.invocationId`);
  const assignmentId = idAt(data.assignmentId, `${path}.assignmentId`);
  if (kind === "returned") {
    exactKeys(data, path, ["kind", "invocationId", "assignmentId", "value"]);
    return Object.freeze({ kind, invocationId, assignmentId, value: parseSkillReturn(data.value, `${path}.value`) });
  }
  if (kind === "capability-failed") {
    exactKeys(data, path, ["kind", "invocationId", "assignmentId", "failure"]);
    return Object.freeze({ kind, invocationId, assignmentId, failure: parseCapabilityFailure(data.failure, `${path}.failure`) });
  }
  exactKeys(data, path, ["kind", "invocationId", "assignmentId", "lifecycle"]);
  return Object.freeze({ kind, invocationId, assignmentId, lifecycle: parseLifecycleSettlement(data.lifecycle, `${path}.lifecycle`) });
}

/** Builds a settlement through its parser (there is no hash inside a settlement). */
export function createInvocationSettlement(settlement: InvocationSettlement): InvocationSettlement {
  return parseInvocationSettlement(JSON.parse(JSON.stringify(settlement)) as unknown);
}

/**
 * H({domain, settlement}); a skill-return proposal must cite this as both its source revision
 * and its support hash. The settlement is re-parsed so only its exact wire keys are hashed.
 */
export const skillReturnSupportSha256: (settlement: InvocationSettlement) => string = rememberedForFrozen((settlement) =>
  PARSED_SETTLEMENTS.has(settlement) ? writtenHash(settlement, supportHashJson, supportHashGeneral) : supportHashGeneral(settlement),
);

function supportHashGeneral(settlement: InvocationSettlement): string {
  return domainHash(SKILL_RETURN_SUPPORT_DOMAIN, { settlement: createInvocationSettlement(settlement) });
}

function supportHashJson(settlement: InvocationSettlement): string {
  return `{"domain":${JSON.stringify(SKILL_RETURN_SUPPORT_DOMAIN)},"settlement":${settlementJson(settlement)}}`;
}

/** A settlement's members in code-unit order (`failure` sorts between the two ids). */
function settlementJson(settlement: InvocationSettlement): string {
  switch (settlement.kind) {
    case "returned":
      return (
        `{"assignmentId":${textJson(settlement.assignmentId)},"invocationId":${textJson(settlement.invocationId)},` +
        `"kind":"returned","value":${skillReturnJson(settlement.value)}}`
      );
    case "capability-failed":
      return (
        `{"assignmentId":${textJson(settlement.assignmentId)},"failure":${failureJson(settlement.failure)},` +
        `"invocationId":${textJson(settlement.invocationId)},"kind":"capability-failed"}`
      );
    case "lifecycle": {
      const lifecycle = settlement.lifecycle;
      return (
        `{"assignmentId":${textJson(settlement.assignmentId)},"invocationId":${textJson(settlement.invocationId)},"kind":"lifecycle",` +
        `"lifecycle":{"executionUncertain":${booleanJson(lifecycle.executionUncertain)},"kind":${textJson(lifecycle.kind)},"reason":${textJson(lifecycle.reason)}}}`
      );
    }
    default:
      return unwritable();
  }
}

function failureJson(failure: CapabilityFailure): string {
  switch (failure.kind) {
    case "resolver-error":
      return `{"kind":"resolver-error","message":${textJson(failure.message)}}`;
    case "invalid-or-silent-return":
      return `{"kind":"invalid-or-silent-return","reason":${textJson(failure.reason)}}`;
    case "timeout":
      return `{"kind":"timeout","timeoutMs":${integerJson(failure.timeoutMs)}}`;
    default:
      return unwritable();
  }
}

function returnedUseJson(use: ContributionTargetUse): string {
  return `{"obligationId":${textJson(use.obligationId)},"useAs":${textJson(use.useAs)}}`;
}

function skillReturnJson(value: SkillReturn): string {
  switch (value.kind) {
    case "contribution":
      return (
        `{"applicability":${textJson(value.applicability)},"claim":${textJson(value.claim)},"kind":"contribution",` +
        `"limitations":${textListJson(value.limitations)},"targetUses":${objectListJson(value.targetUses, returnedUseJson)}}`
      );
    case "dependency":
      return (
        `{"dependencyId":${textJson(value.dependencyId)},"kind":"dependency","question":${textJson(value.question)},` +
        `"reason":${textJson(value.reason)},"targetObligationIds":${textListJson(value.targetObligationIds)}}`
      );
    case "not-applicable":
      return `{"kind":"not-applicable","reason":${textJson(value.reason)},"targetObligationIds":${textListJson(value.targetObligationIds)}}`;
    case "needs-context":
      return `{"kind":"needs-context","missingContext":${textListJson(value.missingContext)},"targetObligationIds":${textListJson(value.targetObligationIds)}}`;
    case "abort":
      return `{"kind":"abort","reason":${textJson(value.reason)}}`;
    default:
      return unwritable();
  }
}
