// A stored proposal as a person reviews it: against the notebook as it is now, with each record's
// current and proposed bytes, its validation, whether its target went stale, and the whole-graph
// check. The Observer view (through the backend) and `docket notebook proposals|show` both read
// proposals through here, so the terminal and VS Code show the same review.
import type { NotebookDiagnosticInfo, ProposalDetail, ProposalSummary } from "../protocol/messages";
import type { NotebookDiagnostic } from "./diagnostics";
import { parseRecordMarkdown } from "./markdownProfile";
import { openNotebook } from "./notebookStore";
import { assessFreshness, notebookView, preflight } from "./preflight";
import { listPendingProposalIds, readProposal, readReceipt } from "./proposalStore";

const decoder = new TextDecoder("utf-8");

function diagnosticInfo(list: readonly NotebookDiagnostic[]): NotebookDiagnosticInfo[] {
  return list.map((diagnostic) => ({ ...diagnostic }));
}

/** A stored proposal against the notebook as it is now: current bytes, validation and staleness; null unless pending. */
export function proposalDetail(workspace: string, proposalId: string): ProposalDetail | null {
  // Settled proposals keep their file beside the receipt; only pending ones are shown or published.
  if (readReceipt(workspace, proposalId) !== null) return null;
  const stored = readProposal(workspace, proposalId);
  if (stored.status !== "found") return null;
  const { prepared, plan } = stored.proposal;
  const opened = openNotebook(prepared.root);
  const view = opened.ok ? notebookView(opened.value) : null;
  // A notebook that cannot be opened cannot take the proposal either: every target counts as changed.
  const freshness = view === null ? null : assessFreshness(plan, view);
  const staleIds = new Set(freshness === null ? plan.records.map((entry) => entry.record_id) : freshness.records.filter((entry) => entry.stale).map((entry) => entry.recordId));
  const current = new Map((view?.inventory ?? []).map((file) => [file.path, file]));
  const markdown = new Map(prepared.records.map((record) => [record.record_id, record.markdown]));
  const records = plan.records.map((entry) => {
    const after = markdown.get(entry.record_id) ?? "";
    const parsed = parseRecordMarkdown(entry.path, new TextEncoder().encode(after));
    const before = entry.operation === "update" ? current.get(entry.path) : undefined;
    return {
      recordId: entry.record_id,
      operation: entry.operation,
      path: entry.path,
      validation: parsed.ok ? ("valid" as const) : ("invalid" as const),
      stale: staleIds.has(entry.record_id),
      before: before === undefined ? null : decoder.decode(before.bytes),
      beforeSha256: before === undefined ? null : before.sha256,
      after,
      afterSha256: entry.next_sha256,
      diagnostics: parsed.ok ? [] : diagnosticInfo(parsed.diagnostics),
    };
  });
  const stale = freshness === null || freshness.stale;
  // The whole-graph check only means something against the bytes the proposal was made for.
  const checked = stale || view === null ? null : preflight(prepared, view);
  const diagnostics = checked === null || checked.ok ? [] : diagnosticInfo(checked.issue.diagnostics);
  const valid = records.every((record) => record.validation === "valid") && (checked === null || checked.ok);
  return { proposalId: prepared.proposal_id, proposalSha256: stored.proposal.proposal_sha256, origin: stored.proposal.origin ?? null, notebookId: prepared.notebook_id, root: prepared.root, stale, valid, records, diagnostics };
}

/** Every pending proposal of the workspace without the record bytes, ordered by id. */
export function listProposalSummaries(workspace: string): ProposalSummary[] {
  return listPendingProposalIds(workspace).flatMap((id) => {
    const detail = proposalDetail(workspace, id);
    if (detail === null) return [];
    const { diagnostics: _diagnostics, records, ...summary } = detail;
    return [{ ...summary, records: records.map(({ recordId, operation, path, validation, stale }) => ({ recordId, operation, path, validation, stale })) }];
  });
}
