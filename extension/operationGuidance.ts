// What the palette operations say to a person who has never read developer/v8: why an operation
// cannot run now (before any prompt is shown), what each route is for in plain words, which route
// the current purpose calls for, and what comes next. The backend decides legality; this module
// only words the state the backend reported.
import * as vscode from "vscode";
import type { Phase, ProtocolOperationName, WorkState, WriteResult } from "../server/protocol/messages";
import { ROUTE_CATALOGUE } from "../server/developer/routes";

/** The backend's verification route: a verification judgment is opened on it and nothing else. */
export const VERIFICATION_ROUTE_ID = "route:claim-evidence-assessment";
/** The route a reroute judgment usually takes: whether more change belongs now, later or never. */
const REROUTE_ROUTE_ID = "route:change-timing";

/** One plain sentence per catalogued route (the catalogue's own sense stays as the detail). */
function routeDescription(routeDefinitionId: string): string {
  switch (routeDefinitionId) {
    case "route:meaning-settlement":
      return vscode.l10n.t("Decide what the product should mean or do before building it.");
    case "route:condition-settlement":
      return vscode.l10n.t("Pin down the rules, states and edge cases that must hold.");
    case "route:implementation-shaping":
      return vscode.l10n.t("Decide how to build something already agreed: data, interfaces, steps.");
    case "route:structural-pressure-observation":
      return vscode.l10n.t("Check whether the code's structure really needs a change.");
    case "route:name-sense-judgment":
      return vscode.l10n.t("Judge whether a name in the code says what it means.");
    case "route:candidate-reliability":
      return vscode.l10n.t("Decide whether to keep, revise or reject a concrete helper, API or rule.");
    case "route:change-timing":
      return vscode.l10n.t("Decide whether a change belongs now, later or never.");
    case VERIFICATION_ROUTE_ID:
      return vscode.l10n.t("Decide what the code, tests and observations really show.");
    default:
      return "";
  }
}

export interface RouteItem extends vscode.QuickPickItem {
  readonly routeDefinitionId: string;
}

/**
 * The route choices in catalogue order, with the route the purpose calls for first and marked
 * as recommended (a reroute asks whether more change belongs now; work has no single answer).
 */
export function routeItems(purpose: WorkState["purpose"]): RouteItem[] {
  const recommended = purpose === "reroute-decision" ? REROUTE_ROUTE_ID : null;
  const items = ROUTE_CATALOGUE.map((route) => ({
    label: route.routeDefinitionId === recommended ? `$(star-full) ${route.sign}` : route.sign,
    description: route.routeDefinitionId === recommended ? vscode.l10n.t("Recommended for a reroute judgment") : routeDescription(route.routeDefinitionId),
    detail: route.routeDefinitionId === recommended ? routeDescription(route.routeDefinitionId) : route.sense,
    routeDefinitionId: route.routeDefinitionId,
  }));
  if (recommended === null) return items;
  return [...items.filter((item) => item.routeDefinitionId === recommended), ...items.filter((item) => item.routeDefinitionId !== recommended)];
}

function operationName(operation: ProtocolOperationName): string {
  switch (operation) {
    case "open_judgment":
      return vscode.l10n.t("Open Judgment");
    case "open_context_sources":
      return vscode.l10n.t("Open Context Sources");
    case "conclude_judgment":
      return vscode.l10n.t("Conclude Judgment");
    case "authorize_change":
      return vscode.l10n.t("Authorize Change");
    case "record_landing":
      return vscode.l10n.t("Record Landing");
  }
}

function openFrameExists(state: WorkState): boolean {
  return state.frames.some((frame) => frame.status === "open");
}

function debtPending(state: WorkState): boolean {
  return state.purpose === "reroute-decision" || state.purpose === "verification-decision";
}

/** Why `operation` is not possible in `state`, in one sentence (the backend already said it is not). */
function reason(operation: ProtocolOperationName, state: WorkState): string {
  if (state.phase === "off") return vscode.l10n.t("Docket is off in this workspace.");
  if (state.phase === "blocked") return vscode.l10n.t("The ledger is blocked, so nothing can be recorded.");
  const authorized = state.authorization !== null;
  switch (operation) {
    case "record_landing":
      return vscode.l10n.t("No change is authorized, so there is no landing to record.");
    case "authorize_change":
      if (authorized) return vscode.l10n.t("A change is already authorized; its landing comes first.");
      if (openFrameExists(state)) return vscode.l10n.t("The open judgment must be concluded before a change can be authorized.");
      if (debtPending(state)) return vscode.l10n.t("The last landing still needs its reroute and verification judgments.");
      return vscode.l10n.t("No judgment is concluded yet; a change is authorized under a concluded judgment.");
    case "open_judgment":
      if (authorized) return vscode.l10n.t("A change is authorized; record its landing before opening another judgment.");
      return vscode.l10n.t("A judgment is already open; conclude it first.");
    case "conclude_judgment":
    case "open_context_sources":
      return authorized ? vscode.l10n.t("A change is authorized; no judgment is open.") : vscode.l10n.t("No judgment is open.");
  }
}

/** The sentence naming what can be done instead. */
function instead(state: WorkState): string {
  if (state.phase === "off") return vscode.l10n.t("Turn Docket on first (Docket: Turn On).");
  const next = state.nextAction;
  if (next === null) return vscode.l10n.t("No operation is possible now.");
  return vscode.l10n.t("What you can do now: {0} (Docket: Next Step…).", operationName(next));
}

/** The whole refusal a command shows before asking anything. */
export function notLegalMessage(operation: ProtocolOperationName, state: WorkState): string {
  return vscode.l10n.t("{0} is not possible now: {1} {2}", operationName(operation), reason(operation, state), instead(state));
}

/** "Next: …" after a write, in words; `phase` is the workspace's phase after it. */
export function nextSentence(result: WriteResult, phase: Phase): string {
  switch (result.nextAction) {
    case "open_judgment":
      return result.runtime.reroutePending
        ? vscode.l10n.t("Next: open the reroute judgment.")
        : result.runtime.verificationPending
          ? vscode.l10n.t("Next: open the verification judgment.")
          : vscode.l10n.t("Next: open a judgment.");
    case "open_context_sources":
    case "conclude_judgment":
      return vscode.l10n.t("Next: conclude the judgment.");
    case "authorize_change":
      // After verification the cycle is complete; another change under the same judgment is possible, not due.
      return phase === "done"
        ? vscode.l10n.t("The cycle is complete: the landing is verified. You may authorize another change, open a new judgment, or turn Docket off.")
        : vscode.l10n.t("Next: authorize the change, or open another judgment.");
    case "record_landing":
      return vscode.l10n.t("Next: edit the files, then record the landing.");
    default:
      return vscode.l10n.t("Nothing else is due.");
  }
}

/** "1 obligation" / "3 obligations" through the locale's plural rules. */
export function obligationsOpened(count: number): string {
  return new Intl.PluralRules(vscode.env.language).select(count) === "one"
    ? vscode.l10n.t("Judgment opened with {0} obligation.", count)
    : vscode.l10n.t("Judgment opened with {0} obligations.", count);
}
