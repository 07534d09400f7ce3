// The Work view's "Commits" row of a landing (issue 17), pure: looking up before the backend
// answered, a quiet "not committed yet" for none, one row per commit (short id, subject, the link's
// source in the tooltip, a click opening that commit), the read failure, and ids unique per source.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { LinkedCommitRow } from "../../server/protocol/messages";
import { buildCommitsNode, CommitItemContext, SHORT_SHA_LENGTH } from "../../extension/landingCommitsModel";
import type { Translator } from "../../extension/guardTreeModel";

/** English as written, placeholders filled: what the extension shows without a translation. */
const l10n: Translator = { t: (message, ...args) => message.replace(/\{(\d+)\}/gu, (_, index: string) => String(args[Number(index)])) };

const BASE = "landing/landing:0123456789abcdef01234567";
const A: LinkedCommitRow = { sha: "a".repeat(40), subject: "Trim the greeting's name", source: "trailer" };
const B: LinkedCommitRow = { sha: "b".repeat(40), subject: "Fix the greeting test", source: "note" };

test("before the backend answered, the row says it is looking and has no children", () => {
  const node = buildCommitsNode(BASE, { kind: "unknown" }, l10n);
  assert.equal(node.label, "Commits");
  assert.equal(node.description, "looking up…");
  // Not the answered row's id: VS Code would keep this childless row's state for it.
  assert.notEqual(node.id, buildCommitsNode(BASE, { kind: "known", commits: [A] }, l10n).id);
  assert.equal(node.icon, "loading~spin");
  assert.deepEqual(node.children, []);
  assert.equal(node.open, undefined);
});

test("a landing with no commit: one quiet 'not committed yet' row, nothing to open", () => {
  const node = buildCommitsNode(BASE, { kind: "known", commits: [] }, l10n);
  assert.equal(node.description, "not committed yet");
  assert.equal(node.iconColor, "disabledForeground");
  assert.equal(node.context, CommitItemContext.commits);
  assert.deepEqual(node.children, []);
  assert.match(node.tooltip ?? "", /Docket-Landing trailer/u);
  assert.match(node.tooltip ?? "", /docket link/u);
});

test("a landing with one commit: the row is open with the short id and subject; the source is in the tooltip; a click opens it", () => {
  const node = buildCommitsNode(BASE, { kind: "known", commits: [A] }, l10n);
  assert.equal(node.id, `${BASE}/commits`);
  assert.equal(node.description, "1 commit");
  assert.equal(node.expanded, true);
  assert.equal(node.children.length, 1);
  const row = node.children[0]!;
  assert.equal(row.label, "a".repeat(SHORT_SHA_LENGTH));
  assert.equal(row.description, A.subject);
  assert.equal(row.context, CommitItemContext.commit);
  assert.equal(row.icon, "git-commit");
  assert.deepEqual(row.open, { sha: A.sha, subject: A.subject });
  const tooltip = (row.tooltip ?? "").split("\n");
  assert.deepEqual(tooltip.slice(0, 3), [A.subject, A.sha, "Linked by the commit message's Docket-Landing trailer"]);
});

test("a landing with two commits: both rows in the backend's order (newest first), a note named as such", () => {
  const node = buildCommitsNode(BASE, { kind: "known", commits: [B, A] }, l10n);
  assert.equal(node.description, "2 commits");
  assert.deepEqual(node.children.map((row) => row.label), ["bbbbbbb", "aaaaaaa"]);
  assert.deepEqual(node.children.map((row) => row.open?.sha), [B.sha, A.sha]);
  assert.equal(node.children[0]!.icon, "note");
  assert.match(node.children[0]!.tooltip ?? "", /refs\/notes\/docket/u);
  // Ids are unique within the view (VS Code refuses duplicates), also for one commit linked twice.
  const twice = buildCommitsNode(BASE, { kind: "known", commits: [A, { ...A, source: "note" }] }, l10n);
  for (const built of [node, twice]) {
    const ids = [built.id, ...built.children.map((row) => row.id)];
    assert.equal(new Set(ids).size, ids.length);
  }
});

test("a failed read says so with the backend's message, as a warning", () => {
  const node = buildCommitsNode(BASE, { kind: "failed", message: "Git is not installed or not on PATH." }, l10n);
  assert.equal(node.description, "could not be read");
  assert.equal(node.icon, "warning");
  assert.match(node.tooltip ?? "", /Git is not installed/u);
  assert.deepEqual(node.children, []);
});

test("a subject with control characters or markup is shown as given (VS Code renders labels as text)", () => {
  const hostile: LinkedCommitRow = { sha: "c".repeat(64), subject: "$(alert) <b>x</b> [link](command:docket.turnOff)", source: "trailer" };
  const row = buildCommitsNode(BASE, { kind: "known", commits: [hostile] }, l10n).children[0]!;
  assert.equal(row.description, hostile.subject);
  assert.equal(row.label, "ccccccc");
  assert.deepEqual(row.open, { sha: hostile.sha, subject: hostile.subject });
});
