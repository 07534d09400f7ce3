// Shared pieces of the reducer: how a refusal surfaces (§7.2: `semantic-transition-rejected`
// carrying the reducer code), frame lookup and actionability (§3.1), and cause matching.
import type { EventRef } from "../../ledger/envelope";
import { stop } from "../../ledger/faults";
import type { LiveFrame } from "./liveFrame";
import type { LiveScope } from "./liveScope";

/** Reducer codes the reference reports inside `semantic-transition-rejected` messages. */
export type ReducerCode =
  | "invalid-input"
  | "unknown-frame"
  | "frame-concluded"
  | "stale-frame"
  | "duplicate-identity"
  | "parent-dependency-invalid"
  | "contribution-not-admissible"
  | "blocker-not-found"
  | "obligation-not-actionable"
  | "discharge-not-supported"
  | "conclusion-not-ready"
  | "scope-close-blocked"
  | "authorization-blocked"
  | "authorization-stale"
  | "landing-blocked"
  | "landing-stale"
  | "debt-causality-mismatch"
  | "verification-route-mismatch"
  | "routing-not-current"
  | "replacement-not-ready"
  | "assignment-not-ready"
  | "invocation-already-active"
  | "invocation-not-active"
  | "settlement-mismatch";

export function reject(code: ReducerCode, message: string): never {
  return stop("semantic-transition-rejected", `${code}: ${message}`);
}

/** Runs a value check and reports any value error as the reducer's `invalid-input`. */
export function asInput<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    return reject("invalid-input", error instanceof Error ? error.message : "invalid runtime input");
  }
}

export function sameRef(left: EventRef, right: EventRef): boolean {
  return left.workScopeId === right.workScopeId && left.eventId === right.eventId && left.eventSha256 === right.eventSha256;
}

export function cites(causes: readonly EventRef[], ref: EventRef): boolean {
  return causes.some((cause) => sameRef(cause, ref));
}

export function requiredFrame(scope: LiveScope, frameId: string): LiveFrame {
  const frame = scope.frame(frameId);
  if (frame === undefined) return reject("unknown-frame", `Unknown frame: ${frameId}`);
  return frame;
}

/** "Open frame" = exists and has no conclusion. */
export function openFrame(scope: LiveScope, frameId: string): LiveFrame {
  const frame = requiredFrame(scope, frameId);
  if (frame.conclusion !== null) reject("frame-concluded", `Frame is already concluded: ${frameId}`);
  return frame;
}

/** Obligations of an open frame that no blocker targets and no discharge settled. */
export function actionableObligationIds(frame: LiveFrame): readonly string[] {
  if (frame.conclusion !== null) return [];
  return frame.obligations.map((entry) => entry.obligationId).filter((id) => !frame.isBlocked(id) && !frame.isDischarged(id));
}

export function subsetOf(values: readonly string[], allowed: readonly string[]): boolean {
  const set = new Set(allowed);
  return values.every((value) => set.has(value));
}

export function sameIds(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((value, index) => value === right[index]);
}

/** The reference's canonical id list rule: 0/1..100 ids, strictly ascending by code unit. */
export function canonicalIds(values: readonly string[], name: string, nonEmpty: boolean): readonly string[] {
  if ((nonEmpty && values.length === 0) || values.length > 100) reject("invalid-input", `${name} has an invalid length`);
  for (let index = 1; index < values.length; index += 1) {
    if ((values[index - 1] ?? "") >= (values[index] ?? "")) reject("invalid-input", `${name} must be unique and in canonical order`);
  }
  return values;
}
