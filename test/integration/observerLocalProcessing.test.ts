// Observer's local processing end to end against real ledgers and a real HTTP server on
// 127.0.0.1 that plays an OpenAI-compatible chat endpoint and answers with an observer_commit
// batch for what it was sent: a job commits it (readings, observations and a hypothesis review
// appear, the staged result leaves the window, the Material review completes), while a malformed
// answer, a batch outside the schema and a batch Docket refuses each defer the job with their code
// and leave the ledger byte for byte as it was. The processing mode decides which path may commit
// (piggyback commits are refused in local mode and local jobs in piggyback), `docket observer
// processing local` refuses an endpoint that is not loopback before it writes anything, a job
// admits the endpoint by its resolved addresses, and the backend's queue runs a Material review
// through the local model and yields to the editor's requests.
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, test } from "node:test";
import { captureToolResult } from "../../server/evidence/evidenceStore";
import { DocketError } from "../../server/errors";
import { setupNotebook } from "../../server/notebook/notebookStore";
import { listStagedRuns, stageToolResult, startRun } from "../../server/observer/captureWindow";
import { LocalObserverProcessor, localCommitToolSchema, materialJob, routineJob, runLocalObserverJob, type LocalJobOutcome, type LocalObserverJob } from "../../server/observer/localProcessing";
import type { LookupAll } from "../../server/observer/loopbackEndpoint";
import { commitObserverWork } from "../../server/observer/observerAgentWork";
import { ObserverCommitRequest } from "../../server/observer/observerCommit";
import { runObserverWorkCommand } from "../../server/observer/observerWorkCli";
import { addUserHypothesis, observerOverview, requestMaterialReview, setObserverMode } from "../../server/observer/observerService";
import { processingPolicy, processingPolicyFile, writeProcessingPolicy } from "../../server/observer/processingPolicy";
import { Requests, type ObserverOverview } from "../../server/protocol/messages";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { startBackend } from "../support/backendProcess";
import { tempFolder } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const SESSION = "5b2d7c1e-0a4f-4e8b-9c3d-2f1e0d9c8b7a";
const MATERIAL = "The service retries three times because RETRIES=3 in config.env, which a comment calls the default.";

interface Sent {
  readonly tools: readonly { readonly function: { readonly name: string; readonly parameters: Record<string, unknown> } }[];
  readonly material: Record<string, unknown>;
  readonly system: string;
}

type Answer = (sent: Sent) => unknown;

function completion(args: unknown): string {
  const call = { id: "call_1", type: "function", function: { name: "observer_commit", arguments: typeof args === "string" ? args : JSON.stringify(args) } };
  return JSON.stringify({ id: "chatcmpl-1", object: "chat.completion", choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: [call] } }] });
}

interface ModelServer {
  readonly endpoint: string;
  readonly port: number;
  readonly sent: Sent[];
  answer: Answer;
  /** Milliseconds to wait before answering. */
  delayMs: number;
}

const servers: http.Server[] = [];
after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function modelServer(answer: Answer): Promise<ModelServer> {
  const state = { sent: [] as Sent[], answer, delayMs: 0 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { messages: { role: string; content: string }[]; tools: Sent["tools"] };
      const sent: Sent = { tools: body.tools, system: body.messages[0]?.content ?? "", material: JSON.parse(body.messages[1]?.content ?? "{}") as Record<string, unknown> };
      state.sent.push(sent);
      setTimeout(() => {
        if (response.destroyed) return;
        const reply = state.answer(sent);
        response.writeHead(200, { "content-type": "application/json" });
        response.end(typeof reply === "string" ? reply : completion(reply));
      }, state.delayMs);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, { endpoint: `http://127.0.0.1:${port}/v1`, port });
}

const source = (title: string) => ({ kind: "external-material", title, lang: "en", uri: null, revision: null, content_hash: null, retrieval_context: "Read by Observer's local model" });

/** What a well-behaved local model answers: one reading per staged result and per unread candidate, a review per hypothesis. */
function faithfulBatch(sent: Sent): Record<string, unknown> {
  const staged = (sent.material.staged_results ?? []) as { tool_call_id: string; text: string }[];
  const candidates = (sent.material.unread_candidates ?? []) as { candidate_id: string; text: string }[];
  const hypotheses = (sent.material.hypotheses_to_review ?? []) as { hypothesis_observation_id: string }[];
  return {
    // Docket must take these from the state it read, not from the model.
    episode_id: "episode-forged-by-the-model",
    fingerprint: "0".repeat(64),
    observations: [
      ...staged.map((result) => ({
        nominations: [{ tool_call_id: result.tool_call_id, reason: "It shows the configured retry count." }],
        source: source("config.env"),
        faithful_summary: `The command printed: ${result.text.slice(0, 80)}`,
        claims: [{ text: "RETRIES is set to 3.", locator: "config.env line 1" }],
        stance: "supports",
        record: { kind: "new-hypothesis", rationale: "The count comes from configuration.", observer_hypothesis: "The retry count is an untuned default." },
      })),
      ...candidates.map((candidate) => ({
        candidate_ids: [candidate.candidate_id],
        source: source("Material the user selected"),
        faithful_summary: candidate.text.slice(0, 200),
        claims: [{ text: "The comment calls 3 the default.", locator: null }],
        stance: "refines",
        record: { kind: "new-hypothesis", rationale: "The material names the default explicitly.", observer_hypothesis: "Nobody chose three retries on purpose." },
      })),
    ],
    hypothesis_context_reviews: hypotheses.map((hypothesis) => ({
      hypothesis_observation_id: hypothesis.hypothesis_observation_id,
      assessment: "insufficient-context",
      missing_information: ["No failure log of the dependency was read."],
      interpretation_boundary: "Configuration shows the count, not whether retries succeed.",
    })),
  };
}

interface Workspace {
  readonly folder: string;
  readonly ledger: WorkspaceLedger;
  readonly ledgerPath: string;
}

async function observedWorkspace(): Promise<Workspace> {
  const folder = tempFolder("docket-observer-local-");
  const notebook = path.join(folder, "notes");
  assert.ok(setupNotebook(notebook, "en").ok);
  const ledgerPath = path.join(folder, ".docket", "ledger.jsonl");
  const ledger = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true });
  await setObserverMode(ledger, folder, { on: true, notebookRoot: notebook });
  return { folder, ledger, ledgerPath };
}

async function stageResult(folder: string, toolCallId: string, stdout: string): Promise<void> {
  const occurredAt = new Date().toISOString();
  const captured = await captureToolResult(folder, { host: "claude", sessionId: SESSION, toolCallId, toolName: "Bash", toolInput: { command: "cat config.env" }, toolResponse: { stdout, stderr: "", interrupted: false }, occurredAt });
  stageToolResult(folder, SESSION, { kind: "tool-result", toolCallId, toolName: "Bash", host: "claude", branchResultId: captured.branchResultId, isError: captured.isError, occurredAt });
}

function useLocal(folder: string, endpoint: string): void {
  const saved = writeProcessingPolicy(folder, processingPolicy("local", { endpoint, model_id: "qwen3:8b" }));
  assert.ok(saved.ok);
}

function job(workspace: Workspace, extra: { lookup?: LookupAll; signal?: AbortSignal } = {}): Promise<LocalJobOutcome> {
  return runLocalObserverJob(workspace.ledger, workspace.folder, { signal: extra.signal ?? new AbortController().signal, timeoutMs: 10_000, ...(extra.lookup === undefined ? {} : { lookup: extra.lookup }) });
}

function ledgerText(workspace: Workspace): string {
  return fs.readFileSync(workspace.ledgerPath, "utf8");
}

function deferredCode(outcome: LocalJobOutcome): string {
  assert.equal(outcome.status, "deferred", JSON.stringify(outcome));
  return outcome.status === "deferred" ? outcome.code : "";
}

test("the tool offered to the model is observer_commit without episode_id and fingerprint, derived from the commit schema", () => {
  const schema = localCommitToolSchema();
  assert.equal(schema.type, "object");
  const properties = Object.keys(schema.properties as Record<string, unknown>).sort();
  assert.deepEqual(properties, ["hypothesis_context_reviews", "memo", "observations", "save"]);
  assert.equal(schema.additionalProperties, false);
});

test("a local job sends the staged result, the unread material and the hypothesis, and commits the model's batch", async () => {
  const workspace = await observedWorkspace();
  const { folder, ledger } = workspace;
  startRun(folder, "claude", SESSION, new Date().toISOString());
  await stageResult(folder, "toolu_local_cat", "RETRIES=3\n# 3 is the default\n");
  await addUserHypothesis(ledger, folder, { text: "Three retries hide a flaky dependency.", context: null });
  await requestMaterialReview(ledger, folder, { kind: "text", text: MATERIAL });
  const server = await modelServer(faithfulBatch);
  // A host name is admitted by what it resolves to, and the client connects to that address.
  useLocal(folder, `http://observer-model.test:${server.port}/v1`);
  const lookups: string[] = [];
  const outcome = await job(workspace, { lookup: async (host) => (lookups.push(host), [{ address: "127.0.0.1", family: 4 }]) });
  assert.equal(outcome.status, "completed", JSON.stringify(outcome));
  assert.deepEqual(lookups, ["observer-model.test"]);

  assert.equal(server.sent.length, 1);
  const sent = server.sent[0] as Sent;
  assert.deepEqual(sent.tools.map((tool) => tool.function.name), ["observer_commit"]);
  assert.deepEqual((sent.material.staged_results as { tool_call_id: string }[]).map((item) => item.tool_call_id), ["toolu_local_cat"]);
  assert.match(JSON.stringify(sent.material.staged_results), /RETRIES=3/u);
  assert.deepEqual((sent.material.unread_candidates as { text: string }[]).map((item) => item.text), [MATERIAL]);
  assert.equal((sent.material.hypotheses_to_review as { hypothesis: string }[])[0]?.hypothesis, "Three retries hide a flaky dependency.");
  assert.doesNotMatch(JSON.stringify(sent.material), /fingerprint/u, "the model is not asked for the fingerprint");

  const overview = await observerOverview(ledger, folder);
  assert.equal(overview.issueCount, 0);
  assert.equal(overview.readings.length, 2);
  assert.equal(overview.observations.length, 2);
  assert.ok(overview.observations.every((observation) => observation.newHypothesis !== null));
  assert.equal(overview.hypotheses[0]?.review?.assessment, "insufficient-context");
  assert.deepEqual(overview.staged, [], "the nominated result left the capture window");
  assert.ok(outcome.status === "completed" && outcome.followUps.some((line) => /Material review .* is complete/u.test(line)), "the Material review completed");

  // Nothing waits any more: the next job asks the model nothing.
  const again = await job(workspace, { lookup: async () => [{ address: "127.0.0.1", family: 4 }] });
  assert.equal(again.status, "skipped");
  assert.equal(server.sent.length, 1);
});

test("a malformed answer, a batch outside the schema and a batch Docket refuses each defer the job and change nothing", async () => {
  const workspace = await observedWorkspace();
  const { folder } = workspace;
  startRun(folder, "claude", SESSION, new Date().toISOString());
  await stageResult(folder, "toolu_local_log", "error: upstream timed out (attempt 3 of 3)\n");
  const server = await modelServer(() => "not json at all");
  useLocal(folder, server.endpoint);
  const before = ledgerText(workspace);

  assert.equal(deferredCode(await job(workspace)), "observer.local-model-malformed");
  server.answer = () => completion("{ this is not json");
  assert.equal(deferredCode(await job(workspace)), "observer.local-model-malformed");
  server.answer = (sent) => {
    const batch = faithfulBatch(sent);
    (batch.observations as { stance: string }[])[0]!.stance = "certain";
    return batch;
  };
  assert.equal(deferredCode(await job(workspace)), "observer.local-batch-invalid");
  server.answer = (sent) => {
    const batch = faithfulBatch(sent);
    (batch.observations as { nominations: { tool_call_id: string }[] }[])[0]!.nominations[0]!.tool_call_id = "toolu_never_staged";
    return batch;
  };
  assert.equal(deferredCode(await job(workspace)), "observer.nomination-unknown");
  // A batch whose second reading fails leaves the first unapplied too.
  server.answer = (sent) => {
    const batch = faithfulBatch(sent);
    const observations = batch.observations as Record<string, unknown>[];
    observations.push({ ...observations[0], nominations: [{ tool_call_id: "toolu_never_staged", reason: "again" }] });
    return batch;
  };
  assert.equal(deferredCode(await job(workspace)), "observer.nomination-unknown");

  assert.equal(server.sent.length, 5);
  assert.equal(ledgerText(workspace), before, "the ledger is byte for byte as before");
  assert.deepEqual(
    listStagedRuns(folder).flatMap((run) => run.staged.map((item) => item.toolCallId)),
    ["toolu_local_log"],
    "the staged result is still there for a later job",
  );
});

test("the processing mode decides who commits: piggyback batches are refused in local mode, local jobs in piggyback", async () => {
  const workspace = await observedWorkspace();
  const { folder, ledger } = workspace;
  await requestMaterialReview(ledger, folder, { kind: "text", text: MATERIAL });
  const server = await modelServer(faithfulBatch);
  useLocal(folder, server.endpoint);
  const overview = await observerOverview(ledger, folder);
  const candidateId = overview.candidates[0]?.candidateId ?? "";
  const batch = ObserverCommitRequest.parse({
    episode_id: overview.episode.episodeId,
    fingerprint: overview.fingerprint,
    observations: [
      {
        candidate_ids: [candidateId],
        source: source("Material"),
        faithful_summary: "The retry count is the default.",
        claims: [{ text: "RETRIES=3", locator: null }],
        stance: "supports",
        record: { kind: "new-hypothesis", rationale: "r", observer_hypothesis: "h" },
      },
    ],
  });
  const before = ledgerText(workspace);
  await assert.rejects(commitObserverWork(ledger, folder, batch), (error: unknown) => error instanceof DocketError && error.details?.observerCode === "observer.commit-mode" && /processing mode is local/u.test(error.message));
  assert.equal(ledgerText(workspace), before);

  assert.ok(writeProcessingPolicy(folder, processingPolicy("piggyback")).ok);
  assert.equal(deferredCode(await job(workspace)), "observer.commit-mode");
  await assert.rejects(commitObserverWork(ledger, folder, batch, { processing: "local" }), (error: unknown) => error instanceof DocketError && error.details?.observerCode === "observer.commit-mode");
  assert.equal(server.sent.length, 0, "no model was asked");
  assert.equal(ledgerText(workspace), before);
  // The same batch through the piggyback path applies.
  const committed = await commitObserverWork(ledger, folder, batch);
  assert.equal(committed.committed.observations.length, 1);
});

test("processing local admits the endpoint by where it connects, before anything is written", async () => {
  const folder = tempFolder("docket-observer-local-cli-");
  const run = async (args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    let stdout = "";
    let stderr = "";
    const code = await runObserverWorkCommand("processing", [...args, "--workspace", folder], { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd: folder });
    return { code, stdout, stderr };
  };
  for (const endpoint of ["http://192.0.2.10:8080/v1", "http://0.0.0.0:11434/v1", "http://[::ffff:10.0.0.1]:8080/v1"]) {
    const refused = await run(["local", "--endpoint", endpoint, "--model", "qwen3:8b"]);
    assert.equal(refused.code, 1, endpoint);
    assert.match(refused.stderr, /^docket: observer\.local-endpoint-not-loopback: /u);
  }
  const invalid = await run(["local", "--endpoint", "ftp://127.0.0.1/v1", "--model", "qwen3:8b", "--json"]);
  assert.equal(invalid.code, 1);
  assert.equal((JSON.parse(invalid.stdout) as { error: { code: string } }).error.code, "observer.local-endpoint-invalid");
  assert.equal(fs.existsSync(processingPolicyFile(folder)), false, "nothing was written");

  const accepted = await run(["local", "--endpoint", "http://127.0.0.1:11434/v1", "--model", "qwen3:8b"]);
  assert.equal(accepted.code, 0, accepted.stderr);
  assert.match(fs.readFileSync(processingPolicyFile(folder), "utf8"), /"mode": "local"/u);

  // A policy written by hand is admitted again by each job: a name resolving off this machine defers it.
  const workspace = await observedWorkspace();
  await requestMaterialReview(workspace.ledger, workspace.folder, { kind: "text", text: MATERIAL });
  useLocal(workspace.folder, "http://models.internal:8080/v1");
  const outcome = await job(workspace, { lookup: async () => [{ address: "127.0.0.1", family: 4 }, { address: "10.1.2.3", family: 4 }] });
  assert.equal(deferredCode(outcome), "observer.local-endpoint-not-loopback");
});

test("the queue: one job at a time, duplicates refused, a paused job is aborted and rerun, a settled routine job is not rerun", async () => {
  const workspace = await observedWorkspace();
  const { folder, ledger } = workspace;
  await requestMaterialReview(ledger, folder, { kind: "text", text: MATERIAL });
  const server = await modelServer(() => "not json");
  server.delayMs = 400;
  useLocal(folder, server.endpoint);
  const settled: { id: string; outcome: LocalJobOutcome }[] = [];
  let notify: () => void = () => undefined;
  const processor = new LocalObserverProcessor(ledger, folder, { settled: (settledJob: LocalObserverJob, outcome) => (settled.push({ id: settledJob.id, outcome }), notify()), timeoutMs: 10_000 });
  const waitSettled = (count: number): Promise<void> =>
    new Promise((resolve) => {
      notify = () => {
        if (settled.length >= count) resolve();
      };
      notify();
    });
  try {
    const routine = routineJob(await observerOverview(ledger, folder));
    assert.equal(processor.offer(routine), true);
    assert.equal(processor.offer(routine), false, "a queued id is refused");
    processor.resume();
    while (server.sent.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(processor.snapshot().activeJobId, routine.id);
    assert.equal(processor.offer(routine), false, "a running id is refused");
    // Foreground wins: the running request is abandoned and the job waits at the front.
    processor.pause();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(processor.snapshot(), { state: "paused", queued: 1, activeJobId: null });
    assert.equal(settled.length, 0);
    processor.resume();
    await waitSettled(1);
    assert.equal(server.sent.length, 2, "the job ran again after the pause");
    assert.equal(settled[0]?.id, routine.id);
    assert.equal(deferredCode(settled[0]?.outcome as LocalJobOutcome), "observer.local-model-malformed");
    assert.equal(processor.offer(routine), false, "a settled routine job is not asked again");
    // An explicit request (Review Material again) is the retry.
    const material = materialJob("material-review-1");
    assert.equal(processor.offer(material), true);
    await waitSettled(2);
    assert.equal(processor.offer(material), true, "explicit jobs may run again");
    await waitSettled(3);
    assert.equal(server.sent.length, 4);
  } finally {
    processor.dispose();
  }
  assert.equal(processor.offer(materialJob("late")), false, "a disposed queue takes nothing");
});

test("backend: in local mode a Material review is read by the local model and the view refreshes", { skip: !fs.existsSync(path.join(repoRoot(), "dist", "docket.js")) && "dist/ is not built" }, async () => {
  const workspace = await observedWorkspace();
  const server = await modelServer(faithfulBatch);
  useLocal(workspace.folder, server.endpoint);
  const backend = await startBackend({ workspaceFolder: workspace.folder });
  try {
    const result = await backend.request(Requests.observerReviewMaterial, { kind: "text", text: MATERIAL });
    assert.match(result.message, /queued for Observer's local model/u);
    let overview: ObserverOverview = result.overview;
    const deadline = Date.now() + 15_000;
    while (overview.observations.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      overview = await backend.request(Requests.observerOverview, {});
    }
    assert.equal(overview.readings.length, 1);
    assert.equal(overview.observations.length, 1);
    assert.equal(overview.issueCount, 0);
    assert.ok(server.sent.length >= 1);

    // A result staged by the hooks shows in the editor's overview, which queues a routine job for it.
    startRun(workspace.folder, "claude", SESSION, new Date().toISOString());
    await stageResult(workspace.folder, "toolu_backend_cat", "RETRIES=3\n");
    while (overview.observations.length < 2 && Date.now() < deadline) {
      overview = await backend.request(Requests.observerOverview, {});
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(overview.observations.length, 2);
    assert.deepEqual(overview.staged, []);
    const asked = server.sent.length;
    // Nothing waits now: refreshing the view asks the model nothing more.
    await backend.request(Requests.observerOverview, {});
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(server.sent.length, asked);
  } finally {
    await backend.stop();
  }
});
