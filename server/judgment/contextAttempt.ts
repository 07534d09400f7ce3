// ContextAttempt: the call order a host follows for one judgment. Every call either returns the
// new state with the events to persist, or throws and leaves the attempt unchanged.
import { assessContextCoverage, coverageProposalFromJson } from "./coverage";
import { JudgmentTransitionError } from "./errors";
import type { ContextInventory } from "./inventory";
import type { JsonValue } from "./json";
import {
  applicabilityRecorded,
  coverageRecorded,
  decodeContextApplicabilityData,
  outcomeRecorded,
  parseContextApplicability,
  sealedContextRecorded,
  selectionRecorded,
  startJudgment,
  transitionJudgment,
  type ContextJudgmentEvent,
  type ContextJudgmentState,
} from "./lifecycle";
import type { ObservedContext } from "./observed";
import { concludeJudgment, judgmentProposalFromJson } from "./outcome";
import { questionFromJson } from "./question";
import { sealContext, type ContextAcquisition } from "./seal";
import { selectContext, selectionProposalFromJson } from "./selection";

export interface ContextAttemptTransition<T> {
  readonly value: T;
  readonly events: readonly ContextJudgmentEvent[];
}

function step(state: ContextJudgmentState, events: readonly ContextJudgmentEvent[]): ContextAttemptTransition<ContextJudgmentState> {
  return Object.freeze({ value: state, events: Object.freeze([...events]) });
}

export class ContextAttempt {
  private current: ContextJudgmentState;

  private constructor(state: ContextJudgmentState) {
    this.current = state;
  }

  static open(input: { readonly question: JsonValue; readonly applicability?: JsonValue }): ContextAttemptTransition<ContextAttempt> {
    const attempt = new ContextAttempt(startJudgment(questionFromJson(input.question)));
    const events = input.applicability === undefined ? [] : attempt.recordApplicability(input.applicability).events;
    return Object.freeze({ value: attempt, events: Object.freeze([...events]) });
  }

  get state(): ContextJudgmentState {
    return this.current;
  }

  recordApplicability(value: JsonValue): ContextAttemptTransition<ContextJudgmentState> {
    const applicability = parseContextApplicability(decodeContextApplicabilityData(value));
    const event = applicabilityRecorded({ state: this.current, applicability });
    this.current = transitionJudgment(this.current, event);
    return step(this.current, [event]);
  }

  async selectAndSeal(input: {
    readonly inventory: ContextInventory;
    readonly observedContext: ObservedContext;
    readonly proposal: JsonValue;
    readonly admittedPolicySha256s?: readonly string[];
    readonly acquisition: ContextAcquisition;
    readonly signal?: AbortSignal;
  }): Promise<ContextAttemptTransition<ContextJudgmentState>> {
    const selection = selectContext({
      question: this.current.question,
      inventory: input.inventory,
      observedContext: input.observedContext,
      proposal: selectionProposalFromJson(input.proposal),
      ...(input.admittedPolicySha256s ? { admittedPolicySha256s: input.admittedPolicySha256s } : {}),
    });
    const sealedContext = await sealContext(selection, input.acquisition, input.signal ? { signal: input.signal } : {});
    const selected = selectionRecorded({ state: this.current, selection });
    const selectedState = transitionJudgment(this.current, selected);
    const sealed = sealedContextRecorded({ state: selectedState, sealedContext });
    const sealedState = transitionJudgment(selectedState, sealed);
    this.current = sealedState;
    return step(sealedState, [selected, sealed]);
  }

  assessCoverage(proposal: JsonValue): ContextAttemptTransition<ContextJudgmentState> {
    const sealedContext = this.current.sealedContext;
    if (!sealedContext) throw new JudgmentTransitionError(`Coverage requires sealed context, not ${this.current.status}.`);
    const coverage = assessContextCoverage({ selectedContext: sealedContext, proposal: coverageProposalFromJson(proposal) });
    const event = coverageRecorded({ state: this.current, coverage });
    this.current = transitionJudgment(this.current, event);
    return step(this.current, [event]);
  }

  conclude(proposal: JsonValue): ContextAttemptTransition<ContextJudgmentState> {
    const { sealedContext, coverage } = this.current;
    if (!sealedContext || !coverage) throw new JudgmentTransitionError(`Outcome requires assessed coverage, not ${this.current.status}.`);
    const outcome = concludeJudgment({ question: this.current.question, selectedContext: sealedContext, coverage, proposal: judgmentProposalFromJson(proposal) });
    const event = outcomeRecorded({ state: this.current, outcome });
    this.current = transitionJudgment(this.current, event);
    return step(this.current, [event]);
  }
}
