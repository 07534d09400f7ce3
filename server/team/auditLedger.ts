// What the audit needs from a ledger, read in one streaming pass: the store reads the file a
// bounded chunk at a time and replay keeps O(1) per event (server/ledger/store.ts, replay.ts), and
// this reader keeps only the landings the range can be about — those naming a path the range
// changed or an id a commit claims — so memory follows the range, not the ledger. The scopes of
// those landings are rebuilt from their own events afterwards.
import { compareCodeUnits } from "../ledger/canonicalJson";
import { LedgerStore } from "../ledger/store";
import type { ScopeState } from "../developer/scopeState";
import { AuditError } from "./auditError";
import type { LedgerLanding, LedgerScope, ScopeGuardReview } from "./auditModel";

export interface LedgerInterest {
  /** Workspace-relative paths the range changed (the landing's own frame of reference). */
  readonly paths: ReadonlySet<string>;
  /** Landing ids named by the range's trailers and notes. */
  readonly landingIds: ReadonlySet<string>;
  /** Scope ids named by the range's trailers and notes. */
  readonly scopeIds: ReadonlySet<string>;
}

export interface AuditLedgerRead {
  readonly lines: number;
  /** Bytes of complete lines (what a committed version may at most hold). */
  readonly bytes: number;
  /** Whether replay accepted the developer/v8 event with this id and hash. */
  hasEvent(eventId: string, eventSha256: string): boolean;
  readonly headLineSha256: string | null;
  readonly landings: readonly LedgerLanding[];
  /** The report's view of these scopes (judgments, authorizations, landings, debts, guard reviews). */
  describeScopes(scopeIds: Iterable<string>): LedgerScope[];
  /** Of the scope ids the range named, those the ledger holds. */
  readonly knownScopeIds: ReadonlySet<string>;
}

const STORE_FAULT_CODES = {
  "ledger-foreign": "docket.ledger-foreign",
  "ledger-truncated": "docket.ledger-truncated",
  "ledger-rewritten": "docket.ledger-rewritten",
  "ledger-unsafe-path": "docket.unsafe-path",
} as const;

/** Reads the ledger for an audit; a ledger that is missing, foreign, damaged or blocked is refused with exit 3. */
export function readAuditLedger(ledgerPath: string, containmentRoot: string, interest: LedgerInterest): AuditLedgerRead {
  const found: (Omit<LedgerLanding, "line"> & { storedIndex: number })[] = [];
  const store = new LedgerStore(ledgerPath, {
    root: containmentRoot,
    onAccepted: (accepted) => {
      if (accepted.event.kind !== "implementation-landing-recorded") return;
      const landing = accepted.event.landing;
      if (!interest.landingIds.has(landing.landingId) && !landing.changedPaths.some((changed) => interest.paths.has(changed))) return;
      found.push({
        landingId: landing.landingId,
        eventSha256: accepted.envelope.eventSha256,
        workScopeId: accepted.envelope.workScopeId,
        authorizationId: landing.authorizationId,
        changedPaths: [...landing.changedPaths],
        storedIndex: accepted.storedIndex,
      });
    },
  });
  store.refresh();
  if (!store.exists) throw new AuditError("docket.ledger-missing", `no ledger at ${ledgerPath}`, 3);
  const fault = store.fault;
  if (fault !== null) {
    const code = (STORE_FAULT_CODES as Record<string, (typeof STORE_FAULT_CODES)[keyof typeof STORE_FAULT_CODES]>)[fault.code] ?? "docket.ledger-corrupt";
    throw new AuditError(code, `line ${fault.line + 1}: ${fault.code}: ${fault.message}; the audit does not read a ledger it does not understand (${ledgerPath})`, 3);
  }
  const rejected = store.replayer.firstRejected;
  if (rejected !== null) {
    throw new AuditError(
      "docket.history-blocked",
      `entry ${rejected.index} was rejected by replay (${rejected.code}: ${rejected.message}); a blocked history proves nothing about landings (${ledgerPath})`,
      3,
    );
  }
  const landings: LedgerLanding[] = found.map(({ storedIndex, ...landing }) => ({ ...landing, line: store.lineOfReplayIndex(storedIndex) ?? 0 }));
  const listed = interest.scopeIds.size === 0 ? new Set<string>() : new Set(store.replayer.scopeListings().map((listing) => listing.workScopeId));
  const knownScopeIds = new Set([...interest.scopeIds].filter((scopeId) => listed.has(scopeId)));
  return {
    lines: store.lineCount,
    bytes: store.offset,
    hasEvent: (eventId, eventSha256) => {
      const ordinal = store.replayer.ordinalOfEventId(eventId);
      return ordinal !== undefined && store.replayer.eventSha256Of(ordinal) === eventSha256;
    },
    headLineSha256: store.headLineSha256,
    landings,
    knownScopeIds,
    describeScopes: (scopeIds) => {
      // Rebuilding a closed scope replays its own events again: only the scopes the report shows.
      const wanted = new Set([...scopeIds].filter((scopeId) => store.replayer.scope(scopeId) !== undefined));
      const reviews = guardReviewsByScope(store, wanted);
      return [...wanted].sort(compareCodeUnits).map((scopeId) => describeScope(store, store.replayer.scope(scopeId) as ScopeState, reviews.get(scopeId) ?? []));
    },
  };
}

function guardReviewsByScope(store: LedgerStore, scopeIds: ReadonlySet<string>): Map<string, ScopeGuardReview[]> {
  const byReview = new Map<string, { scopeId: string; review: { reviewId: string; status: string; claims: number } }>();
  for (const { entry } of store.guardLines) {
    if (entry.kind === "review-opened") {
      if (scopeIds.has(entry.workScopeId)) byReview.set(entry.reviewId, { scopeId: entry.workScopeId, review: { reviewId: entry.reviewId, status: "open", claims: entry.claims.length } });
    } else {
      const opened = byReview.get(entry.reviewId);
      if (opened !== undefined) opened.review.status = entry.status;
    }
  }
  const result = new Map<string, ScopeGuardReview[]>();
  for (const { scopeId, review } of byReview.values()) {
    const list = result.get(scopeId) ?? [];
    list.push(review);
    result.set(scopeId, list);
  }
  return result;
}

function describeScope(store: LedgerStore, scope: ScopeState, guardReviews: readonly ScopeGuardReview[]): LedgerScope {
  const roleOf = (frameId: string): "work" | "reroute" | "verification" => {
    for (const debt of scope.root.debts) {
      if (debt.rerouteFrameId === frameId) return "reroute";
      if (debt.verificationFrameId === frameId) return "verification";
    }
    return "work";
  };
  const replayer = store.replayer;
  return {
    workScopeId: scope.workScopeId,
    status: scope.root.status,
    judgments: scope.frames.map((state) => ({
      frameId: state.frame.frameId,
      role: roleOf(state.frame.frameId),
      routeDefinitionId: state.frame.routeDefinitionId,
      question: state.frame.exactQuestion,
      conclusion: state.conclusion === null ? null : state.conclusion.proposal.conclusion,
    })),
    authorizations: scope.root.authorizations.flatMap((record) => {
      const ordinal = replayer.ordinalOfEventId(record.eventRef.eventId);
      const event = ordinal === undefined ? undefined : replayer.acceptedEvent(ordinal)?.event;
      if (event?.kind !== "change-authorized") return [];
      const authorization = event.authorization;
      return [
        {
          authorizationId: authorization.authorizationId,
          frameId: authorization.frameId,
          movement: authorization.movement,
          stableLanding: authorization.stableLanding,
          verificationTarget: authorization.verificationTarget,
        },
      ];
    }),
    landings: scope.root.landings.flatMap((landing) => {
      const debt = scope.root.debts.find((entry) => entry.landingId === landing.landingId);
      if (debt === undefined) return [];
      return [
        {
          landingId: landing.landingId,
          eventSha256: debt.landingEventRef.eventSha256,
          authorizationId: landing.authorizationId,
          changedPaths: [...landing.changedPaths],
          result: landing.result,
          verification: [...landing.verification],
          reroutePending: debt.reroutePending,
          verificationPending: debt.verificationPending,
        },
      ];
    }),
    guardReviews: [...guardReviews].sort((left, right) => compareCodeUnits(left.reviewId, right.reviewId)),
  };
}
