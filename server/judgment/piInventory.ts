// Pi adapter: builds a context inventory from a Pi host's prepared-reference providers, skills,
// ambient context files and tools. Ids derive from content so they are stable across runs.
import type { CompiledJudgmentPolicy } from "./compiledPolicy";
import { contextContentSha256 } from "./content";
import { inventoryFromJson, type ContextInventory } from "./inventory";
import { hashJson, jsonValueFromUnknown } from "./json";

export interface PiSourceInfo {
  readonly path: string;
  readonly source: string;
  readonly scope: "user" | "project" | "temporary";
  readonly origin: "package" | "top-level";
  readonly baseDir?: string;
}
export interface PiSkillInput {
  readonly name: string;
  readonly description: string;
  readonly filePath: string;
  readonly disableModelInvocation: boolean;
  readonly policyPath?: string;
  readonly contentSha256?: string;
  readonly sourceInfo: PiSourceInfo;
}
export interface PiContextFileInput {
  readonly path: string;
  readonly content: string;
}
export interface PiToolInput {
  readonly name: string;
  readonly description: string;
  readonly sourceInfo: PiSourceInfo;
}
export interface PreparedContextProvider {
  readonly policyRoot: string;
  readonly policy: CompiledJudgmentPolicy;
}
export interface PiContextInventoryInput {
  readonly preparedProviders: readonly PreparedContextProvider[];
  readonly skills: readonly PiSkillInput[];
  readonly contextFiles: readonly PiContextFileInput[];
  readonly tools: readonly PiToolInput[];
  readonly activeToolNames: readonly string[];
}

/** `<prefix>-` + the first 24 hex characters of the identity's hash. */
export function piDescriptorId(prefix: string, identity: unknown): string {
  return `${prefix}-${hashJson(jsonValueFromUnknown(identity)).slice(0, 24)}`;
}

function provenance(info: PiSourceInfo) {
  return { source: info.source, scope: info.scope, origin: info.origin, path: info.path };
}

export function buildPiContextInventory(input: PiContextInventoryInput): ContextInventory {
  const references = input.preparedProviders.flatMap(({ policy, policyRoot }) =>
    policy.references.map((reference) => ({
      id: piDescriptorId("reference", { policySha256: policy.policySha256, path: reference.path }),
      kind: "prepared-reference",
      title: reference.path,
      description: `Prepared reference for ${policy.owner.name}.`,
      provenance: { source: policy.owner.provenance.source, scope: policy.owner.provenance.scope, origin: policy.owner.provenance.origin, path: `${policyRoot}/${reference.path}` },
      path: reference.path,
      when: reference.when,
      policySha256: policy.policySha256,
    })),
  );
  const skills = input.skills
    .filter((skill) => !skill.disableModelInvocation)
    .map((skill) => {
      const skillProvenance = { ...provenance(skill.sourceInfo), path: skill.filePath };
      return {
        id: piDescriptorId("skill", { name: skill.name, filePath: skill.filePath, provenance: skillProvenance }),
        kind: "pi-skill",
        title: skill.name,
        description: skill.description,
        provenance: skillProvenance,
        ...(skill.policyPath ? { policyPath: skill.policyPath } : {}),
        ...(skill.contentSha256 ? { contentSha256: skill.contentSha256 } : {}),
      };
    });
  const contextFiles = input.contextFiles.map((file) => ({
    id: piDescriptorId("context", { path: file.path }),
    kind: "pi-context-file",
    title: file.path,
    description: "Pi-loaded ambient context file.",
    provenance: { source: file.path, scope: "project", origin: "top-level", path: file.path },
    path: file.path,
    contentSha256: contextContentSha256([{ kind: "text", text: file.content }]),
  }));
  const active = new Set(input.activeToolNames);
  const capabilities = input.tools.map((tool) => ({
    id: piDescriptorId("tool", { name: tool.name, provenance: provenance(tool.sourceInfo) }),
    kind: "pi-tool",
    name: tool.name,
    description: tool.description,
    active: active.has(tool.name),
    provenance: provenance(tool.sourceInfo),
  }));
  return inventoryFromJson(jsonValueFromUnknown({ sources: [...references, ...skills, ...contextFiles], capabilities }));
}
