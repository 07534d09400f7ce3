// One frame of a live scope (reducer/liveScope.ts): the FrameState record kept mutable and indexed
// so that admitting, discharging, blocking and concluding cost the same however much the frame or
// its scope already holds. Its FrameState is built only when a reader asks, and kept until the
// frame changes again.
import type { ConcludedFrame, CompletedCoverage, FrameState } from "../scopeState";
import type { Blocker } from "../values/blockers";
import type { AdmittedContribution } from "../values/contributions";
import type { Discharge } from "../values/discharges";
import type { Obligation } from "../values/obligations";
import type { RouteFrame } from "../values/routeFrame";
import { Counts, KeyedRecords, type Journal } from "./journaled";

export class LiveFrame {
  private routingValue: CompletedCoverage | null = null;
  private conclusionValue: ConcludedFrame | null = null;
  /** By contributionId, in admission order. */
  readonly contributions: KeyedRecords<AdmittedContribution>;
  /** By dischargeId, in discharge order. */
  readonly discharges: KeyedRecords<Discharge>;
  private readonly dischargedObligations: Counts;
  /** By blockerId, in blocking order. */
  readonly blockers: KeyedRecords<Blocker>;
  private readonly blockedObligations: Counts;
  private cached: FrameState | null = null;

  constructor(
    private readonly journal: Journal,
    private readonly onChange: () => void,
    readonly frame: RouteFrame,
    readonly obligations: readonly Obligation[],
  ) {
    this.contributions = new KeyedRecords(journal);
    this.discharges = new KeyedRecords(journal);
    this.dischargedObligations = new Counts(journal);
    this.blockers = new KeyedRecords(journal);
    this.blockedObligations = new Counts(journal);
  }

  /** The live form of a frame a reader holds; that very object stays its snapshot until it changes. */
  static fromState(journal: Journal, onChange: () => void, state: FrameState): LiveFrame {
    const live = new LiveFrame(journal, onChange, state.frame, state.obligations);
    live.routingValue = state.routing;
    live.conclusionValue = state.conclusion;
    for (const contribution of state.contributions) live.contributions.add(contribution.contributionId, contribution);
    for (const discharge of state.discharges) live.addDischarge(discharge);
    for (const blocker of state.blockers) live.addBlocker(blocker);
    live.cached = state;
    return live;
  }

  get frameId(): string {
    return this.frame.frameId;
  }

  get routing(): CompletedCoverage | null {
    return this.routingValue;
  }

  get conclusion(): ConcludedFrame | null {
    return this.conclusionValue;
  }

  isBlocked(obligationId: string): boolean {
    return this.blockedObligations.get(obligationId) > 0;
  }

  isDischarged(obligationId: string): boolean {
    return this.dischargedObligations.get(obligationId) > 0;
  }

  setRouting(routing: CompletedCoverage): void {
    this.changed();
    const previous = this.routingValue;
    this.routingValue = routing;
    this.journal.record(() => {
      this.routingValue = previous;
    });
  }

  /** Only the owning scope calls this: concluding also changes the scope's open-frame counts. */
  setConclusion(conclusion: ConcludedFrame): void {
    this.changed();
    const previous = this.conclusionValue;
    this.conclusionValue = conclusion;
    this.journal.record(() => {
      this.conclusionValue = previous;
    });
  }

  addContribution(contribution: AdmittedContribution): void {
    this.changed();
    this.contributions.add(contribution.contributionId, contribution);
  }

  addDischarge(discharge: Discharge): void {
    this.changed();
    this.discharges.add(discharge.dischargeId, discharge);
    this.dischargedObligations.add(discharge.obligationId, 1);
  }

  addBlocker(blocker: Blocker): void {
    this.changed();
    this.blockers.add(blocker.blockerId, blocker);
    for (const obligationId of blocker.targetObligationIds) this.blockedObligations.add(obligationId, 1);
  }

  removeBlocker(blockerId: string): void {
    const blocker = this.blockers.get(blockerId);
    if (blocker === undefined) return;
    this.changed();
    this.blockers.remove(blockerId);
    for (const obligationId of blocker.targetObligationIds) this.blockedObligations.add(obligationId, -1);
  }

  /** The reader's immutable record of this frame (rebuilt only after a change). */
  snapshot(): FrameState {
    if (this.cached === null) {
      this.cached = {
        frame: this.frame,
        obligations: this.obligations,
        routing: this.routingValue,
        contributions: this.contributions.values(),
        discharges: this.discharges.values(),
        blockers: this.blockers.values(),
        conclusion: this.conclusionValue,
      };
    }
    return this.cached;
  }

  private changed(): void {
    this.onChange();
    const previous = this.cached;
    if (previous === null) return;
    this.cached = null;
    this.journal.record(() => {
      this.cached = previous;
    });
  }
}
