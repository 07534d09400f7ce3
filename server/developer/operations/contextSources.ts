// Context sources of an open frame (§3.3 b): the bundled skills besides the owner, opened as
// `material` support, and the owner's prepared references, nominated at conclusion. Opening a
// source records which method (and policy) the agent read; it never admits a contribution and
// never grants mutation. At conclusion every opened source is read again and must be unchanged.
import { hashValue } from "../../ledger/canonicalJson";
import { DocketError } from "../../errors";
import { ErrorCodes } from "../../protocol/messages";
import { buildPiContextInventory, type ContextInventory, type ContextSourceDescriptor } from "../../judgment";
import type { HistoryView } from "../history";
import type { AssignmentState, FrameState, ScopeState, SupportRecord } from "../scopeState";
import { asInvalidParams, BatchChain, notLegal, operationId, requireActiveScope } from "./common";
import type { OperationBatch } from "./judgmentOperations";
import { findSkillByCapability, type BundledSkill, type SkillCatalog } from "./skillCatalog";

export const MAX_CONTEXT_SOURCES_PER_CALL = 4;

export interface InventoryOptions {
  /** Skills whose policies' prepared references are listed (the owner, opened sources). */
  readonly providers?: readonly BundledSkill[];
  /** Skills whose method content was opened: their descriptor then carries its hash. */
  readonly opened?: readonly BundledSkill[];
}

/** The Judgment inventory over the bundled skills (judgment.md §5.1, §11). */
export function catalogInventory(catalog: SkillCatalog, options: InventoryOptions = {}): ContextInventory {
  const opened = new Map((options.opened ?? []).map((skill) => [skill.name, skill.methodContentSha256]));
  const providers = new Map<string, BundledSkill>();
  for (const skill of options.providers ?? []) if (skill.policy !== null) providers.set(skill.name, skill);
  return buildPiContextInventory({
    preparedProviders: [...providers.values()].flatMap((skill) => (skill.policy === null ? [] : [{ policy: skill.policy, policyRoot: skill.policyRoot }])),
    skills: catalog.skills.map((skill) => {
      const contentSha256 = opened.get(skill.name);
      return {
        name: skill.name,
        description: skill.description,
        filePath: skill.filePath,
        disableModelInvocation: false,
        sourceInfo: skill.sourceInfo,
        ...(contentSha256 === undefined ? {} : { contentSha256 }),
      };
    }),
    contextFiles: [],
    tools: [],
    activeToolNames: [],
  });
}

function skillOfSource(catalog: SkillCatalog, source: ContextSourceDescriptor): BundledSkill | undefined {
  if (source.kind !== "pi-skill") return undefined;
  return catalog.skills.find((skill) => skill.filePath === source.provenance.path && skill.name === source.title);
}

/** The inventory id of a bundled skill (stable: it derives from name and package path). */
export function skillInventoryId(catalog: SkillCatalog, skill: BundledSkill): string {
  const source = catalogInventory(catalog).sources.find((entry) => skillOfSource(catalog, entry)?.name === skill.name);
  if (source === undefined) throw new DocketError(ErrorCodes.internal, `Bundled skill ${skill.name} is missing from its inventory.`);
  return source.id;
}

/** §3.3 b support hash: binds the opened descriptor, method content and policy. */
export function materialSupportSha256(catalog: SkillCatalog, skill: BundledSkill): { descriptorSha256: string; supportSha256: string } {
  const source = catalogInventory(catalog, { opened: [skill] }).sources.find((entry) => skillOfSource(catalog, entry)?.name === skill.name);
  if (source === undefined) throw new DocketError(ErrorCodes.internal, `Bundled skill ${skill.name} is missing from its inventory.`);
  return {
    descriptorSha256: source.descriptorSha256,
    supportSha256: hashValue({ descriptorSha256: source.descriptorSha256, methodContentSha256: skill.methodContentSha256, policySha256: skill.policy?.policySha256 ?? null }),
  };
}

export function openFrameOf(scope: ScopeState): FrameState | undefined {
  return scope.frames.find((entry) => entry.conclusion === null);
}

/** The frame's owner assignment (the latest one recorded for its current revision), if any. */
export function ownerAssignmentOf(scope: ScopeState, frame: FrameState): AssignmentState | undefined {
  return [...scope.assignments]
    .reverse()
    .find((entry) => entry.assignment.parentFrameId === frame.frame.frameId && entry.assignment.parentFrameRevision === frame.frame.frameRevision);
}

export interface ContextSourceListingEntry {
  readonly inventorySourceId: string;
  readonly kind: "skill" | "prepared-reference";
  readonly title: string;
  readonly path: string;
}

/** What open_judgment tells the caller it may use: other skills to open, owner references to nominate. */
export function contextSourceListing(catalog: SkillCatalog, owner: BundledSkill | null): ContextSourceListingEntry[] {
  const inventory = catalogInventory(catalog, { providers: owner === null ? [] : [owner] });
  const listing: ContextSourceListingEntry[] = [];
  for (const source of inventory.sources) {
    if (source.kind === "pi-skill") {
      if (owner !== null && source.title === owner.name) continue;
      listing.push({ inventorySourceId: source.id, kind: "skill", title: source.title, path: source.provenance.path ?? source.title });
    } else if (source.kind === "prepared-reference") {
      listing.push({ inventorySourceId: source.id, kind: "prepared-reference", title: source.title, path: source.provenance.path ?? source.path });
    }
  }
  return listing;
}

export interface OpenContextSourcesInput {
  readonly inventorySourceIds: readonly string[];
}

export interface OpenedContextSource {
  readonly inventorySourceId: string;
  readonly skillName: string;
  readonly method: string;
}

export interface SkippedContextSource {
  readonly inventorySourceId: string;
  readonly reason: "already-open" | "owner";
}

export function openContextSourcesBatch(
  history: HistoryView,
  input: OpenContextSourcesInput,
  catalog: SkillCatalog,
  occurredAt: string,
): OperationBatch & { opened: OpenedContextSource[]; skipped: SkippedContextSource[] } {
  const scope = requireActiveScope(history);
  const frame = openFrameOf(scope);
  if (frame === undefined) notLegal("No judgment frame is open; context sources belong to an open frame.");
  const ids = input.inventorySourceIds;
  if (ids.length < 1 || ids.length > MAX_CONTEXT_SOURCES_PER_CALL) {
    throw new DocketError(ErrorCodes.invalidParams, `Open 1 to ${MAX_CONTEXT_SOURCES_PER_CALL} context sources at a time (got ${ids.length}).`);
  }
  if (new Set(ids).size !== ids.length) throw new DocketError(ErrorCodes.invalidParams, "The context source ids repeat an id.");
  const inventory = catalogInventory(catalog);
  const owner = ownerAssignmentOf(scope, frame);
  const ownerSkill = owner === undefined ? undefined : findSkillByCapability(catalog, owner.assignment.skillCapabilityId);
  const alreadyOpen = new Set(scope.supports.filter((support) => support.sourceKind === "material").map((support) => support.sourceId));
  const opened: { id: string; skill: BundledSkill }[] = [];
  const skipped: SkippedContextSource[] = [];
  for (const id of ids) {
    const source = inventory.sources.find((entry) => entry.id === id);
    const skill = source === undefined ? undefined : skillOfSource(catalog, source);
    if (skill === undefined) {
      throw new DocketError(
        ErrorCodes.unknownContextSource,
        `${id} is not a bundled skill's context source id; prepared references are nominated at conclusion, not opened. Nothing was written.`,
      );
    }
    if (alreadyOpen.has(id)) skipped.push({ inventorySourceId: id, reason: "already-open" });
    else if (ownerSkill?.name === skill.name) skipped.push({ inventorySourceId: id, reason: "owner" });
    else opened.push({ id, skill });
  }
  if (opened.length === 0) return { workScopeId: scope.workScopeId, drafts: [], opened: [], skipped };
  return asInvalidParams(() => {
    const chain = new BatchChain(scope, occurredAt);
    for (const entry of opened) {
      const { supportSha256 } = materialSupportSha256(catalog, entry.skill);
      chain.add("support-observed", {
        support: {
          supportId: operationId("support", scope, `material:${entry.id}`),
          sourceKind: "material",
          sourceId: entry.id,
          sourceRevisionSha256: entry.skill.methodContentSha256,
          supportSha256,
        },
      });
    }
    return {
      workScopeId: scope.workScopeId,
      drafts: chain.drafts,
      opened: opened.map((entry) => ({ inventorySourceId: entry.id, skillName: entry.skill.name, method: entry.skill.method })),
      skipped,
    };
  });
}

/**
 * Every source opened in the scope, read again now: a method or policy that changed since it
 * was opened fails the conclusion (the support on the ledger would describe other content).
 */
export function verifiedOpenedSources(scope: ScopeState, catalog: SkillCatalog): { support: SupportRecord; skill: BundledSkill }[] {
  const inventory = catalogInventory(catalog);
  return scope.supports
    .filter((support) => support.sourceKind === "material")
    .map((support) => {
      const source = inventory.sources.find((entry) => entry.id === support.sourceId);
      const skill = source === undefined ? undefined : skillOfSource(catalog, source);
      if (skill === undefined) {
        throw new DocketError(ErrorCodes.contextSourceChanged, `Context source ${support.sourceId} is no longer available; nothing was written.`);
      }
      if (skill.methodContentSha256 !== support.sourceRevisionSha256 || materialSupportSha256(catalog, skill).supportSha256 !== support.supportSha256) {
        throw new DocketError(ErrorCodes.contextSourceChanged, `Context source ${skill.name} changed after it was opened; nothing was written.`);
      }
      return { support, skill };
    });
}

/** The owner's method and policy must be the ones its assignment was made for. */
export function verifiedOwnerSkill(owner: AssignmentState, catalog: SkillCatalog): BundledSkill {
  const skill = findSkillByCapability(catalog, owner.assignment.skillCapabilityId);
  const policy = owner.basis.policy;
  if (
    skill === undefined ||
    skill.methodContentSha256 !== owner.assignment.skillRevisionSha256 ||
    (policy.kind === "complete" ? skill.policy?.policySha256 !== policy.revisionSha256 : skill.policy !== null)
  ) {
    throw new DocketError(
      ErrorCodes.contextSourceChanged,
      `The owning skill ${owner.assignment.skillCapabilityId} changed its method or policy during the frame; nothing was written.`,
    );
  }
  return skill;
}
