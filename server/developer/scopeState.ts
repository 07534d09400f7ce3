// Per-scope reducer state (§3.1) as readers see it. Every part is immutable: a ScopeState is a
// snapshot the reducer's live scope (reducer/liveScope.ts) hands out, and later events never
// change a snapshot already handed out.
import type { EventRef } from "../ledger/envelope";
import type { ScopeClosure } from "./eventKinds";
import type { Authorization } from "./values/authorization";
import type { Blocker } from "./values/blockers";
import type { FrameConclusion } from "./values/conclusions";
import type { AdmittedContribution, ObservedSupport } from "./values/contributions";
import type { Discharge } from "./values/discharges";
import type { Landing, LandingDebt } from "./values/landing";
import type { Obligation } from "./values/obligations";
import type { RouteFrame } from "./values/routeFrame";
import type { InvocationSettlement, ReadySkillAssignment } from "./values/skills";
import type { CanServeBasis, CandidateDescriptor, SnapshotBasis, SnapshotManifest, TargetSummary } from "./values/routing";

/** Routing coverage of one snapshot while its pages are accounted (§4.3). */
export interface RoutingCoverage {
  readonly basis: SnapshotBasis;
  readonly manifest: SnapshotManifest;
  readonly obligations: readonly Obligation[];
  readonly nextPageIndex: number;
  readonly observedCandidateCount: number;
  readonly pageChainSha256: string;
  readonly selectedCandidates: readonly CandidateDescriptor[];
  readonly targetSummaries: readonly TargetSummary[];
}

/** Coverage that completed against its seal; only this can be attached to a frame. */
export interface CompletedCoverage extends RoutingCoverage {
  readonly coverageSha256: string;
}

export type RoutingSnapshot =
  | { readonly status: "collecting"; readonly snapshotId: string; readonly frameId: string; readonly frameRevision: number; readonly coverage: RoutingCoverage }
  | { readonly status: "completed"; readonly snapshotId: string; readonly frameId: string; readonly frameRevision: number; readonly coverage: CompletedCoverage };

/** A concluded frame remembers the event that concluded it, so later events can cite it as a cause. */
export interface ConcludedFrame extends FrameConclusion {
  readonly eventRef: EventRef;
}

export interface FrameState {
  readonly frame: RouteFrame;
  readonly obligations: readonly Obligation[];
  /** Completed routing coverage of the current revision; a zero-Skill frame never needs it. */
  readonly routing: CompletedCoverage | null;
  readonly contributions: readonly AdmittedContribution[];
  readonly discharges: readonly Discharge[];
  readonly blockers: readonly Blocker[];
  readonly conclusion: ConcludedFrame | null;
}

/** Observed external support is scope-wide (not frame-bound) and keeps its event for causality checks. */
export interface SupportRecord extends ObservedSupport {
  readonly eventRef: EventRef;
}

/** Every accepted authorization of the scope, so a landing can check that it cites one. */
export interface AuthorizationRecord {
  readonly authorizationId: string;
  readonly eventRef: EventRef;
}

export interface RootState {
  readonly status: "open" | "closed";
  readonly closure: ScopeClosure | null;
  /** Set by `change-authorized`; cleared by a landing (or closure, which requires it to be null). */
  readonly activeAuthorization: Authorization | null;
  readonly authorizations: readonly AuthorizationRecord[];
  readonly landings: readonly Landing[];
  /** Post-landing debts (§6.4); they never block closure. */
  readonly debts: readonly LandingDebt[];
}

/** A ready assignment moves to active when its invocation starts and to settled once, never back. */
export type AssignmentState =
  | { readonly status: "ready"; readonly assignment: ReadySkillAssignment; readonly basis: CanServeBasis }
  | { readonly status: "active"; readonly assignment: ReadySkillAssignment; readonly basis: CanServeBasis; readonly invocationId: string }
  | {
      readonly status: "settled";
      readonly assignment: ReadySkillAssignment;
      readonly basis: CanServeBasis;
      readonly invocationId: string;
      readonly settlement: InvocationSettlement;
    };

/**
 * Every accepted settlement with its event. Kept apart from assignments because a frame
 * replacement deletes the frame's assignments, while the settlement events stay citable.
 */
export interface SettlementRecord {
  readonly settlement: InvocationSettlement;
  readonly eventRef: EventRef;
}

export interface ScopeState {
  readonly workScopeId: string;
  readonly head: { readonly scopeSequence: number; readonly eventRef: EventRef };
  readonly root: RootState;
  /** Frames in opening order. */
  readonly frames: readonly FrameState[];
  /** Supports in observation order (supportIds are unique within the scope). */
  readonly supports: readonly SupportRecord[];
  /** Routing snapshots by id (replay bookkeeping; a replaced snapshot is dropped). */
  readonly snapshots: readonly RoutingSnapshot[];
  /** can-serve bases by id. */
  readonly bases: readonly CanServeBasis[];
  readonly settlements: readonly SettlementRecord[];
  /** Assignments in recording order. */
  readonly assignments: readonly AssignmentState[];
  /** At most one active skill invocation per scope. */
  readonly activeInvocation: { readonly invocationId: string; readonly assignmentId: string; readonly frameId: string } | null;
  /** Audit-only timestamps of the opening and closing events (never used for ordering). */
  readonly openedAt: string;
  readonly openedEventSha256: string;
  readonly closedAt: string | null;
}

export function frameOf(scope: ScopeState, frameId: string): FrameState | undefined {
  return scope.frames.find((entry) => entry.frame.frameId === frameId);
}
