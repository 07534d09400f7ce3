// What the replayed history means for writers and views (§7.3, §8.4, §9.1, §9.5): whether it is
// blocked, which scope is active, the human phase, and the next legal operation.
import type { Replayer, ScopeListing } from "../ledger/replay";
import type { ScopeState } from "./scopeState";
import { legalOperations, type RuntimeFacts } from "./toolPolicy";

export type HistoryMode = "empty" | "v8-active" | "v8-closed" | "blocked";
export type Phase = "off" | "deciding" | "ready-to-edit" | "editing" | "rerouting" | "verifying" | "done" | "blocked";
export type RuntimeState = "blocked" | "authorized" | "frame" | "idle" | "inactive";

export interface HistoryView {
  readonly mode: HistoryMode;
  readonly blockedReason: string | null;
  readonly activeScope: ScopeState | null;
  readonly scopes: readonly ScopeState[];
  /**
   * Every scope without its records, when the source can list them without building closed
   * scopes' states (a replayer rebuilds those from their lines); status lists read this instead.
   */
  readonly scopeListings?: readonly ScopeListing[];
}

/**
 * The history as writers and views see it. Deciding the mode needs only the open scopes; the full
 * list of scopes (closed ones included) is built when a reader asks for it, so a write that checks
 * the history costs the same however many scopes the ledger holds.
 */
export function describeHistory(replayer: Replayer): HistoryView {
  let scopes: readonly ScopeState[] | null = null;
  const view = (mode: HistoryMode, blockedReason: string | null, activeScope: ScopeState | null): HistoryView => ({
    mode,
    blockedReason,
    activeScope,
    get scopes(): readonly ScopeState[] {
      scopes ??= replayer.scopes();
      return scopes;
    },
    get scopeListings(): readonly ScopeListing[] {
      return replayer.scopeListings();
    },
  });
  const rejected = replayer.firstRejected;
  if (rejected !== null) return view("blocked", `replay rejected entry ${rejected.index}: ${rejected.code}: ${rejected.message}`, null);
  const open = replayer.openScopes();
  if (open.length > 1) return view("blocked", "multiple open work scopes", null);
  if (open.length === 1) return view("v8-active", null, open[0] ?? null);
  return view(replayer.scopeCount === 0 ? "empty" : "v8-closed", null, null);
}

export function runtimeState(history: HistoryView): RuntimeState {
  const facts = runtimeFacts(history);
  if (facts.blocked) return "blocked";
  if (!facts.scopeActive) return "inactive";
  if (facts.authorizationActive) return "authorized";
  if (facts.openFrame) return "frame";
  return "idle";
}

/** The replay-current facts the tool policy and the result summary are computed from. */
export function runtimeFacts(history: HistoryView): RuntimeFacts {
  const scope = history.activeScope;
  return {
    blocked: history.mode === "blocked",
    scopeActive: scope !== null,
    authorizationActive: scope?.root.activeAuthorization != null,
    openFrame: scope?.frames.some((entry) => entry.conclusion === null) ?? false,
    concludedFrameExists: scope?.frames.some((entry) => entry.conclusion !== null) ?? false,
    reroutePending: scope?.root.debts.some((debt) => debt.reroutePending) ?? false,
    verificationPending: scope?.root.debts.some((debt) => debt.verificationPending) ?? false,
  };
}

export function phaseOf(history: HistoryView): Phase {
  if (history.mode === "blocked") return "blocked";
  const scope = history.activeScope;
  if (scope === null) return "off";
  if (scope.root.activeAuthorization !== null) return "editing";
  // The adapter keeps at most one open frame; a replayed log with child frames may hold more,
  // and then the first one opened names the phase.
  const open = scope.frames.find((entry) => entry.conclusion === null);
  if (open !== undefined) {
    const frameId = open.frame.frameId;
    const debt = scope.root.debts.find((entry) => entry.rerouteFrameId === frameId || entry.verificationFrameId === frameId);
    if (debt?.verificationFrameId === frameId) return "verifying";
    if (debt?.rerouteFrameId === frameId) return "rerouting";
    return "deciding";
  }
  if (scope.root.debts.some((debt) => debt.reroutePending)) return "rerouting";
  if (scope.root.debts.some((debt) => debt.verificationPending)) return "verifying";
  if (scope.root.landings.length > 0) return "done";
  if (scope.frames.some((entry) => entry.conclusion !== null)) return "ready-to-edit";
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
  const facts = runtimeFacts(history);
  return {
    protocol: "developer/v8-result",
    workScopeId,
    eventIds,
    runtime: { state: runtimeState(history), reroutePending: facts.reroutePending, verificationPending: facts.verificationPending },
    nextAction: legalOperations(facts)[0] ?? null,
  };
}
