// The pure half of Git reconciliation (developer/v8 §6.2–§6.3): what changed between two
// workspace snapshots, whether authorization may start, and which paths a landing records.
// Snapshots are plain data produced by server/workspace/gitObservation.ts (the impure adapter)
// and persisted by server/workspace/baselineStore.ts; nothing here touches Git or the disk, so
// the rules can be tested exhaustively and replayed identically by every process.
//
// Error codes returned by this module (to be added to the protocol's error table):
//   docket.workspace-changed-before-authorization  files changed between the scope baseline and
//       authorization. Settle them (commit, stash or revert) and start a new scope, or turn
//       Docket off and on again so the current state becomes the baseline.
//   docket.git-head-changed  HEAD moved (commit, checkout, reset, rebase) since the baseline, so
//       the delta can no longer be computed. Move HEAD back (e.g. `git reset --soft <old sha>`
//       after a commit) or abandon the authorization and start over; commit after landing.
//   docket.workspace-identity-changed  the baseline was taken in another repository or folder.
//       Reopen the folder the scope started in.
//   docket.workspace-unavailable  the baseline was observed with Git but Git cannot observe the
//       workspace now (timeout, repository removed, git missing). Fix Git and retry.
//   docket.landing-empty  nothing changed since authorization; edit first, then land.
//   docket.landing-paths-mismatch  the reported paths differ from the observed delta; report
//       exactly the observed list (given in the message) or omit the paths.
//   docket.landing-paths-required  the workspace is not observed with Git, so the landing must
//       declare its changed paths.
//   docket.landing-paths-invalid  the paths cannot be recorded in a landing (empty, more than
//       200, duplicated, or a path longer than 4096 characters).
import { compareCodeUnits } from "../ledger/canonicalJson";
import { ErrorCodes } from "../protocol/messages";

/** Identity of one dirty path: `absent`, `file:<sha256>`, `symlink:<sha256>`, `directory`, `other:<mode>:<size>`. */
export type PathIdentity = string;

export interface DirtyPath {
  /** Relative to the snapshot's cwd, `/`-separated, as Git names it. */
  readonly path: string;
  readonly identity: PathIdentity;
}

export interface GitWorkspaceSnapshot {
  readonly kind: "git";
  /** Work-tree root as `git rev-parse --show-toplevel` prints it. */
  readonly root: string;
  /** Real path of the folder the snapshot was taken from. */
  readonly cwd: string;
  /** Commit sha of HEAD; null in a repository without commits (a valid state). */
  readonly head: string | null;
  /** Paths that differ from HEAD (or are untracked and not ignored), strictly ascending, unique. */
  readonly dirty: readonly DirtyPath[];
}

export interface UnavailableWorkspaceSnapshot {
  readonly kind: "unavailable";
  readonly reason: string;
}

export type WorkspaceSnapshot = GitWorkspaceSnapshot | UnavailableWorkspaceSnapshot;

/**
 * Why a delta could not be observed. `baseline-unavailable` is the non-Git workspace case (the
 * landing then records declared paths); every other cause means Git was observing and the
 * observation broke, which must refuse instead of silently trusting declared paths.
 */
export type DeltaUnavailableCause = "baseline-unavailable" | "current-unavailable" | "identity-changed" | "head-changed";

export type WorkspaceDelta =
  | { readonly kind: "observed"; readonly changedPaths: readonly string[] }
  | { readonly kind: "unavailable"; readonly cause: DeltaUnavailableCause; readonly reason: string };

/** The Git reconciliation refusals, named from the one list of error codes in the protocol. */
export const WorkspaceErrorCodes = {
  changedBeforeAuthorization: ErrorCodes.changedBeforeAuthorization,
  gitHeadChanged: ErrorCodes.gitHeadChanged,
  identityChanged: ErrorCodes.identityChanged,
  workspaceUnavailable: ErrorCodes.workspaceUnavailable,
  landingEmpty: ErrorCodes.landingEmpty,
  landingPathsMismatch: ErrorCodes.landingPathsMismatch,
  landingPathsRequired: ErrorCodes.landingPathsRequired,
  landingPathsInvalid: ErrorCodes.landingPathsInvalid,
} as const;
export type WorkspaceErrorCode = (typeof WorkspaceErrorCodes)[keyof typeof WorkspaceErrorCodes];

export interface WorkspaceRefusal {
  readonly ok: false;
  readonly code: WorkspaceErrorCode;
  readonly message: string;
}

/** Limits of a landing's `changedPaths` (developer/v8 §1.2): 1..200 paths, each ≤4096 units. */
export const MAX_LANDING_PATHS = 200;
export const MAX_LANDING_PATH_LENGTH = 4096;
/** How many paths a message lists before summarising, so a huge delta stays readable. */
const LISTED_PATHS = 20;


export function sortedUnique(paths: readonly string[]): string[] {
  return [...new Set(paths)].sort(compareCodeUnits);
}

/** A path that is not dirty matches HEAD; one shared marker keeps "clean" comparable. */
const CLEAN = "clean";

function identities(snapshot: GitWorkspaceSnapshot): Map<string, PathIdentity> {
  // A Map, not an object: a file may well be named `__proto__` or `constructor`.
  return new Map(snapshot.dirty.map((entry) => [entry.path, entry.identity]));
}

function shortSha(sha: string | null): string {
  return sha === null ? "no commit yet" : sha.slice(0, 12);
}

/** delta(baseline → current) per developer/v8 §6.2. */
export function workspaceDelta(baseline: WorkspaceSnapshot, current: WorkspaceSnapshot): WorkspaceDelta {
  if (baseline.kind === "unavailable") {
    return { kind: "unavailable", cause: "baseline-unavailable", reason: baseline.reason };
  }
  if (current.kind === "unavailable") {
    return { kind: "unavailable", cause: "current-unavailable", reason: current.reason };
  }
  if (baseline.root !== current.root || baseline.cwd !== current.cwd) {
    return {
      kind: "unavailable",
      cause: "identity-changed",
      reason:
        `Workspace identity changed since the baseline (was ${baseline.cwd} in repository ${baseline.root}, ` +
        `now ${current.cwd} in repository ${current.root}). Reopen the folder this Docket scope started in.`,
    };
  }
  if (baseline.head !== current.head) {
    return {
      kind: "unavailable",
      cause: "head-changed",
      reason:
        `Git HEAD changed since the baseline (${shortSha(baseline.head)} → ${shortSha(current.head)}): ` +
        "committing or switching branches during a Docket scope breaks landing reconciliation, because " +
        "Docket can no longer tell which changes belong to this scope. Move HEAD back to " +
        `${shortSha(baseline.head)} (after a commit, \`git reset --soft\` keeps your edits), or turn Docket off ` +
        "and on again to start a new scope; commit only after the landing is recorded.",
    };
  }
  const before = identities(baseline);
  const after = identities(current);
  const changedPaths = sortedUnique([...before.keys(), ...after.keys()]).filter(
    (path) => (before.get(path) ?? CLEAN) !== (after.get(path) ?? CLEAN),
  );
  return { kind: "observed", changedPaths };
}

function listPaths(paths: readonly string[]): string {
  if (paths.length === 0) return "(none)";
  const shown = paths.slice(0, LISTED_PATHS).join(", ");
  return paths.length > LISTED_PATHS ? `${shown} and ${paths.length - LISTED_PATHS} more` : shown;
}

function refusal(code: WorkspaceErrorCode, message: string): WorkspaceRefusal {
  return { ok: false, code, message };
}

/** Maps a delta that Git could not observe (and that is not the non-Git case) to its refusal. */
function brokenObservation(delta: WorkspaceDelta & { kind: "unavailable" }): WorkspaceRefusal {
  switch (delta.cause) {
    case "head-changed":
      return refusal(WorkspaceErrorCodes.gitHeadChanged, delta.reason);
    case "identity-changed":
      return refusal(WorkspaceErrorCodes.identityChanged, delta.reason);
    case "current-unavailable":
    case "baseline-unavailable":
      return refusal(
        WorkspaceErrorCodes.workspaceUnavailable,
        `The baseline was observed with Git, but the workspace cannot be observed now: ${delta.reason}`,
      );
  }
}

export type AuthorizationCheck = { readonly ok: true } | WorkspaceRefusal;

/**
 * Authorization may start only if nothing changed since the scope baseline (§6.3): otherwise the
 * landing could not tell the authorized edits from earlier ones. A non-Git scope baseline skips
 * the check because there is nothing to compare; the landing then declares its paths.
 */
export function checkAuthorization(scopeBaseline: WorkspaceSnapshot, current: WorkspaceSnapshot): AuthorizationCheck {
  if (scopeBaseline.kind === "unavailable") return { ok: true };
  const delta = workspaceDelta(scopeBaseline, current);
  if (delta.kind === "unavailable") return brokenObservation(delta);
  if (delta.changedPaths.length > 0) {
    return refusal(
      WorkspaceErrorCodes.changedBeforeAuthorization,
      `The workspace changed before authorization: ${listPaths(delta.changedPaths)}. ` +
        "Settle those changes (commit, stash or revert them), then turn Docket off and on again so the " +
        "settled state becomes the new baseline.",
    );
  }
  return { ok: true };
}

export type LandingReconciliation =
  | { readonly ok: true; readonly changedPaths: readonly string[]; readonly source: "observed" | "declared" }
  | WorkspaceRefusal;

/** Checks what a landing can record; a huge or malformed list fails here, not in the reducer. */
function landingLimits(paths: readonly string[], what: string): WorkspaceRefusal | null {
  if (paths.length === 0) return refusal(WorkspaceErrorCodes.landingPathsInvalid, `${what}: at least one path is required.`);
  if (paths.length > MAX_LANDING_PATHS) {
    return refusal(
      WorkspaceErrorCodes.landingPathsInvalid,
      `${what}: ${paths.length} paths, but a landing records at most ${MAX_LANDING_PATHS}. Split the change into smaller authorizations.`,
    );
  }
  const duplicates = sortedUnique(paths.filter((path, index) => paths.indexOf(path) !== index));
  if (duplicates.length > 0) {
    return refusal(WorkspaceErrorCodes.landingPathsInvalid, `${what}: duplicated paths ${listPaths(duplicates)}.`);
  }
  const bad = paths.filter((path) => path.length === 0 || path.length > MAX_LANDING_PATH_LENGTH);
  if (bad.length > 0) {
    return refusal(
      WorkspaceErrorCodes.landingPathsInvalid,
      `${what}: every path must be 1 to ${MAX_LANDING_PATH_LENGTH} characters long (${bad.length} is not).`,
    );
  }
  return null;
}

/**
 * The paths a landing records (§6.3). With Git the observed delta decides and reported paths may
 * only confirm it exactly; without Git the declared paths are recorded as declared.
 */
export function reconcileLanding(delta: WorkspaceDelta, reportedPaths?: readonly string[]): LandingReconciliation {
  if (delta.kind === "unavailable") {
    if (delta.cause !== "baseline-unavailable") return brokenObservation(delta);
    if (reportedPaths === undefined) {
      return refusal(
        WorkspaceErrorCodes.landingPathsRequired,
        `Docket cannot observe this workspace with Git (${delta.reason}), so the landing must list the changed paths.`,
      );
    }
    const invalid = landingLimits(reportedPaths, "Declared landing paths");
    if (invalid !== null) return invalid;
    return { ok: true, changedPaths: [...reportedPaths].sort(compareCodeUnits), source: "declared" };
  }
  const observed = delta.changedPaths;
  if (observed.length === 0) {
    return refusal(
      WorkspaceErrorCodes.landingEmpty,
      "Nothing changed in the workspace since authorization, so there is nothing to land. Make the authorized edit first.",
    );
  }
  if (reportedPaths !== undefined) {
    const invalid = landingLimits(reportedPaths, "Reported landing paths");
    if (invalid !== null) return invalid;
    const reported = new Set(reportedPaths);
    const observedSet = new Set(observed);
    const omitted = observed.filter((path) => !reported.has(path));
    const extra = [...reportedPaths].sort(compareCodeUnits).filter((path) => !observedSet.has(path));
    if (omitted.length > 0 || extra.length > 0) {
      return refusal(
        WorkspaceErrorCodes.landingPathsMismatch,
        `The reported paths do not match what changed since authorization. Omitted: ${listPaths(omitted)}. ` +
          `Extra: ${listPaths(extra)}. Observed: ${listPaths(observed)}. Report exactly the observed paths, or omit them.`,
      );
    }
  }
  const invalid = landingLimits(observed, "Observed landing paths");
  if (invalid !== null) return invalid;
  return { ok: true, changedPaths: [...observed], source: "observed" };
}
