// A whole record set through both phases: Phase A per file, then Phase B only when every file
// passed (the reference reports `graphEvaluated: false` and only the file diagnostics otherwise).
import { compareNotebookText } from "./referenceOrder";
import { sortDiagnostics, type NotebookDiagnostic } from "./diagnostics";
import { validateGraph } from "./graphValidation";
import { parseRecordMarkdown, type ParsedRecord } from "./markdownProfile";

export interface RecordFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

export interface RecordSetValidation {
  readonly valid: boolean;
  readonly graphEvaluated: boolean;
  /** How many record files were examined, valid or not. */
  readonly records: number;
  readonly diagnostics: NotebookDiagnostic[];
  /** The files that passed Phase A, in path order. */
  readonly parsed: ParsedRecord[];
}

export function validateRecordSet(files: readonly RecordFile[]): RecordSetValidation {
  const parsed: ParsedRecord[] = [];
  const fileDiagnostics: NotebookDiagnostic[] = [];
  for (const file of files) {
    const result = parseRecordMarkdown(file.path, file.bytes);
    if (result.ok) parsed.push(result.record);
    else fileDiagnostics.push(...result.diagnostics);
  }
  parsed.sort((left, right) => compareNotebookText(left.path, right.path) || compareNotebookText(left.sha256, right.sha256));
  if (fileDiagnostics.length > 0) {
    return { valid: false, graphEvaluated: false, records: files.length, diagnostics: sortDiagnostics(fileDiagnostics), parsed };
  }
  const diagnostics = validateGraph(parsed);
  return { valid: diagnostics.length === 0, graphEvaluated: true, records: files.length, diagnostics, parsed };
}
