// The selected Notebook as Observer's pure operations read it: every record with its type,
// status, title, body, lineage and inquiry facts, under the reference's inventory identity (the
// record file's absolute path and the SHA-256 of its bytes, which Memo and save digests cover).
import type { OpenNotebook } from "../notebook/notebookStore";
import type { NotebookRecordFact } from "./memoScope";
import type { SaveNotebookFacts } from "./saveOperations";
import type { NotebookRecordView } from "./standingIndex";

export interface NotebookFacts {
  readonly records: readonly NotebookRecordFact[];
  readonly views: readonly NotebookRecordView[];
  readonly save: SaveNotebookFacts;
}

export function notebookFactsOf(notebook: OpenNotebook): NotebookFacts {
  const records: NotebookRecordFact[] = [];
  const views: NotebookRecordView[] = [];
  for (const entry of notebook.inventory) {
    const record = entry.record.record;
    const inquiry = record.inquiry;
    records.push({
      recordId: entry.recordId,
      type: entry.record.type,
      status: entry.record.status,
      path: entry.absolutePath,
      sha256: entry.sha256,
      title: entry.record.title,
      lang: record.lang,
      body: entry.record.body,
      derivedFrom: record.lineage.filter((link) => link.type === "derived_from").map((link) => link.target),
      inquiry: inquiry === undefined ? null : { origin: inquiry.origin, original: inquiry.original, current: inquiry.current, revisionReason: inquiry.revision_reason ?? null },
    });
    views.push({
      record: {
        observer_type: entry.record.type,
        observer_status: entry.record.status,
        id: entry.recordId,
        title: entry.record.title,
        lang: record.lang,
        lineage: record.lineage.map((link) => ({ type: link.type, target: link.target })),
        ...(inquiry === undefined ? {} : { inquiry }),
      },
      body: entry.record.body,
    });
  }
  return { records, views, save: { notebookId: notebook.manifest.notebook_id, root: notebook.root, inventory: records } };
}
