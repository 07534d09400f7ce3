// Golden plans for the demo workspace (test/fixtures/router/demo-plans.json), planned against the
// real bundled skills under skills/: issue 15's showcase task "make greet.ts trim the name without
// touching the README" and the other tasks a newcomer is likely to type. Each golden pins the
// domain, mode, fit outcome, candidates, set-aside skills, composed groups and seats, and carries a
// one-line rationale a reviewer can hold the plan against. A change to routing that moves any of
// these must update the golden and say why.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as z from "zod";
import { loadCatalogue } from "../../server/router/catalogueFiles";
import { BEHAVIOUR_VERBS, DOMAIN_LEXICON } from "../../server/router/lexicon";
import { plan } from "../../server/router/plan";
import { Plan } from "../../server/router/planSchema";
import { renderPlanText } from "../../server/router/planText";
import { snapshotFromFiles } from "../../server/router/snapshot/snapshot";
import { repoRoot } from "../support/repoRoot";

const Golden = z.strictObject({
  task: z.string().min(1),
  rationale: z.string().min(1).max(240).regex(/^[^\n]+$/u, "one line"),
  domain: z.string(),
  mode: z.string(),
  fit: z.enum(["fits", "no-skill-fits"]),
  candidates: z.array(z.string()),
  setAside: z.array(z.string()),
  groups: z.array(z.array(z.string())),
  seats: z.array(z.string()),
});
const Fixture = z.strictObject({ about: z.string(), workspace: z.record(z.string(), z.string()), plans: z.array(Golden).min(11) });

const fixture = Fixture.parse(JSON.parse(fs.readFileSync(path.join(repoRoot(), "test", "fixtures", "router", "demo-plans.json"), "utf8")));
const snapshot = snapshotFromFiles(Object.keys(fixture.workspace), (file) => (fixture.workspace[file] === undefined ? null : Buffer.from(fixture.workspace[file] as string)), "git");
// The bundled catalogue as the extension ships it; an empty workspace folder adds no skills of its own.
const emptyWorkspace = fs.mkdtempSync(path.join(os.tmpdir(), "docket-demo-plans-"));
const catalogue = loadCatalogue(emptyWorkspace, repoRoot());
after(() => fs.rmSync(emptyWorkspace, { recursive: true, force: true }));
const none = { mode: null, reports: [], ranChecks: [] };

test("the demo fixture holds the showcase task and at least ten more, each once", () => {
  const tasks = fixture.plans.map((golden) => golden.task);
  assert.equal(tasks[0], "make greet.ts trim the name without touching the README");
  assert.equal(new Set(tasks).size, tasks.length);
  assert.ok(catalogue.entries.filter((entry) => entry.source === "bundled" && entry.status === "available").length === 15, "all fifteen bundled skills load");
});

for (const golden of fixture.plans) {
  test(`golden demo plan: ${golden.task}`, () => {
    const result = Plan.parse(plan(golden.task, snapshot, catalogue, none));
    const actual = {
      domain: result.intent.domain.value,
      mode: result.intent.executionMode.value,
      fit: result.routing.fit.outcome,
      candidates: result.routing.candidates.map((candidate) => candidate.skill),
      setAside: result.routing.setAside.map((entry) => entry.skill),
      groups: result.composition.groups,
      seats: result.review.seats.map((seat) => seat.reviewer),
    };
    const { task: _task, rationale, ...expected } = golden;
    assert.deepEqual(actual, expected, rationale);
    // "No skill fits well" exactly when no candidate is left, and then nothing is composed.
    assert.equal(result.routing.fit.outcome === "no-skill-fits", result.routing.candidates.length === 0);
    if (result.routing.fit.outcome === "no-skill-fits") assert.deepEqual(result.composition.steps, []);
    // A set-aside skill is never a step, and says why it was set aside.
    const steps = new Set(result.composition.steps.map((step) => step.skill));
    for (const entry of result.routing.setAside) {
      assert.ok(!steps.has(entry.skill), `${entry.skill} is set aside, not planned`);
      assert.ok(entry.because.length > 0);
    }
    // The text rendering says the outcome in words.
    const text = renderPlanText(result);
    assert.equal(text.includes("  no skill fits well\n"), result.routing.fit.outcome === "no-skill-fits");
    for (const skill of actual.setAside) assert.ok(text.includes(`  set aside ${skill} (`), `${skill} is shown as set aside`);
  });
}

test("the showcase: naming-judgment is set aside because \"name\" is what \"trim\" acts on", () => {
  const result = plan("make greet.ts trim the name without touching the README", snapshot, catalogue, none);
  assert.deepEqual(result.intent.domain.reasons, [{ kind: "task-span", span: { start: 14, end: 18, text: "trim" }, note: '"trim" says what the code should do: a behaviour change' }]);
  const naming = result.routing.setAside.find((entry) => entry.skill === "naming-judgment");
  assert.ok(naming !== undefined);
  assert.equal(naming.score, 1);
  assert.ok(
    naming.reasons.some((reason) => reason.kind === "task-span" && reason.span.text === "trim" && reason.note.includes('"name" is what "trim" acts on')),
    JSON.stringify(naming.reasons),
  );
  assert.deepEqual(naming.because, [{ kind: "router-rule", rule: "a word the task acts on with a behaviour verb does not select a skill on its own" }]);
});

test("behaviour verbs are neither domain words nor a bundled skill's signal, so the two readings never disagree", () => {
  const domainWords = new Set(DOMAIN_LEXICON.map((entry) => entry.phrase));
  const signals = new Set(catalogue.entries.flatMap((entry) => (entry.metadata?.signals ?? []).map((word) => word.toLowerCase())));
  for (const verb of BEHAVIOUR_VERBS) {
    assert.ok(!domainWords.has(verb), `${verb} is a domain word`);
    assert.ok(!signals.has(verb), `${verb} is a bundled skill's signal`);
  }
});
