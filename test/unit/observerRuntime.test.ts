// Observer's write path against a real ledger in a temp folder: operations are appended only when
// replay accepts them, refusals and stale batches leave the file byte-identical, replay issues
// block every change, the capture window stages and expires tool results, and the files a
// repository could ship (capture.json, links under .docket/observer) never switch capture on or
// lead a write or a removal outside the workspace.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { DocketError } from "../../server/errors";
import { encodeLedgerLine } from "../../server/ledger/ledgerLine";
import { endRun, findStaged, listStagedRuns, MAX_STAGED_PER_RUN, removeStaged, stageToolResult, startRun } from "../../server/observer/captureWindow";
import { commitOperation, ObserverCommitRequest } from "../../server/observer/observerCommit";
import { ensureEpisode, turnObserverOff, turnObserverOn } from "../../server/observer/lifecycleOperations";
import { lifecycleEntry, refuse, type ObserverIds } from "../../server/observer/observerDrafts";
import { readCaptureMode, writeCaptureMode } from "../../server/observer/observerFiles";
import { observerFingerprintOf, readObserverState, runObserverOperation } from "../../server/observer/observerRuntime";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { tempFolder } from "../support/gitRepo";

const NOTEBOOK = "notebook-6d1f4a55-2b7e-4c3a-9e1d-5a0b8c7d6e21";

function sequentialIds(): ObserverIds {
  let counter = 0;
  return { next: (prefix) => `${prefix}00000000-0000-4000-8000-${String((counter += 1)).padStart(12, "0")}` };
}

function workspace(): { folder: string; ledger: WorkspaceLedger; ledgerPath: string } {
  const folder = tempFolder("docket-observer-runtime-");
  const ledgerPath = path.join(folder, ".docket", "ledger.jsonl");
  const ledger = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true, clock: { now: () => "2026-12-01T10:00:00.000Z" } });
  return { folder, ledger, ledgerPath };
}

async function refusedCode(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    assert.ok(error instanceof DocketError, String(error));
    return `${error.code} ${String(error.details?.observerCode ?? "")}`.trim();
  }
  assert.fail("the operation was not refused");
}

test("Observer On opens an Episode and turns the mode on; Off keeps the Episode; each append replays clean", async () => {
  const { folder, ledger } = workspace();
  const ids = sequentialIds();
  const on = await runObserverOperation(ledger, folder, "on", (context) => turnObserverOn(context, { notebookId: NOTEBOOK, lang: "en" }), { ids });
  assert.equal(on.appended, 3, "notebook-selected, episode-opened, activation-changed");
  assert.equal(on.value.mode, "on");
  assert.deepEqual(readCaptureMode(folder), { on: true, episodeId: on.value.episodeId });
  const again = await runObserverOperation(ledger, folder, "on", (context) => turnObserverOn(context, { notebookId: NOTEBOOK, lang: "en" }), { ids });
  assert.equal(again.appended, 0, "a second On is a no-op");
  const off = await runObserverOperation(ledger, folder, "off", (context) => turnObserverOff(context), { ids });
  assert.equal(off.appended, 1);
  const state = await readObserverState(ledger);
  assert.equal(state.snapshot.lifecycle.mode, "off");
  assert.equal(state.snapshot.lifecycle.episode.status, "open");
  assert.deepEqual(state.issues, []);
  assert.equal(readCaptureMode(folder).on, false);
  // Switching Notebooks while the Episode is live is refused, nothing written.
  const before = fs.readFileSync(path.join(folder, ".docket", "ledger.jsonl"), "utf8");
  assert.equal(await refusedCode(runObserverOperation(ledger, folder, "on", (context) => turnObserverOn(context, { notebookId: "notebook-00000000-0000-4000-8000-000000000009", lang: "en" }), { ids })), "docket.observer-refused notebook.live-switch");
  assert.equal(fs.readFileSync(path.join(folder, ".docket", "ledger.jsonl"), "utf8"), before);
  const episode = await runObserverOperation(ledger, folder, "episode", (context) => ensureEpisode(context, { notebookId: NOTEBOOK, lang: "en" }), { ids });
  assert.equal(episode.appended, 0, "the live Episode is kept");
});

test("a batch replay would refuse is not written, a refusal writes nothing, a stale fingerprint writes nothing", async () => {
  const { folder, ledger, ledgerPath } = workspace();
  const ids = sequentialIds();
  await runObserverOperation(ledger, folder, "on", (context) => turnObserverOn(context, { notebookId: NOTEBOOK, lang: "en" }), { ids });
  const before = fs.readFileSync(ledgerPath, "utf8");
  // A second episode-opened while one is open: replay says lifecycle issue, so nothing is appended.
  const code = await refusedCode(
    runObserverOperation(ledger, folder, "forged", () => ({ ok: true, entries: [lifecycleEntry({ kind: "episode-opened", episodeId: "episode-x", notebookId: NOTEBOOK, lang: "en" })], value: null }), { ids }),
  );
  assert.match(code, /^docket\.observer-refused observation-session\.lifecycle$/u);
  assert.equal(await refusedCode(runObserverOperation(ledger, folder, "refused", () => refuse("observer.test", "no"), { ids })), "docket.observer-refused observer.test");
  assert.equal(await refusedCode(runObserverOperation(ledger, folder, "stale", (context) => turnObserverOff(context), { ids, fingerprint: "0".repeat(64) })), "docket.observer-stale observer.stale");
  assert.equal(fs.readFileSync(ledgerPath, "utf8"), before, "the ledger is byte-identical");
  const fingerprint = await ledger.readCaughtUp((store) => observerFingerprintOf(store));
  const off = await runObserverOperation(ledger, folder, "off", (context) => turnObserverOff(context), { ids, fingerprint });
  assert.equal(off.appended, 1, "the current fingerprint is accepted");
  assert.notEqual(off.fingerprint, fingerprint);
});

test("an Observer history with replay issues blocks every change (fail closed)", async () => {
  const { folder, ledger, ledgerPath } = workspace();
  const ids = sequentialIds();
  await runObserverOperation(ledger, folder, "on", (context) => turnObserverOn(context, { notebookId: NOTEBOOK, lang: "en" }), { ids });
  // Another writer appends a well-formed ledger line whose Observer entry replay rejects.
  const lines = fs.readFileSync(ledgerPath, "utf8").trimEnd().split("\n");
  const last = JSON.parse(lines.at(-1) as string) as { lineSha256: string };
  const bad = encodeLedgerLine(lines.length, last.lineSha256, "observer/v1", { customType: "observer.lifecycle", data: { protocol: "observer/v1", kind: "no-such-kind" } });
  fs.appendFileSync(ledgerPath, bad.text);
  fs.rmSync(`${ledgerPath}.anchor`, { force: true });
  ledger.refresh();
  const state = await readObserverState(ledger);
  assert.ok(state.issues.length > 0);
  const after = fs.readFileSync(ledgerPath, "utf8");
  assert.equal(await refusedCode(runObserverOperation(ledger, folder, "off", (context) => turnObserverOff(context), { ids })), "docket.observer-blocked observer.replay-issues");
  assert.equal(fs.readFileSync(ledgerPath, "utf8"), after);
});

test("commit requests: strict schema, memo and save together, nothing at all, one call id twice", () => {
  const base = { episode_id: "episode-1", fingerprint: "a".repeat(64) };
  assert.equal(ObserverCommitRequest.safeParse({ ...base, extra: 1 }).success, false, "unknown keys are refused");
  assert.equal(ObserverCommitRequest.safeParse({ ...base, observations: Array.from({ length: 5 }, () => ({})) }).success, false);
  const facts = { notebook: { records: [], views: [], save: { notebookId: NOTEBOOK, root: "/n", inventory: [] } }, nominated: new Map(), isDocketTool: () => false, retrievedReviewId: null, preflight: () => ({ ok: true as const, value: null }) };
  const context = { entries: [], now: "2026-12-01T10:00:00.000Z", ids: sequentialIds() };
  const empty = commitOperation(ObserverCommitRequest.parse(base), facts)(context);
  assert.equal(empty.ok ? "" : empty.code, "observer.commit-empty");
  const both = commitOperation(ObserverCommitRequest.parse({ ...base, memo: { request_id: "r", submission: { evidence: [], hypothesis_outcomes: [], memo_outcomes: [], dispositions: [] } }, save: { request_id: "s", summary: "x", records: [] } }), facts)(context);
  assert.equal(both.ok ? "" : both.code, "observer.commit-memo-and-save");
  const observation = {
    nominations: [{ tool_call_id: "toolu_1", reason: "r" }],
    source: { kind: "external-material", title: "t", lang: "en", uri: "file:a", revision: null, content_hash: null, retrieval_context: null },
    faithful_summary: "s",
    claims: [{ text: "c", locator: null }],
    stance: "supports",
    record: { kind: "observation", movement: "repeated-support", rationale: "r" },
  };
  const twice = commitOperation(ObserverCommitRequest.parse({ ...base, observations: [observation, observation] }), facts)(context);
  assert.equal(twice.ok ? "" : twice.code, "observer.nomination-duplicate");
  const stale = commitOperation(ObserverCommitRequest.parse({ ...base, observations: [observation] }), facts)(context);
  assert.equal(stale.ok ? "" : stale.code, "observer.stale", "no open Episode with that id");
  assert.equal(ObserverCommitRequest.safeParse({ ...base, observations: [{ ...observation, record: { kind: "observation", movement: "independent-new-hypothesis", rationale: "r" } }] }).success, false, "a new hypothesis needs its own record kind");
});

test("the capture window: a run stages at most 24 results, a new prompt or Stop expires them, nominated ones leave", () => {
  const folder = tempFolder("docket-observer-window-");
  startRun(folder, "claude", "session-a", "2026-12-01T10:00:00.000Z");
  for (let index = 0; index < MAX_STAGED_PER_RUN + 3; index += 1) {
    stageToolResult(folder, "session-a", { kind: "tool-result", toolCallId: `toolu_${index}`, toolName: "Bash", host: "claude", branchResultId: `branch-result-${String(index).padStart(16, "0")}`, isError: false, occurredAt: `2026-12-01T10:00:${String(index).padStart(2, "0")}.000Z` });
  }
  const runs = listStagedRuns(folder);
  assert.equal(runs.length, 1);
  assert.equal(runs[0]?.staged.length, MAX_STAGED_PER_RUN);
  assert.equal(findStaged(folder, "toolu_0"), null, "the oldest were evicted");
  assert.ok(findStaged(folder, "toolu_26") !== null);
  removeStaged(folder, ["toolu_26"]);
  assert.equal(findStaged(folder, "toolu_26"), null);
  // Another session's run is separate; a new prompt in session a expires what a staged.
  stageToolResult(folder, "session-b", { kind: "tool-result", toolCallId: "toolu_b", toolName: "Read", host: "codex", branchResultId: "branch-result-00000000000000bb", isError: false, occurredAt: "2026-12-01T10:01:00.000Z" });
  startRun(folder, "claude", "session-a", "2026-12-01T10:02:00.000Z");
  assert.equal(findStaged(folder, "toolu_25"), null);
  assert.ok(findStaged(folder, "toolu_b") !== null);
  endRun(folder, "codex", "session-b");
  assert.equal(findStaged(folder, "toolu_b"), null);
});

test("hostile files: a shipped capture.json is ignored, linked folders are never written through or removed through", () => {
  const folder = tempFolder("docket-observer-hostile-");
  const outside = tempFolder("docket-observer-outside-");
  fs.mkdirSync(path.join(folder, ".docket", "observer"), { recursive: true });
  fs.writeFileSync(path.join(folder, ".docket", "observer", "capture.json"), JSON.stringify({ format: "docket/observer-capture/v1", on: true, episodeId: "episode-1", boundTo: "1:1" }));
  assert.equal(readCaptureMode(folder).on, false, "a capture file written elsewhere does not switch capture on");
  writeCaptureMode(folder, { on: true, episodeId: "episode-1" });
  assert.equal(readCaptureMode(folder).on, true);
  // The runs folder is a link to a folder outside: staging refuses, listing and removal do not follow it.
  fs.writeFileSync(path.join(outside, "keep.txt"), "keep");
  fs.symlinkSync(outside, path.join(folder, ".docket", "observer", "runs"));
  assert.throws(() => stageToolResult(folder, "s", { kind: "tool-result", toolCallId: "t", toolName: "Bash", host: "claude", branchResultId: "branch-result-0000000000000001", isError: false, occurredAt: "2026-12-01T10:00:00.000Z" }));
  assert.throws(() => startRun(folder, "claude", "s", "2026-12-01T10:00:00.000Z"));
  assert.deepEqual(listStagedRuns(folder), []);
  endRun(folder, "claude", "s");
  assert.deepEqual(fs.readdirSync(outside), ["keep.txt"], "nothing outside was written or removed");
});
