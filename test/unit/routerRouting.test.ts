// Stage 3, SKILL ROUTING (server/router/routing.ts): declared reasons from routing metadata and
// their weights, reviewer skills only when named, weaker description-token reasons for skills
// without metadata, negative signals excluding skills, unavailable entries said, and an empty
// catalogue routing nothing without a crash. Intents are built by hand so these tests pin routing
// alone.
import assert from "node:assert/strict";
import { test } from "node:test";
import { catalogueFromSources, type SkillSource } from "../../server/router/catalogue";
import { ROUTING_WEIGHTS, routeSkills } from "../../server/router/routing";
import { findPhrase } from "../../server/router/matching";
import { parseTask } from "../../server/router/task";
import {
  RoutingStage,
  type Catalogue,
  type Domain,
  type ExecutionMode,
  type IntentEntity,
  type IntentStage,
  type RiskItem,
  type Signal,
  type TaskStage,
} from "../../server/router/planSchema";

function skill(name: string, routing: string | null, description = `The ${name} skill.`): SkillSource {
  const extra = routing === null ? "" : `routing: ${routing}\n`;
  return { source: "workspace", path: `.claude/skills/${name}/SKILL.md`, skill: Buffer.from(`---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n${extra}---\nBody\n`), routing: null };
}

function span(task: TaskStage, phrase: string): { start: number; end: number; text: string } {
  const found = findPhrase(task, phrase)[0];
  assert.ok(found !== undefined, `"${phrase}" is in the task`);
  return found;
}

interface IntentParts {
  domain?: Domain;
  domainWord?: string;
  entities?: IntentEntity[];
  signals?: Signal[];
  risk?: RiskItem[];
  mode?: ExecutionMode;
}

function intent(task: TaskStage, parts: IntentParts = {}): IntentStage {
  return {
    domain: { value: parts.domain ?? "unspecified", reasons: parts.domainWord === undefined ? [] : [{ kind: "task-span", span: span(task, parts.domainWord), note: "verb" }] },
    entities: parts.entities ?? [],
    unmatched: [],
    ambiguous: [],
    signals: parts.signals ?? [],
    risk: parts.risk ?? [],
    executionMode: { value: parts.mode ?? "plan-only", reasons: [{ kind: "router-rule", rule: "test" }] },
  };
}

function route(text: string, catalogue: Catalogue, parts: IntentParts = {}): RoutingStage {
  const task = parseTask(text);
  return RoutingStage.parse(routeSkills(task, intent(task, parts), catalogue));
}

test("an empty catalogue routes nothing and does not crash", () => {
  assert.deepEqual(route("fix the webhook", { entries: [] }, { domain: "fix", domainWord: "fix" }), {
    candidates: [],
    setAside: [],
    fit: { outcome: "no-skill-fits", reasons: [{ kind: "router-rule", rule: "no skill fits well: the catalogue has no available skill" }] },
    excluded: [],
    unavailable: [],
  });
});

test("declared fields give catalogue-field reasons with the documented weights", () => {
  const catalogue = catalogueFromSources([
    skill("payments", "{ domains: [fix], signals: [webhook, rate limit], technologies: [typescript], entityKinds: [file], riskTags: [secrets], modes: [implement] }"),
    skill("docs", "{ domains: [document] }"),
  ]);
  const text = "Fix the webhook rate limit in webhook.ts (TypeScript)";
  const task = parseTask(text);
  const entities: IntentEntity[] = [
    { kind: "file", value: "src/webhook.ts", span: span(task, "webhook.ts"), path: "src/webhook.ts" },
    { kind: "technology", value: "TypeScript", span: span(task, "TypeScript"), path: "package.json" },
  ];
  const risk: RiskItem[] = [{ rule: "secrets", level: "high", reasons: [{ kind: "task-span", span: span(task, "webhook"), note: "x" }] }];
  const routing = route(text, catalogue, { domain: "fix", domainWord: "Fix", entities, risk, mode: "implement" });
  assert.equal(routing.candidates.length, 1);
  const candidate = routing.candidates[0];
  assert.equal(candidate?.skill, "payments");
  assert.equal(candidate?.strength, "declared");
  assert.equal(candidate?.role, "work");
  assert.deepEqual(
    candidate?.reasons.map((reason) => (reason.kind === "catalogue-field" ? `${reason.field}=${reason.value}@${reason.span?.text ?? "-"}` : reason.kind)),
    ["domains=fix@Fix", "signals=webhook@webhook", "signals=rate limit@rate limit", "technologies=typescript@TypeScript", "entityKinds=file@webhook.ts", "riskTags=secrets@webhook", "modes=implement@-"],
  );
  const w = ROUTING_WEIGHTS;
  assert.equal(candidate?.score, w.domains + 2 * w.signals + w.technologies + w.entityKinds + w.riskTags + w.modes);
});

test("signals match whole tokens only, and mode or entity kind alone selects nothing", () => {
  const catalogue = catalogueFromSources([skill("web", "{ signals: [web, Go], entityKinds: [file], modes: [implement] }")]);
  const task = parseTask("going to change the webhook in a.ts");
  const entities: IntentEntity[] = [{ kind: "file", value: "a.ts", span: span(task, "a.ts"), path: "a.ts" }];
  assert.deepEqual(route("going to change the webhook in a.ts", catalogue, { entities, mode: "implement" }).candidates, []);
  assert.equal(route("the web page", catalogue).candidates[0]?.skill, "web");
});

test("candidates sort by score, then name", () => {
  const catalogue = catalogueFromSources([
    skill("zeta", "{ signals: [cache, eviction] }"),
    skill("beta", "{ signals: [cache] }"),
    skill("alpha", "{ signals: [eviction] }"),
  ]);
  assert.deepEqual(route("cache eviction is slow", catalogue).candidates.map((item) => [item.skill, item.score]), [
    ["zeta", 2 * ROUTING_WEIGHTS.signals],
    ["alpha", ROUTING_WEIGHTS.signals],
    ["beta", ROUTING_WEIGHTS.signals],
  ]);
});

test("reviewer skills are candidates only when the task names them", () => {
  const catalogue = catalogueFromSources([skill("security-auditor", "{ role: review, reviewer: security-auditor, domains: [review], signals: [auth] }")]);
  assert.deepEqual(route("review the auth flow", catalogue, { domain: "review", domainWord: "review" }).candidates, []);
  const named = route("ask the security auditor to review the auth flow", catalogue, { domain: "review", domainWord: "review" });
  assert.equal(named.candidates[0]?.skill, "security-auditor");
  assert.equal(named.candidates[0]?.role, "review");
  const first = named.candidates[0]?.reasons[0];
  assert.ok(first?.kind === "catalogue-field" && first.field === "name" && first.span?.text === "security auditor");
});

test("a one-word skill name counts only next to the word skill; hyphenated names count alone", () => {
  const catalogue = catalogueFromSources([skill("model", "{ signals: [invariant] }"), skill("naming-judgment", "{ signals: [rename] }")]);
  assert.deepEqual(route("add a model for users", catalogue).candidates, []);
  const named = route("use the model skill, then naming judgment", catalogue);
  assert.deepEqual(named.candidates.map((item) => [item.skill, item.score]), [["model", ROUTING_WEIGHTS.name], ["naming-judgment", ROUTING_WEIGHTS.name]]);
  const first = named.candidates[0]?.reasons[0];
  assert.ok(first?.kind === "catalogue-field" && first.field === "name" && first.span?.text === "model skill");
});

test("skills without metadata route on description tokens, weaker and labelled", () => {
  const catalogue = catalogueFromSources([
    skill("pdf-tools", null, "Fill PDF forms and extract tables from documents."),
    skill("declared", "{ signals: [tables] }"),
    skill("teller", null, "테스트 코드를 작성합니다."),
    skill("db-kit", null, "Apply SQL migrations."),
  ]);
  const routing = route("Extract the tables from this pdf and the forms", catalogue);
  assert.deepEqual(routing.candidates.map((item) => [item.skill, item.strength, item.score]), [
    ["declared", "declared", ROUTING_WEIGHTS.signals],
    ["pdf-tools", "description", 4 * ROUTING_WEIGHTS.descriptionToken],
  ]);
  const tokens = routing.candidates[1]?.reasons.map((reason) => (reason.kind === "description-token" ? reason.token : reason.kind));
  // "pdf" matches the name as written; stop words ("the", "from", "this", "and") never count.
  assert.deepEqual(tokens, ["extract", "tables", "pdf", "forms"]);
  assert.deepEqual(route("the and this from", catalogue).candidates, []);
  // Words of three letters or fewer match only as written.
  assert.deepEqual(route("sql", catalogue).candidates, []);
  assert.deepEqual(route("SQL", catalogue).candidates.map((item) => item.skill), ["db-kit"]);
  const korean = route("테스트를 추가해줘", catalogue);
  assert.equal(korean.candidates[0]?.skill, "teller");
  assert.deepEqual(korean.candidates[0]?.reasons.map((reason) => (reason.kind === "description-token" ? [reason.token, reason.span.text] : [])), [["테스트", "테스트를"]]);
});

test("a negative signal's target excludes a skill by excludedBy word or by name", () => {
  const catalogue = catalogueFromSources([
    skill("tester", "{ signals: [coverage], excludedBy: [tests] }"),
    skill("doctor", "{ signals: [coverage] }"),
    skill("fixer", "{ signals: [coverage] }"),
  ]);
  const text = "raise coverage but don't touch the tests or the doctor skill";
  const task = parseTask(text);
  const negation = span(task, "don't touch");
  const target = { start: span(task, "the tests").start, end: task.text.length, text: task.text.slice(span(task, "the tests").start) };
  const signals: Signal[] = [{ kind: "negative", word: "don't touch", span: negation, target }];
  const routing = route(text, catalogue, { signals });
  assert.deepEqual(routing.candidates.map((item) => item.skill), ["fixer"]);
  assert.deepEqual(routing.excluded.map((item) => item.skill), ["doctor", "tester"]);
  const tester = routing.excluded[1]?.reasons ?? [];
  assert.ok(tester[0]?.kind === "task-span" && tester[0].span.text === "don't touch");
  assert.ok(tester[1]?.kind === "catalogue-field" && tester[1].field === "excludedBy" && tester[1].span?.text === "tests");
  const doctor = routing.excluded[0]?.reasons ?? [];
  assert.ok(doctor[1]?.kind === "catalogue-field" && doctor[1].field === "name");
  // Outside the target the same word does not exclude.
  const other = "run the tests for coverage, don't touch the doctor skill";
  const before = route(other, catalogue, {
    signals: [{ kind: "negative", word: "don't touch", span: span(parseTask(other), "don't touch"), target: span(parseTask(other), "the doctor skill") }],
  });
  assert.deepEqual(before.candidates.map((item) => item.skill), ["fixer", "tester"]);
  assert.deepEqual(before.excluded.map((item) => item.skill), ["doctor"]);
  // A one-word name alone is an ordinary word ("the doctor"), not a mention of the skill.
  const plain = "raise coverage, don't touch the doctor";
  const ordinary = route(plain, catalogue, { signals: [{ kind: "negative", word: "don't touch", span: span(parseTask(plain), "don't touch"), target: span(parseTask(plain), "the doctor") }] });
  assert.deepEqual(ordinary.excluded, []);
});

test("unavailable entries are listed with their problem and never routed", () => {
  const catalogue = catalogueFromSources([
    skill("broken", "{ signals: [coverage], colour: red }"),
    { source: "workspace", path: ".github/skills/bad/SKILL.md", skill: Buffer.from([0xff]), routing: null },
  ]);
  const routing = route("coverage please", catalogue);
  assert.deepEqual(routing.candidates, []);
  assert.deepEqual(routing.unavailable.map((item) => [item.skill, item.path, item.code]), [
    ["bad", ".github/skills/bad/SKILL.md", "skill-not-utf8"],
    ["broken", ".claude/skills/broken/SKILL.md", "skill-routing-invalid"],
  ]);
});

test("word roles: a one-word signal a behaviour verb acts on is an object (1 point, never an anchor); phrases and other uses select", () => {
  const catalogue = catalogueFromSources([skill("namer", "{ signals: [name] }"), skill("caser", "{ signals: [edge cases] }"), skill("plain", null, "Chooses names for things.")]);
  const trimmed = route("make greet.ts trim the name", catalogue, { domain: "change", domainWord: "trim" });
  assert.deepEqual(trimmed.candidates, []);
  assert.deepEqual(trimmed.setAside.map((item) => [item.skill, item.strength, item.score]), [["namer", "declared", ROUTING_WEIGHTS.objectSignal]]);
  const namer = trimmed.setAside[0];
  assert.ok(namer?.reasons.some((reason) => reason.kind === "task-span" && reason.span.text === "trim" && reason.note.startsWith('"name" is what "trim" acts on')));
  assert.deepEqual(namer?.because, [{ kind: "router-rule", rule: "a word the task acts on with a behaviour verb does not select a skill on its own" }]);
  assert.equal(trimmed.fit.outcome, "no-skill-fits");
  // Across a preposition and determiners, and a description word the same way.
  const described = route("strip whitespace from the user's names", catalogue);
  assert.deepEqual(described.setAside.map((item) => [item.skill, item.strength]), [["plain", "description"]]);
  assert.deepEqual(described.candidates, []);
  // Not governed by a behaviour verb: the word is the task's subject.
  assert.deepEqual(route("choose a better name", catalogue).candidates.map((item) => item.skill), ["namer"]);
  assert.deepEqual(route("the log name", catalogue).candidates.map((item) => item.skill), ["namer"]);
  // One use that is not an object is enough.
  assert.deepEqual(route("trim the name, then suggest a clearer name", catalogue).candidates.map((item) => item.skill), ["namer"]);
  // A phrase is specific wherever it stands.
  assert.deepEqual(route("handle the edge cases", catalogue).candidates.map((item) => item.skill), ["caser"]);
});

test("fit: a passing mention in a task of another domain is set aside; a domain word that is a skill's signal, or acts on one, makes it the owner", () => {
  const catalogue = catalogueFromSources([
    skill("namer", "{ signals: [name, rename] }"),
    skill("fixer", "{ domains: [fix] }"),
    skill("shaper", "{ domains: [refactor, change] }"),
    skill("checker", "{ role: review, domains: [fix], signals: [crash] }"),
  ]);
  const fix = route("fix the crash when the name is empty", catalogue, { domain: "fix", domainWord: "fix" });
  assert.deepEqual(fix.candidates.map((item) => item.skill), ["checker", "fixer"]);
  assert.deepEqual(fix.setAside.map((item) => item.skill), ["namer"]);
  assert.deepEqual(fix.setAside[0]?.because, [
    { kind: "router-rule", rule: "the task's domain is fix and namer declares no domain: a word the task only mentions in passing does not make it fit" },
  ]);
  const rename = route("rename greet", catalogue, { domain: "refactor", domainWord: "rename" });
  assert.deepEqual(rename.candidates.map((item) => item.skill), ["namer"]);
  assert.deepEqual(rename.setAside.map((item) => [item.skill, item.because]), [
    ["shaper", [{ kind: "router-rule", rule: '"rename" is namer\'s own signal, so namer owns this refactor task; shaper matched the domain alone' }]],
  ]);
  const change = route("change the name of greet", catalogue, { domain: "change", domainWord: "change" });
  assert.deepEqual(change.candidates.map((item) => item.skill), ["namer"]);
  assert.deepEqual(change.setAside.map((item) => item.skill), ["shaper"]);
  // Not directly the verb's object: no owner, both fit.
  const indirect = route("change the greeting so the name is clearer", catalogue, { domain: "change", domainWord: "change" });
  assert.deepEqual(indirect.candidates.map((item) => item.skill), ["shaper"]);
  // No domain: nothing to conflict with.
  assert.deepEqual(route("the name is wrong", catalogue).candidates.map((item) => item.skill), ["namer"]);
  assert.equal(route("the name is wrong", catalogue).fit.outcome, "fits");
});

test("fit: no skill fits well, said with the reason, when nothing matches or only poor matches remain", () => {
  const catalogue = catalogueFromSources([skill("namer", "{ signals: [name] }")]);
  const nothing = route("paint it blue", catalogue);
  assert.deepEqual(nothing.fit, {
    outcome: "no-skill-fits",
    reasons: [{ kind: "router-rule", rule: "no skill fits well: no skill's routing metadata or description matches the task; do the work without a skill step, under the review board" }],
  });
  const poor = route("print the name", catalogue, { domain: "change", domainWord: "print" });
  assert.equal(poor.fit.outcome, "no-skill-fits");
  assert.match((poor.fit.reasons[0] as { rule: string }).rule, /^no skill fits well: namer matched only poorly and is set aside/u);
  const review = route("review greet.ts", catalogue, { domain: "review", domainWord: "review", mode: "review" });
  assert.deepEqual(review.fit.reasons, [{ kind: "router-rule", rule: "no work skill fits a review task: the review board's seats review it" }]);
});
