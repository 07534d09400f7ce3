// The one definition of every `docket/*` JSON-RPC message exchanged by the extension and the
// backend. Both sides validate with these schemas; strict objects reject unknown fields so a
// mismatched client and server fail loudly instead of silently dropping data.
import * as z from "zod";

const sha256 = z.string().regex(/^[a-f0-9]{64}$/u);
const nonNegativeInt = z.number().int().nonnegative();

export const Phase = z.enum([
  "off",
  "deciding",
  "ready-to-edit",
  "editing",
  "rerouting",
  "verifying",
  "done",
  "blocked",
]);
export type Phase = z.infer<typeof Phase>;

export const HistoryMode = z.enum(["empty", "v8-active", "v8-closed", "blocked"]);
export type HistoryMode = z.infer<typeof HistoryMode>;

export const ScopeSummary = z.strictObject({
  workScopeId: z.string(),
  status: z.enum(["open", "closed"]),
  head: nonNegativeInt,
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  openedEventSha256: sha256,
});
export type ScopeSummary = z.infer<typeof ScopeSummary>;

export const LedgerHealth = z.strictObject({
  path: z.string(),
  exists: z.boolean(),
  bytes: nonNegativeInt,
  lines: nonNegativeInt,
  accepted: nonNegativeInt,
  rejected: nonNegativeInt,
  tornTailBytes: nonNegativeInt,
  /** First problem that makes the ledger unusable for writing, if any. */
  problem: z
    .strictObject({ code: z.string(), message: z.string(), line: nonNegativeInt.nullable() })
    .nullable(),
});
export type LedgerHealth = z.infer<typeof LedgerHealth>;

export const Status = z.strictObject({
  /** Absolute workspace folder, or null when the window has no folder. */
  workspaceFolder: z.string().nullable(),
  trusted: z.boolean(),
  phase: Phase,
  historyMode: HistoryMode,
  blockedReason: z.string().nullable(),
  activeScope: ScopeSummary.nullable(),
  scopes: z.array(ScopeSummary),
  ledger: LedgerHealth.nullable(),
  /** Changes whenever the accepted history changes; lets views detect staleness cheaply. */
  revision: z.string(),
  receiptCount: nonNegativeInt,
  projectionSha256: sha256,
});
export type Status = z.infer<typeof Status>;

export const Empty = z.strictObject({});

export const WriteResult = z.strictObject({
  protocol: z.literal("developer/v8-result"),
  workScopeId: z.string().nullable(),
  eventIds: z.array(z.string()),
  runtime: z.strictObject({
    state: z.enum(["blocked", "authorized", "frame", "idle", "inactive"]),
    reroutePending: z.boolean(),
    verificationPending: z.boolean(),
  }),
  nextAction: z.string().nullable(),
});
export type WriteResult = z.infer<typeof WriteResult>;

export const TurnOffParams = z.strictObject({
  reason: z.string().trim().min(1).max(4000).optional(),
});

const OperationText = z.string().trim().min(1).max(4000);
const OperationId = z.string().regex(/^[A-Za-z][A-Za-z0-9._:/-]*$/u).max(160);

export const OpenJudgmentParams = z.strictObject({
  /** Optional echo of the derived decision purpose; when present it must match. */
  purpose: z.enum(["work-decision", "reroute-decision", "verification-decision"]).optional(),
  routeDefinitionId: OperationId,
  question: OperationText,
  obligations: z.array(z.strictObject({ obligationId: OperationId, statement: OperationText })).min(1).max(100),
});
export type OpenJudgmentParams = z.infer<typeof OpenJudgmentParams>;

export const ConcludeJudgmentParams = z.discriminatedUnion("disposition", [
  z.strictObject({
    disposition: z.literal("not-applicable"),
    reason: OperationText,
    basis: z.array(OperationText).min(1).max(32),
  }),
  z.strictObject({
    disposition: z.literal("judgment"),
    outcome: z.discriminatedUnion("kind", [
      z.strictObject({
        kind: z.literal("contextual-judgment"),
        rationale: OperationText,
        artifact: OperationText,
        stopEvidence: z.array(OperationText).min(1).max(32),
      }),
      z.strictObject({
        kind: z.literal("needs-evidence"),
        evidenceNeeded: z.array(OperationText).min(1).max(32),
        resolutionOwner: OperationText,
      }),
    ]),
  }),
]);
export type ConcludeJudgmentParams = z.infer<typeof ConcludeJudgmentParams>;

export const AuthorizeChangeParams = z.strictObject({
  movement: OperationText,
  stableLanding: OperationText,
  verificationTarget: OperationText,
});
export type AuthorizeChangeParams = z.infer<typeof AuthorizeChangeParams>;

export const RecordLandingParams = z.strictObject({
  /** With Git: optional confirmation that must equal the observed delta. Without Git: required. */
  changedPaths: z.array(z.string().min(1).max(4096)).min(1).max(200).optional(),
  result: OperationText,
  verification: z.array(OperationText).max(100).default([]),
});
export type RecordLandingParams = z.input<typeof RecordLandingParams>;

export const ReceiptRow = z.strictObject({
  ordinal: nonNegativeInt,
  kind: z.string(),
  workScopeId: z.string(),
  eventId: z.string(),
  scopeSequence: nonNegativeInt,
  storedIndex: nonNegativeInt,
  eventSha256: sha256,
  receiptSha256: sha256,
  occurredAt: z.string(),
  /** The receipt body fields (ids, counts and hashes only; never free text). */
  summary: z.record(z.string(), z.unknown()),
});
export type ReceiptRow = z.infer<typeof ReceiptRow>;

export const ReceiptsPageParams = z.strictObject({
  /** Opaque cursor from a previous page; null for the first page. */
  cursor: z.string().max(200).nullable(),
  pageSize: z.number().int().min(1).max(100).default(100),
  /** Without a cursor: the page holding the oldest ("start") or the newest ("end") receipts. */
  from: z.enum(["start", "end"]).default("start"),
});
export type ReceiptsPageParams = z.input<typeof ReceiptsPageParams>;

export const ReceiptsPage = z.strictObject({
  projectionSha256: sha256,
  receiptCount: nonNegativeInt,
  startOrdinal: nonNegativeInt,
  receipts: z.array(ReceiptRow).max(100),
  nextCursor: z.string().nullable(),
  previousCursor: z.string().nullable(),
  pageSha256: sha256,
});
export type ReceiptsPage = z.infer<typeof ReceiptsPage>;

export const LedgerFault = z.strictObject({
  line: nonNegativeInt,
  index: nonNegativeInt.nullable(),
  code: z.string(),
  message: z.string(),
});

export const VerifyResult = z.strictObject({
  ok: z.boolean(),
  path: z.string(),
  lines: nonNegativeInt,
  accepted: nonNegativeInt,
  rejected: nonNegativeInt,
  firstFault: LedgerFault.nullable(),
  tornTailBytes: nonNegativeInt,
  headLineSha256: sha256.nullable(),
});
export type VerifyResult = z.infer<typeof VerifyResult>;

const ProtocolOperation = z.enum(["open_judgment", "open_context_sources", "conclude_judgment", "authorize_change", "record_landing"]);

export const ToolPolicyResult = z.strictObject({
  governing: z.boolean(),
  legalOperations: z.array(ProtocolOperation),
  nextAction: ProtocolOperation.nullable(),
  shell: z.enum(["allow", "deny"]),
  edit: z.enum(["allow", "deny"]),
  reason: z.string().nullable(),
  phase: Phase,
  workScopeId: z.string().nullable(),
});
export type ToolPolicyResult = z.infer<typeof ToolPolicyResult>;

/** A request: one method name, one params schema, one result schema. */
export interface RequestDefinition<P extends z.ZodType, R extends z.ZodType> {
  readonly method: string;
  readonly params: P;
  readonly result: R;
}

function request<P extends z.ZodType, R extends z.ZodType>(
  method: string,
  params: P,
  result: R,
): RequestDefinition<P, R> {
  return Object.freeze({ method, params, result });
}

export const Requests = {
  status: request("docket/status", Empty, Status),
  turnOn: request("docket/turnOn", Empty, WriteResult),
  turnOff: request("docket/turnOff", TurnOffParams, WriteResult),
  receiptsPage: request("docket/receipts/page", ReceiptsPageParams, ReceiptsPage),
  verifyLedger: request("docket/ledger/verify", Empty, VerifyResult),
  policy: request("docket/policy", Empty, ToolPolicyResult),
  openJudgment: request("docket/openJudgment", OpenJudgmentParams, WriteResult),
  concludeJudgment: request("docket/concludeJudgment", ConcludeJudgmentParams, WriteResult),
  authorizeChange: request("docket/authorizeChange", AuthorizeChangeParams, WriteResult),
  recordLanding: request("docket/recordLanding", RecordLandingParams, WriteResult),
} as const;

export const Notifications = {
  /** Sent by the backend whenever the status it would answer changes. */
  stateChanged: Object.freeze({ method: "docket/stateChanged", params: Status }),
} as const;

/** Initialization options the extension passes to the backend (LSP `initializationOptions`). */
export const BackendInitOptions = z.strictObject({
  workspaceFolder: z.string().nullable(),
  ledgerPath: z.string().nullable(),
  trusted: z.boolean(),
});
export type BackendInitOptions = z.infer<typeof BackendInitOptions>;

/** The `data` of every JSON-RPC error the backend returns: a stable code plus a sentence. */
export const DocketErrorData = z.strictObject({
  code: z.string(),
  message: z.string(),
});
export type DocketErrorData = z.infer<typeof DocketErrorData>;

/** Error codes shared by backend, CLI and UI. */
export const ErrorCodes = {
  invalidParams: "docket.invalid-params",
  noWorkspace: "docket.no-workspace",
  untrusted: "docket.untrusted-workspace",
  ledgerLocked: "docket.ledger-locked",
  ledgerUnwritable: "docket.ledger-unwritable",
  ledgerForeign: "docket.ledger-foreign",
  ledgerCorrupt: "docket.ledger-corrupt",
  historyBlocked: "docket.history-blocked",
  alreadyOn: "docket.already-on",
  alreadyOff: "docket.already-off",
  preflightRejected: "docket.preflight-rejected",
  staleCursor: "docket.stale-cursor",
  invalidCursor: "docket.invalid-cursor",
  operationNotLegal: "docket.operation-not-legal",
  purposeMismatch: "docket.purpose-mismatch",
  unknownRoute: "docket.unknown-route",
  verificationRouteRequired: "docket.verification-route-required",
  needsEvidence: "docket.needs-evidence",
  baselineMissing: "docket.baseline-missing",
  // Git reconciliation refusals (values equal WorkspaceErrorCodes in developer/workspaceDelta.ts).
  changedBeforeAuthorization: "docket.workspace-changed-before-authorization",
  gitHeadChanged: "docket.git-head-changed",
  identityChanged: "docket.workspace-identity-changed",
  workspaceUnavailable: "docket.workspace-unavailable",
  landingEmpty: "docket.landing-empty",
  landingPathsMismatch: "docket.landing-paths-mismatch",
  landingPathsRequired: "docket.landing-paths-required",
  landingPathsInvalid: "docket.landing-paths-invalid",
  internal: "docket.internal",
} as const;
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
