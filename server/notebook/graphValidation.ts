// Phase B of observer-record/v1 (observer.md §5.6): the rules that need the whole record set.
// Records are visited in path order and the result is sorted, so the diagnostics depend only on
// the set of records, never on the order they were read in.
import { compareCodeUnits } from "../ledger/canonicalJson";
import { compareNotebookText, isCodeUnitOrdered } from "./referenceOrder";
import { notebookDiagnostic, sortDiagnostics, type NotebookDiagnostic } from "./diagnostics";
import type { LineageRef, LineageType, RecordType, SemanticRelation, SourceRef } from "./recordSchema";

/**
 * What Phase B reads of a record that passed Phase A: a ParsedRecord, or the same facts taken from
 * the validation cache (validationCache.ts) without parsing the file again.
 */
export interface GraphRecord {
  readonly path: string;
  readonly recordId: string;
  readonly type: RecordType;
  readonly status: string;
  readonly sha256: string;
  readonly record: {
    readonly sources: readonly SourceRef[];
    readonly lineage: readonly LineageRef[];
    readonly relations: readonly SemanticRelation[];
  };
}


/** Lineage kinds that only make sense between records of one type; derived_from is unrestricted. */
const SAME_TYPE_LINEAGE: ReadonlySet<LineageType> = new Set<LineageType>(["merged_from", "split_from", "supersedes"]);

type Index = ReadonlyMap<string, GraphRecord>;

function graphDiagnostic(record: GraphRecord, code: string, message: string, pointer?: string, relatedId?: string): NotebookDiagnostic {
  return notebookDiagnostic({ phase: "graph", code, path: record.path, pointer, recordId: record.recordId, relatedId, message });
}

function byPathThenHash(left: GraphRecord, right: GraphRecord): number {
  return compareNotebookText(left.path, right.path) || compareNotebookText(left.sha256, right.sha256);
}

/**
 * Path order; the byte hash breaks ties so even two inputs claiming one path order the same way.
 * Readers hand the records over in path order already, so one pass confirms it instead of a sort.
 */
function inPathOrder(records: readonly GraphRecord[]): readonly GraphRecord[] {
  // Paths of the code-unit alphabet compare as code units (referenceOrder.ts): one alphabet test
  // per record instead of two per comparison.
  let byCodeUnits = true;
  for (let index = 0; index < records.length && byCodeUnits; index += 1) {
    byCodeUnits = isCodeUnitOrdered((records[index] as GraphRecord).path);
  }
  for (let index = 1; index < records.length; index += 1) {
    const left = records[index - 1] as GraphRecord;
    const right = records[index] as GraphRecord;
    const order = byCodeUnits ? compareCodeUnits(left.path, right.path) || compareNotebookText(left.sha256, right.sha256) : byPathThenHash(left, right);
    if (order > 0) return [...records].sort(byPathThenHash);
  }
  return records;
}

// Each rule appends its findings to one list, in the order the rules run: the final stable sort
// keeps that order among ties, so the order of the appends is part of the output.
type Findings = NotebookDiagnostic[];

// The rules below walk the edges with plain loops rather than map/forEach/some: they run for every
// record of the Notebook, and in a short `docket notebook validate` process most of that code runs
// before the engine optimises it, where each callback and intermediate array is paid in full.

/** One edge's target, checked for self-reference and existence. */
function targetDiagnostics(out: Findings, record: GraphRecord, family: string, position: number, target: string, field: string, index: Index): void {
  const selfEdge = target === record.recordId;
  const missing = !index.has(target);
  if (!selfEdge && !missing) return;
  const pointer = `/${family}/${position}/${field}`;
  if (selfEdge) out.push(graphDiagnostic(record, "graph.edge.self", `${family} entry ${position} points at its own record.`, pointer, target));
  if (missing) out.push(graphDiagnostic(record, "graph.target.missing", `${family} entry ${position} points at ${target}, which is not in the Notebook.`, pointer, target));
}

function lineageTypeDiagnostics(out: Findings, record: GraphRecord, index: Index): void {
  const { lineage } = record.record;
  for (let position = 0; position < lineage.length; position += 1) {
    const edge = lineage[position] as LineageRef;
    const target = index.get(edge.target);
    if (target === undefined) continue;
    const pointer = `/lineage/${position}/target`;
    if (edge.type === "promoted_from") {
      if (record.type !== "zettel" || target.type !== "memo" || target.status !== "promoted") {
        out.push(graphDiagnostic(record, "graph.promotion.mismatch", "promoted_from must lead from a zettel to a memo whose status is promoted.", pointer, edge.target));
      }
    } else if (SAME_TYPE_LINEAGE.has(edge.type) && target.type !== record.type) {
      out.push(graphDiagnostic(record, "graph.lineage.type-mismatch", `${edge.type} must point at another ${record.type}, not a ${target.type}.`, pointer, edge.target));
    }
  }
}

/**
 * Repeated edges within one family; the first occurrence stands, each repeat is reported. Two edges
 * repeat exactly when their fields are equal strings (an absent locator equals only an absent one).
 * A short list, what records have, is compared pair by pair; a long one by a key per edge, the JSON
 * of its fields, which is equal exactly when the fields are.
 */
function duplicateDiagnostics<Edge>(out: Findings, record: GraphRecord, family: string, edges: readonly Edge[], same: (left: Edge, right: Edge) => boolean, key: (edge: Edge) => string): void {
  if (edges.length < 2) return;
  if (edges.length <= PAIRWISE_LIMIT) {
    for (let position = 1; position < edges.length; position += 1) {
      const edge = edges[position] as Edge;
      for (let earlier = 0; earlier < position; earlier += 1) {
        if (same(edges[earlier] as Edge, edge)) {
          out.push(graphDiagnostic(record, "graph.edge.duplicate", `${family} entry ${position} repeats an earlier entry.`, `/${family}/${position}`));
          break;
        }
      }
    }
    return;
  }
  const seen = new Set<string>();
  for (let position = 0; position < edges.length; position += 1) {
    const edgeKey = key(edges[position] as Edge);
    if (seen.has(edgeKey)) out.push(graphDiagnostic(record, "graph.edge.duplicate", `${family} entry ${position} repeats an earlier entry.`, `/${family}/${position}`));
    seen.add(edgeKey);
  }
}

/** Up to this many edges in a family, comparing every pair costs less than a key per edge. */
const PAIRWISE_LIMIT = 16;

function sameSource(left: SourceRef, right: SourceRef): boolean {
  return left.record === right.record && left.role === right.role && left.locator === right.locator;
}

function sourceKey(source: SourceRef): string {
  return JSON.stringify([source.record, source.role, source.locator ?? null]);
}

function sameEdge(left: LineageRef | SemanticRelation, right: LineageRef | SemanticRelation): boolean {
  return left.type === right.type && left.target === right.target;
}

function edgeKey(edge: LineageRef | SemanticRelation): string {
  return JSON.stringify([edge.type, edge.target]);
}

function connectivityDiagnostics(out: Findings, record: GraphRecord, index: Index): void {
  const { sources, lineage } = record.record;
  if (record.type === "memo") {
    if (sources.length > 0) return;
    for (const edge of lineage) if (index.get(edge.target)?.type === "inquiry") return;
    out.push(graphDiagnostic(record, "graph.memo.orphan", "A memo needs a source reference or a lineage edge to an inquiry."));
  } else if (record.type === "zettel") {
    for (const source of sources) if (index.get(source.record)?.type === "source") return;
    out.push(graphDiagnostic(record, "graph.zettel.source-required", "A zettel needs at least one reference to an existing source record."));
  }
}

function recordDiagnostics(out: Findings, record: GraphRecord, index: Index): void {
  const { sources, lineage, relations } = record.record;
  for (let position = 0; position < sources.length; position += 1) targetDiagnostics(out, record, "sources", position, (sources[position] as SourceRef).record, "record", index);
  for (let position = 0; position < lineage.length; position += 1) targetDiagnostics(out, record, "lineage", position, (lineage[position] as LineageRef).target, "target", index);
  lineageTypeDiagnostics(out, record, index);
  for (let position = 0; position < relations.length; position += 1) targetDiagnostics(out, record, "relations", position, (relations[position] as SemanticRelation).target, "target", index);
  duplicateDiagnostics(out, record, "sources", sources, sameSource, sourceKey);
  duplicateDiagnostics(out, record, "lineage", lineage, sameEdge, edgeKey);
  duplicateDiagnostics(out, record, "relations", relations, sameEdge, edgeKey);
  connectivityDiagnostics(out, record, index);
}

/** Rule 10: a promoted memo is only promoted if some zettel says it was promoted from it. */
function promotionBacklinkDiagnostics(records: readonly GraphRecord[]): NotebookDiagnostic[] {
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
export function validateGraph(records: readonly GraphRecord[]): NotebookDiagnostic[] {
  const ordered = inPathOrder(records);
  const index = new Map<string, GraphRecord>();
  const duplicates: NotebookDiagnostic[] = [];
  for (const record of ordered) {
    const first = index.get(record.recordId);
    if (first === undefined) index.set(record.recordId, record);
    else duplicates.push(graphDiagnostic(record, "graph.id.duplicate", `Record id ${record.recordId} is already used by ${first.path}.`, "/id", record.recordId));
  }
  if (duplicates.length > 0) return sortDiagnostics(duplicates);
  const findings: Findings = [];
  for (const record of ordered) recordDiagnostics(findings, record, index);
  findings.push(...promotionBacklinkDiagnostics(ordered));
  return sortDiagnostics(findings);
}
