// Block-once never loops (guard.md "At Stop"; vscode-and-agents.md §5 "Stop-hook loops"): Claude
// Code has been reported to repeat Stop with `stop_hook_active` still false within one turn
// (anthropics/claude-code#54360), so the flag alone cannot keep a block from repeating. Here the
// hook runs exactly as a host runs it — `node dist/docket-hook.js hook --host <h> --workspace W
// Stop`, the host's Stop JSON on stdin — for Claude Code and Codex: the first unsupported Stop of a
// session's input blocks, every later one yields with the notice whatever the flag says, a Stop
// that says it follows a continuation never blocks, and a new prompt re-arms the block once.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { tempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const HOOK = path.join(repoRoot(), "dist", "docket-hook.js");
const CLI = path.join(repoRoot(), "dist", "docket.js");
const HOSTS = ["claude", "codex"] as const;
type Host = (typeof HOSTS)[number];

/** Codex's Stop output schema is closed: only these fields (real-hosts.md). */
const CODEX_STOP_FIELDS = new Set(["continue", "decision", "reason", "stopReason", "suppressOutput", "systemMessage"]);
const ANSWER = "Done, all tests pass.";

let workspace = "";
let dispose: () => void = () => undefined;

before(async () => {
  const repo = tempRepo({ files: { "README.md": "hello\n" } });
  dispose = () => repo.dispose();
  workspace = repo.root;
  const ledger = new WorkspaceLedger({ workspaceFolder: workspace, ledgerPath: path.join(workspace, ".docket", "ledger.jsonl"), trusted: true });
  ledger.refresh();
  await ledger.turnOn();
  const mode = spawnSync(process.execPath, [CLI, "guard", "mode", "block-once", "--workspace", workspace], { cwd: workspace, encoding: "utf8", timeout: 30_000 });
  assert.equal(mode.status, 0, mode.stderr);
});

after(() => dispose());

function common(host: Host, sessionId: string, event: string): Record<string, unknown> {
  const base = { session_id: sessionId, transcript_path: null, cwd: workspace, hook_event_name: event, permission_mode: host === "codex" ? "bypassPermissions" : "default" };
  return host === "codex" ? { ...base, turn_id: "turn-1", model: "gpt-5.5" } : base;
}

function runHook(host: Host, event: string, input: Record<string, unknown>): Record<string, unknown> {
  const result = spawnSync(process.execPath, [HOOK, "hook", "--host", host, "--workspace", workspace, event], { cwd: workspace, input: JSON.stringify(input), encoding: "utf8", timeout: 30_000 });
  assert.equal(result.status, 0, `${host} ${event} exited ${String(result.status)}: ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

function prompt(host: Host, sessionId: string, text: string): void {
  runHook(host, "UserPromptSubmit", { ...common(host, sessionId, "UserPromptSubmit"), prompt: text });
}

function stop(host: Host, sessionId: string, stopHookActive: boolean): Record<string, unknown> {
  const output = runHook(host, "Stop", { ...common(host, sessionId, "Stop"), stop_hook_active: stopHookActive, last_assistant_message: ANSWER });
  if (host === "codex") for (const key of Object.keys(output)) assert.ok(CODEX_STOP_FIELDS.has(key), `Codex's closed Stop schema has no field ${key}: ${JSON.stringify(output)}`);
  return output;
}

function assertBlocks(output: Record<string, unknown>, label: string): void {
  assert.equal(output.decision, "block", `${label}: ${JSON.stringify(output)}`);
  assert.match(String(output.reason), /^Docket: before you stop/u, label);
}

function assertYieldsWithNotice(output: Record<string, unknown>, label: string): void {
  assert.equal(output.decision, undefined, `${label} must not block: ${JSON.stringify(output)}`);
  assert.match(String(output.systemMessage), /^Docket: [^\n]*not backed by a supported review[^\n]*docket\.marker-missing/u, label);
}

for (const host of HOSTS) {
  test(`${host}: block-once blocks the first unsupported Stop once; a repeated Stop with stop_hook_active false yields with the notice`, () => {
    const session = randomUUID();
    prompt(host, session, "Fix the bug.");
    assertBlocks(stop(host, session, false), "first Stop");
    assertYieldsWithNotice(stop(host, session, false), "second Stop, flag false");
    assertYieldsWithNotice(stop(host, session, false), "third Stop, flag false");
  });

  test(`${host}: a Stop that says it follows a continuation (stop_hook_active true) never blocks, and spends nothing`, () => {
    const session = randomUUID();
    prompt(host, session, "Fix the bug.");
    assertYieldsWithNotice(stop(host, session, true), "Stop with the flag true");
    assertBlocks(stop(host, session, false), "the input's first Stop with the flag false");
    assertYieldsWithNotice(stop(host, session, false), "then with the flag false again");
  });

  test(`${host}: a new prompt in the same session is a new intake: it may be continued once more, then yields`, () => {
    const session = randomUUID();
    prompt(host, session, "Fix the bug.");
    assertBlocks(stop(host, session, false), "first input");
    assertYieldsWithNotice(stop(host, session, false), "first input, repeated");
    prompt(host, session, "Now fix the other bug.");
    assertBlocks(stop(host, session, false), "second input");
    assertYieldsWithNotice(stop(host, session, false), "second input, repeated");
  });

  test(`${host}: sessions count apart: another session's block does not spend this one's`, () => {
    const [first, second] = [randomUUID(), randomUUID()];
    prompt(host, first, "Fix the bug.");
    prompt(host, second, "Fix the bug.");
    assertBlocks(stop(host, first, false), "session 1");
    assertBlocks(stop(host, second, false), "session 2");
    assertYieldsWithNotice(stop(host, first, false), "session 1 again");
    assertYieldsWithNotice(stop(host, second, false), "session 2 again");
  });
}
