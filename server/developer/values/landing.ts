// Implementation landing (§1.2, §3.2 event 4) and the debt it leaves (§6.4). A landing is
// provenance — these paths changed under this authorization — and it opens two follow-up
// questions (reroute, verification) identified by two distinct future frame ids.
import { parseEventRef, type EventRef } from "../../ledger/envelope";
import { exactKeys, fail, idAt, objectAt, textAt } from "../../ledger/values";
import { textJson, textListJson, writtenHash } from "./canonicalText";
import { booleanAt, domainHash, expectHash, sortedTextListAt } from "./common";

export const LANDING_CHANGED_PATHS_DOMAIN = "developer/v8/landing-changed-paths";
export const LANDING_VERIFICATION_DOMAIN = "developer/v8/landing-verification";
export const LANDING_DOMAIN = "developer/v8/implementation-landing";
export const MAX_CHANGED_PATHS = 200;
export const MAX_CHANGED_PATH_LENGTH = 4_096;
export const MAX_VERIFICATION_ENTRIES = 100;

export interface LandingFields {
  readonly landingId: string;
  readonly authorizationId: string;
  readonly changedPaths: readonly string[];
  readonly result: string;
  readonly verification: readonly string[];
  readonly rerouteFrameId: string;
  readonly verificationFrameId: string;
}

export interface Landing extends LandingFields {
  readonly changedPathsSha256: string;
  readonly verificationSha256: string;
  readonly landingSha256: string;
}

export interface LandingHashes {
  readonly changedPathsSha256: string;
  readonly verificationSha256: string;
  readonly landingSha256: string;
}

export const LANDING_FIELD_KEYS = [
  "landingId",
  "authorizationId",
  "changedPaths",
  "result",
  "verification",
  "rerouteFrameId",
  "verificationFrameId",
] as const;

// Lists first, then scalars: the reference reports list violations before id violations.
function parseFields(data: Record<string, unknown>, path: string): LandingFields {
  const changedPaths = sortedTextListAt(data.changedPaths, `${path}.changedPaths`, {
    nonEmpty: true,
    max: MAX_CHANGED_PATHS,
    maxText: MAX_CHANGED_PATH_LENGTH,
  });
  const verification = sortedTextListAt(data.verification, `${path}.verification`, { max: MAX_VERIFICATION_ENTRIES });
  const fields: LandingFields = Object.freeze({
    landingId: idAt(data.landingId, `${path}.landingId`),
    authorizationId: idAt(data.authorizationId, `${path}.authorizationId`),
    changedPaths,
    result: textAt(data.result, `${path}.result`),
    verification,
    rerouteFrameId: idAt(data.rerouteFrameId, `${path}.rerouteFrameId`),
    verificationFrameId: idAt(data.verificationFrameId, `${path}.verificationFrameId`),
  });
  // One frame cannot answer both follow-up questions; each debt clears independently.
  if (fields.rerouteFrameId === fields.verificationFrameId) {
    fail(`${path}.verificationFrameId`, "must differ from rerouteFrameId");
  }
  return fields;
}

export function parseLandingFields(value: unknown, path = "landing"): LandingFields {
  const data = objectAt(value, path);
  exactKeys(data, path, LANDING_FIELD_KEYS);
  return parseFields(data, path);
}

export function landingHashes(fields: LandingFields): LandingHashes {
  const changedPathsSha256 = writtenHash(fields, changedPathsHashJson, changedPathsHashGeneral);
  const verificationSha256 = writtenHash(fields, verificationHashJson, verificationHashGeneral);
  const landingSha256 = writtenHash({ fields, changedPathsSha256, verificationSha256 }, landingHashJson, landingHashGeneral);
  return { changedPathsSha256, verificationSha256, landingSha256 };
}

interface LandingMembers {
  readonly fields: LandingFields;
  readonly changedPathsSha256: string;
  readonly verificationSha256: string;
}

function changedPathsHashJson(fields: LandingFields): string {
  return `{"changedPaths":${textListJson(fields.changedPaths)},"domain":${JSON.stringify(LANDING_CHANGED_PATHS_DOMAIN)}}`;
}

function changedPathsHashGeneral(fields: LandingFields): string {
  return domainHash(LANDING_CHANGED_PATHS_DOMAIN, { changedPaths: [...fields.changedPaths] });
}

function verificationHashJson(fields: LandingFields): string {
  return `{"domain":${JSON.stringify(LANDING_VERIFICATION_DOMAIN)},"verification":${textListJson(fields.verification)}}`;
}

function verificationHashGeneral(fields: LandingFields): string {
  return domainHash(LANDING_VERIFICATION_DOMAIN, { verification: [...fields.verification] });
}

function landingHashJson({ fields, changedPathsSha256, verificationSha256 }: LandingMembers): string {
  return (
    `{"changedPathsSha256":${textJson(changedPathsSha256)},"domain":${JSON.stringify(LANDING_DOMAIN)},` +
    `"fields":{"authorizationId":${textJson(fields.authorizationId)},"changedPaths":${textListJson(fields.changedPaths)},"landingId":${textJson(fields.landingId)},` +
    `"rerouteFrameId":${textJson(fields.rerouteFrameId)},"result":${textJson(fields.result)},"verification":${textListJson(fields.verification)},` +
    `"verificationFrameId":${textJson(fields.verificationFrameId)}},"verificationSha256":${textJson(verificationSha256)}}`
  );
}

function landingHashGeneral({ fields, changedPathsSha256, verificationSha256 }: LandingMembers): string {
  return domainHash(LANDING_DOMAIN, {
    fields: {
      landingId: fields.landingId,
      authorizationId: fields.authorizationId,
      changedPaths: [...fields.changedPaths],
      result: fields.result,
      verification: [...fields.verification],
      rerouteFrameId: fields.rerouteFrameId,
      verificationFrameId: fields.verificationFrameId,
    },
    changedPathsSha256,
    verificationSha256,
  });
}

/** The `implementation-landing-recorded` payload's `landing` (ten fields, three hashes verified). */
export function parseLanding(value: unknown, path = "landing"): Landing {
  const data = objectAt(value, path);
  exactKeys(data, path, [...LANDING_FIELD_KEYS, "changedPathsSha256", "verificationSha256", "landingSha256"]);
  const fields = parseFields(data, path);
  const hashes = landingHashes(fields);
  return Object.freeze({
    ...fields,
    changedPathsSha256: expectHash(data.changedPathsSha256, `${path}.changedPathsSha256`, hashes.changedPathsSha256, "changed paths"),
    verificationSha256: expectHash(data.verificationSha256, `${path}.verificationSha256`, hashes.verificationSha256, "verification"),
    landingSha256: expectHash(data.landingSha256, `${path}.landingSha256`, hashes.landingSha256, "landing"),
  });
}

export function createLanding(fields: LandingFields): Landing {
  const parsed = parseLandingFields({
    landingId: fields.landingId,
    authorizationId: fields.authorizationId,
    changedPaths: fields.changedPaths,
    result: fields.result,
    verification: fields.verification,
    rerouteFrameId: fields.rerouteFrameId,
    verificationFrameId: fields.verificationFrameId,
  });
  return parseLanding({ ...parsed, ...landingHashes(parsed) });
}

/** Post-landing debt (§6.4): reducer state; both flags start true and clear independently. */
export interface LandingDebt {
  readonly landingId: string;
  readonly landingEventRef: EventRef;
  readonly rerouteFrameId: string;
  readonly verificationFrameId: string;
  readonly reroutePending: boolean;
  readonly verificationPending: boolean;
}

export function parseLandingDebt(value: unknown, path = "debt"): LandingDebt {
  const data = objectAt(value, path);
  exactKeys(data, path, ["landingId", "landingEventRef", "rerouteFrameId", "verificationFrameId", "reroutePending", "verificationPending"]);
  const debt: LandingDebt = Object.freeze({
    landingId: idAt(data.landingId, `${path}.landingId`),
    landingEventRef: Object.freeze(parseEventRef(data.landingEventRef, `${path}.landingEventRef`)),
    rerouteFrameId: idAt(data.rerouteFrameId, `${path}.rerouteFrameId`),
    verificationFrameId: idAt(data.verificationFrameId, `${path}.verificationFrameId`),
    reroutePending: booleanAt(data.reroutePending, `${path}.reroutePending`),
    verificationPending: booleanAt(data.verificationPending, `${path}.verificationPending`),
  });
  if (debt.rerouteFrameId === debt.verificationFrameId) fail(`${path}.verificationFrameId`, "must differ from rerouteFrameId");
  return debt;
}

/** The debt a landing creates: both questions pending, bound to the landing's event. */
export function createLandingDebt(landing: Landing, landingEventRef: EventRef): LandingDebt {
  return parseLandingDebt({
    landingId: landing.landingId,
    landingEventRef: { ...landingEventRef },
    rerouteFrameId: landing.rerouteFrameId,
    verificationFrameId: landing.verificationFrameId,
    reroutePending: true,
    verificationPending: true,
  });
}
