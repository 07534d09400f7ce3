// The completion control marker (docs/guard.md "The marker"): the short block an agent appends to
// its final answer, after a blank line, once Docket recorded a supported review of exactly that
// answer. Pure text rules, no I/O:
//
//   <the answer, exactly as reviewed>
//
//   docket-completion-control/v1
//   review: review:<24 hex>
//   answer-sha256: <64 hex>
//
// Only blank lines may stand between the marker line and its first field; nothing but whitespace
// may follow the last field; an answer holds at most one marker line. The answer's body is the
// text before the blank line that precedes the marker, without trailing whitespace.
import { createHash } from "node:crypto";

export const MARKER_LINE = "docket-completion-control/v1";

export type MarkerProblem =
  | "docket.marker-duplicate"
  | "docket.marker-not-separated"
  | "docket.marker-fields-invalid"
  | "docket.marker-trailing-text";

export type MarkerLookup =
  | { readonly kind: "none" }
  | { readonly kind: "invalid"; readonly code: MarkerProblem; readonly message: string }
  | { readonly kind: "marker"; readonly reviewId: string; readonly answerSha256: string; readonly body: string };

/** SHA-256 of an answer body as the guard compares it: line endings and trailing whitespace do not count. */
export function answerSha256(text: string): string {
  return createHash("sha256").update(text.replace(/\r\n/gu, "\n").trimEnd(), "utf8").digest("hex");
}

/** The block to append (with its separating blank line) for a supported review. */
export function completionMarker(reviewId: string, draftSha256: string): string {
  return `\n\n${MARKER_LINE}\nreview: ${reviewId}\nanswer-sha256: ${draftSha256}\n`;
}

function isBlank(line: string): boolean {
  return line.trim() === "";
}

export function findMarker(answer: string): MarkerLookup {
  const lines = answer.replace(/\r\n/gu, "\n").split("\n");
  const markerIndexes: number[] = [];
  for (const [index, line] of lines.entries()) if (line.trimEnd() === MARKER_LINE) markerIndexes.push(index);
  if (markerIndexes.length === 0) return { kind: "none" };
  if (markerIndexes.length > 1) {
    return { kind: "invalid", code: "docket.marker-duplicate", message: `The answer holds ${markerIndexes.length} completion control markers; one answer carries at most one.` };
  }
  const at = markerIndexes[0] as number;
  if (at === 0 || !isBlank(lines[at - 1] as string)) {
    return { kind: "invalid", code: "docket.marker-not-separated", message: "The completion control marker must follow the answer after a blank line." };
  }
  let cursor = at + 1;
  while (cursor < lines.length && isBlank(lines[cursor] as string)) cursor += 1;
  const review = /^review: (review:[0-9a-f]{24})\s*$/u.exec(lines[cursor] ?? "");
  const digest = /^answer-sha256: ([0-9a-f]{64})\s*$/u.exec(lines[cursor + 1] ?? "");
  if (review === null || digest === null) {
    return {
      kind: "invalid",
      code: "docket.marker-fields-invalid",
      message: "The completion control marker must be followed (after blank lines only) by `review: review:<24 hex>` and `answer-sha256: <64 hex>`.",
    };
  }
  if (lines.slice(cursor + 2).some((line) => !isBlank(line))) {
    return { kind: "invalid", code: "docket.marker-trailing-text", message: "Text follows the completion control marker; the marker must end the answer." };
  }
  const body = lines.slice(0, at).join("\n").trimEnd();
  return { kind: "marker", reviewId: review[1] as string, answerSha256: digest[1] as string, body };
}
