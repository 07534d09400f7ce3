// `docket/guard/*` through the real backend (`docket serve --stdio` in a child process): reviews
// recorded with the real CLI in the overview (newest first, verdicts, citations, sealed sources,
// the whole-response judgment), a Stop decision that only writes its session file announced by
// `docket/guard/changed`, a damaged session file left out, the mode set through the backend and
// by the CLI, and Restricted Mode reading but never writing.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { readGuardMode } from "../../server/guard/guardFiles";
import { sessionsFolder } from "../../server/guard/guardSession";
import { ErrorCodes, Notifications, Requests, type GuardOverview } from "../../server/protocol/messages";
import { startBackend, type Backend } from "../support/backendProcess";
import { tempRepo } from "../support/gitRepo";
import { captureEvidence, recordReview, stopAgent } from "../support/guardFlow";
import { repoRoot } from "../support/repoRoot";

/** Hosts name sessions with UUIDs; Docket stores only those as they are. */
const SESSION = "3f2b8c1e-9d4a-4c6b-8e21-7a5d0f9c4b13";

/** Resolves with the next `docket/guard/changed` after the call. */
function nextGuardChange(backend: Backend, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error("no docket/guard/changed notification"));
    }, timeoutMs);
    const subscription = backend.connection.onNotification(Notifications.guardChanged.method, (params: unknown) => {
      clearTimeout(timer);
      subscription.dispose();
      resolve(Notifications.guardChanged.params.parse(params).revision);
    });
  });
}

async function overviewUntil(backend: Backend, predicate: (overview: GuardOverview) => boolean): Promise<GuardOverview> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const overview = await backend.request(Requests.guardOverview, {});
    if (predicate(overview) || Date.now() > deadline) return overview;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("the guard overview, its change notification and the mode through the backend", async (t) => {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n", "README.md": "# x\n" } });
  t.after(() => repo.dispose());
  const backend = await startBackend({ workspaceFolder: repo.root });
  t.after(() => backend.stop());
  await backend.request(Requests.turnOn, {});

  const empty = await backend.request(Requests.guardOverview, {});
  assert.deepEqual(empty, { mode: "notice", reviews: [], stops: [] });

  // A supported review, then an unsupported one citing captured evidence (appends by other processes).
  const changed = nextGuardChange(backend);
  const supported = recordReview(
    repo.root,
    { draft: "a.ts exports a = 1.", claims: [{ id: "export", text: "a.ts exports a = 1" }], sources: [{ kind: "file", path: "src/a.ts" }, { kind: "user-input", text: "make a = 1" }], coversEntireAnswer: true },
    () => ({ claims: [{ claimId: "export", verdict: "supported", citations: ["source:1", "source:2"] }], response: { verdict: "supported", rationale: "src/a.ts says so." } }),
  );
  assert.equal(supported.status, "supported");
  await changed;
  const handle = captureEvidence(repo.root, SESSION, "npm test", "2 tests failed");
  const unsupported = recordReview(
    repo.root,
    { draft: "Done, tests pass.", claims: [{ id: "tests", text: "The tests pass" }, { id: "impl", text: "a.ts exports a = 1" }], sources: [{ kind: "evidence", handle }, { kind: "file", path: "src/a.ts" }] },
    () => ({
      claims: [
        { claimId: "tests", verdict: "unsupported", citations: ["source:1"] },
        { claimId: "impl", verdict: "partial", citations: ["source:2"] },
      ],
      response: { verdict: "unsupported", rationale: "The captured run shows 2 failing tests." },
    }),
  );
  assert.equal(unsupported.status, "unsupported");

  const withReviews = await overviewUntil(backend, (overview) => overview.reviews.length === 2);
  assert.deepEqual(withReviews.reviews.map((review) => [review.reviewId, review.status]), [[unsupported.reviewId, "unsupported"], [supported.reviewId, "supported"]], "newest first");
  const [latest, first] = withReviews.reviews;
  assert.ok(latest !== undefined && first !== undefined);
  assert.deepEqual(latest.claims.map((claim) => [claim.claimId, claim.verdict, claim.citations]), [["tests", "unsupported", ["source:1"]], ["impl", "partial", ["source:2"]]]);
  assert.deepEqual(latest.sources.map((source) => [source.sourceId, source.kind, source.kind === "evidence" ? source.handle : source.kind === "file" ? source.path : null]), [["source:1", "evidence", handle], ["source:2", "file", "src/a.ts"]]);
  assert.deepEqual(latest.response, { verdict: "unsupported", rationale: "The captured run shows 2 failing tests." });
  assert.ok(latest.problems.length > 0, "an unsupported review says why");
  assert.equal(first.sources[1]?.kind, "user-input", "a user input is sealed by its digest only");
  assert.equal(JSON.stringify(first).includes("make a = 1"), false, "the user's text itself is never shown");
  assert.equal((await backend.request(Requests.guardOverview, { limit: 1 })).reviews.length, 1);

  // A Stop writes only its session file: the backend announces it without any ledger append.
  const stopped = nextGuardChange(backend);
  const output = stopAgent(repo.root, SESSION, "Done, tests pass.");
  assert.match(output, /not backed by a supported review/u, "the hook's notice");
  await stopped;
  const withStop = await backend.request(Requests.guardOverview, {});
  assert.equal(withStop.stops.length, 1);
  const last = withStop.stops[0];
  assert.ok(last !== undefined);
  assert.equal(last.host, "claude");
  assert.equal(last.sessionId, SESSION, "a host UUID is stored as is");
  assert.notEqual(last.reviewStatus, "supported", "the answer has no supported review");
  assert.ok(last.remaining.length > 0, `remaining work: ${JSON.stringify(last.remaining)}`);

  // A damaged session file is left out rather than failing the answer.
  fs.writeFileSync(
    path.join(sessionsFolder(repo.root), "claude-damaged.json"),
    JSON.stringify({ format: "docket/guard-session/v1", host: "claude", sessionId: "x", intake: null, warned: [], continued: [], lastStop: { at: 5 } }),
  );
  await nextGuardChange(backend);
  assert.equal((await backend.request(Requests.guardOverview, {})).stops.length, 1);

  // The mode: set through the backend (the setting), then by `docket guard mode` in a terminal.
  const modeChanged = nextGuardChange(backend);
  assert.deepEqual(await backend.request(Requests.guardSetMode, { mode: "block-once" }), { mode: "block-once" });
  await modeChanged;
  assert.equal(readGuardMode(repo.root).mode, "block-once");
  assert.equal((await backend.request(Requests.guardOverview, {})).mode, "block-once");
  const cliChanged = nextGuardChange(backend);
  execFileSync(process.execPath, [path.join(repoRoot(), "dist", "docket.js"), "guard", "mode", "off", "--workspace", repo.root], { encoding: "utf8" });
  await cliChanged;
  assert.equal((await backend.request(Requests.guardOverview, {})).mode, "off");

  assert.equal(await backend.errorCode(Requests.guardSetMode.method, { mode: "always" }), ErrorCodes.invalidParams);
  assert.equal(await backend.errorCode(Requests.guardOverview.method, { limit: 0 }), ErrorCodes.invalidParams);
  assert.equal(await backend.errorCode(Requests.guardOverview.method, { reviews: 3 }), ErrorCodes.invalidParams);
});

test("Restricted Mode shows the guard overview and refuses to change the mode", async (t) => {
  const repo = tempRepo({ files: { "README.md": "# x\n" } });
  t.after(() => repo.dispose());
  const backend = await startBackend({ workspaceFolder: repo.root, trusted: false });
  t.after(() => backend.stop());
  assert.deepEqual(await backend.request(Requests.guardOverview, {}), { mode: "notice", reviews: [], stops: [] });
  assert.equal(await backend.errorCode(Requests.guardSetMode.method, { mode: "off" }), ErrorCodes.untrusted);
  assert.equal(fs.existsSync(path.join(repo.root, ".docket", "guard", "mode.json")), false, "nothing was written");
});

test("without a folder the guard requests say so", async (t) => {
  const backend = await startBackend({ workspaceFolder: null });
  t.after(() => backend.stop());
  assert.equal(await backend.errorCode(Requests.guardOverview.method, {}), ErrorCodes.noWorkspace);
  assert.equal(await backend.errorCode(Requests.guardSetMode.method, { mode: "off" }), ErrorCodes.noWorkspace);
});
