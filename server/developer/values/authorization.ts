// Change authorization (§1.2, §3.2 event 3): permission to edit, bound to one concluded frame
// by its conclusionSha256. The optional boundary records a known representation or trust gap
// the change must respect; it is part of the hashed fields.
import { exactKeys, idAt, integerAt, objectAt, shaAt, textAt } from "../../ledger/values";
import { integerJson, textJson, unwritable, writtenHash } from "./canonicalText";
import { domainHash, expectHash, literalAt } from "./common";

export const AUTHORIZATION_DOMAIN = "developer/v8/change-authorization";

export interface RefinementBoundary {
  readonly kind: "refinement-boundary";
  readonly rawRepresentation: string;
  readonly refinedRepresentation: string;
  readonly producer: string;
  readonly failure: string;
  readonly firstEffect: string;
}

export interface TrustedCompilerGap {
  readonly kind: "trusted-compiler-gap";
  readonly assertion: string;
  readonly establishedBy: string;
  readonly limitation: string;
  readonly containment: string;
  readonly verification: string;
}

export type ImplementationBoundary = RefinementBoundary | TrustedCompilerGap;

export interface AuthorizationFields {
  readonly authorizationId: string;
  readonly frameId: string;
  readonly frameRevision: number;
  readonly conclusionSha256: string;
  readonly movement: string;
  readonly stableLanding: string;
  readonly verificationTarget: string;
  readonly boundary: ImplementationBoundary | null;
}

export interface Authorization extends AuthorizationFields {
  readonly authorizationSha256: string;
}

export const AUTHORIZATION_FIELD_KEYS = [
  "authorizationId",
  "frameId",
  "frameRevision",
  "conclusionSha256",
  "movement",
  "stableLanding",
  "verificationTarget",
  "boundary",
] as const;

const REFINEMENT_KEYS = ["kind", "rawRepresentation", "refinedRepresentation", "producer", "failure", "firstEffect"] as const;
const GAP_KEYS = ["kind", "assertion", "establishedBy", "limitation", "containment", "verification"] as const;

/** null, or one of the two boundary shapes; the kind is read first so keys are checked per variant. */
export function parseBoundary(value: unknown, path = "boundary"): ImplementationBoundary | null {
  if (value === null) return null;
  const data = objectAt(value, path);
  const kind = literalAt(data.kind, `${path}.kind`, ["refinement-boundary", "trusted-compiler-gap"]);
  if (kind === "refinement-boundary") {
    exactKeys(data, path, REFINEMENT_KEYS);
    return Object.freeze({
      kind,
      rawRepresentation: textAt(data.rawRepresentation, `${path}.rawRepresentation`),
      refinedRepresentation: textAt(data.refinedRepresentation, `${path}.refinedRepresentation`),
      producer: textAt(data.producer, `${path}.producer`),
      failure: textAt(data.failure, `${path}.failure`),
      firstEffect: textAt(data.firstEffect, `${path}.firstEffect`),
    });
  }
  exactKeys(data, path, GAP_KEYS);
  return Object.freeze({
    kind,
    assertion: textAt(data.assertion, `${path}.assertion`),
    establishedBy: textAt(data.establishedBy, `${path}.establishedBy`),
    limitation: textAt(data.limitation, `${path}.limitation`),
    containment: textAt(data.containment, `${path}.containment`),
    verification: textAt(data.verification, `${path}.verification`),
  });
}

function parseFields(data: Record<string, unknown>, path: string): AuthorizationFields {
  return Object.freeze({
    authorizationId: idAt(data.authorizationId, `${path}.authorizationId`),
    frameId: idAt(data.frameId, `${path}.frameId`),
    frameRevision: integerAt(data.frameRevision, `${path}.frameRevision`),
    conclusionSha256: shaAt(data.conclusionSha256, `${path}.conclusionSha256`),
    movement: textAt(data.movement, `${path}.movement`),
    stableLanding: textAt(data.stableLanding, `${path}.stableLanding`),
    verificationTarget: textAt(data.verificationTarget, `${path}.verificationTarget`),
    boundary: parseBoundary(data.boundary, `${path}.boundary`),
  });
}

export function parseAuthorizationFields(value: unknown, path = "authorization"): AuthorizationFields {
  const data = objectAt(value, path);
  exactKeys(data, path, AUTHORIZATION_FIELD_KEYS);
  return parseFields(data, path);
}

function boundaryValue(boundary: ImplementationBoundary | null): Record<string, string> | null {
  if (boundary === null) return null;
  if (boundary.kind === "refinement-boundary") {
    const { kind, rawRepresentation, refinedRepresentation, producer, failure, firstEffect } = boundary;
    return { kind, rawRepresentation, refinedRepresentation, producer, failure, firstEffect };
  }
  const { kind, assertion, establishedBy, limitation, containment, verification } = boundary;
  return { kind, assertion, establishedBy, limitation, containment, verification };
}

/** H({domain, fields:<the eight fields>}); rebuilt field by field so the hash never sees extras. */
export function authorizationSha256(fields: AuthorizationFields): string {
  return writtenHash(fields, authorizationHashJson, authorizationHashGeneral);
}

function boundaryJson(boundary: ImplementationBoundary | null): string {
  if (boundary === null) return "null";
  if (typeof boundary !== "object") return unwritable();
  if (boundary.kind === "refinement-boundary") {
    return (
      `{"failure":${textJson(boundary.failure)},"firstEffect":${textJson(boundary.firstEffect)},"kind":${textJson(boundary.kind)},` +
      `"producer":${textJson(boundary.producer)},"rawRepresentation":${textJson(boundary.rawRepresentation)},` +
      `"refinedRepresentation":${textJson(boundary.refinedRepresentation)}}`
    );
  }
  return (
    `{"assertion":${textJson(boundary.assertion)},"containment":${textJson(boundary.containment)},"establishedBy":${textJson(boundary.establishedBy)},` +
    `"kind":${textJson(boundary.kind)},"limitation":${textJson(boundary.limitation)},"verification":${textJson(boundary.verification)}}`
  );
}

function authorizationHashJson(fields: AuthorizationFields): string {
  return (
    `{"domain":${JSON.stringify(AUTHORIZATION_DOMAIN)},"fields":{"authorizationId":${textJson(fields.authorizationId)},"boundary":${boundaryJson(fields.boundary)},` +
    `"conclusionSha256":${textJson(fields.conclusionSha256)},"frameId":${textJson(fields.frameId)},"frameRevision":${integerJson(fields.frameRevision)},` +
    `"movement":${textJson(fields.movement)},"stableLanding":${textJson(fields.stableLanding)},"verificationTarget":${textJson(fields.verificationTarget)}}}`
  );
}

function authorizationHashGeneral(fields: AuthorizationFields): string {
  return domainHash(AUTHORIZATION_DOMAIN, {
    fields: {
      authorizationId: fields.authorizationId,
      frameId: fields.frameId,
      frameRevision: fields.frameRevision,
      conclusionSha256: fields.conclusionSha256,
      movement: fields.movement,
      stableLanding: fields.stableLanding,
      verificationTarget: fields.verificationTarget,
      boundary: boundaryValue(fields.boundary),
    },
  });
}

/** The `change-authorized` payload's `authorization` (nine fields, hash verified). */
export function parseAuthorization(value: unknown, path = "authorization"): Authorization {
  const data = objectAt(value, path);
  exactKeys(data, path, [...AUTHORIZATION_FIELD_KEYS, "authorizationSha256"]);
  const fields = parseFields(data, path);
  return Object.freeze({
    ...fields,
    authorizationSha256: expectHash(data.authorizationSha256, `${path}.authorizationSha256`, authorizationSha256(fields), "authorization"),
  });
}

export function createAuthorization(fields: AuthorizationFields): Authorization {
  const parsed = parseAuthorizationFields({
    authorizationId: fields.authorizationId,
    frameId: fields.frameId,
    frameRevision: fields.frameRevision,
    conclusionSha256: fields.conclusionSha256,
    movement: fields.movement,
    stableLanding: fields.stableLanding,
    verificationTarget: fields.verificationTarget,
    boundary: fields.boundary,
  });
  return parseAuthorization({ ...parsed, authorizationSha256: authorizationSha256(parsed) });
}
