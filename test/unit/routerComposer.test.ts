// Stage 4, SKILL COMPOSITION (server/router/composer.ts): each row of router.md's composer table
// (duplicate, unavailable, missing requirement, conflict, cycle), each relation's execution-edge
// direction, topological layers as parallel groups, and gates.
import assert from "node:assert/strict";
import { test } from "node:test";
import { catalogueFromSources, type SkillSource } from "../../server/router/catalogue";
import { compose, relationEdge, type ComposeOptions } from "../../server/router/composer";
import { CompositionStage, type Candidate, type Catalogue, type RelationType, type RoutingStage, type SkillRole } from "../../server/router/planSchema";

/** A catalogue of workspace skills, each with an inline routing block (YAML flow mapping) or none. */
function catalogue(skills: Record<string, string | null>): Catalogue {
  const sources: SkillSource[] = Object.entries(skills).map(([name, routing]) => ({
    source: "workspace",
    path: `.claude/skills/${name}/SKILL.md`,
    skill: Buffer.from(`---\nname: ${name}\ndescription: Skill ${name}.\n${routing === null ? "" : `routing: ${routing}\n`}---\n`),
    routing: null,
  }));
  return catalogueFromSources(sources);
}

function candidate(skill: string, role: SkillRole = "work", path = `.claude/skills/${skill}/SKILL.md`): Candidate {
  return { skill, source: "workspace", path, role, strength: "declared", score: 1, reasons: [{ kind: "router-rule", rule: `test selects ${skill}` }] };
}

function routing(candidates: Candidate[], excluded: string[] = []): RoutingStage {
  return { candidates, setAside: [], fit: { outcome: candidates.length > 0 ? "fits" : "no-skill-fits", reasons: [{ kind: "router-rule", rule: "test" }] }, excluded: excluded.map((skill) => ({ skill, reasons: [{ kind: "router-rule", rule: "test excludes" }] })), unavailable: [] };
}

/** Composes the selected skills as routing would offer them (each with its declared role). */
function plan(skills: Record<string, string | null>, selected: string[], options: ComposeOptions = {}): CompositionStage {
  const built = catalogue(skills);
  const role = (name: string): SkillRole => built.entries.find((entry) => entry.name === name)?.metadata?.role ?? "work";
  return CompositionStage.parse(compose(routing(selected.map((name) => candidate(name, role(name)))), built, options));
}

function rel(type: RelationType, skill: string): string {
  return `{ relations: [{ type: ${type}, skill: ${skill} }] }`;
}

const ORDERING: Array<[RelationType, "forward" | "reverse"]> = [
  ["REQUIRES", "reverse"],
  ["PRECEDES", "forward"],
  ["PROVIDES_CONTEXT_FOR", "forward"],
  ["VERIFIES", "reverse"],
  ["REVIEWS", "reverse"],
];

for (const [type, direction] of ORDERING) {
  test(`${type}: "a ${type} b" and "b ${type} a" give different orders (${direction})`, () => {
    const ab = plan({ a: rel(type, "b"), b: null }, ["a", "b"]);
    const ba = plan({ a: null, b: rel(type, "a") }, ["a", "b"]);
    const aFirst = [["a"], ["b"]];
    const bFirst = [["b"], ["a"]];
    assert.deepEqual(ab.groups, direction === "forward" ? aFirst : bFirst);
    assert.deepEqual(ba.groups, direction === "forward" ? bFirst : aFirst);
    assert.notDeepEqual(ab.steps, ba.steps);
    assert.ok(ab.executable && ba.executable);
    const edge = ab.edges[0];
    assert.deepEqual(edge, { before: direction === "forward" ? "a" : "b", after: direction === "forward" ? "b" : "a", relation: type, declaredBy: "a" });
    const second = ab.steps[1];
    assert.deepEqual(second?.after, [direction === "forward" ? "a" : "b"]);
    assert.deepEqual(relationEdge("a", type, "b"), direction === "forward" ? ["a", "b"] : ["b", "a"]);
  });
}

test("COMPOSES_WITH imposes no order, in either direction", () => {
  for (const skills of [{ a: rel("COMPOSES_WITH", "b"), b: null }, { a: null, b: rel("COMPOSES_WITH", "a") }]) {
    const result = plan(skills, ["a", "b"]);
    assert.deepEqual(result.groups, [["a", "b"]]);
    assert.deepEqual(result.edges, []);
    assert.ok(result.executable);
  }
});

test("conflict: both stay, the plan is blocked and says why", () => {
  for (const skills of [{ a: rel("CONFLICTS_WITH", "b"), b: null }, { a: rel("CONFLICTS_WITH", "b"), b: rel("CONFLICTS_WITH", "a") }]) {
    const result = plan(skills, ["a", "b"]);
    assert.deepEqual(result.groups, [["a", "b"]]);
    assert.deepEqual(result.edges, []);
    assert.equal(result.executable, false);
    assert.deepEqual(result.issues.map((issue) => [issue.kind, issue.resolved, issue.blocking, issue.skills]), [["conflict", false, true, ["a", "b"]]]);
    assert.deepEqual(result.blockedBecause, [result.issues[0]?.detail]);
    assert.match(result.blockedBecause[0] ?? "", /a and b conflict/u);
  }
  // A conflict with a skill that was not selected is no issue.
  assert.ok(plan({ a: rel("CONFLICTS_WITH", "b"), b: null }, ["a"]).executable);
});

test('"a REQUIRES b" plus "a PRECEDES b" is a cycle: no steps, blocked, members named', () => {
  const result = plan({ a: "{ relations: [{ type: REQUIRES, skill: b }, { type: PRECEDES, skill: b }] }", b: null }, ["a", "b"]);
  assert.deepEqual(result.steps, []);
  assert.deepEqual(result.groups, []);
  assert.deepEqual(result.gates, []);
  assert.equal(result.executable, false);
  assert.deepEqual(result.issues.map((issue) => [issue.kind, issue.resolved, issue.blocking, issue.skills]), [["cycle", false, true, ["a", "b"]]]);
  assert.match(result.blockedBecause[0] ?? "", /cycle/u);
  assert.equal(result.edges.length, 2);
});

test('"a REQUIRES b" and "b PRECEDES a" give the same plan', () => {
  const requires = plan({ a: rel("REQUIRES", "b"), b: null }, ["a", "b"], { mode: "implement" });
  const precedes = plan({ a: null, b: rel("PRECEDES", "a") }, ["a", "b"], { mode: "implement" });
  assert.deepEqual(requires.steps, precedes.steps);
  assert.deepEqual(requires.groups, precedes.groups);
  assert.deepEqual(requires.gates, precedes.gates);
  assert.deepEqual(requires.issues, precedes.issues);
  assert.deepEqual(requires.groups, [["b"], ["a"]]);
});

test("a larger cycle names only its members, not what lies downstream", () => {
  const result = plan({ a: rel("PRECEDES", "b"), b: rel("PRECEDES", "c"), c: "{ relations: [{ type: PRECEDES, skill: a }, { type: PRECEDES, skill: d }] }", d: null, e: null }, ["a", "b", "c", "d", "e"]);
  assert.deepEqual(result.steps, []);
  assert.deepEqual(result.issues.map((issue) => issue.skills), [["a", "b", "c"]]);
});

test("duplicate: the strongest role is kept, reasons merged, the plan stays executable", () => {
  const skills = catalogue({ a: null, b: null });
  const result = CompositionStage.parse(
    compose(routing([candidate("a", "context"), candidate("b"), candidate("a", "work", ".github/skills/a/SKILL.md"), candidate("a", "review")]), skills),
  );
  assert.deepEqual(result.steps.map((step) => [step.skill, step.role]), [["a", "work"], ["b", "work"]]);
  assert.deepEqual(result.issues.map((issue) => [issue.kind, issue.resolved, issue.blocking, issue.skills]), [["duplicate", true, false, ["a"]]]);
  assert.match(result.issues[0]?.detail ?? "", /3 times.*kept once as work/u);
  assert.ok(result.executable);
  assert.deepEqual(result.blockedBecause, []);
});

test("unavailable: dropped and said, the plan stays executable", () => {
  const skills = catalogue({ a: null, broken: "{ colour: red }" });
  const result = CompositionStage.parse(compose(routing([candidate("a"), candidate("ghost"), candidate("broken")]), skills));
  assert.deepEqual(result.steps.map((step) => step.skill), ["a"]);
  assert.deepEqual(result.issues.map((issue) => [issue.kind, issue.resolved, issue.blocking, issue.skills]), [
    ["unavailable", true, false, ["broken"]],
    ["unavailable", true, false, ["ghost"]],
  ]);
  assert.match(result.issues[0]?.detail ?? "", /skill-routing-invalid/u);
  assert.match(result.issues[1]?.detail ?? "", /not in the catalogue/u);
  assert.ok(result.executable);
});

test("missing requirement: absent, unavailable or excluded targets block; available ones are pulled in", () => {
  const missing = plan({ a: rel("REQUIRES", "ghost") }, ["a"]);
  assert.deepEqual(missing.issues.map((issue) => [issue.kind, issue.resolved, issue.blocking, issue.skills]), [["missing-requirement", false, true, ["a", "ghost"]]]);
  assert.equal(missing.executable, false);
  assert.match(missing.blockedBecause[0] ?? "", /a requires ghost, but it is not in the catalogue/u);
  assert.deepEqual(missing.steps.map((step) => step.skill), ["a"]);

  const unavailable = plan({ a: rel("REQUIRES", "broken"), broken: "{ colour: red }" }, ["a"]);
  assert.match(unavailable.blockedBecause[0] ?? "", /unavailable \(skill-routing-invalid\)/u);

  const skills = { a: rel("REQUIRES", "c"), c: "{ role: context, relations: [{ type: REQUIRES, skill: d }] }", d: null };
  const pulled = plan(skills, ["a"]);
  assert.ok(pulled.executable, pulled.blockedBecause.join("; "));
  assert.deepEqual(pulled.groups, [["d"], ["c"], ["a"]]);
  assert.deepEqual(pulled.steps.map((step) => [step.skill, step.role, step.after]), [["d", "work", []], ["c", "context", ["d"]], ["a", "work", ["c"]]]);
  assert.deepEqual(pulled.edges.map((edge) => [edge.before, edge.after, edge.relation, edge.declaredBy]), [["c", "a", "REQUIRES", "a"], ["d", "c", "REQUIRES", "c"]]);
  assert.deepEqual(pulled.issues, []);

  const excluded = CompositionStage.parse(compose(routing([candidate("a")], ["c"]), catalogue(skills)));
  assert.equal(excluded.executable, false);
  assert.match(excluded.blockedBecause[0] ?? "", /a requires c, but the task excludes it/u);
});

test("edges exist only between selected skills", () => {
  const result = plan({ a: "{ relations: [{ type: PRECEDES, skill: b }, { type: VERIFIES, skill: c }] }", b: null, c: null }, ["a", "b"]);
  assert.deepEqual(result.edges.map((edge) => `${edge.before}>${edge.after}`), ["a>b"]);
  assert.deepEqual(result.steps.map((step) => step.skill), ["a", "b"]);
});

test("parallel groups are topological layers with names sorted within a layer", () => {
  const skills = {
    top: null,
    left: rel("REQUIRES", "top"),
    right: rel("REQUIRES", "top"),
    bottom: "{ relations: [{ type: REQUIRES, skill: left }, { type: REQUIRES, skill: right }] }",
    alone: null,
  };
  const result = plan(skills, ["bottom", "alone", "right", "left", "top"]);
  assert.deepEqual(result.groups, [["alone", "top"], ["left", "right"], ["bottom"]]);
  assert.deepEqual(result.steps.find((step) => step.skill === "bottom")?.after, ["left", "right"]);
});

test("gates: authorization and verification after the last work group in implement mode, review at the end", () => {
  const skills = { a: null, b: rel("PRECEDES", "v"), v: "{ role: review, relations: [{ type: VERIFIES, skill: a }] }" };
  const implement = plan(skills, ["a", "b", "v"], { mode: "implement" });
  assert.deepEqual(implement.groups, [["a", "b"], ["v"]]);
  assert.deepEqual(implement.gates.map((gate) => [gate.kind, gate.afterGroup]), [["authorization", 0], ["verification", 0], ["review", 1]]);
  const planOnly = plan(skills, ["a", "b", "v"], { mode: "plan-only" });
  assert.deepEqual(planOnly.gates.map((gate) => [gate.kind, gate.afterGroup]), [["verification", 0], ["review", 1]]);
  assert.deepEqual(plan(skills, ["v"], { mode: "implement" }).gates.map((gate) => gate.kind), ["review"]);
  assert.deepEqual(plan(skills, [], { mode: "implement" }), { steps: [], groups: [], edges: [], gates: [], issues: [], executable: true, blockedBecause: [] });
});

test("the composition does not depend on candidate order", () => {
  const skills = catalogue({ a: rel("REQUIRES", "b"), b: null, c: rel("CONFLICTS_WITH", "d"), d: null, e: rel("PRECEDES", "a") });
  const names = ["a", "b", "c", "d", "e", "a", "ghost"];
  const expected = compose(routing(names.map((name) => candidate(name))), skills, { mode: "implement" });
  for (const order of [[6, 5, 4, 3, 2, 1, 0], [3, 0, 6, 1, 5, 2, 4]]) {
    assert.deepEqual(compose(routing(order.map((index) => candidate(names[index] as string))), skills, { mode: "implement" }), expected);
  }
});
