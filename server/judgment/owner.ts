// PolicyOwner: supplied by the caller, never by judgment.json, so a file cannot claim ownership.
import type { JsonValue } from "./json";
import { Identifier, Provenance, S, decodeWith, type Schema } from "./schema";
import { directlyNormalized } from "./text";

export type ProvenanceScope = "user" | "project" | "temporary";
export type ProvenanceOrigin = "package" | "top-level" | "session";
export type PolicyOwnerKind = "pi-skill" | "adapter-capability";

export interface ProvenanceData {
  readonly source: string;
  readonly scope: ProvenanceScope;
  readonly origin: ProvenanceOrigin;
  readonly path?: string;
}

export interface PolicyOwnerData {
  readonly kind: PolicyOwnerKind;
  readonly namespace: string;
  readonly name: string;
  readonly provenance: ProvenanceData;
}

export const PolicyOwnerSchema: Schema = S.object({
  kind: S.enumOf(["pi-skill", "adapter-capability"]),
  namespace: S.text(1, 300),
  name: Identifier,
  provenance: Provenance,
});

declare const ownerBrand: unique symbol;

export interface PolicyOwner extends PolicyOwnerData {
  readonly [ownerBrand]: true;
}

export function decodePolicyOwnerData(value: JsonValue): PolicyOwnerData {
  return decodeWith<PolicyOwnerData>(PolicyOwnerSchema, value, "Policy owner has an invalid representation.");
}

export function parsePolicyOwner(data: PolicyOwnerData): PolicyOwner {
  const provenance: ProvenanceData = Object.freeze({
    source: directlyNormalized(data.provenance.source, "/provenance/source"),
    scope: data.provenance.scope,
    origin: data.provenance.origin,
    ...(data.provenance.path ? { path: directlyNormalized(data.provenance.path, "/provenance/path") } : {}),
  });
  return Object.freeze({
    kind: data.kind,
    namespace: directlyNormalized(data.namespace, "/namespace"),
    name: data.name,
    provenance,
  }) as PolicyOwner;
}

/** JSON → owner in one step. */
export function ownerFromJson(value: JsonValue): PolicyOwner {
  return parsePolicyOwner(decodePolicyOwnerData(value));
}

/** The owner's identity payload (path omitted when absent). */
export function policyOwnerIdentity(owner: PolicyOwnerData): JsonValue {
  return {
    kind: owner.kind,
    namespace: owner.namespace,
    name: owner.name,
    provenance: {
      source: owner.provenance.source,
      scope: owner.provenance.scope,
      origin: owner.provenance.origin,
      ...(owner.provenance.path ? { path: owner.provenance.path } : {}),
    },
  };
}

