// The Work view's row for Notebook proposals waiting for review, pure: nothing when none waits; one
// proposal named with what it holds and who made it; several counted; the proposal a click opens is
// the first the Observer view lists; counts follow the UI language's plural rules.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ProposalSummary } from "../../server/protocol/messages";
import { proposalFacts, proposalNotice, waitingText } from "../../extension/proposalNotice";

const l10n = { t: (message: string, ...args: Array<string | number | boolean>) => message.replace(/\{(\d+)\}/gu, (_, index: string) => String(args[Number(index)])) };
const english = { l10n, locale: "en" };

function proposal(proposalId: string, records: number, extra: Partial<ProposalSummary> = {}): ProposalSummary {
  return {
    proposalId,
    proposalSha256: "d".repeat(64),
    origin: { kind: "cli", client: null },
    notebookId: "notebook-1",
    root: "/notes",
    stale: false,
    valid: true,
    records: Array.from({ length: records }, (_, index) => ({ recordId: `source-${index}`, operation: "create" as const, path: `records/source-${index}.md`, validation: "valid" as const, stale: false })),
    ...extra,
  };
}

const later = "proposal-f0000000-0000-4000-8000-000000000000";
const earlier = "proposal-0aaaaaaa-0000-4000-8000-000000000000";

test("nothing waits: no row", () => {
  assert.equal(proposalNotice([], english), null);
});

test("one proposal: what waits, what it holds and who made it; a click opens it", () => {
  const notice = proposalNotice([proposal(later, 2)], english) ?? assert.fail("a notice");
  assert.equal(notice.label, "Notebook proposal to review");
  assert.equal(notice.description, "2 records · from docket notebook propose");
  assert.equal(notice.proposalId, later);
  assert.deepEqual(notice.tooltip.split("\n"), [
    "1 Notebook proposal waiting for review",
    "Proposal f0000000: 2 records · from docket notebook propose",
    "Click to open it in the Observer view with its first record.",
  ]);
});

test("several proposals: counted, each in the tooltip in the Observer view's order; a click opens the first listed", () => {
  const notice = proposalNotice([proposal(later, 1), proposal(earlier, 3, { origin: null, stale: true })], english) ?? assert.fail("a notice");
  assert.equal(notice.label, "2 Notebook proposals to review");
  assert.equal(notice.description, "in the Observer view");
  assert.equal(notice.proposalId, earlier);
  assert.deepEqual(notice.tooltip.split("\n"), [
    "2 Notebook proposals waiting for review",
    "Proposal 0aaaaaaa: 3 records · stale: cannot be saved",
    "Proposal f0000000: 1 record · from docket notebook propose",
    "Click to open the first one in the Observer view with its first record.",
  ]);
});

test("counts use the UI language's plural rules", () => {
  assert.equal(waitingText(1, english), "1 Notebook proposal waiting for review");
  assert.equal(waitingText(3, english), "3 Notebook proposals waiting for review");
  // Korean has one plural form: the message for "other" is asked for, even for one.
  const asked: string[] = [];
  const recording = { t: (message: string, ...args: Array<string | number | boolean>) => (asked.push(message), l10n.t(message, ...args)) };
  waitingText(1, { l10n: recording, locale: "ko" });
  assert.deepEqual(asked, ["{0} Notebook proposals waiting for review"]);
  assert.equal(proposalFacts(proposal(later, 1, { valid: false, origin: { kind: "mcp", client: "codex" } }), english), "1 record · from codex (MCP) · invalid");
});
