// The Router's skill catalogue, built purely from file bytes (catalogueFiles.ts does the reading).
// Every source becomes exactly one entry: available with its routing metadata, or unavailable with
// a coded problem. Nothing here throws for bad skill files: a broken workspace skill is reported in
// the plan, never allowed to break planning.
//
// Decisions (docs/router.md "Catalogue"):
// - Frontmatter must hold `name` (Agent Skills rules, and equal to the skill's folder name) and a
//   non-empty `description` (≤ 1024 characters). Other keys (license, allowed-tools, metadata…) are
//   allowed and ignored, except `routing`.
// - Routing metadata comes from the frontmatter key `routing:` or from a `routing.yaml` beside the
//   SKILL.md (the bundled skills use the sidecar so their SKILL.md bytes stay untouched); both at
//   once is an error. Omitted fields take defaults: role "work", reviewer null, every list empty.
// - Same name twice among available entries: a bundled entry wins over any workspace entry; among
//   workspace entries the first by path (code-unit order) wins. The others become unavailable
//   with `skill-duplicate-name`.
import { compareCodeUnits, sha256Hex } from "../ledger/canonicalJson";
import { MAX_SKILL_DESCRIPTION_LENGTH, MAX_SKILL_NAME_LENGTH, SKILL_NAME_PATTERN } from "../developer/bundledSkills";
import {
  SkillProblemCodes,
  decodeUtf8,
  isRecord,
  parseSkillDocument,
  parseYaml,
  type Parsed,
  type SkillProblem,
  type YamlRecord,
  type YamlValue,
} from "./frontmatter";
import { Domain, RoutingMetadata, type Catalogue, type CatalogueEntry } from "./planSchema";

/** SKILL.md files larger than this are not read (the entry is unavailable, `skill-too-large`). */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;
/** routing.yaml sidecars larger than this are refused the same way. */
export const MAX_ROUTING_FILE_BYTES = 64 * 1024;
/** Workspace skills read per catalogue; the rest are reported in one `skill-limit-exceeded` entry. */
export const MAX_WORKSPACE_SKILLS = 500;
/** Bounds on the routing block, so one skill cannot make routing expensive. */
export const MAX_ROUTING_LIST_ITEMS = 64;
export const MAX_ROUTING_WORD_LENGTH = 200;

export const ROUTING_SIDECAR_FILE_NAME = "routing.yaml";
const REVISION_DOMAIN = "docket/skill-revision/v1";

/** A file as the adapter found it: its bytes, or why they were not read. */
export type SourceFile =
  | Uint8Array
  | { readonly skipped: "too-large"; readonly size: number }
  | { readonly skipped: "unreadable"; readonly why: string };

export interface SkillSource {
  readonly source: "bundled" | "workspace";
  /** POSIX path of the SKILL.md: `skills/<name>/SKILL.md` for bundled, workspace-relative otherwise. */
  readonly path: string;
  readonly skill: SourceFile;
  /** The `routing.yaml` beside it, or null when there is none. */
  readonly routing: SourceFile | null;
  /** Set by the adapter for sources it listed but did not read (over the workspace limit). */
  readonly problem?: SkillProblem;
}

/** The folder name of a SKILL.md path (`.claude/skills/x/SKILL.md` → `x`). */
export function skillFolderName(skillPath: string): string {
  const parts = skillPath.split("/");
  return parts.length >= 2 ? (parts[parts.length - 2] ?? "") : "";
}

function fileRevisionPart(label: string, file: SourceFile | null): Uint8Array {
  if (file === null) return Buffer.from(`${label} absent\n`, "utf8");
  if (file instanceof Uint8Array) return Buffer.concat([Buffer.from(`${label} ${file.byteLength}\n`, "utf8"), file, Buffer.from("\n", "utf8")]);
  const detail = file.skipped === "too-large" ? `too-large ${file.size}` : "unreadable";
  return Buffer.from(`${label} skipped ${detail}\n`, "utf8");
}

/**
 * sha256 over a domain tag, then SKILL.md and routing.yaml, each length-prefixed so that no two
 * different pairs of files can produce the same input.
 */
export function skillRevisionSha256(skill: SourceFile, routing: SourceFile | null): string {
  return sha256Hex(Buffer.concat([Buffer.from(`${REVISION_DOMAIN}\n`, "utf8"), fileRevisionPart("SKILL.md", skill), fileRevisionPart(ROUTING_SIDECAR_FILE_NAME, routing)]));
}

function readFile(file: SourceFile, what: string, limit: number): Parsed<string> {
  if (!(file instanceof Uint8Array)) {
    if (file.skipped === "unreadable") return { ok: false, problem: { code: SkillProblemCodes.unreadable, message: `${what} could not be read: ${file.why}` } };
    return { ok: false, problem: { code: SkillProblemCodes.tooLarge, message: `${what} has ${file.size} bytes; the limit is ${limit}` } };
  }
  if (file.byteLength > limit) return { ok: false, problem: { code: SkillProblemCodes.tooLarge, message: `${what} has ${file.byteLength} bytes; the limit is ${limit}` } };
  return decodeUtf8(file, what);
}

function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const key of path) out += typeof key === "number" ? `[${key}]` : `.${String(key)}`;
  return out;
}

const DEFAULTS: { readonly [key: string]: YamlValue } = {
  role: "work",
  domains: [],
  signals: [],
  entityKinds: [],
  technologies: [],
  riskTags: [],
  modes: [],
  reviewer: null,
  relations: [],
  excludedBy: [],
};

const WORD_LISTS = ["domains", "signals", "technologies", "riskTags", "excludedBy"] as const;

/** Fills defaults for omitted fields, validates with the RoutingMetadata schema, then checks bounds. */
export function validateRouting(block: YamlValue, name: string, prefix: string): Parsed<RoutingMetadata> {
  const invalid = (message: string): Parsed<RoutingMetadata> => ({ ok: false, problem: { code: SkillProblemCodes.routingInvalid, message } });
  if (!isRecord(block)) return invalid(`${prefix}: must be a mapping`);
  const filled: { [key: string]: YamlValue } = {};
  for (const [key, value] of Object.entries(DEFAULTS)) Object.defineProperty(filled, key, { value, enumerable: true, writable: true, configurable: true });
  for (const [key, value] of Object.entries(block)) Object.defineProperty(filled, key, { value, enumerable: true, writable: true, configurable: true });
  const result = RoutingMetadata.safeParse(filled);
  if (!result.success) {
    const issue = result.error.issues[0];
    if (issue === undefined) return invalid(`${prefix}: invalid`);
    const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
    const path = keys.length > 0 ? [...issue.path, keys[0] ?? ""] : issue.path;
    return invalid(`${formatPath(prefix, path)}: ${issue.message}`);
  }
  const metadata = result.data;
  for (const field of [...WORD_LISTS, "entityKinds", "modes", "relations"] as const) {
    if (metadata[field].length > MAX_ROUTING_LIST_ITEMS) return invalid(`${prefix}.${field}: at most ${MAX_ROUTING_LIST_ITEMS} items`);
  }
  for (const field of WORD_LISTS) {
    for (const [index, word] of metadata[field].entries()) {
      if (word.trim().length === 0 || word !== word.trim() || word.length > MAX_ROUTING_WORD_LENGTH) {
        return invalid(`${prefix}.${field}[${index}]: must be 1–${MAX_ROUTING_WORD_LENGTH} characters without surrounding spaces`);
      }
    }
  }
  for (const [index, domain] of metadata.domains.entries()) {
    // A misspelt domain would silently never match, so it is an error.
    if (!Domain.safeParse(domain).success || domain === "unspecified") {
      return invalid(`${prefix}.domains[${index}]: unknown domain ${JSON.stringify(domain)}; expected one of ${Domain.options.filter((item) => item !== "unspecified").join(", ")}`);
    }
  }
  for (const [index, relation] of metadata.relations.entries()) {
    if (relation.skill.length > MAX_SKILL_NAME_LENGTH || !SKILL_NAME_PATTERN.test(relation.skill)) {
      return invalid(`${prefix}.relations[${index}].skill: not a valid skill name: ${JSON.stringify(relation.skill)}`);
    }
    if (relation.skill === name) return invalid(`${prefix}.relations[${index}].skill: a skill cannot relate to itself`);
  }
  if (metadata.reviewer !== null && metadata.role !== "review") return invalid(`${prefix}.role: a skill with a reviewer seat must have role "review"`);
  return { ok: true, value: metadata };
}

interface Read {
  readonly name: string;
  readonly description: string;
  readonly problem: SkillProblem | null;
  readonly metadata: RoutingMetadata | null;
}

function readSource(source: SkillSource): Read {
  const folder = skillFolderName(source.path);
  const unavailable = (problem: SkillProblem, name = folder, description = "", metadata: RoutingMetadata | null = null): Read => ({ name, description, problem, metadata });
  if (source.problem !== undefined) return unavailable(source.problem);
  const text = readFile(source.skill, "SKILL.md", MAX_SKILL_FILE_BYTES);
  if (!text.ok) return unavailable(text.problem);
  const document = parseSkillDocument(text.value);
  if (!document.ok) return unavailable(document.problem);
  const { frontmatter } = document.value;
  const name = frontmatter.name;
  if (typeof name !== "string" || name.length === 0) return unavailable({ code: SkillProblemCodes.nameInvalid, message: "frontmatter name is required and must be a string" });
  if (name.length > MAX_SKILL_NAME_LENGTH || !SKILL_NAME_PATTERN.test(name)) {
    return unavailable({ code: SkillProblemCodes.nameInvalid, message: `frontmatter name ${JSON.stringify(name)} must be 1–${MAX_SKILL_NAME_LENGTH} lowercase letters, digits and single hyphens` });
  }
  if (name !== folder) return unavailable({ code: SkillProblemCodes.nameInvalid, message: `frontmatter name "${name}" does not match its folder "${folder}"` });
  const description = frontmatter.description;
  if (typeof description !== "string" || description.trim().length === 0) {
    return unavailable({ code: SkillProblemCodes.descriptionInvalid, message: "frontmatter description is required and must be a non-empty string" }, name);
  }
  if (description.length > MAX_SKILL_DESCRIPTION_LENGTH) {
    return unavailable({ code: SkillProblemCodes.descriptionInvalid, message: `frontmatter description has ${description.length} characters; the limit is ${MAX_SKILL_DESCRIPTION_LENGTH}` }, name);
  }
  const metadata = readRouting(source, frontmatter, name);
  if (!metadata.ok) return unavailable(metadata.problem, name, description);
  return { name, description, problem: null, metadata: metadata.value };
}

function readRouting(source: SkillSource, frontmatter: YamlRecord, name: string): Parsed<RoutingMetadata | null> {
  const inline = Object.prototype.hasOwnProperty.call(frontmatter, "routing") ? frontmatter.routing : undefined;
  if (source.routing === null) return inline === undefined ? { ok: true, value: null } : validateRouting(inline, name, "routing");
  if (inline !== undefined) {
    return { ok: false, problem: { code: SkillProblemCodes.routingInvalid, message: `routing is declared both in the frontmatter and in ${ROUTING_SIDECAR_FILE_NAME}; keep one` } };
  }
  const text = readFile(source.routing, ROUTING_SIDECAR_FILE_NAME, MAX_ROUTING_FILE_BYTES);
  if (!text.ok) return text;
  const block = parseYaml(text.value, ROUTING_SIDECAR_FILE_NAME, SkillProblemCodes.routingInvalid);
  if (!block.ok) return block;
  return validateRouting(block.value, name, ROUTING_SIDECAR_FILE_NAME);
}

function compareEntries(left: CatalogueEntry, right: CatalogueEntry): number {
  return compareCodeUnits(left.name, right.name) || compareCodeUnits(left.source, right.source) || compareCodeUnits(left.path, right.path);
}

/** Builds the catalogue from skill files; the result is independent of the order of `sources`. */
export function catalogueFromSources(sources: readonly SkillSource[]): Catalogue {
  const entries: CatalogueEntry[] = sources.map((source) => {
    const read = readSource(source);
    return {
      name: read.name,
      source: source.source,
      path: source.path,
      description: read.description,
      revisionSha256: skillRevisionSha256(source.skill, source.routing),
      status: read.problem === null ? "available" : "unavailable",
      problem: read.problem,
      metadata: read.metadata,
    };
  });
  // "bundled" < "workspace" in code units, so this order is also the duplicate precedence.
  entries.sort(compareEntries);
  const kept = new Map<string, CatalogueEntry>();
  return {
    entries: entries.map((entry) => {
      if (entry.status !== "available") return entry;
      const winner = kept.get(entry.name);
      if (winner === undefined) {
        kept.set(entry.name, entry);
        return entry;
      }
      const why = winner.source === "bundled" ? `the bundled skill ${winner.path} has this name` : `${winner.path} has this name and comes first`;
      return { ...entry, status: "unavailable", problem: { code: SkillProblemCodes.duplicateName, message: `another skill named "${entry.name}" is used instead: ${why}` } };
    }),
  };
}

/** The available entry with this name, if any (at most one exists after duplicate resolution). */
export function availableEntry(catalogue: Catalogue, name: string): CatalogueEntry | undefined {
  return catalogue.entries.find((entry) => entry.name === name && entry.status === "available");
}
