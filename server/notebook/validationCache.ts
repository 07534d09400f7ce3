// The persistent Phase A cache of `docket notebook validate` (docs/performance.md, "Notebook
// validation cache"): for each record file, keyed by the SHA-256 of its exact bytes, what Phase A
// said — the facts Phase B needs when it passed, its diagnostics (without the path) when it failed.
// Phase A is a pure function of the bytes, so an entry answers for any file with those bytes now.
//
// Beside the entries it keeps the last verdict with the digest of the record set it was given for
// (every record file's path and SHA-256, in path order). Phase B is a pure function of that set,
// so when the set is the same the verdict is the same, and validate takes it without running the
// graph again; any added, removed, renamed or edited file changes the digest, and then Phase B runs
// over the entries' facts as always.
//
// One file per Notebook in the workspace's `.docket/cache/notebook-validation/`, named after the
// Notebook's canonical root. It is believed only when everything it is bound to still holds:
// - its format, and the validator that wrote it (validatorFingerprint: the record schema, the
//   limits and the bytes of the running Docket code, so any other Docket build ignores it);
// - the Notebook root, and the identity (device, inode) of its `records/` folder, so a cache file
//   copied from elsewhere — committed to a repository, restored from a backup — is ignored;
// - every entry well formed. Anything unknown, garbled, oversized or unreadable, and the whole
//   file is ignored: the records are validated from their bytes and the file rewritten.
//
// Trust: the cache says what an earlier `validate` found; anyone who can write `.docket/` can make
// it say "valid" for a record that is not. Like every `.docket/` cache (docs/guarantees.md: cached
// state never allows), it only speeds up a report. Proposal preflight, publication, recovery,
// `status`, the MCP tools and VS Code never read it; they validate from the bytes every time.
//
// The file is written whole and renamed into place (containedFs), only inside the workspace's real
// path and never through a symbolic link. Failing to write it changes nothing but the next run's time.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { readContained, UnsafePathError, writeFileAtomicContained } from "../workspace/containedFs";
import { MAX_NOTEBOOK_DIAGNOSTICS, notebookDiagnostic, type NotebookDiagnostic, type NotebookPhase } from "./diagnostics";
import type { GraphRecord } from "./graphValidation";
import { MAX_FRONTMATTER_BYTES, MAX_FRONTMATTER_DEPTH, MAX_FRONTMATTER_KEYS, MAX_RECORD_BYTES } from "./markdownProfile";
import type { RecordSetVerdict } from "./recordSet";
import { observerRecordSchema, RECORD_TYPES, type LineageRef, type LineageType, type RecordType, type RelationType, type SemanticRelation, type SourceRef, type SourceRole } from "./recordSchema";

export const VALIDATION_CACHE_FORMAT = "docket-notebook-validation-cache/v1";
/** Raised by hand whenever Phase A's rules change in a way the running code's bytes might not show. */
const PHASE_A_REVISION = 2;
/** Far above a 100,000-record Notebook's cache (about 30 MB); a larger file is ignored unread. */
export const MAX_VALIDATION_CACHE_BYTES = 128 * 1024 * 1024;

/** A record's Phase A answer, without the path it was found at. */
export type CachedOutcome =
  | { readonly passed: true; readonly facts: Omit<GraphRecord, "path" | "sha256"> }
  | { readonly passed: false; readonly diagnostics: readonly Omit<NotebookDiagnostic, "path">[] };

export interface ValidationCacheLocation {
  /** The workspace's real path: every write stays inside it. */
  readonly workspace: string;
  readonly file: string;
}

/** What a cache file must match to be believed, besides its validator. */
export interface ValidationCacheBinding {
  readonly root: string;
  /** `<dev>:<ino>` of the Notebook's records/ folder. */
  readonly recordsFolder: string;
}

export function validationCacheLocation(workspaceRealPath: string, notebookRoot: string): ValidationCacheLocation {
  const name = createHash("sha256").update(notebookRoot).digest("hex").slice(0, 32);
  return { workspace: workspaceRealPath, file: path.join(workspaceRealPath, ".docket", "cache", "notebook-validation", `${name}.json`) };
}

/** The identity of the records/ folder, or null when it cannot be read (then no cache is used). */
export function recordsFolderIdentity(recordsDir: string): string | null {
  try {
    const stat = fs.lstatSync(recordsDir, { bigint: true });
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return null;
  }
}

/** Bundles beside validate's own whose code decides Phase A answers (scripts/build.mjs). */
const PHASE_A_SIBLING_BUNDLES = ["docket-cli-yaml.js", "docket-cli-ajv.js"];

function readIfPresent(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

let fingerprint: string | undefined;

/**
 * Who judged: the schema, the bounds, the revision and the bytes of the code that is running (in
 * the CLI, validate's bundle and the yaml and ajv bundles it loads), so a Docket upgrade or
 * rebuild never trusts an older verdict.
 */
export function validatorFingerprint(): string {
  if (fingerprint === undefined) {
    const hash = createHash("sha256");
    hash.update(JSON.stringify({ PHASE_A_REVISION, MAX_RECORD_BYTES, MAX_FRONTMATTER_BYTES, MAX_FRONTMATTER_KEYS, MAX_FRONTMATTER_DEPTH, observerRecordSchema }));
    try {
      hash.update(fs.readFileSync(__filename));
      // validate's bundle loads yaml and ajv from these siblings (scripts/build.mjs, VALIDATE_SIBLINGS);
      // they decide Phase A answers too. Elsewhere (the other bundles, compiled sources) they are absent or unused.
      for (const sibling of PHASE_A_SIBLING_BUNDLES) {
        const bytes = readIfPresent(path.join(path.dirname(__filename), sibling));
        hash.update(bytes === null ? `${sibling}:absent` : bytes);
      }
    } catch {
      // Without its own bytes the fingerprint would not change with the code: make it unique, so nothing is reused.
      hash.update(`${process.pid}:${Date.now()}:${Math.random()}`);
    }
    fingerprint = hash.digest("hex");
  }
  return fingerprint;
}

// ---- decoding: hand-written, because the cache of 10,000 records is read on every warm run and
// a schema library per entry would cost more than the reads it saves; any deviation drops the file.

const SHA256 = /^[0-9a-f]{64}$/;
const TYPES: ReadonlySet<unknown> = new Set<RecordType>(RECORD_TYPES);
const ROLES: ReadonlySet<unknown> = new Set<SourceRole>(["supports", "challenges", "context", "example"]);
const LINEAGE: ReadonlySet<unknown> = new Set<LineageType>(["derived_from", "promoted_from", "merged_from", "split_from", "supersedes"]);
const RELATIONS: ReadonlySet<unknown> = new Set<RelationType>(["supports", "contradicts", "refines", "extends", "applies_to", "distinguishes", "alternative_to", "related"]);
const PHASES: ReadonlySet<unknown> = new Set<NotebookPhase>(["markdown", "schema", "record", "graph"]);

class Garbled extends Error {}

function garbled(): never {
  throw new Garbled();
}

function text(value: unknown): string {
  return typeof value === "string" ? value : garbled();
}

function optionalText(value: unknown): string | undefined {
  return value === null ? undefined : text(value);
}

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : garbled();
}

function member<T>(value: unknown, allowed: ReadonlySet<unknown>): T {
  return allowed.has(value) ? (value as T) : garbled();
}

function decodeSource(value: unknown): SourceRef {
  const entry = list(value);
  if (entry.length !== 2 && entry.length !== 3) garbled();
  const record = text(entry[0]);
  const role = member<SourceRole>(entry[1], ROLES);
  return entry.length === 3 ? { record, role, locator: text(entry[2]) } : { record, role };
}

function decodeEdge<T extends LineageType | RelationType>(value: unknown, types: ReadonlySet<unknown>): { type: T; target: string } {
  const entry = list(value);
  if (entry.length !== 2) garbled();
  return { type: member<T>(entry[0], types), target: text(entry[1]) };
}

function decodeOutcome(entry: readonly unknown[]): CachedOutcome {
  if (entry[1] === "p" && entry.length === 8) {
    const facts = {
      recordId: text(entry[2]),
      type: member<RecordType>(entry[3], TYPES),
      status: text(entry[4]),
      record: {
        sources: list(entry[5]).map(decodeSource),
        lineage: list(entry[6]).map((edge): LineageRef => decodeEdge<LineageType>(edge, LINEAGE)),
        relations: list(entry[7]).map((edge): SemanticRelation => decodeEdge<RelationType>(edge, RELATIONS)),
      },
    };
    return { passed: true, facts };
  }
  if (entry[1] === "f" && entry.length === 3) {
    const diagnostics = list(entry[2]).map((value) => {
      const fields = list(value);
      if (fields.length !== 6) garbled();
      return withoutPath(
        notebookDiagnostic({
          phase: member<NotebookPhase>(fields[0], PHASES),
          code: text(fields[1]),
          path: "",
          pointer: optionalText(fields[3]),
          recordId: optionalText(fields[4]),
          relatedId: optionalText(fields[5]),
          message: text(fields[2]),
        }),
      );
    });
    if (diagnostics.length === 0) garbled();
    return { passed: false, diagnostics };
  }
  return garbled();
}

function withoutPath(diagnostic: NotebookDiagnostic): Omit<NotebookDiagnostic, "path"> {
  const { path: _path, ...rest } = diagnostic;
  return rest;
}

export interface LoadedValidationCache {
  /** The digest of the record set the verdict is for (recordSetDigest). */
  readonly set: string;
  readonly verdict: RecordSetVerdict;
  /** The per-record entries, decoded on demand (the unchanged case never needs them); null when garbled. */
  readonly entries: () => Map<string, CachedOutcome> | null;
}

/** The digest a verdict is bound to: every record file's path and content hash, in the reader's (path) order. */
export function recordSetDigest(files: readonly { readonly path: string; readonly sha256: string }[]): string {
  // One update of the whole text (the same bytes as one update per file, without a call into the hash per record).
  let text = "";
  for (const file of files) text += `${file.path}\n${file.sha256}\n`;
  return createHash("sha256").update(text).digest("hex");
}

function decodeDiagnostic(value: unknown): NotebookDiagnostic {
  const fields = list(value);
  if (fields.length !== 7) garbled();
  return notebookDiagnostic({
    phase: member<NotebookPhase>(fields[0], PHASES),
    code: text(fields[1]),
    path: text(fields[2]),
    message: text(fields[3]),
    pointer: optionalText(fields[4]),
    recordId: optionalText(fields[5]),
    relatedId: optionalText(fields[6]),
  });
}

function encodeDiagnostic(diagnostic: NotebookDiagnostic): unknown[] {
  return [diagnostic.phase, diagnostic.code, diagnostic.path, diagnostic.message, diagnostic.pointer ?? null, diagnostic.recordId ?? null, diagnostic.relatedId ?? null];
}

function decodeVerdict(value: unknown): RecordSetVerdict {
  if (typeof value !== "object" || value === null || Array.isArray(value)) garbled();
  const fields = value as Record<string, unknown>;
  if (Object.keys(fields).join(",") !== "valid,graphEvaluated,records,diagnostics") garbled();
  const { valid, graphEvaluated, records } = fields;
  if (typeof valid !== "boolean" || typeof graphEvaluated !== "boolean" || typeof records !== "number" || !Number.isSafeInteger(records) || records < 0) garbled();
  const diagnostics = list(fields.diagnostics).map(decodeDiagnostic);
  if (valid !== (diagnostics.length === 0) || diagnostics.length > MAX_NOTEBOOK_DIAGNOSTICS) garbled();
  return { valid, graphEvaluated, records, diagnostics };
}

function decodeEntries(line: string): Map<string, CachedOutcome> | null {
  try {
    const entries = new Map<string, CachedOutcome>();
    for (const raw of list(JSON.parse(line))) {
      const entry = list(raw);
      const sha256 = text(entry[0]);
      if (!SHA256.test(sha256) || entries.has(sha256)) return null;
      entries.set(sha256, decodeOutcome(entry));
    }
    return entries;
  } catch (error) {
    if (error instanceof Garbled || error instanceof SyntaxError) return null;
    throw error;
  }
}

/**
 * The Notebook's cache file, or null when there is none or it cannot be believed (wrong format,
 * validator, root or records folder; garbled; oversized; unreadable; a link). Line 1 is the header
 * with the verdict, line 2 the entries, so the unchanged case parses only the header.
 */
export function loadValidationCache(location: ValidationCacheLocation, binding: ValidationCacheBinding): LoadedValidationCache | null {
  let bytes: Buffer | null;
  try {
    bytes = readContained(location.workspace, location.file, MAX_VALIDATION_CACHE_BYTES);
  } catch {
    return null;
  }
  if (bytes === null) return null;
  const newline = bytes.indexOf(0x0a);
  if (newline === -1 || bytes[bytes.length - 1] !== 0x0a || bytes.indexOf(0x0a, newline + 1) !== bytes.length - 1) return null;
  try {
    const value: unknown = JSON.parse(bytes.toString("utf8", 0, newline));
    if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
    const header = value as Record<string, unknown>;
    if (Object.keys(header).join(",") !== "format,validator,root,recordsFolder,set,verdict") return null;
    if (header.format !== VALIDATION_CACHE_FORMAT || header.validator !== validatorFingerprint()) return null;
    if (header.root !== binding.root || header.recordsFolder !== binding.recordsFolder) return null;
    const set = text(header.set);
    if (!SHA256.test(set)) return null;
    const verdict = decodeVerdict(header.verdict);
    // Line 2 is decoded only when asked for: the unchanged case never needs it.
    const cacheBytes = bytes;
    let entries: Map<string, CachedOutcome> | null | undefined;
    return { set, verdict, entries: () => (entries === undefined ? (entries = decodeEntries(cacheBytes.toString("utf8", newline + 1, cacheBytes.length - 1))) : entries) };
  } catch (error) {
    if (error instanceof Garbled || error instanceof SyntaxError) return null;
    throw error;
  }
}

function encodeOutcome(sha256: string, outcome: CachedOutcome): unknown[] {
  if (outcome.passed) {
    const { recordId, type, status, record } = outcome.facts;
    return [
      sha256,
      "p",
      recordId,
      type,
      status,
      record.sources.map((source) => (source.locator === undefined ? [source.record, source.role] : [source.record, source.role, source.locator])),
      record.lineage.map((edge) => [edge.type, edge.target]),
      record.relations.map((relation) => [relation.type, relation.target]),
    ];
  }
  return [
    sha256,
    "f",
    outcome.diagnostics.map((diagnostic) => [diagnostic.phase, diagnostic.code, diagnostic.message, diagnostic.pointer ?? null, diagnostic.recordId ?? null, diagnostic.relatedId ?? null]),
  ];
}

/**
 * Replaces the cache file with the verdict for the record set `set` and exactly `entries` (sorted
 * by hash, so equal caches are equal bytes). Returns whether it was written; a link in the way or an I/O failure only means no cache.
 */
export function saveValidationCache(
  location: ValidationCacheLocation,
  binding: ValidationCacheBinding,
  set: string,
  verdict: RecordSetVerdict,
  entries: ReadonlyMap<string, CachedOutcome>,
): boolean {
  const encoded = [...entries.keys()].sort().map((sha256) => encodeOutcome(sha256, entries.get(sha256) as CachedOutcome));
  const header = {
    format: VALIDATION_CACHE_FORMAT,
    validator: validatorFingerprint(),
    root: binding.root,
    recordsFolder: binding.recordsFolder,
    set,
    verdict: { valid: verdict.valid, graphEvaluated: verdict.graphEvaluated, records: verdict.records, diagnostics: verdict.diagnostics.map(encodeDiagnostic) },
  };
  const body = `${JSON.stringify(header)}\n${JSON.stringify(encoded)}\n`;
  // Encoded once: the bound is checked on the bytes that are written.
  const bytes = Buffer.from(body, "utf8");
  if (bytes.byteLength > MAX_VALIDATION_CACHE_BYTES) return false;
  try {
    writeFileAtomicContained(location.workspace, location.file, bytes);
    return true;
  } catch (error) {
    if (error instanceof UnsafePathError || (error as NodeJS.ErrnoException | undefined)?.code !== undefined) return false;
    throw error;
  }
}
