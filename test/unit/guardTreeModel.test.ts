// The Work view's Reviews section, pure: Stop decisions before reviews, a review's status, claims
// with verdict icons and their cited sources (a file opens only inside the workspace, evidence
// opens its captured result, a user input shows only its digest), the whole-response judgment,
// the mode in the header; and which Stop decisions raise a message, once each.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { GuardOverview, GuardReview, GuardStop } from "../../server/protocol/messages";
import { planAlerts, stopKey, MAX_REMEMBERED } from "../../extension/guardAlerts";
import { buildGuardSection, GuardItemContext, openableWorkspacePath, type GuardModelContext, type GuardNode } from "../../extension/guardTreeModel";

/** English as written, placeholders filled: what the extension shows without a translation. */
const context: GuardModelContext = {
  l10n: { t: (message, ...args) => message.replace(/\{(\d+)\}/gu, (_, index: string) => String(args[Number(index)])) },
  time: (iso) => `T(${iso})`,
};

const D1 = "1".repeat(64);
const D2 = "2".repeat(64);
const D3 = "3".repeat(64);

const supported: GuardReview = {
  reviewId: "review:aaaaaaaaaaaaaaaaaaaaaaaa",
  workScopeId: "scope:1",
  openedAt: "2026-05-01T10:00:00.000Z",
  line: 3,
  status: "supported",
  claims: [{ claimId: "export", text: "a.ts exports a = 1", verdict: "supported", citations: ["source:1", "source:2"] }],
  sources: [
    { sourceId: "source:1", kind: "file", path: "src/a.ts", sha256: D1, bytes: 20 },
    { sourceId: "source:2", kind: "user-input", sha256: D2, bytes: 10 },
  ],
  response: { verdict: "supported", rationale: "src/a.ts says so." },
  problems: [],
  submittedAt: "2026-05-01T10:00:05.000Z",
};

const unsupported: GuardReview = {
  reviewId: "review:bbbbbbbbbbbbbbbbbbbbbbbb",
  workScopeId: "scope:1",
  openedAt: "2026-05-01T11:00:00.000Z",
  line: 5,
  status: "unsupported",
  claims: [
    { claimId: "tests", text: "The tests pass", verdict: "unsupported", citations: ["source:1"] },
    { claimId: "impl", text: "Handler fixed", verdict: "partial", citations: ["source:2", "source:9"] },
    { claimId: "docs", text: "Docs updated", verdict: "unsupported", citations: [] },
  ],
  sources: [
    { sourceId: "source:1", kind: "evidence", handle: "branch-result-0123456789abcdef", sha256: D3 },
    { sourceId: "source:2", kind: "file", path: "../outside.ts", sha256: D1, bytes: 3 },
  ],
  response: { verdict: "unsupported", rationale: "Two tests fail." },
  problems: [{ code: "docket.claim-unsupported", message: "Claim tests is not supported by its sources." }],
  submittedAt: "2026-05-01T11:00:09.000Z",
};

const open: GuardReview = { ...supported, reviewId: "review:cccccccccccccccccccccccc", line: 7, status: "open", claims: [{ claimId: "x", text: "Pending", verdict: null, citations: [] }], response: null, submittedAt: null };

const blocked: GuardStop = {
  host: "claude",
  sessionId: "s1",
  at: "2026-05-01T11:01:00.000Z",
  decision: "notice",
  reviewStatus: "missing",
  reviewId: null,
  remaining: [
    { kind: "unreviewed-claim", text: "The answer has no review." },
    { kind: "verification-debt", text: "Verify the landing." },
  ],
  notice: "Docket: the answer has no supported review.",
};

const quiet: GuardStop = { host: "codex", sessionId: "s2", at: "2026-05-01T10:01:00.000Z", decision: "silent", reviewStatus: "supported", reviewId: supported.reviewId, remaining: [], notice: null };

function find(nodes: readonly GuardNode[], id: string): GuardNode {
  for (const node of nodes) {
    if (node.id === id) return node;
    const inner = node.children.length === 0 ? undefined : findOrUndefined(node.children, id);
    if (inner !== undefined) return inner;
  }
  assert.fail(`no node ${id}`);
}

function findOrUndefined(nodes: readonly GuardNode[], id: string): GuardNode | undefined {
  try {
    return find(nodes, id);
  } catch {
    return undefined;
  }
}

function outline(node: GuardNode, depth = 0): string[] {
  const line = `${"  ".repeat(depth)}${node.icon}${node.iconColor === undefined ? "" : `(${node.iconColor})`} ${node.label}${node.description === undefined ? "" : ` — ${node.description}`}${node.open === undefined ? "" : ` → ${node.open.kind}:${node.open.kind === "file" ? node.open.path : node.open.handle}`}`;
  return [line, ...node.children.flatMap((child) => outline(child, depth + 1))];
}

test("the section lists stops first, then reviews newest first, with the mode in its header", () => {
  const overview: GuardOverview = { mode: "block-once", reviews: [unsupported, supported], stops: [blocked, quiet] };
  const section = buildGuardSection(overview, context);
  assert.equal(section.id, "guard");
  assert.equal(section.context, GuardItemContext.section);
  assert.equal(section.label, "Reviews");
  assert.equal(section.description, "mode: block once · 2 reviews");
  assert.match(section.tooltip ?? "", /^Completion guard mode: block once\n.*continue once/su);
  assert.equal(section.expanded, true);
  assert.deepEqual(outline(section), [
    "verified Reviews — mode: block once · 2 reviews",
    "  warning(problemsWarningIcon.foreground) Last stop: Claude Code — notice · T(2026-05-01T11:01:00.000Z)",
    "    unverified(problemsWarningIcon.foreground) Final answer: no review",
    "    comment-unresolved The answer has no review. — unreviewed claim",
    "    beaker Verify the landing. — verification debt",
    "  pass(testing.iconPassed) Last stop: Codex — silent · T(2026-05-01T10:01:00.000Z)",
    `    pass(testing.iconPassed) Final answer: supported — ${supported.reviewId}`,
    "  error(testing.iconFailed) Review: unsupported — opened T(2026-05-01T11:00:00.000Z) · 3 claims",
    "    error(testing.iconFailed) The tests pass — unsupported",
    "      output Captured tool result — branch-result-0123456789abcdef → evidence:branch-result-0123456789abcdef",
    "    warning(problemsWarningIcon.foreground) Handler fixed — partly supported",
    "      file ../outside.ts — file",
    "      warning(problemsWarningIcon.foreground) source:9 — not a sealed source",
    "    error(testing.iconFailed) Docs updated — unsupported",
    "      circle-slash No source cited",
    "    error(testing.iconFailed) Whole response: unsupported — Two tests fail.",
    "    warning(problemsWarningIcon.foreground) Problems Docket found — 1",
    "      warning(problemsWarningIcon.foreground) Claim tests is not supported by its sources. — docket.claim-unsupported",
    "  pass(testing.iconPassed) Review: supported — opened T(2026-05-01T10:00:00.000Z) · 1 claim",
    "    pass(testing.iconPassed) a.ts exports a = 1 — supported",
    "      file src/a.ts — file → file:src/a.ts",
    `      person User input — ${D2.slice(0, 12)}`,
    "    pass(testing.iconPassed) Whole response: supported — src/a.ts says so.",
  ]);
});

test("stops that need attention and the newest review start expanded", () => {
  const section = buildGuardSection({ mode: "notice", reviews: [unsupported, supported], stops: [blocked, quiet] }, context);
  assert.equal(find([section], "guard/stop/claude/s1").expanded, true);
  assert.equal(find([section], "guard/stop/codex/s2").expanded, false);
  assert.equal(find([section], `guard/review/${unsupported.reviewId}/unsupported`).expanded, true);
  assert.equal(find([section], `guard/review/${supported.reviewId}/supported`).expanded, false);
});

test("tooltips: the notice on a stop, the digest of a user input, the review's times", () => {
  const section = buildGuardSection({ mode: "notice", reviews: [supported], stops: [blocked, quiet] }, context);
  assert.equal(find([section], "guard/stop/claude/s1").tooltip, "Docket: the answer has no supported review.\n\nSession s1");
  assert.equal(find([section], "guard/stop/codex/s2").tooltip, "Docket added nothing to this stop.\n\nSession s2");
  const base = `guard/review/${supported.reviewId}/supported`;
  const input = find([section], `${base}/claim/export/source/source:2`);
  assert.match(input.tooltip ?? "", new RegExp(`never stores the text\\.\\nSHA-256 when the review opened: ${D2}\\n10 bytes`, "u"));
  assert.equal(input.open, undefined, "a user input opens nothing");
  assert.match(find([section], `${base}/claim/export/source/source:1`).tooltip ?? "", /Click to open the file as it is now\./u);
  assert.equal(find([section], base).tooltip, [supported.reviewId, "Status: supported", "Opened at: T(2026-05-01T10:00:00.000Z)", "Submitted at: T(2026-05-01T10:00:05.000Z)", "Work scope scope:1"].join("\n"));
});

test("an open review shows its claims as not judged yet and no response", () => {
  const section = buildGuardSection({ mode: "notice", reviews: [open], stops: [] }, context);
  assert.deepEqual(outline(section).slice(1), [
    "  issue-draft Review: open — opened T(2026-05-01T10:00:00.000Z) · 1 claim",
    "    circle-large-outline Pending — not judged yet",
  ]);
});

test("nothing recorded yet: one explanatory item; mode off says so", () => {
  const section = buildGuardSection({ mode: "off", reviews: [], stops: [] }, context);
  assert.equal(section.description, "mode: off · 0 reviews");
  assert.match(section.tooltip ?? "", /does not check final answers/u);
  assert.deepEqual(section.children.map((child) => [child.id, child.label, child.context]), [["guard/none", "No reviews yet", GuardItemContext.empty]]);
});

test("a silent stop without a supported review is not drawn as a pass", () => {
  const off: GuardStop = { ...quiet, reviewStatus: "missing", reviewId: null };
  const node = find([buildGuardSection({ mode: "off", reviews: [], stops: [off] }, context)], "guard/stop/codex/s2");
  assert.equal(node.icon, "info");
  assert.equal(node.iconColor, undefined);
  const blocking: GuardStop = { ...blocked, decision: "block" };
  const block = find([buildGuardSection({ mode: "block-once", reviews: [], stops: [blocking] }, context)], "guard/stop/claude/s1");
  assert.deepEqual([block.icon, block.iconColor, block.description], ["error", "testing.iconFailed", "blocked · T(2026-05-01T11:01:00.000Z)"]);
});

test("only workspace-relative source paths open", () => {
  for (const good of ["a.ts", "src/a.ts", "src/.hidden/b.md"]) assert.equal(openableWorkspacePath(good), good);
  for (const bad of ["", "/etc/passwd", "../x", "src/../../x", "src//a", "./a", "C:/x", "src\\a", "a\0b"]) assert.equal(openableWorkspacePath(bad), null, bad);
});

test("a new decision without a supported review is announced once; the first look only remembers", () => {
  const first = planAlerts([blocked, quiet], null);
  assert.deepEqual(first.announce, [], "decisions that existed before the window looked are not announced");
  assert.deepEqual([...first.remembered].sort(), [stopKey(blocked), stopKey(quiet)].sort());

  const next: GuardStop = { ...blocked, at: "2026-05-01T12:00:00.000Z" };
  const supportedStop: GuardStop = { ...quiet, at: "2026-05-01T12:00:01.000Z" };
  const other: GuardStop = { ...blocked, sessionId: "s3", at: "2026-05-01T11:59:00.000Z", reviewStatus: "unsupported" };
  const second = planAlerts([next, supportedStop, other], first.remembered);
  assert.deepEqual(second.announce, [other, next], "oldest first; a supported answer raises nothing");
  assert.deepEqual(planAlerts([next, supportedStop, other], second.remembered).announce, [], "never twice");

  assert.deepEqual(planAlerts([blocked], []).announce, [blocked], "an empty memory is not a first look");
  const many = Array.from({ length: MAX_REMEMBERED + 10 }, (_, index) => String(index));
  assert.equal(planAlerts([blocked], many).remembered.length, MAX_REMEMBERED);
  assert.equal(planAlerts([blocked], many).remembered.at(-1), stopKey(blocked));
});
