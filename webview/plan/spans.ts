// Which words of the task the plan's reasons cite, and how the task text splits into segments
// around them, so the panel can highlight exactly the cited words. Pure (no DOM): unit-tested.
import type { Plan, Reason, TaskSpan } from "../../server/router/planSchema";

export interface Segment {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** True when at least one cited span covers this segment. */
  readonly cited: boolean;
}

function reasonSpans(reason: Reason): TaskSpan[] {
  switch (reason.kind) {
    case "task-span":
    case "description-token":
      return [reason.span];
    case "catalogue-field":
      return reason.span === null ? [] : [reason.span];
    default:
      return [];
  }
}

/** Every reason anywhere in the plan, in stage order. */
export function allReasons(plan: Plan): Reason[] {
  const reasons: Reason[] = [];
  const { intent, routing, contextPack, verification, review } = plan;
  reasons.push(...intent.domain.reasons, ...intent.executionMode.reasons);
  for (const risk of intent.risk) reasons.push(...risk.reasons);
  for (const candidate of routing.candidates) reasons.push(...candidate.reasons);
  reasons.push(...routing.fit.reasons);
  for (const aside of routing.setAside) reasons.push(...aside.reasons, ...aside.because);
  for (const excluded of routing.excluded) reasons.push(...excluded.reasons);
  for (const fact of contextPack.facts) reasons.push(...fact.reasons);
  for (const file of contextPack.files) reasons.push(...file.reasons);
  for (const finding of contextPack.findings) reasons.push(...finding.reasons);
  for (const check of verification.required) reasons.push(...check.reasons);
  for (const seat of review.seats) reasons.push(...seat.reasons);
  return reasons;
}

/** Spans cited by a reason, or named by the intent (entities, signals and their targets, constraints). */
export function citedSpans(plan: Plan): TaskSpan[] {
  const spans: TaskSpan[] = allReasons(plan).flatMap(reasonSpans);
  for (const entity of plan.intent.entities) spans.push(entity.span);
  for (const item of plan.intent.unmatched) spans.push(item.span);
  for (const item of plan.intent.ambiguous) spans.push(item.span);
  for (const signal of plan.intent.signals) {
    spans.push(signal.span);
    if (signal.target !== null) spans.push(signal.target);
  }
  for (const constraint of plan.contextPack.constraints) spans.push(constraint.span);
  const length = plan.task.text.length;
  return spans.filter((span) => span.start < span.end && span.end <= length);
}

/** The task text cut at every span boundary; a segment is cited when some span covers it. */
export function segments(text: string, spans: readonly TaskSpan[]): Segment[] {
  const cuts = new Set<number>([0, text.length]);
  for (const span of spans) {
    cuts.add(span.start);
    cuts.add(span.end);
  }
  const points = [...cuts].filter((point) => point >= 0 && point <= text.length).sort((a, b) => a - b);
  const result: Segment[] = [];
  for (let index = 0; index + 1 < points.length; index += 1) {
    const start = points[index] as number;
    const end = points[index + 1] as number;
    if (start === end) continue;
    const cited = spans.some((span) => span.start <= start && end <= span.end);
    result.push({ start, end, text: text.slice(start, end), cited });
  }
  return result;
}

/** Whether a segment lies inside a span (the segments a reason link lights up). */
export function within(segment: { start: number; end: number }, span: { start: number; end: number }): boolean {
  return span.start <= segment.start && segment.end <= span.end;
}
