// The pure half of the snapshot: from a file list and the facts derived from a few files' bytes to
// the `WorkspaceSnapshot` value and its hash. Everything is sorted by code units here, so the
// order a lister or a file system produced things in never reaches the result.
import { compareCodeUnits, hashValue } from "../../ledger/canonicalJson";
import type { ImportEdge, SnapshotModule, SnapshotRuleFile, SnapshotTechnology, WorkspaceSnapshot } from "../planSchema";
import { deriveFacts, roleOf, type FileFacts, type FileRole } from "./fileFacts";
import { findHotPaths } from "./hotPaths";
import { resolveSpecifier } from "./importGraph";
import type { Listing, SkippedEntry } from "./listing";
import { resolveLimits, type ResolvedLimits, type SnapshotOptions } from "./options";
import { EXTENSION_TECHNOLOGIES, MAX_EXTENSION_SOURCES, NAME_TECHNOLOGIES } from "./technologies";

export const SNAPSHOT_FORMAT = "docket/router-snapshot/v1";
const MAX_PATH_LENGTH = 4096;

export interface FileToRead {
  readonly path: string;
  readonly role: FileRole;
}

/** The listing after validation, de-duplication, sorting and the file cap; and what must be read. */
export interface PreparedSnapshot extends Listing {
  readonly reads: readonly FileToRead[];
  /** The files as a set, when prepareSnapshot built one holding exactly them (else finishSnapshot builds it). */
  readonly listed?: ReadonlySet<string>;
}

/** Non-empty, no empty, `.` or `..` segment (so no leading or trailing slash); scanned without splitting. */
function isRelativePosix(path: string): boolean {
  const length = path.length;
  if (length === 0) return false;
  let start = 0;
  for (;;) {
    const slash = path.indexOf("/", start);
    const end = slash === -1 ? length : slash;
    const size = end - start;
    if (size === 0) return false;
    if (size <= 2 && path.charCodeAt(start) === 0x2e && (size === 1 || path.charCodeAt(start + 1) === 0x2e)) return false;
    if (slash === -1) return true;
    start = slash + 1;
  }
}

function clip(path: string): string {
  return path.length === 0 ? "(empty name)" : path.slice(0, MAX_PATH_LENGTH);
}

export function prepareSnapshot(listing: Listing, limits: ResolvedLimits): PreparedSnapshot {
  const skipped: SkippedEntry[] = listing.skipped.map((entry) => ({ path: clip(entry.path), why: entry.why }));
  const unique = new Set<string>();
  for (const path of listing.files) {
    if (!isRelativePosix(path)) skipped.push({ path: clip(path), why: "not a relative path inside the workspace" });
    else if (path.length > MAX_PATH_LENGTH) skipped.push({ path: clip(path), why: `path longer than ${MAX_PATH_LENGTH} characters` });
    else unique.add(path);
  }
  const sorted = [...unique].sort(compareCodeUnits);
  const resultLimits = [...listing.limits];
  const files = sorted.length > limits.maxFiles ? sorted.slice(0, limits.maxFiles) : sorted;
  if (sorted.length > limits.maxFiles) resultLimits.push(`files: ${sorted.length} listed, first ${limits.maxFiles} kept`);

  const reads: FileToRead[] = [];
  let sources = 0;
  for (const path of files) {
    const role = roleOf(path);
    if (role === null) continue;
    if (role.role === "source") {
      sources += 1;
      if (sources > limits.maxImportFiles) continue;
    }
    reads.push({ path, role });
  }
  if (sources > limits.maxImportFiles) resultLimits.push(`imports: ${sources} source files, first ${limits.maxImportFiles} parsed`);
  // Uncapped, the set of unique paths holds exactly the files: finishSnapshot resolves imports in it
  // instead of hashing 100,000 paths into a second one.
  return { source: listing.source, files, reads, skipped, limits: resultLimits, ...(files.length === unique.size ? { listed: unique } : {}) };
}

function directoriesOf(files: readonly string[]): string[] {
  const directories = new Set<string>();
  // Files of one folder come together in a sorted list: its ancestors are added once.
  let lastFolder: string | null = null;
  for (const file of files) {
    const last = file.lastIndexOf("/");
    if (last === -1) continue;
    // Its last slash where the last folder ends, and that folder before it: the same folder,
    // known without cutting it out of every path.
    if (lastFolder !== null && last === lastFolder.length && file.startsWith(lastFolder)) continue;
    const folder = file.slice(0, last);
    lastFolder = folder;
    for (let slash = file.indexOf("/"); slash !== -1; slash = file.indexOf("/", slash + 1)) directories.add(file.slice(0, slash));
  }
  return [...directories].sort(compareCodeUnits);
}

function compareModules(left: SnapshotModule, right: SnapshotModule): number {
  return (
    compareCodeUnits(left.path, right.path) ||
    compareCodeUnits(left.name, right.name) ||
    compareCodeUnits(left.kind, right.kind) ||
    compareCodeUnits(left.manifest ?? "", right.manifest ?? "")
  );
}

function extensionOf(name: string): string | null {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return null;
  // Gradle's Kotlin build scripts say nothing about the project's language.
  if (name.endsWith(".gradle.kts")) return null;
  return name.slice(dot + 1).toLowerCase();
}

interface NameEvidence {
  /** The technology the whole name evidences (NAME_TECHNOLOGIES). */
  readonly named: string | undefined;
  /** The language its extension evidences (EXTENSION_TECHNOLOGIES). */
  readonly extension: string | undefined;
}

function evidenceOf(name: string): NameEvidence {
  const named = Object.prototype.hasOwnProperty.call(NAME_TECHNOLOGIES, name) ? NAME_TECHNOLOGIES[name] : undefined;
  const extension = extensionOf(name);
  return { named, extension: extension !== null && Object.prototype.hasOwnProperty.call(EXTENSION_TECHNOLOGIES, extension) ? EXTENSION_TECHNOLOGIES[extension] : undefined };
}

function technologiesOf(files: readonly string[], manifests: ReadonlyMap<string, readonly string[]>): SnapshotTechnology[] {
  const sources = new Map<string, Set<string>>();
  const add = (technology: string, source: string): void => {
    const set = sources.get(technology) ?? new Set<string>();
    set.add(source);
    sources.set(technology, set);
  };
  for (const [manifest, technologies] of manifests) for (const technology of technologies) add(technology, manifest);
  const byExtension = new Map<string, number>();
  // What a file name evidences depends on the name alone, and names repeat across a large tree
  // (index.ts, package.json): each distinct name is looked up once.
  const byName = new Map<string, NameEvidence>();
  for (const file of files) {
    if (file.startsWith("node_modules/") || file.includes("/node_modules/")) continue;
    const name = file.slice(file.lastIndexOf("/") + 1);
    let evidence = byName.get(name);
    if (evidence === undefined) {
      evidence = evidenceOf(name);
      byName.set(name, evidence);
    }
    if (evidence.named !== undefined) add(evidence.named, file);
    const technology = evidence.extension;
    if (technology === undefined) continue;
    // `files` is sorted, so the cited files are the first few in code-unit order.
    const cited = byExtension.get(technology) ?? 0;
    if (cited < MAX_EXTENSION_SOURCES) {
      byExtension.set(technology, cited + 1);
      add(technology, file);
    }
  }
  return [...sources.entries()]
    .map(([name, set]) => ({ name, sources: [...set].sort(compareCodeUnits) }))
    .sort((left, right) => compareCodeUnits(left.name, right.name));
}

/**
 * The import edges, each once. Reads come in file order, so each source appears once and an edge
 * can repeat only within it: de-duplicated there, without a key string per edge. Sources in any
 * other order (never built so) are de-duplicated across all of them.
 */
function importEdges(specifiers: ReadonlyArray<{ readonly from: string; readonly specifiers: readonly string[] }>, listed: ReadonlySet<string>): ImportEdge[] {
  let increasing = true;
  for (let at = 1; at < specifiers.length && increasing; at += 1) increasing = (specifiers[at - 1] as { from: string }).from < (specifiers[at] as { from: string }).from;
  const edges: ImportEdge[] = [];
  const seen = new Set<string>();
  for (const { from, specifiers: found } of specifiers) {
    if (increasing) seen.clear();
    for (const specifier of found) {
      const to = resolveSpecifier(from, specifier, listed);
      if (to === null || to === from) continue;
      const key = increasing ? to : `${from}\u0000${to}`;
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push({ from, to });
    }
  }
  return edges;
}

export function finishSnapshot(prepared: PreparedSnapshot, factsOf: (read: FileToRead) => FileFacts, limits: ResolvedLimits): WorkspaceSnapshot {
  const skipped = [...prepared.skipped];
  const resultLimits = [...prepared.limits];
  const modules: SnapshotModule[] = [];
  const manifestTechnologies = new Map<string, readonly string[]>();
  const ruleFiles: SnapshotRuleFile[] = [];
  const specifiers: { from: string; specifiers: readonly string[] }[] = [];
  let truncated = 0;
  for (const read of prepared.reads) {
    const facts = factsOf(read);
    switch (facts.role) {
      case "manifest":
        modules.push(...facts.facts.modules);
        manifestTechnologies.set(read.path, facts.facts.technologies);
        if (facts.facts.problem !== null) skipped.push({ path: read.path, why: facts.facts.problem });
        break;
      case "rule":
        ruleFiles.push({ path: read.path, sha256: facts.sha256 });
        break;
      case "source":
        specifiers.push({ from: read.path, specifiers: facts.specifiers });
        if (facts.truncated) truncated += 1;
        break;
      case "unusable":
        skipped.push({ path: read.path, why: facts.why });
        break;
    }
  }
  if (truncated > 0) resultLimits.push(`imports: ${truncated} source files longer than ${limits.maxImportBytesPerFile} bytes, only their start scanned`);

  const directories = directoriesOf(prepared.files);
  // A top-level folder is a module in its own right unless a manifest already declares one there.
  const declared = new Set(modules.map((entry) => entry.path));
  for (const directory of directories) {
    if (!directory.includes("/") && !declared.has(directory)) modules.push({ name: directory, path: directory, kind: "directory", manifest: null });
  }
  modules.sort(compareModules);
  // Two manifests may declare the same module (settings.gradle `include` and the member's own
  // build file); the first manifest in code-unit order speaks for it.
  const uniqueModules = modules.filter((entry, index) => {
    const previous = modules[index - 1];
    return previous === undefined || previous.path !== entry.path || previous.name !== entry.name || previous.kind !== entry.kind;
  });

  const listed = prepared.listed !== undefined && prepared.listed.size === prepared.files.length ? prepared.listed : new Set(prepared.files);
  const imports = importEdges(specifiers, listed).sort((left, right) => compareCodeUnits(left.from, right.from) || compareCodeUnits(left.to, right.to));

  const hot = findHotPaths(prepared.files, limits.maxHotPaths);
  if (hot.total > hot.hotPaths.length) resultLimits.push(`hotPaths: ${hot.total} hints, first ${hot.hotPaths.length} kept`);

  skipped.sort((left, right) => compareCodeUnits(left.path, right.path) || compareCodeUnits(left.why, right.why));
  const uniqueSkipped = skipped.filter((entry, index) => {
    const previous = skipped[index - 1];
    return previous === undefined || previous.path !== entry.path || previous.why !== entry.why;
  });
  if (uniqueSkipped.length > limits.maxSkipped) resultLimits.push(`skipped: ${uniqueSkipped.length} entries, first ${limits.maxSkipped} kept`);

  const body = {
    format: SNAPSHOT_FORMAT,
    source: prepared.source,
    files: [...prepared.files],
    directories,
    modules: uniqueModules,
    technologies: technologiesOf(prepared.files, manifestTechnologies),
    ruleFiles: ruleFiles.sort((left, right) => compareCodeUnits(left.path, right.path)),
    hotPaths: [...hot.hotPaths],
    imports,
    limits: resultLimits,
    skipped: uniqueSkipped.slice(0, limits.maxSkipped),
  } satisfies Omit<WorkspaceSnapshot, "snapshotSha256">;
  return { ...body, snapshotSha256: hashValue(body) };
}

/**
 * The pure snapshot: `files` in any order (duplicates and invalid paths are dropped and said),
 * `read` gives a file's bytes or null when it cannot be read. Only manifests, rule files and
 * TypeScript/JavaScript sources are read.
 */
export function snapshotFromFiles(
  files: readonly string[],
  read: (path: string) => Buffer | null,
  source: "git" | "walk",
  options: SnapshotOptions = {},
): WorkspaceSnapshot {
  const limits = resolveLimits(options);
  const prepared = prepareSnapshot({ source, files, skipped: [], limits: [] }, limits);
  return finishSnapshot(prepared, (entry) => deriveFacts(entry.path, entry.role, read(entry.path), limits), limits);
}
