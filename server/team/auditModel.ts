// The audit's data: what the ledger and Git hand to the classification, and the report
// (`docket/audit/v1`, docs/audit.md) it hands back. Plain values only, so the classification and
// both renderings stay pure.

export const AUDIT_FORMAT = "docket/audit/v1";

/** An accepted landing the range may be about. */
export interface LedgerLanding {
  readonly landingId: string;
  /** The accepted implementation-landing-recorded event's envelope eventSha256. */
  readonly eventSha256: string;
  readonly workScopeId: string;
  readonly authorizationId: string;
  /** Workspace-relative paths, as the landing recorded them. */
  readonly changedPaths: readonly string[];
  /** Zero-based ledger line of the landing event. */
  readonly line: number;
}

export interface ScopeGuardReview {
  readonly reviewId: string;
  /** `open` until submitted, then the submitted status. */
  readonly status: string;
  readonly claims: number;
}

export interface LedgerScope {
  readonly workScopeId: string;
  readonly status: "open" | "closed";
  readonly judgments: readonly {
    readonly frameId: string;
    readonly role: "work" | "reroute" | "verification";
    readonly routeDefinitionId: string;
    readonly question: string;
    readonly conclusion: string | null;
  }[];
  readonly authorizations: readonly {
    readonly authorizationId: string;
    readonly frameId: string;
    readonly movement: string;
    readonly stableLanding: string;
    readonly verificationTarget: string;
  }[];
  readonly landings: readonly {
    readonly landingId: string;
    readonly eventSha256: string;
    readonly authorizationId: string;
    readonly changedPaths: readonly string[];
    readonly result: string;
    readonly verification: readonly string[];
    readonly reroutePending: boolean;
    readonly verificationPending: boolean;
  }[];
  readonly guardReviews: readonly ScopeGuardReview[];
}

export type ChangeClass = "landed" | "unlanded" | "docket-state" | "invalid";
export type ClaimSource = "trailer" | "note";
export type MatchBasis = ClaimSource | "path";

/** One path a commit changed, before classification. */
export interface CommitChange {
  /** Repository-relative, as Git stores it. */
  readonly path: string;
  /** The same path relative to the workspace folder (what landings record); null when it cannot be one. */
  readonly workspacePath: string | null;
  readonly status: string;
  /** Set when the path cannot be audited: docket.audit-path-invalid or docket.audit-submodule. */
  readonly invalid: string | null;
  readonly docketState: boolean;
}

export interface CommitClaim {
  readonly source: ClaimSource;
  readonly key: "Docket-Landing" | "Docket-Scope";
  /** The value as written. */
  readonly value: string;
}

export interface CommitInput {
  readonly sha: string;
  readonly parents: readonly string[];
  readonly subject: string;
  readonly changes: readonly CommitChange[];
  readonly claims: readonly CommitClaim[];
}

export type ClaimStatus =
  | "verified"
  | "malformed"
  | "unknown-landing"
  | "event-mismatch"
  | "path-not-recorded"
  | "already-used"
  | "scope-mismatch"
  | "unknown-scope";

export interface ReportClaim {
  readonly source: ClaimSource;
  readonly key: "Docket-Landing" | "Docket-Scope";
  readonly value: string;
  readonly status: ClaimStatus;
}

export interface ReportLandingRef {
  readonly landingId: string;
  readonly eventSha256: string;
  readonly workScopeId: string;
  readonly authorizationId: string;
  readonly match: MatchBasis;
  readonly reroutePending: boolean;
  readonly verificationPending: boolean;
}

export interface ReportPath {
  readonly path: string;
  readonly status: string;
  readonly class: ChangeClass;
  readonly landing: ReportLandingRef | null;
  readonly reason: string | null;
}

export interface ReportCommit {
  readonly sha: string;
  readonly parents: readonly string[];
  readonly subject: string;
  readonly paths: readonly ReportPath[];
  readonly claims: readonly ReportClaim[];
}

export type Requirement = "landed" | "verified" | "rerouted" | "no-debt" | "claimed";
export const REQUIREMENTS: readonly Requirement[] = ["claimed", "landed", "no-debt", "rerouted", "verified"];

export interface Violation {
  readonly requirement: Requirement | "auditable";
  readonly kind: string;
  readonly commit: string | null;
  readonly path: string | null;
  readonly landingId: string | null;
  readonly workScopeId: string | null;
  readonly message: string;
}

export interface ReportScope extends LedgerScope {
  /** Commits of the range that carry one of the scope's landings. */
  readonly commits: readonly string[];
}

export interface AuditReport {
  readonly format: typeof AUDIT_FORMAT;
  readonly range: string;
  readonly base: string | null;
  readonly head: string;
  readonly ledger: {
    readonly path: string;
    readonly lines: number;
    readonly headLineSha256: string | null;
    /** Lines of the ledger committed at the range's base; landings before them cannot match by path. */
    readonly baseLines: number | null;
  };
  readonly requirements: readonly Requirement[];
  readonly summary: {
    readonly commits: number;
    readonly landed: number;
    readonly unlanded: number;
    readonly docketState: number;
    readonly invalid: number;
    readonly claimsVerified: number;
    readonly claimsRejected: number;
    readonly violations: number;
  };
  readonly commits: readonly ReportCommit[];
  readonly scopes: readonly ReportScope[];
  readonly violations: readonly Violation[];
}
