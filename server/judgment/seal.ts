// Sealing: acquire the current content of every selected binding concurrently, enforce byte
// limits, and parse the result against the selection. All or nothing: any failure rejects the
// whole call with ContextSealError and no partial value exists.
import { contextContentSha256, type ContextContentPartData } from "./content";
import { ContextSealError, JudgmentError } from "./errors";
import { canonicalJson, jsonValueFromUnknown, utf8ByteLength } from "./json";
import type { PiContextFileDescriptor, PiSkillDescriptor, PreparedReferenceDescriptor, ContextSourceDescriptor } from "./inventory";
import type { ObservedContextEntry } from "./observed";
import { decodeSealedContextProposalData, parseSealedContext, type SealedContext } from "./sealedContext";
import { selectContext, type ContextSelection } from "./selection";

export const MAX_SEALED_MEMBER_BYTES = 48_000;
export const MAX_SEALED_CONTEXT_BYTES = 256_000;

export interface AcquiredContextData {
  readonly parts: readonly ContextContentPartData[];
  readonly isError: boolean;
  readonly truncated: boolean;
}

/** Host-owned callbacks; each must return the *current* content of its member. */
export interface ContextAcquisition {
  readonly acquirePreparedReference: (source: PreparedReferenceDescriptor, signal?: AbortSignal) => Promise<AcquiredContextData>;
  readonly acquireSkill?: (source: PiSkillDescriptor, signal?: AbortSignal) => Promise<AcquiredContextData>;
  readonly acquireContextFile?: (source: PiContextFileDescriptor, signal?: AbortSignal) => Promise<AcquiredContextData>;
  readonly acquireObservedContext?: (entry: ObservedContextEntry, signal?: AbortSignal) => Promise<AcquiredContextData>;
}

/** The fixed text a metadata-only skill seals as (no callback needed). */
export function skillMetadataText(source: PiSkillDescriptor): string {
  return `Pi skill metadata\nTitle: ${source.title}\nDescription: ${source.description}`;
}

function acquireSource(source: ContextSourceDescriptor, acquisition: ContextAcquisition, signal?: AbortSignal): Promise<AcquiredContextData> {
  switch (source.kind) {
    case "prepared-reference":
      return acquisition.acquirePreparedReference(source, signal);
    case "pi-skill":
      if (!source.contentSha256) return Promise.resolve({ parts: [{ kind: "text", text: skillMetadataText(source) }], isError: false, truncated: false });
      if (!acquisition.acquireSkill) throw new ContextSealError(`No Pi skill acquisition is available for ${source.id}.`, { sourceId: source.id });
      return acquisition.acquireSkill(source, signal);
    case "pi-context-file":
      if (!acquisition.acquireContextFile)
        throw new ContextSealError(`No Pi context-file acquisition is available for ${source.id}.`, { sourceId: source.id });
      return acquisition.acquireContextFile(source, signal);
  }
}

/** UTF-8 length of the canonical JSON of a member's parts (the unit of both byte limits). */
export function acquiredBytes(parts: readonly ContextContentPartData[]): number {
  return utf8ByteLength(canonicalJson(jsonValueFromUnknown(parts)));
}

interface AcquiredMember {
  readonly bindingId: string;
  readonly contentSha256: string;
  readonly isError: boolean;
  readonly truncated: boolean;
  readonly parts: readonly ContextContentPartData[];
  readonly bytes: number;
}

function member(bindingId: string, content: AcquiredContextData): AcquiredMember {
  const bytes = acquiredBytes(content.parts);
  if (bytes > MAX_SEALED_MEMBER_BYTES)
    throw new ContextSealError(`Acquired context exceeds its member limit: ${bindingId}.`, { bindingId, bytes, limit: MAX_SEALED_MEMBER_BYTES });
  return { bindingId, contentSha256: contextContentSha256(content.parts), isError: content.isError, truncated: content.truncated, parts: content.parts, bytes };
}

export async function sealContext(selection: ContextSelection, acquisition: ContextAcquisition, options: { readonly signal?: AbortSignal } = {}): Promise<SealedContext> {
  const { signal } = options;
  if (signal?.aborted) throw new ContextSealError("Context sealing was aborted before acquisition.");
  try {
    const acquired = await Promise.all(
      selection.bindings.map(async (binding) => {
        if (signal?.aborted) throw new ContextSealError("Context sealing was aborted.");
        if (binding.kind === "inventory-source") {
          const source = selection.selectedSources.find((candidate) => candidate.id === binding.memberId);
          if (!source) throw new ContextSealError(`Selection lost inventory source ${binding.memberId}.`, { bindingId: binding.bindingId });
          return member(binding.bindingId, await acquireSource(source, acquisition, signal));
        }
        const entry = selection.selectedObservedContext.find((candidate) => candidate.id === binding.memberId);
        if (!entry) throw new ContextSealError(`Selection lost observed context ${binding.memberId}.`, { bindingId: binding.bindingId });
        if (!acquisition.acquireObservedContext)
          throw new ContextSealError(`No current-branch acquisition is available for ${entry.id}.`, { observedContextId: entry.id });
        return member(binding.bindingId, await acquisition.acquireObservedContext(entry, signal));
      }),
    );
    if (signal?.aborted) throw new ContextSealError("Context sealing was aborted.");
    const totalBytes = acquired.reduce((total, item) => total + item.bytes, 0);
    if (totalBytes > MAX_SEALED_CONTEXT_BYTES)
      throw new ContextSealError("Acquired context exceeds the aggregate byte limit.", { bytes: totalBytes, limit: MAX_SEALED_CONTEXT_BYTES });
    const proposal = jsonValueFromUnknown({
      selectionSha256: selection.selectionSha256,
      members: acquired.map((item) => ({ bindingId: item.bindingId, contentSha256: item.contentSha256, isError: item.isError, truncated: item.truncated, parts: item.parts })),
    });
    return parseSealedContext(decodeSealedContextProposalData(proposal), selection);
  } catch (error) {
    if (error instanceof ContextSealError) throw error;
    const detail = error instanceof JudgmentError ? { reason: error.message } : {};
    throw new ContextSealError("Context sealing failed before an atomic result was produced.", detail, { cause: error });
  }
}

/** Selection and seal as one step: both values, or a thrown error and neither. */
export async function selectAndSealContext(
  input: Parameters<typeof selectContext>[0] & { readonly acquisition: ContextAcquisition; readonly signal?: AbortSignal },
): Promise<{ readonly selection: ContextSelection; readonly sealedContext: SealedContext }> {
  const selection = selectContext(input);
  const sealedContext = await sealContext(selection, input.acquisition, input.signal ? { signal: input.signal } : {});
  return Object.freeze({ selection, sealedContext });
}
