// The standing index and the context basis builder (server/observer/standingIndex.ts,
// contextBasisBuilder.ts). The golden digests were produced by the reference implementation
// (dev-hobin/agent packages/observer, `buildStandingIndex`, `hydrateStandingContext`,
// `assessObservationContext`, `assessMemoContext`) for exactly these inputs: Docket must compute
// the same bytes, or a reading recorded by one could not be hydrated or replayed by the other.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { decodeContextBasis, encodeContextBasis, interpretationInputSha256, type InterpretationInput } from "../../server/observer/contextBasis";
import { assessMemoContext, assessObservationContext } from "../../server/observer/contextBasisBuilder";
import { buildStandingIndex, hydrateStandingContext, type MemoWorkingView, type NotebookRecordView, type PendingHypothesis } from "../../server/observer/standingIndex";
import { id } from "../support/observerLog";

const I1 = id("inquiry-", 1);
const I2 = id("inquiry-", 2);
const I3 = id("inquiry-", 3);
const I4 = id("inquiry-", 4);
const M1 = id("memo-", 11);
const M2 = id("memo-", 12);
const M3 = id("memo-", 13);

const notebook: NotebookRecordView[] = [
  { record: { observer_type: "inquiry", observer_status: "open", id: I1, title: "Durable one", lang: "ko", lineage: [], inquiry: { origin: "user", original: "원래", current: "지금", revision_reason: "이유" } }, body: "Body one." },
  { record: { observer_type: "inquiry", observer_status: "dormant", id: I2, title: "Durable two", lang: "en", lineage: [], inquiry: { origin: "observer", original: "o2", current: "c2" } }, body: "Body two." },
  { record: { observer_type: "inquiry", observer_status: "resolved", id: I4, title: "Resolved", lang: "en", lineage: [], inquiry: { origin: "user", original: "o4", current: "c4" } }, body: "Body four." },
  {
    record: {
      observer_type: "memo",
      observer_status: "incubating",
      id: M1,
      title: "Memo one",
      lang: "en",
      lineage: [
        { type: "derived_from", target: I1 },
        { type: "derived_from", target: I2 },
      ],
    },
    body: "Memo body.",
  },
  { record: { observer_type: "memo", observer_status: "promoted", id: M3, title: "Promoted", lang: "en", lineage: [{ type: "derived_from", target: I1 }] }, body: "Promoted body." },
];
const memo: MemoWorkingView = {
  hypotheses: [{ inquiryId: I2, origin: "observer", original: "Working two", current: "Working two, revised", revisionReason: "Evidence." }],
  memos: [{ memoId: M2, title: "Working memo", lang: "ko", content: "내용", inquiryIds: [I2], disposition: "promotion-candidate" }],
};
const pending: PendingHypothesis[] = [{ inquiryId: I3, observationId: id("observation-", 5), origin: "user", original: "Pending three", current: "Pending three", context: "User context.", sourceReadId: null }];

test("the standing index: later sources override by id, only live durable Inquiries, the reference's digest", () => {
  const index = buildStandingIndex({ notebook, memo }, pending);
  assert.deepEqual(
    index.inquiries.map((item) => [item.inquiryId, item.title, item.status, item.source, item.relatedMemoIds]),
    [
      [I1, "Durable one", "open", "durable", [M1]],
      [I2, "Working two", "working", "memo", [M1, M2]],
      [I3, "Pending three", "working", "pending", []],
    ],
  );
  assert.equal(index.digest, "2b93216fbbfec3b74d7c8bb55566046d457aa9df5c809ff66e7ab2b2927ae534");
  // The order the sources are given in does not change the index.
  assert.equal(buildStandingIndex({ notebook: [...notebook].reverse(), memo }, pending).digest, index.digest);
});

test("hydration: full context of each requested Inquiry and its Memos, with the reference's digest", () => {
  const index = buildStandingIndex({ notebook, memo }, pending);
  const hydrated = hydrateStandingContext(index, [I3, I1, I2], "ko");
  assert.ok(hydrated.ok);
  if (!hydrated.ok) return;
  assert.equal(hydrated.value.digest, "463e7172befc4828dbb7a38268775d385f95497feedbcf6b8a58fd08bad6c97f");
  assert.equal(hydrated.value.indexDigest, index.digest);
  assert.deepEqual(
    hydrated.value.inquiries.map((item) => [item.inquiryId, item.source, item.lang, item.revisionReason, item.body]),
    [
      [I1, "durable", "ko", "이유", "Body one."],
      [I2, "memo", "ko", "Evidence.", "Working two, revised"],
      [I3, "pending", "ko", null, "User context."],
    ],
  );
  assert.deepEqual(
    hydrated.value.memos.map((item) => [item.memoId, item.source, item.status]),
    [
      [M1, "durable", "incubating"],
      [M2, "working", "promotion-candidate"],
    ],
  );
  const missing = hydrateStandingContext(index, [I4], "en");
  assert.deepEqual(missing.ok ? null : missing.code, "standing-index.missing");
  const repeated = hydrateStandingContext(index, [I1, I1], "en");
  assert.deepEqual(repeated.ok ? null : repeated.code, "standing-index.empty");
});

const reading: InterpretationInput["sourceReading"] = {
  readingId: id("source-read-", 1),
  episodeId: "episode-golden",
  sourceId: id("source-", 2),
  faithfulSummary: "The source separates evidence from interpretation.",
  claims: [
    { text: "Evidence and interpretation stay apart.", locator: "section 2" },
    { text: "Ünïcödé claim 한국어", locator: null },
  ],
};
const hydration = { inquiryContextId: id("hydration-", 3), readingId: id("source-read-", 1), inquiryIds: [id("inquiry-", 4)], contextDigest: "d".repeat(64) };

test("interpret-source-reading: the reference's basis, decodable, bound to its input", () => {
  const input: InterpretationInput = { sourceReading: reading, inquiryContext: hydration, relatedInquiryIds: [id("inquiry-", 4)] };
  const assessment = assessObservationContext(input);
  assert.ok(assessment.ok);
  if (!assessment.ok) return;
  const basis = assessment.basis;
  assert.equal(basis.basisSha256, "941d4285009089561eec1d0109971bf7c3b9aeadc67a887fd3a7435e7e4f3015");
  assert.equal(basis.inputSha256, "c8dd5f3727da33996768ffa1aaf3e9a35b1a3722ca60f927cfdccb9669973d03");
  assert.equal(basis.coverage.coverageSha256, "2b90b94051f9a533249f96b1e2b8334d6b3d80db9b814f5ab7cade55073ea6c2");
  assert.equal(basis.inputSha256, interpretationInputSha256(input));
  assert.deepEqual(decodeContextBasis(encodeContextBasis(basis)), basis);
  assert.deepEqual(basis.selectedSourceIds, ["inquiry-context-evidence", "source-reading-evidence"]);
  assert.deepEqual(
    basis.coverage.claims.map((claim) => [claim.needId, claim.assurance]),
    [
      ["inquiry-context-basis", "domain-verified"],
      ["semantic-interpretation", "agent-asserted"],
      ["source-reading-basis", "domain-verified"],
    ],
  );
  assert.deepEqual(assessment.selectedContext.members.map((member) => member.sourceId), ["inquiry-context-evidence", "source-reading-evidence"]);

  const alone = assessObservationContext({ sourceReading: reading, inquiryContext: null, relatedInquiryIds: [] });
  assert.ok(alone.ok);
  if (alone.ok) {
    assert.deepEqual(alone.basis.selectedSourceIds, ["source-reading-evidence"]);
    assert.deepEqual(
      alone.basis.coverage.needApplicability.map((item) => [item.needId, item.status]),
      [
        ["inquiry-context-basis", "not-required"],
        ["semantic-interpretation", "required"],
        ["source-reading-basis", "required"],
        ["user-owned-interpretation", "not-required"],
      ],
    );
  }
});

test("interpret-source-reading refuses related Inquiries that were not hydrated exactly for this reading", () => {
  const related = [id("inquiry-", 4)];
  for (const inquiryContext of [null, { ...hydration, readingId: id("source-read-", 9) }, { ...hydration, inquiryIds: [id("inquiry-", 5)] }, { ...hydration, inquiryIds: [id("inquiry-", 4), id("inquiry-", 5)] }]) {
    const assessment = assessObservationContext({ sourceReading: reading, inquiryContext, relatedInquiryIds: related });
    assert.equal(assessment.ok, false);
    if (!assessment.ok) assert.deepEqual(assessment.missing, ["inquiry-context-basis", "semantic-interpretation"]);
  }
});

test("reconcile-memo-pass: the reference's basis", () => {
  const assessment = assessMemoContext({
    scopeId: "memo-scope-01",
    episodeId: "episode-01",
    basisDigest: "b".repeat(64),
    relatedInquiryIds: ["inquiry-01"],
    knownEvidenceIds: ["evidence-01"],
    passDigest: "c".repeat(64),
    outcomeCount: 2,
    dispositionCount: 1,
  });
  assert.ok(assessment.ok);
  if (!assessment.ok) return;
  assert.equal(assessment.basis.basisSha256, "b5f69f92a0e68b37eecf2dcfa11315a44ee3a4421398c7c147fc94974f5c99be");
  assert.deepEqual(assessment.basis.selectedSourceIds, ["memo-pass-evidence", "memo-scope-evidence"]);
  assert.ok(assessment.basis.coverage.claims.every((claim) => claim.assurance === "domain-verified"));
});

test("property: every complete assessment decodes to itself and is bound to its input", () => {
  const text = fc.string({ minLength: 1, maxLength: 40 }).filter((value) => value.trim() === value && value.length > 0);
  fc.assert(
    fc.property(text, text, fc.array(fc.record({ text, locator: fc.option(text, { nil: null }) }), { minLength: 1, maxLength: 4 }), fc.boolean(), (summary, episodeId, claims, related) => {
      const sourceReading = { ...reading, episodeId, faithfulSummary: summary, claims };
      const input: InterpretationInput = related ? { sourceReading, inquiryContext: { ...hydration, readingId: sourceReading.readingId }, relatedInquiryIds: hydration.inquiryIds } : { sourceReading, inquiryContext: null, relatedInquiryIds: [] };
      const assessment = assessObservationContext(input);
      assert.ok(assessment.ok);
      if (!assessment.ok) return;
      assert.deepEqual(decodeContextBasis(encodeContextBasis(assessment.basis)), assessment.basis);
      assert.equal(assessment.basis.inputSha256, interpretationInputSha256(input));
    }),
    { numRuns: 150 },
  );
});
