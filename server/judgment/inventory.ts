// The context inventory: descriptors (never bodies) of selectable sources and of capabilities,
// each with a descriptorSha256, and the inventory's snapshot hash.
import { JudgmentParseError } from "./errors";
import { compareText, hashJson, type JsonValue } from "./json";
import type { ProvenanceData } from "./owner";
import { parseProvenance, provenanceIdentity, type ContextProvenance } from "./provenance";
import { Identifier, NonEmptyText, Provenance, S, Sha256, decodeWith, type Schema } from "./schema";
import { normalizedText, uniqueTextSet } from "./text";

interface SourceBaseData {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly provenance: ProvenanceData;
}
export type ContextSourceDescriptorData =
  | (SourceBaseData & { readonly kind: "prepared-reference"; readonly path: string; readonly when: readonly string[]; readonly policySha256: string })
  | (SourceBaseData & { readonly kind: "pi-skill"; readonly policyPath?: string; readonly contentSha256?: string })
  | (SourceBaseData & { readonly kind: "pi-context-file"; readonly path: string; readonly contentSha256: string });

export interface CapabilityDescriptorData {
  readonly id: string;
  readonly kind: "pi-tool";
  readonly name: string;
  readonly description: string;
  readonly active: boolean;
  readonly provenance: ProvenanceData;
}

export interface ContextInventoryData {
  readonly sources: readonly ContextSourceDescriptorData[];
  readonly capabilities: readonly CapabilityDescriptorData[];
}

const sourceBase = { id: Identifier, title: S.text(1, 500), description: S.text(1, 2_000), provenance: Provenance };
export const ContextSourceDescriptorSchema: Schema = S.union("kind", [
  S.object({
    ...sourceBase,
    kind: S.literal("prepared-reference"),
    path: S.text(1, 1_024),
    when: S.array(NonEmptyText, { minItems: 1, maxItems: 64, uniqueItems: true }),
    policySha256: Sha256,
  }),
  S.object({ ...sourceBase, kind: S.literal("pi-skill"), policyPath: S.text(1, 2_000), contentSha256: Sha256 }, ["policyPath", "contentSha256"]),
  S.object({ ...sourceBase, kind: S.literal("pi-context-file"), path: S.text(1, 2_000), contentSha256: Sha256 }),
]);
export const CapabilityDescriptorSchema: Schema = S.object({
  id: Identifier,
  kind: S.literal("pi-tool"),
  name: S.text(1, 128),
  description: S.text(1, 2_000),
  active: S.boolean,
  provenance: Provenance,
});
export const ContextInventorySchema: Schema = S.object({
  sources: S.array(ContextSourceDescriptorSchema, { maxItems: 2_000 }),
  capabilities: S.array(CapabilityDescriptorSchema, { maxItems: 1_000 }),
});

interface SourceBase {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly provenance: ContextProvenance;
  readonly descriptorSha256: string;
}
export type PreparedReferenceDescriptor = SourceBase & {
  readonly kind: "prepared-reference";
  readonly path: string;
  readonly when: readonly string[];
  readonly policySha256: string;
};
export type PiSkillDescriptor = SourceBase & { readonly kind: "pi-skill"; readonly policyPath?: string; readonly contentSha256?: string };
export type PiContextFileDescriptor = SourceBase & { readonly kind: "pi-context-file"; readonly path: string; readonly contentSha256: string };
export type ContextSourceDescriptor = PreparedReferenceDescriptor | PiSkillDescriptor | PiContextFileDescriptor;

export interface CapabilityDescriptor {
  readonly id: string;
  readonly kind: "pi-tool";
  readonly name: string;
  readonly description: string;
  readonly active: boolean;
  readonly provenance: ContextProvenance;
  readonly descriptorSha256: string;
}

declare const inventoryBrand: unique symbol;
export interface ContextInventory {
  readonly [inventoryBrand]: true;
  readonly sources: readonly ContextSourceDescriptor[];
  readonly capabilities: readonly CapabilityDescriptor[];
  readonly inventorySha256: string;
}

type WithoutHash<T> = T extends unknown ? Omit<T, "descriptorSha256"> : never;

/** Identity payload of a source: id, kind, title, description, provenance, then kind fields. */
export function sourceIdentity(source: WithoutHash<ContextSourceDescriptor>): JsonValue {
  const base = { id: source.id, kind: source.kind, title: source.title, description: source.description, provenance: provenanceIdentity(source.provenance) };
  switch (source.kind) {
    case "prepared-reference":
      return { ...base, path: source.path, when: source.when, policySha256: source.policySha256 };
    case "pi-skill":
      return {
        ...base,
        ...(source.policyPath ? { policyPath: source.policyPath } : {}),
        ...(source.contentSha256 ? { contentSha256: source.contentSha256 } : {}),
      };
    case "pi-context-file":
      return { ...base, path: source.path, contentSha256: source.contentSha256 };
  }
}

export function capabilityIdentity(capability: Omit<CapabilityDescriptor, "descriptorSha256">): JsonValue {
  return {
    id: capability.id,
    kind: capability.kind,
    name: capability.name,
    description: capability.description,
    active: capability.active,
    provenance: provenanceIdentity(capability.provenance),
  };
}

function parseSource(data: ContextSourceDescriptorData, index: number): ContextSourceDescriptor {
  const path = `/sources/${index}`;
  const base = {
    id: data.id,
    title: normalizedText(data.title, `${path}/title`),
    description: normalizedText(data.description, `${path}/description`),
    provenance: parseProvenance(data.provenance, `${path}/provenance`),
  };
  let value: WithoutHash<ContextSourceDescriptor>;
  switch (data.kind) {
    case "prepared-reference":
      value = {
        ...base,
        kind: data.kind,
        path: normalizedText(data.path, `${path}/path`),
        when: uniqueTextSet(data.when, `${path}/when`, (text) => `Duplicate value at ${path}/when: ${text}.`),
        policySha256: data.policySha256,
      };
      break;
    case "pi-skill":
      value = {
        ...base,
        kind: data.kind,
        ...(data.policyPath ? { policyPath: normalizedText(data.policyPath, `${path}/policyPath`) } : {}),
        ...(data.contentSha256 ? { contentSha256: data.contentSha256 } : {}),
      };
      break;
    case "pi-context-file":
      value = { ...base, kind: data.kind, path: normalizedText(data.path, `${path}/path`), contentSha256: data.contentSha256 };
      break;
  }
  return Object.freeze({ ...value, descriptorSha256: hashJson(sourceIdentity(value)) }) as ContextSourceDescriptor;
}

function parseCapability(data: CapabilityDescriptorData, index: number): CapabilityDescriptor {
  const path = `/capabilities/${index}`;
  const value = {
    id: data.id,
    kind: "pi-tool" as const,
    name: normalizedText(data.name, `${path}/name`),
    description: normalizedText(data.description, `${path}/description`),
    active: data.active,
    provenance: parseProvenance(data.provenance, `${path}/provenance`),
  };
  return Object.freeze({ ...value, descriptorSha256: hashJson(capabilityIdentity(value)) });
}

/** The physical location a source is read from; two sources may not share it. */
function physicalKey(source: ContextSourceDescriptor): string {
  const location = source.kind === "pi-skill" ? (source.provenance.path ?? source.id) : source.path;
  return `${source.kind}:${source.provenance.source}:${location}`;
}

export function decodeContextInventoryData(value: JsonValue): ContextInventoryData {
  return decodeWith<ContextInventoryData>(ContextInventorySchema, value, "Context inventory has an invalid representation.");
}

export function parseContextInventory(data: ContextInventoryData): ContextInventory {
  const sources = data.sources.map(parseSource).sort((left, right) => compareText(left.id, right.id));
  const capabilities = data.capabilities.map(parseCapability).sort((left, right) => compareText(left.id, right.id));
  const ids = new Set<string>();
  const physical = new Set<string>();
  for (const source of sources) {
    if (ids.has(source.id)) throw new JudgmentParseError(`Duplicate inventory source ID: ${source.id}.`);
    ids.add(source.id);
    const key = physicalKey(source);
    if (physical.has(key)) throw new JudgmentParseError(`Duplicate inventory source provenance: ${key}.`);
    physical.add(key);
  }
  const capabilityIds = new Set<string>();
  for (const capability of capabilities) {
    if (capabilityIds.has(capability.id)) throw new JudgmentParseError(`Duplicate capability ID: ${capability.id}.`);
    capabilityIds.add(capability.id);
  }
  const inventorySha256 = hashJson({ sources: sources.map(sourceIdentity), capabilities: capabilities.map(capabilityIdentity) });
  return Object.freeze({ sources: Object.freeze(sources), capabilities: Object.freeze(capabilities), inventorySha256 }) as ContextInventory;
}

export function inventoryFromJson(value: JsonValue): ContextInventory {
  return parseContextInventory(decodeContextInventoryData(value));
}
