// Plans stay inside their own schema's bounds however large the workspace's answer is: a name
// with many candidates, many unmatched names, many touched files — the board cuts its findings
// and says so instead of failing the plan.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Plan } from "../../server/router/planSchema";
import { plan } from "../../server/router/plan";
import { catalogueFromSources } from "../../server/router/catalogue";
import { snapshotFromFiles } from "../../server/router/snapshot";

const OPTIONS = { mode: null, reports: [], ranChecks: [] };

test("a file name shared by 120 files gives a valid plan whose finding names 10 candidates and cites 50", () => {
  const files = Array.from({ length: 120 }, (_, index) => `packages/p${index}/src/module7.ts`);
  const snapshot = snapshotFromFiles(files, () => null, "git");
  const result = plan("fix the retry bug in module7.ts", snapshot, catalogueFromSources([]), OPTIONS);
  assert.equal(Plan.safeParse(result).success, true);
  assert.equal(result.intent.ambiguous[0]?.candidates.length, 120, "the intent keeps every candidate");
  const finding = result.review.seats.flatMap((seat) => seat.findings).find((entry) => entry.findingId.startsWith("code-reviewer/ambiguous:"));
  assert.ok(finding !== undefined);
  assert.equal(finding.citations.length, 50);
  assert.match(finding.message, /and 110 more; the plan does not guess which\.$/u);
});

test("a 4000-character task of file names gives a valid plan", () => {
  const files = Array.from({ length: 300 }, (_, index) => `src/f${index}.ts`);
  const snapshot = snapshotFromFiles(files, () => null, "git");
  const words: string[] = [];
  for (let index = 0; words.join(" ").length < 3_900; index += 1) words.push(index % 2 === 0 ? `f${index % 300}.ts` : `missing${index}.ts`);
  const result = plan(`fix ${words.join(" ")}`.slice(0, 4_000), snapshot, catalogueFromSources([]), OPTIONS);
  assert.equal(Plan.safeParse(result).success, true);
  assert.ok(result.intent.entities.length > 100);
  assert.ok(result.intent.unmatched.length > 100);
});
