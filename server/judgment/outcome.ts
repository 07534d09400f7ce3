// Outcome: the conclusion of one judgment, citing only the current coverage. An outcome is a
// record, never permission to mutate anything.
import type { ContextContribution, ContextCoverage, ContextLimitation } from "./coverage";
import { JudgmentParseError } from "./errors";
import { compareText, hashJson, sortedText, type JsonValue } from "./json";
import type { DynamicJudgmentQuestion } from "./question";
import { NonEmptyText, S, Sha256, decodeWith, type Schema } from "./schema";
import type { SealedContext } from "./sealedContext";
import { normalizedText, semanticKey, uniqueTextSet } from "./text";

export type ResolutionOwner = "agent" | "user" | "environment" | "unknown";

export interface ContextCitation {
  readonly contributionId: string;
  readonly locator?: string;
  readonly artifactEffect: string;
}

interface ProposalBaseData {
  readonly selectionSha256: string;
  readonly sealedContextSha256: string;
  readonly coverageSha256: string;
}
type OutcomeKinds =
  | {
      readonly kind: "contextual-judgment";
      readonly citedUses: readonly ContextCitation[];
      readonly rationale: string;
      readonly artifact: string;
      readonly stopEvidence: readonly string[];
    }
  | {
      readonly kind: "needs-evidence";
      readonly unresolvedIds: readonly string[];
      readonly evidenceNeeded: readonly string[];
      readonly resolutionOwner: ResolutionOwner;
      readonly artifact?: string;
    }
  | { readonly kind: "emergent-question"; readonly question: string; readonly reason: string; readonly artifact: string; readonly stopEvidence: readonly string[] };

export type JudgmentProposalData = ProposalBaseData & OutcomeKinds;

const base = { selectionSha256: Sha256, sealedContextSha256: Sha256, coverageSha256: Sha256 };
const StopEvidence = S.array(NonEmptyText, { minItems: 1, maxItems: 32, uniqueItems: true });
export const JudgmentProposalSchema: Schema = S.union("kind", [
  S.object({
    ...base,
    kind: S.literal("contextual-judgment"),
    citedUses: S.array(S.object({ contributionId: S.text(1, 300), locator: S.text(1, 1_000), artifactEffect: NonEmptyText }, ["locator"]), { maxItems: 256 }),
    rationale: NonEmptyText,
    artifact: NonEmptyText,
    stopEvidence: StopEvidence,
  }),
  S.object(
    {
      ...base,
      kind: S.literal("needs-evidence"),
      unresolvedIds: S.array(S.text(1, 300), { minItems: 1, maxItems: 256, uniqueItems: true }),
      evidenceNeeded: StopEvidence,
      resolutionOwner: S.enumOf(["agent", "user", "environment", "unknown"]),
      artifact: NonEmptyText,
    },
    ["artifact"],
  ),
  S.object({ ...base, kind: S.literal("emergent-question"), question: NonEmptyText, reason: NonEmptyText, artifact: NonEmptyText, stopEvidence: StopEvidence }),
]);

declare const proposalBrand: unique symbol;
export type JudgmentProposal = JudgmentProposalData & { readonly [proposalBrand]: true };

interface OutcomeBase {
  readonly judgmentId: string;
  readonly questionSha256: string;
  readonly selectionSha256: string;
  readonly sealedContextSha256: string;
  readonly coverageSha256: string;
  readonly outcomeSha256: string;
}
export type ContextualJudgment = OutcomeBase &
  Extract<OutcomeKinds, { kind: "contextual-judgment" }> & {
    readonly contributions: readonly ContextContribution[];
    readonly limitations: readonly ContextLimitation[];
  };
export type NeedsEvidence = OutcomeBase & Extract<OutcomeKinds, { kind: "needs-evidence" }>;
export type EmergentQuestion = OutcomeBase & Extract<OutcomeKinds, { kind: "emergent-question" }>;
export type JudgmentOutcome = ContextualJudgment | NeedsEvidence | EmergentQuestion;

export function decodeJudgmentProposalData(value: JsonValue): JudgmentProposalData {
  return decodeWith<JudgmentProposalData>(JudgmentProposalSchema, value, "Judgment proposal has an invalid representation.");
}

function textSet(values: readonly string[], path: string): readonly string[] {
  return uniqueTextSet(values, path, (value) => `Duplicate value at ${path}: ${value}.`);
}

export function parseJudgmentProposal(data: JudgmentProposalData): JudgmentProposal {
  const head = { selectionSha256: data.selectionSha256, sealedContextSha256: data.sealedContextSha256, coverageSha256: data.coverageSha256 };
  switch (data.kind) {
    case "contextual-judgment": {
      const citedUses = data.citedUses
        .map((citation, index) =>
          Object.freeze({
            contributionId: normalizedText(citation.contributionId, `/citedUses/${index}/contributionId`),
            ...(citation.locator ? { locator: normalizedText(citation.locator, `/citedUses/${index}/locator`) } : {}),
            artifactEffect: normalizedText(citation.artifactEffect, `/citedUses/${index}/artifactEffect`),
          }),
        )
        .sort((left, right) => compareText(left.contributionId, right.contributionId));
      const seen = new Set<string>();
      for (const citation of citedUses) {
        if (seen.has(citation.contributionId)) throw new JudgmentParseError(`Duplicate contribution citation: ${citation.contributionId}.`);
        seen.add(citation.contributionId);
      }
      return Object.freeze({
        ...head,
        kind: data.kind,
        citedUses: Object.freeze(citedUses),
        rationale: normalizedText(data.rationale, "/rationale"),
        artifact: normalizedText(data.artifact, "/artifact"),
        stopEvidence: textSet(data.stopEvidence, "/stopEvidence"),
      }) as JudgmentProposal;
    }
    case "needs-evidence":
      return Object.freeze({
        ...head,
        kind: data.kind,
        unresolvedIds: textSet(data.unresolvedIds, "/unresolvedIds"),
        evidenceNeeded: textSet(data.evidenceNeeded, "/evidenceNeeded"),
        resolutionOwner: data.resolutionOwner,
        ...(data.artifact ? { artifact: normalizedText(data.artifact, "/artifact") } : {}),
      }) as JudgmentProposal;
    case "emergent-question":
      return Object.freeze({
        ...head,
        kind: data.kind,
        question: normalizedText(data.question, "/question"),
        reason: normalizedText(data.reason, "/reason"),
        artifact: normalizedText(data.artifact, "/artifact"),
        stopEvidence: textSet(data.stopEvidence, "/stopEvidence"),
      }) as JudgmentProposal;
  }
}

export function judgmentProposalFromJson(value: JsonValue): JudgmentProposal {
  return parseJudgmentProposal(decodeJudgmentProposalData(value));
}

function checkChain(question: DynamicJudgmentQuestion, sealed: SealedContext, coverage: ContextCoverage, proposal: JudgmentProposal): void {
  if (question.judgmentId !== sealed.judgmentId || question.questionSha256 !== sealed.questionSha256)
    throw new JudgmentParseError("Question and sealed context do not describe one judgment.");
  if (proposal.selectionSha256 !== sealed.selectionSha256) throw new JudgmentParseError("Judgment proposal names a stale selection.");
  if (proposal.sealedContextSha256 !== sealed.sealedContextSha256) throw new JudgmentParseError("Judgment proposal names stale sealed context.");
  if (proposal.coverageSha256 !== coverage.coverageSha256) throw new JudgmentParseError("Judgment proposal names stale coverage.");
  if (coverage.sealedContextSha256 !== sealed.sealedContextSha256 || coverage.questionSha256 !== question.questionSha256)
    throw new JudgmentParseError("Coverage and sealed context do not describe one judgment.");
}

/** The outcome's hashed identity: kind, chain hashes, then the kind's fields. */
export function outcomeIdentity(question: DynamicJudgmentQuestion, proposal: JudgmentProposal): JsonValue {
  const head = {
    kind: proposal.kind,
    judgmentId: question.judgmentId,
    questionSha256: question.questionSha256,
    selectionSha256: proposal.selectionSha256,
    sealedContextSha256: proposal.sealedContextSha256,
    coverageSha256: proposal.coverageSha256,
  };
  switch (proposal.kind) {
    case "contextual-judgment":
      return {
        ...head,
        citedUses: proposal.citedUses.map((citation) => ({
          contributionId: citation.contributionId,
          ...(citation.locator ? { locator: citation.locator } : {}),
          artifactEffect: citation.artifactEffect,
        })),
        rationale: proposal.rationale,
        artifact: proposal.artifact,
        stopEvidence: proposal.stopEvidence,
      };
    case "needs-evidence":
      return {
        ...head,
        unresolvedIds: proposal.unresolvedIds,
        evidenceNeeded: proposal.evidenceNeeded,
        resolutionOwner: proposal.resolutionOwner,
        ...(proposal.artifact ? { artifact: proposal.artifact } : {}),
      };
    case "emergent-question":
      return { ...head, question: proposal.question, reason: proposal.reason, artifact: proposal.artifact, stopEvidence: proposal.stopEvidence };
  }
}

export function concludeJudgment(input: {
  readonly question: DynamicJudgmentQuestion;
  readonly selectedContext: SealedContext;
  readonly coverage: ContextCoverage;
  readonly proposal: JudgmentProposal;
}): JudgmentOutcome {
  const { question, selectedContext, coverage, proposal } = input;
  checkChain(question, selectedContext, coverage, proposal);
  const head: OutcomeBase = {
    judgmentId: question.judgmentId,
    questionSha256: question.questionSha256,
    selectionSha256: proposal.selectionSha256,
    sealedContextSha256: proposal.sealedContextSha256,
    coverageSha256: proposal.coverageSha256,
    outcomeSha256: hashJson(outcomeIdentity(question, proposal)),
  };
  switch (proposal.kind) {
    case "contextual-judgment": {
      if (coverage.status !== "sufficient") throw new JudgmentParseError("Contextual judgment requires sufficient coverage.");
      const known = new Set(coverage.contributions.map((value) => value.contributionId));
      for (const citation of proposal.citedUses)
        if (!known.has(citation.contributionId)) throw new JudgmentParseError(`Citation names an unknown contribution: ${citation.contributionId}.`);
      return Object.freeze({
        ...head,
        kind: proposal.kind,
        citedUses: proposal.citedUses,
        contributions: coverage.contributions,
        rationale: proposal.rationale,
        artifact: proposal.artifact,
        stopEvidence: proposal.stopEvidence,
        limitations: coverage.limitations,
      });
    }
    case "needs-evidence": {
      if (coverage.status !== "needs-evidence") throw new JudgmentParseError("NeedsEvidence requires needs-evidence coverage.");
      const unresolved = sortedText([...coverage.conflicts.map((value) => value.conflictId), ...coverage.limitations.map((value) => value.limitationId)]);
      if (unresolved.join("\0") !== proposal.unresolvedIds.join("\0"))
        throw new JudgmentParseError("NeedsEvidence must exactly account for coverage conflicts and limitations.");
      return Object.freeze({
        ...head,
        kind: proposal.kind,
        unresolvedIds: proposal.unresolvedIds,
        evidenceNeeded: proposal.evidenceNeeded,
        resolutionOwner: proposal.resolutionOwner,
        ...(proposal.artifact ? { artifact: proposal.artifact } : {}),
      });
    }
    case "emergent-question": {
      if (semanticKey(question.question) === semanticKey(proposal.question))
        throw new JudgmentParseError("Emergent question must be distinct from the current question.");
      return Object.freeze({
        ...head,
        kind: proposal.kind,
        question: proposal.question,
        reason: proposal.reason,
        artifact: proposal.artifact,
        stopEvidence: proposal.stopEvidence,
      });
    }
  }
}
