// A whole record set through both phases: Phase A per file, then Phase B only when every file
// passed (the reference reports `graphEvaluated: false` and only the file diagnostics otherwise).
import { compareNotebookText } from "./referenceOrder";
import { sortDiagnostics, type NotebookDiagnostic } from "./diagnostics";
import { validateGraph, type GraphRecord } from "./graphValidation";
import { parseRecordMarkdown, type ParsedRecord } from "./markdownProfile";

export interface RecordFile {
  readonly path: string;
  readonly bytes: Uint8Array;
  /** The bytes' SHA-256 when the caller already has it (hashed once, not twice). */
  readonly sha256?: string;
}

/** The verdict on a record set, whichever way its Phase A answers were obtained. */
export interface RecordSetVerdict {
  readonly valid: boolean;
  readonly graphEvaluated: boolean;
  /** How many record files were examined, valid or not. */
  readonly records: number;
  readonly diagnostics: NotebookDiagnostic[];
}

export interface RecordSetValidation extends RecordSetVerdict {
  /** The files that passed Phase A, in path order. */
  readonly parsed: ParsedRecord[];
}

/**
 * Phase B over the records that passed Phase A, or only the file diagnostics when any file failed:
 * shared by validateRecordSet and the cached validation (notebookValidation.ts), so both give one
 * answer for one set of files.
 */
export function recordSetVerdict(records: number, passed: readonly GraphRecord[], fileDiagnostics: readonly NotebookDiagnostic[]): RecordSetVerdict {
  if (fileDiagnostics.length > 0) return { valid: false, graphEvaluated: false, records, diagnostics: sortDiagnostics(fileDiagnostics) };
  const diagnostics = validateGraph(passed);
  return { valid: diagnostics.length === 0, graphEvaluated: true, records, diagnostics };
}

export function validateRecordSet(files: readonly RecordFile[]): RecordSetValidation {
  const parsed: ParsedRecord[] = [];
  const fileDiagnostics: NotebookDiagnostic[] = [];
  for (const file of files) {
    const result = parseRecordMarkdown(file.path, file.bytes, file.sha256);
    if (result.ok) parsed.push(result.record);
    else fileDiagnostics.push(...result.diagnostics);
  }
  parsed.sort((left, right) => compareNotebookText(left.path, right.path) || compareNotebookText(left.sha256, right.sha256));
  return { ...recordSetVerdict(files.length, parsed, fileDiagnostics), parsed };
}
