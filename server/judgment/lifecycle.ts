// Applicability, judgment-event/v1 transition facts and the judgment state machine. Events are
// engine facts, not a session format: hosts embed or reduce them into their own protocol.
import type { ContextCoverage } from "./coverage";
import { JudgmentTransitionError } from "./errors";
import { canonicalJson, type JsonValue } from "./json";
import type { JudgmentOutcome } from "./outcome";
import type { DynamicJudgmentQuestion } from "./question";
import { NonEmptyText, S, decodeWith, type Schema } from "./schema";
import type { SealedContext } from "./sealedContext";
import type { ContextSelection } from "./selection";
import { normalizedText, uniqueTextSet } from "./text";

export const JUDGMENT_EVENT_PROTOCOL = "judgment-event/v1" as const;

export type ContextApplicability =
  | { readonly kind: "applicable"; readonly basis: readonly string[] }
  | { readonly kind: "not-applicable"; readonly reason: string; readonly evidence: readonly string[] }
  | { readonly kind: "needs-context"; readonly missingContext: readonly string[] };
export type ContextApplicabilityData = ContextApplicability;

const Basis = S.array(NonEmptyText, { minItems: 1, maxItems: 32, uniqueItems: true });
export const ContextApplicabilitySchema: Schema = S.union("kind", [
  S.object({ kind: S.literal("applicable"), basis: Basis }),
  S.object({ kind: S.literal("not-applicable"), reason: NonEmptyText, evidence: Basis }),
  S.object({ kind: S.literal("needs-context"), missingContext: Basis }),
]);

interface EventBase {
  readonly protocol: typeof JUDGMENT_EVENT_PROTOCOL;
  readonly judgmentId: string;
}
export type ContextJudgmentEvent =
  | (EventBase & { readonly kind: "applicability-recorded"; readonly applicability: ContextApplicability })
  | (EventBase & { readonly kind: "selection-recorded"; readonly revision: number; readonly selection: ContextSelection })
  | (EventBase & { readonly kind: "sealed-context-recorded"; readonly revision: number; readonly sealedContext: SealedContext })
  | (EventBase & { readonly kind: "coverage-recorded"; readonly coverage: ContextCoverage })
  | (EventBase & { readonly kind: "outcome-recorded"; readonly outcome: JudgmentOutcome });

export type ContextJudgmentStatus =
  | "started"
  | "selection-open"
  | "selected"
  | "sealed"
  | "covered"
  | "terminal-not-applicable"
  | "terminal-needs-context"
  | "terminal-outcome";

export interface ContextJudgmentState {
  readonly question: DynamicJudgmentQuestion;
  readonly status: ContextJudgmentStatus;
  readonly applicability?: ContextApplicability;
  readonly revision: number;
  readonly selection?: ContextSelection;
  readonly sealedContext?: SealedContext;
  readonly coverage?: ContextCoverage;
  readonly outcome?: JudgmentOutcome;
}

export function decodeContextApplicabilityData(value: JsonValue): ContextApplicabilityData {
  return decodeWith<ContextApplicabilityData>(ContextApplicabilitySchema, value, "Context applicability has an invalid representation.");
}

function basis(values: readonly string[], path: string): readonly string[] {
  return uniqueTextSet(values, path, (value) => `Duplicate value at ${path}: ${value}.`);
}

export function parseContextApplicability(data: ContextApplicabilityData): ContextApplicability {
  switch (data.kind) {
    case "applicable":
      return Object.freeze({ kind: data.kind, basis: basis(data.basis, "/basis") });
    case "not-applicable":
      return Object.freeze({ kind: data.kind, reason: normalizedText(data.reason, "/reason"), evidence: basis(data.evidence, "/evidence") });
    case "needs-context":
      return Object.freeze({ kind: data.kind, missingContext: basis(data.missingContext, "/missingContext") });
  }
}

export function startJudgment(question: DynamicJudgmentQuestion): ContextJudgmentState {
  return Object.freeze({ question, status: "started", revision: 0 });
}

type EventBody = ContextJudgmentEvent extends infer E ? (E extends unknown ? Omit<E, keyof EventBase> : never) : never;
function event(state: ContextJudgmentState, body: EventBody): ContextJudgmentEvent {
  return Object.freeze({ protocol: JUDGMENT_EVENT_PROTOCOL, judgmentId: state.question.judgmentId, ...body }) as ContextJudgmentEvent;
}
export function applicabilityRecorded(input: { readonly state: ContextJudgmentState; readonly applicability: ContextApplicability }): ContextJudgmentEvent {
  return event(input.state, { kind: "applicability-recorded", applicability: input.applicability });
}
export function selectionRecorded(input: { readonly state: ContextJudgmentState; readonly selection: ContextSelection }): ContextJudgmentEvent {
  return event(input.state, { kind: "selection-recorded", revision: input.state.revision + 1, selection: input.selection });
}
export function sealedContextRecorded(input: { readonly state: ContextJudgmentState; readonly sealedContext: SealedContext }): ContextJudgmentEvent {
  return event(input.state, { kind: "sealed-context-recorded", revision: input.state.revision, sealedContext: input.sealedContext });
}
export function coverageRecorded(input: { readonly state: ContextJudgmentState; readonly coverage: ContextCoverage }): ContextJudgmentEvent {
  return event(input.state, { kind: "coverage-recorded", coverage: input.coverage });
}
export function outcomeRecorded(input: { readonly state: ContextJudgmentState; readonly outcome: JudgmentOutcome }): ContextJudgmentEvent {
  return event(input.state, { kind: "outcome-recorded", outcome: input.outcome });
}

function applicabilityKey(value: ContextApplicability): string {
  return canonicalJson(value as unknown as JsonValue);
}

/** An event identical to what the state already holds is a no-op. */
function alreadyApplied(state: ContextJudgmentState, event: ContextJudgmentEvent): boolean {
  switch (event.kind) {
    case "applicability-recorded":
      return state.applicability !== undefined && applicabilityKey(state.applicability) === applicabilityKey(event.applicability);
    case "selection-recorded":
      return state.revision === event.revision && state.selection?.selectionSha256 === event.selection.selectionSha256;
    case "sealed-context-recorded":
      return state.revision === event.revision && state.sealedContext?.sealedContextSha256 === event.sealedContext.sealedContextSha256;
    case "coverage-recorded":
      return state.coverage?.coverageSha256 === event.coverage.coverageSha256;
    case "outcome-recorded":
      return state.outcome?.outcomeSha256 === event.outcome.outcomeSha256;
  }
}

const SELECTABLE: readonly ContextJudgmentStatus[] = ["selection-open", "selected", "sealed", "covered"];

export function transitionJudgment(state: ContextJudgmentState, event: ContextJudgmentEvent): ContextJudgmentState {
  if (event.protocol !== JUDGMENT_EVENT_PROTOCOL) throw new JudgmentTransitionError(`Unsupported Judgment event protocol: ${String(event.protocol)}.`);
  if (event.judgmentId !== state.question.judgmentId) throw new JudgmentTransitionError(`Judgment event belongs to another judgment: ${event.judgmentId}.`);
  if (alreadyApplied(state, event)) return state;
  if (state.status.startsWith("terminal-")) throw new JudgmentTransitionError(`Terminal Judgment state cannot accept ${event.kind}.`);
  switch (event.kind) {
    case "applicability-recorded": {
      if (state.status !== "started") throw new JudgmentTransitionError("Context applicability can be recorded only once at start.");
      const status: ContextJudgmentStatus =
        event.applicability.kind === "applicable" ? "selection-open" : event.applicability.kind === "not-applicable" ? "terminal-not-applicable" : "terminal-needs-context";
      return Object.freeze({ ...state, status, applicability: event.applicability });
    }
    case "selection-recorded": {
      if (!SELECTABLE.includes(state.status)) throw new JudgmentTransitionError(`Selection cannot be recorded from ${state.status}.`);
      if (event.revision !== state.revision + 1) throw new JudgmentTransitionError(`Selection revision ${event.revision} does not follow ${state.revision}.`);
      if (event.selection.judgmentId !== state.question.judgmentId || event.selection.questionSha256 !== state.question.questionSha256)
        throw new JudgmentTransitionError("Selection belongs to another dynamic question.");
      const { sealedContext: _s, coverage: _c, outcome: _o, ...rest } = state;
      return Object.freeze({ ...rest, status: "selected", revision: event.revision, selection: event.selection });
    }
    case "sealed-context-recorded": {
      if (state.status !== "selected" || !state.selection) throw new JudgmentTransitionError(`Sealed context cannot be recorded from ${state.status}.`);
      if (event.revision !== state.revision || event.sealedContext.selectionSha256 !== state.selection.selectionSha256)
        throw new JudgmentTransitionError("Sealed context belongs to a stale selection revision.");
      return Object.freeze({ ...state, status: "sealed", sealedContext: event.sealedContext });
    }
    case "coverage-recorded": {
      if (state.status !== "sealed" || !state.sealedContext) throw new JudgmentTransitionError(`Coverage cannot be recorded from ${state.status}.`);
      if (event.coverage.sealedContextSha256 !== state.sealedContext.sealedContextSha256) throw new JudgmentTransitionError("Coverage belongs to stale sealed context.");
      return Object.freeze({ ...state, status: "covered", coverage: event.coverage });
    }
    case "outcome-recorded": {
      if (state.status !== "covered" || !state.sealedContext || !state.coverage) throw new JudgmentTransitionError(`Outcome cannot be recorded from ${state.status}.`);
      if (event.outcome.sealedContextSha256 !== state.sealedContext.sealedContextSha256 || event.outcome.coverageSha256 !== state.coverage.coverageSha256)
        throw new JudgmentTransitionError("Outcome belongs to stale coverage or sealed context.");
      return Object.freeze({ ...state, status: "terminal-outcome", outcome: event.outcome });
    }
  }
}

export function replayJudgmentEvents(initial: ContextJudgmentState, events: readonly ContextJudgmentEvent[]): ContextJudgmentState {
  return events.reduce(transitionJudgment, initial);
}
