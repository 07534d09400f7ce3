// Obligation discharge (§1.2, §3.2 event 17): the frame's explicit statement that one
// obligation is settled by admitted contributions. The event payload carries the seven body
// fields; the reducer stores the body with its dischargeSha256.
import { exactKeys, idAt, integerAt, objectAt, textAt } from "../../ledger/values";
import { integerJson, textJson, textListJson, writtenHash } from "./canonicalText";
import { canonicalIdListAt, domainHash, expectHash, textListAt } from "./common";

export const DISCHARGE_DOMAIN = "developer/v8/obligation-discharge";
/** Discharge stop evidence is 1..100 texts and, unlike conclusion stop evidence, may repeat. */
export const MAX_DISCHARGE_STOP_EVIDENCE = 100;

export interface DischargeBody {
  readonly dischargeId: string;
  readonly frameId: string;
  readonly expectedFrameRevision: number;
  readonly obligationId: string;
  readonly contributionIds: readonly string[];
  readonly stopEvidence: readonly string[];
  readonly conclusion: string;
}

export interface Discharge extends DischargeBody {
  readonly dischargeSha256: string;
}

export const DISCHARGE_BODY_KEYS = [
  "dischargeId",
  "frameId",
  "expectedFrameRevision",
  "obligationId",
  "contributionIds",
  "stopEvidence",
  "conclusion",
] as const;

function parseDischargeFields(data: Record<string, unknown>, path: string): DischargeBody {
  return Object.freeze({
    dischargeId: idAt(data.dischargeId, `${path}.dischargeId`),
    frameId: idAt(data.frameId, `${path}.frameId`),
    expectedFrameRevision: integerAt(data.expectedFrameRevision, `${path}.expectedFrameRevision`),
    obligationId: idAt(data.obligationId, `${path}.obligationId`),
    contributionIds: canonicalIdListAt(data.contributionIds, `${path}.contributionIds`, { nonEmpty: true }),
    stopEvidence: textListAt(data.stopEvidence, `${path}.stopEvidence`, { nonEmpty: true, max: MAX_DISCHARGE_STOP_EVIDENCE }),
    conclusion: textAt(data.conclusion, `${path}.conclusion`),
  });
}

/** The `obligation-discharged` payload's `discharge` object (no hash on the wire). */
export function parseDischargeBody(value: unknown, path = "discharge"): DischargeBody {
  const data = objectAt(value, path);
  exactKeys(data, path, DISCHARGE_BODY_KEYS);
  return parseDischargeFields(data, path);
}

export function dischargeSha256(body: DischargeBody): string {
  return writtenHash(body, dischargeHashJson, dischargeHashGeneral);
}

function dischargeHashJson(body: DischargeBody): string {
  return (
    `{"discharge":{"conclusion":${textJson(body.conclusion)},"contributionIds":${textListJson(body.contributionIds)},"dischargeId":${textJson(body.dischargeId)},` +
    `"expectedFrameRevision":${integerJson(body.expectedFrameRevision)},"frameId":${textJson(body.frameId)},"obligationId":${textJson(body.obligationId)},` +
    `"stopEvidence":${textListJson(body.stopEvidence)}},"domain":${JSON.stringify(DISCHARGE_DOMAIN)}}`
  );
}

function dischargeHashGeneral(body: DischargeBody): string {
  return domainHash(DISCHARGE_DOMAIN, {
    discharge: {
      dischargeId: body.dischargeId,
      frameId: body.frameId,
      expectedFrameRevision: body.expectedFrameRevision,
      obligationId: body.obligationId,
      contributionIds: [...body.contributionIds],
      stopEvidence: [...body.stopEvidence],
      conclusion: body.conclusion,
    },
  });
}

export function parseDischarge(value: unknown, path = "discharge"): Discharge {
  const data = objectAt(value, path);
  exactKeys(data, path, [...DISCHARGE_BODY_KEYS, "dischargeSha256"]);
  const body = parseDischargeFields(data, path);
  return Object.freeze({ ...body, dischargeSha256: expectHash(data.dischargeSha256, `${path}.dischargeSha256`, dischargeSha256(body), "discharge") });
}

export function createDischarge(body: DischargeBody): Discharge {
  const parsed = parseDischargeBody({
    dischargeId: body.dischargeId,
    frameId: body.frameId,
    expectedFrameRevision: body.expectedFrameRevision,
    obligationId: body.obligationId,
    contributionIds: body.contributionIds,
    stopEvidence: body.stopEvidence,
    conclusion: body.conclusion,
  });
  return parseDischarge({ ...parsed, dischargeSha256: dischargeSha256(parsed) });
}
