// A sealed-context proposal checked against its selection: one member per binding, digests
// recomputed, expected digests honoured, result flags preserved; sealedContextSha256.
import { ContextContentPartSchema, contextContentSha256, parseContentPart, partIdentity, type ContextContentPart, type ContextContentPartData } from "./content";
import { JudgmentParseError } from "./errors";
import { compareText, hashJson, type JsonValue } from "./json";
import type { ContextSourceDescriptor } from "./inventory";
import type { ObservedContextEntry } from "./observed";
import { S, Sha256, decodeWith, type Schema } from "./schema";
import type { ContextBinding, ContextSelection } from "./selection";

export interface SealedContextMemberData {
  readonly bindingId: string;
  readonly contentSha256: string;
  readonly isError: boolean;
  readonly truncated: boolean;
  readonly parts: readonly ContextContentPartData[];
}
export interface SealedContextProposalData {
  readonly selectionSha256: string;
  readonly members: readonly SealedContextMemberData[];
}

export const SealedContextProposalSchema: Schema = S.object({
  selectionSha256: Sha256,
  members: S.array(
    S.object({
      bindingId: S.text(1, 300, false),
      contentSha256: Sha256,
      isError: S.boolean,
      truncated: S.boolean,
      parts: S.array(ContextContentPartSchema, { minItems: 1, maxItems: 64 }),
    }),
    { maxItems: 256 },
  ),
});

export type SelectedContextOrigin =
  | { readonly kind: "inventory-source"; readonly source: ContextSourceDescriptor }
  | { readonly kind: "observed-context"; readonly entry: ObservedContextEntry };

export interface SelectedContextMember {
  readonly materialId: string;
  readonly memberId: string;
  readonly contentSha256: string;
  readonly isError: boolean;
  readonly truncated: boolean;
  readonly parts: readonly ContextContentPart[];
  readonly origin: SelectedContextOrigin;
}

declare const sealedBrand: unique symbol;
export interface SealedContext {
  readonly [sealedBrand]: true;
  readonly judgmentId: string;
  readonly selectionSha256: string;
  readonly questionSha256: string;
  readonly branchRef: string;
  readonly members: readonly SelectedContextMember[];
  readonly sealedContextSha256: string;
}

export function decodeSealedContextProposalData(value: JsonValue): SealedContextProposalData {
  return decodeWith<SealedContextProposalData>(SealedContextProposalSchema, value, "Sealed context proposal has an invalid representation.");
}

function originOf(selection: ContextSelection, binding: ContextBinding): SelectedContextOrigin {
  if (binding.kind === "inventory-source") {
    const source = selection.selectedSources.find((candidate) => candidate.id === binding.memberId);
    if (!source) throw new JudgmentParseError(`Selection lost inventory member ${binding.memberId}.`);
    return Object.freeze({ kind: "inventory-source", source });
  }
  const entry = selection.selectedObservedContext.find((candidate) => candidate.id === binding.memberId);
  if (!entry) throw new JudgmentParseError(`Selection lost observed member ${binding.memberId}.`);
  return Object.freeze({ kind: "observed-context", entry });
}

function memberIdentity(member: SelectedContextMember): JsonValue {
  return {
    materialId: member.materialId,
    memberId: member.memberId,
    contentSha256: member.contentSha256,
    isError: member.isError,
    truncated: member.truncated,
    parts: member.parts.map(partIdentity),
  };
}

export function parseSealedContext(data: SealedContextProposalData, selection: ContextSelection): SealedContext {
  if (data.selectionSha256 !== selection.selectionSha256) throw new JudgmentParseError("Sealed context proposal names a stale selection.");
  const proposed = new Map<string, SealedContextMemberData>();
  for (const member of data.members) {
    if (proposed.has(member.bindingId)) throw new JudgmentParseError(`Duplicate sealed context binding: ${member.bindingId}.`);
    proposed.set(member.bindingId, member);
  }
  if (proposed.size !== selection.bindings.length) throw new JudgmentParseError("Sealed context must account for exactly every selected binding.");
  const members: SelectedContextMember[] = [];
  for (const binding of selection.bindings) {
    const member = proposed.get(binding.bindingId);
    if (!member) throw new JudgmentParseError(`Missing sealed context binding: ${binding.bindingId}.`);
    const parts = Object.freeze(member.parts.map((part, index) => parseContentPart(part, `/members/${binding.bindingId}/parts/${index}`)));
    const actual = contextContentSha256(parts);
    if (actual !== member.contentSha256) throw new JudgmentParseError(`Sealed content digest mismatch for ${binding.bindingId}.`);
    if (binding.expectedContentSha256 && binding.expectedContentSha256 !== actual)
      throw new JudgmentParseError(`Selected content changed before sealing: ${binding.bindingId}.`);
    const origin = originOf(selection, binding);
    if (origin.kind === "inventory-source") {
      if (member.isError || member.truncated) throw new JudgmentParseError(`Inventory source cannot seal as error or truncated: ${binding.bindingId}.`);
    } else if (member.isError !== origin.entry.isError || member.truncated !== origin.entry.truncated) {
      throw new JudgmentParseError(`Observed result state changed before sealing: ${binding.bindingId}.`);
    }
    members.push(
      Object.freeze({ materialId: binding.bindingId, memberId: binding.memberId, contentSha256: actual, isError: member.isError, truncated: member.truncated, parts, origin }),
    );
  }
  members.sort((left, right) => compareText(left.materialId, right.materialId));
  const sealedContextSha256 = hashJson({
    judgmentId: selection.judgmentId,
    selectionSha256: selection.selectionSha256,
    questionSha256: selection.questionSha256,
    members: members.map(memberIdentity),
  });
  return Object.freeze({
    judgmentId: selection.judgmentId,
    selectionSha256: selection.selectionSha256,
    questionSha256: selection.questionSha256,
    branchRef: selection.branchRef,
    members: Object.freeze(members),
    sealedContextSha256,
  }) as SealedContext;
}
