// The coded errors shared by the backend, the CLI and (through JSON-RPC error data) the extension.
// No imports: any module may name a code without loading the protocol's schemas (messages.ts,
// which re-exports these).
/** Error codes shared by backend, CLI and UI. */
export const ErrorCodes = {
  invalidParams: "docket.invalid-params",
  noWorkspace: "docket.no-workspace",
  untrusted: "docket.untrusted-workspace",
  ledgerLocked: "docket.ledger-locked",
  ledgerUnwritable: "docket.ledger-unwritable",
  ledgerForeign: "docket.ledger-foreign",
  ledgerCorrupt: "docket.ledger-corrupt",
  // The ledger holds fewer lines than its head anchor recorded, or other lines where it recorded its head.
  ledgerTruncated: "docket.ledger-truncated",
  ledgerRewritten: "docket.ledger-rewritten",
  // A write would go through a symbolic link or outside the folder Docket owns (server/workspace/containedFs.ts).
  unsafePath: "docket.unsafe-path",
  historyBlocked: "docket.history-blocked",
  alreadyOn: "docket.already-on",
  alreadyOff: "docket.already-off",
  preflightRejected: "docket.preflight-rejected",
  staleCursor: "docket.stale-cursor",
  invalidCursor: "docket.invalid-cursor",
  receiptNotFound: "docket.receipt-not-found",
  operationNotLegal: "docket.operation-not-legal",
  purposeMismatch: "docket.purpose-mismatch",
  unknownRoute: "docket.unknown-route",
  verificationRouteRequired: "docket.verification-route-required",
  unknownSkill: "docket.unknown-skill",
  unknownContextSource: "docket.unknown-context-source",
  contextSourceChanged: "docket.context-source-changed",
  unknownEvidenceHandle: "docket.unknown-evidence-handle",
  judgmentRejected: "docket.judgment-rejected",
  baselineMissing: "docket.baseline-missing",
  unknownLanding: "docket.unknown-landing",
  // Git reconciliation refusals (developer/workspaceDelta.ts names them as WorkspaceErrorCodes).
  changedBeforeAuthorization: "docket.workspace-changed-before-authorization",
  gitHeadChanged: "docket.git-head-changed",
  identityChanged: "docket.workspace-identity-changed",
  workspaceUnavailable: "docket.workspace-unavailable",
  landingEmpty: "docket.landing-empty",
  landingPathsMismatch: "docket.landing-paths-mismatch",
  landingPathsRequired: "docket.landing-paths-required",
  landingPathsInvalid: "docket.landing-paths-invalid",
  readOnlySource: "docket.read-only-source",
  piSessionUnreadable: "docket.pi-session-unreadable",
  piSessionTooLarge: "docket.pi-session-too-large",
  piSessionInvalid: "docket.pi-session-invalid",
  // A hook call whose stdin is not the host's documented JSON (too large, not UTF-8 JSON, wrong shape).
  hookInputInvalid: "docket.hook-input-invalid",
  // Agent installers (server/agents): a host config file Docket will not edit, or a stale plan.
  agentConfigMalformed: "docket.agent-config-malformed",
  agentConfigUnsupported: "docket.agent-config-unsupported",
  agentConfigConflict: "docket.agent-config-conflict",
  agentConfigUnwritable: "docket.agent-config-unwritable",
  agentPlanChanged: "docket.agent-plan-changed",
  agentRuntimeMissing: "docket.agent-runtime-missing",
  // Router (server/router): a task that cannot be planned, a workspace that cannot be scanned,
  // a review report for a plan basis that does not exist or does not match.
  taskInvalid: "docket.task-invalid",
  snapshotUnavailable: "docket.snapshot-unavailable",
  reviewReportInvalid: "docket.review-report-invalid",
  // Notebook (server/notebook): the reference's own codes travel in the message; these say what the UI does next.
  notebookNotConfigured: "docket.notebook-not-configured",
  notebookUnusable: "docket.notebook-unusable",
  notebookSetupRefused: "docket.notebook-setup-refused",
  proposalNotFound: "docket.proposal-not-found",
  proposalStale: "docket.proposal-stale",
  proposalInvalid: "docket.proposal-invalid",
  approvalMismatch: "docket.proposal-approval-mismatch",
  publicationFailed: "docket.publication-failed",
  publicationRecoveryRequired: "docket.publication-recovery-required",
  // Completion guard (server/guard): reviews refused before anything is written.
  docketOff: "docket.off",
  reviewInvalid: "docket.review-invalid",
  reviewDraftTooLarge: "docket.review-draft-too-large",
  reviewSourceInvalid: "docket.review-source-invalid",
  reviewUnknown: "docket.review-unknown",
  reviewClosed: "docket.review-closed",
  reviewClaimUnjudged: "docket.review-claim-unjudged",
  reviewClaimUnknown: "docket.review-claim-unknown",
  reviewCitationUnsealed: "docket.review-citation-unsealed",
  // The judgments were valid but could not be appended (lock, disk): submit the same judgments again.
  reviewNotRecorded: "docket.review-not-recorded",
  // Observer (server/observer): the reference's own code travels in the message and details.observerCode.
  observerRefused: "docket.observer-refused",
  // The Observer history has replay issues: every Observer change is refused until it is repaired.
  observerBlocked: "docket.observer-blocked",
  // The Observer stream changed since the caller read it (observer_commit's fingerprint).
  observerStale: "docket.observer-stale",
  // Commit links (server/team): Git cannot be asked, a revision Docket will not pass to Git, a
  // prepare-commit-msg hook or merge driver Docket did not write, a hooks folder outside the repository.
  gitUnavailable: "docket.git-unavailable",
  gitRevisionInvalid: "docket.git-revision-invalid",
  gitHookConflict: "docket.git-hook-conflict",
  gitHooksOutside: "docket.git-hooks-outside",
  // `docket audit` (server/team/audit.ts): a range, repository or ledger the audit cannot read.
  auditRangeInvalid: "docket.audit-range-invalid",
  auditShallowClone: "docket.audit-shallow-clone",
  auditNotARepository: "docket.audit-not-a-repository",
  auditGitFailed: "docket.audit-git-failed",
  auditPathInvalid: "docket.audit-path-invalid",
  auditSubmodule: "docket.audit-submodule",
  auditLedgerDiverged: "docket.audit-ledger-diverged",
  ledgerMissing: "docket.ledger-missing",
  // Team provenance (server/team): a commit id the workspace's repository does not hold.
  commitNotFound: "docket.commit-not-found",
  internal: "docket.internal",
} as const;
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
