// Observed context: branch-local material (tool results, user events, domain evidence) described
// by digest, never by body, with per-entry descriptorSha256 and the snapshot's hash.
import { JudgmentParseError } from "./errors";
import { compareText, hashJson, type JsonValue } from "./json";
import type { ProvenanceData } from "./owner";
import { parseProvenance, provenanceIdentity, type ContextProvenance } from "./provenance";
import { Identifier, Provenance, S, Sha256, decodeWith, type Schema } from "./schema";
import { normalizedText } from "./text";

export interface Evaluator {
  readonly id: string;
  readonly version: string;
}

interface ObservedBaseData {
  readonly id: string;
  readonly contentSha256: string;
  readonly isError: boolean;
  readonly truncated: boolean;
  readonly sequence: number;
  readonly provenance: ProvenanceData;
}
type ObservedKinds =
  | { readonly kind: "read-result"; readonly toolCallId: string; readonly toolName: string; readonly argumentsSha256: string; readonly inventorySourceId?: string }
  | { readonly kind: "tool-result"; readonly toolCallId: string; readonly toolName: string; readonly argumentsSha256: string }
  | { readonly kind: "user-explicit"; readonly userEventId: string }
  | { readonly kind: "domain-evidence"; readonly domainRef: string; readonly domainType: string; readonly evaluator: Evaluator };

export type ObservedContextEntryData = ObservedBaseData & ObservedKinds;
export interface ObservedContextData {
  readonly branchRef: string;
  readonly entries: readonly ObservedContextEntryData[];
}

type ObservedEntryValue = Omit<ObservedBaseData, "provenance"> & { readonly provenance: ContextProvenance } & ObservedKinds;
export type ObservedContextEntry = ObservedEntryValue & { readonly descriptorSha256: string };

declare const observedBrand: unique symbol;
export interface ObservedContext {
  readonly [observedBrand]: true;
  readonly branchRef: string;
  readonly entries: readonly ObservedContextEntry[];
  readonly observedContextSha256: string;
}

const observedBase = {
  id: Identifier,
  contentSha256: Sha256,
  isError: S.boolean,
  truncated: S.boolean,
  sequence: S.integer(0, 1_000_000_000),
  provenance: Provenance,
};
const toolFields = { toolCallId: S.text(1, 300, false), toolName: S.text(1, 128, false), argumentsSha256: Sha256 };
export const ObservedContextEntrySchema: Schema = S.union("kind", [
  S.object({ ...observedBase, ...toolFields, kind: S.literal("read-result"), inventorySourceId: Identifier }, ["inventorySourceId"]),
  S.object({ ...observedBase, ...toolFields, kind: S.literal("tool-result") }),
  S.object({ ...observedBase, kind: S.literal("user-explicit"), userEventId: S.text(1, 300, false) }),
  S.object({
    ...observedBase,
    kind: S.literal("domain-evidence"),
    domainRef: S.text(1, 300, false),
    domainType: Identifier,
    evaluator: S.object({ id: Identifier, version: S.text(1, 128) }),
  }),
]);
export const ObservedContextSchema: Schema = S.object({
  branchRef: S.text(1, 300),
  entries: S.array(ObservedContextEntrySchema, { maxItems: 2_000 }),
});

export function observedIdentity(entry: ObservedEntryValue): JsonValue {
  const base = {
    id: entry.id,
    kind: entry.kind,
    contentSha256: entry.contentSha256,
    isError: entry.isError,
    truncated: entry.truncated,
    sequence: entry.sequence,
    provenance: provenanceIdentity(entry.provenance),
  };
  switch (entry.kind) {
    case "read-result":
      return {
        ...base,
        toolCallId: entry.toolCallId,
        toolName: entry.toolName,
        argumentsSha256: entry.argumentsSha256,
        ...(entry.inventorySourceId ? { inventorySourceId: entry.inventorySourceId } : {}),
      };
    case "tool-result":
      return { ...base, toolCallId: entry.toolCallId, toolName: entry.toolName, argumentsSha256: entry.argumentsSha256 };
    case "user-explicit":
      return { ...base, userEventId: entry.userEventId };
    case "domain-evidence":
      return { ...base, domainRef: entry.domainRef, domainType: entry.domainType, evaluator: { id: entry.evaluator.id, version: entry.evaluator.version } };
  }
}

function parseEntry(data: ObservedContextEntryData, index: number): ObservedContextEntry {
  const path = `/entries/${index}`;
  const base = {
    id: data.id,
    contentSha256: data.contentSha256,
    isError: data.isError,
    truncated: data.truncated,
    sequence: data.sequence,
    provenance: parseProvenance(data.provenance, `${path}/provenance`),
  };
  let value: ObservedEntryValue;
  switch (data.kind) {
    case "read-result":
      value = {
        ...base,
        kind: data.kind,
        toolCallId: normalizedText(data.toolCallId, `${path}/toolCallId`),
        toolName: normalizedText(data.toolName, `${path}/toolName`),
        argumentsSha256: data.argumentsSha256,
        ...(data.inventorySourceId ? { inventorySourceId: data.inventorySourceId } : {}),
      };
      break;
    case "tool-result":
      value = {
        ...base,
        kind: data.kind,
        toolCallId: normalizedText(data.toolCallId, `${path}/toolCallId`),
        toolName: normalizedText(data.toolName, `${path}/toolName`),
        argumentsSha256: data.argumentsSha256,
      };
      break;
    case "user-explicit":
      value = { ...base, kind: data.kind, userEventId: normalizedText(data.userEventId, `${path}/userEventId`) };
      break;
    case "domain-evidence":
      value = {
        ...base,
        kind: data.kind,
        domainRef: normalizedText(data.domainRef, `${path}/domainRef`),
        domainType: data.domainType,
        evaluator: Object.freeze({ id: data.evaluator.id, version: normalizedText(data.evaluator.version, `${path}/evaluator/version`) }),
      };
      break;
  }
  return Object.freeze({ ...value, descriptorSha256: hashJson(observedIdentity(value)) });
}

/** The host-side identity of where an entry came from; two entries may not share it. */
function provenanceKey(entry: ObservedContextEntry): string {
  switch (entry.kind) {
    case "read-result":
    case "tool-result":
      return `tool:${entry.toolCallId}`;
    case "user-explicit":
      return `user:${entry.userEventId}`;
    case "domain-evidence":
      return `domain:${entry.domainRef}`;
  }
}

export function decodeObservedContextData(value: JsonValue): ObservedContextData {
  return decodeWith<ObservedContextData>(ObservedContextSchema, value, "Observed context has an invalid representation.");
}

export function parseObservedContext(data: ObservedContextData): ObservedContext {
  const entries = data.entries.map(parseEntry).sort((left, right) => left.sequence - right.sequence || compareText(left.id, right.id));
  const ids = new Set<string>();
  const sequences = new Set<number>();
  const keys = new Set<string>();
  for (const entry of entries) {
    if (ids.has(entry.id)) throw new JudgmentParseError(`Duplicate observed context ID: ${entry.id}.`);
    if (sequences.has(entry.sequence)) throw new JudgmentParseError(`Duplicate observed context sequence: ${entry.sequence}.`);
    const key = provenanceKey(entry);
    if (keys.has(key)) throw new JudgmentParseError(`Duplicate observed context provenance: ${key}.`);
    ids.add(entry.id);
    sequences.add(entry.sequence);
    keys.add(key);
  }
  const branchRef = normalizedText(data.branchRef, "/branchRef");
  const observedContextSha256 = hashJson({ branchRef, entries: entries.map(observedIdentity) });
  return Object.freeze({ branchRef, entries: Object.freeze(entries), observedContextSha256 }) as ObservedContext;
}

export function observedContextFromJson(value: JsonValue): ObservedContext {
  return parseObservedContext(decodeObservedContextData(value));
}
