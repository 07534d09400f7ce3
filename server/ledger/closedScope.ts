// A closed scope can never change again, and an event aimed at it is rejected by the head checks
// alone (sequence, chain, then "closed"). So replay keeps of it only a ClosedScope (where its
// events' ordinals are, its head sequence and its two times; ids and hashes come from the
// replayer's typed arrays); its records (frames, supports, landings, closure…) are rebuilt from its
// events' lines when a reader reads one of them. The ScopeState a reader gets has the same keys in
// the same order (JSON, spread and deep equality see the same value): records are enumerable getters.
import type { ScopeState } from "../developer/scopeState";

/** Rebuilds the full final state of closed scope `scopeOrdinal` (cached by the source). */
export interface ClosedScopeSource {
  closedScopeState(scopeOrdinal: number): ScopeState;
}

/** What replay keeps of a closed scope. */
export class ClosedScope {
  constructor(
    /** Where the scope's [count, ...ordinals] start in the replayer's pool. */
    readonly start: number,
    readonly headSequence: number,
    readonly openedAt: string,
    readonly closedAt: string | null,
  ) {}
}

/** The fields of a closed scope's state that are not records. */
export interface ClosedScopeFields {
  readonly workScopeId: string;
  readonly head: ScopeState["head"];
  readonly openedAt: string;
  readonly openedEventSha256: string;
  readonly closedAt: string | null;
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
  closure(this: Linked) {
    return full(this).root.closure;
  },
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

/**
 * A reader's view of a closed scope. A closed scope has no active authorization (closing clears
 * it) and no active invocation (closing requires that).
 */
export function closedScopeState(fields: ClosedScopeFields, source: ClosedScopeSource, scopeOrdinal: number): ScopeState {
  const value: Link = { source, scopeOrdinal };
  const root = { status: "closed" };
  link(root, value);
  lazy(root, "closure", rootGetters.closure);
  Object.defineProperty(root, "activeAuthorization", { value: null, enumerable: true, writable: false });
  lazy(root, "authorizations", rootGetters.authorizations);
  lazy(root, "landings", rootGetters.landings);
  lazy(root, "debts", rootGetters.debts);
  // Keys in LiveScope.snapshot()'s order.
  const state = { workScopeId: fields.workScopeId, head: fields.head, root };
  link(state, value);
  lazy(state, "frames", scopeGetters.frames);
  lazy(state, "supports", scopeGetters.supports);
  lazy(state, "snapshots", scopeGetters.snapshots);
  lazy(state, "bases", scopeGetters.bases);
  lazy(state, "assignments", scopeGetters.assignments);
  lazy(state, "settlements", scopeGetters.settlements);
  Object.defineProperty(state, "activeInvocation", { value: null, enumerable: true, writable: false });
  Object.defineProperty(state, "openedAt", { value: fields.openedAt, enumerable: true, writable: false });
  Object.defineProperty(state, "openedEventSha256", { value: fields.openedEventSha256, enumerable: true, writable: false });
  Object.defineProperty(state, "closedAt", { value: fields.closedAt, enumerable: true, writable: false });
  return state as unknown as ScopeState;
}
