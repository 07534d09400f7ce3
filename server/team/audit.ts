// `docket audit <rev-range>` (issue 17): each changed path of each commit classified as landed,
// unlanded or docket-state, and each scope's judgments, authorization, landings and debts.
// INTERFACE STUB: the audit work replaces the body; `runAudit` is what the VS Code command
// "Docket: Audit Branch…" builds on.

export interface AuditRequest {
  readonly workspaceFolder: string;
  readonly ledgerPath: string;
  /** A Git revision range such as `origin/main..HEAD`. */
  readonly range: string;
}

export interface AuditRun {
  /** The report as Markdown, ready to paste into a pull request. */
  readonly markdown: string;
  /** Commits the range held. */
  readonly commits: number;
}

/** Audits a range; throws a DocketError with a coded message for a bad range or ledger. */
export async function runAudit(request: AuditRequest): Promise<AuditRun> {
  return { markdown: `# Docket audit of \`${request.range}\`\n\n(not implemented yet)\n`, commits: 0 };
}
