// Reads Agent Skills files for the Router catalogue: the YAML frontmatter of a SKILL.md and a
// `routing.yaml` sidecar. Pure: bytes in, plain data or a coded problem out, never a throw, because
// a workspace's broken skill must become an unavailable catalogue entry rather than a failed plan.
//
// YAML is read strictly (1.2 core schema, duplicate keys are errors, warnings are errors, no
// aliases, no merge keys, string keys only) so that what a person sees in the file is what Docket
// routes on. Duplicate keys are found in linear time, and keys and nesting are bounded
// (server/yaml/strictDocument.ts), so no skill can make a plan slow or crash it. server/developer/bundledSkills.ts keeps its own minimal parser for the Developer
// runtime; this one is the Router's, and it accepts the full YAML frontmatter Agent Skills allow.
import type * as StrictDocument from "../yaml/strictDocument";

let strictDocument: typeof StrictDocument | undefined;

/**
 * The strict YAML reader, loaded on first use: a plan whose catalogue comes from the Router index
 * parses no YAML, and the `yaml` package is a quarter of the plan bundle (in dist/, the `docket
 * plan` bundle loads it from docket-cli-yaml.js; scripts/build.mjs).
 */
function strictYaml(): typeof StrictDocument {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  strictDocument ??= require("../yaml/strictDocument") as typeof StrictDocument;
  return strictDocument;
}

/** A problem that makes a catalogue entry unavailable: a stable code and a sentence. */
export interface SkillProblem {
  readonly code: string;
  readonly message: string;
}

export const SkillProblemCodes = Object.freeze({
  frontmatterInvalid: "skill-frontmatter-invalid",
  nameInvalid: "skill-name-invalid",
  descriptionInvalid: "skill-description-invalid",
  routingInvalid: "skill-routing-invalid",
  duplicateName: "skill-duplicate-name",
  notUtf8: "skill-not-utf8",
  tooLarge: "skill-too-large",
  unreadable: "skill-unreadable",
  limitExceeded: "skill-limit-exceeded",
} as const);

/** Mapping keys in one SKILL.md frontmatter or routing.yaml, at every depth; real ones have a few dozen. */
export const MAX_YAML_KEYS = 2_000;
/** Collections nested in one another; real files nest 3 or 4 deep. */
export const MAX_YAML_DEPTH = 64;

export type YamlRecord = { readonly [key: string]: YamlValue };
export type YamlValue = null | boolean | number | string | readonly YamlValue[] | YamlRecord;

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: SkillProblem };

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Decodes strict UTF-8 (a leading BOM is dropped); `what` names the file in the problem. */
export function decodeUtf8(bytes: Uint8Array, what: string): Parsed<string> {
  try {
    return { ok: true, value: decoder.decode(bytes) };
  } catch {
    return { ok: false, problem: { code: SkillProblemCodes.notUtf8, message: `${what} is not valid UTF-8` } };
  }
}

function plain(value: unknown, where: string): YamlValue {
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`${where}: numbers must be finite`);
    return value;
  }
  if (Array.isArray(value)) return value.map((item, index) => plain(item, `${where}[${index}]`));
  if (value instanceof Map) {
    const record: { [key: string]: YamlValue } = {};
    for (const [key, item] of value) {
      if (typeof key !== "string") throw new Error(`${where}: keys must be strings`);
      // defineProperty so that a key named "__proto__" stays an ordinary key.
      Object.defineProperty(record, key, { value: plain(item, where === "" ? key : `${where}.${key}`), enumerable: true, writable: true, configurable: true });
    }
    return record;
  }
  throw new Error(`${where || "value"}: unsupported YAML value (binary, set or custom tag)`);
}

/**
 * Parses one YAML document strictly into plain JSON-like data. `firstLine` is the file line the
 * text starts on, so problems cite lines of the file a person opens.
 */
export function parseYaml(text: string, what: string, code: string, firstLine = 1): Parsed<YamlValue> {
  const { lineOfOffset, parseStrictYaml } = strictYaml();
  const parsed = parseStrictYaml(
    text,
    { version: "1.2", schema: "core", strict: true, merge: false, prettyErrors: false, logLevel: "silent" },
    { maxKeys: MAX_YAML_KEYS, maxDepth: MAX_YAML_DEPTH },
  );
  if (!parsed.ok) {
    const exceeded = parsed.limit === "keys" ? `${parsed.keys} mapping keys; the limit is ${MAX_YAML_KEYS}` : `lists and mappings nested more than ${MAX_YAML_DEPTH} deep`;
    return { ok: false, problem: { code: SkillProblemCodes.limitExceeded, message: `${what}: ${exceeded}` } };
  }
  const document = parsed.document;
  const first = document.errors[0] ?? document.warnings[0];
  if (first !== undefined) {
    const at = ` (line ${lineOfOffset(text, first.pos[0]) + firstLine - 1})`;
    return { ok: false, problem: { code, message: `${what}: ${first.message.split("\n")[0] ?? first.code}${at}` } };
  }
  try {
    return { ok: true, value: plain(document.toJS({ mapAsMap: true, maxAliasCount: 0 }), "") };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: { code, message: `${what}: ${message === "Alias resolution is disabled" ? "aliases are not allowed" : message}` } };
  }
}

export function isRecord(value: YamlValue | undefined): value is YamlRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export interface SkillDocument {
  /** The frontmatter mapping. */
  readonly frontmatter: YamlRecord;
  /** The Markdown after the closing `---` line. */
  readonly body: string;
}

/**
 * Splits a SKILL.md into its frontmatter mapping and body. The file must open with a `---` line
 * (after an optional BOM) and the frontmatter ends at the next line that is exactly `---`.
 */
export function parseSkillDocument(text: string): Parsed<SkillDocument> {
  const invalid = (message: string): Parsed<SkillDocument> => ({ ok: false, problem: { code: SkillProblemCodes.frontmatterInvalid, message } });
  const normalized = (text.startsWith("\uFEFF") ? text.slice(1) : text).replace(/\r\n?/gu, "\n");
  if (!normalized.startsWith("---\n")) return invalid("SKILL.md must start with a --- line");
  const lines = normalized.slice(4).split("\n");
  const close = lines.indexOf("---");
  if (close < 0) return invalid("the frontmatter is not closed by a --- line");
  const header = lines.slice(0, close).join("\n");
  const body = lines.slice(close + 1).join("\n");
  const parsed = parseYaml(header, "frontmatter", SkillProblemCodes.frontmatterInvalid, 2);
  if (!parsed.ok) return parsed;
  if (!isRecord(parsed.value)) return invalid("the frontmatter must be a YAML mapping");
  return { ok: true, value: { frontmatter: parsed.value, body } };
}
