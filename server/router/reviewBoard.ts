// Stage 7, REVIEW (design router.md "Review Board"): who sits, each with a stated reason; what
// Docket's deterministic checks found for each seat; which recorded reports count for this plan's
// basis; every seat in its real state; and the verdict. Pure: the reports arrive as data.
import { countOf } from "../plural";
import { canonicalize, compareCodeUnits } from "../ledger/canonicalJson";
import type {
  Catalogue,
  CatalogueEntry,
  CompositionStage,
  ContextPackStage,
  Finding,
  IntentStage,
  PlanOptions,
  Reason,
  ReviewStage,
  ReviewerId,
  RoutingStage,
  Seat,
  SeatReport,
  TaskStage,
  WorkspaceSnapshot,
} from "./planSchema";
import { deterministicChecks, touchedEntities } from "./reviewChecks";
import { findHotPaths } from "./snapshot/hotPaths";

/** Board order: the four permanent seats, then the performance specialist. */
export const REVIEWERS: readonly ReviewerId[] = ["code-reviewer", "security-auditor", "test-engineer", "architect", "performance-specialist"];

const PERMANENT_SEATS: readonly ReviewerId[] = ["code-reviewer", "security-auditor", "test-engineer", "architect"];

/** The question each reviewer answers (design router.md). */
export const REVIEWER_ASKS: Readonly<Record<ReviewerId, string>> = {
  "code-reviewer": "What does this code do that it does not say it does?",
  "security-auditor": "Who can reach this, and what can they make it do?",
  "test-engineer": "What would fail if this broke, and is there such a test?",
  architect: "Does this fit the project as it is?",
  "performance-specialist": "What does this cost, and what does the cost grow with?",
};

export const ALWAYS_SEATED_RULE = "the first four reviewers (code reviewer, security auditor, test engineer, architect) always sit";

export interface SeatAssignment {
  readonly reviewer: ReviewerId;
  readonly reasons: Reason[];
}

/** Whether `path` is `dir` or lies inside it (POSIX, on segment boundaries). */
export function isWithin(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}

function hotPathReasons(intent: IntentStage, snapshot: WorkspaceSnapshot): Reason[] {
  const reasons = new Map<string, Reason>();
  const touched = touchedEntities(intent);
  for (const entity of touched) {
    if (entity.kind === "technology" || entity.path === null) continue;
    const entityPath = entity.path;
    for (const hot of snapshot.hotPaths) {
      // A file inside a hot folder is hot; a folder or module that holds a hot path touches it.
      // The workspace root (".") would hold every hot path, so it does not count as touching one.
      const touches =
        hot.path === entityPath || isWithin(entityPath, hot.path) || (entity.kind !== "file" && entityPath !== "." && isWithin(hot.path, entityPath));
      if (touches) reasons.set(`${hot.path}\u0000${hot.hint}`, { kind: "hot-path", path: hot.path, hint: hot.hint });
    }
  }
  // The snapshot's hint list is capped; the same naming rule applied to the touched paths
  // themselves keeps a capped list from unseating the specialist.
  for (const entity of touched) {
    if ((entity.kind !== "file" && entity.kind !== "directory") || entity.path === null) continue;
    for (const hot of findHotPaths([entity.path], 1).hotPaths) reasons.set(`${hot.path}\u0000${hot.hint}`, { kind: "hot-path", path: hot.path, hint: hot.hint });
  }
  return [...reasons.entries()].sort(([left], [right]) => compareCodeUnits(left, right)).map(([, reason]) => reason);
}

/**
 * Seating is a pure function of the intent and the snapshot (the catalogue decides only which
 * skill a seat reads, never whether it sits). The performance specialist sits for a touched hot
 * path, a performance signal or an `optimize` task, or in `review` mode: a review run is the whole
 * point of that mode, so the whole board sits.
 */
export function seatBoard(intent: IntentStage, snapshot: WorkspaceSnapshot): SeatAssignment[] {
  const seats: SeatAssignment[] = PERMANENT_SEATS.map((reviewer) => ({ reviewer, reasons: [{ kind: "router-rule", rule: ALWAYS_SEATED_RULE }] }));
  const performance: Reason[] = [...hotPathReasons(intent, snapshot)];
  for (const signal of intent.signals) {
    if (signal.kind === "performance") performance.push({ kind: "task-span", span: signal.span, note: `performance signal "${signal.word}"` });
  }
  if (intent.domain.value === "optimize") {
    for (const reason of intent.domain.reasons) {
      if (reason.kind === "task-span") performance.push({ kind: "task-span", span: reason.span, note: "the task asks to optimize" });
    }
  }
  if (intent.executionMode.value === "review") performance.push({ kind: "execution-mode", mode: "review" });
  if (performance.length > 0) seats.push({ reviewer: "performance-specialist", reasons: dedupeReasons(performance) });
  return seats;
}

export function dedupeReasons(reasons: readonly Reason[]): Reason[] {
  const seen = new Set<string>();
  const result: Reason[] = [];
  for (const reason of reasons) {
    const key = canonicalize(reason);
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(reason);
  }
  return result;
}

function entryOrder(left: CatalogueEntry, right: CatalogueEntry): number {
  return compareCodeUnits(left.name, right.name) || compareCodeUnits(left.source, right.source) || compareCodeUnits(left.path, right.path);
}

/** The available catalogue entry that declares this seat (`routing.reviewer`), first by name/source/path; null when none is available. */
export function reviewerSkill(catalogue: Catalogue, reviewer: ReviewerId): CatalogueEntry | null {
  const entries = catalogue.entries.filter((entry) => entry.status === "available" && entry.metadata?.reviewer === reviewer).sort(entryOrder);
  return entries[0] ?? null;
}

function unavailableWhy(catalogue: Catalogue, reviewer: ReviewerId): string {
  const declared = catalogue.entries.filter((entry) => entry.metadata?.reviewer === reviewer).sort(entryOrder);
  const named = catalogue.entries.filter((entry) => entry.name === reviewer).sort(entryOrder);
  const broken = [...declared, ...named].find((entry) => entry.status === "unavailable");
  if (broken !== undefined) {
    const problem = broken.problem === null ? "unavailable" : `${broken.problem.code}: ${broken.problem.message}`;
    return `The catalogue's ${reviewer} skill (${broken.path}) is unavailable (${problem}).`;
  }
  return `The catalogue has no available skill with routing reviewer ${reviewer}.`;
}

interface SelectedReports {
  readonly latest: Map<ReviewerId, SeatReport>;
  readonly ignored: ReviewStage["ignoredReports"];
}

/** The latest report per seated reviewer for this basis (array order); every other report is listed with why. */
function selectReports(reports: readonly SeatReport[], basis: string, seated: ReadonlySet<ReviewerId>): SelectedReports {
  const latest = new Map<ReviewerId, SeatReport>();
  const ignored: ReviewStage["ignoredReports"] = [];
  const lastIndex = new Map<ReviewerId, number>();
  reports.forEach((report, index) => {
    if (report.basisSha256 === basis && seated.has(report.reviewer)) lastIndex.set(report.reviewer, index);
  });
  reports.forEach((report, index) => {
    if (report.basisSha256 !== basis) {
      ignored.push({
        reviewer: report.reviewer,
        basisSha256: report.basisSha256,
        why: `bound to basis ${report.basisSha256}, not this plan's ${basis}: the task, the workspace snapshot or the catalogue changed since it was written`,
      });
    } else if (!seated.has(report.reviewer)) {
      ignored.push({ reviewer: report.reviewer, basisSha256: report.basisSha256, why: `${report.reviewer} is not seated on this board` });
    } else if (lastIndex.get(report.reviewer) !== index) {
      ignored.push({ reviewer: report.reviewer, basisSha256: report.basisSha256, why: `superseded by a later ${report.reviewer} report for the same basis` });
    } else {
      latest.set(report.reviewer, report);
    }
  });
  return { latest, ignored };
}

/** Deterministic findings first, overridden by a report's finding with the same id (a reviewer may resolve or re-grade it); sorted by id. */
function mergeFindings(deterministic: readonly Finding[], report: SeatReport | undefined): Finding[] {
  const byId = new Map<string, Finding>();
  for (const item of deterministic) byId.set(item.findingId, item);
  for (const item of report?.findings ?? []) byId.set(item.findingId, item);
  return [...byId.values()].sort((left, right) => compareCodeUnits(left.findingId, right.findingId));
}

function buildSeat(
  assignment: SeatAssignment,
  intent: IntentStage,
  composition: CompositionStage,
  snapshot: WorkspaceSnapshot,
  catalogue: Catalogue,
  report: SeatReport | undefined,
): Seat {
  const skill = reviewerSkill(catalogue, assignment.reviewer);
  const determined = deterministicChecks(assignment.reviewer, intent, composition, snapshot);
  const findings = mergeFindings(determined.findings, report);
  const base = { reviewer: assignment.reviewer, skill: skill?.name ?? null, asks: REVIEWER_ASKS[assignment.reviewer], reasons: assignment.reasons, findings, checks: determined.checks };
  // A report counts even when the reviewer's skill is missing: the seat did its job without Docket's instructions.
  if (report !== undefined && report.outcome === "failed") {
    return { ...base, state: "failed", failure: report.failure ?? "The reviewer reported that it failed without saying why." };
  }
  if (report !== undefined) return { ...base, state: "reported", failure: null };
  if (skill === null) return { ...base, state: "unavailable", failure: unavailableWhy(catalogue, assignment.reviewer) };
  return { ...base, state: "awaiting-report", failure: null };
}

function verdictOf(seats: readonly Seat[], composition: CompositionStage, basis: string): Pick<ReviewStage, "verdict" | "verdictReasons"> {
  const blocking: string[] = [];
  const fixes: string[] = [];
  const blockingIssues = composition.issues.filter((issue) => issue.blocking && !issue.resolved);
  if (!composition.executable || blockingIssues.length > 0) {
    const why = composition.blockedBecause.length > 0 ? composition.blockedBecause : blockingIssues.map((issue) => `${issue.kind}: ${issue.detail}`);
    blocking.push(`The composition is blocked: ${why.length > 0 ? why.join("; ") : "it is not executable"}.`);
  }
  for (const seat of seats) {
    const unresolved = seat.findings.filter((item) => !item.resolved);
    const blockers = unresolved.filter((item) => item.severity === "blocking");
    if (blockers.length > 0) blocking.push(`${seat.reviewer} has ${countOf(blockers.length, "unresolved blocking finding")}: ${blockers.map((item) => item.findingId).join(", ")}.`);
    const others = unresolved.filter((item) => item.severity !== "blocking");
    if (others.length > 0) fixes.push(`${seat.reviewer} has ${countOf(others.length, "unresolved finding")}: ${others.map((item) => item.findingId).join(", ")}.`);
    if (seat.state === "awaiting-report") fixes.push(`${seat.reviewer} has not reported on basis ${basis} yet.`);
    if (seat.state === "failed") fixes.push(`${seat.reviewer} failed: ${seat.failure ?? "no reason given"}.`);
    if (seat.state === "unavailable") fixes.push(`${seat.reviewer} cannot sit: ${seat.failure ?? "its skill is unavailable"}`);
  }
  if (blocking.length > 0) return { verdict: "BLOCKED", verdictReasons: [...blocking, ...fixes] };
  if (fixes.length > 0) return { verdict: "FIX_REQUIRED", verdictReasons: fixes };
  return {
    verdict: "GO",
    verdictReasons: [`All ${seats.length} seated reviewers reported on basis ${basis} with no unresolved findings, and the composition is executable.`],
  };
}

export function reviewStage(
  _task: TaskStage,
  intent: IntentStage,
  _routing: RoutingStage,
  composition: CompositionStage,
  contextPack: ContextPackStage,
  snapshot: WorkspaceSnapshot,
  catalogue: Catalogue,
  options: PlanOptions,
): ReviewStage {
  const basis = contextPack.versions.basisSha256;
  const assignments = seatBoard(intent, snapshot);
  const { latest, ignored } = selectReports(options.reports, basis, new Set(assignments.map((seat) => seat.reviewer)));
  const seats = assignments.map((assignment) => buildSeat(assignment, intent, composition, snapshot, catalogue, latest.get(assignment.reviewer)));
  return { seats, ...verdictOf(seats, composition, basis), ignoredReports: ignored };
}
