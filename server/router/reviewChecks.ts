// The Review Board's deterministic checks (design router.md "Review Board": "reports come from
// deterministic checks where possible"). Each check is a fact about the snapshot, the intent or
// the composition that anyone can re-derive; a failing check becomes a finding with a stable id,
// so a seat's report can resolve it by naming the same id. Pure: no I/O.
import { compareCodeUnits, sha256Hex } from "../ledger/canonicalJson";
import type {
  Citation,
  CompositionStage,
  Finding,
  IntentEntity,
  IntentStage,
  ReviewerId,
  RiskItem,
  Severity,
  TaskSpan,
  WorkspaceSnapshot,
} from "./planSchema";

export interface SeatCheck {
  readonly check: string;
  readonly passed: boolean;
  readonly detail: string;
  readonly citations: Citation[];
}

export interface SeatCheckResult {
  readonly checks: SeatCheck[];
  /** One per failing check, ids stable across runs (`<reviewer>/<check>`). */
  readonly findings: Finding[];
}

// ── Test files ───────────────────────────────────────────────────────────────────────────────

const TEST_DIRECTORY_SEGMENTS = new Set(["test", "tests", "__tests__", "spec", "specs", "testing"]);

// Languages whose files a test can exercise; documentation, data and configuration files are
// touched without needing a test that references them.
const SOURCE_EXTENSIONS = new Set([
  "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "vue", "svelte",
  "go", "rs", "py", "java", "kt", "kts", "scala", "cs", "fs", "rb", "php", "swift",
  "c", "cc", "cpp", "cxx", "h", "hpp", "m", "ex", "exs", "dart", "lua", "sh",
]);

function basename(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? path : path.slice(slash + 1);
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot + 1);
}

/** The basename without its last extension (`webhook.ts` → `webhook`). */
export function stemOf(path: string): string {
  const name = basename(path);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? name : name.slice(0, dot);
}

/** A file that looks like a test by its name (`x.test.ts`, `x_test.go`, `test_x.py`, `XTest.java`) or place (`test/`, `__tests__/`). */
export function isTestFile(path: string): boolean {
  const name = basename(path);
  if (/\.(test|spec)\.[^.]+$/u.test(name) || /_test\.[^.]+$/u.test(name) || /^test_.+\.[^.]+$/u.test(name)) return true;
  if (/[a-z0-9]Tests?\.(java|kt|kts|scala|cs)$/u.test(name)) return true;
  return path.split("/").slice(0, -1).some((segment) => TEST_DIRECTORY_SEGMENTS.has(segment));
}

/** Source code a test could exercise (and that is not itself a test or a type declaration). */
export function isTestableSource(path: string): boolean {
  const name = basename(path);
  if (name.endsWith(".d.ts") || isTestFile(path)) return false;
  return SOURCE_EXTENSIONS.has(extensionOf(name));
}

/** Names a test of a file with this stem has: `<stem>.test.*`, `<stem>.spec.*`, `<stem>_test.*`, `test_<stem>.*`, `<Stem>Test(s).*`. */
function testNamePrefixes(stem: string): string[] {
  return [`${stem}.test.`, `${stem}.spec.`, `${stem}_test.`, `test_${stem}.`, `${stem}Test.`, `${stem}Tests.`];
}

function testNameMatches(testPath: string, prefixes: readonly string[]): boolean {
  const name = basename(testPath);
  // One extension after the prefix: `webhook.test.ts`, not `webhook.test.fixture.json`.
  return prefixes.some((prefix) => name.startsWith(prefix) && !name.slice(prefix.length).includes("."));
}

export interface TestReferences {
  readonly path: string;
  /** Test files that import the file (snapshot import graph). */
  readonly importedBy: string[];
  /** Test files whose name says they test it. */
  readonly byName: string[];
}

/** Test files that reference `path`, by import edge or by name; both lists sorted. */
export function testReferences(path: string, snapshot: WorkspaceSnapshot): TestReferences {
  const importedBy = new Set<string>();
  for (const edge of snapshot.imports) {
    if (edge.to === path && edge.from !== path && isTestFile(edge.from)) importedBy.add(edge.from);
  }
  const stem = stemOf(path);
  const prefixes = testNamePrefixes(stem);
  // Every test name contains the stem: the substring test only skips files cheaply, the name test decides.
  const byName = snapshot.files.filter((file) => file !== path && file.includes(stem) && testNameMatches(file, prefixes) && isTestFile(file));
  return { path, importedBy: [...importedBy].sort(compareCodeUnits), byName: [...new Set(byName)].sort(compareCodeUnits) };
}

/**
 * Grounded entities the change touches: a name inside a negative signal's target ("don't touch
 * src/cache") is context for the agent, not something the work changes.
 */
export function touchedEntities(intent: IntentStage): IntentEntity[] {
  const negated = intent.signals.flatMap((signal) => (signal.kind === "negative" && signal.target !== null ? [signal.target] : []));
  return intent.entities.filter((entity) => !negated.some((target) => target.start <= entity.span.start && entity.span.end <= target.end));
}

/** Grounded file entities a test should cover, deduplicated and sorted by path. */
export function touchedSourceFiles(intent: IntentStage): string[] {
  const paths = new Set<string>();
  for (const entity of touchedEntities(intent)) {
    if (entity.kind === "file" && entity.path !== null && isTestableSource(entity.path)) paths.add(entity.path);
  }
  return [...paths].sort(compareCodeUnits);
}

// ── Per-seat checks ──────────────────────────────────────────────────────────────────────────

function fileCitation(path: string): Citation {
  return { kind: "file", path, line: null };
}

/** A finding's bounds (planSchema's Finding): longer lists are cut and say so. */
const MAX_FINDING_CITATIONS = 50;
const MAX_FINDING_MESSAGE = 4000;
/** Candidates named in words; all of them stay in the intent stage's `ambiguous`. */
const MAX_NAMED_CANDIDATES = 10;

const MAX_FINDING_ID = 200;
/** Characters a shortened id ends with: "…#" and 16 hex digits of the whole id's digest. */
const DIGEST_TAIL = 18;

/**
 * `<reviewer>/<check>`, where a check names what the task said (an unmatched name, a path). A long
 * one is cut to the bound with a digest of the whole kept at its end, so ids stay unique, the same
 * for the same plan, and within what a report may send back.
 */
export function findingIdOf(reviewer: ReviewerId, check: string): string {
  const id = `${reviewer}/${check}`;
  if (id.length <= MAX_FINDING_ID) return id;
  let cut = MAX_FINDING_ID - DIGEST_TAIL;
  // Never leave half of a surrogate pair at the cut.
  if (/[\ud800-\udbff]/u.test(id.charAt(cut - 1))) cut -= 1;
  return `${id.slice(0, cut)}…#${sha256Hex(id).slice(0, 16)}`;
}

function finding(reviewer: ReviewerId, check: string, severity: Severity, message: string, citations: Citation[]): Finding {
  const text = message.length <= MAX_FINDING_MESSAGE ? message : `${message.slice(0, MAX_FINDING_MESSAGE - 1)}…`;
  return { findingId: findingIdOf(reviewer, check), severity, message: text, citations: citations.slice(0, MAX_FINDING_CITATIONS), resolved: false };
}

function namedList(items: readonly string[]): string {
  if (items.length <= MAX_NAMED_CANDIDATES) return items.join(", ");
  return `${items.slice(0, MAX_NAMED_CANDIDATES).join(", ")} and ${items.length - MAX_NAMED_CANDIDATES} more`;
}

/** Test engineer: "what would fail if this broke, and is there such a test?" — per touched source file. */
export function testEngineerChecks(intent: IntentStage, snapshot: WorkspaceSnapshot): SeatCheckResult {
  const checks: SeatCheck[] = [];
  const findings: Finding[] = [];
  for (const path of touchedSourceFiles(intent)) {
    const refs = testReferences(path, snapshot);
    const tests = [...new Set([...refs.importedBy, ...refs.byName])].sort(compareCodeUnits);
    const check = `test-reference:${path}`;
    if (tests.length > 0) {
      checks.push({ check, passed: true, detail: `${path} is referenced by ${tests.join(", ")}.`, citations: [fileCitation(path), ...tests.map(fileCitation)] });
    } else {
      const detail = `No test file references ${path} (no test imports it and no test is named after ${stemOf(path)}).`;
      checks.push({ check, passed: false, detail, citations: [fileCitation(path)] });
      findings.push(finding("test-engineer", check, "major", detail, [fileCitation(path)]));
    }
  }
  return { checks, findings };
}

function entityInSnapshot(entity: IntentEntity, snapshot: WorkspaceSnapshot): boolean {
  switch (entity.kind) {
    case "file":
      return entity.path !== null && snapshot.files.includes(entity.path);
    case "directory":
      return entity.path !== null && snapshot.directories.includes(entity.path);
    case "module":
      return snapshot.modules.some((module) => module.name === entity.value && (entity.path === null || module.path === entity.path));
    case "technology":
      return snapshot.technologies.some((technology) => technology.name === entity.value);
  }
}

/** Architect: "does this fit the project as it is?" — every entity is grounded and every composition issue is faced. */
export function architectChecks(intent: IntentStage, composition: CompositionStage, snapshot: WorkspaceSnapshot): SeatCheckResult {
  const checks: SeatCheck[] = [];
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const entity of intent.entities) {
    const check = `grounded:${entity.kind}:${entity.value}`;
    if (seen.has(check)) continue;
    seen.add(check);
    const citations = entity.path !== null && entity.kind !== "technology" ? [fileCitation(entity.path)] : [];
    if (entityInSnapshot(entity, snapshot)) {
      checks.push({ check, passed: true, detail: `The snapshot has ${entity.kind} ${entity.value}.`, citations });
    } else {
      // Grounding is the Router's promise: a plan built around something the project lacks must not run.
      const detail = `The plan names ${entity.kind} ${entity.value}, which the workspace snapshot does not have.`;
      checks.push({ check, passed: false, detail, citations });
      findings.push(finding("architect", check, "blocking", detail, citations));
    }
  }
  for (const issue of composition.issues) {
    const check = `composition:${issue.kind}:${[...issue.skills].sort(compareCodeUnits).join(",")}`;
    if (seen.has(check)) continue;
    seen.add(check);
    if (issue.resolved) {
      checks.push({ check, passed: true, detail: `Resolved by the composer: ${issue.detail}`, citations: [] });
    } else {
      const detail = `Unresolved composition issue (${issue.kind}): ${issue.detail}`;
      checks.push({ check, passed: false, detail, citations: [] });
      findings.push(finding("architect", check, issue.blocking ? "blocking" : "major", detail, []));
    }
  }
  return { checks, findings };
}

function spansOverlap(left: TaskSpan, right: TaskSpan): boolean {
  return left.start < right.end && right.start < left.end;
}

/** A risk item is security-tagged when its rule says so or it rests on a security signal the person wrote. */
export function isSecurityRisk(item: RiskItem, intent: IntentStage): boolean {
  if (/secur|auth|secret|credential|crypto|permission|inject/u.test(item.rule.toLowerCase())) return true;
  const securitySpans = intent.signals.filter((signal) => signal.kind === "security").map((signal) => signal.span);
  return item.reasons.some(
    (reason) =>
      (reason.kind === "task-span" && securitySpans.some((span) => spansOverlap(span, reason.span))) ||
      (reason.kind === "risk-rule" && /secur/u.test(reason.rule.toLowerCase())),
  );
}

const RISK_SEVERITY: Record<RiskItem["level"], Severity> = { high: "major", medium: "minor", low: "info" };

/** Security auditor: "who can reach this, and what can they make it do?" — each security risk needs the auditor's report. */
export function securityAuditorChecks(intent: IntentStage): SeatCheckResult {
  const checks: SeatCheck[] = [];
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const item of intent.risk) {
    if (!isSecurityRisk(item, intent)) continue;
    const check = `risk:${item.rule}`;
    if (seen.has(check)) continue;
    seen.add(check);
    const citations = item.reasons.flatMap((reason): Citation[] =>
      reason.kind === "snapshot-entity" && reason.path !== null && reason.entityKind !== "technology" ? [fileCitation(reason.path)] : [],
    );
    const detail = `Risk rule ${item.rule} (${item.level}) fired; the security auditor must report on it (resolve finding ${findingIdOf("security-auditor", check)}).`;
    checks.push({ check, passed: false, detail, citations });
    findings.push(finding("security-auditor", check, RISK_SEVERITY[item.level], detail, citations));
  }
  return { checks, findings };
}

/** Code reviewer: the names the task used that the plan cannot act on (unmatched or ambiguous) need the person's answer. */
export function codeReviewerChecks(intent: IntentStage): SeatCheckResult {
  const checks: SeatCheck[] = [];
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const unmatched of intent.unmatched) {
    const check = `unmatched:${unmatched.text}`;
    if (seen.has(check)) continue;
    seen.add(check);
    const detail = `The task names ${unmatched.looksLike} "${unmatched.text}", which matches nothing in the workspace (${unmatched.why}); the plan does not act on it.`;
    checks.push({ check, passed: false, detail, citations: [] });
    findings.push(finding("code-reviewer", check, "minor", detail, []));
  }
  for (const ambiguity of intent.ambiguous) {
    const check = `ambiguous:${ambiguity.text}`;
    if (seen.has(check)) continue;
    seen.add(check);
    const candidates = [...ambiguity.candidates].sort(compareCodeUnits);
    const detail = `"${ambiguity.text}" could be any of ${namedList(candidates)}; the plan does not guess which.`;
    const citations = ambiguity.kind === "file" ? candidates.map(fileCitation) : [];
    checks.push({ check, passed: false, detail, citations });
    findings.push(finding("code-reviewer", check, "minor", detail, citations));
  }
  return { checks, findings };
}

/** Every seat's deterministic checks (the performance specialist has none: its cost questions need a report). */
export function deterministicChecks(reviewer: ReviewerId, intent: IntentStage, composition: CompositionStage, snapshot: WorkspaceSnapshot): SeatCheckResult {
  switch (reviewer) {
    case "code-reviewer":
      return codeReviewerChecks(intent);
    case "security-auditor":
      return securityAuditorChecks(intent);
    case "test-engineer":
      return testEngineerChecks(intent, snapshot);
    case "architect":
      return architectChecks(intent, composition, snapshot);
    case "performance-specialist":
      return { checks: [], findings: [] };
  }
}
