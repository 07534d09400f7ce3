// Selection: the proposal of which inventory sources and observed entries to use for a question,
// checked against the current inventory, observed context and admitted policies.
import { JudgmentParseError } from "./errors";
import { compareText, hashJson, type JsonValue } from "./json";
import { sourceIdentity, type ContextInventory, type ContextSourceDescriptor } from "./inventory";
import { observedIdentity, type ObservedContext, type ObservedContextEntry } from "./observed";
import type { DynamicJudgmentQuestion } from "./question";
import { Identifier, NonEmptyText, S, Sha256, decodeWith, type Schema } from "./schema";
import { uniqueTextSet } from "./text";

export type ContextNomination =
  | { readonly kind: "inventory-source"; readonly inventorySourceId: string; readonly descriptorSha256: string; readonly contentSha256?: string }
  | { readonly kind: "observed-context"; readonly observedContextId: string; readonly descriptorSha256: string };

export interface ContextSelectionProposalData {
  readonly questionSha256: string;
  readonly nominations: readonly ContextNomination[];
  readonly selectionBasis: readonly string[];
}

export const ContextSelectionProposalSchema: Schema = S.object({
  questionSha256: Sha256,
  nominations: S.array(
    S.union("kind", [
      S.object({ kind: S.literal("inventory-source"), inventorySourceId: Identifier, descriptorSha256: Sha256, contentSha256: Sha256 }, ["contentSha256"]),
      S.object({ kind: S.literal("observed-context"), observedContextId: Identifier, descriptorSha256: Sha256 }),
    ]),
    { maxItems: 256 },
  ),
  selectionBasis: S.array(NonEmptyText, { minItems: 1, maxItems: 32, uniqueItems: true }),
});

declare const proposalBrand: unique symbol;
export interface ContextSelectionProposal {
  readonly [proposalBrand]: true;
  readonly questionSha256: string;
  readonly nominations: readonly ContextNomination[];
  readonly selectionBasis: readonly string[];
}

export interface ContextBinding {
  readonly bindingId: string;
  readonly kind: "inventory-source" | "observed-context";
  readonly memberId: string;
  readonly descriptorSha256: string;
  readonly expectedContentSha256?: string;
}

declare const selectionBrand: unique symbol;
export interface ContextSelection {
  readonly [selectionBrand]: true;
  readonly judgmentId: string;
  readonly questionSha256: string;
  readonly policySha256?: string;
  /** Recorded for diagnosis; not part of selectionSha256. */
  readonly observedInventorySha256: string;
  /** Recorded for diagnosis; not part of selectionSha256. */
  readonly observedContextSha256: string;
  readonly branchRef: string;
  readonly bindings: readonly ContextBinding[];
  readonly selectedSources: readonly ContextSourceDescriptor[];
  readonly selectedObservedContext: readonly ObservedContextEntry[];
  readonly selectionBasis: readonly string[];
  readonly selectionSha256: string;
}

function nominationId(nomination: ContextNomination): string {
  return nomination.kind === "inventory-source" ? nomination.inventorySourceId : nomination.observedContextId;
}

export function decodeContextSelectionProposalData(value: JsonValue): ContextSelectionProposalData {
  return decodeWith<ContextSelectionProposalData>(ContextSelectionProposalSchema, value, "Context selection proposal has an invalid representation.");
}

export function parseContextSelectionProposal(data: ContextSelectionProposalData): ContextSelectionProposal {
  const nominations = data.nominations
    .map((nomination) => Object.freeze({ ...nomination }))
    .sort((left, right) => compareText(`${left.kind}:${nominationId(left)}`, `${right.kind}:${nominationId(right)}`));
  const seen = new Set<string>();
  for (const nomination of nominations) {
    const key = `${nomination.kind === "inventory-source" ? "inventory" : "observed"}:${nominationId(nomination)}`;
    if (seen.has(key)) throw new JudgmentParseError(`Context member nominated more than once: ${key}.`);
    seen.add(key);
  }
  return Object.freeze({
    questionSha256: data.questionSha256,
    nominations: Object.freeze(nominations),
    selectionBasis: uniqueTextSet(data.selectionBasis, "/selectionBasis", (value) => `Duplicate value at /selectionBasis: ${value}.`),
  }) as ContextSelectionProposal;
}

export function selectionProposalFromJson(value: JsonValue): ContextSelectionProposal {
  return parseContextSelectionProposal(decodeContextSelectionProposalData(value));
}

function bindingIdentity(binding: ContextBinding): JsonValue {
  return {
    bindingId: binding.bindingId,
    kind: binding.kind,
    memberId: binding.memberId,
    descriptorSha256: binding.descriptorSha256,
    ...(binding.expectedContentSha256 ? { expectedContentSha256: binding.expectedContentSha256 } : {}),
  };
}

/** The content digest a selected inventory source must seal with (undefined: metadata-only skill). */
function expectedSourceContent(source: ContextSourceDescriptor, nominated: string | undefined): string | undefined {
  switch (source.kind) {
    case "prepared-reference":
      if (!nominated) throw new JudgmentParseError(`Selected prepared reference requires a content digest: ${source.id}.`);
      return nominated;
    case "pi-context-file":
      if (nominated && nominated !== source.contentSha256)
        throw new JudgmentParseError(`Pi context-file nomination has a conflicting content digest: ${source.id}.`);
      return source.contentSha256;
    case "pi-skill":
      if (source.contentSha256) {
        if (nominated && nominated !== source.contentSha256)
          throw new JudgmentParseError(`Pi skill nomination has a conflicting content digest: ${source.id}.`);
        return source.contentSha256;
      }
      if (nominated) throw new JudgmentParseError(`Pi skill metadata nomination cannot claim loaded content: ${source.id}.`);
      return undefined;
  }
}

export function selectContext(input: {
  readonly question: DynamicJudgmentQuestion;
  readonly inventory: ContextInventory;
  readonly observedContext: ObservedContext;
  readonly proposal: ContextSelectionProposal;
  readonly admittedPolicySha256s?: readonly string[];
}): ContextSelection {
  const { question, inventory, observedContext, proposal } = input;
  const admitted = new Set([...(question.policySha256 ? [question.policySha256] : []), ...(input.admittedPolicySha256s ?? [])]);
  if (proposal.questionSha256 !== question.questionSha256) throw new JudgmentParseError("Context selection proposal names another dynamic question.");
  if (observedContext.branchRef !== question.branchRef) throw new JudgmentParseError("Observed context belongs to another branch.");
  const sources = new Map(inventory.sources.map((source) => [source.id, source]));
  const entries = new Map(observedContext.entries.map((entry) => [entry.id, entry]));
  const bindings: ContextBinding[] = [];
  const selectedSources: ContextSourceDescriptor[] = [];
  const selectedObserved: ObservedContextEntry[] = [];
  for (const nomination of proposal.nominations) {
    if (nomination.kind === "inventory-source") {
      const source = sources.get(nomination.inventorySourceId);
      if (!source) throw new JudgmentParseError(`Unknown inventory source: ${nomination.inventorySourceId}.`);
      if (source.descriptorSha256 !== nomination.descriptorSha256) throw new JudgmentParseError(`Selected inventory source changed: ${source.id}.`);
      if (source.kind === "prepared-reference" && !admitted.has(source.policySha256))
        throw new JudgmentParseError(`Prepared reference belongs to an unadmitted policy: ${source.id}.`);
      const expected = expectedSourceContent(source, nomination.contentSha256);
      selectedSources.push(source);
      bindings.push(
        Object.freeze({
          bindingId: `inventory-source:${source.id}`,
          kind: "inventory-source" as const,
          memberId: source.id,
          descriptorSha256: source.descriptorSha256,
          ...(expected ? { expectedContentSha256: expected } : {}),
        }),
      );
      continue;
    }
    const entry = entries.get(nomination.observedContextId);
    if (!entry) throw new JudgmentParseError(`Unknown observed context: ${nomination.observedContextId}.`);
    if (entry.descriptorSha256 !== nomination.descriptorSha256) throw new JudgmentParseError(`Selected observed context changed: ${entry.id}.`);
    if (entry.isError || entry.truncated) throw new JudgmentParseError(`Error or truncated context cannot be selected: ${entry.id}.`);
    selectedObserved.push(entry);
    bindings.push(
      Object.freeze({
        bindingId: `observed-context:${entry.id}`,
        kind: "observed-context" as const,
        memberId: entry.id,
        descriptorSha256: entry.descriptorSha256,
        expectedContentSha256: entry.contentSha256,
      }),
    );
  }
  bindings.sort((left, right) => compareText(left.bindingId, right.bindingId));
  selectedSources.sort((left, right) => compareText(left.id, right.id));
  selectedObserved.sort((left, right) => compareText(left.id, right.id));
  const selectionSha256 = hashJson({
    judgmentId: question.judgmentId,
    questionSha256: question.questionSha256,
    ...(question.policySha256 ? { policySha256: question.policySha256 } : {}),
    bindings: bindings.map(bindingIdentity),
    selectedSources: selectedSources.map(sourceIdentity),
    selectedObservedContext: selectedObserved.map(observedIdentity),
    selectionBasis: proposal.selectionBasis,
  });
  return Object.freeze({
    judgmentId: question.judgmentId,
    questionSha256: question.questionSha256,
    ...(question.policySha256 ? { policySha256: question.policySha256 } : {}),
    observedInventorySha256: inventory.inventorySha256,
    observedContextSha256: observedContext.observedContextSha256,
    branchRef: observedContext.branchRef,
    bindings: Object.freeze(bindings),
    selectedSources: Object.freeze(selectedSources),
    selectedObservedContext: Object.freeze(selectedObserved),
    selectionBasis: proposal.selectionBasis,
    selectionSha256,
  }) as ContextSelection;
}
