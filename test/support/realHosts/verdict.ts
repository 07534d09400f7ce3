// Judges one real-host session by what the host did: files created or changed on disk, the tool
// result the model received, the host's own log of the hook's decision, and the ledger's bytes —
// and, when a gated call ran, says why from the host's log (no hook loaded, a matcher that never
// sends the tool, a hook that answered allow, the folder the hook took for the workspace).
import fs from "node:fs";
import path from "node:path";
import type { LedgerWatch, PreparedCase } from "./cases";
import type { HostRun } from "./hostRun";
import { stubCallId, toolResultsByCallId } from "./stubModel";
import type { HostWorkspace } from "./workspace";

function countMatches(text: string, pattern: RegExp): number {
  return [...text.matchAll(pattern)].length;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
}

/** How many hook denials the host's own log records for `hookTool` (Codex's log does not name the tool). */
function loggedDenials(run: HostRun, hookTool: string): number {
  if (run.host === "claude") return countMatches(run.log, new RegExp(`Hook denied tool use for ${escapeRegExp(hookTool)}\\b`, "gu"));
  // Codex prints one line per hook run and its outcome; "Blocked" is a parsed deny.
  return countMatches(run.log, /^hook: PreToolUse Blocked$/gmu);
}

/** Whether the host ran Docket's PreToolUse hook at all during the session. */
function loggedDocketHook(run: HostRun): boolean {
  if (run.host === "claude") return /Hooks: PreToolUse:\S+ \[node "[^"]*docket-hook\.js" hook --host claude (?:--\S+ (?:"[^"]*"|\S+) )*PreToolUse\] finished with status 0/u.test(run.log);
  return /^hook: PreToolUse (Completed|Blocked)$/mu.test(run.log);
}

/** Claude Code's PreToolUse runs of Docket's hook: the tool each was for and what it answered. */
function claudeHookAnswers(log: string): { tool: string; output: string }[] {
  return [...log.matchAll(/"Hook PreToolUse:(\S+) \(PreToolUse\) success:\\n(.*)"$/gmu)].map((match) => ({ tool: match[1] ?? "", output: (match[2] ?? "").replace(/\\"/gu, '"') }));
}

/** Heartbeats Docket's hook left under the repository other than its own: the folders it took for the workspace. */
function strayHeartbeats(root: string): string[] {
  const found: string[] = [];
  const visit = (directory: string, depth: number): void => {
    if (depth > 3) return;
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === ".git" || entry.name === "node_modules") continue;
      const child = path.join(directory, entry.name);
      if (entry.name === ".docket") {
        if (directory !== root && fs.existsSync(path.join(child, "hooks", "heartbeat.json"))) found.push(directory);
        continue;
      }
      visit(child, depth + 1);
    }
  };
  visit(root, 0);
  return found;
}

/** Why a gated call ran, from what the host logged: the sentence a failure report needs. */
function diagnose(run: HostRun, workspace: HostWorkspace, cwd: string, gatedTools: readonly string[]): string {
  const notes: string[] = [];
  if (run.host === "claude") {
    if (!run.log.includes("docket-hook.js")) {
      notes.push(`Claude Code ran no Docket hook at all in this session: it did not load the workspace's .claude/settings.json from ${cwd}`);
    } else {
      const answers = claudeHookAnswers(run.log);
      for (const tool of new Set(gatedTools)) {
        // The gated calls of a case come after its helper calls: the last answers are theirs.
        const mine = answers.filter((answer) => answer.tool === tool).slice(-gatedTools.filter((gated) => gated === tool).length);
        if (mine.length === 0) notes.push(`Claude Code never asked Docket's PreToolUse hook about ${tool} (the installed matcher does not send it)`);
        else for (const answer of mine) if (!answer.output.includes('"deny"')) notes.push(`Docket's PreToolUse hook ran for ${tool} and answered ${answer.output}`);
      }
    }
  } else if (!/^hook: /mu.test(run.log)) {
    notes.push(`Codex ran no Docket hook at all in this session: it did not load the workspace's .codex/ from ${cwd}`);
  } else if (!/^hook: PreToolUse$/mu.test(run.log)) {
    notes.push("Codex never ran the PreToolUse hook (the installed matcher does not send this tool)");
  } else if (/^hook: PreToolUse Completed$/mu.test(run.log)) {
    notes.push("Docket's PreToolUse hook ran and did not deny");
  }
  for (const folder of strayHeartbeats(workspace.root)) notes.push(`Docket's hook took ${folder} for the workspace (its heartbeat is there)`);
  return notes.length === 0 ? "no hook-level explanation in the host's log" : notes.join("; ");
}

function tail(text: string, lines = 12): string {
  return text.trim().split("\n").slice(-lines).join("\n");
}

/** The bytes of every file a gated call must leave unchanged, taken before the session. */
export function snapshotUnchanged(prepared: PreparedCase): Map<string, Buffer | null> {
  const snapshots = new Map<string, Buffer | null>();
  for (const call of prepared.calls) {
    if (call.expect.kind !== "denied") continue;
    for (const file of call.expect.unchanged ?? []) snapshots.set(file, fs.existsSync(file) ? fs.readFileSync(file) : null);
  }
  return snapshots;
}

export interface Verdict {
  readonly failures: string[];
  readonly gateAttempts: number;
  /** Set when the case's documented host limitation held: the host never asked Docket. */
  readonly limitation: string | null;
}

/** Whether the host ran any Docket hook at all (project hooks loaded). */
function loadedDocketHooks(run: HostRun): boolean {
  return run.host === "claude" ? run.log.includes("docket-hook.js") : /^hook: /mu.test(run.log);
}

export function evaluate(
  run: HostRun,
  workspace: HostWorkspace,
  prepared: PreparedCase,
  ledger: LedgerWatch,
  snapshots: Map<string, Buffer | null>,
  hostLimitation?: string,
): Verdict {
  if (hostLimitation !== undefined && !run.timedOut && run.exitCode === 0 && !loadedDocketHooks(run)) {
    return { failures: ledger.changed() ? ["the ledger's bytes changed during the session"] : [], gateAttempts: 0, limitation: hostLimitation };
  }
  const failures: string[] = [];
  if (run.timedOut) failures.push(`the host did not finish in time (killed); stderr: ${tail(run.stderr)}`);
  else if (run.exitCode !== 0) failures.push(`the host exited ${String(run.exitCode ?? run.signal)}; stderr: ${tail(run.stderr)}`);
  if (run.overflow > 0) failures.push(`the host asked the model ${run.overflow} more times than the stub allows (a loop)`);
  for (const error of run.stubErrors) failures.push(`the stub model failed: ${error}`);
  const results = toolResultsByCallId(run.requests);
  const dialect = run.host === "claude" ? "anthropic" : "openai";
  const deniedPerTool = new Map<string, number>();
  let gateAttempts = 0;
  prepared.calls.forEach((call, index) => {
    const label = `call ${index} (${call.step.name})`;
    const result = results.get(stubCallId(dialect, index));
    if (call.expect.kind === "denied") {
      gateAttempts += 1;
      deniedPerTool.set(call.hookTool, (deniedPerTool.get(call.hookTool) ?? 0) + 1);
      for (const file of call.expect.absent ?? []) if (fs.existsSync(file)) failures.push(`${label} ran: ${file} exists`);
      for (const file of call.expect.unchanged ?? []) {
        const now = fs.existsSync(file) ? fs.readFileSync(file) : null;
        const before = snapshots.get(file) ?? null;
        if (!(now === null ? before === null : before !== null && before.equals(now))) failures.push(`${label} ran: ${file} changed`);
      }
      if (result === undefined) failures.push(`${label}: the model never received its result`);
      else if (!/Docket denied/u.test(result)) failures.push(`${label}: the model was not told Docket denied it; it got: ${JSON.stringify(result.slice(0, 300))}`);
    } else {
      for (const file of call.expect.present ?? []) if (!fs.existsSync(file)) failures.push(`${label} should have run: ${file} is missing`);
      if (result === undefined) failures.push(`${label}: the model never received its result`);
      else if (/Docket denied/u.test(result)) failures.push(`${label} should have run but Docket denied it: ${JSON.stringify(result.slice(0, 300))}`);
    }
  });
  if (run.host === "claude") {
    for (const [hookTool, expected] of deniedPerTool) {
      const logged = loggedDenials(run, hookTool);
      if (logged < expected) failures.push(`Claude Code's debug log shows ${logged} parsed hook denial(s) of ${hookTool}, expected ${expected}`);
    }
  } else if (gateAttempts > 0) {
    const logged = loggedDenials(run, "");
    if (logged < gateAttempts) failures.push(`Codex's log shows ${logged} PreToolUse hook block(s), expected ${gateAttempts}`);
  }
  if (gateAttempts === 0) {
    if (!loggedDocketHook(run)) failures.push("the host's log shows no run of Docket's PreToolUse hook");
    if (prepared.calls.some((call) => loggedDenials(run, call.hookTool) > 0)) failures.push("the host's log shows a hook denial");
  }
  if (ledger.changed()) failures.push("the ledger's bytes changed during the session");
  const gatedTools = prepared.calls.filter((call) => call.expect.kind === "denied").map((call) => call.hookTool);
  if (failures.length > 0 && gateAttempts > 0) failures.push(`why: ${diagnose(run, workspace, prepared.cwd, gatedTools)}`);
  return { failures, gateAttempts, limitation: null };
}
