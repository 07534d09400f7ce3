// Notebook diagnostics in the observer-record/v1 shape, and the one ordering every report uses so
// the same notebook always yields the same list, whatever order its files were read in.
import { compareNotebookText } from "./referenceOrder";

export type NotebookPhase = "markdown" | "schema" | "record" | "graph";

export type NotebookDiagnostic = {
  phase: NotebookPhase;
  code: string;
  path: string;
  pointer?: string;
  recordId?: string;
  relatedId?: string;
  message: string;
};

/** The reference reports at most this many diagnostics for one validation. */
export const MAX_NOTEBOOK_DIAGNOSTICS = 100;

const PHASE_RANK: Readonly<Record<NotebookPhase, number>> = { markdown: 0, schema: 1, record: 2, graph: 3 };

/** Builds a diagnostic without undefined-valued keys, so equal diagnostics compare and print equally. */
export function notebookDiagnostic(fields: {
  phase: NotebookPhase;
  code: string;
  path: string;
  pointer?: string | undefined;
  recordId?: string | undefined;
  relatedId?: string | undefined;
  message: string;
}): NotebookDiagnostic {
  // Spread key by key so JSON output keeps the documented order and never carries undefined keys.
  return {
    phase: fields.phase,
    code: fields.code,
    path: fields.path,
    ...(fields.pointer !== undefined ? { pointer: fields.pointer } : {}),
    ...(fields.recordId !== undefined ? { recordId: fields.recordId } : {}),
    ...(fields.relatedId !== undefined ? { relatedId: fields.relatedId } : {}),
    message: fields.message,
  };
}

function compareDiagnostics(left: NotebookDiagnostic, right: NotebookDiagnostic): number {
  return (
    compareNotebookText(left.path, right.path) ||
    PHASE_RANK[left.phase] - PHASE_RANK[right.phase] ||
    compareNotebookText(left.pointer ?? "", right.pointer ?? "") ||
    compareNotebookText(left.code, right.code) ||
    compareNotebookText(left.relatedId ?? "", right.relatedId ?? "")
  );
}

/** One diagnostic as a line of text (no indentation, no newline): `path pointer: code (→ related): message`. */
export function formatDiagnostic(diagnostic: NotebookDiagnostic): string {
  const where = diagnostic.pointer !== undefined && diagnostic.pointer !== "" ? `${diagnostic.path} ${diagnostic.pointer}` : diagnostic.path;
  const related = diagnostic.relatedId !== undefined ? ` (→ ${diagnostic.relatedId})` : "";
  return `${where}: ${diagnostic.code}${related}: ${diagnostic.message}`;
}

/**
 * Orders by path, phase, pointer, code and related id (a stable sort, so ties keep the order in
 * which the rules produced them) and keeps the first 100, comparing text as the reference does
 * (referenceOrder.ts).
 */
export function sortDiagnostics(list: readonly NotebookDiagnostic[]): NotebookDiagnostic[] {
  return [...list].sort(compareDiagnostics).slice(0, MAX_NOTEBOOK_DIAGNOSTICS);
}
