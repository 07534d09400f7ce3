// The one definition of a Router plan (docs/router.md, design router.md): the seven stage values,
// the reasons that make every element checkable, and the inputs the pure `plan()` function takes
// (workspace snapshot, skill catalogue, recorded review reports). The backend, the CLI, the MCP
// tool and the Plan webview all validate against these schemas. Everything here is plain data
// that canonical JSON can hash: no Maps, no undefined, no clock.
import * as z from "zod";

const sha256 = z.string().regex(/^[a-f0-9]{64}$/u);
const count = z.number().int().nonnegative();
/** A POSIX path relative to the workspace root (never absolute, never `..`). */
const relativePath = z.string().min(1).max(4096);

export const MAX_TASK_LENGTH = 4000;

// ── Reasons ──────────────────────────────────────────────────────────────────────────────────

/** A half-open range of UTF-16 code units in the NFC task text, with the text it covers. */
export const TaskSpan = z.strictObject({ start: count, end: count, text: z.string() });
export type TaskSpan = z.infer<typeof TaskSpan>;

export const EntityKind = z.enum(["file", "directory", "module", "technology"]);
export type EntityKind = z.infer<typeof EntityKind>;

export const ReviewerId = z.enum(["code-reviewer", "security-auditor", "test-engineer", "architect", "performance-specialist"]);
export type ReviewerId = z.infer<typeof ReviewerId>;

export const ExecutionMode = z.enum(["plan-only", "implement", "review", "investigate"]);
export type ExecutionMode = z.infer<typeof ExecutionMode>;

export const RelationType = z.enum([
  "REQUIRES",
  "PRECEDES",
  "PROVIDES_CONTEXT_FOR",
  "VERIFIES",
  "REVIEWS",
  "COMPOSES_WITH",
  "CONFLICTS_WITH",
]);
export type RelationType = z.infer<typeof RelationType>;

/**
 * Why something is in the plan, as a fact someone can go and check. Reasons are data: the Plan
 * panel highlights task spans and opens the files they cite.
 */
export const Reason = z.discriminatedUnion("kind", [
  /** Words the person wrote. */
  z.strictObject({ kind: z.literal("task-span"), span: TaskSpan, note: z.string() }),
  /** Something the workspace snapshot has (a file, module or technology, in the project's spelling). */
  z.strictObject({ kind: z.literal("snapshot-entity"), entityKind: EntityKind, value: z.string(), path: relativePath.nullable() }),
  /** A named risk rule that fired. */
  z.strictObject({ kind: z.literal("risk-rule"), rule: z.string() }),
  /** A field of a catalogue entry's routing metadata matched (the strong, declared kind). */
  z.strictObject({ kind: z.literal("catalogue-field"), skill: z.string(), field: z.string(), value: z.string(), span: TaskSpan.nullable() }),
  /** Whole-token overlap with a skill's name/description: the weaker kind for skills without metadata. */
  z.strictObject({ kind: z.literal("description-token"), skill: z.string(), token: z.string(), span: TaskSpan }),
  /** The execution mode demanded it. */
  z.strictObject({ kind: z.literal("execution-mode"), mode: ExecutionMode }),
  /** A relation between two catalogue entries. */
  z.strictObject({ kind: z.literal("relation"), from: z.string(), relation: RelationType, to: z.string() }),
  /** A snapshot hot-path hint (a path whose name or place suggests a hot path). */
  z.strictObject({ kind: z.literal("hot-path"), path: relativePath, hint: z.string() }),
  /** A policy of the Router itself (e.g. "the first four reviewers always sit"). */
  z.strictObject({ kind: z.literal("router-rule"), rule: z.string() }),
]);
export type Reason = z.infer<typeof Reason>;

// ── Inputs: workspace snapshot ───────────────────────────────────────────────────────────────

export const SnapshotModule = z.strictObject({
  name: z.string(),
  /** Folder of the module ("." for the root). */
  path: z.string(),
  kind: z.enum(["npm-package", "go-module", "cargo-crate", "python-package", "maven-module", "gradle-project", "dotnet-project", "directory"]),
  /** The manifest that declared it, or null for a plain top-level directory. */
  manifest: relativePath.nullable(),
  /**
   * Script names the manifest declares (package.json `scripts` keys), sorted by code units; the
   * verification stage derives `npm run <script>` checks from them. Optional and additive: a
   * snapshot without it simply yields no npm script checks. Omit the key rather than set undefined.
   */
  scripts: z.array(z.string()).optional(),
});
export type SnapshotModule = z.infer<typeof SnapshotModule>;

export const SnapshotTechnology = z.strictObject({
  /** Canonical spelling, e.g. "TypeScript", "Go", "React", "R". */
  name: z.string(),
  /** Every manifest or file that evidences it (sorted). */
  sources: z.array(relativePath),
});
export type SnapshotTechnology = z.infer<typeof SnapshotTechnology>;

export const SnapshotRuleFile = z.strictObject({ path: relativePath, sha256 });
export type SnapshotRuleFile = z.infer<typeof SnapshotRuleFile>;

export const SnapshotHotPath = z.strictObject({ path: relativePath, hint: z.string() });
export type SnapshotHotPath = z.infer<typeof SnapshotHotPath>;

export const ImportEdge = z.strictObject({ from: relativePath, to: relativePath });
export type ImportEdge = z.infer<typeof ImportEdge>;

export const WorkspaceSnapshot = z.strictObject({
  format: z.literal("docket/router-snapshot/v1"),
  /** Where the file list came from. */
  source: z.enum(["git", "walk"]),
  /** Tracked and untracked-not-ignored files, POSIX, sorted by code units. */
  files: z.array(relativePath),
  /** Directories that contain at least one listed file, sorted. */
  directories: z.array(relativePath),
  modules: z.array(SnapshotModule),
  technologies: z.array(SnapshotTechnology),
  ruleFiles: z.array(SnapshotRuleFile),
  hotPaths: z.array(SnapshotHotPath),
  /** TypeScript/JavaScript relative imports resolved to listed files (the first sources in path order when over budget, said in `limits`). */
  imports: z.array(ImportEdge),
  /** Caps that were hit, each said (e.g. "files: 200000 listed, first 100000 kept"). */
  limits: z.array(z.string()),
  /** Files skipped with why (non-UTF-8 manifests, unreadable files), bounded and sorted. */
  skipped: z.array(z.strictObject({ path: relativePath, why: z.string() })),
  /** sha256 of the canonical JSON of every field above. */
  snapshotSha256: sha256,
});
export type WorkspaceSnapshot = z.infer<typeof WorkspaceSnapshot>;

// ── Inputs: skill catalogue ──────────────────────────────────────────────────────────────────

export const SkillRole = z.enum(["work", "review", "context"]);
export type SkillRole = z.infer<typeof SkillRole>;

/** Docket's optional routing block in a SKILL.md frontmatter (`routing:`) or a `routing.yaml` beside it. */
export const RoutingMetadata = z.strictObject({
  role: SkillRole,
  domains: z.array(z.string()),
  signals: z.array(z.string()),
  entityKinds: z.array(EntityKind),
  technologies: z.array(z.string()),
  riskTags: z.array(z.string()),
  modes: z.array(ExecutionMode),
  /** The review-board seat this skill fills, for the five reviewer skills. */
  reviewer: ReviewerId.nullable(),
  relations: z.array(z.strictObject({ type: RelationType, skill: z.string() })),
  /** Constraint words that exclude this skill when the task negates them ("without tests"). */
  excludedBy: z.array(z.string()),
});
export type RoutingMetadata = z.infer<typeof RoutingMetadata>;

export const CatalogueEntry = z.strictObject({
  name: z.string(),
  source: z.enum(["bundled", "workspace"]),
  /** Workspace entries: the SKILL.md path relative to the workspace; bundled: `skills/<name>/SKILL.md`. */
  path: z.string(),
  description: z.string(),
  /** sha256 over the entry's bytes (SKILL.md plus its routing sidecar, if any). */
  revisionSha256: sha256,
  status: z.enum(["available", "unavailable"]),
  /** Why an entry is unavailable (malformed frontmatter, bad metadata, shadowed duplicate…). */
  problem: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
  metadata: RoutingMetadata.nullable(),
});
export type CatalogueEntry = z.infer<typeof CatalogueEntry>;

export const Catalogue = z.strictObject({
  /** Sorted by name, then source ("bundled" before "workspace"), then path. */
  entries: z.array(CatalogueEntry),
});
export type Catalogue = z.infer<typeof Catalogue>;

// ── Inputs: review reports (from the agent through MCP, or recorded by deterministic checks) ──

export const Severity = z.enum(["blocking", "major", "minor", "info"]);
export type Severity = z.infer<typeof Severity>;

export const Citation = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("file"), path: relativePath, line: z.number().int().positive().nullable() }),
  z.strictObject({ kind: z.literal("ledger-event"), workScopeId: z.string(), eventId: z.string() }),
  z.strictObject({ kind: z.literal("evidence"), handle: z.string() }),
]);
export type Citation = z.infer<typeof Citation>;

/**
 * A file citation exactly as Docket's own checks write it: a plain object with only `kind: "file"`,
 * a `path` of 1 to 4,096 code units and a `line` that is null or a positive safe integer. Never
 * true for a value Citation refuses (a property test compares the two); false for anything less
 * plain (another prototype, another kind), which Citation then decides.
 */
function isPlainFileCitation(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  const keys = Object.keys(value);
  if (keys.length !== 3) return false;
  const { kind, path, line } = value as { kind?: unknown; path?: unknown; line?: unknown };
  if (kind !== "file" || typeof path !== "string" || path.length < 1 || path.length > 4096) return false;
  if (line !== null && !(typeof line === "number" && Number.isSafeInteger(line) && line > 0)) return false;
  return Object.hasOwn(value, "kind") && Object.hasOwn(value, "path") && Object.hasOwn(value, "line");
}

/** True for a plain array of plain file citations (see isPlainFileCitation). Exported for its tests. */
export function isPlainFileCitationList(value: unknown): boolean {
  if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) return false;
  for (let index = 0; index < value.length; index += 1) if (!isPlainFileCitation(value[index])) return false;
  return true;
}

/**
 * The citations of a seat's deterministic check: what z.array(Citation) accepts. A check may cite
 * thousands of files (a name that matches 2,000 of them); zod's per-object work over those was
 * most of checking a whole plan, so a plain list of file citations is recognised first, and
 * anything else goes through Citation as before (and gets its detailed issues).
 */
export const CheckCitations = z.union([z.custom<Citation[]>(isPlainFileCitationList), z.array(Citation)]);

export const Finding = z.strictObject({
  findingId: z.string().min(1).max(200),
  severity: Severity,
  message: z.string().min(1).max(4000),
  citations: z.array(Citation).max(50),
  resolved: z.boolean(),
});
export type Finding = z.infer<typeof Finding>;

/** One seat's report, bound to the plan basis it reviewed. */
export const SeatReport = z.strictObject({
  basisSha256: sha256,
  reviewer: ReviewerId,
  /** "failed": the reviewer could not do its job (said in `failure`). */
  outcome: z.enum(["reported", "failed"]),
  findings: z.array(Finding).max(200),
  failure: z.string().max(2000).nullable(),
});
export type SeatReport = z.infer<typeof SeatReport>;

/**
 * What a reviewer sends: its report, plus (when its session did not make the plan, e.g. a
 * reviewer run as its own agent) the task the plan was made for, so the basis can be checked
 * against the plan as it is now. The task is never stored with the report.
 */
export const SeatReportSubmission = SeatReport.extend({
  task: z.string().max(65_536).optional(),
  mode: ExecutionMode.nullable().optional(),
});
export type SeatReportSubmission = z.infer<typeof SeatReportSubmission>;

export const PlanOptions = z.strictObject({
  /** Forces a mode instead of deriving it from the task (e.g. the MCP tool's `mode`). */
  mode: ExecutionMode.nullable(),
  /** Recorded seat reports; reports for another basis are ignored (and said). */
  reports: z.array(SeatReport),
  /** Checks that actually ran (from the ledger / evidence), for re-evaluation after work. */
  ranChecks: z.array(z.strictObject({ checkId: z.string(), evidence: z.string(), passed: z.boolean() })),
});
export type PlanOptions = z.infer<typeof PlanOptions>;

// ── Stage 1: TASK ────────────────────────────────────────────────────────────────────────────

export const Token = z.strictObject({
  /** As written (NFC). */
  text: z.string(),
  start: count,
  end: count,
  /** True for compound tokens such as `src/payments/webhook.ts` or `foo.bar` (file-like names). */
  pathLike: z.boolean(),
});
export type Token = z.infer<typeof Token>;

export const TaskStage = z.strictObject({
  /** The task after NFC normalization (spans index into this). */
  text: z.string().max(MAX_TASK_LENGTH),
  tokens: z.array(Token),
});
export type TaskStage = z.infer<typeof TaskStage>;

// ── Stage 2: TASK INTENT ─────────────────────────────────────────────────────────────────────

export const Domain = z.enum([
  "fix",
  "add",
  "change",
  "remove",
  "refactor",
  "investigate",
  "review",
  "test",
  "document",
  "optimize",
  "migrate",
  "configure",
  "upgrade",
  "secure",
  "unspecified",
]);
export type Domain = z.infer<typeof Domain>;

export const IntentEntity = z.strictObject({
  kind: EntityKind,
  /** The project's spelling: a file's real path, a module's name, a technology's canonical name. */
  value: z.string(),
  span: TaskSpan,
  /** Where the snapshot has it (file/directory/module path; a technology's first source). */
  path: relativePath.nullable(),
});
export type IntentEntity = z.infer<typeof IntentEntity>;

export const Unmatched = z.strictObject({
  text: z.string(),
  span: TaskSpan,
  /** What it looked like. */
  looksLike: z.enum(["file", "module", "path"]),
  why: z.string(),
});
export type Unmatched = z.infer<typeof Unmatched>;

export const Ambiguity = z.strictObject({
  text: z.string(),
  span: TaskSpan,
  kind: EntityKind,
  /** Every candidate, sorted. */
  candidates: z.array(z.string()).min(2),
});
export type Ambiguity = z.infer<typeof Ambiguity>;

export const SignalKind = z.enum([
  "constraint",
  "negative",
  "urgency",
  "security",
  "performance",
  "compatibility",
  "testing",
  "documentation",
  "data",
]);
export type SignalKind = z.infer<typeof SignalKind>;

export const Signal = z.strictObject({
  kind: SignalKind,
  /** The lexicon word or phrase that fired (lower case). */
  word: z.string(),
  span: TaskSpan,
  /** For negative signals: the words negated ("don't touch X" → "X"); else null. */
  target: TaskSpan.nullable(),
});
export type Signal = z.infer<typeof Signal>;

export const RiskItem = z.strictObject({
  rule: z.string(),
  level: z.enum(["high", "medium", "low"]),
  reasons: z.array(Reason).min(1),
});
export type RiskItem = z.infer<typeof RiskItem>;

export const IntentStage = z.strictObject({
  domain: z.strictObject({ value: Domain, reasons: z.array(Reason) }),
  entities: z.array(IntentEntity),
  unmatched: z.array(Unmatched),
  ambiguous: z.array(Ambiguity),
  signals: z.array(Signal),
  risk: z.array(RiskItem),
  executionMode: z.strictObject({ value: ExecutionMode, reasons: z.array(Reason).min(1) }),
});
export type IntentStage = z.infer<typeof IntentStage>;

// ── Stage 3: SKILL ROUTING ───────────────────────────────────────────────────────────────────

export const Candidate = z.strictObject({
  skill: z.string(),
  source: z.enum(["bundled", "workspace"]),
  path: z.string(),
  role: SkillRole,
  /** "declared": matched routing metadata; "description": weaker whole-token overlap only. */
  strength: z.enum(["declared", "description"]),
  /** Integer score (declared matches weigh more); ties break by skill name in code-unit order. */
  score: count,
  reasons: z.array(Reason).min(1),
});
export type Candidate = z.infer<typeof Candidate>;

/** A skill whose words matched but that does not fit the task (router.md "Word roles and fit"). */
export const SetAside = z.strictObject({
  ...Candidate.shape,
  /** Why it does not fit: the word roles and fit rules that set it aside. */
  because: z.array(Reason).min(1),
});
export type SetAside = z.infer<typeof SetAside>;

/** Whether any skill fits the task well; "no-skill-fits" plans the work without a skill step. */
export const RoutingFit = z.strictObject({
  outcome: z.enum(["fits", "no-skill-fits"]),
  reasons: z.array(Reason).min(1),
});
export type RoutingFit = z.infer<typeof RoutingFit>;

export const RoutingStage = z.strictObject({
  /** Sorted by score descending, then skill name. */
  candidates: z.array(Candidate),
  /** Skills that matched only poorly (an object noun, a passing mention, the domain alone), sorted by name. */
  setAside: z.array(SetAside),
  fit: RoutingFit,
  /** Skills a negative signal excluded, with the signal. */
  excluded: z.array(z.strictObject({ skill: z.string(), reasons: z.array(Reason).min(1) })),
  /** Catalogue entries that could not be considered, and why. */
  unavailable: z.array(z.strictObject({ skill: z.string(), path: z.string(), code: z.string(), message: z.string() })),
});
export type RoutingStage = z.infer<typeof RoutingStage>;

// ── Stage 4: SKILL COMPOSITION ───────────────────────────────────────────────────────────────

export const ExecutionEdge = z.strictObject({
  /** Runs first. */
  before: z.string(),
  after: z.string(),
  relation: RelationType,
  /** The skill whose metadata declared the relation. */
  declaredBy: z.string(),
});
export type ExecutionEdge = z.infer<typeof ExecutionEdge>;

export const Step = z.strictObject({
  skill: z.string(),
  role: SkillRole,
  /** Index of its parallel group (topological layer). */
  group: count,
  /** Skills that must finish first (sorted). */
  after: z.array(z.string()),
});
export type Step = z.infer<typeof Step>;

export const Gate = z.strictObject({
  /** The gate sits after this group. */
  afterGroup: count,
  kind: z.enum(["verification", "review", "authorization"]),
  description: z.string(),
});
export type Gate = z.infer<typeof Gate>;

export const CompositionIssue = z.strictObject({
  kind: z.enum(["duplicate", "unavailable", "missing-requirement", "conflict", "cycle"]),
  resolved: z.boolean(),
  /** True when the plan cannot be executed because of it. */
  blocking: z.boolean(),
  skills: z.array(z.string()),
  detail: z.string(),
});
export type CompositionIssue = z.infer<typeof CompositionIssue>;

export const CompositionStage = z.strictObject({
  /** Empty when there is a cycle. */
  steps: z.array(Step),
  /** Skill names per layer; every skill in a layer may run in parallel. */
  groups: z.array(z.array(z.string())),
  edges: z.array(ExecutionEdge),
  gates: z.array(Gate),
  issues: z.array(CompositionIssue),
  executable: z.boolean(),
  /** Why the plan is blocked (empty when executable). */
  blockedBecause: z.array(z.string()),
});
export type CompositionStage = z.infer<typeof CompositionStage>;

// ── Stage 5: CONTEXT PACK ────────────────────────────────────────────────────────────────────

export const ContextPackStage = z.strictObject({
  versions: z.strictObject({
    snapshotSha256: sha256,
    /** Every catalogue entry the plan used, with its revision. */
    skills: z.array(z.strictObject({ skill: z.string(), source: z.enum(["bundled", "workspace"]), revisionSha256: sha256 })),
    /** Binds review reports to this task, snapshot and catalogue (sha256 of those three). */
    basisSha256: sha256,
  }),
  facts: z.array(z.strictObject({ fact: z.string(), value: z.string(), reasons: z.array(Reason).min(1) })),
  files: z.array(z.strictObject({ path: relativePath, reasons: z.array(Reason).min(1) })),
  /** Import neighbours of the grounded files (both directions), when an import graph exists. */
  graph: z.array(z.strictObject({ path: relativePath, imports: z.array(relativePath), importedBy: z.array(relativePath) })),
  rules: z.array(SnapshotRuleFile),
  constraints: z.array(z.strictObject({ text: z.string(), span: TaskSpan, kind: SignalKind })),
  findings: z.array(z.strictObject({ finding: z.string(), reasons: z.array(Reason).min(1) })),
  unknowns: z.array(z.strictObject({ kind: z.enum(["unmatched", "ambiguous", "missing-requirement", "snapshot-limit"]), text: z.string(), detail: z.string() })),
});
export type ContextPackStage = z.infer<typeof ContextPackStage>;

// ── Stage 6: VERIFICATION ────────────────────────────────────────────────────────────────────

export const VerificationStage = z.strictObject({
  required: z.array(
    z.strictObject({
      checkId: z.string(),
      kind: z.enum(["test", "typecheck", "lint", "build", "review", "manual"]),
      description: z.string(),
      /** A command the project declares for it (e.g. an npm script), or null. */
      command: z.string().nullable(),
      reasons: z.array(Reason).min(1),
    }),
  ),
  /** Only checks with evidence that they ran; never claimed otherwise. */
  ran: z.array(z.strictObject({ checkId: z.string(), evidence: z.string(), passed: z.boolean() })),
  /** Required checks with no evidence yet (ids, sorted). */
  pending: z.array(z.string()),
});
export type VerificationStage = z.infer<typeof VerificationStage>;

// ── Stage 7: REVIEW ──────────────────────────────────────────────────────────────────────────

export const Seat = z.strictObject({
  reviewer: ReviewerId,
  /** The catalogue skill that holds the reviewer's instructions (null if it is unavailable). */
  skill: z.string().nullable(),
  asks: z.string(),
  reasons: z.array(Reason).min(1),
  /** Every seat in its real state: never dropped because it did not answer. */
  state: z.enum(["awaiting-report", "reported", "failed", "unavailable"]),
  findings: z.array(Finding),
  /** Findings produced by Docket's deterministic checks for this seat (also in `findings`). */
  checks: z.array(z.strictObject({ check: z.string(), passed: z.boolean(), detail: z.string(), citations: CheckCitations })),
  failure: z.string().nullable(),
});
export type Seat = z.infer<typeof Seat>;

export const ReviewStage = z.strictObject({
  seats: z.array(Seat).min(4).max(6),
  verdict: z.enum(["GO", "FIX_REQUIRED", "BLOCKED"]),
  verdictReasons: z.array(z.string()).min(1),
  /** Reports that were given but bound to another basis (ignored, said). */
  ignoredReports: z.array(z.strictObject({ reviewer: ReviewerId, basisSha256: sha256, why: z.string() })),
});
export type ReviewStage = z.infer<typeof ReviewStage>;

// ── The plan ─────────────────────────────────────────────────────────────────────────────────

/** The hash domain of `planSha256`. */
export const PLAN_FORMAT = "docket/router-plan/v1";

// Exactly these top-level keys (docs/router.md documents them for scripts reading `--json`).
export const Plan = z.strictObject({
  task: TaskStage,
  intent: IntentStage,
  routing: RoutingStage,
  composition: CompositionStage,
  contextPack: ContextPackStage,
  verification: VerificationStage,
  review: ReviewStage,
  /** sha256 of the canonical JSON of every other field (domain `docket/router-plan/v1`). */
  planSha256: sha256,
});
export type Plan = z.infer<typeof Plan>;
