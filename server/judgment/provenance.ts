// Provenance of inventory sources, capabilities and observed entries (same shape as an owner's).
import type { JsonValue } from "./json";
import type { ProvenanceData } from "./owner";
import { normalizedText } from "./text";

export type ContextProvenance = ProvenanceData;

export function parseProvenance(data: ProvenanceData, path: string): ContextProvenance {
  return Object.freeze({
    source: normalizedText(data.source, `${path}/source`),
    scope: data.scope,
    origin: data.origin,
    ...(data.path ? { path: normalizedText(data.path, `${path}/path`) } : {}),
  });
}

export function provenanceIdentity(value: ContextProvenance): JsonValue {
  return { source: value.source, scope: value.scope, origin: value.origin, ...(value.path ? { path: value.path } : {}) };
}

