// Read-only receipts (developer/v8 §8.1–§8.2): one receipt per accepted event, an order-sensitive
// root over them, a projection hash, and pages of at most 100 behind cursors bound to the
// projection they were issued for. Receipt bodies carry ids and hashes only, never free text.
import { compareCodeUnits, hashValue } from "../ledger/canonicalJson";
import { eventRefOf, type EventRef } from "../ledger/envelope";
import type { AcceptedEvent } from "../ledger/replay";
import { conclusionSha256 } from "./values/conclusions";
import type { InvocationSettlement } from "./values/skills";

export const MAX_RECEIPT_PAGE_SIZE = 100;

export interface Receipt {
  readonly kind: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly eventRef: EventRef;
  readonly storedIndex: number;
  readonly scopeSequence: number;
  readonly occurredAt: string;
  readonly receiptSha256: string;
}

/** The closed set of settlement outcome labels a receipt may show (no reasons or messages). */
function invocationOutcome(settlement: InvocationSettlement): string {
  if (settlement.kind === "returned") return `returned-${settlement.value.kind}`;
  if (settlement.kind === "capability-failed") return `capability-${settlement.failure.kind}`;
  return `lifecycle-${settlement.lifecycle.kind}`;
}

function receiptBody(accepted: AcceptedEvent): Record<string, unknown> {
  const event = accepted.event;
  switch (event.kind) {
    case "work-scope-opened":
      return { kind: "work-scope-opened", workScopeId: accepted.envelope.workScopeId };
    case "work-scope-closed":
      return { kind: "work-scope-closed", workScopeId: accepted.envelope.workScopeId, reasonSha256: event.closure.reasonSha256 };
    case "change-authorized": {
      const authorization = event.authorization;
      return {
        kind: event.kind,
        authorizationId: authorization.authorizationId,
        frameId: authorization.frameId,
        frameRevision: authorization.frameRevision,
        conclusionSha256: authorization.conclusionSha256,
        authorizationSha256: authorization.authorizationSha256,
      };
    }
    case "implementation-landing-recorded": {
      const landing = event.landing;
      return {
        kind: event.kind,
        landingId: landing.landingId,
        authorizationId: landing.authorizationId,
        changedPathCount: landing.changedPaths.length,
        changedPathsSha256: landing.changedPathsSha256,
        verificationCount: landing.verification.length,
        verificationSha256: landing.verificationSha256,
        rerouteFrameId: landing.rerouteFrameId,
        verificationFrameId: landing.verificationFrameId,
        landingSha256: landing.landingSha256,
      };
    }
    case "route-frame-opened":
    case "route-frame-replaced":
      return {
        kind: event.kind,
        frameId: event.frame.frameId,
        frameRevision: event.frame.frameRevision,
        parentFrameId: event.frame.parentFrameId,
        routeDefinitionId: event.frame.routeDefinitionId,
        obligationCount: event.obligations.length,
        obligationSetSha256: event.frame.obligationSetSha256,
      };
    case "routing-snapshot-opened":
      return {
        kind: event.kind,
        snapshotId: event.manifest.snapshotId,
        frameId: event.basis.frameId,
        frameRevision: event.basis.frameRevision,
        candidateCount: event.manifest.candidateCount,
        pageCount: event.manifest.pageCount,
        orderedPagesRootSha256: event.manifest.orderedPageRootSha256,
        replacesSnapshotId: event.replacesSnapshotId,
      };
    case "routing-page-accounted":
      return {
        kind: event.kind,
        snapshotId: event.page.snapshotId,
        pageIndex: event.page.pageIndex,
        candidateCount: event.page.candidates.length,
        dispositionCount: event.dispositions.length,
        pageSha256: event.page.pageSha256,
      };
    case "routing-coverage-completed":
      return { kind: event.kind, snapshotId: event.snapshotId, coverageSha256: event.expectedCoverageSha256 };
    case "can-serve-basis-created":
      return {
        kind: event.kind,
        snapshotId: event.snapshotId,
        basisId: event.body.basisId,
        candidateId: event.body.candidateId,
        targetCount: event.body.targetObligationIds.length,
        basisSha256: event.expectedBasisSha256,
      };
    case "ready-assignment-recorded":
      return {
        kind: event.kind,
        assignmentId: event.assignment.assignmentId,
        basisId: event.basisId,
        skillCapabilityId: event.assignment.skillCapabilityId,
        parentFrameId: event.assignment.parentFrameId,
        targetCount: event.assignment.targetObligationIds.length,
        assignmentRevisionSha256: event.assignment.assignmentRevisionSha256,
      };
    case "skill-invocation-started":
      return { kind: event.kind, invocationId: event.invocationId, assignmentId: event.assignmentId };
    case "invocation-settled":
      return {
        kind: event.kind,
        invocationId: event.settlement.invocationId,
        assignmentId: event.settlement.assignmentId,
        outcome: invocationOutcome(event.settlement),
      };
    case "support-observed":
      return {
        kind: event.kind,
        supportId: event.support.supportId,
        sourceKind: event.support.sourceKind,
        sourceId: event.support.sourceId,
        sourceRevisionSha256: event.support.sourceRevisionSha256,
        supportSha256: event.support.supportSha256,
      };
    case "frame-contribution-admitted":
      // Claim, applicability and limitations stay out of the receipt: ids, counts and hashes only.
      return {
        kind: event.kind,
        contributionId: event.contributionId,
        frameId: event.proposal.frameId,
        frameRevision: event.proposal.frameRevision,
        sourceKind: event.proposal.source.kind,
        sourceId: event.proposal.source.sourceId,
        sourceRevisionSha256: event.proposal.source.sourceRevisionSha256,
        targetCount: event.proposal.targetUses.length,
        proposalSha256: event.expectedProposalSha256,
        admissionBasisSha256: event.admissionBasisSha256,
      };
    case "frame-blocker-resolved":
      return {
        kind: event.kind,
        frameId: event.frameId,
        blockerId: event.blockerId,
        resolutionBasisSha256: event.resolutionBasisSha256,
      };
    case "obligation-discharged":
      return {
        kind: event.kind,
        dischargeId: event.discharge.dischargeId,
        frameId: event.discharge.frameId,
        frameRevision: event.discharge.expectedFrameRevision,
        obligationId: event.discharge.obligationId,
        contributionCount: event.discharge.contributionIds.length,
      };
    case "route-frame-concluded":
      return {
        kind: event.kind,
        frameId: event.proposal.frameId,
        frameRevision: event.proposal.expectedFrameRevision,
        dischargeCount: event.proposal.dischargeIds.length,
        blockerSetSha256: event.proposal.expectedBlockerSetSha256,
        conclusionSha256: conclusionSha256(event.proposal),
      };
  }
}

export function createReceipt(accepted: AcceptedEvent): Receipt {
  const body = receiptBody(accepted);
  const fields = {
    ...body,
    eventRef: eventRefOf(accepted.envelope),
    storedIndex: accepted.storedIndex,
    scopeSequence: accepted.envelope.scopeSequence,
  };
  return {
    kind: accepted.envelope.kind,
    body,
    eventRef: fields.eventRef,
    storedIndex: accepted.storedIndex,
    scopeSequence: accepted.envelope.scopeSequence,
    occurredAt: accepted.envelope.occurredAt,
    receiptSha256: hashValue({ domain: "developer/v8/receipt", fields }),
  };
}

export const EMPTY_RECEIPT_ROOT = hashValue({ domain: "developer/v8/receipt-root-empty" });

export class ReceiptCursorError extends Error {
  constructor(
    readonly code: "stale-cursor" | "invalid-cursor" | "receipt-not-found",
    message: string,
  ) {
    super(message);
    this.name = "ReceiptCursorError";
  }
}

export interface ReceiptPageEntry {
  readonly ordinal: number;
  readonly receipt: Receipt;
  readonly refSha256: string;
}

export interface ReceiptKindCount {
  readonly kind: string;
  readonly count: number;
}

export interface ReceiptPage {
  readonly projectionSha256: string;
  readonly receiptCount: number;
  /** The kind filter the page was read with (sorted, unique), or null for every receipt. */
  readonly kinds: readonly string[] | null;
  /** Receipts that pass the filter (equals `receiptCount` without one). */
  readonly matchingCount: number;
  /** Position of the first entry among the matching receipts. */
  readonly startPosition: number;
  readonly startOrdinal: number;
  /** A cursor that reads this same page again (same projection and filter); null when it is empty. */
  readonly pageCursor: string | null;
  readonly entries: readonly ReceiptPageEntry[];
  readonly nextCursor: string | null;
  readonly previousCursor: string | null;
  readonly pageSha256: string;
  /** Receipts per kind over the whole projection, kinds in code-unit order. */
  readonly kindCounts: readonly ReceiptKindCount[];
}

export interface ReceiptPageOptions {
  /** Only receipts of these kinds; null/undefined for all. Must be event kinds (checked at the boundary). */
  readonly kinds?: readonly string[] | null;
  /** Instead of a cursor: the page (aligned to the page size) holding the receipt of this event. */
  readonly containing?: string | null;
}

/** The matching receipts of one filter, as positions ↔ ordinals. */
export interface FilterView {
  readonly length: number;
  ordinalAt(position: number): number;
  positionOf(ordinal: number): number | undefined;
}

/**
 * Thrown by a source holding only part of a projection when a page needs a receipt it does not
 * hold (or cannot prove); the reader then waits for the whole projection.
 */
export class ReceiptsNotAtHand extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReceiptsNotAtHand";
  }
}

/**
 * What a page is read from: a whole projection, or only its newest receipts where a persisted
 * receipt head vouches for the rest (server/workspace/receiptWindow.ts), which throws
 * ReceiptsNotAtHand for anything else. Both answer through readReceiptPage, so a page is
 * computed one way whatever holds the receipts.
 */
export interface PageableReceipts {
  readonly count: number;
  readonly projectionSha256: string;
  receipt(ordinal: number): Receipt | undefined;
  ordinalOf(eventSha256: string): number | undefined;
  /** Receipts per kind over the whole projection, kinds in code-unit order. */
  kindCounts(): ReceiptKindCount[];
  filterView(kinds: readonly string[] | null): FilterView;
}

/** The projection hash (developer/v8 §8.2) from its root, count and end refs. */
export function projectionSha256Of(fields: {
  readonly orderedReceiptRootSha256: string;
  readonly receiptCount: number;
  readonly firstEventRef: EventRef | null;
  readonly lastEventRef: EventRef | null;
}): string {
  return hashValue({
    domain: "developer/v8/receipt-projection",
    fields: {
      orderedReceiptRootSha256: fields.orderedReceiptRootSha256,
      receiptCount: fields.receiptCount,
      firstEventRef: fields.firstEventRef,
      lastEventRef: fields.lastEventRef,
    },
  });
}

/** The unfiltered view: positions are ordinals. */
export function allReceiptsView(count: number): FilterView {
  return { length: count, ordinalAt: (position) => position, positionOf: (ordinal) => (Number.isInteger(ordinal) && ordinal >= 0 && ordinal < count ? ordinal : undefined) };
}

/** Sorted, de-duplicated kinds; null means "no filter". */
export function normalizeKinds(kinds: readonly string[] | null | undefined): readonly string[] | null {
  if (kinds === null || kinds === undefined) return null;
  return [...new Set(kinds)].sort(compareCodeUnits);
}

/**
 * Where a projection finds accepted events by ordinal: a replayer (which may read them again from
 * the ledger file instead of keeping them) or a plain list.
 */
export interface AcceptedEvents {
  readonly acceptedCount: number;
  acceptedEvent(ordinal: number): AcceptedEvent | undefined;
}

function eventsOf(accepted: readonly AcceptedEvent[] | AcceptedEvents): AcceptedEvents {
  if (!Array.isArray(accepted)) return accepted as AcceptedEvents;
  const list = accepted as readonly AcceptedEvent[];
  return { acceptedCount: list.length, acceptedEvent: (ordinal) => list[ordinal] };
}

/** Position of `ordinal` in an ascending list, or undefined when it is not there. */
function positionIn(ordinals: Uint32Array, ordinal: number): number | undefined {
  let low = 0;
  let high = ordinals.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = ordinals[middle] as number;
    if (found === ordinal) return middle;
    if (found < ordinal) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

const INITIAL_KIND_CODES = 1_024;

/** An append-only receipt projection that follows the accepted events of a replay. */
export class ReceiptProjection implements PageableReceipts {
  private readonly receipts: Receipt[] = [];
  /** The events behind the receipts: not kept here, asked for when a detail needs one. */
  private source: AcceptedEvents = { acceptedCount: 0, acceptedEvent: () => undefined };
  private readonly ordinalByEventSha256 = new Map<string, number>();
  // Each receipt's kind as a byte (there are 18 kinds), so a kind filter over a million receipts
  // is one pass over a typed array instead of merging and sorting lists of ordinals.
  private kindCodes = new Uint8Array(INITIAL_KIND_CODES);
  private readonly kindNames: string[] = [];
  private readonly kindCodeByName = new Map<string, number>();
  private readonly kindTotals: number[] = [];
  /** The last kind filter's matching ordinals, while no receipt was added since. */
  private filtered: { readonly key: string; readonly count: number; readonly ordinals: Uint32Array } | null = null;
  private root = EMPTY_RECEIPT_ROOT;
  private cachedProjectionSha256: string | null = null;

  get count(): number {
    return this.receipts.length;
  }

  get orderedReceiptRootSha256(): string {
    return this.root;
  }

  /** Adds receipts for accepted events not yet projected (in accepted order). */
  follow(accepted: readonly AcceptedEvent[] | AcceptedEvents): void {
    const source = eventsOf(accepted);
    this.source = source;
    for (let ordinal = this.receipts.length; ordinal < source.acceptedCount; ordinal += 1) this.project(source.acceptedEvent(ordinal) as AcceptedEvent, ordinal);
  }

  /**
   * Projects one event as replay accepts it, while the event is still in memory, so `follow`
   * afterwards has nothing to read again; an event out of turn is left to `follow`.
   */
  take(event: AcceptedEvent, ordinal: number): void {
    if (ordinal === this.receipts.length) this.project(event, ordinal);
  }

  private project(event: AcceptedEvent, ordinal: number): void {
    const receipt = createReceipt(event);
    this.root = hashValue({
      domain: "developer/v8/receipt-root-link",
      previous: this.root,
      ordinal,
      eventRef: receipt.eventRef,
      receiptSha256: receipt.receiptSha256,
    });
    this.receipts.push(receipt);
    this.ordinalByEventSha256.set(receipt.eventRef.eventSha256, ordinal);
    let code = this.kindCodeByName.get(receipt.kind);
    if (code === undefined) {
      code = this.kindNames.length;
      // Receipts are only made for the event kinds replay accepts, far fewer than 256.
      if (code > 0xff) throw new Error("more receipt kinds than a byte can code");
      this.kindNames.push(receipt.kind);
      this.kindCodeByName.set(receipt.kind, code);
      this.kindTotals.push(0);
    }
    if (ordinal === this.kindCodes.length) {
      const grown = new Uint8Array(this.kindCodes.length * 2);
      grown.set(this.kindCodes);
      this.kindCodes = grown;
    }
    this.kindCodes[ordinal] = code;
    this.kindTotals[code] = (this.kindTotals[code] as number) + 1;
    this.cachedProjectionSha256 = null;
  }

  get projectionSha256(): string {
    if (this.cachedProjectionSha256 === null) {
      this.cachedProjectionSha256 = projectionSha256Of({
        orderedReceiptRootSha256: this.root,
        receiptCount: this.receipts.length,
        firstEventRef: this.receipts[0]?.eventRef ?? null,
        lastEventRef: this.receipts.at(-1)?.eventRef ?? null,
      });
    }
    return this.cachedProjectionSha256;
  }

  receipt(ordinal: number): Receipt | undefined {
    return this.receipts[ordinal];
  }

  /** The accepted event (stored envelope included) behind a receipt. */
  acceptedEvent(ordinal: number): AcceptedEvent | undefined {
    return ordinal < this.receipts.length ? this.source.acceptedEvent(ordinal) : undefined;
  }

  /** Ordinal of the receipt of the accepted event with this hash, if it is in the projection. */
  ordinalOf(eventSha256: string): number | undefined {
    return this.ordinalByEventSha256.get(eventSha256);
  }

  kindCounts(): ReceiptKindCount[] {
    return this.kindNames
      .map((kind, code) => ({ kind, count: this.kindTotals[code] as number }))
      .sort((left, right) => compareCodeUnits(left.kind, right.kind));
  }

  filterView(kinds: readonly string[] | null): FilterView {
    if (kinds === null) return allReceiptsView(this.receipts.length);
    const ordinals = this.matching(kinds);
    return { length: ordinals.length, ordinalAt: (position) => ordinals[position] as number, positionOf: (ordinal) => positionIn(ordinals, ordinal) };
  }

  private matching(kinds: readonly string[]): Uint32Array {
    const key = kinds.join("\n");
    const count = this.receipts.length;
    if (this.filtered !== null && this.filtered.key === key && this.filtered.count === count) return this.filtered.ordinals;
    const wanted = new Uint8Array(256);
    let length = 0;
    for (const kind of kinds) {
      const code = this.kindCodeByName.get(kind);
      if (code === undefined) continue;
      wanted[code] = 1;
      length += this.kindTotals[code] as number;
    }
    const ordinals = new Uint32Array(length);
    const codes = this.kindCodes;
    let next = 0;
    for (let ordinal = 0; ordinal < count && next < length; ordinal += 1) {
      if (wanted[codes[ordinal] as number] === 1) {
        ordinals[next] = ordinal;
        next += 1;
      }
    }
    this.filtered = { key, count, ordinals };
    return ordinals;
  }

  /** Reads one page. Cursors from another projection or filter are refused, never silently re-based. */
  page(cursor: string | null, pageSize: number, from: "start" | "end" = "start", options: ReceiptPageOptions = {}): ReceiptPage {
    return readReceiptPage(this, cursor, pageSize, from, options);
  }
}

// Unfiltered cursors hash exactly the reference fields; a filter joins the hashed fields, so a
// cursor only verifies under the filter it was issued for.
function cursorFields(projectionSha256: string, nextOrdinal: number, kinds: readonly string[] | null): Record<string, unknown> {
  return kinds === null ? { projectionSha256, nextOrdinal } : { projectionSha256, nextOrdinal, kinds };
}

function cursorFor(projectionSha256: string, ordinal: number, kinds: readonly string[] | null): string {
  const cursorSha256 = hashValue({ domain: "developer/v8/receipt-page-cursor", fields: cursorFields(projectionSha256, ordinal, kinds) });
  return `${projectionSha256}.${ordinal}.${cursorSha256.slice(0, 16)}`;
}

function startFromCursor(source: PageableReceipts, cursor: string, view: FilterView, kinds: readonly string[] | null): number {
  const match = /^([a-f0-9]{64})\.(0|[1-9][0-9]{0,8})\.([a-f0-9]{16})$/u.exec(cursor);
  if (match === null) throw new ReceiptCursorError("invalid-cursor", "receipt cursor is malformed");
  const [, projectionSha256, ordinalText, check] = match as unknown as [string, string, string, string];
  const ordinal = Number(ordinalText);
  const expected = hashValue({ domain: "developer/v8/receipt-page-cursor", fields: cursorFields(projectionSha256, ordinal, kinds) });
  if (expected.slice(0, 16) !== check) {
    throw new ReceiptCursorError("invalid-cursor", "receipt cursor was not issued by Docket for this kind filter");
  }
  if (projectionSha256 !== source.projectionSha256) {
    throw new ReceiptCursorError("stale-cursor", "receipt cursor belongs to another projection");
  }
  const position = view.positionOf(ordinal);
  if (position === undefined) throw new ReceiptCursorError("invalid-cursor", "receipt cursor ordinal is not pageable");
  return position;
}

function startContaining(source: PageableReceipts, eventSha256: string, view: FilterView, pageSize: number): number {
  const ordinal = source.ordinalOf(eventSha256);
  if (ordinal === undefined) throw new ReceiptCursorError("receipt-not-found", "no accepted event has this hash");
  const position = view.positionOf(ordinal);
  if (position === undefined) throw new ReceiptCursorError("receipt-not-found", "the receipt does not pass the kind filter");
  return Math.floor(position / pageSize) * pageSize;
}

/**
 * Reads one page of `source`. Only the page's own receipts are touched (and, with a kind filter,
 * the filter's matching ordinals), so a page costs the same anywhere in a history of any length.
 */
export function readReceiptPage(
  source: PageableReceipts,
  cursor: string | null,
  pageSize: number,
  from: "start" | "end" = "start",
  options: ReceiptPageOptions = {},
): ReceiptPage {
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_RECEIPT_PAGE_SIZE) {
    throw new RangeError(`receipt page size must be an integer from 1 to ${MAX_RECEIPT_PAGE_SIZE}`);
  }
  const kinds = normalizeKinds(options.kinds);
  const containing = options.containing ?? null;
  if (cursor !== null && containing !== null) throw new RangeError("a receipt page takes a cursor or a containing event, not both");
  const view = source.filterView(kinds);
  let start: number;
  if (containing !== null) start = startContaining(source, containing, view, pageSize);
  else if (cursor !== null) start = startFromCursor(source, cursor, view, kinds);
  // Pages partition the history from its first receipt: the end is the last such page (possibly
  // short), so Previous from it never repeats a receipt.
  else start = from === "end" && view.length > 0 ? Math.floor((view.length - 1) / pageSize) * pageSize : 0;
  const end = Math.min(start + pageSize, view.length);
  const projectionSha256 = source.projectionSha256;
  const entries: ReceiptPageEntry[] = [];
  for (let position = start; position < end; position += 1) {
    const ordinal = view.ordinalAt(position);
    const receipt = source.receipt(ordinal) as Receipt;
    const fields = { projectionSha256, ordinal, eventRef: receipt.eventRef, receiptSha256: receipt.receiptSha256 };
    entries.push({ ordinal, receipt, refSha256: hashValue({ domain: "developer/v8/receipt-projection-ref", fields }) });
  }
  const nextOrdinal = end < view.length ? view.ordinalAt(end) : null;
  const nextCursor = nextOrdinal === null ? null : cursorFor(projectionSha256, nextOrdinal, kinds);
  const previousCursor = start > 0 ? cursorFor(projectionSha256, view.ordinalAt(Math.max(0, start - pageSize)), kinds) : null;
  const nextCursorSha256 =
    nextOrdinal === null ? null : hashValue({ domain: "developer/v8/receipt-page-cursor", fields: cursorFields(projectionSha256, nextOrdinal, kinds) });
  const startOrdinal = entries[0]?.ordinal ?? (kinds === null ? start : 0);
  const pageFields = { projectionSha256, startOrdinal, entryRefSha256s: entries.map((entry) => entry.refSha256), nextCursorSha256 };
  return {
    projectionSha256,
    receiptCount: source.count,
    kinds,
    matchingCount: view.length,
    startPosition: start,
    startOrdinal,
    pageCursor: entries.length > 0 ? cursorFor(projectionSha256, startOrdinal, kinds) : null,
    entries,
    nextCursor,
    previousCursor,
    pageSha256: hashValue({ domain: "developer/v8/receipt-page", fields: kinds === null ? pageFields : { ...pageFields, kinds } }),
    kindCounts: source.kindCounts(),
  };
}
