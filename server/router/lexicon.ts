// The Router's closed word lists (router.md stage 2): which words name a domain, which words are
// signals, which phrases negate what follows (or, in Korean, what precedes), and which phrasings
// ask for a plan rather than changes. Docket ships English and Korean, so both are here. These are
// data, not heuristics: every domain and signal in a plan cites the span where one of these
// phrases matched (whole tokens via `findPhrase`, any case; Korean stems also match with a
// particle or verb ending attached, see matching.ts). docs/router.md lists them.
import type { Domain, SignalKind } from "./planSchema";

/** Regular English verb forms: base, third person, past, gerund ("fix" → fixes, fixed, fixing). */
function forms(base: string, options: { double?: boolean } = {}): string[] {
  const result = [base];
  if (/(?:s|x|z|ch|sh)$/u.test(base)) result.push(`${base}es`);
  else if (/[^aeiou]y$/u.test(base)) result.push(`${base.slice(0, -1)}ies`);
  else result.push(`${base}s`);
  if (base.endsWith("e")) result.push(`${base}d`, `${base.slice(0, -1)}ing`);
  else if (/[^aeiou]y$/u.test(base)) result.push(`${base.slice(0, -1)}ied`, `${base}ing`);
  else if (options.double === true) result.push(`${base}${base.slice(-1)}ed`, `${base}${base.slice(-1)}ing`);
  else result.push(`${base}ed`, `${base}ing`);
  return result;
}

function entries<T extends string>(value: T, phrases: readonly string[]): { phrase: string; value: T }[] {
  return phrases.map((phrase) => ({ phrase, value }));
}

// ── Domains ──────────────────────────────────────────────────────────────────────────────────

export interface LexiconEntry<T extends string> {
  /** Lower-case English, or a Korean stem. */
  readonly phrase: string;
  readonly value: T;
}

/** The first of these in the task (by position; the longer phrase at the same position) names the domain. */
export const DOMAIN_LEXICON: readonly LexiconEntry<Exclude<Domain, "unspecified">>[] = [
  ...entries("fix", [
    ...forms("fix"),
    ...forms("repair"),
    ...forms("patch"),
    ...forms("resolve"),
    "bug",
    "bugs",
    "bugfix",
    "bugfixes",
    "hotfix",
    "broken",
    "crash",
    "crashes",
    "crashed",
    "crashing",
    "regression",
    "regressions",
    "수정",
    "고치",
    "고쳐",
    "버그",
    "해결",
  ]),
  ...entries("add", [...forms("add"), ...forms("implement"), "implementation", ...forms("create"), ...forms("introduce"), ...forms("scaffold"), "추가", "구현", "만들", "만들어", "생성", "도입"]),
  ...entries("change", [
    ...forms("change"),
    ...forms("modify"),
    "modification",
    ...forms("update"),
    ...forms("edit"),
    ...forms("adjust"),
    ...forms("tweak"),
    ...forms("alter"),
    ...forms("replace"),
    "변경",
    "바꾸",
    "바꿔",
    "업데이트",
    "갱신",
  ]),
  ...entries("remove", [...forms("remove"), "removal", ...forms("delete"), "deletion", ...forms("drop", { double: true }), "get rid of", ...forms("uninstall"), ...forms("purge"), "삭제", "제거", "없애", "지워"]),
  ...entries("refactor", [
    ...forms("refactor"),
    "refactorings",
    ...forms("rename"),
    ...forms("restructure"),
    ...forms("reorganize"),
    ...forms("reorganise"),
    ...forms("extract"),
    ...forms("simplify"),
    ...forms("deduplicate"),
    "rewrite",
    "rewrites",
    "rewrote",
    "rewritten",
    "rewriting",
    "clean up",
    "cleans up",
    "cleaned up",
    "cleaning up",
    "cleanup",
    "리팩터",
    "리팩토링",
    "리팩터링",
  ]),
  ...entries("investigate", [
    ...forms("investigate"),
    "investigation",
    "why",
    ...forms("debug", { double: true }),
    ...forms("diagnose"),
    "diagnosis",
    ...forms("analyze"),
    ...forms("analyse"),
    "analysis",
    ...forms("explain"),
    ...forms("trace"),
    "figure out",
    "find out",
    "look into",
    "root cause",
    "조사",
    "분석",
    "디버그",
    "디버깅",
    "원인",
    "왜",
  ]),
  ...entries("review", [...forms("review"), ...forms("audit"), "look over", "code review", "리뷰", "검토"]),
  ...entries("test", [...forms("test"), "unit test", "unit tests", "테스트"]),
  ...entries("document", [...forms("document"), "documentation", "docs", "문서", "문서화"]),
  ...entries("optimize", [
    ...forms("optimize"),
    ...forms("optimise"),
    "optimization",
    "optimisation",
    "speed up",
    "speeds up",
    "sped up",
    "speeding up",
    "make faster",
    "improve performance",
    "최적화",
  ]),
  ...entries("migrate", [...forms("migrate"), "migration", "migrations", "마이그레이션", "이관"]),
  ...entries("configure", [...forms("configure"), "configuration", "config", "set up", "sets up", "setting up", "setup", ...forms("enable"), ...forms("disable"), "설정", "구성"]),
  ...entries("upgrade", [
    ...forms("upgrade"),
    ...forms("downgrade"),
    ...forms("bump"),
    // Longer than "update" at the same position, so they win over the change verb.
    "update dependencies",
    "update the dependencies",
    "update deps",
    "업그레이드",
  ]),
  ...entries("secure", [...forms("secure"), ...forms("harden"), ...forms("sanitize"), ...forms("sanitise"), "보안 강화"]),
];

// ── Signals ──────────────────────────────────────────────────────────────────────────────────

export type PlainSignalKind = Exclude<SignalKind, "negative">;

/** Words that are signals on their own; a phrase contained in a longer one of the same kind yields to it. */
export const SIGNAL_LEXICON: readonly LexiconEntry<PlainSignalKind>[] = [
  ...entries("constraint", [
    "don't guess",
    "do not guess",
    "dont guess",
    "no guessing",
    "must",
    "must not",
    "mustn't",
    "only",
    "exactly",
    "never",
    "strictly",
    "at most",
    "at least",
    "no more than",
    "추측하지",
    "추측 금지",
    "반드시",
    "절대",
    "정확히",
    "오직",
  ]),
  ...entries("urgency", [
    "urgent",
    "urgently",
    "asap",
    "hotfix",
    "prod is down",
    "production is down",
    "site is down",
    "prod down",
    "emergency",
    "immediately",
    "outage",
    "right now",
    "blocker",
    "긴급",
    "급해",
    "급함",
    "급한",
    "당장",
    "장애",
  ]),
  ...entries("security", [
    "auth",
    "authn",
    "authz",
    "authentication",
    "authenticate",
    "authorization",
    "authorisation",
    "authorize",
    "oauth",
    "login",
    "log in",
    "token",
    "tokens",
    "secret",
    "secrets",
    "password",
    "passwords",
    "credential",
    "credentials",
    "injection",
    "sql injection",
    "xss",
    "csrf",
    "ssrf",
    "rce",
    "cors",
    "permission",
    "permissions",
    "privilege",
    "privileges",
    "access control",
    "vulnerability",
    "vulnerabilities",
    "vulnerable",
    "exploit",
    "cve",
    "security",
    "encryption",
    "encrypt",
    "decrypt",
    "jwt",
    "api key",
    "api keys",
    "sanitize",
    "sanitization",
    "보안",
    "인증",
    "권한",
    "비밀번호",
    "토큰",
    "취약점",
    "암호화",
    "시크릿",
    "로그인",
  ]),
  ...entries("performance", [
    "slow",
    "slower",
    "slowly",
    "slowness",
    "slowdown",
    "latency",
    "performance",
    "perf",
    "memory",
    "memory leak",
    "leak",
    "leaks",
    "fast",
    "faster",
    "speed up",
    "sped up",
    "speeding up",
    "hot path",
    "hot paths",
    "throughput",
    "cpu",
    "bottleneck",
    "lag",
    "laggy",
    "느림",
    "느려",
    "느리",
    "느린",
    "성능",
    "속도",
    "메모리",
    "지연",
    "병목",
  ]),
  ...entries("compatibility", [
    "backward compatible",
    "backwards compatible",
    "backward compatibility",
    "backwards compatibility",
    "compatibility",
    "compatible",
    "incompatible",
    "breaking",
    "breaking change",
    "breaking changes",
    "deprecate",
    "deprecated",
    "deprecation",
    "deprecating",
    "migration",
    "migrations",
    "api",
    "apis",
    "public api",
    "semver",
    "legacy",
    "호환",
    "호환성",
    "하위 호환",
    "마이그레이션",
    "지원 중단",
  ]),
  ...entries("testing", [
    "test",
    "tests",
    "tested",
    "testing",
    "unit test",
    "unit tests",
    "regression test",
    "e2e",
    "end-to-end",
    "coverage",
    "flaky",
    "fixture",
    "fixtures",
    "mock",
    "mocks",
    "테스트",
    "커버리지",
  ]),
  ...entries("documentation", [
    "doc",
    "docs",
    "documentation",
    "document",
    "documented",
    "readme",
    "changelog",
    "jsdoc",
    "docstring",
    "docstrings",
    "comment",
    "comments",
    "guide",
    "tutorial",
    "문서",
    "주석",
    "설명서",
  ]),
  ...entries("data", [
    "migration",
    "migrations",
    "schema",
    "schemas",
    "database",
    "databases",
    "db",
    "sql",
    "delete data",
    "drop table",
    "data loss",
    "backup",
    "backups",
    "production data",
    "user data",
    "data model",
    "데이터",
    "스키마",
    "데이터베이스",
    "마이그레이션",
    "디비",
  ]),
];

// ── Negative signals ─────────────────────────────────────────────────────────────────────────

/** Where a negative trigger's target lies: the words after it (English), before it (Korean), or up to an end marker. */
export type TargetPlace = "after" | "before" | "between";

export interface NegativeEntry {
  readonly phrase: string;
  readonly place: TargetPlace;
  /** For "between": the words that close the target ("leave X alone"). */
  readonly until: readonly string[];
  /** Korean "X 수정 금지": the verb noun right before the trigger is not part of the target. */
  readonly skipsVerb?: boolean;
}

const NEGATORS = ["don't", "do not", "dont", "never"];
const NEGATED_VERBS = [
  "touch",
  "change",
  "modify",
  "edit",
  "use",
  "add",
  "write",
  "run",
  "update",
  "delete",
  "remove",
  "refactor",
  "break",
  "rename",
  "move",
  "call",
  "import",
  "install",
  "create",
  "alter",
  "upgrade",
  "bump",
  "introduce",
  "commit",
];
/** "-ing" forms of the negated verbs: "without touching billing" negates "billing". */
export const NEGATED_GERUNDS: ReadonlySet<string> = new Set([
  "touching",
  "changing",
  "modifying",
  "editing",
  "using",
  "adding",
  "writing",
  "running",
  "updating",
  "deleting",
  "removing",
  "refactoring",
  "breaking",
  "renaming",
  "moving",
  "calling",
  "importing",
  "installing",
  "creating",
  "altering",
  "upgrading",
  "bumping",
  "introducing",
  "committing",
]);
const LEAVE_UNTIL = ["alone", "as is", "as-is", "unchanged", "untouched", "intact"];

export const NEGATIVE_LEXICON: readonly NegativeEntry[] = [
  ...NEGATORS.flatMap((negator) => NEGATED_VERBS.map((verb): NegativeEntry => ({ phrase: `${negator} ${verb}`, place: "after", until: [] }))),
  ...["without", "except", "except for", "excluding", "exclude", "other than", "but not", "avoid", "skip", "no", "not including"].map(
    (phrase): NegativeEntry => ({ phrase, place: "after", until: [] }),
  ),
  { phrase: "leave", place: "between", until: LEAVE_UNTIL },
  { phrase: "keep", place: "between", until: LEAVE_UNTIL.filter((word) => word !== "alone") },
  ...[
    "건드리지 마",
    "건드리지 말",
    "손대지 마",
    "손대지 말",
    "수정하지 마",
    "수정하지 말",
    "변경하지 마",
    "변경하지 말",
    "바꾸지 마",
    "바꾸지 말",
    "고치지 마",
    "고치지 말",
    "제외",
    "빼고",
    "없이",
    "말고",
  ].map((phrase): NegativeEntry => ({ phrase, place: "before", until: [] })),
  { phrase: "금지", place: "before", until: [], skipsVerb: true },
];

/** Words after "no" that make it an idiom, not a negation ("no longer", "no matter"). */
export const NO_IDIOMS: ReadonlySet<string> = new Set(["longer", "more", "less", "one", "matter", "way", "need", "idea", "doubt", "problem", "worries", "thanks", "sooner", "further", "such", "guessing"]);

/** Words that end a negated target (a new clause starts). */
export const CLAUSE_WORDS: ReadonlySet<string> = new Set([
  "and",
  "but",
  "or",
  "nor",
  "then",
  "so",
  "because",
  "while",
  "when",
  "whenever",
  "if",
  "unless",
  "until",
  "since",
  "instead",
  "though",
  "although",
  "as",
  "just",
  "please",
  "rather",
  "yet",
  "also",
]);

/** Leading words dropped from a negated target ("don't touch the billing module" → "billing module"). */
export const DETERMINERS: ReadonlySet<string> = new Set(["the", "a", "an", "any", "our", "my", "your", "their", "this", "that", "these", "those", "its", "his", "her"]);

/** The most words a negated target spans (after dropped determiners). */
export const MAX_TARGET_WORDS = 4;
/** The most words before a Korean negative trigger read as its target. */
export const MAX_TARGET_WORDS_BEFORE = 2;

/** Korean word endings of a verb or clause: a preceding word ending so is not part of the target. */
export const KOREAN_CLAUSE_ENDINGS: readonly string[] = ["는데", "지만", "니까", "고", "되", "서", "며", "면", "데", "요", "다"];

/** Korean particles stripped from the end of a target ("결제 모듈은" → "결제 모듈"), longest first. */
export const KOREAN_PARTICLES: readonly string[] = ["에서는", "에서", "으로", "로는", "에는", "은", "는", "이", "가", "을", "를", "도", "의", "에", "로", "와", "과", "만"];

// ── Execution mode ───────────────────────────────────────────────────────────────────────────

/** Phrasings that ask for a plan, not changes (any of them makes the mode plan-only). */
export const PLAN_ONLY_LEXICON: readonly string[] = [
  "plan only",
  "only plan",
  "just plan",
  "make a plan",
  "write a plan",
  "draft a plan",
  "a plan for",
  "plan out",
  "how would",
  "how should",
  "how could",
  "how do i",
  "how do we",
  "how can i",
  "how can we",
  "explain",
  "propose",
  "outline",
  "dry run",
  "don't implement",
  "do not implement",
  "no code changes",
  "계획",
  "설명",
  "어떻게",
];
/** A task whose first word is this asks for a plan ("Plan the migration to pnpm"). */
export const PLAN_FIRST_WORD = "plan";

// ── Names ────────────────────────────────────────────────────────────────────────────────────

/** Words after a name that say it names a module or package ("the billing module"). */
export const MODULE_QUALIFIERS: readonly string[] = ["module", "modules", "package", "packages", "crate", "crates", "library", "모듈", "패키지", "라이브러리"];
/** Words after a name that say it names a folder ("the payments folder"). */
export const FOLDER_QUALIFIERS: readonly string[] = ["folder", "folders", "directory", "directories", "dir", "폴더", "디렉터리", "디렉토리"];

/**
 * Words before a qualifier that are not names of a missing module ("the new module", "the Go
 * module"): when the snapshot has no module or folder by that name, nothing is reported.
 */
export const NOT_NAMES: ReadonlySet<string> = new Set([
  "the",
  "a",
  "an",
  "this",
  "that",
  "these",
  "those",
  "new",
  "every",
  "each",
  "any",
  "some",
  "our",
  "my",
  "your",
  "its",
  "their",
  "whole",
  "entire",
  "same",
  "other",
  "another",
  "which",
  "what",
  "one",
  "root",
  "top",
  "sub",
  "node",
  "npm",
  "go",
  "python",
  "rust",
  "java",
  "javascript",
  "typescript",
  "js",
  "ts",
  "es",
  "esm",
  "commonjs",
  "cjs",
  "workspace",
  "third-party",
  "external",
  "internal",
  "shared",
  "right",
  "correct",
  "wrong",
  "separate",
  "small",
  "big",
  "large",
  "single",
  "given",
  "first",
  "last",
  "next",
  "previous",
  "relevant",
  "existing",
  "old",
  "current",
  "affected",
  "specific",
  "corresponding",
  "parent",
  "child",
  "nested",
  "local",
  "remote",
  "public",
  "private",
  "empty",
  "missing",
  "main",
  "base",
  "common",
  "helper",
  "utility",
  "following",
  "above",
  "below",
  "own",
  "이",
  "그",
  "새",
  "해당",
]);

/** Dotted names that are technologies, not files ("Node.js"), when the snapshot does not list them. */
export const DOTTED_TECHNOLOGY_NAMES: ReadonlySet<string> = new Set([
  "node.js",
  "next.js",
  "nuxt.js",
  "vue.js",
  "react.js",
  "express.js",
  "nest.js",
  "d3.js",
  "three.js",
  "chart.js",
  "ember.js",
  "backbone.js",
  "socket.io",
  "asp.net",
  "ado.net",
  "vb.net",
]);

/** Last segments of dotted names that are web domains, not extensions ("example.com"). */
export const DOMAIN_SUFFIXES: ReadonlySet<string> = new Set(["com", "org", "net", "io", "co", "gov", "edu"]);

/** Basenames of package manifests and lock files (touching one changes dependencies or builds). */
export const MANIFEST_NAMES: ReadonlySet<string> = new Set([
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "pnpm-workspace.yaml",
  "bun.lockb",
  "deno.json",
  "go.mod",
  "go.sum",
  "go.work",
  "Cargo.toml",
  "Cargo.lock",
  "pyproject.toml",
  "setup.py",
  "setup.cfg",
  "requirements.txt",
  "Pipfile",
  "Pipfile.lock",
  "poetry.lock",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "settings.gradle",
  "settings.gradle.kts",
  "Gemfile",
  "Gemfile.lock",
  "composer.json",
  "composer.lock",
  "mix.exs",
  "Package.swift",
]);
/** Manifest basenames by pattern (requirements-dev.txt, App.csproj). */
export const MANIFEST_PATTERNS: readonly RegExp[] = [/^requirements[-_.][^/]*\.txt$/u, /\.(?:csproj|fsproj|vbproj|sln)$/u];

/** Path segments that mark security-sensitive code (a grounded file under `auth/` touches authentication). */
export const SECURITY_PATH_SEGMENTS: ReadonlySet<string> = new Set([
  "auth",
  "authn",
  "authz",
  "authentication",
  "authorization",
  "security",
  "crypto",
  "secrets",
  "secret",
  "permissions",
  "login",
  "oauth",
  "session",
  "sessions",
  "password",
  "passwords",
  "credentials",
  "acl",
]);

/** Grounded files, folders and modules at or above this count make a wide change. */
export const MANY_ENTITIES = 5;

// ── Word roles (Docket rule, router.md "Word roles and fit") ─────────────────────────────────

/**
 * Verbs that say what the code should *do* (trim, validate, print …), as opposed to the domain
 * verbs above, which say what the person wants done *to the code*. A noun such a verb acts on is
 * data the code handles ("trim the name"), not a subject a skill judges. None of these is a domain
 * word or a bundled skill's signal (a test checks), so the two lists never disagree.
 */
export const BEHAVIOUR_VERBS: ReadonlySet<string> = new Set([
  ...forms("trim", { double: true }),
  ...forms("strip", { double: true }),
  ...forms("pad", { double: true }),
  ...forms("validate"),
  ...forms("check"),
  ...forms("parse"),
  ...forms("format", { double: true }),
  ...forms("print"),
  ...forms("log", { double: true }),
  ...forms("display"),
  ...forms("show"),
  "shown",
  ...forms("render"),
  ...forms("return"),
  ...forms("accept"),
  ...forms("reject"),
  ...forms("handle"),
  ...forms("escape"),
  ...forms("encode"),
  ...forms("decode"),
  ...forms("normalize"),
  ...forms("normalise"),
  ...forms("lowercase"),
  ...forms("uppercase"),
  ...forms("capitalize"),
  ...forms("capitalise"),
  ...forms("sort"),
  ...forms("filter"),
  ...forms("truncate"),
  ...forms("store"),
  ...forms("save"),
  ...forms("load"),
  ...forms("send"),
  "sent",
  ...forms("fetch"),
  ...forms("compute"),
  ...forms("calculate"),
  ...forms("count"),
  ...forms("compare"),
  ...forms("hash"),
  ...forms("include"),
  ...forms("append"),
  ...forms("prepend"),
  ...forms("emit", { double: true }),
  ...forms("convert"),
  ...forms("serialize"),
  ...forms("greet"),
  ...forms("limit"),
  ...forms("round"),
  ...forms("reverse"),
  ...forms("ignore"),
  ...forms("allow"),
  ...forms("throw"),
  "threw",
  "thrown",
  ...forms("warn"),
  "split",
  "splits",
  "splitting",
  "read",
  "reads",
  "reading",
]);

/**
 * Korean behaviour-verb stems (다듬다 trim, 검증하다 validate, 출력하다 print …). They count only
 * with a verb ending attached ("다듬어", "출력하게"), never with a noun particle ("출력을").
 */
export const KOREAN_BEHAVIOUR_STEMS: readonly string[] = [
  "다듬",
  "잘라",
  "자르",
  "검증",
  "출력",
  "표시",
  "반환",
  "정렬",
  "저장",
  "변환",
  "파싱",
  "처리",
  "검사",
  "무시",
  "허용",
  "거부",
  "보여",
  "보내",
  "전송",
];

/**
 * Words right before an imperative behaviour verb ("should trim", "to trim", "please trim"). The
 * task's first word and "make/let/have X <verb>" ("make greet.ts trim the name") count too.
 */
export const COMMAND_LEADS: ReadonlySet<string> = new Set(["please", "should", "shall", "must", "will", "would", "to", "also", "always", "now", "not", "never", "can"]);
/** Causative verbs: "make greet.ts trim the name" asks greet.ts to behave differently. */
export const CAUSATIVE_VERBS: ReadonlySet<string> = new Set(["make", "makes", "let", "lets", "have", "has", "get", "gets"]);
/** How many words a causative verb's object may span before the behaviour verb ("make the greeting trim"). */
export const MAX_CAUSATIVE_OBJECT_WORDS = 3;
/** How many words may stand before a lead or causative ("can you make …", "greet.ts should …"). */
export const MAX_SUBJECT_WORDS = 4;
/** How many words back from a signal word its governing verb may stand ("trim whitespace from the name"). */
export const MAX_GOVERNING_DISTANCE = 5;
/** Domains whose verb names what it acts on rather than the work ("add a unit test" is a test task). */
export const OBJECT_NAMES_DOMAIN: ReadonlySet<string> = new Set(["add", "change"]);
/** Korean object particles: "이름을 다듬어" — the noun before them is what the verb acts on. */
export const KOREAN_OBJECT_PARTICLES: readonly string[] = ["을", "를"];
