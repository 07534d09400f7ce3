// What the replayed history means for writers and views (§7.3, §8.4, §9.1, §9.5): whether it is
// blocked, which scope is active, the human phase, and the next legal operation.
import type { Replayer } from "../ledger/replay";
import type { ScopeState } from "./scopeState";

export type HistoryMode = "empty" | "v8-active" | "v8-closed" | "blocked";
export type Phase = "off" | "deciding" | "ready-to-edit" | "editing" | "rerouting" | "verifying" | "done" | "blocked";
export type RuntimeState = "blocked" | "authorized" | "frame" | "idle" | "inactive";

export interface HistoryView {
  readonly mode: HistoryMode;
  readonly blockedReason: string | null;
  readonly activeScope: ScopeState | null;
  readonly scopes: readonly ScopeState[];
}

export function describeHistory(replayer: Replayer): HistoryView {
  const scopes = replayer.scopes();
  const rejected = replayer.firstRejected;
  if (rejected !== null) {
    return {
      mode: "blocked",
      blockedReason: `replay rejected entry ${rejected.index}: ${rejected.code}: ${rejected.message}`,
      activeScope: null,
      scopes,
    };
  }
  const open = scopes.filter((scope) => scope.root.status === "open");
  if (open.length > 1) {
    return { mode: "blocked", blockedReason: "multiple open work scopes", activeScope: null, scopes };
  }
  if (open.length === 1) return { mode: "v8-active", blockedReason: null, activeScope: open[0] ?? null, scopes };
  return { mode: scopes.length === 0 ? "empty" : "v8-closed", blockedReason: null, activeScope: null, scopes };
}

export function runtimeState(history: HistoryView): RuntimeState {
  if (history.mode === "blocked") return "blocked";
  const scope = history.activeScope;
  if (scope === null) return "inactive";
  if (scope.root.activeAuthorization !== null) return "authorized";
  return "idle";
}

/** Legal protocol operations in order; the first is the result summary's `nextAction`. */
export function legalOperations(history: HistoryView): string[] {
  const state = runtimeState(history);
  if (state === "blocked" || state === "inactive") return [];
  if (state === "authorized") return ["record_landing"];
  return ["open_judgment"];
}

export function phaseOf(history: HistoryView): Phase {
  if (history.mode === "blocked") return "blocked";
  const scope = history.activeScope;
  if (scope === null) return "off";
  if (scope.root.activeAuthorization !== null) return "editing";
  return "deciding";
}

export interface ResultSummary {
  readonly protocol: "developer/v8-result";
  readonly workScopeId: string | null;
  readonly eventIds: string[];
  readonly runtime: { readonly state: RuntimeState; readonly reroutePending: boolean; readonly verificationPending: boolean };
  readonly nextAction: string | null;
}

export function resultSummary(history: HistoryView, workScopeId: string | null, eventIds: string[]): ResultSummary {
  return {
    protocol: "developer/v8-result",
    workScopeId,
    eventIds,
    runtime: { state: runtimeState(history), reroutePending: false, verificationPending: false },
    nextAction: legalOperations(history)[0] ?? null,
  };
}
