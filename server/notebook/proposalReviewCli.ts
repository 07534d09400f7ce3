// Reviewing proposals in a terminal, for people whose agents run without VS Code:
// `docket notebook proposals` lists the pending ones, `show` prints each record as a unified diff
// (the bytes on disk now ⇄ the proposed bytes) with its validation, and ends with the one command
// that publishes exactly what was shown (bound to the proposal's digest); `discard` drops one.
//
// Exit codes: 0 done; 2 usage error or no such pending proposal.
import { createTwoFilesPatch } from "diff";
import type { ProposalDetail, ProposalSummary } from "../protocol/messages";
import { UsageError, parseArgs } from "../cli/args";
import { formatDiagnostic } from "./diagnostics";
import type { NotebookCliIo } from "./notebookCli";
import { discardProposal, readProposal } from "./proposalStore";
import { workspaceOf } from "./proposalCli";
import { listProposalSummaries, proposalDetail } from "./proposalView";

export const ReviewExit = { ok: 0, unusable: 2 } as const;

function recordCount(count: number): string {
  return count === 1 ? "1 record" : `${count} records`;
}

/** Who made it, as recorded in the sealed proposal. */
export function originText(origin: ProposalSummary["origin"]): string {
  if (origin === null) return "an unrecorded origin";
  if (origin.kind === "cli") return "docket notebook propose";
  if (origin.kind === "observer") return origin.client === null ? "Observer's Review & Save" : `Observer's Review & Save (${origin.client})`;
  return origin.client === null ? "an MCP agent" : `${origin.client} (MCP)`;
}

function state(proposal: ProposalSummary): string {
  if (proposal.stale) return "stale: a record changed on disk since it was made; discard it";
  return proposal.valid ? "valid" : "invalid: does not validate";
}

export function runProposals(args: readonly string[], io: NotebookCliIo): number {
  const parsed = parseArgs(args, ["workspace"], ["json"]);
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument ${parsed.positionals[0] ?? ""}`);
  const proposals = listProposalSummaries(workspaceOf(parsed, io));
  if (parsed.flags.has("json")) {
    io.stdout(`${JSON.stringify({ proposals })}\n`);
    return ReviewExit.ok;
  }
  if (proposals.length === 0) {
    io.stdout("No pending proposals.\n");
    return ReviewExit.ok;
  }
  for (const proposal of proposals) {
    io.stdout(`${proposal.proposalId}: ${recordCount(proposal.records.length)} for ${proposal.root}, from ${originText(proposal.origin)} (${state(proposal)})\n`);
    for (const record of proposal.records) io.stdout(`  ${record.operation} ${record.path} (${record.stale ? "stale" : record.validation})\n`);
  }
  io.stdout("Review one with: docket notebook show PROPOSAL_ID\n");
  return ReviewExit.ok;
}

function pendingOrThrow(io: NotebookCliIo, parsed: ReturnType<typeof parseArgs>, verb: string): { workspace: string; proposalId: string } {
  if (parsed.positionals.length !== 1) throw new UsageError(`notebook ${verb} needs exactly one PROPOSAL_ID`);
  return { workspace: workspaceOf(parsed, io), proposalId: parsed.positionals[0] as string };
}

function notPending(proposalId: string): UsageError {
  return new UsageError(`no pending proposal ${proposalId} in this workspace (docket notebook proposals lists them)`, "docket.proposal-not-found");
}

/** The diff a person reads before approving: headers name the notebook file, a create diffs against nothing. */
export function recordPatch(record: ProposalDetail["records"][number]): string {
  const before = record.before ?? "";
  const oldName = record.operation === "create" ? "/dev/null" : `a/${record.path}`;
  return createTwoFilesPatch(oldName, `b/${record.path}`, before, record.after, undefined, undefined, { context: 3 });
}

const ANSI = { removed: "\u001b[31m", added: "\u001b[32m", hunk: "\u001b[36m", reset: "\u001b[0m" } as const;

/** Colors removed, added and hunk lines as `git diff` does; file headers stay plain. */
export function colorPatch(patch: string): string {
  return patch
    .split("\n")
    .map((line) => {
      if (line.startsWith("---") || line.startsWith("+++")) return line;
      if (line.startsWith("-")) return `${ANSI.removed}${line}${ANSI.reset}`;
      if (line.startsWith("+")) return `${ANSI.added}${line}${ANSI.reset}`;
      if (line.startsWith("@@")) return `${ANSI.hunk}${line}${ANSI.reset}`;
      return line;
    })
    .join("\n");
}

function useColor(io: NotebookCliIo): boolean {
  return io.color ?? (process.stdout.isTTY === true && (process.env["NO_COLOR"] ?? "") === "");
}

export function runShow(args: readonly string[], io: NotebookCliIo): number {
  const parsed = parseArgs(args, ["workspace"], ["json"]);
  const { workspace, proposalId } = pendingOrThrow(io, parsed, "show");
  const detail = proposalDetail(workspace, proposalId);
  if (detail === null) throw notPending(proposalId);
  if (parsed.flags.has("json")) {
    io.stdout(`${JSON.stringify(detail)}\n`);
    return ReviewExit.ok;
  }
  const color = useColor(io);
  io.stdout(`Proposal ${detail.proposalId}: ${recordCount(detail.records.length)} for notebook ${detail.notebookId} at ${detail.root} (${state(detail)})\n`);
  io.stdout(`Proposed by ${originText(detail.origin)}\nDigest ${detail.proposalSha256}\n\n`);
  for (const record of detail.records) {
    io.stdout(`${record.operation} ${record.path} (${record.recordId}) — ${record.stale ? "stale: changed on disk" : record.validation}\n`);
    // createTwoFilesPatch starts with a "====" rule, which separates the records as well.
    io.stdout(color ? colorPatch(recordPatch(record)) : recordPatch(record));
    for (const diagnostic of record.diagnostics) io.stdout(`  ${formatDiagnostic(diagnostic)}\n`);
    io.stdout("\n");
  }
  for (const diagnostic of detail.diagnostics) io.stdout(`${formatDiagnostic(diagnostic)}\n`);
  if (detail.stale || !detail.valid) {
    io.stdout(`This proposal cannot be published. Discard it with: docket notebook discard ${detail.proposalId}\n`);
  } else {
    const all = detail.records.length === 1 ? "its record" : `all ${detail.records.length} records`;
    io.stdout(`Publish ${all}, exactly as shown, with: docket notebook publish ${detail.proposalId} --yes --sha256 ${detail.proposalSha256}\n`);
  }
  return ReviewExit.ok;
}

/**
 * Observer's proposal is saved and returned through the Observer ledger (`docket observer approve`
 * / `return`), so the Episode settles or returns to review with it; these commands refuse it.
 */
export function refuseObserverProposal(workspace: string, proposalId: string): void {
  const stored = readProposal(workspace, proposalId);
  if (stored.status === "found" && stored.proposal.origin?.kind === "observer") {
    throw new UsageError(
      `${proposalId} is Observer's Review & Save proposal: save it with \`docket observer approve ${proposalId} --yes --sha256 DIGEST\` or return it with \`docket observer return ${proposalId}\` (or in VS Code), so the Episode follows`,
      "docket.proposal-observer",
    );
  }
}

export function runDiscard(args: readonly string[], io: NotebookCliIo): number {
  const parsed = parseArgs(args, ["workspace"], []);
  const { workspace, proposalId } = pendingOrThrow(io, parsed, "discard");
  refuseObserverProposal(workspace, proposalId);
  if (!discardProposal(workspace, proposalId)) throw notPending(proposalId);
  io.stdout(`Discarded ${proposalId}; the notebook was not changed.\n`);
  return ReviewExit.ok;
}
