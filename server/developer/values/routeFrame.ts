// RouteFrame (§1.2) and the payload shape that opens one (§3.2 event 5). A frame names its
// obligations by a canonical id list plus the obligation-set hash, so the frame alone already
// pins which statements it must settle; `verifyFrameObligations` checks that binding.
import {
  arrayAt,
  exactKeys,
  fail,
  idAt,
  integerAt,
  objectAt,
  shaAt,
  textAt,
} from "../../ledger/values";
import { compareCodeUnits } from "../../ledger/canonicalJson";
import { canonicalIdListAt, nullableIdAt } from "./common";
import { obligationSetSha256, parseObligation, type Obligation } from "./obligations";

export interface RouteFrame {
  readonly frameId: string;
  readonly frameRevision: number;
  readonly workScopeId: string;
  readonly parentFrameId: string | null;
  readonly routeDefinitionId: string;
  readonly routeDefinitionRevisionSha256: string;
  readonly exactQuestion: string;
  readonly obligationIds: readonly string[];
  readonly obligationSetSha256: string;
}

/** What a caller decides; obligationIds and the set hash are derived from the obligations. */
export type RouteFrameBody = Omit<RouteFrame, "obligationIds" | "obligationSetSha256">;

export const ROUTE_FRAME_KEYS = [
  "frameId",
  "frameRevision",
  "workScopeId",
  "parentFrameId",
  "routeDefinitionId",
  "routeDefinitionRevisionSha256",
  "exactQuestion",
  "obligationIds",
  "obligationSetSha256",
] as const;

/** Shape-only parse: the set hash can only be checked against obligations (verifyFrameObligations). */
export function parseRouteFrame(value: unknown, path = "routeFrame"): RouteFrame {
  const data = objectAt(value, path);
  exactKeys(data, path, ROUTE_FRAME_KEYS);
  return Object.freeze({
    frameId: idAt(data.frameId, `${path}.frameId`),
    frameRevision: integerAt(data.frameRevision, `${path}.frameRevision`),
    workScopeId: idAt(data.workScopeId, `${path}.workScopeId`),
    parentFrameId: nullableIdAt(data.parentFrameId, `${path}.parentFrameId`),
    routeDefinitionId: idAt(data.routeDefinitionId, `${path}.routeDefinitionId`),
    routeDefinitionRevisionSha256: shaAt(data.routeDefinitionRevisionSha256, `${path}.routeDefinitionRevisionSha256`),
    exactQuestion: textAt(data.exactQuestion, `${path}.exactQuestion`),
    obligationIds: canonicalIdListAt(data.obligationIds, `${path}.obligationIds`, { nonEmpty: true }),
    obligationSetSha256: shaAt(data.obligationSetSha256, `${path}.obligationSetSha256`),
  });
}

/**
 * The frame/obligation binding the reducer requires before it accepts a frame: the obligation
 * ids equal the frame's list position by position (so the obligations travel in ascending
 * order too), every obligation belongs to this frame, and the set hash matches.
 */
export function verifyFrameObligations(frame: RouteFrame, obligations: readonly Obligation[], path = "obligations"): void {
  if (
    obligations.length !== frame.obligationIds.length ||
    obligations.some((entry, index) => entry.obligationId !== frame.obligationIds[index])
  ) {
    fail(path, "must list exactly the frame's obligationIds in canonical order");
  }
  obligations.forEach((entry, index) => {
    if (entry.frameId !== frame.frameId) fail(`${path}[${index}].frameId`, "must equal the frame's frameId");
  });
  if (obligationSetSha256(obligations, path) !== frame.obligationSetSha256) {
    fail(`${path}`, "do not match the frame's obligationSetSha256");
  }
}

/** Builds a frame from its body and obligations (sorted here), then re-parses and re-verifies. */
export function createRouteFrame(body: RouteFrameBody, obligations: readonly Obligation[]): RouteFrame {
  const sorted = [...obligations].sort((left, right) => compareCodeUnits(left.obligationId, right.obligationId));
  const frame = parseRouteFrame({
    frameId: body.frameId,
    frameRevision: body.frameRevision,
    workScopeId: body.workScopeId,
    parentFrameId: body.parentFrameId,
    routeDefinitionId: body.routeDefinitionId,
    routeDefinitionRevisionSha256: body.routeDefinitionRevisionSha256,
    exactQuestion: body.exactQuestion,
    obligationIds: sorted.map((entry) => entry.obligationId),
    obligationSetSha256: obligationSetSha256(sorted),
  });
  verifyFrameObligations(frame, sorted.map((entry, index) => parseObligation(entry, `obligations[${index}]`)));
  return frame;
}

/** A child frame's claim on its parent: the `child-frame` blocker it asks the parent to carry. */
export interface ParentFrameDependency {
  readonly blockerId: string;
  readonly targetObligationIds: readonly string[];
  readonly reason: string;
}

export function parseParentFrameDependency(value: unknown, path = "parentDependency"): ParentFrameDependency {
  const data = objectAt(value, path);
  exactKeys(data, path, ["blockerId", "targetObligationIds", "reason"]);
  return Object.freeze({
    blockerId: idAt(data.blockerId, `${path}.blockerId`),
    targetObligationIds: canonicalIdListAt(data.targetObligationIds, `${path}.targetObligationIds`, { nonEmpty: true }),
    reason: textAt(data.reason, `${path}.reason`),
  });
}

/** Payload of `route-frame-opened`: {frame, obligations, parentDependency}. */
export interface RouteFrameOpening {
  readonly frame: RouteFrame;
  readonly obligations: readonly Obligation[];
  readonly parentDependency: ParentFrameDependency | null;
}

/**
 * Value-level checks of the opening payload. A root frame (parent null) must carry no
 * dependency and a child frame must carry one; whether the parent exists is reducer state.
 */
export function parseRouteFrameOpening(value: unknown, path = "route-frame-opened.payload"): RouteFrameOpening {
  const data = objectAt(value, path);
  exactKeys(data, path, ["frame", "obligations", "parentDependency"]);
  const frame = parseRouteFrame(data.frame, `${path}.frame`);
  const obligations = Object.freeze(arrayAt(data.obligations, `${path}.obligations`, parseObligation));
  const parentDependency =
    data.parentDependency === null ? null : parseParentFrameDependency(data.parentDependency, `${path}.parentDependency`);
  verifyFrameObligations(frame, obligations, `${path}.obligations`);
  if ((frame.parentFrameId === null) !== (parentDependency === null)) {
    fail(`${path}.parentDependency`, "is required exactly when the frame has a parent");
  }
  return Object.freeze({ frame, obligations, parentDependency });
}

/** Builds an opening payload through its parser. */
export function createRouteFrameOpening(opening: RouteFrameOpening): RouteFrameOpening {
  return parseRouteFrameOpening({
    frame: opening.frame,
    obligations: opening.obligations,
    parentDependency: opening.parentDependency,
  });
}

/** Payload of `route-frame-replaced` [LATENT]: a new revision of an open frame with its obligations. */
export interface RouteFrameReplacement {
  readonly frame: RouteFrame;
  readonly obligations: readonly Obligation[];
}

export function parseRouteFrameReplacement(value: unknown, path = "route-frame-replaced.payload"): RouteFrameReplacement {
  const data = objectAt(value, path);
  exactKeys(data, path, ["frame", "obligations"]);
  const frame = parseRouteFrame(data.frame, `${path}.frame`);
  const obligations = Object.freeze(arrayAt(data.obligations, `${path}.obligations`, parseObligation));
  verifyFrameObligations(frame, obligations, `${path}.obligations`);
  return Object.freeze({ frame, obligations });
}
