// A closed scope can never change again, and an event aimed at it is rejected by the head checks
// alone (sequence, chain, then "closed"). So replay keeps of it only the head and the summary the
// status lists read; its records (frames, supports, landings…) are rebuilt from its events' lines
// when a reader reads one of them. The object still is a ScopeState with the same keys in the same
// order (JSON, spread and deep equality see the same value): the records are enumerable getters.
import type { ScopeState } from "../developer/scopeState";

/** Rebuilds the full final state of closed scope `scopeOrdinal` (cached by the source). */
export interface ClosedScopeSource {
  closedScopeState(scopeOrdinal: number): ScopeState;
}

const LINK = Symbol("closedScope");

interface Link {
  readonly source: ClosedScopeSource;
  readonly scopeOrdinal: number;
}

type Linked = { readonly [LINK]: Link };

function full(target: Linked): ScopeState {
  const link = target[LINK];
  return link.source.closedScopeState(link.scopeOrdinal);
}

// One getter per record list, shared by every closed scope (each object holds only its link).
const scopeGetters = {
  frames(this: Linked) {
    return full(this).frames;
  },
  supports(this: Linked) {
    return full(this).supports;
  },
  snapshots(this: Linked) {
    return full(this).snapshots;
  },
  bases(this: Linked) {
    return full(this).bases;
  },
  assignments(this: Linked) {
    return full(this).assignments;
  },
  settlements(this: Linked) {
    return full(this).settlements;
  },
};

const rootGetters = {
  authorizations(this: Linked) {
    return full(this).root.authorizations;
  },
  landings(this: Linked) {
    return full(this).root.landings;
  },
  debts(this: Linked) {
    return full(this).root.debts;
  },
};

function link(target: object, value: Link): void {
  Object.defineProperty(target, LINK, { value, enumerable: false });
}

function lazy(target: object, key: string, get: () => unknown): void {
  Object.defineProperty(target, key, { get, enumerable: true, configurable: false });
}

/** The kept form of a closed scope's final state `final` (whose records are then let go). */
export function closedScopeState(final: ScopeState, source: ClosedScopeSource, scopeOrdinal: number): ScopeState {
  const value: Link = { source, scopeOrdinal };
  const root = { status: final.root.status, closure: final.root.closure, activeAuthorization: final.root.activeAuthorization };
  link(root, value);
  lazy(root, "authorizations", rootGetters.authorizations);
  lazy(root, "landings", rootGetters.landings);
  lazy(root, "debts", rootGetters.debts);
  // Keys in LiveScope.snapshot()'s order.
  const state = { workScopeId: final.workScopeId, head: final.head, root };
  link(state, value);
  lazy(state, "frames", scopeGetters.frames);
  lazy(state, "supports", scopeGetters.supports);
  lazy(state, "snapshots", scopeGetters.snapshots);
  lazy(state, "bases", scopeGetters.bases);
  lazy(state, "assignments", scopeGetters.assignments);
  lazy(state, "settlements", scopeGetters.settlements);
  Object.defineProperty(state, "activeInvocation", { value: final.activeInvocation, enumerable: true, writable: false });
  Object.defineProperty(state, "openedAt", { value: final.openedAt, enumerable: true, writable: false });
  Object.defineProperty(state, "openedEventSha256", { value: final.openedEventSha256, enumerable: true, writable: false });
  Object.defineProperty(state, "closedAt", { value: final.closedAt, enumerable: true, writable: false });
  return state as unknown as ScopeState;
}
