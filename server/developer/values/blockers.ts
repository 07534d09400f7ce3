// Blocker (§1.2): a frame-local reason why target obligations are not actionable. Blockers are
// reducer state, not wire payloads, but their hashes are: the conclusion proposal carries the
// blocker-set hash, and settlement-derived blockers need a deterministic id.
import type { JsonValue } from "../../ledger/canonicalJson";
import { exactKeys, idAt, objectAt, shaAt } from "../../ledger/values";
import { compareCodeUnits } from "../../ledger/canonicalJson";
import { objectListJson, textJson, textListJson, writtenHash } from "./canonicalText";
import { assertUnique, canonicalIdListAt, domainHash, expectHash, literalAt } from "./common";

export const BLOCKER_KINDS = ["child-frame", "dependency", "needs-context", "capability-failure"] as const;
export type BlockerKind = (typeof BLOCKER_KINDS)[number];

export const BLOCKER_DETAILS_DOMAIN = "developer/v8/runtime-blocker";
export const BLOCKER_SET_DOMAIN = "developer/v8/runtime-blocker-set";
export const SETTLEMENT_BLOCKER_ID_DOMAIN = "developer/v8/settlement-blocker-id";
/** H({domain: runtime-blocker-set, blockers: []}); a frame may conclude only against this value. */
export const EMPTY_BLOCKER_SET_SHA256 = "e636b878a29075de80ac22fca0f4330d0d4de1d3718cb7ab593389e653150ba6";

export interface Blocker {
  readonly blockerId: string;
  readonly frameId: string;
  readonly kind: BlockerKind;
  readonly sourceId: string;
  readonly targetObligationIds: readonly string[];
  readonly detailsSha256: string;
}

/** A blocker as its creator knows it: the details travel only as their hash. */
export interface BlockerBody extends Omit<Blocker, "detailsSha256"> {
  readonly details: JsonValue;
}

const BLOCKER_KEYS = ["blockerId", "frameId", "kind", "sourceId", "targetObligationIds", "detailsSha256"] as const;

export function blockerDetailsSha256(details: JsonValue): string {
  return domainHash(BLOCKER_DETAILS_DOMAIN, { details });
}

export function parseBlocker(value: unknown, path = "blocker"): Blocker {
  const data = objectAt(value, path);
  exactKeys(data, path, BLOCKER_KEYS);
  return Object.freeze({
    blockerId: idAt(data.blockerId, `${path}.blockerId`),
    frameId: idAt(data.frameId, `${path}.frameId`),
    kind: literalAt(data.kind, `${path}.kind`, BLOCKER_KINDS),
    sourceId: idAt(data.sourceId, `${path}.sourceId`),
    targetObligationIds: canonicalIdListAt(data.targetObligationIds, `${path}.targetObligationIds`, { nonEmpty: true }),
    detailsSha256: shaAt(data.detailsSha256, `${path}.detailsSha256`),
  });
}

export function createBlocker(body: BlockerBody): Blocker {
  return parseBlocker({
    blockerId: body.blockerId,
    frameId: body.frameId,
    kind: body.kind,
    sourceId: body.sourceId,
    targetObligationIds: body.targetObligationIds,
    detailsSha256: blockerDetailsSha256(body.details),
  });
}

/** Checks a stored blocker against the details it claims to summarize. */
export function verifyBlockerDetails(blocker: Blocker, details: JsonValue, path = "blocker"): void {
  expectHash(blocker.detailsSha256, `${path}.detailsSha256`, blockerDetailsSha256(details), "blocker details");
}

/**
 * H({domain, blockers sorted by blockerId}); input order does not matter. A frame never holds
 * two blockers with one id, so a repeated id is rejected rather than hashed.
 */
export function blockerSetSha256(blockers: readonly Blocker[], path = "blockers"): string {
  const ordered = blockers
    .map((entry) => ({
      blockerId: entry.blockerId,
      frameId: entry.frameId,
      kind: entry.kind,
      sourceId: entry.sourceId,
      targetObligationIds: [...entry.targetObligationIds],
      detailsSha256: entry.detailsSha256,
    }))
    .sort((left, right) => compareCodeUnits(left.blockerId, right.blockerId));
  assertUnique(ordered, path, (entry) => entry.blockerId);
  return writtenHash(ordered, blockerSetHashJson, blockerSetHashGeneral);
}

function blockerSetHashGeneral(ordered: readonly Blocker[]): string {
  return domainHash(BLOCKER_SET_DOMAIN, { blockers: ordered });
}

function blockerJson(blocker: Blocker): string {
  return (
    `{"blockerId":${textJson(blocker.blockerId)},"detailsSha256":${textJson(blocker.detailsSha256)},"frameId":${textJson(blocker.frameId)},` +
    `"kind":${textJson(blocker.kind)},"sourceId":${textJson(blocker.sourceId)},"targetObligationIds":${textListJson(blocker.targetObligationIds)}}`
  );
}

function blockerSetHashJson(ordered: readonly Blocker[]): string {
  return `{"blockers":${objectListJson(ordered, blockerJson)},"domain":${JSON.stringify(BLOCKER_SET_DOMAIN)}}`;
}

/** `blocker:` + first 40 hex of H({domain, invocationId, kind}) — one blocker per settlement and kind. */
export function settlementBlockerId(invocationId: string, kind: BlockerKind): string {
  const invocation = idAt(invocationId, "invocationId");
  const exactKind = literalAt(kind, "kind", BLOCKER_KINDS);
  const digest = domainHash(SETTLEMENT_BLOCKER_ID_DOMAIN, { invocationId: invocation, kind: exactKind });
  return `blocker:${digest.slice(0, 40)}`;
}
