// Docket's bundled Developer skills (developer/v8 §4.1, §4.5). Only these may own a frame: an
// owner skill is a routing candidate with capability id `skill:<name>`; any other skill the agent
// knows about is context material only. The folders live in `skills/<name>/` at the package root.
//
// The frontmatter parser here is deliberately minimal and strict (no YAML dependency is bundled):
// bundled files are ours, so anything beyond `key: value` lines is a mistake worth failing on.

/** Alphabetical, which is also capability-id order (`skill:` + name), the order §4.5 sorts candidates in. */
export const BUNDLED_SKILL_NAMES = Object.freeze([
  "abstraction-review",
  "adversarial-eval",
  "doctor",
  "model",
  "naming-judgment",
  "schedule",
  "signal",
  "sketch",
  "specify",
  "verify",
] as const);

export type BundledSkillName = (typeof BUNDLED_SKILL_NAMES)[number];

/** Skills that ship a `judgment.json` policy beside their SKILL.md; the rest have none (absence is normal). */
export const BUNDLED_SKILLS_WITH_POLICY: readonly BundledSkillName[] = Object.freeze([
  "abstraction-review",
  "model",
  "naming-judgment",
  "schedule",
  "signal",
  "sketch",
  "verify",
]);

export const SKILLS_DIRECTORY = "skills";
export const SKILL_FILE_NAME = "SKILL.md";
export const JUDGMENT_POLICY_FILE_NAME = "judgment.json";

export function isBundledSkillName(value: string): value is BundledSkillName {
  return (BUNDLED_SKILL_NAMES as readonly string[]).includes(value);
}

export function skillCapabilityId(name: BundledSkillName): string {
  return `skill:${name}`;
}

/** POSIX paths relative to the package root, so callers join them with their own install root. */
export function skillFilePath(name: BundledSkillName): string {
  return `${SKILLS_DIRECTORY}/${name}/${SKILL_FILE_NAME}`;
}

export function judgmentPolicyPath(name: BundledSkillName): string | undefined {
  return BUNDLED_SKILLS_WITH_POLICY.includes(name) ? `${SKILLS_DIRECTORY}/${name}/${JUDGMENT_POLICY_FILE_NAME}` : undefined;
}

// Agent Skills limits: lowercase letters, digits and single hyphens, ≤64 chars; description ≤1024.
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/u;
export const MAX_SKILL_NAME_LENGTH = 64;
export const MAX_SKILL_DESCRIPTION_LENGTH = 1024;

export interface SkillFrontmatter {
  readonly name: string;
  readonly description: string;
  /** Every key found, including name and description, for callers that honour optional keys. */
  readonly fields: ReadonlyMap<string, string>;
  /** The Markdown after the closing `---`. */
  readonly body: string;
}

export class SkillFrontmatterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SkillFrontmatterError";
  }
}

function unquote(raw: string, key: string): string {
  if (raw.startsWith('"')) {
    // A YAML double-quoted scalar without escapes beyond JSON's is valid JSON; reject anything else.
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new SkillFrontmatterError(`frontmatter ${key}: unsupported double-quoted value`);
    }
    if (typeof parsed !== "string") throw new SkillFrontmatterError(`frontmatter ${key}: expected a string`);
    return parsed;
  }
  if (raw.startsWith("'")) {
    if (raw.length < 2 || !raw.endsWith("'")) throw new SkillFrontmatterError(`frontmatter ${key}: unterminated quote`);
    const inner = raw.slice(1, -1);
    if (/'(?!')/u.test(inner.replaceAll("''", ""))) throw new SkillFrontmatterError(`frontmatter ${key}: stray quote`);
    return inner.replaceAll("''", "'");
  }
  // Plain scalars that YAML would read as something else (maps, lists, block scalars, comments) are refused.
  if (/^[[{>|&*!%@`#-]/u.test(raw) || raw.includes(": ") || raw.includes(" #")) {
    throw new SkillFrontmatterError(`frontmatter ${key}: quote this value`);
  }
  return raw;
}

/**
 * Splits a SKILL.md into frontmatter and body. Accepts only: a first line `---`, then one
 * `key: value` per line (plain, single- or double-quoted scalars), then a closing `---` line.
 * Requires non-empty `name` and `description` and applies the Agent Skills limits.
 */
export function parseSkillFrontmatter(text: string): SkillFrontmatter {
  const normalized = text.replace(/\r\n/gu, "\n");
  if (!normalized.startsWith("---\n")) throw new SkillFrontmatterError("SKILL.md must start with a --- line");
  const end = normalized.indexOf("\n---\n", 3);
  const endAtEof = normalized.endsWith("\n---") ? normalized.length - 4 : -1;
  const close = end >= 0 ? end : endAtEof;
  if (close < 0) throw new SkillFrontmatterError("frontmatter is not closed by a --- line");
  const header = normalized.slice(4, close);
  const body = normalized.slice(Math.min(normalized.length, close + 5));
  const fields = new Map<string, string>();
  for (const line of header.split("\n")) {
    if (line.trim().length === 0) continue;
    const match = /^([A-Za-z][A-Za-z0-9_-]*):(?: (.*))?$/u.exec(line);
    if (match === null) throw new SkillFrontmatterError(`unsupported frontmatter line: ${line}`);
    const key = match[1] ?? "";
    const raw = (match[2] ?? "").trim();
    if (fields.has(key)) throw new SkillFrontmatterError(`frontmatter ${key}: duplicate key`);
    if (raw.length === 0) throw new SkillFrontmatterError(`frontmatter ${key}: nested or empty values are not supported`);
    fields.set(key, unquote(raw, key));
  }
  const name = fields.get("name");
  const description = fields.get("description");
  if (name === undefined || name.length === 0) throw new SkillFrontmatterError("frontmatter name is required");
  if (name.length > MAX_SKILL_NAME_LENGTH || !SKILL_NAME_PATTERN.test(name)) {
    throw new SkillFrontmatterError(`frontmatter name is not a valid skill name: ${name}`);
  }
  if (description === undefined || description.trim().length === 0) {
    throw new SkillFrontmatterError("frontmatter description is required");
  }
  if (description.length > MAX_SKILL_DESCRIPTION_LENGTH) {
    throw new SkillFrontmatterError("frontmatter description is longer than 1024 characters");
  }
  return { name, description, fields, body };
}
