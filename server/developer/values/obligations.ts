// Obligation (§1.2): one bounded statement a route frame must settle. The obligation-set hash
// binds a frame to its exact obligations; it is the one value hash WITHOUT a domain wrapper
// (the reference hashes the bare sorted array), so it must not go through domainHash.
import { hashValue } from "../../ledger/canonicalJson";
import { exactKeys, idAt, objectAt, textAt } from "../../ledger/values";
import { compareCodeUnits } from "../../ledger/canonicalJson";
import { objectListJson, textJson, writtenHash } from "./canonicalText";
import { assertUnique } from "./common";

export interface Obligation {
  readonly obligationId: string;
  readonly frameId: string;
  readonly statement: string;
}

export const OBLIGATION_KEYS = ["obligationId", "frameId", "statement"] as const;

export function parseObligation(value: unknown, path = "obligation"): Obligation {
  const data = objectAt(value, path);
  exactKeys(data, path, OBLIGATION_KEYS);
  return Object.freeze({
    obligationId: idAt(data.obligationId, `${path}.obligationId`),
    frameId: idAt(data.frameId, `${path}.frameId`),
    statement: textAt(data.statement, `${path}.statement`),
  });
}

/** Obligations carry no hash of their own; creation is parsing, so built values obey every rule. */
export function createObligation(body: Obligation): Obligation {
  return parseObligation({ ...body });
}

/**
 * H(obligations sorted by obligationId) with no domain wrapper. Input order does not matter;
 * a repeated obligationId is rejected because a set with duplicates has no single identity.
 * Each obligation is rebuilt from its three wire fields so stray properties never reach the hash.
 */
export function obligationSetSha256(obligations: readonly Obligation[], path = "obligations"): string {
  const ordered = obligations
    .map((entry) => ({ obligationId: entry.obligationId, frameId: entry.frameId, statement: entry.statement }))
    .sort((left, right) => compareCodeUnits(left.obligationId, right.obligationId));
  assertUnique(ordered, path, (entry) => entry.obligationId);
  return writtenHash(ordered, obligationListJson, hashValue);
}

function obligationListJson(ordered: readonly Obligation[]): string {
  return objectListJson(ordered, obligationJson);
}

function obligationJson(obligation: Obligation): string {
  return `{"frameId":${textJson(obligation.frameId)},"obligationId":${textJson(obligation.obligationId)},"statement":${textJson(obligation.statement)}}`;
}
