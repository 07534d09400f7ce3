// Stage 5, CONTEXT PACK (design router.md): what an agent needs to act on the plan, frozen to
// the versions it was computed from — the snapshot hash, the revision of every catalogue entry the
// plan uses, and the basis that review reports bind to — plus facts, files, import neighbours,
// rule files, constraints, findings and unknowns. Every list is capped, and a cap is said.
import { countOf, agree } from "../plural";
import { compareCodeUnits, hashValue } from "../ledger/canonicalJson";
import type {
  Catalogue,
  CatalogueEntry,
  CompositionStage,
  ContextPackStage,
  IntentStage,
  Reason,
  RoutingStage,
  TaskSpan,
  TaskStage,
  WorkspaceSnapshot,
} from "./planSchema";
import { dedupeReasons, isWithin, reviewerSkill, seatBoard } from "./reviewBoard";
import { testReferences, touchedSourceFiles } from "./reviewChecks";

/** The hash domain of `basisSha256`. */
export const BASIS_FORMAT = "docket/router-basis/v1";

/** Files listed per grounded directory or module, and in the whole pack. */
export const FILES_PER_ENTITY = 50;
export const MAX_PACK_FILES = 200;
/** Grounded files given graph rows, and neighbours listed per direction. */
export const MAX_GRAPH_FILES = 50;
export const MAX_NEIGHBOURS = 50;

type Versions = ContextPackStage["versions"];
type Fact = ContextPackStage["facts"][number];
type PackFile = ContextPackStage["files"][number];
type GraphRow = ContextPackStage["graph"][number];
type Constraint = ContextPackStage["constraints"][number];
type PackFinding = ContextPackStage["findings"][number];
type Unknown = ContextPackStage["unknowns"][number];

/**
 * Binds review reports to what was reviewed: the task text, the snapshot and the whole catalogue
 * (every entry's identity, revision and status), independent of the catalogue's listing order.
 */
export function basisSha256(task: TaskStage, snapshot: WorkspaceSnapshot, catalogue: Catalogue): string {
  const entries = catalogue.entries
    .map((entry) => ({ name: entry.name, source: entry.source, revisionSha256: entry.revisionSha256, status: entry.status }))
    .sort(
      (left, right) =>
        compareCodeUnits(left.name, right.name) ||
        compareCodeUnits(left.source, right.source) ||
        compareCodeUnits(left.revisionSha256, right.revisionSha256) ||
        compareCodeUnits(left.status, right.status),
    );
  return hashValue({ domain: BASIS_FORMAT, value: { task: task.text, snapshotSha256: snapshot.snapshotSha256, catalogue: entries } });
}

function usedEntries(intent: IntentStage, routing: RoutingStage, composition: CompositionStage, snapshot: WorkspaceSnapshot, catalogue: Catalogue): CatalogueEntry[] {
  const available = catalogue.entries.filter((entry) => entry.status === "available");
  const used: CatalogueEntry[] = [];
  for (const candidate of routing.candidates) {
    const entry = available.find((item) => item.name === candidate.skill && item.source === candidate.source && item.path === candidate.path);
    if (entry !== undefined) used.push(entry);
  }
  for (const step of composition.steps) {
    const candidate = routing.candidates.find((item) => item.skill === step.skill);
    const entry =
      available.find((item) => candidate !== undefined && item.name === candidate.skill && item.source === candidate.source && item.path === candidate.path) ??
      available.find((item) => item.name === step.skill);
    if (entry !== undefined) used.push(entry);
  }
  for (const seat of seatBoard(intent, snapshot)) {
    const entry = reviewerSkill(catalogue, seat.reviewer);
    if (entry !== null) used.push(entry);
  }
  return used;
}

function versionsOf(task: TaskStage, intent: IntentStage, routing: RoutingStage, composition: CompositionStage, snapshot: WorkspaceSnapshot, catalogue: Catalogue): Versions {
  const skills = new Map<string, Versions["skills"][number]>();
  for (const entry of usedEntries(intent, routing, composition, snapshot, catalogue)) {
    skills.set(`${entry.name}\u0000${entry.source}\u0000${entry.revisionSha256}`, { skill: entry.name, source: entry.source, revisionSha256: entry.revisionSha256 });
  }
  return {
    snapshotSha256: snapshot.snapshotSha256,
    skills: [...skills.entries()].sort(([left], [right]) => compareCodeUnits(left, right)).map(([, value]) => value),
    basisSha256: basisSha256(task, snapshot, catalogue),
  };
}

function rule(text: string): Reason {
  return { kind: "router-rule", rule: text };
}

function factsOf(intent: IntentStage, routing: RoutingStage, composition: CompositionStage, snapshot: WorkspaceSnapshot): Fact[] {
  const technologies = [...snapshot.technologies].sort((left, right) => compareCodeUnits(left.name, right.name));
  return [
    {
      fact: "domain",
      value: intent.domain.value,
      reasons: intent.domain.reasons.length > 0 ? intent.domain.reasons : [rule("no domain verb in the task: the domain is unspecified")],
    },
    { fact: "execution mode", value: intent.executionMode.value, reasons: intent.executionMode.reasons },
    {
      fact: "file list source",
      value: snapshot.source,
      reasons: [rule(snapshot.source === "git" ? "files are Git's tracked and untracked-not-ignored files" : "files come from a walk that honours .gitignore (no Git work tree)")],
    },
    { fact: "files in snapshot", value: String(snapshot.files.length), reasons: [rule("count of the snapshot's file list")] },
    { fact: "modules in snapshot", value: String(snapshot.modules.length), reasons: [rule("count of the snapshot's modules and packages")] },
    {
      fact: "technologies",
      value: technologies.length > 0 ? technologies.map((technology) => technology.name).join(", ") : "none found",
      reasons:
        technologies.length > 0
          ? technologies.map((technology): Reason => ({ kind: "snapshot-entity", entityKind: "technology", value: technology.name, path: technology.sources[0] ?? null }))
          : [rule("no manifest or file evidenced a technology")],
    },
    { fact: "rule files", value: String(snapshot.ruleFiles.length), reasons: [rule("workspace rule files (AGENTS.md, CLAUDE.md, …) agents must read")] },
    { fact: "skill candidates", value: String(routing.candidates.length), reasons: [rule("count of routing candidates")] },
    { fact: "steps", value: String(composition.steps.length), reasons: [rule("count of composed steps")] },
    { fact: "parallel groups", value: String(composition.groups.length), reasons: [rule("count of topological layers")] },
    {
      fact: "executable",
      value: composition.executable ? "yes" : "no",
      reasons: [rule(composition.executable ? "the composer found no blocking issue" : `blocked: ${composition.blockedBecause.join("; ") || "see composition issues"}`)],
    },
  ];
}

interface FileSelection {
  readonly files: PackFile[];
  readonly unknowns: Unknown[];
}

function filesOf(intent: IntentStage, snapshot: WorkspaceSnapshot): FileSelection {
  const reasons = new Map<string, Reason[]>();
  const unknowns: Unknown[] = [];
  const add = (path: string, ...more: Reason[]): void => {
    reasons.set(path, [...(reasons.get(path) ?? []), ...more]);
  };
  for (const entity of intent.entities) {
    if (entity.path === null || entity.kind === "technology") continue;
    const cited: Reason = { kind: "snapshot-entity", entityKind: entity.kind, value: entity.value, path: entity.path };
    if (entity.kind === "file") {
      add(entity.path, cited, { kind: "task-span", span: entity.span, note: "named in the task" });
      continue;
    }
    const folder = entity.path;
    const members = snapshot.files.filter((file) => folder === "." || isWithin(file, folder));
    for (const file of members.slice(0, FILES_PER_ENTITY)) add(file, cited);
    if (members.length > FILES_PER_ENTITY) {
      unknowns.push({
        kind: "snapshot-limit",
        text: `${entity.kind} ${entity.value}`,
        detail: `${folder} holds ${members.length} files; the context pack lists the first ${FILES_PER_ENTITY} by path`,
      });
    }
  }
  const paths = [...reasons.keys()].sort(compareCodeUnits);
  if (paths.length > MAX_PACK_FILES) {
    unknowns.push({ kind: "snapshot-limit", text: "context pack files", detail: `${paths.length} files qualified; the first ${MAX_PACK_FILES} by path are listed` });
  }
  return {
    files: paths.slice(0, MAX_PACK_FILES).map((path) => ({ path, reasons: dedupeReasons(reasons.get(path) ?? []) })),
    unknowns,
  };
}

function groundedFiles(intent: IntentStage): string[] {
  const paths = new Set<string>();
  for (const entity of intent.entities) if (entity.kind === "file" && entity.path !== null) paths.add(entity.path);
  return [...paths].sort(compareCodeUnits);
}

function graphOf(intent: IntentStage, snapshot: WorkspaceSnapshot): { graph: GraphRow[]; unknowns: Unknown[] } {
  // No edges at all means no import graph was built (other languages, or over budget): an empty
  // row would claim "nothing imports this", which nobody checked.
  if (snapshot.imports.length === 0) return { graph: [], unknowns: [] };
  const unknowns: Unknown[] = [];
  const files = groundedFiles(intent);
  if (files.length > MAX_GRAPH_FILES) {
    unknowns.push({ kind: "snapshot-limit", text: "import graph", detail: `${files.length} grounded files; graph rows for the first ${MAX_GRAPH_FILES} by path` });
  }
  const graph = files.slice(0, MAX_GRAPH_FILES).map((path): GraphRow => {
    const imports = [...new Set(snapshot.imports.filter((edge) => edge.from === path).map((edge) => edge.to))].sort(compareCodeUnits);
    const importedBy = [...new Set(snapshot.imports.filter((edge) => edge.to === path).map((edge) => edge.from))].sort(compareCodeUnits);
    for (const [direction, list] of [["imports", imports], ["imported by", importedBy]] as const) {
      if (list.length > MAX_NEIGHBOURS) {
        unknowns.push({ kind: "snapshot-limit", text: `import graph of ${path}`, detail: `${list.length} files in "${direction}"; the first ${MAX_NEIGHBOURS} by path are listed` });
      }
    }
    return { path, imports: imports.slice(0, MAX_NEIGHBOURS), importedBy: importedBy.slice(0, MAX_NEIGHBOURS) };
  });
  return { graph, unknowns };
}

/** Constraint, negative and compatibility signals, each with the words it covers ("don't touch" + its target). */
function constraintsOf(task: TaskStage, intent: IntentStage): Constraint[] {
  const result: Constraint[] = [];
  for (const signal of intent.signals) {
    if (signal.kind !== "constraint" && signal.kind !== "negative" && signal.kind !== "compatibility") continue;
    let span: TaskSpan = signal.span;
    if (signal.target !== null) {
      const start = Math.min(signal.span.start, signal.target.start);
      const end = Math.max(signal.span.end, signal.target.end);
      span = { start, end, text: task.text.slice(start, end) };
    }
    result.push({ text: span.text, span, kind: signal.kind });
  }
  const keyed = new Map(result.map((item) => [`${String(item.span.start).padStart(6, "0")}:${String(item.span.end).padStart(6, "0")}:${item.kind}`, item]));
  return [...keyed.entries()].sort(([left], [right]) => compareCodeUnits(left, right)).map(([, item]) => item);
}

function findingsOf(intent: IntentStage, snapshot: WorkspaceSnapshot): PackFinding[] {
  const findings: PackFinding[] = [];
  for (const path of touchedSourceFiles(intent)) {
    const refs = testReferences(path, snapshot);
    const tests = [...new Set([...refs.importedBy, ...refs.byName])].sort(compareCodeUnits);
    const entity: Reason = { kind: "snapshot-entity", entityKind: "file", value: path, path };
    findings.push(
      tests.length > 0
        ? { finding: `${path} is referenced by ${agree(tests.length, "the test file", "the test files")} ${tests.join(", ")}`, reasons: [entity, ...tests.map((test): Reason => ({ kind: "snapshot-entity", entityKind: "file", value: test, path: test }))] }
        : { finding: `no test file references ${path}`, reasons: [entity, rule("a test file references a source file by import or by name (<name>.test.*, <name>_test.*, test_<name>.*, <name>.spec.*)")] },
    );
  }
  for (const path of groundedFiles(intent)) {
    const hot = snapshot.hotPaths.filter((item) => isWithin(path, item.path));
    if (hot.length > 0) {
      findings.push({ finding: `${path} is on a hot path`, reasons: hot.map((item): Reason => ({ kind: "hot-path", path: item.path, hint: item.hint })) });
    }
  }
  return findings;
}

function unknownsOf(intent: IntentStage, composition: CompositionStage, snapshot: WorkspaceSnapshot): Unknown[] {
  const unknowns: Unknown[] = [];
  for (const item of intent.unmatched) unknowns.push({ kind: "unmatched", text: item.text, detail: `looks like a ${item.looksLike}: ${item.why}` });
  for (const item of intent.ambiguous) {
    const candidates = [...item.candidates].sort(compareCodeUnits);
    unknowns.push({ kind: "ambiguous", text: item.text, detail: `${item.kind} "${item.text}" matches ${candidates.length}: ${candidates.join(", ")}` });
  }
  for (const issue of composition.issues) {
    if (issue.kind === "missing-requirement") unknowns.push({ kind: "missing-requirement", text: [...issue.skills].sort(compareCodeUnits).join(", "), detail: issue.detail });
  }
  for (const limit of snapshot.limits) unknowns.push({ kind: "snapshot-limit", text: limit, detail: "the workspace snapshot was capped: files beyond the cap are not in this plan" });
  if (snapshot.skipped.length > 0) {
    const shown = snapshot.skipped.slice(0, 5).map((item) => `${item.path} (${item.why})`);
    const more = snapshot.skipped.length > shown.length ? `, and ${snapshot.skipped.length - shown.length} more` : "";
    unknowns.push({ kind: "snapshot-limit", text: `${countOf(snapshot.skipped.length, "skipped file")}`, detail: `the snapshot could not read: ${shown.join(", ")}${more}` });
  }
  return unknowns;
}

export function buildContextPack(
  task: TaskStage,
  intent: IntentStage,
  routing: RoutingStage,
  composition: CompositionStage,
  snapshot: WorkspaceSnapshot,
  catalogue: Catalogue,
): ContextPackStage {
  const selection = filesOf(intent, snapshot);
  const graph = graphOf(intent, snapshot);
  return {
    versions: versionsOf(task, intent, routing, composition, snapshot, catalogue),
    facts: factsOf(intent, routing, composition, snapshot),
    files: selection.files,
    graph: graph.graph,
    rules: [...snapshot.ruleFiles].sort((left, right) => compareCodeUnits(left.path, right.path)),
    constraints: constraintsOf(task, intent),
    findings: findingsOf(intent, snapshot),
    unknowns: [...unknownsOf(intent, composition, snapshot), ...selection.unknowns, ...graph.unknowns],
  };
}
