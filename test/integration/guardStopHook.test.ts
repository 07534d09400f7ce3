// The Stop hook through the real hook bundle, per host dialect (docs/guard.md "At Stop"): the
// answer against its review and the remaining work collected from the ledger and beside it,
// intake binding and its one warning per session and cause, block-once spent once per intake,
// the transcript fallback, and a damaged ledger that is reported, never blocked on and never
// passed over in silence. Every output is checked against the host's documented schema.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { openReview, submitReview } from "../../server/guard/reviews";
import { recordBoard } from "../../server/guard/boardRecorder";
import { writeGuardMode } from "../../server/guard/guardFiles";
import { HOST_OUTPUT_SCHEMAS } from "../../server/hooks/hostOutputSchemas";
import { tempRepo, type TempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const HOOK_BUNDLE = path.join(repoRoot(), "dist", "docket-hook.js");
type Host = "claude" | "codex" | "vscode";

interface StopOutput {
  readonly systemMessage?: string;
  readonly decision?: string;
  readonly reason?: string;
  readonly hookSpecificOutput?: { readonly decision?: string; readonly reason?: string; readonly additionalContext?: string };
}

function stopInput(host: Host, cwd: string, session: string, answer: string | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  if (host === "vscode") return { timestamp: "2026-12-01T10:00:00.000Z", cwd, sessionId: session, hookEventName: "Stop", transcript_path: null, stop_hook_active: false, last_assistant_message: answer, ...extra };
  const common = { session_id: session, transcript_path: null, cwd, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: answer, ...extra };
  return host === "codex" ? { turn_id: "turn-1", model: "gpt-5", permission_mode: "default", ...common } : common;
}

function run(host: Host, event: string, input: Record<string, unknown>, cwd: string): StopOutput {
  const result = spawnSync(process.execPath, [HOOK_BUNDLE, "hook", "--host", host, event], { input: JSON.stringify(input), cwd, encoding: "utf8" });
  assert.equal(result.status, 0, result.stderr);
  const output = JSON.parse(result.stdout) as StopOutput;
  const checked = HOST_OUTPUT_SCHEMAS[host][event as "Stop"].safeParse(output);
  assert.ok(checked.success, `${host} ${event} output is not in its documented schema: ${result.stdout}`);
  return output;
}

function stop(host: Host, repo: TempRepo, session: string, answer: string | null, extra: Record<string, unknown> = {}): StopOutput {
  return run(host, "Stop", stopInput(host, repo.root, session, answer, extra), repo.root);
}

function prompt(host: Host, repo: TempRepo, session: string, text: string): void {
  const input = host === "vscode" ? { timestamp: "t", cwd: repo.root, sessionId: session, hookEventName: "UserPromptSubmit", prompt: text } : { session_id: session, cwd: repo.root, hook_event_name: "UserPromptSubmit", prompt: text };
  run(host, "UserPromptSubmit", input, repo.root);
}

async function docketOn(): Promise<{ repo: TempRepo; ledger: WorkspaceLedger }> {
  const repo = tempRepo({ files: { "greet.ts": "export const greet = (name: string) => name.trim();\n" } });
  const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath: path.join(repo.root, ".docket", "ledger.jsonl"), trusted: true });
  ledger.refresh();
  await ledger.turnOn();
  return { repo, ledger };
}

async function supportedAnswer(ledger: WorkspaceLedger, draft: string): Promise<string> {
  const opened = await openReview(ledger, { draft, claims: [{ id: "c1", text: "greet trims" }], sources: [{ kind: "file", path: "greet.ts" }] });
  const submitted = await submitReview(ledger, { reviewId: opened.reviewId, claims: [{ claimId: "c1", verdict: "supported", citations: ["source:1"] }], response: { verdict: "supported", rationale: "greet.ts" } });
  assert.equal(submitted.status, "supported");
  return `${draft}${submitted.marker ?? ""}`;
}

function notice(output: StopOutput): string {
  return output.systemMessage ?? "";
}

test("per host: an unreviewed done is a notice; a supported answer with nothing remaining is silent", async () => {
  const { repo, ledger } = await docketOn();
  try {
    const answer = await supportedAnswer(ledger, "greet.ts trims the name.");
    for (const host of ["claude", "codex", "vscode"] as const) {
      prompt(host, repo, `${host}-1`, "Make greet trim the name.");
      const unreviewed = stop(host, repo, `${host}-1`, "Done, all tests pass.");
      assert.match(notice(unreviewed), /not backed by a supported review .*docket\.marker-missing/su, host);
      assert.equal(unreviewed.decision, undefined, `${host} never blocks in notice mode`);
      assert.deepEqual(stop(host, repo, `${host}-1`, answer), {}, `${host}: supported and clear is silent`);
    }
  } finally {
    repo.dispose();
  }
});

test("intake: no prompt recorded → one warning per session and cause, even on an otherwise silent stop", async () => {
  const { repo, ledger } = await docketOn();
  try {
    const answer = await supportedAnswer(ledger, "greet.ts trims the name.");
    const first = stop("claude", repo, "no-prompt", answer);
    assert.match(notice(first), /recorded no user input for this session/u);
    assert.deepEqual(stop("claude", repo, "no-prompt", answer), {}, "the warning is given once");
    // A session that only started: its own cause, warned once.
    run("claude", "SessionStart", { session_id: "started", cwd: repo.root, hook_event_name: "SessionStart", source: "startup" }, repo.root);
    assert.match(notice(stop("claude", repo, "started", answer)), /saw this session start but no user prompt/u);
    assert.deepEqual(stop("claude", repo, "started", answer), {});
    // Once the user prompts, nothing is owed.
    prompt("claude", repo, "prompted", "Go.");
    assert.deepEqual(stop("claude", repo, "prompted", answer), {});
    const sessions = fs.readdirSync(path.join(repo.root, ".docket", "guard", "sessions"));
    assert.equal(sessions.length, 3);
    // The prompt's text is never stored, only its digest.
    for (const name of sessions) assert.doesNotMatch(fs.readFileSync(path.join(repo.root, ".docket", "guard", "sessions", name), "utf8"), /"Go\."/u);
    // A session id that is not a host's UUID is stored only as a digest (it is the host's text).
    const odd = `ghp_${"a1B2".repeat(9)}`;
    stop("claude", repo, odd, answer);
    const files = fs.readdirSync(path.join(repo.root, ".docket", "guard", "sessions")).map((name) => fs.readFileSync(path.join(repo.root, ".docket", "guard", "sessions", name), "utf8"));
    assert.equal(files.length, 4);
    for (const text of files) assert.ok(!text.includes(odd));
    assert.deepEqual(stop("claude", repo, odd, answer), {}, "the digest still finds the session: its warning was given once");
  } finally {
    repo.dispose();
  }
});

test("block-once: continues once per intake, yields on the host's flag, and a new prompt is a new intake", async () => {
  const { repo } = await docketOn();
  try {
    writeGuardMode(repo.root, "block-once");
    for (const host of ["claude", "codex", "vscode"] as const) {
      const session = `${host}-block`;
      prompt(host, repo, session, "Fix it.");
      const blocked = stop(host, repo, session, "Done.");
      const reason = host === "vscode" ? blocked.hookSpecificOutput?.reason : blocked.reason;
      assert.equal(host === "vscode" ? blocked.hookSpecificOutput?.decision : blocked.decision, "block", host);
      assert.match(reason ?? "", /review_open and review_submit/u);
      // The host repeats Stop with its flag false (Claude Code has been seen to): yield.
      const repeated = stop(host, repo, session, "Done.");
      assert.equal(repeated.decision ?? repeated.hookSpecificOutput?.decision, undefined, `${host} blocks only once`);
      assert.match(notice(repeated), /not backed by a supported review/u);
      // A new question is a new intake: one more continuation, but never when the host says it already continued.
      prompt(host, repo, session, "And the README?");
      assert.equal(stop(host, repo, session, "Done.", { stop_hook_active: true, stopHookActive: true }).decision, undefined);
      const again = stop(host, repo, session, "Done.");
      assert.equal(again.decision ?? again.hookSpecificOutput?.decision, "block", `${host}: new intake`);
    }
    // Without a session id there is nothing to count "once" in: never block.
    const anonymous = run("claude", "Stop", { cwd: repo.root, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "Done." }, repo.root);
    assert.equal(anonymous.decision, undefined);
  } finally {
    repo.dispose();
  }
});

test("remaining work from the ledger and beside it: authorized change, board finding, notebook proposal", async () => {
  const { repo, ledger } = await docketOn();
  try {
    const answer = await supportedAnswer(ledger, "greet.ts trims the name.");
    prompt("claude", repo, "work", "Go.");
    await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "Trim?", obligations: [{ obligationId: "obligation:a", statement: "Settled." }] });
    assert.match(notice(stop("claude", repo, "work", answer)), /- open-frame: /u);
    await ledger.concludeJudgment({ disposition: "not-applicable", reason: "Plain.", basis: ["The user asked."] });
    await ledger.authorizeChange({ movement: "Trim.", stableLanding: "Trimmed.", verificationTarget: "Tests." });
    const scope = ledger.history().activeScope?.workScopeId ?? "";
    recordBoard(repo.root, scope, { basisSha256: "b".repeat(64), task: "make greet trim", verdict: "FIX_REQUIRED", reasons: ["architect has not reported yet."] });
    const proposals = path.join(repo.root, ".docket", "notebook", "proposals");
    fs.mkdirSync(proposals, { recursive: true });
    fs.writeFileSync(path.join(proposals, "proposal-11111111-1111-4111-8111-111111111111.json"), "{}");
    const output = notice(stop("claude", repo, "work", answer));
    assert.match(output, /review .* is supported, but recorded work remains/u);
    assert.match(output, /- authorized-change: /u);
    assert.match(output, /- board-finding: .*make greet trim.*FIX_REQUIRED/u);
    assert.match(output, /- notebook-proposal: Notebook proposal proposal-11111111-1111-4111-8111-111111111111 awaits/u);
    // A board that says GO is no longer remaining work.
    recordBoard(repo.root, scope, { basisSha256: "b".repeat(64), task: "make greet trim", verdict: "GO", reasons: [] });
    assert.doesNotMatch(notice(stop("claude", repo, "work", answer)), /board-finding/u);
  } finally {
    repo.dispose();
  }
});

test("the answer from the transcript when the host gives none; unavailable is said, never proof", async () => {
  const { repo, ledger } = await docketOn();
  try {
    const answer = await supportedAnswer(ledger, "greet.ts trims the name.");
    prompt("claude", repo, "t", "Go.");
    const transcript = path.join(repo.root, ".git", "transcript.jsonl");
    const line = { type: "assistant", isSidechain: false, message: { id: "msg_1", role: "assistant", content: [{ type: "text", text: answer }] } };
    fs.writeFileSync(transcript, `${JSON.stringify({ type: "user", message: { role: "user", content: "Go." } })}\n${JSON.stringify(line)}\n`);
    assert.deepEqual(stop("claude", repo, "t", null, { transcript_path: transcript }), {});
    const unavailable = stop("claude", repo, "t", null, { transcript_path: null });
    assert.match(notice(unavailable), /could not read the final answer/u);
    // Continuing the agent cannot fix the host's input: never a block on an unreadable answer.
    writeGuardMode(repo.root, "block-once");
    const unblockable = stop("claude", repo, "t", null, { transcript_path: null });
    assert.equal(unblockable.decision, undefined);
    assert.match(notice(unblockable), /could not read the final answer/u);
    writeGuardMode(repo.root, "notice");
    fs.writeFileSync(transcript, "not json\n");
    assert.match(notice(stop("claude", repo, "t", null, { transcript_path: transcript })), /docket\.transcript-invalid/u);
  } finally {
    repo.dispose();
  }
});

test("a damaged ledger gets a notice saying nothing was checked: never a block, never silence", async () => {
  const { repo, ledger } = await docketOn();
  try {
    const answer = await supportedAnswer(ledger, "greet.ts trims the name.");
    writeGuardMode(repo.root, "block-once");
    fs.appendFileSync(path.join(repo.root, ".docket", "ledger.jsonl"), "{\"not\":\"a ledger line\"}\n");
    for (const host of ["claude", "codex", "vscode"] as const) {
      const output = stop(host, repo, `${host}-damaged`, answer);
      assert.equal(output.decision ?? output.hookSpecificOutput?.decision, undefined, host);
      assert.match(notice(output), /could not read its ledger.*nothing here is proof/su, host);
    }
  } finally {
    repo.dispose();
  }
});
