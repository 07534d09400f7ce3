// The bundled Skill catalogue as the owner-skill operations see it (§4.1, §4.5, §3.3 b): each
// available bundled skill's method text (the SKILL.md body), its content hash, and its compiled
// judgment.json policy when it ships one. This is the one impure piece of the operations: it
// reads the package's `skills/` folder; every builder takes the loaded catalogue as plain data.
//
// Identities are package-relative (`skills/<name>/SKILL.md`, provenance source "docket"), so
// the same package yields the same hashes on every machine and install path.
import fs from "node:fs";
import path from "node:path";
import { hashValue } from "../../ledger/canonicalJson";
import {
  BUNDLED_SKILL_NAMES,
  judgmentPolicyPath,
  parseSkillFrontmatter,
  skillCapabilityId,
  skillFilePath,
  SKILLS_DIRECTORY,
  type BundledSkillName,
} from "../bundledSkills";
import {
  contextContentSha256,
  jsonValueFromUnknown,
  loadOptionalJudgmentPolicyFile,
  ownerFromJson,
  type CompiledJudgmentPolicy,
  type PiSourceInfo,
  type PolicyOwner,
} from "../../judgment";

/** Provenance source naming Docket's own package in judgment identities. */
export const DOCKET_SKILL_SOURCE = "docket";

export interface BundledSkill {
  readonly name: BundledSkillName;
  readonly description: string;
  /** Package-relative POSIX path of SKILL.md (part of every identity). */
  readonly filePath: string;
  /** Package-relative POSIX folder, used as the prepared references' policy root in identities. */
  readonly policyRoot: string;
  /** Absolute folder on this machine, used only to read files. */
  readonly baseDir: string;
  readonly sourceInfo: PiSourceInfo;
  /** The SKILL.md body without frontmatter, trimmed: what the owner or a context source reads. */
  readonly method: string;
  readonly methodContentSha256: string;
  readonly policy: CompiledJudgmentPolicy | null;
}

export interface SkillCatalog {
  /** Available bundled skills in capability-id order (`skill:<name>`). */
  readonly skills: readonly BundledSkill[];
}

export class SkillCatalogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SkillCatalogError";
  }
}

export function skillSourceInfo(name: BundledSkillName): PiSourceInfo {
  return { path: skillFilePath(name), source: DOCKET_SKILL_SOURCE, scope: "user", origin: "package" };
}

/** The policy owner a bundled skill's judgment.json is compiled for (§3.4: the caller names it). */
export function skillPolicyOwner(name: BundledSkillName): PolicyOwner {
  const info = skillSourceInfo(name);
  return ownerFromJson(
    jsonValueFromUnknown({
      kind: "pi-skill",
      namespace: DOCKET_SKILL_SOURCE,
      name,
      provenance: { source: info.source, scope: info.scope, origin: info.origin, path: info.path },
    }),
  );
}

/** The text-part content hash the Judgment engine also computes for an opened skill (§6.1). */
export function methodContentSha256(method: string): string {
  return contextContentSha256([{ kind: "text", text: method }]);
}

/** §4.5: a non-owner candidate's revision is its metadata, not its method body. */
export function skillMetadataRevision(skill: BundledSkill): string {
  return hashValue({ name: skill.name, description: skill.description, filePath: skill.filePath, sourceInfo: { ...skill.sourceInfo } });
}

export function findSkill(catalog: SkillCatalog, name: string): BundledSkill | undefined {
  return catalog.skills.find((skill) => skill.name === name);
}

export function findSkillByCapability(catalog: SkillCatalog, capabilityId: string): BundledSkill | undefined {
  return catalog.skills.find((skill) => skillCapabilityId(skill.name) === capabilityId);
}

/** The folder holding Docket's package.json and `skills/`, found by walking up from `start`. */
export function findPackageRoot(start: string = __dirname): string {
  let dir = path.resolve(start);
  for (;;) {
    if (fs.existsSync(path.join(dir, "package.json")) && fs.existsSync(path.join(dir, SKILLS_DIRECTORY))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new SkillCatalogError(`Docket's bundled skills folder was not found above ${start}.`);
    dir = parent;
  }
}

function isDisabled(fields: ReadonlyMap<string, string>): boolean {
  return fields.get("disable-model-invocation") === "true";
}

async function loadSkill(packageRoot: string, name: BundledSkillName): Promise<BundledSkill | null> {
  const filePath = skillFilePath(name);
  const absolute = path.join(packageRoot, filePath);
  let source: string;
  try {
    source = new TextDecoder("utf-8", { fatal: true }).decode(await fs.promises.readFile(absolute));
  } catch (error) {
    throw new SkillCatalogError(`Bundled skill ${name} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = parseSkillFrontmatter(source);
  if (parsed.name !== name) throw new SkillCatalogError(`Bundled skill folder ${name} declares the name ${parsed.name}.`);
  if (isDisabled(parsed.fields)) return null;
  const method = parsed.body.trim();
  if (method.length === 0) throw new SkillCatalogError(`Bundled skill ${name} has an empty method.`);
  const baseDir = path.dirname(absolute);
  let policy: CompiledJudgmentPolicy | null = null;
  const policyPath = judgmentPolicyPath(name);
  const loaded = await loadOptionalJudgmentPolicyFile({ path: path.join(baseDir, "judgment.json"), owner: skillPolicyOwner(name), allowedRoot: baseDir });
  if (loaded.kind === "invalid") throw new SkillCatalogError(`Bundled skill ${name} has an invalid judgment.json: ${loaded.diagnostic}`);
  if (loaded.kind === "loaded") policy = loaded.value.policy;
  // The bundled list says which skills ship a policy; a mismatch means a broken package.
  if ((policy !== null) !== (policyPath !== undefined)) throw new SkillCatalogError(`Bundled skill ${name}: judgment.json presence differs from the bundled list.`);
  return Object.freeze({
    name,
    description: parsed.description,
    filePath,
    policyRoot: path.posix.dirname(filePath),
    baseDir,
    sourceInfo: skillSourceInfo(name),
    method,
    methodContentSha256: methodContentSha256(method),
    policy,
  });
}

/** Reads every bundled skill now (callers re-load per operation so changes are noticed). */
export async function loadSkillCatalog(packageRoot: string): Promise<SkillCatalog> {
  const loaded = await Promise.all(BUNDLED_SKILL_NAMES.map((name) => loadSkill(packageRoot, name)));
  return Object.freeze({ skills: Object.freeze(loaded.filter((skill): skill is BundledSkill => skill !== null)) });
}
