// `docket notebook propose FILE.json [--notebook DIR]` and `docket notebook publish PROPOSAL_ID --yes`:
// proposals and their publication for scripts. `propose` preflights a file of proposed records
// and stores the sealed proposal in the workspace; `publish` runs the transaction for one stored
// proposal, only with --yes (the approval of all its records).
//
// Exit codes. propose: 0 stored; 1 refused by preflight (save.invalid-plan, save.target-mismatch;
// nothing stored); 2 usage error, unreadable input or unusable notebook. publish: 0 published (or an
// interrupted publication of it settled); 1 refused or rolled back, the notebook unchanged
// (save.declined without --yes, save.invalid-plan, save.concurrent-change, save.persistence,
// save.lifecycle); 2 usage error, unknown or damaged proposal, unusable notebook; 3 recovery required.
import { refuseObserverProposal } from "./proposalReviewCli";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as z from "zod";
import { findWorkspaceRoot } from "../workspace/ledgerPaths";
import { formatDiagnostic, type NotebookDiagnostic } from "./diagnostics";
import { UsageError, parseArgs, stringFlag } from "../cli/args";
import type { NotebookCliIo } from "./notebookCli";
import { resolveNotebookPath } from "./notebookPath";
import { makeProposal, type MakeProposalOutcome } from "./makeProposal";
import type { NotebookProposal } from "./proposal";
import { publishProposal, type PublicationIssue } from "./publication";

export const ProposeExit = { stored: 0, refused: 1, unusable: 2 } as const;
export const PublishExit = { published: 0, refused: 1, unusable: 2, recoveryRequired: 3 } as const;

const RecordInput = z.union([
  z.strictObject({ operation: z.literal("create"), record_id: z.string(), markdown: z.string() }),
  z.strictObject({ operation: z.literal("create"), record_id: z.string(), markdown_file: z.string().min(1) }),
  z.strictObject({ operation: z.literal("update"), record_id: z.string(), expected_sha256: z.string(), markdown: z.string() }),
  z.strictObject({ operation: z.literal("update"), record_id: z.string(), expected_sha256: z.string(), markdown_file: z.string().min(1) }),
]);

/** The file `propose` reads (documented in docs/notebook.md). */
export const ProposalInput = z.strictObject({
  notebook: z.string().min(1).optional(),
  episode_language: z.enum(["en", "ko"]).optional(),
  records: z.array(RecordInput),
});

/** `--workspace DIR`, else the Git root above the current directory (as every docket command). */
export function workspaceOf(parsed: ReturnType<typeof parseArgs>, io: NotebookCliIo): string {
  const flag = parsed.flags.get("workspace");
  return typeof flag === "string" ? path.resolve(io.cwd, flag) : findWorkspaceRoot(io.cwd);
}

function readText(file: string, what: string): string {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${file}: ${(error as Error).message}`, "docket.input-unreadable");
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${what} ${file} is not UTF-8 text`, "docket.input-unreadable");
  }
}

function printDiagnostics(diagnostics: readonly NotebookDiagnostic[], io: NotebookCliIo): void {
  for (const diagnostic of diagnostics) {
    io.stdout(`  ${formatDiagnostic(diagnostic)}\n`);
  }
}

function summary(proposal: NotebookProposal): object {
  return {
    proposalId: proposal.prepared.proposal_id,
    notebookId: proposal.prepared.notebook_id,
    root: proposal.prepared.root,
    proposalSha256: proposal.proposal_sha256,
    records: proposal.plan.records,
  };
}

export function runPropose(args: readonly string[], io: NotebookCliIo): number {
  const parsed = parseArgs(args, ["notebook", "workspace"], ["json"]);
  if (parsed.positionals.length !== 1) throw new UsageError("notebook propose needs exactly one FILE.json of proposed records");
  const file = path.resolve(io.cwd, parsed.positionals[0] as string);
  let raw: unknown;
  try {
    raw = JSON.parse(readText(file, "proposal input"));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${file} is not JSON`, "docket.input-unreadable");
  }
  const input = ProposalInput.safeParse(raw);
  if (!input.success) {
    const first = input.error.issues[0];
    throw new UsageError(`${file}: ${first === undefined ? "invalid" : `${first.path.join("/") || "/"}: ${first.message}`} (expected {"notebook"?, "episode_language"?, "records": [...]})`, "save-profile.shape");
  }
  const folderFlag = parsed.flags.get("notebook");
  const folderInput = typeof folderFlag === "string" ? folderFlag : input.data.notebook;
  if (folderInput === undefined) throw new UsageError("name the notebook: --notebook DIR or \"notebook\" in the file");
  // A folder named in the file is read relative to the file, so the file can move with its notebook.
  const base = typeof folderFlag === "string" ? io.cwd : path.dirname(file);
  const resolved = resolveNotebookPath(folderInput, base, io.home ?? os.homedir());
  if (!resolved.ok) throw new UsageError(resolved.message, resolved.code);
  const records = input.data.records.map((record) => {
    const markdown = "markdown" in record ? record.markdown : readText(path.resolve(path.dirname(file), record.markdown_file), "record Markdown");
    return record.operation === "create"
      ? { operation: record.operation, record_id: record.record_id, markdown }
      : { operation: record.operation, record_id: record.record_id, expected_sha256: record.expected_sha256, markdown };
  });
  const made = makeProposal({
    workspace: workspaceOf(parsed, io),
    root: resolved.path,
    episodeLanguage: input.data.episode_language ?? null,
    records,
    origin: { kind: "cli", client: null },
  });
  if (!made.ok) return reportRefusal(made, file, parsed.flags.has("json"), io);
  const { proposal } = made;
  if (parsed.flags.has("json")) {
    io.stdout(`${JSON.stringify({ ok: true, ...summary(proposal), file: made.file })}\n`);
  } else {
    io.stdout(`Proposal ${proposal.prepared.proposal_id} for notebook ${proposal.prepared.notebook_id} at ${proposal.prepared.root}:\n`);
    for (const entry of proposal.plan.records) io.stdout(`  ${entry.operation} ${entry.path} (${entry.record_id})\n`);
    const count = proposal.plan.records.length;
    io.stdout(`Stored in ${made.file}. Publish ${count === 1 ? "its record" : `all ${count} records`} with: docket notebook publish ${proposal.prepared.proposal_id} --yes\n`);
  }
  return ProposeExit.stored;
}

function reportRefusal(made: Exclude<MakeProposalOutcome, { ok: true }>, file: string, json: boolean, io: NotebookCliIo): number {
  if (made.stage === "shape") throw new UsageError(`${file}: ${made.issue.message} at ${made.issue.pointer || "/"}`, made.issue.code);
  if (made.stage === "notebook") {
    io.stderr(`docket: ${made.issue.code}: ${made.issue.message} (${made.issue.path})\n`);
    if (made.issue.diagnostics !== undefined) printDiagnostics(made.issue.diagnostics, { ...io, stdout: io.stderr });
    return ProposeExit.unusable;
  }
  const issue = made.issue;
  if (json) {
    io.stdout(`${JSON.stringify({ ok: false, code: issue.code, reason: issue.reason, message: issue.message, recordId: issue.recordId ?? null, diagnostics: issue.diagnostics })}\n`);
  } else {
    io.stdout(`refused: ${issue.code} (${issue.reason}): ${issue.message}\n`);
    printDiagnostics(issue.diagnostics, io);
  }
  return ProposeExit.refused;
}

function exitFor(issue: PublicationIssue): number {
  if (issue.recoveryRequired) return PublishExit.recoveryRequired;
  if (issue.code.startsWith("notebook.") || issue.code.startsWith("save-profile.")) return PublishExit.unusable;
  if (issue.reason === "proposal.not-found") return PublishExit.unusable;
  return PublishExit.refused;
}

export function runPublish(args: readonly string[], io: NotebookCliIo): number {
  const parsed = parseArgs(args, ["workspace", "sha256"], ["yes", "json"]);
  if (parsed.positionals.length !== 1) throw new UsageError("notebook publish needs exactly one PROPOSAL_ID");
  // `--sha256` binds the approval to the proposal `docket notebook show` printed.
  const approvedSha256 = stringFlag(parsed, "sha256");
  if (approvedSha256 !== undefined && !/^[0-9a-f]{64}$/u.test(approvedSha256)) throw new UsageError("--sha256 takes the proposal digest docket notebook show prints (64 lowercase hex digits)");
  refuseObserverProposal(workspaceOf(parsed, io), parsed.positionals[0] as string);
  const result = publishProposal({
    workspace: workspaceOf(parsed, io),
    proposalId: parsed.positionals[0] as string,
    approved: parsed.flags.has("yes"),
    ...(approvedSha256 === undefined ? {} : { approvedSha256 }),
  });
  if (parsed.flags.has("json")) {
    io.stdout(`${JSON.stringify(result.ok ? { ok: true, settled: result.settled, receipt: result.receipt } : { ok: false, ...result.issue })}\n`);
    return result.ok ? PublishExit.published : exitFor(result.issue);
  }
  if (result.ok) {
    io.stdout(`${JSON.stringify(result.receipt, null, 2)}\n`);
    return PublishExit.published;
  }
  const issue = result.issue;
  io.stderr(`docket: ${issue.code}${issue.reason === null ? "" : ` (${issue.reason})`}: ${issue.message}\n`);
  if (issue.diagnostics.length > 0) printDiagnostics(issue.diagnostics, { ...io, stdout: io.stderr });
  io.stderr(`${issue.recoveryRequired ? "recovery required: " : ""}${issue.advice}\n`);
  return exitFor(issue);
}
