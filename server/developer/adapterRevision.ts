// The adapter revision of developer/v8 §2.5: one hash over the route catalogue and the table of
// what each operation may do to frames, skills and the scope root. Routing snapshots record it as
// the registry revision and priority strategy (§4.5), so changing a row or a route changes every
// snapshot basis — which is why the table is data here and pinned by a golden test.
import { hashValue } from "../ledger/canonicalJson";
import { ROUTE_CATALOGUE } from "./routes";

export const ADAPTER_CHECKPOINT_DOMAIN = "developer/v8/runtime-adapter-checkpoint";

// Tool names as the reference adapter spells them; they are part of the hashed table.
export const OPEN_JUDGMENT_OPERATION = "developer_open_judgment";
export const OPEN_CONTEXT_SOURCES_OPERATION = "developer_open_context_sources";
export const CONCLUDE_JUDGMENT_OPERATION = "developer_conclude_judgment";
export const AUTHORIZE_CHANGE_OPERATION = "developer_authorize_change";
export const RECORD_LANDING_OPERATION = "developer_record_landing";
export const DEVELOPER_ON_OPERATION = "/developer on";

export type SourceOperation =
  | typeof DEVELOPER_ON_OPERATION
  | typeof OPEN_JUDGMENT_OPERATION
  | typeof OPEN_CONTEXT_SOURCES_OPERATION
  | typeof CONCLUDE_JUDGMENT_OPERATION
  | typeof AUTHORIZE_CHANGE_OPERATION
  | typeof RECORD_LANDING_OPERATION;

export type FrameEffect =
  | "none"
  | "open-explicit-frame"
  | "preserve-open-frame"
  | "propose-guarded-conclusion"
  | "require-concluded-frame"
  | "declare-reroute-and-verification-debt";

export type SkillEffect = "none" | "candidate-only-0..N" | "candidate-support-only";

export type RootEffect = "establish-work-scope" | "observe-only" | "authorize-separately" | "record-landing-only";

export interface OperationMapping {
  readonly sourceOperation: SourceOperation;
  readonly frameEffect: FrameEffect;
  readonly skillEffect: SkillEffect;
  readonly rootEffect: RootEffect;
  /** Always false: a mapping describes an operation, it never transitions state by itself. */
  readonly performsTransition: false;
}

function mapping(
  sourceOperation: SourceOperation,
  frameEffect: FrameEffect,
  skillEffect: SkillEffect,
  rootEffect: RootEffect,
): OperationMapping {
  return Object.freeze({ sourceOperation, frameEffect, skillEffect, rootEffect, performsTransition: false as const });
}

/** The six rows, in the order the checkpoint hashes them. */
export const OPERATION_MAPPINGS: readonly OperationMapping[] = Object.freeze([
  mapping(DEVELOPER_ON_OPERATION, "none", "none", "establish-work-scope"),
  mapping(OPEN_JUDGMENT_OPERATION, "open-explicit-frame", "candidate-only-0..N", "observe-only"),
  mapping(OPEN_CONTEXT_SOURCES_OPERATION, "preserve-open-frame", "candidate-only-0..N", "observe-only"),
  mapping(CONCLUDE_JUDGMENT_OPERATION, "propose-guarded-conclusion", "candidate-support-only", "observe-only"),
  mapping(AUTHORIZE_CHANGE_OPERATION, "require-concluded-frame", "none", "authorize-separately"),
  mapping(RECORD_LANDING_OPERATION, "declare-reroute-and-verification-debt", "none", "record-landing-only"),
]);

const mappingsByOperation: ReadonlyMap<string, OperationMapping> = new Map(
  OPERATION_MAPPINGS.map((row) => [row.sourceOperation, row]),
);

export function findOperationMapping(operation: string): OperationMapping | undefined {
  return mappingsByOperation.get(operation);
}

/** The exact value hashed; exported so a test can show what the golden covers. */
export function adapterCheckpointValue(): {
  domain: string;
  routeDefinitions: { routeDefinitionId: string; revisionSha256: string }[];
  operationMappings: OperationMapping[];
} {
  return {
    domain: ADAPTER_CHECKPOINT_DOMAIN,
    // Only id + revision: the revision already commits to the sign and sense.
    routeDefinitions: ROUTE_CATALOGUE.map((route) => ({
      routeDefinitionId: route.routeDefinitionId,
      revisionSha256: route.revisionSha256,
    })),
    operationMappings: OPERATION_MAPPINGS.map((row) => ({ ...row })),
  };
}

/** Golden (§2.5): c8c7f2378a29ed4f3912b1dd0c74781886163743a0a43c432c6bcb70c046a478. */
export const ADAPTER_REVISION_SHA256: string = hashValue(adapterCheckpointValue());
