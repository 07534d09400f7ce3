// The terminal review's diff: a record as a unified diff (a create against /dev/null), and colors
// only on changed and hunk lines, never on the file headers a person copies paths from.
import { test } from "node:test";
import assert from "node:assert/strict";
import { colorPatch, recordPatch } from "../../server/notebook/proposalReviewCli";

const SHA = "a".repeat(64);

test("a create diffs against /dev/null, an update against the bytes on disk", () => {
  const create = recordPatch({ recordId: "source-1", operation: "create", path: "records/source-1.md", validation: "valid", stale: false, before: null, beforeSha256: null, after: "one\n", afterSha256: SHA, diagnostics: [] });
  assert.match(create, /^--- \/dev\/null$/mu);
  assert.match(create, /^\+\+\+ b\/records\/source-1\.md$/mu);
  assert.match(create, /^\+one$/mu);
  const update = recordPatch({ recordId: "memo-1", operation: "update", path: "records/m.md", validation: "valid", stale: false, before: "a\nb\n", beforeSha256: SHA, after: "a\nc\n", afterSha256: SHA, diagnostics: [] });
  assert.match(update, /^--- a\/records\/m\.md$/mu);
  assert.match(update, /^-b$/mu);
  assert.match(update, /^\+c$/mu);
});

test("colors mark removed, added and hunk lines only", () => {
  const colored = colorPatch("--- a/x.md\n+++ b/x.md\n@@ -1 +1 @@\n-old\n+new\n same");
  assert.deepEqual(colored.split("\n"), ["--- a/x.md", "+++ b/x.md", "\u001b[36m@@ -1 +1 @@\u001b[0m", "\u001b[31m-old\u001b[0m", "\u001b[32m+new\u001b[0m", " same"]);
});
