// The one definition of every `docket/*` JSON-RPC message exchanged by the extension and the
// backend. Both sides validate with these schemas; strict objects reject unknown fields so a
// mismatched client and server fail loudly instead of silently dropping data.
import * as z from "zod";
import { EVENT_KINDS } from "./eventKindNames";
import { ExecutionMode, Plan } from "../router/planSchema";
// Constants only (no runtime imports there): the webviews bundle this module for the browser.
import { OBSERVER_CUSTOM_TYPES } from "../observer/observerCustomTypes";
import { GUARD_MODES, REMAINING_KINDS, REVIEW_CHECK_STATUSES } from "../guard/guardDecision";

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

/** Who wrote a batch (kept beside the ledger, never in it): the Work view's "driven by". */
export const Actor = z.strictObject({
  /** How the writer reached Docket. */
  kind: z.enum(["vscode", "mcp", "terminal", "hook"]),
  /** The client program, e.g. the MCP client's name and version. */
  client: z.string().max(200).nullable(),
  /** The agent session or connection, when the writer knows one. */
  session: z.string().max(200).nullable(),
});
export type Actor = z.infer<typeof Actor>;

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

export const StatusSource = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("workspace") }),
  z.strictObject({
    kind: z.literal("pi-session"),
    /** Absolute path of the session file. */
    path: z.string(),
    /** Entries on the session's active branch (the history shown). */
    entries: nonNegativeInt,
  }),
]);
export type StatusSource = z.infer<typeof StatusSource>;

/** The developer/v8 operations (§9.1), as the protocol names them. */
const ProtocolOperation = z.enum(["open_judgment", "open_context_sources", "conclude_judgment", "authorize_change", "record_landing"]);
export type ProtocolOperationName = z.infer<typeof ProtocolOperation>;

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
  /** Where the shown history comes from: the workspace ledger, or a Pi session opened read-only. */
  source: StatusSource,
  /** The operations legal right now (§9.1), in order; the first is the next step. Empty when none is. */
  legalOperations: z.array(ProtocolOperation),
  /**
   * Present while the backend answers from the verified snapshot and still reads the history
   * (docs/performance.md "Extension start on a large ledger"). Exact then: revision, phase,
   * historyMode, blockedReason, activeScope, legalOperations, ledger path/bytes/lines/tornTailBytes.
   * Not yet known, and not to be shown as facts: scopes (the open ones only), receiptCount and
   * projectionSha256 (those of no receipts), ledger accepted/rejected/problem.
   */
  stillReading: z.literal(true).optional(),
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
  /** Optional owning bundled skill (developer/v8 §3.3 a, §4.5); without it Docket owns the frame. */
  ownerSkill: z
    .strictObject({
      skillName: z.string().trim().min(1).max(64),
      targetObligationIds: z.array(OperationId).min(1).max(100).optional(),
      subquestion: OperationText,
      expectedContribution: OperationText,
      limitations: z.array(OperationText).max(32).optional(),
    })
    .optional(),
});
export type OpenJudgmentParams = z.infer<typeof OpenJudgmentParams>;

/** A context source the open frame may use: another bundled skill, or a prepared reference of the owner. */
export const ContextSourceListing = z.strictObject({
  inventorySourceId: z.string(),
  kind: z.enum(["skill", "prepared-reference"]),
  title: z.string(),
  /** Package-relative path of the skill file or the reference. */
  path: z.string(),
});
export type ContextSourceListing = z.infer<typeof ContextSourceListing>;

export const OpenJudgmentResult = WriteResult.extend({
  routeSign: z.string(),
  /** The owner's method text (its SKILL.md body) and invocation, or null when Docket owns the frame. */
  owner: z
    .strictObject({ skillName: z.string(), method: z.string(), assignmentId: z.string(), invocationId: z.string() })
    .nullable(),
  /** Skills to open with docket/openContextSources, and prepared references to nominate at conclusion. */
  contextSources: z.array(ContextSourceListing),
});
export type OpenJudgmentResult = z.infer<typeof OpenJudgmentResult>;

/** A bundled skill and its relation to the open frame (owner, opened as context, or available). */
export const SkillEntry = z.strictObject({
  skillName: z.string(),
  description: z.string(),
  inventorySourceId: z.string(),
  role: z.enum(["owner", "opened", "available"]),
});

export const SkillsResult = z.strictObject({ skills: z.array(SkillEntry) });
export type SkillsResult = z.infer<typeof SkillsResult>;

export const OpenContextSourcesParams = z.strictObject({
  inventorySourceIds: z
    .array(OperationId)
    .min(1)
    .max(4)
    .refine((ids) => new Set(ids).size === ids.length, { message: "inventory source ids must be unique" }),
});
export type OpenContextSourcesParams = z.infer<typeof OpenContextSourcesParams>;

export const OpenContextSourcesResult = WriteResult.extend({
  opened: z.array(z.strictObject({ inventorySourceId: z.string(), skillName: z.string(), method: z.string() })),
  /** Ids not written again: already opened in this scope, or the frame's owner itself. */
  skipped: z.array(z.strictObject({ inventorySourceId: z.string(), reason: z.enum(["already-open", "owner"]) })),
});
export type OpenContextSourcesResult = z.infer<typeof OpenContextSourcesResult>;

const ShortText = z.string().trim().min(1).max(2000);
const TextList = z.array(OperationText).min(1).max(32);

const ContextApplicability = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("applicable"), basis: TextList }),
  z.strictObject({ kind: z.literal("not-applicable"), reason: OperationText, evidence: TextList }),
  z.strictObject({ kind: z.literal("needs-context"), missingContext: TextList }),
]);

const ContextNomination = z.discriminatedUnion("kind", [
  z.strictObject({
    nominationId: OperationId,
    kind: z.literal("inventory-source"),
    inventorySourceId: OperationId.optional(),
    provenancePath: z.string().min(1).max(4096).optional(),
    contentSha256: sha256.optional(),
  }),
  z.strictObject({ nominationId: OperationId, kind: z.literal("tool-result"), branchResultId: OperationId }),
  z.strictObject({ nominationId: OperationId, kind: z.literal("user-decision") }),
]);

const UseAs = z.enum(["constraint", "evidence", "decision", "method", "guidance"]);
const CoverageContribution = z.discriminatedUnion("assurance", [
  z.strictObject({ nominationId: OperationId, useAs: UseAs, contribution: ShortText, assurance: z.literal("agent-asserted") }),
  z.strictObject({
    nominationId: OperationId,
    useAs: UseAs,
    contribution: ShortText,
    assurance: z.literal("domain-verified"),
    evaluator: z.strictObject({ id: OperationId, version: z.string().trim().min(1).max(128) }),
    evidenceNominationIds: z.array(OperationId).min(1).max(64),
  }),
  z.strictObject({ nominationId: OperationId, useAs: UseAs, contribution: ShortText, assurance: z.literal("user-accepted") }),
]);

const ContextCoverage = z.strictObject({
  status: z.enum(["sufficient", "needs-evidence"]),
  contributions: z.array(CoverageContribution).max(64),
  conflicts: z.array(z.strictObject({ nominationIds: z.array(OperationId).min(2).max(64), description: ShortText })).max(64).default([]),
  limitations: z.array(z.strictObject({ nominationIds: z.array(OperationId).max(64), description: ShortText })).max(64).default([]),
});

export const ConcludeJudgmentParams = z.discriminatedUnion("disposition", [
  z.strictObject({
    disposition: z.literal("not-applicable"),
    reason: OperationText,
    basis: z.array(OperationText).min(1).max(32),
  }),
  z.strictObject({
    disposition: z.literal("judgment"),
    // The Judgment engine inputs (developer/v8 §3.3 c, judgment.md §5–§8). Optional as a group:
    // without them Docket records the judgment on its own basis (docs/operations.md).
    applicability: ContextApplicability.optional(),
    nominations: z.array(ContextNomination).max(256).optional(),
    selectionBasis: TextList.optional(),
    coverage: ContextCoverage.optional(),
    outcome: z.discriminatedUnion("kind", [
      z.strictObject({
        kind: z.literal("contextual-judgment"),
        citedUses: z
          .array(z.strictObject({ contributionIndex: z.number().int().min(0).max(255), locator: ShortText.optional(), artifactEffect: ShortText }))
          .max(64)
          .optional(),
        rationale: OperationText,
        artifact: OperationText,
        stopEvidence: z.array(OperationText).min(1).max(32),
      }),
      z.strictObject({
        kind: z.literal("needs-evidence"),
        evidenceNeeded: z.array(OperationText).min(1).max(32),
        resolutionOwner: OperationText,
        artifact: OperationText.optional(),
      }),
      z.strictObject({
        kind: z.literal("emergent-question"),
        question: ShortText,
        reason: OperationText,
        artifact: OperationText,
        stopEvidence: z.array(OperationText).min(1).max(32),
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

/** The 18 developer/v8 event kinds. */
export const ReceiptKind = z.enum(EVENT_KINDS);
export type ReceiptKind = z.infer<typeof ReceiptKind>;

export const ReceiptsPageParams = z.strictObject({
  /** Opaque cursor from a previous page; null for the first page. */
  cursor: z.string().max(200).nullable(),
  pageSize: z.number().int().min(1).max(100).default(100),
  /** Without a cursor: the page holding the oldest ("start") or the newest ("end") receipts. */
  from: z.enum(["start", "end"]).default("start"),
  /** Only receipts of these kinds. A cursor is valid only with the filter it was issued under. */
  kinds: z.array(ReceiptKind).min(1).max(18).optional(),
  /** Instead of a cursor (which must then be null): the page holding this event's receipt. */
  containing: sha256.optional(),
});
export type ReceiptsPageParams = z.input<typeof ReceiptsPageParams>;

export const ReceiptKindCount = z.strictObject({ kind: z.string(), count: nonNegativeInt });

export const ReceiptsPage = z.strictObject({
  projectionSha256: sha256,
  receiptCount: nonNegativeInt,
  /** The kind filter the page was read with (sorted, unique), or null. */
  kinds: z.array(ReceiptKind).nullable(),
  /** Receipts passing the filter (= receiptCount without one). */
  matchingCount: nonNegativeInt,
  /** Position of the first row among the matching receipts. */
  startPosition: nonNegativeInt,
  startOrdinal: nonNegativeInt,
  /** Reads this same page again (same projection and filter); null for an empty page. */
  pageCursor: z.string().nullable(),
  receipts: z.array(ReceiptRow).max(100),
  nextCursor: z.string().nullable(),
  previousCursor: z.string().nullable(),
  pageSha256: sha256,
  /** Receipts per kind over the whole projection (kinds present only). */
  kindCounts: z.array(ReceiptKindCount).max(18),
});
export type ReceiptsPage = z.infer<typeof ReceiptsPage>;

export const ReceiptDetailParams = z.strictObject({
  /** The receipt's event hash (unique in the projection; ordinals shift when a ledger is replaced). */
  eventSha256: sha256,
});
export type ReceiptDetailParams = z.infer<typeof ReceiptDetailParams>;

/** A causal ref or previous-scope link, resolved to the receipt it points at. */
export const ReceiptLink = z.strictObject({
  workScopeId: z.string(),
  /** Null only for a previous-scope link that does not resolve. */
  eventId: z.string().nullable(),
  eventSha256: sha256,
  /** Ordinal of the target receipt; null when it is not in the accepted projection. */
  ordinal: nonNegativeInt.nullable(),
  kind: z.string().nullable(),
});
export type ReceiptLink = z.infer<typeof ReceiptLink>;

export const ReceiptDetail = z.strictObject({
  /** The projection the ordinals below belong to. */
  projectionSha256: sha256,
  receipt: ReceiptRow,
  /** Exactly the canonical JSON that was hashed: SHA-256 of its UTF-8 bytes = receipt.eventSha256. */
  canonicalJson: z.string(),
  causalRefs: z.array(ReceiptLink).max(100),
  previousScopeEvent: ReceiptLink.nullable(),
  /** Who wrote the event's batch and which captured evidence it nominated (beside the ledger; null: unknown). */
  provenance: z.strictObject({ actor: Actor, nominations: z.array(z.string()) }).nullable(),
});
export type ReceiptDetail = z.infer<typeof ReceiptDetail>;

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
  /** For a truncation: the missing lines, 1-based and inclusive. */
  missingLines: z.strictObject({ from: z.number().int().positive(), to: z.number().int().positive() }).nullable(),
  /**
   * The head anchor beside the ledger: `none` (no Docket write since anchors exist, so lines cut
   * from the end cannot be noticed yet), `matched`, `mismatched` (firstFault says how) or `invalid`.
   */
  anchor: z.enum(["none", "matched", "mismatched", "invalid"]),
  /** The ledger against its version committed at HEAD, when Git tracks it (docs/ledger-format.md). */
  git: z.strictObject({
    state: z.enum(["matched", "mismatched", "untracked", "unavailable"]),
    commit: z.string().nullable(),
    note: z.string().nullable(),
  }),
});
export type VerifyResult = z.infer<typeof VerifyResult>;

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

const DecisionPurposeSchema = z.enum(["work-decision", "reroute-decision", "verification-decision"]);


/** One obligation of a frame and how far it got: discharged, blocked by a blocker, or still open. */
export const WorkObligation = z.strictObject({
  obligationId: z.string(),
  statement: z.string(),
  state: z.enum(["discharged", "blocked", "open"]),
  /**
   * What settled a discharged obligation (null otherwise): the admitted contributions its discharge
   * cites and its stop evidence; `withConclusion` when the frame's conclusion recorded it (the
   * conclude operation discharges every obligation in the same batch as the conclusion).
   */
  settledBy: z
    .strictObject({ contributionIds: z.array(z.string()), stopEvidence: z.array(z.string()), withConclusion: z.boolean() })
    .nullable(),
});

export const WorkFrame = z.strictObject({
  frameId: z.string(),
  frameRevision: nonNegativeInt,
  /** Which decision the frame serves: ordinary work, or clearing a landing's reroute/verification debt. */
  role: z.enum(["work", "reroute", "verification"]),
  routeDefinitionId: z.string(),
  /** The route's human sign, or null for a route outside the stable catalogue (replayed logs). */
  routeSign: z.string().nullable(),
  question: z.string(),
  status: z.enum(["open", "concluded"]),
  obligations: z.array(WorkObligation),
  blockers: z.array(z.strictObject({ blockerId: z.string(), kind: z.string(), targetObligationIds: z.array(z.string()) })),
  contributions: z.array(z.strictObject({ contributionId: z.string(), sourceKind: z.string(), sourceId: z.string(), claim: z.string() })),
  /** The owning Skill when routing assigned one. */
  owner: z
    .strictObject({
      skillName: z.string(),
      status: z.enum(["ready", "active", "settled"]),
      /** The subquestion and expected contribution the assignment gave the Skill (as typed when the frame was opened). */
      subquestion: z.string(),
      expectedContribution: z.string(),
    })
    .nullable(),
  conclusion: z.strictObject({ text: z.string(), eventSha256: sha256 }).nullable(),
  /** Conclusions recorded without resolving anything (needs evidence, emergent question) and no owner to settle. */
  unresolvedAttempts: nonNegativeInt,
  /** Who opened the frame, when Docket recorded it (null: unknown, e.g. written by another tool). */
  drivenBy: Actor.nullable(),
});
export type WorkFrame = z.infer<typeof WorkFrame>;

export const WorkLanding = z.strictObject({
  landingId: z.string(),
  authorizationId: z.string(),
  changedPaths: z.array(z.string()),
  result: z.string(),
  verification: z.array(z.string()),
  eventSha256: sha256,
  reroutePending: z.boolean(),
  verificationPending: z.boolean(),
  rerouteFrameId: z.string(),
  verificationFrameId: z.string(),
});
export type WorkLanding = z.infer<typeof WorkLanding>;

/** The active scope's frames, authorization, landings and debts, as the Work view shows them. */
export const WorkState = z.strictObject({
  phase: Phase,
  workScopeId: z.string().nullable(),
  /** The purpose the next judgment must serve (reroute before verification before work). */
  purpose: DecisionPurposeSchema.nullable(),
  legalOperations: z.array(ProtocolOperation),
  nextAction: ProtocolOperation.nullable(),
  frames: z.array(WorkFrame),
  authorization: z
    .strictObject({
      authorizationId: z.string(),
      frameId: z.string(),
      movement: z.string(),
      stableLanding: z.string(),
      verificationTarget: z.string(),
    })
    .nullable(),
  landings: z.array(WorkLanding),
  /**
   * Closed scopes with their frames and landings: the Work view's History, shown while off too. By
   * scope id, as replay lists them; in `docket/workState`'s answer only the newest page of them
   * (WorkHistoryPage's order), the rest from `docket/workHistory/page` with `historyNextCursor`.
   */
  history: z.array(z.strictObject({ workScopeId: z.string(), frames: z.array(WorkFrame), landings: z.array(WorkLanding) })),
  /** The cursor of the next, older History page; absent or null when `history` holds them all. */
  historyNextCursor: z.string().nullable().optional(),
  /** As Status.stillReading: `history` is empty and the frames' `drivenBy` is not yet known. */
  stillReading: z.literal(true).optional(),
});
export type WorkState = z.infer<typeof WorkState>;
export type WorkHistoryEntry = WorkState["history"][number];

/** A History cursor: the page's first position (newest first) in the status revision it was cut from. */
export const WorkHistoryCursor = z.string().regex(/^wh1:(0|[1-9][0-9]{0,8}):[0-9a-f]{64}$/u, "not a History cursor");
export const WorkHistoryPageParams = z.strictObject({
  /** A `historyNextCursor` or `nextCursor` as given; anything else is refused with `docket.invalid-cursor`. */
  cursor: z.string().max(200),
  pageSize: z.int().min(1).max(200),
});
export type WorkHistoryPageParams = z.infer<typeof WorkHistoryPageParams>;
/** Older closed scopes of the Work view's History, newest first (closedAt, then scope id, descending). */
export const WorkHistoryPage = z.strictObject({
  revision: z.string(),
  entries: z.array(WorkState.shape.history.element),
  /** Closed scopes in the whole History. */
  total: nonNegativeInt,
  nextCursor: WorkHistoryCursor.nullable(),
});
export type WorkHistoryPage = z.infer<typeof WorkHistoryPage>;

export const EvidenceShowParams = z.strictObject({
  /** A captured tool result's handle, as conclusions nominate it. */
  branchResultId: z.string().regex(/^branch-result-[0-9a-f]{16}$/u),
});

/** A captured tool result as stored (already redacted and bounded), for reading it in an editor. */
export const CapturedEvidence = z.strictObject({
  branchResultId: z.string(),
  toolName: z.string(),
  isError: z.boolean(),
  truncated: z.boolean(),
  /** Text parts joined by blank lines; non-text parts are described, never inlined. */
  text: z.string(),
});
export type CapturedEvidence = z.infer<typeof CapturedEvidence>;

export const LandingBaselineParams = z.strictObject({
  landingId: z.string().min(1).max(200),
  path: z.string().min(1).max(4096),
});

/** A landed path's content before the change, for a diff against the working tree. */
export const LandingBaseline = z.strictObject({
  path: z.string(),
  absolutePath: z.string(),
  /** "git-head": the file at the authorization's HEAD; "absent": it did not exist; "unavailable": see note. */
  source: z.enum(["git-head", "absent", "unavailable"]),
  content: z.string().nullable(),
  note: z.string().nullable(),
});
export type LandingBaseline = z.infer<typeof LandingBaseline>;

export const PiSessionOpenParams = z.strictObject({
  /** Absolute path of a Pi session file (JSON Lines). */
  path: z.string().min(1).max(4096),
});
export type PiSessionOpenParams = z.infer<typeof PiSessionOpenParams>;

// Agent installers (docs/agents.md): the backend plans and applies changes to agent host configs.
export const AgentHost = z.enum(["claude", "codex"]);
export type AgentHost = z.infer<typeof AgentHost>;

/** A tool name the user adds to the hooks' read-only allowlist (the installers refuse shell, edit and Docket tools). */
const ReadOnlyToolName = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/u);

export const AgentHostParams = z.strictObject({
  host: AgentHost,
  /** The user's read-only tools (VS Code setting `docket.agents.readOnlyTools`), written into the hook commands. */
  readOnlyTools: z.array(ReadOnlyToolName).max(256).optional(),
});
export type AgentHostParams = z.infer<typeof AgentHostParams>;

/** One file an install would change: its absolute path and full text before/after (null = absent). */
export const AgentPlanFile = z.strictObject({
  path: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type AgentPlanFile = z.infer<typeof AgentPlanFile>;

export const AgentPlan = z.strictObject({
  host: AgentHost,
  /** Only the files that would change; empty when the host is already connected. */
  files: z.array(AgentPlanFile),
  /** What the user must still do afterwards. */
  notes: z.array(z.string()),
  /** Identifies this exact plan; `docket/agents/apply` refuses if a re-plan differs. */
  planSha256: sha256,
});
export type AgentPlan = z.infer<typeof AgentPlan>;

export const AgentApplyParams = z.strictObject({ host: AgentHost, planSha256: sha256, readOnlyTools: z.array(ReadOnlyToolName).max(256).optional() });
export type AgentApplyParams = z.infer<typeof AgentApplyParams>;

/** `docket connect|disconnect git` as a plan (server/team/gitConnect.ts): files, repo-local config values, notes. */
export const GitConnectMode = z.enum(["connect", "disconnect"]);
export const GitPlanParams = z.strictObject({ mode: GitConnectMode });
export const GitApplyParams = z.strictObject({ mode: GitConnectMode, planSha256: sha256 });
export const GitPlan = z.strictObject({
  target: z.literal("git"),
  files: z.array(z.strictObject({ path: z.string(), before: z.string().nullable(), after: z.string().nullable(), executable: z.boolean() })),
  config: z.array(z.strictObject({ key: z.string(), before: z.string().nullable(), after: z.string().nullable() })),
  notes: z.array(z.string()),
  planSha256: sha256,
});
export type GitPlan = z.infer<typeof GitPlan>;

export const AgentHeartbeat = z.strictObject({
  event: z.string(),
  sessionId: z.string().nullable(),
  at: z.string(),
});
export type AgentHeartbeat = z.infer<typeof AgentHeartbeat>;

export const AgentHostStatus = z.strictObject({
  host: AgentHost,
  /** Every Docket entry is in place (hooks and MCP server). */
  installed: z.boolean(),
  /** Some but not all Docket entries are in place. */
  partial: z.boolean(),
  files: z.array(z.strictObject({ path: z.string(), entries: z.array(z.string()) })),
  /** The latest hook invocation recorded for this host, if any. */
  heartbeat: AgentHeartbeat.nullable(),
  /** A config file Docket cannot read, with its coded reason; null when all are readable. */
  problem: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
});
export type AgentHostStatus = z.infer<typeof AgentHostStatus>;

export const AgentsStatus = z.strictObject({ hosts: z.array(AgentHostStatus) });
export type AgentsStatus = z.infer<typeof AgentsStatus>;

/** `docket/plan`: a task sentence (validated by the Router itself: `docket.task-invalid`) and an optional forced mode. */
export const PlanParams = z.strictObject({
  // Generous transport bound only; the Router's own limit (4000 UTF-16 units) answers with its code.
  task: z.string().max(65_536),
  mode: ExecutionMode.nullable().optional(),
});
export type PlanParams = z.infer<typeof PlanParams>;

// Notebook (docs/notebook.md): setup, health, pending proposals and their all-or-nothing publication.
// The backend answers from server/notebook; the extension only shows what it says.
export const NotebookLanguage = z.enum(["en", "ko"]);
export type NotebookLanguage = z.infer<typeof NotebookLanguage>;

/** The notebook path exactly as the user gave it (setting or picker); the backend applies the path rules. */
const notebookPathInput = z.string().min(1).max(4096);

export const NotebookStatusParams = z.strictObject({ notebookPath: notebookPathInput.nullable() });
export type NotebookStatusParams = z.infer<typeof NotebookStatusParams>;

export const NotebookProblem = z.strictObject({ code: z.string(), message: z.string() });
export type NotebookProblem = z.infer<typeof NotebookProblem>;

export const NotebookStatus = z.strictObject({
  /** `not-configured`: no path set; `missing`: no notebook there yet; `unusable`: see `problem`. */
  health: z.enum(["ok", "not-configured", "missing", "unusable", "recovery-required"]),
  /** Absolute, canonical root when the path could be resolved. */
  root: z.string().nullable(),
  notebookId: z.string().nullable(),
  language: NotebookLanguage.nullable(),
  records: nonNegativeInt,
  problem: NotebookProblem.nullable(),
});
export type NotebookStatus = z.infer<typeof NotebookStatus>;

/** `apply: false` only resolves the path and says what setup would do, so the UI can ask first. */
export const NotebookSetupParams = z.strictObject({
  notebookPath: notebookPathInput,
  language: NotebookLanguage,
  apply: z.boolean(),
});
export type NotebookSetupParams = z.infer<typeof NotebookSetupParams>;

export const NotebookSetupResult = z.strictObject({
  root: z.string(),
  /** `create`: no manifest yet; `adopt`: an existing notebook with the same language. */
  action: z.enum(["create", "adopt"]),
  applied: z.boolean(),
  notebookId: z.string().nullable(),
  language: NotebookLanguage,
});
export type NotebookSetupResult = z.infer<typeof NotebookSetupResult>;

export const NotebookDiagnosticInfo = z.strictObject({
  phase: z.enum(["markdown", "schema", "record", "graph"]),
  code: z.string(),
  path: z.string(),
  pointer: z.string().optional(),
  recordId: z.string().optional(),
  relatedId: z.string().optional(),
  message: z.string(),
});
export type NotebookDiagnosticInfo = z.infer<typeof NotebookDiagnosticInfo>;

export const ProposalOperation = z.enum(["create", "update"]);
export type ProposalOperation = z.infer<typeof ProposalOperation>;

export const ProposalRecordSummary = z.strictObject({
  recordId: z.string(),
  operation: ProposalOperation,
  /** Relative to the notebook root, e.g. `records/x.md`. */
  path: z.string(),
  validation: z.enum(["valid", "invalid"]),
  /** The target's bytes on disk no longer match what the proposal was made against. */
  stale: z.boolean(),
});
export type ProposalRecordSummary = z.infer<typeof ProposalRecordSummary>;

/**
 * Who made a proposal, as the reviewer sees it: an agent through MCP (the client's self-reported
 * name and version) or a script (`docket notebook propose`). Sealed into the proposal's digest.
 */
export const ProposalOrigin = z.strictObject({
  /** `observer`: Observer's Review & Save, answered by an agent's observer_commit. */
  kind: z.enum(["mcp", "cli", "observer"]),
  client: z.string().min(1).max(200).nullable(),
});
export type ProposalOrigin = z.infer<typeof ProposalOrigin>;

export const ProposalSummary = z.strictObject({
  proposalId: z.string(),
  /** The digest sealing the whole proposal (prepared records, plan, origin); approval is bound to it. */
  proposalSha256: sha256,
  /** Null for proposals made before Docket recorded who made them. */
  origin: ProposalOrigin.nullable(),
  notebookId: z.string(),
  root: z.string(),
  stale: z.boolean(),
  valid: z.boolean(),
  records: z.array(ProposalRecordSummary),
});
export type ProposalSummary = z.infer<typeof ProposalSummary>;

export const ProposalList = z.strictObject({ proposals: z.array(ProposalSummary) });
export type ProposalList = z.infer<typeof ProposalList>;

export const ProposalParams = z.strictObject({ proposalId: z.string().min(1).max(200) });
export type ProposalParams = z.infer<typeof ProposalParams>;

export const ProposalRecordDetail = z.strictObject({
  ...ProposalRecordSummary.shape,
  /** The bytes on disk now (UTF-8 text), or null for a create. */
  before: z.string().nullable(),
  beforeSha256: sha256.nullable(),
  after: z.string(),
  afterSha256: sha256,
  diagnostics: z.array(NotebookDiagnosticInfo),
});
export type ProposalRecordDetail = z.infer<typeof ProposalRecordDetail>;

export const ProposalDetail = z.strictObject({
  ...ProposalSummary.shape,
  records: z.array(ProposalRecordDetail),
  diagnostics: z.array(NotebookDiagnosticInfo),
});
export type ProposalDetail = z.infer<typeof ProposalDetail>;

/** Approval is bound to one proposal, its exact size and its digest: anything that differs is refused. */
export const NotebookPublishParams = z.strictObject({
  proposalId: z.string().min(1).max(200),
  approvedCount: nonNegativeInt,
  proposalSha256: sha256,
});
export type NotebookPublishParams = z.infer<typeof NotebookPublishParams>;

export const NotebookReceipt = z.strictObject({
  observer_receipt: z.literal("observer-save-receipt/v1"),
  receipt_id: z.string(),
  proposal_id: z.string(),
  notebook_id: z.string(),
  records: z.array(
    z.strictObject({ operation: ProposalOperation, record_id: z.string(), path: z.string(), sha256 }),
  ),
});
export type NotebookReceipt = z.infer<typeof NotebookReceipt>;

export const NotebookPublishResult = z.strictObject({ receipt: NotebookReceipt });
export type NotebookPublishResult = z.infer<typeof NotebookPublishResult>;

export const NotebookDiscardResult = z.strictObject({ proposalId: z.string(), discarded: z.literal(true) });
export type NotebookDiscardResult = z.infer<typeof NotebookDiscardResult>;

// Completion guard (docs/guard.md): the reviews agents recorded and the last Stop decision of each
// agent session, as the Work view shows them, and the mode the hooks honour. The backend answers
// from server/guard/guardOverview.ts; the extension only shows what it says.
// Observer (server/observer/observerOverview.ts builds it; the Observer view and `observer_status` show it).
export const ObserverStance = z.enum(["supports", "challenges", "refines", "boundary", "uncertain"]);
export const ObserverOverview = z.strictObject({
  mode: z.enum(["on", "off"]),
  episode: z.strictObject({
    status: z.enum(["empty", "open", "reviewing-save", "settled"]),
    episodeId: z.string().nullable(),
    notebookId: z.string().nullable(),
    language: z.enum(["en", "ko"]).nullable(),
    proposalId: z.string().nullable(),
    summary: z.string().nullable(),
  }),
  notebook: z.strictObject({ root: z.string(), notebookId: z.string() }).nullable(),
  /** Names the Observer stream as read; observer_commit refuses a batch made against another. */
  fingerprint: z.string(),
  entries: nonNegativeInt,
  /** Replay issues (any blocks every Observer change), first ones only. */
  issues: z.array(z.strictObject({ index: nonNegativeInt, code: z.string(), message: z.string() })),
  issueCount: nonNegativeInt,
  /** Tool results staged in open agent runs: what an agent may nominate now. */
  staged: z.array(z.strictObject({ toolCallId: z.string(), toolName: z.string(), host: z.string(), isError: z.boolean(), occurredAt: z.string() })),
  candidates: z.array(
    z.strictObject({ candidateId: z.string(), episodeId: z.string(), origin: z.string(), label: z.string(), preview: z.string(), capturedAt: z.string(), read: z.boolean() }),
  ),
  readings: z.array(
    z.strictObject({ readId: z.string(), episodeId: z.string(), sourceId: z.string(), title: z.string(), summary: z.string(), claims: nonNegativeInt, candidateIds: z.array(z.string()), observed: z.boolean() }),
  ),
  observations: z.array(
    z.strictObject({
      observationId: z.string(),
      readId: z.string(),
      sourceId: z.string().nullable(),
      stance: ObserverStance,
      movement: z.string(),
      rationale: z.string(),
      inquiryIds: z.array(z.string()),
      newHypothesis: z.string().nullable(),
      consumed: z.boolean(),
    }),
  ),
  hypotheses: z.array(
    z.strictObject({
      observationId: z.string(),
      inquiryId: z.string(),
      original: z.string(),
      context: z.string(),
      review: z
        .strictObject({
          assessment: z.enum(["supports", "challenges", "mixed", "insufficient-context"]),
          supportingClues: z.array(z.string()),
          challengingClues: z.array(z.string()),
          missingInformation: z.array(z.string()),
          interpretationBoundary: z.string(),
        })
        .nullable(),
      consumed: z.boolean(),
    }),
  ),
  memos: z.array(z.strictObject({ memoId: z.string(), title: z.string(), disposition: z.string(), revisionId: z.string(), evidence: nonNegativeInt })),
  lastMemo: z.strictObject({ revisionId: z.string(), summary: z.string() }).nullable(),
  pendingMemoRequest: z.strictObject({ requestId: z.string(), observationIds: z.array(z.string()) }).nullable(),
  unconsumedObservationIds: z.array(z.string()),
  /** What the next step is, in one sentence. */
  next: z.string(),
});
export type ObserverOverview = z.infer<typeof ObserverOverview>;

export const GuardMode = z.enum(GUARD_MODES);
export type GuardModeName = z.infer<typeof GuardMode>;
export const GuardOverviewParams = z.strictObject({
  /** How many reviews, newest first (default 50). */
  limit: z.number().int().min(1).max(200).optional(),
});
export type GuardOverviewParams = z.infer<typeof GuardOverviewParams>;

/** A source sealed when the review opened; a user input is kept only as its digest. */
export const GuardSource = z.discriminatedUnion("kind", [
  z.strictObject({ sourceId: z.string(), kind: z.literal("file"), path: z.string(), sha256, bytes: nonNegativeInt }),
  z.strictObject({ sourceId: z.string(), kind: z.literal("evidence"), handle: z.string(), sha256 }),
  z.strictObject({ sourceId: z.string(), kind: z.literal("user-input"), sha256, bytes: nonNegativeInt }),
]);
export type GuardSource = z.infer<typeof GuardSource>;

export const GuardReview = z.strictObject({
  reviewId: z.string(),
  workScopeId: z.string(),
  openedAt: z.string(),
  /** The ledger line of `review-opened`. */
  line: nonNegativeInt,
  /** `open`: not submitted yet. */
  status: z.enum(["open", "supported", "unsupported", "incomplete"]),
  claims: z.array(
    z.strictObject({
      claimId: z.string(),
      text: z.string(),
      /** Null until the review is submitted. */
      verdict: z.enum(["supported", "unsupported", "partial"]).nullable(),
      /** Source ids of `sources`. */
      citations: z.array(z.string()),
    }),
  ),
  sources: z.array(GuardSource),
  response: z.strictObject({ verdict: z.enum(["supported", "unsupported"]), rationale: z.string() }).nullable(),
  problems: z.array(z.strictObject({ code: z.string(), message: z.string() })),
  submittedAt: z.string().nullable(),
});
export type GuardReview = z.infer<typeof GuardReview>;

/** One piece of recorded necessary work the Stop check found (stable kinds, docs/guard.md). */
export const GuardRemainingWork = z.strictObject({ kind: z.enum(REMAINING_KINDS), text: z.string() });

/** The last Stop decision of one agent session (`.docket/guard/sessions/`). */
export const GuardStop = z.strictObject({
  host: z.string(),
  sessionId: z.string(),
  at: z.string(),
  decision: z.enum(["silent", "notice", "block"]),
  reviewStatus: z.enum(REVIEW_CHECK_STATUSES),
  reviewId: z.string().nullable(),
  remaining: z.array(GuardRemainingWork),
  notice: z.string().nullable(),
});
export type GuardStop = z.infer<typeof GuardStop>;

export const GuardOverview = z.strictObject({
  mode: GuardMode,
  /** Newest first, at most `limit`. */
  reviews: z.array(GuardReview),
  /** Newest first, at most 50 sessions. */
  stops: z.array(GuardStop),
});
export type GuardOverview = z.infer<typeof GuardOverview>;

export const GuardSetModeParams = z.strictObject({ mode: GuardMode });
export type GuardSetModeParams = z.infer<typeof GuardSetModeParams>;

export const GuardModeResult = z.strictObject({ mode: GuardMode });
export type GuardModeResult = z.infer<typeof GuardModeResult>;

/** Moves whenever the overview may answer differently (ledger, session files, mode file). */
export const GuardChanged = z.strictObject({ revision: z.string() });
export type GuardChanged = z.infer<typeof GuardChanged>;

// The guard stream's entries as the Receipts view lists them (docs/guard.md, "In VS Code"): one
// row per `docket/guard/v1` ledger line, beside (never inside) the developer/v8 receipt projection.
// The backend answers from server/guard/guardReceipts.ts.
export const GUARD_RECEIPT_KINDS = ["review-opened", "review-submitted"] as const;
export const GuardReceiptKind = z.enum(GUARD_RECEIPT_KINDS);
export type GuardReceiptKind = z.infer<typeof GuardReceiptKind>;
export const GuardReceiptOrder = z.enum(["newest", "oldest"]);
export type GuardReceiptOrder = z.infer<typeof GuardReceiptOrder>;
/** A guard page holds at most this many entries. */
export const MAX_GUARD_PAGE = 100;

export const GuardReceiptsPageParams = z.strictObject({
  /** Newest entries first (default) or oldest first. */
  order: GuardReceiptOrder.default("newest"),
  /**
   * The ledger line the page starts at (inclusive, in `order`): a previous page's `nextCursor`,
   * `previousCursor` or `pageCursor`; null for the first page. Lines never move in an append-only
   * ledger, so a cursor stays valid while entries are appended.
   */
  cursor: nonNegativeInt.nullable().default(null),
  pageSize: z.number().int().min(1).max(MAX_GUARD_PAGE).default(50),
});
export type GuardReceiptsPageParams = z.input<typeof GuardReceiptsPageParams>;

/** One guard ledger line. */
export const GuardReceiptRow = z.strictObject({
  /** Zero-based ledger line number. */
  line: nonNegativeInt,
  lineSha256: sha256,
  kind: GuardReceiptKind,
  reviewId: z.string(),
  /** The verdict Docket recorded (`review-submitted` only; null for `review-opened`). */
  status: z.enum(["supported", "unsupported", "incomplete"]).nullable(),
  /** The work scope the review was opened in (`review-opened` only; null for `review-submitted`). */
  workScopeId: z.string().nullable(),
  /** `openedAt` or `submittedAt`. */
  at: z.string(),
});
export type GuardReceiptRow = z.infer<typeof GuardReceiptRow>;

export const GuardReceiptsPage = z.strictObject({
  /** The `Status.revision` the page was read at: a view compares it with the newest status. */
  revision: z.string(),
  order: GuardReceiptOrder,
  /** Guard entries in the ledger. */
  entryCount: nonNegativeInt,
  /** Position of the first row in `order` (0 = the newest, or the oldest, entry). */
  startPosition: nonNegativeInt,
  /** Reads this page again (the line of its first row); null for an empty page. */
  pageCursor: nonNegativeInt.nullable(),
  entries: z.array(GuardReceiptRow).max(MAX_GUARD_PAGE),
  /** The page after this one in `order`, or null at the end. */
  nextCursor: nonNegativeInt.nullable(),
  /** The page before this one in `order`, or null on the first page. */
  previousCursor: nonNegativeInt.nullable(),
});
export type GuardReceiptsPage = z.infer<typeof GuardReceiptsPage>;

export const GuardReceiptDetailParams = z.strictObject({ lineSha256: sha256 });
export type GuardReceiptDetailParams = z.infer<typeof GuardReceiptDetailParams>;

export const GuardReceiptDetail = z.strictObject({
  receipt: GuardReceiptRow,
  stream: z.literal("docket/guard/v1"),
  /** The chain link: `lineSha256` of the line before (null on line 0). */
  previousLineSha256: sha256.nullable(),
  /** The entry's canonical JSON, exactly as it stands in the line. */
  canonicalJson: z.string(),
  /**
   * Exactly the text whose SHA-256 is `lineSha256`:
   * `{"domain":"docket/ledger-line/v1","value":{"entry":<canonicalJson>,"line":…,"previousLineSha256":…,"stream":"docket/guard/v1"}}`.
   */
  lineHashInput: z.string(),
  /** The review's other entry (the submission of an opened review, the opening of a submission), or null. */
  related: GuardReceiptRow.nullable(),
});
export type GuardReceiptDetail = z.infer<typeof GuardReceiptDetail>;

// The Observer stream's entries as the Receipts view lists them: one row per `observer/v1` ledger
// line, read-only beside the developer/v8 projection. The backend answers from
// server/observer/observerReceipts.ts.
/** The `customType`s of `observer/v1` entries (server/observer/observerCustomTypes.ts). */
export const OBSERVER_RECEIPT_CUSTOM_TYPES = OBSERVER_CUSTOM_TYPES;
export const ObserverReceiptCustomType = z.enum(OBSERVER_RECEIPT_CUSTOM_TYPES);
export type ObserverReceiptCustomType = z.infer<typeof ObserverReceiptCustomType>;
/** An Observer page holds at most this many entries. */
export const MAX_OBSERVER_PAGE = 100;
/** Longest text a row repeats from an entry (ids, kinds, times); longer text is cut with "…". */
export const MAX_OBSERVER_ROW_TEXT = 200;
/** Longest `data.kind` the kind filter takes (a longer one only appears, cut, in its row). */
export const MAX_OBSERVER_KIND = 100;
/** At most this many (customType, kind) pairs are counted for the filter (malformed entries may invent kinds). */
export const MAX_OBSERVER_KIND_COUNTS = 200;
const observerKind = z.string().min(1).max(MAX_OBSERVER_KIND);

export const ObserverReceiptsPageParams = z.strictObject({
  /** Newest entries first (default) or oldest first. */
  order: GuardReceiptOrder.default("newest"),
  /**
   * The ledger line the page starts at (inclusive, in `order`), as for the guard pages; a cursor
   * is bound to the filter it was read with.
   */
  cursor: nonNegativeInt.nullable().default(null),
  pageSize: z.number().int().min(1).max(MAX_OBSERVER_PAGE).default(50),
  /** Only entries of this `customType` (null: every entry). */
  customType: ObserverReceiptCustomType.nullable().default(null),
  /** Only entries whose `data.kind` is exactly this (null: any), e.g. `candidate-captured`. */
  kind: observerKind.nullable().default(null),
});
export type ObserverReceiptsPageParams = z.input<typeof ObserverReceiptsPageParams>;

/** A value a row takes from the entry, with the `data` field it came from (e.g. `candidate_id`). */
export const ObserverReceiptField = z.strictObject({
  /** Dotted path inside `data`, e.g. `candidate_id`, `pass.pass_id`, `source.observed_at`. */
  field: z.string(),
  value: z.string().max(MAX_OBSERVER_ROW_TEXT + 1),
});
export type ObserverReceiptField = z.infer<typeof ObserverReceiptField>;

/** One Observer ledger line. Entries replay may reject are listed too: a row only reads `data`. */
export const ObserverReceiptRow = z.strictObject({
  /** Zero-based ledger line number. */
  line: nonNegativeInt,
  lineSha256: sha256,
  customType: ObserverReceiptCustomType,
  /** `data.kind` when it is text (lifecycle, observation, Material review, save entries), else null. */
  kind: z.string().max(MAX_OBSERVER_ROW_TEXT + 1).nullable(),
  /** The Episode the entry names, when it names one. */
  episodeId: z.string().max(MAX_OBSERVER_ROW_TEXT + 1).nullable(),
  /** The entry's own id (candidate, read, observation, request, pass, proposal …), when it has one. */
  id: ObserverReceiptField.nullable(),
  /** The time the entry records (`captured_at`, a direct observation's `observed_at`), when it has one. */
  at: ObserverReceiptField.nullable(),
});
export type ObserverReceiptRow = z.infer<typeof ObserverReceiptRow>;

export const ObserverReceiptsPage = z.strictObject({
  /** The `Status.revision` the page was read at. */
  revision: z.string(),
  order: GuardReceiptOrder,
  /** The filter the page was read with. */
  customType: ObserverReceiptCustomType.nullable(),
  kind: observerKind.nullable(),
  /** Observer entries in the ledger. */
  totalCount: nonNegativeInt,
  /** Entries that pass the filter (= totalCount without one). */
  entryCount: nonNegativeInt,
  /** Entries of each customType present, in OBSERVER_RECEIPT_CUSTOM_TYPES order. */
  customTypeCounts: z.array(z.strictObject({ customType: ObserverReceiptCustomType, count: nonNegativeInt })),
  /** Entries of each (customType, data.kind) present, by customType (list order) then kind (code units); filterable kinds only, the first MAX_OBSERVER_KIND_COUNTS. */
  kindCounts: z.array(z.strictObject({ customType: ObserverReceiptCustomType, kind: observerKind, count: nonNegativeInt })).max(MAX_OBSERVER_KIND_COUNTS),
  /** Position of the first row among the matching entries in `order`. */
  startPosition: nonNegativeInt,
  /** Reads this page again (the line of its first row); null for an empty page. */
  pageCursor: nonNegativeInt.nullable(),
  entries: z.array(ObserverReceiptRow).max(MAX_OBSERVER_PAGE),
  nextCursor: nonNegativeInt.nullable(),
  previousCursor: nonNegativeInt.nullable(),
});
export type ObserverReceiptsPage = z.infer<typeof ObserverReceiptsPage>;

export const ObserverReceiptDetailParams = z.strictObject({ lineSha256: sha256 });
export type ObserverReceiptDetailParams = z.infer<typeof ObserverReceiptDetailParams>;

export const ObserverReceiptDetail = z.strictObject({
  receipt: ObserverReceiptRow,
  stream: z.literal("observer/v1"),
  /** The chain link: `lineSha256` of the line before (null on line 0). */
  previousLineSha256: sha256.nullable(),
  /** The entry (`{customType, data}`) as canonical JSON, exactly as it stands in the line. */
  canonicalJson: z.string(),
  /**
   * Exactly the text whose SHA-256 is `lineSha256`:
   * `{"domain":"docket/ledger-line/v1","value":{"entry":<canonicalJson>,"line":…,"previousLineSha256":…,"stream":"observer/v1"}}`.
   */
  lineHashInput: z.string(),
});
export type ObserverReceiptDetail = z.infer<typeof ObserverReceiptDetail>;

// Observer commands from the editor (server/observer/observerService.ts answers them).
export const ObserverSetModeParams = z.strictObject({
  on: z.boolean(),
  /** The Notebook folder as the user gave it (setting or picker); required to turn Observer on. */
  notebookPath: notebookPathInput.nullable(),
});
export type ObserverSetModeParams = z.infer<typeof ObserverSetModeParams>;
export const ObserverHypothesisParams = z.strictObject({
  /** The user's own wording; Docket never rewrites it. */
  text: z.string().min(1).max(20_000),
  context: z.string().max(20_000).nullable(),
});
export type ObserverHypothesisParams = z.infer<typeof ObserverHypothesisParams>;
export const ObserverMaterialParams = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("text"), text: z.string().min(1).max(1_048_576) }),
  z.strictObject({ kind: z.literal("file"), path: z.string().min(1).max(4096) }),
  z.strictObject({ kind: z.literal("url"), url: z.string().min(1).max(2000) }),
]);
export type ObserverMaterialParams = z.infer<typeof ObserverMaterialParams>;
export const ObserverActionResult = z.strictObject({
  /** One sentence saying what happened and what comes next. */
  message: z.string(),
  overview: ObserverOverview,
});
export type ObserverActionResult = z.infer<typeof ObserverActionResult>;

// Team provenance (issue 17): the commits that carry a landing (Work view), one commit's patch
// (its diff when VS Code's Git extension cannot show it) and the audit of a revision range.
/** A full commit id: 40 hex (SHA-1 repositories) or 64 hex (SHA-256 repositories). */
const commitId = z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/u);
/**
 * A revision range as the user types it (`origin/main..HEAD`): no whitespace or control
 * characters, and no side that starts with `-`, so it can never be read as an option of `git`.
 */
export const RevisionRange = z
  .string()
  .min(1)
  .max(500)
  .regex(/^[^\s\x00-\x1f\x7f]+$/u, "a revision range has no spaces or control characters")
  .refine((range) => range.split(/\.{2,3}/u).every((side) => !side.startsWith("-")), "no side of a revision range may start with '-'");

/** A landing id as a `Docket-Landing: <landingId> <eventSha256>` line can name it: no whitespace or control characters. */
export const TrailerLandingId = z.string().min(1).max(200).regex(/^[^\s\x00-\x1f\x7f]+$/u);
export const LandingCommitsParams = z.strictObject({
  /** The landings whose rows were expanded (asked lazily, never every landing at start). */
  landingIds: z.array(TrailerLandingId).min(1).max(100),
});
export type LandingCommitsParams = z.infer<typeof LandingCommitsParams>;
export const LinkedCommitRow = z.strictObject({
  sha: commitId,
  subject: z.string().max(1000),
  source: z.enum(["trailer", "note"]),
});
export type LinkedCommitRow = z.infer<typeof LinkedCommitRow>;
export const LandingCommits = z.strictObject({
  /** One entry per asked landing id, in the order asked; commits newest first. */
  landings: z.array(z.strictObject({ landingId: z.string(), commits: z.array(LinkedCommitRow).max(1000) })).max(100),
});
export type LandingCommits = z.infer<typeof LandingCommits>;

export const CommitPatchParams = z.strictObject({ sha: commitId });
export type CommitPatchParams = z.infer<typeof CommitPatchParams>;
export const CommitPatch = z.strictObject({
  sha: commitId,
  /** `git show --stat --patch` of the commit (no external diff drivers or text conversion). */
  text: z.string(),
  /** The patch was longer than the backend returns; the text ends where it was cut. */
  truncated: z.boolean(),
});
export type CommitPatch = z.infer<typeof CommitPatch>;

export const AuditRangeSuggestion = z.strictObject({
  /** What "Audit Branch…" offers first: `<base>..HEAD`. */
  range: RevisionRange,
  /** Where the base came from, for the prompt. */
  basis: z.enum(["origin-head", "remote-main", "upstream", "local-main", "no-base"]),
});
export type AuditRangeSuggestion = z.infer<typeof AuditRangeSuggestion>;
export const AuditParams = z.strictObject({ range: RevisionRange });
export type AuditParams = z.infer<typeof AuditParams>;
export const AuditReport = z.strictObject({
  range: z.string(),
  /** The report as Markdown, ready to paste into a pull request. */
  markdown: z.string(),
  commits: nonNegativeInt,
});
export type AuditReport = z.infer<typeof AuditReport>;

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
  receiptDetail: request("docket/receipts/detail", ReceiptDetailParams, ReceiptDetail),
  verifyLedger: request("docket/ledger/verify", Empty, VerifyResult),
  policy: request("docket/policy", Empty, ToolPolicyResult),
  openJudgment: request("docket/openJudgment", OpenJudgmentParams, OpenJudgmentResult),
  openContextSources: request("docket/openContextSources", OpenContextSourcesParams, OpenContextSourcesResult),
  concludeJudgment: request("docket/concludeJudgment", ConcludeJudgmentParams, WriteResult),
  authorizeChange: request("docket/authorizeChange", AuthorizeChangeParams, WriteResult),
  recordLanding: request("docket/recordLanding", RecordLandingParams, WriteResult),
  workState: request("docket/workState", Empty, WorkState),
  workHistoryPage: request("docket/workHistory/page", WorkHistoryPageParams, WorkHistoryPage),
  skills: request("docket/skills", Empty, SkillsResult),
  evidenceShow: request("docket/evidence/show", EvidenceShowParams, CapturedEvidence),
  landingBaseline: request("docket/landingBaseline", LandingBaselineParams, LandingBaseline),
  piSessionOpen: request("docket/piSession/open", PiSessionOpenParams, Status),
  piSessionClose: request("docket/piSession/close", Empty, Status),
  agentsPlan: request("docket/agents/plan", AgentHostParams, AgentPlan),
  agentsApply: request("docket/agents/apply", AgentApplyParams, AgentPlan),
  agentsDisconnect: request("docket/agents/disconnect", AgentHostParams, AgentPlan),
  agentsStatus: request("docket/agents/status", Empty, AgentsStatus),
  gitPlan: request("docket/git/plan", GitPlanParams, GitPlan),
  gitApply: request("docket/git/apply", GitApplyParams, GitPlan),
  plan: request("docket/plan", PlanParams, Plan),
  notebookStatus: request("docket/notebook/status", NotebookStatusParams, NotebookStatus),
  notebookSetup: request("docket/notebook/setup", NotebookSetupParams, NotebookSetupResult),
  notebookProposals: request("docket/notebook/proposals", Empty, ProposalList),
  notebookProposal: request("docket/notebook/proposal", ProposalParams, ProposalDetail),
  notebookPublish: request("docket/notebook/publish", NotebookPublishParams, NotebookPublishResult),
  notebookDiscard: request("docket/notebook/discard", ProposalParams, NotebookDiscardResult),
  observerOverview: request("docket/observer/overview", Empty, ObserverOverview),
  observerSetMode: request("docket/observer/setMode", ObserverSetModeParams, ObserverActionResult),
  observerAddHypothesis: request("docket/observer/addHypothesis", ObserverHypothesisParams, ObserverActionResult),
  observerReconcileMemo: request("docket/observer/reconcileMemo", Empty, ObserverActionResult),
  observerReviewSave: request("docket/observer/reviewSave", Empty, ObserverActionResult),
  observerReviewMaterial: request("docket/observer/reviewMaterial", ObserverMaterialParams, ObserverActionResult),
  observerCancelMaterial: request("docket/observer/cancelMaterialReview", Empty, ObserverActionResult),
  guardOverview: request("docket/guard/overview", GuardOverviewParams, GuardOverview),
  guardSetMode: request("docket/guard/setMode", GuardSetModeParams, GuardModeResult),
  guardReceiptsPage: request("docket/guard/receipts/page", GuardReceiptsPageParams, GuardReceiptsPage),
  guardReceiptDetail: request("docket/guard/receipts/detail", GuardReceiptDetailParams, GuardReceiptDetail),
  observerReceiptsPage: request("docket/observer/receipts/page", ObserverReceiptsPageParams, ObserverReceiptsPage),
  observerReceiptDetail: request("docket/observer/receipts/detail", ObserverReceiptDetailParams, ObserverReceiptDetail),
  teamLandingCommits: request("docket/team/landingCommits", LandingCommitsParams, LandingCommits),
  teamCommitPatch: request("docket/team/commitPatch", CommitPatchParams, CommitPatch),
  teamAuditRange: request("docket/team/auditRange", Empty, AuditRangeSuggestion),
  teamAudit: request("docket/team/audit", AuditParams, AuditReport),
} as const;

export const Notifications = {
  /** Sent by the backend whenever the status it would answer changes. */
  stateChanged: Object.freeze({ method: "docket/stateChanged", params: Status }),
  /** Sent by the backend when the guard overview may have changed, e.g. an agent's Stop wrote its session file. */
  guardChanged: Object.freeze({ method: "docket/guard/changed", params: GuardChanged }),
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

// The codes live in their own dependency-free module, so commands that only report errors (e.g.
// `docket status`) do not build this file's schemas.
export { ErrorCodes, type ErrorCode } from "./errorCodes";
