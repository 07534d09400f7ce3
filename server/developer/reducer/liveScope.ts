// The reducer's working form of one scope (§3.1): the records of ScopeState kept mutable and
// indexed by their ids, so every event costs O(1) however long the scope already is (a scope of a
// year of work holds tens of thousands of frames, supports and assignments). Each change records
// its inverse in the scope's journal: a rejected event, or a preflight, is rolled back exactly.
// Readers never see this object: `snapshot()` gives the immutable ScopeState, built only when asked
// and kept (the very same object) until the scope changes again.
import { eventRefOf, type Envelope } from "../../ledger/envelope";
import type { ScopeClosure } from "../eventKinds";
import type {
  AssignmentState,
  AuthorizationRecord,
  ConcludedFrame,
  RoutingSnapshot,
  ScopeState,
  SettlementRecord,
  SupportRecord,
} from "../scopeState";
import type { Authorization } from "../values/authorization";
import type { Landing, LandingDebt } from "../values/landing";
import type { Obligation } from "../values/obligations";
import type { RouteFrame } from "../values/routeFrame";
import type { CanServeBasis } from "../values/routing";
import { AppendOnly, Counts, Groups, Journal, JournaledMap, KeyedRecords } from "./journaled";
import { LiveFrame } from "./liveFrame";

type ActiveInvocation = ScopeState["activeInvocation"];
type Head = ScopeState["head"];

/** Counts key of every open frame; parent ids key the open children of each parent. */
const ALL_OPEN = "";

function revisionKey(frameId: string, frameRevision: number): string {
  return `${frameId}\u0000${frameRevision}`;
}

export class LiveScope {
  readonly journal = new Journal();
  private headValue: Head;
  private statusValue: "open" | "closed" = "open";
  private closureValue: ScopeClosure | null = null;
  private activeAuthorizationValue: Authorization | null = null;
  private activeInvocationValue: ActiveInvocation = null;
  private closedAtValue: string | null = null;
  readonly authorizations = new AppendOnly<AuthorizationRecord>(this.journal);
  /** By authorizationId (a landing settles exactly one authorization). */
  readonly landings = new KeyedRecords<Landing>(this.journal);
  /** By position; debts are only ever appended and updated in place. */
  private readonly debts = new KeyedRecords<LandingDebt>(this.journal);
  /** Keys of the debts with a pending question, in debt order (rarely more than one). */
  private readonly pendingDebts = new KeyedRecords<string>(this.journal);
  /** By frameId, in opening order. */
  readonly frames = new KeyedRecords<LiveFrame>(this.journal);
  private readonly openFrames = new Counts(this.journal);
  /** By supportId, in observation order. */
  readonly supports = new KeyedRecords<SupportRecord>(this.journal);
  /** By snapshotId; a replaced snapshot, and a replaced frame's snapshots, are removed. */
  readonly snapshots = new KeyedRecords<RoutingSnapshot>(this.journal);
  private readonly snapshotsByFrame = new Groups(this.journal);
  private readonly snapshotsByRevision = new Counts(this.journal);
  /** By basisId. */
  readonly bases = new KeyedRecords<CanServeBasis>(this.journal);
  private readonly basesByFrame = new Groups(this.journal);
  /** By assignmentId, in recording order. */
  readonly assignments = new KeyedRecords<AssignmentState>(this.journal);
  private readonly assignmentsByFrame = new Groups(this.journal);
  /** invocationId → assignmentId of every started (active or settled) assignment present. */
  private readonly startedByInvocation = new JournaledMap<string>(this.journal);
  readonly settlements = new AppendOnly<SettlementRecord>(this.journal);
  private cached: ScopeState | null = null;
  private readonly changedCallback = (): void => this.changed();

  private constructor(
    readonly workScopeId: string,
    head: Head,
    readonly openedAt: string,
    readonly openedEventSha256: string,
  ) {
    this.headValue = head;
  }

  /** The scope a `work-scope-opened` envelope opens (its checks are the caller's). */
  static opened(envelope: Envelope): LiveScope {
    return new LiveScope(envelope.workScopeId, { scopeSequence: 0, eventRef: eventRefOf(envelope) }, envelope.occurredAt, envelope.eventSha256);
  }

  /** The live form of a state a reader holds (a checkpoint's, a test's); `snapshot()` returns that very state until a change. */
  static fromState(state: ScopeState): LiveScope {
    const live = new LiveScope(state.workScopeId, state.head, state.openedAt, state.openedEventSha256);
    live.statusValue = state.root.status;
    live.closureValue = state.root.closure;
    live.activeAuthorizationValue = state.root.activeAuthorization;
    live.activeInvocationValue = state.activeInvocation;
    live.closedAtValue = state.closedAt;
    for (const record of state.root.authorizations) live.authorizations.push(record);
    for (const landing of state.root.landings) live.landings.add(landing.authorizationId, landing);
    for (const debt of state.root.debts) live.addDebt(debt);
    for (const frame of state.frames) live.addFrame(LiveFrame.fromState(live.journal, live.changedCallback, frame));
    for (const support of state.supports) live.addSupport(support);
    for (const snapshot of state.snapshots) live.addSnapshot(snapshot);
    for (const basis of state.bases) live.addBasis(basis);
    for (const assignment of state.assignments) live.addAssignment(assignment);
    for (const settlement of state.settlements) live.settlements.push(settlement);
    live.journal.forget();
    live.cached = state;
    return live;
  }

  get head(): Head {
    return this.headValue;
  }

  get status(): "open" | "closed" {
    return this.statusValue;
  }

  get activeAuthorization(): Authorization | null {
    return this.activeAuthorizationValue;
  }

  get activeInvocation(): ActiveInvocation {
    return this.activeInvocationValue;
  }

  setHead(head: Head): void {
    this.changed();
    const previous = this.headValue;
    this.headValue = head;
    this.journal.record(() => {
      this.headValue = previous;
    });
  }

  close(closure: ScopeClosure, closedAt: string): void {
    this.changed();
    const previous = { status: this.statusValue, closure: this.closureValue, authorization: this.activeAuthorizationValue, closedAt: this.closedAtValue };
    this.statusValue = "closed";
    this.closureValue = closure;
    this.activeAuthorizationValue = null;
    this.closedAtValue = closedAt;
    this.journal.record(() => {
      this.statusValue = previous.status;
      this.closureValue = previous.closure;
      this.activeAuthorizationValue = previous.authorization;
      this.closedAtValue = previous.closedAt;
    });
  }

  setActiveAuthorization(authorization: Authorization | null): void {
    this.changed();
    const previous = this.activeAuthorizationValue;
    this.activeAuthorizationValue = authorization;
    this.journal.record(() => {
      this.activeAuthorizationValue = previous;
    });
  }

  setActiveInvocation(invocation: ActiveInvocation): void {
    this.changed();
    const previous = this.activeInvocationValue;
    this.activeInvocationValue = invocation;
    this.journal.record(() => {
      this.activeInvocationValue = previous;
    });
  }

  addAuthorization(record: AuthorizationRecord): void {
    this.changed();
    this.authorizations.push(record);
  }

  addLanding(landing: Landing): void {
    this.changed();
    this.landings.add(landing.authorizationId, landing);
  }

  addDebt(debt: LandingDebt): void {
    this.changed();
    const key = String(this.debts.size);
    this.debts.add(key, debt);
    if (debt.reroutePending || debt.verificationPending) this.pendingDebts.add(key, key);
  }

  hasPendingDebt(): boolean {
    return this.pendingDebts.size > 0;
  }

  /** Debts with a pending question, in debt order, with the key `updateDebt` takes. */
  pendingDebtEntries(): { readonly key: string; readonly debt: LandingDebt }[] {
    return this.pendingDebts.values().map((key) => ({ key, debt: this.debts.get(key) as LandingDebt }));
  }

  updateDebt(key: string, debt: LandingDebt): void {
    this.changed();
    this.debts.replace(key, debt);
    if (!debt.reroutePending && !debt.verificationPending) this.pendingDebts.remove(key);
  }

  frame(frameId: string): LiveFrame | undefined {
    return this.frames.get(frameId);
  }

  /** A new, empty frame of this scope (not yet added). */
  newFrame(frame: RouteFrame, obligations: readonly Obligation[]): LiveFrame {
    return new LiveFrame(this.journal, this.changedCallback, frame, obligations);
  }

  addFrame(frame: LiveFrame): void {
    this.changed();
    this.frames.add(frame.frameId, frame);
    if (frame.conclusion === null) this.countOpen(frame, 1);
  }

  /** A fresh revision of an open frame takes its place (and stays open under the same parent). */
  replaceFrame(frame: LiveFrame): void {
    this.changed();
    this.frames.replace(frame.frameId, frame);
  }

  concludeFrame(frame: LiveFrame, conclusion: ConcludedFrame): void {
    this.changed();
    if (frame.conclusion === null) this.countOpen(frame, -1);
    frame.setConclusion(conclusion);
  }

  hasOpenFrame(): boolean {
    return this.openFrames.get(ALL_OPEN) > 0;
  }

  hasOpenChild(parentFrameId: string): boolean {
    return this.openFrames.get(parentFrameId) > 0;
  }

  private countOpen(frame: LiveFrame, delta: number): void {
    this.openFrames.add(ALL_OPEN, delta);
    if (frame.frame.parentFrameId !== null) this.openFrames.add(frame.frame.parentFrameId, delta);
  }

  addSupport(support: SupportRecord): void {
    this.changed();
    this.supports.add(support.supportId, support);
  }

  addSnapshot(snapshot: RoutingSnapshot): void {
    this.changed();
    this.snapshots.add(snapshot.snapshotId, snapshot);
    this.snapshotsByFrame.add(snapshot.frameId, snapshot.snapshotId);
    this.snapshotsByRevision.add(revisionKey(snapshot.frameId, snapshot.frameRevision), 1);
  }

  /** A snapshot's next state (same id, frame and revision). */
  updateSnapshot(snapshot: RoutingSnapshot): void {
    this.changed();
    this.snapshots.replace(snapshot.snapshotId, snapshot);
  }

  removeSnapshot(snapshotId: string): void {
    const snapshot = this.snapshots.get(snapshotId);
    if (snapshot === undefined) return;
    this.changed();
    this.snapshots.remove(snapshotId);
    this.snapshotsByFrame.delete(snapshot.frameId, snapshotId);
    this.snapshotsByRevision.add(revisionKey(snapshot.frameId, snapshot.frameRevision), -1);
  }

  hasSnapshotFor(frameId: string, frameRevision: number): boolean {
    return this.snapshotsByRevision.get(revisionKey(frameId, frameRevision)) > 0;
  }

  addBasis(basis: CanServeBasis): void {
    this.changed();
    this.bases.add(basis.basisId, basis);
    this.basesByFrame.add(basis.frameId, basis.basisId);
  }

  addAssignment(assignment: AssignmentState): void {
    this.changed();
    const id = assignment.assignment.assignmentId;
    this.assignments.add(id, assignment);
    this.assignmentsByFrame.add(assignment.assignment.parentFrameId, id);
    if (assignment.status !== "ready") this.startedByInvocation.set(assignment.invocationId, id);
  }

  /** An assignment's next state (same id and frame). */
  updateAssignment(assignment: AssignmentState): void {
    this.changed();
    this.assignments.replace(assignment.assignment.assignmentId, assignment);
    if (assignment.status !== "ready") this.startedByInvocation.set(assignment.invocationId, assignment.assignment.assignmentId);
  }

  /** The started (active or settled) assignment present for an invocation id. */
  startedAssignment(invocationId: string): AssignmentState | undefined {
    const id = this.startedByInvocation.get(invocationId);
    return id === undefined ? undefined : this.assignments.get(id);
  }

  addSettlement(record: SettlementRecord): void {
    this.changed();
    this.settlements.push(record);
  }

  /** A replaced frame's revision-bound records go: its assignments, snapshots and bases. */
  dropFrameRecords(frameId: string): void {
    this.changed();
    for (const id of this.assignmentsByFrame.take(frameId)) {
      const assignment = this.assignments.get(id);
      if (assignment === undefined) continue;
      this.assignments.remove(id);
      if (assignment.status !== "ready") this.startedByInvocation.delete(assignment.invocationId);
    }
    for (const id of this.snapshotsByFrame.keys(frameId)) this.removeSnapshot(id);
    for (const id of this.basesByFrame.take(frameId)) this.bases.remove(id);
  }

  /** The reader's immutable ScopeState (rebuilt only after a change). */
  snapshot(): ScopeState {
    if (this.cached === null) {
      this.cached = {
        workScopeId: this.workScopeId,
        head: this.headValue,
        root: {
          status: this.statusValue,
          closure: this.closureValue,
          activeAuthorization: this.activeAuthorizationValue,
          authorizations: this.authorizations.values(),
          landings: this.landings.values(),
          debts: this.debts.values(),
        },
        frames: this.frames.values().map((frame) => frame.snapshot()),
        supports: this.supports.values(),
        snapshots: this.snapshots.values(),
        bases: this.bases.values(),
        assignments: this.assignments.values(),
        settlements: this.settlements.values(),
        activeInvocation: this.activeInvocationValue,
        openedAt: this.openedAt,
        openedEventSha256: this.openedEventSha256,
        closedAt: this.closedAtValue,
      };
    }
    return this.cached;
  }

  private changed(): void {
    const previous = this.cached;
    if (previous === null) return;
    this.cached = null;
    this.journal.record(() => {
      this.cached = previous;
    });
  }
}
