// "Open in Editor" of the Receipts view: an entry's detail as a Markdown document. Receipt details
// come from a real projection of real envelopes; guard and Observer details are protocol values.
import assert from "node:assert/strict";
import { test } from "node:test";
import { compareCausalRefs } from "../../server/ledger/envelope";
import { replayEntries } from "../../server/ledger/replay";
import { ReceiptProjection } from "../../server/developer/receipts";
import { GuardReceiptDetail, ObserverReceiptDetail, ReceiptDetail } from "../../server/protocol/messages";
import { ReceiptsStrings } from "../../server/protocol/webviewMessages";
import { readReceiptDetail } from "../../server/workspace/receiptQueries";
import {
  codeBlock,
  codeSpan,
  documentTitle,
  observerDocument,
  receiptDocument,
  reviewDocument,
  type DetailDocumentStrings,
} from "../../extension/receiptDetailDocument";
import { closeScope, openScope, refOf } from "../support/envelopes";

/** Every label is its own key in angle brackets, except the templates the titles are made of. */
const strings = ReceiptsStrings.parse({
  ...Object.fromEntries(Object.keys(ReceiptsStrings.shape).map((key) => [key, `<${key}>`])),
  detailTitle: "Receipt #{0} · {1}",
  detailEntryId: "Id ({0})",
  detailEntryTime: "Time ({0})",
});
const labels: DetailDocumentStrings = {
  reviewTitle: "Review entry, line {0} · {1}",
  observerTitle: "Observer entry, line {0} · {1}",
  formatted: "Indented for reading",
  formattedHint: "Only the exact text above is hashed.",
};

/** The fenced blocks of a Markdown text, in order: [info string, content]. */
function fences(markdown: string): [string, string][] {
  return [...markdown.matchAll(/^(`{3,})(\S*)\n([\s\S]*?)\n\1$/gmu)].map((match) => [match[2] ?? "", match[3] ?? ""]);
}

function receiptFixture(): ReceiptDetail {
  const a = openScope("scope:a");
  const closedA = closeScope(a);
  const b = openScope("scope:b");
  const closedB = closeScope(b, "Done.", { causalRefs: [refOf(a), refOf(closedA)].sort(compareCausalRefs) });
  const projection = new ReceiptProjection();
  projection.follow(replayEntries([a, closedA, b, closedB]).accepted);
  return ReceiptDetail.parse(readReceiptDetail(projection, closedB.eventSha256));
}

test("a receipt's document: title, every fact, its links, and the exact canonical JSON", () => {
  const detail = receiptFixture();
  const row = detail.receipt;
  const { title, markdown } = receiptDocument(detail, strings, labels);
  assert.equal(title, `Receipt #3 · work-scope-closed`);
  assert.ok(markdown.startsWith(`# ${title}\n\n`));
  for (const value of [row.eventId, row.workScopeId, row.eventSha256, row.receiptSha256]) assert.ok(markdown.includes(codeSpan(value)), value);
  assert.ok(markdown.includes(`- **<detailOccurredAt>:** ${row.occurredAt}`));
  // Both causal refs and the previous event of the scope, with ordinal, kind and full hash.
  for (const link of [...detail.causalRefs, detail.previousScopeEvent]) {
    assert.ok(link !== null && link.ordinal !== null && link.kind !== null);
    assert.ok(markdown.includes(`${codeSpan(`#${link.ordinal}`)} ${codeSpan(link.kind)} · ${codeSpan(link.eventSha256)}`));
  }
  assert.ok(markdown.includes("<detailWriterUnknown>"));
  const blocks = fences(markdown);
  // The summary, the canonical JSON exactly as hashed, then the same JSON indented.
  assert.deepEqual(blocks.map(([info]) => info), ["json", "json", "json"]);
  assert.deepEqual(JSON.parse(blocks[0]?.[1] ?? ""), row.summary);
  assert.equal(blocks[1]?.[1], detail.canonicalJson);
  assert.equal(blocks[2]?.[1], JSON.stringify(JSON.parse(detail.canonicalJson), null, 2));
  const canonicalAt = markdown.indexOf("## <detailCanonicalJson>\n\n<detailCanonicalJsonHint>");
  assert.ok(canonicalAt > 0 && canonicalAt < markdown.indexOf("### Indented for reading"));
});

test("a receipt without links, provenance or summary says so; nominations are listed", () => {
  const detail = receiptFixture();
  const bare = receiptDocument(
    {
      ...detail,
      receipt: { ...detail.receipt, summary: {} },
      causalRefs: [{ ...detail.causalRefs[0]!, ordinal: null, kind: null }],
      previousScopeEvent: null,
      provenance: { actor: { kind: "mcp", client: "claude-code 2.1.0", session: "s-1" }, nominations: ["branch-result-0123456789abcdef"] },
    },
    strings,
    labels,
  ).markdown;
  assert.ok(bare.includes(`${codeSpan(detail.causalRefs[0]!.eventSha256)} — <linkUnresolved>`));
  assert.ok(bare.includes("<detailNoPreviousScopeEvent>"));
  assert.ok(bare.includes("<detailSummaryEmpty>"));
  assert.ok(bare.includes(codeSpan("mcp: claude-code 2.1.0 · s-1")));
  assert.ok(bare.includes(`### <detailNominations>\n\n- ${codeSpan("branch-result-0123456789abcdef")}`));
});

test("data can never break out of its code span or block", () => {
  assert.equal(codeSpan("abc"), "`abc`");
  assert.equal(codeSpan("a`b"), "``a`b``");
  assert.equal(codeSpan("`edge`"), "`` `edge` ``");
  assert.equal(codeSpan("two\nlines # not a heading"), "`two\\nlines # not a heading`");
  assert.equal(codeSpan(""), "` `");
  assert.equal(codeBlock('{"a":"```"}', "json"), '````json\n{"a":"```"}\n````');
  assert.equal(codeBlock("{}", "json"), "```json\n{}\n```");
  assert.equal(documentTitle("Observer entry, line 4 · a/b\\c\nd"), "Observer entry, line 4 · a-b-c d");
});

test("a guard entry's document: facts, status, the related entry, the entry and the hashed line", () => {
  const row = { line: 7, lineSha256: "7".repeat(64), kind: "review-submitted", reviewId: "review:0123456789abcdef01234567", status: "unsupported", workScopeId: null, at: "2026-01-01T00:00:00.000Z" } as const;
  const related = { ...row, line: 5, lineSha256: "5".repeat(64), kind: "review-opened", status: null, workScopeId: "scope:1" } as const;
  const detail = GuardReceiptDetail.parse({
    receipt: row,
    stream: "docket/guard/v1",
    previousLineSha256: null,
    canonicalJson: '{"kind":"review-submitted","status":"unsupported"}',
    lineHashInput: '{"domain":"docket/ledger-line/v1","value":{"entry":{"kind":"review-submitted","status":"unsupported"},"line":7,"previousLineSha256":null,"stream":"docket/guard/v1"}}',
    related,
  });
  const { title, markdown } = reviewDocument(detail, strings, labels);
  assert.equal(title, "Review entry, line 7 · review-submitted");
  assert.ok(markdown.includes(`- **<detailReview>:** ${codeSpan(row.reviewId)}`));
  assert.ok(markdown.includes("- **<detailStatus>:** <statusUnsupported>"));
  assert.ok(markdown.includes(`- **<detailLineSha256>:** ${codeSpan(row.lineSha256)}`));
  assert.ok(markdown.includes("- **<detailPreviousLineSha256>:** <detailNoPreviousLine>"));
  assert.ok(markdown.includes(`${codeSpan("<columnLine> 5")} ${codeSpan("review-opened")} · ${codeSpan(related.lineSha256)}`));
  const blocks = fences(markdown).map(([, text]) => text);
  assert.deepEqual(blocks, [detail.canonicalJson, JSON.stringify(JSON.parse(detail.canonicalJson), null, 2), detail.lineHashInput]);
});

test("an Observer entry's document: its own fields, the chain and the hashed line", () => {
  const detail = ObserverReceiptDetail.parse({
    receipt: {
      line: 12,
      lineSha256: "c".repeat(64),
      customType: "observer.observation",
      kind: "candidate-captured",
      episodeId: "episode-e2e",
      id: { field: "candidate_id", value: "candidate-1" },
      at: { field: "captured_at", value: "2026-03-01T09:11:00.000Z" },
    },
    stream: "observer/v1",
    previousLineSha256: "b".repeat(64),
    canonicalJson: '{"customType":"observer.observation","data":{"kind":"candidate-captured"}}',
    lineHashInput: '{"domain":"docket/ledger-line/v1","value":{}}',
  });
  const { title, markdown } = observerDocument(detail, strings, labels);
  assert.equal(title, "Observer entry, line 12 · candidate-captured");
  assert.ok(markdown.includes(`- **Id (candidate_id):** ${codeSpan("candidate-1")}`));
  assert.ok(markdown.includes(`- **Time (captured_at):** ${codeSpan("2026-03-01T09:11:00.000Z")}`));
  assert.ok(markdown.includes(`- **<detailEpisode>:** ${codeSpan("episode-e2e")}`));
  assert.ok(markdown.includes(`- **<detailPreviousLineSha256>:** ${codeSpan("b".repeat(64))}`));
  assert.equal(fences(markdown).at(-1)?.[1], detail.lineHashInput);
  // Without a kind the title names the entry type (its short form).
  assert.equal(observerDocument({ ...detail, receipt: { ...detail.receipt, kind: null } }, strings, labels).title, "Observer entry, line 12 · observation");
});
