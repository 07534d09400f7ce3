// Phase B of observer-record/v1 (observer.md §5.6): the rules that need the whole record set.
// Records are visited in path order and the result is sorted, so the diagnostics depend only on
// the set of records, never on the order they were read in.
import { compareNotebookText } from "./referenceOrder";
import { notebookDiagnostic, sortDiagnostics, type NotebookDiagnostic } from "./diagnostics";
import type { ParsedRecord } from "./markdownProfile";
import type { LineageType } from "./recordSchema";

/** Lineage kinds that only make sense between records of one type; derived_from is unrestricted. */
const SAME_TYPE_LINEAGE: ReadonlySet<LineageType> = new Set<LineageType>(["merged_from", "split_from", "supersedes"]);

type Index = ReadonlyMap<string, ParsedRecord>;

function graphDiagnostic(record: ParsedRecord, code: string, message: string, pointer?: string, relatedId?: string): NotebookDiagnostic {
  return notebookDiagnostic({ phase: "graph", code, path: record.path, pointer, recordId: record.recordId, relatedId, message });
}

/** Path order; the byte hash breaks ties so even two inputs claiming one path order the same way. */
function inPathOrder(records: readonly ParsedRecord[]): ParsedRecord[] {
  return [...records].sort((left, right) => compareNotebookText(left.path, right.path) || compareNotebookText(left.sha256, right.sha256));
}

/** Targets of one edge family, each checked for self-reference and existence. */
function targetDiagnostics(record: ParsedRecord, family: string, targets: readonly string[], field: string, index: Index): NotebookDiagnostic[] {
  const diagnostics: NotebookDiagnostic[] = [];
  targets.forEach((target, position) => {
    const pointer = `/${family}/${position}/${field}`;
    if (target === record.recordId) diagnostics.push(graphDiagnostic(record, "graph.edge.self", `${family} entry ${position} points at its own record.`, pointer, target));
    if (!index.has(target)) diagnostics.push(graphDiagnostic(record, "graph.target.missing", `${family} entry ${position} points at ${target}, which is not in the Notebook.`, pointer, target));
  });
  return diagnostics;
}

function lineageTypeDiagnostics(record: ParsedRecord, index: Index): NotebookDiagnostic[] {
  const diagnostics: NotebookDiagnostic[] = [];
  record.record.lineage.forEach((edge, position) => {
    const target = index.get(edge.target);
    if (target === undefined) return;
    const pointer = `/lineage/${position}/target`;
    if (edge.type === "promoted_from") {
      if (record.type !== "zettel" || target.type !== "memo" || target.status !== "promoted") {
        diagnostics.push(graphDiagnostic(record, "graph.promotion.mismatch", "promoted_from must lead from a zettel to a memo whose status is promoted.", pointer, edge.target));
      }
    } else if (SAME_TYPE_LINEAGE.has(edge.type) && target.type !== record.type) {
      diagnostics.push(graphDiagnostic(record, "graph.lineage.type-mismatch", `${edge.type} must point at another ${record.type}, not a ${target.type}.`, pointer, edge.target));
    }
  });
  return diagnostics;
}

/** Repeated edges within one family; the first occurrence stands, each repeat is reported. */
function duplicateDiagnostics(record: ParsedRecord, family: string, keys: readonly string[]): NotebookDiagnostic[] {
  const seen = new Set<string>();
  const diagnostics: NotebookDiagnostic[] = [];
  keys.forEach((key, position) => {
    if (seen.has(key)) diagnostics.push(graphDiagnostic(record, "graph.edge.duplicate", `${family} entry ${position} repeats an earlier entry.`, `/${family}/${position}`));
    seen.add(key);
  });
  return diagnostics;
}

function connectivityDiagnostics(record: ParsedRecord, index: Index): NotebookDiagnostic[] {
  const { sources, lineage } = record.record;
  if (record.type === "memo" && sources.length === 0 && !lineage.some((edge) => index.get(edge.target)?.type === "inquiry")) {
    return [graphDiagnostic(record, "graph.memo.orphan", "A memo needs a source reference or a lineage edge to an inquiry.")];
  }
  if (record.type === "zettel" && !sources.some((source) => index.get(source.record)?.type === "source")) {
    return [graphDiagnostic(record, "graph.zettel.source-required", "A zettel needs at least one reference to an existing source record.")];
  }
  return [];
}

function recordDiagnostics(record: ParsedRecord, index: Index): NotebookDiagnostic[] {
  const { sources, lineage, relations } = record.record;
  return [
    ...targetDiagnostics(record, "sources", sources.map((source) => source.record), "record", index),
    ...targetDiagnostics(record, "lineage", lineage.map((edge) => edge.target), "target", index),
    ...lineageTypeDiagnostics(record, index),
    ...targetDiagnostics(record, "relations", relations.map((relation) => relation.target), "target", index),
    ...duplicateDiagnostics(record, "sources", sources.map((source) => JSON.stringify([source.record, source.role, source.locator ?? null]))),
    ...duplicateDiagnostics(record, "lineage", lineage.map((edge) => JSON.stringify([edge.type, edge.target]))),
    ...duplicateDiagnostics(record, "relations", relations.map((relation) => JSON.stringify([relation.type, relation.target]))),
    ...connectivityDiagnostics(record, index),
  ];
}

/** Rule 10: a promoted memo is only promoted if some zettel says it was promoted from it. */
function promotionBacklinkDiagnostics(records: readonly ParsedRecord[]): NotebookDiagnostic[] {
  const promotedTargets = new Set<string>();
  for (const record of records) {
    if (record.type !== "zettel") continue;
    for (const edge of record.record.lineage) if (edge.type === "promoted_from") promotedTargets.add(edge.target);
  }
  return records
    .filter((record) => record.type === "memo" && record.status === "promoted" && !promotedTargets.has(record.recordId))
    .map((record) => graphDiagnostic(record, "graph.promotion.mismatch", "This memo is promoted but no zettel is promoted_from it."));
}

/**
 * Validates a record set that passed Phase A. Duplicate ids are reported alone (every other rule
 * needs ids to be unique); otherwise all rules run and every finding is reported, sorted, capped.
 */
export function validateGraph(records: readonly ParsedRecord[]): NotebookDiagnostic[] {
  const ordered = inPathOrder(records);
  const index = new Map<string, ParsedRecord>();
  const duplicates: NotebookDiagnostic[] = [];
  for (const record of ordered) {
    const first = index.get(record.recordId);
    if (first === undefined) index.set(record.recordId, record);
    else duplicates.push(graphDiagnostic(record, "graph.id.duplicate", `Record id ${record.recordId} is already used by ${first.path}.`, "/id", record.recordId));
  }
  if (duplicates.length > 0) return sortDiagnostics(duplicates);
  return sortDiagnostics([...ordered.flatMap((record) => recordDiagnostics(record, index)), ...promotionBacklinkDiagnostics(ordered)]);
}
