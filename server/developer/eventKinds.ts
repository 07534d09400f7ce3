// The eighteen developer/v8 event kinds (§3.2) and their semantic payload parsing.
import { sha256Hex } from "../ledger/canonicalJson";
import { EVENT_KINDS } from "../protocol/eventKindNames";
import type { Envelope } from "../ledger/envelope";
import { stop } from "../ledger/faults";
import { ValueError, arrayAt, exactKeys, idAt, isRecord, objectAt, shaAt, textAt } from "../ledger/values";
import { parseAuthorization, type Authorization } from "./values/authorization";
import { parseConclusionProposal, type ConclusionProposal } from "./values/conclusions";
import { parseObservedSupport, type ObservedSupport } from "./values/contributions";
import { parseLanding, type Landing } from "./values/landing";
import { parseObligation, type Obligation } from "./values/obligations";
import { parseRouteFrame, type RouteFrame } from "./values/routeFrame";
import { parseInvocationSettlement, parseReadySkillAssignment, type InvocationSettlement, type ReadySkillAssignment } from "./values/skills";
import {
  parseCandidateDisposition,
  parseSnapshotBasis,
  parseSnapshotManifest,
  type CandidateDisposition,
  type SnapshotBasis,
  type SnapshotManifest,
} from "./values/routing";
import {
  parseLooseCanServeBody,
  parseLooseDependency,
  parseLoosePage,
  parseLooseDischarge,
  parseLooseProposal,
  type LooseCanServeBody,
  type LooseDependency,
  type LoosePage,
  type LooseDischarge,
  type LooseProposal,
} from "./reducer/payloadShapes";

export { EVENT_KINDS };
export type EventKind = (typeof EVENT_KINDS)[number];

export function isEventKind(value: string): value is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(value);
}

export const SCOPE_CLOSURE_DOMAIN = "developer/v8/scope-closure";

export interface ScopeClosure {
  readonly reason: string;
  readonly reasonSha256: string;
}

export function createScopeClosure(reason: string): ScopeClosure {
  const exact = textAt(reason, "closure.reason");
  // H({domain, reason}) written as its canonical text: the members are already in code-unit order and
  // `exact` is a string, whose canonical text is JSON.stringify's.
  return { reason: exact, reasonSha256: sha256Hex(`{"domain":${JSON.stringify(SCOPE_CLOSURE_DOMAIN)},"reason":${JSON.stringify(exact)}}`) };
}

export function parseScopeClosure(value: unknown): ScopeClosure {
  const data = objectAt(value, "closure");
  exactKeys(data, "closure", ["reason", "reasonSha256"]);
  const closure = createScopeClosure(data.reason as string);
  if (closure.reasonSha256 !== shaAt(data.reasonSha256, "closure.reasonSha256")) {
    throw new ValueError("closure hash mismatch");
  }
  return closure;
}

export type SemanticEvent =
  | { readonly kind: "work-scope-opened" }
  | { readonly kind: "work-scope-closed"; readonly closure: ScopeClosure }
  | { readonly kind: "change-authorized"; readonly authorization: Authorization }
  | { readonly kind: "implementation-landing-recorded"; readonly landing: Landing }
  | {
      readonly kind: "route-frame-opened";
      readonly frame: RouteFrame;
      readonly obligations: readonly Obligation[];
      readonly parentDependency: LooseDependency | null;
    }
  | {
      readonly kind: "routing-snapshot-opened";
      readonly basis: SnapshotBasis;
      readonly manifest: SnapshotManifest;
      readonly replacesSnapshotId: string | null;
    }
  | { readonly kind: "routing-page-accounted"; readonly page: LoosePage; readonly dispositions: readonly CandidateDisposition[] }
  | { readonly kind: "routing-coverage-completed"; readonly snapshotId: string; readonly expectedCoverageSha256: string }
  | {
      readonly kind: "can-serve-basis-created";
      readonly snapshotId: string;
      readonly body: LooseCanServeBody;
      readonly expectedBasisSha256: string;
    }
  | { readonly kind: "ready-assignment-recorded"; readonly assignment: ReadySkillAssignment; readonly basisId: string }
  | { readonly kind: "skill-invocation-started"; readonly invocationId: string; readonly assignmentId: string }
  | { readonly kind: "invocation-settled"; readonly settlement: InvocationSettlement }
  | { readonly kind: "route-frame-replaced"; readonly frame: RouteFrame; readonly obligations: readonly Obligation[] }
  | { readonly kind: "support-observed"; readonly support: ObservedSupport }
  | {
      readonly kind: "frame-contribution-admitted";
      readonly proposal: LooseProposal;
      readonly expectedProposalSha256: string;
      readonly contributionId: string;
      readonly admissionBasisSha256: string;
    }
  | { readonly kind: "frame-blocker-resolved"; readonly frameId: string; readonly blockerId: string; readonly resolutionBasisSha256: string }
  | { readonly kind: "obligation-discharged"; readonly discharge: LooseDischarge }
  | { readonly kind: "route-frame-concluded"; readonly proposal: ConclusionProposal };

function payloadKeys(payload: Record<string, unknown>, path: string, keys: readonly string[]): void {
  const actual = Object.keys(payload);
  if (actual.length !== keys.length || keys.some((key) => !(key in payload)) || actual.some((key) => !keys.includes(key))) {
    stop("invalid-payload", `${path} has an invalid representation`);
  }
}

/** Semantic parse by kind (§7.2 step 4): `unknown-event-kind` or `invalid-payload`. */
export function parseSemanticEvent(envelope: Envelope): SemanticEvent {
  const path = `${envelope.kind}.payload`;
  if (!isRecord(envelope.payload)) return stop("invalid-payload", `${path} must be an object`);
  const payload = envelope.payload as Record<string, unknown>;
  if (!isEventKind(envelope.kind)) {
    return stop("unknown-event-kind", `Unknown Developer v8 event kind: ${envelope.kind}`);
  }
  try {
    return parseKind(envelope.kind, payload, path);
  } catch (error) {
    if (error instanceof ValueError) return stop("invalid-payload", error.message);
    throw error;
  }
}

/*
 * Payload parsing is deliberately only as strict as the reference's payload parse: checks the
 * reference makes later (frame/obligation binding, canonical id lists, proposal hashes) are made
 * by the reducer so they surface with the same fault code the reference gives.
 */
function parseKind(kind: EventKind, payload: Record<string, unknown>, path: string): SemanticEvent {
  switch (kind) {
    case "work-scope-opened":
      payloadKeys(payload, path, []);
      return { kind };
    case "work-scope-closed":
      payloadKeys(payload, path, ["closure"]);
      return { kind, closure: parseScopeClosure(payload.closure) };
    case "change-authorized":
      payloadKeys(payload, path, ["authorization"]);
      return { kind, authorization: parseAuthorization(payload.authorization, `${path}.authorization`) };
    case "implementation-landing-recorded":
      payloadKeys(payload, path, ["landing"]);
      return { kind, landing: parseLanding(payload.landing, `${path}.landing`) };
    case "route-frame-opened":
      payloadKeys(payload, path, ["frame", "obligations", "parentDependency"]);
      return {
        kind,
        frame: parseRouteFrame(payload.frame, `${path}.frame`),
        obligations: Object.freeze(arrayAt(payload.obligations, `${path}.obligations`, parseObligation)),
        parentDependency:
          payload.parentDependency === null ? null : parseLooseDependency(payload.parentDependency, `${path}.parentDependency`),
      };
    case "route-frame-replaced":
      payloadKeys(payload, path, ["frame", "obligations"]);
      return {
        kind,
        frame: parseRouteFrame(payload.frame, `${path}.frame`),
        obligations: Object.freeze(arrayAt(payload.obligations, `${path}.obligations`, parseObligation)),
      };
    case "routing-snapshot-opened":
      payloadKeys(payload, path, ["basis", "manifest", "replacesSnapshotId"]);
      return {
        kind,
        basis: parseSnapshotBasis(payload.basis, `${path}.basis`),
        manifest: parseSnapshotManifest(payload.manifest, `${path}.manifest`),
        replacesSnapshotId: payload.replacesSnapshotId === null ? null : idAt(payload.replacesSnapshotId, `${path}.replacesSnapshotId`),
      };
    case "routing-page-accounted":
      payloadKeys(payload, path, ["page", "dispositions"]);
      return {
        kind,
        page: parseLoosePage(payload.page, `${path}.page`),
        dispositions: Object.freeze(arrayAt(payload.dispositions, `${path}.dispositions`, parseCandidateDisposition)),
      };
    case "routing-coverage-completed":
      payloadKeys(payload, path, ["snapshotId", "expectedCoverageSha256"]);
      return {
        kind,
        snapshotId: idAt(payload.snapshotId, `${path}.snapshotId`),
        expectedCoverageSha256: shaAt(payload.expectedCoverageSha256, `${path}.expectedCoverageSha256`),
      };
    case "can-serve-basis-created":
      payloadKeys(payload, path, ["snapshotId", "body", "expectedBasisSha256"]);
      return {
        kind,
        snapshotId: idAt(payload.snapshotId, `${path}.snapshotId`),
        body: parseLooseCanServeBody(payload.body, `${path}.body`),
        expectedBasisSha256: shaAt(payload.expectedBasisSha256, `${path}.expectedBasisSha256`),
      };
    case "ready-assignment-recorded":
      payloadKeys(payload, path, ["assignment", "basisId"]);
      return {
        kind,
        assignment: parseReadySkillAssignment(payload.assignment, `${path}.assignment`),
        basisId: idAt(payload.basisId, `${path}.basisId`),
      };
    case "skill-invocation-started":
      payloadKeys(payload, path, ["invocationId", "assignmentId"]);
      return {
        kind,
        invocationId: idAt(payload.invocationId, `${path}.invocationId`),
        assignmentId: idAt(payload.assignmentId, `${path}.assignmentId`),
      };
    case "invocation-settled":
      payloadKeys(payload, path, ["settlement"]);
      return { kind, settlement: parseInvocationSettlement(payload.settlement, `${path}.settlement`) };
    case "support-observed":
      payloadKeys(payload, path, ["support"]);
      return { kind, support: parseObservedSupport(payload.support, `${path}.support`) };
    case "frame-contribution-admitted":
      payloadKeys(payload, path, ["proposal", "expectedProposalSha256", "contributionId", "admissionBasisSha256"]);
      return {
        kind,
        proposal: parseLooseProposal(payload.proposal, `${path}.proposal`),
        expectedProposalSha256: shaAt(payload.expectedProposalSha256, `${path}.expectedProposalSha256`),
        contributionId: idAt(payload.contributionId, `${path}.contributionId`),
        admissionBasisSha256: shaAt(payload.admissionBasisSha256, `${path}.admissionBasisSha256`),
      };
    case "frame-blocker-resolved":
      payloadKeys(payload, path, ["frameId", "blockerId", "resolutionBasisSha256"]);
      return {
        kind,
        frameId: idAt(payload.frameId, `${path}.frameId`),
        blockerId: idAt(payload.blockerId, `${path}.blockerId`),
        resolutionBasisSha256: shaAt(payload.resolutionBasisSha256, `${path}.resolutionBasisSha256`),
      };
    case "obligation-discharged":
      payloadKeys(payload, path, ["discharge"]);
      return { kind, discharge: parseLooseDischarge(payload.discharge, `${path}.discharge`) };
    case "route-frame-concluded":
      payloadKeys(payload, path, ["proposal"]);
      return { kind, proposal: parseConclusionProposal(payload.proposal, `${path}.proposal`) };
  }
}
