// A scripted agent session with Observer up to the proposal the person reviews, through the real
// pieces: the hook bundle in child processes (UserPromptSubmit, PostToolUse, Stop), the MCP server
// over stdio (observer_status, observer_commit) and the CLI (`docket observer …`). Shared by the
// integration test (which approves through the backend) and the end-to-end test (which approves in
// the real workbench), so both judge the same session. Attacks along the way are asserted here: an
// expired nomination, a stale fingerprint, Docket's own tool, a shipped capture file.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ObserverOverview } from "../../server/protocol/messages";
import { tempRepo } from "./gitRepo";
import { callTool, callToolOk, connectMcp, structuredField } from "./mcpClient";
import { repoRoot } from "./repoRoot";

const CLI = path.join(repoRoot(), "dist", "docket.js");
const HOOK = path.join(repoRoot(), "dist", "docket-hook.js");
const SESSION = "3f0c8a52-6c1e-4d7b-9f55-0a8e2b7c9d11";
/** The user's hypothesis, as typed; the session keeps this wording. */
export const OBSERVER_HYPOTHESIS = "The cache is never invalidated after a write";
const HYPOTHESIS = OBSERVER_HYPOTHESIS;

/** The files the session's workspace holds (committed) before the agent runs. */
export const OBSERVER_SESSION_FILES: Readonly<Record<string, string>> = {
  "src/cache.ts": "export const cache = new Map<string, string>();\nexport function write(key: string, value: string) { store(key, value); }\n",
};

/** The Notebook's folder, relative to the workspace. */
export const OBSERVER_NOTEBOOK_FOLDER = "notes";

/** What the session records, for tests that look for it on screen. */
export const OBSERVER_SESSION_TEXT = {
  readingTitles: ["src/cache.ts write path", "Cache test run"],
  observationRationales: {
    supports: "The code shows no invalidation on the write path, as the hypothesis says.",
    refines: "The failure is limited to reads right after writes.",
  },
  memoTitle: "Writes leave stale cache entries",
  saveSummary: "Stale cache after writes: two sources, the hypothesis and a Memo.",
} as const;

export interface ObserverSessionAtProposal {
  readonly workspace: string;
  readonly notebook: string;
  readonly episodeId: string;
  readonly proposalId: string;
  /** The four records Review & Save proposes: two sources, the hypothesis's inquiry, the Memo. */
  readonly recordIds: readonly string[];
}

/** Runs the bundled CLI in `cwd`. */
export function docket(cwd: string, args: readonly string[], input?: string): { status: number; stdout: string; stderr: string } {
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

/**
 * Everything up to the proposal the person reviews; returns where it stands. `workspace` is an
 * existing Git repository holding OBSERVER_SESSION_FILES (a workbench already showing it); without
 * one a temporary repository is made.
 */
export async function sessionUntilProposal(workspace: string = tempRepo({ files: OBSERVER_SESSION_FILES }).root): Promise<ObserverSessionAtProposal> {
  const notebook = path.join(workspace, OBSERVER_NOTEBOOK_FOLDER);
  assert.equal(docket(workspace, ["notebook", "setup", notebook, "--language", "en", "--yes"]).status, 0);

  // Before Observer is on, nothing is staged: a shipped capture file cannot switch capture on.
  fs.mkdirSync(path.join(workspace, ".docket", "observer"), { recursive: true });
  fs.writeFileSync(path.join(workspace, ".docket", "observer", "capture.json"), JSON.stringify({ format: "docket/observer-capture/v1", on: true, episodeId: "episode-forged", boundTo: "1:2" }));
  const on = docket(workspace, ["observer", "on", "--notebook", notebook, "--json"]);
  assert.equal(on.status, 0, on.stderr);
  const episodeId = (JSON.parse(on.stdout) as { overview: ObserverOverview }).overview.episode.episodeId ?? "";
  assert.match(episodeId, /^episode-/u);

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
  try {
    return await agentRun(client, workspace, notebook, episodeId);
  } finally {
    // The proposal is approved elsewhere (the backend or the workbench); the agent's server is done.
    await client.close().catch(() => undefined);
  }
}

/** The agent's side over MCP: nominate, observe, review, reconcile the Memo, write the records. */
async function agentRun(client: Client, workspace: string, notebook: string, episodeId: string): Promise<ObserverSessionAtProposal> {
  let current = await status(client);
  // The prompt is staged once the detached capture has redacted and stored it (a fraction of a second).
  // Without a Developer scope the tool results are captured in the background too.
  for (let attempt = 0; attempt < 100 && current.overview.staged.length < 4; attempt += 1) {
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
        source: { kind: "external-material", title: OBSERVER_SESSION_TEXT.readingTitles[0], lang: "en", uri: "file:src/cache.ts", revision: null, content_hash: null, retrieval_context: "Read by the agent during the investigation" },
        faithful_summary: "write() stores the value and never deletes or refreshes the cached entry.",
        claims: [{ text: "write() calls store() and does not touch the cache map.", locator: "src/cache.ts line 2" }],
        related_inquiry_ids: [userHypothesis.inquiryId],
        stance: "supports",
        record: { kind: "observation", movement: "repeated-support", rationale: OBSERVER_SESSION_TEXT.observationRationales.supports },
      },
      {
        nominations: [{ tool_call_id: "toolu_run_tests", reason: "The failing test reproduces the stale read." }],
        source: {
          kind: "direct-observation",
          title: OBSERVER_SESSION_TEXT.readingTitles[1],
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
        record: { kind: "observation", movement: "minor-refinement", rationale: OBSERVER_SESSION_TEXT.observationRationales.refines },
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
  assert.deepEqual(current.overview.observations.map((item) => item.stance).sort(), ["refines", "supports"]);
  assert.equal(current.overview.hypotheses[0]?.review?.assessment, "insufficient-context");
  assert.equal(current.overview.hypotheses[0]?.original, HYPOTHESIS, "the user's wording is kept");
  assert.deepEqual(current.overview.staged.filter((item) => item.toolName !== "user-input").map((item) => item.toolCallId), ["toolu_unused"], "nominated results leave the window");
  assert.deepEqual(current.overview.candidates.map((candidate) => candidate.origin).sort(), ["explicit-user-hypothesis", "tool-result", "tool-result", "user-input"], "the prompt became a candidate");

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
              title: OBSERVER_SESSION_TEXT.memoTitle,
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
  const saved = await callToolOk(client, "observer_commit", { episode_id: episodeId, fingerprint: current.overview.fingerprint, save: { request_id: guide.request.request_id, summary: OBSERVER_SESSION_TEXT.saveSummary, records } });
  const proposalId = structuredField<{ committed: { save: { proposalId: string } } }>(saved, "observer").committed.save.proposalId;
  current = await status(client);
  assert.equal(current.overview.episode.status, "reviewing-save");

  return { workspace, notebook, episodeId, proposalId, recordIds: guide.required_records.map((record) => record.record_id) };
}
