// The audit's matching rule (docs/audit.md "Matching"), pure: which landing, if any, vouches for
// each path each commit changed. A trust product must not let one landing vouch forever, so:
//  1. a commit's own claims (Docket-Landing trailers and refs/notes/docket notes) are checked
//     against the ledger — the landing must exist, be accepted with exactly that eventSha256, sit in
//     the scope the commit names (if it names one) and have recorded the path;
//  2. a path no verified claim covers falls back to the landings that recorded it, but not those
//     the ledger committed at the range's base already held (they were spent by history the range
//     does not contain);
//  3. each (landing, path) pair vouches for one commit only — the oldest in the range — so a
//     landed path edited again later without Docket is unlanded, with or without a copied trailer;
//     a pair some commit claims is left to claims (the fallback never hands it to another commit).
import { compareCodeUnits } from "../ledger/canonicalJson";
import {
  AUDIT_FORMAT,
  type AuditReport,
  type ClaimStatus,
  type CommitChange,
  type CommitInput,
  type LedgerLanding,
  type LedgerScope,
  type MatchBasis,
  type ReportClaim,
  type ReportCommit,
  type ReportPath,
  type ReportScope,
  type Requirement,
  type Violation,
} from "./auditModel";

export interface ClassifyInput {
  readonly range: string;
  readonly base: string | null;
  readonly head: string;
  readonly ledger: { readonly path: string; readonly lines: number; readonly headLineSha256: string | null; readonly baseLines: number | null };
  readonly commits: readonly CommitInput[];
  readonly landings: readonly LedgerLanding[];
  readonly scopes: readonly LedgerScope[];
  /** Scope ids the range named that the ledger holds. */
  readonly knownScopeIds: ReadonlySet<string>;
  /** eventSha256 of the landings the ledger committed at the base already held (spent before the range). */
  readonly spentLandings: ReadonlySet<string>;
  readonly requirements: readonly Requirement[];
}

const ID = /^[A-Za-z][A-Za-z0-9-]*:[A-Za-z0-9._:/-]+$/u;
const SHA256 = /^[0-9a-f]{64}$/u;

/** `<landingId> <eventSha256>`, or null when the value is not that. */
export function parseLandingClaim(value: string): { landingId: string; eventSha256: string } | null {
  const parts = value.trim().split(/\s+/u);
  if (parts.length !== 2 || !ID.test(parts[0] as string) || !SHA256.test(parts[1] as string)) return null;
  return { landingId: parts[0] as string, eventSha256: parts[1] as string };
}

/**
 * Why a repository path cannot be audited, or null: a `..`, `.`, empty or `.git` segment (Git
 * itself refuses them; a crafted tree does not) or a submodule entry, whose changes live in
 * another repository.
 */
export function pathProblem(path: string, oldMode: string, newMode: string): string | null {
  const segments = path.split("/");
  if (path === "" || segments.some((segment) => segment === "" || segment === "." || segment === ".." || segment.toLowerCase() === ".git")) return "docket.audit-path-invalid";
  if (/[\u0000]/u.test(path)) return "docket.audit-path-invalid";
  if (oldMode === "160000" || newMode === "160000") return "docket.audit-submodule";
  return null;
}

/**
 * A repository path as the workspace folder sees it (what snapshots and landings record): the
 * prefix stripped, `../` for paths beside the workspace. `workspacePrefix` is the workspace's
 * repository-relative folder, "" at the root.
 */
export function workspaceRelative(repoPath: string, workspacePrefix: string): string {
  if (workspacePrefix === "") return repoPath;
  if (repoPath.startsWith(`${workspacePrefix}/`)) return repoPath.slice(workspacePrefix.length + 1);
  const prefix = workspacePrefix.split("/");
  const target = repoPath.split("/");
  let common = 0;
  while (common < prefix.length && common < target.length - 1 && prefix[common] === target[common]) common += 1;
  return [...prefix.slice(common).map(() => ".."), ...target.slice(common)].join("/");
}

function pairKey(landing: LedgerLanding, path: string): string {
  return `${landing.eventSha256}\u0000${path}`;
}

function byLine(left: LedgerLanding, right: LedgerLanding): number {
  return left.line - right.line || compareCodeUnits(left.landingId, right.landingId);
}

export function classifyAudit(input: ClassifyInput): AuditReport {
  const landingsById = new Map<string, LedgerLanding[]>();
  const landingsByPath = new Map<string, LedgerLanding[]>();
  for (const landing of [...input.landings].sort(byLine)) {
    landingsById.set(landing.landingId, [...(landingsById.get(landing.landingId) ?? []), landing]);
    for (const changed of landing.changedPaths) landingsByPath.set(changed, [...(landingsByPath.get(changed) ?? []), landing]);
  }
  const scopesById = new Map(input.scopes.map((scope) => [scope.workScopeId, scope]));
  const debtOf = (landing: LedgerLanding): { reroutePending: boolean; verificationPending: boolean } => {
    const recorded = scopesById.get(landing.workScopeId)?.landings.find((entry) => entry.eventSha256 === landing.eventSha256);
    // A landing replay accepted always has its debt record; without one, fail closed: both owed.
    return { reroutePending: recorded?.reroutePending ?? true, verificationPending: recorded?.verificationPending ?? true };
  };
  const consumed = new Set<string>();
  // Pairs a commit of the range names in a claim that checks out are kept for claims: the path
  // fallback never gives them to another commit (an older commit that created the same file would
  // otherwise take the landing from the commit that carries it).
  const claimedPairs = new Set<string>();
  for (const commit of input.commits) {
    const changed = new Set(commit.changes.flatMap((change) => (change.invalid === null && !change.docketState && change.workspacePath !== null ? [change.workspacePath] : [])));
    const scopes = commit.claims.filter((claim) => claim.key === "Docket-Scope").map((claim) => claim.value.trim());
    for (const claim of commit.claims) {
      const parsed = claim.key === "Docket-Landing" ? parseLandingClaim(claim.value) : null;
      const found = parsed === null ? undefined : landingsById.get(parsed.landingId)?.find((candidate) => candidate.eventSha256 === parsed.eventSha256);
      const claimed = found !== undefined && (scopes.length === 0 || scopes.includes(found.workScopeId)) ? found : undefined;
      for (const changedPath of claimed?.changedPaths ?? []) if (changed.has(changedPath)) claimedPairs.add(pairKey(claimed as LedgerLanding, changedPath));
    }
  }
  const commitsOfScope = new Map<string, Set<string>>();
  const usedLandings = new Map<string, LedgerLanding>();
  const reportCommits: ReportCommit[] = [];
  const pathViolations: Violation[] = [];

  for (const commit of input.commits) {
    const auditable = commit.changes.filter((change) => change.invalid === null && !change.docketState && change.workspacePath !== null);
    const changedHere = new Set(auditable.map((change) => change.workspacePath as string));
    const scopeClaims = commit.claims.filter((claim) => claim.key === "Docket-Scope").map((claim) => claim.value.trim());
    const claims: { claim: ReportClaim; landing: LedgerLanding | null; index: number }[] = [];
    commit.claims.forEach((claim, index) => {
      if (claim.key === "Docket-Scope") {
        const status: ClaimStatus = input.knownScopeIds.has(claim.value.trim()) ? "verified" : ID.test(claim.value.trim()) ? "unknown-scope" : "malformed";
        claims.push({ claim: { source: claim.source, key: claim.key, value: claim.value, status }, landing: null, index });
        return;
      }
      const parsed = parseLandingClaim(claim.value);
      let status: ClaimStatus;
      let landing: LedgerLanding | null = null;
      if (parsed === null) status = "malformed";
      else {
        const sameId = landingsById.get(parsed.landingId) ?? [];
        landing = sameId.find((candidate) => candidate.eventSha256 === parsed.eventSha256) ?? null;
        if (sameId.length === 0) status = "unknown-landing";
        else if (landing === null) status = "event-mismatch";
        else if (scopeClaims.length > 0 && !scopeClaims.includes(landing.workScopeId)) status = "scope-mismatch";
        else if (!landing.changedPaths.some((changed) => changedHere.has(changed))) status = "path-not-recorded";
        else status = "verified";
        if (status !== "verified") landing = null;
      }
      claims.push({ claim: { source: claim.source, key: claim.key, value: claim.value, status }, landing, index });
    });
    const vouching = claims.filter((entry) => entry.landing !== null);
    const landedByClaim = new Set<number>();

    const paths: ReportPath[] = [];
    for (const change of [...commit.changes].sort((left, right) => compareCodeUnits(left.path, right.path))) {
      const base = { path: change.path, status: change.status };
      if (change.invalid !== null) {
        paths.push({ ...base, class: "invalid", landing: null, reason: change.invalid });
        pathViolations.push(violation("auditable", change.invalid, commit.sha, change.path, null, null, `${change.path} cannot be audited (${change.invalid === "docket.audit-submodule" ? "a submodule entry" : "not a plain repository path"})`));
        continue;
      }
      if (change.docketState || change.workspacePath === null) {
        paths.push({ ...base, class: "docket-state", landing: null, reason: null });
        continue;
      }
      const wp = change.workspacePath;
      let chosen: { landing: LedgerLanding; match: MatchBasis } | null = null;
      const claimed = vouching
        .filter((entry) => (entry.landing as LedgerLanding).changedPaths.includes(wp) && !consumed.has(pairKey(entry.landing as LedgerLanding, wp)))
        .sort((left, right) => byLine(left.landing as LedgerLanding, right.landing as LedgerLanding) || left.index - right.index)[0];
      if (claimed !== undefined) {
        chosen = { landing: claimed.landing as LedgerLanding, match: claimed.claim.source };
        for (const entry of vouching) if (entry.landing?.eventSha256 === chosen.landing.eventSha256) landedByClaim.add(entry.index);
      } else {
        const candidate = (landingsByPath.get(wp) ?? []).find(
          (landing) => !input.spentLandings.has(landing.eventSha256) && !consumed.has(pairKey(landing, wp)) && !claimedPairs.has(pairKey(landing, wp)),
        );
        if (candidate !== undefined) chosen = { landing: candidate, match: "path" };
      }
      if (chosen === null) {
        paths.push({ ...base, class: "unlanded", landing: null, reason: null });
        pathViolations.push(violation("landed", "unlanded", commit.sha, change.path, null, null, `${change.path} changed in ${commit.sha.slice(0, 12)} without a landing`));
        continue;
      }
      consumed.add(pairKey(chosen.landing, wp));
      usedLandings.set(chosen.landing.eventSha256, chosen.landing);
      const scopeCommits = commitsOfScope.get(chosen.landing.workScopeId) ?? new Set<string>();
      scopeCommits.add(commit.sha);
      commitsOfScope.set(chosen.landing.workScopeId, scopeCommits);
      paths.push({
        ...base,
        class: "landed",
        landing: {
          landingId: chosen.landing.landingId,
          eventSha256: chosen.landing.eventSha256,
          workScopeId: chosen.landing.workScopeId,
          authorizationId: chosen.landing.authorizationId,
          match: chosen.match,
          ...debtOf(chosen.landing),
        },
        reason: null,
      });
      if (chosen.match === "path") {
        pathViolations.push(
          violation("claimed", "unclaimed-landing", commit.sha, change.path, chosen.landing.landingId, chosen.landing.workScopeId, `${change.path} in ${commit.sha.slice(0, 12)} matches ${chosen.landing.landingId} by path only; no trailer or note names it`),
        );
      }
    }
    const reportClaims = claims.map((entry) =>
      entry.landing !== null && !landedByClaim.has(entry.index) ? { ...entry.claim, status: "already-used" as const } : entry.claim,
    );
    for (const claim of reportClaims) {
      if (claim.status !== "verified") {
        pathViolations.push(violation("landed", `claim-${claim.status}`, commit.sha, null, null, null, `${commit.sha.slice(0, 12)}: ${claim.key}: ${claim.value} (${claim.source}) is ${claim.status}`));
      }
    }
    reportCommits.push({ sha: commit.sha, parents: [...commit.parents], subject: commit.subject, paths, claims: reportClaims });
  }

  const required = new Set(input.requirements);
  const violations = pathViolations.filter((entry) => entry.requirement === "auditable" || required.has(entry.requirement));
  const debts = [...usedLandings.values()].sort((left, right) => compareCodeUnits(left.landingId, right.landingId) || compareCodeUnits(left.eventSha256, right.eventSha256));
  for (const landing of debts) {
    const debt = debtOf(landing);
    const rerouteBy: Requirement | null = required.has("rerouted") ? "rerouted" : required.has("no-debt") ? "no-debt" : null;
    const verifyBy: Requirement | null = required.has("verified") ? "verified" : required.has("no-debt") ? "no-debt" : null;
    if (debt.reroutePending && rerouteBy !== null) {
      violations.push(violation(rerouteBy, "reroute-pending", null, null, landing.landingId, landing.workScopeId, `${landing.landingId} (${landing.workScopeId}) still owes its reroute judgment`));
    }
    if (debt.verificationPending && verifyBy !== null) {
      violations.push(violation(verifyBy, "verification-pending", null, null, landing.landingId, landing.workScopeId, `${landing.landingId} (${landing.workScopeId}) still owes its verification judgment`));
    }
  }

  const scopes: ReportScope[] = input.scopes.map((scope) => ({ ...scope, commits: input.commits.filter((commit) => commitsOfScope.get(scope.workScopeId)?.has(commit.sha) ?? false).map((commit) => commit.sha) }));
  const count = (which: string): number => reportCommits.reduce((total, commit) => total + commit.paths.filter((entry) => entry.class === which).length, 0);
  const claimCount = (verified: boolean): number => reportCommits.reduce((total, commit) => total + commit.claims.filter((claim) => (claim.status === "verified") === verified).length, 0);
  return {
    format: AUDIT_FORMAT,
    range: input.range,
    base: input.base,
    head: input.head,
    ledger: { ...input.ledger },
    requirements: [...input.requirements].sort(compareCodeUnits),
    summary: {
      commits: reportCommits.length,
      landed: count("landed"),
      unlanded: count("unlanded"),
      docketState: count("docket-state"),
      invalid: count("invalid"),
      claimsVerified: claimCount(true),
      claimsRejected: claimCount(false),
      violations: violations.length,
    },
    commits: reportCommits,
    scopes,
    violations,
  };
}

function violation(
  requirement: Violation["requirement"],
  kind: string,
  commit: string | null,
  path: string | null,
  landingId: string | null,
  workScopeId: string | null,
  message: string,
): Violation {
  return { requirement, kind, commit, path, landingId, workScopeId, message };
}

/** Marks the changes `classifyAudit` reads: repository paths made workspace-relative, Docket's own state and unauditable entries flagged. */
export function describeChange(
  change: { readonly path: string; readonly status: string; readonly oldMode: string; readonly newMode: string },
  workspacePrefix: string,
  docketStatePaths: readonly string[],
): CommitChange {
  const invalid = pathProblem(change.path, change.oldMode, change.newMode);
  const workspacePath = invalid === null ? workspaceRelative(change.path, workspacePrefix) : null;
  const docketState = invalid === null && docketStatePaths.some((prefix) => (prefix.endsWith("/") ? change.path.startsWith(prefix) : change.path === prefix));
  return { path: change.path, workspacePath, status: change.status, invalid, docketState };
}
