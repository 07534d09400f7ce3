// The Judgment engine run behind conclude_judgment (§3.3 c, judgment.md §4–§10): question,
// applicability, selection and sealing of the nominated material, coverage and outcome, in one
// ContextAttempt. Its identity chain becomes the conclusion's `contextBasisSha256`. Asynchronous
// because sealing reads the current bytes of every nominated reference; the conclusion batch is
// built afterwards from the prepared result, which names the frame it was prepared for.
import { compareCodeUnits, hashValue } from "../../ledger/canonicalJson";
import { DocketError } from "../../errors";
import { ErrorCodes } from "../../protocol/messages";
import {
  ContextAttempt,
  contextContentSha256,
  createNodeLocalReferenceReader,
  JudgmentError,
  jsonValueFromUnknown,
  observedContextFromJson,
  ownerFromJson,
  preparedReferenceAcquisition,
  toolResultObservation,
  userDecisionObservation,
  type AcquiredContextData,
  type ContextCoverage,
  type ContextInventory,
  type JudgmentOutcome,
  type LocalReferenceReader,
  type PolicyOwner,
} from "../../judgment";
import type { HistoryView } from "../history";
import type { ScopeState } from "../scopeState";
import { notLegal, requireActiveScope } from "./common";
import { catalogInventory, openFrameOf, ownerAssignmentOf, verifiedOpenedSources, verifiedOwnerSkill } from "./contextSources";
import type { EvidenceLookup } from "./evidence";
import { DOCKET_SKILL_SOURCE, skillPolicyOwner, type BundledSkill, type SkillCatalog } from "./skillCatalog";

export type ContextApplicabilityInput =
  | { readonly kind: "applicable"; readonly basis: readonly string[] }
  | { readonly kind: "not-applicable"; readonly reason: string; readonly evidence: readonly string[] }
  | { readonly kind: "needs-context"; readonly missingContext: readonly string[] };

export type ContextNominationInput =
  | { readonly nominationId: string; readonly kind: "inventory-source"; readonly inventorySourceId?: string; readonly provenancePath?: string; readonly contentSha256?: string }
  | { readonly nominationId: string; readonly kind: "tool-result"; readonly branchResultId: string }
  | { readonly nominationId: string; readonly kind: "user-decision" };

type UseAs = "constraint" | "evidence" | "decision" | "method" | "guidance";
export type CoverageContributionInput =
  | { readonly nominationId: string; readonly useAs: UseAs; readonly contribution: string; readonly assurance: "agent-asserted" }
  | {
      readonly nominationId: string;
      readonly useAs: UseAs;
      readonly contribution: string;
      readonly assurance: "domain-verified";
      readonly evaluator: { readonly id: string; readonly version: string };
      readonly evidenceNominationIds: readonly string[];
    }
  | { readonly nominationId: string; readonly useAs: UseAs; readonly contribution: string; readonly assurance: "user-accepted" };

export interface CoverageInput {
  readonly status: "sufficient" | "needs-evidence";
  readonly contributions: readonly CoverageContributionInput[];
  readonly conflicts?: readonly { readonly nominationIds: readonly string[]; readonly description: string }[];
  readonly limitations?: readonly { readonly nominationIds: readonly string[]; readonly description: string }[];
}

export type OutcomeInput =
  | {
      readonly kind: "contextual-judgment";
      readonly citedUses?: readonly { readonly contributionIndex: number; readonly locator?: string; readonly artifactEffect: string }[];
      readonly rationale: string;
      readonly artifact: string;
      readonly stopEvidence: readonly string[];
    }
  | { readonly kind: "needs-evidence"; readonly evidenceNeeded: readonly string[]; readonly resolutionOwner: string; readonly artifact?: string }
  | { readonly kind: "emergent-question"; readonly question: string; readonly reason: string; readonly artifact: string; readonly stopEvidence: readonly string[] };

export interface JudgmentEngineInput {
  readonly applicability?: ContextApplicabilityInput;
  readonly nominations?: readonly ContextNominationInput[];
  readonly selectionBasis?: readonly string[];
  readonly coverage?: CoverageInput;
  readonly outcome: OutcomeInput;
}

/** True when the caller gave any engine input: then the engine decides, and all of it is required. */
export function usesJudgmentEngine(input: JudgmentEngineInput): boolean {
  return input.applicability !== undefined || input.nominations !== undefined || input.selectionBasis !== undefined || input.coverage !== undefined || (input.outcome.kind === "contextual-judgment" && input.outcome.citedUses !== undefined);
}

export interface PreparedJudgment {
  readonly frameId: string;
  readonly frameRevision: number;
  /** The scope head the preparation read; the batch must be built against the same head. */
  readonly atSequence: number;
  readonly contextBasisSha256: string;
  readonly outcome: JudgmentOutcome;
  /** Coverage limitation descriptions, carried into contributions (unique, ≤32). */
  readonly limitations: readonly string[];
}

const RESOLUTION_OWNERS = ["agent", "user", "environment", "unknown"] as const;

/** The owner a zero-owner judgment is asked under: Docket's own runtime, not a skill. */
function runtimeOwner(): PolicyOwner {
  return ownerFromJson(
    jsonValueFromUnknown({
      kind: "adapter-capability",
      namespace: DOCKET_SKILL_SOURCE,
      name: "root-runtime",
      provenance: { source: DOCKET_SKILL_SOURCE, scope: "temporary", origin: "package", path: "server/developer/operations" },
    }),
  );
}

function judgmentInvalid(message: string): never {
  throw new DocketError(ErrorCodes.judgmentRejected, message);
}

interface ResolvedNominations {
  readonly proposal: unknown[];
  readonly materialByNomination: Map<string, string>;
  readonly observedEntries: unknown[];
  readonly observedContent: Map<string, AcquiredContextData>;
}

async function resolveNominations(
  nominations: readonly ContextNominationInput[],
  inventory: ContextInventory,
  acquire: (sourceId: string) => Promise<AcquiredContextData | null>,
  evidence: EvidenceLookup,
): Promise<ResolvedNominations> {
  const proposal: unknown[] = [];
  const materialByNomination = new Map<string, string>();
  const observedEntries: unknown[] = [];
  const observedContent = new Map<string, AcquiredContextData>();
  for (const nomination of nominations) {
    if (materialByNomination.has(nomination.nominationId)) judgmentInvalid(`Nomination id ${nomination.nominationId} is used twice.`);
    if (nomination.kind === "inventory-source") {
      if ((nomination.inventorySourceId === undefined) === (nomination.provenancePath === undefined)) {
        throw new DocketError(ErrorCodes.invalidParams, `Nomination ${nomination.nominationId} needs exactly one of inventorySourceId and provenancePath.`);
      }
      const source = inventory.sources.find((entry) =>
        nomination.inventorySourceId !== undefined ? entry.id === nomination.inventorySourceId : entry.provenance.path === nomination.provenancePath,
      );
      if (source === undefined) {
        throw new DocketError(
          ErrorCodes.unknownContextSource,
          `Nomination ${nomination.nominationId} names no listed skill or prepared reference; repository reads and commands are nominated as tool-result evidence handles.`,
        );
      }
      if (source.kind === "pi-skill" && source.contentSha256 === undefined) {
        notLegal(`Skill context ${source.id} must be opened with open_context_sources before it can be nominated.`);
      }
      let contentSha256: string | undefined;
      if (source.kind === "pi-skill" || source.kind === "prepared-reference") {
        const content = await acquire(source.id);
        if (content === null || content.isError || content.truncated) judgmentInvalid(`Nominated context ${source.id} is not usable.`);
        contentSha256 = contextContentSha256(content.parts);
        if (nomination.contentSha256 !== undefined && nomination.contentSha256 !== contentSha256) {
          throw new DocketError(ErrorCodes.contextSourceChanged, `Nominated context ${source.id} changed since its hash was taken.`);
        }
      }
      proposal.push({
        kind: "inventory-source",
        inventorySourceId: source.id,
        descriptorSha256: source.descriptorSha256,
        ...(contentSha256 === undefined ? {} : { contentSha256 }),
      });
      materialByNomination.set(nomination.nominationId, `inventory-source:${source.id}`);
      continue;
    }
    if (nomination.kind === "tool-result") {
      const record = evidence.toolResult(nomination.branchResultId);
      if (record === undefined) {
        throw new DocketError(ErrorCodes.unknownEvidenceHandle, `${nomination.branchResultId} is not a known evidence handle; nothing was written.`);
      }
      // A captured evidence handle is observed as a plain tool result, whatever the tool was.
      const observed = toolResultObservation(record, null);
      if (!observedContent.has(observed.id)) {
        observedContent.set(observed.id, observed.content);
        observedEntries.push(observed.entry);
      }
      materialByNomination.set(nomination.nominationId, `observed-context:${observed.id}`);
      continue;
    }
    const decision = evidence.latestUserDecision();
    if (decision === undefined) throw new DocketError(ErrorCodes.unknownEvidenceHandle, "No user decision has been captured to nominate; nothing was written.");
    const observed = userDecisionObservation(decision);
    if (!observedContent.has(observed.id)) {
      observedContent.set(observed.id, observed.content);
      observedEntries.push(observed.entry);
    }
    materialByNomination.set(nomination.nominationId, `observed-context:${observed.id}`);
  }
  return { proposal, materialByNomination, observedEntries, observedContent };
}

function materialIds(ids: readonly string[], map: ReadonlyMap<string, string>, where: string): string[] {
  return ids.map((id) => {
    const materialId = map.get(id);
    if (materialId === undefined) throw new DocketError(ErrorCodes.invalidParams, `${where} names unknown nomination ${id}.`);
    return materialId;
  });
}

function coverageData(coverage: CoverageInput, map: ReadonlyMap<string, string>, userEvents: ReadonlyMap<string, string>): unknown {
  return {
    status: coverage.status,
    contributions: coverage.contributions.map((item, index) => {
      const [materialId] = materialIds([item.nominationId], map, `coverage.contributions[${index}]`);
      const base = { materialId, useAs: item.useAs, contribution: item.contribution, assurance: item.assurance };
      if (item.assurance === "domain-verified") {
        return { ...base, evaluator: { ...item.evaluator }, evidenceMaterialIds: materialIds(item.evidenceNominationIds, map, `coverage.contributions[${index}].evidenceNominationIds`) };
      }
      if (item.assurance === "user-accepted") {
        // A user-accepted contribution is bound to the captured user decision it is made on.
        const userEventId = materialId === undefined ? undefined : userEvents.get(materialId);
        if (userEventId === undefined) {
          throw new DocketError(ErrorCodes.invalidParams, `coverage.contributions[${index}]: user-accepted material must be a user-decision nomination.`);
        }
        return { ...base, userEventId };
      }
      return base;
    }),
    conflicts: (coverage.conflicts ?? []).map((item, index) => ({ materialIds: materialIds(item.nominationIds, map, `coverage.conflicts[${index}]`), description: item.description })),
    limitations: (coverage.limitations ?? []).map((item, index) => ({ basisMaterialIds: materialIds(item.nominationIds, map, `coverage.limitations[${index}]`), description: item.description })),
  };
}

function outcomeData(outcome: OutcomeInput, coverage: ContextCoverage, hashes: { selectionSha256: string; sealedContextSha256: string; coverageSha256: string }): unknown {
  if (outcome.kind === "contextual-judgment") {
    return {
      ...hashes,
      kind: outcome.kind,
      citedUses: (outcome.citedUses ?? []).map((citation) => {
        const contribution = coverage.contributions[citation.contributionIndex];
        if (contribution === undefined) throw new DocketError(ErrorCodes.invalidParams, `A citation names unknown contribution index ${citation.contributionIndex}.`);
        return { contributionId: contribution.contributionId, ...(citation.locator === undefined ? {} : { locator: citation.locator }), artifactEffect: citation.artifactEffect };
      }),
      rationale: outcome.rationale,
      artifact: outcome.artifact,
      stopEvidence: outcome.stopEvidence,
    };
  }
  if (outcome.kind === "needs-evidence") {
    const owner = RESOLUTION_OWNERS.find((value) => value === outcome.resolutionOwner);
    if (owner === undefined) throw new DocketError(ErrorCodes.invalidParams, `resolutionOwner must be one of ${RESOLUTION_OWNERS.join(", ")} when the Judgment engine is used.`);
    return {
      ...hashes,
      kind: outcome.kind,
      unresolvedIds: [...coverage.conflicts.map((entry) => entry.conflictId), ...coverage.limitations.map((entry) => entry.limitationId)],
      evidenceNeeded: outcome.evidenceNeeded,
      resolutionOwner: owner,
      ...(outcome.artifact === undefined ? {} : { artifact: outcome.artifact }),
    };
  }
  return { ...hashes, kind: outcome.kind, question: outcome.question, reason: outcome.reason, artifact: outcome.artifact, stopEvidence: outcome.stopEvidence };
}

/**
 * Runs the engine for the open frame of `history`. Refusals are coded and nothing is written;
 * engine rule violations (stale content, unsealed material, uncovered members…) surface as
 * docket.judgment-rejected with the engine's own sentence.
 */
export async function prepareJudgment(history: HistoryView, input: JudgmentEngineInput, catalog: SkillCatalog, evidence: EvidenceLookup): Promise<PreparedJudgment> {
  const scope: ScopeState = requireActiveScope(history);
  const frame = openFrameOf(scope);
  if (frame === undefined) notLegal("No judgment frame is open; open one first.");
  if (input.applicability === undefined || input.selectionBasis === undefined || input.coverage === undefined) {
    throw new DocketError(ErrorCodes.invalidParams, "A judgment decided by the Judgment engine needs applicability, selectionBasis and coverage (nominations default to none).");
  }
  if (input.applicability.kind !== "applicable") {
    throw new DocketError(
      ErrorCodes.invalidParams,
      input.applicability.kind === "not-applicable"
        ? "An inapplicable owner is concluded with disposition not-applicable."
        : "Missing context is concluded with a needs-evidence outcome.",
    );
  }
  if (input.coverage.status === "sufficient" && input.coverage.contributions.length === 0) {
    throw new DocketError(ErrorCodes.invalidParams, "Sufficient coverage needs at least one contribution.");
  }
  const ownerState = ownerAssignmentOf(scope, frame);
  const owner: BundledSkill | null = ownerState === undefined ? null : verifiedOwnerSkill(ownerState, catalog);
  const opened = verifiedOpenedSources(scope, catalog).map((entry) => entry.skill);
  // Prepared references may come from the owner's policy and from opened sources' policies.
  const providers = [...(owner === null ? [] : [owner]), ...opened];
  const inventory = catalogInventory(catalog, { providers, opened });
  const readers = new Map<string, LocalReferenceReader>();
  for (const skill of providers) if (skill.policy !== null) readers.set(skill.policy.policySha256, createNodeLocalReferenceReader(skill.baseDir));
  const acquireReference = preparedReferenceAcquisition(readers);
  const methods = new Map<string, string>(opened.map((skill) => [skill.name, skill.method]));
  const acquire = async (sourceId: string): Promise<AcquiredContextData | null> => {
    const source = inventory.sources.find((entry) => entry.id === sourceId);
    if (source === undefined) return null;
    if (source.kind === "prepared-reference") return acquireReference(source);
    if (source.kind === "pi-skill") {
      const method = methods.get(source.title);
      return method === undefined ? null : { parts: [{ kind: "text", text: method }], isError: false, truncated: false };
    }
    return null;
  };
  try {
    const nominations = await resolveNominations(input.nominations ?? [], inventory, acquire, evidence);
    const userEvents = new Map(
      nominations.observedEntries.flatMap((entry) => {
        const record = entry as { id: string; kind: string; userEventId?: string };
        return record.kind === "user-explicit" && record.userEventId !== undefined ? [[`observed-context:${record.id}`, record.userEventId] as const] : [];
      }),
    );
    const questionOwner = owner === null ? runtimeOwner() : owner.policy?.owner ?? skillPolicyOwner(owner.name);
    const policySha256 = owner?.policy?.policySha256;
    const attempt = ContextAttempt.open({
      question: jsonValueFromUnknown({
        judgmentId: frame.frame.frameId,
        owner: { kind: questionOwner.kind, namespace: questionOwner.namespace, name: questionOwner.name, provenance: { ...questionOwner.provenance } },
        ...(policySha256 === undefined ? {} : { policySha256 }),
        question: frame.frame.exactQuestion,
        basisMaterialIds: [],
        branchRef: frame.frame.frameId,
      }),
      applicability: jsonValueFromUnknown(input.applicability),
    }).value;
    const observedContext = observedContextFromJson(jsonValueFromUnknown({ branchRef: frame.frame.frameId, entries: nominations.observedEntries }));
    await attempt.selectAndSeal({
      inventory,
      observedContext,
      proposal: jsonValueFromUnknown({
        questionSha256: attempt.state.question.questionSha256,
        nominations: [
          ...nominations.proposal,
          ...observedContext.entries.map((entry) => ({ kind: "observed-context", observedContextId: entry.id, descriptorSha256: entry.descriptorSha256 })),
        ],
        selectionBasis: input.selectionBasis,
      }),
      admittedPolicySha256s: providers.flatMap((skill) => (skill.policy === null ? [] : [skill.policy.policySha256])),
      acquisition: {
        acquirePreparedReference: acquireReference,
        acquireSkill: async (source) => {
          const content = await acquire(source.id);
          if (content === null) throw new DocketError(ErrorCodes.operationNotLegal, `Skill ${source.title} was not opened.`);
          return content;
        },
        acquireObservedContext: async (entry) => {
          const content = nominations.observedContent.get(entry.id);
          if (content === undefined) throw new DocketError(ErrorCodes.unknownEvidenceHandle, `Evidence ${entry.id} is no longer available.`);
          return content;
        },
      },
    });
    attempt.assessCoverage(jsonValueFromUnknown(coverageData(input.coverage, nominations.materialByNomination, userEvents)));
    const { selection, sealedContext, coverage } = attempt.state;
    if (selection === undefined || sealedContext === undefined || coverage === undefined) throw new DocketError(ErrorCodes.internal, "The Judgment engine did not reach coverage.");
    attempt.conclude(
      jsonValueFromUnknown(
        outcomeData(input.outcome, coverage, {
          selectionSha256: selection.selectionSha256,
          sealedContextSha256: sealedContext.sealedContextSha256,
          coverageSha256: coverage.coverageSha256,
        }),
      ),
    );
    const outcome = attempt.state.outcome;
    if (outcome === undefined) throw new DocketError(ErrorCodes.internal, "The Judgment engine did not reach an outcome.");
    const limitations = [...new Set(coverage.limitations.map((entry) => entry.description))];
    if (limitations.length > 32) throw new DocketError(ErrorCodes.invalidParams, `A contribution carries at most 32 limitations (coverage has ${limitations.length}).`);
    const materialSources = opened.map((skill) => {
      const source = inventory.sources.find((entry) => entry.kind === "pi-skill" && entry.title === skill.name);
      return { inventorySourceId: source?.id ?? skill.name, descriptorSha256: source?.descriptorSha256 ?? skill.methodContentSha256, ...(skill.policy === null ? {} : { policySha256: skill.policy.policySha256 }) };
    });
    // The basis names every hash of the engine's identity chain plus what was opened: any
    // change to question, policy, selected bytes, coverage or outcome changes it.
    const contextBasisSha256 = hashValue({
      judgmentId: selection.judgmentId,
      ...(selection.policySha256 === undefined ? {} : { policySha256: selection.policySha256 }),
      questionSha256: selection.questionSha256,
      selectionSha256: selection.selectionSha256,
      sealedContextSha256: sealedContext.sealedContextSha256,
      coverageSha256: coverage.coverageSha256,
      outcomeSha256: outcome.outcomeSha256,
      contextSources: materialSources.sort((left, right) => compareCodeUnits(left.inventorySourceId, right.inventorySourceId)),
      members: sealedContext.members.map((member) => ({ materialId: member.materialId, memberId: member.memberId, contentSha256: member.contentSha256 })),
      contributions: coverage.contributions.map((entry) => ({ contributionId: entry.contributionId, materialId: entry.materialId, useAs: entry.useAs, assurance: entry.assurance })),
      conflictIds: coverage.conflicts.map((entry) => entry.conflictId),
      limitationIds: coverage.limitations.map((entry) => entry.limitationId),
    });
    return Object.freeze({
      frameId: frame.frame.frameId,
      frameRevision: frame.frame.frameRevision,
      atSequence: scope.head.scopeSequence,
      contextBasisSha256,
      outcome,
      limitations,
    });
  } catch (error) {
    if (error instanceof JudgmentError) judgmentInvalid(`The Judgment engine refused the conclusion: ${error.message}`);
    throw error;
  }
}

/** The engine outcome as the JSON the support hash binds (brands and symbols dropped). */
export function outcomeJson(outcome: JudgmentOutcome): unknown {
  return JSON.parse(JSON.stringify(outcome)) as unknown;
}
