// A scripted agent session with Observer, through the real pieces: the hook bundle in child
// processes (UserPromptSubmit, PostToolUse, Stop), the MCP server over stdio (observer_status,
// observer_commit), the CLI (`docket observer …`, `docket notebook validate`) and the backend the
// extension talks to (the approval of the proposal). Tool results are captured and staged, two
// are nominated, readings and observations are recorded, the user's hypothesis is reviewed, the
// Memo is reconciled, Review & Save is proposed and approved, the records validate and the
// Episode is settled with Observer off. Attacks along the way: an expired nomination, a stale
// fingerprint, Docket's own tool, a shipped capture file.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Requests, type ObserverOverview } from "../../server/protocol/messages";
import { startBackend } from "../support/backendProcess";
import { tempRepo } from "../support/gitRepo";
import { callTool, callToolOk, connectMcp, structuredField } from "../support/mcpClient";
import { repoRoot } from "../support/repoRoot";

const CLI = path.join(repoRoot(), "dist", "docket.js");
const HOOK = path.join(repoRoot(), "dist", "docket-hook.js");
const SESSION = "3f0c8a52-6c1e-4d7b-9f55-0a8e2b7c9d11";
const HYPOTHESIS = "The cache is never invalidated after a write";

function docket(cwd: string, args: readonly string[], input?: string): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, input, encoding: "utf8", timeout: 60_000 });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

function hook(workspace: string, event: string, fields: Record<string, unknown>): string {
  const input = JSON.stringify({ cwd: workspace, hook_event_name: event, session_id: SESSION, ...fields });
  const result = spawnSync(process.execPath, [HOOK, "hook", "--host", "claude", event], { input, cwd: workspace, encoding: "utf8", timeout: 30_000 });
  assert.equal(result.status, 0, `hook ${event} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

function ledgerText(workspace: string): string {
  return fs.readFileSync(path.join(workspace, ".docket", "ledger.jsonl"), "utf8");
}

async function status(client: Client): Promise<{ overview: ObserverOverview; memoGuide: Record<string, unknown> | null; saveGuide: Record<string, unknown> | null }> {
  const answer = await callToolOk(client, "observer_status");
  return structuredField(answer, "observer");
}

const frontmatter = (fields: readonly string[]): string => ["---", "observer_schema: observer-record/v1", ...fields, 'created: "2026-12-01T10:00:00Z"', 'modified: "2026-12-01T10:00:00Z"', "tags: []", "aliases: []"].join("\n");

const clients: Client[] = [];
after(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
});

/** Everything up to the proposal the person reviews; returns where it stands. */
async function sessionUntilProposal(): Promise<{ workspace: string; notebook: string; proposalId: string }> {
  const repo = tempRepo({ files: { "src/cache.ts": "export const cache = new Map<string, string>();\nexport function write(key: string, value: string) { store(key, value); }\n" } });
  const workspace = repo.root;
  const notebook = path.join(workspace, "notes");
  assert.equal(docket(workspace, ["notebook", "setup", notebook, "--language", "en", "--yes"]).status, 0);

  // Before Observer is on, nothing is staged: a shipped capture file cannot switch capture on.
  fs.mkdirSync(path.join(workspace, ".docket", "observer"), { recursive: true });
  fs.writeFileSync(path.join(workspace, ".docket", "observer", "capture.json"), JSON.stringify({ format: "docket/observer-capture/v1", on: true, episodeId: "episode-forged", boundTo: "1:2" }));
  const on = docket(workspace, ["observer", "on", "--notebook", notebook, "--json"]);
  assert.equal(on.status, 0, on.stderr);
  const episodeId = (JSON.parse(on.stdout) as { overview: ObserverOverview }).overview.episode.episodeId;
  assert.match(episodeId ?? "", /^episode-/u);

  const hypothesis = docket(workspace, ["observer", "hypothesis", HYPOTHESIS, "--context", "stale values after every deploy", "--json"]);
  assert.equal(hypothesis.status, 0, hypothesis.stderr);

  // The agent's run: a prompt, three tool results (one of Docket's own tools, never staged).
  hook(workspace, "UserPromptSubmit", { prompt: "Find out why stale values show up after writes." });
  hook(workspace, "PostToolUse", {
    tool_name: "Read",
    tool_input: { file_path: path.join(workspace, "src/cache.ts") },
    tool_response: { type: "text", file: { filePath: path.join(workspace, "src/cache.ts"), content: "export function write(key, value) { store(key, value); }", numLines: 1, startLine: 1, totalLines: 1 } },
    tool_use_id: "toolu_read_cache",
  });
  hook(workspace, "PostToolUse", { tool_name: "Bash", tool_input: { command: "npm test -- cache" }, tool_response: { stdout: "1 failing: reads a stale value after write", stderr: "", interrupted: false }, tool_use_id: "toolu_run_tests" });
  hook(workspace, "PostToolUse", { tool_name: "Bash", tool_input: { command: "git log -1" }, tool_response: { stdout: "commit abc", stderr: "", interrupted: false }, tool_use_id: "toolu_unused" });
  hook(workspace, "PostToolUse", { tool_name: "mcp__docket__status", tool_input: {}, tool_response: { content: [{ type: "text", text: "status" }] }, tool_use_id: "toolu_docket_status" });

  const client = await connectMcp(workspace);
  clients.push(client);
  let current = await status(client);
  // The prompt is staged once the detached capture has redacted and stored it (a fraction of a second).
  for (let attempt = 0; attempt < 50 && !current.overview.staged.some((item) => item.toolName === "user-input"); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    current = await status(client);
  }
  assert.match(current.overview.staged.find((item) => item.toolName === "user-input")?.toolCallId ?? "", /^user-event-[0-9a-f]{16}$/u, "the user's prompt is staged");
  assert.deepEqual(current.overview.staged.filter((item) => item.toolName !== "user-input").map((item) => item.toolCallId).sort(), ["toolu_read_cache", "toolu_run_tests", "toolu_unused"]);
  assert.equal(current.overview.hypotheses.length, 1);
  assert.equal(current.overview.hypotheses[0]?.original, HYPOTHESIS);
  assert.equal(current.overview.hypotheses[0]?.review, null);
  const userHypothesis = current.overview.hypotheses[0];
  assert.ok(userHypothesis !== undefined);
  const promptId = current.overview.staged.find((item) => item.toolName === "user-input")?.toolCallId ?? "";

  const commit = {
    episode_id: episodeId,
    fingerprint: current.overview.fingerprint,
    observations: [
      {
        nominations: [
          { tool_call_id: "toolu_read_cache", reason: "The write path is where invalidation would happen." },
          { tool_call_id: promptId, reason: "What the user asked to find out." },
        ],
        source: { kind: "external-material", title: "src/cache.ts write path", lang: "en", uri: "file:src/cache.ts", revision: null, content_hash: null, retrieval_context: "Read by the agent during the investigation" },
        faithful_summary: "write() stores the value and never deletes or refreshes the cached entry.",
        claims: [{ text: "write() calls store() and does not touch the cache map.", locator: "src/cache.ts line 2" }],
        related_inquiry_ids: [userHypothesis.inquiryId],
        stance: "supports",
        record: { kind: "observation", movement: "repeated-support", rationale: "The code shows no invalidation on the write path, as the hypothesis says." },
      },
      {
        nominations: [{ tool_call_id: "toolu_run_tests", reason: "The failing test reproduces the stale read." }],
        source: {
          kind: "direct-observation",
          title: "Cache test run",
          lang: "en",
          observed_at: "2026-12-01T10:00:00.000Z",
          observed_by: "the agent running npm test",
          fact: "One test fails: it reads a stale value after a write.",
          conditions: "npm test -- cache on the working tree",
          interpretation_boundary: "One local run; says nothing about other caches.",
        },
        faithful_summary: "The cache test suite has one failure: a read after a write returns the old value.",
        claims: [{ text: "A read after write returns the old value.", locator: null }],
        related_inquiry_ids: [],
        stance: "refines",
        record: { kind: "observation", movement: "minor-refinement", rationale: "The failure is limited to reads right after writes." },
      },
    ],
    hypothesis_context_reviews: [
      {
        hypothesis_observation_id: userHypothesis.observationId,
        assessment: "insufficient-context",
        missing_information: ["Whether any other path invalidates the cache (eviction, TTL)."],
        interpretation_boundary: "Only the write path and one test run were read.",
      },
    ],
  };

  // A stale fingerprint writes nothing.
  const before = ledgerText(workspace);
  const stale = await callTool(client, "observer_commit", { ...commit, fingerprint: "0".repeat(64) });
  assert.equal(stale.isError, true);
  assert.match(stale.text, /docket\.observer-stale/u);
  // Docket's own tool was never staged; nominating it is refused as a whole batch.
  const own = await callTool(client, "observer_commit", { ...commit, observations: [{ ...commit.observations[0], nominations: [{ tool_call_id: "toolu_docket_status", reason: "x" }] }] });
  assert.equal(own.isError, true);
  assert.match(own.text, /observer\.nomination-unknown/u);
  assert.equal(ledgerText(workspace), before, "refused commits append nothing");

  const committed = await callToolOk(client, "observer_commit", commit);
  const value = structuredField<{ committed: { observations: { readId: string; sourceId: string; observationId: string }[] } }>(committed, "observer");
  assert.equal(value.committed.observations.length, 2);
  current = await status(client);
  assert.equal(current.overview.readings.length, 2);
  assert.deepEqual(current.overview.candidates.map((candidate) => candidate.origin).sort(), ["explicit-user-hypothesis", "tool-result", "tool-result", "user-input"], "the prompt became a candidate");
  assert.deepEqual(current.overview.observations.map((item) => item.stance).sort(), ["refines", "supports"]);
  assert.equal(current.overview.hypotheses[0]?.review?.assessment, "insufficient-context");
  assert.equal(current.overview.hypotheses[0]?.original, HYPOTHESIS, "the user's wording is kept");
  assert.deepEqual(current.overview.staged.filter((item) => item.toolName !== "user-input").map((item) => item.toolCallId), ["toolu_unused"], "nominated results leave the window");

  // The run ends: what was not nominated expires with it.
  hook(workspace, "Stop", { stop_hook_active: false, last_assistant_message: "Found the cause." });
  current = await status(client);
  assert.deepEqual(current.overview.staged, []);
  const expired = await callTool(client, "observer_commit", {
    episode_id: episodeId,
    fingerprint: current.overview.fingerprint,
    observations: [{ ...commit.observations[1], nominations: [{ tool_call_id: "toolu_unused", reason: "late" }] }],
  });
  assert.equal(expired.isError, true);
  assert.match(expired.text, /observer\.nomination-unknown/u);

  // Review & Save asks for the Memo first (with a continuation), the agent reconciles it …
  const review = docket(workspace, ["observer", "save", "--json"]);
  assert.equal(review.status, 0, review.stderr);
  current = await status(client);
  assert.ok(current.memoGuide !== null, "the Memo guide is shown");
  const requestId = current.overview.pendingMemoRequest?.requestId;
  assert.ok(requestId !== undefined);
  const [sourceOne, sourceTwo] = value.committed.observations.map((item) => item.sourceId);
  const [observationOne, observationTwo] = value.committed.observations.map((item) => item.observationId);
  const memoId = "memo-6d1f4a55-2b7e-4c3a-9e1d-5a0b8c7d6e21";
  const evidence = ["evidence-1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", "evidence-2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e"];
  const memo = await callToolOk(client, "observer_commit", {
    episode_id: episodeId,
    fingerprint: current.overview.fingerprint,
    memo: {
      request_id: requestId,
      submission: {
        evidence: [
          { evidence_id: evidence[0], kind: "source-claim", source_id: sourceOne, summary: "write() does not touch the cache map." },
          { evidence_id: evidence[1], kind: "source-claim", source_id: sourceTwo, summary: "A read after write returns the old value." },
        ],
        hypothesis_outcomes: [
          { kind: "create", hypothesis: { inquiry_id: userHypothesis.inquiryId, episode_id: episodeId, origin: "user", original: HYPOTHESIS, current: HYPOTHESIS, revision_reason: null, evidence_ids: [] } },
        ],
        memo_outcomes: [
          {
            kind: "create",
            memo: {
              memo_id: memoId,
              episode_id: episodeId,
              title: "Writes leave stale cache entries",
              lang: "en",
              content: "write() stores without invalidating the cached entry, and the test reads the old value right after a write.",
              inquiry_ids: [userHypothesis.inquiryId],
              hypothesis_id: userHypothesis.inquiryId,
              evidence_ids: evidence,
              reason: "Both readings point at the missing invalidation.",
            },
          },
        ],
        dispositions: [
          { observation_id: observationOne, decision: "integrated", hypothesis_inquiry_ids: [], memo_ids: [memoId], evidence_ids: [evidence[0]], rationale: "The code reading backs the Memo." },
          { observation_id: observationTwo, decision: "integrated", hypothesis_inquiry_ids: [], memo_ids: [memoId], evidence_ids: [evidence[1]], rationale: "The test run backs the Memo." },
          { observation_id: userHypothesis.observationId, decision: "integrated", hypothesis_inquiry_ids: [userHypothesis.inquiryId], memo_ids: [], evidence_ids: [], rationale: "The user's hypothesis is the working hypothesis." },
        ],
      },
    },
  });
  assert.match(memo.text, /Review & Save continues/u);

  // … then writes the exact records the save guide requires.
  current = await status(client);
  const guide = current.saveGuide as { request: { request_id: string }; required_records: { record_id: string; operation: string }[] } | null;
  assert.ok(guide !== null, "the save guide is shown");
  assert.deepEqual(guide.required_records.map((record) => record.record_id).sort(), [memoId, sourceOne, sourceTwo, userHypothesis.inquiryId].sort());
  const records = [
    {
      operation: "create",
      record_id: sourceOne,
      markdown: `${frontmatter(["observer_type: source", "observer_status: available", `id: ${sourceOne}`, "title: src/cache.ts write path", "lang: en", "sources: []", "lineage: []", "relations: []", "source_kind: external-material", "external:", "  uri: file:src/cache.ts", "  retrieval_context: Read by the agent during the investigation"])}\n---\n# src/cache.ts write path\n\nwrite() stores the value and never deletes or refreshes the cached entry.\n`,
    },
    {
      operation: "create",
      record_id: sourceTwo,
      markdown: `${frontmatter(["observer_type: source", "observer_status: available", `id: ${sourceTwo}`, "title: Cache test run", "lang: en", "sources: []", "lineage: []", "relations: []", "source_kind: direct-observation", "observation:", '  observed_at: "2026-12-01T10:00:00Z"', "  observed_by: the agent running npm test", "  fact: One test fails, it reads a stale value after a write.", "  conditions: npm test -- cache on the working tree", "  interpretation_boundary: One local run only."])}\n---\n# Cache test run\n\nThe cache test suite has one failure: a read after a write returns the old value.\n`,
    },
    {
      operation: "create",
      record_id: userHypothesis.inquiryId,
      markdown: `${frontmatter(["observer_type: inquiry", "observer_status: open", `id: ${userHypothesis.inquiryId}`, `title: ${HYPOTHESIS}`, "lang: en", "sources:", `  - record: ${sourceOne}`, "    role: context", "lineage: []", "relations: []", "inquiry:", "  origin: user", `  original: ${HYPOTHESIS}`, `  current: ${HYPOTHESIS}`])}\n---\n# ${HYPOTHESIS}\n\nThe user's hypothesis, not yet settled: other invalidation paths were not read.\n`,
    },
    {
      operation: "create",
      record_id: memoId,
      markdown: `${frontmatter(["observer_type: memo", "observer_status: incubating", `id: ${memoId}`, "title: Writes leave stale cache entries", "lang: en", "sources:", `  - record: ${sourceOne}`, "    role: supports", `  - record: ${sourceTwo}`, "    role: supports", "lineage:", "  - type: derived_from", `    target: ${userHypothesis.inquiryId}`, "relations: []"])}\n---\n# Writes leave stale cache entries\n\nwrite() stores without invalidating the cached entry, and the test reads the old value right after a write.\n`,
    },
  ];
  const saved = await callToolOk(client, "observer_commit", { episode_id: episodeId, fingerprint: current.overview.fingerprint, save: { request_id: guide.request.request_id, summary: "Stale cache after writes: two sources, the hypothesis and a Memo.", records } });
  const proposalId = structuredField<{ committed: { save: { proposalId: string } } }>(saved, "observer").committed.save.proposalId;
  current = await status(client);
  assert.equal(current.overview.episode.status, "reviewing-save");

  return { workspace, notebook, proposalId };
}

test("a scripted agent session: capture, nominate, observe, review, reconcile, Review & Save, approve, settle", { timeout: 240_000 }, async () => {
  const { workspace, notebook, proposalId } = await sessionUntilProposal();
  // The person approves the exact batch through the backend the extension uses.
  const backend = await startBackend({ workspaceFolder: workspace });
  try {
    const detail = await backend.request(Requests.notebookProposal, { proposalId });
    assert.equal(detail.origin?.kind, "observer");
    assert.equal(detail.records.length, 4);
    const published = await backend.request(Requests.notebookPublish, { proposalId, approvedCount: detail.records.length, proposalSha256: detail.proposalSha256 });
    assert.equal(published.receipt.records.length, 4);
    const overview = await backend.request(Requests.observerOverview, {});
    assert.equal(overview.episode.status, "settled");
    assert.equal(overview.mode, "off", "a committed save turns Observer off");
  } finally {
    await backend.stop();
  }
  const validate = docket(workspace, ["notebook", "validate", notebook]);
  assert.equal(validate.status, 0, validate.stdout + validate.stderr);
  const replay = docket(workspace, ["observer", "replay", path.join(workspace, ".docket", "ledger.jsonl"), "--json"]);
  assert.equal(replay.status, 0, replay.stdout);
  const report = JSON.parse(replay.stdout) as { snapshot: { episodeStatus: string; consumedObservationIds: string[] } };
  assert.equal(report.snapshot.episodeStatus, "settled");
  assert.equal(report.snapshot.consumedObservationIds.length, 3);
  const verify = docket(workspace, ["ledger", "verify"]);
  assert.equal(verify.status, 0, verify.stdout + verify.stderr);
});

test("Observer's proposal: a planted file is refused, a lost file is written again, the CLI saves it only through Observer", { timeout: 240_000 }, async () => {
  const { workspace, notebook, proposalId } = await sessionUntilProposal();
  const file = path.join(workspace, ".docket", "notebook", "proposals", `${proposalId}.json`);
  const original = fs.readFileSync(file, "utf8");
  // The plain Notebook commands refuse Observer's proposal: the Episode would not follow.
  const plain = docket(workspace, ["notebook", "discard", proposalId]);
  assert.notEqual(plain.status, 0);
  assert.match(plain.stderr, /docket observer return/u);
  // A crash lost the file: the next Observer command writes it again, byte for byte.
  fs.rmSync(file);
  docket(workspace, ["observer", "memo"]);
  assert.equal(fs.readFileSync(file, "utf8"), original);
  // A file edited after Observer recorded the batch is never saved in the Episode's name.
  const forged = JSON.parse(original) as { prepared: { records: { markdown: string }[] }; proposal_sha256: string };
  const record = forged.prepared.records[0];
  assert.ok(record !== undefined);
  record.markdown = record.markdown.replace("# ", "# Forged ");
  fs.writeFileSync(file, JSON.stringify(forged));
  const sha = forged.proposal_sha256;
  const refused = docket(workspace, ["observer", "approve", proposalId, "--yes", "--sha256", sha]);
  assert.equal(refused.status, 1, refused.stderr);
  assert.match(refused.stderr, /docket\.proposal-invalid/u);
  assert.deepEqual(fs.readdirSync(path.join(notebook, "records")), [], "nothing was written to the Notebook");
  // Back to the recorded bytes: saved through Observer from the command line.
  fs.writeFileSync(file, original);
  const approved = docket(workspace, ["observer", "approve", proposalId, "--yes", "--sha256", (JSON.parse(original) as { proposal_sha256: string }).proposal_sha256, "--json"]);
  assert.equal(approved.status, 0, approved.stderr);
  const settled = JSON.parse(docket(workspace, ["observer", "status", "--json"]).stdout) as { overview: ObserverOverview };
  assert.equal(settled.overview.episode.status, "settled");
  assert.equal(docket(workspace, ["notebook", "validate", notebook]).status, 0);
});
