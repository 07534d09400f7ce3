// The Notebook over MCP: an agent reads the notebook and proposes records; it never publishes.
// A proposal is stored as workspace state and waits for the user, who reviews the exact batch in
// VS Code's diff editor and approves all of it or none (docs/notebook-approval.md). The proposal is
// made by the same makeProposal as `docket notebook propose`, so an agent's batch is preflighted,
// bound and stored exactly like a scripted one.
import { countOf } from "../plural";
import os from "node:os";
import * as z from "zod";
import { DocketError } from "../errors";
import { ErrorCodes } from "../protocol/messages";
import { formatDiagnostic, type NotebookDiagnostic } from "../notebook/diagnostics";
import { makeProposal } from "../notebook/makeProposal";
import { resolveNotebookPath } from "../notebook/notebookPath";
import { hasActiveTransaction, notebookStatus, openNotebook, type OpenNotebook } from "../notebook/notebookStore";
import { PreparedRecord } from "../notebook/proposal";
import { listProposalSummaries } from "../notebook/proposalView";
import { defineSessionTool, type SessionTool, type ToolSession } from "./toolDefinition";

/** More would make one approval too large to review; split the work into several proposals. */
export const MAX_PROPOSED_RECORDS = 200;
/** Records listed when the call names none; a larger notebook is read by `recordIds`. */
export const MAX_LISTED_RECORDS = 500;
/** Diagnostics quoted in a refusal's sentence (all of them travel in `error.details`). */
const QUOTED_DIAGNOSTICS = 10;

const NotebookFolder = z
  .string()
  .min(1)
  .max(4096)
  .describe("The notebook folder (absolute, or relative to the workspace folder). Omit it to use the notebook configured for this workspace.");

export const NotebookReadParams = z.strictObject({
  notebook: NotebookFolder.optional(),
  recordIds: z
    .array(z.string().min(1).max(200))
    .min(1)
    .max(MAX_PROPOSED_RECORDS)
    .optional()
    .describe(`Only these records (ids unknown to the notebook are listed in missingRecordIds). Omitted: every record, at most ${MAX_LISTED_RECORDS}.`),
});

export const NotebookProposeParams = z.strictObject({
  notebook: NotebookFolder.optional(),
  episode_language: z.enum(["en", "ko"]).optional().describe("The language the records are written in; omit it for the notebook's default."),
  records: z.array(PreparedRecord).min(1).max(MAX_PROPOSED_RECORDS),
});

function quote(diagnostics: readonly NotebookDiagnostic[]): string {
  if (diagnostics.length === 0) return "";
  const lines = diagnostics.slice(0, QUOTED_DIAGNOSTICS).map((diagnostic) => `\n  ${formatDiagnostic(diagnostic)}`);
  const more = diagnostics.length > QUOTED_DIAGNOSTICS ? `\n  … and ${diagnostics.length - QUOTED_DIAGNOSTICS} more (error.details.diagnostics)` : "";
  return `${lines.join("")}${more}`;
}

/** The argument, else the server's configured notebook, through the notebook path rules (observer.md §5.1). */
function notebookRoot(session: ToolSession, argument: string | undefined): string {
  const input = argument ?? session.notebookPath;
  if (input === null || input.trim() === "") {
    throw new DocketError(
      ErrorCodes.notebookNotConfigured,
      "No notebook is configured for this workspace, and no notebook folder was given. Name the folder in `notebook`, or ask the user to set one up (Docket: Set Up Notebook… in VS Code, or `docket notebook setup DIR`).",
    );
  }
  const resolved = resolveNotebookPath(input, session.workspaceFolder, os.homedir());
  if (!resolved.ok) throw new DocketError(ErrorCodes.notebookUnusable, `${resolved.message} (${resolved.code})`, { code: resolved.code });
  return resolved.path;
}

function unusable(root: string, issue: { readonly code: string; readonly message: string; readonly diagnostics?: readonly NotebookDiagnostic[] }): DocketError {
  const diagnostics = issue.diagnostics ?? [];
  return new DocketError(ErrorCodes.notebookUnusable, `The notebook at ${root} cannot be used (${issue.code}): ${issue.message}${quote(diagnostics)}`, {
    code: issue.code,
    diagnostics,
  });
}

function pendingFor(workspace: string, notebook: OpenNotebook): { proposalId: string; records: number; stale: boolean }[] {
  return listProposalSummaries(workspace)
    .filter((proposal) => proposal.root === notebook.root)
    .map((proposal) => ({ proposalId: proposal.proposalId, records: proposal.records.length, stale: proposal.stale }));
}

const readNotebookTool = defineSessionTool({
  name: "notebook",
  title: "Read the Docket Notebook",
  readOnly: true,
  params: NotebookReadParams,
  description: [
    "Read the user's Notebook (observer-notebook/v1: Markdown records with observer-record/v1 frontmatter under <notebook>/records/); writes nothing. Call it before propose_notebook_records.",
    "notebook (optional): the notebook folder; omitted, the notebook configured for this workspace (VS Code setting docket.notebookPath) is used. recordIds (optional): only these records.",
    `Result: root, notebookId, language, health, recordCount, the records {recordId, type, status, title, path, sha256} (all of them, or the first ${MAX_LISTED_RECORDS} with truncated: true) — an update's expected_sha256 is the record's sha256 here; read the file at path for its Markdown — plus the proposals already waiting for the user's review (pendingProposals).`,
  ].join("\n"),
  run: async (session, params) => {
    const root = notebookRoot(session, params.notebook);
    const opened = openNotebook(root);
    if (!opened.ok) {
      // Half a publication breaks the record graph; say what the user must do, not "unusable".
      const status = notebookStatus(root);
      if (status.ok && status.value.health === "recovery-required") {
        throw new DocketError(
          ErrorCodes.publicationRecoveryRequired,
          `The notebook at ${root} has an interrupted publication. Ask the user to recover it (\`docket notebook recover ${root}\`, or open Docket's Observer view) before reading or proposing.`,
        );
      }
      throw unusable(root, opened.issue);
    }
    const notebook = opened.value;
    // An opened notebook has valid records; only an interrupted publication can make it unhealthy.
    const health = hasActiveTransaction(notebook.root) ? "recovery-required" : "healthy";
    const wanted = params.recordIds === undefined ? null : new Set(params.recordIds);
    const selected = wanted === null ? notebook.inventory.slice(0, MAX_LISTED_RECORDS) : notebook.inventory.filter((entry) => wanted.has(entry.recordId));
    const known = new Set(notebook.inventory.map((entry) => entry.recordId));
    const missingRecordIds = params.recordIds === undefined ? [] : [...new Set(params.recordIds)].filter((id) => !known.has(id));
    const records = selected.map((entry) => ({
      recordId: entry.recordId,
      type: entry.record.type,
      status: entry.record.status,
      title: entry.record.title,
      path: entry.path,
      sha256: entry.sha256,
    }));
    const pendingProposals = pendingFor(session.workspaceFolder, notebook);
    const waiting = pendingProposals.length === 0 ? "no proposal is waiting for review" : `${countOf(pendingProposals.length, "proposal")} waiting for the user's review`;
    const truncated = wanted === null && notebook.inventory.length > MAX_LISTED_RECORDS;
    const listed = truncated ? `${notebook.inventory.length} records, the first ${MAX_LISTED_RECORDS} listed (name recordIds for others)` : `${countOf(records.length, "record")} listed`;
    const missing = missingRecordIds.length === 0 ? "" : `; not in the notebook: ${missingRecordIds.join(", ")}`;
    return {
      summary: `Notebook ${notebook.manifest.notebook_id} at ${notebook.root} (${notebook.manifest.default_language}, ${health}): ${listed}${missing}; ${waiting}.`,
      fields: {
        notebook: {
          root: notebook.root,
          notebookId: notebook.manifest.notebook_id,
          language: notebook.manifest.default_language,
          health,
          recordCount: notebook.inventory.length,
          records,
          truncated,
          missingRecordIds,
          pendingProposals,
        },
      },
      result: null,
    };
  },
});

const proposeRecordsTool = defineSessionTool({
  name: "propose_notebook_records",
  title: "Propose Notebook records",
  readOnly: false,
  params: NotebookProposeParams,
  description: [
    "Propose a batch of Notebook records for the user to review and approve. Nothing is written to the notebook: the batch is checked against the notebook as it is now and stored as a proposal that the user inspects record by record in VS Code's diff editor, then saves all of it or none (Observer view). You cannot publish it.",
    `records: 1–${MAX_PROPOSED_RECORDS} observer-save/v1 records, each {operation: "create", record_id, markdown} for a new record (written to records/<record_id>.md) or {operation: "update", record_id, expected_sha256, markdown} for an existing one (expected_sha256 = its sha256 from the notebook tool). markdown is the whole file: YAML frontmatter between --- lines with the observer-record/v1 fields (observer_schema: observer-record/v1, observer_type, observer_status, id = record_id, title, lang, created, modified, tags, aliases, sources, lineage, relations and the type's own fields — read an existing record file for the shape), then exactly one # heading and a non-empty body.`,
    "notebook (optional): the notebook folder (default: the configured notebook). episode_language (optional): en or ko.",
    "The whole batch is refused, and nothing stored, when a record is malformed, an id repeats, a create collides with an existing record, an update's target is missing or changed since expected_sha256, or the notebook as it would be afterwards does not validate (links between records, promotions, inquiries): docket.proposal-invalid names the reference code (save.invalid-plan with publication-preflight.<reason>) and the diagnostics (error.details.diagnostics: phase, code, path, pointer, message). Fix the records and propose again.",
    "Result: the proposal id and its planned records (operation, path, record_id). Tell the user it is waiting for their review: in VS Code's Observer view, or in a terminal with docket notebook show <proposal id>.",
  ].join("\n"),
  run: async (session, params) => {
    const root = notebookRoot(session, params.notebook);
    const made = makeProposal({
      workspace: session.workspaceFolder,
      root,
      episodeLanguage: params.episode_language ?? null,
      records: params.records,
      origin: { kind: "mcp", client: session.client },
    });
    if (!made.ok && made.stage === "notebook") throw unusable(root, made.issue);
    if (!made.ok && made.stage === "shape") throw new DocketError(ErrorCodes.invalidParams, `Invalid arguments for propose_notebook_records: ${made.issue.message} (${made.issue.code} at ${made.issue.pointer || "/"})`);
    if (!made.ok) {
      const issue = made.issue;
      throw new DocketError(ErrorCodes.proposalInvalid, `Refused, nothing stored (${issue.code}, ${issue.reason}): ${issue.message}.${quote(issue.diagnostics)}`, {
        code: issue.code,
        reason: issue.reason,
        recordId: issue.recordId ?? null,
        path: issue.path ?? null,
        diagnostics: issue.diagnostics,
      });
    }
    const { prepared, plan, proposal_sha256: proposalSha256 } = made.proposal;
    const count = plan.records.length;
    const planned = plan.records.map((entry) => `${entry.operation} ${entry.path}`).join(", ");
    return {
      summary: `Proposal ${prepared.proposal_id} is waiting for the user's review (${count === 1 ? "1 record" : `${count} records`}: ${planned}) for notebook ${prepared.notebook_id} at ${prepared.root}. Nothing is written until the user saves it in VS Code's Observer view (or, in a terminal, reviews it with docket notebook show ${prepared.proposal_id} and publishes it); tell the user.`,
      fields: {
        proposal: {
          proposalId: prepared.proposal_id,
          notebookId: prepared.notebook_id,
          root: prepared.root,
          proposalSha256,
          records: plan.records.map((entry) => ({ operation: entry.operation, recordId: entry.record_id, type: entry.record_type, title: entry.title, path: entry.path })),
        },
      },
      result: null,
    };
  },
});

export const NOTEBOOK_TOOLS: readonly SessionTool[] = Object.freeze([readNotebookTool, proposeRecordsTool]);
