// The guard entry's direct check (server/guard/guardEntryShape.ts isCertainGuardEntry) spares a
// hook building and running the guard entry schemas to decode a review's two lines. It may say
// "valid" only where the schema accepts, and it says so for every entry Docket writes; random
// entries of both kinds, each with one field replaced, removed or joined by another, get the same
// verdict from both, and guardEntryProblem's answers (null or the schema's issue) are unchanged.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { mutatedAt, valuePaths } from "../support/jsonMutations";
import { CLAIM_VERDICTS, GUARD_ENTRY_RULES, MAX_CITATIONS, MAX_CLAIM_TEXT, MAX_RATIONALE, RESPONSE_VERDICTS, REVIEW_STATUSES, guardEntryProblem, guardEntrySchema } from "../../server/guard/guardEntry";
import { isCertainGuardEntry } from "../../server/guard/guardEntryShape";

const sha = fc.stringMatching(/^[0-9a-f]{64}$/);
const count = fc.oneof(fc.nat({ max: 1_000_000 }), fc.constantFrom(0, Number.MAX_SAFE_INTEGER));
const reviewId = fc.stringMatching(/^[0-9a-f]{24}$/).map((hex) => `review:${hex}`);
const sourceId = fc.integer({ min: 1, max: 999 }).map((n) => `source:${n}`);
const claimId = fc.oneof(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/), fc.constantFrom("c1", "a".repeat(64)));
const timestamp = fc.date({ min: new Date(Date.UTC(2000, 0, 1)), max: new Date(Date.UTC(2999, 0, 1)), noInvalidDate: true }).map((date) => date.toISOString());
const text = (min: number, max: number) => fc.oneof(fc.string({ minLength: min, maxLength: Math.min(max, 30) }), fc.constant("x".repeat(max)));
const source = fc.oneof(
  fc.record({ sourceId, kind: fc.constant("file"), path: text(1, 4096), sha256: sha, bytes: count }),
  fc.record({ sourceId, kind: fc.constant("evidence"), handle: text(1, 200), sha256: sha }),
  fc.record({ sourceId, kind: fc.constant("user-input"), sha256: sha, bytes: count }),
);
const opened = fc.record({
  kind: fc.constant("review-opened"),
  reviewId,
  workScopeId: text(1, 160),
  draftSha256: sha,
  draftBytes: count,
  coversEntireAnswer: fc.boolean(),
  claims: fc.array(fc.record({ claimId, text: text(1, MAX_CLAIM_TEXT) }), { minLength: 1, maxLength: 4 }),
  sources: fc.array(source, { minLength: 1, maxLength: 4 }),
  session: fc.option(fc.record({ host: text(0, 40), sessionId: text(0, 400) }), { nil: null }),
  openedAt: timestamp,
});
const problemCode = fc.stringMatching(/^docket\.[a-z-]{1,20}$/);
const submitted = fc.record({
  kind: fc.constant("review-submitted"),
  reviewId,
  openedLineSha256: sha,
  claims: fc.array(fc.record({ claimId, verdict: fc.constantFrom(...CLAIM_VERDICTS), citations: fc.array(sourceId, { maxLength: 3 }) }), { minLength: 1, maxLength: 4 }),
  response: fc.record({ verdict: fc.constantFrom(...RESPONSE_VERDICTS), rationale: text(0, MAX_RATIONALE) }),
  status: fc.constantFrom(...REVIEW_STATUSES),
  problems: fc.array(fc.record({ code: problemCode, message: text(0, 2_000), claimId: fc.option(claimId, { nil: null }), sourceId: fc.option(sourceId, { nil: null }) }), { maxLength: 3 }),
  submittedAt: timestamp,
});
const validEntry = fc.oneof(opened, submitted);

const ODD_VALUES: readonly unknown[] = [null, 0, -1, -0, 1.5, Number.MAX_SAFE_INTEGER + 2, 1e21, "", " ", "x", "x".repeat(41), "x".repeat(161), "x".repeat(201), "x".repeat(401), "x".repeat(2_001), "x".repeat(4_001), "x".repeat(4_097), "x".repeat(8_001), "file", "evidence", "user-input", "supported", "partial", "incomplete", "review-opened", "review-submitted", "review:0123456789abcdef01234567", "review:0123456789ABCDEF01234567", "source:0", "source:1", "source:1000", "docket.x", "docket.X", "a".repeat(64), "A".repeat(64), "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00Z", true, false, [], {}, [1], [{}], Array.from({ length: MAX_CITATIONS + 1 }, () => "source:1")];
const odd = fc.oneof(fc.constantFrom(...ODD_VALUES), fc.jsonValue({ maxDepth: 1 }));

type Json = Record<string, unknown>;

/** guardEntryProblem as it was: the schema alone. */
function schemaOnlyProblem(entry: unknown): string | null {
  const parsed = guardEntrySchema().safeParse(entry);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  return issue === undefined ? "is not a guard entry" : `entry.${issue.path.join(".")}: ${issue.message}`;
}

function sameAnswer(value: unknown): void {
  const certain = isCertainGuardEntry(value, GUARD_ENTRY_RULES);
  const schema = guardEntrySchema().safeParse(value);
  assert.equal(certain, schema.success, `${certain ? "accepted an entry the schema refuses" : "declined an entry the schema accepts"}: ${JSON.stringify(value)}`);
  assert.equal(guardEntryProblem(value), schemaOnlyProblem(value));
}

test("valid guard entries of both kinds: certain, as the schema accepts them", () => {
  fc.assert(fc.property(validEntry, (value) => sameAnswer(value)), { numRuns: 2_000 });
});

test("entries with one field replaced, removed or joined by another: the same verdict as the schema", () => {
  fc.assert(
    fc.property(validEntry, fc.nat(), fc.constantFrom("replace", "remove", "extra" as const), odd, (value, pick, how, replacement) => {
      const all = valuePaths(value);
      sameAnswer(mutatedAt(value, all[pick % all.length] as (string | number)[], how, replacement));
    }),
    { numRuns: 6_000 },
  );
});

test("every field of each kind of entry replaced by every odd value, removed or joined; odd shapes", () => {
  const openedEntry = {
    kind: "review-opened",
    reviewId: "review:0123456789abcdef01234567",
    workScopeId: "scope-1",
    draftSha256: "a".repeat(64),
    draftBytes: 31,
    coversEntireAnswer: false,
    claims: [{ claimId: "c1", text: "all 12 tests pass" }],
    sources: [
      { sourceId: "source:1", kind: "file", path: "result.txt", sha256: "b".repeat(64), bytes: 18 },
      { sourceId: "source:2", kind: "evidence", handle: "branch-result-0123456789abcdef", sha256: "c".repeat(64) },
      { sourceId: "source:3", kind: "user-input", sha256: "d".repeat(64), bytes: 4 },
    ],
    session: { host: "claude", sessionId: "s" },
    openedAt: "2026-01-01T00:00:00.000Z",
  };
  const submittedEntry = {
    kind: "review-submitted",
    reviewId: "review:0123456789abcdef01234567",
    openedLineSha256: "e".repeat(64),
    claims: [{ claimId: "c1", verdict: "supported", citations: ["source:1"] }],
    response: { verdict: "supported", rationale: "result.txt says so" },
    status: "supported",
    problems: [{ code: "docket.source-changed", message: "m", claimId: "c1", sourceId: null }],
    submittedAt: "2026-01-01T00:00:01.000Z",
  };
  for (const entry of [openedEntry, { ...openedEntry, session: null }, submittedEntry, { ...submittedEntry, problems: [] }]) {
    sameAnswer(entry);
    for (const at of valuePaths(entry)) {
      for (const replacement of ODD_VALUES) sameAnswer(mutatedAt(entry, at, "replace", replacement));
      sameAnswer(mutatedAt(entry, at, "remove", null));
      sameAnswer(mutatedAt(entry, at, "extra", 1));
    }
  }
  fc.assert(fc.property(fc.oneof(fc.jsonValue(), odd), (value) => sameAnswer(value)), { numRuns: 2_000 });
  for (const textValue of ['{"__proto__":{}}', "[]", "null", "1", '"entry"']) sameAnswer(JSON.parse(textValue));
  sameAnswer(JSON.parse(JSON.stringify(openedEntry).replace('{"kind"', '{"__proto__":null,"kind"')));
  sameAnswer(JSON.parse(JSON.stringify(submittedEntry).replace('"response":{', '"response":{"__proto__":1,')));
  sameAnswer(JSON.parse(JSON.stringify(openedEntry).replace('"draftBytes":31', '"draftBytes":-0')));
  sameAnswer({ ...openedEntry, claims: Array.from({ length: 101 }, (_, index) => ({ claimId: `c${index}`, text: "t" })) });
  sameAnswer({ ...openedEntry, claims: Array.from({ length: 100 }, (_, index) => ({ claimId: `c${index}`, text: "t" })) });
  sameAnswer({ ...submittedEntry, problems: Array.from({ length: 202 }, () => submittedEntry.problems[0]) });
  sameAnswer({ ...submittedEntry, problems: Array.from({ length: 201 }, () => submittedEntry.problems[0]) });
  sameAnswer(Object.assign(Object.create({ inherited: 1 }) as Json, openedEntry));
});
