// Per-record rules the schema cannot express (Phase A step 8). They run only on a frontmatter that
// passed the schema, and all of them run, so one pass reports every local problem at once.
import { notebookDiagnostic, type NotebookDiagnostic } from "./diagnostics";
import type { ObserverRecord } from "./recordSchema";

export function recordRuleDiagnostics(path: string, record: ObserverRecord): NotebookDiagnostic[] {
  const diagnostics: NotebookDiagnostic[] = [];
  const base = { phase: "record" as const, path, recordId: record.id };
  if (!record.id.startsWith(`${record.observer_type}-`)) {
    diagnostics.push(
      notebookDiagnostic({ ...base, code: "record.id-prefix", pointer: "/id", message: `A ${record.observer_type} record's id must start with "${record.observer_type}-".` }),
    );
  }
  // Instants, not strings: offsets make lexical order meaningless. An unparseable pair (possible
  // for RFC 3339 forms Date.parse rejects) compares false and is left alone, as the reference does.
  if (Date.parse(record.created) > Date.parse(record.modified)) {
    diagnostics.push(notebookDiagnostic({ ...base, code: "record.timestamp-order", pointer: "/modified", message: "modified is earlier than created." }));
  }
  const inquiry = record.observer_type === "inquiry" ? record.inquiry : undefined;
  if (inquiry !== undefined && inquiry.current !== inquiry.original && (inquiry.revision_reason ?? "").trim() === "") {
    diagnostics.push(
      notebookDiagnostic({
        ...base,
        code: "record.inquiry-revision-reason",
        pointer: "/inquiry/revision_reason",
        message: "The inquiry's current wording differs from the original, so revision_reason must say why.",
      }),
    );
  }
  return diagnostics;
}
