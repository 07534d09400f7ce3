// The completion control marker's text rules (docs/guard.md "The marker"): only blank lines between
// the marker line and its first field, nothing after the last field, at most one marker, separated
// from the answer by a blank line; the body is what the review's draft digest is compared with.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MARKER_LINE, answerSha256, completionMarker, findMarker } from "../../server/guard/marker";

const REVIEW = "review:0123456789abcdef01234567";
const DIGEST = "a".repeat(64);

test("an answer with the appended marker yields the review, the digest and the body without the marker", () => {
  const answer = `All three tests pass.\n\nThe fix is in greet.ts.${completionMarker(REVIEW, DIGEST)}`;
  const found = findMarker(answer);
  assert.deepEqual(found, { kind: "marker", reviewId: REVIEW, answerSha256: DIGEST, body: "All three tests pass.\n\nThe fix is in greet.ts." });
});

test("no marker line at all is 'none' (quoting the word elsewhere does not count)", () => {
  assert.deepEqual(findMarker("Done."), { kind: "none" });
  assert.deepEqual(findMarker(`I will append ${MARKER_LINE} later.`), { kind: "none" });
});

test("only blank lines may stand between the marker and its first field", () => {
  const blanks = findMarker(`Done.\n\n${MARKER_LINE}\n\n  \nreview: ${REVIEW}\nanswer-sha256: ${DIGEST}\n`);
  assert.equal(blanks.kind, "marker");
  const text = findMarker(`Done.\n\n${MARKER_LINE}\nsee below\nreview: ${REVIEW}\nanswer-sha256: ${DIGEST}\n`);
  assert.equal(text.kind === "invalid" ? text.code : text.kind, "docket.marker-fields-invalid");
});

test("text after the marker, two markers, or a marker glued to the answer are refused by code", () => {
  const trailing = findMarker(`Done.${completionMarker(REVIEW, DIGEST)}P.S. one more thing`);
  assert.equal(trailing.kind === "invalid" ? trailing.code : trailing.kind, "docket.marker-trailing-text");
  const twice = findMarker(`Done.${completionMarker(REVIEW, DIGEST)}${completionMarker(REVIEW, DIGEST)}`);
  assert.equal(twice.kind === "invalid" ? twice.code : twice.kind, "docket.marker-duplicate");
  const glued = findMarker(`Done.\n${MARKER_LINE}\nreview: ${REVIEW}\nanswer-sha256: ${DIGEST}`);
  assert.equal(glued.kind === "invalid" ? glued.code : glued.kind, "docket.marker-not-separated");
  const malformed = findMarker(`Done.\n\n${MARKER_LINE}\nreview: review:XYZ\nanswer-sha256: ${DIGEST}`);
  assert.equal(malformed.kind === "invalid" ? malformed.code : malformed.kind, "docket.marker-fields-invalid");
});

test("CRLF answers and trailing whitespace do not change the compared digest; other edits do", () => {
  const body = "Line one.\nLine two.";
  assert.equal(answerSha256(`${body}\n\n  `), answerSha256(body));
  assert.equal(answerSha256(body.replace(/\n/gu, "\r\n")), answerSha256(body));
  assert.notEqual(answerSha256(`${body}!`), answerSha256(body));
  assert.notEqual(answerSha256(` ${body}`), answerSha256(body));
  const crlf = findMarker(`${body}${completionMarker(REVIEW, DIGEST)}`.replace(/\n/gu, "\r\n"));
  assert.equal(crlf.kind === "marker" ? answerSha256(crlf.body) : crlf.kind, answerSha256(body));
});
