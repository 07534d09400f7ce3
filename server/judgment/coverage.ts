// Coverage: what each sealed member contributes to this question (useAs), at which assurance
// (never above what its provenance establishes), plus conflicts and limitations.
import { JudgmentParseError } from "./errors";
import { compareText, hashJson, type JsonValue } from "./json";
import { Identifier, NonEmptyText, S, decodeWith, type Schema } from "./schema";
import type { SealedContext, SelectedContextMember } from "./sealedContext";
import { normalizedText, uniqueTextSet } from "./text";

export const CONTEXT_USES = ["constraint", "evidence", "decision", "method", "guidance"] as const;
export type ContextUse = (typeof CONTEXT_USES)[number];
export const ASSURANCES = ["agent-asserted", "domain-verified", "user-accepted"] as const;
export type Assurance = (typeof ASSURANCES)[number];
export type CoverageStatus = "sufficient" | "needs-evidence";

interface ContributionBaseData {
  readonly materialId: string;
  readonly useAs: ContextUse;
  readonly contribution: string;
}
type AssuranceFields =
  | { readonly assurance: "agent-asserted" }
  | { readonly assurance: "domain-verified"; readonly evaluator: { readonly id: string; readonly version: string }; readonly evidenceMaterialIds: readonly string[] }
  | { readonly assurance: "user-accepted"; readonly userEventId: string };
export type ContextContributionData = ContributionBaseData & AssuranceFields;
export interface ContextConflictData {
  readonly materialIds: readonly string[];
  readonly description: string;
}
export interface ContextLimitationData {
  readonly basisMaterialIds: readonly string[];
  readonly description: string;
}
export interface ContextCoverageProposalData {
  readonly status: CoverageStatus;
  readonly contributions: readonly ContextContributionData[];
  readonly conflicts: readonly ContextConflictData[];
  readonly limitations: readonly ContextLimitationData[];
}

const MaterialId = S.text(1, 300);
const contributionBase = { materialId: MaterialId, useAs: S.enumOf(CONTEXT_USES), contribution: NonEmptyText };
export const ContextCoverageProposalSchema: Schema = S.object({
  status: S.enumOf(["sufficient", "needs-evidence"]),
  contributions: S.array(
    S.union("assurance", [
      S.object({ ...contributionBase, assurance: S.literal("agent-asserted") }),
      S.object({
        ...contributionBase,
        assurance: S.literal("domain-verified"),
        evaluator: S.object({ id: Identifier, version: S.text(1, 128) }),
        evidenceMaterialIds: S.array(MaterialId, { minItems: 1, maxItems: 256, uniqueItems: true }),
      }),
      S.object({ ...contributionBase, assurance: S.literal("user-accepted"), userEventId: S.text(1, 300) }),
    ]),
    { maxItems: 256 },
  ),
  conflicts: S.array(S.object({ materialIds: S.array(MaterialId, { minItems: 2, maxItems: 256, uniqueItems: true }), description: NonEmptyText }), {
    maxItems: 128,
  }),
  limitations: S.array(S.object({ basisMaterialIds: S.array(MaterialId, { maxItems: 256, uniqueItems: true }), description: NonEmptyText }), {
    maxItems: 128,
  }),
});

export type ContextContribution = ContextContributionData & { readonly contributionId: string };
export interface ContextConflict extends ContextConflictData {
  readonly conflictId: string;
}
export interface ContextLimitation extends ContextLimitationData {
  readonly limitationId: string;
}

declare const proposalBrand: unique symbol;
export interface ContextCoverageProposal {
  readonly [proposalBrand]: true;
  readonly status: CoverageStatus;
  readonly contributions: readonly ContextContribution[];
  readonly conflicts: readonly ContextConflict[];
  readonly limitations: readonly ContextLimitation[];
}

declare const coverageBrand: unique symbol;
export interface ContextCoverage {
  readonly [coverageBrand]: true;
  readonly judgmentId: string;
  readonly questionSha256: string;
  readonly sealedContextSha256: string;
  readonly status: CoverageStatus;
  readonly contributions: readonly ContextContribution[];
  readonly conflicts: readonly ContextConflict[];
  readonly limitations: readonly ContextLimitation[];
  readonly coverageSha256: string;
}

export function decodeContextCoverageProposalData(value: JsonValue): ContextCoverageProposalData {
  return decodeWith<ContextCoverageProposalData>(ContextCoverageProposalSchema, value, "Context coverage proposal has an invalid representation.");
}

function materialIds(values: readonly string[], path: string): readonly string[] {
  return uniqueTextSet(values, path, (value) => `Duplicate material ID at ${path}: ${value}.`);
}

function contributionBody(data: ContextContributionData, index: number): ContextContributionData {
  const path = `/contributions/${index}`;
  const base = { materialId: normalizedText(data.materialId, `${path}/materialId`), useAs: data.useAs, contribution: normalizedText(data.contribution, `${path}/contribution`) };
  switch (data.assurance) {
    case "agent-asserted":
      return { ...base, assurance: data.assurance };
    case "domain-verified":
      return {
        ...base,
        assurance: data.assurance,
        evaluator: Object.freeze({ id: data.evaluator.id, version: normalizedText(data.evaluator.version, `${path}/evaluator/version`) }),
        evidenceMaterialIds: materialIds(data.evidenceMaterialIds, `${path}/evidenceMaterialIds`),
      };
    case "user-accepted":
      return { ...base, assurance: data.assurance, userEventId: normalizedText(data.userEventId, `${path}/userEventId`) };
  }
}

/** The hashed body of a contribution: materialId, useAs, contribution, assurance + variant fields. */
export function contributionIdentity(value: ContextContributionData): JsonValue {
  const base = { materialId: value.materialId, useAs: value.useAs, contribution: value.contribution, assurance: value.assurance };
  switch (value.assurance) {
    case "agent-asserted":
      return base;
    case "domain-verified":
      return { ...base, evaluator: { id: value.evaluator.id, version: value.evaluator.version }, evidenceMaterialIds: value.evidenceMaterialIds };
    case "user-accepted":
      return { ...base, userEventId: value.userEventId };
  }
}

function derivedId(prefix: string, body: JsonValue): string {
  return `${prefix}:${hashJson(body).slice(0, 32)}`;
}

function sortedUnique<T>(items: T[], id: (item: T) => string, what: string): readonly T[] {
  items.sort((left, right) => compareText(id(left), id(right)));
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(id(item))) throw new JudgmentParseError(`Duplicate context ${what}: ${id(item)}.`);
    seen.add(id(item));
  }
  return Object.freeze(items);
}

export function parseContextCoverageProposal(data: ContextCoverageProposalData): ContextCoverageProposal {
  const contributions = sortedUnique<ContextContribution>(
    data.contributions.map((item, index) => {
      const body = contributionBody(item, index);
      return Object.freeze({ ...body, contributionId: derivedId("contribution", contributionIdentity(body)) });
    }),
    (item) => item.contributionId,
    "contribution",
  );
  const conflicts = sortedUnique(
    data.conflicts.map((item, index) => {
      const body = { materialIds: materialIds(item.materialIds, `/conflicts/${index}/materialIds`), description: normalizedText(item.description, `/conflicts/${index}/description`) };
      return Object.freeze({ ...body, conflictId: derivedId("conflict", body) });
    }),
    (item) => item.conflictId,
    "conflict",
  );
  const limitations = sortedUnique(
    data.limitations.map((item, index) => {
      const body = {
        basisMaterialIds: materialIds(item.basisMaterialIds, `/limitations/${index}/basisMaterialIds`),
        description: normalizedText(item.description, `/limitations/${index}/description`),
      };
      return Object.freeze({ ...body, limitationId: derivedId("limitation", body) });
    }),
    (item) => item.limitationId,
    "limitation",
  );
  return Object.freeze({ status: data.status, contributions, conflicts, limitations }) as ContextCoverageProposal;
}

export function coverageProposalFromJson(value: JsonValue): ContextCoverageProposal {
  return parseContextCoverageProposal(decodeContextCoverageProposalData(value));
}

function sealedMember(sealed: SealedContext, id: string): SelectedContextMember {
  const member = sealed.members.find((candidate) => candidate.materialId === id);
  if (!member) throw new JudgmentParseError(`Unknown contribution material: ${id}.`);
  return member;
}

/** Assurance may not exceed what the sealed provenance establishes. */
function verifyAssurance(value: ContextContribution, sealed: SealedContext): void {
  switch (value.assurance) {
    case "agent-asserted":
      return;
    case "domain-verified": {
      const evidence = value.evidenceMaterialIds.map((id) => sealedMember(sealed, id));
      const matches = evidence.some(
        (member) =>
          member.origin.kind === "observed-context" &&
          member.origin.entry.kind === "domain-evidence" &&
          member.origin.entry.evaluator.id === value.evaluator.id &&
          member.origin.entry.evaluator.version === value.evaluator.version,
      );
      if (!matches) throw new JudgmentParseError("Domain-verified contribution has no matching selected evaluator evidence.");
      return;
    }
    case "user-accepted": {
      const matches = sealed.members.some(
        (member) => member.origin.kind === "observed-context" && member.origin.entry.kind === "user-explicit" && member.origin.entry.userEventId === value.userEventId,
      );
      if (!matches) throw new JudgmentParseError("User-accepted contribution has no matching selected user event.");
      return;
    }
  }
}

export function assessContextCoverage(input: { readonly selectedContext: SealedContext; readonly proposal: ContextCoverageProposal }): ContextCoverage {
  const { selectedContext: sealed, proposal } = input;
  const contributed = new Set<string>();
  for (const contribution of proposal.contributions) {
    const member = sealedMember(sealed, contribution.materialId);
    if (member.isError || member.truncated) throw new JudgmentParseError(`Error or truncated material cannot contribute: ${member.materialId}.`);
    contributed.add(member.materialId);
    verifyAssurance(contribution, sealed);
  }
  for (const member of sealed.members) {
    if (!contributed.has(member.materialId)) throw new JudgmentParseError(`Selected material has no contribution: ${member.materialId}.`);
  }
  for (const conflict of proposal.conflicts) for (const id of conflict.materialIds) sealedMember(sealed, id);
  for (const limitation of proposal.limitations) for (const id of limitation.basisMaterialIds) sealedMember(sealed, id);
  if (proposal.status === "sufficient" && proposal.conflicts.length > 0) throw new JudgmentParseError("Sufficient coverage cannot retain conflicts.");
  if (proposal.status === "needs-evidence" && proposal.conflicts.length === 0 && proposal.limitations.length === 0)
    throw new JudgmentParseError("Needs-evidence coverage requires a conflict or limitation.");
  const coverageSha256 = hashJson({
    judgmentId: sealed.judgmentId,
    questionSha256: sealed.questionSha256,
    sealedContextSha256: sealed.sealedContextSha256,
    status: proposal.status,
    contributions: proposal.contributions.map((value) => ({ contributionId: value.contributionId, value: contributionIdentity(value) })),
    conflicts: proposal.conflicts.map((value) => ({ conflictId: value.conflictId, materialIds: value.materialIds, description: value.description })),
    limitations: proposal.limitations.map((value) => ({ limitationId: value.limitationId, basisMaterialIds: value.basisMaterialIds, description: value.description })),
  });
  return Object.freeze({
    judgmentId: sealed.judgmentId,
    questionSha256: sealed.questionSha256,
    sealedContextSha256: sealed.sealedContextSha256,
    status: proposal.status,
    contributions: proposal.contributions,
    conflicts: proposal.conflicts,
    limitations: proposal.limitations,
    coverageSha256,
  }) as ContextCoverage;
}
