// Prepared-reference acquisition over contained readers: one reader per provider, chosen by the
// policy that owns the reference, so a path is only ever resolved under its own policy root.
import { ContextSealError } from "./errors";
import type { PreparedReferenceDescriptor } from "./inventory";
import type { LocalReferenceReader } from "./localReferenceReader";
import { MAX_SEALED_MEMBER_BYTES, type AcquiredContextData } from "./seal";

export function preparedReferenceAcquisition(
  readersByPolicySha256: ReadonlyMap<string, LocalReferenceReader>,
): (source: PreparedReferenceDescriptor, signal?: AbortSignal) => Promise<AcquiredContextData> {
  return async (source, signal) => {
    const reader = readersByPolicySha256.get(source.policySha256);
    if (!reader) throw new ContextSealError(`No local reference reader for the policy of ${source.id}.`, { sourceId: source.id });
    const text = await reader.read(source, signal ? { maxBytes: MAX_SEALED_MEMBER_BYTES, signal } : { maxBytes: MAX_SEALED_MEMBER_BYTES });
    return { parts: [{ kind: "text", text }], isError: false, truncated: false };
  };
}
