// Keeps docs/protocol.md honest: every message defined in the protocol module is documented,
// and every documented method and error code exists.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../support/repoRoot";
import { ErrorCodes, Notifications, Requests } from "../../server/protocol/messages";

const docs = fs.readFileSync(path.join(repoRoot(), "docs", "protocol.md"), "utf8");

test("every request and notification is documented, and nothing else is", () => {
  const defined = [...Object.values(Requests), ...Object.values(Notifications)].map((message) => message.method).sort();
  const documented = [...new Set([...docs.matchAll(/`(docket\/[A-Za-z/]+)`/gu)].map((match) => match[1] as string))].sort();
  assert.deepEqual(documented, defined);
});

test("every error code is documented, and nothing else is", () => {
  const defined = Object.values(ErrorCodes).sort();
  const documented = [...new Set([...docs.matchAll(/`(docket\.[a-z-]+)`/gu)].map((match) => match[1] as string))].sort();
  assert.deepEqual(documented, defined);
});
